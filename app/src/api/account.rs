//! Signing in and out, the first administrator, and one's own password.

use leptos::prelude::*;
use leptos::server_fn::codec::Json;

use crate::error::AppError;
use crate::model::account::{Me, SignInStep};

/// The signed-in user, or `None`.
#[server(endpoint = "session/me", input = Json)]
pub async fn current_user() -> Result<Option<Me>, AppError> {
    let request = crate::auth::guard::public()?;
    Ok(request.actor.map(|a| a.me()))
}

/// Signs in, or (for an account with a second factor) checks the password and
/// asks for the factor next (`session/second-factor`, `session/passkey/*`). Five
/// failures in fifteen minutes lock the account (CJIS AC-7).
#[server(endpoint = "session/sign-in", input = Json)]
pub async fn sign_in(username: String, password: String) -> Result<SignInStep, AppError> {
    let request = crate::auth::guard::public()?;
    let session = session_of(&request.parts)?;
    crate::auth::sign_in::sign_in(
        &request.state,
        &session,
        request.source.as_deref(),
        &username,
        &password,
    )
    .await
}

/// The sign-in form before the browser app has started (#35): a plain form post,
/// answered with a redirect. Signed in: where the user was headed (a new password
/// or a second factor first, as the app would go). A second factor: the sign-in
/// page again, naming the account's factors, where the app takes over. Refused:
/// the sign-in page with the reason, the same for every failure as
/// [`sign_in`] gives it.
#[server(endpoint = "session/sign-in-form")]
pub async fn sign_in_form(
    username: String,
    password: String,
    next: Option<String>,
) -> Result<(), AppError> {
    use crate::model::account::{after_sign_in, sign_in_address as plain};

    // The same sign-in as the app's, answered with an address.
    let step = sign_in(username, password).await;
    let target = match step {
        Ok(SignInStep::SignedIn { me }) => after_sign_in(&me, next),
        Ok(SignInStep::SecondFactor { methods }) => plain::second_step(&methods, next.as_deref()),
        Err(error) => plain::refused(&error, next.as_deref()),
    };
    leptos_axum::redirect(&target);
    Ok(())
}

/// Signs out: the session is deleted on the server, not just forgotten by the browser.
#[server(endpoint = "session/sign-out", input = Json)]
pub async fn sign_out() -> Result<(), AppError> {
    use crate::access::Permission;
    use crate::model::audit::AuditOutcome;
    use crate::store::audit;

    let request = crate::auth::guard::authorize(Permission::OwnAccount).await?;
    session_of(&request.parts)?.flush().await.map_err(|error| {
        tracing::error!(%error, "could not delete the session");
        AppError::Internal
    })?;
    let event = audit::Event::new("session.sign_out", AuditOutcome::Success)
        .by(Some(&request.actor), request.source.as_deref())
        .on("user", request.actor.user_id);
    audit::record(&request.state.store, request.now, &event).await
}

/// Changes the signed-in user's own password; every other session of theirs ends.
#[server(endpoint = "account/password", input = Json)]
pub async fn change_password(
    current_password: String,
    new_password: String,
) -> Result<(), AppError> {
    use crate::access::Permission;
    use crate::auth::By;
    use crate::auth::{password, session};
    use crate::store::accounts;

    let request = crate::auth::guard::authorize(Permission::OwnAccount).await?;
    let actor = &request.actor;
    if let Some(problem) = password::policy_problem(&new_password, &actor.username) {
        return Err(AppError::invalid("new_password", problem));
    }
    let stored = accounts::password_hash(&request.state.store.reader, actor.user_id).await?;
    let (current, new) = (current_password, new_password);
    let new_hash = tokio::task::spawn_blocking(move || {
        if password::verify(&current, &stored) {
            password::hash(&new).map(Some)
        } else {
            Ok(None)
        }
    })
    .await
    .map_err(|_| AppError::Internal)??
    .ok_or_else(|| AppError::invalid("current_password", "The current password is not right."))?;
    let by = By {
        actor: Some(actor),
        source: request.source.as_deref(),
        now: request.now,
    };
    let epoch =
        accounts::change_own_password(&request.state.store, by, actor.user_id, &new_hash).await?;
    session::begin(
        &session_of(&request.parts)?,
        actor.user_id,
        epoch,
        request.now,
    )
    .await
    .map_err(|_| AppError::Internal)
}

/// First-run setup: creates the first administrator with the one-time token the
/// server printed at start-up. Closed once any administrator exists.
#[server(endpoint = "setup/create-admin", input = Json)]
pub async fn create_first_admin(
    token: String,
    username: String,
    full_name: String,
    badge_number: Option<String>,
    password: String,
) -> Result<(), AppError> {
    use crate::auth::{password as pw, setup};
    use crate::model::account::{NewUser, Role};
    use crate::store::accounts;

    let request = crate::auth::guard::public()?;
    let new = NewUser {
        username: username.trim().to_lowercase(),
        full_name,
        badge_number,
        roles: vec![Role::Admin],
        password,
    };
    validate_new_user(&new)?;
    let plain = new.password.clone();
    let hash = tokio::task::spawn_blocking(move || pw::hash(&plain))
        .await
        .map_err(|_| AppError::Internal)??;
    let admin = accounts::create_first_admin(
        &request.state.store,
        request.source.as_deref(),
        &setup::hash_token(&token),
        &new,
        &hash,
        request.now,
    )
    .await?;
    // Signed in at once, so the setup link goes straight on to the administrator's
    // second factor (#18): the token proved who they are, the password is new.
    let by = crate::auth::By {
        actor: None,
        source: request.source.as_deref(),
        now: request.now,
    };
    let (actor, epoch) =
        accounts::record_sign_in(&request.state.store, by, admin.user_id, None).await?;
    crate::auth::session::begin(
        &session_of(&request.parts)?,
        actor.user_id,
        epoch,
        request.now,
    )
    .await
    .map_err(|_| AppError::Internal)
}

/// Account details and password policy, field by field.
#[cfg(feature = "ssr")]
pub(crate) fn validate_new_user(new: &crate::model::account::NewUser) -> Result<(), AppError> {
    let mut errors = new.problems();
    if let Some(problem) = crate::auth::password::policy_problem(&new.password, &new.username) {
        errors.push(crate::error::FieldError::new("password", problem));
    }
    AppError::unless_any(errors)
}

#[cfg(feature = "ssr")]
pub(crate) fn session_of(
    parts: &http::request::Parts,
) -> Result<tower_sessions::Session, AppError> {
    parts
        .extensions
        .get::<tower_sessions::Session>()
        .cloned()
        .ok_or_else(|| {
            tracing::error!("no session layer in front of a server function");
            AppError::Internal
        })
}
