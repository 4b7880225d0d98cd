//! The mass-gathering permit register (Article II, issue #19): applications
//! from filing to settlement. Each change is one write transaction that
//! updates the application's row, appends a `permit_event` with the record as
//! it stands after (kept forever) and an audit entry.

use crate::db::{Conn, Pool};
use sqlx::FromRow;
use uuid::Uuid;

use crate::audit::{self, Event};
use crate::tokens::{hash_token, new_token};
use crate::Store;
use domain::actor::By;
use domain::error::AppError;
use domain::model::audit::AuditOutcome;
use domain::model::civil;
use domain::model::permit::{
    permit_number, BoardFinding, BoardRecord, BoardVote, ClerkRecord, DecisionRecord, Filed,
    FindingMet, Opinion, PermitApplication, PermitDecision, PermitEvent, PermitRecord, PermitRow,
    PermitState, Settlement,
};
use domain::ordinance::article_ii::{
    advice, application_shortfalls, denial_reasons, grounds_to_deny, Requirements, Shortfall,
    Standard,
};
use domain::town_time::TownZone;

/// Who acts, when, and the Town day it is (the §52-9 calendar counts Town days).
#[derive(Debug, Clone, Copy)]
pub struct Desk<'a> {
    pub by: By<'a>,
    pub today: i64,
}

impl Desk<'_> {
    fn name(&self) -> String {
        self.by
            .actor
            .map_or_else(|| "the operator".to_owned(), |a| a.full_name.clone())
    }
}

#[derive(Debug, Clone, FromRow)]
struct Row {
    application_id: String,
    number: String,
    revision: i64,
    state: String,
    channel: String,
    filed_day: i64,
    application_json: String,
    fee_cents: Option<i64>,
    fee_receipt: Option<String>,
    estimated_costs_cents: Option<i64>,
    bond_cents: Option<i64>,
    deposit_cents: Option<i64>,
    consideration_day: Option<i64>,
    decision_json: Option<String>,
    actual_costs_cents: Option<i64>,
    notified_day: Option<i64>,
}

const COLUMNS: &str = "application_id, number, revision, state, channel, filed_day, \
     application_json, fee_cents, fee_receipt, estimated_costs_cents, bond_cents, deposit_cents, \
     consideration_day, decision_json, actual_costs_cents, notified_day";

fn cents(v: Option<i64>) -> Option<u64> {
    v.and_then(|c| u64::try_from(c).ok())
}

fn signed(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

impl Row {
    fn application(&self) -> Result<PermitApplication, AppError> {
        serde_json::from_str(&self.application_json).map_err(|error| {
            tracing::error!(%error, id = %self.application_id, "unreadable permit application");
            AppError::Internal
        })
    }

    fn clerk(&self) -> ClerkRecord {
        ClerkRecord {
            fee_cents: cents(self.fee_cents),
            fee_receipt: self.fee_receipt.clone(),
            estimated_costs_cents: cents(self.estimated_costs_cents),
            bond_cents: cents(self.bond_cents),
            deposit_cents: cents(self.deposit_cents),
        }
    }

    fn stored_state(&self) -> PermitState {
        PermitState::from_code(&self.state).unwrap_or(PermitState::Filed)
    }

    fn state(&self, today: i64) -> PermitState {
        self.stored_state().as_of(self.consideration_day, today)
    }

    fn decision(&self) -> Option<DecisionRecord> {
        self.decision_json
            .as_deref()
            .and_then(|j| serde_json::from_str(j).ok())
    }

    /// The requirements and what the rules find unmet, for the application as it is now.
    fn assessment(
        &self,
        application: &PermitApplication,
    ) -> (Option<Requirements>, Vec<Shortfall>) {
        let Ok(schedule) = application.schedule() else {
            return (None, Vec::new());
        };
        let clerk = self.clerk();
        let plan = application.plan(&schedule, clerk.estimated_costs_cents.unwrap_or(0));
        let provided = application.provided_with(&schedule, &clerk);
        let shortfalls =
            application_shortfalls(&plan, &provided, self.filed_day, schedule.first_day)
                .unwrap_or_default();
        (Some(Requirements::for_plan(&plan)), shortfalls)
    }
}

async fn row(conn: &mut Conn, id: Uuid) -> Result<Row, AppError> {
    sqlx::query_as::<_, Row>(&format!(
        "SELECT {COLUMNS} FROM permit_application WHERE application_id = $1"
    ))
    .bind(id.to_string())
    .fetch_optional(conn)
    .await?
    .ok_or(AppError::NotFound)
}

/// Files an application: online (`by.actor` is `None`) or typed in by the Town
/// Clerk from paper. The operator's status token is in the answer, only there.
pub async fn file(
    store: &Store,
    desk: Desk<'_>,
    zone: &TownZone,
    application: &PermitApplication,
) -> Result<Filed, AppError> {
    let schedule = application
        .schedule()
        .map_err(|errors| AppError::Invalid { errors })?;
    let (token, token_hash) = new_token();
    let id = Uuid::now_v7();
    let year = zone.year(desk.by.now);
    let channel = if desk.by.actor.is_some() {
        "paper"
    } else {
        "online"
    };
    let json = serde_json::to_string(application).map_err(|_| AppError::Internal)?;
    let mut tx = store.begin_write().await?;
    let prefix = format!("MG-{year}-%");
    let last: i64 = sqlx::query_scalar(
        "SELECT COALESCE(MAX(CAST(substr(number, 9) AS INTEGER)), 0) FROM permit_application \
         WHERE number LIKE $1",
    )
    .bind(&prefix)
    .fetch_one(&mut *tx)
    .await?;
    let number = permit_number(i32::from(year), last + 1);
    sqlx::query(
        "INSERT INTO permit_application (application_id, number, token_hash, revision, state, \
         channel, filed_at, filed_day, first_day, last_day, place, operator_name, attendance, \
         application_json, created_at, updated_at) \
         VALUES ($1, $2, $3, 1, 'filed', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    )
    .bind(id.to_string())
    .bind(&number)
    .bind(&token_hash)
    .bind(channel)
    .bind(desk.by.now.0)
    .bind(desk.today)
    .bind(schedule.first_day)
    .bind(schedule.last_day)
    .bind(application.place.trim())
    .bind(application.operator.trim())
    .bind(i64::from(application.attendance))
    .bind(&json)
    .bind(desk.by.now.0)
    .bind(desk.by.now.0)
    .execute(&mut *tx)
    .await?;
    let note = format!(
        "{channel} application for {} persons",
        application.attendance
    );
    event(&mut tx, desk, id, "filed", Some(&note)).await?;
    tx.commit().await?;
    Ok(Filed {
        application_id: id,
        number,
        token,
    })
}

/// Appends the event (with the record as it now stands) and its audit entry.
async fn event(
    conn: &mut Conn,
    desk: Desk<'_>,
    id: Uuid,
    kind: &'static str,
    note: Option<&str>,
) -> Result<(), AppError> {
    let after = row(conn, id).await?;
    let after_json = serde_json::json!({
        "number": after.number,
        "revision": after.revision,
        "state": after.state,
        "application": serde_json::from_str::<serde_json::Value>(&after.application_json).unwrap_or_default(),
        "clerk": after.clerk(),
        "consideration_day": after.consideration_day.map(civil::date_text),
        "decision": after.decision(),
        "actual_costs_cents": after.actual_costs_cents,
    })
    .to_string();
    sqlx::query(
        "INSERT INTO permit_event (application_id, seq, at, actor_id, actor_name, kind, note, after_json) \
         VALUES ($1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM permit_event WHERE application_id = $2), \
                 $3, $4, $5, $6, $7, $8)",
    )
    .bind(id.to_string())
    .bind(id.to_string())
    .bind(desk.by.now.0)
    .bind(desk.by.actor.map(|a| a.user_id.to_string()))
    .bind(desk.name())
    .bind(kind)
    .bind(note)
    .bind(&after_json)
    .execute(&mut *conn)
    .await?;
    let audit_event = Event::new(audit_action(kind), AuditOutcome::Success)
        .by(desk.by.actor, desk.by.source)
        .on("permit", &after.number)
        .after(
            serde_json::json!({ "state": after.state, "revision": after.revision, "note": note }),
        );
    audit::append(conn, desk.by.now, &audit_event).await?;
    Ok(())
}

fn audit_action(kind: &str) -> &'static str {
    match kind {
        "filed" => "permit.file",
        "amended" => "permit.amend",
        "fee_recorded" => "permit.fee",
        "security_recorded" => "permit.security",
        "scheduled" => "permit.schedule",
        "issued" => "permit.issue",
        "denied" => "permit.deny",
        "routed" => "permit.route_chapter_55",
        "opinion" => "permit.opinion",
        "settled" => "permit.settle",
        "finding_met" => "permit.finding_met",
        "finding_answered" => "permit.finding_answer",
        _ => "permit.change",
    }
}

/// An amount as the Town prints it.
fn money(cents: u64) -> String {
    domain::ordinance::penalty::dollars(signed(cents))
}

/// The Town Clerk's security entry in words, with its amounts (issue #37:
/// the history said "estimate, bond and deposit" without them).
fn security_note(estimated: u64, bond: u64, deposit: u64) -> String {
    format!(
        "estimate of public costs {}, bond {}, deposit {}",
        money(estimated),
        money(bond),
        money(deposit)
    )
}

/// A history note in words with its amounts: the Town Clerk's fee and
/// security entries recorded before the notes carried them are read from the
/// record as it stood after the entry.
fn note_with_amounts(kind: &str, note: Option<String>, after_json: &str) -> Option<String> {
    let after: serde_json::Value = serde_json::from_str(after_json).ok()?;
    let cents = |key: &str| after["clerk"][key].as_u64();
    match kind {
        "security_recorded" if note.as_deref() == Some("estimate, bond and deposit") => {
            Some(security_note(
                cents("estimated_costs_cents")?,
                cents("bond_cents")?,
                cents("deposit_cents")?,
            ))
        }
        "fee_recorded" if note.as_deref().is_some_and(|n| n.starts_with("receipt ")) => Some(
            format!("{} received, {}", money(cents("fee_cents")?), note?),
        ),
        _ => note,
    }
}

/// Refuses a change the application's state does not allow, naming why.
fn refuse_unless(ok: bool, message: impl Into<String>) -> Result<(), AppError> {
    if ok {
        Ok(())
    } else {
        Err(AppError::conflict(message))
    }
}

/// The operator changes the application through the status link: before a
/// decision, or after a denial to fix what it lists (it then goes back to the
/// clerk to be scheduled again; a fee recorded stays recorded).
pub async fn amend(
    store: &Store,
    desk: Desk<'_>,
    token: &str,
    application: &PermitApplication,
) -> Result<(), AppError> {
    let schedule = application
        .schedule()
        .map_err(|errors| AppError::Invalid { errors })?;
    let json = serde_json::to_string(application).map_err(|_| AppError::Internal)?;
    let mut tx = store.begin_write().await?;
    let id = id_of_token(&mut tx, token).await?;
    let current = row(&mut tx, id).await?;
    let state = current.state(desk.today);
    refuse_unless(
        state.open_to_amendment(),
        format!(
            "Application {}: the permit is already {}; it cannot be changed.",
            current.number,
            state.label().to_lowercase()
        ),
    )?;
    let back_to = match (state, current.fee_cents.is_some()) {
        (PermitState::Scheduled, _) => "scheduled",
        (_, true) => "fee_recorded",
        (_, false) => "filed",
    };
    let reopened = matches!(state, PermitState::Denied | PermitState::DeemedDenied);
    sqlx::query(
        "UPDATE permit_application SET application_json = $1, revision = revision + 1, state = $2, \
         first_day = $3, last_day = $4, place = $5, operator_name = $6, attendance = $7, \
         consideration_day = CASE WHEN $8 THEN NULL ELSE consideration_day END, \
         decision_json = CASE WHEN $9 THEN NULL ELSE decision_json END, updated_at = $10 \
         WHERE application_id = $11",
    )
    .bind(&json)
    .bind(back_to)
    .bind(schedule.first_day)
    .bind(schedule.last_day)
    .bind(application.place.trim())
    .bind(application.operator.trim())
    .bind(i64::from(application.attendance))
    .bind(reopened)
    .bind(reopened)
    .bind(desk.by.now.0)
    .bind(id.to_string())
    .execute(&mut *tx)
    .await?;
    let note = reopened.then_some("changed after the denial; back to the Town Clerk");
    event(&mut tx, desk, id, "amended", note).await?;
    tx.commit().await?;
    Ok(())
}

async fn id_of_token(conn: &mut Conn, token: &str) -> Result<Uuid, AppError> {
    let id: Option<String> =
        sqlx::query_scalar("SELECT application_id FROM permit_application WHERE token_hash = $1")
            .bind(hash_token(token))
            .fetch_optional(conn)
            .await?;
    id.and_then(|i| Uuid::parse_str(&i).ok())
        .ok_or(AppError::NotFound)
}

/// What the Town Clerk records (§52-9 A, §52-9 D).
#[derive(Debug, Clone)]
pub enum ClerkEntry<'a> {
    /// The permit fee, with the receipt number.
    Fee { receipt: &'a str, cents: u64 },
    /// The Town's estimate of its public costs, and the bond and deposit furnished.
    Security {
        estimated_costs_cents: u64,
        bond_cents: u64,
        deposit_cents: u64,
    },
    /// The Selectmen's meeting that considers it.
    Schedule { day: i64 },
    /// After the gathering: the actual public costs; the operator is notified today.
    Settle { actual_costs_cents: u64 },
}

pub async fn clerk(
    store: &Store,
    desk: Desk<'_>,
    id: Uuid,
    entry: ClerkEntry<'_>,
) -> Result<(), AppError> {
    let mut tx = store.begin_write().await?;
    let current = row(&mut tx, id).await?;
    let state = current.state(desk.today);
    let number = &current.number;
    let undecided = matches!(
        state,
        PermitState::Filed | PermitState::FeeRecorded | PermitState::Scheduled
    );
    let (kind, note) = match entry {
        ClerkEntry::Fee { receipt, cents } => {
            refuse_unless(
                current.fee_cents.is_none(),
                format!("Application {number}: the fee is already recorded."),
            )?;
            sqlx::query(
                "UPDATE permit_application SET fee_cents = $1, fee_receipt = $2, \
                 state = CASE state WHEN 'filed' THEN 'fee_recorded' ELSE state END, updated_at = $3 \
                 WHERE application_id = $4",
            )
            .bind(signed(cents))
            .bind(receipt.trim())
            .bind(desk.by.now.0)
            .bind(id.to_string())
            .execute(&mut *tx)
            .await?;
            (
                "fee_recorded",
                format!("{} received, receipt {}", money(cents), receipt.trim()),
            )
        }
        ClerkEntry::Security {
            estimated_costs_cents,
            bond_cents,
            deposit_cents,
        } => {
            refuse_unless(
                undecided,
                format!("Application {number} is {}: bond and deposit are recorded before the decision.", state.label().to_lowercase()),
            )?;
            sqlx::query(
                "UPDATE permit_application SET estimated_costs_cents = $1, bond_cents = $2, \
                 deposit_cents = $3, updated_at = $4 WHERE application_id = $5",
            )
            .bind(signed(estimated_costs_cents))
            .bind(signed(bond_cents))
            .bind(signed(deposit_cents))
            .bind(desk.by.now.0)
            .bind(id.to_string())
            .execute(&mut *tx)
            .await?;
            (
                "security_recorded",
                security_note(estimated_costs_cents, bond_cents, deposit_cents),
            )
        }
        ClerkEntry::Schedule { day } => {
            refuse_unless(
                matches!(state, PermitState::FeeRecorded | PermitState::Scheduled),
                format!("Application {number}: record the {} fee before the Selectmen consider it (§52-9 A).", Requirements::fee_text()),
            )?;
            refuse_unless(
                current.estimated_costs_cents.is_some(),
                format!("Application {number}: record the Town's estimate of its public costs first; the deposit is 120 % of it (§52-9 D)."),
            )?;
            sqlx::query(
                "UPDATE permit_application SET consideration_day = $1, state = 'scheduled', \
                 updated_at = $2 WHERE application_id = $3",
            )
            .bind(day)
            .bind(desk.by.now.0)
            .bind(id.to_string())
            .execute(&mut *tx)
            .await?;
            ("scheduled", format!("considered {}", civil::date_text(day)))
        }
        ClerkEntry::Settle { actual_costs_cents } => {
            refuse_unless(
                state == PermitState::Issued,
                format!("Application {number}: only an issued permit is settled."),
            )?;
            let last_day: i64 = sqlx::query_scalar(
                "SELECT last_day FROM permit_application WHERE application_id = $1",
            )
            .bind(id.to_string())
            .fetch_one(&mut *tx)
            .await?;
            refuse_unless(
                desk.today > last_day,
                format!("Application {number}: public costs are settled after the gathering, from {} (§52-9 D).", civil::date_text(last_day + 1)),
            )?;
            sqlx::query(
                "UPDATE permit_application SET actual_costs_cents = $1, notified_day = $2, \
                 state = 'settled', updated_at = $3 WHERE application_id = $4",
            )
            .bind(signed(actual_costs_cents))
            .bind(desk.today)
            .bind(desk.by.now.0)
            .bind(id.to_string())
            .execute(&mut *tx)
            .await?;
            let settlement = Settlement::new(
                cents(current.deposit_cents).unwrap_or(0),
                actual_costs_cents,
                desk.today,
            );
            ("settled", settlement.text())
        }
    };
    event(&mut tx, desk, id, kind, Some(&note)).await?;
    tx.commit().await?;
    Ok(())
}

/// The Board of Selectmen's decision on `revision` (the one read), made at the
/// meeting `vote` names, on the motion and vote it records, entered by a
/// Selectman or the Town Clerk (issue #37). A permit issues unless a "shall"
/// standard is not met (§52-8 A) or a finding of the Board is still open; the
/// "should" standards still open go with the decision as advice. A denial
/// lists every "shall" standard the rules find not met and every finding of
/// the Board still open or added now, each with its step (§52-9 B(2)), and
/// needs at least one (§52-8 B): advice alone is no ground. A finding added
/// stays open until the Board marks it met ([`mark_met`]).
pub async fn decide(
    store: &Store,
    desk: Desk<'_>,
    id: Uuid,
    revision: i64,
    decision: &PermitDecision,
    vote: &BoardVote,
) -> Result<DecisionRecord, AppError> {
    let mut tx = store.begin_write().await?;
    let current = row(&mut tx, id).await?;
    let number = &current.number;
    let state = current.state(desk.today);
    refuse_unless(
        state != PermitState::DeemedDenied,
        format!("Application {number} was not decided within seven days of its consideration and is deemed denied (§52-9 B(3)); the operator may apply again or appeal (§52-9 C)."),
    )?;
    refuse_unless(
        state == PermitState::Scheduled,
        format!("Application {number} is {}: the Selectmen decide an application the Town Clerk has put before them.", state.label().to_lowercase()),
    )?;
    refuse_unless(
        current.revision == revision,
        format!("Application {number} was changed by the operator while you read it (revision {} now); read it again before deciding.", current.revision),
    )?;
    AppError::unless_any(vote.problems(current.consideration_day, desk.today))?;
    let meeting_day = vote.day().ok_or(AppError::Internal)?;
    let application = current.application()?;
    let (_, found) = current.assessment(&application);
    let (grounds, advice) = (grounds_to_deny(&found), advice(&found));
    let open: Vec<Shortfall> = findings(&mut tx, id)
        .await?
        .into_iter()
        .filter(|f| f.met_at.is_none())
        .map(|f| f.shortfall())
        .collect::<Result<_, _>>()?;
    let board = BoardRecord {
        meeting_day,
        moved_by: vote.moved_by.trim().to_owned(),
        seconded_by: Some(vote.seconded_by.trim().to_owned()).filter(|s| !s.is_empty()),
        vote: vote.vote,
        recorded_by: desk.name(),
        recorded_day: desk.today,
    };
    let decided = |issued, chapter_55, reasons, advice| DecisionRecord {
        issued,
        chapter_55,
        revision,
        day: meeting_day,
        by: BOARD.to_owned(),
        board: Some(board.clone()),
        reasons,
        advice,
    };
    let mut added: Vec<Shortfall> = Vec::new();
    let record = match decision {
        PermitDecision::Issue => {
            if !grounds.is_empty() {
                let reasons: Vec<String> = grounds.iter().map(Shortfall::reason).collect();
                return Err(AppError::conflict(format!(
                    "Application {number} does not meet every standard the ordinance says shall be met, and a permit issues only when they are (§52-8): {}",
                    reasons.join("; ")
                )));
            }
            if !open.is_empty() {
                let reasons: Vec<String> = open.iter().map(Shortfall::reason).collect();
                return Err(AppError::conflict(format!(
                    "Application {number}: the Board found standards not met that it has not marked met, and the Board shall issue only unless it finds a standard not met (§52-8 A): {}. Mark each met, at the meeting that finds it met, before issuing.",
                    reasons.join("; ")
                )));
            }
            decided(true, false, Vec::new(), advice)
        }
        PermitDecision::Deny { findings } => {
            // What the Board finds not met is a ground of its own (§52-8 B),
            // open until it marks it met: those found before, then these.
            let reasons = denial_reasons(&grounds, &open, findings);
            added = reasons[grounds.len() + open.len()..].to_vec();
            if reasons.is_empty() && !advice.is_empty() {
                let open: Vec<String> = advice.iter().map(Shortfall::reason).collect();
                return Err(AppError::conflict(format!(
                    "Application {number} meets every standard the ordinance says shall be met; what remains is advice, which §52-10 words with \"should\" (the service roads' width, §52-10(2)(e); the refuse containers, §52-10(5)(b) and (c)): {}. A denial must find a standard not met (§52-8 B): add the Board's finding with the step that would meet it, or issue the permit with the advice.",
                    open.join("; ")
                )));
            }
            refuse_unless(
                !reasons.is_empty(),
                format!("Application {number} meets every standard the rules check: a denial must find one not met (§52-8 B). Add the Board's finding with the step that would meet it."),
            )?;
            decided(false, false, reasons, advice)
        }
        PermitDecision::Chapter55 => decided(false, true, Vec::new(), Vec::new()),
    };
    for shortfall in &added {
        add_finding(&mut tx, desk, id, meeting_day, shortfall).await?;
    }
    let (state, kind, note) = match (record.issued, record.chapter_55) {
        (true, _) => ("issued", "issued", "permit issued (§52-9 B(1))".to_owned()),
        (false, true) => (
            "chapter_55",
            "routed",
            "to be issued under Chapter 55, outdoor festivals and special amusements (§52-7)"
                .to_owned(),
        ),
        (false, false) => (
            "denied",
            "denied",
            format!("denied (§52-9 B(2)): {} reason(s)", record.reasons.len()),
        ),
    };
    let note = format!(
        "{note}, by the Board at its meeting of {}: {}",
        civil::date_text(meeting_day),
        board.motion_text()
    );
    let json = serde_json::to_string(&record).map_err(|_| AppError::Internal)?;
    sqlx::query(
        "UPDATE permit_application SET state = $1, decided_at = $2, decision_json = $3, updated_at = $4 \
         WHERE application_id = $5",
    )
    .bind(state)
    .bind(desk.by.now.0)
    .bind(&json)
    .bind(desk.by.now.0)
    .bind(id.to_string())
    .execute(&mut *tx)
    .await?;
    event(&mut tx, desk, id, kind, Some(&note)).await?;
    tx.commit().await?;
    Ok(record)
}

/// Who decides: the decision record's `by` since issue #37.
const BOARD: &str = "the Board of Selectmen";

/// A Board finding as stored.
#[derive(Debug, Clone, FromRow)]
struct FindingRow {
    finding_id: String,
    provision: String,
    finding: String,
    step: String,
    found_day: i64,
    answer: Option<String>,
    answered_at: Option<i64>,
    met_day: Option<i64>,
    met_at: Option<i64>,
    met_by_name: Option<String>,
    met_note: Option<String>,
}

impl FindingRow {
    fn shortfall(&self) -> Result<Shortfall, AppError> {
        Ok(Shortfall {
            provision: serde_json::from_value(serde_json::Value::String(self.provision.clone()))
                .map_err(|_| AppError::Internal)?,
            finding: self.finding.clone(),
            step: self.step.clone(),
            standard: Standard::Shall,
        })
    }

    fn view(&self, zone: &TownZone) -> Result<BoardFinding, AppError> {
        Ok(BoardFinding {
            finding_id: Uuid::parse_str(&self.finding_id).map_err(|_| AppError::Internal)?,
            shortfall: self.shortfall()?,
            found_day: civil::date_text(self.found_day),
            answer: self.answer.clone(),
            answered_at: self
                .answered_at
                .map(|at| zone.date_time(domain::ordinance::Moment(at))),
            met: self.met_at.map(|_| FindingMet {
                day: self.met_day.map(civil::date_text).unwrap_or_default(),
                by: self.met_by_name.clone().unwrap_or_default(),
                note: self.met_note.clone().unwrap_or_default(),
            }),
        })
    }
}

/// The Board's findings on an application, oldest first.
async fn findings(conn: &mut Conn, id: Uuid) -> Result<Vec<FindingRow>, AppError> {
    Ok(sqlx::query_as(
        "SELECT f.finding_id, f.provision, f.finding, f.step, f.found_day, f.answer, f.answered_at, \
         f.met_day, f.met_at, u.full_name AS met_by_name, f.met_note FROM permit_finding f \
         LEFT JOIN app_user u ON u.user_id = f.met_by WHERE f.application_id = $1 \
         ORDER BY f.found_at, f.finding_id",
    )
    .bind(id.to_string())
    .fetch_all(conn)
    .await?)
}

async fn add_finding(
    conn: &mut Conn,
    desk: Desk<'_>,
    id: Uuid,
    meeting_day: i64,
    shortfall: &Shortfall,
) -> Result<(), AppError> {
    let actor = desk.by.actor.ok_or(AppError::Unauthenticated)?;
    let provision = serde_json::to_value(shortfall.provision)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .ok_or(AppError::Internal)?;
    sqlx::query(
        "INSERT INTO permit_finding (finding_id, application_id, provision, finding, step, \
         found_day, found_at, found_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(Uuid::now_v7().to_string())
    .bind(id.to_string())
    .bind(provision)
    .bind(shortfall.finding.trim())
    .bind(shortfall.step.trim())
    .bind(meeting_day)
    .bind(desk.by.now.0)
    .bind(actor.user_id.to_string())
    .execute(conn)
    .await?;
    Ok(())
}

/// One open finding of the application, or why it cannot be acted on.
async fn open_finding(
    conn: &mut Conn,
    id: Uuid,
    number: &str,
    finding_id: Uuid,
) -> Result<FindingRow, AppError> {
    let found = findings(conn, id)
        .await?
        .into_iter()
        .find(|f| f.finding_id == finding_id.to_string())
        .ok_or(AppError::NotFound)?;
    refuse_unless(
        found.met_at.is_none(),
        format!(
            "Application {number}: the Board already marked that finding met on {}.",
            found.met_day.map(civil::date_text).unwrap_or_default()
        ),
    )?;
    Ok(found)
}

/// The Board marks one of its findings met (§52-8), at the meeting
/// `meeting_day`, with its note; recorded by a Selectman or the Town Clerk.
pub async fn mark_met(
    store: &Store,
    desk: Desk<'_>,
    id: Uuid,
    finding_id: Uuid,
    meeting_day: &str,
    note: &str,
) -> Result<(), AppError> {
    let actor = desk.by.actor.ok_or(AppError::Unauthenticated)?;
    let mut tx = store.begin_write().await?;
    let current = row(&mut tx, id).await?;
    let state = current.state(desk.today);
    refuse_unless(
        state.open_to_amendment(),
        format!(
            "Application {} is {}: its findings are closed.",
            current.number,
            state.label().to_lowercase()
        ),
    )?;
    let found = open_finding(&mut tx, id, &current.number, finding_id).await?;
    AppError::unless_any(domain::model::permit::met_problems(
        meeting_day,
        found.found_day,
        desk.today,
        note,
    ))?;
    let day = civil::day_number(meeting_day.trim()).ok_or(AppError::Internal)?;
    sqlx::query(
        "UPDATE permit_finding SET met_day = $1, met_at = $2, met_by = $3, met_note = $4 \
         WHERE finding_id = $5",
    )
    .bind(day)
    .bind(desk.by.now.0)
    .bind(actor.user_id.to_string())
    .bind(note.trim())
    .bind(finding_id.to_string())
    .execute(&mut *tx)
    .await?;
    let note = format!(
        "{} marked met by the Board at its meeting of {}: {}",
        found.shortfall()?.reason(),
        civil::date_text(day),
        note.trim()
    );
    event(&mut tx, desk, id, "finding_met", Some(&note)).await?;
    tx.commit().await?;
    Ok(())
}

/// The operator answers one of the Board's findings through the status link.
pub async fn answer_finding(
    store: &Store,
    desk: Desk<'_>,
    token: &str,
    finding_id: Uuid,
    answer: &str,
) -> Result<(), AppError> {
    let mut tx = store.begin_write().await?;
    let id = id_of_token(&mut tx, token).await?;
    let current = row(&mut tx, id).await?;
    let state = current.state(desk.today);
    refuse_unless(
        state.open_to_amendment(),
        format!(
            "Application {}: the permit is already {}.",
            current.number,
            state.label().to_lowercase()
        ),
    )?;
    let found = open_finding(&mut tx, id, &current.number, finding_id).await?;
    sqlx::query("UPDATE permit_finding SET answer = $1, answered_at = $2 WHERE finding_id = $3")
        .bind(answer.trim())
        .bind(desk.by.now.0)
        .bind(finding_id.to_string())
        .execute(&mut *tx)
        .await?;
    let note = format!(
        "answered {}: {}",
        found.shortfall()?.provision,
        answer.trim()
    );
    event(&mut tx, desk, id, "finding_answered", Some(&note)).await?;
    tx.commit().await?;
    Ok(())
}

/// A written opinion for the Selectmen (§52-8 A), before they decide.
pub async fn opine(
    store: &Store,
    desk: Desk<'_>,
    id: Uuid,
    capacity: &str,
    opinion: &str,
) -> Result<(), AppError> {
    let actor = desk.by.actor.ok_or(AppError::Unauthenticated)?;
    let mut tx = store.begin_write().await?;
    let current = row(&mut tx, id).await?;
    let state = current.state(desk.today);
    refuse_unless(
        matches!(
            state,
            PermitState::Filed | PermitState::FeeRecorded | PermitState::Scheduled
        ),
        format!(
            "Application {} is {}: opinions are for the Selectmen before they decide.",
            current.number,
            state.label().to_lowercase()
        ),
    )?;
    sqlx::query(
        "INSERT INTO permit_opinion (application_id, at, author_id, author_name, capacity, opinion) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id.to_string())
    .bind(desk.by.now.0)
    .bind(actor.user_id.to_string())
    .bind(&actor.full_name)
    .bind(capacity.trim())
    .bind(opinion.trim())
    .execute(&mut *tx)
    .await?;
    let note = format!("opinion of the {}", capacity.trim());
    event(&mut tx, desk, id, "opinion", Some(&note)).await?;
    tx.commit().await?;
    Ok(())
}

/// The whole record, as the Town's staff read it.
pub async fn record(
    pool: &Pool,
    id: Uuid,
    today: i64,
    zone: &TownZone,
) -> Result<PermitRecord, AppError> {
    let mut conn = pool.acquire().await?;
    let current = row(&mut conn, id).await?;
    let mut record = assemble(&current, today)?;
    record.sound_limit_dba = crate::settings::sound_limit(pool).await?;
    let opinions: Vec<(i64, String, String, String)> = sqlx::query_as(
        "SELECT at, author_name, capacity, opinion FROM permit_opinion \
         WHERE application_id = $1 ORDER BY at",
    )
    .bind(id.to_string())
    .fetch_all(&mut *conn)
    .await?;
    record.opinions = opinions
        .into_iter()
        .map(|(at, author, capacity, opinion)| Opinion {
            at: zone.date_time(domain::ordinance::Moment(at)),
            author,
            capacity,
            opinion,
        })
        .collect();
    let events: Vec<(i64, String, String, Option<String>, String)> = sqlx::query_as(
        "SELECT at, actor_name, kind, note, after_json FROM permit_event WHERE application_id = $1 ORDER BY seq",
    )
    .bind(id.to_string())
    .fetch_all(&mut *conn)
    .await?;
    record.history = events
        .into_iter()
        .map(|(at, by, kind, note, after)| PermitEvent {
            at: zone.date_time(domain::ordinance::Moment(at)),
            by,
            note: note_with_amounts(&kind, note.clone(), &after).or(note),
            kind,
        })
        .collect();
    record.findings = findings(&mut conn, id)
        .await?
        .iter()
        .map(|f| f.view(zone))
        .collect::<Result<_, _>>()?;
    Ok(record)
}

/// The record the operator's status link opens: no opinions, no staff names.
pub async fn by_token(
    pool: &Pool,
    token: &str,
    today: i64,
    zone: &TownZone,
) -> Result<PermitRecord, AppError> {
    let id = id_of_token(&mut *pool.acquire().await?, token).await?;
    let mut record = record(pool, id, today, zone).await?;
    record.opinions.clear();
    for event in &mut record.history {
        if event.by != "the operator" {
            event.by = String::from("the Town");
        }
    }
    if let Some(decision) = record.decision.as_mut() {
        decision.by = String::from(BOARD);
        if let Some(board) = decision.board.as_mut() {
            board.recorded_by = String::from("the Town");
        }
    }
    for finding in &mut record.findings {
        if let Some(met) = finding.met.as_mut() {
            met.by = String::from(BOARD);
        }
    }
    Ok(record)
}

fn assemble(current: &Row, today: i64) -> Result<PermitRecord, AppError> {
    let application = current.application()?;
    let (requirements, shortfalls) = current.assessment(&application);
    let state = current.state(today);
    let decision = current.decision();
    let settlement = match (current.actual_costs_cents, current.notified_day) {
        (Some(actual), Some(notified)) => Some(Settlement::new(
            cents(current.deposit_cents).unwrap_or(0),
            u64::try_from(actual).unwrap_or(0),
            notified,
        )),
        _ => None,
    };
    Ok(PermitRecord {
        application_id: Uuid::parse_str(&current.application_id).map_err(|_| AppError::Internal)?,
        number: current.number.clone(),
        revision: current.revision,
        state,
        channel: current.channel.clone(),
        filed_day: civil::date_text(current.filed_day),
        clerk: current.clerk(),
        consideration_day: current.consideration_day.map(civil::date_text),
        decide_by: decide_by(state, current.consideration_day),
        requirements,
        sound_limit_dba: None,
        shortfalls,
        decision,
        settlement,
        opinions: Vec::new(),
        history: Vec::new(),
        findings: Vec::new(),
        today: civil::date_text(today),
        application,
    })
}

fn decide_by(state: PermitState, consideration_day: Option<i64>) -> Option<String> {
    (state == PermitState::Scheduled).then_some(())?;
    consideration_day
        .map(|d| civil::date_text(d + domain::ordinance::article_ii::calendar::DECISION_DAYS))
}

/// The register: applications whose gatherings cover `day` (an officer's
/// "is there a permit here today?"), or all of them, newest filing first.
pub async fn register(
    pool: &Pool,
    day: Option<i64>,
    today: i64,
) -> Result<Vec<PermitRow>, AppError> {
    register_on(&mut *pool.acquire().await?, day, today).await
}

/// An Article II report's answer about the permit register, held against the
/// register for the Town day the gathering began (§52-7): refused, naming the
/// permit, when it does not agree. Reports without a gathering pass.
pub(crate) async fn check_register_answer(
    conn: &mut Conn,
    report: &domain::model::incident::IncidentReport,
    zone: &TownZone,
    now: domain::ordinance::Moment,
) -> Result<(), AppError> {
    let Some(scene) = &report.gathering else {
        return Ok(());
    };
    let date = zone.date(report.occurred_at);
    let (Some(day), Some(today)) = (civil::day_number(&date), civil::day_number(&zone.date(now)))
    else {
        return Err(AppError::Internal);
    };
    let entries: Vec<_> = register_on(conn, Some(day), today)
        .await?
        .iter()
        .map(PermitRow::registered)
        .collect();
    let problems = domain::ordinance::article_ii::enforcement::register_problems(
        &scene.permit,
        &entries,
        &civil::date_text(day),
    );
    AppError::unless_any(
        problems
            .into_iter()
            .map(|message| domain::error::FieldError::new("gathering.permit", message))
            .collect(),
    )
}

async fn register_on(
    conn: &mut Conn,
    day: Option<i64>,
    today: i64,
) -> Result<Vec<PermitRow>, AppError> {
    #[derive(FromRow)]
    struct Line {
        application_id: String,
        number: String,
        state: String,
        operator_name: String,
        place: String,
        first_day: i64,
        last_day: i64,
        attendance: i64,
        consideration_day: Option<i64>,
    }
    let lines: Vec<Line> = sqlx::query_as(
        "SELECT application_id, number, state, operator_name, place, first_day, last_day, \
         attendance, consideration_day FROM permit_application \
         WHERE $1 IS NULL OR (first_day <= $1 AND last_day >= $1) \
         ORDER BY filed_at DESC LIMIT 500",
    )
    .bind(day)
    .fetch_all(conn)
    .await?;
    Ok(lines
        .into_iter()
        .filter_map(|l| {
            let state = PermitState::from_code(&l.state)?.as_of(l.consideration_day, today);
            Some(PermitRow {
                application_id: Uuid::parse_str(&l.application_id).ok()?,
                number: l.number,
                state,
                operator: l.operator_name,
                place: l.place,
                first_day: civil::date_text(l.first_day),
                last_day: civil::date_text(l.last_day),
                attendance: u32::try_from(l.attendance).unwrap_or(0),
                decide_by: decide_by(state, l.consideration_day),
            })
        })
        .collect())
}
