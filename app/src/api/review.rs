//! The chief's desk (issue #6): the review queue, decisions, amendments, the
//! register and full reports; and the officer's correction of a returned report.

use leptos::prelude::*;
use leptos::server_fn::codec::Json;
use uuid::Uuid;

use crate::error::AppError;
use crate::model::incident::{CitationStatus, IncidentReport, Receipt, ReportStatus};
use crate::model::review::{
    ConvertedCitation, OfficerOption, RegisterCursor, RegisterPage, ReportFilter, ReportRow,
    ReportView, ReviewAction,
};

#[cfg(feature = "ssr")]
fn reviewer(request: &crate::auth::guard::Authorized) -> crate::store::review::Reviewer<'_> {
    crate::store::review::Reviewer {
        chief: &request.actor,
        source: request.source.as_deref(),
        now: request.now,
    }
}

/// Submitted reports awaiting review, oldest first, with their cautions.
#[server(endpoint = "review/queue", input = Json)]
pub async fn review_queue(filter: ReportFilter) -> Result<Vec<ReportRow>, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Review).await?;
    AppError::unless_any(filter.problems())?;
    crate::store::register::queue(
        &request.state.store.reader,
        &filter,
        &request.state.settings.town_zone,
    )
    .await
}

/// How many reports wait for review, up to the queue's limit (the chief's start
/// page, issue #37 finding 16).
#[server(endpoint = "review/waiting", input = Json)]
pub async fn review_waiting() -> Result<usize, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Review).await?;
    crate::store::register::waiting(&request.state.store.reader).await
}

/// Approve a submitted report (its citations go to the clerk) or return it to the
/// officer with a reason. `revision` is the one the chief read.
#[server(endpoint = "review/decide", input = Json)]
pub async fn decide_report(
    incident_id: Uuid,
    revision: i64,
    action: ReviewAction,
) -> Result<ReportStatus, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Review).await?;
    if let ReviewAction::Return { reason } = &action {
        AppError::unless_any(crate::model::review::reason_problems(
            "reason", reason, "returned",
        ))?;
    }
    crate::store::review::decide(
        &request.state.store,
        reviewer(&request),
        incident_id,
        revision,
        &action,
    )
    .await
}

/// Void a citation with a reason; the number stays used and shows as void.
#[server(endpoint = "review/void", input = Json)]
pub async fn void_citation(number: String, reason: String) -> Result<CitationStatus, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Review).await?;
    AppError::unless_any(crate::model::review::reason_problems(
        "reason", &reason, "voided",
    ))?;
    crate::store::review::void(&request.state.store, reviewer(&request), &number, &reason).await
}

/// The chief's amendment of a stored report, with a reason. The rules run again;
/// the previous version is kept and shown as a diff.
#[server(endpoint = "review/amend", input = Json)]
pub async fn amend_report(report: IncidentReport, reason: String) -> Result<Receipt, AppError> {
    use crate::store::review::Correction;
    let request = crate::auth::guard::authorize(crate::access::Permission::Review).await?;
    AppError::unless_any(crate::model::review::reason_problems(
        "reason", &reason, "amended",
    ))?;
    // A correction, of an incident of any age: it carries its reason.
    let verdicts = crate::model::incident::check_correction(&report, request.now)?;
    crate::store::review::correct(
        &request.state.store,
        issuing(&request),
        Correction::Amend { reason: &reason },
        &report,
        &verdicts,
    )
    .await
}

/// The signed-in officer (or chief) issuing citations with this request.
#[cfg(feature = "ssr")]
pub(crate) fn issuing(
    request: &crate::auth::guard::Authorized,
) -> crate::store::numbers::Issuing<'_> {
    crate::store::numbers::Issuing {
        officer: &request.actor,
        source: request.source.as_deref(),
        now: request.now,
        zone: &request.state.settings.town_zone,
    }
}

/// The officer resubmits a report the chief returned, corrected. The server
/// re-runs the rules; persons still cited keep their citation number.
#[server(endpoint = "incidents/resubmit", input = Json)]
pub async fn resubmit_incident(report: IncidentReport) -> Result<Receipt, AppError> {
    use crate::store::review::Correction;
    let request = crate::auth::guard::authorize(crate::access::Permission::RecordIncidents).await?;
    // A correction, of an incident of any age: the chief's return gave the reason.
    let verdicts = crate::model::incident::check_correction(&report, request.now)?;
    crate::store::review::correct(
        &request.state.store,
        issuing(&request),
        Correction::Resubmit,
        &report,
        &verdicts,
    )
    .await
}

/// The standing citations of reports converted from the first version that
/// the chief has not checked yet (issue #33).
#[server(endpoint = "review/converted", input = Json)]
pub async fn converted_citations() -> Result<Vec<ConvertedCitation>, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Review).await?;
    crate::store::review::converted_to_check(
        &request.state.store.reader,
        &request.state.settings.town_zone,
    )
    .await
}

/// The chief checked a converted citation against what is known of the
/// person: it leaves the list, with the note.
#[server(endpoint = "review/conversion-checked", input = Json)]
pub async fn conversion_checked(number: String, note: String) -> Result<(), AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Review).await?;
    AppError::unless_any(crate::model::review::check_note_problems(&note))?;
    crate::store::review::conversion_checked(
        &request.state.store,
        reviewer(&request),
        &number,
        &note,
    )
    .await
}

/// The register: every incident, filtered, 50 a page, newest first.
#[server(endpoint = "register/search", input = Json)]
pub async fn search_register(
    filter: ReportFilter,
    after: Option<RegisterCursor>,
) -> Result<RegisterPage, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Oversee).await?;
    AppError::unless_any(filter.problems())?;
    crate::store::register::register(
        &request.state.store.reader,
        &filter,
        after,
        &request.state.settings.town_zone,
    )
    .await
}

/// The officers the chief's filters offer.
#[server(endpoint = "register/officers", input = Json)]
pub async fn list_officers() -> Result<Vec<OfficerOption>, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Oversee).await?;
    crate::store::register::officers(&request.state.store.reader).await
}

/// A full report with its history: the chief any, an officer their own.
#[server(endpoint = "reports/get", input = Json)]
pub async fn full_report(incident_id: Uuid) -> Result<ReportView, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::ReadReports).await?;
    let found = crate::store::register::report(
        &request.state.store.reader,
        incident_id,
        &request.actor,
        &request.state.settings.town_zone,
    )
    .await;
    request
        .read("incident", &incident_id.to_string(), found)
        .await
}
