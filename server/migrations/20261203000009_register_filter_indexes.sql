-- The register at 1 000 000 incidents (issue #8: a page in ≤ 25 ms). A filter
-- that keeps few rows made the register walk thousands of incidents in date order
-- to find 50; these indexes hold those rows in date order themselves.

-- "Fridays at 3 p.m." (about 1 incident in 150).
CREATE INDEX incident_weekday_hour ON incident (local_weekday, local_hour, occurred_at, incident_id);

-- One partial index per caution the chief's queue filters on (model::review::
-- CautionKind): each holds only the cautioned incidents, so it costs a write
-- only when a report is cautioned. store::register writes the same expression
-- with the same literal, which is what lets SQLite use these.
CREATE INDEX incident_caution_expression ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% expression %';
CREATE INDEX incident_caution_status_words ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% status_words %';
CREATE INDEX incident_caution_early_refusal ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% early_refusal %';
CREATE INDEX incident_caution_gps_far ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% gps_far %';
