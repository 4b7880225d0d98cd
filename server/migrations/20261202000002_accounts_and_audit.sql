-- Accounts, roles, first-run setup and the audit log (issue #4).
-- Times are UTC milliseconds since the Unix epoch.

CREATE TABLE app_user (
    user_id              TEXT PRIMARY KEY NOT NULL,          -- UUID v7
    username             TEXT NOT NULL COLLATE NOCASE UNIQUE,
    full_name            TEXT NOT NULL,
    -- Officers' badge numbers print on citations (Uniform Summons and Complaint).
    badge_number         TEXT,
    -- argon2id in PHC string form; never leaves the server.
    password_hash        TEXT NOT NULL,
    active               INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    -- Set by an administrator's password reset: the user must choose a new one.
    must_change_password INTEGER NOT NULL DEFAULT 0 CHECK (must_change_password IN (0, 1)),
    -- CJIS AC-7: consecutive failed sign-ins and when the current run began.
    failed_attempts      INTEGER NOT NULL DEFAULT 0,
    first_failed_at      INTEGER,
    -- Set at the fifth consecutive failure; only an administrator clears it.
    locked_at            INTEGER,
    -- Every session records the epoch it was made in; bumping it (disable, password
    -- change or reset) ends all of the user's sessions at their next request.
    session_epoch        INTEGER NOT NULL DEFAULT 0,
    created_at           INTEGER NOT NULL,
    updated_at           INTEGER NOT NULL
) STRICT;

CREATE TABLE user_role (
    user_id TEXT NOT NULL REFERENCES app_user (user_id),
    role    TEXT NOT NULL CHECK (role IN ('officer', 'chief', 'clerk', 'admin')),
    PRIMARY KEY (user_id, role)
) STRICT;

-- One-time token printed on the console at first start, while no administrator
-- exists. Only its SHA-256 is stored.
CREATE TABLE setup_token (
    token_hash TEXT PRIMARY KEY NOT NULL,
    created_at INTEGER NOT NULL,
    used_at    INTEGER
) STRICT;

-- CJIS AU-2/AU-3/AU-9. Append-only: the triggers below refuse UPDATE and DELETE,
-- and each entry's hash covers the previous entry's hash, so any edit of history
-- made behind the triggers' back breaks the chain (`server audit verify`).
CREATE TABLE audit_entry (
    seq          INTEGER PRIMARY KEY NOT NULL,   -- 1, 2, 3, … with no gaps
    at           INTEGER NOT NULL,
    actor_id     TEXT,                           -- NULL: anonymous, or the CLI
    actor_name   TEXT,
    actor_roles  TEXT NOT NULL,                  -- comma-separated, at the time
    source       TEXT,                           -- client address, or 'cli'
    action       TEXT NOT NULL,                  -- e.g. 'session.sign_in', 'user.create'
    entity_type  TEXT,
    entity_id    TEXT,
    outcome      TEXT NOT NULL CHECK (outcome IN ('success', 'failure', 'denied')),
    before_json  TEXT,
    after_json   TEXT,
    prev_hash    TEXT NOT NULL,                  -- hex SHA-256; 64 zeros for the first
    hash         TEXT NOT NULL                   -- hex SHA-256(prev_hash ‖ canonical entry)
) STRICT;

CREATE INDEX audit_entry_actor ON audit_entry (actor_name, seq);
CREATE INDEX audit_entry_action ON audit_entry (action, seq);
CREATE INDEX audit_entry_at ON audit_entry (at);

CREATE TRIGGER audit_entry_no_update BEFORE UPDATE ON audit_entry
BEGIN
    SELECT RAISE(ABORT, 'audit_entry is append-only');
END;

CREATE TRIGGER audit_entry_no_delete BEFORE DELETE ON audit_entry
BEGIN
    SELECT RAISE(ABORT, 'audit_entry is append-only');
END;
