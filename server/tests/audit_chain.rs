//! The audit log cannot be quietly rewritten.

mod support;

use std::process::Command;

use app::model::account::Role;
use support::TestApp;

fn verify(db: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["--log-level", "error", "audit", "verify"])
        .env("WELLS_DATABASE", db)
        .output()
        .expect("run server audit verify")
}

#[tokio::test]
async fn update_and_delete_of_audit_entries_are_refused_by_the_database() {
    let app = TestApp::new().await;
    app.user("ada", &[Role::Admin]).await;
    let update = sqlx::query("UPDATE audit_entry SET action = 'nothing' WHERE seq = 1")
        .execute(&app.state.store.writer)
        .await;
    assert!(update.is_err());
    let delete = sqlx::query("DELETE FROM audit_entry")
        .execute(&app.state.store.writer)
        .await;
    assert!(delete.is_err());
}

#[tokio::test]
async fn verify_passes_on_an_intact_log_and_names_the_entry_whose_byte_was_changed() {
    if support::postgres::sqlite_only("database file, changed byte by byte") {
        return;
    }
    let app = TestApp::new().await;
    app.user("ada", &[Role::Admin]).await;
    app.user("mtamperson", &[Role::Officer]).await;
    app.user("carol", &[Role::Clerk]).await;
    let path = app.db_path();
    // Everything into the main file, then let go of it.
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&app.state.store.writer)
        .await
        .expect("checkpoint");
    app.state.store.close().await;

    let ok = verify(&path);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(String::from_utf8_lossy(&ok.stdout).contains("3 entries"));

    // Change one byte of the second entry's text, behind SQLite's back.
    let mut bytes = std::fs::read(&path).expect("read db");
    let needle = b"mtamperson tester";
    let positions: Vec<usize> = bytes
        .windows(needle.len())
        .enumerate()
        .filter(|(_, w)| *w == needle)
        .map(|(i, _)| i)
        .collect();
    assert!(!positions.is_empty());
    // The audit entry's after_json is written after the app_user row; take the
    // copy inside the JSON (preceded by `"full_name":"`).
    let in_json = positions
        .iter()
        .copied()
        .find(|&i| bytes[..i].ends_with(b"\"full_name\":\""))
        .expect("the name inside the audit JSON");
    bytes[in_json] = b'M';
    std::fs::write(&path, &bytes).expect("write db");

    let broken = verify(&path);
    assert!(!broken.status.success());
    let stderr = String::from_utf8_lossy(&broken.stderr);
    assert!(stderr.contains("audit entry 2"), "{stderr}");
}
