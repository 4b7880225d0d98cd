-- The twin of SQLite's 20261207000203_conversion_check.sql (issue #33, finding
-- 8). A PostgreSQL database is always created new (see the schema's first
-- migration): it holds no report of the first version's shape, so nothing is
-- copied into converted_citation.
CREATE TABLE converted_citation (
    number TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES citation (number)
);

CREATE TABLE conversion_check (
    number   TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES converted_citation (number),
    note     TEXT COLLATE "C" NOT NULL,
    actor_id TEXT COLLATE "C" NOT NULL REFERENCES app_user (user_id),
    at       BIGINT NOT NULL
);

CREATE TRIGGER converted_citation_no_update BEFORE UPDATE ON converted_citation
    FOR EACH ROW EXECUTE FUNCTION refuse_change('converted citations are append-only');
CREATE TRIGGER converted_citation_no_delete BEFORE DELETE ON converted_citation
    FOR EACH ROW EXECUTE FUNCTION refuse_change('converted citations are append-only');
CREATE TRIGGER conversion_check_no_update BEFORE UPDATE ON conversion_check
    FOR EACH ROW EXECUTE FUNCTION refuse_change('conversion checks are append-only');
CREATE TRIGGER conversion_check_no_delete BEFORE DELETE ON conversion_check
    FOR EACH ROW EXECUTE FUNCTION refuse_change('conversion checks are append-only');
-- PostgreSQL only: TRUNCATE skips row triggers.
CREATE TRIGGER converted_citation_no_truncate BEFORE TRUNCATE ON converted_citation
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('converted citations are append-only');
CREATE TRIGGER conversion_check_no_truncate BEFORE TRUNCATE ON conversion_check
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('conversion checks are append-only');
