//! Cross-site request refusal and the security headers on every response.

use app::auth::Actor;
use app::error::AppError;
use app::model::audit::AuditOutcome;
use app::state::AppState;
use app::store::audit;
use axum::extract::{Request, State};
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ORIGIN, REFERER, REFERRER_POLICY,
    STRICT_TRANSPORT_SECURITY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderName, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// The policy for responses that are not pages (pages get
/// `app::page_security_policy`, naming the nonce of their inline scripts). Strict but harmless for files and JSON.
pub const FALLBACK_CSP: &str = "default-src 'self'; object-src 'none'; base-uri 'none'; \
                                frame-ancestors 'none'; form-action 'self'";

/// A body larger than `MAX_BODY_BYTES`, by its declared length, is refused before
/// it is read: 413, naming the limit (it was a 400 "length limit exceeded").
pub async fn body_limit(request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let limit = app::error::MAX_BODY_BYTES as u64;
    if declared.is_some_and(|n| n > limit) {
        let error = AppError::TooLarge { limit_bytes: limit };
        return (error.status(), Json(error)).into_response();
    }
    next.run(request).await
}

/// Leptos server functions have no CSRF protection of their own: every request
/// that can change state must come from a page of our own origin. Browsers send
/// `Origin` on every POST (and a `Referer` when they do not); a forged form or
/// `fetch` on another site carries that site's origin, and is refused and audited.
pub async fn same_origin_writes(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let Some(refusal) = cross_origin_refusal(&request, &state.settings.public_origin) else {
        return next.run(request).await;
    };
    drop(request);
    if let Err(error) = audit::record(&state.store, state.clock.now(), &refusal).await {
        tracing::error!(?error, "could not audit a refused cross-origin request");
    }
    (AppError::Forbidden.status(), Json(AppError::Forbidden)).into_response()
}

/// `None` when the request may go on; otherwise the audit entry of its refusal.
fn cross_origin_refusal(request: &Request, expected: &str) -> Option<audit::Event> {
    if matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) {
        return None;
    }
    let header = |name| request.headers().get(name).and_then(|v| v.to_str().ok());
    let same_origin = match (header(ORIGIN), header(REFERER)) {
        (Some(origin), _) => origin == expected,
        (None, Some(referer)) => {
            referer == expected || referer.starts_with(&format!("{expected}/"))
        }
        (None, None) => false,
    };
    if same_origin {
        return None;
    }
    let actor = request.extensions().get::<Actor>();
    Some(
        audit::Event::new("request.cross_origin_refused", AuditOutcome::Denied)
            .by(
                actor,
                app::auth::session::client_address(request.extensions()).as_deref(),
            )
            .after(serde_json::json!({
                "method": request.method().as_str(),
                "path": request.uri().path(),
                "origin": header(ORIGIN),
                "referer": header(REFERER).map(|r| r.chars().take(200).collect::<String>()),
            })),
    )
}

/// Files that may be cached (and revalidated); everything else is `no-store`,
/// because pages and API answers hold criminal-justice data of the signed-in user.
fn cacheable(path: &str) -> bool {
    path.starts_with("/pkg/")
        // The license scanner (issue #20): a versioned decoder and its loader.
        || path.starts_with("/vendor/")
        || path.starts_with("/scan/")
        || (path.starts_with("/icon-") && path.ends_with(".png"))
        || matches!(path, "/favicon.svg" | "/manifest.webmanifest" | "/sw.js")
}

/// Adds the security headers to every response.
pub async fn security_headers(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    // Chosen here, not inside the page render, so the header and the page's
    // scripts always name the same nonce (app::shell reads it from the request).
    let nonce = leptos::nonce::Nonce::new();
    request.extensions_mut().insert(nonce.clone());
    let cache = if cacheable(request.uri().path()) {
        "no-cache"
    } else {
        "no-store"
    };
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let set = |headers: &mut axum::http::HeaderMap, name: HeaderName, value: &'static str| {
        headers.insert(name, HeaderValue::from_static(value));
    };
    let page = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    if page {
        if let Ok(policy) = HeaderValue::from_str(&app::page_security_policy(&nonce)) {
            headers.insert(CONTENT_SECURITY_POLICY, policy);
        }
    } else if !headers.contains_key(CONTENT_SECURITY_POLICY) {
        set(headers, CONTENT_SECURITY_POLICY, FALLBACK_CSP);
    }
    set(headers, X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(headers, REFERRER_POLICY, "same-origin");
    set(headers, X_FRAME_OPTIONS, "DENY");
    set(headers, CACHE_CONTROL, cache);
    // The camera for our own pages only: the field form reads a license's barcode
    // with it (issue #20). Nothing else the browser could hand out is used.
    set(
        headers,
        HeaderName::from_static("permissions-policy"),
        "geolocation=(self), camera=(self), microphone=(), payment=(), usb=()",
    );
    set(
        headers,
        HeaderName::from_static("cross-origin-opener-policy"),
        "same-origin",
    );
    if state.settings.is_https() {
        set(
            headers,
            STRICT_TRANSPORT_SECURITY,
            "max-age=31536000; includeSubDomains",
        );
    }
    response
}
