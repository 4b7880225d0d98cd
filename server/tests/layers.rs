//! The store's modules import one another in one direction only (issue #21).
//!
//! The crates are layered by Cargo itself (domain ← documents ← store ← app), so
//! the store cannot name `auth` or a page: that would not compile. Inside one
//! crate Rust allows modules to import each other in a circle, which is what made
//! the store hard to take apart; this test keeps it from coming back.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The store's top-level modules and the sibling modules each one names (its
/// code up to its tests; `dashboard/` counts as one module).
fn imports(store: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut found: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = vec![];
    for entry in std::fs::read_dir(store).expect("read the store").flatten() {
        let path = entry.path();
        if path.is_dir() {
            for inner in std::fs::read_dir(&path).expect("read a folder").flatten() {
                files.push((path.clone(), inner.path()));
            }
        } else {
            files.push((path.clone(), path));
        }
    }
    for (module_path, file) in files {
        if file.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let module = module_path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a file name")
            .to_string();
        let code = std::fs::read_to_string(&file).expect("read a module");
        let code = code.split("#[cfg(test)]").next().unwrap_or_default();
        let top_level = module_path == file;
        let names = found.entry(module).or_default();
        names.extend(named_after(code, "crate::"));
        if top_level {
            names.extend(named_after(code, "super::"));
        }
    }
    let modules: BTreeSet<String> = found.keys().cloned().collect();
    for (module, names) in found.iter_mut() {
        names.retain(|n| n != module && modules.contains(n));
    }
    found.remove("mod");
    found
}

/// The module names right after each `prefix` (`crate::audit`, `crate::{db, audit}`).
fn named_after(code: &str, prefix: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '_' || c.is_ascii_digit())
            .collect()
    };
    let mut names = vec![];
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            names.extend(group.split(',').map(|item| ident(item.trim())));
        } else {
            names.push(ident(rest));
        }
    }
    names.retain(|n| !n.is_empty());
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
    let store = Path::new(env!("CARGO_MANIFEST_DIR")).join("../app/src/store");
    let graph = imports(&store);
    assert!(
        graph.len() > 15,
        "the store's modules were found: {graph:?}"
    );
    assert!(
        graph["incidents"].contains("numbers") && graph["court"].contains("incidents"),
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
            "use crate::{db, audit::{self, Event}};\nuse crate::numbers;",
            "crate::"
        ),
        vec!["db", "audit", "numbers"]
    );
}
