//! Every path the documentation names exists (issue #34): README.md, docs/ and
//! the comments in the sources name files and folders for a newcomer to open; a
//! move that leaves one of them pointing nowhere fails here.

use std::path::{Path, PathBuf};

/// The top-level folders and files of the house a documented path starts with.
const ROOTS: &[&str] = &[
    "app/", "server/", "end2end/", "public/", "style/", "docs/", ".ci/",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The texts to read: the README, docs/*.md, and every Rust source's comments.
fn documents() -> Vec<(PathBuf, String)> {
    let root = root();
    let mut out = vec![(
        root.join("README.md"),
        std::fs::read_to_string(root.join("README.md")).expect("README"),
    )];
    for entry in std::fs::read_dir(root.join("docs"))
        .expect("docs")
        .flatten()
    {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "md") {
            let text = std::fs::read_to_string(&path).expect("a doc");
            out.push((path, text));
        }
    }
    fn sources(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        for entry in std::fs::read_dir(dir).expect("a folder").flatten() {
            let path = entry.path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if path.is_dir() && name != "target" && name != "node_modules" {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let code = std::fs::read_to_string(&path).expect("a source");
                let comments: String = code
                    .lines()
                    .filter_map(|l| l.split_once("//").map(|(_, c)| c))
                    .collect::<Vec<_>>()
                    .join("\n");
                out.push((path, comments));
            }
        }
    }
    sources(&root.join("app"), &mut out);
    sources(&root.join("server"), &mut out);
    out
}

/// The repository paths in `text`: each `backticked` word, and each markdown
/// link target, that starts with one of [`ROOTS`], without a `:line` or
/// `#anchor`. Paths with a placeholder (`<…>`, `…`, `*`, `{`) are patterns, not
/// paths, and are skipped.
fn named_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut candidates: Vec<&str> = text.split('`').skip(1).step_by(2).collect();
    candidates.extend(text.split("](").skip(1).filter_map(|s| s.split(')').next()));
    for candidate in candidates {
        let word = candidate.split_whitespace().next().unwrap_or_default();
        let word = word.split(['#', ':']).next().unwrap_or_default();
        let word = word.trim_end_matches([',', '.', ';']);
        if !ROOTS.iter().any(|r| word.starts_with(r)) {
            continue;
        }
        if word.contains(['<', '*', '{', '…', '$']) {
            continue;
        }
        found.push(word.to_string());
    }
    found
}

#[test]
fn every_path_the_documentation_names_exists() {
    let root = root();
    let mut missing = Vec::new();
    let mut checked = 0;
    for (doc, text) in documents() {
        for path in named_paths(&text) {
            checked += 1;
            if !root.join(&path).exists() {
                let doc = doc
                    .strip_prefix(&root)
                    .unwrap_or(&doc)
                    .display()
                    .to_string();
                missing.push(format!("{doc}: {path}"));
            }
        }
    }
    assert!(checked > 50, "the documents' paths were read ({checked})");
    missing.sort();
    missing.dedup();
    assert_eq!(
        missing,
        Vec::<String>::new(),
        "documented paths that do not exist"
    );
}

#[test]
fn named_paths_are_the_backticked_and_linked_paths_of_the_house() {
    let text = "See `app/domain/src/ordinance/` and [the API](docs/api.md#submit), \
                `server/tests/layers.rs:12`, `app/<crate>/src` and `cargo test`.";
    assert_eq!(
        named_paths(text),
        vec![
            "app/domain/src/ordinance/",
            "server/tests/layers.rs",
            "docs/api.md"
        ]
    );
}
