//! Where pages are rendered (issue #39): on render threads of their own, each
//! rendering on one thread, while the API, static files and everything else run
//! on the multi-threaded runtime.
//!
//! Leptos's reactive graph (reactive_graph 0.2) takes its locks in different
//! orders on different paths of a server render — a Suspense's effect clearing
//! its sources while a resource's future marks that effect dirty
//! (leptos-rs/leptos#4673; #4578 for Suspense boundaries sharing resources). When
//! a render's tasks ran on two worker threads at the same instant, each took one
//! lock and waited for the other's: the whole server stopped answering. Until
//! issue #39 the server therefore ran on one thread, and every request waited
//! behind every other one's work.
//!
//! Now a page's render and every task it spawns run on one render thread (a
//! `LocalPoolHandle` worker: a single-threaded runtime, on which Leptos's
//! `tokio::spawn` stays), so no two of its tasks ever run at once; there is one
//! such thread per core, and the least busy takes the next page. The rendered
//! page is collected there and handed back whole (`SsrMode::Async` renders the
//! page completely before its first byte anyway), so no reactive work is left to
//! run on the request threads. `tests/render_hang.rs` renders pages
//! concurrently on a multi-threaded server and fails on a page not answered.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio_util::task::LocalPoolHandle;

/// The render threads, or none: render where the request runs (a server on one
/// thread has nothing to confine renders from).
#[derive(Clone, Debug)]
pub struct Renders {
    pool: Option<LocalPoolHandle>,
}

impl Renders {
    /// `threads` render threads; 0 renders on the request threads.
    pub fn new(threads: usize) -> Renders {
        Renders {
            pool: (threads > 0).then(|| LocalPoolHandle::new(threads)),
        }
    }

    /// Renders on the request threads (a one-thread server, and tests that drive
    /// the router inside a test's own runtime).
    pub fn inline() -> Renders {
        Renders { pool: None }
    }

    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(0, LocalPoolHandle::num_threads)
    }
}

/// Whether the request is a page the app renders: a GET or HEAD that is not a
/// server function (`/api/…`), the app's files, a download or a health check —
/// the routes `server::router` answers itself never reach Leptos's renderer.
fn renders_a_page(request: &Request) -> bool {
    const NOT_PAGES: &[&str] = &[
        "/api/",
        "/pkg/",
        "/healthz",
        "/readyz",
        "/metrics",
        "/sw.js",
        "/citations/",
        "/reports/",
        "/incidents/",
        "/dashboard/",
        "/court/export",
    ];
    let path = request.uri().path();
    matches!(*request.method(), Method::GET | Method::HEAD)
        && !NOT_PAGES.iter().any(|p| path.starts_with(p))
        && !(path.starts_with("/permits/") && path.ends_with("/pdf"))
}

/// Middleware: a page's render goes to a render thread; anything else goes on.
pub async fn confine(State(renders): State<Renders>, request: Request, next: Next) -> Response {
    let Some(pool) = renders.pool.filter(|_| renders_a_page(&request)) else {
        return next.run(request).await;
    };
    let rendered = pool.spawn_pinned(move || async move {
        let (parts, body) = next.run(request).await.into_parts();
        // Collected on the render thread: whatever of the render the body's
        // stream still holds runs here, not on the request threads.
        match axum::body::to_bytes(body, usize::MAX).await {
            Ok(bytes) => Response::from_parts(parts, Body::from(bytes)),
            Err(error) => {
                tracing::error!(%error, "a page's render failed while collected");
                StatusCode::INTERNAL_SERVER_ERROR.into_response()
            }
        }
    });
    match rendered.await {
        Ok(response) => response,
        Err(error) => {
            tracing::error!(%error, "a page's render panicked or was cancelled");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: Method, path: &str) -> Request {
        Request::builder()
            .method(method)
            .uri(path)
            .body(Body::empty())
            .expect("request")
    }

    #[test]
    fn pages_are_rendered_and_the_rest_is_not() {
        for page in [
            "/",
            "/review",
            "/register?page=2",
            "/permits/apply",
            "/field/new",
            "/nowhere",
        ] {
            assert!(renders_a_page(&request(Method::GET, page)), "{page}");
        }
        for other in [
            "/api/incidents/submit",
            "/pkg/abc/wells.wasm",
            "/healthz",
            "/citations/WPD-2026-000001/pdf",
            "/reports/0190/pdf",
            "/permits/0190/pdf",
            "/dashboard/by-hour.csv",
        ] {
            assert!(!renders_a_page(&request(Method::GET, other)), "{other}");
        }
        assert!(!renders_a_page(&request(
            Method::POST,
            "/api/session/sign-in"
        )));
    }
}
