//! What every request handler and server function can reach (ssr only).

use std::sync::Arc;

use axum::extract::FromRef;
use leptos::prelude::LeptosOptions;

use crate::store::Store;

/// Shared by the axum router and, through Leptos context, every server function.
#[derive(Clone, Debug, FromRef)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub store: Store,
    pub settings: Arc<Settings>,
}

/// Runtime settings the app needs (the server's CLI fills them in).
#[derive(Clone, Debug)]
pub struct Settings {
    /// The origin browsers use to reach the app, e.g. `https://log.wellspd.example`.
    pub public_origin: String,
}
