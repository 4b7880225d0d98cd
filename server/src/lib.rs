//! The Wells loitering log server: the axum router around the Leptos app, plus the
//! routes that are not pages (health, downloads) and the CLI subcommands.

pub mod config;
pub mod health;
pub mod request_log;

use std::sync::Arc;

use app::state::{AppState, Settings};
use app::store::Store;
use app::{shell, App};
use axum::routing::get;
use axum::Router;
use leptos::prelude::*;
use leptos_axum::{generate_route_list, LeptosRoutes};

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
pub fn app_state(store: Store, serve: &config::Serve) -> AppState {
    AppState {
        leptos_options: leptos_options(serve),
        store,
        settings: Arc::new(Settings {
            public_origin: serve.public_origin(),
        }),
    }
}

/// The whole HTTP surface. Tests drive it directly with `tower::ServiceExt::oneshot`.
pub fn router(state: AppState) -> Router {
    let routes = generate_route_list(App);
    Router::new()
        .route("/healthz", get(health::healthz))
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
        .layer(axum::middleware::from_fn(request_log::log_request))
        .with_state(state)
}
