//! Records stored before each person's facts were recorded separately (issue #14)
//! survive the move: a database written by the first version opens, every report
//! reads, prints and exports exactly as that version answered, nothing decided
//! changes, the revisions stay as stored, and the audit chain still verifies.
//! The fixture and what the first version answered for it are described in
//! `tests/fixtures/README.md`.

mod support;

use std::io::Read;

use axum::http::StatusCode;
use serde_json::{json, Value};
use server::config::Serve;
use support::TestApp;

const CHIEF: (&str, &str) = ("fixture-chief", "long pass phrase for casey here");
const CLERK: (&str, &str) = ("fixture-clerk", "long pass phrase for cleo here");
/// 2026-12-05 12:00 UTC: after every record of the fixture.
const AFTER: i64 = 1_796_472_000_000;

fn gunzip(path: &str) -> Vec<u8> {
    let file = std::fs::File::open(path).expect("fixture");
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut out)
        .expect("gunzip");
    out
}

fn printed() -> Value {
    serde_json::from_slice(&gunzip("tests/fixtures/first-version-printed.json.gz"))
        .expect("printed fixture")
}

/// The first version's database in a directory of its own, as it was stored.
fn first_version_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("wells.db"),
        gunzip("tests/fixtures/first-version.db.gz"),
    )
    .expect("write fixture");
    dir
}

/// Rows as they are in the file, read without the app (and before it migrates).
async fn raw(dir: &std::path::Path, sql: &str) -> Vec<(String, String)> {
    let pool = sqlx::SqlitePool::connect(&format!(
        "sqlite://{}?mode=ro",
        dir.join("wells.db").display()
    ))
    .await
    .expect("open raw");
    let rows = sqlx::query_as(sql)
        .fetch_all(&pool)
        .await
        .expect("raw query");
    pool.close().await;
    rows
}

async fn opened() -> TestApp {
    let app = TestApp::in_dir(
        first_version_dir(),
        Serve {
            sign_in_per_minute: 10_000,
            ..Serve::default()
        },
    )
    .await;
    let now = app.clock_now().0;
    app.clock.advance_ms(AFTER - now);
    app
}

async fn session(app: &TestApp, who: (&str, &str)) -> String {
    app.sign_in_as(who.0, who.1)
        .await
        .cookie()
        .expect("signed in")
}

async fn call(app: &TestApp, cookie: &str, endpoint: &str, body: Value) -> Value {
    let reply = app
        .post(&format!("/api/{endpoint}"), body, Some(cookie))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{endpoint}: {}", reply.body);
    reply.json()
}

/// Every key the first version answered holds the same value now (new keys may
/// be added beside them).
fn assert_same_as_printed(now: &Value, then: &Value, what: &str) {
    let then = then.as_object().expect("object");
    for (key, value) in then {
        assert_eq!(&now[key], value, "{what}: `{key}` changed");
    }
}

#[tokio::test]
async fn the_first_versions_records_move_to_per_person_facts_without_a_change_to_what_was_decided()
{
    if support::postgres::sqlite_only("first-version database files") {
        return;
    }
    let dir = first_version_dir();
    let revisions_before = raw(
        dir.path(),
        "SELECT incident_id || ':' || revision, report_json FROM incident_revision ORDER BY 1",
    )
    .await;
    let outcomes_before = raw(
        dir.path(),
        "SELECT subject_id, COALESCE(offence, '') || '|' || outcome || '|' || COALESCE(withdrawn_at, '') \
         FROM subject ORDER BY 1",
    )
    .await;
    let citations_before = raw(
        dir.path(),
        "SELECT number, subject_id || '|' || offence || '|' || status || '|' || arrest || '|' || fine_cents \
         FROM citation ORDER BY 1",
    )
    .await;
    assert_eq!(revisions_before.len(), 168);
    let app = TestApp::in_dir(dir, Serve::default()).await;
    let dir = app.dir.path();

    // Every current report is in the new shape; every revision is as stored.
    let shapes = raw(
        dir,
        "SELECT COALESCE(json_type(report_json, '$.orders'), ''), \
         COALESCE(json_type(report_json, '$.protected_activity'), '') FROM incident",
    )
    .await;
    assert_eq!(shapes.len(), 166);
    assert!(shapes
        .iter()
        .all(|(orders, old)| orders == "array" && old.is_empty()));
    let revisions_after = raw(
        dir,
        "SELECT incident_id || ':' || revision, report_json FROM incident_revision ORDER BY 1",
    )
    .await;
    assert_eq!(revisions_after, revisions_before);
    // Nothing decided changed: outcomes, citations, arrests, fines.
    assert_eq!(
        raw(
            dir,
            "SELECT subject_id, COALESCE(offence, '') || '|' || outcome || '|' || COALESCE(withdrawn_at, '') \
             FROM subject ORDER BY 1",
        )
        .await,
        outcomes_before
    );
    assert_eq!(
        raw(
            dir,
            "SELECT number, subject_id || '|' || offence || '|' || status || '|' || arrest || '|' || fine_cents \
             FROM citation ORDER BY 1",
        )
        .await,
        citations_before
    );
    // Each person's charge is in `charge`; nothing dangles after the rebuild.
    let charges = raw(
        dir,
        "SELECT CAST((SELECT COUNT(*) FROM charge) AS TEXT), \
         CAST((SELECT COUNT(*) FROM subject WHERE offence IS NOT NULL) AS TEXT)",
    )
    .await;
    assert_eq!(charges[0].0, charges[0].1);
    assert_eq!(charges[0].0, "57");
    let dangling: Vec<(String, String)> = raw(
        dir,
        "SELECT \"table\", parent FROM pragma_foreign_key_check()",
    )
    .await;
    assert_eq!(dangling, Vec::new());

    // The audit chain verifies, with the move recorded at its end.
    let verified = app::store::audit::verify(&app.state.store.reader)
        .await
        .expect("verify");
    assert!(verified.is_ok(), "{verified:?}");
    let moved = app.audit_actions("incident.reshape").await;
    assert_eq!(moved.len(), 1, "166 reports move in one step");

    // Opening again moves nothing more.
    let again = app::store::first_version::migrate(&app.state.store.writer, app.clock_now())
        .await
        .expect("migrate again");
    assert_eq!(again, 0);
}

#[tokio::test]
async fn every_first_version_report_and_citation_reads_prints_and_exports_as_it_did() {
    if support::postgres::sqlite_only("first-version database files") {
        return;
    }
    // The cautions each report was stored with, read before the app migrates.
    let stored_cautions: std::collections::HashMap<String, Vec<Value>> = raw(
        first_version_dir().path(),
        "SELECT incident_id, cautions FROM incident",
    )
    .await
    .into_iter()
    .map(|(id, codes)| {
        let words = codes
            .split_whitespace()
            .filter_map(app::model::review::CautionKind::from_code)
            .filter(|k| *k != app::model::review::CautionKind::GpsFar)
            .map(|k| Value::from(k.label()))
            .collect();
        (id, words)
    })
    .collect();
    let app = opened().await;
    let printed = printed();
    let chief = session(&app, CHIEF).await;
    let reports = printed["reports"].as_object().expect("reports");
    assert_eq!(reports.len(), 166);
    for (id, then) in reports {
        let now = call(&app, &chief, "reports/get", json!({ "incident_id": id })).await;
        // No caution a later release thought of is added to a first-version record.
        assert_eq!(
            now["cautions"].as_array(),
            stored_cautions.get(id),
            "{id}: cautions as stored"
        );
        assert_eq!(now["record"], then["record"], "{id}: the record in words");
        assert_eq!(now["citations"], then["citations"], "{id}: citations");
        assert_eq!(now["status"], then["status"], "{id}");
        assert_eq!(now["revision"], then["revision"], "{id}");
        assert_eq!(now["report"]["narrative"], then["narrative"], "{id}");
        let (now_subjects, then_subjects) = (
            now["subjects"].as_array().expect("subjects"),
            then["subjects"].as_array().expect("subjects"),
        );
        assert_eq!(now_subjects.len(), then_subjects.len(), "{id}");
        for (n, t) in now_subjects.iter().zip(then_subjects) {
            assert_eq!(n["label"], t["label"], "{id}");
            assert_eq!(n["outcome"], t["outcome"], "{id}");
            // One offence and one citation a person then; a list of each now.
            let offences: Vec<&Value> = t["offence"]
                .as_str()
                .map(|_| &t["offence"])
                .into_iter()
                .collect();
            assert_eq!(
                n["offences"]
                    .as_array()
                    .map(|a| a.iter().collect::<Vec<_>>()),
                Some(offences),
                "{id}"
            );
            let citations: Vec<&Value> = t
                .get("citation")
                .filter(|c| !c.is_null())
                .into_iter()
                .collect();
            assert_eq!(
                n["citations"]
                    .as_array()
                    .map(|a| a.iter().collect::<Vec<_>>()),
                Some(citations),
                "{id}"
            );
        }
    }
    let documents = printed["documents"].as_object().expect("documents");
    assert_eq!(documents.len(), 44);
    for (number, then) in documents {
        let now = call(&app, &chief, "citations/get", json!({ "number": number })).await;
        assert_same_as_printed(&now, then, number);
        let pdf = app
            .get(&format!("/citations/{number}/pdf"), Some(&chief))
            .await;
        assert_eq!(pdf.status, StatusCode::OK, "{number}");
    }

    let clerk = session(&app, CLERK).await;
    let export = call(
        &app,
        &clerk,
        "court/export",
        json!({ "selection": { "from": "2020-01-01", "to": "2026-12-31" } }),
    )
    .await;
    let lines = printed["court_lines"].as_array().expect("lines");
    assert_eq!(
        export["citations"].as_array().map(Vec::len),
        Some(lines.len())
    );
    for (now, then) in export["citations"]
        .as_array()
        .into_iter()
        .flatten()
        .zip(lines)
    {
        assert_same_as_printed(now, then, "court line");
    }
}

#[tokio::test]
async fn a_first_version_report_is_amended_under_todays_rules_and_prints_in_todays_words() {
    if support::postgres::sqlite_only("first-version database files") {
        return;
    }
    let app = opened().await;
    let chief = session(&app, CHIEF).await;
    // The fixture's §52-1(A)(3) report, amended once already by the first version.
    let id = raw(
        app.dir.path(),
        "SELECT incident_id, '' FROM incident WHERE location_text = 'Fixture: 14 Sea Road'",
    )
    .await
    .remove(0)
    .0;
    let view = call(&app, &chief, "reports/get", json!({ "incident_id": id })).await;
    assert_eq!(view["revision"], 2);
    // Converted: the person carries the incident's facts as their own.
    let mut report = view["report"].clone();
    let person = &report["subjects"][0];
    assert_eq!(person["protected_activity"], "none");
    assert_eq!(
        person["conduct"]["disturbance"]["discomfort_or_alarm"],
        true
    );
    assert_eq!(person["order"], 0);
    assert_eq!(person["charges"][0]["offence"], "52-1(A)(3)");
    let before = view["record"].clone();

    report["narrative"] = json!(
        "Shouted at people walking to the post office; an elderly woman turned back and went home."
    );
    let reply = app
        .post(
            "/api/review/amend",
            json!({ "report": report, "reason": "The officer's notes say she went home." }),
            Some(&chief),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let after = call(&app, &chief, "reports/get", json!({ "incident_id": id })).await;
    assert_eq!(after["revision"], 3);
    assert_ne!(
        after["record"], before,
        "revision 3 prints in today's words"
    );
    let lines: Vec<String> = after["record"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|l| {
            format!(
                "{} | {}",
                l[0].as_str().unwrap_or(""),
                l[1].as_str().unwrap_or("")
            )
        })
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Protected activity (§52-1 E) — Fixture Amended")),
        "{lines:#?}"
    );
    // The history lists the change across the move as the change it is.
    let changes = after["history"][2]["changes"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0]["field"], "narrative");
    // The citation keeps its number, and the chain still verifies.
    assert_eq!(after["citations"], view["citations"]);
    let verified = app::store::audit::verify(&app.state.store.reader)
        .await
        .expect("verify");
    assert!(verified.is_ok(), "{verified:?}");
}

/// A database that took migration 0014 as it landed (index rows added by its
/// triggers one statement at a time) moves to 0015's waiting table: its index
/// is kept, every search finds what it found before, and nothing is left
/// waiting.
#[tokio::test]
async fn a_database_indexed_by_migration_14_searches_the_same_after_15() {
    if support::postgres::sqlite_only("first-version database files") {
        return;
    }
    const LAST_OF_14: i64 = 20261204000014;
    let dir = first_version_dir();
    let url = format!("sqlite://{}", dir.path().join("wells.db").display());
    let pool = sqlx::SqlitePool::connect(&url).await.expect("open");
    let mut to_14 = sqlx::migrate::Migrator::new(std::path::Path::new("migrations"))
        .await
        .expect("migrations");
    to_14.migrations = to_14
        .migrations
        .iter()
        .filter(|m| m.version <= LAST_OF_14)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    to_14.run(&pool).await.expect("migrate to 0014");
    let (name,): (String,) = sqlx::query_as(
        "SELECT full_name FROM subject WHERE full_name IS NOT NULL ORDER BY rowid LIMIT 1",
    )
    .fetch_one(&pool)
    .await
    .expect("a named person");
    let surname = name.rsplit(' ').next().expect("surname").to_string();
    let indexed: (i64,) = sqlx::query_as("SELECT count(*) FROM register_text")
        .fetch_one(&pool)
        .await
        .expect("count");
    let found_before: Vec<(String,)> = sqlx::query_as(
        "SELECT DISTINCT incident_id FROM register_text WHERE register_text MATCH $1 ORDER BY 1",
    )
    .bind(format!("\"{surname}\""))
    .fetch_all(&pool)
    .await
    .expect("match");
    assert!(!found_before.is_empty(), "{surname} is in the 0014 index");
    pool.close().await;

    let app = TestApp::in_dir(dir, Serve::default()).await;
    assert_eq!(app.count("register_text").await, indexed.0);
    assert_eq!(app.count("register_pending").await, 0);
    let chief = session(&app, CHIEF).await;
    let page = call(
        &app,
        &chief,
        "register/search",
        json!({ "filter": { "text": surname }, "after": null }),
    )
    .await;
    let mut found_after: Vec<String> = page["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["incident_id"].as_str().expect("id").to_string())
        .collect();
    found_after.sort();
    found_after.dedup();
    let before: Vec<String> = found_before.into_iter().map(|(id,)| id).collect();
    assert_eq!(found_after, before);
}

/// Issue #18: an install that already has accounts keeps signing in with passwords
/// after the upgrade (the administrator turns the policy on once people enrolled);
/// a new install requires a second factor from the start.
#[tokio::test]
async fn the_upgrade_leaves_the_second_factor_optional_and_a_new_install_requires_it() {
    if support::postgres::sqlite_only("first-version database files") {
        return;
    }
    let dir = first_version_dir();
    let store = app::store::Store::open(&dir.path().join("wells.db"))
        .await
        .expect("migrate");
    let policy = app::store::second_factor::policy(&store.reader)
        .await
        .expect("policy");
    assert!(!policy.second_factor_required);
    let fresh = tempfile::tempdir().expect("tempdir");
    let store = app::store::Store::open(&fresh.path().join("wells.db"))
        .await
        .expect("create");
    let policy = app::store::second_factor::policy(&store.reader)
        .await
        .expect("policy");
    assert!(policy.second_factor_required);
}

/// Issue #33, finding 8: the conversion copied the incident's facts onto every
/// person and recorded an arrest for every §52-2 citation — facts no one
/// recorded. It marks them "not recorded — converted" (and records no arrest,
/// while the citation keeps the arrest it was stored with); each standing
/// citation of a converted report is put before the chief once; a database
/// converted before is marked at start-up; a new report carrying marks is
/// refused until checked.
#[tokio::test]
async fn converted_facts_are_marked_and_each_standing_citation_is_checked_once() {
    if support::postgres::sqlite_only("first-version database files") {
        return;
    }
    let app = opened().await;
    let chief = session(&app, CHIEF).await;
    let (id, _) = raw(
        app.dir.path(),
        "SELECT incident_id, '' FROM incident WHERE location_text = 'Fixture: Mile Road at Atlantic Ave'",
    )
    .await
    .remove(0);
    let view = call(&app, &chief, "reports/get", json!({ "incident_id": id })).await;
    let persons = view["report"]["subjects"].as_array().expect("persons");
    assert_eq!(persons.len(), 3);
    for p in persons {
        let marks = p["not_recorded"].as_array().expect("marked");
        assert!(marks.contains(&json!("protected_activity")), "{p}");
        assert!(marks.contains(&json!("conduct")), "{p}");
        assert_eq!(p["arrested"], false, "never asked, so not recorded");
    }
    let group = persons
        .iter()
        .find(|p| p["charges"][0]["offence"] == "52-2")
        .expect("the §52-2 person");
    assert!(group["not_recorded"]
        .as_array()
        .is_some_and(|m| m.contains(&json!("arrest"))));
    assert_eq!(
        view["citations"][0]["arrest"], true,
        "the court's record stays"
    );

    // The chief's list: every standing citation of a converted report, once.
    let listed = call(&app, &chief, "review/converted", json!({})).await;
    let numbers: Vec<&str> = listed
        .as_array()
        .expect("list")
        .iter()
        .map(|c| c["number"].as_str().expect("number"))
        .collect();
    assert_eq!(numbers.len(), 12, "approved, filed and issued: {numbers:?}");
    assert!(numbers.contains(&"WPD-2026-000041"));
    for _ in 0..2 {
        call(
            &app,
            &chief,
            "review/conversion-checked",
            json!({ "number": "WPD-2026-000041", "note": "Arrest confirmed from the booking log." }),
        )
        .await;
    }
    let listed = call(&app, &chief, "review/converted", json!({})).await;
    assert_eq!(listed.as_array().map(Vec::len), Some(11));
    assert!(!listed.to_string().contains("WPD-2026-000041"));
    let unknown = app
        .post(
            "/api/review/conversion-checked",
            json!({ "number": "WPD-1999-000001", "note": "" }),
            Some(&chief),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);

    // A database converted before the marks were made is marked at start-up,
    // once; every revision stays as stored.
    let current: String =
        sqlx::query_scalar("SELECT report_json FROM incident WHERE incident_id = $1")
            .bind(&id)
            .fetch_one(&app.state.store.reader)
            .await
            .expect("current");
    let mut unmarked: Value = serde_json::from_str(&current).expect("json");
    for p in unmarked["subjects"].as_array_mut().expect("persons") {
        p.as_object_mut().expect("person").remove("not_recorded");
    }
    sqlx::query("UPDATE incident SET report_json = $1 WHERE incident_id = $2")
        .bind(unmarked.to_string())
        .bind(&id)
        .execute(&app.state.store.writer)
        .await
        .expect("as converted before");
    let revisions: i64 = app.count("incident_revision").await;
    let marked =
        app::store::first_version::mark_converted(&app.state.store.writer, app.clock_now())
            .await
            .expect("mark");
    assert_eq!(marked, 1);
    let again: String =
        sqlx::query_scalar("SELECT report_json FROM incident WHERE incident_id = $1")
            .bind(&id)
            .fetch_one(&app.state.store.reader)
            .await
            .expect("current");
    assert_eq!(again, current);
    let twice = app::store::first_version::mark_converted(&app.state.store.writer, app.clock_now())
        .await
        .expect("mark again");
    assert_eq!(twice, 0);
    assert_eq!(app.count("incident_revision").await, revisions);
    assert_eq!(app.audit_actions("incident.mark_converted").await.len(), 1);
    let verified = app::store::audit::verify(&app.state.store.reader)
        .await
        .expect("verify");
    assert!(verified.is_ok(), "{verified:?}");

    // A new report still carrying marks is refused until the officer checks.
    let officer = app
        .sign_in_as("fixture-officer", "long pass phrase for oscar here")
        .await
        .cookie()
        .expect("officer");
    let mut report = support::refusal_report(app.clock_now());
    report.subjects[0].not_recorded = vec![app::model::converted::ConvertedFact::Conduct];
    let refused = app.submit(&officer, &report).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    assert_eq!(refused.json()["errors"][0]["field"], "subjects.0.to_check");
    report.subjects[0].not_recorded.clear();
    assert_eq!(app.submit(&officer, &report).await.status, StatusCode::OK);
}
