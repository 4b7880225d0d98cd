//! The court clerk: the filing queue's deadlines, export batches (audited, each
//! format), filing freezes a citation, dispositions, and who may do any of it.

mod support;

use app::model::account::Role;
use app::model::incident::{Identity, IncidentReport};
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use serde_json::{json, Value};
use support::{refusal_report, Reply, TestApp, ORIGIN};

struct Court {
    app: TestApp,
    officer: String,
    chief: String,
    clerk: String,
}

async fn court() -> Court {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    app.user("carla", &[Role::Chief]).await;
    app.user("dana", &[Role::Clerk]).await;
    Court {
        officer: app.session("oscar").await,
        chief: app.session("carla").await,
        clerk: app.session("dana").await,
        app,
    }
}

impl Court {
    /// `ms` later, everyone signed in again (their sessions have run out).
    async fn later(&mut self, ms: i64) {
        self.app.clock.advance_ms(ms);
        self.officer = self.app.session("oscar").await;
        self.chief = self.app.session("carla").await;
        self.clerk = self.app.session("dana").await;
    }

    /// A cited report the chief approved; its citation number.
    async fn approved(&self, name: &str) -> (IncidentReport, String) {
        let mut report = refusal_report(self.app.clock_now());
        if let Identity::Identified { full_name, .. } = &mut report.subjects[0].identity {
            *full_name = name.to_owned();
        }
        let receipt = self.app.submit(&self.officer, &report).await;
        assert_eq!(receipt.status, StatusCode::OK, "{}", receipt.body);
        let number = receipt.json()["citations"][0]["number"]
            .as_str()
            .expect("number")
            .to_owned();
        let decided = self
            .app
            .post(
                "/api/review/decide",
                json!({ "incident_id": report.incident_id, "revision": 1, "action": { "action": "approve" } }),
                Some(&self.chief),
            )
            .await;
        assert_eq!(decided.status, StatusCode::OK, "{}", decided.body);
        (report, number)
    }

    async fn export(&self, format: &str, numbers: &[&str]) -> Reply {
        self.export_form(format!("format={format}&numbers={}", numbers.join("%2C")))
            .await
    }

    /// `POST /court/export` of a form body, as the clerk.
    async fn export_form(&self, body: String) -> Reply {
        self.app
            .send(
                Request::post("/court/export")
                    .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                    .header(header::ORIGIN, ORIGIN)
                    .header(header::COOKIE, &self.clerk)
                    .body(Body::from(body))
                    .expect("request"),
            )
            .await
    }

    async fn file(&self, numbers: &[&str], cookie: &str) -> Reply {
        let today = self.app.state.settings.town_zone.date(self.app.clock_now());
        self.app
            .post(
                "/api/court/file",
                json!({ "filing": { "numbers": numbers, "filed_on": today, "reference": "YORDC-CV-26-0042" } }),
                Some(cookie),
            )
            .await
    }

    async fn status_of(&self, number: &str) -> String {
        self.app.citation_status(number).await
    }
}

#[tokio::test]
async fn the_queue_counts_the_five_days_and_puts_overdue_first() {
    let mut c = court().await;
    let (_, first) = c.approved("Avery One").await;
    // Six days later a second is issued; the first is now overdue.
    c.later(6 * 86_400_000).await;
    let (_, second) = c.approved("Blake Two").await;
    let reply = c
        .app
        .post("/api/court/queue", json!({}), Some(&c.clerk))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let queue = reply.json();
    assert_eq!(queue["waiting"], 2);
    let rows = queue["rows"].as_array().expect("rows");
    assert_eq!(rows[0]["number"], first.as_str());
    assert_eq!(rows[0]["days_left"], -1);
    assert_eq!(rows[1]["number"], second.as_str());
    assert_eq!(rows[1]["days_left"], 5);
    // The chief and the officer cannot see it.
    for cookie in [&c.chief, &c.officer] {
        let denied = c
            .app
            .post("/api/court/queue", json!({}), Some(cookie))
            .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
    }
}

#[tokio::test]
async fn the_clerks_today_is_the_towns_date_even_when_utc_has_turned_the_day() {
    let mut c = court().await;
    // 22:00 in Wells on 4 July is already 5 July in UTC (and on a clerk's
    // computer kept in UTC): the filing date defaults to the Town's day.
    c.later(10 * 3_600_000).await;
    let (_, number) = c.approved("Avery Late").await;
    let queue = c
        .app
        .post("/api/court/queue", json!({}), Some(&c.clerk))
        .await;
    assert_eq!(queue.json()["today"], "2026-07-04", "{}", queue.body);
    assert_eq!(queue.json()["rows"][0]["days_left"], 5);
    let early = c
        .app
        .post(
            "/api/court/file",
            json!({ "filing": { "numbers": [number], "filed_on": "2026-07-05", "reference": "YORDC-CV-26-0042" } }),
            Some(&c.clerk),
        )
        .await;
    assert_eq!(early.status, StatusCode::BAD_REQUEST, "{}", early.body);
    assert!(
        early.body.contains("Date filed: not in the future."),
        "{}",
        early.body
    );
    assert_eq!(c.file(&[&number], &c.clerk).await.status, StatusCode::OK);
    let page = c
        .app
        .post(
            "/api/court/citation",
            json!({ "number": number }),
            Some(&c.clerk),
        )
        .await;
    assert_eq!(page.json()["today"], "2026-07-04", "{}", page.body);
}

#[tokio::test]
async fn a_range_export_takes_whole_days_of_the_towns_calendar() {
    let mut c = court().await;
    // Noon, 23:30 and (the next day) 00:30 in Wells; the last two are both
    // 5 July in UTC.
    let (_, noon) = c.approved("Avery Noon").await;
    let mut late = Vec::new();
    for minutes in [11 * 60 + 30, 60] {
        c.later(minutes * 60_000).await;
        late.push(c.approved("Blake Late").await.1);
    }
    let c = &c;
    let exported = |from: &str, to: &str| {
        let body = format!("format=csv&numbers=&from={from}&to={to}");
        async move {
            let reply = c.export_form(body).await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
            csv::Reader::from_reader(reply.body.as_bytes())
                .records()
                .map(|r| r.expect("record")[0].to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        exported("2026-07-04", "2026-07-04").await,
        [noon.clone(), late[0].clone()]
    );
    assert_eq!(
        exported("2026-07-05", "2026-07-05").await,
        [late[1].clone()]
    );
    assert_eq!(
        exported("2026-07-03", "2026-07-05").await,
        [noon, late[0].clone(), late[1].clone()]
    );
}

#[tokio::test]
async fn every_export_is_a_batch_with_its_hash_in_the_audit_log() {
    let c = court().await;
    let (_, a) = c.approved("Zoë Lévesque").await;
    let (_, b) = c
        .approved("=HYPERLINK(\"http://evil.example\",\"x\")")
        .await;

    let csv = c.export("csv", &[&a, &b]).await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.body);
    let batch = csv.headers["x-export-batch"]
        .to_str()
        .expect("batch")
        .to_owned();
    let sha = csv.headers["x-export-sha256"]
        .to_str()
        .expect("sha")
        .to_owned();
    let mut reader = csv::Reader::from_reader(csv.body.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .expect("header")
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(header, app::documents::export::CSV_COLUMNS);
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.expect("row").iter().map(str::to_owned).collect())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0][6], "Zoë Lévesque", "Unicode byte for byte");
    assert!(rows[1][6].starts_with("'=HYPERLINK"), "formula neutralised");
    assert_eq!(rows[0][14], "$100.00");

    let stored: (String, i64, String) =
        sqlx::query_as("SELECT format, citations, sha256 FROM export_batch WHERE batch_id = $1")
            .bind(&batch)
            .fetch_one(&c.app.state.store.reader)
            .await
            .expect("batch");
    assert_eq!(stored, ("csv".to_owned(), 2, sha.clone()));
    use sha2::Digest;
    assert_eq!(hex::encode(sha2::Sha256::digest(csv.body.as_bytes())), sha);
    let audited = c.app.audit_actions("court.export").await;
    assert_eq!(audited.len(), 1);
    let after: Value = serde_json::from_str(audited[0].1.as_deref().unwrap_or("{}")).expect("json");
    assert_eq!(after["sha256"], sha.as_str());
    assert_eq!(after["citations"], json!([a, b]));

    let pdf = c.export("pdf", &[&a]).await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert!(pdf.body.starts_with("%PDF-"));
    let json_export = c
        .app
        .post(
            "/api/court/export",
            json!({ "selection": { "numbers": [a] } }),
            Some(&c.clerk),
        )
        .await;
    assert_eq!(json_export.status, StatusCode::OK, "{}", json_export.body);
    assert_eq!(json_export.json()["schema"], "wells-loitering-citations");
    assert_eq!(json_export.json()["version"], 1);
    assert_eq!(c.app.count("export_batch").await, 3);
    assert_eq!(c.app.audit_actions("court.export").await.len(), 3);

    // The batch record cannot be rewritten.
    let rewrite = sqlx::query("UPDATE export_batch SET sha256 = 'x'")
        .execute(&c.app.state.store.writer)
        .await;
    assert!(rewrite.is_err());
}

#[tokio::test]
async fn only_approved_citations_go_to_court() {
    let c = court().await;
    let report = refusal_report(c.app.clock_now());
    let receipt = c.app.submit(&c.officer, &report).await;
    let number = receipt.json()["citations"][0]["number"]
        .as_str()
        .expect("number")
        .to_owned();
    let refused = c.export("csv", &[&number]).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(refused.body.contains("not approved"), "{}", refused.body);
    assert_eq!(
        c.file(&[&number], &c.clerk).await.status,
        StatusCode::CONFLICT
    );
    assert_eq!(c.app.count("export_batch").await, 0);
}

#[tokio::test]
async fn a_filed_citation_is_frozen_and_an_amendment_shows_on_the_next_export() {
    let c = court().await;
    let (report, number) = c.approved("Robin Filed").await;
    assert_eq!(c.export("csv", &[&number]).await.status, StatusCode::OK);
    let filed = c.file(&[&number], &c.clerk).await;
    assert_eq!(filed.status, StatusCode::OK, "{}", filed.body);
    assert_eq!(c.status_of(&number).await, "filed");
    // Filing again the same way is harmless; the officer or chief cannot file.
    assert_eq!(c.file(&[&number], &c.clerk).await.status, StatusCode::OK);
    assert_eq!(
        c.file(&[&number], &c.chief).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(c.app.audit_actions("citation.file").await.len(), 1);

    // Frozen: no void, no officer correction, no decision.
    let void = c
        .app
        .post(
            "/api/review/void",
            json!({ "number": number, "reason": "Wrong person." }),
            Some(&c.chief),
        )
        .await;
    assert_eq!(void.status, StatusCode::CONFLICT, "{}", void.body);
    let mut changed = report.clone();
    changed.narrative.push_str(" Added later.");
    let resubmit = c
        .app
        .post(
            "/api/incidents/resubmit",
            json!({ "report": changed }),
            Some(&c.officer),
        )
        .await;
    assert_eq!(resubmit.status, StatusCode::CONFLICT, "{}", resubmit.body);
    assert_eq!(c.status_of(&number).await, "filed");

    // Only a chief's amendment with a reason changes it; the next export says so.
    c.app.clock.advance_minutes(10);
    let mut amended = report.clone();
    amended.location.text = "Post Road (Route 1) at Mile Road".into();
    let amend = c
        .app
        .post(
            "/api/review/amend",
            json!({ "report": amended, "reason": "The Town's name for the road." }),
            Some(&c.chief),
        )
        .await;
    assert_eq!(amend.status, StatusCode::OK, "{}", amend.body);
    assert_eq!(c.status_of(&number).await, "filed");
    let next = c.export("csv", &[&number]).await;
    let mut reader = csv::Reader::from_reader(next.body.as_bytes());
    let row = reader.records().next().expect("row").expect("record");
    assert_eq!(&row[2], "yes", "amended filing");
    assert!(row[13].starts_with("Post Road (Route 1) at Mile Road"));
    // …and only once: the export after that is a plain one again.
    let again = c.export("csv", &[&number]).await;
    let mut reader = csv::Reader::from_reader(again.body.as_bytes());
    assert_eq!(
        &reader.records().next().expect("row").expect("record")[2],
        "no"
    );
}

#[tokio::test]
async fn dispositions_follow_the_court_and_need_their_amounts() {
    let c = court().await;
    let (_, paid) = c.approved("Casey Pays").await;
    let (_, dismissed) = c.approved("Drew Dismissed").await;
    let (_, contested) = c.approved("Emery Contests").await;
    let today = c.app.state.settings.town_zone.date(c.app.clock_now());
    let dispose = |number: String, d: Value| {
        let app = &c.app;
        let cookie = c.clerk.clone();
        async move {
            app.post(
                "/api/court/dispose",
                json!({ "number": number, "disposition": d }),
                Some(&cookie),
            )
            .await
        }
    };
    // Not filed yet: refused.
    let early = dispose(paid.clone(), json!({ "kind": "dismissed", "on": today })).await;
    assert_eq!(early.status, StatusCode::CONFLICT);
    assert_eq!(
        c.file(&[&paid, &dismissed, &contested], &c.clerk)
            .await
            .status,
        StatusCode::OK
    );

    let no_amount = dispose(paid.clone(), json!({ "kind": "paid", "on": today })).await;
    assert_eq!(no_amount.status, StatusCode::BAD_REQUEST);
    assert!(no_amount.body.contains("paid_cents"));
    let ok = dispose(
        paid.clone(),
        json!({ "kind": "paid", "on": today, "paid_cents": 13_500 }),
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    assert_eq!(ok.json(), "disposed");
    // A retry is harmless.
    dispose(
        paid.clone(),
        json!({ "kind": "paid", "on": today, "paid_cents": 13_500 }),
    )
    .await;
    assert_eq!(
        dispose(
            dismissed.clone(),
            json!({ "kind": "dismissed", "on": today })
        )
        .await
        .json(),
        "disposed"
    );
    let hearing = dispose(
        contested.clone(),
        json!({ "kind": "contested", "on": today, "hearing_on": "2026-08-20" }),
    )
    .await;
    assert_eq!(hearing.json(), "filed", "a contest is not the end");
    let wrong_fine = dispose(
        contested.clone(),
        json!({ "kind": "guilty", "on": today, "fine_cents": 5_000, "costs_cents": 3_500 }),
    )
    .await;
    assert_eq!(wrong_fine.status, StatusCode::BAD_REQUEST);
    assert!(wrong_fine.body.contains("§52-4"));
    let guilty = dispose(
        contested.clone(),
        json!({ "kind": "guilty", "on": today, "fine_cents": 10_000, "costs_cents": 3_500 }),
    )
    .await;
    assert_eq!(guilty.json(), "disposed");

    let history: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM court_event WHERE number = $1")
        .bind(&contested)
        .fetch_one(&c.app.state.store.reader)
        .await
        .expect("events");
    assert_eq!(history, 3, "filed, contested, guilty");
    assert_eq!(c.app.audit_actions("citation.dispose").await.len(), 4);
    let page = c
        .app
        .post(
            "/api/court/citation",
            json!({ "number": contested }),
            Some(&c.clerk),
        )
        .await;
    assert_eq!(page.json()["history"].as_array().map(Vec::len), Some(3));
    let register = c
        .app
        .post(
            "/api/court/register",
            json!({ "filter": { "status": "disposed" } }),
            Some(&c.clerk),
        )
        .await;
    assert_eq!(register.json().as_array().map(Vec::len), Some(3));

    // The chief's dashboard counts what was collected.
    let d = c
        .app
        .post(
            "/api/dashboard",
            json!({ "period": { "from": today, "to": today } }),
            Some(&c.chief),
        )
        .await;
    let totals = d.json()["totals"].clone();
    let collected = totals
        .as_array()
        .and_then(|t| {
            t.iter().find(|x| {
                x["label"]
                    .as_str()
                    .is_some_and(|l| l.starts_with("Collected"))
            })
        })
        .expect("collected");
    assert_eq!(collected["value"], "$135.00");
    let outstanding = totals
        .as_array()
        .and_then(|t| {
            t.iter().find(|x| {
                x["label"]
                    .as_str()
                    .is_some_and(|l| l.starts_with("Outstanding"))
            })
        })
        .expect("outstanding");
    assert_eq!(
        outstanding["value"], "$135.00",
        "the guilty finding, unpaid"
    );
}

#[tokio::test]
async fn a_recorded_decision_changes_only_with_a_reason_and_a_payment_keeps_the_hearing_date() {
    let c = court().await;
    let (_, number) = c.approved("Casey Change").await;
    let today = c.app.state.settings.town_zone.date(c.app.clock_now());
    assert_eq!(c.file(&[&number], &c.clerk).await.status, StatusCode::OK);
    let dispose = |d: Value| {
        let app = &c.app;
        let cookie = c.clerk.clone();
        let number = number.clone();
        async move {
            app.post(
                "/api/court/dispose",
                json!({ "number": number, "disposition": d }),
                Some(&cookie),
            )
            .await
        }
    };
    let court_date = || async {
        c.app
            .post(
                "/api/court/citation",
                json!({ "number": number }),
                Some(&c.clerk),
            )
            .await
            .json()
    };
    // Contested with a hearing, then paid before it: the hearing date stays.
    let contested =
        dispose(json!({ "kind": "contested", "on": today, "hearing_on": "2026-08-20" })).await;
    assert_eq!(contested.status, StatusCode::OK, "{}", contested.body);
    let paid = dispose(json!({ "kind": "paid", "on": today, "paid_cents": 13_500 })).await;
    assert_eq!(paid.json(), "disposed");
    let page = court_date().await;
    assert_eq!(page["row"]["court_date"], "2026-08-20");
    assert_eq!(page["hearing_on"], "2026-08-20");
    assert_eq!(page["disposition_on"], today.as_str());

    // Paid is final: "dismissed" in one request, with no reason, is refused and
    // changes nothing.
    let silent = dispose(json!({ "kind": "dismissed", "on": today })).await;
    assert_eq!(silent.status, StatusCode::BAD_REQUEST, "{}", silent.body);
    let refused = &silent.json()["errors"][0];
    assert_eq!(refused["field"], "reason");
    assert!(
        refused["message"]
            .as_str()
            .unwrap_or_default()
            .contains("Paid"),
        "{refused}"
    );
    assert_eq!(court_date().await["row"]["disposition"], "paid");

    let changed = dispose(json!({
        "kind": "dismissed", "on": today, "reason": "The court's clerk called: dismissed, payment refunded."
    }))
    .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.body);
    let page = court_date().await;
    assert_eq!(page["row"]["disposition"], "dismissed");
    // The old decision is kept: in the court history and in the audit entry.
    let kinds: Vec<String> = page["history"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["kind"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(kinds.len(), 4, "{kinds:?}");
    let audit = c.app.audit_actions("citation.dispose").await;
    let before: Option<String> = sqlx::query_scalar(
        "SELECT before_json FROM audit_entry WHERE action = 'citation.dispose' ORDER BY seq DESC LIMIT 1",
    )
    .fetch_one(&c.app.state.store.reader)
    .await
    .expect("before");
    assert!(before.unwrap_or_default().contains("\"paid\""));
    assert!(audit
        .last()
        .and_then(|a| a.1.clone())
        .unwrap_or_default()
        .contains("payment refunded"));
}

#[tokio::test]
async fn the_courts_csv_line_says_what_the_printed_citation_says_for_every_citation() {
    let c = court().await;
    // Seeded citations: identified and described persons, every offence, with
    // and without an identity document; and one name typed with stray spaces.
    let plan = app::store::seed::SeedPlan {
        incidents: 400,
        seed: 3,
        force: true,
    };
    app::store::seed::seed(
        &c.app.state.store,
        &c.app.state.settings.town_zone,
        plan,
        c.app.clock_now(),
    )
    .await
    .expect("seed");
    c.approved("  Jane   Roe  ").await;
    let numbers: Vec<String> = sqlx::query_scalar("SELECT number FROM citation ORDER BY seq")
        .fetch_all(&c.app.state.store.reader)
        .await
        .expect("numbers");
    assert!(numbers.len() > 50, "{} citations", numbers.len());
    let chief = app::auth::Actor::resolved(app::model::account::Me {
        user_id: uuid::Uuid::nil(),
        username: "carla".into(),
        full_name: "Carla".into(),
        badge_number: None,
        roles: vec![Role::Chief],
        must_change_password: false,
        needs_second_factor: false,
    });
    let zone = &c.app.state.settings.town_zone;
    let pool = &c.app.state.store.reader;
    let lines = app::store::incidents::court_lines(pool, &numbers, &chief, zone)
        .await
        .expect("lines");
    let printed = app::store::incidents::citation_documents(pool, &numbers, &chief, zone)
        .await
        .expect("documents");
    assert_eq!(lines.len(), printed.len());
    for (line, doc) in lines.iter().zip(&printed) {
        assert_eq!(
            *line,
            app::model::court::ExportedCitation::of(doc, line.amended),
            "{}",
            doc.number
        );
    }
    // A range of issuance reads the same lines, those at court, in number order.
    let at_court: Vec<String> = sqlx::query_scalar(
        "SELECT number FROM citation WHERE status IN ('approved', 'filed', 'disposed') ORDER BY year, seq",
    )
    .fetch_all(pool)
    .await
    .expect("at court");
    let by_number = app::store::incidents::court_lines(pool, &at_court, &chief, zone)
        .await
        .expect("lines");
    let mut issued = Vec::new();
    app::store::incidents::court_lines_issued(
        pool,
        (app::ordinance::Moment(0), app::ordinance::Moment(i64::MAX)),
        &chief,
        zone,
        |line| {
            issued.push(line);
            Ok(())
        },
    )
    .await
    .expect("lines issued");
    assert!(!issued.is_empty(), "the seed has approved citations");
    assert_eq!(issued, by_number);
    assert!(
        lines
            .iter()
            .any(|l| l.subject_name.starts_with("Unidentified person:")),
        "the seed describes some persons"
    );
    assert!(
        lines.iter().any(|l| l.subject_identification.is_some()),
        "and identifies some by a document"
    );
    assert!(
        lines.iter().any(|l| l.subject_name == "Jane   Roe"),
        "the typed name, trimmed, on both"
    );
}

#[tokio::test]
async fn an_answer_date_on_a_holiday_or_weekend_moves_to_the_next_court_day() {
    let c = court().await;
    let admin = {
        c.app.user("ada", &[Role::Admin]).await;
        c.app.session("ada").await
    };
    // Issued 2026-07-04 (START): 65 days on is Labor Day, Monday 2026-09-07.
    let save = |settings: Value| {
        let app = &c.app;
        let cookie = admin.clone();
        async move {
            app.post(
                "/api/admin/settings/court/save",
                json!({ "settings": settings }),
                Some(&cookie),
            )
            .await
        }
    };
    let base = json!({
        "court_name": "Maine District Court",
        "court_address": "York District Court, 11 Chases Pond Road, York, ME 03909",
        "answer_days": 65,
    });
    assert_eq!(save(base.clone()).await.status, StatusCode::OK);
    let (_, number) = c.approved("Hollie Day").await;
    let appearance: String =
        sqlx::query_scalar("SELECT appearance_date FROM citation WHERE number = $1")
            .bind(&number)
            .fetch_one(&c.app.state.store.reader)
            .await
            .expect("appearance");
    assert_eq!(appearance, "2026-09-08", "the Tuesday after Labor Day");

    // An administrator's list replaces the statutory holidays.
    let mut listed = base.clone();
    listed["closed_days"] = json!(["2026-09-08", "not a date"]);
    let bad = save(listed.clone()).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(bad.body.contains("closed_days"));
    listed["closed_days"] = json!(["2026-09-08"]);
    assert_eq!(save(listed).await.status, StatusCode::OK);
    let (_, number) = c.approved("Ray Listed").await;
    let appearance: String =
        sqlx::query_scalar("SELECT appearance_date FROM citation WHERE number = $1")
            .bind(&number)
            .fetch_one(&c.app.state.store.reader)
            .await
            .expect("appearance");
    assert_eq!(
        appearance, "2026-09-07",
        "Labor Day is open on the saved list; the 8th is not"
    );
}

#[tokio::test]
async fn exports_are_named_by_date_and_number_offer_a_byte_order_mark_and_are_listed() {
    let c = court().await;
    let (_, a) = c.approved("Noël Côté").await;
    let today = c.app.state.settings.town_zone.date(c.app.clock_now());
    let name = |reply: &Reply| {
        reply.headers[header::CONTENT_DISPOSITION]
            .to_str()
            .expect("disposition")
            .to_owned()
    };
    let first = c.export("csv", &[&a]).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert_eq!(
        name(&first),
        format!("attachment; filename=\"wells-court-{today}-1.csv\"")
    );
    assert!(!first.body.starts_with('\u{feff}'), "no mark unless asked");
    let excel = c.export_form(format!("format=csv&bom=1&numbers={a}")).await;
    assert_eq!(
        name(&excel),
        format!("attachment; filename=\"wells-court-{today}-2.csv\"")
    );
    assert!(
        excel.body.starts_with('\u{feff}'),
        "Excel's UTF-8 mark first"
    );
    assert!(excel.body.contains("Noël Côté"));
    // The recorded hash is the file's, mark included.
    use sha2::Digest;
    let sha = excel.headers["x-export-sha256"]
        .to_str()
        .expect("sha")
        .to_owned();
    assert_eq!(
        hex::encode(sha2::Sha256::digest(excel.body.as_bytes())),
        sha
    );
    let listed = c
        .app
        .post("/api/court/exports", json!({}), Some(&c.clerk))
        .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    let files: Vec<String> = listed
        .json()
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b["file"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(
        files,
        [
            format!("wells-court-{today}-2.csv"),
            format!("wells-court-{today}-1.csv")
        ]
    );
    let officer = c
        .app
        .post("/api/court/exports", json!({}), Some(&c.officer))
        .await;
    assert_eq!(officer.status, StatusCode::FORBIDDEN);
}

/// Issue #37, finding 18: the clerk's calendar lists the hearings set from
/// today on, by day and number; a past hearing and a withdrawn or final case
/// are not on it.
#[tokio::test]
async fn the_calendar_lists_hearings_from_today_by_day() {
    let c = court().await;
    let (_, later) = c.approved("Lee Later").await;
    let (_, sooner) = c.approved("Sam Sooner").await;
    let (_, same_day) = c.approved("Sid Sameday").await;
    let (_, settled) = c.approved("Pat Paid").await;
    let today = c.app.state.settings.town_zone.date(c.app.clock_now());
    assert_eq!(
        c.file(&[&later, &sooner, &same_day, &settled], &c.clerk)
            .await
            .status,
        StatusCode::OK
    );
    // The test clock's today is 2026-07-04; the court sits on these days.
    for (number, hearing) in [
        (&later, "2026-08-20"),
        (&sooner, "2026-07-21"),
        (&same_day, "2026-07-21"),
        (&settled, "2026-07-21"),
    ] {
        let reply = c
            .app
            .post(
                "/api/court/dispose",
                json!({ "number": number, "disposition": { "kind": "contested", "on": today, "hearing_on": hearing } }),
                Some(&c.clerk),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    // Paid after the contest: final, so no longer a hearing to attend, though
    // it keeps the hearing date it had.
    let paid = c
        .app
        .post(
            "/api/court/dispose",
            json!({ "number": settled, "disposition": { "kind": "paid", "on": today, "paid_cents": 13_500 } }),
            Some(&c.clerk),
        )
        .await;
    assert_eq!(paid.json(), "disposed", "{}", paid.body);
    let calendar = c
        .app
        .post("/api/court/calendar", json!({}), Some(&c.clerk))
        .await;
    assert_eq!(calendar.status, StatusCode::OK, "{}", calendar.body);
    let days: Vec<(String, Vec<String>)> = calendar.json()["days"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            (
                d["day_text"].as_str().unwrap_or_default().to_owned(),
                d["hearings"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|h| h["number"].as_str().unwrap_or_default().to_owned())
                    .collect(),
            )
        })
        .collect();
    let mut first_day = vec![sooner.clone(), same_day.clone()];
    first_day.sort();
    assert_eq!(
        days,
        [
            ("Tuesday 2026-07-21".to_owned(), first_day),
            ("Thursday 2026-08-20".to_owned(), vec![later.clone()]),
        ]
    );

    // Once the hearing day is past it leaves the calendar.
    c.app.clock.advance_minutes(20 * 24 * 60);
    let clerk = c.app.session("dana").await;
    let after = c
        .app
        .post("/api/court/calendar", json!({}), Some(&clerk))
        .await;
    assert_eq!(
        after.json()["days"].as_array().map(Vec::len),
        Some(1),
        "{}",
        after.body
    );
}
