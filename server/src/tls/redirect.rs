//! The plain-HTTP listener (`--redirect-listen`): every request is sent on to
//! the same path on the HTTPS origin (308, method and body kept); with
//! `--acme-challenge http-01` it also answers the authority's
//! `/.well-known/acme-challenge/` requests. Nothing else is served in clear.

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;

/// The redirecting router for `origin` (`https://host[:port]`).
pub fn router(
    origin: String,
    http01: Option<rustls_acme::tower::TowerHttp01ChallengeService>,
) -> Router {
    let redirect = move |uri: Uri| {
        let origin = origin.clone();
        async move { redirect_to(&origin, &uri) }
    };
    let router = Router::new().fallback(redirect);
    match http01 {
        Some(service) => router.route_service("/.well-known/acme-challenge/{token}", service),
        None => router,
    }
}

fn redirect_to(origin: &str, uri: &Uri) -> Response {
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let location = format!("{origin}{path}");
    (
        StatusCode::PERMANENT_REDIRECT,
        [
            (header::LOCATION, location),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
    )
        .into_response()
}

/// Serves the redirect on `address` until the process ends.
pub async fn serve(address: std::net::SocketAddr, router: Router) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(address).await.map_err(|e| {
        format!("--redirect-listen (WELLS_REDIRECT_LISTEN) {address}: cannot listen: {e}")
    })?;
    tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, router).await {
            tracing::error!(%error, "the redirect listener stopped");
        }
    });
    Ok(())
}
