//! The request counters `/metrics` shows (issue #38), kept by the request
//! layer (`server::metrics::count`).

use std::collections::BTreeMap;
use std::sync::Mutex;

use axum::http::StatusCode;

/// Latency histogram bounds, in seconds.
pub const LATENCY_BOUNDS: [f64; 11] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The endpoints whose refusals are sign-in failures (password, second
/// factor, passkey).
const SIGN_IN_ENDPOINTS: [&str; 3] = [
    "/api/session/sign-in",
    "/api/session/second-factor",
    "/api/session/passkey/finish",
];

/// An officer's report reaching the server.
pub const SUBMIT_ENDPOINT: &str = "/api/incidents/submit";

/// Counters since the server started.
#[derive(Debug, Default)]
pub struct Metrics {
    inner: Mutex<Counts>,
}

#[derive(Debug, Default)]
pub struct Counts {
    /// (route, method, status) → requests.
    pub requests: BTreeMap<(String, String, u16), u64>,
    /// route → latency histogram.
    pub latency: BTreeMap<String, Histogram>,
    pub submissions: BTreeMap<&'static str, u64>,
    pub sign_in_failures: BTreeMap<&'static str, u64>,
}

#[derive(Debug, Default)]
pub struct Histogram {
    pub buckets: [u64; LATENCY_BOUNDS.len()],
    pub count: u64,
    pub sum: f64,
}

impl Metrics {
    /// The counts, for `/metrics` to render.
    /// `None` if a thread panicked while counting.
    pub fn counts(&self) -> Option<std::sync::MutexGuard<'_, Counts>> {
        self.inner.lock().ok()
    }

    pub fn observe(&self, route: String, method: &str, status: StatusCode, seconds: f64) {
        let Ok(mut counts) = self.inner.lock() else {
            return;
        };
        if route == SUBMIT_ENDPOINT && method == "POST" {
            let outcome = if status.is_success() {
                "stored"
            } else {
                "refused"
            };
            *counts.submissions.entry(outcome).or_default() += 1;
        }
        if SIGN_IN_ENDPOINTS.contains(&route.as_str()) {
            let reason = match status {
                StatusCode::UNAUTHORIZED | StatusCode::BAD_REQUEST => Some("refused"),
                StatusCode::TOO_MANY_REQUESTS => Some("rate_limited"),
                _ => None,
            };
            if let Some(reason) = reason {
                *counts.sign_in_failures.entry(reason).or_default() += 1;
            }
        }
        let histogram = counts.latency.entry(route.clone()).or_default();
        for (bucket, bound) in histogram.buckets.iter_mut().zip(LATENCY_BOUNDS) {
            if seconds <= bound {
                *bucket += 1;
            }
        }
        histogram.count += 1;
        histogram.sum += seconds;
        *counts
            .requests
            .entry((route, method.to_owned(), status.as_u16()))
            .or_default() += 1;
    }
}
