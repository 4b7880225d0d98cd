-- Issue #38: each release of the server that opened this database, with the
-- newest migration it knew. A release that finds migrations it does not know
-- names the release that wrote them instead of guessing at the schema.
CREATE TABLE server_release (
    version TEXT NOT NULL PRIMARY KEY,
    migration INTEGER NOT NULL,
    first_at INTEGER NOT NULL
);
