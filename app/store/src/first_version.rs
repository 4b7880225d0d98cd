//! Moving stored reports to the current shape (issue #14), once, at start-up.
//!
//! Migration 0013 reshapes the tables; this moves each incident's current report
//! (`incident.report_json`) from the first version's shape to the current one
//! with `model::first_version::to_current`. Nothing decided changes: the persons'
//! outcomes, the citations, their numbers and statuses, the audit log and every
//! revision (`incident_revision`, append-only) stay exactly as stored, and a
//! report still in its first revision's shape prints from that revision, word for
//! word (`documents::record`). An audit entry names the reports each step moved.

use crate::db::Pool;

use crate::audit::{self, Event};
use domain::error::AppError;
use domain::model::audit::AuditOutcome;
use domain::model::first_version::{to_current, FirstReport};
use domain::ordinance::Moment;

/// Reports moved per transaction: a large database moves in short steps, and a
/// stop half-way leaves only whole steps done (the rest move at the next start).
const STEP: i64 = 500;

/// Moves every report still in the first version's shape; returns how many.
pub async fn migrate(writer: &Pool, now: Moment) -> Result<u64, AppError> {
    let mut moved = 0u64;
    loop {
        let mut tx = writer.begin_with("BEGIN IMMEDIATE").await?;
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT incident_id, report_json FROM incident \
             WHERE json_type(report_json, '$.protected_activity') IS NOT NULL LIMIT $1",
        )
        .bind(STEP)
        .fetch_all(&mut *tx)
        .await?;
        if rows.is_empty() {
            break;
        }
        for (id, json) in &rows {
            let first: FirstReport = serde_json::from_str(json).map_err(|e| {
                tracing::error!(error = %e, incident = id, "a first-version report does not parse");
                AppError::Internal
            })?;
            let current =
                serde_json::to_string(&to_current(&first)).map_err(|_| AppError::Internal)?;
            sqlx::query("UPDATE incident SET report_json = $1 WHERE incident_id = $2")
                .bind(current)
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        // The step and its audit entry commit together.
        let event = Event::new("incident.reshape", AuditOutcome::Success)
            .on("incident", format!("{} reports", rows.len()))
            .after(serde_json::json!({
                "incidents": rows.iter().map(|(id, _)| id).collect::<Vec<_>>(),
                "to": "each person's own facts (issue #14)",
                "kept": "every revision as stored; outcomes and citations unchanged",
            }));
        audit::append(&mut tx, now, &event).await?;
        tx.commit().await?;
        moved += rows.len() as u64;
    }
    if moved > 0 {
        tracing::info!(reports = moved, "reports moved to per-person facts");
    }
    Ok(moved)
}

/// Converts again, once, the reports moved before issue #33: `to_current` now
/// marks what the first version never recorded ("not recorded — converted") and
/// records no arrest the first version never asked about. Only a report whose
/// current revision is still the first version's is converted again; one
/// corrected or amended since keeps the report that correction stored (its
/// citations are on the chief's list of converted citations all the same,
/// migration 20261207000203). Nothing decided changes, as in [`migrate`]; an
/// audit entry names the reports each step marked. Returns how many.
pub async fn mark_converted(writer: &Pool, now: Moment) -> Result<u64, AppError> {
    let mut marked = 0u64;
    let mut after = String::new();
    loop {
        let mut tx = writer.begin_with("BEGIN IMMEDIATE").await?;
        let rows: Vec<(String, String, String)> = sqlx::query_as(
            "SELECT i.incident_id, r.report_json, i.report_json FROM incident i \
             JOIN incident_revision r ON r.incident_id = i.incident_id AND r.revision = i.revision \
             WHERE json_type(r.report_json, '$.protected_activity') IS NOT NULL \
             AND i.incident_id > $1 ORDER BY i.incident_id LIMIT $2",
        )
        .bind(&after)
        .bind(STEP)
        .fetch_all(&mut *tx)
        .await?;
        let Some((last, _, _)) = rows.last() else {
            break;
        };
        after = last.clone();
        let mut changed = Vec::new();
        for (id, first, current) in &rows {
            let first: FirstReport = serde_json::from_str(first).map_err(|e| {
                tracing::error!(error = %e, incident = id, "a first-version revision does not parse");
                AppError::Internal
            })?;
            let converted =
                serde_json::to_string(&to_current(&first)).map_err(|_| AppError::Internal)?;
            if &converted == current {
                continue;
            }
            sqlx::query("UPDATE incident SET report_json = $1 WHERE incident_id = $2")
                .bind(converted)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            changed.push(id);
        }
        if !changed.is_empty() {
            let event = Event::new("incident.mark_converted", AuditOutcome::Success)
                .on("incident", format!("{} reports", changed.len()))
                .after(serde_json::json!({
                    "incidents": changed,
                    "marked": "facts the first version did not record, per person (issue #33)",
                    "kept": "every revision as stored; outcomes and citations unchanged",
                }));
            audit::append(&mut tx, now, &event).await?;
            marked += changed.len() as u64;
        }
        tx.commit().await?;
    }
    if marked > 0 {
        tracing::info!(reports = marked, "converted reports marked");
    }
    Ok(marked)
}
