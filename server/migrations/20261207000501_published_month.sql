-- Public accountability (issue #40): the months the chief has published. Each
-- row is one revision of one month, fixed once written: the public JSON of the
-- month and of the year to date it made (their SHA-256 published beside them),
-- and the month's true counts, which never leave the desk (later publications
-- are checked against them, so no difference of two views gives a small count
-- back). A correction is a new revision; nothing is updated or deleted.
CREATE TABLE published_month (
    -- The order of publication, 1, 2, 3…: the year to date shown is the last one's.
    seq          INTEGER PRIMARY KEY NOT NULL,
    month        TEXT NOT NULL,              -- YYYY-MM, a month that had ended
    revision     INTEGER NOT NULL CHECK (revision >= 1),
    published_at INTEGER NOT NULL,
    published_on TEXT NOT NULL,              -- the Town's date of publication
    published_by TEXT NOT NULL REFERENCES app_user (user_id),
    -- A correction's reason, published as written (the first revision has none).
    reason       TEXT,
    -- model::transparency::PublishedView, serialised canonically: what
    -- /transparency/<month>/r<revision>/data.json serves, byte for byte.
    month_json   TEXT NOT NULL,
    month_sha256 TEXT NOT NULL,
    -- The year to date as this publication made it (every published month of
    -- the year, each at its latest revision).
    year_json    TEXT NOT NULL,
    year_sha256  TEXT NOT NULL,
    -- The month's true counts by table, row and column (never public).
    counts_json  TEXT NOT NULL,
    UNIQUE (month, revision)
) STRICT;

CREATE TRIGGER published_month_no_update BEFORE UPDATE ON published_month
BEGIN SELECT RAISE(ABORT, 'published months are append-only'); END;
CREATE TRIGGER published_month_no_delete BEFORE DELETE ON published_month
BEGIN SELECT RAISE(ABORT, 'published months are append-only'); END;

-- The published tables' counts (store::dashboard::published) are added up with
-- the dashboard's: every day is counted again at the next read.
INSERT OR IGNORE INTO dashboard_stale (local_date) SELECT DISTINCT local_date FROM incident;
