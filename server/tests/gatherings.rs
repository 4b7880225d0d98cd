//! §52-7 on scene (issue #19): an officer records an unpermitted mass
//! gathering; the persons who put it on are cited under §52-12 through the
//! same numbering, review, court export and dispositions as Article I — and
//! those attending never are.

mod support;

use app::model::account::Role;
use app::model::incident::{IncidentReport, SubjectEntry};
use app::ordinance::article_ii::enforcement::{
    CountMethod, GatheringRole, GatheringScene, PermitCheck,
};
use app::ordinance::article_ii::Venue;
use app::ordinance::{Charge, Conduct, Offence, Response};
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use serde_json::json;
use support::{refusal_report, TestApp, ORIGIN};

fn person(template: &SubjectEntry, name: &str, role: GatheringRole, cite: bool) -> SubjectEntry {
    let mut p = template.clone();
    p.subject_id = uuid::Uuid::now_v7();
    if let app::model::incident::Identity::Identified { full_name, .. } = &mut p.identity {
        *full_name = name.to_owned();
    }
    p.facts.conduct = Conduct {
        gathering: Some(role),
        ..Conduct::default()
    };
    p.facts.order = None;
    p.facts.response = Response::NoOrder;
    p.charges = vec![Charge {
        offence: Offence::UnpermittedMassGathering,
        issue_citation: cite,
    }];
    p
}

/// 2,400 persons at a gate count for three hours, in a field, no permit.
fn gathering_report(app: &TestApp, subjects: &[(&str, GatheringRole, bool)]) -> IncidentReport {
    let mut report = refusal_report(app.clock_now());
    let template = report.subjects[0].clone();
    report.orders.clear();
    report.narrative = "Counted 2,400 at the two gates of the Drake farm field from 14:00; the \
                        promoter said the music runs to 19:00."
        .into();
    report.subjects = subjects
        .iter()
        .map(|(name, role, cite)| person(&template, name, *role, *cite))
        .collect();
    report.gathering = Some(GatheringScene {
        outdoor: true,
        counted: 2_400,
        count_method: CountMethod::GateCount,
        minutes: 180,
        venue: Venue::Open,
        permit: PermitCheck::NoneFound,
    });
    report
}

#[tokio::test]
async fn the_promoter_is_cited_for_1000_dollars_through_review_export_and_disposition() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    app.user("carla", &[Role::Chief]).await;
    app.user("dana", &[Role::Clerk]).await;
    let officer = app.session("oscar").await;
    let report = gathering_report(&app, &[("Pat Promoter", GatheringRole::Promoter, true)]);
    let receipt = app.submit(&officer, &report).await;
    assert_eq!(receipt.status, StatusCode::OK, "{}", receipt.body);
    let receipt = receipt.json();
    assert_eq!(receipt["outcomes"][0][1], "cited_gathering");
    assert_eq!(receipt["citations"][0]["offence"], "52-7");
    let number = receipt["citations"][0]["number"]
        .as_str()
        .expect("a number")
        .to_owned();
    assert!(number.starts_with("WPD-"), "the same numbering: {number}");
    let fine: i64 = sqlx::query_scalar("SELECT fine_cents FROM citation WHERE number = $1")
        .bind(&number)
        .fetch_one(&app.state.store.reader)
        .await
        .expect("stored");
    assert_eq!(fine, 100_000, "§52-12: $1,000");
    // The summons states the gathering and this person's part in the
    // ordinance's words; the chief's full report shows the crowd and the register.
    let summons = app
        .post(
            "/api/citations/get",
            json!({ "number": number }),
            Some(&officer),
        )
        .await;
    assert_eq!(summons.status, StatusCode::OK, "{}", summons.body);
    for words in [
        "2400 persons (gate or turnstile count) for 3 h, outdoors",
        "Promotes it",
        "no permit in the register covers it",
        "$1,000.00 plus costs",
    ] {
        assert!(summons.body.contains(words), "{words}: {}", summons.body);
    }
    let chief_reads = app.session("carla").await;
    let full = app
        .post(
            "/api/reports/get",
            json!({ "incident_id": report.incident_id }),
            Some(&chief_reads),
        )
        .await;
    assert!(full.body.contains("Gathering (§52-7)"), "{}", full.body);
    assert!(
        full.body
            .contains("Part in the gathering (§52-7) — Pat Promoter"),
        "{}",
        full.body
    );

    // The chief's review, then the clerk's export shows $1,000.00 and §52-7.
    let chief = app.session("carla").await;
    let decided = app
        .post(
            "/api/review/decide",
            json!({ "incident_id": report.incident_id, "revision": 1, "action": { "action": "approve" } }),
            Some(&chief),
        )
        .await;
    assert_eq!(decided.status, StatusCode::OK, "{}", decided.body);
    let clerk = app.session("dana").await;
    let csv = app
        .send(
            Request::post("/court/export")
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .header(header::ORIGIN, ORIGIN)
                .header(header::COOKIE, &clerk)
                .body(Body::from(format!("format=csv&numbers={number}")))
                .expect("request"),
        )
        .await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.body);
    assert!(csv.body.contains("$1,000.00"), "{}", csv.body);
    assert!(csv.body.contains("§52-7"), "{}", csv.body);
    assert!(csv.body.contains("§52-12"), "{}", csv.body);

    let today = app.state.settings.town_zone.date(app.clock_now());
    let filed = app
        .post(
            "/api/court/file",
            json!({ "filing": { "numbers": [number], "filed_on": today, "reference": "YORDC-CV-26-0099" } }),
            Some(&clerk),
        )
        .await;
    assert_eq!(filed.status, StatusCode::OK, "{}", filed.body);
    let dispose = |fine: i64| {
        app.post(
            "/api/court/dispose",
            json!({ "number": number, "disposition": { "kind": "guilty", "on": today, "fine_cents": fine, "costs_cents": 3_500 } }),
            Some(&clerk),
        )
    };
    let wrong = dispose(10_000).await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST, "{}", wrong.body);
    assert!(
        wrong.body.contains("§52-12 sets it at $1,000.00"),
        "{}",
        wrong.body
    );
    let right = dispose(100_000).await;
    assert_eq!(right.status, StatusCode::OK, "{}", right.body);
}

#[tokio::test]
async fn those_attending_are_never_cited_and_a_permit_held_means_no_violation() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let officer = app.session("oscar").await;
    let attendee = gathering_report(&app, &[("Ann Attendee", GatheringRole::Attendee, true)]);
    let refused = app.submit(&officer, &attendee).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    assert!(
        refused.body.contains("never the people attending"),
        "{}",
        refused.body
    );

    let mut permitted =
        gathering_report(&app, &[("Olive Operator", GatheringRole::Operator, true)]);
    if let Some(g) = permitted.gathering.as_mut() {
        g.permit = PermitCheck::Held {
            number: "MG-2026-0001".into(),
        };
    }
    let refused = app.submit(&officer, &permitted).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    assert!(refused.body.contains("MG-2026-0001"), "{}", refused.body);

    let mut small = gathering_report(&app, &[("Sam Sponsor", GatheringRole::Sponsor, true)]);
    if let Some(g) = small.gathering.as_mut() {
        g.counted = 499;
    }
    let refused = app.submit(&officer, &small).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    assert!(refused.body.contains("500 or more"), "{}", refused.body);

    // The same persons recorded without a citation are stored, warned.
    let recorded = gathering_report(
        &app,
        &[
            ("Ann Attendee", GatheringRole::Attendee, false),
            ("Pat Promoter", GatheringRole::Promoter, true),
        ],
    );
    let stored = app.submit(&officer, &recorded).await;
    assert_eq!(stored.status, StatusCode::OK, "{}", stored.body);
    let outcomes = &stored.json()["outcomes"];
    assert_eq!(outcomes[0][1], "warned");
    assert_eq!(outcomes[1][1], "cited_gathering");
    assert_eq!(app.count("citation").await, 1);
}
