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
