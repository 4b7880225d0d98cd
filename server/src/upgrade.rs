//! Upgrades (issue #38): before a new release migrates a SQLite database that
//! already holds records, the server copies it into the backup folder, checked,
//! as `wells-before-<release>-<UTC time>.db`; a database a newer release wrote
//! is refused before anything is touched (`app::store::versions`). A
//! PostgreSQL deployment backs up with `server backup` before it upgrades
//! (README, "Deploy").

use std::path::{Path, PathBuf};

use app::store::versions::{self, RELEASE};

/// Takes the pre-upgrade backup when this release would migrate `database`;
/// returns its path, or `None` when there is nothing to migrate.
pub async fn backup_before_migrating(
    database: &Path,
    backup_dir: &Path,
) -> Result<Option<PathBuf>, String> {
    if !database.is_file() {
        return Ok(None);
    }
    sqlx::any::install_default_drivers();
    let url = app::store::sqlite_url(database, "mode=ro");
    let pool = sqlx::any::AnyPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .map_err(|e| format!("cannot open database {}: {e}", database.display()))?;
    let schema = versions::inspect(
        &pool,
        &app::store::MIGRATOR,
        &database.display().to_string(),
    )
    .await;
    pool.close().await;
    if !schema?.is_upgrade() {
        return Ok(None);
    }
    std::fs::create_dir_all(backup_dir)
        .map_err(|e| format!("--backup-dir {}: cannot create: {e}", backup_dir.display()))?;
    let target = backup_dir.join(format!("wells-before-{RELEASE}-{}.db", crate::cli::stamp()));
    app::store::backup::backup_file(database, &target)
        .await
        .map_err(|e| {
            format!(
                "the backup before the upgrade failed ({}): {e}",
                target.display()
            )
        })?;
    Ok(Some(target))
}
