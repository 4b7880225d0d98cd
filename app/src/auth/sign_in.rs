//! Signing in, start to finish: rate limit, password check, lockout, the second
//! factor when the account has one (#18), session.

use tower_sessions::Session;
use webauthn_rs::prelude::{Passkey, PasskeyAuthentication, PublicKeyCredential};

use crate::auth::second_factor::{recovery, totp, PendingSignIn, PASSKEY_SIGN_IN_KEY, PENDING_KEY};
use crate::auth::By;
use crate::auth::{password, session, Actor};
use crate::error::AppError;
use crate::model::account::{FactorKind, SignInStep};
use crate::ordinance::Moment;
use crate::state::AppState;
use crate::store::accounts;
use crate::store::second_factor::{self as factors, Use};

fn session_failed(error: tower_sessions::session::Error) -> AppError {
    tracing::error!(%error, "session store failed during sign-in");
    AppError::Internal
}

fn by(source: Option<&str>, now: Moment) -> By<'_> {
    By {
        actor: None,
        source,
        now,
    }
}

/// Checks the credentials. When they are right and the account is usable: with
/// no second factor enrolled, starts a new session; with one, keeps a pending
/// sign-in (five minutes) and answers which factors the account has. Every
/// outcome is audited; every failure looks the same to the caller
/// ([`AppError::SignInRefused`]).
pub async fn sign_in(
    state: &AppState,
    session: &Session,
    source: Option<&str>,
    username: &str,
    password_text: &str,
) -> Result<SignInStep, AppError> {
    let now = state.clock.now();
    let by = by(source, now);
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
    refuse_unusable(state, by, &user, username).await?;
    if !matches {
        accounts::record_failed_sign_in(&state.store, by, user.user_id, "wrong password").await?;
        return Err(AppError::SignInRefused);
    }
    let enrolled = factors::factors(&state.store.reader, user.user_id).await?;
    if !enrolled.any() {
        let actor = complete(state, session, by, user.user_id, None).await?;
        return Ok(SignInStep::SignedIn { me: actor.me() });
    }
    // The password alone proves nothing yet: the failure count is not cleared
    // (a right password between guessed codes must not reset the lockout), and
    // no session is started, only the pending sign-in under a fresh id.
    let mut methods = Vec::new();
    if !enrolled.passkeys.is_empty() {
        methods.push(FactorKind::Passkey);
    }
    if enrolled.totp.is_some() {
        methods.push(FactorKind::Totp);
    }
    if enrolled.recovery_codes_left > 0 {
        methods.push(FactorKind::RecoveryCode);
    }
    let epoch = accounts::epoch_of(&state.store.reader, user.user_id).await?;
    session.clear().await;
    session.cycle_id().await.map_err(session_failed)?;
    session
        .insert(
            PENDING_KEY,
            PendingSignIn {
                user_id: user.user_id,
                username: username.trim().to_owned(),
                epoch,
                password_at: now,
            },
        )
        .await
        .map_err(session_failed)?;
    Ok(SignInStep::SecondFactor { methods })
}

/// Refuses a disabled or locked account (CJIS AC-7: refused even with the right
/// password or code until an administrator unlocks).
async fn refuse_unusable(
    state: &AppState,
    by: By<'_>,
    user: &accounts::Credentials,
    username: &str,
) -> Result<(), AppError> {
    let reason = if !user.active {
        "account disabled"
    } else if user.failures.is_locked() {
        "account locked"
    } else {
        return Ok(());
    };
    accounts::record_refused_sign_in(&state.store, by, Some(user.user_id), username, reason)
        .await?;
    Err(AppError::SignInRefused)
}

/// Not an authorization refusal: anyone may make this call; there is just
/// nothing for it to finish.
fn no_pending() -> AppError {
    AppError::conflict(
        "No sign-in is waiting for a second factor (it waits five minutes after the \
         password): enter your username and password again.",
    )
}

/// The pending sign-in, if it is still current and its account still usable.
async fn pending(
    state: &AppState,
    session: &Session,
    by: By<'_>,
) -> Result<PendingSignIn, AppError> {
    let pending: Option<PendingSignIn> = session.get(PENDING_KEY).await.map_err(session_failed)?;
    let Some(pending) = pending.filter(|p| p.is_current(by.now)) else {
        return Err(no_pending());
    };
    if !state
        .sign_in_limiter
        .allow(by.source.unwrap_or("unknown"), by.now)
    {
        return Err(AppError::RateLimited);
    }
    let user = accounts::credentials(&state.store.reader, &pending.username).await?;
    let refused = match &user {
        Some(user) => refuse_unusable(state, by, user, &pending.username)
            .await
            .err(),
        None => Some(AppError::SignInRefused),
    };
    if let Some(refused) = refused {
        session.clear().await;
        return Err(refused);
    }
    // A password reset or a disabled account since the password: start again.
    if accounts::epoch_of(&state.store.reader, pending.user_id).await? != pending.epoch {
        session.clear().await;
        return Err(no_pending());
    }
    Ok(pending)
}

/// A wrong, replayed or unusable second factor: counts toward the lockout like a
/// wrong password (five in fifteen minutes lock the account).
async fn failed(
    state: &AppState,
    session: &Session,
    by: By<'_>,
    pending: &PendingSignIn,
    reason: &str,
) -> AppError {
    match accounts::record_failed_sign_in(&state.store, by, pending.user_id, reason).await {
        Ok(true) => {
            session.clear().await;
            AppError::SignInRefused
        }
        Ok(false) => AppError::invalid(
            "code",
            "That code is not right, or it was used already (each code works once). After 5 \
             failed attempts in 15 minutes the account is locked.",
        ),
        Err(error) => error,
    }
}

/// The second step with a typed code: an authenticator code, or a recovery code
/// (told apart by their shape: six digits, or eight letters and digits).
pub async fn with_code(
    state: &AppState,
    session: &Session,
    source: Option<&str>,
    code: &str,
) -> Result<Actor, AppError> {
    let by = by(source, state.clock.now());
    let pending = pending(state, session, by).await?;
    if recovery::looks_like_code(code) {
        let hash = recovery::hash(code);
        let used = Use::RecoveryCode { hash: &hash };
        if !factors::spend(&state.store, by, pending.user_id, used).await? {
            return Err(failed(state, session, by, &pending, "wrong recovery code").await);
        }
        return complete(
            state,
            session,
            by,
            pending.user_id,
            Some(FactorKind::RecoveryCode),
        )
        .await;
    }
    let enrolled = factors::factors(&state.store.reader, pending.user_id).await?;
    let Some(stored) = enrolled.totp else {
        return Err(failed(state, session, by, &pending, "no authenticator enrolled").await);
    };
    let Some(secret) = state.second_factor.key.open(&stored.sealed) else {
        tracing::error!(user = %pending.user_id, "an authenticator secret does not open with the configured key");
        return Err(AppError::Internal);
    };
    let step = match totp::accept(&secret, code, by.now, stored.last_step) {
        Ok(step) => step,
        Err(totp::Refused::Malformed) => {
            return Err(AppError::invalid(
                "code",
                "Enter the 6-digit code from your authenticator app, or a recovery code.",
            ))
        }
        Err(totp::Refused::Replayed) => {
            return Err(failed(state, session, by, &pending, "authenticator code replayed").await)
        }
        Err(totp::Refused::Wrong) => {
            return Err(failed(state, session, by, &pending, "wrong authenticator code").await)
        }
    };
    if !factors::spend(&state.store, by, pending.user_id, Use::Totp { step }).await? {
        // Another request spent this step's code between our read and write.
        return Err(failed(state, session, by, &pending, "authenticator code replayed").await);
    }
    complete(state, session, by, pending.user_id, Some(FactorKind::Totp)).await
}

/// The account's passkeys as webauthn-rs reads them.
pub fn passkeys_of(enrolled: &factors::Factors) -> Vec<Passkey> {
    enrolled
        .passkeys
        .iter()
        .filter_map(|p| serde_json::from_str(&p.passkey_json).ok())
        .collect()
}

/// Starts the passkey step: the challenge for the browser (JSON for
/// `navigator.credentials.get`); the ceremony's state stays in the session.
pub async fn passkey_challenge(
    state: &AppState,
    session: &Session,
    source: Option<&str>,
) -> Result<String, AppError> {
    let by = by(source, state.clock.now());
    let pending = pending(state, session, by).await?;
    let webauthn = state.second_factor.passkeys()?;
    let keys = passkeys_of(&factors::factors(&state.store.reader, pending.user_id).await?);
    if keys.is_empty() {
        return Err(AppError::conflict(
            "This account has no passkey: use a code.",
        ));
    }
    let (challenge, ceremony) = webauthn
        .start_passkey_authentication(&keys)
        .map_err(|error| {
            tracing::error!(%error, "passkey challenge failed");
            AppError::Internal
        })?;
    session
        .insert(PASSKEY_SIGN_IN_KEY, ceremony)
        .await
        .map_err(session_failed)?;
    serde_json::to_string(&challenge).map_err(|_| AppError::Internal)
}

/// Finishes the passkey step with the browser's answer (`PublicKeyCredential`
/// as JSON). The challenge is spent whatever the outcome.
pub async fn with_passkey(
    state: &AppState,
    session: &Session,
    source: Option<&str>,
    credential: &str,
) -> Result<Actor, AppError> {
    let by = by(source, state.clock.now());
    let pending = pending(state, session, by).await?;
    let webauthn = state.second_factor.passkeys()?;
    let ceremony: Option<PasskeyAuthentication> = session
        .remove(PASSKEY_SIGN_IN_KEY)
        .await
        .map_err(session_failed)?;
    let Some(ceremony) = ceremony else {
        return Err(AppError::conflict(
            "No passkey sign-in is under way: press \"Use a passkey\" again.",
        ));
    };
    let credential: PublicKeyCredential = serde_json::from_str(credential).map_err(|_| {
        AppError::invalid("credential", "The browser's passkey answer is malformed.")
    })?;
    let result = match webauthn.finish_passkey_authentication(&credential, &ceremony) {
        Ok(result) => result,
        Err(error) => {
            tracing::info!(%error, "passkey not accepted");
            return Err(failed(state, session, by, &pending, "passkey not accepted").await);
        }
    };
    let enrolled = factors::factors(&state.store.reader, pending.user_id).await?;
    let used = enrolled.passkeys.iter().find_map(|stored| {
        let mut key: Passkey = serde_json::from_str(&stored.passkey_json).ok()?;
        (key.cred_id() == result.cred_id()).then(|| {
            let updated = key
                .update_credential(&result)
                .filter(|changed| *changed)
                .and_then(|_| serde_json::to_string(&key).ok());
            (stored.info.credential_id.clone(), updated)
        })
    });
    let Some((credential_id, updated_json)) = used else {
        return Err(failed(state, session, by, &pending, "passkey not registered").await);
    };
    let used = Use::Passkey {
        credential_id: &credential_id,
        updated_json,
    };
    if !factors::spend(&state.store, by, pending.user_id, used).await? {
        return Err(failed(state, session, by, &pending, "passkey removed").await);
    }
    complete(
        state,
        session,
        by,
        pending.user_id,
        Some(FactorKind::Passkey),
    )
    .await
}

/// The end of every successful sign-in: the failure run cleared, the sign-in
/// audited (with its second factor), the session started. A password-only
/// sign-in gets a new session id here; a two-step one got its new id at the
/// password (nobody else can know it) and keeps it: cycling it again would leave
/// a request already on its way with that id (the page's next load, the service
/// worker's) signed out.
async fn complete(
    state: &AppState,
    session: &Session,
    by: By<'_>,
    user_id: uuid::Uuid,
    factor: Option<FactorKind>,
) -> Result<Actor, AppError> {
    let (actor, epoch) = accounts::record_sign_in(&state.store, by, user_id, factor).await?;
    session.clear().await;
    let started = match factor {
        None => session::begin(session, actor.user_id, epoch, by.now).await,
        Some(_) => session::continue_as(session, actor.user_id, epoch, by.now).await,
    };
    started.map_err(session_failed)?;
    Ok(actor)
}
