//! The store's modules import one another in one direction only (issue #21).
//!
//! The crates are layered by Cargo itself (domain ← documents ← store ← app), so
//! the store cannot name `auth` or a page: that would not compile. Inside one
//! crate Rust allows modules to import each other in a circle, which is what made
//! the store hard to take apart; this test keeps it from coming back.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The store's top-level modules and the sibling modules each one names: its
/// code up to its tests, without comments. `dashboard/` counts as one module.
///
/// The crate's root (`mod.rs`) is not one of them. It holds `Store`, the handle
/// every module's functions take, and opening it runs the modules' start-up
/// work (migrating first-version reports, starting the group commit): a root
/// and its modules name each other in every crate. Everything else lives in a
/// module, and those form no circle.
fn imports(store: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut code_of: BTreeMap<String, Vec<(bool, String)>> = BTreeMap::new();
    for entry in std::fs::read_dir(store).expect("read the store").flatten() {
        let path = entry.path();
        let module = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a file name")
            .to_string();
        let files = if path.is_dir() {
            let inner = std::fs::read_dir(&path).expect("read a folder").flatten();
            inner.map(|e| e.path()).collect()
        } else {
            vec![path]
        };
        for file in files {
            if file.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            // In a folder's `mod.rs`, as in a top-level file, `super` is the root.
            let super_is_root = file.parent() == Some(store) || file.ends_with("mod.rs");
            let code = std::fs::read_to_string(&file).expect("read a module");
            code_of
                .entry(module.clone())
                .or_default()
                .push((super_is_root, without_comments(&code)));
        }
    }
    code_of.remove("mod");
    let modules: BTreeSet<String> = code_of.keys().cloned().collect();
    let mut graph = BTreeMap::new();
    for (module, files) in &code_of {
        let mut names = BTreeSet::new();
        for (super_is_root, code) in files {
            names.extend(named_after(code, "crate::"));
            if *super_is_root {
                names.extend(named_after(code, "super::"));
            }
        }
        // The root's own items (`Store`) and the domain's are not siblings.
        names.retain(|n| n != module && modules.contains(n));
        graph.insert(module.clone(), names);
    }
    graph
}

/// `code` up to its tests, without `//` comments (a doc comment may name any
/// module).
fn without_comments(code: &str) -> String {
    let code = code
        .split("\n#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or_default();
    code.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first name of each path right after `prefix`: `crate::audit::Event` names
/// `audit`, `crate::{db::Pool, audit::{self, Event}, Store}` names `db`, `audit`
/// and `Store`.
fn named_after(code: &str, prefix: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = vec![];
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        let Some(group) = rest.strip_prefix('{') else {
            names.push(ident(rest));
            continue;
        };
        // The group's items at its own depth, up to its closing brace.
        let (mut depth, mut item_start) = (0, 0);
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    names.push(ident(&group[item_start..i]));
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    names.push(ident(&group[item_start..i]));
                    item_start = i + 1;
                }
                _ => {}
            }
        }
    }
    names.retain(|n| !n.is_empty() && n != "self");
    names
}

/// A circle of imports among `graph`'s modules, if there is one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn walk(
        module: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == module) {
            let mut found = path[start..].to_vec();
            found.push(module.to_string());
            return Some(found);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_string());
        for next in graph.get(module).into_iter().flatten() {
            if let Some(found) = walk(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(module.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| walk(m, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_store_modules_import_one_another_in_one_direction() {
    let store = Path::new(env!("CARGO_MANIFEST_DIR")).join("../app/store/src");
    let graph = imports(&store);
    assert!(
        graph.len() > 15,
        "the store's modules were found: {graph:?}"
    );
    assert!(
        graph["incidents"].contains("numbers")
            && graph["court"].contains("incidents")
            && graph["review"].contains("incidents")
            && graph["dashboard"].contains("register"),
        "imports are read: {graph:?}"
    );
    if let Some(found) = circle(&graph) {
        panic!(
            "the store's modules import each other in a circle: {}",
            found.join(" → ")
        );
    }
}

#[test]
fn a_circle_is_found_when_there_is_one() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(m, to)| (m.to_string(), to.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(
        circle(&graph),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    let mut line = graph.clone();
    line.get_mut("c").expect("c").clear();
    assert_eq!(circle(&line), None);
    assert_eq!(
        named_after(
            "use crate::{db::Pool, audit::{self, Event}, numbers};\nuse crate::Store;",
            "crate::"
        ),
        vec!["db", "audit", "numbers", "Store"]
    );
    assert_eq!(without_comments("a // numbers::x\nb"), "a \nb");
}

// ---- Every crate's modules, file by file (issue #34) ----
//
// The same rule for each crate of the house: no file's module imports, through any
// chain of others, a module that imports it. A module naming its own submodules (a
// folder's `mod.rs` declaring and re-exporting them) is how Rust lays out a folder,
// not an import, and is not counted; a submodule naming its parent is.

/// A module's path inside its crate: `model/incident.rs` is `["model", "incident"]`,
/// a folder's `mod.rs` the folder, `lib.rs` the root `[]`.
type ModPath = Vec<String>;

fn module_path(src: &Path, file: &Path) -> ModPath {
    let relative = file.strip_prefix(src).expect("a file of the crate");
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// Every module file of a crate, with its code up to its tests and without
/// comments. Test modules (`tests.rs`, `*_tests.rs`) are not part of the layers.
fn crate_modules(src: &Path) -> BTreeMap<ModPath, String> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("read a folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(src, &mut files);
    files
        .into_iter()
        .filter(|f| {
            let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            stem != "tests" && !stem.ends_with("_tests")
        })
        .map(|f| {
            let code = std::fs::read_to_string(&f).expect("read a module");
            let code = code.split("\n#[cfg(test)]").next().unwrap_or_default();
            (module_path(src, &f), without_comments(code))
        })
        .collect()
}

/// The paths written in `code` that start with `crate::`, `super::`, `self::` or
/// a name followed by `::`, each expanded through its `{…}` groups:
/// `crate::model::{incident::A, court}` gives `crate model incident A` and
/// `crate model court`.
fn written_paths(code: &str) -> Vec<Vec<String>> {
    fn ident(s: &str) -> usize {
        s.char_indices()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
            .map_or(s.len(), |(i, _)| i)
    }
    /// Parses one use-tree at `s` after `prefix`, pushing every full path; returns
    /// how many bytes it read.
    fn tree(s: &str, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
        let mut at = 0;
        let mut path = prefix.to_vec();
        loop {
            let rest = &s[at..];
            let skipped = rest.len() - rest.trim_start().len();
            at += skipped;
            let rest = &s[at..];
            if let Some(group) = rest.strip_prefix('{') {
                at += 1;
                let mut inner = group;
                loop {
                    let used = tree(inner, &path, out);
                    at += used;
                    inner = &inner[used..];
                    let trimmed = inner.trim_start();
                    at += inner.len() - trimmed.len();
                    inner = trimmed;
                    if let Some(next) = inner.strip_prefix(',') {
                        at += 1;
                        inner = next;
                    } else {
                        if inner.starts_with('}') {
                            at += 1;
                        }
                        return at;
                    }
                }
            }
            let n = ident(rest);
            if n == 0 {
                break;
            }
            path.push(rest[..n].to_string());
            at += n;
            if let Some(after) = s[at..].strip_prefix("::") {
                let _ = after;
                at += 2;
            } else {
                break;
            }
        }
        if path.len() > prefix.len() {
            out.push(path);
        }
        at
    }
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let starts_word = i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || bytes[i - 1] == b'_'
                || bytes[i - 1] == b':');
        let n = if starts_word { ident(&code[i..]) } else { 0 };
        if n > 0 && code[i + n..].starts_with("::") {
            let used = tree(&code[i..], &[], &mut out);
            i += used.max(1);
        } else {
            i += code[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

/// The modules of the crate that `module`'s code names: each written path resolved
/// to the longest module it runs through.
fn named_modules(module: &ModPath, code: &str, modules: &BTreeSet<ModPath>) -> BTreeSet<ModPath> {
    let mut named = BTreeSet::new();
    for path in written_paths(code) {
        let mut base: ModPath = match path[0].as_str() {
            "crate" => Vec::new(),
            "self" | "super" => module.clone(),
            _ => {
                // A bare name is one of this module's own submodules, or nothing
                // of the crate's (another crate, a type, a variant).
                let mut child = module.clone();
                child.push(path[0].clone());
                if !modules.contains(&child) {
                    continue;
                }
                module.clone()
            }
        };
        let mut rest = match path[0].as_str() {
            "crate" | "self" => &path[1..],
            "super" => &path[..],
            _ => &path[..],
        };
        while let Some(("super", tail)) = rest.split_first().map(|(h, t)| (h.as_str(), t)) {
            base.pop();
            rest = tail;
        }
        let mut resolved = base.clone();
        for segment in rest {
            let mut next = resolved.clone();
            next.push(segment.clone());
            if modules.contains(&next) {
                resolved = next;
            } else {
                break;
            }
        }
        let own_submodule = resolved.len() > module.len() && resolved.starts_with(module);
        if &resolved != module && !own_submodule {
            named.insert(resolved);
        }
    }
    named
}

fn crate_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let modules = crate_modules(src);
    let names: BTreeSet<ModPath> = modules.keys().cloned().collect();
    let shown = |m: &ModPath| {
        if m.is_empty() {
            "crate".to_string()
        } else {
            m.join("::")
        }
    };
    modules
        .iter()
        .map(|(m, code)| {
            let to = named_modules(m, code, &names).iter().map(shown).collect();
            (shown(m), to)
        })
        .collect()
}

#[test]
fn no_crate_s_modules_import_one_another_in_a_circle() {
    let app = Path::new(env!("CARGO_MANIFEST_DIR")).join("../app");
    let crates = [
        ("domain", app.join("domain/src")),
        ("documents", app.join("documents/src")),
        ("store", app.join("store/src")),
        ("app", app.join("src")),
    ];
    let mut circles = Vec::new();
    for (name, src) in &crates {
        let graph = crate_graph(src);
        assert!(graph.len() > 5, "{name}'s modules were found: {graph:?}");
        if let Some(found) = circle(&graph) {
            circles.push(format!("{name}: {}", found.join(" → ")));
        }
    }
    assert_eq!(
        circles,
        Vec::<String>::new(),
        "modules that import each other in a circle"
    );
}

#[test]
fn the_domain_s_and_the_pages_imports_are_read() {
    let app = Path::new(env!("CARGO_MANIFEST_DIR")).join("../app");
    let domain = crate_graph(&app.join("domain/src"));
    let has = |g: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str| {
        g.get(from).is_some_and(|t| t.contains(to))
    };
    assert!(
        has(&domain, "model::citation", "model::incident"),
        "{domain:?}"
    );
    assert!(
        has(&domain, "model::court", "model::citation"),
        "{domain:?}"
    );
    assert!(has(
        &domain,
        "ordinance::article_i::decision",
        "ordinance::article_i::facts"
    ));
    let pages = crate_graph(&app.join("src"));
    assert!(
        has(&pages, "pages::permits::public", "pages::permits::form"),
        "{pages:?}"
    );
    // A folder naming its own submodules is not an import; a submodule naming its
    // folder is.
    assert!(!has(&domain, "ordinance", "ordinance::article_i"));
    assert!(has(&domain, "ordinance::article_i::decision", "ordinance"));
}

#[test]
fn written_paths_are_expanded_through_their_groups() {
    assert_eq!(
        written_paths("use crate::model::{incident::{A, B}, court};\nlet x = super::draft::f();"),
        vec![
            vec!["crate", "model", "incident", "A"],
            vec!["crate", "model", "incident", "B"],
            vec!["crate", "model", "court"],
            vec!["super", "draft", "f"],
        ]
    );
}
