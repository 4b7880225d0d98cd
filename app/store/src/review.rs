//! The chief's decisions on reports and citations, and corrections of a stored
//! report — the officer's resubmission of a returned report and the chief's
//! amendment with a reason. Every change keeps the previous version
//! (`incident_revision`), who made it, when and why; nothing is deleted.

use crate::db::{Conn, Pool};
use uuid::Uuid;

use crate::audit::{self, Event};
use crate::incidents::{self, Version};
use crate::numbers::Issuing;
use crate::Store;
use domain::actor::Actor;
use domain::error::AppError;
use domain::model::audit::AuditOutcome;
use domain::model::converted::ConvertedFact;
use domain::model::incident::{
    CitationStatus, IncidentReport, Receipt, ReportStatus, SubjectEntry, SubjectVerdict,
};
use domain::model::review::{ConvertedCitation, ReviewAction};
use domain::ordinance::{Moment, Offence};
use domain::town_time::TownZone;

/// Who is deciding, from where, and when.
#[derive(Debug, Clone, Copy)]
pub struct Reviewer<'a> {
    pub chief: &'a Actor,
    pub source: Option<&'a str>,
    pub now: Moment,
}

struct IncidentState {
    officer_id: String,
    status: ReportStatus,
    revision: i64,
    report_json: String,
}

async fn state(conn: &mut Conn, incident_id: &str) -> Result<IncidentState, AppError> {
    let row: (String, String, i64, String) = sqlx::query_as(
        "SELECT officer_id, status, revision, report_json FROM incident WHERE incident_id = $1",
    )
    .bind(incident_id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or(AppError::NotFound)?;
    Ok(IncidentState {
        officer_id: row.0,
        status: ReportStatus::from_code(&row.1).ok_or(AppError::Internal)?,
        revision: row.2,
        report_json: row.3,
    })
}

async fn record_decision(
    conn: &mut Conn,
    reviewer: Reviewer<'_>,
    incident_id: &str,
    revision: i64,
    action: &str,
    citation: Option<&str>,
    reason: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO review_decision (decision_id, incident_id, revision, action, citation, reason, actor_id, at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(Uuid::now_v7().to_string())
    .bind(incident_id)
    .bind(revision)
    .bind(action)
    .bind(citation)
    .bind(reason.map(str::trim))
    .bind(reviewer.chief.user_id.to_string())
    .bind(reviewer.now.0)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Approves or returns a submitted report. `revision` is the one the chief read:
/// if the report changed since, nothing is decided (409), so no one approves
/// what they did not see. Deciding the same way twice is a harmless retry.
pub async fn decide(
    store: &Store,
    reviewer: Reviewer<'_>,
    incident_id: Uuid,
    revision: i64,
    action: &ReviewAction,
) -> Result<ReportStatus, AppError> {
    let id = incident_id.to_string();
    let mut tx = store.begin_write().await?;
    let current = state(&mut tx, &id).await?;
    let (target, code, reason) = match action {
        ReviewAction::Approve => (ReportStatus::Approved, "approve", None),
        ReviewAction::Return { reason } => (ReportStatus::Returned, "return", Some(reason.trim())),
    };
    // Issued citations follow their report: to the clerk, or back to the officer.
    let citation_status = match target {
        ReportStatus::Approved => CitationStatus::Approved,
        _ => CitationStatus::Returned,
    };
    if current.revision == revision && current.status == target {
        return Ok(target);
    }
    if current.revision != revision {
        return Err(AppError::conflict(format!(
            "The report changed since you opened it (now revision {}). Read it again before deciding.",
            current.revision
        )));
    }
    if current.status != ReportStatus::Submitted {
        return Err(AppError::conflict(format!(
            "Only a submitted report can be decided; this one is {}.",
            current.status.label().to_lowercase()
        )));
    }
    sqlx::query(
        "UPDATE incident SET status = $1, return_reason = $2, reviewed_by = $3, reviewed_at = $4, updated_at = $5 \
         WHERE incident_id = $6",
    )
    .bind(target.code())
    .bind(reason)
    .bind(reviewer.chief.user_id.to_string())
    .bind(reviewer.now.0)
    .bind(reviewer.now.0)
    .bind(&id)
    .execute(&mut *tx)
    .await?;
    let numbers: Vec<String> = sqlx::query_scalar(
        "UPDATE citation SET status = $1, reviewed_by = $2, reviewed_at = $3, updated_at = $4 \
         WHERE incident_id = $5 AND status = 'issued' RETURNING number",
    )
    .bind(citation_status.code())
    .bind(reviewer.chief.user_id.to_string())
    .bind(reviewer.now.0)
    .bind(reviewer.now.0)
    .bind(&id)
    .fetch_all(&mut *tx)
    .await?;
    record_decision(&mut tx, reviewer, &id, revision, code, None, reason).await?;
    let event = Event::new(
        match action {
            ReviewAction::Approve => "incident.approve",
            ReviewAction::Return { .. } => "incident.return",
        },
        AuditOutcome::Success,
    )
    .by(Some(reviewer.chief), reviewer.source)
    .on("incident", &id)
    .before(serde_json::json!({ "status": current.status.code(), "revision": revision }))
    .after(serde_json::json!({ "status": target.code(), "reason": reason, "citations": numbers }));
    audit::append(&mut tx, reviewer.now, &event).await?;
    tx.commit().await?;
    Ok(target)
}

/// Voids a citation with a reason. The number stays used and shows as void. A
/// citation already with the court is the court's to dismiss, not ours to void.
pub async fn void(
    store: &Store,
    reviewer: Reviewer<'_>,
    number: &str,
    reason: &str,
) -> Result<CitationStatus, AppError> {
    let mut tx = store.begin_write().await?;
    let (incident_id, status): (String, String) =
        sqlx::query_as("SELECT incident_id, status FROM citation WHERE number = $1")
            .bind(number.trim())
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(AppError::NotFound)?;
    let status = CitationStatus::from_code(&status).ok_or(AppError::Internal)?;
    match status {
        CitationStatus::Void => return Ok(CitationStatus::Void),
        CitationStatus::Filed | CitationStatus::Disposed => {
            return Err(AppError::conflict(format!(
                "{number} is with the District Court ({}); only the court can dismiss it now.",
                status.label().to_lowercase()
            )))
        }
        _ => {}
    }
    let current = state(&mut tx, &incident_id).await?;
    set_void(
        &mut tx,
        reviewer.chief,
        reviewer.now,
        number.trim(),
        reason.trim(),
    )
    .await?;
    record_decision(
        &mut tx,
        reviewer,
        &incident_id,
        current.revision,
        "void",
        Some(number.trim()),
        Some(reason),
    )
    .await?;
    let event = Event::new("citation.void", AuditOutcome::Success)
        .by(Some(reviewer.chief), reviewer.source)
        .on("citation", number.trim())
        .before(serde_json::json!({ "status": status.code() }))
        .after(serde_json::json!({ "status": "void", "reason": reason.trim() }));
    audit::append(&mut tx, reviewer.now, &event).await?;
    tx.commit().await?;
    Ok(CitationStatus::Void)
}

async fn set_void(
    conn: &mut Conn,
    by: &Actor,
    now: Moment,
    number: &str,
    reason: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE citation SET status = 'void', void_reason = $1, voided_by = $2, voided_at = $3, updated_at = $4 \
         WHERE number = $5",
    )
    .bind(reason)
    .bind(by.user_id.to_string())
    .bind(now.0)
    .bind(now.0)
    .bind(number)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Who is correcting a stored report, and on what authority.
#[derive(Debug, Clone, Copy)]
pub enum Correction<'a> {
    /// The officer resubmits a report the chief returned.
    Resubmit,
    /// The chief amends a report (any status) with a reason.
    Amend { reason: &'a str },
}

impl Correction<'_> {
    const fn kind(self) -> &'static str {
        match self {
            Correction::Resubmit => "resubmitted",
            Correction::Amend { .. } => "amended",
        }
    }
}

/// A citation already stored for one person of the report.
#[derive(Debug, Clone)]
struct Existing {
    number: String,
    subject_id: String,
    status: CitationStatus,
    offence: Offence,
    arrest: bool,
    /// Withdrawn from the court by an earlier amendment.
    withdrawn: bool,
    /// A later citation replaces it.
    replaced: bool,
}

impl Existing {
    /// With the District Court: its number, person, offence, arrest and fine
    /// are the court's (issue #33).
    fn at_court(&self) -> bool {
        matches!(
            self.status,
            CitationStatus::Filed | CitationStatus::Disposed
        )
    }

    /// Void, or withdrawn from the court: never cited again, never reused.
    fn spent(&self) -> bool {
        self.status == CitationStatus::Void || self.withdrawn
    }
}

/// Whose citations: one person's, or a whole report's.
#[derive(Debug, Clone, Copy)]
enum Of<'a> {
    Person(&'a str),
    Report(&'a str),
}

/// The citations asked for, oldest first, each with its withdrawal and
/// replacement.
async fn existing(conn: &mut Conn, of: Of<'_>) -> Result<Vec<Existing>, AppError> {
    type Row = (String, String, String, String, i64, i64, i64);
    let (key, id) = match of {
        Of::Person(id) => ("subject_id", id),
        Of::Report(id) => ("incident_id", id),
    };
    let sql = format!(
        "SELECT c.number, c.subject_id, c.status, c.offence, c.arrest, \
         CASE WHEN EXISTS (SELECT 1 FROM citation_withdrawal w WHERE w.number = c.number) THEN 1 ELSE 0 END, \
         CASE WHEN EXISTS (SELECT 1 FROM citation n WHERE n.replaces = c.number) THEN 1 ELSE 0 END \
         FROM citation c WHERE c.{key} = $1 ORDER BY c.year, c.seq"
    );
    let rows: Vec<Row> = sqlx::query_as(&sql).bind(id).fetch_all(&mut *conn).await?;
    rows.into_iter()
        .map(
            |(number, subject_id, status, offence, arrest, withdrawn, replaced)| {
                Ok(Existing {
                    number,
                    subject_id,
                    status: CitationStatus::from_code(&status).ok_or(AppError::Internal)?,
                    offence: Offence::from_code(&offence).ok_or(AppError::Internal)?,
                    arrest: arrest == 1,
                    withdrawn: withdrawn == 1,
                    replaced: replaced == 1,
                })
            },
        )
        .collect()
}

/// What a correction does to one person's citations.
#[derive(Debug, Default)]
struct CitationPlan<'a> {
    /// Kept: (citation, offence now). Only a citation not yet with the court
    /// may take another offence.
    keep: Vec<(&'a Existing, Offence)>,
    /// Offences newly cited: each needs a new number.
    issue: Vec<Offence>,
    /// Not with the court and no longer cited: voided with the correction's reason.
    void: Vec<&'a Existing>,
    /// With the court and no longer cited: withdrawn, for the clerk to take to
    /// the court (the court dismisses it, not the Town).
    withdraw: Vec<&'a Existing>,
}

/// Matches the offences a person is cited for now with the citations they hold.
/// A citation for the same offence is kept. A citation not yet with the court
/// whose offence is no longer cited takes, in order, an offence newly cited —
/// before filing an amended charge keeps its number, as a single charge always
/// did. A citation with the court is never given another offence: once filed,
/// its charge is the court's (issue #33), so it is withdrawn and any new charge
/// is a new citation. A void or withdrawn citation is never reused, and its
/// offence is not cited again for the person (one citation per person and
/// offence): the refusal names it.
fn plan<'a>(existing: &'a [Existing], cited: &[Offence]) -> Result<CitationPlan<'a>, &'a Existing> {
    let mut plan = CitationPlan::default();
    let mut unmatched: Vec<Offence> = Vec::new();
    for &offence in cited {
        match existing.iter().find(|e| e.offence == offence) {
            Some(e) if e.spent() => return Err(e),
            Some(e) => plan.keep.push((e, offence)),
            None => unmatched.push(offence),
        }
    }
    let dropped = existing
        .iter()
        .filter(|e| !e.spent() && !cited.contains(&e.offence));
    let (court, mut spare): (Vec<&Existing>, Vec<&Existing>) = dropped.partition(|e| e.at_court());
    plan.withdraw = court;
    for offence in unmatched {
        if spare.is_empty() {
            plan.issue.push(offence);
        } else {
            plan.keep.push((spare.remove(0), offence));
        }
    }
    plan.void = spare;
    Ok(plan)
}

/// One correction as it is stored: the report, who, on what authority, and
/// the revision it makes.
struct Step<'a> {
    issuing: Issuing<'a>,
    correction: Correction<'a>,
    report: &'a IncidentReport,
    id: String,
    /// The revision the correction replaces (the last one citations stood on).
    was: i64,
    reason: Option<&'a str>,
    /// The words a citation voided by this correction carries.
    void_reason: String,
}

/// Stores a corrected report as the next revision. The caller has re-run the
/// rules (`verdicts`); where a time sent to the minute is kept at its stored
/// value (`IncidentReport::keeping_stored_times`), they run again here on the
/// report as stored. Persons still cited keep their citation numbers; before
/// filing, a citation no longer cited is voided with the reason. A citation with
/// the court keeps its number, person, offence, arrest and fine: the chief's
/// amendment may withdraw it (the clerk takes the withdrawal to the court) and
/// issue a new citation that replaces it. Sending the same correction again
/// changes nothing.
pub async fn correct(
    store: &Store,
    issuing: Issuing<'_>,
    correction: Correction<'_>,
    report: &IncidentReport,
    verdicts: &[SubjectVerdict],
) -> Result<Receipt, AppError> {
    let id = report.incident_id.to_string();
    let mut tx = store.begin_write().await?;
    let current = state(&mut tx, &id).await?;
    let before = domain::model::first_version::StoredReport::parse(&current.report_json)
        .map_err(|_| AppError::Internal)?
        .current();
    // A time sent to the minute that is the stored one is the stored one
    // (issue #37): the rules run on the report as it will be stored.
    let kept = report.clone().keeping_stored_times(&before);
    let rerun;
    let (report, verdicts) = if kept == *report {
        (report, verdicts)
    } else {
        rerun = (
            domain::model::incident::check_correction(&kept, issuing.now)?,
            kept,
        );
        (&rerun.1, rerun.0.as_slice())
    };
    if let Some(stored) = unchanged(&mut tx, report, &current).await? {
        return Ok(stored);
    }
    may_correct(correction, issuing.officer, &current)?;
    AppError::unless_any(domain::model::incident::signature_changed_in_correction(
        &before, report,
    ))?;
    crate::permits::check_register_answer(&mut tx, report, issuing.zone, issuing.now).await?;
    let step = Step::new(issuing, correction, report, current.revision);
    let held = existing(&mut tx, Of::Report(&step.id)).await?;
    court_record_unchanged(&mut tx, &step, &before, &held).await?;

    take_out_removed_persons(&mut tx, &step, &before, &held).await?;
    let to_issue = apply_each_person(&mut tx, &step, verdicts).await?;
    let issued = issue(&mut tx, &step, to_issue).await?;

    let status = match correction {
        Correction::Resubmit => ReportStatus::Submitted,
        Correction::Amend { .. } => current.status,
    };
    store_revision(&mut tx, &step, &current, &before, verdicts, status, &issued).await?;
    let receipt = incidents::receipt(&mut tx, report.incident_id).await?;
    crate::register_text::flush(&mut tx).await?;
    tx.commit().await?;
    Ok(receipt)
}

impl<'a> Step<'a> {
    fn new(
        issuing: Issuing<'a>,
        correction: Correction<'a>,
        report: &'a IncidentReport,
        was: i64,
    ) -> Step<'a> {
        let reason = match correction {
            Correction::Resubmit => None,
            Correction::Amend { reason } => Some(reason.trim()),
        };
        let void_reason = format!(
            "Withdrawn by {} (revision {}){}",
            if reason.is_some() {
                "the chief's amendment"
            } else {
                "the officer's correction"
            },
            was + 1,
            reason.map(|r| format!(": {r}")).unwrap_or_default()
        );
        Step {
            issuing,
            correction,
            report,
            id: report.incident_id.to_string(),
            was,
            reason,
            void_reason,
        }
    }
}

/// The same report sent again: its receipt, nothing changed.
async fn unchanged(
    conn: &mut Conn,
    report: &IncidentReport,
    current: &IncidentState,
) -> Result<Option<Receipt>, AppError> {
    let report_json = serde_json::to_string(report).map_err(|_| AppError::Internal)?;
    if report_json != current.report_json {
        return Ok(None);
    }
    let mut receipt = incidents::receipt(conn, report.incident_id).await?;
    receipt.already_stored = true;
    Ok(Some(receipt))
}

/// The officer corrects only their own report, and only once the chief
/// returned it; the chief amends any report.
fn may_correct(
    correction: Correction<'_>,
    actor: &Actor,
    current: &IncidentState,
) -> Result<(), AppError> {
    if !matches!(correction, Correction::Resubmit) {
        return Ok(());
    }
    if current.officer_id != actor.user_id.to_string() {
        return Err(AppError::NotFound);
    }
    if current.status != ReportStatus::Returned {
        return Err(AppError::conflict(format!(
            "Only a report the chief returned can be corrected; this one is {}. \
             Ask the chief for an amendment.",
            current.status.label().to_lowercase()
        )));
    }
    Ok(())
}

/// What the court holds stays as the court holds it (issue #33): no officer's
/// correction reaches a report with a citation at court (it would send the
/// citation back for review), and no amendment changes the identity a court
/// citation prints or the arrest it records. `UNIQUE (subject_id, offence)`
/// leaves no room for a second citation of the same person and offence, so the
/// way to another person (or another arrest) is to take this one out — its
/// citation is withdrawn — and add the right one, whose citation replaces it.
async fn court_record_unchanged(
    conn: &mut Conn,
    step: &Step<'_>,
    before: &IncidentReport,
    held: &[Existing],
) -> Result<(), AppError> {
    let Some(first) = held.iter().find(|e| e.at_court()) else {
        return Ok(());
    };
    if matches!(step.correction, Correction::Resubmit) {
        return Err(AppError::conflict(format!(
            "{} is with the District Court; only the chief's amendment, with a reason, changes this report.",
            first.number
        )));
    }
    for (position, subject) in step.report.subjects.iter().enumerate() {
        let sid = subject.subject_id.to_string();
        let Some(court) = held.iter().find(|e| e.subject_id == sid && e.at_court()) else {
            continue;
        };
        // As printed from the report (the summons) and from the person's row
        // (the court's CSV).
        let printed_before = before
            .subjects
            .iter()
            .find(|b| b.subject_id == subject.subject_id);
        if printed_before.is_some_and(|b| b.identity != subject.identity)
            || incidents::identity_changed(conn, subject).await?
        {
            // At the field the form shows the person by: name, or description.
            let field = match subject.identity {
                domain::model::incident::Identity::Described { .. } => "description",
                _ => "full_name",
            };
            return Err(AppError::invalid(
                format!("subjects.{position}.{field}"),
                format!(
                    "{} is with the District Court: the person it names is the court's record and \
                     cannot be changed. If another person should have been cited, remove this person \
                     (the citation is withdrawn, for the clerk to take to the court) and add the \
                     right person: their citation replaces it.",
                    court.number
                ),
            ));
        }
        let arrest_changed = held.iter().find(|e| {
            e.subject_id == sid
                && e.at_court()
                && !e.withdrawn
                && subject.recorded(ConvertedFact::Arrest)
                && subject
                    .charges
                    .iter()
                    .any(|c| c.offence == e.offence && c.issue_citation)
                && subject.arrest_for(e.offence) != e.arrest
        });
        if let Some(e) = arrest_changed {
            return Err(AppError::invalid(
                format!("subjects.{position}.arrested"),
                format!(
                    "{} is with the District Court and records {} (§52-2): the court's record. If \
                     that is wrong, remove this person (the citation is withdrawn, for the clerk to \
                     take to the court) and add them again with the arrest as it was: their citation \
                     replaces it.",
                    e.number,
                    if e.arrest { "an arrest" } else { "no arrest" }
                ),
            ));
        }
    }
    Ok(())
}

/// Persons taken out of the report: their rows stay, marked withdrawn; their
/// citations are voided, or withdrawn from the court.
async fn take_out_removed_persons(
    conn: &mut Conn,
    step: &Step<'_>,
    before: &IncidentReport,
    held: &[Existing],
) -> Result<(), AppError> {
    for gone in before.subjects.iter().filter(|b| {
        !step
            .report
            .subjects
            .iter()
            .any(|s| s.subject_id == b.subject_id)
    }) {
        let sid = gone.subject_id.to_string();
        for c in held.iter().filter(|c| c.subject_id == sid && !c.spent()) {
            drop_citation(conn, step, c).await?;
        }
        sqlx::query("UPDATE subject SET withdrawn_at = $1 WHERE subject_id = $2")
            .bind(step.issuing.now.0)
            .bind(&sid)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// A citation no longer cited: voided, or — with the court — withdrawn.
async fn drop_citation(conn: &mut Conn, step: &Step<'_>, c: &Existing) -> Result<(), AppError> {
    if c.at_court() {
        withdraw_from_court(conn, step, c).await
    } else {
        set_void(
            conn,
            step.issuing.officer,
            step.issuing.now,
            &c.number,
            &step.void_reason,
        )
        .await?;
        Ok(())
    }
}

/// Records the withdrawal of a citation with the court, with the amendment's
/// reason, for the clerk to take to the court. It keeps its status and prints
/// from the last revision it stood on.
async fn withdraw_from_court(
    conn: &mut Conn,
    step: &Step<'_>,
    c: &Existing,
) -> Result<(), AppError> {
    let reason = step.reason.ok_or(AppError::Internal)?;
    sqlx::query(
        "INSERT INTO citation_withdrawal (number, incident_id, revision, reason, actor_id, at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&c.number)
    .bind(&step.id)
    .bind(step.was)
    .bind(reason)
    .bind(step.issuing.officer.user_id.to_string())
    .bind(step.issuing.now.0)
    .execute(&mut *conn)
    .await?;
    let event = Event::new("citation.withdraw", AuditOutcome::Success)
        .by(Some(step.issuing.officer), step.issuing.source)
        .on("citation", &c.number)
        .before(serde_json::json!({ "status": c.status.code(), "offence": c.offence.code() }))
        .after(
            serde_json::json!({ "withdrawn": true, "reason": reason, "revision": step.was + 1 }),
        );
    audit::append(conn, step.issuing.now, &event).await?;
    Ok(())
}

/// A person's offence that needs a new citation.
struct ToIssue<'a> {
    position: usize,
    subject: &'a SubjectEntry,
    offence: Offence,
}

/// Stores each person's current values and matches their citations with what
/// they are cited for now: kept, voided, withdrawn. Returns what needs a new
/// citation, issued once every withdrawal of this correction is recorded.
async fn apply_each_person<'a>(
    conn: &mut Conn,
    step: &Step<'a>,
    verdicts: &[SubjectVerdict],
) -> Result<Vec<ToIssue<'a>>, AppError> {
    let mut to_issue = Vec::new();
    for (position, (subject, verdict)) in step.report.subjects.iter().zip(verdicts).enumerate() {
        let outcome = verdict.outcome.clone().map_err(|_| AppError::Internal)?;
        let sid = subject.subject_id.to_string();
        incidents::write_subject(conn, step.report.incident_id, position, subject, outcome).await?;
        let existing = existing(conn, Of::Person(&sid)).await?;
        let cited = subject.cited_offences(outcome);
        let plan = plan(&existing, &cited).map_err(|spent| {
            AppError::invalid(
                format!("subjects.{position}.charges"),
                if spent.withdrawn {
                    format!(
                        "Citation {} ({}) for this person was withdrawn from the court; a person is \
                         cited once for an offence. Record a new incident to cite them for it again.",
                        spent.number,
                        spent.offence.reference()
                    )
                } else {
                    format!(
                        "Citation {} ({}) for this person was voided; a void number is never reused. \
                         Record a new incident to cite them for it again.",
                        spent.number,
                        spent.offence.reference()
                    )
                },
            )
        })?;
        for (citation, offence) in &plan.keep {
            update_citation(conn, step, subject, citation, *offence).await?;
        }
        for citation in plan.void.iter().chain(&plan.withdraw) {
            drop_citation(conn, step, citation).await?;
        }
        to_issue.extend(plan.issue.into_iter().map(|offence| ToIssue {
            position,
            subject,
            offence,
        }));
    }
    Ok(to_issue)
}

/// Issues the new citations. The officer's correction issues them as the
/// officer's. The chief's amendment issues only a citation that replaces one
/// withdrawn from the court — of the same person (another charge), or of the
/// same offence (another person) — approved by the chief who amended; any other
/// new citation is the officer's to issue, who saw the refusal.
async fn issue(
    conn: &mut Conn,
    step: &Step<'_>,
    to_issue: Vec<ToIssue<'_>>,
) -> Result<Vec<String>, AppError> {
    let mut issued = Vec::new();
    let mut open = match step.correction {
        Correction::Resubmit => Vec::new(),
        Correction::Amend { .. } => existing(conn, Of::Report(&step.id))
            .await?
            .into_iter()
            .filter(|e| e.withdrawn && !e.replaced)
            .collect(),
    };
    for new in to_issue {
        let sid = new.subject.subject_id.to_string();
        let replaces = match step.correction {
            Correction::Resubmit => None,
            Correction::Amend { .. } => {
                let found = open
                    .iter()
                    .position(|e| e.subject_id == sid)
                    .or_else(|| open.iter().position(|e| e.offence == new.offence));
                let Some(at) = found else {
                    // §52-4 citations are issued by the officer who saw the
                    // refusal, not by the desk.
                    return Err(AppError::invalid(
                        format!("subjects.{}.charges", new.position),
                        "An amendment cannot issue a new citation: the officer who gave the order \
                         issues it. Return the report to the officer instead. (An amendment issues \
                         one only to replace a citation withdrawn from the court: of the same person, \
                         or for the same offence.)",
                    ));
                };
                Some(open.remove(at))
            }
        };
        let number = incidents::issue_citation(
            conn,
            step.issuing,
            step.report.incident_id,
            new.subject,
            new.offence,
            None,
        )
        .await?;
        if let Some(old) = &replaces {
            approve_replacement(conn, step, &number, &old.number).await?;
        }
        let event = Event::new("citation.issue", AuditOutcome::Success)
            .by(Some(step.issuing.officer), step.issuing.source)
            .on("citation", &number)
            .after(serde_json::json!({
                "incident_id": step.id,
                "subject_id": new.subject.subject_id,
                "offence": new.offence.code(),
                "fine": new.offence.penalty().fine_text(),
                "arrest": new.subject.arrest_for(new.offence),
                "replaces": replaces.as_ref().map(|r| &r.number),
            }));
        audit::append(conn, step.issuing.now, &event).await?;
        issued.push(number);
    }
    Ok(issued)
}

/// A replacement goes to the clerk at once, approved by the chief who amended:
/// the report it belongs to was approved already.
async fn approve_replacement(
    conn: &mut Conn,
    step: &Step<'_>,
    number: &str,
    replaces: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE citation SET status = 'approved', reviewed_by = $1, reviewed_at = $2, replaces = $3 \
         WHERE number = $4",
    )
    .bind(step.issuing.officer.user_id.to_string())
    .bind(step.issuing.now.0)
    .bind(replaces)
    .bind(number)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The revision itself and its audit entry.
async fn store_revision(
    conn: &mut Conn,
    step: &Step<'_>,
    current: &IncidentState,
    before: &IncidentReport,
    verdicts: &[SubjectVerdict],
    status: ReportStatus,
    issued: &[String],
) -> Result<(), AppError> {
    let (actor, now) = (step.issuing.officer, step.issuing.now);
    let revision = step.was + 1;
    incidents::write_version(
        conn,
        Version {
            report: step.report,
            verdicts,
            officer_id: &current.officer_id,
            status,
            revision,
            kind: step.correction.kind(),
            reason: step.reason,
            actor,
            now,
            zone: step.issuing.zone,
            cautions: None,
        },
    )
    .await?;
    let event = Event::new(
        match step.correction {
            Correction::Resubmit => "incident.resubmit",
            Correction::Amend { .. } => "incident.amend",
        },
        AuditOutcome::Success,
    )
    .by(Some(actor), step.issuing.source)
    .on("incident", &step.id)
    .before(serde_json::json!({ "revision": current.revision, "status": current.status.code() }))
    .after(serde_json::json!({
        "revision": revision,
        "status": status.code(),
        "reason": step.reason,
        "new_citations": issued,
        "changes": domain::model::review::changes(
            &serde_json::to_value(before).unwrap_or_default(),
            &serde_json::to_value(step.report).unwrap_or_default(),
        ).len(),
    }));
    audit::append(conn, now, &event).await?;
    Ok(())
}

/// A kept citation after the correction. Before filing it follows the report:
/// its offence and arrest (an arrest the conversion could not know stays as
/// stored); an officer's correction sends it back for review. With the court,
/// nothing of it changes — its status is never reset either — and the chief's
/// amendment of the report shows on the next export as an amended filing.
async fn update_citation(
    conn: &mut Conn,
    step: &Step<'_>,
    subject: &SubjectEntry,
    existing: &Existing,
    offence: Offence,
) -> Result<(), sqlx::Error> {
    let now = step.issuing.now;
    if existing.at_court() {
        sqlx::query("UPDATE citation SET updated_at = $1, amended_at = $2 WHERE number = $3")
            .bind(now.0)
            .bind(now.0)
            .bind(&existing.number)
            .execute(&mut *conn)
            .await?;
        return Ok(());
    }
    let status = match step.correction {
        Correction::Resubmit => CitationStatus::Issued,
        Correction::Amend { .. } => existing.status,
    };
    let arrest = if subject.recorded(ConvertedFact::Arrest) {
        subject.arrest_for(offence)
    } else {
        existing.arrest
    };
    sqlx::query(
        "UPDATE citation SET offence = $1, arrest = $2, status = $3, updated_at = $4 WHERE number = $5",
    )
    .bind(offence.code())
    .bind(i64::from(arrest))
    .bind(status.code())
    .bind(now.0)
    .bind(&existing.number)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The standing citations of reports converted from the first version's shape
/// that the chief has not checked yet, oldest first (issue #33): live — not
/// void, not disposed, not withdrawn from the court.
pub async fn converted_to_check(
    pool: &Pool,
    zone: &TownZone,
) -> Result<Vec<ConvertedCitation>, AppError> {
    type Row = (
        String,
        String,
        i64,
        Option<String>,
        Option<String>,
        String,
        String,
        i64,
    );
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT c.number, c.incident_id, s.identified, s.full_name, s.description, c.offence, \
         c.status, c.issued_at FROM converted_citation k JOIN citation c ON c.number = k.number \
         JOIN subject s ON s.subject_id = c.subject_id \
         WHERE c.status NOT IN ('void', 'disposed') \
         AND NOT EXISTS (SELECT 1 FROM citation_withdrawal w WHERE w.number = c.number) \
         AND NOT EXISTS (SELECT 1 FROM conversion_check x WHERE x.number = c.number) \
         ORDER BY c.year, c.seq",
    )
    .fetch_all(pool)
    .await?;
    rows.into_iter()
        .map(
            |(number, incident_id, identified, name, description, offence, status, issued_at)| {
                Ok(ConvertedCitation {
                    number,
                    incident_id: incidents::parse_uuid(&incident_id)?,
                    subject: incidents::subject_label(identified, name, description),
                    offence: Offence::from_code(&offence).ok_or(AppError::Internal)?,
                    status: CitationStatus::from_code(&status).ok_or(AppError::Internal)?,
                    issued_text: zone.date_time(Moment(issued_at)),
                })
            },
        )
        .collect()
}

/// The chief has checked a converted citation against what is known of the
/// person (issue #33): it leaves the list, for good. Checking it again is a
/// harmless retry; a citation not of a converted report is not found.
pub async fn conversion_checked(
    store: &Store,
    reviewer: Reviewer<'_>,
    number: &str,
    note: &str,
) -> Result<(), AppError> {
    let number = number.trim();
    let mut tx = store.begin_write().await?;
    let (converted, checked): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT COUNT(*) FROM converted_citation WHERE number = $1), \
         (SELECT COUNT(*) FROM conversion_check WHERE number = $1)",
    )
    .bind(number)
    .fetch_one(&mut *tx)
    .await?;
    if converted == 0 {
        return Err(AppError::NotFound);
    }
    if checked > 0 {
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO conversion_check (number, note, actor_id, at) VALUES ($1, $2, $3, $4)",
    )
    .bind(number)
    .bind(note.trim())
    .bind(reviewer.chief.user_id.to_string())
    .bind(reviewer.now.0)
    .execute(&mut *tx)
    .await?;
    let event = Event::new("citation.conversion_checked", AuditOutcome::Success)
        .by(Some(reviewer.chief), reviewer.source)
        .on("citation", number)
        .after(serde_json::json!({ "note": note.trim() }));
    audit::append(&mut tx, reviewer.now, &event).await?;
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(number: &str, offence: Offence, status: CitationStatus) -> Existing {
        Existing {
            number: number.to_owned(),
            subject_id: "S".to_owned(),
            status,
            offence,
            arrest: false,
            withdrawn: false,
            replaced: false,
        }
    }

    type Numbers = (
        Vec<(String, Offence)>,
        Vec<Offence>,
        Vec<String>,
        Vec<String>,
    );

    /// Kept (with the offence now), issued, voided, withdrawn from the court.
    fn numbers(plan: &CitationPlan<'_>) -> Numbers {
        let named = |list: &[&Existing]| list.iter().map(|e| e.number.clone()).collect();
        (
            plan.keep
                .iter()
                .map(|(e, o)| (e.number.clone(), *o))
                .collect(),
            plan.issue.clone(),
            named(&plan.void),
            named(&plan.withdraw),
        )
    }

    use CitationStatus::{Approved, Disposed, Filed, Void};
    use Offence::{DisturbingThePeace as S3, GroupObstruction as S2, LoiteringObstruction as A1};

    #[test]
    fn a_citation_for_the_same_offence_keeps_its_number() {
        let existing = [held("N1", A1, Approved)];
        let plan = plan(&existing, &[A1]).expect("plan");
        assert_eq!(
            numbers(&plan),
            (vec![("N1".into(), A1)], vec![], vec![], vec![])
        );
    }

    #[test]
    fn before_filing_a_changed_offence_keeps_the_number_and_a_second_offence_gets_a_new_one() {
        let existing = [held("N1", A1, Approved)];
        let plan = plan(&existing, &[S2, S3]).expect("plan");
        assert_eq!(
            numbers(&plan),
            (vec![("N1".into(), S2)], vec![S3], vec![], vec![])
        );
    }

    /// Issue #33: the number of a citation with the court never moves to
    /// another charge (it used to: a filed §52-1 A(1) became §52-2 under the
    /// same number, beside the fine it was issued with).
    #[test]
    fn a_filed_citation_never_takes_another_offence_it_is_withdrawn_and_the_charges_are_new() {
        for status in [Filed, Disposed] {
            let existing = [held("N1", A1, status)];
            let plan = plan(&existing, &[S2, S3]).expect("plan");
            assert_eq!(
                numbers(&plan),
                (vec![], vec![S2, S3], vec![], vec!["N1".into()]),
                "{status:?}"
            );
            // Still charged: kept as it is.
            let plan = super::plan(&existing, &[A1, S3]).expect("plan");
            assert_eq!(
                numbers(&plan),
                (vec![("N1".into(), A1)], vec![S3], vec![], vec![])
            );
        }
    }

    #[test]
    fn an_offence_no_longer_cited_is_voided_before_filing_and_withdrawn_after() {
        let existing = [
            held("N1", A1, Approved),
            held("N2", S3, Approved),
            held("N3", S2, Filed),
        ];
        let plan = plan(&existing, &[S3]).expect("plan");
        assert_eq!(
            numbers(&plan),
            (
                vec![("N2".into(), S3)],
                vec![],
                vec!["N1".into()],
                vec!["N3".into()]
            )
        );
    }

    #[test]
    fn a_void_number_is_never_reused_for_its_offence() {
        let existing = [held("N1", A1, Void)];
        let refused = plan(&existing, &[A1]).map(|_| ()).expect_err("void");
        assert_eq!(refused.number, "N1");
        // Another offence is a new citation; the void one stays as it is.
        let plan = plan(&existing, &[S3]).expect("plan");
        assert_eq!(numbers(&plan), (vec![], vec![S3], vec![], vec![]));
    }

    #[test]
    fn a_withdrawn_offence_is_not_cited_again_nor_withdrawn_twice() {
        let mut withdrawn = held("N1", A1, Filed);
        withdrawn.withdrawn = true;
        let existing = [withdrawn];
        let refused = plan(&existing, &[A1]).map(|_| ()).expect_err("withdrawn");
        assert_eq!(refused.number, "N1");
        let plan = plan(&existing, &[]).expect("plan");
        assert_eq!(numbers(&plan), (vec![], vec![], vec![], vec![]));
    }
}
