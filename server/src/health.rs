//! `GET /healthz` (the process answers and so does its database: load balancers
//! and `make test`'s readiness wait) and `GET /readyz` (issue #38: fit to take
//! officers' reports — the database answers, its migrations are this build's,
//! the data folder has room, the certificate is not about to expire).

use std::sync::Arc;

use app::state::AppState;
use app::store::db::Backend;
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde_json::{json, Map, Value};

use crate::ops::Ops;

/// A certificate this close to its end fails `/readyz`: renewal has failed for
/// weeks by then (ACME renews a third of the validity before the end).
pub const CERTIFICATE_MARGIN_SECONDS: i64 = 7 * 86_400;

/// 200 only when the database answers a query; 503 with the reason otherwise.
pub async fn healthz(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    match state.store.ping().await {
        Ok(()) => (StatusCode::OK, Json(json!({ "status": "ok" }))),
        Err(error) => {
            tracing::warn!(%error, "health check: database did not answer");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({ "status": "unavailable", "reason": "database did not answer" })),
            )
        }
    }
}

/// 200 when every check passes; 503 naming each one that does not.
pub async fn readyz(
    State(state): State<AppState>,
    Extension(ops): Extension<Arc<Ops>>,
) -> (StatusCode, Json<Value>) {
    let mut checks = Map::new();
    let mut ready = true;
    let mut check = |name: &str, outcome: Result<String, String>| {
        let value = match outcome {
            Ok(detail) => json!({ "ok": true, "detail": detail }),
            Err(problem) => {
                ready = false;
                json!({ "ok": false, "problem": problem })
            }
        };
        checks.insert(name.to_owned(), value);
    };
    check(
        "database",
        state
            .store
            .ping()
            .await
            .map(|()| "answers".to_owned())
            .map_err(|_| "the database did not answer".to_owned()),
    );
    let migrator = match state.store.backend {
        Backend::Sqlite => &app::store::MIGRATOR,
        Backend::Postgres => &app::store::POSTGRES_MIGRATOR,
    };
    check(
        "migrations",
        match app::store::versions::current(&state.store.reader, migrator).await {
            Ok(true) => Ok("current".to_owned()),
            Ok(false) => Err("migrations of this release are not applied".to_owned()),
            Err(refusal) => Err(refusal),
        },
    );
    check("disk", disk(&ops));
    if ops.https {
        check("certificate", certificate(&ops, crate::tls::now_seconds()));
    }
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let word = if ready { "ready" } else { "not ready" };
    (status, Json(json!({ "status": word, "checks": checks })))
}

fn disk(ops: &Ops) -> Result<String, String> {
    let free = ops.free_bytes()?;
    let mb = |bytes: u64| bytes / 1_048_576;
    if free < ops.min_free_bytes {
        return Err(format!(
            "{} MB free in {}, below the {} MB of --min-free-disk-mb",
            mb(free),
            ops.data_dir.display(),
            mb(ops.min_free_bytes)
        ));
    }
    Ok(format!("{} MB free", mb(free)))
}

/// The served certificate has more than [`CERTIFICATE_MARGIN_SECONDS`] left.
pub fn certificate(ops: &Ops, now: i64) -> Result<String, String> {
    let Some(not_after) = ops.expiry.get() else {
        return Err("no certificate yet (see the log for the ACME order)".to_owned());
    };
    let until = crate::tls::files::shown_time(not_after);
    if not_after - now < CERTIFICATE_MARGIN_SECONDS {
        return Err(format!("the certificate ends {until}, within 7 days"));
    }
    Ok(format!("valid until {until}"))
}
