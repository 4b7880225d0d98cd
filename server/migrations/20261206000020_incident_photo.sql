-- Issue #20: photos of an incident, up to ten, in their own table so the report
-- rows stay small. The phone makes each photo's id, so a retried upload finds
-- the photo it already stored. Append-only: a photo is evidence.
CREATE TABLE incident_photo (
    photo_id     TEXT PRIMARY KEY NOT NULL,          -- UUID v7, made on the phone
    incident_id  TEXT NOT NULL REFERENCES incident (incident_id),
    -- The JPEG as stored: at most 1600 px a side, every metadata segment removed.
    jpeg         BLOB NOT NULL,
    sha256       TEXT NOT NULL,                      -- of `jpeg`, as audited
    width        INTEGER NOT NULL,
    height       INTEGER NOT NULL,
    added_by     TEXT NOT NULL REFERENCES app_user (user_id),
    added_at     INTEGER NOT NULL                    -- ms since the epoch
);
CREATE INDEX incident_photo_by_incident ON incident_photo (incident_id, added_at);

CREATE TRIGGER incident_photo_no_update BEFORE UPDATE ON incident_photo
BEGIN SELECT RAISE(ABORT, 'incident photos are append-only'); END;
CREATE TRIGGER incident_photo_no_delete BEFORE DELETE ON incident_photo
BEGIN SELECT RAISE(ABORT, 'incident photos are append-only'); END;
