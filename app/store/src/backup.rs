//! Backups (issue #8): a consistent online snapshot while the server writes, and
//! a checked restore while it is stopped.
//!
//! `VACUUM INTO` copies the database as of one read transaction: under WAL the
//! server keeps writing, and the copy holds every transaction committed before it
//! began and none after — never half of one. A copy is only called good once it
//! passes `integrity_check`, carries no migration this build does not know, and its
//! audit chain verifies.

use crate::db::Pool;
use std::path::{Path, PathBuf};

use sqlx::any::AnyPoolOptions;

use sqlx::migrate::Migrator;

use crate::db::Conn;
use crate::{audit, sqlite_url, Store, MIGRATOR, POSTGRES_MIGRATOR};

/// What a checked copy holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    pub bytes: u64,
    pub incidents: i64,
    pub citations: i64,
    pub audit_entries: i64,
}

/// Why a copy was refused, in words for the administrator.
pub type Refusal = String;

/// Writes a snapshot of the live database to `target`, which must not exist yet,
/// then checks the copy.
pub async fn backup(store: &Store, target: &Path) -> Result<Checked, Refusal> {
    new_target(target)?;
    let name = target
        .to_str()
        .ok_or_else(|| "the backup path must be valid UTF-8".to_owned())?;
    // A read connection would do, but `query_only` forbids VACUUM INTO's write of
    // the new file; the session pool is a plain connection outside the writer.
    let crate::SessionPool::Sqlite(sessions) = &store.sessions else {
        return Err("a PostgreSQL database is backed up with pg_dump (README)".to_owned());
    };
    sqlx::query("VACUUM INTO ?")
        .bind(name)
        .execute(sessions)
        .await
        .map_err(|e| format!("snapshot failed: {e}"))?;
    check(target).await
}

/// Writes a snapshot of the SQLite file at `database`, which nothing serves yet
/// (an upgrade's copy before it migrates), to `target`, which must not exist
/// yet, then checks the copy.
pub async fn backup_file(database: &Path, target: &Path) -> Result<Checked, Refusal> {
    use sqlx::ConnectOptions;
    new_target(target)?;
    let name = target
        .to_str()
        .ok_or_else(|| "the backup path must be valid UTF-8".to_owned())?;
    let mut conn = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(database)
        .connect()
        .await
        .map_err(|e| format!("cannot open database {}: {e}", database.display()))?;
    sqlx::query("VACUUM INTO ?")
        .bind(name)
        .execute(&mut conn)
        .await
        .map_err(|e| format!("snapshot failed: {e}"))?;
    drop(conn);
    check(target).await
}

/// Opens a copy read-only and checks it: integrity, known migrations, audit chain.
pub async fn check(path: &Path) -> Result<Checked, Refusal> {
    let pool = open_read_only(path).await?;
    let result = check_pool(&pool, path).await;
    pool.close().await;
    result
}

async fn open_read_only(path: &Path) -> Result<Pool, Refusal> {
    if !path.is_file() {
        return Err(format!("{} is not a file", path.display()));
    }
    sqlx::any::install_default_drivers();
    AnyPoolOptions::new()
        .max_connections(1)
        .connect(&sqlite_url(path, "mode=ro&immutable=1"))
        .await
        .map_err(|e| format!("{} is not a SQLite database: {e}", path.display()))
}

async fn check_pool(pool: &Pool, path: &Path) -> Result<Checked, Refusal> {
    let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(pool)
        .await
        .map_err(|e| format!("{} cannot be read: {e}", path.display()))?;
    if integrity != "ok" {
        return Err(format!("{} is damaged: {integrity}", path.display()));
    }
    let mut conn = pool
        .acquire()
        .await
        .map_err(|e| format!("{} cannot be read: {e}", path.display()))?;
    let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    contents(&mut conn, &MIGRATOR, &path.display().to_string(), bytes).await
}

/// What a copy must show on either engine: no migration this build does not
/// know, and an audit chain that verifies; and what it holds.
async fn contents(
    conn: &mut Conn,
    migrator: &Migrator,
    name: &str,
    bytes: u64,
) -> Result<Checked, Refusal> {
    let applied: Vec<i64> =
        sqlx::query_scalar("SELECT version FROM _sqlx_migrations ORDER BY version")
            .fetch_all(&mut *conn)
            .await
            .map_err(|_| format!("{name} is not a Wells database (no migrations table)"))?;
    let known: Vec<i64> = migrator.iter().map(|m| m.version).collect();
    if let Some(unknown) = applied.iter().find(|v| !known.contains(v)) {
        return Err(format!(
            "{name} comes from a newer version (migration {unknown}); restore it with that version"
        ));
    }
    match audit::verify(&mut *conn).await {
        Ok(Ok(_)) => {}
        Ok(Err(broken)) => return Err(format!("{name}: audit log BROKEN at {broken}")),
        Err(e) => return Err(format!("{name}: cannot read the audit log: {e}")),
    }
    let mut count = async |table: &'static str| {
        sqlx::query_scalar::<_, i64>(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(&mut *conn)
            .await
            .map_err(|e| format!("cannot count {table}: {e}"))
    };
    Ok(Checked {
        bytes,
        incidents: count("incident").await?,
        citations: count("citation").await?,
        audit_entries: count("audit_entry").await?,
    })
}

/// A PostgreSQL database's backup (issue #21): `pg_dump`'s custom format of one
/// snapshot, the very snapshot the checks read (exported by a repeatable-read
/// transaction held open while `pg_dump` runs), so the file holds exactly
/// what was checked. `url` is the database's address.
pub async fn backup_postgres(store: &Store, url: &str, target: &Path) -> Result<Checked, Refusal> {
    new_target(target)?;
    let mut tx = store
        .reader
        .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        .await
        .map_err(|e| format!("cannot read the database: {e}"))?;
    let snapshot: String = sqlx::query_scalar("SELECT pg_export_snapshot()")
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| format!("cannot take a snapshot: {e}"))?;
    let checked = contents(&mut tx, &POSTGRES_MIGRATOR, "the database", 0).await?;
    let target_arg = format!("--file={}", target.display());
    pg_tool(
        "pg_dump",
        url,
        &[
            "--format=custom",
            &format!("--snapshot={snapshot}"),
            &target_arg,
        ],
    )
    .await?;
    let _ = tx.commit().await;
    Ok(Checked {
        bytes: std::fs::metadata(target).map(|m| m.len()).unwrap_or(0),
        ..checked
    })
}

/// Restores a `backup_postgres` file into the database at `url`, which must be
/// new and empty (create it first): in one transaction, then checked as a
/// backup is. A refused copy is named as such; the database it went into is
/// then to be dropped, never served.
pub async fn restore_postgres(source: &Path, url: &str) -> Result<Checked, Refusal> {
    if !source.is_file() {
        return Err(format!("{} is not a file", source.display()));
    }
    sqlx::any::install_default_drivers();
    let pool = AnyPoolOptions::new()
        .max_connections(1)
        .connect(url)
        .await
        .map_err(|e| format!("cannot connect to the database: {e}"))?;
    let tables: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'",
    )
    .fetch_one(&pool)
    .await
    .map_err(|e| format!("cannot read the database: {e}"))?;
    if tables > 0 {
        pool.close().await;
        return Err(
            "the database is not empty: restore into a new one (createdb), never over records"
                .to_owned(),
        );
    }
    let source_arg = source.display().to_string();
    pg_tool(
        "pg_restore",
        url,
        &[
            "--exit-on-error",
            "--single-transaction",
            "--no-owner",
            &source_arg,
        ],
    )
    .await?;
    let mut conn = pool
        .acquire()
        .await
        .map_err(|e| format!("cannot read the database: {e}"))?;
    let bytes = std::fs::metadata(source).map(|m| m.len()).unwrap_or(0);
    let checked = contents(&mut conn, &POSTGRES_MIGRATOR, &source_arg, bytes)
        .await
        .map_err(|refused| {
            format!("{refused}; the restored copy is refused: drop that database, do not serve it")
        });
    drop(conn);
    pool.close().await;
    checked
}

/// Refuses a target that exists; creates its folder.
fn new_target(target: &Path) -> Result<(), Refusal> {
    if target.exists() {
        return Err(format!(
            "{} exists already: choose a new file",
            target.display()
        ));
    }
    if let Some(parent) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    Ok(())
}

/// Runs PostgreSQL's `tool` (`pg_dump`, `pg_restore`) on the database at `url`.
/// The password goes in `PGPASSWORD`, never on the command line other users
/// can read.
async fn pg_tool(tool: &str, url: &str, args: &[&str]) -> Result<(), Refusal> {
    let mut address =
        url::Url::parse(url).map_err(|e| format!("the database address does not read: {e}"))?;
    let password = address.password().map(str::to_owned);
    let _ = address.set_password(None);
    let mut command = tokio::process::Command::new(tool);
    command.arg(format!("--dbname={address}")).args(args);
    if let Some(password) = password {
        command.env("PGPASSWORD", password);
    }
    let output = command
        .output()
        .await
        .map_err(|e| format!("cannot run {tool} (PostgreSQL's client tools): {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{tool} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(())
}

/// The lock file beside a database: the server holds it while it serves, and
/// restore needs it free (the server stopped).
pub fn lock_path(database: &Path) -> PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Takes the database's lock for as long as the returned file lives.
pub fn lock(database: &Path) -> Result<std::fs::File, Refusal> {
    if let Some(parent) = database.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock_path(database))
        .map_err(|e| format!("cannot open the lock file: {e}"))?;
    file.try_lock().map_err(|_| {
        format!(
            "a server is running on {} (it holds {}): stop it first",
            database.display(),
            lock_path(database).display()
        )
    })?;
    Ok(file)
}

/// Puts a checked copy in place of `database`. The server must be stopped (its
/// lock free). The copy is written beside the database and renamed over it, so a
/// crash mid-restore leaves either the old database or the new one.
pub async fn restore(source: &Path, database: &Path) -> Result<Checked, Refusal> {
    let _lock = lock(database)?;
    let checked = check(source).await?;
    let staging = {
        let mut name = database.as_os_str().to_owned();
        name.push(".restoring");
        PathBuf::from(name)
    };
    std::fs::copy(source, &staging).map_err(|e| format!("cannot copy the backup: {e}"))?;
    std::fs::File::open(&staging)
        .and_then(|f| f.sync_all())
        .map_err(|e| format!("cannot flush the copy: {e}"))?;
    // The old database's WAL belongs to the old file: left beside the new one it
    // would be replayed into it.
    for suffix in ["-wal", "-shm"] {
        let mut name = database.as_os_str().to_owned();
        name.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(name));
    }
    std::fs::rename(&staging, database)
        .map_err(|e| format!("cannot put the copy in place: {e}"))?;
    if let Some(dir) = database.parent().filter(|p| !p.as_os_str().is_empty()) {
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(checked)
}
