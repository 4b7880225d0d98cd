//! Issue #16's findings from outside the app, each as the black-box request that
//! showed it: the bare `server` and its environment, refused reads that went
//! unrecorded, "not found" pages answered 200, a signed-out export sent to a GET
//! of a form's target, and an oversized body called malformed.

mod support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use app::model::account::Role;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use serde_json::json;
use support::{refusal_report, TestApp, ORIGIN};

#[test]
fn a_bare_server_command_reads_its_settings_from_the_environment() {
    let dir = tempfile::tempdir().expect("temp dir");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_server"))
        .env("WELLS_DATABASE", dir.path().join("bare.db"))
        .env("WELLS_LISTEN", format!("127.0.0.1:{port}"))
        .env("WELLS_LOG", "warn")
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("server");
    let started = Instant::now();
    let mut answered = false;
    while started.elapsed() < Duration::from_secs(30) {
        if let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            use std::io::{Read, Write};
            let _ =
                stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            let mut reply = String::new();
            let _ = stream.read_to_string(&mut reply);
            answered = reply.starts_with("HTTP/1.1 200");
            if answered {
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        answered,
        "`server` with WELLS_LISTEN=127.0.0.1:{port} must serve there"
    );
}

#[tokio::test]
async fn an_officers_refused_reads_of_another_officers_records_are_audited_and_answer_404() {
    let app = TestApp::new().await;
    app.user("ann", &[Role::Officer]).await;
    app.user("bob", &[Role::Officer]).await;
    let ann = app.session("ann").await;
    let bob = app.session("bob").await;
    let report = refusal_report(app.clock_now());
    let receipt = app
        .post(
            "/api/incidents/submit",
            json!({ "report": report }),
            Some(&ann),
        )
        .await;
    assert_eq!(receipt.status, StatusCode::OK, "{}", receipt.body);
    let number = receipt.json()["citations"][0]["number"]
        .as_str()
        .expect("number")
        .to_owned();
    let id = report.incident_id.to_string();

    let before = app.audit_actions("access.denied").await.len();
    let citation = app
        .post(
            "/api/citations/get",
            json!({ "number": number }),
            Some(&bob),
        )
        .await;
    assert_eq!(citation.status, StatusCode::NOT_FOUND);
    let full = app
        .post("/api/reports/get", json!({ "incident_id": id }), Some(&bob))
        .await;
    assert_eq!(full.status, StatusCode::NOT_FOUND);
    let pdf = app
        .get(&format!("/citations/{number}/pdf"), Some(&bob))
        .await;
    assert_eq!(pdf.status, StatusCode::NOT_FOUND);
    let report_pdf = app.get(&format!("/reports/{id}/pdf"), Some(&bob)).await;
    assert_eq!(report_pdf.status, StatusCode::NOT_FOUND);
    let denied = app.audit_actions("access.denied").await;
    assert_eq!(denied.len(), before + 4, "{denied:?}");
    let after: Vec<String> = denied[before..]
        .iter()
        .map(|(_, json)| json.clone().unwrap_or_default())
        .collect();
    assert!(
        after.iter().all(|a| a.contains("\"status\":404")),
        "{after:?}"
    );
    let entities: Vec<(String, String)> = sqlx::query_as(
        "SELECT entity_type, entity_id FROM audit_entry WHERE action = 'access.denied' ORDER BY seq",
    )
    .fetch_all(&app.state.store.reader)
    .await
    .expect("entities");
    assert_eq!(
        entities[before..].to_vec(),
        vec![
            ("citation".to_owned(), number.clone()),
            ("incident".to_owned(), id.clone()),
            ("citation".to_owned(), number.clone()),
            ("incident".to_owned(), id.clone()),
        ]
    );
    // Their own reads are not refusals.
    let own = app
        .post(
            "/api/citations/get",
            json!({ "number": number }),
            Some(&ann),
        )
        .await;
    assert_eq!(own.status, StatusCode::OK);
    assert_eq!(app.audit_actions("access.denied").await.len(), before + 4);
}

#[tokio::test]
async fn a_page_for_a_record_that_is_not_there_answers_404() {
    let app = TestApp::new().await;
    app.user("ann", &[Role::Officer, Role::Chief]).await;
    let ann = app.session("ann").await;
    for path in [
        "/citations/WPD-2026-999999".to_owned(),
        format!("/reports/{}", uuid::Uuid::now_v7()),
    ] {
        let page = app.get(&path, Some(&ann)).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}");
        assert!(page.body.contains("Not found."), "{path}");
    }
}

#[tokio::test]
async fn a_signed_out_export_comes_back_to_the_court_page_not_to_the_forms_target() {
    let app = TestApp::new().await;
    let request = Request::post("/court/export")
        .header(header::ORIGIN, ORIGIN)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from("format=csv&numbers=WPD-2026-000001"))
        .expect("request");
    let reply = app.send(request).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(
        reply
            .headers
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok()),
        Some("/sign-in?next=/court")
    );
}

#[tokio::test]
async fn a_body_over_the_limit_is_413_and_names_the_limit() {
    let app = TestApp::new().await;
    app.user("ann", &[Role::Officer]).await;
    let ann = app.session("ann").await;
    let huge = "x".repeat(app::error::MAX_BODY_BYTES + 1);
    let reply = app
        .post(
            "/api/incidents/submit",
            json!({ "report": { "narrative": huge } }),
            Some(&ann),
        )
        .await;
    assert_eq!(
        reply.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        reply.body
    );
    assert_eq!(reply.kind(), "too_large");
    assert!(reply.json()["limit_bytes"].as_u64() == Some(app::error::MAX_BODY_BYTES as u64));
}
