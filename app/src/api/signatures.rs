//! The officer's signature for summonses (issue #20): read and replace one's own.

use leptos::prelude::*;
use leptos::server_fn::codec::Json;

use crate::error::AppError;
use crate::model::signature::Signature;

/// The signed-in officer's signature now in force, if any.
#[server(endpoint = "account/signature", input = Json)]
pub async fn my_signature() -> Result<Option<Signature>, AppError> {
    use crate::access::Permission;

    let request = crate::auth::guard::authorize(Permission::RecordIncidents).await?;
    crate::store::signatures::in_force(
        &request.state.store.reader,
        &request.actor.user_id.to_string(),
        request.now,
    )
    .await
}

/// Captures the officer's signature: every summons issued from now on prints it;
/// those issued before keep the one they were issued with. Audited.
#[server(endpoint = "account/signature/save", input = Json)]
pub async fn save_signature(signature: Signature) -> Result<(), AppError> {
    use crate::access::Permission;

    let request = crate::auth::guard::authorize(Permission::RecordIncidents).await?;
    if let Some(problem) = signature.problem() {
        return Err(AppError::invalid("signature", problem));
    }
    crate::store::signatures::save(
        &request.state.store,
        crate::api::admin::by(&request),
        &request.actor.user_id.to_string(),
        &signature,
    )
    .await
}
