//! Issue #37, "Done when": random sequences of a citation's life — submit,
//! return, the officer's correction, approve, the chief's amendment, void,
//! file, dispose, and time passing — run against the store (on the pass's
//! engine: SQLite, or PostgreSQL under `WELLS_TEST_BACKEND=postgres`) beside a
//! small reference model. After every step: the year's number account equals
//! the citations issued and voided; a filed citation's number, person, offence
//! and charged fine never change; every history entry names a real change;
//! no stored time is later than the step's clock.
//!
//! Number-block reserve/return and renumbering are not driven here: their
//! account is tested in numbers.rs.

mod support;

use app::model::incident::IncidentReport;
use axum::http::StatusCode;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{json, Value};
use support::{refusal_report, Desk};

/// One step of a citation's life; `usize` picks a report among those submitted.
#[derive(Debug, Clone)]
enum Step {
    Submit,
    Return(usize),
    Correct(usize),
    Approve(usize),
    Amend(usize),
    Void(usize),
    File(usize),
    Dispose(usize),
    Wait(i64),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => Just(Step::Submit),
        1 => any::<usize>().prop_map(Step::Return),
        1 => any::<usize>().prop_map(Step::Correct),
        2 => any::<usize>().prop_map(Step::Approve),
        1 => any::<usize>().prop_map(Step::Amend),
        1 => any::<usize>().prop_map(Step::Void),
        2 => any::<usize>().prop_map(Step::File),
        1 => any::<usize>().prop_map(Step::Dispose),
        1 => (1i64..240).prop_map(Step::Wait),
    ]
}

/// Where a report and its one citation stand, in the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Submitted,
    Returned,
    Approved,
    Void,
    Filed,
    Disposed,
}

struct Case {
    report: IncidentReport,
    number: String,
    revision: i64,
    stage: Stage,
    /// The court's citation as filed: number, person, offence, charged fine.
    filed: Option<Value>,
}

#[derive(Default)]
struct Model {
    cases: Vec<Case>,
    issued: i64,
    voided: i64,
}

impl Desk {
    async fn ok(&self, cookie: &str, path: &str, body: Value) -> Result<Value, TestCaseError> {
        let reply = self.app.post(path, body, Some(cookie)).await;
        if reply.status != StatusCode::OK {
            return Err(TestCaseError::fail(format!(
                "{path}: {} {}",
                reply.status, reply.body
            )));
        }
        Ok(reply.json())
    }

    fn today(&self) -> String {
        self.app.state.settings.town_zone.date(self.app.clock_now())
    }

    /// The court's citation as it bears on the record: what a filing freezes.
    async fn court_citation(&self, number: &str) -> Result<Value, TestCaseError> {
        let c = self
            .ok(
                &self.clerk,
                "/api/court/citation",
                json!({ "number": number }),
            )
            .await?;
        Ok(json!({
            "number": c["row"]["number"],
            "subject": c["row"]["subject"],
            "offence": c["row"]["offence"],
            "charged": c["charged"],
        }))
    }

    /// Runs `step` on the store and the model alike.
    async fn run(&mut self, model: &mut Model, step: &Step) -> Result<(), TestCaseError> {
        let pick = |i: &usize, stages: &[Stage]| {
            let fit: Vec<usize> = (0..model.cases.len())
                .filter(|k| stages.contains(&model.cases[*k].stage))
                .collect();
            (!fit.is_empty()).then(|| fit[i % fit.len()])
        };
        match step {
            Step::Submit => {
                let report = refusal_report(self.app.clock_now());
                let receipt = self.app.submit(&self.officer, &report).await;
                prop_assert_eq!(receipt.status, StatusCode::OK, "{}", receipt.body);
                let number = receipt.json()["citations"][0]["number"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                prop_assert!(!number.is_empty());
                model.issued += 1;
                model.cases.push(Case {
                    report,
                    number,
                    revision: 1,
                    stage: Stage::Submitted,
                    filed: None,
                });
            }
            Step::Return(i) => {
                let Some(k) = pick(i, &[Stage::Submitted]) else {
                    return Ok(());
                };
                let c = &mut model.cases[k];
                self.ok(
                    &self.chief,
                    "/api/review/decide",
                    json!({
                    "incident_id": c.report.incident_id, "revision": c.revision,
                    "action": { "action": "return", "reason": "Give the words of the order." } }),
                )
                .await?;
                c.stage = Stage::Returned;
            }
            Step::Correct(i) => {
                let Some(k) = pick(i, &[Stage::Returned]) else {
                    return Ok(());
                };
                let c = &mut model.cases[k];
                c.report.narrative = format!(
                    "{} Corrected: revision {}.",
                    c.report.narrative,
                    c.revision + 1
                );
                self.ok(
                    &self.officer,
                    "/api/incidents/resubmit",
                    json!({ "report": c.report }),
                )
                .await?;
                c.revision += 1;
                c.stage = Stage::Submitted;
            }
            Step::Approve(i) => {
                let Some(k) = pick(i, &[Stage::Submitted]) else {
                    return Ok(());
                };
                let c = &mut model.cases[k];
                self.ok(
                    &self.chief,
                    "/api/review/decide",
                    json!({
                    "incident_id": c.report.incident_id, "revision": c.revision,
                    "action": { "action": "approve" } }),
                )
                .await?;
                c.stage = Stage::Approved;
            }
            Step::Amend(i) => {
                let Some(k) = pick(i, &[Stage::Approved, Stage::Filed]) else {
                    return Ok(());
                };
                let c = &mut model.cases[k];
                c.report.narrative = format!(
                    "{} Amended: revision {}.",
                    c.report.narrative,
                    c.revision + 1
                );
                self.ok(
                    &self.chief,
                    "/api/review/amend",
                    json!({
                    "report": c.report, "reason": "The officer's notes add what was said." }),
                )
                .await?;
                c.revision += 1;
            }
            Step::Void(i) => {
                let Some(k) = pick(i, &[Stage::Submitted, Stage::Approved]) else {
                    return Ok(());
                };
                let c = &mut model.cases[k];
                self.ok(
                    &self.chief,
                    "/api/review/void",
                    json!({
                    "number": c.number, "reason": "Entered against the wrong person." }),
                )
                .await?;
                c.stage = Stage::Void;
                model.voided += 1;
            }
            Step::File(i) => {
                let Some(k) = pick(i, &[Stage::Approved]) else {
                    return Ok(());
                };
                let number = model.cases[k].number.clone();
                self.ok(&self.clerk, "/api/court/file", json!({ "filing": {
                    "numbers": [number], "filed_on": self.today(), "reference": format!("YORDC-CV-{k}") } }))
                .await?;
                let c = &mut model.cases[k];
                c.stage = Stage::Filed;
                c.filed = Some(self.court_citation(&c.number).await?);
            }
            Step::Dispose(i) => {
                let Some(k) = pick(i, &[Stage::Filed]) else {
                    return Ok(());
                };
                let c = &mut model.cases[k];
                self.ok(&self.clerk, "/api/court/dispose", json!({ "number": c.number, "disposition": {
                    "kind": "guilty", "on": self.today(), "fine_cents": 10000, "costs_cents": 3500 } }))
                .await?;
                c.stage = Stage::Disposed;
            }
            Step::Wait(minutes) => {
                self.app.clock.advance_minutes(*minutes);
                // The desk signs in again after the idle time.
                self.officer = self.app.session("oscar").await;
                self.chief = self.app.session("carla").await;
                self.clerk = self.app.session("dana").await;
            }
        }
        Ok(())
    }

    /// The four properties, after a step.
    async fn check(&self, model: &Model) -> Result<(), TestCaseError> {
        let account = self
            .ok(&self.chief, "/api/numbers/account", json!({ "year": null }))
            .await?;
        prop_assert_eq!(&account["issued"], &json!(model.issued), "{}", account);
        prop_assert_eq!(
            &account["voided_citations"],
            &json!(model.voided),
            "{}",
            account
        );
        let voids = account["voids"].as_array().map_or(0, Vec::len);
        prop_assert_eq!(voids as i64, model.voided, "{}", account);
        prop_assert_eq!(&account["missing"], &json!([]), "{}", account);

        for c in &model.cases {
            if let Some(filed) = &c.filed {
                let now = self.court_citation(&c.number).await?;
                prop_assert_eq!(&now, filed, "{} changed after filing", c.number);
            }
            let view = self
                .ok(
                    &self.chief,
                    "/api/reports/get",
                    json!({ "incident_id": c.report.incident_id }),
                )
                .await?;
            let history = view["history"].as_array().cloned().unwrap_or_default();
            prop_assert_eq!(history.len() as i64, c.revision, "{}", view["history"]);
            for entry in history.iter().skip(1) {
                let changes = entry["changes"].as_array().cloned().unwrap_or_default();
                // Each correction and amendment here changes the narrative only.
                let fields: Vec<&str> =
                    changes.iter().filter_map(|x| x["field"].as_str()).collect();
                prop_assert_eq!(fields, vec!["narrative"], "{}", entry);
                for change in &changes {
                    prop_assert_ne!(&change["before"], &change["after"], "{}", entry);
                }
            }
        }

        let clock = self.app.clock_now().0;
        let latest: Option<i64> = sqlx::query_scalar(
            "SELECT MAX(t) FROM ( \
               SELECT submitted_at AS t FROM incident UNION ALL SELECT updated_at FROM incident \
               UNION ALL SELECT reviewed_at FROM incident UNION ALL SELECT occurred_at FROM incident \
               UNION ALL SELECT at FROM incident_revision UNION ALL SELECT at FROM review_decision \
               UNION ALL SELECT issued_at FROM citation UNION ALL SELECT voided_at FROM citation \
               UNION ALL SELECT reviewed_at FROM citation UNION ALL SELECT amended_at FROM citation \
               UNION ALL SELECT updated_at FROM citation UNION ALL SELECT filed_at FROM citation \
               UNION ALL SELECT at FROM court_event) AS times",
        )
        .fetch_one(&self.app.state.store.reader)
        .await
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(
            latest.unwrap_or(0) <= clock,
            "a stored time {latest:?} after the clock {clock}"
        );
        Ok(())
    }
}

#[test]
fn every_life_cycle_keeps_the_account_the_courts_record_the_history_and_the_clock() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
        cases: 12,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    });
    let result = runner.run(&proptest::collection::vec(step(), 1..24), |steps| {
        runtime.block_on(async {
            let mut desk = support::desk().await;
            let mut model = Model::default();
            for (n, step) in steps.iter().enumerate() {
                desk.run(&mut model, step)
                    .await
                    .map_err(|e| TestCaseError::fail(format!("step {n} {step:?}: {e}")))?;
                desk.check(&model)
                    .await
                    .map_err(|e| TestCaseError::fail(format!("after step {n} {step:?}: {e}")))?;
            }
            Ok(())
        })
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
