//! Issue #20: the officer's signature, captured once, prints on the summonses the
//! officer issues from then on; the person's signature, or their refusal, prints
//! on their own summons; bad strokes change nothing.

mod support;

use app::model::account::Role;
use app::model::signature::PersonSignature;
use axum::http::StatusCode;
use serde_json::json;
use support::{refusal_report, TestApp};

fn strokes(shift: u16) -> serde_json::Value {
    json!({ "strokes": [[[20 + shift, 250], [200, 40], [380, 250]], [[420, 150], [700, 160], [980, 120]]] })
}

async fn cite(app: &TestApp, cookie: &str, signature: Option<PersonSignature>) -> String {
    app.clock.advance_minutes(1);
    let mut report = refusal_report(app.clock_now());
    report.subjects[0].signature = signature;
    let reply = app.submit(cookie, &report).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.json()["citations"][0]["number"]
        .as_str()
        .expect("number")
        .to_owned()
}

async fn pdf(app: &TestApp, cookie: &str, number: &str) -> String {
    let reply = app
        .get(&format!("/citations/{number}/pdf"), Some(cookie))
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    reply.body
}

#[tokio::test]
async fn the_officer_s_signature_prints_on_summonses_issued_after_it_and_is_audited() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let oscar = app.session("oscar").await;
    let none = app
        .post("/api/account/signature", json!({}), Some(&oscar))
        .await;
    assert_eq!(none.json(), serde_json::Value::Null);
    let before = cite(&app, &oscar, None).await;
    let unsigned = pdf(&app, &oscar, &before).await;
    assert!(!unsigned.contains("/OfficerSignature BMC"));

    app.clock.advance_minutes(1);
    let saved = app
        .post(
            "/api/account/signature/save",
            json!({ "signature": strokes(0) }),
            Some(&oscar),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    let audited = app.audit_actions("signature.officer").await;
    assert_eq!(audited.len(), 1);
    let after: serde_json::Value =
        serde_json::from_str(audited[0].1.as_deref().unwrap_or("{}")).expect("after");
    assert_eq!(after["sha256"].as_str().map(str::len), Some(64));
    let on_file = app
        .post("/api/account/signature", json!({}), Some(&oscar))
        .await;
    assert_eq!(on_file.json(), strokes(0));

    let signed_number = cite(&app, &oscar, None).await;
    let signed = pdf(&app, &oscar, &signed_number).await;
    assert!(
        signed.contains("/OfficerSignature BMC"),
        "the new summons carries it"
    );
    assert_eq!(
        pdf(&app, &oscar, &before).await,
        unsigned,
        "one issued before keeps its blank line"
    );

    // Signing again changes the summonses issued from then on, not those before.
    app.clock.advance_minutes(1);
    let again = app
        .post(
            "/api/account/signature/save",
            json!({ "signature": strokes(100) }),
            Some(&oscar),
        )
        .await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(pdf(&app, &oscar, &signed_number).await, signed);
    let later = pdf(&app, &oscar, &cite(&app, &oscar, None).await).await;
    assert!(later.contains("/OfficerSignature BMC"));
    assert_ne!(later, signed);
    assert_eq!(app.count("officer_signature").await, 2);
}

#[tokio::test]
async fn a_number_given_on_scene_prints_the_signature_its_block_was_reserved_with() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let oscar = app.session("oscar").await;
    let save = |shift| {
        let (app, oscar) = (&app, &oscar);
        async move {
            app.clock.advance_minutes(1);
            let reply = app
                .post(
                    "/api/account/signature/save",
                    json!({ "signature": strokes(shift) }),
                    Some(oscar),
                )
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        }
    };
    save(0).await;
    app.clock.advance_minutes(1);
    let reserved = app
        .post("/api/numbers/reserve", json!({}), Some(&oscar))
        .await;
    assert_eq!(reserved.status, StatusCode::OK, "{}", reserved.body);
    let block: Option<app::model::numbers::NumberBlock> =
        serde_json::from_str(&reserved.body).expect("block");
    let block = block.expect("a block");
    assert_eq!(
        block.officer_signature,
        serde_json::from_value(strokes(0)).ok(),
        "the phone's copy prints it"
    );

    // A new signature after the block was reserved, before the report arrives.
    save(100).await;
    app.clock.advance_minutes(1);
    let mut report = refusal_report(app.clock_now());
    report.numbers = vec![app::model::numbers::HandedNumber {
        subject_id: report.subjects[0].subject_id,
        offence: app::ordinance::Offence::LoiteringObstruction,
        number: block.number(block.first_seq),
    }];
    let reply = app.submit(&oscar, &report).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let on_scene = pdf(&app, &oscar, &block.number(block.first_seq)).await;
    let online = pdf(&app, &oscar, &cite(&app, &oscar, None).await).await;
    let drawn = |pdf: &str| {
        let start = pdf.find("/OfficerSignature BMC").expect("signed");
        pdf[start..start + pdf[start..].find("EMC").expect("end")].to_owned()
    };
    assert_ne!(
        drawn(&on_scene),
        drawn(&online),
        "the block's signature, not the newer one"
    );
    let copy: serde_json::Value = app
        .post(
            "/api/citations/get",
            json!({ "number": block.number(block.first_seq) }),
            Some(&oscar),
        )
        .await
        .json();
    assert_eq!(copy["officer_signature"], strokes(0));
}

#[tokio::test]
async fn strokes_that_are_not_a_signature_are_refused_by_name_and_change_nothing() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let oscar = app.session("oscar").await;
    for (body, expected) in [
        (json!({ "strokes": [] }), "empty"),
        (
            json!({ "strokes": [[[10, 10], [1001, 10]]] }),
            "outside its box",
        ),
        (
            json!({ "strokes": vec![json!([[1, 1], [2, 2]]); 61] }),
            "more strokes",
        ),
    ] {
        let reply = app
            .post(
                "/api/account/signature/save",
                json!({ "signature": body }),
                Some(&oscar),
            )
            .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
        assert!(
            reply.body.contains("signature") && reply.body.contains(expected),
            "{}",
            reply.body
        );
    }
    assert_eq!(app.count("officer_signature").await, 0);
    assert!(app.audit_actions("signature.officer").await.is_empty());
}

#[tokio::test]
async fn the_person_signs_or_refuses_on_their_own_summons() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let oscar = app.session("oscar").await;
    let drawn: app::model::signature::Signature =
        serde_json::from_value(strokes(0)).expect("strokes");

    let signed = cite(&app, &oscar, Some(PersonSignature::Signed(drawn.clone()))).await;
    let signed_pdf = pdf(&app, &oscar, &signed).await;
    assert!(signed_pdf.contains("/DefendantSignature BMC"));
    assert!(!signed_pdf.contains("declined"));

    let refused = cite(&app, &oscar, Some(PersonSignature::Refused)).await;
    let refused_pdf = pdf(&app, &oscar, &refused).await;
    assert!(!refused_pdf.contains("/DefendantSignature BMC"));
    assert!(refused_pdf.contains("Asked to sign on the officer's phone; declined."));

    // Only a person given a summons is asked to sign it; an empty pad is no signature.
    let mut uncited = refusal_report(app.clock_now());
    uncited.subjects[0].charges[0].issue_citation = false;
    uncited.subjects[0].signature = Some(PersonSignature::Refused);
    let reply = app.submit(&oscar, &uncited).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert!(
        reply.body.contains("subjects.0.signature"),
        "{}",
        reply.body
    );
    let mut empty = refusal_report(app.clock_now());
    empty.subjects[0].signature = Some(PersonSignature::Signed(Default::default()));
    let reply = app.submit(&oscar, &empty).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert!(reply.body.contains("Sign in the box"), "{}", reply.body);
    assert_eq!(app.count("citation").await, 2);
}

#[tokio::test]
async fn an_amendment_cannot_add_or_change_a_person_s_signature() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    app.user("carla", &[Role::Chief]).await;
    let oscar = app.session("oscar").await;
    let carla = app.session("carla").await;
    let mut report = refusal_report(app.clock_now());
    report.subjects[0].signature = Some(PersonSignature::Refused);
    assert_eq!(app.submit(&oscar, &report).await.status, StatusCode::OK);
    let amend = |r: &app::model::incident::IncidentReport| {
        app.post(
            "/api/review/amend",
            json!({ "report": r, "reason": "The narrative names the wrong corner of the lot." }),
            Some(&carla),
        )
    };
    let mut drawn = report.clone();
    drawn.subjects[0].signature = Some(PersonSignature::Signed(
        serde_json::from_value(strokes(0)).expect("strokes"),
    ));
    let refused = amend(&drawn).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    assert!(
        refused.body.contains("subjects.0.signature"),
        "{}",
        refused.body
    );
    let mut narrative = report.clone();
    narrative.narrative.push_str(" North corner.");
    let amended = amend(&narrative).await;
    assert_eq!(amended.status, StatusCode::OK, "{}", amended.body);
    assert_eq!(app.count("incident_revision").await, 2);
}
