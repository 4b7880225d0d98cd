//! Which release of the browser app this server hands out, and the service
//! worker that keeps exactly that release on the phone (issue #15).
//!
//! The release is a digest of every file of the built app (`pkg/`: the WASM,
//! its JS, the CSS, and in a split build the on-demand pages' WASM files and
//! their loader). The server hands those files out under
//! `/pkg/<release>/<file>` only, and the service worker's caches are named after
//! the release, so a phone never pairs one build's page with another build's
//! WASM: a page asks for its own release's files, and the split loader fetches
//! an on-demand page relative to the JS that asked, so under the same release.
//! A page of a release the server no longer holds gets 404s (its phone's cache
//! answers, or the page is reloaded), never another build's code. A new worker
//! (its text changes with the release) installs, fills its own caches and
//! drops the old ones.

use axum::body::Body;
use axum::extract::{Path as UrlPath, Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use tower::ServiceExt;
use tower_http::services::ServeFile;

use app::state::AppState;

/// The worker's source; `__RELEASE__` and `__SPLIT_FILES__` are replaced when
/// served.
const WORKER: &str = include_str!("../../public/sw.js");

/// The app's files of the site built at `site_root`, by name, sorted: what a
/// release is made of. Type declarations (`.d.ts`) are for editors, not phones.
pub fn app_files(site_root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(site_root.join("pkg"))
        .map(|dir| {
            dir.filter_map(Result::ok)
                .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
                .filter_map(|entry| entry.file_name().into_string().ok())
                .filter(|name| servable(name))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// A file name the app's files may have: no path, no hidden file, no `.d.ts`.
fn servable(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && !name.ends_with(".d.ts")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// The release of the site built at `site_root`: the first 12 hex digits of a
/// SHA-256 over its app files, names and contents (no files, as in the Rust
/// tests, is still a stable release).
pub fn of_site(site_root: &Path) -> String {
    let mut digest = Sha256::new();
    for name in app_files(site_root) {
        let bytes = std::fs::read(site_root.join("pkg").join(&name)).unwrap_or_default();
        digest.update(name.as_bytes());
        digest.update((bytes.len() as u64).to_le_bytes());
        digest.update(&bytes);
    }
    hex::encode(digest.finalize())[..12].to_string()
}

/// The split build's files (the loader and the on-demand pages' WASM) that the
/// worker keeps beside the main ones; none in a build that does not split.
fn split_files(site_root: &Path) -> Vec<String> {
    app_files(site_root)
        .into_iter()
        .filter(|name| {
            name.starts_with("__wasm_split")
                || (name.ends_with(".wasm")
                    && (name.starts_with("split_") || name.starts_with("chunk_")))
        })
        .collect()
}

/// The service worker's text for `release`, keeping `split` as well.
pub fn worker(release: &str, split: &[String]) -> String {
    let split = serde_json::to_string(split).unwrap_or_else(|_| "[]".into());
    WORKER
        .replace("__RELEASE__", release)
        .replace("'__SPLIT_FILES__'", &split)
}

/// `GET /sw.js`: the worker for the release this server serves.
pub async fn service_worker(State(state): State<AppState>) -> impl IntoResponse {
    let site_root = PathBuf::from(state.leptos_options.site_root.as_ref());
    (
        [(CONTENT_TYPE, "text/javascript; charset=utf-8")],
        worker(&state.settings.release, &split_files(&site_root)),
    )
}

/// `GET /pkg/{release}/{file}`: one of the app's files, if `release` is the one
/// this server serves (another release's page must not run this build's code).
pub async fn app_file(
    State(state): State<AppState>,
    UrlPath((release, file)): UrlPath<(String, String)>,
    request: Request,
) -> Response {
    if release != state.settings.release || !servable(&file) {
        return (
            StatusCode::NOT_FOUND,
            "Not found: this page is from another release of the app. Reload the page.",
        )
            .into_response();
    }
    let path = PathBuf::from(state.leptos_options.site_root.as_ref())
        .join("pkg")
        .join(file);
    // A release build (`make release`) wrote each file brotli- and gzip-compressed
    // at their best levels: a third less for the WASM than compressing on the fly.
    let file = ServeFile::new(path).precompressed_br().precompressed_gzip();
    match file.oneshot(request).await {
        Ok(response) => response.map(Body::new),
        Err(never) => match never {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_release_changes_when_any_app_file_changes() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("pkg")).expect("pkg");
        let write = |name: &str, bytes: &[u8]| {
            std::fs::write(dir.path().join("pkg").join(name), bytes).expect("write")
        };
        write("wells.js", b"js");
        write("wells.wasm", b"wasm one");
        write("wells.css", b"css");
        let first = of_site(dir.path());
        assert_eq!(first.len(), 12);
        assert_eq!(of_site(dir.path()), first, "same files, same release");
        write("wells.wasm", b"wasm two");
        let second = of_site(dir.path());
        assert_ne!(second, first, "a new WASM is a new release");
        write("wells.css", b"css, restyled");
        assert_ne!(
            of_site(dir.path()),
            second,
            "a new stylesheet is a new release"
        );
        let third = of_site(dir.path());
        write("split___desk_queue_route_view_1.wasm", b"the desk");
        write("__wasm_split.______________________.js", b"loader");
        let fourth = of_site(dir.path());
        assert_ne!(fourth, third, "an on-demand page is part of the release");
        write("wells.d.ts", b"types");
        assert_eq!(of_site(dir.path()), fourth, "editor files are not");
        assert_eq!(
            split_files(dir.path()),
            [
                "__wasm_split.______________________.js",
                "split___desk_queue_route_view_1.wasm"
            ],
            "the worker keeps the split files"
        );
    }

    #[test]
    fn the_worker_names_its_caches_and_files_after_the_release() {
        let split = vec!["split_desk.wasm".to_string()];
        let text = worker("0123456789ab", &split);
        assert!(!text.contains("__RELEASE__"), "every mark replaced");
        assert!(!text.contains("__SPLIT_FILES__"), "every mark replaced");
        assert!(text.contains("const RELEASE = '0123456789ab';"), "{text}");
        assert!(text.contains(r#"["split_desk.wasm"]"#), "{text}");
        assert_ne!(
            worker("0123456789ab", &split),
            worker("ba9876543210", &split)
        );
    }
}
