//! The first line of every server function: who is asking, and may they?

use http::request::Parts;
use leptos::prelude::use_context;

use crate::access::{Decision, Permission};
use crate::auth::session::client_address;
use crate::auth::Actor;
use crate::error::AppError;
use crate::model::audit::AuditOutcome;
use crate::ordinance::Moment;
use crate::state::AppState;
use crate::store::audit;

/// A request that passed its permission check.
#[derive(Debug, Clone)]
pub struct Authorized {
    pub state: AppState,
    pub actor: Actor,
    pub source: Option<String>,
    pub now: Moment,
    pub parts: Parts,
}

/// A request for one of the few things anyone may do (sign in, first-run setup).
#[derive(Debug, Clone)]
pub struct Public {
    pub state: AppState,
    pub actor: Option<Actor>,
    pub source: Option<String>,
    pub now: Moment,
    pub parts: Parts,
}

fn context() -> Result<(AppState, Parts), AppError> {
    let missing = || {
        tracing::error!("server function ran without the app state or request in context");
        AppError::Internal
    };
    let state = use_context::<AppState>().ok_or_else(missing)?;
    let parts = use_context::<Parts>().ok_or_else(missing)?;
    Ok((state, parts))
}

impl Authorized {
    /// A read of one record, audited when refused: a record the caller may not
    /// see answers "not found", as one that does not exist does, and both are
    /// refused requests (issue #16: an officer's reads of another officer's
    /// report, citation or PDF went unrecorded).
    pub async fn read<T>(
        &self,
        entity_type: &'static str,
        id: &str,
        result: Result<T, AppError>,
    ) -> Result<T, AppError> {
        if let Err(AppError::NotFound) = &result {
            audit::refused_read(
                &self.state.store,
                self.now,
                &self.actor,
                self.source.as_deref(),
                self.parts.uri.path(),
                (entity_type, id),
            )
            .await?;
        }
        result
    }
}

/// The request as anyone may make it.
pub fn public() -> Result<Public, AppError> {
    let (state, parts) = context()?;
    Ok(Public {
        now: state.clock.now(),
        actor: parts.extensions.get::<Actor>().cloned(),
        source: client_address(&parts.extensions),
        state,
        parts,
    })
}

/// Checks `permission` against the session's user; a refusal is audited and
/// answered 401 (not signed in) or 403.
pub async fn authorize(permission: Permission) -> Result<Authorized, AppError> {
    let Public {
        state,
        actor,
        source,
        now,
        parts,
    } = public()?;
    let decision = permission.allows(actor.as_ref().map(|a| a.roles.as_slice()));
    let refusal = match (decision, &actor) {
        (Decision::Allow, Some(a))
            if a.must_change_password && permission != Permission::OwnAccount =>
        {
            Some(AppError::PasswordChangeRequired)
        }
        // CJIS IA-2: without the second factor the policy requires, only enrolment.
        (Decision::Allow, Some(a))
            if a.needs_second_factor && permission != Permission::OwnAccount =>
        {
            Some(AppError::SecondFactorRequired)
        }
        (Decision::Allow, Some(_)) => None,
        // `Anyone` permissions are for `public()`; reaching here without a user
        // means a function used the wrong helper.
        (Decision::Allow, None) | (Decision::SignInFirst, _) => Some(AppError::Unauthenticated),
        (Decision::Deny, _) => Some(AppError::Forbidden),
    };
    match (refusal, actor) {
        (None, Some(actor)) => Ok(Authorized {
            state,
            actor,
            source,
            now,
            parts,
        }),
        (refusal, actor) => {
            let error = refusal.unwrap_or(AppError::Unauthenticated);
            let event = audit::Event::new("access.denied", AuditOutcome::Denied)
                .by(actor.as_ref(), source.as_deref())
                .on("permission", permission.code())
                .after(serde_json::json!({ "path": parts.uri.path(), "status": error.status().as_u16() }));
            audit::record(&state.store, now, &event).await?;
            Err(error)
        }
    }
}
