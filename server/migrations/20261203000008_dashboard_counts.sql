-- The chief's dashboard (issue #6) at any size (issue #8): its counts, added up
-- ahead per day, month and year of the Town calendar (incident.local_date), so a
-- period of years reads a few hundred rows instead of every incident in it.
-- store::dashboard::rollup names the measures and fills this table; the figures
-- are still computed from the records themselves, a day at a time.
CREATE TABLE dashboard_count (
    grain   TEXT NOT NULL CHECK (grain IN ('day', 'month', 'year')),
    bucket  TEXT NOT NULL,            -- 2026-07-04, 2026-07 or 2026
    measure TEXT NOT NULL,            -- what is counted: incidents, person_response, collected, …
    key     TEXT NOT NULL,            -- the value it is counted under; '' when none
    label   TEXT,                     -- locations: the spelling shown (the least, as MIN gives)
    n       INTEGER NOT NULL,         -- a count, or cents for the money measures
    -- A period reads each measure as one range of buckets per grain.
    PRIMARY KEY (grain, measure, bucket, key)
) STRICT, WITHOUT ROWID;

-- Days whose counts no longer match the records: the triggers below mark them,
-- and the next dashboard read (or `server seed`) recounts them. Marking is one
-- small insert per write; the recount is paid once, by the reader.
CREATE TABLE dashboard_stale (
    local_date TEXT PRIMARY KEY NOT NULL
) STRICT, WITHOUT ROWID;

-- Each trigger inserts only days not marked yet (not INSERT OR IGNORE: inside a
-- trigger, the conflict policy of the statement that fired it wins, and an
-- upsert's would turn the ignore into an error).

-- Incident columns the dashboard reads (not its status: review moves it often
-- and no figure counts by it). A correction that moves the date marks both days.
CREATE TRIGGER incident_dashboard_insert AFTER INSERT ON incident
BEGIN
    INSERT INTO dashboard_stale (local_date) SELECT NEW.local_date
        WHERE NOT EXISTS (SELECT 1 FROM dashboard_stale WHERE local_date = NEW.local_date);
END;
CREATE TRIGGER incident_dashboard_update AFTER UPDATE OF
    local_date, officer_id, local_hour, local_weekday, protected_activity,
    location_text, gps_lat, gps_lon ON incident
BEGIN
    INSERT INTO dashboard_stale (local_date)
        SELECT d FROM (SELECT OLD.local_date AS d UNION SELECT NEW.local_date)
        WHERE d NOT IN (SELECT local_date FROM dashboard_stale);
END;

-- Persons: counted by offence, outcome, §52-1 D response and perception.
CREATE TRIGGER subject_dashboard_insert AFTER INSERT ON subject
BEGIN
    INSERT INTO dashboard_stale (local_date)
        SELECT local_date FROM incident WHERE incident_id = NEW.incident_id
        AND local_date NOT IN (SELECT local_date FROM dashboard_stale);
END;
CREATE TRIGGER subject_dashboard_update AFTER UPDATE OF
    incident_id, offence, outcome, response, perceived_age, perceived_sex,
    perceived_race, withdrawn_at ON subject
BEGIN
    INSERT INTO dashboard_stale (local_date)
        SELECT DISTINCT local_date FROM incident WHERE incident_id IN (OLD.incident_id, NEW.incident_id)
        AND local_date NOT IN (SELECT local_date FROM dashboard_stale);
END;

-- Citations: issued and void, and the money at court (not last_exported_at,
-- which every export writes on every citation it carries).
CREATE TRIGGER citation_dashboard_insert AFTER INSERT ON citation
BEGIN
    INSERT INTO dashboard_stale (local_date)
        SELECT local_date FROM incident WHERE incident_id = NEW.incident_id
        AND local_date NOT IN (SELECT local_date FROM dashboard_stale);
END;
CREATE TRIGGER citation_dashboard_update AFTER UPDATE OF
    incident_id, status, disposition, fine_assessed_cents, costs_assessed_cents,
    paid_cents ON citation
BEGIN
    INSERT INTO dashboard_stale (local_date)
        SELECT DISTINCT local_date FROM incident WHERE incident_id IN (OLD.incident_id, NEW.incident_id)
        AND local_date NOT IN (SELECT local_date FROM dashboard_stale);
END;

-- The chief's returns and voids (review_decision is append-only).
CREATE TRIGGER review_decision_dashboard_insert AFTER INSERT ON review_decision
BEGIN
    INSERT INTO dashboard_stale (local_date)
        SELECT local_date FROM incident WHERE incident_id = NEW.incident_id
        AND local_date NOT IN (SELECT local_date FROM dashboard_stale);
END;

-- Records made before this migration: every day is counted at the first read.
INSERT OR IGNORE INTO dashboard_stale (local_date) SELECT DISTINCT local_date FROM incident;
