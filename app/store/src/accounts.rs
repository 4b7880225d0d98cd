//! User accounts, roles and first-run setup. Every change commits together with
//! its audit entry.

use crate::db::{Conn, Pool};
use serde::Serialize;
use sqlx::FromRow;
use uuid::Uuid;

use crate::audit::{self, Event};
use crate::second_factor;
use crate::Store;
use domain::actor::{Actor, By};
use domain::error::AppError;
use domain::lockout::Failures;
use domain::model::account::{FactorKind, Me, NewUser, Role, UserSummary};
use domain::model::audit::AuditOutcome;
use domain::ordinance::Moment;

/// The row as stored. Not `Serialize`: the password hash never leaves the server.
#[derive(Debug, Clone, FromRow)]
struct UserRow {
    user_id: String,
    username: String,
    full_name: String,
    badge_number: Option<String>,
    active: i64,
    must_change_password: i64,
    locked_at: Option<i64>,
    created_at: i64,
}

const USER_COLUMNS: &str = "user_id, username, full_name, badge_number, active, \
                            must_change_password, locked_at, created_at";

/// What the audit log keeps of an account: no hash, nothing secret.
#[derive(Debug, Clone, Serialize)]
struct AccountSnapshot<'a> {
    username: &'a str,
    full_name: &'a str,
    badge_number: Option<&'a str>,
    roles: Vec<&'static str>,
    active: bool,
    locked: bool,
    must_change_password: bool,
}

fn snapshot(user: &UserSummary) -> AccountSnapshot<'_> {
    AccountSnapshot {
        username: &user.username,
        full_name: &user.full_name,
        badge_number: user.badge_number.as_deref(),
        roles: user.roles.iter().map(|r| r.code()).collect(),
        active: user.active,
        locked: user.locked,
        must_change_password: user.must_change_password,
    }
}

fn parse_id(text: &str) -> Result<Uuid, AppError> {
    Uuid::parse_str(text).map_err(|e| {
        tracing::error!(error = %e, "malformed user_id in the database");
        AppError::Internal
    })
}

async fn roles_of(conn: &mut Conn, user_id: &str) -> Result<Vec<Role>, sqlx::Error> {
    let codes: Vec<String> =
        sqlx::query_scalar("SELECT role FROM user_role WHERE user_id = $1 ORDER BY role")
            .bind(user_id)
            .fetch_all(&mut *conn)
            .await?;
    let mut roles: Vec<Role> = codes.iter().filter_map(|c| Role::from_code(c)).collect();
    roles.sort();
    Ok(roles)
}

async fn summary_of(conn: &mut Conn, row: UserRow) -> Result<UserSummary, AppError> {
    let roles = roles_of(conn, &row.user_id).await?;
    let user_id = parse_id(&row.user_id)?;
    let (totp, passkey) = second_factor::kinds_in(conn, user_id).await?;
    let second_factors = [(passkey, FactorKind::Passkey), (totp, FactorKind::Totp)]
        .into_iter()
        .filter_map(|(has, kind)| has.then_some(kind))
        .collect();
    Ok(UserSummary {
        user_id,
        second_factors,
        username: row.username,
        full_name: row.full_name,
        badge_number: row.badge_number,
        roles,
        active: row.active == 1,
        locked: row.locked_at.is_some(),
        must_change_password: row.must_change_password == 1,
        created_at: Moment(row.created_at),
    })
}

async fn load_summary(conn: &mut Conn, user_id: Uuid) -> Result<UserSummary, AppError> {
    let row: UserRow = sqlx::query_as(&format!(
        "SELECT {USER_COLUMNS} FROM app_user WHERE user_id = $1"
    ))
    .bind(user_id.to_string())
    .fetch_optional(&mut *conn)
    .await?
    .ok_or(AppError::NotFound)?;
    summary_of(conn, row).await
}

/// One account as the administrator's list shows it.
pub async fn summary(pool: &Pool, user_id: Uuid) -> Result<UserSummary, AppError> {
    load_summary(&mut *pool.acquire().await?, user_id).await
}

/// All accounts, by username.
pub async fn list_users(pool: &Pool) -> Result<Vec<UserSummary>, AppError> {
    let mut conn = pool.acquire().await?;
    let rows: Vec<UserRow> = sqlx::query_as(&format!(
        "SELECT {USER_COLUMNS} FROM app_user ORDER BY username COLLATE NOCASE"
    ))
    .fetch_all(&mut *conn)
    .await?;
    let mut users = Vec::with_capacity(rows.len());
    for row in rows {
        users.push(summary_of(&mut conn, row).await?);
    }
    Ok(users)
}

pub async fn find_by_username(
    pool: &Pool,
    username: &str,
) -> Result<Option<UserSummary>, AppError> {
    let mut conn = pool.acquire().await?;
    let row: Option<UserRow> = sqlx::query_as(&format!(
        "SELECT {USER_COLUMNS} FROM app_user WHERE username = $1"
    ))
    .bind(username.trim())
    .fetch_optional(&mut *conn)
    .await?;
    match row {
        Some(row) => Ok(Some(summary_of(&mut conn, row).await?)),
        None => Ok(None),
    }
}

/// Whether an active administrator exists (first-run setup is open until one does).
pub async fn any_admin(pool: &Pool) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar::<_, i64>(
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM user_role r JOIN app_user u USING (user_id) \
         WHERE r.role = 'admin' AND u.active = 1) THEN 1 ELSE 0 END",
    )
    .fetch_one(pool)
    .await
    .map(|n| n == 1)
}

async fn insert_user(
    conn: &mut Conn,
    new: &NewUser,
    password_hash: &str,
    now: Moment,
) -> Result<Uuid, AppError> {
    let user_id = Uuid::now_v7();
    let inserted = sqlx::query(
        "INSERT INTO app_user (user_id, username, full_name, badge_number, password_hash, \
         created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(user_id.to_string())
    .bind(new.username.trim())
    .bind(new.full_name.trim())
    .bind(
        new.badge_number
            .as_deref()
            .map(str::trim)
            .filter(|b| !b.is_empty()),
    )
    .bind(password_hash)
    .bind(now.0)
    .bind(now.0)
    .execute(&mut *conn)
    .await;
    match inserted {
        Ok(_) => {}
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            return Err(AppError::invalid(
                "username",
                "That username is already taken.",
            ));
        }
        Err(e) => return Err(e.into()),
    }
    replace_roles(conn, user_id, &new.roles).await?;
    Ok(user_id)
}

async fn replace_roles(conn: &mut Conn, user_id: Uuid, roles: &[Role]) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM user_role WHERE user_id = $1")
        .bind(user_id.to_string())
        .execute(&mut *conn)
        .await?;
    for role in roles {
        sqlx::query("INSERT INTO user_role (user_id, role) VALUES ($1, $2) ON CONFLICT DO NOTHING")
            .bind(user_id.to_string())
            .bind(role.code())
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Creates an account (administrator's form or CLI). `new` is already validated
/// and `password_hash` computed.
pub async fn create_user(
    store: &Store,
    by: By<'_>,
    new: &NewUser,
    password_hash: &str,
) -> Result<UserSummary, AppError> {
    let mut tx = store.begin_write().await?;
    let user_id = insert_user(&mut tx, new, password_hash, by.now).await?;
    let user = load_summary(&mut tx, user_id).await?;
    let event = Event::new("user.create", AuditOutcome::Success)
        .by(by.actor, by.source)
        .on("user", user_id)
        .after(snapshot(&user));
    audit::append(&mut tx, by.now, &event).await?;
    tx.commit().await?;
    Ok(user)
}

/// Records a new setup token (only its hash), replacing any unused one.
pub async fn issue_setup_token(
    store: &Store,
    token_hash: &str,
    now: Moment,
) -> Result<(), AppError> {
    let mut tx = store.begin_write().await?;
    sqlx::query("DELETE FROM setup_token WHERE used_at IS NULL")
        .execute(&mut *tx)
        .await?;
    sqlx::query("INSERT INTO setup_token (token_hash, created_at) VALUES ($1, $2)")
        .bind(token_hash)
        .bind(now.0)
        .execute(&mut *tx)
        .await?;
    let event = Event::new("setup.token_issued", AuditOutcome::Success).by(None, Some("console"));
    audit::append(&mut tx, now, &event).await?;
    tx.commit().await?;
    Ok(())
}

/// First-run setup: spends the token and creates the first administrator, in one
/// transaction. Refused once any administrator exists or the token was used.
pub async fn create_first_admin(
    store: &Store,
    source: Option<&str>,
    token_hash: &str,
    new: &NewUser,
    password_hash: &str,
    now: Moment,
) -> Result<UserSummary, AppError> {
    let mut tx = store.begin_write().await?;
    let admin_exists: i64 = sqlx::query_scalar(
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM user_role r JOIN app_user u USING (user_id) \
         WHERE r.role = 'admin' AND u.active = 1) THEN 1 ELSE 0 END",
    )
    .fetch_one(&mut *tx)
    .await?;
    let spent = sqlx::query(
        "UPDATE setup_token SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL",
    )
    .bind(now.0)
    .bind(token_hash)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if admin_exists == 1 || spent != 1 {
        drop(tx);
        let event = Event::new("setup.create_admin", AuditOutcome::Denied).by(None, source);
        audit::record(store, now, &event).await?;
        return Err(AppError::invalid(
            "token",
            "This setup link is no longer valid: it was used already, or an administrator exists. \
             Sign in, or ask an administrator for an account.",
        ));
    }
    let user_id = insert_user(&mut tx, new, password_hash, now).await?;
    let user = load_summary(&mut tx, user_id).await?;
    let event = Event::new("setup.create_admin", AuditOutcome::Success)
        .by(None, source)
        .on("user", user_id)
        .after(snapshot(&user));
    audit::append(&mut tx, now, &event).await?;
    tx.commit().await?;
    Ok(user)
}

/// What sign-in needs to know about a username.
#[derive(Debug, Clone)]
pub struct Credentials {
    pub user_id: Uuid,
    pub password_hash: String,
    pub active: bool,
    pub failures: Failures,
}

/// user_id, password_hash, active, failed_attempts, first_failed_at, locked_at.
type CredentialRow = (String, String, i64, i64, Option<i64>, Option<i64>);

pub async fn credentials(pool: &Pool, username: &str) -> Result<Option<Credentials>, AppError> {
    let row: Option<CredentialRow> = sqlx::query_as(
        "SELECT user_id, password_hash, active, failed_attempts, first_failed_at, locked_at \
         FROM app_user WHERE username = $1",
    )
    .bind(username.trim())
    .fetch_optional(pool)
    .await?;
    row.map(|(id, hash, active, count, first, locked)| {
        Ok(Credentials {
            user_id: parse_id(&id)?,
            password_hash: hash,
            active: active == 1,
            failures: Failures {
                count,
                first_at: first.map(Moment),
                locked_at: locked.map(Moment),
            },
        })
    })
    .transpose()
}

/// A wrong password for an existing account: counts it, locks at the fifth in
/// fifteen minutes (CJIS AC-7), audits both. Returns whether the account is locked.
pub async fn record_failed_sign_in(
    store: &Store,
    by: By<'_>,
    user_id: Uuid,
    reason: &str,
) -> Result<bool, AppError> {
    let mut tx = store.begin_write().await?;
    // Re-read inside the write transaction: concurrent failures must all count.
    let (count, first, locked): (i64, Option<i64>, Option<i64>) = sqlx::query_as(
        "SELECT failed_attempts, first_failed_at, locked_at FROM app_user WHERE user_id = $1",
    )
    .bind(user_id.to_string())
    .fetch_one(&mut *tx)
    .await?;
    let before = Failures {
        count,
        first_at: first.map(Moment),
        locked_at: locked.map(Moment),
    };
    let after = before.after_failure(by.now);
    sqlx::query(
        "UPDATE app_user SET failed_attempts = $1, first_failed_at = $2, locked_at = $3 WHERE user_id = $4",
    )
    .bind(after.count)
    .bind(after.first_at.map(|m| m.0))
    .bind(after.locked_at.map(|m| m.0))
    .bind(user_id.to_string())
    .execute(&mut *tx)
    .await?;
    let event = Event::new("session.sign_in", AuditOutcome::Failure)
        .by(None, by.source)
        .on("user", user_id)
        .after(serde_json::json!({ "reason": reason, "consecutive_failures": after.count }));
    audit::append(&mut tx, by.now, &event).await?;
    if after.is_locked() && !before.is_locked() {
        let event = Event::new("account.locked", AuditOutcome::Success)
            .by(None, by.source)
            .on("user", user_id)
            .after(serde_json::json!({ "consecutive_failures": after.count }));
        audit::append(&mut tx, by.now, &event).await?;
    }
    tx.commit().await?;
    Ok(after.is_locked())
}

/// A refused sign-in that changes no account (unknown username, disabled or
/// locked account, rate limit).
pub async fn record_refused_sign_in(
    store: &Store,
    by: By<'_>,
    user_id: Option<Uuid>,
    attempted_username: &str,
    reason: &str,
) -> Result<(), AppError> {
    let mut event = Event::new("session.sign_in", AuditOutcome::Failure)
        .by(None, by.source)
        .after(serde_json::json!({
            "reason": reason,
            // Truncated: a password typed into the username box should not be kept whole.
            "username": attempted_username.chars().take(64).collect::<String>(),
        }));
    if let Some(id) = user_id {
        event = event.on("user", id);
    }
    audit::record(store, by.now, &event).await
}

/// A successful sign-in: clears the failure run, audits, and returns the actor and
/// the epoch the session belongs to.
pub async fn record_sign_in(
    store: &Store,
    by: By<'_>,
    user_id: Uuid,
    second_factor: Option<domain::model::account::FactorKind>,
) -> Result<(Actor, i64), AppError> {
    let mut tx = store.begin_write().await?;
    sqlx::query(
        "UPDATE app_user SET failed_attempts = 0, first_failed_at = NULL WHERE user_id = $1",
    )
    .bind(user_id.to_string())
    .execute(&mut *tx)
    .await?;
    let (actor, epoch) = actor_row(&mut tx, user_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let event = Event::new("session.sign_in", AuditOutcome::Success)
        .by(Some(&actor), by.source)
        .on("user", user_id)
        .after(serde_json::json!({ "second_factor": second_factor }));
    audit::append(&mut tx, by.now, &event).await?;
    tx.commit().await?;
    Ok((actor, epoch))
}

async fn actor_row(conn: &mut Conn, user_id: Uuid) -> Result<Option<(Actor, i64)>, AppError> {
    let row: Option<(String, String, Option<String>, i64, i64, i64)> = sqlx::query_as(
        "SELECT username, full_name, badge_number, must_change_password, session_epoch, active \
         FROM app_user WHERE user_id = $1",
    )
    .bind(user_id.to_string())
    .fetch_optional(&mut *conn)
    .await?;
    let Some((username, full_name, badge_number, must_change, epoch, active)) = row else {
        return Ok(None);
    };
    if active != 1 {
        return Ok(None);
    }
    let roles = roles_of(conn, &user_id.to_string()).await?;
    // Read with the session on every request, so a policy turned on, or a
    // factor reset, takes effect at the user's next click (#18).
    let policy = second_factor::policy_in(conn).await?;
    let (has_totp, has_passkey) = second_factor::kinds_in(conn, user_id).await?;
    let needs_second_factor = !policy.satisfied_by(&roles, has_totp, has_passkey);
    Ok(Some((
        Actor::resolved(Me {
            user_id,
            username,
            full_name,
            badge_number,
            roles,
            must_change_password: must_change == 1,
            needs_second_factor,
        }),
        epoch,
    )))
}

/// The actor for a live session: `None` when the account is disabled or the
/// session's epoch is stale.
pub async fn actor_for_session(
    pool: &Pool,
    user_id: Uuid,
    epoch: i64,
) -> Result<Option<Actor>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(actor_row(&mut conn, user_id)
        .await?
        .filter(|(_, current)| *current == epoch)
        .map(|(actor, _)| actor))
}

/// An administrator's change to an account.
#[derive(Debug, Clone)]
pub enum AccountChange {
    Roles(Vec<Role>),
    Active(bool),
    Unlock,
    /// A temporary password (hash) the user must change at next sign-in.
    ResetPassword(String),
}

impl AccountChange {
    const fn action(&self) -> &'static str {
        match self {
            AccountChange::Roles(_) => "user.roles",
            AccountChange::Active(true) => "user.enable",
            AccountChange::Active(false) => "user.disable",
            AccountChange::Unlock => "user.unlock",
            AccountChange::ResetPassword(_) => "user.reset_password",
        }
    }
}

/// Applies one change to an account, with its audit entry (before and after).
/// Disabling or resetting ends every session of the user.
pub async fn change_account(
    store: &Store,
    by: By<'_>,
    user_id: Uuid,
    change: AccountChange,
) -> Result<UserSummary, AppError> {
    let mut tx = store.begin_write().await?;
    let before = load_summary(&mut tx, user_id).await?;
    let id = user_id.to_string();
    match &change {
        AccountChange::Roles(roles) => replace_roles(&mut tx, user_id, roles).await?,
        AccountChange::Active(active) => {
            sqlx::query(
                "UPDATE app_user SET active = $1, session_epoch = session_epoch + $2, updated_at = $3 \
                 WHERE user_id = $4",
            )
            .bind(i64::from(*active))
            .bind(i64::from(!*active))
            .bind(by.now.0)
            .bind(&id)
            .execute(&mut *tx)
            .await?;
        }
        AccountChange::Unlock => {
            sqlx::query(
                "UPDATE app_user SET locked_at = NULL, failed_attempts = 0, first_failed_at = NULL, \
                 updated_at = $1 WHERE user_id = $2",
            )
            .bind(by.now.0)
            .bind(&id)
            .execute(&mut *tx)
            .await?;
        }
        AccountChange::ResetPassword(hash) => {
            sqlx::query(
                "UPDATE app_user SET password_hash = $1, must_change_password = 1, locked_at = NULL, \
                 failed_attempts = 0, first_failed_at = NULL, session_epoch = session_epoch + 1, \
                 updated_at = $2 WHERE user_id = $3",
            )
            .bind(hash)
            .bind(by.now.0)
            .bind(&id)
            .execute(&mut *tx)
            .await?;
        }
    }
    let after = load_summary(&mut tx, user_id).await?;
    let event = Event::new(change.action(), AuditOutcome::Success)
        .by(by.actor, by.source)
        .on("user", user_id)
        .before(snapshot(&before))
        .after(snapshot(&after));
    audit::append(&mut tx, by.now, &event).await?;
    tx.commit().await?;
    Ok(after)
}

/// The stored hash for a user (to check the current password before a change).
pub async fn password_hash(pool: &Pool, user_id: Uuid) -> Result<String, AppError> {
    sqlx::query_scalar("SELECT password_hash FROM app_user WHERE user_id = $1")
        .bind(user_id.to_string())
        .fetch_optional(pool)
        .await?
        .ok_or(AppError::NotFound)
}

/// The user's own password change. Ends every other session (new epoch) and returns
/// the new epoch so the current session can carry on.
pub async fn change_own_password(
    store: &Store,
    by: By<'_>,
    user_id: Uuid,
    new_hash: &str,
) -> Result<i64, AppError> {
    let mut tx = store.begin_write().await?;
    let epoch: i64 = sqlx::query_scalar(
        "UPDATE app_user SET password_hash = $1, must_change_password = 0, \
         session_epoch = session_epoch + 1, updated_at = $2 WHERE user_id = $3 RETURNING session_epoch",
    )
    .bind(new_hash)
    .bind(by.now.0)
    .bind(user_id.to_string())
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(AppError::NotFound)?;
    let event = Event::new("user.change_password", AuditOutcome::Success)
        .by(by.actor, by.source)
        .on("user", user_id);
    audit::append(&mut tx, by.now, &event).await?;
    tx.commit().await?;
    Ok(epoch)
}

/// The account's session epoch now (a pending sign-in is void once it moves).
pub async fn epoch_of(pool: &Pool, user_id: Uuid) -> Result<i64, AppError> {
    sqlx::query_scalar("SELECT session_epoch FROM app_user WHERE user_id = $1 AND active = 1")
        .bind(user_id.to_string())
        .fetch_optional(pool)
        .await?
        .ok_or(AppError::SignInRefused)
}
