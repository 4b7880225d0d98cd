//! Issue #37, "records that read untrue": what the desk stores and reads back
//! says what happened — an amendment of the narrative changes no time, the
//! year's number account shows every void, a caution filter finds what it
//! names, a changed court decision keeps its reason and the decision it
//! replaced.

mod support;

use app::model::account::Role;
use app::model::incident::IncidentReport;
use app::ordinance::Moment;
use axum::http::StatusCode;
use serde_json::{json, Value};
use support::{refusal_report, TestApp};

struct Desk {
    app: TestApp,
    officer: String,
    chief: String,
}

async fn desk() -> Desk {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    app.user("carla", &[Role::Chief]).await;
    app.user("dana", &[Role::Clerk]).await;
    let officer = app.session("oscar").await;
    let chief = app.session("carla").await;
    Desk {
        app,
        officer,
        chief,
    }
}

impl Desk {
    async fn submit(&self, report: &IncidentReport) -> String {
        let receipt = self.app.submit(&self.officer, report).await;
        assert_eq!(receipt.status, StatusCode::OK, "{}", receipt.body);
        receipt.json()["citations"][0]["number"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    async fn chief(&self, path: &str, body: Value) -> Value {
        let reply = self.app.post(path, body, Some(&self.chief)).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.body);
        reply.json()
    }

    async fn view(&self, report: &IncidentReport) -> Value {
        self.chief(
            "/api/reports/get",
            json!({ "incident_id": report.incident_id }),
        )
        .await
    }
}

/// A time to its minute, as a `datetime-local` input sends it back.
fn minute(m: Moment) -> Moment {
    Moment(m.0 - m.0.rem_euclid(60_000))
}

/// Finding 1: the amend page rebuilt every time from the minute it shows, so
/// an amendment of the narrative alone lost the stored seconds and the history
/// listed the date, the order and the response as changed, with the same value
/// on both sides.
#[tokio::test]
async fn amending_only_the_narrative_keeps_every_stored_time_and_lists_no_time_change() {
    let d = desk().await;
    let mut report = refusal_report(d.app.clock_now());
    // Times with seconds, as a phone's "now" records them.
    report.occurred_at = Moment(report.occurred_at.0 + 17_250);
    report.orders[0].given_at = Moment(report.orders[0].given_at.0 + 42_000);
    let response = report.subjects[0].facts.response;
    let at = response.at().expect("a refusal has a time");
    report.subjects[0].facts.response = response.at_time(Moment(at.0 + 31_500));
    d.submit(&report).await;
    d.chief(
        "/api/review/decide",
        json!({ "incident_id": report.incident_id, "revision": 1, "action": { "action": "approve" } }),
    )
    .await;

    let mut sent = report.clone();
    sent.occurred_at = minute(report.occurred_at);
    sent.orders[0].given_at = minute(report.orders[0].given_at);
    let stored_response = report.subjects[0].facts.response;
    sent.subjects[0].facts.response =
        stored_response.at_time(minute(stored_response.at().expect("a refusal has a time")));
    sent.narrative = format!("{} They laughed and stayed.", report.narrative);
    d.chief(
        "/api/review/amend",
        json!({ "report": sent, "reason": "The officer's notes add what was said." }),
    )
    .await;

    let view = d.view(&report).await;
    let changes = view["history"][1]["changes"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let fields: Vec<&str> = changes.iter().filter_map(|c| c["field"].as_str()).collect();
    assert_eq!(fields, ["narrative"], "{changes:?}");
    let stored: IncidentReport =
        serde_json::from_value(view["report"].clone()).expect("the stored report");
    assert_eq!(stored.occurred_at, report.occurred_at);
    assert_eq!(stored.orders, report.orders);
    assert_eq!(
        stored.subjects[0].facts.response,
        report.subjects[0].facts.response
    );
    // A time moved to another minute is a change, listed.
    let mut moved = stored.clone();
    moved.occurred_at = Moment(minute(report.occurred_at).0 - 60_000);
    d.chief(
        "/api/review/amend",
        json!({ "report": moved, "reason": "Began a minute earlier, per the dispatch log." }),
    )
    .await;
    let view = d.view(&report).await;
    let fields: Vec<String> = view["history"][2]["changes"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter_map(|c| c["field"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(fields, ["occurred_at"]);
}

/// Finding 2: the year's account said "Void 0" after the chief voided a
/// citation; a correction's void was not counted either.
#[tokio::test]
async fn the_number_account_shows_every_void_by_whom_and_why() {
    let d = desk().await;
    let first = d.submit(&refusal_report(d.app.clock_now())).await;
    d.submit(&refusal_report(d.app.clock_now())).await;
    d.chief(
        "/api/review/void",
        json!({ "number": first, "reason": "Entered against the wrong person." }),
    )
    .await;
    let account = d
        .chief("/api/numbers/account", json!({ "year": null }))
        .await;
    assert_eq!(account["issued"], 2, "{account}");
    assert_eq!(account["voided_citations"], 1, "{account}");
    let voids = account["voids"].as_array().cloned().unwrap_or_default();
    assert_eq!(voids.len(), 1, "{account}");
    assert_eq!(voids[0]["number"], json!(first));
    assert_eq!(voids[0]["by"], "carla tester");
    assert_eq!(voids[0]["reason"], "Entered against the wrong person.");
    assert_eq!(voids[0]["citation"], true);
    assert_eq!(account["missing"], json!([]));
}
