//! Cross-site request refusal and the security headers on every route.

mod support;

use app::model::account::Role;
use axum::http::StatusCode;
use serde_json::json;
use support::{TestApp, ORIGIN};

#[tokio::test]
async fn a_forged_cross_origin_post_is_refused_and_audited() {
    let app = TestApp::new().await;
    app.user("ada", &[Role::Admin]).await;
    let admin = app.session("ada").await;
    let forged = app
        .post_from(
            "/api/admin/users/create",
            json!({ "user": { "username": "mallory", "full_name": "Mallory", "badge_number": null,
                               "roles": ["admin"], "password": "correct horse battery staple" } }),
            Some(&admin),
            Some("https://evil.example"),
        )
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    let users: i64 = sqlx::query_scalar("SELECT count(*) FROM app_user WHERE username = 'mallory'")
        .fetch_one(&app.state.store.reader)
        .await
        .expect("count");
    assert_eq!(users, 0, "the forged request changed nothing");
    let refused = app.audit_actions("request.cross_origin_refused").await;
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].0, "denied");
    assert!(refused[0]
        .1
        .as_deref()
        .unwrap_or_default()
        .contains("evil.example"));
}

#[tokio::test]
async fn a_post_with_neither_origin_nor_referer_is_refused() {
    let app = TestApp::new().await;
    let reply = app
        .post_from(
            "/api/session/sign-in",
            json!({ "username": "a", "password": "b" }),
            None,
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_same_origin_referer_is_accepted_when_origin_is_absent() {
    let app = TestApp::new().await;
    let request = axum::http::Request::post("/api/session/me")
        .header("content-type", "application/json")
        .header("referer", format!("{ORIGIN}/admin/users"))
        .body(axum::body::Body::from("{}"))
        .expect("request");
    assert_eq!(app.send(request).await.status, StatusCode::OK);
}

#[tokio::test]
async fn every_server_function_is_post_only() {
    for (path, method) in leptos::server_fn::axum::server_fn_paths() {
        assert_eq!(
            method,
            axum::http::Method::POST,
            "{path} must not answer GET"
        );
    }
}

/// Every page route, the health check, static files and every server function
/// carry the security headers.
#[tokio::test]
async fn every_route_sends_the_security_headers() {
    let app = TestApp::new().await;
    app.user("ada", &[Role::Admin]).await;
    let cookie = app.session("ada").await;
    let mut replies = Vec::new();
    for route in server::route_list() {
        let path = route.path().to_owned();
        if path.contains(':') || path.contains('*') {
            continue;
        }
        replies.push((path.clone(), app.get(&path, Some(&cookie)).await));
        replies.push((format!("{path} (anonymous)"), app.get(&path, None).await));
    }
    for path in ["/healthz", "/no-such-page", "/favicon.svg"] {
        replies.push((path.to_owned(), app.get(path, None).await));
    }
    for (path, _) in leptos::server_fn::axum::server_fn_paths() {
        if path.ends_with("sign-out") {
            continue;
        }
        replies.push((
            path.to_owned(),
            app.post(path, json!({}), Some(&cookie)).await,
        ));
    }
    assert!(replies.len() > 10);
    for (path, reply) in &replies {
        let h = &reply.headers;
        let csp = h
            .get("content-security-policy")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        assert!(csp.contains("object-src 'none'"), "{path}: {csp}");
        assert!(csp.contains("base-uri 'none'"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert_eq!(
            h.get("x-content-type-options").map(|v| v.as_bytes()),
            Some(&b"nosniff"[..]),
            "{path}"
        );
        assert_eq!(
            h.get("referrer-policy").map(|v| v.as_bytes()),
            Some(&b"same-origin"[..]),
            "{path}"
        );
        // Our own pages may use the camera (a license's barcode) and location;
        // nothing else, and no other origin.
        assert_eq!(
            h.get("permissions-policy").map(|v| v.as_bytes()),
            Some(&b"geolocation=(self), camera=(self), microphone=(), payment=(), usb=()"[..]),
            "{path}"
        );
        let cache = h
            .get("cache-control")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        if path == "/favicon.svg" {
            assert_eq!(cache, "no-cache", "{path}");
        } else {
            assert_eq!(cache, "no-store", "{path}");
        }
        let is_page = h
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/html"));
        if is_page {
            assert!(
                csp.contains("'nonce-"),
                "{path}: pages name their script nonce: {csp}"
            );
        }
        assert!(
            !h.contains_key("strict-transport-security"),
            "{path}: no HSTS over plain HTTP"
        );
    }
}
