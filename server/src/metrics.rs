//! `GET /metrics` (issue #38): Prometheus text for the Town's monitoring —
//! requests by route and status, their latency, submissions, group-commit batch
//! sizes, sign-in failures, the newest backup's age and the certificate's
//! expiry. Answered to loopback, or to a scraper that shows the bearer token
//! of `--metrics-token`; anyone else gets 404, as if there were nothing.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use app::state::AppState;
use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Extension;

use crate::counters::LATENCY_BOUNDS;
use crate::ops::Ops;

/// The route a request is counted under: its pattern (`/incidents/{id}`), a
/// server function's path, or one of a few fixed names — never a free path,
/// so a scanner cannot grow the table.
fn route_of(request: &Request) -> String {
    if let Some(matched) = request.extensions().get::<MatchedPath>() {
        return matched.as_str().to_owned();
    }
    let path = request.uri().path();
    if path.starts_with("/pkg/") {
        "/pkg/{file}".to_owned()
    } else if path.starts_with("/api/") {
        path.to_owned()
    } else {
        "other".to_owned()
    }
}

/// Counts every request (the outermost layer, so refusals count too).
pub async fn count(Extension(ops): Extension<Arc<Ops>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().as_str().to_owned();
    let mut route = route_of(&request);
    let response = next.run(request).await;
    // A server function path that does not exist is not a route of its own.
    if route.starts_with("/api/") && response.status() == StatusCode::NOT_FOUND {
        route = "other".to_owned();
    }
    ops.metrics.observe(
        route,
        &method,
        response.status(),
        started.elapsed().as_secs_f64(),
    );
    response
}

/// Whether the asker may read the metrics.
fn allowed(ops: &Ops, peer: Option<SocketAddr>, headers: &HeaderMap) -> bool {
    if peer.is_some_and(|p| p.ip().is_loopback()) {
        return true;
    }
    let Some(token) = ops.metrics_token.as_deref().filter(|t| !t.is_empty()) else {
        return false;
    };
    let shown = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    constant_time_eq(shown.as_bytes(), token.as_bytes())
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `GET /metrics`.
pub async fn metrics(
    State(state): State<AppState>,
    Extension(ops): Extension<Arc<Ops>>,
    request: Request,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(p)| *p);
    if !allowed(&ops, peer, request.headers()) {
        return StatusCode::NOT_FOUND.into_response();
    }
    let text = render(&state, &ops);
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

fn render(state: &AppState, ops: &Ops) -> String {
    let mut out = String::new();
    if let Some(counts) = ops.metrics.counts() {
        out.push_str(
            "# HELP wells_http_requests_total Requests answered, by route, method and status.\n",
        );
        out.push_str("# TYPE wells_http_requests_total counter\n");
        for ((route, method, status), n) in &counts.requests {
            let _ = writeln!(
                out,
                "wells_http_requests_total{{route=\"{}\",method=\"{method}\",status=\"{status}\"}} {n}",
                escape(route)
            );
        }
        out.push_str("# HELP wells_http_request_duration_seconds Time to answer, by route.\n");
        out.push_str("# TYPE wells_http_request_duration_seconds histogram\n");
        for (route, h) in &counts.latency {
            let route = escape(route);
            for (bound, n) in LATENCY_BOUNDS.iter().zip(h.buckets) {
                let _ = writeln!(
                    out,
                    "wells_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {n}"
                );
            }
            let _ = writeln!(
                out,
                "wells_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {}",
                h.count
            );
            let _ = writeln!(
                out,
                "wells_http_request_duration_seconds_sum{{route=\"{route}\"}} {}",
                h.sum
            );
            let _ = writeln!(
                out,
                "wells_http_request_duration_seconds_count{{route=\"{route}\"}} {}",
                h.count
            );
        }
        out.push_str("# HELP wells_submissions_total Incident reports sent by officers, stored or refused.\n");
        out.push_str("# TYPE wells_submissions_total counter\n");
        for outcome in ["stored", "refused"] {
            let n = counts.submissions.get(outcome).copied().unwrap_or(0);
            let _ = writeln!(out, "wells_submissions_total{{outcome=\"{outcome}\"}} {n}");
        }
        out.push_str("# HELP wells_sign_in_failures_total Sign-ins refused (wrong password or code) or rate limited.\n");
        out.push_str("# TYPE wells_sign_in_failures_total counter\n");
        for reason in ["refused", "rate_limited"] {
            let n = counts.sign_in_failures.get(reason).copied().unwrap_or(0);
            let _ = writeln!(
                out,
                "wells_sign_in_failures_total{{reason=\"{reason}\"}} {n}"
            );
        }
    }
    let sizes = state.store.group.batch_sizes();
    let (commits, writes) = state.store.group.tally();
    out.push_str(
        "# HELP wells_group_commit_batch_size Writes committed together in one transaction.\n",
    );
    out.push_str("# TYPE wells_group_commit_batch_size histogram\n");
    let mut below = 0;
    for (bound, n) in app::store::group_commit::BATCH_BOUNDS.iter().zip(sizes) {
        below += n;
        let _ = writeln!(
            out,
            "wells_group_commit_batch_size_bucket{{le=\"{bound}\"}} {below}"
        );
    }
    let _ = writeln!(
        out,
        "wells_group_commit_batch_size_bucket{{le=\"+Inf\"}} {commits}"
    );
    let _ = writeln!(out, "wells_group_commit_batch_size_sum {writes}");
    let _ = writeln!(out, "wells_group_commit_batch_size_count {commits}");
    let now = crate::tls::now_seconds();
    if let Some(newest) = ops.newest_backup() {
        out.push_str(
            "# HELP wells_backup_age_seconds Age of the newest backup in the backup folder.\n",
        );
        out.push_str("# TYPE wells_backup_age_seconds gauge\n");
        let _ = writeln!(out, "wells_backup_age_seconds {}", now - newest);
    }
    if let Some(not_after) = ops.expiry.get() {
        out.push_str("# HELP wells_certificate_expiry_timestamp_seconds End of the served certificate's validity.\n");
        out.push_str("# TYPE wells_certificate_expiry_timestamp_seconds gauge\n");
        let _ = writeln!(
            out,
            "wells_certificate_expiry_timestamp_seconds {not_after}"
        );
        out.push_str(
            "# HELP wells_certificate_expires_in_seconds Time left on the served certificate.\n",
        );
        out.push_str("# TYPE wells_certificate_expires_in_seconds gauge\n");
        let _ = writeln!(
            out,
            "wells_certificate_expires_in_seconds {}",
            not_after - now
        );
    }
    out
}

fn escape(label: &str) -> String {
    label
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}
