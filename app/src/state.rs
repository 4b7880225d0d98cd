//! What every request handler and server function can reach (ssr only).

use std::sync::Arc;

use axum::extract::FromRef;
use leptos::prelude::LeptosOptions;

use crate::auth::clock::Clock;
use crate::auth::rate_limit::RateLimiter;
use crate::store::Store;

/// Shared by the axum router and, through Leptos context, every server function.
#[derive(Clone, Debug, FromRef)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub store: Store,
    pub settings: Arc<Settings>,
    pub clock: Arc<dyn Clock>,
    pub sign_in_limiter: Arc<RateLimiter>,
    /// The key sealing authenticator secrets and the passkey relying party (#18).
    pub second_factor: Arc<crate::auth::second_factor::SecondFactorKit>,
}

/// Runtime settings the app needs (the server's CLI fills them in).
#[derive(Clone, Debug)]
pub struct Settings {
    /// The origin browsers use to reach the app, e.g. `https://log.wellspd.example`.
    pub public_origin: String,
    /// A session unused this long ends (CJIS AC-11: 30 minutes).
    pub idle_timeout_ms: i64,
    /// A session ends this long after sign-in, however active (12 hours).
    pub absolute_timeout_ms: i64,
    /// Send the session cookie only over HTTPS (on whenever the origin is https).
    pub secure_cookies: bool,
    /// The zone times are shown and printed in.
    pub town_zone: crate::town_time::TownZone,
    /// The browser app's build this server hands out (`server::release`): pages
    /// ask for its files with `?v=` this, and the service worker's caches bear it.
    pub release: String,
}

impl Settings {
    pub fn is_https(&self) -> bool {
        self.public_origin.starts_with("https://")
    }
}
