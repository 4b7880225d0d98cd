//! What the Town publishes (issue #40): the chief publishes a month that has
//! ended as a hashed, audited snapshot; a correction is a new revision with its
//! reason and the first stays readable; nothing unpublished is reachable at any
//! address; and nothing that identifies a person, officer or record leaves in
//! the public page, the CSV or the JSON. The chief's own tables by officer and
//! the disparity view count as the records do, reach no one but the chief, and
//! nothing of them is published.

mod support;

use app::model::account::Role;
use app::model::transparency::desk::OfficerTables;
use app::model::transparency::disparity::Disparity;
use app::model::transparency::{Class, Month, Preview, Published};
use app::ordinance::Outcome;
use app::store::seed::{seed, SeedPlan};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use support::{TestApp, START};

async fn seeded() -> (TestApp, String) {
    let app = TestApp::new().await;
    let plan = SeedPlan {
        incidents: 1_500,
        seed: 40,
        force: false,
    };
    seed(&app.state.store, &app.state.settings.town_zone, plan, START)
        .await
        .expect("seed");
    app.user("chief", &[Role::Chief]).await;
    let chief = app.session("chief").await;
    (app, chief)
}

/// The month before the one the test clock is in: ended, and seeded.
fn last_month(app: &TestApp) -> Month {
    Month::of_date(&app.state.settings.town_zone.date(START))
        .expect("today")
        .previous()
}

async fn preview(app: &TestApp, chief: &str, month: Month) -> Preview {
    let reply = app
        .post(
            "/api/transparency/preview",
            json!({ "month": month.code() }),
            Some(chief),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    serde_json::from_str(&reply.body).expect("preview")
}

async fn publish(
    app: &TestApp,
    chief: &str,
    month: Month,
    revision: u32,
    reason: Option<&str>,
) -> support::Reply {
    app.post(
        "/api/transparency/publish",
        json!({ "month": month.code(), "revision": revision, "reason": reason }),
        Some(chief),
    )
    .await
}

fn sha256(bytes: &str) -> String {
    hex::encode(Sha256::digest(bytes.as_bytes()))
}

#[tokio::test]
async fn the_chief_publishes_an_ended_month_as_a_hashed_audited_snapshot() {
    let (app, chief) = seeded().await;
    let month = last_month(&app);
    let first = preview(&app, &chief, month).await;
    assert_eq!(first.revision, 1);
    let reply = publish(&app, &chief, month, 1, None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let published: Published = serde_json::from_str(&reply.body).expect("published");

    // The JSON anyone downloads is the snapshot whose SHA-256 was published.
    let json = app
        .get(
            &format!("/transparency/{}/r1/data.json", month.code()),
            None,
        )
        .await;
    assert_eq!(json.status, StatusCode::OK);
    assert_eq!(sha256(&json.body), published.sha256);
    let latest = app
        .get(&format!("/transparency/{}/data.json", month.code()), None)
        .await;
    assert_eq!(latest.body, json.body);

    let audited = app.audit_actions("transparency.publish").await;
    assert_eq!(audited.len(), 1, "{audited:?}");

    // The same revision again: refused, nothing written.
    let again = publish(&app, &chief, month, 1, None).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    assert_eq!(app.count("published_month").await, 1);

    // A month still running is not published.
    let running = month.next();
    let refused = publish(&app, &chief, running, 1, None).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    assert!(
        refused.body.contains("\"field\":\"month\""),
        "{}",
        refused.body
    );

    // Only the chief publishes.
    app.user("officer", &[Role::Officer]).await;
    let officer = app.session("officer").await;
    let denied = publish(
        &app,
        &officer,
        month,
        2,
        Some("An officer tries to publish"),
    )
    .await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_correction_publishes_a_revision_with_its_reason_and_the_first_stays_readable() {
    let (app, chief) = seeded().await;
    let month = last_month(&app);
    let reply = publish(&app, &chief, month, 1, None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let first = app
        .get(
            &format!("/transparency/{}/r1/data.json", month.code()),
            None,
        )
        .await
        .body;

    // Records of the month corrected after publication: twenty persons'
    // perceived race was entered wrong.
    let changed = sqlx::query(
        "UPDATE subject SET perceived_race = 'black' WHERE subject_id IN (\
         SELECT s.subject_id FROM subject s JOIN incident i ON i.incident_id = s.incident_id \
         WHERE i.local_date BETWEEN $1 AND $2 AND s.perceived_race = 'white' \
         ORDER BY s.subject_id LIMIT 20)",
    )
    .bind(month.first_day())
    .bind(month.last_day())
    .execute(&app.state.store.writer)
    .await
    .expect("correct the records");
    assert_eq!(changed.rows_affected(), 20);

    let second = preview(&app, &chief, month).await;
    assert_eq!(second.revision, 2);
    assert!(!second.unchanged);
    assert!(
        second
            .changes
            .iter()
            .any(|c| c.starts_with("By perceived race")),
        "{:?}",
        second.changes
    );

    // A correction says why.
    let no_reason = publish(&app, &chief, month, 2, None).await;
    assert_eq!(no_reason.status, StatusCode::BAD_REQUEST);
    assert!(
        no_reason.body.contains("\"field\":\"reason\""),
        "{}",
        no_reason.body
    );
    let why = "Twenty persons' perceived race was entered wrong on the field form.";
    let reply = publish(&app, &chief, month, 2, Some(why)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);

    // Both revisions readable, each at its own address; the month's own
    // address serves the newest.
    let r1 = app
        .get(
            &format!("/transparency/{}/r1/data.json", month.code()),
            None,
        )
        .await;
    assert_eq!(r1.body, first);
    let r2 = app
        .get(
            &format!("/transparency/{}/r2/data.json", month.code()),
            None,
        )
        .await;
    assert_eq!(r2.status, StatusCode::OK);
    let latest = app
        .get(&format!("/transparency/{}/data.json", month.code()), None)
        .await;
    assert_eq!(latest.body, r2.body);
    let r2: Value = serde_json::from_str(&r2.body).expect("json");
    assert_eq!(r2["revision"], 2);
    assert_eq!(r2["correction"]["replaces_revision"], 1);
    assert_eq!(r2["correction"]["reason"], why);
    let page = app
        .get(&format!("/transparency/{}/r1", month.code()), None)
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains("A newer revision"),
        "the first revision points to the correction"
    );
}

#[tokio::test]
async fn an_unpublished_month_is_not_reachable_by_any_address() {
    let (app, chief) = seeded().await;
    let month = last_month(&app);
    let earlier = month.previous();
    let year = month.year;
    let addresses = |m: Month| {
        let m = m.code();
        vec![
            format!("/transparency/{m}"),
            format!("/transparency/{m}/r1"),
            format!("/transparency/{m}/data.json"),
            format!("/transparency/{m}/data.csv"),
            format!("/transparency/{m}/r1/data.json"),
            format!("/transparency/{m}/r1/data.csv"),
        ]
    };
    let mut before = addresses(month);
    before.extend([
        format!("/transparency/{year}"),
        format!("/transparency/{year}/data.json"),
        format!("/transparency/{year}/data.csv"),
    ]);
    for address in &before {
        let reply = app.get(address, None).await;
        assert_eq!(
            reply.status,
            StatusCode::NOT_FOUND,
            "{address} before publication"
        );
    }
    let api = app
        .post(
            "/api/transparency/view",
            json!({ "period": month.code(), "revision": null }),
            None,
        )
        .await;
    assert_eq!(api.status, StatusCode::NOT_FOUND);

    let reply = publish(&app, &chief, month, 1, None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    // Published now: its addresses and the year's answer.
    for address in &before {
        let reply = app.get(address, None).await;
        assert_eq!(reply.status, StatusCode::OK, "{address} after publication");
    }
    // The month before, a revision not made, and malformed names still do not.
    let mut after = addresses(earlier);
    after.extend([
        format!("/transparency/{}/r2", month.code()),
        format!("/transparency/{}/r2/data.json", month.code()),
        format!("/transparency/{}/r0/data.json", month.code()),
        format!("/transparency/{}/2/data.json", month.code()),
        format!("/transparency/{}/data.xml", month.code()),
        format!("/transparency/{year}/r1/data.json"),
        format!("/transparency/{}-1/data.json", month.code()),
    ]);
    for address in &after {
        let reply = app.get(address, None).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{address}");
    }
}

/// Every key of a JSON value, at any depth.
fn keys(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                keys(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
        _ => {}
    }
}

#[tokio::test]
async fn the_public_page_csv_and_json_carry_no_name_birth_date_address_time_number_officer_or_narrative(
) {
    let (app, chief) = seeded().await;
    let month = last_month(&app);
    let reply = publish(&app, &chief, month, 1, None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let code = month.code();
    let page = app.get(&format!("/transparency/{code}"), None).await;
    let year_page = app
        .get(&format!("/transparency/{}", month.year), None)
        .await;
    let index = app.get("/transparency", None).await;
    let csv = app
        .get(&format!("/transparency/{code}/data.csv"), None)
        .await;
    let json = app
        .get(&format!("/transparency/{code}/data.json"), None)
        .await;
    let year_json = app
        .get(&format!("/transparency/{}/data.json", month.year), None)
        .await;
    let published = [&page, &year_page, &index, &csv, &json, &year_json];
    for reply in published {
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    assert!(
        page.body.contains("By perceived race"),
        "the page shows the month's tables"
    );

    // No field that could carry one.
    for body in [&json.body, &year_json.body] {
        let value: Value = serde_json::from_str(body).expect("json");
        let mut found = Vec::new();
        keys(&value, &mut found);
        for forbidden in [
            "full_name",
            "name",
            "date_of_birth",
            "address",
            "id_number",
            "description",
            "latitude",
            "longitude",
            "gps",
            "location",
            "location_text",
            "occurred_at",
            "at",
            "time",
            "number",
            "citation",
            "officer",
            "officer_id",
            "narrative",
            "words",
        ] {
            assert!(
                !found.iter().any(|k| k == forbidden),
                "the JSON has a field {forbidden}"
            );
        }
    }
    let header = csv.body.lines().next().expect("a header");
    assert_eq!(
        header,
        "view,period,revision,table,row,row_label,column,column_label,count"
    );

    // And none of the month's own values.
    let (first, last) = (month.first_day(), month.last_day());
    // One query each: the columns' collations differ on PostgreSQL.
    let mut identifying: Vec<String> = Vec::new();
    for select in [
        "SELECT s.full_name FROM subject s JOIN incident i ON i.incident_id = s.incident_id \
         WHERE i.local_date BETWEEN $1 AND $2",
        "SELECT s.date_of_birth FROM subject s JOIN incident i ON i.incident_id = s.incident_id \
         WHERE i.local_date BETWEEN $1 AND $2",
        "SELECT s.address FROM subject s JOIN incident i ON i.incident_id = s.incident_id \
         WHERE i.local_date BETWEEN $1 AND $2",
        "SELECT i.narrative FROM incident i WHERE i.local_date BETWEEN $1 AND $2",
        "SELECT i.location_text FROM incident i WHERE i.local_date BETWEEN $1 AND $2",
        "SELECT c.number FROM citation c JOIN incident i ON i.incident_id = c.incident_id \
         WHERE i.local_date BETWEEN $1 AND $2",
        "SELECT u.full_name FROM app_user u WHERE $1 <> $2",
        "SELECT u.username FROM app_user u WHERE $1 <> $2",
    ] {
        let values: Vec<Option<String>> = sqlx::query_scalar(select)
            .bind(&first)
            .bind(&last)
            .fetch_all(&app.state.store.reader)
            .await
            .expect("identifying values");
        identifying.extend(values.into_iter().flatten());
    }
    let numbers: Vec<i64> = sqlx::query_scalar(
        "SELECT CAST(gps_lat * 1000 AS BIGINT) FROM incident WHERE local_date BETWEEN $1 AND $2 AND gps_lat IS NOT NULL",
    )
    .bind(&first)
    .bind(&last)
    .fetch_all(&app.state.store.reader)
    .await
    .expect("fixes");
    assert!(!numbers.is_empty());
    identifying.extend(numbers.iter().map(|n| format!("{:.3}", *n as f64 / 1000.0)));
    // Exact times: every report's time of day in the Town's time.
    let times: Vec<i64> =
        sqlx::query_scalar("SELECT occurred_at FROM incident WHERE local_date BETWEEN $1 AND $2")
            .bind(&first)
            .bind(&last)
            .fetch_all(&app.state.store.reader)
            .await
            .expect("times");
    let zone = &app.state.settings.town_zone;
    identifying.extend(
        times
            .iter()
            .map(|t| zone.date_time(app::ordinance::Moment(*t))),
    );
    identifying.retain(|v| v.chars().count() >= 6);
    identifying.sort();
    identifying.dedup();
    assert!(
        identifying.len() > 100,
        "the month has records: {}",
        identifying.len()
    );
    for value in &identifying {
        for (what, reply) in [
            ("page", &page),
            ("year page", &year_page),
            ("index", &index),
            ("CSV", &csv),
            ("JSON", &json),
            ("year JSON", &year_json),
        ] {
            assert!(
                !reply.body.contains(value.as_str()),
                "the {what} carries {value:?}"
            );
        }
    }
}

/// The chief's desk (never public): each officer's persons of `month` by what
/// happened to them, counted here from the records themselves, one person at a
/// time: (officer, class) → persons; and (perceived race, class) of persons.
type ByClass = std::collections::BTreeMap<(String, Class), u32>;

/// A person as stored: officer, response, outcome, perceived race, organisation.
type PersonRow = (String, Option<String>, Option<String>, String, i64);

async fn true_classes(app: &TestApp, month: Month) -> (ByClass, ByClass) {
    let rows: Vec<PersonRow> = sqlx::query_as(
        "SELECT i.officer_id, s.response, s.outcome, s.perceived_race, s.organisation \
         FROM subject s JOIN incident i ON i.incident_id = s.incident_id \
         WHERE i.local_date BETWEEN $1 AND $2 AND s.withdrawn_at IS NULL",
    )
    .bind(month.first_day())
    .bind(month.last_day())
    .fetch_all(&app.state.store.reader)
    .await
    .expect("persons");
    let cited: Vec<&str> = Outcome::ALL
        .into_iter()
        .filter(|o| o.is_citation())
        .map(|o| o.code())
        .collect();
    let (mut by_officer, mut by_race) = (
        std::collections::BTreeMap::new(),
        std::collections::BTreeMap::new(),
    );
    for (officer, response, outcome, race, organisation) in rows {
        let outcome = outcome.unwrap_or_default();
        let response = response.unwrap_or_default();
        let class = if cited.contains(&outcome.as_str()) {
            if response == "refused" {
                Class::RefusedCited
            } else {
                Class::CitedWithoutRefusal
            }
        } else if outcome == Outcome::ProtectedActivity.code() {
            Class::Protected
        } else if response == "complied" {
            Class::Complied
        } else if response == "refused" {
            Class::RefusedNotCited
        } else {
            Class::NoOrder
        };
        *by_officer.entry((officer, class)).or_insert(0) += 1;
        if organisation == 0 {
            *by_race.entry((race, class)).or_insert(0) += 1;
        }
    }
    (by_officer, by_race)
}

async fn desk_officers(
    app: &TestApp,
    chief: &str,
    month: Month,
    officer: Option<&str>,
) -> OfficerTables {
    let reply = app
        .post(
            "/api/transparency/desk/officers",
            json!({ "from": month.code(), "to": month.code(), "officer": officer }),
            Some(chief),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    serde_json::from_str(&reply.body).expect("officer tables")
}

async fn desk_disparity(app: &TestApp, chief: &str, month: Month) -> Disparity {
    let reply = app
        .post(
            "/api/transparency/desk/disparity",
            json!({ "from": month.code(), "to": month.code() }),
            Some(chief),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    serde_json::from_str(&reply.body).expect("disparity")
}

#[tokio::test]
async fn the_chiefs_tables_count_each_officers_persons_and_each_groups_rate_as_the_records_do() {
    let (app, chief) = seeded().await;
    let month = last_month(&app);
    let (by_officer, by_race) = true_classes(&app, month).await;
    assert!(
        by_officer.len() > 3,
        "the month has persons: {by_officer:?}"
    );

    let tables = desk_officers(&app, &chief, month, None).await;
    assert_eq!(
        (tables.from.as_str(), tables.to.as_str()),
        (month.code().as_str(), month.code().as_str())
    );
    let officers: std::collections::BTreeSet<&String> = by_officer.keys().map(|(o, _)| o).collect();
    assert_eq!(tables.officers.len(), officers.len());
    let mut town = vec![0u32; Class::ALL.len()];
    for row in &tables.officers {
        let expected: Vec<u32> = Class::ALL
            .into_iter()
            .map(|c| by_officer.get(&(row.code.clone(), c)).copied().unwrap_or(0))
            .collect();
        assert_eq!(row.counts, expected, "officer {}", row.label);
        assert_eq!(row.persons, expected.iter().sum::<u32>());
        assert!(
            !row.label.is_empty() && row.label != row.code,
            "a name, not an id"
        );
        for (sum, n) in town.iter_mut().zip(&row.counts) {
            *sum += n;
        }
    }
    assert_eq!(tables.town.counts, town);
    assert!(
        tables
            .officers
            .windows(2)
            .all(|w| w[0].persons >= w[1].persons),
        "most persons first"
    );
    assert!(tables.chosen.is_none());

    // One officer's seven tables: every table counts the officer's persons once.
    let first = &tables.officers[0];
    let chosen = desk_officers(&app, &chief, month, Some(&first.code))
        .await
        .chosen
        .expect("the officer's tables");
    assert_eq!(chosen.tables.len(), 7);
    for table in &chosen.tables {
        let all = table.rows.last().expect("a total row");
        assert_eq!(all.counts, first.counts, "{}", table.code);
        let summed: Vec<u32> = (0..Class::ALL.len())
            .map(|c| {
                table.rows[..table.rows.len() - 1]
                    .iter()
                    .map(|r| r.counts[c])
                    .sum()
            })
            .collect();
        assert_eq!(summed, first.counts, "{} rows add up", table.code);
    }
    // An officer who recorded no one in the period is not found.
    let reply = app
        .post(
            "/api/transparency/desk/officers",
            json!({ "from": month.code(), "to": month.code(), "officer": "nobody" }),
            Some(&chief),
        )
        .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);

    // Disparity: each group's persons given an order and cited after refusing.
    let d = desk_disparity(&app, &chief, month).await;
    let ordered = |pick: &dyn Fn(&str) -> bool| -> (u32, u32) {
        let mut o = 0;
        let mut c = 0;
        for ((race, class), n) in &by_race {
            if pick(race) {
                if class.ordered() {
                    o += n;
                }
                if *class == Class::RefusedCited {
                    c += n;
                }
            }
        }
        (o, c)
    };
    assert_eq!((d.town.ordered, d.town.cited), ordered(&|_| true));
    assert!(d.town.ordered > 0);
    let race = d
        .tables
        .iter()
        .find(|t| t.code == "perceived_race")
        .expect("race");
    for (code, label) in app::model::transparency::Dimension::Race.rows() {
        if code == "organisation" {
            assert!(race.rows.iter().all(|r| r.label != label));
            continue;
        }
        let row = race.rows.iter().find(|r| r.label == label).expect("a row");
        assert_eq!((row.ordered, row.cited), ordered(&|r| r == code), "{label}");
        assert_eq!(row.small, row.ordered < 30, "{label}");
        if let (Some(rate), Some(town)) = (row.rate, d.town.rate) {
            assert!((row.ratio.expect("a ratio") - rate / town).abs() < 1e-9);
        }
    }
}

#[tokio::test]
async fn no_one_but_the_chief_reaches_the_chiefs_tables_by_any_address_or_server_function() {
    let (app, chief) = seeded().await;
    let month = last_month(&app);
    let tables = desk_officers(&app, &chief, month, None).await;
    let names: Vec<String> = tables.officers.iter().map(|r| r.label.clone()).collect();
    let officer_id = tables.officers[0].code.clone();
    // The chief's page shows them (so their absence below means something).
    let page = app.get("/transparency/desk", Some(&chief)).await;
    assert_eq!(page.status, StatusCode::OK);
    for text in ["By officer", "Disparity", names[0].as_str()] {
        assert!(page.body.contains(text), "the chief's page shows {text:?}");
    }

    let mut sessions: Vec<(&str, Option<String>)> = vec![("anonymous", None)];
    for (username, role) in [
        ("desk-officer", Role::Officer),
        ("desk-clerk", Role::Clerk),
        ("desk-admin", Role::Admin),
        ("desk-townclerk", Role::TownClerk),
        ("desk-selectman", Role::Selectman),
        ("desk-advisor", Role::Advisor),
    ] {
        app.user(username, &[role]).await;
        sessions.push((username, Some(app.session(username).await)));
    }
    let bodies = [
        (
            "/api/transparency/desk/officers",
            json!({ "from": month.code(), "to": month.code(), "officer": null }),
        ),
        (
            "/api/transparency/desk/officers",
            json!({ "from": month.code(), "to": month.code(), "officer": officer_id }),
        ),
        (
            "/api/transparency/desk/disparity",
            json!({ "from": month.code(), "to": month.code() }),
        ),
    ];
    for (who, cookie) in &sessions {
        for (path, body) in &bodies {
            let reply = app.post(path, body.clone(), cookie.as_deref()).await;
            let expected = if cookie.is_some() {
                StatusCode::FORBIDDEN
            } else {
                StatusCode::UNAUTHORIZED
            };
            assert_eq!(reply.status, expected, "{who} {path}: {}", reply.body);
            assert!(!reply.body.contains("ordered"), "{who} {path}");
        }
        // The page itself: 403 for a signed-in role, the sign-in for a visitor.
        let page = app.get("/transparency/desk", cookie.as_deref()).await;
        if cookie.is_some() {
            assert_eq!(page.status, StatusCode::FORBIDDEN, "{who}");
        } else {
            assert!(page.body.contains("Sign in"), "{who}: {}", page.status);
        }
        // "desk" is no published month: its open-data addresses are not found.
        for address in [
            "/transparency/desk/data.json",
            "/transparency/desk/data.csv",
            "/transparency/desk/r1",
        ] {
            let reply = app.get(address, cookie.as_deref()).await;
            assert_eq!(reply.status, StatusCode::NOT_FOUND, "{who} {address}");
        }
        for address in [
            "/transparency/desk".to_owned(),
            format!("/transparency/desk?from={0}&to={0}", month.code()),
        ] {
            let reply = app.get(&address, cookie.as_deref()).await;
            for text in names.iter().map(String::as_str).chain([
                "By officer",
                "Disparity",
                "Times the Town",
            ]) {
                assert!(!reply.body.contains(text), "{who} {address} shows {text:?}");
            }
        }
    }
}

#[tokio::test]
async fn nothing_of_the_chiefs_tables_appears_in_the_public_page_csv_or_json() {
    let (app, chief) = seeded().await;
    let month = last_month(&app);
    let tables = desk_officers(&app, &chief, month, None).await;
    let reply = publish(&app, &chief, month, 1, None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let code = month.code();
    let mut published = Vec::new();
    for address in [
        "/transparency".to_owned(),
        format!("/transparency/{code}"),
        format!("/transparency/{code}/r1"),
        format!("/transparency/{}", month.year),
        format!("/transparency/{code}/data.csv"),
        format!("/transparency/{code}/data.json"),
        format!("/transparency/{code}/r1/data.json"),
        format!("/transparency/{}/data.json", month.year),
        format!("/transparency/{}/data.csv", month.year),
    ] {
        let reply = app.get(&address, None).await;
        assert_eq!(reply.status, StatusCode::OK, "{address}");
        published.push((address, reply.body));
    }
    let view = app
        .post(
            "/api/transparency/view",
            json!({ "period": code, "revision": null }),
            None,
        )
        .await;
    assert_eq!(view.status, StatusCode::OK);
    published.push(("/api/transparency/view".to_owned(), view.body));
    let mut desk_words: Vec<String> = vec![
        "By officer".into(),
        "Disparity".into(),
        "Times the Town".into(),
        "Range by chance".into(),
        "The chief's tables".into(),
        "/transparency/desk".into(),
        "Wilson".into(),
    ];
    for row in &tables.officers {
        desk_words.push(row.label.clone());
        desk_words.push(row.code.clone());
    }
    for (address, body) in &published {
        for word in &desk_words {
            assert!(!body.contains(word.as_str()), "{address} carries {word:?}");
        }
        if let Ok(value) = serde_json::from_str::<Value>(body) {
            let mut found = Vec::new();
            keys(&value, &mut found);
            for forbidden in [
                "officers", "officer", "chosen", "town", "interval", "ratio", "small",
            ] {
                assert!(
                    !found.iter().any(|k| k == forbidden),
                    "{address} has a field {forbidden}"
                );
            }
        }
    }
}
