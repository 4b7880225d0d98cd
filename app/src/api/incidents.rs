//! The officer's field flow: submit a report, list one's own, read a citation.

use leptos::prelude::*;
use leptos::server_fn::codec::Json;

use crate::error::AppError;
use crate::model::citation::CitationDocument;
use crate::model::incident::{IncidentReport, Receipt, ReportSummary};
use crate::ordinance::Moment;

/// Stores a report and issues its citations. The server re-runs the rules and
/// refuses anything they refuse; sending the same report again (same
/// `incident_id`) returns the first receipt and stores nothing twice.
#[server(endpoint = "incidents/submit", input = Json)]
pub async fn submit_incident(report: IncidentReport) -> Result<Receipt, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::RecordIncidents).await?;
    let issuing = crate::api::review::issuing(&request);
    // A report converted on the phone from the earlier app goes once its
    // answers are checked (issue #33).
    AppError::unless_any(crate::model::first_version::unchecked(&report))?;
    let stored = match crate::model::incident::check(&report, request.now) {
        Ok(verdicts) => {
            crate::store::incidents::submit(&request.state.store, issuing, &report, &verdicts).await
        }
        Err(refused) => Err(refused),
    };
    // Numbers the phone already gave out on scene for a report the server
    // refuses are void, with the refusal as the reason, and never reused
    // (issue #17). A refusal that may pass on a retry voids nothing.
    match stored {
        Err(refused) if !report.numbers.is_empty() && refused.is_final() => {
            crate::store::numbers::void_refused(&request.state.store, issuing, &report, &refused)
                .await?;
            Err(refused)
        }
        other => other,
    }
}

/// The signed-in officer's reports, newest first (50 a page; pass the last
/// `occurred_at`… of the page as `before` for the next).
#[server(endpoint = "incidents/mine", input = Json)]
pub async fn my_reports(before: Option<Moment>) -> Result<Vec<ReportSummary>, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::RecordIncidents).await?;
    crate::store::incidents::mine(
        &request.state.store.reader,
        &request.actor,
        &request.state.settings.town_zone,
        before,
        50,
    )
    .await
}

/// A citation as printed. Officers read their own; the chief all; the clerk those
/// the chief approved. Any other answers "not found".
#[server(endpoint = "citations/get", input = Json)]
pub async fn citation(number: String) -> Result<CitationDocument, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::ViewCitations).await?;
    let found = crate::store::incidents::citation_document(
        &request.state.store.reader,
        &number,
        &request.actor,
        &request.state.settings.town_zone,
    )
    .await;
    request.read("citation", &number, found).await
}

/// The subject's copy of a citation, for its page: as `citation` (the same
/// readers), with only what the copy prints, so the page's data holds nothing
/// more (issue #35).
#[server(endpoint = "citations/copy", input = Json)]
pub async fn citation_copy(number: String) -> Result<CitationDocument, AppError> {
    citation(number)
        .await
        .map(CitationDocument::as_subject_copy)
}
