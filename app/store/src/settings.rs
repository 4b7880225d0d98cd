//! Settings kept in the `setting` table, with their defaults in code.

use crate::audit::{self, Event};
use crate::db::{Conn, Pool};
use crate::Store;
use domain::actor::By;
use domain::error::AppError;
use domain::model::audit::AuditOutcome;
use domain::model::settings::CourtSettings;

const COURT_NAME: &str = "court.name";
const COURT_ADDRESS: &str = "court.address";
const ANSWER_DAYS: &str = "court.answer_days";
/// The court's closed days, a JSON list of dates (absent: Maine's holidays).
const CLOSED_DAYS: &str = "court.closed_days";
/// §52-10(9)'s decibel level at a gathering's perimeter, in dBA, once the Town
/// confirms it (the text cites "Chapter lot"); absent: unconfirmed.
const SOUND_LIMIT: &str = "article_ii.sound_limit_dba";

/// The Town's §52-10(9) level, or `None` while unconfirmed.
pub async fn sound_limit(pool: &Pool) -> Result<Option<u32>, AppError> {
    let value: Option<String> = sqlx::query_scalar("SELECT value FROM setting WHERE key = $1")
        .bind(SOUND_LIMIT)
        .fetch_optional(pool)
        .await?;
    Ok(value.and_then(|v| v.parse().ok()))
}

/// Sets (or, with `None`, withdraws) the §52-10(9) level; audited.
pub async fn save_sound_limit(
    store: &Store,
    by: By<'_>,
    limit_dba: Option<u32>,
) -> Result<Option<u32>, AppError> {
    let before = sound_limit(&store.reader).await?;
    let mut tx = store.begin_write().await?;
    match limit_dba {
        Some(db) => put(&mut tx, SOUND_LIMIT, &db.to_string(), by.now).await?,
        None => {
            sqlx::query("DELETE FROM setting WHERE key = $1")
                .bind(SOUND_LIMIT)
                .execute(&mut *tx)
                .await?;
        }
    }
    let event = Event::new("settings.sound_limit", AuditOutcome::Success)
        .by(by.actor, by.source)
        .on("setting", "sound_limit")
        .before(serde_json::json!({ "limit_dba": before }))
        .after(serde_json::json!({ "limit_dba": limit_dba }));
    audit::append(&mut tx, by.now, &event).await?;
    tx.commit().await?;
    Ok(limit_dba)
}

/// The court's settings in one query (each statement is a round trip to
/// SQLite's worker thread, and this runs inside every citation's write).
async fn court_values(
    conn: &mut Conn,
) -> Result<std::collections::HashMap<String, String>, sqlx::Error> {
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT key, value FROM setting WHERE key IN ($1, $2, $3, $4)")
            .bind(COURT_NAME)
            .bind(COURT_ADDRESS)
            .bind(ANSWER_DAYS)
            .bind(CLOSED_DAYS)
            .fetch_all(conn)
            .await?;
    Ok(rows.into_iter().collect())
}

pub async fn court(pool: &Pool) -> Result<CourtSettings, AppError> {
    Ok(court_in(&mut *pool.acquire().await?).await?)
}

/// The court settings as `conn` sees them: inside a write transaction, the
/// values a citation stored in that transaction prints.
pub(crate) async fn court_in(conn: &mut Conn) -> Result<CourtSettings, sqlx::Error> {
    let defaults = CourtSettings::default();
    let mut values = court_values(conn).await?;
    Ok(CourtSettings {
        court_name: values.remove(COURT_NAME).unwrap_or(defaults.court_name),
        court_address: values
            .remove(COURT_ADDRESS)
            .unwrap_or(defaults.court_address),
        answer_days: values
            .remove(ANSWER_DAYS)
            .and_then(|v| v.parse().ok())
            .unwrap_or(defaults.answer_days),
        closed_days: values
            .remove(CLOSED_DAYS)
            .and_then(|v| serde_json::from_str(&v).ok()),
    })
}

pub async fn save_court(
    store: &Store,
    by: By<'_>,
    new: &CourtSettings,
) -> Result<CourtSettings, AppError> {
    let before = court(&store.reader).await?;
    let mut tx = store.begin_write().await?;
    let mut closed: Option<Vec<String>> = new
        .closed_days
        .as_ref()
        .map(|d| d.iter().map(|x| x.trim().to_owned()).collect());
    if let Some(days) = closed.as_mut() {
        days.sort();
        days.dedup();
    }
    let closed = match closed {
        Some(days) => serde_json::to_string(&days).map_err(|_| AppError::Internal)?,
        None => String::new(),
    };
    for (key, value) in [
        (COURT_NAME, new.court_name.trim().to_owned()),
        (COURT_ADDRESS, new.court_address.trim().to_owned()),
        (ANSWER_DAYS, new.answer_days.to_string()),
        (CLOSED_DAYS, closed),
    ] {
        if value.is_empty() {
            continue;
        }
        put(&mut tx, key, &value, by.now).await?;
    }
    let event = Event::new("settings.court", AuditOutcome::Success)
        .by(by.actor, by.source)
        .on("setting", "court")
        .before(&before)
        .after(new);
    audit::append(&mut tx, by.now, &event).await?;
    tx.commit().await?;
    court(&store.reader).await
}

/// Writes one setting (inside the caller's transaction, with its audit entry).
pub(crate) async fn put(
    conn: &mut Conn,
    key: &str,
    value: &str,
    now: domain::ordinance::Moment,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO setting (key, value, updated_at) VALUES ($1, $2, $3) \
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
    )
    .bind(key)
    .bind(value)
    .bind(now.0)
    .execute(conn)
    .await?;
    Ok(())
}
