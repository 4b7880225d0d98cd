//! Incident photos (issue #20): stored once per id, at most ten per incident,
//! each upload audited with the SHA-256 of what was kept.

use crate::db::{Db, Pool};

use crate::audit::{self, Event};
use crate::Store;
use domain::actor::{Actor, By};
use domain::error::AppError;
use domain::model::audit::AuditOutcome;
use domain::model::photo::{CleanJpeg, PhotoRef, MAX_PHOTOS};

type PhotoRow = (String, i64, i64, i64, String);

fn photo_ref((id, width, height, bytes, sha256): PhotoRow) -> Result<PhotoRef, AppError> {
    Ok(PhotoRef {
        photo_id: id.parse().map_err(|_| AppError::Internal)?,
        width: u16::try_from(width).map_err(|_| AppError::Internal)?,
        height: u16::try_from(height).map_err(|_| AppError::Internal)?,
        bytes: u32::try_from(bytes).map_err(|_| AppError::Internal)?,
        sha256,
    })
}

/// Stores a photo of the officer's own incident. The same id again is the same
/// photo (a retried upload): answered with what was stored, nothing added.
pub async fn add(
    store: &Store,
    by: By<'_>,
    officer: &Actor,
    incident_id: uuid::Uuid,
    photo_id: uuid::Uuid,
    jpeg: CleanJpeg,
) -> Result<PhotoRef, AppError> {
    use sha2::{Digest, Sha256};

    let sha256 = hex::encode(Sha256::digest(&jpeg.bytes));
    let mut tx = store.begin_write().await?;
    let owner: Option<String> =
        sqlx::query_scalar("SELECT officer_id FROM incident WHERE incident_id = $1")
            .bind(incident_id.to_string())
            .fetch_optional(&mut *tx)
            .await?;
    if owner != Some(officer.user_id.to_string()) {
        return Err(AppError::NotFound);
    }
    let stored: Option<PhotoRow> = sqlx::query_as(
        "SELECT photo_id, width, height, length(jpeg), sha256 FROM incident_photo \
         WHERE photo_id = $1 AND incident_id = $2",
    )
    .bind(photo_id.to_string())
    .bind(incident_id.to_string())
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(row) = stored {
        return photo_ref(row);
    }
    let count: i64 =
        sqlx::query_scalar("SELECT count(*) FROM incident_photo WHERE incident_id = $1")
            .bind(incident_id.to_string())
            .fetch_one(&mut *tx)
            .await?;
    if count >= MAX_PHOTOS as i64 {
        return Err(AppError::invalid(
            "photo",
            format!("At most {MAX_PHOTOS} photos per incident; this one already has them."),
        ));
    }
    let inserted = sqlx::query(
        "INSERT INTO incident_photo (photo_id, incident_id, jpeg, sha256, width, height, added_by, added_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(photo_id.to_string())
    .bind(incident_id.to_string())
    .bind(&jpeg.bytes)
    .bind(&sha256)
    .bind(i64::from(jpeg.width))
    .bind(i64::from(jpeg.height))
    .bind(officer.user_id.to_string())
    .bind(by.now.0)
    .execute(&mut *tx)
    .await;
    match inserted {
        Ok(_) => {}
        // The id belongs to another incident's photo.
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            return Err(AppError::Conflict {
                message: "This photo id is already used.".into(),
            })
        }
        Err(other) => return Err(other.into()),
    }
    let photo = PhotoRef {
        photo_id,
        width: jpeg.width,
        height: jpeg.height,
        bytes: u32::try_from(jpeg.bytes.len()).map_err(|_| AppError::Internal)?,
        sha256,
    };
    let event = Event::new("incident.photo", AuditOutcome::Success)
        .by(by.actor, by.source)
        .on("incident", incident_id)
        .after(serde_json::json!(photo));
    audit::append(&mut tx, by.now, &event).await?;
    tx.commit().await?;
    Ok(photo)
}

/// An incident's photos, in the order they were added.
pub async fn list<'e>(
    db: impl sqlx::Executor<'e, Database = Db>,
    incident_id: &str,
) -> Result<Vec<PhotoRef>, AppError> {
    let rows: Vec<PhotoRow> = sqlx::query_as(
        "SELECT photo_id, width, height, length(jpeg), sha256 FROM incident_photo \
         WHERE incident_id = $1 ORDER BY added_at, photo_id",
    )
    .bind(incident_id)
    .fetch_all(db)
    .await?;
    rows.into_iter().map(photo_ref).collect()
}

/// A photo's JPEG, for those who may read its report (`Actor::may_read_report`);
/// anyone else is told it does not exist.
pub async fn jpeg(
    pool: &Pool,
    viewer: &Actor,
    incident_id: &str,
    photo_id: &str,
) -> Result<Vec<u8>, AppError> {
    let found: Option<(Vec<u8>, String)> = sqlx::query_as(
        "SELECT p.jpeg, i.officer_id FROM incident_photo p JOIN incident i USING (incident_id) \
         WHERE p.incident_id = $1 AND p.photo_id = $2",
    )
    .bind(incident_id)
    .bind(photo_id)
    .fetch_optional(pool)
    .await?;
    match found {
        Some((jpeg, officer_id)) if viewer.may_read_report(&officer_id) => Ok(jpeg),
        _ => Err(AppError::NotFound),
    }
}
