-- The twin of SQLite's 20261207000501_published_month.sql (issue #40; see there
-- for what each column holds).
CREATE TABLE published_month (
    seq          BIGINT PRIMARY KEY NOT NULL,
    month        TEXT COLLATE "C" NOT NULL,
    revision     BIGINT NOT NULL CHECK (revision >= 1),
    published_at BIGINT NOT NULL,
    published_on TEXT COLLATE "C" NOT NULL,
    published_by TEXT COLLATE "C" NOT NULL REFERENCES app_user (user_id),
    reason       TEXT COLLATE "C",
    month_json   TEXT COLLATE "C" NOT NULL,
    month_sha256 TEXT COLLATE "C" NOT NULL,
    year_json    TEXT COLLATE "C" NOT NULL,
    year_sha256  TEXT COLLATE "C" NOT NULL,
    counts_json  TEXT COLLATE "C" NOT NULL,
    UNIQUE (month, revision)
);

CREATE TRIGGER published_month_no_update BEFORE UPDATE ON published_month
    FOR EACH ROW EXECUTE FUNCTION refuse_change('published months are append-only');
CREATE TRIGGER published_month_no_delete BEFORE DELETE ON published_month
    FOR EACH ROW EXECUTE FUNCTION refuse_change('published months are append-only');
-- PostgreSQL only: TRUNCATE skips row triggers.
CREATE TRIGGER published_month_no_truncate BEFORE TRUNCATE ON published_month
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('published months are append-only');

INSERT INTO dashboard_stale (local_date) SELECT DISTINCT local_date FROM incident
    ON CONFLICT (local_date) DO NOTHING;
