//! Article II as the Board of Selectmen works (issue #37, findings 8, 9, 10):
//! a decision is the Board's, made at or after the meeting the Town Clerk
//! scheduled, on a motion the Board carried, recorded by a Selectman or the
//! Town Clerk; no meeting on a weekend or a Town holiday; a finding the Board
//! adds stays open — through the operator's changes — until the Board marks it
//! met, the operator may answer it, and no permit issues while it is open.

#![recursion_limit = "256"]

mod support;

use app::model::account::Role;
use app::model::civil;
use axum::http::StatusCode;
use serde_json::{json, Value};
use support::TestApp;

fn today(app: &TestApp) -> i64 {
    civil::day_number(&app.state.settings.town_zone.date(app.clock_now())).expect("present")
}

/// A plan for 2,400 persons on `first_day` that meets every standard the rules
/// check.
fn application(first_day: &str) -> Value {
    json!({
        "operator": "Harbor Fest LLC", "operator_address": "1 Post Road, Wells ME 04090",
        "operator_phone": "207-555-0100", "operator_email": "", "sponsor": "",
        "landowner": "Town of Wells", "lessee": "", "place": "Wells Harbor Park",
        "map_point": "", "purpose": "Summer music festival",
        "first_day": first_day, "last_day": first_day, "starts": "10:00", "ends": "18:00",
        "attendance": 2400, "vehicles": 600, "buses": 0, "water_under_pressure": false,
        "provided": {
            "parking_spaces": 600, "parking_acre_hundredths": 600, "road_lanes": 2,
            "road_parking_lanes": 0, "road_width_feet": 24, "site_square_feet": 30000,
            "overnight": false, "lighting": true, "traffic_control": true, "potable_water": true,
            "water_gallons_per_day": 7200, "water_psi": null, "toilets_men": 4, "toilets_women": 4,
            "refuse": { "fifty_gallon": 24, "sixteen_cubic_yard": 0 },
            "parking_refuse": { "fifty_gallon": 24, "sixteen_cubic_yard": 0 },
            "collections": 2, "clear_within_hours": 24, "fire_department_informed": true,
            "officers": 15, "physician_supervision": true, "first_aid_station": true,
            "ambulances_on_site": true, "phone_and_radio": true, "hospitals_told": true,
            "sound_precautions": true, "insurance_per_person_cents": 30000000,
            "insurance_per_occurrence_cents": 50000000, "insurance_property_cents": 10000000,
            "bond_cents": 0, "deposit_cents": 0
        },
        "refuse_plan": "Two collections", "lighting_plan": "Ends before dark",
        "medical_plan": "Dr. Ames supervises"
    })
}

struct Town {
    app: TestApp,
    clerk: String,
    selectman: String,
}

/// The Town on Monday 2026-12-07 (the test clock starts on Saturday
/// 2026-07-04; moved on 156 days).
async fn town() -> Town {
    let app = TestApp::new().await;
    app.clock.advance_minutes(156 * 24 * 60);
    assert_eq!(civil::date_text(today(&app)), "2026-12-07");
    app.user("nora", &[Role::TownClerk]).await;
    app.user("hal", &[Role::Selectman]).await;
    let clerk = app.session("nora").await;
    let selectman = app.session("hal").await;
    Town {
        app,
        clerk,
        selectman,
    }
}

impl Town {
    async fn call(&self, path: &str, body: Value, cookie: Option<&str>) -> support::Reply {
        self.app.post(path, body, cookie).await
    }

    /// Filed online, fee and security recorded; (id, token).
    async fn filed(&self, body: Value) -> (String, String) {
        let r = self
            .call("/api/permits/apply", json!({ "application": body }), None)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        let id = r.json()["application_id"].as_str().expect("id").to_owned();
        let token = r.json()["token"].as_str().expect("token").to_owned();
        for action in [
            json!({ "entry": "fee", "receipt": "R-1" }),
            json!({ "entry": "security", "estimated_costs_cents": 1_000_000, "bond_cents": 500_000, "deposit_cents": 1_200_000 }),
        ] {
            let r = self.clerk_entry(&id, action).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        }
        (id, token)
    }

    async fn clerk_entry(&self, id: &str, action: Value) -> support::Reply {
        self.call(
            "/api/permits/clerk",
            json!({ "application_id": id, "action": action }),
            Some(&self.clerk),
        )
        .await
    }

    async fn schedule(&self, id: &str, day: &str) -> support::Reply {
        self.clerk_entry(id, json!({ "entry": "schedule", "day": day }))
            .await
    }

    async fn decide(
        &self,
        cookie: &str,
        id: &str,
        revision: i64,
        decision: Value,
        vote: Value,
    ) -> support::Reply {
        self.call(
            "/api/permits/decide",
            json!({ "application_id": id, "revision": revision, "decision": decision, "vote": vote }),
            Some(cookie),
        )
        .await
    }

    async fn record(&self, id: &str) -> Value {
        let r = self
            .call(
                "/api/permits/get",
                json!({ "application_id": id }),
                Some(&self.selectman),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        r.json()
    }

    /// Moves the Town's clock on `days` days; the sessions are signed in again.
    async fn days_pass(&mut self, days: i64) {
        self.app.clock.advance_minutes(days * 24 * 60);
        self.clerk = self.app.session("nora").await;
        self.selectman = self.app.session("hal").await;
    }
}

fn vote(day: &str) -> Value {
    json!({ "meeting_day": day, "moved_by": "Selectman Ames", "seconded_by": "Selectman Bell",
            "in_favour": 3, "against": 1, "abstaining": 1 })
}

fn errors(reply: &support::Reply) -> String {
    reply.json()["errors"].to_string()
}

/// Finding 8: one Selectman's account denied at one click, dated 2026-12-07,
/// "considered 2026-12-26". A decision is the Board's at or after its meeting.
#[tokio::test]
async fn a_decision_is_the_boards_at_or_after_the_scheduled_meeting_with_its_motion_and_vote() {
    let mut t = town().await;
    let (id, token) = t.filed(application("2027-02-01")).await;
    // The Board meets on Tuesday 2026-12-15.
    let r = t.schedule(&id, "2026-12-15").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);

    // Dated before the consideration: refused, §52-9 B named.
    let early = t
        .decide(
            &t.selectman,
            &id,
            1,
            json!({ "decision": "issue" }),
            vote("2026-12-07"),
        )
        .await;
    assert_eq!(early.status, StatusCode::BAD_REQUEST, "{}", early.body);
    let said = errors(&early);
    assert!(said.contains("§52-9 B"), "{said}");
    assert!(said.contains("scheduled for 2026-12-15"), "{said}");
    // Without the Board's vote, nothing is decided: the old one-click call.
    let click = t
        .call(
            "/api/permits/decide",
            json!({ "application_id": id, "revision": 1, "decision": { "decision": "issue" } }),
            Some(&t.selectman),
        )
        .await;
    assert_eq!(click.status, StatusCode::BAD_REQUEST, "{}", click.body);
    assert_eq!(t.record(&id).await["state"], "scheduled");

    t.days_pass(8).await;
    // A meeting that has not been held, and a motion that lost, are refused.
    let future = t
        .decide(
            &t.selectman,
            &id,
            1,
            json!({ "decision": "issue" }),
            vote("2026-12-16"),
        )
        .await;
    assert_eq!(future.status, StatusCode::BAD_REQUEST, "{}", future.body);
    assert!(errors(&future).contains("has not come"), "{}", future.body);
    let mut lost = vote("2026-12-15");
    lost["in_favour"] = json!(2);
    lost["against"] = json!(2);
    let lost = t
        .decide(&t.selectman, &id, 1, json!({ "decision": "issue" }), lost)
        .await;
    assert_eq!(lost.status, StatusCode::BAD_REQUEST, "{}", lost.body);
    assert!(
        errors(&lost).contains("did not carry (2 for, 2 against"),
        "{}",
        lost.body
    );
    let mut unmoved = vote("2026-12-15");
    unmoved["moved_by"] = json!(" ");
    let unmoved = t
        .decide(
            &t.selectman,
            &id,
            1,
            json!({ "decision": "issue" }),
            unmoved,
        )
        .await;
    assert_eq!(unmoved.status, StatusCode::BAD_REQUEST);
    assert_eq!(unmoved.json()["errors"][0]["field"], "moved_by");

    // The Town Clerk records the Board's decision of the 15th.
    let issued = t
        .decide(
            &t.clerk,
            &id,
            1,
            json!({ "decision": "issue" }),
            vote("2026-12-15"),
        )
        .await;
    assert_eq!(issued.status, StatusCode::OK, "{}", issued.body);
    let record = t.record(&id).await;
    let decision = &record["decision"];
    assert_eq!(
        decision["day"],
        civil::day_number("2026-12-15").expect("day")
    );
    assert_eq!(decision["by"], "the Board of Selectmen");
    assert_eq!(decision["board"]["moved_by"], "Selectman Ames");
    assert_eq!(decision["board"]["seconded_by"], "Selectman Bell");
    assert_eq!(
        decision["board"]["vote"],
        json!({ "in_favour": 3, "against": 1, "abstaining": 1 })
    );
    assert_eq!(decision["board"]["recorded_by"], "nora tester");
    assert_eq!(
        decision["board"]["recorded_day"],
        civil::day_number("2026-12-15").expect("day")
    );
    let history = record["history"].to_string();
    assert!(
        history.contains("by the Board at its meeting of 2026-12-15: Moved by Selectman Ames, seconded by Selectman Bell; 3 for, 1 against, 1 abstaining"),
        "{history}"
    );
    // The operator reads the Board's decision, not who typed it in.
    let seen = t
        .call("/api/permits/status", json!({ "token": token }), None)
        .await
        .json();
    assert_eq!(seen["decision"]["board"]["recorded_by"], "the Town");
}

/// Finding 10: a Selectmen's meeting on a Saturday was accepted silently.
#[tokio::test]
async fn no_meeting_is_scheduled_or_recorded_on_a_weekend_or_a_town_holiday() {
    let t = town().await;
    let (id, _) = t.filed(application("2027-02-01")).await;
    for (day, words) in [
        ("2026-12-12", "2026-12-12 is a Saturday"),
        ("2026-12-25", "2026-12-25 is Christmas Day"),
    ] {
        let r = t.schedule(&id, day).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
        assert!(r.body.contains(words), "{}", r.body);
    }
    assert_eq!(t.schedule(&id, "2026-12-07").await.status, StatusCode::OK);
    // A decision dated on a Sunday is refused with the day named.
    let r = t
        .decide(
            &t.selectman,
            &id,
            1,
            json!({ "decision": "issue" }),
            vote("2026-12-06"),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(errors(&r).contains("2026-12-06 is a Sunday"), "{}", r.body);
}

/// Finding 9: a Board finding added to a denial disappeared once the operator
/// fixed the calculator's items, and the permit was issued with it unanswered.
#[tokio::test]
async fn a_board_finding_stays_open_until_the_board_marks_it_met() {
    let mut t = town().await;
    let mut body = application("2027-02-01");
    body["provided"]["toilets_men"] = json!(3);
    let (id, token) = t.filed(body).await;
    assert_eq!(t.schedule(&id, "2026-12-07").await.status, StatusCode::OK);
    let gate = json!({ "provision": "S52_10_2B",
        "finding": "The plan clears the tree line at the north field for a second gate.",
        "step": "Put the second gate at the existing farm road, leaving the trees." });
    let denied = t
        .decide(
            &t.selectman,
            &id,
            1,
            json!({ "decision": "deny", "findings": [gate] }),
            vote("2026-12-07"),
        )
        .await;
    assert_eq!(denied.status, StatusCode::OK, "{}", denied.body);
    let reasons: Vec<String> = denied.json()["reasons"]
        .as_array()
        .expect("reasons")
        .iter()
        .map(|r| r["provision"].as_str().expect("a provision").to_owned())
        .collect();
    assert_eq!(reasons, ["S52_10_4D", "S52_10_2B"]);

    // The operator fixes the toilets and answers the finding through the link.
    let mut fixed = application("2027-02-01");
    fixed["provided"]["toilets_men"] = json!(4);
    let r = t
        .call(
            "/api/permits/amend",
            json!({ "token": token, "application": fixed }),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let seen = t
        .call("/api/permits/status", json!({ "token": token }), None)
        .await
        .json();
    let finding = &seen["findings"][0];
    assert!(finding["met"].is_null(), "still open: {seen}");
    assert!(seen["shortfalls"].as_array().expect("list").is_empty());
    let finding_id = finding["finding_id"].as_str().expect("an id").to_owned();
    let r = t
        .call(
            "/api/permits/answer-finding",
            json!({ "token": token, "finding_id": finding_id,
                    "answer": "The second gate now uses the farm road; the tree line stays." }),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);

    // Back before the Board: no permit while the finding is open.
    t.days_pass(1).await;
    assert_eq!(t.schedule(&id, "2026-12-08").await.status, StatusCode::OK);
    let refused = t
        .decide(
            &t.selectman,
            &id,
            2,
            json!({ "decision": "issue" }),
            vote("2026-12-08"),
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert!(refused.body.contains("§52-10(2)(b)"), "{}", refused.body);
    assert!(refused.body.contains("§52-8 A"), "{}", refused.body);
    let record = t.record(&id).await;
    assert_eq!(
        record["findings"][0]["answer"],
        "The second gate now uses the farm road; the tree line stays."
    );

    // The Board marks it met at its meeting (not before the meeting that found it).
    let mark = |day: &str| {
        json!({ "application_id": id, "finding_id": finding_id, "meeting_day": day,
                "note": "The farm road gate leaves the trees; met." })
    };
    let r = t
        .call(
            "/api/permits/finding-met",
            mark("2026-12-04"),
            Some(&t.selectman),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    let r = t
        .call(
            "/api/permits/finding-met",
            mark("2026-12-08"),
            Some(&t.selectman),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let again = t
        .call(
            "/api/permits/finding-met",
            mark("2026-12-08"),
            Some(&t.selectman),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    let record = t.record(&id).await;
    assert_eq!(record["findings"][0]["met"]["day"], "2026-12-08");
    assert_eq!(record["findings"][0]["met"]["by"], "hal tester");
    let issued = t
        .decide(
            &t.selectman,
            &id,
            2,
            json!({ "decision": "issue" }),
            vote("2026-12-08"),
        )
        .await;
    assert_eq!(issued.status, StatusCode::OK, "{}", issued.body);
    assert_eq!(t.app.audit_actions("permit.finding_met").await.len(), 1);
    assert_eq!(t.app.audit_actions("permit.finding_answer").await.len(), 1);
}

/// Decisions recorded before the Board's meeting and vote were asked read and
/// print as they were written: the Selectman's name, the day entered.
#[tokio::test]
async fn a_decision_stored_before_the_boards_vote_was_asked_reads_and_prints_as_written() {
    let t = town().await;
    let (id, token) = t.filed(application("2027-02-01")).await;
    let stored = json!({ "issued": false, "chapter_55": false, "revision": 1,
        "day": civil::day_number("2026-11-30").expect("day"), "by": "Selectman Hal Greene",
        "reasons": [{ "provision": "S52_8", "finding": "§52-10(2)(b): the tree line is cleared.",
                      "step": "Leave the trees." }] });
    sqlx::query(
        "UPDATE permit_application SET state = 'denied', decision_json = $1 WHERE application_id = $2",
    )
    .bind(stored.to_string())
    .bind(&id)
    .execute(&t.app.state.store.writer)
    .await
    .expect("an old decision");
    let record = t.record(&id).await;
    assert_eq!(record["decision"]["by"], "Selectman Hal Greene");
    assert!(record["decision"].get("board").is_none(), "{record}");
    let pdf = t
        .app
        .get(&format!("/permits/status/pdf?token={token}"), None)
        .await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert!(pdf.body.starts_with("%PDF"));
    // The double section of finding 18 reads once.
    let shortfall: app::ordinance::article_ii::Shortfall =
        serde_json::from_value(record["decision"]["reasons"][0].clone()).expect("a reason");
    assert_eq!(
        shortfall.reason(),
        "§52-10(2)(b): the tree line is cleared."
    );
}
