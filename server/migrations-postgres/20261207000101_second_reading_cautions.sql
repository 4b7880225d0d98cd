-- PostgreSQL twin of ../migrations/20261208000031_second_reading_cautions.sql
-- (issue #33): the six new cautions' partial indexes, the same expression with
-- the same literal as the SQLite ones and as store::register's filter.
CREATE INDEX incident_caution_annoyance ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% annoyance %';
CREATE INDEX incident_caution_arrest_authority ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% arrest_authority %';
CREATE INDEX incident_caution_contravening ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% contravening %';
CREATE INDEX incident_caution_two_sections ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% two_sections %';
CREATE INDEX incident_caution_minor ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% minor %';
CREATE INDEX incident_caution_unidentified ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% unidentified %';
