//! Second factors (issue #18): the sign-in's second step, and each user's own
//! enrolment of passkeys, an authenticator app and recovery codes.

use leptos::prelude::*;
use leptos::server_fn::codec::Json;

use crate::error::AppError;
use crate::model::account::{Enrolled, Me, SecondFactors, TotpEnrolment};

/// The second step of signing in with a code: six digits from the authenticator
/// app, or a recovery code. Wrong codes count toward the lockout.
#[server(endpoint = "session/second-factor", input = Json)]
pub async fn sign_in_with_code(code: String) -> Result<Me, AppError> {
    let (request, session) = public_with_session()?;
    let source = request.source.as_deref();
    crate::auth::sign_in::with_code(&request.state, &session, source, &code)
        .await
        .map(|a| a.me())
}

/// The second step with a passkey, part one: the challenge (WebAuthn request
/// options as JSON, for `navigator.credentials.get`).
#[server(endpoint = "session/passkey/begin", input = Json)]
pub async fn passkey_sign_in_begin() -> Result<String, AppError> {
    let (request, session) = public_with_session()?;
    crate::auth::sign_in::passkey_challenge(&request.state, &session, request.source.as_deref())
        .await
}

/// Part two: the browser's signed answer (`PublicKeyCredential.toJSON()` as a string).
#[server(endpoint = "session/passkey/finish", input = Json)]
pub async fn passkey_sign_in_finish(credential: String) -> Result<Me, AppError> {
    let (request, session) = public_with_session()?;
    let source = request.source.as_deref();
    crate::auth::sign_in::with_passkey(&request.state, &session, source, &credential)
        .await
        .map(|a| a.me())
}

#[cfg(feature = "ssr")]
use crate::api::admin::by;

/// The request as anyone may make it, with its session (the pending sign-in).
#[cfg(feature = "ssr")]
fn public_with_session() -> Result<(crate::auth::guard::Public, tower_sessions::Session), AppError>
{
    let request = crate::auth::guard::public()?;
    let session = crate::api::account::session_of(&request.parts)?;
    Ok((request, session))
}

#[cfg(feature = "ssr")]
async fn own() -> Result<crate::auth::guard::Authorized, AppError> {
    crate::auth::guard::authorize(crate::access::Permission::OwnAccount).await
}

/// One's own factors, and what the sign-in policy asks of them.
#[server(endpoint = "account/second-factor", input = Json)]
pub async fn my_second_factors() -> Result<SecondFactors, AppError> {
    use crate::store::second_factor as store;
    let request = own().await?;
    let reader = &request.state.store.reader;
    let factors = store::factors(reader, request.actor.user_id).await?;
    let policy = store::policy(reader).await?;
    Ok(SecondFactors {
        totp: factors.totp.is_some(),
        passkeys: factors.passkeys.into_iter().map(|p| p.info).collect(),
        recovery_codes_left: factors.recovery_codes_left,
        required: policy.second_factor_required,
        passkey_required: policy.needs_passkey(&request.actor.roles),
        passkeys_unavailable: request.state.second_factor.webauthn.as_ref().err().cloned(),
    })
}

/// Starts adding an authenticator app: a new secret, shown as a QR code and as
/// text. It is kept (sealed) in the session until a code from the app confirms it.
#[server(endpoint = "account/totp/begin", input = Json)]
pub async fn totp_begin() -> Result<TotpEnrolment, AppError> {
    use crate::auth::second_factor::{totp, TOTP_ENROL_KEY};
    let request = own().await?;
    let secret = totp::new_secret();
    let uri = totp::enrolment_uri(&secret, &request.actor.username).ok_or(AppError::Internal)?;
    let qr_svg = totp::qr_svg(&uri).ok_or(AppError::Internal)?;
    let sealed = request.state.second_factor.key.seal(&secret);
    session_of(&request)?
        .insert(TOTP_ENROL_KEY, (sealed.nonce, sealed.sealed))
        .await
        .map_err(|_| AppError::Internal)?;
    Ok(TotpEnrolment {
        secret: totp::secret_text(&secret),
        uri,
        qr_svg,
    })
}

#[cfg(feature = "ssr")]
fn session_of(
    request: &crate::auth::guard::Authorized,
) -> Result<tower_sessions::Session, AppError> {
    crate::api::account::session_of(&request.parts)
}

/// Confirms the authenticator with a code it shows now. The first factor of an
/// account comes with its ten recovery codes, shown this once.
#[server(endpoint = "account/totp/confirm", input = Json)]
pub async fn totp_confirm(code: String) -> Result<Enrolled, AppError> {
    use crate::auth::second_factor::key::Sealed;
    use crate::auth::second_factor::{totp, TOTP_ENROL_KEY};
    use crate::store::second_factor::NewFactor;
    let request = own().await?;
    let session = session_of(&request)?;
    let pending: Option<(Vec<u8>, Vec<u8>)> = session
        .get(TOTP_ENROL_KEY)
        .await
        .map_err(|_| AppError::Internal)?;
    let Some((nonce, sealed)) = pending else {
        return Err(AppError::conflict(
            "No authenticator set-up is under way: press \"Set up an authenticator app\" again.",
        ));
    };
    let sealed = Sealed { nonce, sealed };
    let secret = request
        .state
        .second_factor
        .key
        .open(&sealed)
        .ok_or(AppError::Internal)?;
    let step = totp::accept(&secret, &code, request.now, i64::MIN).map_err(|_| {
        AppError::invalid(
            "code",
            "That is not the code the app shows now. Check the phone's clock is set \
             automatically, and type the 6 digits shown.",
        )
    })?;
    let factor = NewFactor::Totp {
        sealed,
        confirmed_step: step,
    };
    let enrolled = enrol(&request, factor).await?;
    let _ = session.remove::<(Vec<u8>, Vec<u8>)>(TOTP_ENROL_KEY).await;
    Ok(enrolled)
}

/// Removes one's authenticator app (refused when the policy needs it).
#[server(endpoint = "account/totp/remove", input = Json)]
pub async fn totp_remove() -> Result<(), AppError> {
    use crate::store::second_factor::{self as store, Removal};
    let request = own().await?;
    let actor = &request.actor;
    store::remove(
        &request.state.store,
        by(&request),
        actor.user_id,
        &actor.roles,
        Removal::Totp,
    )
    .await
}

/// Starts registering a passkey named `name`: WebAuthn creation options as JSON
/// (for `navigator.credentials.create`); the ceremony's state stays in the session.
#[server(endpoint = "account/passkey/begin", input = Json)]
pub async fn passkey_begin(name: String) -> Result<String, AppError> {
    use crate::auth::second_factor::{passkey_name, PASSKEY_ENROL_KEY};
    let request = own().await?;
    let name = passkey_name(&name)?;
    let webauthn = request.state.second_factor.passkeys()?;
    let actor = &request.actor;
    let enrolled =
        crate::store::second_factor::factors(&request.state.store.reader, actor.user_id).await?;
    // The browser is told which passkeys exist, so it does not register one twice.
    let existing = crate::auth::sign_in::passkeys_of(&enrolled)
        .iter()
        .map(|p| p.cred_id().clone())
        .collect::<Vec<_>>();
    let (options, ceremony) = webauthn
        .start_passkey_registration(
            actor.user_id,
            &actor.username,
            &actor.full_name,
            Some(existing),
        )
        .map_err(|error| {
            tracing::error!(%error, "passkey registration could not start");
            AppError::Internal
        })?;
    session_of(&request)?
        .insert(PASSKEY_ENROL_KEY, (name, ceremony))
        .await
        .map_err(|_| AppError::Internal)?;
    serde_json::to_string(&options).map_err(|_| AppError::Internal)
}

/// Finishes registering the passkey with the browser's answer
/// (`PublicKeyCredential.toJSON()` as a string).
#[server(endpoint = "account/passkey/finish", input = Json)]
pub async fn passkey_finish(credential: String) -> Result<Enrolled, AppError> {
    use crate::auth::second_factor::PASSKEY_ENROL_KEY;
    use crate::store::second_factor::NewFactor;
    use webauthn_rs::prelude::{PasskeyRegistration, RegisterPublicKeyCredential};
    let request = own().await?;
    let webauthn = request.state.second_factor.passkeys()?;
    let ceremony: Option<(String, PasskeyRegistration)> = session_of(&request)?
        .remove(PASSKEY_ENROL_KEY)
        .await
        .map_err(|_| AppError::Internal)?;
    let Some((name, ceremony)) = ceremony else {
        return Err(AppError::conflict(
            "No passkey registration is under way: press \"Add a passkey\" again.",
        ));
    };
    let credential: RegisterPublicKeyCredential =
        serde_json::from_str(&credential).map_err(|_| {
            AppError::invalid("credential", "The browser's passkey answer is malformed.")
        })?;
    let passkey = webauthn
        .finish_passkey_registration(&credential, &ceremony)
        .map_err(|error| {
            tracing::info!(%error, "passkey registration refused");
            AppError::invalid(
                "credential",
                "The passkey was not accepted (it must unlock with your fingerprint, face or \
                 PIN). Try again.",
            )
        })?;
    let factor = NewFactor::Passkey {
        credential_id: hex::encode(passkey.cred_id()),
        name,
        passkey_json: serde_json::to_string(&passkey).map_err(|_| AppError::Internal)?,
    };
    enrol(&request, factor).await
}

/// Stores a confirmed factor; the account's first comes with ten recovery codes,
/// returned to be shown this once.
#[cfg(feature = "ssr")]
async fn enrol(
    request: &crate::auth::guard::Authorized,
    factor: crate::store::second_factor::NewFactor,
) -> Result<Enrolled, AppError> {
    use crate::auth::second_factor::recovery;
    let codes = recovery::new_codes();
    let hashes: Vec<String> = codes.iter().map(|c| recovery::hash(c)).collect();
    let first = crate::store::second_factor::enrol(
        &request.state.store,
        by(request),
        request.actor.user_id,
        factor,
        &hashes,
    )
    .await?;
    Ok(Enrolled {
        recovery_codes: first.then_some(codes),
    })
}

/// Removes one of one's passkeys (refused when the policy needs it).
#[server(endpoint = "account/passkey/remove", input = Json)]
pub async fn passkey_remove(credential_id: String) -> Result<(), AppError> {
    use crate::store::second_factor::{self as store, Removal};
    let request = own().await?;
    let actor = &request.actor;
    let removal = Removal::Passkey {
        credential_id: &credential_id,
    };
    store::remove(
        &request.state.store,
        by(&request),
        actor.user_id,
        &actor.roles,
        removal,
    )
    .await
}

/// Ten new recovery codes, shown once; the old ones stop working.
#[server(endpoint = "account/recovery-codes", input = Json)]
pub async fn new_recovery_codes() -> Result<Vec<String>, AppError> {
    use crate::auth::second_factor::recovery;
    let request = own().await?;
    let codes = recovery::new_codes();
    let hashes: Vec<String> = codes.iter().map(|c| recovery::hash(c)).collect();
    crate::store::second_factor::regenerate_recovery_codes(
        &request.state.store,
        by(&request),
        request.actor.user_id,
        &hashes,
    )
    .await?;
    Ok(codes)
}
