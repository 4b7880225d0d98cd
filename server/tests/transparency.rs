//! What the Town publishes (issue #40): the chief publishes a month that has
//! ended as a hashed, audited snapshot; a correction is a new revision with its
//! reason and the first stays readable; nothing unpublished is reachable at any
//! address; and nothing that identifies a person, officer or record leaves in
//! the public page, the CSV or the JSON.

mod support;

use app::model::account::Role;
use app::model::transparency::{Month, Preview, Published};
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
