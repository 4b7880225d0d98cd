//! The store: the records kept, in one SQLite file or on a PostgreSQL server,
//! opened the way a legal record needs.
//!
//! A crate of its own (`app/store/`), above the domain and the printed
//! documents and below the app: it knows who acts (`domain::actor`) but not how
//! they signed in. Its modules import one another in one direction only
//! (`server/tests/layers.rs`).
//!
//! On SQLite, writes go through a pool of exactly one connection. SQLite allows one
//! writer at a time anyway; serialising our own writes in-process means a transaction
//! never meets `SQLITE_BUSY` from a sibling connection, and the audit chain and the
//! gapless citation counter (§52-4 citations, DESIGN §3) are appended by one writer
//! in order. Reads use a separate pool and, under WAL, never wait for the writer. On
//! PostgreSQL every write transaction takes one lock first (`db::begin_write`), to
//! the same effect across several app servers.

use std::path::Path;
use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

use crate::db::{Backend, Pool, Tx};

/// Migrations are compiled into the binary and run at every start.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../server/migrations");

/// PostgreSQL's migrations (issue #21): the same schema as [`MIGRATOR`]'s, written
/// once for a database that is always created new (`server/tests/postgres.rs`
/// holds the two equal).
pub static POSTGRES_MIGRATOR: sqlx::migrate::Migrator =
    sqlx::migrate!("../../server/migrations-postgres");

pub mod accounts;
pub mod audit;
pub mod backup;
pub mod court;
mod court_sql;
pub mod dashboard;
pub mod db;
pub mod first_version;
pub mod group_commit;
pub mod incidents;
pub mod numbers;
pub mod permits;
pub mod photos;
pub mod register;
pub mod register_text;
pub mod review;
pub mod second_factor;
#[cfg(feature = "seed")]
pub mod seed;
pub mod settings;
pub mod signatures;
pub mod tokens;
pub mod transparency;
pub mod versions;
pub mod withdrawals;

// Whether an address is PostgreSQL's: the server's start and the benches ask.
pub use db::is_postgres;

/// How long a SQLite connection waits for another process's write lock (the CLI,
/// a backup) before it gives up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Every SQLite connection's settings, set as it opens.
/// FULL: a commit is on disk before the server says "saved". An acknowledged
/// citation is a legal record; NORMAL could lose the last ones in a power cut.
/// 16 MiB of pages per connection (SQLite's default is 2 MiB): pages found here
/// are not read again through a system call. Sorts too big for the cache (a
/// court export's ORDER BY) and a statement's undo pages stay in memory: as
/// files they were tens of thousands of small writes to a temporary file per
/// export. A read connection is also `query_only`: it can never write by mistake.
fn sqlite_pragmas(reader: bool) -> String {
    format!(
        "PRAGMA busy_timeout = {}; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; \
         PRAGMA synchronous = FULL; PRAGMA cache_size = -16384; PRAGMA temp_store = MEMORY; \
         PRAGMA query_only = {};",
        BUSY_TIMEOUT.as_millis(),
        if reader { "ON" } else { "OFF" }
    )
}

/// How often a running server refreshes SQLite's statistics.
pub const OPTIMIZE_EVERY: Duration = Duration::from_secs(6 * 3600);

/// `PRAGMA optimize`, with SQLite's bounded analysis (`analysis_limit`: a
/// sample, so a million rows take milliseconds, not the write lock for seconds).
/// At open (`first`), tables that never had statistics get them too (0x10002).
async fn optimize(writer: &Pool, first: bool) -> Result<(), sqlx::Error> {
    let mut conn = writer.acquire().await?;
    sqlx::query("PRAGMA analysis_limit = 400")
        .execute(&mut *conn)
        .await?;
    sqlx::query(if first {
        "PRAGMA optimize = 0x10002"
    } else {
        "PRAGMA optimize"
    })
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The address of a SQLite file for sqlx's `Any` driver, with its parameters
/// (`mode=rwc`, …). `%`, `?` and `#` are escaped so any file name reads back as
/// itself.
pub fn sqlite_url(path: &Path, params: &str) -> String {
    let name = path
        .to_string_lossy()
        .replace('%', "%25")
        .replace('?', "%3F")
        .replace('#', "%23");
    format!("sqlite://{name}?{params}")
}

/// The connections tower-sessions' store for the engine takes (its SQLite and
/// PostgreSQL stores use sqlx's own drivers, not `Any`).
#[derive(Clone, Debug)]
pub enum SessionPool {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

/// The database's address as it may be printed: a PostgreSQL address without
/// its password.
pub fn shown(address: &str) -> String {
    match (is_postgres(address), address.rfind('@')) {
        (true, Some(at)) => {
            let scheme_end = address.find("://").map_or(0, |i| i + 3);
            let credentials = &address[scheme_end..at];
            let user = credentials.split(':').next().unwrap_or_default();
            format!("{}{user}{}", &address[..scheme_end], &address[at..])
        }
        _ => address.to_owned(),
    }
}

/// Handles to the database. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Store {
    /// The engine behind the pools.
    pub backend: Backend,
    /// Many connections, for queries.
    pub reader: Pool,
    /// One connection, for every write transaction.
    pub writer: Pool,
    /// The session store's own connections: every signed-in request reads its
    /// session, and that must not queue behind a citation being written.
    pub sessions: SessionPool,
    /// The writes officers make at the same moment (submissions), committed
    /// together on `writer` (see `group_commit`).
    pub group: group_commit::GroupCommit,
}

impl Store {
    /// Opens (creating the file and its folder if missing) and migrates the database.
    pub async fn open(path: &Path) -> Result<Store, sqlx::Error> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)?;
        }
        sqlx::any::install_default_drivers();
        // `mode=rwc`: created when missing.
        let url = sqlite_url(path, "mode=rwc");
        // No ping before handing out a connection: the database is in this
        // process, and the ping was a round trip to SQLite's worker thread on
        // every request (each ~70 µs on this machine).
        let pool = |reader: bool| {
            let pragmas: std::sync::Arc<str> = sqlite_pragmas(reader).into();
            AnyPoolOptions::new()
                .test_before_acquire(false)
                .after_connect(move |conn: &mut sqlx::AnyConnection, _| {
                    let pragmas = pragmas.clone();
                    Box::pin(async move {
                        sqlx::Executor::execute(&mut *conn, &*pragmas).await?;
                        Ok(())
                    })
                })
        };
        let writer = pool(false).max_connections(1).connect(&url).await?;
        versions::inspect(&writer, &MIGRATOR, &path.display().to_string())
            .await
            .map_err(sqlx::Error::Protocol)?;
        MIGRATOR.run(&writer).await?;
        // Reports stored before each person had their own facts move to the
        // current shape once (issue #14); every revision stays as stored.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        first_version::migrate(&writer, domain::ordinance::Moment(now))
            .await
            .map_err(|e| {
                sqlx::Error::Protocol(format!("moving reports to per-person facts: {e}"))
            })?;
        first_version::mark_converted(&writer, domain::ordinance::Moment(now))
            .await
            .map_err(|e| sqlx::Error::Protocol(format!("marking converted reports: {e}")))?;
        versions::record(&writer, &MIGRATOR, now).await?;
        optimize(&writer, true).await?;
        // The session store (tower-sessions' SQLite store) takes sqlx's own
        // SQLite pool, opened with the same settings.
        let sessions = SqlitePoolOptions::new()
            .test_before_acquire(false)
            .max_connections(4)
            .connect_with(
                SqliteConnectOptions::new()
                    .filename(path)
                    .journal_mode(SqliteJournalMode::Wal)
                    .foreign_keys(true)
                    .synchronous(SqliteSynchronous::Full)
                    .busy_timeout(BUSY_TIMEOUT),
            )
            .await?;
        let reader = pool(true).max_connections(8).connect(&url).await?;
        Ok(Store {
            backend: Backend::Sqlite,
            reader,
            group: group_commit::GroupCommit::start(writer.clone(), Backend::Sqlite),
            writer,
            sessions: SessionPool::Sqlite(sessions),
        })
    }

    /// Connects to a PostgreSQL database (`postgres://user:password@host/db`),
    /// which must exist, and migrates it (issue #21). Several app servers may
    /// share it: their writes take turns through one lock (`db::begin_write`).
    pub async fn open_postgres(url: &str) -> Result<Store, sqlx::Error> {
        sqlx::any::install_default_drivers();
        // A request waits at most 5 s for a connection: when the primary is
        // gone the phone hears so and keeps the report for its outbox to send
        // again, rather than holding on while the standby is promoted.
        let pool = || {
            AnyPoolOptions::new()
                .max_connections(8)
                .acquire_timeout(Duration::from_secs(5))
        };
        let writer = pool().connect(url).await?;
        // Two servers starting at once must not migrate at once: sqlx's migrator
        // takes PostgreSQL's advisory lock for that itself.
        versions::inspect(&writer, &POSTGRES_MIGRATOR, &shown(url))
            .await
            .map_err(sqlx::Error::Protocol)?;
        POSTGRES_MIGRATOR.run(&writer).await?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        versions::record(&writer, &POSTGRES_MIGRATOR, now).await?;
        let reader = pool().connect(url).await?;
        let sessions = sqlx::postgres::PgPoolOptions::new()
            .max_connections(4)
            .connect(url)
            .await?;
        Ok(Store {
            backend: Backend::Postgres,
            reader,
            group: group_commit::GroupCommit::start(writer.clone(), Backend::Postgres),
            writer,
            sessions: SessionPool::Postgres(sessions),
        })
    }

    /// Opens the database `address` names: a PostgreSQL server (`postgres://…`)
    /// or else a SQLite file.
    pub async fn connect(address: &str) -> Result<Store, sqlx::Error> {
        if is_postgres(address) {
            Store::open_postgres(address).await
        } else {
            Store::open(Path::new(address)).await
        }
    }

    /// Closes every connection (a test that reopens the database, a clean exit).
    pub async fn close(&self) {
        self.reader.close().await;
        self.writer.close().await;
        match &self.sessions {
            SessionPool::Sqlite(pool) => pool.close().await,
            SessionPool::Postgres(pool) => pool.close().await,
        }
    }

    /// A write transaction holding the store's one write lock from its start
    /// (`db::begin_write`).
    pub async fn begin_write(&self) -> Result<Tx, sqlx::Error> {
        db::begin_write(&self.writer, self.backend).await
    }

    /// Keeps SQLite's statistics current while the server runs: `PRAGMA optimize`
    /// every `OPTIMIZE_EVERY`, as SQLite recommends for long-lived connections.
    /// The hot queries do not depend on them (their plans name their indexes,
    /// issue #22), but every other query is planned with them.
    pub fn keep_statistics(&self) {
        // PostgreSQL's autovacuum keeps its own statistics.
        if self.backend == Backend::Postgres {
            return;
        }
        let writer = self.writer.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(OPTIMIZE_EVERY);
            every.tick().await;
            loop {
                every.tick().await;
                if let Err(error) = optimize(&writer, false).await {
                    tracing::warn!(%error, "PRAGMA optimize failed");
                }
            }
        });
    }

    /// Whether the database answers a query (for `/healthz`).
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        sqlx::query_scalar::<_, i64>("SELECT 1")
            .fetch_one(&self.reader)
            .await
            .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn open_creates_the_folder_and_file_and_migrates() {
        let dir = std::env::temp_dir().join(format!("wells-store-{}", uuid::Uuid::now_v7()));
        let path = dir.join("nested").join("wells.db");
        let store = Store::open(&path).await.expect("open");
        assert!(path.exists());
        store.ping().await.expect("ping");
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(&store.writer)
            .await
            .expect("pragma");
        assert_eq!(mode, "wal");
        let fk: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
            .fetch_one(&store.writer)
            .await
            .expect("pragma");
        assert_eq!(fk, 1);
        let sync: i64 = sqlx::query_scalar("PRAGMA synchronous")
            .fetch_one(&store.reader)
            .await
            .expect("pragma");
        assert_eq!(sync, 2, "synchronous=FULL");
        let _ = std::fs::remove_dir_all(dir);
    }
}
