//! The Wells loitering log server: the axum router around the Leptos app, plus the
//! routes that are not pages (health, downloads) and the CLI subcommands.

pub mod cli;
pub mod config;
pub mod counters;
pub mod downloads;
pub mod health;
pub mod heavy;
pub mod metrics;
pub mod open_data;
pub mod ops;
pub mod photos;
pub mod release;
pub mod render;
pub mod request_log;
pub mod security;
pub mod sessions;
pub mod systemd;
pub mod tls;
pub mod upgrade;

use std::sync::Arc;

use app::auth::clock::{Clock, SystemClock};
use app::auth::rate_limit::RateLimiter;
use app::auth::second_factor::{SealingKey, SecondFactorKit};
use app::state::{AppState, Settings};
use app::store::Store;
use app::{shell, App};
use axum::middleware::{from_fn, from_fn_with_state};
use axum::routing::get;
use axum::Router;
use leptos::prelude::*;
use leptos_axum::{generate_route_list, LeptosRoutes};
use tower_sessions::cookie::SameSite;
use tower_sessions::{Expiry, SessionManagerLayer};

/// Leptos options for a built site at `site_root` (cargo-leptos names the files
/// after the workspace's `[[workspace.metadata.leptos]] name`).
pub fn leptos_options(serve: &config::Serve) -> LeptosOptions {
    LeptosOptions::builder()
        .output_name("wells")
        .site_root(serve.site_root.to_string_lossy().to_string())
        .site_pkg_dir("pkg")
        .site_addr(serve.listen)
        .build()
}

/// Everything the router needs, built from the database and the serve options.
pub fn app_state(store: Store, serve: &config::Serve, key: SealingKey) -> Result<AppState, String> {
    #[cfg(debug_assertions)]
    if serve.test_clock_offset_days != 0 {
        tracing::warn!(
            days = serve.test_clock_offset_days,
            "the server's clock is moved (a test option of debug builds)"
        );
        let clock = app::auth::clock::OffsetClock {
            offset_ms: serve.test_clock_offset_days * 86_400_000,
        };
        return app_state_with_clock(store, serve, key, Arc::new(clock));
    }
    app_state_with_clock(store, serve, key, Arc::new(SystemClock))
}

/// As [`app_state`], with a clock of the caller's (tests move time).
pub fn app_state_with_clock(
    store: Store,
    serve: &config::Serve,
    key: SealingKey,
    clock: Arc<dyn Clock>,
) -> Result<AppState, String> {
    let public_origin = serve.public_origin();
    let second_factor = Arc::new(SecondFactorKit::new(key, &public_origin));
    let town_zone = app::town_time::TownZone::named(&serve.time_zone)?;
    Ok(AppState {
        leptos_options: leptos_options(serve),
        store,
        settings: Arc::new(Settings {
            secure_cookies: serve
                .secure_cookies
                .unwrap_or(public_origin.starts_with("https://")),
            public_origin,
            idle_timeout_ms: i64::from(serve.idle_timeout_minutes) * 60_000,
            absolute_timeout_ms: i64::from(serve.session_hours) * 3_600_000,
            town_zone,
            release: release::of_site(&serve.site_root),
        }),
        clock,
        sign_in_limiter: Arc::new(RateLimiter::per_minute(serve.sign_in_per_minute)),
        second_factor,
    })
}

/// The app's page routes, worked out once per process. Leptos suppresses resource
/// loading for the whole process while it walks the routes (a global flag in
/// `leptos_server`, leptos-rs/leptos#4773), so a page rendered during a second walk
/// waits forever for its data. A server builds its router once; the tests build one
/// per test, in parallel, and hung now and then until the walk happened only once.
pub fn route_list() -> &'static [leptos_axum::AxumRouteListing] {
    static ROUTES: std::sync::OnceLock<Vec<leptos_axum::AxumRouteListing>> =
        std::sync::OnceLock::new();
    ROUTES.get_or_init(|| generate_route_list(App))
}

/// The whole HTTP surface, rendering pages where the request runs. Tests drive it
/// directly with `tower::ServiceExt::oneshot`.
pub fn router(state: AppState) -> Router {
    router_rendering_on(state, render::Renders::inline())
}

/// The whole HTTP surface, with pages rendered on `renders`' threads
/// (`server::render`).
pub fn router_rendering_on(state: AppState, renders: render::Renders) -> Router {
    router_with(state, renders, Arc::new(ops::Ops::default()))
}

/// The whole HTTP surface, with what `/readyz` and `/metrics` read besides the
/// database (`server::ops`).
pub fn router_with(state: AppState, renders: render::Renders, ops: Arc<ops::Ops>) -> Router {
    let routes = route_list().to_vec();
    // No Max-Age or Expires: the cookie dies with the browser; the server ends the
    // session itself after the idle and absolute timeouts (app::auth::session).
    let sessions = SessionManagerLayer::new(sessions::Sessions::new(&state.store.sessions))
        .with_name("wells_session")
        .with_http_only(true)
        .with_same_site(SameSite::Strict)
        .with_secure(state.settings.secure_cookies)
        .with_path("/")
        .with_expiry(Expiry::OnSessionEnd);
    Router::new()
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/metrics", get(metrics::metrics))
        .route("/sw.js", get(release::service_worker))
        .route("/pkg/{release}/{file}", get(release::app_file))
        .route("/citations/{number}/pdf", get(downloads::citation_pdf))
        .route("/reports/{id}/pdf", get(downloads::report_pdf))
        // A photo's own limit, above the JSON calls' (issue #20).
        .route(
            "/incidents/{incident_id}/photos/{photo_id}",
            get(photos::get)
                .put(photos::put)
                .layer(axum::extract::DefaultBodyLimit::max(
                    app::model::photo::MAX_BYTES + 1,
                )),
        )
        .route("/permits/{id}/pdf", get(downloads::permit_pdf))
        .route("/permits/status/pdf", get(downloads::permit_status_pdf))
        .route("/dashboard/{file}", get(downloads::dashboard_csv))
        // Static file names beside the page's `/transparency/{period}/{revision}`.
        .route(
            "/transparency/{period}/data.json",
            get(open_data::latest_json),
        )
        .route(
            "/transparency/{period}/data.csv",
            get(open_data::latest_csv),
        )
        .route(
            "/transparency/{period}/{revision}/{file}",
            get(open_data::revision),
        )
        .route(
            "/court/export",
            axum::routing::post(downloads::court_export),
        )
        .leptos_routes_with_context(
            &state,
            routes,
            {
                let state = state.clone();
                move || provide_context(state.clone())
            },
            {
                let options = state.leptos_options.clone();
                move || shell(options.clone())
            },
        )
        .fallback(leptos_axum::file_and_error_handler::<AppState, _>(shell))
        // Innermost: only the render itself moves to a render thread; who is
        // asking, the session and the checks below stay on the request threads.
        .layer(from_fn_with_state(renders, render::confine))
        // Outermost last: log → compression → headers → session cookie → who is asking → origin check.
        .layer(from_fn_with_state(
            state.clone(),
            security::same_origin_writes,
        ))
        .layer(axum::extract::DefaultBodyLimit::max(
            app::error::MAX_BODY_BYTES,
        ))
        .layer(from_fn(security::body_limit))
        .layer(from_fn_with_state(
            state.clone(),
            app::auth::session::resolve_actor,
        ))
        .layer(sessions)
        .layer(from_fn_with_state(
            state.clone(),
            security::security_headers,
        ))
        // A phone on one bar of signal downloads the WASM brotli- or gzip-compressed
        // (about a third of its size); pages and JSON too. The fastest level: it is
        // done on every response, and brotli's default (11) takes seconds on a
        // megabyte of WASM.
        .layer(
            tower_http::compression::CompressionLayer::new()
                .quality(tower_http::CompressionLevel::Fastest),
        )
        .layer(from_fn(request_log::log_request))
        .layer(from_fn(metrics::count))
        .layer(axum::Extension(ops))
        .with_state(state)
}
