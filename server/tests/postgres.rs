//! Issue #21, PostgreSQL itself: its migrations build the schema SQLite's
//! twenty build and refuse a change in the same words; two app server processes
//! on one database number 500 citations 1…500 with the audit chain one chain;
//! a backup is one checked snapshot that restores into an empty database.
//!
//! Runs against the server named by the `PG*` variables (`make test` starts a
//! throwaway cluster with `pg_virtualenv`); each test makes its own database.

use std::collections::{BTreeMap, BTreeSet};

mod support;
mod wire;

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

/// A migrated PostgreSQL database and a new SQLite store, side by side.
struct Both {
    postgres: Pool,
    sqlite: Store,
    _database: postgres::Database,
    _dir: tempfile::TempDir,
}

async fn both() -> Option<Both> {
    let (database, postgres) = migrated().await?;
    let dir = tempfile::tempdir().expect("dir");
    let sqlite = Store::open(&dir.path().join("wells.db"))
        .await
        .expect("open");
    Some(Both {
        postgres,
        sqlite,
        _database: database,
        _dir: dir,
    })
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
    let Some(both) = both().await else {
        return;
    };
    let (pg, sqlite) = (&both.postgres, &both.sqlite);

    let (lite, post) = (
        sqlite_tables(&sqlite.reader).await,
        postgres_tables(pg).await,
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
    let post = postgres_objects(pg).await;
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
    let Some(both) = both().await else {
        return;
    };
    let (pg, sqlite) = (&both.postgres, &both.sqlite);
    let entry = "INSERT INTO audit_entry (seq, at, actor_id, actor_name, actor_roles, source, action, \
                 entity_type, entity_id, outcome, before_json, after_json, prev_hash, hash) \
                 VALUES (1, 0, NULL, NULL, '', NULL, 'test', 'test', NULL, 'success', NULL, NULL, $1, $2)";
    for pool in [&sqlite.writer, pg] {
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
        let post = sqlx::query(change).execute(pg).await;
        let said = |r: Result<_, sqlx::Error>| match r {
            Err(sqlx::Error::Database(e)) => e.message().to_owned(),
            other => panic!("{change}: not refused: {other:?}"),
        };
        let (lite, post) = (said(lite), said(post));
        assert_eq!(lite, post, "{change}: the same words");
    }
    let truncate = sqlx::query("TRUNCATE audit_entry").execute(pg).await;
    assert!(truncate.is_err(), "TRUNCATE is refused too");
}

/// Citations the two servers issue together.
const CITATIONS: usize = 500;
/// Phones on each server.
const PHONES: usize = 4;

/// One phone's share of the citations: signs in on its server and submits one
/// refusal after another, each citing one person; the numbers it was given.
async fn phone(server: wire::Client, officer: String, reports: usize) -> Vec<String> {
    let cookie = server.sign_in(&officer).await;
    let mut numbers = Vec::with_capacity(reports);
    for _ in 0..reports {
        match server
            .submit(&cookie, &support::refusal_report(wire::now()))
            .await
        {
            wire::Submitted::Numbers(given) => numbers.extend(given),
            wire::Submitted::Refused(status, body) => panic!("{status}: {body}"),
            wire::Submitted::NoAnswer => panic!("no answer"),
        }
    }
    numbers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_app_servers_on_one_database_number_500_citations_without_a_gap() {
    let Some((database, pool)) = migrated().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let key = dir.path().join("second-factor-key");
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_server"));
    let mut servers = [
        wire::Server::on(binary, &database.url, Some(key.clone())),
        wire::Server::on(binary, &database.url, Some(key)),
    ];
    let officers: Vec<String> = (0..PHONES * servers.len())
        .map(|n| format!("officer-{n}"))
        .collect();
    for officer in &officers {
        servers[0].add_officer(officer);
    }
    for server in &mut servers {
        server.start().await;
    }
    let started = std::time::Instant::now();
    let share = CITATIONS / officers.len();
    let phones: Vec<_> = officers
        .iter()
        .enumerate()
        .map(|(n, officer)| {
            let server = servers[n % servers.len()].client();
            // The first phones take the remainder.
            let reports = share + usize::from(n < CITATIONS % officers.len());
            tokio::spawn(phone(server, officer.clone(), reports))
        })
        .collect();
    let mut given: Vec<String> = Vec::new();
    for phone in phones {
        given.extend(phone.await.expect("phone"));
    }
    let took = started.elapsed();

    let stored: Vec<(i64, String)> =
        sqlx::query_as("SELECT seq, number FROM citation ORDER BY seq")
            .fetch_all(&pool)
            .await
            .expect("citations");
    let seqs: Vec<i64> = stored.iter().map(|(seq, _)| *seq).collect();
    let expected: Vec<i64> = (1..=CITATIONS as i64).collect();
    assert_eq!(seqs, expected, "1…{CITATIONS}, no gap, no duplicate");
    given.sort();
    let mut numbers: Vec<String> = stored.into_iter().map(|(_, number)| number).collect();
    numbers.sort();
    assert_eq!(given, numbers, "every number given is stored, once");
    let audit = servers[0].audit_verify().expect("the audit chain verifies");
    println!(
        "{CITATIONS} citations from {} phones on 2 servers in {:.1} s; audit: {}",
        officers.len(),
        took.as_secs_f64(),
        audit
    );
}

#[tokio::test]
async fn a_postgres_backup_is_one_checked_snapshot_that_restores_into_an_empty_database() {
    if postgres::url("postgres").is_none() {
        assert!(std::env::var_os("WELLS_REQUIRE_POSTGRES").is_none());
        return;
    }
    let app = support::TestApp::on_postgres().await;
    app.user("olive", &[app::model::account::Role::Officer])
        .await;
    let olive = app.session("olive").await;
    let sent = app
        .submit(&olive, &support::refusal_report(app.clock_now()))
        .await;
    assert_eq!(sent.status, axum::http::StatusCode::OK, "{}", sent.body);
    let (store, database) = (
        &app.state.store,
        app.postgres.as_ref().expect("on PostgreSQL"),
    );
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("wells.pgdump");
    let checked = app::store::backup::backup_postgres(store, &database.url, &file)
        .await
        .expect("backup");
    assert!(
        checked.bytes > 0 && checked.citations == 1 && checked.audit_entries > 0,
        "{checked:?}"
    );
    let again = app::store::backup::backup_postgres(store, &database.url, &file).await;
    assert!(again.is_err_and(|e| e.contains("exists already")));

    // Never over records: the live database is refused as a target.
    let over = app::store::backup::restore_postgres(&file, &database.url).await;
    assert!(
        over.is_err_and(|e| e.contains("not empty")),
        "restore over records"
    );

    let empty = postgres::Database::create().await;
    let restored = app::store::backup::restore_postgres(&file, &empty.url)
        .await
        .expect("restore");
    assert_eq!(
        (
            restored.incidents,
            restored.citations,
            restored.audit_entries
        ),
        (checked.incidents, checked.citations, checked.audit_entries)
    );
    let back = Store::open_postgres(&empty.url)
        .await
        .expect("open the copy");
    let verified = app::store::audit::verify(&back.reader).await.expect("read");
    assert!(verified.is_ok(), "{verified:?}");
    back.close().await;
}
