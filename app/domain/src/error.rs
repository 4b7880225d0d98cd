//! The one application error that crosses the wire.
//!
//! Every server function returns `Result<_, AppError>`. The variant decides the HTTP
//! status (see [`AppError::status`]); the browser gets the variant back, typed, so a
//! form can put each [`FieldError`] beside its field. `Internal` carries no detail:
//! the cause is logged on the server where it happened, never shown to the user.

use leptos::server_fn::codec::JsonEncoding;
use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};

/// One thing the user must fix, tied to the input it concerns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldError {
    /// Dotted path of the input, e.g. `order.given_at` or `subjects.0.name`;
    /// `request` when the request as a whole is malformed.
    pub field: String,
    /// A sentence the user can act on; names the Chapter 52 section when the law
    /// requires the field ("§52-1 D: record the time the order was given").
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// The largest request body the server reads (a report of 50 persons with a
/// 20 000-character narrative is about 100 KB).
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AppError {
    /// 400: the input is wrong; nothing was stored.
    #[error("{}", summary(errors))]
    Invalid { errors: Vec<FieldError> },
    /// 401: no valid session (never signed in, signed out, or timed out).
    #[error("Sign in to continue.")]
    Unauthenticated,
    /// 401: the username or password was wrong, or the account is locked or
    /// disabled. One message for all, so it does not tell whether a username exists.
    #[error(
        "Sign-in failed: the username or password is wrong, or the account is locked or \
         disabled. After 5 failed attempts in 15 minutes an account is locked until an \
         administrator unlocks it."
    )]
    SignInRefused,
    /// 403: signed in, but this role may not do this (or the request failed the
    /// origin check that protects against cross-site requests).
    #[error("You do not have permission to do that.")]
    Forbidden,
    /// 403: an administrator reset the password; nothing else is open until the
    /// user chooses a new one.
    #[error("Choose a new password before continuing.")]
    PasswordChangeRequired,
    /// 403: the sign-in policy requires a second factor and this account has
    /// none yet; nothing else is open until one is set up (CJIS IA-2).
    #[error(
        "Set up a second factor (a passkey or an authenticator app) before continuing: \
         the department's sign-in policy requires one."
    )]
    SecondFactorRequired,
    /// 404: no such record, or one the caller may not know exists.
    #[error("Not found.")]
    NotFound,
    /// 409: the request conflicts with the record's current state.
    #[error("{message}")]
    Conflict { message: String },
    /// 413: the request body is larger than the server takes.
    #[error("The request is too large: the server takes at most {} KB.", limit_bytes / 1024)]
    TooLarge { limit_bytes: u64 },
    /// 429: too many attempts from this address; try again later.
    #[error("Too many attempts. Wait a minute and try again.")]
    RateLimited,
    /// Only ever made in the browser: the request did not reach the server (no
    /// signal). The field flow queues the submission when it sees this.
    #[error("No connection to the server.")]
    Unreachable,
    /// 500: something failed on the server; the detail is in the server log.
    #[error("Something went wrong on the server. The problem has been logged.")]
    Internal,
}

fn summary(errors: &[FieldError]) -> String {
    match errors {
        [] => "The request was not valid.".to_owned(),
        [one] => one.message.clone(),
        [first, rest @ ..] => format!("{} (and {} more)", first.message, rest.len()),
    }
}

impl AppError {
    /// The request itself was refused, and sending it again as it is would be
    /// refused again (the user must change it); any other error may pass on a
    /// retry (no signal, a sign-in to renew, the server's own trouble).
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            AppError::Invalid { .. }
                | AppError::Conflict { .. }
                | AppError::TooLarge { .. }
                | AppError::NotFound
        )
    }

    /// A single-field validation error.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        AppError::Invalid {
            errors: vec![FieldError::new(field, message)],
        }
    }

    /// `Ok` when there are no field errors; otherwise a 400 listing them all.
    pub fn unless_any(errors: Vec<FieldError>) -> Result<(), AppError> {
        if errors.is_empty() {
            Ok(())
        } else {
            Err(AppError::Invalid { errors })
        }
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        AppError::Conflict {
            message: message.into(),
        }
    }

    /// The HTTP status this error is sent with.
    pub fn status(&self) -> http::StatusCode {
        use http::StatusCode as S;
        match self {
            AppError::Invalid { .. } => S::BAD_REQUEST,
            AppError::Unauthenticated | AppError::SignInRefused => S::UNAUTHORIZED,
            AppError::Forbidden
            | AppError::PasswordChangeRequired
            | AppError::SecondFactorRequired => S::FORBIDDEN,
            AppError::NotFound => S::NOT_FOUND,
            AppError::Conflict { .. } => S::CONFLICT,
            AppError::TooLarge { .. } => S::PAYLOAD_TOO_LARGE,
            AppError::RateLimited => S::TOO_MANY_REQUESTS,
            AppError::Unreachable => S::SERVICE_UNAVAILABLE,
            AppError::Internal => S::INTERNAL_SERVER_ERROR,
        }
    }

    /// The message for one field, if this error names it.
    pub fn for_field(&self, field: &str) -> Option<&str> {
        match self {
            AppError::Invalid { errors } => errors
                .iter()
                .find(|e| e.field == field)
                .map(|e| e.message.as_str()),
            _ => None,
        }
    }
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        match value {
            // The request body did not decode into the function's arguments: the
            // caller sent wrong types, missing fields or broken JSON.
            // A body over the limit (one sent without its length) is cut off
            // while it is read: too large, not malformed.
            ServerFnErrorErr::Args(detail)
            | ServerFnErrorErr::MissingArg(detail)
            | ServerFnErrorErr::Deserialization(detail)
                if detail.contains("length limit exceeded") =>
            {
                AppError::TooLarge {
                    limit_bytes: MAX_BODY_BYTES as u64,
                }
            }
            ServerFnErrorErr::Args(detail) | ServerFnErrorErr::MissingArg(detail) => {
                AppError::invalid("request", format!("The request is malformed: {detail}"))
            }
            // On the server, a body that does not decode into the arguments (JSON
            // input). In the browser the same variant means the answer did not
            // decode, which is our fault, not the user's.
            #[cfg(feature = "ssr")]
            ServerFnErrorErr::Deserialization(detail) => {
                AppError::invalid("request", format!("The request is malformed: {detail}"))
            }
            ServerFnErrorErr::Request(_) => AppError::Unreachable,
            other => {
                #[cfg(feature = "ssr")]
                tracing::error!(error = %other, "server function failed outside its body");
                #[cfg(not(feature = "ssr"))]
                let _ = other;
                AppError::Internal
            }
        }
    }

    /// Serialising the error is the last thing the server does with it, so this is
    /// where the response gets the status the variant promises (server functions
    /// otherwise answer every error with 500).
    fn ser(&self) -> leptos::server_fn::Bytes {
        #[cfg(feature = "ssr")]
        if let Some(response) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(self.status());
        }
        serde_json::to_vec(self)
            .map(Into::into)
            .unwrap_or_else(|_| leptos::server_fn::Bytes::from_static(br#"{"kind":"internal"}"#))
    }

    fn de(data: leptos::server_fn::Bytes) -> Self {
        serde_json::from_slice(&data).unwrap_or(AppError::Internal)
    }
}

#[cfg(feature = "ssr")]
impl From<sqlx::Error> for AppError {
    /// The database text never reaches the browser; it is logged here instead.
    fn from(error: sqlx::Error) -> Self {
        match error {
            sqlx::Error::RowNotFound => AppError::NotFound,
            other => {
                tracing::error!(error = %other, "database error");
                AppError::Internal
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_round_trips_as_json() {
        let all = [
            AppError::invalid(
                "order.given_at",
                "§52-1 D: record the time the order was given",
            ),
            AppError::Unauthenticated,
            AppError::SignInRefused,
            AppError::Forbidden,
            AppError::PasswordChangeRequired,
            AppError::SecondFactorRequired,
            AppError::NotFound,
            AppError::conflict("already filed"),
            AppError::TooLarge { limit_bytes: 2048 },
            AppError::RateLimited,
            AppError::Unreachable,
            AppError::Internal,
        ];
        for error in all {
            let bytes = error.ser();
            assert_eq!(AppError::de(bytes), error);
        }
    }

    #[test]
    fn statuses_follow_the_variant() {
        assert_eq!(AppError::invalid("x", "y").status(), 400);
        assert_eq!(AppError::Unauthenticated.status(), 401);
        assert_eq!(AppError::Forbidden.status(), 403);
        assert_eq!(AppError::NotFound.status(), 404);
        assert_eq!(AppError::conflict("c").status(), 409);
        assert_eq!(AppError::Internal.status(), 500);
    }

    #[test]
    fn malformed_arguments_are_a_validation_error_not_a_server_fault() {
        let e = AppError::from_server_fn_error(ServerFnErrorErr::Args("missing field `x`".into()));
        assert_eq!(e.status(), 400);
        assert!(e.for_field("request").is_some());
    }

    #[test]
    fn internal_error_says_nothing_about_the_cause() {
        let json = String::from_utf8(AppError::Internal.ser().to_vec()).unwrap_or_default();
        assert_eq!(json, r#"{"kind":"internal"}"#);
    }
}
