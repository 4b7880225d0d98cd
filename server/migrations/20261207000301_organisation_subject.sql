-- Issue #33: an organisation may be cited under Article II — §52-12 fines "any
-- person or party" — without a date of birth. Its subject row is identified,
-- named in full_name, addressed, and marked here; `representative` names who
-- speaks for it, if known. Perception (age, sex, race) is a person's: an
-- organisation's columns hold "unknown", and the dashboard's perception figures
-- count persons only. Rows stored before are persons (0).
ALTER TABLE subject ADD COLUMN organisation INTEGER NOT NULL DEFAULT 0
    CHECK (organisation IN (0, 1));
ALTER TABLE subject ADD COLUMN representative TEXT;

-- A correction that turns a person into an organisation (or back) changes its
-- day's perception figures.
CREATE TRIGGER subject_dashboard_organisation AFTER UPDATE OF organisation ON subject
BEGIN
    INSERT INTO dashboard_stale (local_date)
        SELECT local_date FROM incident WHERE incident_id = NEW.incident_id
        AND local_date NOT IN (SELECT local_date FROM dashboard_stale);
END;
