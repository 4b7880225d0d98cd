-- The chief's dashboard (issue #6) aggregates a period of incidents by officer,
-- hour, weekday, §52-1 E answer, location and GPS cell, and their persons and
-- citations. These covering indexes let each aggregate read one index range
-- instead of every row of the period (measured at 1 000 000 incidents: see the
-- README's benchmark section).
CREATE INDEX incident_dashboard ON incident (
    local_date, officer_id, local_hour, local_weekday, protected_activity,
    gps_lat, gps_lon, incident_id
);

-- Persons of an incident with every field the dashboard groups on.
CREATE INDEX subject_dashboard ON subject (
    incident_id, withdrawn_at, offence, outcome, response,
    perceived_age, perceived_sex, perceived_race
);

-- Citations of an incident with their status (void ones are counted apart).
CREATE INDEX citation_incident_status ON citation (incident_id, status);

-- The GPS check on every submit reads the last 20 fixes at the typed location
-- (store::incidents::usual_fix); with the time in the index that is 20 index
-- steps, not a sort of every report ever made there. The register's
-- location-prefix search uses the same index.
DROP INDEX incident_location;
CREATE INDEX incident_location ON incident (location_text COLLATE NOCASE, submitted_at);
