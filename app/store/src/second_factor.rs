//! Second factors as stored (issue #18): each enrolment, use, failure, removal
//! and reset commits with its audit entry. Secrets never appear in the audit log.

use crate::db::{Conn, Pool};
use uuid::Uuid;

use crate::audit::{self, Event};
use crate::Store;
use domain::actor::By;
use domain::error::AppError;
use domain::model::account::{PasskeyInfo, Role, SignInPolicy};
use domain::model::audit::AuditOutcome;
use domain::ordinance::Moment;

const REQUIRED: &str = "auth.second_factor_required";
const PASSKEY_ROLES: &str = "auth.passkey_roles";

/// A sealed secret as stored: the nonce and the ciphertext with its tag. The key
/// that seals and opens it is the app's (`auth::second_factor::key`); the store
/// only keeps the bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    pub nonce: Vec<u8>,
    pub sealed: Vec<u8>,
}

/// An account's authenticator, sealed, and the last step a code was accepted for.
#[derive(Debug, Clone)]
pub struct StoredTotp {
    pub sealed: Sealed,
    pub last_step: i64,
}

/// A registered passkey: its owner's view and webauthn-rs's record (JSON).
#[derive(Debug, Clone)]
pub struct StoredPasskey {
    pub info: PasskeyInfo,
    pub passkey_json: String,
}

/// Everything an account has enrolled.
#[derive(Debug, Clone, Default)]
pub struct Factors {
    pub totp: Option<StoredTotp>,
    pub passkeys: Vec<StoredPasskey>,
    pub recovery_codes_left: u32,
}

impl Factors {
    pub fn any(&self) -> bool {
        self.totp.is_some() || !self.passkeys.is_empty()
    }
}

/// The sign-in policy as `conn` sees it. A missing row means required: the
/// migration writes the row, and a policy lost is a policy on.
pub(crate) async fn policy_in(conn: &mut Conn) -> Result<SignInPolicy, sqlx::Error> {
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT key, value FROM setting WHERE key IN ($1, $2)")
            .bind(REQUIRED)
            .bind(PASSKEY_ROLES)
            .fetch_all(&mut *conn)
            .await?;
    let mut policy = SignInPolicy {
        second_factor_required: true,
        passkey_roles: Vec::new(),
    };
    for (key, value) in rows {
        match key.as_str() {
            REQUIRED => policy.second_factor_required = value != "0",
            _ => {
                policy.passkey_roles = value.split(',').filter_map(Role::from_code).collect();
            }
        }
    }
    Ok(policy)
}

pub async fn policy(pool: &Pool) -> Result<SignInPolicy, AppError> {
    Ok(policy_in(&mut *pool.acquire().await?).await?)
}

/// The administrator's change to the sign-in policy, audited before and after.
pub async fn save_policy(
    store: &Store,
    by: By<'_>,
    new: &SignInPolicy,
) -> Result<SignInPolicy, AppError> {
    let mut tx = store.begin_write().await?;
    let before = policy_in(&mut tx).await?;
    let mut roles = new.passkey_roles.clone();
    roles.sort();
    roles.dedup();
    let roles_text = roles.iter().map(|r| r.code()).collect::<Vec<_>>().join(",");
    for (key, value) in [
        (
            REQUIRED,
            if new.second_factor_required { "1" } else { "0" }.to_owned(),
        ),
        (PASSKEY_ROLES, roles_text),
    ] {
        crate::settings::put(&mut tx, key, &value, by.now).await?;
    }
    let after = policy_in(&mut tx).await?;
    let event = Event::new("settings.sign_in_policy", AuditOutcome::Success)
        .by(by.actor, by.source)
        .on("setting", "sign_in_policy")
        .before(&before)
        .after(&after);
    audit::append(&mut tx, by.now, &event).await?;
    tx.commit().await?;
    Ok(after)
}

/// Whether the account has an authenticator and whether it has a passkey (read
/// on every request, with the session's user).
pub(crate) async fn kinds_in(conn: &mut Conn, user_id: Uuid) -> Result<(bool, bool), sqlx::Error> {
    let (totp, passkey): (i64, i64) = sqlx::query_as(
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM totp_factor WHERE user_id = $1) THEN 1 ELSE 0 END, \
                CASE WHEN EXISTS (SELECT 1 FROM passkey WHERE user_id = $1) THEN 1 ELSE 0 END",
    )
    .bind(user_id.to_string())
    .fetch_one(&mut *conn)
    .await?;
    Ok((totp == 1, passkey == 1))
}

/// id, name, passkey JSON, created, last used.
type PasskeyRow = (String, String, String, i64, Option<i64>);

async fn factors_in(conn: &mut Conn, user_id: Uuid) -> Result<Factors, sqlx::Error> {
    let id = user_id.to_string();
    let totp: Option<(Vec<u8>, Vec<u8>, i64)> =
        sqlx::query_as("SELECT nonce, sealed, last_step FROM totp_factor WHERE user_id = $1")
            .bind(&id)
            .fetch_optional(&mut *conn)
            .await?;
    let passkeys: Vec<PasskeyRow> = sqlx::query_as(
        "SELECT credential_id, name, passkey_json, created_at, last_used_at FROM passkey \
         WHERE user_id = $1 ORDER BY created_at, credential_id",
    )
    .bind(&id)
    .fetch_all(&mut *conn)
    .await?;
    let left: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM recovery_code WHERE user_id = $1 AND used_at IS NULL",
    )
    .bind(&id)
    .fetch_one(&mut *conn)
    .await?;
    Ok(Factors {
        totp: totp.map(|(nonce, sealed, last_step)| StoredTotp {
            sealed: Sealed { nonce, sealed },
            last_step,
        }),
        passkeys: passkeys
            .into_iter()
            .map(
                |(credential_id, name, passkey_json, created, used)| StoredPasskey {
                    info: PasskeyInfo {
                        credential_id,
                        name,
                        created_at: Moment(created),
                        last_used_at: used.map(Moment),
                    },
                    passkey_json,
                },
            )
            .collect(),
        recovery_codes_left: u32::try_from(left).unwrap_or(0),
    })
}

pub async fn factors(pool: &Pool, user_id: Uuid) -> Result<Factors, AppError> {
    Ok(factors_in(&mut *pool.acquire().await?, user_id).await?)
}

/// A new factor for an account.
#[derive(Debug, Clone)]
pub enum NewFactor {
    /// The secret sealed, and the step of the code that confirmed it (so that
    /// code cannot sign in again).
    Totp { sealed: Sealed, confirmed_step: i64 },
    Passkey {
        credential_id: String,
        name: String,
        passkey_json: String,
    },
}

/// Enrols a factor. When it is the account's first, `recovery_hashes` become its
/// recovery codes and `true` is returned (the caller shows the codes, once).
pub async fn enrol(
    store: &Store,
    by: By<'_>,
    user_id: Uuid,
    factor: NewFactor,
    recovery_hashes: &[String],
) -> Result<bool, AppError> {
    let mut tx = store.begin_write().await?;
    let before = factors_in(&mut tx, user_id).await?;
    let id = user_id.to_string();
    let detail = match &factor {
        NewFactor::Totp {
            sealed,
            confirmed_step,
        } => {
            // One authenticator per account: a new one replaces the old.
            sqlx::query(
                "INSERT INTO totp_factor (user_id, nonce, sealed, last_step, enrolled_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO UPDATE SET \
                 nonce = excluded.nonce, sealed = excluded.sealed, \
                 last_step = excluded.last_step, enrolled_at = excluded.enrolled_at",
            )
            .bind(&id)
            .bind(&sealed.nonce)
            .bind(&sealed.sealed)
            .bind(confirmed_step)
            .bind(by.now.0)
            .execute(&mut *tx)
            .await?;
            serde_json::json!({ "factor": "totp", "replaced": before.totp.is_some() })
        }
        NewFactor::Passkey {
            credential_id,
            name,
            passkey_json,
        } => {
            let inserted = sqlx::query(
                "INSERT INTO passkey (credential_id, user_id, name, passkey_json, created_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(credential_id)
            .bind(&id)
            .bind(name)
            .bind(passkey_json)
            .bind(by.now.0)
            .execute(&mut *tx)
            .await;
            match inserted {
                Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                    return Err(AppError::conflict("This passkey is registered already."));
                }
                other => {
                    other?;
                }
            }
            serde_json::json!({ "factor": "passkey", "name": name, "credential_id": credential_id })
        }
    };
    let first = !before.any();
    if first {
        replace_recovery_codes(&mut tx, user_id, recovery_hashes, by.now).await?;
    }
    let event = Event::new("second_factor.enrol", AuditOutcome::Success)
        .by(by.actor, by.source)
        .on("user", user_id)
        .after(serde_json::json!({ "enrolled": detail, "recovery_codes_issued": first }));
    audit::append(&mut tx, by.now, &event).await?;
    tx.commit().await?;
    Ok(first)
}

async fn replace_recovery_codes(
    conn: &mut Conn,
    user_id: Uuid,
    hashes: &[String],
    now: Moment,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM recovery_code WHERE user_id = $1")
        .bind(user_id.to_string())
        .execute(&mut *conn)
        .await?;
    for hash in hashes {
        sqlx::query(
            "INSERT INTO recovery_code (user_id, code_hash, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        )
        .bind(user_id.to_string())
        .bind(hash)
        .bind(now.0)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// New recovery codes in place of the old (all of which stop working).
pub async fn regenerate_recovery_codes(
    store: &Store,
    by: By<'_>,
    user_id: Uuid,
    hashes: &[String],
) -> Result<(), AppError> {
    let mut tx = store.begin_write().await?;
    if !factors_in(&mut tx, user_id).await?.any() {
        return Err(AppError::conflict(
            "Set up a passkey or an authenticator first: recovery codes stand in for one.",
        ));
    }
    replace_recovery_codes(&mut tx, user_id, hashes, by.now).await?;
    let event = Event::new("second_factor.recovery_codes", AuditOutcome::Success)
        .by(by.actor, by.source)
        .on("user", user_id)
        .after(serde_json::json!({ "issued": hashes.len() }));
    audit::append(&mut tx, by.now, &event).await?;
    tx.commit().await?;
    Ok(())
}

/// How a second factor was used at sign-in.
#[derive(Debug, Clone)]
pub enum Use<'a> {
    /// An authenticator code for this step: accepted only if no code was
    /// accepted for this or a later step (two requests racing with one code:
    /// one wins).
    Totp { step: i64 },
    /// A recovery code's hash: spent if unused.
    RecoveryCode { hash: &'a str },
    /// A passkey; `updated_json` when its signature counter moved.
    Passkey {
        credential_id: &'a str,
        updated_json: Option<String>,
    },
}

/// Spends the factor and audits its use. `Ok(false)` when it was not accepted
/// (replayed code, recovery code already used): nothing changed.
pub async fn spend(
    store: &Store,
    by: By<'_>,
    user_id: Uuid,
    used: Use<'_>,
) -> Result<bool, AppError> {
    let mut tx = store.begin_write().await?;
    let id = user_id.to_string();
    let (spent, detail) = match &used {
        Use::Totp { step } => {
            let n = sqlx::query(
                "UPDATE totp_factor SET last_step = $1 WHERE user_id = $2 AND last_step < $3",
            )
            .bind(step)
            .bind(&id)
            .bind(step)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            (n == 1, serde_json::json!({ "factor": "totp" }))
        }
        Use::RecoveryCode { hash } => {
            let n = sqlx::query(
                "UPDATE recovery_code SET used_at = $1 WHERE user_id = $2 AND code_hash = $3 \
                 AND used_at IS NULL",
            )
            .bind(by.now.0)
            .bind(&id)
            .bind(hash)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            let left: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM recovery_code WHERE user_id = $1 AND used_at IS NULL",
            )
            .bind(&id)
            .fetch_one(&mut *tx)
            .await?;
            (
                n == 1,
                serde_json::json!({ "factor": "recovery_code", "recovery_codes_left": left }),
            )
        }
        Use::Passkey {
            credential_id,
            updated_json,
        } => {
            let n = sqlx::query(
                "UPDATE passkey SET last_used_at = $1, passkey_json = coalesce($2, passkey_json) \
                 WHERE credential_id = $3 AND user_id = $4",
            )
            .bind(by.now.0)
            .bind(updated_json)
            .bind(credential_id)
            .bind(&id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            (
                n == 1,
                serde_json::json!({ "factor": "passkey", "credential_id": credential_id }),
            )
        }
    };
    if !spent {
        return Ok(false);
    }
    let action = match used {
        Use::RecoveryCode { .. } => "second_factor.recovery_code_used",
        _ => "second_factor.use",
    };
    let event = Event::new(action, AuditOutcome::Success)
        .by(None, by.source)
        .on("user", user_id)
        .after(detail);
    audit::append(&mut tx, by.now, &event).await?;
    tx.commit().await?;
    Ok(true)
}

/// Which factor to remove.
#[derive(Debug, Clone)]
pub enum Removal<'a> {
    Totp,
    Passkey { credential_id: &'a str },
}

/// Removes one of one's own factors, unless the policy would then be unmet (a
/// passkey-required role keeps its last passkey; anyone keeps their last factor
/// while a second factor is required).
pub async fn remove(
    store: &Store,
    by: By<'_>,
    user_id: Uuid,
    roles: &[Role],
    removal: Removal<'_>,
) -> Result<(), AppError> {
    let mut tx = store.begin_write().await?;
    let policy = policy_in(&mut tx).await?;
    let before = factors_in(&mut tx, user_id).await?;
    let id = user_id.to_string();
    let (has_totp, passkeys_after, detail) = match removal {
        Removal::Totp => {
            if before.totp.is_none() {
                return Err(AppError::NotFound);
            }
            (
                false,
                before.passkeys.len(),
                serde_json::json!({ "factor": "totp" }),
            )
        }
        Removal::Passkey { credential_id } => {
            if !before
                .passkeys
                .iter()
                .any(|p| p.info.credential_id == credential_id)
            {
                return Err(AppError::NotFound);
            }
            (
                before.totp.is_some(),
                before.passkeys.len() - 1,
                serde_json::json!({ "factor": "passkey", "credential_id": credential_id }),
            )
        }
    };
    if !policy.satisfied_by(roles, has_totp, passkeys_after > 0) {
        return Err(AppError::conflict(
            "The sign-in policy requires this factor: set up another one (a passkey for your \
             role) before removing it.",
        ));
    }
    match removal {
        Removal::Totp => {
            sqlx::query("DELETE FROM totp_factor WHERE user_id = $1")
                .bind(&id)
                .execute(&mut *tx)
                .await?;
        }
        Removal::Passkey { credential_id } => {
            sqlx::query("DELETE FROM passkey WHERE credential_id = $1 AND user_id = $2")
                .bind(credential_id)
                .bind(&id)
                .execute(&mut *tx)
                .await?;
        }
    }
    if !has_totp && passkeys_after == 0 {
        // No factor left: the recovery codes stood in for it, and go with it.
        sqlx::query("DELETE FROM recovery_code WHERE user_id = $1")
            .bind(&id)
            .execute(&mut *tx)
            .await?;
    }
    let event = Event::new("second_factor.remove", AuditOutcome::Success)
        .by(by.actor, by.source)
        .on("user", user_id)
        .after(detail);
    audit::append(&mut tx, by.now, &event).await?;
    tx.commit().await?;
    Ok(())
}

/// An administrator's reset (a lost phone): every factor and recovery code of
/// the account goes, its sessions end, and it must enrol again.
pub async fn reset(store: &Store, by: By<'_>, user_id: Uuid) -> Result<(), AppError> {
    let mut tx = store.begin_write().await?;
    let before = factors_in(&mut tx, user_id).await?;
    let id = user_id.to_string();
    let exists = sqlx::query(
        "UPDATE app_user SET session_epoch = session_epoch + 1, updated_at = $1 WHERE user_id = $2",
    )
    .bind(by.now.0)
    .bind(&id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if exists != 1 {
        return Err(AppError::NotFound);
    }
    for table in ["totp_factor", "passkey", "recovery_code"] {
        sqlx::query(&format!("DELETE FROM {table} WHERE user_id = $1"))
            .bind(&id)
            .execute(&mut *tx)
            .await?;
    }
    let event = Event::new("second_factor.reset", AuditOutcome::Success)
        .by(by.actor, by.source)
        .on("user", user_id)
        .before(serde_json::json!({
            "totp": before.totp.is_some(),
            "passkeys": before.passkeys.iter().map(|p| &p.info.name).collect::<Vec<_>>(),
            "recovery_codes_left": before.recovery_codes_left,
        }));
    audit::append(&mut tx, by.now, &event).await?;
    tx.commit().await?;
    Ok(())
}
