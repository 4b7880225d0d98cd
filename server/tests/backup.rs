//! Backups: a snapshot taken while reports are being written holds whole
//! transactions only, restores, and its audit chain verifies; a restore refuses a
//! running server, a damaged file and a tampered audit log.

mod support;

use app::model::account::Role;
use app::store::backup;
use app::store::Store;
use axum::http::StatusCode;
use support::{refusal_report, TestApp};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_backup_taken_under_write_load_restores_and_its_audit_chain_verifies() {
    if support::postgres::sqlite_only("VACUUM INTO backups") {
        return;
    }
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let officer = app.session("oscar").await;
    let target = app.dir.path().join("nightly").join("wells-backup.db");

    let writer = |n: usize| {
        let app = &app;
        let officer = officer.clone();
        async move {
            for _ in 0..n {
                let reply = app.submit(&officer, &refusal_report(app.clock_now())).await;
                assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
            }
        }
    };
    let snapshot = async {
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
        backup::backup(&app.state.store, &target).await
    };
    let (_, _, _, taken) = tokio::join!(writer(25), writer(25), writer(25), snapshot);
    let taken = taken.expect("backup");
    let written = app.count("incident").await;
    assert_eq!(written, 75);
    assert!(taken.incidents <= written);
    assert!(taken.audit_entries > 0);

    // Whole transactions only: each incident with its revision, its persons, its
    // citation and both audit entries, or none of them.
    let copy = Store::open(&target).await.expect("open the copy");
    let q = |sql: &'static str| {
        let pool = copy.reader.clone();
        async move {
            sqlx::query_scalar::<_, i64>(sql)
                .fetch_one(&pool)
                .await
                .expect(sql)
        }
    };
    let incidents = q("SELECT COUNT(*) FROM incident").await;
    assert_eq!(incidents, taken.incidents);
    assert_eq!(q("SELECT COUNT(*) FROM incident_revision").await, incidents);
    assert_eq!(q("SELECT COUNT(*) FROM subject").await, incidents);
    assert_eq!(q("SELECT COUNT(*) FROM citation").await, incidents);
    assert_eq!(
        q("SELECT COUNT(*) FROM audit_entry WHERE action = 'incident.submit'").await,
        incidents
    );
    assert_eq!(
        q("SELECT COUNT(*) FROM audit_entry WHERE action = 'citation.issue'").await,
        incidents
    );
    // Citation numbers in the copy have no gaps.
    assert_eq!(
        q("SELECT COALESCE(MAX(seq), 0) FROM citation").await,
        incidents
    );
    copy.close().await;

    // Restore over another database (its server stopped) and verify.
    let live = app.dir.path().join("restored").join("wells.db");
    let restored = backup::restore(&target, &live).await.expect("restore");
    assert_eq!(restored.incidents, taken.incidents);
    let back = Store::open(&live).await.expect("open restored");
    let verified = app::store::audit::verify(&back.reader).await.expect("read");
    assert!(verified.is_ok(), "audit chain verifies after restore");

    // An existing file is never overwritten by a backup.
    let again = backup::backup(&app.state.store, &target).await;
    assert!(again.expect_err("refused").contains("exists already"));
}

#[tokio::test]
async fn restore_refuses_a_running_server_a_damaged_file_and_a_tampered_audit_log() {
    if support::postgres::sqlite_only("file restore") {
        return;
    }
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let good = app.dir.path().join("good.db");
    backup::backup(&app.state.store, &good)
        .await
        .expect("backup");
    let live = app.dir.path().join("live").join("wells.db");

    // The server holds the lock while it serves.
    let held = backup::lock(&live).expect("lock");
    let refused = backup::restore(&good, &live)
        .await
        .expect_err("refused while locked");
    assert!(refused.contains("stop it first"), "{refused}");
    drop(held);

    let garbage = app.dir.path().join("garbage.db");
    std::fs::write(&garbage, b"this is not a database").expect("write");
    assert!(backup::restore(&garbage, &live).await.is_err());
    assert!(!live.exists(), "nothing was put in place");

    // A copy whose audit history was edited behind the triggers' back.
    let tampered = app.dir.path().join("tampered.db");
    std::fs::copy(&good, &tampered).expect("copy");
    {
        let options = sqlx::sqlite::SqliteConnectOptions::new().filename(&tampered);
        let pool = sqlx::SqlitePool::connect_with(options).await.expect("open");
        let triggers: Vec<String> = sqlx::query_scalar(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_entry'",
        )
        .fetch_all(&pool)
        .await
        .expect("triggers");
        for t in triggers {
            sqlx::query(&format!("DROP TRIGGER {t}"))
                .execute(&pool)
                .await
                .expect("drop");
        }
        sqlx::query("UPDATE audit_entry SET actor_name = 'someone else' WHERE seq = 1")
            .execute(&pool)
            .await
            .expect("tamper");
        pool.close().await;
    }
    let broken = backup::restore(&tampered, &live)
        .await
        .expect_err("refused: tampered");
    assert!(broken.contains("audit log BROKEN"), "{broken}");
    assert!(!live.exists());

    let ok = backup::restore(&good, &live)
        .await
        .expect("restore the good copy");
    assert!(ok.audit_entries > 0);
    assert!(live.exists());
}
