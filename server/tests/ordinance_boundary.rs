//! Chapter 52 is written in one place: `app/domain/src/ordinance/` (issue #14). No fine
//! amount or filing-day count is typed anywhere else in the product's code or in
//! its live database schema; everything else asks the ordinance.

mod support;

use app::store::db::Backend;

use support::TestApp;

/// What must not be typed outside the ordinance: the §52-4 and §52-12 amounts in
/// any form a page or document would print them, and the days to file.
const CHAPTER_52_LITERALS: &[&str] = &[
    "$100",
    "100.00",
    "$1,000",
    "1,000.00",
    "10000",
    "10_000",
    "100000",
    "5 days",
    "five days",
    "5-day",
    "FILING_DAYS: u32 =",
];

/// The product's code in `dir` (Rust), each file up to its tests.
fn sources(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("read source");
            let code = text
                .split("#[cfg(test)]")
                .next()
                .unwrap_or_default()
                .to_owned();
            out.push((path, code));
        }
    }
}

/// Whether `line` holds `literal` as a number of its own: "365 days" does not
/// hold "5 days", nor "10_000_000" "10_000".
fn mentions(line: &str, literal: &str) -> bool {
    let part_of_number = |c: char| c.is_ascii_digit() || c == '_' || c == ',' || c == '.';
    line.match_indices(literal).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + literal.len()..].chars().next();
        let starts_numeric = literal.starts_with(|c: char| c.is_ascii_digit());
        let ends_numeric = literal.ends_with(|c: char| c.is_ascii_digit());
        let glued_before = starts_numeric && before.is_some_and(part_of_number);
        let glued_after = ends_numeric && after.is_some_and(|c| c.is_ascii_digit() || c == '_');
        !(glued_before || glued_after)
    })
}

#[test]
fn mentions_finds_numbers_of_their_own_only() {
    assert!(mentions("within 5 days of issuance", "5 days"));
    assert!(!mentions("the 365 days up to today", "5 days"));
    assert!(mentions("fine_cents: 10_000,", "10_000"));
    assert!(!mentions("gen_range(0..10_000_000)", "10_000"));
    assert!(mentions("Each fine: $100.00", "$100"));
}

#[test]
fn no_fine_amount_or_filing_day_count_is_written_outside_the_ordinance() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let ordinance = root.join("app/domain/src/ordinance");
    let mut files = Vec::new();
    sources(&root.join("app"), &mut files);
    sources(&root.join("server/src"), &mut files);
    assert!(files.len() > 50, "the product's sources were found");
    let mut found = Vec::new();
    for (path, code) in &files {
        if path.starts_with(&ordinance) {
            continue;
        }
        for (n, line) in code.lines().enumerate() {
            // A thousands limit on a rate table is not a fine.
            if line.contains("windows.len()") {
                continue;
            }
            for literal in CHAPTER_52_LITERALS {
                if mentions(line, literal) {
                    found.push(format!(
                        "{}:{}: {literal}: {}",
                        path.display(),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert_eq!(found, Vec::<String>::new());
    // And the ordinance does hold them.
    let mut law = Vec::new();
    sources(&ordinance, &mut law);
    let all: String = law.iter().map(|(_, c)| c.as_str()).collect();
    assert!(all.contains("fine_cents: 10_000"));
    assert!(all.contains("pub const FILING_DAYS: u32 = 5;"));
}

#[tokio::test]
async fn the_live_schema_checks_no_fine_amount() {
    let app = TestApp::new().await;
    // Every CHECK, index and trigger as the database keeps it.
    let schema: Vec<(String,)> = sqlx::query_as(match app.state.store.backend {
        Backend::Sqlite => "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL",
        Backend::Postgres => {
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint \
             WHERE connamespace = 'public'::regnamespace \
             UNION ALL SELECT prosrc FROM pg_proc WHERE pronamespace = 'public'::regnamespace \
             UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'"
        }
    })
    .fetch_all(&app.state.store.reader)
    .await
    .expect("schema");
    for (sql,) in schema {
        assert!(!sql.contains("10000"), "{sql}");
    }
}
