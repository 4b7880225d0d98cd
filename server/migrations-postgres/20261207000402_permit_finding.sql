-- The twin of SQLite's 20261207000402_permit_finding.sql (issue #37, finding
-- 9): the Board's findings (§52-8 B), each open until the Board marks it met.
CREATE TABLE permit_finding (
    finding_id     TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    application_id TEXT COLLATE "C" NOT NULL REFERENCES permit_application (application_id),
    provision      TEXT COLLATE "C" NOT NULL,
    finding        TEXT COLLATE "C" NOT NULL CHECK (length(trim(finding)) > 0),
    step           TEXT COLLATE "C" NOT NULL CHECK (length(trim(step)) > 0),
    found_day      BIGINT NOT NULL,
    found_at       BIGINT NOT NULL,
    found_by       TEXT COLLATE "C" NOT NULL REFERENCES app_user (user_id),
    answer         TEXT COLLATE "C",
    answered_at    BIGINT,
    met_day        BIGINT,
    met_at         BIGINT,
    met_by         TEXT COLLATE "C" REFERENCES app_user (user_id),
    met_note       TEXT COLLATE "C"
);

CREATE INDEX permit_finding_application ON permit_finding (application_id, found_at);

CREATE TRIGGER permit_finding_no_delete BEFORE DELETE ON permit_finding
    FOR EACH ROW EXECUTE FUNCTION refuse_change('the Board''s findings are never deleted');

CREATE FUNCTION permit_finding_met_stays() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.met_at IS NOT NULL AND (NEW.met_day IS DISTINCT FROM OLD.met_day
        OR NEW.met_at IS DISTINCT FROM OLD.met_at OR NEW.met_by IS DISTINCT FROM OLD.met_by
        OR NEW.met_note IS DISTINCT FROM OLD.met_note) THEN
        RAISE EXCEPTION USING MESSAGE = 'a finding marked met stays met', ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER permit_finding_met_stays BEFORE UPDATE ON permit_finding
    FOR EACH ROW EXECUTE FUNCTION permit_finding_met_stays();
CREATE TRIGGER permit_finding_no_truncate BEFORE TRUNCATE ON permit_finding
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('the Board''s findings are never deleted');
