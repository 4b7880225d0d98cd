//! Issue #21: PostgreSQL's migrations build the schema SQLite's twenty build —
//! the same tables, columns in the same order, the same NOT NULLs, indexes and
//! triggers — and its append-only tables refuse a change in the same words.
//!
//! Runs against the server named by the `PG*` variables (`make test` starts a
//! throwaway cluster with `pg_virtualenv`); each test makes its own database.

use std::collections::{BTreeMap, BTreeSet};

mod support;

use app::store::db::Pool;
use app::store::{Store, POSTGRES_MIGRATOR};
use support::postgres;

/// A new database on the test server, migrated; `None` (the test says it did
/// not run) when no server is named — outside `make test`; under it
/// (`WELLS_REQUIRE_POSTGRES` set) that fails.
async fn migrated() -> Option<(postgres::Database, Pool)> {
    if postgres::url("postgres").is_none() {
        assert!(
            std::env::var_os("WELLS_REQUIRE_POSTGRES").is_none(),
            "WELLS_REQUIRE_POSTGRES is set but no PGHOST names a server"
        );
        eprintln!("no PostgreSQL server named (PGHOST): not run");
        return None;
    }
    let database = postgres::Database::create().await;
    let pool = Pool::connect(&database.url).await.expect("connect");
    POSTGRES_MIGRATOR.run(&pool).await.expect("migrate");
    Some((database, pool))
}

/// A table (or view) as both engines describe it: columns in order with their NOT NULL.
type Tables = BTreeMap<String, Vec<(String, bool)>>;

/// SQLite's FTS5 table and its shadow tables: PostgreSQL's `register_text` is a
/// plain table (trigram index), compared by its columns below.
fn compared(table: &str) -> bool {
    !(table.starts_with("sqlite_")
        || table.starts_with("_sqlx")
        || table.starts_with("register_text_"))
}

async fn sqlite_tables(pool: &Pool) -> Tables {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name",
    )
    .fetch_all(pool)
    .await
    .expect("tables");
    let mut tables = Tables::new();
    for name in names.into_iter().filter(|n| compared(n)) {
        let columns: Vec<(String, i64, i64)> =
            sqlx::query_as("SELECT name, \"notnull\", pk FROM pragma_table_info($1) ORDER BY cid")
                .bind(&name)
                .fetch_all(pool)
                .await
                .expect("columns");
        // A primary key is NOT NULL in PostgreSQL whatever it says.
        let mut columns: Vec<(String, bool)> = columns
            .into_iter()
            .map(|(column, not_null, pk)| (column, not_null == 1 || pk > 0))
            .collect();
        // The FTS5 table's rowid is hidden; PostgreSQL's register_text has it as
        // its first column, the key `register_entry` refers to.
        if name == "register_text" {
            columns.insert(0, ("rowid".to_owned(), true));
        }
        tables.insert(name, columns);
    }
    tables
}

async fn postgres_tables(pool: &Pool) -> Tables {
    let rows: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text, is_nullable::text FROM information_schema.columns \
         WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
    )
    .fetch_all(pool)
    .await
    .expect("columns");
    let mut tables = Tables::new();
    // PostgreSQL has no rowid: `register_record` numbers the register's sources
    // where SQLite used each row's rowid.
    let rows = rows
        .into_iter()
        .filter(|r| compared(&r.0) && r.0 != "register_record");
    for (table, column, nullable) in rows {
        tables
            .entry(table)
            .or_default()
            .push((column, nullable == "NO"));
    }
    tables
}

/// Named indexes and triggers (constraint-backed indexes are named by each engine
/// its own way and are compared as columns' constraints are, by the migrations).
async fn sqlite_objects(pool: &Pool) -> BTreeSet<(String, String)> {
    sqlx::query_as::<_, (String, String)>(
        "SELECT type, name FROM sqlite_master WHERE type IN ('index', 'trigger') \
         AND name NOT LIKE 'sqlite_autoindex_%'",
    )
    .fetch_all(pool)
    .await
    .expect("objects")
    .into_iter()
    .collect()
}

async fn postgres_objects(pool: &Pool) -> BTreeSet<(String, String)> {
    let indexes: Vec<String> = sqlx::query_scalar(
        "SELECT i.indexname::text FROM pg_indexes i WHERE i.schemaname = 'public' \
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)",
    )
    .fetch_all(pool)
    .await
    .expect("indexes");
    let triggers: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT trigger_name::text FROM information_schema.triggers \
         WHERE trigger_schema = 'public'",
    )
    .fetch_all(pool)
    .await
    .expect("triggers");
    indexes
        .into_iter()
        .map(|n| ("index".to_owned(), n))
        .chain(triggers.into_iter().map(|n| ("trigger".to_owned(), n)))
        .collect()
}

#[tokio::test]
async fn postgres_migrations_build_the_schema_sqlites_build() {
    let Some((_database, pg)) = migrated().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let sqlite = Store::open(&dir.path().join("wells.db"))
        .await
        .expect("open");

    let (lite, post) = (
        sqlite_tables(&sqlite.reader).await,
        postgres_tables(&pg).await,
    );
    assert_eq!(
        lite.keys().collect::<Vec<_>>(),
        post.keys().collect::<Vec<_>>(),
        "the same tables"
    );
    for (table, columns) in &lite {
        assert_eq!(
            Some(columns),
            post.get(table),
            "{table}: columns and NOT NULL"
        );
    }

    let lite = sqlite_objects(&sqlite.reader).await;
    let post = postgres_objects(&pg).await;
    // PostgreSQL alone: TRUNCATE skips row triggers, so each append-only table
    // also refuses it (SQLite has no TRUNCATE).
    let extra: BTreeSet<_> = post
        .difference(&lite)
        .filter(|(kind, name)| !(kind == "trigger" && name.ends_with("_no_truncate")))
        .collect();
    let missing: BTreeSet<_> = lite.difference(&post).collect();
    assert!(
        missing.is_empty(),
        "indexes and triggers PostgreSQL lacks: {missing:?}"
    );
    // SQLite's FTS5 table indexes itself; PostgreSQL's register_text is searched
    // through a trigram index.
    assert_eq!(
        extra.into_iter().collect::<Vec<_>>(),
        [&("index".to_owned(), "register_text_trigram".to_owned())],
        "indexes and triggers SQLite lacks"
    );
}

#[tokio::test]
async fn postgres_refuses_changing_the_record_in_sqlites_words() {
    let Some((_database, pg)) = migrated().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let sqlite = Store::open(&dir.path().join("wells.db"))
        .await
        .expect("open");
    let entry = "INSERT INTO audit_entry (seq, at, actor_id, actor_name, actor_roles, source, action, \
                 entity_type, entity_id, outcome, before_json, after_json, prev_hash, hash) \
                 VALUES (1, 0, NULL, NULL, '', NULL, 'test', 'test', NULL, 'success', NULL, NULL, $1, $2)";
    for pool in [&sqlite.writer, &pg] {
        sqlx::query(entry)
            .bind(app::store::audit::GENESIS)
            .bind("x".repeat(64))
            .execute(pool)
            .await
            .expect("append");
    }
    for change in [
        "UPDATE audit_entry SET action = 'changed'",
        "DELETE FROM audit_entry",
    ] {
        let lite = sqlx::query(change).execute(&sqlite.writer).await;
        let post = sqlx::query(change).execute(&pg).await;
        let said = |r: Result<_, sqlx::Error>| match r {
            Err(sqlx::Error::Database(e)) => e.message().to_owned(),
            other => panic!("{change}: not refused: {other:?}"),
        };
        let (lite, post) = (said(lite), said(post));
        assert_eq!(lite, post, "{change}: the same words");
    }
    let truncate = sqlx::query("TRUNCATE audit_entry").execute(&pg).await;
    assert!(truncate.is_err(), "TRUNCATE is refused too");
}
