//! The administrator's desk: accounts and the audit log.

use leptos::prelude::*;
use leptos::server_fn::codec::Json;
use uuid::Uuid;

use crate::error::AppError;
use crate::model::account::{NewUser, Role, SignInPolicy, UserSummary};
use crate::model::audit::{AuditPage, AuditQuery};
use crate::model::settings::CourtSettings;

#[server(endpoint = "admin/users/list", input = Json)]
pub async fn list_users() -> Result<Vec<UserSummary>, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::ManageUsers).await?;
    crate::store::accounts::list_users(&request.state.store.reader).await
}

#[server(endpoint = "admin/users/create", input = Json)]
pub async fn create_user(user: NewUser) -> Result<UserSummary, AppError> {
    use crate::store::accounts;
    let request = crate::auth::guard::authorize(crate::access::Permission::ManageUsers).await?;
    let user = NewUser {
        username: user.username.trim().to_lowercase(),
        ..user
    };
    crate::api::account::validate_new_user(&user)?;
    let plain = user.password.clone();
    let hash = tokio::task::spawn_blocking(move || crate::auth::password::hash(&plain))
        .await
        .map_err(|_| AppError::Internal)??;
    accounts::create_user(&request.state.store, by(&request), &user, &hash).await
}

#[server(endpoint = "admin/users/roles", input = Json)]
pub async fn set_roles(user_id: Uuid, roles: Vec<Role>) -> Result<UserSummary, AppError> {
    use crate::store::accounts::{self, AccountChange};
    let request = crate::auth::guard::authorize(crate::access::Permission::ManageUsers).await?;
    if roles.is_empty() {
        return Err(AppError::invalid(
            "roles",
            "Give the account at least one role.",
        ));
    }
    if user_id == request.actor.user_id && !roles.contains(&Role::Admin) {
        return Err(AppError::conflict(
            "You cannot remove your own administrator role; ask another administrator.",
        ));
    }
    accounts::change_account(
        &request.state.store,
        by(&request),
        user_id,
        AccountChange::Roles(roles),
    )
    .await
}

#[server(endpoint = "admin/users/active", input = Json)]
pub async fn set_active(user_id: Uuid, active: bool) -> Result<UserSummary, AppError> {
    use crate::store::accounts::{self, AccountChange};
    let request = crate::auth::guard::authorize(crate::access::Permission::ManageUsers).await?;
    if user_id == request.actor.user_id && !active {
        return Err(AppError::conflict("You cannot disable your own account."));
    }
    accounts::change_account(
        &request.state.store,
        by(&request),
        user_id,
        AccountChange::Active(active),
    )
    .await
}

#[server(endpoint = "admin/users/unlock", input = Json)]
pub async fn unlock_user(user_id: Uuid) -> Result<UserSummary, AppError> {
    use crate::store::accounts::{self, AccountChange};
    let request = crate::auth::guard::authorize(crate::access::Permission::ManageUsers).await?;
    accounts::change_account(
        &request.state.store,
        by(&request),
        user_id,
        AccountChange::Unlock,
    )
    .await
}

/// Sets a generated temporary password, shown once to the administrator; the
/// user must change it at next sign-in, and their sessions end now.
#[server(endpoint = "admin/users/reset-password", input = Json)]
pub async fn reset_password(user_id: Uuid) -> Result<String, AppError> {
    use crate::store::accounts::{self, AccountChange};
    let request = crate::auth::guard::authorize(crate::access::Permission::ManageUsers).await?;
    let temporary = crate::auth::setup::temporary_password();
    let plain = temporary.clone();
    let hash = tokio::task::spawn_blocking(move || crate::auth::password::hash(&plain))
        .await
        .map_err(|_| AppError::Internal)??;
    accounts::change_account(
        &request.state.store,
        by(&request),
        user_id,
        AccountChange::ResetPassword(hash),
    )
    .await?;
    Ok(temporary)
}

/// A lost or replaced phone: removes every passkey, authenticator and recovery
/// code of the account and ends its sessions; the user enrols again at their
/// next sign-in (audited as `second_factor.reset`).
#[server(endpoint = "admin/users/reset-second-factor", input = Json)]
pub async fn reset_second_factor(user_id: Uuid) -> Result<UserSummary, AppError> {
    use crate::store::accounts;
    let request = crate::auth::guard::authorize(crate::access::Permission::ManageUsers).await?;
    if user_id == request.actor.user_id {
        return Err(AppError::conflict(
            "Reset another administrator's second factor, not your own: ask another \
             administrator, or use `server user reset-2fa` on the server.",
        ));
    }
    crate::store::second_factor::reset(&request.state.store, by(&request), user_id).await?;
    accounts::summary(&request.state.store.reader, user_id).await
}

#[server(endpoint = "admin/settings/sign-in", input = Json)]
pub async fn get_sign_in_policy() -> Result<SignInPolicy, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::ManageSettings).await?;
    crate::store::second_factor::policy(&request.state.store.reader).await
}

/// The sign-in policy: a second factor for everyone, and roles that must use a
/// passkey. The change applies at each user's next request.
#[server(endpoint = "admin/settings/sign-in/save", input = Json)]
pub async fn save_sign_in_policy(policy: SignInPolicy) -> Result<SignInPolicy, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::ManageSettings).await?;
    if !policy.passkey_roles.is_empty() {
        if let Err(reason) = &request.state.second_factor.webauthn {
            return Err(AppError::invalid("passkey_roles", reason.clone()));
        }
    }
    crate::store::second_factor::save_policy(&request.state.store, by(&request), &policy).await
}

#[server(endpoint = "admin/audit", input = Json)]
pub async fn audit_log(query: AuditQuery) -> Result<AuditPage, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::ReadAudit).await?;
    AppError::unless_any(query.problems())?;
    let query = query.in_town_days(&request.state.settings.town_zone);
    let mut page = crate::store::audit::list(&request.state.store.reader, &query).await?;
    crate::store::audit::readable(
        &request.state.store.reader,
        &mut page,
        &request.state.settings.town_zone,
    )
    .await?;
    Ok(page)
}

#[server(endpoint = "admin/settings/court", input = Json)]
pub async fn get_court_settings() -> Result<CourtSettings, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::ManageSettings).await?;
    crate::store::settings::court(&request.state.store.reader).await
}

#[server(endpoint = "admin/settings/court/save", input = Json)]
pub async fn save_court_settings(settings: CourtSettings) -> Result<CourtSettings, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::ManageSettings).await?;
    AppError::unless_any(settings.problems())?;
    crate::store::settings::save_court(&request.state.store, by(&request), &settings).await
}

/// §52-10(9)'s decibel level at a gathering's perimeter, once the Town has
/// confirmed which chapter "Chapter lot" means; `null` withdraws it (unconfirmed).
#[server(endpoint = "admin/settings/sound-limit/save", input = Json)]
pub async fn save_sound_limit(limit_dba: Option<u32>) -> Result<Option<u32>, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::ManageSettings).await?;
    let range = crate::ordinance::article_ii::requirements::SOUND_LIMIT_RANGE;
    if limit_dba.is_some_and(|db| !range.contains(&db)) {
        return Err(AppError::invalid(
            "limit_dba",
            format!(
                "Noise limit: {} to {} dBA, or empty while the Town has not confirmed it (§52-10(9)).",
                range.start(),
                range.end()
            ),
        ));
    }
    crate::store::settings::save_sound_limit(&request.state.store, by(&request), limit_dba).await
}

#[cfg(feature = "ssr")]
pub(crate) fn by(request: &crate::auth::guard::Authorized) -> crate::auth::By<'_> {
    crate::auth::By {
        actor: Some(&request.actor),
        source: request.source.as_deref(),
        now: request.now,
    }
}
