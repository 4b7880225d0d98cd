-- Citation numbers handed out on a phone without signal (issue #17). While it
-- has signal, an officer's phone reserves a block of the year's numbers; on
-- scene it gives the next one to a person it cites, at once, on the subject's
-- copy. The report brings the number to the server later, which confirms it (the
-- citation takes it) or, when the rules refuse the report, records it void.
-- Numbers of a block nobody used come back as returned. Every number of a year
-- is then exactly one of: a citation, void on submission, returned, or still
-- reserved by the officer holding the block (store::numbers::account).

CREATE TABLE number_block (
    block_id    TEXT PRIMARY KEY NOT NULL,             -- UUID v7
    year        INTEGER NOT NULL,
    first_seq   INTEGER NOT NULL CHECK (first_seq >= 1),
    last_seq    INTEGER NOT NULL CHECK (last_seq >= first_seq),
    officer_id  TEXT NOT NULL REFERENCES app_user (user_id),
    reserved_at INTEGER NOT NULL,
    -- The phone gives out no number of the block after this.
    use_until   INTEGER NOT NULL CHECK (use_until > reserved_at),
    -- When the phone gave back the numbers it had not handed out (signing out,
    -- or taking a new block). Numbers it handed out for reports still on the
    -- phone stay reserved until those reports arrive.
    returned_at INTEGER,
    -- When every number of the block was accounted for (a citation, void or
    -- returned): at the phone's return when it held none back, else when the
    -- server expired the block (store::numbers::EXPIRE_AFTER past use_until).
    settled_at  INTEGER,
    UNIQUE (year, first_seq),
    UNIQUE (year, last_seq)
) STRICT;

CREATE INDEX number_block_officer ON number_block (officer_id, settled_at);
CREATE INDEX number_block_unsettled ON number_block (settled_at, use_until);

-- Numbers of a block that are not citations: void (handed out for a report the
-- server refused) or returned (never handed out). Append-only; a number is here
-- at most once, and never also a citation (the triggers below).
CREATE TABLE number_spent (
    year        INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    number      TEXT NOT NULL UNIQUE,                  -- WPD-YYYY-NNNNNN
    block_id    TEXT NOT NULL REFERENCES number_block (block_id),
    state       TEXT NOT NULL CHECK (state IN ('void', 'returned')),
    reason      TEXT NOT NULL CHECK (length(trim(reason)) > 0),
    -- For a void number: the refused report and the person it was handed to.
    incident_id TEXT,
    subject_id  TEXT,
    at          INTEGER NOT NULL,
    actor_id    TEXT REFERENCES app_user (user_id),
    PRIMARY KEY (year, seq)
) STRICT;

CREATE TRIGGER number_spent_no_update BEFORE UPDATE ON number_spent
BEGIN SELECT RAISE(ABORT, 'spent citation numbers are append-only'); END;
CREATE TRIGGER number_spent_no_delete BEFORE DELETE ON number_spent
BEGIN SELECT RAISE(ABORT, 'spent citation numbers are append-only'); END;
CREATE TRIGGER number_spent_not_a_citation BEFORE INSERT ON number_spent
WHEN EXISTS (SELECT 1 FROM citation WHERE year = NEW.year AND seq = NEW.seq)
BEGIN SELECT RAISE(ABORT, 'this citation number is already a citation'); END;
CREATE TRIGGER citation_number_not_spent BEFORE INSERT ON citation
WHEN EXISTS (SELECT 1 FROM number_spent WHERE year = NEW.year AND seq = NEW.seq)
BEGIN SELECT RAISE(ABORT, 'this citation number was voided or returned'); END;
CREATE TRIGGER number_block_no_delete BEFORE DELETE ON number_block
BEGIN SELECT RAISE(ABORT, 'number blocks are kept'); END;
