//! One log line per request: method, path, status, latency.

use std::time::Instant;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

pub async fn log_request(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    // The path only: query strings can carry search terms (names) that do not
    // belong in a log.
    let path = request.uri().path().to_owned();
    let response = next.run(request).await;
    tracing::info!(
        target: "request",
        %method,
        path,
        status = response.status().as_u16(),
        latency_ms = started.elapsed().as_secs_f64() * 1000.0,
    );
    response
}
