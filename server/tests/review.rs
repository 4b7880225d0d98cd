//! The chief's desk: decisions need the chief and (for return and void) a reason;
//! corrections keep every earlier version; the register finds and pages.

mod support;

use app::model::account::Role;
use app::model::incident::{GpsFix, IncidentReport};
use app::ordinance::{Moment, Offence, Response};
use axum::http::StatusCode;
use serde_json::{json, Value};
use support::{desk, refusal_report, Desk, Reply};

impl Desk {
    async fn submitted(&self) -> (IncidentReport, String) {
        let report = refusal_report(self.app.clock_now());
        let receipt = self.app.submit(&self.officer, &report).await;
        assert_eq!(receipt.status, StatusCode::OK, "{}", receipt.body);
        let number = receipt.json()["citations"][0]["number"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        (report, number)
    }

    async fn decide(&self, report: &IncidentReport, revision: i64, action: Value) -> Reply {
        self.app
            .post(
                "/api/review/decide",
                json!({ "incident_id": report.incident_id, "revision": revision, "action": action }),
                Some(&self.chief),
            )
            .await
    }

    async fn view(&self, report: &IncidentReport, cookie: &str) -> Reply {
        self.app
            .post(
                "/api/reports/get",
                json!({ "incident_id": report.incident_id }),
                Some(cookie),
            )
            .await
    }

    async fn status_of(&self, number: &str) -> String {
        self.app.citation_status(number).await
    }
}

#[tokio::test]
async fn approval_hands_the_citation_to_the_clerk() {
    let d = desk().await;
    let (report, number) = d.submitted().await;
    let clerk = d.app.session("dana").await;
    let read = |cookie: String| {
        let app = &d.app;
        let number = number.clone();
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
    assert_eq!(read(clerk.clone()).await, StatusCode::NOT_FOUND);
    let reply = d.decide(&report, 1, json!({ "action": "approve" })).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.json(), "approved");
    assert_eq!(d.status_of(&number).await, "approved");
    assert_eq!(read(clerk).await, StatusCode::OK);
    // A retried approval is harmless.
    assert_eq!(
        d.decide(&report, 1, json!({ "action": "approve" }))
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(d.app.count("review_decision").await, 1);
    assert_eq!(d.app.audit_actions("incident.approve").await.len(), 1);
}

#[tokio::test]
async fn return_and_void_need_a_reason_and_change_nothing_without_one() {
    let d = desk().await;
    let (report, number) = d.submitted().await;
    let reply = d
        .decide(&report, 1, json!({ "action": "return", "reason": "   " }))
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.json()["errors"][0]["field"], "reason");
    let reply = d
        .app
        .post(
            "/api/review/void",
            json!({ "number": number, "reason": "" }),
            Some(&d.chief),
        )
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    // Words for the chief, not the design document: a citation is what is
    // voided, and no "(DESIGN §3)" reaches a message.
    assert_eq!(
        reply.json()["errors"][0]["message"],
        "Reason: required — nothing is voided without one."
    );
    assert!(!reply.body.contains("DESIGN"), "{}", reply.body);
    assert_eq!(d.status_of(&number).await, "issued");
    assert_eq!(d.app.count("review_decision").await, 0);
}

#[tokio::test]
async fn a_decision_on_a_revision_the_chief_did_not_see_is_refused() {
    let d = desk().await;
    let (report, _) = d.submitted().await;
    let reply = d.decide(&report, 2, json!({ "action": "approve" })).await;
    assert_eq!(reply.status, StatusCode::CONFLICT, "{}", reply.body);
}

#[tokio::test]
async fn a_returned_report_is_corrected_keeps_its_number_and_shows_the_diff() {
    let d = desk().await;
    let (report, number) = d.submitted().await;
    let reason = "The time of refusal is before the order; check your notes.";
    let reply = d
        .decide(&report, 1, json!({ "action": "return", "reason": reason }))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(d.status_of(&number).await, "returned");
    let mine = d
        .app
        .post(
            "/api/incidents/mine",
            json!({ "before": null }),
            Some(&d.officer),
        )
        .await
        .json();
    assert_eq!(mine[0]["status"], "returned");
    assert_eq!(mine[0]["return_reason"], reason);

    let mut corrected = report.clone();
    corrected.location.text = "Post Road at Mile Road, north corner".into();
    let now = d.app.clock_now();
    corrected.subjects[0].facts.response = Response::Refused {
        at: Moment(now.0 - 10 * 60_000),
        manner: app::ordinance::RefusalManner::StayedInPlace,
    };
    let resubmit = |r: IncidentReport| {
        let app = &d.app;
        let cookie = d.officer.clone();
        async move {
            app.post(
                "/api/incidents/resubmit",
                json!({ "report": r }),
                Some(&cookie),
            )
            .await
        }
    };
    let reply = resubmit(corrected.clone()).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.json()["citations"][0]["number"], number.as_str());
    assert_eq!(d.status_of(&number).await, "issued");
    // Retried after a lost response: harmless.
    let again = resubmit(corrected.clone()).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.json()["already_stored"], true);
    assert_eq!(d.app.count("incident_revision").await, 2);
    assert_eq!(d.app.count("citation").await, 1);

    let view = d.view(&report, &d.chief).await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.body);
    let view = view.json();
    assert_eq!(view["revision"], 2);
    assert_eq!(view["status"], "submitted");
    let history = view["history"].as_array().cloned().unwrap_or_default();
    assert_eq!(history.len(), 2);
    assert_eq!(history[1]["kind"], "resubmitted");
    let changes = history[1]["changes"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let location = changes
        .iter()
        .find(|c| c["field"] == "location.text")
        .expect("the location change is listed");
    assert_eq!(location["before"], "Post Road at Mile Road");
    assert_eq!(location["after"], "Post Road at Mile Road, north corner");
    // In words and the Town's time, not JSON paths and milliseconds (issue #16).
    let time = changes
        .iter()
        .find(|c| c["field"] == "subjects.0.response.at")
        .expect("the response time change is listed");
    assert_eq!(time["label"], "Alex Morgan — time of the response");
    assert!(
        time["before"].as_str().unwrap_or_default().ends_with("EDT"),
        "{time}"
    );
    assert!(
        time["after"].as_str().unwrap_or_default().ends_with("EDT"),
        "{time}"
    );
    assert_eq!(location["label"], "Address or landmark");
    assert_eq!(view["decisions"][0]["action"], "return");
    assert_eq!(view["decisions"][0]["reason"], reason);
}

#[tokio::test]
async fn an_officer_cannot_correct_a_report_that_was_not_returned_or_is_not_theirs() {
    let d = desk().await;
    d.app.user("olga", &[Role::Officer]).await;
    let (report, _) = d.submitted().await;
    let mut changed = report.clone();
    changed.narrative.push_str(" Added later.");
    let reply = d
        .app
        .post(
            "/api/incidents/resubmit",
            json!({ "report": changed }),
            Some(&d.officer),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CONFLICT, "{}", reply.body);
    d.decide(
        &report,
        1,
        json!({ "action": "return", "reason": "Add detail" }),
    )
    .await;
    let olga = d.app.session("olga").await;
    let reply = d
        .app
        .post(
            "/api/incidents/resubmit",
            json!({ "report": changed }),
            Some(&olga),
        )
        .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(d.view(&report, &olga).await.status, StatusCode::NOT_FOUND);
    assert_eq!(d.app.count("incident_revision").await, 1);
}

#[tokio::test]
async fn a_voided_number_stays_used_and_visible() {
    let d = desk().await;
    let (report, number) = d.submitted().await;
    let reply = d
        .app
        .post(
            "/api/review/void",
            json!({ "number": number, "reason": "Wrong person identified" }),
            Some(&d.chief),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(d.status_of(&number).await, "void");
    let view = d.view(&report, &d.chief).await.json();
    assert_eq!(view["citations"][0]["number"], number.as_str());
    assert_eq!(view["citations"][0]["status"], "void");
    // The next citation takes the next number: the void one is not reused.
    let (_, next) = d.submitted().await;
    assert_eq!(next, "WPD-2026-000002");
}

#[tokio::test]
async fn an_amendment_needs_a_reason_keeps_history_and_cannot_issue_a_new_citation() {
    let d = desk().await;
    let (report, number) = d.submitted().await;
    d.decide(&report, 1, json!({ "action": "approve" })).await;
    let mut amended = report.clone();
    amended.narrative = format!("{} Corrected spelling of the road.", report.narrative);
    let amend = |r: &IncidentReport, reason: &str| {
        let app = &d.app;
        let body = json!({ "report": r, "reason": reason });
        let cookie = d.chief.clone();
        async move { app.post("/api/review/amend", body, Some(&cookie)).await }
    };
    assert_eq!(amend(&amended, "").await.status, StatusCode::BAD_REQUEST);
    let reply = amend(&amended, "Spelling of Mile Road").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(d.status_of(&number).await, "approved");
    let view = d.view(&report, &d.chief).await.json();
    assert_eq!(view["status"], "approved");
    assert_eq!(view["history"][1]["kind"], "amended");
    assert_eq!(view["history"][1]["reason"], "Spelling of Mile Road");
    assert_eq!(view["history"][1]["changes"][0]["field"], "narrative");

    // A second person cited only by the desk: refused, nothing stored.
    let mut more = amended.clone();
    let mut second = more.subjects[0].clone();
    second.subject_id = uuid::Uuid::now_v7();
    more.subjects.push(second);
    let reply = amend(&more, "Add the second man").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert_eq!(d.app.count("citation").await, 1);
    assert_eq!(d.app.count("incident_revision").await, 2);
}

#[tokio::test]
async fn the_queue_filters_on_cautions_including_a_gps_fix_far_from_the_typed_place() {
    let d = desk().await;
    let (plain, _) = d.submitted().await;
    // Earlier reports at the same typed place give its usual fix.
    d.submitted().await;
    d.submitted().await;
    let mut far = refusal_report(d.app.clock_now());
    // Same typed place, 3 km north.
    far.location.gps = Some(GpsFix {
        latitude: 43.3491,
        longitude: -70.5806,
        accuracy_m: 10.0,
    });
    assert_eq!(d.app.submit(&d.officer, &far).await.status, StatusCode::OK);
    let mut status_words = refusal_report(d.app.clock_now());
    status_words.narrative =
        "A known vagrant stood across the sidewalk; people stepped into the road.".into();
    assert_eq!(
        d.app.submit(&d.officer, &status_words).await.status,
        StatusCode::OK
    );

    let queue = |filter: Value| {
        let app = &d.app;
        let cookie = d.chief.clone();
        async move {
            let reply = app
                .post(
                    "/api/review/queue",
                    json!({ "filter": filter }),
                    Some(&cookie),
                )
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
            reply.json().as_array().cloned().unwrap_or_default()
        }
    };
    let all = queue(json!({})).await;
    assert_eq!(all.len(), 5);
    assert_eq!(
        all[0]["incident_id"],
        plain.incident_id.to_string(),
        "oldest first"
    );
    let gps = queue(json!({ "caution": "gps_far" })).await;
    assert_eq!(gps.len(), 1);
    assert_eq!(gps[0]["incident_id"], far.incident_id.to_string());
    let words = queue(json!({ "caution": "status_words" })).await;
    assert_eq!(words.len(), 1);
    assert_eq!(
        words[0]["incident_id"],
        status_words.incident_id.to_string()
    );
    let view = d.view(&far, &d.chief).await.json();
    assert!(
        view["cautions"].as_array().is_some_and(|c| c
            .iter()
            .any(|m| m.as_str().is_some_and(|m| m.contains("3.0 km")))),
        "{view}"
    );
    assert_eq!(
        queue(json!({ "offence": Offence::GroupObstruction }))
            .await
            .len(),
        0
    );
}

/// Moves every time in a report (`occurred_at`, each order's `given_at`, each
/// response's `at`) `ms` earlier.
fn earlier(value: &mut Value, ms: i64) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match (key.as_str(), v.as_i64()) {
                    ("occurred_at" | "given_at" | "at", Some(t)) => *v = json!(t - ms),
                    _ => earlier(v, ms),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| earlier(v, ms)),
        _ => {}
    }
}

#[tokio::test]
async fn the_register_finds_by_number_name_and_place_and_pages_without_repeats() {
    let d = desk().await;
    let mut numbers = Vec::new();
    let mut reports = Vec::new();
    for i in 0..55 {
        let mut report = refusal_report(Moment(d.app.clock_now().0 - i * 60_000));
        if i == 7 {
            report.location.text = "Wells Beach, Mile Road end".into();
        }
        if i == 7 || i == 8 {
            if let app::model::incident::Identity::Identified { full_name, .. } =
                &mut report.subjects[0].identity
            {
                *full_name = "Jordan Blake".into();
            }
        }
        let reply = d.app.submit(&d.officer, &report).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        numbers.push(reply.json()["citations"][0]["number"].clone());
        reports.push(report);
    }
    let search = |filter: Value, after: Value| {
        let app = &d.app;
        let cookie = d.chief.clone();
        async move {
            let reply = app
                .post(
                    "/api/register/search",
                    json!({ "filter": filter, "after": after }),
                    Some(&cookie),
                )
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
            reply.json()
        }
    };
    let first = search(json!({}), Value::Null).await;
    assert_eq!(first["rows"].as_array().map(Vec::len), Some(50));
    // Issue #37, finding 18: where each page stands, and the way back.
    assert!(first["previous"].is_null());
    assert_eq!(
        (&first["before"], &first["total"]),
        (&json!({ "exactly": 0 }), &json!({ "exactly": 55 }))
    );
    let second = search(json!({}), first["next"].clone()).await;
    assert_eq!(second["rows"].as_array().map(Vec::len), Some(5));
    assert!(second["next"].is_null());
    assert_eq!(second["previous"], "first");
    assert_eq!(
        (&second["before"], &second["total"]),
        (&json!({ "exactly": 50 }), &json!({ "exactly": 55 }))
    );
    // Filtered, the counts are the filter's.
    let blakes = search(json!({ "text": "Blake" }), Value::Null).await;
    assert_eq!(blakes["total"], json!({ "exactly": 2 }));
    let mut ids: Vec<String> = first["rows"]
        .as_array()
        .into_iter()
        .chain(second["rows"].as_array())
        .flatten()
        .map(|r| r["incident_id"].to_string())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 55);

    let by_number = search(json!({ "text": numbers[3] }), Value::Null).await;
    assert_eq!(by_number["rows"].as_array().map(Vec::len), Some(1));
    let by_name = search(json!({ "text": "jordan b" }), Value::Null).await;
    assert_eq!(by_name["rows"][0]["location"], "Wells Beach, Mile Road end");
    let by_place = search(json!({ "text": "wells beach" }), Value::Null).await;
    assert_eq!(by_place["rows"].as_array().map(Vec::len), Some(1));

    // The search's order is the register's, and follows a corrected time: the
    // chief moves report 7 back 100 minutes, behind report 8.
    let (seventh, eighth) = (
        reports[7].incident_id.to_string(),
        reports[8].incident_id.to_string(),
    );
    let before = search(json!({ "text": "Blake" }), Value::Null).await;
    assert_eq!(ids_of(&before), [seventh.clone(), eighth.clone()]);
    let mut moved = serde_json::to_value(&reports[7]).unwrap_or_default();
    earlier(&mut moved, 100 * 60_000);
    let reply = d
        .app
        .post(
            "/api/review/amend",
            json!({ "report": moved, "reason": "The time was an hour and forty minutes out." }),
            Some(&d.chief),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let after = search(json!({ "text": "Blake" }), Value::Null).await;
    assert_eq!(ids_of(&after), [eighth.clone(), seventh]);
    // The other filters narrow the matches: both are this officer's, neither
    // is §52-2.
    let officer: String =
        sqlx::query_scalar("SELECT officer_id FROM incident WHERE incident_id = $1")
            .bind(&eighth)
            .fetch_one(&d.app.state.store.reader)
            .await
            .expect("officer");
    let narrowed = search(json!({ "text": "Blake", "officer": officer }), Value::Null).await;
    assert_eq!(ids_of(&narrowed).len(), 2, "{narrowed}");
    let none = search(json!({ "text": "Blake", "offence": "52-2" }), Value::Null).await;
    assert_eq!(ids_of(&none).len(), 0, "{none}");
    // Every write moved its rows into the index before it committed.
    assert_eq!(d.app.count("register_pending").await, 0);

    // A row still waiting to enter the index is found all the same.
    let writer = &d.app.state.store.writer;
    sqlx::query(
        "INSERT INTO register_pending (entry, text, incident_id) \
         SELECT rowid, text, incident_id FROM register_text WHERE text LIKE '%Blake%'",
    )
    .execute(writer)
    .await
    .expect("back to waiting");
    sqlx::query("DELETE FROM register_text WHERE rowid IN (SELECT entry FROM register_pending)")
        .execute(writer)
        .await
        .expect("out of the index");
    let waiting = search(json!({ "text": "Blake" }), Value::Null).await;
    assert_eq!(ids_of(&waiting), ids_of(&after));
    let bad = d
        .app
        .post(
            "/api/register/search",
            json!({ "filter": { "from": "2026-13-40" }, "after": null }),
            Some(&d.chief),
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.json()["errors"][0]["field"], "from");
}

#[tokio::test]
async fn a_search_pages_through_reports_of_the_same_minute_in_the_registers_order() {
    // Officers type times to the minute: many reports can share one. The
    // full-text index orders by time alone; the page must still be the
    // register's (time, then id) and paging must neither repeat nor skip.
    // Each report matches twice (its place and its person's name): the 220
    // matches of that one minute are more than a walk asks for first
    // (`FIRST_MATCHES`), so the page is found only by walking further.
    let d = desk().await;
    let at = Moment(d.app.clock_now().0 - 3_600_000);
    let mut expected = Vec::new();
    // Ids made first and used out of order, so the order the rows are stored
    // in is not the ids' order.
    let ids: Vec<uuid::Uuid> = (0..110).map(|_| uuid::Uuid::now_v7()).collect();
    for i in 0..110 {
        let mut report = refusal_report(at);
        report.incident_id = ids[(i * 17) % 110];
        report.location.text = "Samewhen Lane".into();
        if let app::model::incident::Identity::Identified { full_name, .. } =
            &mut report.subjects[0].identity
        {
            *full_name = "Tess Samewhen".into();
        }
        let reply = d.app.submit(&d.officer, &report).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        expected.push(report.incident_id.to_string());
    }
    expected.sort();
    expected.reverse();
    let page_after = |after: Value| {
        let (app, chief) = (&d.app, d.chief.clone());
        async move {
            let reply = app
                .post(
                    "/api/register/search",
                    json!({ "filter": { "text": "samewhen" }, "after": after }),
                    Some(&chief),
                )
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
            reply.json()
        }
    };
    let mut found = Vec::new();
    let mut after = Value::Null;
    let mut pages = Vec::new();
    loop {
        let page = page_after(after.clone()).await;
        assert_eq!(page["before"], json!({ "exactly": found.len() }));
        assert_eq!(page["total"], json!({ "exactly": 110 }));
        let rows = ids_of(&page);
        found.extend(rows.iter().cloned());
        pages.push(rows);
        if page["next"].is_null() {
            break;
        }
        after = page["next"].clone();
    }
    assert_eq!(found, expected);
    // Issue #37, finding 18: back from the last page, each page is the one
    // that led to it, through the full-text walk the other way (the 220
    // matches of one millisecond again more than a walk asks for first).
    let mut back = Vec::new();
    let mut page_at = after;
    loop {
        let page = page_after(page_at.clone()).await;
        back.push(ids_of(&page));
        match &page["previous"] {
            Value::Null => break,
            Value::String(first) if first == "first" => page_at = Value::Null,
            previous => page_at = previous["after"].clone(),
        }
    }
    back.reverse();
    assert_eq!(back, pages);
}

/// A register page's incident ids, in its order.
fn ids_of(page: &Value) -> Vec<String> {
    page["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| r["incident_id"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Issue #33, finding 11: a correction of a report whose incident is more than
/// a year old is allowed with its reason; a new report of such an incident is
/// still refused as a mistyped date.
#[tokio::test]
async fn a_report_over_a_year_old_is_amended_with_a_reason() {
    let d = desk().await;
    let (mut report, _) = d.submitted().await;
    d.app.clock.advance_minutes(400 * 24 * 60);
    let chief = d.app.session("carla").await;
    report
        .narrative
        .push_str(" The pedestrians stepped into Route 1.");
    let reply = d
        .app
        .post(
            "/api/review/amend",
            json!({ "report": report, "reason": "The narrative left out where they stepped." }),
            Some(&chief),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let officer = d.app.session("oscar").await;
    let mut late = refusal_report(d.app.clock_now());
    late.occurred_at = report.occurred_at;
    late.orders = report.orders.clone();
    late.subjects[0].facts.response = report.subjects[0].facts.response;
    let reply = d.app.submit(&officer, &late).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert_eq!(reply.json()["errors"][0]["field"], "occurred_at");
}
