//! Where sessions are kept: tower-sessions' store for the database's engine, in
//! the same database as everything else (issue #21), so any app server can
//! answer any signed-in request.

use app::store::SessionPool;
use tower_sessions::session::{Id, Record};
use tower_sessions::session_store::{self, SessionStore};
use tower_sessions_sqlx_store::{PostgresStore, SqliteStore};

/// The session store over whichever engine the database is.
#[derive(Clone, Debug)]
pub enum Sessions {
    Sqlite(SqliteStore),
    Postgres(PostgresStore),
}

impl Sessions {
    /// The store over `pool`. Its table is made by the database's migrations
    /// (SQLite's 0003, PostgreSQL's `tower_sessions`), never by the store.
    pub fn new(pool: &SessionPool) -> Sessions {
        match pool {
            SessionPool::Sqlite(pool) => Sessions::Sqlite(SqliteStore::new(pool.clone())),
            SessionPool::Postgres(pool) => {
                let store = PostgresStore::new(pool.clone());
                // Fixed, valid names: neither can be refused.
                let named = store
                    .clone()
                    .with_schema_name("public")
                    .and_then(|s| s.with_table_name("tower_sessions"));
                Sessions::Postgres(named.unwrap_or(store))
            }
        }
    }
}

#[async_trait::async_trait]
impl SessionStore for Sessions {
    async fn create(&self, record: &mut Record) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.create(record).await,
            Sessions::Postgres(s) => s.create(record).await,
        }
    }

    async fn save(&self, record: &Record) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.save(record).await,
            Sessions::Postgres(s) => s.save(record).await,
        }
    }

    async fn load(&self, id: &Id) -> session_store::Result<Option<Record>> {
        match self {
            Sessions::Sqlite(s) => s.load(id).await,
            Sessions::Postgres(s) => s.load(id).await,
        }
    }

    async fn delete(&self, id: &Id) -> session_store::Result<()> {
        match self {
            Sessions::Sqlite(s) => s.delete(id).await,
            Sessions::Postgres(s) => s.delete(id).await,
        }
    }
}
