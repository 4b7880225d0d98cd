//! Pages read their data by awaiting it inside a Suspense, never by reading a
//! resource synchronously (issue #39).
//!
//! A resource read with `.get()` (or `.with`, `.read`) outside the Suspense or
//! Transition that awaits it left the page's server render waiting for ever when
//! several pages rendered at once on a multi-threaded server (the permit
//! register did, 7 renders in 12; leptos-rs/leptos#4578 reports the same shape).
//! Inside a [`Guard`](app::components::session::Guard) the signed-in user is a
//! plain value (`signed_in()`); everything else is awaited in a `Suspend`.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).expect("a folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let code = std::fs::read_to_string(&path).expect("a source");
            out.push((path, code));
        }
    }
}

/// The names bound to a resource in `code`: `let rows = Resource::new(…)`, and
/// the signed-in user's resource (`use_current_user().0`).
fn resources(code: &str) -> Vec<String> {
    code.lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("let ")?;
            let (name, value) = rest.split_once('=')?;
            let value = value.trim();
            let resource = value.starts_with("Resource::new")
                || value.starts_with("Resource::new_blocking")
                || value.starts_with("use_current_user().0");
            resource.then(|| name.trim().trim_start_matches("mut ").to_string())
        })
        .collect()
}

/// Each synchronous read of one of `names` in `code`, as `line: text`.
fn synchronous_reads(code: &str, names: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let code_part = line.split("//").next().unwrap_or_default();
        for name in names {
            for read in [
                ".get()",
                ".with(",
                ".read()",
                ".get_untracked()",
                ".track()",
            ] {
                let needle = format!("{name}{read}");
                let whole_word = code_part.match_indices(&needle).any(|(at, _)| {
                    !code_part[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                });
                if whole_word {
                    found.push(format!("{}: {}", n + 1, line.trim()));
                }
            }
        }
        if code_part.contains("use_current_user().0.get") {
            found.push(format!("{}: {}", n + 1, line.trim()));
        }
    }
    found
}

#[test]
fn no_page_reads_a_resource_outside_the_suspense_that_awaits_it() {
    let app = Path::new(env!("CARGO_MANIFEST_DIR")).join("../app/src");
    let mut files = Vec::new();
    sources(&app, &mut files);
    let mut found = Vec::new();
    let mut resources_seen = 0;
    for (path, code) in &files {
        let names = resources(code);
        resources_seen += names.len();
        for read in synchronous_reads(code, &names) {
            let path = path
                .strip_prefix(&app)
                .unwrap_or(path)
                .display()
                .to_string();
            found.push(format!("{path}:{read}"));
        }
    }
    assert!(
        resources_seen > 20,
        "the pages' resources were found ({resources_seen})"
    );
    assert_eq!(
        found,
        Vec::<String>::new(),
        "resources read outside a Suspense's await"
    );
}

#[test]
fn a_synchronous_read_is_found_and_an_await_is_not() {
    let code = "let rows = Resource::new(move || shown.get(), permit_register);\n\
                let e = Signal::derive(move || rows.get().and_then(Result::err));\n\
                let user = use_current_user().0;\n\
                Suspend::new(async move { rows.await; user.await })\n\
                let my_rows = other.get();";
    let names = resources(code);
    assert_eq!(names, ["rows", "user"]);
    assert_eq!(
        synchronous_reads(code, &names),
        ["2: let e = Signal::derive(move || rows.get().and_then(Result::err));"]
    );
}
