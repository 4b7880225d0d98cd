-- Twin of SQLite's 20261207000301: an organisation cited under Article II
-- (§52-12, "any person or party"), without a date of birth; the perception
-- figures count persons only.
ALTER TABLE subject ADD COLUMN organisation BIGINT NOT NULL DEFAULT 0
    CHECK (organisation IN (0, 1));
ALTER TABLE subject ADD COLUMN representative TEXT COLLATE "C";

CREATE TRIGGER subject_dashboard_organisation AFTER UPDATE OF organisation ON subject
    FOR EACH ROW EXECUTE FUNCTION dashboard_stale_of_incident();
