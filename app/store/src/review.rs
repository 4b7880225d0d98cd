//! The chief's decisions on reports and citations, and corrections of a stored
//! report — the officer's resubmission of a returned report and the chief's
//! amendment with a reason. Every change keeps the previous version
//! (`incident_revision`), who made it, when and why; nothing is deleted.

use crate::db::Conn;
use uuid::Uuid;

use crate::audit::{self, Event};
use crate::incidents::{self, Version};
use crate::numbers::Issuing;
use crate::Store;
use domain::actor::Actor;
use domain::error::AppError;
use domain::model::audit::AuditOutcome;
use domain::model::incident::{
    CitationStatus, IncidentReport, Receipt, ReportStatus, SubjectVerdict,
};
use domain::model::review::ReviewAction;
use domain::ordinance::{Moment, Offence};

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
#[derive(Debug)]
struct Existing {
    number: String,
    status: CitationStatus,
    offence: Offence,
}

/// The person's citations, one per offence, oldest first.
async fn existing_citations(conn: &mut Conn, subject_id: &str) -> Result<Vec<Existing>, AppError> {
    let rows: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT number, status, offence FROM citation WHERE subject_id = $1 ORDER BY year, seq",
    )
    .bind(subject_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.into_iter()
        .map(|(number, status, offence)| {
            Ok(Existing {
                number,
                status: CitationStatus::from_code(&status).ok_or(AppError::Internal)?,
                offence: Offence::from_code(&offence).ok_or(AppError::Internal)?,
            })
        })
        .collect()
}

/// What a correction does to one person's citations.
#[derive(Debug, Default)]
struct CitationPlan<'a> {
    /// Kept, or kept with its offence changed: (citation, offence now).
    keep: Vec<(&'a Existing, Offence)>,
    /// Offences newly cited: each needs a new number.
    issue: Vec<Offence>,
    /// No longer cited: voided with the correction's reason.
    withdraw: Vec<&'a Existing>,
}

/// Matches the offences a person is cited for now with the citations they hold.
/// A citation for the same offence is kept; a citation whose offence is no
/// longer cited takes, in order, an offence newly cited — an amended charge
/// keeps its number, as a single charge always did; what is left is issued or
/// withdrawn. A void citation is never reused.
fn plan<'a>(existing: &'a [Existing], cited: &[Offence]) -> Result<CitationPlan<'a>, &'a Existing> {
    let mut plan = CitationPlan::default();
    let live: Vec<&Existing> = existing
        .iter()
        .filter(|e| e.status != CitationStatus::Void)
        .collect();
    let mut unmatched: Vec<Offence> = Vec::new();
    for &offence in cited {
        if let Some(void) = existing
            .iter()
            .find(|e| e.offence == offence && e.status == CitationStatus::Void)
        {
            if !live.iter().any(|e| e.offence == offence) {
                return Err(void);
            }
        }
        match live.iter().find(|e| e.offence == offence) {
            Some(e) => plan.keep.push((e, offence)),
            None => unmatched.push(offence),
        }
    }
    let mut spare = live.into_iter().filter(|e| !cited.contains(&e.offence));
    for offence in unmatched {
        match spare.next() {
            Some(e) => plan.keep.push((e, offence)),
            None => plan.issue.push(offence),
        }
    }
    plan.withdraw.extend(spare);
    Ok(plan)
}

/// Stores a corrected report as the next revision. The caller has re-run the
/// rules (`verdicts`). Persons still cited keep their citation number; persons
/// newly cited get a new number; a citation the correction takes away is voided
/// with the reason. Sending the same correction again changes nothing.
pub async fn correct(
    store: &Store,
    issuing: Issuing<'_>,
    correction: Correction<'_>,
    report: &IncidentReport,
    verdicts: &[SubjectVerdict],
) -> Result<Receipt, AppError> {
    let id = report.incident_id.to_string();
    let actor = issuing.officer;
    let now = issuing.now;
    let mut tx = store.begin_write().await?;
    let current = state(&mut tx, &id).await?;
    if matches!(correction, Correction::Resubmit) && current.officer_id != actor.user_id.to_string()
    {
        return Err(AppError::NotFound);
    }
    let report_json = serde_json::to_string(report).map_err(|_| AppError::Internal)?;
    if report_json == current.report_json {
        let mut receipt = incidents::receipt(&mut tx, report.incident_id).await?;
        receipt.already_stored = true;
        return Ok(receipt);
    }
    if matches!(correction, Correction::Resubmit) && current.status != ReportStatus::Returned {
        return Err(AppError::conflict(format!(
            "Only a report the chief returned can be corrected; this one is {}. \
             Ask the chief for an amendment.",
            current.status.label().to_lowercase()
        )));
    }
    let before = domain::model::first_version::StoredReport::parse(&current.report_json)
        .map_err(|_| AppError::Internal)?
        .current();
    AppError::unless_any(domain::model::incident::signature_changed_in_correction(
        &before, report,
    ))?;
    crate::permits::check_register_answer(&mut tx, report, issuing.zone, now).await?;
    let revision = current.revision + 1;
    let reason = match correction {
        Correction::Resubmit => None,
        Correction::Amend { reason } => Some(reason.trim()),
    };
    let withdrawal = format!(
        "Withdrawn by {} (revision {revision}){}",
        if reason.is_some() {
            "the chief's amendment"
        } else {
            "the officer's correction"
        },
        reason.map(|r| format!(": {r}")).unwrap_or_default()
    );

    // Persons taken out of the report: their rows stay, marked withdrawn.
    for gone in before
        .subjects
        .iter()
        .filter(|b| !report.subjects.iter().any(|s| s.subject_id == b.subject_id))
    {
        let sid = gone.subject_id.to_string();
        withdraw_citations(&mut tx, actor, now, &sid, &withdrawal).await?;
        sqlx::query("UPDATE subject SET withdrawn_at = $1 WHERE subject_id = $2")
            .bind(now.0)
            .bind(&sid)
            .execute(&mut *tx)
            .await?;
    }

    let mut issued = Vec::new();
    for (position, (subject, verdict)) in report.subjects.iter().zip(verdicts).enumerate() {
        let outcome = verdict.outcome.clone().map_err(|_| AppError::Internal)?;
        let sid = subject.subject_id.to_string();
        incidents::write_subject(&mut tx, report.incident_id, position, subject, outcome).await?;
        let existing = existing_citations(&mut tx, &sid).await?;
        let cited = subject.cited_offences(outcome);
        let plan = plan(&existing, &cited).map_err(|void| {
            AppError::invalid(
                format!("subjects.{position}.charges"),
                format!(
                    "Citation {} ({}) for this person was voided; a void number is never reused. \
                     Record a new incident to cite them for it again.",
                    void.number,
                    void.offence.reference()
                ),
            )
        })?;
        if !plan.issue.is_empty() && matches!(correction, Correction::Amend { .. }) {
            // §52-4 citations are issued by the officer who saw the refusal,
            // not by the desk.
            return Err(AppError::invalid(
                format!("subjects.{position}.charges"),
                "An amendment cannot issue a new citation: the officer who gave the order \
                 issues it. Return the report to the officer instead.",
            ));
        }
        for (citation, offence) in &plan.keep {
            let arrest = subject.arrest_for(*offence);
            update_citation(&mut tx, citation, correction, now, *offence, arrest).await?;
        }
        for citation in &plan.withdraw {
            withdraw(&mut tx, actor, now, citation, &withdrawal).await?;
        }
        for offence in plan.issue {
            let number = incidents::issue_citation(
                &mut tx,
                issuing,
                report.incident_id,
                subject,
                offence,
                None,
            )
            .await?;
            issued.push(number);
        }
    }

    let status = match correction {
        Correction::Resubmit => ReportStatus::Submitted,
        Correction::Amend { .. } => current.status,
    };
    incidents::write_version(
        &mut tx,
        Version {
            report,
            verdicts,
            officer_id: &current.officer_id,
            status,
            revision,
            kind: correction.kind(),
            reason,
            actor,
            now,
            zone: issuing.zone,
            cautions: None,
        },
    )
    .await?;
    let event = Event::new(
        match correction {
            Correction::Resubmit => "incident.resubmit",
            Correction::Amend { .. } => "incident.amend",
        },
        AuditOutcome::Success,
    )
    .by(Some(actor), issuing.source)
    .on("incident", &id)
    .before(serde_json::json!({ "revision": current.revision, "status": current.status.code() }))
    .after(serde_json::json!({
        "revision": revision,
        "status": status.code(),
        "reason": reason,
        "new_citations": issued,
        "changes": domain::model::review::changes(
            &serde_json::to_value(&before).unwrap_or_default(),
            &serde_json::to_value(report).unwrap_or_default(),
        ).len(),
    }));
    audit::append(&mut tx, now, &event).await?;
    let receipt = incidents::receipt(&mut tx, report.incident_id).await?;
    crate::register_text::flush(&mut tx).await?;
    tx.commit().await?;
    Ok(receipt)
}

async fn update_citation(
    conn: &mut Conn,
    existing: &Existing,
    correction: Correction<'_>,
    now: Moment,
    offence: Offence,
    arrest: bool,
) -> Result<(), sqlx::Error> {
    // An officer's correction goes back for review; a chief's amendment keeps
    // the status, and one made after filing shows on the next export.
    let status = match (correction, existing.status) {
        (Correction::Resubmit, _) => CitationStatus::Issued,
        (Correction::Amend { .. }, s) => s,
    };
    let amended = matches!(correction, Correction::Amend { .. })
        && matches!(
            existing.status,
            CitationStatus::Filed | CitationStatus::Disposed
        );
    sqlx::query(
        "UPDATE citation SET offence = $1, arrest = $2, status = $3, updated_at = $4, \
         amended_at = CASE WHEN $5 THEN $6 ELSE amended_at END WHERE number = $7",
    )
    .bind(offence.code())
    .bind(i64::from(arrest))
    .bind(status.code())
    .bind(now.0)
    .bind(amended)
    .bind(now.0)
    .bind(&existing.number)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Voids the person's citations that are not void already. One with the court
/// cannot be withdrawn this way.
async fn withdraw_citations(
    conn: &mut Conn,
    by: &Actor,
    now: Moment,
    subject_id: &str,
    reason: &str,
) -> Result<(), AppError> {
    for c in existing_citations(conn, subject_id).await? {
        withdraw(conn, by, now, &c, reason).await?;
    }
    Ok(())
}

/// Voids one citation, unless void already; one with the court cannot be.
async fn withdraw(
    conn: &mut Conn,
    by: &Actor,
    now: Moment,
    c: &Existing,
    reason: &str,
) -> Result<(), AppError> {
    match c.status {
        CitationStatus::Void => Ok(()),
        CitationStatus::Filed | CitationStatus::Disposed => Err(AppError::conflict(format!(
            "{} is with the District Court; the correction cannot withdraw it. Only the court can dismiss it.",
            c.number
        ))),
        _ => {
            set_void(conn, by, now, &c.number, reason).await?;
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(number: &str, offence: Offence, status: CitationStatus) -> Existing {
        Existing {
            number: number.to_owned(),
            status,
            offence,
        }
    }

    fn numbers(plan: &CitationPlan<'_>) -> (Vec<(String, Offence)>, Vec<Offence>, Vec<String>) {
        (
            plan.keep
                .iter()
                .map(|(e, o)| (e.number.clone(), *o))
                .collect(),
            plan.issue.clone(),
            plan.withdraw.iter().map(|e| e.number.clone()).collect(),
        )
    }

    use CitationStatus::{Approved, Filed, Void};
    use Offence::{DisturbingThePeace as S3, GroupObstruction as S2, LoiteringObstruction as A1};

    #[test]
    fn a_citation_for_the_same_offence_keeps_its_number() {
        let existing = [held("N1", A1, Approved)];
        let plan = plan(&existing, &[A1]).expect("plan");
        assert_eq!(numbers(&plan), (vec![("N1".into(), A1)], vec![], vec![]));
    }

    #[test]
    fn a_changed_offence_keeps_the_number_and_a_second_offence_gets_a_new_one() {
        let existing = [held("N1", A1, Filed)];
        let plan = plan(&existing, &[S2, S3]).expect("plan");
        assert_eq!(numbers(&plan), (vec![("N1".into(), S2)], vec![S3], vec![]));
    }

    #[test]
    fn an_offence_no_longer_cited_is_withdrawn() {
        let existing = [held("N1", A1, Approved), held("N2", S3, Approved)];
        let plan = plan(&existing, &[S3]).expect("plan");
        assert_eq!(
            numbers(&plan),
            (vec![("N2".into(), S3)], vec![], vec!["N1".into()])
        );
    }

    #[test]
    fn a_void_number_is_never_reused_for_its_offence() {
        let existing = [held("N1", A1, Void)];
        let refused = plan(&existing, &[A1]).map(|_| ()).expect_err("void");
        assert_eq!(refused.number, "N1");
        // Another offence is a new citation; the void one stays as it is.
        let plan = plan(&existing, &[S3]).expect("plan");
        assert_eq!(numbers(&plan), (vec![], vec![S3], vec![]));
    }
}
