//! Citation numbers handed out without signal (issue #17): blocks per phone,
//! confirmation, voids with the server's reason, returns, expiry, and the
//! year's account in which every number is exactly one thing.

mod support;

use app::model::account::Role;
use app::model::incident::IncidentReport;
use app::model::numbers::{HandedNumber, NumberBlock, EXPIRE_AFTER_MS, USE_FOR_MS};
use app::ordinance::{Offence, ProtectedActivity};
use axum::http::StatusCode;
use serde_json::{json, Value};
use support::{refusal_report, TestApp};

async fn reserve(app: &TestApp, cookie: &str) -> NumberBlock {
    let reply = app
        .post("/api/numbers/reserve", json!({}), Some(cookie))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let block: Option<NumberBlock> = serde_json::from_str(&reply.body).expect("block");
    block.expect("a block")
}

/// A one-person §52-1(A)(1) report whose citation the phone numbered on scene.
fn numbered(app: &TestApp, number: String) -> IncidentReport {
    let mut report = refusal_report(app.clock_now());
    report.numbers = vec![HandedNumber {
        subject_id: report.subjects[0].subject_id,
        offence: Offence::LoiteringObstruction,
        number,
    }];
    report
}

/// A citation issued online (the server numbers it).
async fn online(app: &TestApp, cookie: &str) {
    let reply = app.submit(cookie, &refusal_report(app.clock_now())).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
}

async fn account(app: &TestApp, cookie: &str) -> Value {
    let reply = app
        .post(
            "/api/numbers/account",
            json!({ "year": null }),
            Some(cookie),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.json()
}

/// Each number 1..=last of the year, and what it is, read straight from the
/// tables: a citation, a spent row (void or returned), or a block not yet
/// settled (reserved). Panics if a number is two things or none.
async fn ledger(app: &TestApp) -> Vec<(i64, &'static str)> {
    let db = &app.state.store.reader;
    let cited: Vec<i64> = sqlx::query_scalar("SELECT seq FROM citation WHERE year = 2026")
        .fetch_all(db)
        .await
        .expect("citations");
    let spent: Vec<(i64, String)> =
        sqlx::query_as("SELECT seq, state FROM number_spent WHERE year = 2026")
            .fetch_all(db)
            .await
            .expect("spent");
    let open: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT first_seq, last_seq FROM number_block WHERE year = 2026 AND settled_at IS NULL",
    )
    .fetch_all(db)
    .await
    .expect("blocks");
    let blocks: Vec<(i64, i64)> =
        sqlx::query_as("SELECT first_seq, last_seq FROM number_block WHERE year = 2026")
            .fetch_all(db)
            .await
            .expect("blocks");
    let last = cited
        .iter()
        .copied()
        .chain(blocks.iter().map(|b| b.1))
        .max()
        .unwrap_or(0);
    (1..=last)
        .map(|seq| {
            let mut what = Vec::new();
            if cited.contains(&seq) {
                what.push("issued");
            }
            for (s, state) in &spent {
                if *s == seq {
                    what.push(if state == "void" { "void" } else { "returned" });
                }
            }
            if what.is_empty() && open.iter().any(|(f, l)| (*f..=*l).contains(&seq)) {
                what.push("reserved");
            }
            assert_eq!(what.len(), 1, "number {seq} is {what:?}");
            (seq, what[0])
        })
        .collect()
}

#[tokio::test]
async fn two_phones_hold_blocks_while_a_third_issues_online_and_every_number_is_accounted_once() {
    let app = TestApp::new().await;
    for name in ["amy", "ben", "cal"] {
        app.user(name, &[Role::Officer]).await;
    }
    app.user("chief", &[Role::Chief]).await;
    let (amy, ben, cal, chief) = (
        app.session("amy").await,
        app.session("ben").await,
        app.session("cal").await,
        app.session("chief").await,
    );

    // Amy and Ben reserve while Cal submits online, all at once.
    let (a, b, ..) = tokio::join!(
        reserve(&app, &amy),
        reserve(&app, &ben),
        online(&app, &cal),
        online(&app, &cal),
        online(&app, &cal)
    );
    assert_eq!(a.last_seq - a.first_seq + 1, 10);
    assert!(
        a.last_seq < b.first_seq || b.last_seq < a.first_seq,
        "blocks overlap: {a:?} {b:?}"
    );

    // Amy, without signal, cites three people from her block; the reports
    // arrive later, two of them at the same time as more of Cal's.
    let handed: Vec<IncidentReport> = (0..3)
        .map(|k| numbered(&app, a.number(a.first_seq + k)))
        .collect();
    let (r0, r1, ..) = tokio::join!(
        app.submit(&amy, &handed[0]),
        app.submit(&amy, &handed[1]),
        online(&app, &cal),
        online(&app, &cal)
    );
    for (reply, report) in [(r0, &handed[0]), (r1, &handed[1])] {
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        assert_eq!(
            reply.json()["citations"][0]["number"],
            report.numbers[0].number,
            "the citation takes the number the subject was given"
        );
    }
    // The third is sent twice (a lost answer): one citation.
    for _ in 0..2 {
        let reply = app.submit(&amy, &handed[2]).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    // Amy signs out: the seven numbers she did not hand out come back.
    let reply = app
        .post(
            "/api/numbers/give-back",
            json!({ "block_id": a.block_id, "keep": [] }),
            Some(&amy),
        )
        .await;
    assert_eq!(reply.json(), json!(7), "{}", reply.body);

    // Ben's phone never comes back. While his block may still bring reports,
    // its numbers are reserved, by him.
    let before = account(&app, &chief).await;
    assert_eq!(before["reserved"], 10, "{before}");
    assert_eq!(before["reserved_runs"][0]["officer"], "ben tester");
    assert!(ledger(&app).await.iter().any(|(_, w)| *w == "reserved"));

    // A week after its last day of use, the server returns them.
    app.clock.advance_ms(USE_FOR_MS + EXPIRE_AFTER_MS + 60_000);
    let expired = app::store::numbers::expire(&app.state.store, app.clock_now())
        .await
        .expect("expire");
    assert_eq!(expired, 1);

    let entries = ledger(&app).await;
    let count = |what: &str| entries.iter().filter(|(_, w)| *w == what).count();
    assert_eq!(
        (
            count("issued"),
            count("void"),
            count("returned"),
            count("reserved")
        ),
        (8, 0, 17, 0),
        "5 online + 3 from Amy's block; 7 of Amy's and 10 of Ben's returned"
    );
    // (A week on, the chief signs in again.)
    let chief = app.session("chief").await;
    let after = account(&app, &chief).await;
    assert_eq!(after["last"], 25);
    assert_eq!(
        (&after["issued"], &after["returned"], &after["reserved"]),
        (&json!(8), &json!(17), &json!(0))
    );
    assert_eq!(after["missing"], json!([]));
    let verified = app::store::audit::verify(&app.state.store.reader)
        .await
        .expect("read");
    assert!(verified.is_ok(), "{verified:?}");
}

#[tokio::test]
async fn a_report_the_server_refuses_voids_the_number_handed_out_with_the_refusal() {
    let app = TestApp::new().await;
    app.user("amy", &[Role::Officer]).await;
    app.user("clerk", &[Role::Clerk]).await;
    let amy = app.session("amy").await;
    let block = reserve(&app, &amy).await;
    let number = block.number(block.first_seq);
    // The phone's copy of the rules said "cite"; the report as it reaches the
    // server says the person was picketing (§52-1 E), which no rule cites.
    let mut report = numbered(&app, number.clone());
    report.subjects[0].facts.protected_activity = ProtectedActivity::PeacefulPicketing;
    for _ in 0..2 {
        let reply = app.submit(&amy, &report).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
        assert!(reply.body.contains("52-1 E"), "{}", reply.body);
    }
    assert_eq!(app.count("incident").await, 0);
    let (state, reason): (String, String) =
        sqlx::query_as("SELECT state, reason FROM number_spent WHERE number = $1")
            .bind(&number)
            .fetch_one(&app.state.store.reader)
            .await
            .expect("void row");
    assert_eq!(state, "void");
    assert!(reason.contains("52-1 E"), "{reason}");
    assert_eq!(
        app.audit_actions("numbers.void").await.len(),
        1,
        "voided once"
    );

    // Fixed and sent again with the same number: the number stays void, the
    // citation gets the next one, and the audit says which the subject holds.
    report.subjects[0].facts.protected_activity = ProtectedActivity::None;
    report.incident_id = uuid::Uuid::now_v7();
    let reply = app.submit(&amy, &report).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let receipt = reply.json();
    assert_ne!(receipt["citations"][0]["number"], json!(number));
    assert!(
        receipt["number_notes"][0]
            .as_str()
            .unwrap_or_default()
            .contains(&number),
        "{receipt}"
    );
    assert_eq!(app.audit_actions("citation.renumber").await.len(), 1);

    let clerk = app.session("clerk").await;
    let account = account(&app, &clerk).await;
    assert_eq!(account["voids"][0]["number"], json!(number));
    assert_eq!(account["voided"], 1);
    assert_eq!(account["missing"], json!([]));
}

#[tokio::test]
async fn a_number_for_an_offence_not_cited_is_void_and_the_report_stands() {
    let app = TestApp::new().await;
    app.user("amy", &[Role::Officer]).await;
    let amy = app.session("amy").await;
    let block = reserve(&app, &amy).await;
    let mut report = numbered(&app, block.number(block.first_seq));
    // A second number, for an offence the person is not charged with.
    report.numbers.push(HandedNumber {
        subject_id: report.subjects[0].subject_id,
        offence: Offence::DisturbingThePeace,
        number: block.number(block.first_seq + 1),
    });
    let reply = app.submit(&amy, &report).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let receipt = reply.json();
    assert_eq!(receipt["citations"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        receipt["citations"][0]["number"],
        json!(block.number(block.first_seq))
    );
    let notes = receipt["number_notes"].to_string();
    assert!(
        notes.contains(&block.number(block.first_seq + 1)),
        "{notes}"
    );
    let state: String = sqlx::query_scalar("SELECT state FROM number_spent WHERE seq = $1")
        .bind(block.first_seq + 1)
        .fetch_one(&app.state.store.reader)
        .await
        .expect("void row");
    assert_eq!(state, "void");
}

#[tokio::test]
async fn a_number_not_reserved_for_the_officer_is_refused_and_nothing_is_stored() {
    let app = TestApp::new().await;
    app.user("amy", &[Role::Officer]).await;
    app.user("ben", &[Role::Officer]).await;
    let (amy, ben) = (app.session("amy").await, app.session("ben").await);
    let bens = reserve(&app, &ben).await;
    for number in [
        bens.number(bens.first_seq),
        "WPD-2026-009999".to_owned(),
        "not a number".to_owned(),
    ] {
        let reply = app.submit(&amy, &numbered(&app, number.clone())).await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{number}: {}",
            reply.body
        );
        assert_eq!(reply.json()["errors"][0]["field"], "numbers");
    }
    assert_eq!(app.count("incident").await, 0);
    assert_eq!(app.count("citation").await, 0);
    assert_eq!(app.count("number_spent").await, 0, "Ben's numbers are his");
}

#[tokio::test]
async fn giving_back_keeps_numbers_still_on_the_phone_and_a_repeat_returns_none() {
    let app = TestApp::new().await;
    app.user("amy", &[Role::Officer]).await;
    let amy = app.session("amy").await;
    let block = reserve(&app, &amy).await;
    let held = block.number(block.first_seq);
    let give_back = |keep: Vec<String>| {
        app.post(
            "/api/numbers/give-back",
            json!({ "block_id": block.block_id, "keep": keep }),
            Some(&amy),
        )
    };
    assert_eq!(give_back(vec![held.clone()]).await.json(), json!(9));
    assert_eq!(give_back(vec![held.clone()]).await.json(), json!(0));
    // The report with the kept number arrives after sign-out: it is confirmed.
    let reply = app.submit(&amy, &numbered(&app, held.clone())).await;
    assert_eq!(reply.json()["citations"][0]["number"], json!(held));
    let entries = ledger(&app).await;
    assert_eq!(entries.iter().filter(|(_, w)| *w == "issued").count(), 1);
    assert_eq!(entries.iter().filter(|(_, w)| *w == "returned").count(), 9);
    // Another officer's block is not theirs to give back.
    app.user("ben", &[Role::Officer]).await;
    let ben = app.session("ben").await;
    let reply = app
        .post(
            "/api/numbers/give-back",
            json!({ "block_id": block.block_id, "keep": [] }),
            Some(&ben),
        )
        .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_officer_holds_at_most_three_blocks_and_the_next_online_number_follows_them() {
    let app = TestApp::new().await;
    app.user("amy", &[Role::Officer]).await;
    let amy = app.session("amy").await;
    for _ in 0..3 {
        reserve(&app, &amy).await;
    }
    let reply = app
        .post("/api/numbers/reserve", json!({}), Some(&amy))
        .await;
    // A fourth phone gets none (and no error: it works on, numbered online).
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.json(), Value::Null);
    assert_eq!(app.count("number_block").await, 3);
    // Online, the next citation is numbered after the three blocks.
    let reply = app.submit(&amy, &refusal_report(app.clock_now())).await;
    assert_eq!(reply.json()["citations"][0]["number"], "WPD-2026-000031");
}

#[tokio::test]
async fn a_number_can_be_neither_void_and_a_citation_nor_spent_twice() {
    // The database itself refuses, whatever the code above it does.
    let app = TestApp::new().await;
    app.user("amy", &[Role::Officer]).await;
    let amy = app.session("amy").await;
    let block = reserve(&app, &amy).await;
    let number = block.number(block.first_seq);
    let reply = app.submit(&amy, &numbered(&app, number.clone())).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let insert = "INSERT INTO number_spent (year, seq, number, block_id, state, reason, at) \
                  VALUES (2026, $1, $2, $3, 'void', 'test', 0)";
    let refused = sqlx::query(insert)
        .bind(block.first_seq)
        .bind(&number)
        .bind(block.block_id.to_string())
        .execute(&app.state.store.writer)
        .await;
    assert!(
        refused.is_err(),
        "a citation's number cannot be voided here"
    );
    let second = block.number(block.first_seq + 1);
    sqlx::query(insert)
        .bind(block.first_seq + 1)
        .bind(&second)
        .bind(block.block_id.to_string())
        .execute(&app.state.store.writer)
        .await
        .expect("first spend");
    let twice = sqlx::query("UPDATE number_spent SET state = 'returned'")
        .execute(&app.state.store.writer)
        .await;
    assert!(twice.is_err(), "append-only");
}

#[tokio::test]
async fn more_numbers_than_persons_and_offences_are_refused_and_not_worked_through() {
    let app = TestApp::new().await;
    app.user("amy", &[Role::Officer]).await;
    let amy = app.session("amy").await;
    let block = reserve(&app, &amy).await;
    let mut report = numbered(&app, block.number(block.first_seq));
    let subject_id = report.subjects[0].subject_id;
    for k in 1..5_000 {
        report.numbers.push(HandedNumber {
            subject_id,
            offence: Offence::LoiteringObstruction,
            number: block.number(block.first_seq + k % 10),
        });
    }
    let reply = app.submit(&amy, &report).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert_eq!(reply.json()["errors"][0]["field"], "numbers");
    assert_eq!(app.count("incident").await, 0);
    // The numbers one person's offences allow (one citation per offence, both
    // articles) are voided with the refusal (the block's first ten repeat); the
    // thousands beyond them were not worked through.
    assert_eq!(app.count("number_spent").await, Offence::ALL.len() as i64);
}
