//! Second factors (issue #18, CJIS IA-2): authenticator codes, passkeys and
//! recovery codes, and the pending sign-in between the password and the factor.

pub mod key;
pub mod passkey;
pub mod recovery;
pub mod totp;

use serde::{Deserialize, Serialize};
use uuid::Uuid;
use webauthn_rs::Webauthn;

use crate::ordinance::Moment;

pub use key::SealingKey;

/// What the server needs for second factors: the key that seals authenticator
/// secrets, and the passkey relying party (absent when the public origin is an
/// IP address, with the reason).
#[derive(Clone)]
pub struct SecondFactorKit {
    pub key: SealingKey,
    pub webauthn: Result<std::sync::Arc<Webauthn>, String>,
}

impl std::fmt::Debug for SecondFactorKit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecondFactorKit")
            .field("passkeys", &self.webauthn.is_ok())
            .finish_non_exhaustive()
    }
}

impl SecondFactorKit {
    pub fn new(key: SealingKey, public_origin: &str) -> SecondFactorKit {
        SecondFactorKit {
            key,
            webauthn: passkey::relying_party(public_origin).map(std::sync::Arc::new),
        }
    }

    /// The relying party, or a clear refusal naming what to configure.
    pub fn passkeys(&self) -> Result<&Webauthn, crate::error::AppError> {
        self.webauthn
            .as_deref()
            .map_err(|reason| crate::error::AppError::conflict(reason.clone()))
    }
}

/// Session key: a right password waiting for its second factor.
pub const PENDING_KEY: &str = "wells.pending_sign_in";
/// Session key: a passkey sign-in ceremony under way (webauthn-rs's state; it
/// never goes to the browser).
pub const PASSKEY_SIGN_IN_KEY: &str = "wells.passkey_sign_in";
/// Session key: a passkey registration under way, with the name it will get.
pub const PASSKEY_ENROL_KEY: &str = "wells.passkey_enrol";
/// Session key: an authenticator secret shown but not yet confirmed (sealed).
pub const TOTP_ENROL_KEY: &str = "wells.totp_enrol";

/// How long after the password the second factor may come.
pub const PENDING_FOR_MS: i64 = 5 * 60_000;

/// A right password, waiting for the account's second factor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingSignIn {
    pub user_id: Uuid,
    pub username: String,
    /// The account's session epoch when the password was checked: a password
    /// reset or a disabled account in between voids the pending sign-in.
    pub epoch: i64,
    pub password_at: Moment,
}

impl PendingSignIn {
    pub fn is_current(&self, now: Moment) -> bool {
        now.0 >= self.password_at.0 && now.0 - self.password_at.0 < PENDING_FOR_MS
    }
}

/// The names of a passkey: what its owner typed, tidied and bounded.
pub fn passkey_name(name: &str) -> Result<String, crate::error::AppError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 60 {
        return Err(crate::error::AppError::invalid(
            "name",
            "Name the passkey in 1 to 60 characters, e.g. \"work phone\".",
        ));
    }
    Ok(name.to_owned())
}
