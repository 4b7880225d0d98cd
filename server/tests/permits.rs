//! Mass-gathering permits over HTTP (issue #19): an operator's application
//! through the Town Clerk and the Board of Selectmen to a permit or a written
//! denial, the fixes through the status link, the deemed denial, the
//! settlement, and what each role and a stranger may not do.

#![recursion_limit = "256"]

mod support;

use app::model::account::Role;
use app::model::civil;
use axum::http::StatusCode;
use serde_json::{json, Value};
use support::TestApp;

/// The Town day of the test clock (America/New_York: 2026-07-04 at noon,
/// moved to Monday the 6th by [`app`]).
fn today(app: &TestApp) -> i64 {
    civil::day_number(&app.state.settings.town_zone.date(app.clock_now())).expect("present")
}

/// The app, on a day the Board of Selectmen meets: the test clock starts on
/// Saturday 2026-07-04, when no meeting is held (issue #37); Monday the 6th.
async fn app_on_a_meeting_day() -> TestApp {
    let app = TestApp::new().await;
    app.clock.advance_minutes(2 * 24 * 60);
    app
}

/// The Board's motion and vote, at its meeting today.
fn vote(app: &TestApp) -> Value {
    json!({
        "meeting_day": civil::date_text(today(app)),
        "moved_by": "Selectman Ames",
        "seconded_by": "Selectman Bell",
        "in_favour": 3, "against": 1, "abstaining": 1
    })
}

/// A plan for 2,400 persons that meets every standard but the toilets: 3 for
/// each sex where §52-10(4)(d) needs 4 each (one for each 350 of the 1,200 men
/// and of the 1,200 women, the application stating no split). Before the
/// department's reading of §52-10(4)(d) (issue #33) the fixture had 4 per sex
/// against 7 required.
fn application(first_day: &str) -> Value {
    json!({
        "operator": "Harbor Fest LLC",
        "operator_address": "1 Post Road, Wells ME 04090",
        "operator_phone": "207-555-0100",
        "operator_email": "",
        "sponsor": "",
        "landowner": "Town of Wells",
        "lessee": "",
        "place": "Wells Harbor Park",
        "map_point": "43.3197, -70.5633",
        "purpose": "Summer music festival",
        "first_day": first_day,
        "last_day": first_day,
        "starts": "10:00",
        "ends": "18:00",
        "attendance": 2400,
        "vehicles": 600,
        "buses": 0,
        "water_under_pressure": false,
        "provided": {
            "parking_spaces": 600, "parking_acre_hundredths": 600,
            "road_lanes": 2, "road_parking_lanes": 0, "road_width_feet": 24,
            "site_square_feet": 30000, "overnight": false, "lighting": true,
            "traffic_control": true, "potable_water": true,
            "water_gallons_per_day": 7200, "water_psi": null,
            "toilets_men": 3, "toilets_women": 3,
            "refuse": { "fifty_gallon": 24, "sixteen_cubic_yard": 0 },
            "parking_refuse": { "fifty_gallon": 24, "sixteen_cubic_yard": 0 },
            "collections": 2, "clear_within_hours": 24,
            "fire_department_informed": true, "officers": 15,
            "physician_supervision": true, "first_aid_station": true,
            "ambulances_on_site": true, "phone_and_radio": true,
            "hospitals_told": true, "sound_precautions": true,
            "insurance_per_person_cents": 30000000,
            "insurance_per_occurrence_cents": 50000000,
            "insurance_property_cents": 10000000,
            "bond_cents": 0, "deposit_cents": 0
        },
        "refuse_plan": "Two collections a day by the Town's hauler",
        "lighting_plan": "None needed: the gathering ends at 18:00",
        "medical_plan": "Dr. Ames supervises; two ambulances on site"
    })
}

struct Desk {
    clerk: String,
    selectman: String,
    officer: String,
}

async fn desk(app: &TestApp) -> Desk {
    app.user("clerk1", &[Role::TownClerk]).await;
    app.user("select1", &[Role::Selectman]).await;
    app.user("officer1", &[Role::Officer]).await;
    Desk {
        clerk: app.session("clerk1").await,
        selectman: app.session("select1").await,
        officer: app.session("officer1").await,
    }
}

/// Files online; returns (application id, status token).
async fn apply(app: &TestApp, body: Value) -> (String, String) {
    let reply = app
        .post("/api/permits/apply", json!({ "application": body }), None)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let filed = reply.json();
    assert!(filed["number"]
        .as_str()
        .expect("present")
        .starts_with("MG-2026-"));
    (
        filed["application_id"]
            .as_str()
            .expect("present")
            .to_owned(),
        filed["token"].as_str().expect("present").to_owned(),
    )
}

async fn clerk(app: &TestApp, cookie: &str, id: &str, action: Value) -> support::Reply {
    app.post(
        "/api/permits/clerk",
        json!({ "application_id": id, "action": action }),
        Some(cookie),
    )
    .await
}

async fn ready_for_the_board(app: &TestApp, d: &Desk, id: &str, fee: bool) {
    if fee {
        let r = clerk(
            app,
            &d.clerk,
            id,
            json!({ "entry": "fee", "receipt": "R-1001" }),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    }
    let r = clerk(
        app,
        &d.clerk,
        id,
        json!({ "entry": "security", "estimated_costs_cents": 1_000_000,
                "bond_cents": 500_000, "deposit_cents": 1_200_000 }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let day = civil::date_text(today(app));
    let r = clerk(
        app,
        &d.clerk,
        id,
        json!({ "entry": "schedule", "day": day }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}

async fn record(app: &TestApp, cookie: &str, id: &str) -> Value {
    let r = app
        .post(
            "/api/permits/get",
            json!({ "application_id": id }),
            Some(cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    r.json()
}

async fn status(app: &TestApp, token: &str) -> support::Reply {
    app.post("/api/permits/status", json!({ "token": token }), None)
        .await
}

async fn decide(
    app: &TestApp,
    cookie: &str,
    id: &str,
    revision: i64,
    decision: Value,
) -> support::Reply {
    app.post(
        "/api/permits/decide",
        json!({ "application_id": id, "revision": revision, "decision": decision, "vote": vote(app) }),
        Some(cookie),
    )
    .await
}

#[tokio::test]
async fn denied_with_the_generated_reasons_then_fixed_through_the_link_and_issued() {
    let app = app_on_a_meeting_day().await;
    let d = desk(&app).await;
    let first = civil::date_text(today(&app) + 30);
    let (id, token) = apply(&app, application(&first)).await;
    ready_for_the_board(&app, &d, &id, true).await;

    let before = record(&app, &d.selectman, &id).await;
    assert_eq!(before["state"], "scheduled");
    let reasons: Vec<String> = before["shortfalls"]
        .as_array()
        .expect("present")
        .iter()
        .map(|s| s["provision"].as_str().expect("present").to_owned())
        .collect();
    assert_eq!(reasons, ["S52_10_4D", "S52_10_4D"], "{before}");

    // A permit does not issue while a standard is unmet (§52-8).
    let refused = decide(&app, &d.selectman, &id, 1, json!({ "decision": "issue" })).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert!(refused.body.contains(
        "§52-10(4)(d): 3 toilets for men provided, 4 required (one for each 350 of 1200 men, half the 2400 persons expected)"
    ), "{}", refused.body);

    let denied = decide(
        &app,
        &d.selectman,
        &id,
        1,
        json!({ "decision": "deny", "findings": [] }),
    )
    .await;
    assert_eq!(denied.status, StatusCode::OK, "{}", denied.body);
    let seen = status(&app, &token).await.json();
    assert_eq!(seen["state"], "denied");
    assert_eq!(
        seen["decision"]["reasons"][1]["step"],
        "Provide 4 toilets for women (one for each 350 of the women they serve, separate from the other sex's)."
    );
    assert_eq!(seen["decision"]["by"], "the Board of Selectmen");
    assert!(seen["opinions"].as_array().expect("present").is_empty());

    // The operator fixes the plan through the link; it goes back to the clerk.
    let mut fixed = application(&first);
    fixed["provided"]["toilets_men"] = json!(4);
    fixed["provided"]["toilets_women"] = json!(4);
    let amended = app
        .post(
            "/api/permits/amend",
            json!({ "token": token, "application": fixed }),
            None,
        )
        .await;
    assert_eq!(amended.status, StatusCode::OK, "{}", amended.body);
    let back = record(&app, &d.clerk, &id).await;
    assert_eq!(back["state"], "fee_recorded", "the fee stays recorded");
    assert_eq!(back["revision"], 2);
    assert!(
        back["shortfalls"].as_array().expect("present").is_empty(),
        "{back}"
    );
    ready_for_the_board(&app, &d, &id, false).await;

    // Deciding on the revision read before the change is refused.
    let stale = decide(&app, &d.selectman, &id, 1, json!({ "decision": "issue" })).await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.body);
    let issued = decide(&app, &d.selectman, &id, 2, json!({ "decision": "issue" })).await;
    assert_eq!(issued.status, StatusCode::OK, "{}", issued.body);
    assert_eq!(status(&app, &token).await.json()["state"], "issued");

    let pdf = app
        .get(&format!("/permits/{id}/pdf"), Some(&d.officer))
        .await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert!(pdf.body.starts_with("%PDF"));
    let theirs = app
        .get(&format!("/permits/status/pdf?token={token}"), None)
        .await;
    assert_eq!(theirs.status, StatusCode::OK);

    // An officer on patrol finds it by the day.
    let r = app
        .post(
            "/api/permits/register",
            json!({ "day": first }),
            Some(&d.officer),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()[0]["state"], "issued");
    let other_day = civil::date_text(today(&app) + 31);
    let r = app
        .post(
            "/api/permits/register",
            json!({ "day": other_day }),
            Some(&d.officer),
        )
        .await;
    assert_eq!(r.json().as_array().expect("present").len(), 0);
    // "today" is the Town's day by the server's clock, whatever UTC's date is.
    let by_date = app
        .post(
            "/api/permits/register",
            json!({ "day": civil::date_text(today(&app)) }),
            Some(&d.officer),
        )
        .await;
    let r = app
        .post(
            "/api/permits/register",
            json!({ "day": "today" }),
            Some(&d.officer),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json(), by_date.json());
    let r = app
        .post(
            "/api/permits/register",
            json!({ "day": "tomorrow" }),
            Some(&d.officer),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);

    // Settlement only after the gathering: a refund of the excess.
    let early = clerk(
        &app,
        &d.clerk,
        &id,
        json!({ "entry": "settle", "actual_costs_cents": 900_000 }),
    )
    .await;
    assert_eq!(early.status, StatusCode::CONFLICT, "{}", early.body);
    app.clock.advance_minutes(31 * 24 * 60);
    let town_clerk = app.session("clerk1").await;
    let r = clerk(
        &app,
        &town_clerk,
        &id,
        json!({ "entry": "settle", "actual_costs_cents": 900_000 }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let settled = record(&app, &town_clerk, &id).await;
    assert_eq!(settled["state"], "settled");
    assert_eq!(settled["settlement"]["balance_cents"], 300_000);

    // Every step is in the record's history and the audit chain.
    let kinds: Vec<String> = settled["history"]
        .as_array()
        .expect("present")
        .iter()
        .map(|e| e["kind"].as_str().expect("present").to_owned())
        .collect();
    assert_eq!(
        kinds,
        [
            "filed",
            "fee_recorded",
            "security_recorded",
            "scheduled",
            "denied",
            "amended",
            "security_recorded",
            "scheduled",
            "issued",
            "settled"
        ]
    );
    assert_eq!(app.audit_actions("permit.issue").await.len(), 1);
    let verified = app::store::audit::verify(&app.state.store.reader)
        .await
        .expect("present");
    assert!(verified.is_ok());
}

#[tokio::test]
async fn an_application_nobody_decides_is_deemed_denied_on_the_eighth_day() {
    let app = app_on_a_meeting_day().await;
    let d = desk(&app).await;
    let (id, token) = apply(&app, application(&civil::date_text(today(&app) + 40))).await;
    ready_for_the_board(&app, &d, &id, true).await;
    // Considered today: due by day 7; deemed denied from day 8.
    app.clock.advance_minutes(7 * 24 * 60);
    assert_eq!(status(&app, &token).await.json()["state"], "scheduled");
    app.clock.advance_minutes(24 * 60);
    let seen = status(&app, &token).await.json();
    assert_eq!(seen["state"], "deemed_denied");
    // Ten days on, the Selectman signs in again (sessions end after 30 idle minutes).
    let selectman = app.session("select1").await;
    let late = decide(
        &app,
        &selectman,
        &id,
        1,
        json!({ "decision": "deny", "findings": [] }),
    )
    .await;
    assert_eq!(late.status, StatusCode::CONFLICT);
    assert!(late.body.contains("§52-9 B(3)"), "{}", late.body);
    let pdf = app
        .get(&format!("/permits/status/pdf?token={token}"), None)
        .await;
    assert_eq!(pdf.status, StatusCode::OK, "the deemed denial prints");
}

#[tokio::test]
async fn bad_input_names_its_field_and_section_and_stores_nothing() {
    let app = TestApp::new().await;
    let soon = civil::date_text(today(&app) + 30);
    let yesterday = civil::date_text(today(&app) - 1);
    let cases = [
        ("attendance", json!(0), "§52-10(2)(f)"),
        ("first_day", json!(yesterday), "§52-9 A"),
        (
            "last_day",
            json!(civil::date_text(today(&app) + 29)),
            "on or after",
        ),
    ];
    for (field, value, words) in cases {
        let mut body = application(&soon);
        if field == "first_day" {
            body["last_day"] = value.clone();
        }
        body[field] = value;
        let r = app
            .post("/api/permits/apply", json!({ "application": body }), None)
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{field}: {}", r.body);
        let errors = &r.json()["errors"];
        assert_eq!(errors[0]["field"], field, "{}", r.body);
        assert!(
            errors[0]["message"]
                .as_str()
                .expect("present")
                .contains(words),
            "{}",
            r.body
        );
    }
    assert_eq!(app.count("permit_application").await, 0);
    // A guessed or malformed token opens nothing.
    let guessed = status(&app, &"ab".repeat(32)).await;
    assert_eq!(guessed.status, StatusCode::NOT_FOUND);
    assert_eq!(
        status(&app, "../../etc").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn each_role_does_only_its_part() {
    let app = app_on_a_meeting_day().await;
    let d = desk(&app).await;
    let (id, _) = apply(&app, application(&civil::date_text(today(&app) + 30))).await;
    // An officer reads but neither records nor decides.
    let r = clerk(
        &app,
        &d.officer,
        &id,
        json!({ "entry": "fee", "receipt": "R-9" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = decide(&app, &d.officer, &id, 1, json!({ "decision": "issue" })).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // The Town Clerk records the Board's decision (issue #37), of an
    // application before the Board; the Selectmen do not take fees.
    let r = decide(&app, &d.clerk, &id, 1, json!({ "decision": "issue" })).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.body.contains("put before them"), "{}", r.body);
    let r = clerk(
        &app,
        &d.selectman,
        &id,
        json!({ "entry": "fee", "receipt": "R-9" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // Nobody signed in reads the register or a record.
    let r = app
        .post("/api/permits/register", json!({ "day": null }), None)
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    // Scheduling before the fee is refused with the section.
    let r = clerk(
        &app,
        &d.clerk,
        &id,
        json!({ "entry": "schedule", "day": civil::date_text(today(&app) + 1) }),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert!(r.body.contains("§52-9 A"), "{}", r.body);
    // An advisor's opinion is kept, and the operator does not see it.
    app.user("fire1", &[Role::Advisor]).await;
    let fire = app.session("fire1").await;
    let r = app
        .post(
            "/api/permits/opinion",
            json!({ "application_id": id, "capacity": "Fire Chief", "opinion": "Two engines on standby." }),
            Some(&fire),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(
        record(&app, &d.selectman, &id).await["opinions"][0]["capacity"],
        "Fire Chief"
    );
}

#[tokio::test]
async fn the_public_calls_are_rate_limited_per_address() {
    let app = TestApp::with(server::config::Serve {
        sign_in_per_minute: 3,
        ..server::config::Serve::default()
    })
    .await;
    let token = "ab".repeat(32);
    for _ in 0..3 {
        assert_eq!(status(&app, &token).await.status, StatusCode::NOT_FOUND);
    }
    assert_eq!(
        status(&app, &token).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test]
async fn the_noise_limit_is_unconfirmed_until_an_administrator_sets_it() {
    let app = app_on_a_meeting_day().await;
    let d = desk(&app).await;
    let (id, _) = apply(&app, application(&civil::date_text(today(&app) + 30))).await;
    let limit = || app.post("/api/permits/sound-limit", json!({}), None);
    assert_eq!(limit().await.json(), Value::Null, "unconfirmed at first");
    assert_eq!(
        record(&app, &d.clerk, &id).await["sound_limit_dba"],
        Value::Null
    );
    app.user("admin1", &[Role::Admin]).await;
    let admin = app.session("admin1").await;
    let save = |value: Value| {
        app.post(
            "/api/admin/settings/sound-limit/save",
            json!({ "limit_dba": value }),
            Some(&admin),
        )
    };
    let refused = save(json!(500)).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    assert!(refused.body.contains("§52-10(9)"), "{}", refused.body);
    assert_eq!(limit().await.json(), Value::Null, "nothing stored");
    let saved = save(json!(70)).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(limit().await.json(), json!(70));
    assert_eq!(record(&app, &d.clerk, &id).await["sound_limit_dba"], 70);
    assert_eq!(app.audit_actions("settings.sound_limit").await.len(), 1);
    // A clerk cannot set it; withdrawing it makes it unconfirmed again.
    let clerk = app
        .post(
            "/api/admin/settings/sound-limit/save",
            json!({ "limit_dba": 65 }),
            Some(&d.clerk),
        )
        .await;
    assert_eq!(clerk.status, StatusCode::FORBIDDEN);
    assert_eq!(save(Value::Null).await.status, StatusCode::OK);
    assert_eq!(limit().await.json(), Value::Null);
}

#[tokio::test]
async fn the_board_may_have_it_issued_under_chapter_55_instead() {
    let app = app_on_a_meeting_day().await;
    let d = desk(&app).await;
    let (id, token) = apply(&app, application(&civil::date_text(today(&app) + 30))).await;
    ready_for_the_board(&app, &d, &id, true).await;
    let routed = decide(
        &app,
        &d.selectman,
        &id,
        1,
        json!({ "decision": "chapter_55" }),
    )
    .await;
    assert_eq!(routed.status, StatusCode::OK, "{}", routed.body);
    assert_eq!(routed.json()["chapter_55"], true);
    let seen = status(&app, &token).await.json();
    assert_eq!(seen["state"], "chapter_55");
    // The Article II application ends there: no changes, no settlement.
    let amended = app
        .post(
            "/api/permits/amend",
            json!({ "token": token, "application": application(&civil::date_text(today(&app) + 30)) }),
            None,
        )
        .await;
    assert_eq!(amended.status, StatusCode::CONFLICT, "{}", amended.body);
    let pdf = app
        .get(&format!("/permits/{id}/pdf"), Some(&d.officer))
        .await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert_eq!(app.audit_actions("permit.route_chapter_55").await.len(), 1);
}

/// Issue #33: §52-10's "should" standards (the service roads' width, (2)(e);
/// the refuse containers, (5)(b) and (c)) are advice. The Board issues with
/// them open and the permit carries them; a denial cannot rest on them alone.
#[tokio::test]
async fn the_board_issues_with_only_advice_open() {
    let app = app_on_a_meeting_day().await;
    let d = desk(&app).await;
    let mut body = application(&civil::date_text(today(&app) + 30));
    body["provided"]["toilets_men"] = json!(4);
    body["provided"]["toilets_women"] = json!(4);
    body["provided"]["road_width_feet"] = json!(20);
    body["provided"]["parking_refuse"] = json!({ "fifty_gallon": 20, "sixteen_cubic_yard": 0 });
    let (id, token) = apply(&app, body).await;
    ready_for_the_board(&app, &d, &id, true).await;
    let before = record(&app, &d.selectman, &id).await;
    let standards: Vec<(String, String)> = before["shortfalls"]
        .as_array()
        .expect("present")
        .iter()
        .map(|s| {
            (
                s["provision"].as_str().expect("present").to_owned(),
                s["standard"].as_str().unwrap_or("shall").to_owned(),
            )
        })
        .collect();
    assert_eq!(
        standards,
        [
            ("S52_10_2E".to_owned(), "should".to_owned()),
            ("S52_10_5C".to_owned(), "should".to_owned())
        ],
        "{before}"
    );

    // Advice alone is no ground to deny (§52-8 B)…
    let denied = decide(
        &app,
        &d.selectman,
        &id,
        1,
        json!({ "decision": "deny", "findings": [] }),
    )
    .await;
    assert_eq!(denied.status, StatusCode::CONFLICT, "{}", denied.body);
    assert!(denied.body.contains("§52-8 B"), "{}", denied.body);
    assert!(denied.body.contains("advice"), "{}", denied.body);

    // …and the Board issues with it open; the advice goes with the permit.
    let issued = decide(&app, &d.selectman, &id, 1, json!({ "decision": "issue" })).await;
    assert_eq!(issued.status, StatusCode::OK, "{}", issued.body);
    let seen = status(&app, &token).await.json();
    assert_eq!(seen["state"], "issued");
    let advice = seen["decision"]["advice"].as_array().expect("advice");
    assert_eq!(advice.len(), 2, "{seen}");
    assert!(advice[1]["finding"]
        .as_str()
        .expect("present")
        .contains("where motor vehicles park"));
    let pdf = app
        .get(&format!("/permits/status/pdf?token={token}"), None)
        .await;
    assert_eq!(pdf.status, StatusCode::OK);
}

/// Issue #33: a denial rests on the "shall" standards not met and the Board's
/// findings; the "should" ones open beside them are listed as advice.
#[tokio::test]
async fn a_denial_lists_its_grounds_and_the_advice_apart() {
    let app = app_on_a_meeting_day().await;
    let d = desk(&app).await;
    let mut body = application(&civil::date_text(today(&app) + 30));
    body["provided"]["refuse"] = json!({ "fifty_gallon": 10, "sixteen_cubic_yard": 0 });
    let (id, token) = apply(&app, body).await;
    ready_for_the_board(&app, &d, &id, true).await;
    let refused = decide(&app, &d.selectman, &id, 1, json!({ "decision": "issue" })).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert!(
        !refused.body.contains("§52-10(5)(b)"),
        "advice is no reason to refuse: {}",
        refused.body
    );
    let denied = decide(
        &app,
        &d.selectman,
        &id,
        1,
        json!({ "decision": "deny", "findings": [] }),
    )
    .await;
    assert_eq!(denied.status, StatusCode::OK, "{}", denied.body);
    let seen = status(&app, &token).await.json();
    let grounds: Vec<&str> = seen["decision"]["reasons"]
        .as_array()
        .expect("reasons")
        .iter()
        .map(|r| r["provision"].as_str().expect("present"))
        .collect();
    assert_eq!(grounds, ["S52_10_4D", "S52_10_4D"], "{seen}");
    assert_eq!(seen["decision"]["advice"][0]["provision"], "S52_10_5B");
}

/// Issue #33, §52-10(5)(c): buses are motor vehicles; refuse collections are
/// counted per twelve-hour period of each day; toilets one for each 350 of the
/// persons each sex's serve.
#[tokio::test]
async fn the_calculator_counts_buses_days_and_each_sex() {
    let app = app_on_a_meeting_day().await;
    let d = desk(&app).await;
    let first = today(&app) + 30;
    let mut body = application(&civil::date_text(first));
    body["last_day"] = json!(civil::date_text(first + 2));
    body["starts"] = json!("12:00");
    body["ends"] = json!("16:00");
    body["buses"] = json!(4);
    body["expected_men"] = json!(1500);
    body["expected_women"] = json!(900);
    let (id, _) = apply(&app, body).await;
    let need = record(&app, &d.clerk, &id).await["requirements"].clone();
    assert_eq!(
        need["parking_refuse"]["fifty_gallon"], 25,
        "⌈604/25⌉: {need}"
    );
    assert_eq!(need["collections"], 6, "3 days of 4 h: {need}");
    assert_eq!(
        (need["toilets_men"].clone(), need["toilets_women"].clone()),
        (json!(5), json!(3)),
        "{need}"
    );
    // One of the two numbers alone is refused, named.
    let mut half = application(&civil::date_text(first));
    half["expected_men"] = json!(1500);
    let r = app
        .post("/api/permits/apply", json!({ "application": half }), None)
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert_eq!(
        r.json()["errors"][0]["field"],
        "expected_women",
        "{}",
        r.body
    );
    let mut wrong = application(&civil::date_text(first));
    wrong["expected_men"] = json!(1000);
    wrong["expected_women"] = json!(1000);
    let r = app
        .post("/api/permits/apply", json!({ "application": wrong }), None)
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(r.body.contains("§52-10(4)(d)"), "{}", r.body);
}
