-- Second factors (issue #18, CJIS 5.6.2.2 / IA-2): authenticator codes, passkeys
-- and one-time recovery codes. Nothing here is ever shown back to the browser
-- but a passkey's name and dates.

-- One authenticator (RFC 6238) per account. The secret is sealed with the
-- server's second-factor key (AES-256-GCM; the key lives outside the database,
-- so a copied database file does not give away the secrets).
CREATE TABLE totp_factor (
    user_id     TEXT PRIMARY KEY NOT NULL REFERENCES app_user (user_id),
    nonce       BLOB NOT NULL,
    sealed      BLOB NOT NULL,
    -- The last 30-second time step a code was accepted for: a code is accepted
    -- only for a later step, so a replayed (or older) code fails.
    last_step   INTEGER NOT NULL,
    enrolled_at INTEGER NOT NULL
) STRICT;

-- Passkeys (WebAuthn), several per account, each named by its owner.
CREATE TABLE passkey (
    -- The credential id, base64url as the browser reports it.
    credential_id TEXT PRIMARY KEY NOT NULL,
    user_id       TEXT NOT NULL REFERENCES app_user (user_id),
    name          TEXT NOT NULL,
    -- webauthn-rs's `Passkey` as JSON: public key, counter, flags.
    passkey_json  TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    last_used_at  INTEGER
) STRICT;
CREATE INDEX passkey_user ON passkey (user_id);

-- Ten one-time codes for when the phone is lost; only their SHA-256 is kept.
CREATE TABLE recovery_code (
    user_id    TEXT NOT NULL REFERENCES app_user (user_id),
    code_hash  TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    used_at    INTEGER,
    PRIMARY KEY (user_id, code_hash)
) STRICT, WITHOUT ROWID;

-- The policy: on for a new install; an install that already has accounts keeps
-- working as it did until an administrator turns it on (after people enrol), so
-- that this upgrade locks nobody out of a running department.
INSERT INTO setting (key, value, updated_at)
SELECT 'auth.second_factor_required',
       CASE WHEN EXISTS (SELECT 1 FROM app_user) THEN '0' ELSE '1' END,
       0;
