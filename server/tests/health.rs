//! `/healthz` against the real router.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use server::config::Serve;
use tower::ServiceExt;

async fn state(dir: &tempfile::TempDir) -> app::state::AppState {
    let store = app::store::Store::open(&dir.path().join("wells.db"))
        .await
        .expect("open database");
    server::app_state(
        store,
        &Serve::default(),
        app::auth::second_factor::SealingKey::random(),
    )
    .expect("state")
}

/// `path`'s whole response to a browser that accepts `encodings`.
async fn get_accepting(
    router: axum::Router,
    path: &str,
    encodings: &str,
) -> axum::response::Response {
    router
        .oneshot(
            Request::get(path)
                .header("accept-encoding", encodings)
                .body(Body::empty())
                .expect("request"),
        )
        .await
        .expect("response")
}

async fn get(router: axum::Router, path: &str) -> (StatusCode, String) {
    let response = router
        .oneshot(Request::get(path).body(Body::empty()).expect("request"))
        .await
        .expect("response");
    let status = response.status();
    let body = body_of(response).await;
    (status, String::from_utf8_lossy(&body).into_owned())
}

async fn body_of(response: axum::response::Response) -> axum::body::Bytes {
    response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes()
}

#[tokio::test]
async fn healthz_is_ok_when_the_database_answers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (status, body) = get(server::router(state(&dir).await), "/healthz").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, r#"{"status":"ok"}"#);
}

#[tokio::test]
async fn healthz_is_503_with_a_reason_when_the_database_is_gone() {
    let dir = tempfile::tempdir().expect("tempdir");
    let state = state(&dir).await;
    state.store.reader.close().await;
    let (status, body) = get(server::router(state), "/healthz").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(body.contains("\"reason\""), "{body}");
}

#[tokio::test]
async fn the_start_page_renders_on_the_server() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (status, body) = get(server::router(state(&dir).await), "/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("Loitering enforcement log"));
}

#[tokio::test]
async fn pages_are_compressed_for_a_browser_that_accepts_gzip() {
    let dir = tempfile::tempdir().expect("tempdir");
    let response = get_accepting(server::router(state(&dir).await), "/sign-in", "gzip").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response
            .headers()
            .get("content-encoding")
            .and_then(|v| v.to_str().ok()),
        Some("gzip")
    );
    let gzipped = body_of(response).await;
    // The gzip magic number: the bytes really are compressed.
    assert_eq!(&gzipped[..2], &[0x1f, 0x8b]);
}

#[tokio::test]
async fn pages_load_the_wasm_file_cargo_leptos_writes() {
    // cargo-leptos writes site/pkg/wells.wasm; a server compiled without
    // LEPTOS_OUTPUT_NAME (.cargo/config.toml) would ask for wells_bg.wasm and no
    // page would ever hydrate.
    let dir = tempfile::tempdir().expect("tempdir");
    let (_, body) = get(server::router(state(&dir).await), "/sign-in").await;
    assert!(body.contains("/wells.wasm\""), "{body}");
    assert!(!body.contains("wells_bg"), "{body}");
}

#[tokio::test]
async fn pages_ask_for_the_files_of_the_release_the_service_worker_keeps() {
    let dir = tempfile::tempdir().expect("tempdir");
    let site = dir.path().join("site");
    std::fs::create_dir_all(site.join("pkg")).expect("pkg");
    std::fs::write(site.join("pkg/wells.js"), "// the app").expect("js");
    std::fs::write(site.join("pkg/wells.wasm"), "the wasm").expect("wasm");
    std::fs::write(site.join("pkg/wells.wasm.br"), "brotli bytes").expect("br");
    let store = app::store::Store::open(&dir.path().join("wells.db"))
        .await
        .expect("open database");
    let serve = Serve {
        site_root: site,
        ..Serve::default()
    };
    let router = server::router(
        server::app_state(
            store,
            &serve,
            app::auth::second_factor::SealingKey::random(),
        )
        .expect("state"),
    );
    let (_, worker) = get(router.clone(), "/sw.js").await;
    let release = worker
        .split("const RELEASE = '")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .expect("the worker names its release");
    assert_eq!(release.len(), 12, "{worker}");
    let (_, page) = get(router.clone(), "/sign-in").await;
    for file in ["wells.js", "wells.wasm", "wells.css"] {
        assert!(
            page.contains(&format!("/pkg/{release}/{file}")),
            "{file}: {page}"
        );
    }
    // The files are served under this release only: another release's page
    // gets a 404, never this build's code.
    let (status, body) = get(router.clone(), &format!("/pkg/{release}/wells.js")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, "// the app");
    let (status, body) = get(router.clone(), "/pkg/000000000000/wells.js").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body.contains("another release"), "{body}");
    let (status, _) = get(router.clone(), &format!("/pkg/{release}/..%2Fwells.db")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // What a release build compressed ahead (make release) goes out as it is.
    let response = get_accepting(router, &format!("/pkg/{release}/wells.wasm"), "br, gzip").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-encoding"], "br");
    assert_eq!(response.headers()["content-type"], "application/wasm");
    assert_eq!(&body_of(response).await[..], b"brotli bytes");
}
