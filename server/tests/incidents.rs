//! The officer's submit: citations, idempotency, bad input, who may read what.

mod support;

use std::sync::Arc;

use app::model::account::Role;
use app::model::incident::{Identity, IncidentReport};
use app::ordinance::{Moment, ProtectedActivity, Response};
use app::store::incidents;
use app::store::numbers::Issuing;
use axum::http::StatusCode;
use serde_json::{json, Value};
use support::{refusal_report, TestApp};

#[tokio::test]
async fn a_refusal_is_stored_with_a_numbered_hundred_dollar_citation() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let cookie = app.session("oscar").await;
    let report = refusal_report(app.clock_now());
    let reply = app.submit(&cookie, &report).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let receipt = reply.json();
    assert_eq!(receipt["citations"][0]["number"], "WPD-2026-000001");
    assert_eq!(receipt["outcomes"][0][1], "cited");
    assert_eq!(receipt["already_stored"], false);
    let (fine, status): (i64, String) = sqlx::query_as("SELECT fine_cents, status FROM citation")
        .fetch_one(&app.state.store.reader)
        .await
        .expect("citation");
    assert_eq!((fine, status.as_str()), (10_000, "issued"));
    let issued = app.audit_actions("citation.issue").await;
    assert_eq!(issued.len(), 1);
}

/// #35: the receipt listed outcomes with no names ("Cited — $100.00 plus costs"
/// twice, for two persons): each line says whose it is, as stored, also when
/// read back on a retry.
#[tokio::test]
async fn the_receipt_says_whose_outcome_each_line_is() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let cookie = app.session("oscar").await;
    let mut report = refusal_report(app.clock_now());
    if let Identity::Identified { full_name, .. } = &mut report.subjects[0].identity {
        *full_name = "  Alex Morgan ".into();
    }
    let receipt = |reply: support::Reply| -> app::model::incident::Receipt {
        serde_json::from_value(reply.json()).expect("a receipt")
    };
    let first = receipt(app.submit(&cookie, &report).await);
    let subject = report.subjects[0].subject_id;
    assert_eq!(first.persons, vec![(subject, "Alex Morgan".to_owned())]);
    assert_eq!(first.named_outcomes()[0].0.as_deref(), Some("Alex Morgan"));
    let again = receipt(app.submit(&cookie, &report).await);
    assert_eq!(again.persons, first.persons);
}

#[tokio::test]
async fn a_retried_submit_is_stored_once_and_returns_the_same_citation_number() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let cookie = app.session("oscar").await;
    let report = refusal_report(app.clock_now());
    let first = app.submit(&cookie, &report).await.json();
    // The response was lost on a dropped connection; the phone sends it again.
    let again = app.submit(&cookie, &report).await;
    assert_eq!(again.status, StatusCode::OK);
    let again = again.json();
    // The first receipt tells what was written; the retry's is read back from
    // the file: they must agree on everything but the retry itself.
    for field in ["incident_id", "status", "outcomes", "citations", "persons"] {
        assert_eq!(again[field], first[field], "{field}");
    }
    assert_eq!(first["already_stored"], false);
    assert_eq!(again["already_stored"], true);
    assert_eq!(app.count("incident").await, 1);
    assert_eq!(app.count("citation").await, 1);
    assert_eq!(app.audit_actions("citation.issue").await.len(), 1);
}

#[tokio::test]
async fn the_same_id_with_different_content_is_refused() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let cookie = app.session("oscar").await;
    let mut report = refusal_report(app.clock_now());
    app.submit(&cookie, &report).await;
    report.narrative.push_str(" Changed.");
    let reply = app.submit(&cookie, &report).await;
    assert_eq!(reply.status, StatusCode::CONFLICT);
    assert_eq!(app.count("incident").await, 1);
}

#[tokio::test]
async fn citation_numbers_restart_each_year_in_the_towns_time_zone() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let cookie = app.session("oscar").await;
    app.submit(&cookie, &refusal_report(app.clock_now())).await;
    // 2027-01-01 04:30 UTC is still 2026-12-31 in Wells.
    let new_years_eve = Moment(1_798_777_800_000);
    app.clock.advance_ms(new_years_eve.0 - app.clock_now().0);
    let cookie = app.session("oscar").await;
    let late = app
        .submit(&cookie, &refusal_report(app.clock_now()))
        .await
        .json();
    assert_eq!(late["citations"][0]["number"], "WPD-2026-000002");
    app.clock.advance_minutes(60);
    let cookie = app.session("oscar").await;
    let new_year = app
        .submit(&cookie, &refusal_report(app.clock_now()))
        .await
        .json();
    assert_eq!(new_year["citations"][0]["number"], "WPD-2027-000001");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_tasks_issuing_500_citations_each_get_contiguous_unique_numbers() {
    let app = TestApp::new().await;
    let officer_id = app.user("oscar", &[Role::Officer]).await;
    let officer = Arc::new(app::auth::Actor::resolved(app::model::account::Me {
        user_id: officer_id,
        username: "oscar".into(),
        full_name: "oscar tester".into(),
        badge_number: Some("101".into()),
        roles: vec![Role::Officer],
        must_change_password: false,
        needs_second_factor: false,
    }));
    let now = app.clock_now();
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let (store, officer, zone) = (
            app.state.store.clone(),
            officer.clone(),
            app.state.settings.town_zone.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let mut numbers = Vec::new();
            for _ in 0..500 {
                let report = refusal_report(now);
                let verdicts = app::model::incident::check(&report, now).expect("valid");
                let issuing = Issuing {
                    officer: &officer,
                    source: None,
                    now,
                    zone: &zone,
                };
                let receipt = incidents::submit(&store, issuing, &report, &verdicts)
                    .await
                    .expect("submit");
                numbers.push(receipt.citations[0].number.clone());
            }
            numbers
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.expect("task"));
    }
    all.sort();
    let expected: Vec<String> = (1..=4000).map(|n| format!("WPD-2026-{n:06}")).collect();
    assert_eq!(
        all, expected,
        "contiguous 1..=4000 with no gap and no duplicate"
    );
    // The number the database wrote is the form the code prints, of its own year and seq.
    let stored: Vec<(String, i64, i64)> = sqlx::query_as("SELECT number, year, seq FROM citation")
        .fetch_all(&app.state.store.reader)
        .await
        .expect("citations");
    for (number, year, seq) in stored {
        assert_eq!(number, incidents::citation_number(year as i16, seq));
    }
    let verified = app::store::audit::verify(&app.state.store.reader)
        .await
        .expect("read");
    assert!(verified.is_ok(), "{verified:?}");
}

/// A bad report: 400 naming the field, nothing stored.
async fn refused(app: &TestApp, cookie: &str, body: Value, field: &str, text: &str) {
    let before = app.count("incident").await;
    let reply = app.post("/api/incidents/submit", body, Some(cookie)).await;
    assert_eq!(
        reply.status,
        StatusCode::BAD_REQUEST,
        "{field}: {}",
        reply.body
    );
    let errors = reply.json()["errors"].clone();
    let hit = errors
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| e["field"] == field)
        .unwrap_or_else(|| panic!("no error at {field}: {errors}"));
    assert!(
        hit["message"].as_str().unwrap_or_default().contains(text),
        "{field}: {hit}"
    );
    assert_eq!(
        app.count("incident").await,
        before,
        "{field}: nothing stored"
    );
}

fn with(report: &IncidentReport, change: impl FnOnce(&mut IncidentReport)) -> Value {
    let mut r = report.clone();
    r.incident_id = uuid::Uuid::now_v7();
    change(&mut r);
    json!({ "report": r })
}

#[tokio::test]
async fn every_kind_of_bad_input_is_a_clear_400_and_stores_nothing() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let cookie = app.session("oscar").await;
    let now = app.clock_now();
    let base = refusal_report(now);
    let name = |r: &mut IncidentReport, text: &str| {
        if let Identity::Identified { full_name, .. } = &mut r.subjects[0].identity {
            *full_name = text.to_owned();
        }
    };
    let dob = |r: &mut IncidentReport, text: &str| {
        if let Identity::Identified { date_of_birth, .. } = &mut r.subjects[0].identity {
            *date_of_birth = text.to_owned();
        }
    };
    refused(
        &app,
        &cookie,
        with(&base, |r| r.narrative = "x".repeat(20_001)),
        "narrative",
        "20000",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| r.narrative = "   ".into()),
        "narrative",
        "conduct",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| name(r, &"n".repeat(201))),
        "subjects.0.full_name",
        "200",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| dob(r, "2026-02-30")),
        "subjects.0.date_of_birth",
        "real date",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| dob(r, "2030-01-01")),
        "subjects.0.date_of_birth",
        "future",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| r.occurred_at = Moment(now.0 + 3_600_000)),
        "occurred_at",
        "future",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| {
            r.subjects[0].facts.response = Response::Refused {
                at: Moment(now.0 + 3_600_000),
                manner: app::ordinance::RefusalManner::StayedInPlace,
            }
        }),
        "subjects.0.response_at",
        "future",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| {
            if let Some(g) = r.location.gps.as_mut() {
                g.latitude = 91.0
            }
        }),
        "location.gps",
        "latitude",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| {
            let again = r.subjects[0].clone();
            r.subjects.push(again);
        }),
        "subjects.1.subject_id",
        "twice",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| {
            let mut same = r.subjects[0].clone();
            same.subject_id = uuid::Uuid::now_v7();
            r.subjects.push(same);
        }),
        "subjects.1.full_name",
        "already listed",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| {
            r.subjects[0].facts.response = Response::Complied {
                at: Moment(now.0 - 60_000),
            }
        }),
        "subjects.0.charges",
        "§52-1 D: no refusal recorded — a person who complied has committed no violation",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| {
            r.subjects[0].facts.protected_activity = ProtectedActivity::PublicSpeaking
        }),
        "subjects.0.charges",
        "§52-1 E",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| r.location.text = "line one\nline two".into()),
        "location.text",
        "one line",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| r.subjects.clear()),
        "subjects",
        "at least one",
    )
    .await;

    // Impossible records are refused whether or not anyone is cited (issue #14,
    // finding 10): a refusal timed before its order, an order before the incident,
    // a response long after the order lapsed.
    let no_citation = |r: &mut IncidentReport| r.subjects[0].charges[0].issue_citation = false;
    refused(
        &app,
        &cookie,
        with(&base, |r| {
            no_citation(r);
            r.subjects[0].facts.response = Response::Refused {
                at: Moment(r.orders[0].given_at.0 - 5 * 60_000),
                manner: app::ordinance::RefusalManner::StayedInPlace,
            };
        }),
        "subjects.0.response_at",
        "§52-1 D: the response is timed before the order",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| {
            no_citation(r);
            r.orders[0].given_at = Moment(r.occurred_at.0 - 86_400_000);
        }),
        "orders.0.given_at",
        "before the incident began",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| {
            no_citation(r);
            r.occurred_at = Moment(now.0 - 3 * 3_600_000);
            r.orders[0].given_at = r.occurred_at;
            r.subjects[0].facts.response = Response::Refused {
                at: Moment(r.occurred_at.0 + 2 * 3_600_000),
                manner: app::ordinance::RefusalManner::Returned,
            };
        }),
        "subjects.0.response_at",
        "no longer counts",
    )
    .await;
    // Within the time allowed to comply, staying put is not yet a failure to obey.
    refused(
        &app,
        &cookie,
        with(&base, |r| {
            r.subjects[0].facts.response = Response::Refused {
                at: Moment(r.orders[0].given_at.0 + 60_000),
                manner: app::ordinance::RefusalManner::StayedInPlace,
            };
        }),
        "subjects.0.response_at",
        "inside the 2 min allowed to comply",
    )
    .await;
    // A person's response and the order they received must agree.
    refused(
        &app,
        &cookie,
        with(&base, |r| r.subjects[0].facts.order = None),
        "subjects.0.order",
        "needs the order",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| r.subjects[0].facts.order = Some(3)),
        "subjects.0.order",
        "not among the report's orders",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| {
            r.subjects[0].facts.conduct.group.stood_with = vec![0]
        }),
        "subjects.0.conduct.group.stood_with",
        "other persons of this report",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| {
            let again = r.subjects[0].charges[0];
            r.subjects[0].charges.push(again);
        }),
        "subjects.0.charges",
        "once",
    )
    .await;
    // An arrest needs a §52-2 citation.
    refused(
        &app,
        &cookie,
        with(&base, |r| r.subjects[0].facts.arrested = true),
        "subjects.0.charges",
        "§52-2",
    )
    .await;
    // The first version's shape, from a phone not yet updated: refused, naming
    // the change, not converted.
    let mut first = serde_json::to_value(&base).expect("json");
    first["incident_id"] = json!(uuid::Uuid::now_v7());
    first["protected_activity"] = json!("none");
    first["conduct"] = first["subjects"][0]["conduct"].clone();
    first["order"] = first["orders"][0].clone();
    refused(
        &app,
        &cookie,
        json!({ "report": first }),
        "request",
        "Each person now answers for their own conduct",
    )
    .await;

    // Malformed JSON: unknown offence code, wrong types, missing fields.
    let mut unknown = serde_json::to_value(&base).expect("json");
    unknown["incident_id"] = json!(uuid::Uuid::now_v7());
    unknown["subjects"][0]["charges"][0]["offence"] = json!("52-9");
    refused(
        &app,
        &cookie,
        json!({ "report": unknown }),
        "request",
        "52-9",
    )
    .await;
    let mut wrong = serde_json::to_value(&base).expect("json");
    wrong["occurred_at"] = json!("yesterday");
    refused(
        &app,
        &cookie,
        json!({ "report": wrong }),
        "request",
        "malformed",
    )
    .await;
    let mut missing = serde_json::to_value(&base).expect("json");
    missing.as_object_mut().map(|o| o.remove("narrative"));
    refused(
        &app,
        &cookie,
        json!({ "report": missing }),
        "request",
        "narrative",
    )
    .await;

    // And the good report still goes in afterwards.
    assert_eq!(app.submit(&cookie, &base).await.status, StatusCode::OK);
    assert_eq!(app.count("incident").await, 1);
}

#[tokio::test]
async fn a_citation_is_read_by_its_officer_and_the_chief_and_no_one_else_yet() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    app.user("olga", &[Role::Officer]).await;
    app.user("carla", &[Role::Chief]).await;
    app.user("dana", &[Role::Clerk]).await;
    app.user("ada", &[Role::Admin]).await;
    let oscar = app.session("oscar").await;
    let receipt = app
        .submit(&oscar, &refusal_report(app.clock_now()))
        .await
        .json();
    let number = receipt["citations"][0]["number"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let read = |cookie: String| {
        let number = number.clone();
        let app = &app;
        async move {
            app.post(
                "/api/citations/get",
                json!({ "number": number }),
                Some(&cookie),
            )
            .await
            .status
        }
    };
    assert_eq!(read(oscar.clone()).await, StatusCode::OK);
    assert_eq!(read(app.session("carla").await).await, StatusCode::OK);
    assert_eq!(
        read(app.session("olga").await).await,
        StatusCode::NOT_FOUND,
        "another officer's"
    );
    assert_eq!(
        read(app.session("dana").await).await,
        StatusCode::NOT_FOUND,
        "not approved yet"
    );
    assert_eq!(read(app.session("ada").await).await, StatusCode::FORBIDDEN);

    let pdf = app
        .get(&format!("/citations/{number}/pdf"), Some(&oscar))
        .await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert_eq!(pdf.headers["content-type"], "application/pdf");
    assert!(pdf.body.contains(&format!("Citation {number}")));
    let anonymous = app.get(&format!("/citations/{number}/pdf"), None).await;
    assert_eq!(anonymous.status, StatusCode::SEE_OTHER);
    let other = app
        .get(
            &format!("/citations/{number}/pdf"),
            Some(&app.session("olga").await),
        )
        .await;
    assert_eq!(other.status, StatusCode::NOT_FOUND);

    let mine = app
        .post(
            "/api/incidents/mine",
            json!({ "before": null }),
            Some(&app.session("olga").await),
        )
        .await;
    assert_eq!(mine.json(), json!([]), "olga sees none of oscar's reports");
}

/// The date of birth `years` years (and `days` days) before the day of `now`.
fn born_before(now: Moment, years: i32, days: i64) -> String {
    let day = now.0.div_euclid(86_400_000) - days;
    let (y, m, d) = app::model::civil::civil_from_days(day);
    format!("{:04}-{m:02}-{d:02}", y - years)
}

fn dob(r: &mut IncidentReport, date: String) {
    if let Identity::Identified { date_of_birth, .. } = &mut r.subjects[0].identity {
        *date_of_birth = date;
    }
}

/// Issue #33, finding 1: with no time allowed, staying put in the order's own
/// minute is no failure to obey: refused at the response's time, §52-1 D named.
#[tokio::test]
async fn a_failure_to_obey_in_the_orders_own_minute_is_refused_naming_section_52_1_d() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let cookie = app.session("oscar").await;
    let base = refusal_report(app.clock_now());
    let in_its_minute = |r: &mut IncidentReport, manner| {
        r.orders[0].minutes_to_comply = 0;
        r.subjects[0].facts.response = Response::Refused {
            at: Moment(r.orders[0].given_at.0 + 30_000),
            manner,
        };
    };
    refused(
        &app,
        &cookie,
        with(&base, |r| {
            in_its_minute(r, app::ordinance::RefusalManner::StayedInPlace)
        }),
        "subjects.0.response_at",
        "§52-1 D: recorded in the minute the order was given",
    )
    .await;
    // Saying no is a refusal at once.
    let reply = app
        .post(
            "/api/incidents/submit",
            with(&base, |r| {
                in_its_minute(r, app::ordinance::RefusalManner::RefusedVerbally)
            }),
            Some(&cookie),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
}

/// Issue #35: a phone's clock is set by the network, so a minute covers its
/// drift; a time four minutes ahead of the server's clock records a moment that
/// had not yet come and is refused, naming the field. Nothing is stored.
#[tokio::test]
async fn a_time_four_minutes_ahead_of_the_servers_clock_is_refused_naming_the_field() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let cookie = app.session("oscar").await;
    let now = app.clock_now();
    let base = refusal_report(now);
    let ahead = Moment(now.0 + 4 * 60_000);
    refused(
        &app,
        &cookie,
        with(&base, |r| r.occurred_at = ahead),
        "occurred_at",
        "in the future",
    )
    .await;
    refused(
        &app,
        &cookie,
        with(&base, |r| r.orders[0].given_at = ahead),
        "orders.0.given_at",
        "in the future",
    )
    .await;
    let responded_at = |at: Moment| {
        with(&base, move |r| {
            r.subjects[0].facts.response = Response::Refused {
                at,
                manner: app::ordinance::RefusalManner::StayedInPlace,
            }
        })
    };
    refused(
        &app,
        &cookie,
        responded_at(ahead),
        "subjects.0.response_at",
        "in the future",
    )
    .await;
    // Seconds of drift are not the future.
    let reply = app
        .post(
            "/api/incidents/submit",
            responded_at(Moment(now.0 + 30_000)),
            Some(&cookie),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
}

/// Issue #35: the subject's copy page sends only what the copy prints. The
/// officer's narrative names the other persons and what they did; it was in the
/// page's hydration data though the copy no longer printed it.
#[tokio::test]
async fn the_subjects_copy_page_and_its_data_carry_no_narrative() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let oscar = app.session("oscar").await;
    let mut report = refusal_report(app.clock_now());
    report.narrative = "Alex Morgan stood with Jo Smith, who shouted at the passers-by.".into();
    let receipt = app.submit(&oscar, &report).await.json();
    let number = receipt["citations"][0]["number"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let page = app.get(&format!("/citations/{number}"), Some(&oscar)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(&number), "the copy is on the page");
    assert!(page.body.contains("Alex Morgan"), "the person's own copy");
    assert!(!page.body.contains("Jo Smith"), "nothing of the others");
    let copy = app
        .post(
            "/api/citations/copy",
            json!({ "number": number }),
            Some(&oscar),
        )
        .await;
    assert_eq!(copy.status, StatusCode::OK);
    assert!(!copy.body.contains("Jo Smith"), "{}", copy.body);
    // The citation as the API reads it keeps the narrative: the officer, the
    // chief and the clerk read the whole record, as the first version answered.
    let read = app
        .post(
            "/api/citations/get",
            json!({ "number": number }),
            Some(&oscar),
        )
        .await;
    assert!(read.body.contains("Jo Smith"));
}

/// Issue #33, finding 2: one refusal of one order is one §52-1 violation — a
/// second §52-1 citation for the same person is refused, §52-1 D named.
#[tokio::test]
async fn two_section_52_1_citations_for_one_refusal_are_refused() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let cookie = app.session("oscar").await;
    let base = refusal_report(app.clock_now());
    refused(
        &app,
        &cookie,
        with(&base, |r| {
            let s = &mut r.subjects[0];
            s.facts.conduct.interference.lawful_business = true;
            s.charges.push(app::ordinance::Charge {
                offence: app::ordinance::Offence::LoiteringInterference,
                issue_citation: true,
            });
        }),
        "subjects.0.charges",
        "§52-1 D: one refusal of one order is one violation",
    )
    .await;
}

/// Issue #33, finding 14: a date of birth making the person younger than 10 at
/// the incident is refused at the date of birth; a person of 16 is recorded,
/// cautioned, and the chief finds the report by that caution.
#[tokio::test]
async fn a_minor_is_recorded_with_a_caution_the_chief_can_filter_on() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    app.user("carla", &[Role::Chief]).await;
    let cookie = app.session("oscar").await;
    let chief = app.session("carla").await;
    let now = app.clock_now();
    let base = refusal_report(now);
    refused(
        &app,
        &cookie,
        with(&base, |r| dob(r, born_before(now, 0, 1))),
        "subjects.0.date_of_birth",
        "younger than 10",
    )
    .await;
    let mut minor = base.clone();
    dob(&mut minor, born_before(now, 16, 0));
    let reply = app.submit(&cookie, &minor).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.json()["outcomes"][0][1], "cited");
    let adult = refusal_report(now);
    assert_eq!(app.submit(&cookie, &adult).await.status, StatusCode::OK);
    let reply = app
        .post(
            "/api/register/search",
            json!({ "filter": { "caution": "minor" }, "after": null }),
            Some(&chief),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let rows = reply.json()["rows"].as_array().cloned().unwrap_or_default();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["incident_id"], minor.incident_id.to_string());
    let view = app
        .post(
            "/api/reports/get",
            json!({ "incident_id": minor.incident_id }),
            Some(&chief),
        )
        .await
        .json();
    assert!(
        view["cautions"]
            .as_array()
            .is_some_and(|c| c.iter().any(|m| m
                .as_str()
                .is_some_and(|m| m.starts_with("Person 1 is under 18 (16")))),
        "{view}"
    );
}
