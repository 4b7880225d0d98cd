//! The officers' signatures (issue #20): append-only, the one in force at a
//! moment is the latest captured by then.

use crate::audit::{self, Event};
use crate::db::Db;
use crate::Store;
use domain::actor::By;
use domain::error::AppError;
use domain::model::audit::AuditOutcome;
use domain::model::signature::Signature;
use domain::ordinance::Moment;

/// Records the signed-in officer's new signature; audited with its SHA-256.
pub async fn save(
    store: &Store,
    by: By<'_>,
    user_id: &str,
    signature: &Signature,
) -> Result<(), AppError> {
    let strokes = serde_json::to_string(signature).map_err(|_| AppError::Internal)?;
    let digest = signature.digest();
    let mut tx = store.begin_write().await?;
    sqlx::query(
        "INSERT INTO officer_signature (user_id, strokes, sha256, captured_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(user_id)
    .bind(&strokes)
    .bind(&digest)
    .bind(by.now.0)
    .execute(&mut *tx)
    .await?;
    let event = Event::new("signature.officer", AuditOutcome::Success)
        .by(by.actor, by.source)
        .on("user", user_id)
        .after(serde_json::json!({ "sha256": digest, "strokes": signature.strokes.len() }));
    audit::append(&mut tx, by.now, &event).await?;
    tx.commit().await?;
    Ok(())
}

/// SQL for the id of the signature in force for the officer `user` at `at`
/// (parameters of the statement it goes in: issuing a citation, reserving a block).
pub(crate) fn in_force_id(user: &str, at: &str) -> String {
    format!(
        "SELECT signature_id FROM officer_signature WHERE user_id = {user} AND captured_at <= {at} \
         ORDER BY captured_at DESC, signature_id DESC LIMIT 1"
    )
}

/// The officer's signature in force at `at`: the last captured by then.
pub async fn in_force<'e>(
    db: impl sqlx::Executor<'e, Database = Db>,
    user_id: &str,
    at: Moment,
) -> Result<Option<Signature>, AppError> {
    let strokes: Option<String> = sqlx::query_scalar(
        "SELECT strokes FROM officer_signature WHERE user_id = $1 AND captured_at <= $2 \
         ORDER BY captured_at DESC, signature_id DESC LIMIT 1",
    )
    .bind(user_id)
    .bind(at.0)
    .fetch_optional(db)
    .await?;
    strokes
        .map(|s| serde_json::from_str(&s).map_err(|_| AppError::Internal))
        .transpose()
}
