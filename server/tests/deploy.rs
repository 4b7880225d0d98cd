//! Running the server as the Town deploys it (issue #38): `/metrics` only to
//! loopback or the bearer token, `/readyz`'s checks, a database written by a
//! newer release refused naming both releases (both engines), the backup an
//! upgrade takes before it migrates, the nightly backup's retention, and the
//! restore drill from the packaged layout.

mod support;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use server::ops::Ops;
use support::TestApp;
use tower::ServiceExt;

async fn ask(
    router: axum::Router,
    path: &str,
    peer: &str,
    token: Option<&str>,
) -> (StatusCode, String) {
    let mut request = Request::get(path);
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let mut request = request.body(Body::empty()).expect("request");
    let peer: SocketAddr = peer.parse().expect("peer");
    request.extensions_mut().insert(ConnectInfo(peer));
    let response = router.oneshot(request).await.expect("response");
    let status = response.status();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

fn router(app: &TestApp, ops: Ops) -> axum::Router {
    server::router_with(
        app.state.clone(),
        server::render::Renders::inline(),
        Arc::new(ops),
    )
}

#[tokio::test]
async fn metrics_answer_loopback_and_the_bearer_token_and_no_one_else() {
    let app = TestApp::new().await;
    let ops = || Ops {
        metrics_token: Some("s3cret-token".to_owned()),
        ..Ops::default()
    };
    let (status, body) = ask(router(&app, ops()), "/metrics", "127.0.0.1:5000", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        body.contains("# TYPE wells_http_requests_total counter"),
        "{body}"
    );
    assert!(
        body.contains("wells_group_commit_batch_size_count"),
        "{body}"
    );
    assert!(
        body.contains("wells_sign_in_failures_total{reason=\"refused\"} 0"),
        "{body}"
    );
    let outside = "198.51.100.7:5000";
    let (status, _) = ask(router(&app, ops()), "/metrics", outside, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = ask(
        router(&app, ops()),
        "/metrics",
        outside,
        Some("wrong-token"),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = ask(
        router(&app, ops()),
        "/metrics",
        outside,
        Some("s3cret-token"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let no_token = Ops::default();
    let (status, _) = ask(router(&app, no_token), "/metrics", outside, Some("")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn metrics_count_requests_by_route_submissions_and_refused_sign_ins() {
    let app = TestApp::new().await;
    let router = router(&app, Ops::default());
    app.user("ann", &[app::model::account::Role::Officer]).await;
    let refused = Request::post("/api/session/sign-in")
        .header("content-type", "application/json")
        .header("origin", support::ORIGIN)
        .body(Body::from(
            r#"{"username":"ann","password":"not her password"}"#,
        ))
        .expect("request");
    let answer = router.clone().oneshot(refused).await.expect("answer");
    assert_eq!(answer.status(), StatusCode::UNAUTHORIZED);
    let (_, body) = ask(router.clone(), "/metrics", "127.0.0.1:1", None).await;
    assert!(
        body.contains("wells_sign_in_failures_total{reason=\"refused\"} 1"),
        "{body}"
    );
    assert!(
        body.contains("wells_http_requests_total{route=\"/api/session/sign-in\",method=\"POST\",status=\"401\"} 1"),
        "{body}"
    );
    // A path no one serves is counted under one name, not its own.
    let _ = ask(
        router.clone(),
        "/api/no-such-endpoint-1",
        "127.0.0.1:1",
        None,
    )
    .await;
    let (_, body) = ask(router, "/metrics", "127.0.0.1:1", None).await;
    assert!(!body.contains("no-such-endpoint"), "{body}");
}

#[tokio::test]
async fn readyz_names_each_failing_check() {
    let app = TestApp::new().await;
    let dir = app.dir.path().to_owned();
    let healthy = Ops {
        data_dir: dir.clone(),
        ..Ops::default()
    };
    let (status, body) = ask(router(&app, healthy), "/readyz", "127.0.0.1:1", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        body.contains("\"migrations\":{\"detail\":\"current\""),
        "{body}"
    );
    let full_disk = Ops {
        data_dir: dir.clone(),
        min_free_bytes: u64::MAX,
        ..Ops::default()
    };
    let (status, body) = ask(router(&app, full_disk), "/readyz", "127.0.0.1:1", None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body.contains("--min-free-disk-mb"), "{body}");
    let no_certificate = Ops {
        data_dir: dir,
        https: true,
        ..Ops::default()
    };
    let (status, body) = ask(router(&app, no_certificate), "/readyz", "127.0.0.1:1", None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body.contains("no certificate yet"), "{body}");
}

/// Marks the database as migrated by release 9.9.9, with a migration this
/// build does not know.
async fn written_by_a_newer_release(pool: &app::store::db::Pool) {
    for statement in [
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (99991231000001, 'from the future', TRUE, '\\x00', 1)",
        "INSERT INTO server_release (version, migration, first_at) VALUES ('9.9.9', 99991231000001, 1)",
    ] {
        sqlx::query(statement).execute(pool).await.expect(statement);
    }
}

#[tokio::test]
async fn a_database_written_by_a_newer_release_is_refused_naming_both_releases() {
    let dir = tempfile::tempdir().expect("dir");
    let on_postgres = support::postgres::wanted();
    let (store, database) = support::open_store(dir.path(), on_postgres).await;
    let sqlite = !on_postgres;
    if sqlite {
        // SQLite reads '\x00' as text; the checksum is a blob there.
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (99991231000001, 'from the future', 1, x'00', 1)",
        )
        .execute(&store.writer)
        .await
        .expect("future migration");
        sqlx::query("INSERT INTO server_release (version, migration, first_at) VALUES ('9.9.9', 99991231000001, 1)")
            .execute(&store.writer)
            .await
            .expect("future release");
    } else {
        written_by_a_newer_release(&store.writer).await;
    }
    store.close().await;
    let address = match &database {
        Some(database) => database.url.clone(),
        None => dir.path().join("wells.db").to_string_lossy().into_owned(),
    };
    let refusal = app::store::Store::connect(&address)
        .await
        .expect_err("a newer release's database must be refused")
        .to_string();
    let this = format!("Wells {}", app::store::versions::RELEASE);
    assert!(refusal.contains("Wells 9.9.9"), "{refusal}");
    assert!(refusal.contains(&this), "{refusal}");
    assert!(refusal.contains("99991231000001"), "{refusal}");
    if sqlite {
        // The binary says so and stops, before it serves.
        let db = dir.path().join("wells.db");
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
            .args([
                "--database",
                db.to_str().expect("UTF-8 path"),
                "serve",
                "--listen",
                "127.0.0.1:0",
            ])
            .output()
            .expect("server");
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success());
        assert!(
            said.contains("Wells 9.9.9") && said.contains(&this),
            "{said}"
        );
    }
}

#[tokio::test]
async fn an_upgrade_backs_the_database_up_before_it_migrates() {
    if support::postgres::sqlite_only("pre-upgrade copy") {
        return;
    }
    let app = TestApp::new().await;
    app.user("ann", &[app::model::account::Role::Officer]).await;
    let newest = app::store::versions::newest_known(&app::store::MIGRATOR);
    // The database as the release before this one left it: its newest
    // migration not applied yet.
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = $1")
        .bind(newest)
        .execute(&app.state.store.writer)
        .await
        .expect("older schema");
    app.state.store.close().await;
    let backups = app.dir.path().join("backups");
    let copy = server::upgrade::backup_before_migrating(&app.db_path(), &backups)
        .await
        .expect("backup")
        .expect("an upgrade takes a copy");
    let name = copy
        .file_name()
        .expect("file name")
        .to_string_lossy()
        .into_owned();
    assert!(
        name.starts_with(&format!("wells-before-{}-", app::store::versions::RELEASE)),
        "{name}"
    );
    let checked = app::store::backup::check(&copy)
        .await
        .expect("the copy checks");
    assert!(checked.audit_entries > 0);
    // A database that is current needs no copy.
    let dir = tempfile::tempdir().expect("dir");
    let current = dir.path().join("wells.db");
    app::store::Store::open(&current)
        .await
        .expect("open")
        .close()
        .await;
    assert_eq!(
        server::upgrade::backup_before_migrating(&current, &backups).await,
        Ok(None)
    );
}

/// The packaged layout: /var/lib/wells with the database, its key, the ACME
/// cache and the backups folder, under a throwaway root.
#[test]
fn the_nightly_backup_keeps_its_count_names_what_it_leaves_out_and_restores_for_a_drill() {
    if support::postgres::sqlite_only("backup files") {
        return;
    }
    let root = tempfile::tempdir().expect("root");
    let state = root.path().join("var/lib/wells");
    std::fs::create_dir_all(state.join("acme")).expect("state");
    let db = state.join("wells.db");
    let server = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
            .env("WELLS_DATABASE", &db)
            .env("WELLS_LOG", "warn")
            .args(args)
            .output()
            .expect("server");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(output.status.success(), "{args:?}: {text}");
        text
    };
    let mut add = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .env("WELLS_DATABASE", &db)
        .args([
            "user",
            "add",
            "chief",
            "--role",
            "chief",
            "--name",
            "Pat Chief",
        ])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("user add");
    use std::io::Write;
    add.stdin
        .take()
        .expect("stdin")
        .write_all(b"a long enough password 1\n")
        .expect("password");
    assert!(add.wait().expect("wait").success());
    let mut said = String::new();
    for _ in 0..3 {
        said = server(&["backup", "--keep", "2"]);
        std::thread::sleep(std::time::Duration::from_millis(1100));
    }
    assert!(
        said.contains("not in the backup, keep a copy apart: the second-factor key"),
        "{said}"
    );
    assert!(said.contains("the ACME cache"), "{said}");
    assert!(said.contains("removed"), "{said}");
    let mut kept: Vec<_> = std::fs::read_dir(state.join("backups"))
        .expect("backups")
        .map(|e| e.expect("entry").path())
        .collect();
    kept.sort();
    assert_eq!(kept.len(), 2, "{kept:?}");
    // The drill: the newest copy restored into a new folder, its audit chain verified.
    let drill = root.path().join("drill/wells.db");
    std::fs::create_dir_all(drill.parent().expect("parent")).expect("drill dir");
    let restored = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .args([
            "--database",
            drill.to_str().expect("UTF-8 path"),
            "restore",
            kept[1].to_str().expect("UTF-8 path"),
        ])
        .output()
        .expect("restore");
    assert!(
        restored.status.success(),
        "{}",
        String::from_utf8_lossy(&restored.stderr)
    );
    let verified = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .args([
            "--database",
            drill.to_str().expect("UTF-8 path"),
            "audit",
            "verify",
        ])
        .output()
        .expect("verify");
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stderr)
    );
    let users = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .args([
            "--database",
            drill.to_str().expect("UTF-8 path"),
            "user",
            "list",
        ])
        .output()
        .expect("list");
    assert!(String::from_utf8_lossy(&users.stdout).contains("chief"));
}
