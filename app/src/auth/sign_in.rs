//! Signing in, start to finish: rate limit, password check, lockout, session.

use tower_sessions::Session;

use crate::auth::{password, session, Actor};
use crate::error::AppError;
use crate::state::AppState;
use crate::store::accounts::{self, By};

/// Checks the credentials and, when they are right and the account is usable,
/// starts a new session. Every outcome is audited; every failure looks the same
/// to the caller ([`AppError::SignInRefused`]).
pub async fn sign_in(
    state: &AppState,
    session: &Session,
    source: Option<&str>,
    username: &str,
    password_text: &str,
) -> Result<Actor, AppError> {
    let now = state.clock.now();
    let by = By {
        actor: None,
        source,
        now,
    };
    if !state
        .sign_in_limiter
        .allow(source.unwrap_or("unknown"), now)
    {
        accounts::record_refused_sign_in(&state.store, by, None, username, "rate limited").await?;
        return Err(AppError::RateLimited);
    }
    let found = accounts::credentials(&state.store.reader, username).await?;
    // Verify against a decoy when the user does not exist, so that case takes as
    // long as a wrong password and cannot be told apart by timing.
    let stored = found
        .as_ref()
        .map(|c| c.password_hash.clone())
        .unwrap_or_else(|| password::decoy_hash().to_owned());
    let attempt = password_text.to_owned();
    let matches = tokio::task::spawn_blocking(move || password::verify(&attempt, &stored))
        .await
        .map_err(|_| AppError::Internal)?;

    let Some(user) = found else {
        accounts::record_refused_sign_in(&state.store, by, None, username, "unknown username")
            .await?;
        return Err(AppError::SignInRefused);
    };
    if !user.active {
        accounts::record_refused_sign_in(
            &state.store,
            by,
            Some(user.user_id),
            username,
            "account disabled",
        )
        .await?;
        return Err(AppError::SignInRefused);
    }
    if user.failures.is_locked() {
        // CJIS AC-7: refused even with the right password until an administrator unlocks.
        accounts::record_refused_sign_in(
            &state.store,
            by,
            Some(user.user_id),
            username,
            "account locked",
        )
        .await?;
        return Err(AppError::SignInRefused);
    }
    if !matches {
        accounts::record_failed_sign_in(&state.store, by, user.user_id, "wrong password").await?;
        return Err(AppError::SignInRefused);
    }
    let (actor, epoch) = accounts::record_sign_in(&state.store, by, user.user_id).await?;
    session::begin(session, actor.user_id, epoch, now)
        .await
        .map_err(|error| {
            tracing::error!(%error, "could not start a session");
            AppError::Internal
        })?;
    Ok(actor)
}
