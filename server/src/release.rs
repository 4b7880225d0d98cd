//! Which release of the browser app this server hands out, and the service
//! worker that keeps exactly that release on the phone (issue #15).
//!
//! The release is a digest of the app's files as built (`pkg/wells.js`, `.wasm`,
//! `.css`). Pages ask for those files with `?v=<release>`, and the service
//! worker's caches are named after it, so a phone never pairs one build's page
//! with another build's WASM: a page of a new release asks for URLs the old
//! caches do not hold, and a new worker (its text changes with the release)
//! installs, fills its own caches and drops the old ones.

use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use sha2::{Digest, Sha256};
use std::path::Path;

use app::state::AppState;

/// The worker's source; `__RELEASE__` is replaced by the release when served.
const WORKER: &str = include_str!("../../public/sw.js");

/// The files that make up a release, under the site's `pkg/` directory.
const APP_FILES: [&str; 3] = ["wells.js", "wells.wasm", "wells.css"];

/// The release of the site built at `site_root`: the first 12 hex digits of a
/// SHA-256 over the app's files (a file not built, as in the Rust tests, counts
/// as empty, so the digest is still stable).
pub fn of_site(site_root: &Path) -> String {
    let mut digest = Sha256::new();
    for name in APP_FILES {
        let bytes = std::fs::read(site_root.join("pkg").join(name)).unwrap_or_default();
        digest.update(name.as_bytes());
        digest.update((bytes.len() as u64).to_le_bytes());
        digest.update(&bytes);
    }
    hex::encode(digest.finalize())[..12].to_string()
}

/// The service worker's text for `release`.
pub fn worker(release: &str) -> String {
    WORKER.replace("__RELEASE__", release)
}

/// `GET /sw.js`: the worker for the release this server serves.
pub async fn service_worker(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(CONTENT_TYPE, "text/javascript; charset=utf-8")],
        worker(&state.settings.release),
    )
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
    }

    #[test]
    fn the_worker_names_its_caches_and_files_after_the_release() {
        let text = worker("0123456789ab");
        assert!(!text.contains("__RELEASE__"), "every mark replaced");
        assert!(text.contains("const RELEASE = '0123456789ab';"), "{text}");
        assert_ne!(worker("0123456789ab"), worker("ba9876543210"));
    }
}
