-- Issue #37, finding 9: a standard the Board of Selectmen finds not met
-- (§52-8 B) that the rules cannot check — e.g. §52-10(2)(b), a second gate —
-- used to live only in the denial's decision_json, which the operator's next
-- change cleared: the permit was then issued with the finding unanswered. Each
-- finding is its own row, open until the Board marks it met; no permit issues
-- while one is open (store::permits::decide).
CREATE TABLE permit_finding (
    finding_id     TEXT PRIMARY KEY NOT NULL,                -- UUID v7
    application_id TEXT NOT NULL REFERENCES permit_application (application_id),
    -- The standard named (ordinance::article_ii::Provision, as serde writes it:
    -- `S52_10_2B`), what the Board found and the step that would meet it.
    provision      TEXT NOT NULL,
    finding        TEXT NOT NULL CHECK (length(trim(finding)) > 0),
    step           TEXT NOT NULL CHECK (length(trim(step)) > 0),
    -- The meeting at which the Board found it (Town days since 1970-01-01), and
    -- who recorded it when (a Selectman or the Town Clerk).
    found_day      INTEGER NOT NULL,
    found_at       INTEGER NOT NULL,
    found_by       TEXT NOT NULL REFERENCES app_user (user_id),
    -- The operator's latest answer through the status link (each answer is
    -- also a permit_event, kept for good).
    answer         TEXT,
    answered_at    INTEGER,
    -- The meeting at which the Board marked it met, who recorded it, and the
    -- Board's note. NULL: open.
    met_day        INTEGER,
    met_at         INTEGER,
    met_by         TEXT REFERENCES app_user (user_id),
    met_note       TEXT
) STRICT;

CREATE INDEX permit_finding_application ON permit_finding (application_id, found_at);

CREATE TRIGGER permit_finding_no_delete BEFORE DELETE ON permit_finding
BEGIN SELECT RAISE(ABORT, 'the Board''s findings are never deleted'); END;
-- A finding marked met stays met.
CREATE TRIGGER permit_finding_met_stays BEFORE UPDATE OF met_day, met_at, met_by, met_note ON permit_finding
WHEN OLD.met_at IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'a finding marked met stays met'); END;
