-- Session records of tower-sessions' SQLite store (the schema its `migrate()` would
-- create), kept here so every table is created by one set of migrations.
-- `data` is the MessagePack record; what the app keeps in it and the idle and
-- absolute timeouts are in app/src/auth/session.rs.
CREATE TABLE IF NOT EXISTS tower_sessions (
    id          TEXT PRIMARY KEY NOT NULL,
    data        BLOB NOT NULL,
    expiry_date INTEGER NOT NULL
);
