-- Town and court settings, edited by an administrator (DESIGN §1, admin row).
-- A key/value table: each setting is read by name, and its default lives in code,
-- so a fresh database works before anyone has changed anything.
CREATE TABLE setting (
    -- e.g. 'court.name', 'court.address', 'town.time_zone'
    key        TEXT PRIMARY KEY NOT NULL,
    value      TEXT NOT NULL,
    -- UTC milliseconds since the Unix epoch, like every time in this schema
    updated_at INTEGER NOT NULL
) STRICT;
