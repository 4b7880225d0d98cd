//! Issue #37, "records that read untrue": what the desk stores and reads back
//! says what happened — an amendment of the narrative changes no time, the
//! year's number account shows every void, a caution filter finds what it
//! names, a changed court decision keeps its reason and the decision it
//! replaced.

mod support;

use app::model::incident::IncidentReport;
use app::ordinance::Moment;
use axum::http::StatusCode;
use serde_json::{json, Value};
use support::{desk, refusal_report, Desk};

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

/// A report in which the person was picketing: §52-1 E, no order, no charge.
fn picketing(now: Moment) -> IncidentReport {
    let mut report = refusal_report(now);
    report.orders.clear();
    report.narrative =
        "Held a sign about the zoning vote on the sidewalk; spoke to passers-by.".into();
    let facts = &mut report.subjects[0].facts;
    facts.protected_activity = app::ordinance::ProtectedActivity::PeacefulPicketing;
    facts.conduct = app::ordinance::Conduct::default();
    facts.order = None;
    facts.response = app::ordinance::Response::NoOrder;
    report.subjects[0].charges.clear();
    report
}

/// A refusal said out loud in the minute the order was given: counted at once.
fn refused_at_once(now: Moment) -> IncidentReport {
    let mut report = refusal_report(now);
    report.subjects[0].facts.response = app::ordinance::Response::Refused {
        at: Moment(report.orders[0].given_at.0 + 20_000),
        manner: app::ordinance::RefusalManner::RefusedVerbally,
    };
    report
}

impl Desk {
    async fn queue(&self, caution: &str) -> Vec<String> {
        let rows = self
            .chief(
                "/api/review/queue",
                json!({ "filter": { "caution": caution } }),
            )
            .await;
        rows.as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .filter_map(|r| r["incident_id"].as_str().map(str::to_owned))
            .collect()
    }
}

/// Finding 4: "Expression involved" found nothing while the dashboard counted
/// the §52-1 E reports; "Refused before the time allowed" found nothing though a
/// refusal was recorded in the order's minute.
#[tokio::test]
async fn the_caution_filters_find_expression_and_refusals_before_the_time_allowed() {
    let d = desk().await;
    let now = d.app.clock_now();
    let plain = refusal_report(now);
    let picket = picketing(now);
    let at_once = refused_at_once(now);
    for report in [&plain, &picket, &at_once] {
        let reply = d.app.submit(&d.officer, report).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    assert_eq!(
        d.queue("expression").await,
        [picket.incident_id.to_string()]
    );
    assert_eq!(
        d.queue("early_refusal").await,
        [at_once.incident_id.to_string()]
    );
    // The full report says why, in words.
    let view = d.view(&at_once).await;
    let cautions = view["cautions"].to_string();
    assert!(cautions.contains("§52-1 D"), "{cautions}");
    assert!(cautions.contains("Refused out loud"), "{cautions}");
    let view = d.view(&picket).await;
    assert!(view["cautions"].to_string().contains("§52-1 E"), "{view}");

    // Reports stored before the cautions were written get them from the
    // migration, on either engine.
    let writer = &d.app.state.store.writer;
    sqlx::query("UPDATE incident SET cautions = ''")
        .execute(writer)
        .await
        .expect("stored before");
    assert!(d.queue("expression").await.is_empty());
    let migration = if d.app.postgres.is_some() {
        include_str!("../migrations-postgres/20261207000401_record_cautions.sql")
    } else {
        include_str!("../migrations/20261207000401_record_cautions.sql")
    };
    sqlx::raw_sql(migration)
        .execute(writer)
        .await
        .expect("the migration runs");
    assert_eq!(
        d.queue("expression").await,
        [picket.incident_id.to_string()]
    );
    assert_eq!(
        d.queue("early_refusal").await,
        [at_once.incident_id.to_string()]
    );
}

/// Finding 6: a court decision changed with a reason showed only "Dismissed
/// on …": the reason and the decision it replaced are the record.
#[tokio::test]
async fn a_changed_court_decision_keeps_its_reason_and_the_decision_it_replaced() {
    let d = desk().await;
    let report = refusal_report(d.app.clock_now());
    let number = d.submit(&report).await;
    d.chief(
        "/api/review/decide",
        json!({ "incident_id": report.incident_id, "revision": 1, "action": { "action": "approve" } }),
    )
    .await;
    let clerk = d.app.session("dana").await;
    let call = |path: &'static str, body: Value| {
        let app = &d.app;
        let clerk = clerk.clone();
        async move {
            let reply = app.post(path, body, Some(&clerk)).await;
            assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.body);
            reply.json()
        }
    };
    call(
        "/api/court/file",
        json!({ "filing": { "numbers": [number], "filed_on": "2026-07-04", "reference": "YORDC-CV-26-7" } }),
    )
    .await;
    call(
        "/api/court/dispose",
        json!({ "number": number, "disposition": { "kind": "guilty", "on": "2026-07-04", "fine_cents": 10000, "costs_cents": 3500 } }),
    )
    .await;
    call(
        "/api/court/dispose",
        json!({ "number": number, "disposition": { "kind": "dismissed", "on": "2026-07-04", "reason": "Vacated on appeal; the clerk's letter of July 4." } }),
    )
    .await;
    let citation = call("/api/court/citation", json!({ "number": number })).await;
    let history = citation["history"].as_array().cloned().unwrap_or_default();
    let last = history.last().expect("the change");
    assert_eq!(last["kind"], "Dismissed");
    let details = last["details"].as_str().unwrap_or_default();
    assert!(
        details.contains("replacing “Found to have committed the violation” of 2026-07-04"),
        "{details}"
    );
    assert!(
        details.contains("reason: Vacated on appeal; the clerk's letter of July 4."),
        "{details}"
    );
}

/// Finding 10: a hearing on Christmas Day was accepted silently, though the app
/// knows the court's closed days.
#[tokio::test]
async fn a_hearing_on_a_day_the_court_does_not_sit_is_refused_with_the_day_named() {
    let d = desk().await;
    let report = refusal_report(d.app.clock_now());
    let number = d.submit(&report).await;
    d.chief(
        "/api/review/decide",
        json!({ "incident_id": report.incident_id, "revision": 1, "action": { "action": "approve" } }),
    )
    .await;
    let clerk = d.app.session("dana").await;
    let filed = d
        .app
        .post(
            "/api/court/file",
            json!({ "filing": { "numbers": [number], "filed_on": "2026-07-04", "reference": "YORDC-CV-26-8" } }),
            Some(&clerk),
        )
        .await;
    assert_eq!(filed.status, StatusCode::OK, "{}", filed.body);
    let contest = |hearing: &str| json!({ "number": number, "disposition": { "kind": "contested", "on": "2026-07-04", "hearing_on": hearing } });
    let refused = d
        .app
        .post("/api/court/dispose", contest("2026-12-25"), Some(&clerk))
        .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    assert_eq!(refused.json()["errors"][0]["field"], "hearing_on");
    assert!(
        refused.body.contains("2026-12-25 is Christmas Day"),
        "{}",
        refused.body
    );
    let set = d
        .app
        .post("/api/court/dispose", contest("2026-12-28"), Some(&clerk))
        .await;
    assert_eq!(set.status, StatusCode::OK, "{}", set.body);
}
