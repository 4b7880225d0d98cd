-- Issue #20: the officer's signature, drawn once on the phone and printed on each
-- summons the officer issues. Append-only: signing again adds a row, and a summons
-- prints the signature in force when it was issued, so a new signature never
-- changes a summons already in the court's hands.
CREATE TABLE officer_signature (
    signature_id INTEGER PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES app_user (user_id),
    -- model::signature::Signature as JSON: vector strokes in a 1000 × 300 box.
    strokes      TEXT NOT NULL,
    -- SHA-256 of `strokes`, as the audit entry of its capture records it.
    sha256       TEXT NOT NULL,
    captured_at  INTEGER NOT NULL -- ms since the epoch
);
CREATE INDEX officer_signature_by_user ON officer_signature (user_id, captured_at);

CREATE TRIGGER officer_signature_no_update BEFORE UPDATE ON officer_signature
BEGIN SELECT RAISE(ABORT, 'officer signatures are append-only'); END;
CREATE TRIGGER officer_signature_no_delete BEFORE DELETE ON officer_signature
BEGIN SELECT RAISE(ABORT, 'officer signatures are append-only'); END;

-- The signature a citation prints is the one the officer had on file when its
-- number was given: on scene, the one the phone's block of numbers was reserved
-- with (the subject's copy the phone printed shows it); at the server, the one in
-- force when the server numbered it. Citations from before have none.
ALTER TABLE number_block ADD COLUMN officer_signature_id INTEGER REFERENCES officer_signature (signature_id);
ALTER TABLE citation ADD COLUMN officer_signature_id INTEGER REFERENCES officer_signature (signature_id);
