//! The court's record (issue #33). Once filed, a citation's number, person,
//! offence, arrest and fine are the court's: a chief's amendment never rewrites
//! them, but withdraws the citation (for the clerk to take to the court) and
//! issues a new one that replaces it. A citation of a person not identified is
//! held out of filing until the person is identified. The clerk sees all of it.
//!
//! Runs on the pass's engine (`WELLS_TEST_BACKEND=postgres` for PostgreSQL).

mod support;

use app::model::account::Role;
use app::model::incident::{Identity, IncidentReport, SubjectEntry};
use app::ordinance::{Charge, Offence, PeaceDisturbance};
use axum::http::StatusCode;
use proptest::prelude::*;
use serde_json::{json, Value};
use support::{refusal_report, Reply, TestApp};

use Offence::{DisturbingThePeace as S3, GroupObstruction as S2, LoiteringObstruction as A1};

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

/// A person whose recorded conduct meets §52-1 A(1), §52-2 (standing with one
/// other, obstructing the sidewalk, ordered to move on, stayed) and §52-3 (loud
/// noise that disturbed the quiet and good order), cited for `charges`.
fn person(template: &SubjectEntry, name: &str, charges: &[Offence]) -> SubjectEntry {
    let mut p = template.clone();
    p.subject_id = uuid::Uuid::now_v7();
    rename(&mut p, name);
    p.facts.conduct.group.others = 1;
    p.facts.conduct.group.obstructs_free_passage = true;
    p.facts.conduct.peace = PeaceDisturbance {
        loud_noise: true,
        disturbed_quiet_and_good_order: true,
        ..PeaceDisturbance::default()
    };
    p.charges = cited(charges);
    p
}

fn cited(charges: &[Offence]) -> Vec<Charge> {
    charges
        .iter()
        .map(|&offence| Charge {
            offence,
            issue_citation: true,
        })
        .collect()
}

fn rename(p: &mut SubjectEntry, name: &str) {
    if let Identity::Identified { full_name, .. } = &mut p.identity {
        *full_name = name.to_owned();
    }
}

/// A report of one person per name, each cited for `charges`.
fn report(app: &TestApp, names: &[&str], charges: &[Offence]) -> IncidentReport {
    let mut r = refusal_report(app.clock_now());
    let template = r.subjects[0].clone();
    r.subjects = names
        .iter()
        .map(|name| person(&template, name, charges))
        .collect();
    r
}

impl Court {
    async fn call(&self, cookie: &str, endpoint: &str, body: Value) -> Reply {
        self.app
            .post(&format!("/api/{endpoint}"), body, Some(cookie))
            .await
    }

    async fn ok(&self, cookie: &str, endpoint: &str, body: Value) -> Value {
        let reply = self.call(cookie, endpoint, body).await;
        assert_eq!(reply.status, StatusCode::OK, "{endpoint}: {}", reply.body);
        reply.json()
    }

    /// Submitted by the officer and approved by the chief: the numbers issued.
    async fn approved(&self, report: &IncidentReport) -> Vec<String> {
        let receipt = self
            .ok(
                &self.officer,
                "incidents/submit",
                json!({ "report": report }),
            )
            .await;
        self.ok(
            &self.chief,
            "review/decide",
            json!({ "incident_id": report.incident_id, "revision": 1, "action": { "action": "approve" } }),
        )
        .await;
        receipt["citations"]
            .as_array()
            .expect("citations")
            .iter()
            .map(|c| c["number"].as_str().expect("number").to_owned())
            .collect()
    }

    async fn file(&self, numbers: &[String]) -> Reply {
        let today = self.app.state.settings.town_zone.date(self.app.clock_now());
        self.call(
            &self.clerk,
            "court/file",
            json!({ "filing": { "numbers": numbers, "filed_on": today, "reference": "YORDC-CV-26-0099" } }),
        )
        .await
    }

    async fn amend(&self, report: &IncidentReport, reason: &str) -> Reply {
        self.app.clock.advance_minutes(1);
        self.call(
            &self.chief,
            "review/amend",
            json!({ "report": report, "reason": reason }),
        )
        .await
    }
}

/// What the court holds of a citation: number, status, offence, fine, arrest
/// and the person's identity as their row prints it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
struct Held {
    number: String,
    status: String,
    offence: String,
    fine_cents: i64,
    arrest: i64,
    subject_id: String,
    identity: String,
    withdrawn: i64,
    replaces: Option<String>,
    issued_by: String,
}

impl Held {
    fn at_court(&self) -> bool {
        matches!(self.status.as_str(), "filed" | "disposed")
    }

    /// What no amendment may change once it is at court.
    fn record(&self) -> (&str, &str, i64, i64, &str, &str) {
        (
            &self.number,
            &self.offence,
            self.fine_cents,
            self.arrest,
            &self.subject_id,
            &self.identity,
        )
    }
}

async fn held(app: &TestApp, incident_id: uuid::Uuid) -> Vec<Held> {
    sqlx::query_as(
        "SELECT c.number, c.status, c.offence, c.fine_cents, c.arrest, c.subject_id, \
         CAST(s.identified AS TEXT) || '|' || COALESCE(s.full_name, '') || '|' || \
         COALESCE(s.date_of_birth, '') || '|' || COALESCE(s.address, '') || '|' || \
         COALESCE(s.id_type, '') || '|' || COALESCE(s.id_number, '') || '|' || \
         COALESCE(s.description, '') AS identity, \
         CASE WHEN EXISTS (SELECT 1 FROM citation_withdrawal w WHERE w.number = c.number) \
           THEN 1 ELSE 0 END AS withdrawn, c.replaces, c.issued_by \
         FROM citation c JOIN subject s ON s.subject_id = c.subject_id \
         WHERE c.incident_id = $1 ORDER BY c.year, c.seq",
    )
    .bind(incident_id.to_string())
    .fetch_all(&app.state.store.reader)
    .await
    .expect("citations")
}

/// What an amendment after filing does to the filed citation.
#[derive(Debug, Clone, Copy)]
enum Then {
    /// It stands, unchanged (the next export shows the amended report).
    Stands,
    /// Withdrawn, replaced by a citation for this offence, of the same person
    /// or (`true`) of the person added.
    Replaced(Offence, bool),
    /// Withdrawn with nothing in its place.
    Withdrawn,
    /// The amendment is refused, at this field.
    Refused(&'static str),
}

struct Row {
    what: &'static str,
    /// The filed citation's offence.
    filed: Offence,
    change: fn(&mut IncidentReport, &SubjectEntry),
    then: Then,
}

fn rows() -> Vec<Row> {
    vec![
        Row {
            what: "the place is given its Town name",
            filed: A1,
            change: |r, _| r.location.text = "Post Road (Route 1) at Mile Road".into(),
            then: Then::Stands,
        },
        Row {
            what: "§52-1 A(1) is amended to §52-3",
            filed: A1,
            change: |r, _| r.subjects[0].charges = cited(&[S3]),
            then: Then::Replaced(S3, false),
        },
        Row {
            what: "§52-2 is amended to §52-1 A(1)",
            filed: S2,
            change: |r, _| r.subjects[0].charges = cited(&[A1]),
            then: Then::Replaced(A1, false),
        },
        Row {
            what: "the citation is taken away",
            filed: A1,
            change: |r, _| r.subjects[0].charges[0].issue_citation = false,
            then: Then::Withdrawn,
        },
        Row {
            what: "the person's name is changed",
            filed: A1,
            change: |r, _| rename(&mut r.subjects[0], "Alexandra Morgan"),
            then: Then::Refused("subjects.0.full_name"),
        },
        Row {
            what: "an arrest is recorded on a filed §52-2 citation",
            filed: S2,
            change: |r, _| r.subjects[0].facts.arrested = true,
            then: Then::Refused("subjects.0.arrested"),
        },
        Row {
            what: "another charge is added",
            filed: A1,
            change: |r, _| r.subjects[0].charges = cited(&[A1, S3]),
            then: Then::Refused("subjects.0.charges"),
        },
        Row {
            what: "the person is taken out and the right person added",
            filed: A1,
            change: |r, template| {
                r.subjects = vec![person(template, "Jordan Right", &[A1])];
            },
            then: Then::Replaced(A1, true),
        },
    ]
}

/// Issue #33, finding 5: every way an amendment after filing can touch a
/// citation, and what the court's record is then. The filed citation is never
/// rewritten: it stands, or it is withdrawn (and replaced), or the amendment is
/// refused saying how.
#[tokio::test]
async fn a_change_after_filing_is_a_new_citation_and_a_withdrawal_never_a_rewrite() {
    let c = court().await;
    for row in rows() {
        let what = row.what;
        let mut report = report(&c.app, &["Alex Morgan"], &[row.filed]);
        let template = report.subjects[0].clone();
        let numbers = c.approved(&report).await;
        let filed = c.file(&numbers).await;
        assert_eq!(filed.status, StatusCode::OK, "{what}: {}", filed.body);
        let before = held(&c.app, report.incident_id).await;
        assert_eq!(before.len(), 1, "{what}");

        (row.change)(&mut report, &template);
        let reason = format!("Amended: {what}.");
        let reply = c.amend(&report, &reason).await;
        let after = held(&c.app, report.incident_id).await;
        // Whatever happened, the court's record of the filed citation is as it was.
        assert_eq!(after[0].record(), before[0].record(), "{what}");
        assert_eq!(after[0].status, "filed", "{what}");
        let withdrawals: Vec<(String, String)> =
            sqlx::query_as("SELECT number, reason FROM citation_withdrawal WHERE number = $1")
                .bind(&before[0].number)
                .fetch_all(&c.app.state.store.reader)
                .await
                .expect("withdrawals");
        match row.then {
            Then::Refused(field) => {
                assert_eq!(
                    reply.status,
                    StatusCode::BAD_REQUEST,
                    "{what}: {}",
                    reply.body
                );
                assert_eq!(reply.json()["errors"][0]["field"], field, "{what}");
                assert_eq!(after, before, "{what}: nothing changed");
                assert!(withdrawals.is_empty(), "{what}");
            }
            Then::Stands => {
                assert_eq!(reply.status, StatusCode::OK, "{what}: {}", reply.body);
                assert_eq!(after.len(), 1, "{what}");
                assert!(withdrawals.is_empty(), "{what}");
            }
            Then::Withdrawn | Then::Replaced(..) => {
                assert_eq!(reply.status, StatusCode::OK, "{what}: {}", reply.body);
                assert_eq!(
                    withdrawals,
                    [(before[0].number.clone(), reason.clone())],
                    "{what}"
                );
                let queue = c.ok(&c.clerk, "court/queue", json!({})).await;
                let listed = queue["withdrawals"]
                    .as_array()
                    .expect("withdrawals")
                    .iter()
                    .find(|w| w["number"] == before[0].number.as_str())
                    .cloned()
                    .unwrap_or_else(|| panic!("{what}: the clerk sees the withdrawal"));
                assert_eq!(listed["reason"], reason.as_str(), "{what}");
                // The withdrawn citation still prints as the court was given it.
                let printed = c
                    .ok(
                        &c.clerk,
                        "citations/get",
                        json!({ "number": before[0].number }),
                    )
                    .await;
                assert_eq!(printed["subject_name"], "Alex Morgan", "{what}");
                assert_eq!(printed["offence_code"], row.filed.code(), "{what}");
                assert_eq!(printed["withdrawal"]["reason"], reason.as_str(), "{what}");
                let pdf = c
                    .app
                    .get(
                        &format!("/citations/{}/pdf", before[0].number),
                        Some(&c.clerk),
                    )
                    .await;
                assert_eq!(pdf.status, StatusCode::OK, "{what}: the summons prints");
                if let Then::Replaced(offence, new_person) = row.then {
                    assert_eq!(after.len(), 2, "{what}");
                    let new = &after[1];
                    assert_eq!(new.offence, offence.code(), "{what}");
                    assert_eq!(new.status, "approved", "{what}: the chief approves it");
                    assert_eq!(new.replaces.as_deref(), Some(before[0].number.as_str()));
                    assert_ne!(new.issued_by, before[0].issued_by, "{what}: the chief's");
                    assert_eq!(new.subject_id != before[0].subject_id, new_person, "{what}");
                    assert_eq!(listed["replaced_by"], new.number.as_str(), "{what}");
                    let row = queue["rows"]
                        .as_array()
                        .expect("rows")
                        .iter()
                        .find(|r| r["number"] == new.number.as_str())
                        .cloned()
                        .unwrap_or_else(|| panic!("{what}: the replacement waits to be filed"));
                    assert_eq!(row["replaces"], before[0].number.as_str(), "{what}");
                } else {
                    assert_eq!(after.len(), 1, "{what}");
                    assert!(listed["replaced_by"].is_null(), "{what}");
                }
            }
        }
    }
    let verified = app::store::audit::verify(&c.app.state.store.reader)
        .await
        .expect("verify");
    assert!(verified.is_ok(), "{verified:?}");
}

/// The clerk's export carries a withdrawal and its replacement; once exported,
/// the withdrawal leaves the list of those still to be taken to the court.
#[tokio::test]
async fn the_export_carries_the_withdrawal_and_its_replacement() {
    let c = court().await;
    let mut report = report(&c.app, &["Robin Filed"], &[A1]);
    let numbers = c.approved(&report).await;
    assert_eq!(c.file(&numbers).await.status, StatusCode::OK);
    report.subjects[0].charges = cited(&[S3]);
    let amended = c.amend(&report, "The noise was the conduct seen.").await;
    assert_eq!(amended.status, StatusCode::OK, "{}", amended.body);
    let old = numbers[0].clone();
    let new = held(&c.app, report.incident_id).await[1].number.clone();

    let export = c
        .ok(
            &c.clerk,
            "court/export",
            json!({ "selection": { "numbers": [old, new] } }),
        )
        .await;
    let lines = export["citations"].as_array().expect("lines");
    assert_eq!(lines[0]["withdrawn"], true);
    assert_eq!(
        lines[0]["withdrawal_reason"],
        "The noise was the conduct seen."
    );
    assert_eq!(lines[0]["offence_code"], A1.code(), "as it was filed");
    assert_eq!(lines[1]["withdrawn"], false);
    assert_eq!(lines[1]["replaces"], old.as_str());
    assert_eq!(lines[1]["offence_code"], S3.code());
    let queue = c.ok(&c.clerk, "court/queue", json!({})).await;
    assert_eq!(queue["withdrawals"], json!([]), "sent with the export");
    // The court's line of each says what its printed summons says.
    let clerk = app::auth::Actor::resolved(app::model::account::Me {
        user_id: uuid::Uuid::nil(),
        username: "dana".into(),
        full_name: "Dana".into(),
        badge_number: None,
        roles: vec![Role::Clerk],
        must_change_password: false,
        needs_second_factor: false,
    });
    let (pool, zone) = (&c.app.state.store.reader, &c.app.state.settings.town_zone);
    let pair = [old.clone(), new.clone()];
    let lines = app::store::incidents::court_lines(pool, &pair, &clerk, zone)
        .await
        .expect("lines");
    let printed = app::store::incidents::citation_documents(pool, &pair, &clerk, zone)
        .await
        .expect("printed");
    for (line, doc) in lines.iter().zip(&printed) {
        assert_eq!(
            *line,
            app::model::court::ExportedCitation::of(doc, line.amended)
        );
    }

    // The clerk's page of each says what it is.
    let page = c
        .ok(&c.clerk, "court/citation", json!({ "number": old }))
        .await;
    assert_eq!(page["row"]["withdrawn"], "The noise was the conduct seen.");
    assert_eq!(page["row"]["replaced_by"], new.as_str());
    let page = c
        .ok(&c.clerk, "court/citation", json!({ "number": new }))
        .await;
    assert_eq!(page["row"]["replaces"], old.as_str());
    // The chief's report lists the withdrawal with its replacement.
    let view = c
        .ok(
            &c.chief,
            "reports/get",
            json!({ "incident_id": report.incident_id }),
        )
        .await;
    assert_eq!(view["withdrawals"][0]["number"], old.as_str());
    assert_eq!(view["withdrawals"][0]["replaced_by"], new.as_str());
}

/// Issue #33, finding 14: a summons needs an identified person. A citation of
/// a person only described is stored and approved, but held out of the filing
/// queue — counted there — and refused by filing and by an export naming it,
/// until the chief's amendment identifies the person.
#[tokio::test]
async fn an_unidentified_persons_citation_is_held_out_of_filing_until_identified() {
    let c = court().await;
    let mut report = report(&c.app, &["Alex Morgan"], &[A1]);
    let identity = report.subjects[0].identity.clone();
    report.subjects[0].identity = Identity::Described {
        description: "Red jacket, grey beanie, tall".into(),
    };
    let numbers = c.approved(&report).await;
    let number = numbers[0].clone();
    assert_eq!(c.app.citation_status(&number).await, "approved");

    let queue = c.ok(&c.clerk, "court/queue", json!({})).await;
    assert_eq!(queue["held_unidentified"], 1);
    assert_eq!(queue["waiting"], 0);
    assert!(!queue.to_string().contains(&number), "not in the queue");
    let filed = c.file(std::slice::from_ref(&number)).await;
    assert_eq!(filed.status, StatusCode::BAD_REQUEST, "{}", filed.body);
    assert!(
        filed.body.contains("names no identified person"),
        "{}",
        filed.body
    );
    let export = c
        .call(
            &c.clerk,
            "court/export",
            json!({ "selection": { "numbers": [number] } }),
        )
        .await;
    assert_eq!(export.status, StatusCode::BAD_REQUEST, "{}", export.body);
    let today = c.app.state.settings.town_zone.date(c.app.clock_now());
    let range = c
        .call(
            &c.clerk,
            "court/export",
            json!({ "selection": { "from": today, "to": today } }),
        )
        .await;
    assert_eq!(
        range.status,
        StatusCode::BAD_REQUEST,
        "nothing to export: {}",
        range.body
    );
    assert_eq!(c.app.citation_status(&number).await, "approved");

    // Identified by the chief's amendment (before filing, the person may change).
    report.subjects[0].identity = identity;
    let amended = c.amend(&report, "Identified from the licence later.").await;
    assert_eq!(amended.status, StatusCode::OK, "{}", amended.body);
    let queue = c.ok(&c.clerk, "court/queue", json!({})).await;
    assert_eq!(queue["held_unidentified"], 0);
    assert_eq!(queue["rows"][0]["number"], number.as_str());
    assert_eq!(c.file(&numbers).await.status, StatusCode::OK);
}

/// Issue #33, finding 10: the clerk records the fine the court assessed when it
/// differs from the citation's — with the court's words, flagged — and the
/// check reads the citation's own fine and section.
#[tokio::test]
async fn a_fine_the_court_set_otherwise_is_recorded_flagged_with_its_words() {
    let c = court().await;
    let report = report(&c.app, &["Casey Court"], &[A1]);
    let numbers = c.approved(&report).await;
    assert_eq!(c.file(&numbers).await.status, StatusCode::OK);
    let today = c.app.state.settings.town_zone.date(c.app.clock_now());
    let guilty = |words: Option<&str>| {
        json!({ "number": numbers[0], "disposition": {
            "kind": "guilty", "on": today, "fine_cents": 5_000, "costs_cents": 3_500,
            "court_words": words } })
    };
    let refused = c.call(&c.clerk, "court/dispose", guilty(None)).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    assert_eq!(refused.json()["errors"][0]["field"], "court_words");
    assert!(
        refused.body.contains("§52-4 sets it at $100.00"),
        "{}",
        refused.body
    );
    let words = "Judgment: fine reduced to $50.00 on the defendant's showing of hardship.";
    let recorded = c.call(&c.clerk, "court/dispose", guilty(Some(words))).await;
    assert_eq!(recorded.status, StatusCode::OK, "{}", recorded.body);
    let page = c
        .ok(&c.clerk, "court/citation", json!({ "number": numbers[0] }))
        .await;
    assert_eq!(page["fine_cents"], 5_000);
    assert_eq!(page["row"]["fine_departure"], words);
    assert_eq!(page["charged"]["section"], "52-4");
    assert!(page["history"].to_string().contains(words));
    let register = c
        .ok(
            &c.clerk,
            "court/register",
            json!({ "filter": { "number": numbers[0] } }),
        )
        .await;
    assert_eq!(register[0]["fine_departure"], words);
}

// ---------------------------------------------------------------------------
// The property: random amendment sequences against the store.

/// One thing done to the report or its citations.
#[derive(Debug, Clone)]
enum Step {
    /// The chief amends person `i`'s charges (each cited).
    Charges(usize, Vec<Offence>),
    /// The chief amends person `i`'s arrest.
    Arrest(usize, bool),
    /// The chief amends person `i`'s name.
    Rename(usize),
    /// The chief amends the place's words.
    Place,
    /// The chief takes person `i` out.
    Remove(usize),
    /// The chief adds a person cited for these.
    Add(Vec<Offence>),
    /// The chief takes person `i` out and adds another cited as they were.
    Swap(usize),
    /// The clerk files every approved citation.
    File,
    /// The clerk records a dismissal of the first filed citation.
    Dismiss,
    /// The chief voids citation `k` of the report.
    Void(usize),
    /// The officer resubmits the report (never theirs to correct now).
    Resubmit,
}

fn charges() -> impl Strategy<Value = Vec<Offence>> {
    prop::sample::subsequence(vec![A1, S2, S3], 0..=2)
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (0..3usize, charges()).prop_map(|(i, c)| Step::Charges(i, c)),
        1 => (0..3usize, any::<bool>()).prop_map(|(i, a)| Step::Arrest(i, a)),
        1 => (0..3usize).prop_map(Step::Rename),
        1 => Just(Step::Place),
        2 => (0..3usize).prop_map(Step::Remove),
        2 => charges().prop_map(Step::Add),
        2 => (0..3usize).prop_map(Step::Swap),
        2 => Just(Step::File),
        1 => Just(Step::Dismiss),
        1 => (0..4usize).prop_map(Step::Void),
        1 => Just(Step::Resubmit),
    ]
}

/// A report of one or two persons, their charges, whether the clerk files
/// its citations at once (mostly), and what follows.
fn case() -> impl Strategy<Value = (Vec<Vec<Offence>>, bool, Vec<Step>)> {
    (
        prop::collection::vec(charges(), 1..=2),
        prop::bool::weighted(0.8),
        prop::collection::vec(step(), 1..=6),
    )
}

/// Every invariant of the court's record, from what the court held before a
/// step and what is stored after it.
fn court_record_kept(
    before: &[Held],
    after: &[Held],
    report: &IncidentReport,
    chief: &str,
) -> Result<(), String> {
    for was in before.iter().filter(|h| h.at_court()) {
        let now = after
            .iter()
            .find(|h| h.number == was.number)
            .ok_or_else(|| format!("{} is gone", was.number))?;
        if now.record() != was.record() || !now.at_court() {
            return Err(format!("{} changed: {was:?} → {now:?}", was.number));
        }
    }
    for h in after.iter().filter(|h| h.at_court()) {
        let standing = report
            .subjects
            .iter()
            .find(|s| s.subject_id.to_string() == h.subject_id)
            .is_some_and(|s| {
                s.charges
                    .iter()
                    .any(|c| c.issue_citation && c.offence.code() == h.offence)
            });
        if !standing && h.withdrawn == 0 {
            return Err(format!("{} was dropped without a withdrawal", h.number));
        }
    }
    for h in after {
        if let Some(old) = &h.replaces {
            let old = after
                .iter()
                .find(|o| &o.number == old)
                .ok_or_else(|| format!("{} replaces no citation", h.number))?;
            if old.withdrawn == 0 || !old.at_court() {
                return Err(format!(
                    "{} replaces {}, not withdrawn",
                    h.number, old.number
                ));
            }
        } else if h.issued_by == chief {
            return Err(format!(
                "{} issued by an amendment replaces nothing",
                h.number
            ));
        }
    }
    let replaced: Vec<&String> = after.iter().filter_map(|h| h.replaces.as_ref()).collect();
    let mut unique = replaced.clone();
    unique.sort();
    unique.dedup();
    if unique.len() != replaced.len() {
        return Err(format!("a citation replaced twice: {replaced:?}"));
    }
    Ok(())
}

impl Court {
    async fn chief_id(&self) -> String {
        self.app.whoami(&self.chief).await["user_id"]
            .as_str()
            .expect("id")
            .to_owned()
    }

    /// Does `step` to `report` (the stored one), keeping what was accepted.
    async fn run(
        &self,
        report: &mut IncidentReport,
        template: &SubjectEntry,
        step: &Step,
        n: usize,
    ) {
        let pick =
            |i: usize, r: &IncidentReport| (!r.subjects.is_empty()).then(|| i % r.subjects.len());
        let mut next = report.clone();
        let amend = match step {
            Step::Charges(i, charges) => pick(*i, &next)
                .map(|i| next.subjects[i].charges = cited(charges))
                .is_some(),
            Step::Arrest(i, arrested) => pick(*i, &next)
                .map(|i| next.subjects[i].facts.arrested = *arrested)
                .is_some(),
            Step::Rename(i) => pick(*i, &next)
                .map(|i| rename(&mut next.subjects[i], &format!("Renamed Person {n}")))
                .is_some(),
            Step::Place => {
                next.location.text = format!("Post Road, place {n}");
                true
            }
            Step::Remove(i) => match pick(*i, &next) {
                Some(i) if next.subjects.len() > 1 => {
                    next.subjects.remove(i);
                    true
                }
                _ => false,
            },
            Step::Add(charges) => {
                next.subjects
                    .push(person(template, &format!("Added Person {n}"), charges));
                true
            }
            Step::Swap(i) => match pick(*i, &next) {
                Some(i) => {
                    let gone = next.subjects.remove(i);
                    let offences: Vec<Offence> = gone.offences().collect();
                    let mut right = person(template, &format!("Right Person {n}"), &offences);
                    right.charges = gone.charges;
                    right.facts.arrested = gone.facts.arrested;
                    next.subjects.insert(i, right);
                    true
                }
                None => false,
            },
            Step::File => {
                let approved: Vec<String> = held(&self.app, report.incident_id)
                    .await
                    .into_iter()
                    .filter(|h| h.status == "approved")
                    .map(|h| h.number)
                    .collect();
                if !approved.is_empty() {
                    self.file(&approved).await;
                }
                false
            }
            Step::Dismiss => {
                let today = self.app.state.settings.town_zone.date(self.app.clock_now());
                if let Some(h) = held(&self.app, report.incident_id)
                    .await
                    .into_iter()
                    .find(|h| h.status == "filed")
                {
                    self.call(
                        &self.clerk,
                        "court/dispose",
                        json!({ "number": h.number, "disposition": { "kind": "dismissed", "on": today } }),
                    )
                    .await;
                }
                false
            }
            Step::Void(k) => {
                if let Some(h) = held(&self.app, report.incident_id).await.get(*k) {
                    self.call(
                        &self.chief,
                        "review/void",
                        json!({ "number": h.number, "reason": "Entered against the wrong person." }),
                    )
                    .await;
                }
                false
            }
            Step::Resubmit => {
                next.narrative.push_str(" Resubmitted.");
                let reply = self
                    .call(
                        &self.officer,
                        "incidents/resubmit",
                        json!({ "report": next }),
                    )
                    .await;
                assert_ne!(
                    reply.status,
                    StatusCode::OK,
                    "an approved report is not the officer's"
                );
                false
            }
        };
        if amend {
            let reply = self.amend(&next, &format!("Step {n}: {step:?}")).await;
            if reply.status == StatusCode::OK {
                *report = next;
            } else {
                assert!(
                    matches!(reply.status, StatusCode::BAD_REQUEST | StatusCode::CONFLICT),
                    "{step:?}: {} {}",
                    reply.status,
                    reply.body
                );
            }
        }
    }
}

/// Issue #33: over random sequences of amendments (charges, arrests, names,
/// persons taken out and added, the place), filings, dismissals, voids and
/// corrections, after every step a filed or disposed citation's number,
/// person, offence, fine and arrest never change; each court citation dropped
/// has a withdrawal; each replacement names a withdrawn citation, once; and
/// an amendment issues no citation but a replacement. On the pass's engine.
#[test]
fn no_amendment_sequence_rewrites_the_courts_record() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let c = runtime.block_on(court());
    let chief = runtime.block_on(c.chief_id());
    let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
        cases: 48,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    });
    let result = runner.run(&case(), |(persons, file_first, steps)| {
        runtime.block_on(async {
            let names: Vec<String> = (0..persons.len()).map(|i| format!("Person {i}")).collect();
            let mut report = report(&c.app, &[], &[]);
            let template = refusal_report(c.app.clock_now()).subjects[0].clone();
            report.subjects = persons
                .iter()
                .zip(&names)
                .map(|(charges, name)| person(&template, name, charges))
                .collect();
            let receipt = c
                .call(&c.officer, "incidents/submit", json!({ "report": report }))
                .await;
            prop_assume!(receipt.status == StatusCode::OK);
            c.ok(
                &c.chief,
                "review/decide",
                json!({ "incident_id": report.incident_id, "revision": 1, "action": { "action": "approve" } }),
            )
            .await;
            if file_first {
                c.run(&mut report, &template, &Step::File, 0).await;
            }
            for (n, step) in steps.iter().enumerate() {
                let before = held(&c.app, report.incident_id).await;
                c.run(&mut report, &template, step, n).await;
                let after = held(&c.app, report.incident_id).await;
                court_record_kept(&before, &after, &report, &chief)
                    .map_err(|e| TestCaseError::fail(format!("after {step:?}: {e}")))?;
            }
            Ok(())
        })
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let (withdrawn, replaced, filed, disposed, amended): (i64, i64, i64, i64, i64) = runtime
        .block_on(
            sqlx::query_as(
                "SELECT (SELECT COUNT(*) FROM citation_withdrawal), \
                 (SELECT COUNT(*) FROM citation WHERE replaces IS NOT NULL), \
                 (SELECT COUNT(*) FROM citation WHERE status = 'filed'), \
                 (SELECT COUNT(*) FROM citation WHERE status = 'disposed'), \
                 (SELECT COUNT(*) FROM incident_revision WHERE kind = 'amended')",
            )
            .fetch_one(&c.app.state.store.reader),
        )
        .expect("counts");
    eprintln!("withdrawn {withdrawn}, replaced {replaced}, filed {filed}, disposed {disposed}, amendments {amended}");
    let verified = runtime
        .block_on(app::store::audit::verify(&c.app.state.store.reader))
        .expect("verify");
    assert!(verified.is_ok(), "{verified:?}");
}
