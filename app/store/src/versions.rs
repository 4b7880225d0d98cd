//! Which release of the server wrote the database (issue #38). A release
//! records itself, with the newest migration it knows, each time it opens the
//! database; a release that finds migrations it does not know refuses to start,
//! naming the release that applied them and itself, instead of guessing at a
//! schema it has never seen. Before an upgrade migrates a database that already
//! holds records, the server takes a backup (`server::upgrade`).

use sqlx::migrate::Migrator;

use crate::db::Pool;

/// This build's release (the workspace's version).
pub const RELEASE: &str = env!("CARGO_PKG_VERSION");

/// What the database holds against what this build knows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Schema {
    /// Migrations applied to the database.
    pub applied: Vec<i64>,
    /// Migrations this build knows and the database lacks.
    pub pending: Vec<i64>,
}

impl Schema {
    /// An existing database this build would migrate: an upgrade.
    pub fn is_upgrade(&self) -> bool {
        !self.applied.is_empty() && !self.pending.is_empty()
    }
}

/// The newest migration this build knows.
pub fn newest_known(migrator: &Migrator) -> i64 {
    migrator.iter().map(|m| m.version).max().unwrap_or(0)
}

/// Reads the migrations applied to the database behind `pool`; refuses one
/// that carries a migration `migrator` does not know, naming both releases.
pub async fn inspect(pool: &Pool, migrator: &Migrator, name: &str) -> Result<Schema, String> {
    let applied: Vec<i64> =
        match sqlx::query_scalar("SELECT version FROM _sqlx_migrations ORDER BY version")
            .fetch_all(pool)
            .await
        {
            Ok(applied) => applied,
            // A new, empty database has no migrations table yet.
            Err(_) => {
                return Ok(Schema {
                    applied: Vec::new(),
                    pending: migrator.iter().map(|m| m.version).collect(),
                })
            }
        };
    let known: Vec<i64> = migrator.iter().map(|m| m.version).collect();
    if let Some(unknown) = applied.iter().copied().filter(|v| !known.contains(v)).max() {
        let writer: Option<String> = sqlx::query_scalar(
            "SELECT version FROM server_release ORDER BY migration DESC, first_at DESC LIMIT 1",
        )
        .fetch_optional(pool)
        .await
        .ok()
        .flatten();
        let writer = writer
            .filter(|v| v != RELEASE)
            .map_or_else(|| "a newer release".to_owned(), |v| format!("Wells {v}"));
        return Err(format!(
            "the database {name} was written by {writer} (its migration {unknown}); this is \
             Wells {RELEASE}, which knows migrations up to {}. Run {writer} or newer, or restore \
             a backup this release made (server restore)",
            newest_known(migrator)
        ));
    }
    let pending = known.into_iter().filter(|v| !applied.contains(v)).collect();
    Ok(Schema { applied, pending })
}

/// Records this release as one that opened the database (after migrating).
pub async fn record(pool: &Pool, migrator: &Migrator, now_ms: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO server_release (version, migration, first_at) VALUES ($1, $2, $3) \
         ON CONFLICT (version) DO NOTHING",
    )
    .bind(RELEASE)
    .bind(newest_known(migrator))
    .bind(now_ms)
    .execute(pool)
    .await
    .map(|_| ())
}

/// Whether every migration this build knows is applied and none other (for
/// `/readyz`: another app server of a newer release may have migrated a shared
/// PostgreSQL database under this one).
pub async fn current(pool: &Pool, migrator: &Migrator) -> Result<bool, String> {
    let schema = inspect(pool, migrator, "in use").await?;
    Ok(schema.pending.is_empty())
}
