//! Issue #37, "Done when": random sequences of a citation's life — submit
//! (online, or with a number the phone handed out on scene), return, the
//! officer's correction, approve, the chief's amendment, void, file, dispose,
//! a phone reserving a block of numbers and giving it back, a report whose
//! number was given back meanwhile (renumbered), and time passing — run
//! against the store (on the pass's engine: SQLite, or PostgreSQL under
//! `WELLS_TEST_BACKEND=postgres`) beside a small reference model. After every
//! step: the year's number account equals the citations issued and voided and
//! the numbers returned and still reserved, and balances; a filed citation's
//! number, person, offence and charged fine never change; every history entry
//! names a real change; no stored time is later than the step's clock.

mod support;

use app::model::incident::IncidentReport;
use app::model::numbers::{HandedNumber, NumberBlock, BLOCK_SIZE, MAX_OPEN_BLOCKS};
use app::ordinance::Offence;
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
    /// A phone reserves a block of citation numbers.
    Reserve,
    /// A report cited on scene with the next number of a block the phone holds.
    SubmitNumbered(usize),
    /// A phone gives its block back (signing out): its unused numbers return.
    GiveBack(usize),
    /// A report arrives with a number its block gave back meanwhile: the
    /// citation is renumbered, the number stays returned.
    Renumber(usize),
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
        1 => Just(Step::Reserve),
        2 => any::<usize>().prop_map(Step::SubmitNumbered),
        1 => any::<usize>().prop_map(Step::GiveBack),
        1 => any::<usize>().prop_map(Step::Renumber),
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

/// A block of numbers as the phone holds it.
struct Block {
    block: NumberBlock,
    /// Numbers the phone has handed out, from the first.
    used: i64,
    given_back: bool,
}

impl Block {
    fn unused(&self) -> i64 {
        BLOCK_SIZE - self.used
    }
}

#[derive(Default)]
struct Model {
    cases: Vec<Case>,
    issued: i64,
    voided: i64,
    blocks: Vec<Block>,
    returned: i64,
}

impl Model {
    /// Numbers in blocks not given back, not handed out.
    fn reserved(&self) -> i64 {
        self.blocks
            .iter()
            .filter(|b| !b.given_back)
            .map(Block::unused)
            .sum()
    }

    fn open_blocks(&self) -> i64 {
        self.blocks.iter().filter(|b| !b.given_back).count() as i64
    }

    /// The `i`th (modulo) block matching `fits`.
    fn block(&self, i: usize, fits: impl Fn(&Block) -> bool) -> Option<usize> {
        let fit: Vec<usize> = (0..self.blocks.len())
            .filter(|k| fits(&self.blocks[*k]))
            .collect();
        (!fit.is_empty()).then(|| fit[i % fit.len()])
    }

    fn add_case(&mut self, report: IncidentReport, number: String) {
        self.issued += 1;
        self.cases.push(Case {
            report,
            number,
            revision: 1,
            stage: Stage::Submitted,
            filed: None,
        });
    }
}

/// A refusal report whose citation carries `number`, handed out on scene.
fn numbered(report: IncidentReport, number: String) -> IncidentReport {
    let mut report = report;
    report.numbers = vec![HandedNumber {
        subject_id: report.subjects[0].subject_id,
        offence: Offence::LoiteringObstruction,
        number,
    }];
    report
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
                model.add_case(report, number);
            }
            Step::Reserve => {
                let block = self
                    .ok(&self.officer, "/api/numbers/reserve", json!({}))
                    .await?;
                if model.open_blocks() >= MAX_OPEN_BLOCKS {
                    // The most blocks allowed are out: none, and no error.
                    prop_assert_eq!(block, Value::Null);
                    return Ok(());
                }
                let block: NumberBlock = serde_json::from_value(block)
                    .map_err(|e| TestCaseError::fail(format!("a block: {e}")))?;
                prop_assert_eq!(block.last_seq - block.first_seq + 1, BLOCK_SIZE);
                model.blocks.push(Block {
                    block,
                    used: 0,
                    given_back: false,
                });
            }
            Step::SubmitNumbered(i) => {
                let Some(b) = model.block(*i, |b| !b.given_back && b.unused() > 0) else {
                    return Ok(());
                };
                let held = &model.blocks[b];
                let number = held.block.number(held.block.first_seq + held.used);
                let report = numbered(refusal_report(self.app.clock_now()), number.clone());
                let receipt = self.app.submit(&self.officer, &report).await;
                prop_assert_eq!(receipt.status, StatusCode::OK, "{}", receipt.body);
                // The number given on scene is the citation's.
                prop_assert_eq!(&receipt.json()["citations"][0]["number"], &json!(number));
                model.blocks[b].used += 1;
                model.add_case(report, number);
            }
            Step::GiveBack(i) => {
                let Some(b) = model.block(*i, |b| !b.given_back) else {
                    return Ok(());
                };
                let returned = self
                    .ok(
                        &self.officer,
                        "/api/numbers/give-back",
                        json!({ "block_id": model.blocks[b].block.block_id, "keep": [] }),
                    )
                    .await?;
                let unused = model.blocks[b].unused();
                prop_assert_eq!(returned, json!(unused));
                model.blocks[b].given_back = true;
                model.returned += unused;
            }
            Step::Renumber(i) => {
                let Some(b) = model.block(*i, |b| b.given_back && b.unused() > 0) else {
                    return Ok(());
                };
                let held = &model.blocks[b];
                let returned = held.block.number(held.block.first_seq + held.used);
                let report = numbered(refusal_report(self.app.clock_now()), returned.clone());
                let receipt = self.app.submit(&self.officer, &report).await;
                prop_assert_eq!(receipt.status, StatusCode::OK, "{}", receipt.body);
                let receipt = receipt.json();
                let number = receipt["citations"][0]["number"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                // A new number; the returned one stays returned, and the
                // officer is told which number the subject's copy carries.
                prop_assert!(!number.is_empty() && number != returned, "{}", receipt);
                prop_assert!(
                    receipt["number_notes"].to_string().contains(&returned),
                    "{}",
                    receipt
                );
                model.add_case(report, number);
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
        prop_assert_eq!(&account["returned"], &json!(model.returned), "{}", account);
        prop_assert_eq!(
            &account["reserved"],
            &json!(model.reserved()),
            "{}",
            account
        );
        let parts = ["issued", "voided", "returned", "reserved"]
            .map(|k| account[k].as_i64().unwrap_or(-1))
            .iter()
            .sum::<i64>();
        prop_assert_eq!(
            json!(parts),
            account["last"].clone(),
            "every number is one thing: {}",
            account
        );

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
