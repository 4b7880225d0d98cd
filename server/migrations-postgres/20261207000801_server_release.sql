-- Twin of SQLite's 20261207000801: each release of the server that opened this
-- database, with the newest migration it knew (issue #38).
CREATE TABLE server_release (
    version TEXT COLLATE "C" NOT NULL PRIMARY KEY,
    migration BIGINT NOT NULL,
    first_at BIGINT NOT NULL
);
