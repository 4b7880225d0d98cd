//! The tests' PostgreSQL (issue #21): with `WELLS_TEST_BACKEND=postgres`, each
//! test app gets a database of its own on the server the `PG*` variables name
//! (`make test` starts a throwaway one with `pg_virtualenv`), dropped with it.

use app::store::db::Pool;

/// Whether this run's apps use PostgreSQL.
pub fn wanted() -> bool {
    std::env::var("WELLS_TEST_BACKEND").is_ok_and(|b| b == "postgres")
}

/// `postgres://…/database` from the `PG*` variables; `None` when no server is named.
pub fn url(database: &str) -> Option<String> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let host = var("PGHOST")?;
    let user = var("PGUSER").unwrap_or_else(|| "postgres".into());
    let password = var("PGPASSWORD")
        .map(|p| format!(":{p}"))
        .unwrap_or_default();
    let port = var("PGPORT").unwrap_or_else(|| "5432".into());
    Some(format!(
        "postgres://{user}{password}@{host}:{port}/{database}"
    ))
}

/// A new, empty database on the test server, dropped (whoever is still
/// connected) when this goes.
pub struct Database {
    pub name: String,
    pub url: String,
}

impl Database {
    pub async fn create() -> Database {
        sqlx::any::install_default_drivers();
        let admin = url("postgres").expect("WELLS_TEST_BACKEND=postgres needs PGHOST");
        let pool = Pool::connect(&admin)
            .await
            .expect("the test server answers");
        let name = format!("wells_{}", uuid::Uuid::now_v7().simple());
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&pool)
            .await
            .expect("create database");
        pool.close().await;
        let url = url(&name).expect("url");
        Database { name, url }
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        let name = self.name.clone();
        // Drop runs inside the test's runtime: the DROP gets a runtime of its own.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .ok()?;
            runtime.block_on(async move {
                let pool = Pool::connect(&url("postgres")?).await.ok()?;
                sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                    .execute(&pool)
                    .await
                    .ok()?;
                pool.close().await;
                Some(())
            })
        });
        let _ = dropped.join();
    }
}

/// Whether a test of SQLite's own machinery (its file, its planner's hints, its
/// backups, the first version's files) stands down: on a PostgreSQL run there is
/// none of it to test. Every such test runs on the SQLite run.
pub fn sqlite_only(what: &str) -> bool {
    if wanted() {
        eprintln!("SQLite's {what}: run on the SQLite run only");
    }
    wanted()
}
