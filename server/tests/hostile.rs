//! Hostile input (issue #8): every text field of a report and every server
//! function, fed what an attacker or a broken client sends — script tags, SQL,
//! spreadsheet formulas, control characters, bidirectional overrides, 1 MB
//! strings, invalid UTF-8, wrong types, missing fields, duplicated keys, deep
//! nesting. Each request gets a 4xx with a message, or is stored byte for byte
//! and shown escaped; none gets a 500, and the server keeps serving.

mod support;

use app::error::AppError;
use app::model::account::Role;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use serde_json::{json, Value};
use support::{TestApp, ORIGIN};

const SCRIPT: &str = "<script>alert('x')</script>";

/// The values every text field gets.
fn payloads() -> Vec<(&'static str, String)> {
    vec![
        ("script tag", SCRIPT.to_owned()),
        (
            "markup in attribute",
            "\"><img src=x onerror=alert(1)>".to_owned(),
        ),
        ("SQL", "Robert'); DROP TABLE incident;--".to_owned()),
        (
            "CSV formula",
            "=HYPERLINK(\"http://evil.example\",\"x\")".to_owned(),
        ),
        ("CSV command", "@SUM(1+1)*cmd|' /C calc'!A0".to_owned()),
        (
            "control characters",
            "a\u{0}b\u{7}c\u{1b}[31md\r\ne".to_owned(),
        ),
        ("RTL override", "Main St \u{202e}gnp.exe".to_owned()),
        (
            "combining and emoji",
            "Zoë Z\u{0351}\u{0352}algo 👮🏽‍♀️".to_owned(),
        ),
        ("1 MB", "x".repeat(1 << 20)),
        ("empty", String::new()),
    ]
}

/// JSON pointers of every string in `v`.
fn string_leaves(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::String(_) => out.push(at),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                string_leaves(item, format!("{at}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                string_leaves(item, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
}

fn fresh_ids(report: &mut Value) {
    report["incident_id"] = json!(uuid::Uuid::now_v7());
    for s in report["subjects"].as_array_mut().expect("subjects") {
        s["subject_id"] = json!(uuid::Uuid::now_v7());
    }
}

/// A refusal is a 4xx whose body is the app's error: for invalid input, each
/// problem names its field and says what is wrong; otherwise the kind's message.
fn assert_clear_refusal(what: &str, status: StatusCode, body: &str) {
    let cut = &body[..body.len().min(300)];
    assert!(
        status.is_client_error(),
        "{what}: expected a 4xx, got {status}: {cut}"
    );
    let error: AppError = serde_json::from_str(body)
        .unwrap_or_else(|e| panic!("{what}: a {status} that is not the app's error ({e}): {cut}"));
    assert!(!error.to_string().trim().is_empty(), "{what}: no message");
    if let AppError::Invalid { errors } = &error {
        assert!(!errors.is_empty(), "{what}: invalid, but no field named");
        for e in errors {
            assert!(
                !e.field.is_empty() && !e.message.trim().is_empty(),
                "{what}: {e:?}"
            );
        }
    }
}

#[tokio::test]
async fn every_report_text_field_is_stored_byte_exact_and_shown_escaped_or_refused() {
    let app = TestApp::new().await;
    app.user("officer", &[Role::Officer]).await;
    app.user("chief", &[Role::Chief]).await;
    let officer = app.session("officer").await;
    let chief = app.session("chief").await;
    let base = serde_json::to_value(support::refusal_report(app.clock_now())).expect("report");
    let mut fields = Vec::new();
    string_leaves(&base, String::new(), &mut fields);
    // Ids, times and choices are strings too; they must refuse garbage just the same.
    assert!(fields.len() >= 15, "found only {fields:?}");
    let (mut stored, mut refused) = (0, 0);
    for field in &fields {
        for (name, payload) in payloads() {
            let mut report = base.clone();
            fresh_ids(&mut report);
            *report.pointer_mut(field).expect("field") = json!(payload);
            let what = format!("{field} = {name}");
            let reply = app
                .post(
                    "/api/incidents/submit",
                    json!({ "report": report }),
                    Some(&officer),
                )
                .await;
            if reply.status != StatusCode::OK {
                assert_clear_refusal(&what, reply.status, &reply.body);
                refused += 1;
                continue;
            }
            stored += 1;
            let id = reply.json()["incident_id"].as_str().expect("id").to_owned();
            let json: String =
                sqlx::query_scalar("SELECT report_json FROM incident WHERE incident_id = $1")
                    .bind(&id)
                    .fetch_one(&app.state.store.reader)
                    .await
                    .expect("stored");
            let back: Value = serde_json::from_str(&json).expect("stored JSON");
            assert_eq!(
                back.pointer(field),
                Some(&json!(payload)),
                "{what}: not stored byte for byte"
            );
            if payload == SCRIPT || payload.starts_with("\">") {
                let page = app.get(&format!("/reports/{id}"), Some(&chief)).await;
                assert_eq!(page.status, StatusCode::OK, "{what}: report page");
                assert!(!page.body.contains(&payload), "{what}: rendered unescaped");
            }
        }
    }
    // Both paths were exercised: free text is kept, malformed ids and dates refused.
    assert!(
        stored > 0 && refused > 0,
        "stored {stored}, refused {refused}"
    );
    assert_eq!(app.get("/healthz", None).await.status, StatusCode::OK);
}

/// The raw bodies every server function gets.
fn malformed_bodies(valid: &Value) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = vec![
        (
            "invalid UTF-8".into(),
            b"{\"report\": \"\xff\xfe\xfd\"}".to_vec(),
        ),
        ("not JSON".into(), b"report=1&<script>".to_vec()),
        (
            "truncated JSON".into(),
            b"{\"report\": {\"incident_id\": ".to_vec(),
        ),
        ("empty body".into(), Vec::new()),
        ("a JSON array".into(), b"[1, 2, 3]".to_vec()),
        ("JSON null".into(), b"null".to_vec()),
        (
            "deep nesting".into(),
            format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)).into_bytes(),
        ),
        (
            "1 MB of one string".into(),
            json!({ "x": "y".repeat(1 << 20) }).to_string().into_bytes(),
        ),
    ];
    if let Value::Object(map) = valid {
        for key in map.keys() {
            for (kind, wrong) in [
                ("a number", json!(42)),
                ("a list", json!([])),
                ("a string", json!("x")),
                ("null", Value::Null),
            ] {
                let mut v = valid.clone();
                v[key] = wrong;
                out.push((format!("{key} as {kind}"), v.to_string().into_bytes()));
            }
            let mut v = valid.clone();
            v.as_object_mut().expect("object").remove(key);
            out.push((format!("{key} missing"), v.to_string().into_bytes()));
        }
        // Duplicated keys: serde_json refuses a duplicate field of a struct.
        if let Some((key, value)) = map.iter().next() {
            let inner = valid.to_string();
            let dup = format!("{{\"{key}\": {value}, {}", &inner[1..]);
            out.push((format!("{key} twice"), dup.into_bytes()));
        }
    }
    out
}

#[tokio::test]
async fn every_server_function_answers_malformed_bodies_with_a_4xx_and_keeps_serving() {
    let app = TestApp::new().await;
    for (name, roles) in [
        ("officer", &[Role::Officer][..]),
        ("chief", &[Role::Chief][..]),
        ("clerk", &[Role::Clerk][..]),
        ("admin", &[Role::Admin][..]),
    ] {
        app.user(name, roles).await;
    }
    let report = serde_json::to_value(support::refusal_report(app.clock_now())).expect("report");
    // A valid body for each server function, so each key can be broken in turn.
    let valid = |path: &str| -> Value {
        match path {
            "/api/session/sign-in" => json!({ "username": "nobody", "password": "x" }),
            "/api/incidents/submit" | "/api/incidents/resubmit" => json!({ "report": report }),
            "/api/review/amend" => json!({ "report": report, "reason": "Correct the time" }),
            "/api/review/decide" => {
                json!({ "incident_id": uuid::Uuid::now_v7(), "revision": 1, "action": { "action": "approve" } })
            }
            "/api/review/void" => {
                json!({ "number": "WPD-1999-000001", "reason": "Entered in error" })
            }
            "/api/court/dispose" => {
                json!({ "number": "WPD-1999-000001", "disposition": { "kind": "dismissed", "on": "2026-01-02" } })
            }
            "/api/court/file" => {
                json!({ "filing": { "numbers": ["WPD-1999-000001"], "filed_on": "2026-01-02", "reference": "R-1" } })
            }
            "/api/court/export" => json!({ "selection": { "numbers": ["WPD-1999-000001"] } }),
            "/api/register/search" => json!({ "filter": {}, "after": null }),
            "/api/review/queue" | "/api/court/register" => json!({ "filter": {} }),
            "/api/dashboard" => json!({ "period": null }),
            "/api/admin/audit" => json!({ "query": {} }),
            "/api/incidents/mine" => json!({ "before": null }),
            "/api/reports/get" => json!({ "incident_id": uuid::Uuid::now_v7() }),
            "/api/citations/get" | "/api/court/citation" => json!({ "number": "WPD-1999-000001" }),
            _ => json!({}),
        }
    };
    let caller = |path: &str| -> &'static str {
        if path.starts_with("/api/admin") {
            "admin"
        } else if path.starts_with("/api/court") {
            "clerk"
        } else if path.starts_with("/api/incidents") {
            "officer"
        } else {
            "chief"
        }
    };
    let mut paths: Vec<String> = leptos::server_fn::axum::server_fn_paths()
        .map(|(path, _)| path.to_owned())
        .collect();
    paths.sort();
    // Signing out or in mid-run would change the caller under test: last.
    paths.retain(|p| p != "/api/session/sign-out");
    let mut sent = 0;
    for path in &paths {
        let cookie = app.session(caller(path)).await;
        for (what, body) in malformed_bodies(&valid(path)) {
            let request = Request::post(path.as_str())
                .header(header::CONTENT_TYPE, "application/json")
                .header(header::ORIGIN, ORIGIN)
                .header(header::COOKIE, &cookie)
                .body(Body::from(body))
                .expect("request");
            let reply = app.send(request).await;
            let what = format!("{path}: {what}");
            assert!(
                !reply.status.is_server_error(),
                "{what}: {} {}",
                reply.status,
                &reply.body[..reply.body.len().min(300)]
            );
            if !reply.status.is_success() {
                assert_clear_refusal(&what, reply.status, &reply.body);
            }
            sent += 1;
        }
    }
    assert!(sent > 300, "only {sent} requests");
    assert_eq!(app.get("/healthz", None).await.status, StatusCode::OK);
    // And it still does its job.
    let officer = app.session("officer").await;
    let ok = app
        .submit(&officer, &support::refusal_report(app.clock_now()))
        .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
}
