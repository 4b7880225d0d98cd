-- Article II: mass outdoor gathering permits (issue #19).
--
-- New roles: the Town Clerk receives applications (§52-9 A) and settles the
-- deposit (§52-9 D); the Board of Selectmen issues or denies (§52-8, §52-9 B);
-- advisors (Fire Chief, Code Enforcement Officer, Health Officer) give written
-- opinions (§52-8 A). SQLite cannot change a CHECK constraint, so `user_role`
-- is rebuilt with every row it holds.
CREATE TABLE user_role_new (
    user_id TEXT NOT NULL REFERENCES app_user (user_id),
    role    TEXT NOT NULL CHECK (role IN ('officer', 'chief', 'clerk', 'admin',
                                          'town_clerk', 'selectman', 'advisor')),
    PRIMARY KEY (user_id, role)
) STRICT;
INSERT INTO user_role_new (user_id, role) SELECT user_id, role FROM user_role;
DROP TABLE user_role;
ALTER TABLE user_role_new RENAME TO user_role;

-- One application for one or more gatherings, from filing to settlement. The
-- row holds where it stands now; every change is also a `permit_event` (kept
-- forever) and an audit entry.
CREATE TABLE permit_application (
    application_id    TEXT PRIMARY KEY NOT NULL,          -- UUID v7
    -- `MG-2026-0001`: the Town Clerk's number, per year of filing.
    number            TEXT NOT NULL UNIQUE,
    -- SHA-256 of the operator's private status link token; the token itself is
    -- shown once, to the operator.
    token_hash        TEXT NOT NULL UNIQUE,
    revision          INTEGER NOT NULL CHECK (revision >= 1),
    state             TEXT NOT NULL CHECK (state IN
                        ('filed', 'fee_recorded', 'scheduled', 'issued', 'denied', 'settled',
                         'chapter_55')),
    -- How it reached the Town: the public page, or typed in by the clerk from paper.
    channel           TEXT NOT NULL CHECK (channel IN ('online', 'paper')),
    filed_at          INTEGER NOT NULL,
    filed_day         INTEGER NOT NULL,                   -- Town days since 1970-01-01
    first_day         INTEGER NOT NULL,
    last_day          INTEGER NOT NULL CHECK (last_day >= first_day),
    place             TEXT NOT NULL,
    operator_name     TEXT NOT NULL,
    attendance        INTEGER NOT NULL CHECK (attendance > 0),
    -- The whole application as the operator (or clerk) last gave it.
    application_json  TEXT NOT NULL,
    -- The clerk's record: fee, the Town's estimate of its costs, bond and deposit (cents).
    fee_cents         INTEGER,
    fee_receipt       TEXT,
    estimated_costs_cents INTEGER,
    bond_cents        INTEGER,
    deposit_cents     INTEGER,
    -- The Selectmen's meeting that considers it (§52-9 B's seven days run from it).
    consideration_day INTEGER,
    -- The decision (issue or deny), with the shortfalls a denial lists.
    decided_at        INTEGER,
    decision_json     TEXT,
    -- After the gathering (§52-9 D).
    actual_costs_cents INTEGER,
    notified_day      INTEGER,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
) STRICT;

CREATE INDEX permit_application_by_day ON permit_application (first_day, last_day);
CREATE INDEX permit_application_by_filing ON permit_application (filed_at DESC);

-- Everything that happened to an application, in order, with the record as it
-- stood after: nothing is changed or deleted.
CREATE TABLE permit_event (
    application_id TEXT NOT NULL REFERENCES permit_application (application_id),
    seq            INTEGER NOT NULL,
    at             INTEGER NOT NULL,
    actor_id       TEXT,                  -- NULL: the operator through the status link
    actor_name     TEXT NOT NULL,
    kind           TEXT NOT NULL,
    note           TEXT,
    after_json     TEXT NOT NULL,
    PRIMARY KEY (application_id, seq)
) STRICT;

CREATE TRIGGER permit_event_no_update BEFORE UPDATE ON permit_event
BEGIN SELECT RAISE(ABORT, 'permit events are append-only'); END;
CREATE TRIGGER permit_event_no_delete BEFORE DELETE ON permit_event
BEGIN SELECT RAISE(ABORT, 'permit events are append-only'); END;
CREATE TRIGGER permit_application_no_delete BEFORE DELETE ON permit_application
BEGIN SELECT RAISE(ABORT, 'permit applications are never deleted'); END;

-- Written opinions of the officials the Selectmen consult (§52-8 A).
CREATE TABLE permit_opinion (
    application_id TEXT NOT NULL REFERENCES permit_application (application_id),
    at             INTEGER NOT NULL,
    author_id      TEXT NOT NULL REFERENCES app_user (user_id),
    author_name    TEXT NOT NULL,
    capacity       TEXT NOT NULL,         -- 'Police Chief', 'Fire Chief', …
    opinion        TEXT NOT NULL CHECK (length(trim(opinion)) > 0),
    PRIMARY KEY (application_id, at, author_id)
) STRICT;

CREATE TRIGGER permit_opinion_no_update BEFORE UPDATE ON permit_opinion
BEGIN SELECT RAISE(ABORT, 'opinions are append-only'); END;
CREATE TRIGGER permit_opinion_no_delete BEFORE DELETE ON permit_opinion
BEGIN SELECT RAISE(ABORT, 'opinions are append-only'); END;
