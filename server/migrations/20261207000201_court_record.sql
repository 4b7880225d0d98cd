-- The court's record (issue #33, finding 5). Once a citation is with the
-- District Court (filed or disposed) its number, person, offence, arrest and
-- fine are the court's: an amendment never rewrites them. A change after filing
-- is a new citation, approved by the chief who amended, that names the one it
-- replaces; and a recorded withdrawal of the old one, for the clerk to take to
-- the court (the product cannot dismiss a case; the court does). The old
-- citation keeps its status (filed or disposed): what the court was given.

-- The citation withdrawn from the court that this one replaces, if any.
ALTER TABLE citation ADD COLUMN replaces TEXT REFERENCES citation (number);

CREATE INDEX citation_replaces ON citation (replaces) WHERE replaces IS NOT NULL;

-- A withdrawal of a citation already with the court. Append-only: the Town's
-- word to the court is never taken back, only followed by another.
CREATE TABLE citation_withdrawal (
    number      TEXT PRIMARY KEY NOT NULL REFERENCES citation (number),
    incident_id TEXT NOT NULL REFERENCES incident (incident_id),
    -- The last revision of the report the citation stood on: it prints from
    -- that revision, as the court was given it.
    revision    INTEGER NOT NULL,
    -- The amendment's reason, which the clerk takes to the court.
    reason      TEXT NOT NULL CHECK (length(trim(reason)) > 0),
    actor_id    TEXT NOT NULL REFERENCES app_user (user_id),
    at          INTEGER NOT NULL
) STRICT;

CREATE INDEX citation_withdrawal_at ON citation_withdrawal (at);

CREATE TRIGGER citation_withdrawal_no_update BEFORE UPDATE ON citation_withdrawal
BEGIN SELECT RAISE(ABORT, 'withdrawals are append-only'); END;
CREATE TRIGGER citation_withdrawal_no_delete BEFORE DELETE ON citation_withdrawal
BEGIN SELECT RAISE(ABORT, 'withdrawals are append-only'); END;
