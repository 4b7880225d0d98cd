-- The court's record (issue #33, finding 5): the twin of SQLite's
-- 20261207000201_court_record.sql (see there for what it is for).

ALTER TABLE citation ADD COLUMN replaces TEXT COLLATE "C" REFERENCES citation (number);

CREATE INDEX citation_replaces ON citation (replaces) WHERE replaces IS NOT NULL;

CREATE TABLE citation_withdrawal (
    number      TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES citation (number),
    incident_id TEXT COLLATE "C" NOT NULL REFERENCES incident (incident_id),
    revision    BIGINT NOT NULL,
    reason      TEXT COLLATE "C" NOT NULL CHECK (length(trim(reason)) > 0),
    actor_id    TEXT COLLATE "C" NOT NULL REFERENCES app_user (user_id),
    at          BIGINT NOT NULL
);

CREATE INDEX citation_withdrawal_at ON citation_withdrawal (at);

CREATE TRIGGER citation_withdrawal_no_update BEFORE UPDATE ON citation_withdrawal
    FOR EACH ROW EXECUTE FUNCTION refuse_change('withdrawals are append-only');
CREATE TRIGGER citation_withdrawal_no_delete BEFORE DELETE ON citation_withdrawal
    FOR EACH ROW EXECUTE FUNCTION refuse_change('withdrawals are append-only');
-- PostgreSQL only: TRUNCATE skips row triggers.
CREATE TRIGGER citation_withdrawal_no_truncate BEFORE TRUNCATE ON citation_withdrawal
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('withdrawals are append-only');
