//! The court clerk (issue #7): the filing queue, the JSON export, filing,
//! dispositions and the clerk's register. CSV and PDF exports are file downloads
//! (`POST /court/export`, server/src/downloads.rs) over the same store call.

use leptos::prelude::*;
use leptos::server_fn::codec::Json;

use crate::error::AppError;
use crate::model::court::{
    CourtCitation, CourtExport, CourtFilter, CourtRow, Disposition, ExportSelection, Filing,
    FilingBacklog,
};
use crate::model::incident::CitationStatus;

#[cfg(feature = "ssr")]
fn clerk(request: &crate::auth::guard::Authorized) -> crate::store::court::Clerk<'_> {
    crate::store::court::Clerk {
        actor: &request.actor,
        source: request.source.as_deref(),
        now: request.now,
    }
}

/// Approved citations waiting to be filed, most urgent first, with days left of
/// the filing deadline (`ordinance::FILING_DAYS`).
#[server(endpoint = "court/queue", input = Json)]
pub async fn filing_queue() -> Result<FilingBacklog, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Court).await?;
    crate::store::court::filing_queue(
        &request.state.store.reader,
        &request.state.settings.town_zone,
        request.now,
    )
    .await
}

/// The JSON export of a selection, recorded as an export batch.
#[server(endpoint = "court/export", input = Json)]
pub async fn export_json(selection: ExportSelection) -> Result<CourtExport, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Court).await?;
    AppError::unless_any(selection.problems())?;
    let exported = crate::store::court::export(
        &request.state.store,
        clerk(&request),
        &request.state.settings.town_zone,
        &selection,
        crate::model::court::ExportFormat::Json,
        false,
    )
    .await?;
    // The answer is the very file the batch's SHA-256 was taken of.
    serde_json::from_slice(&exported.bytes).map_err(|_| AppError::Internal)
}

/// The last ten exports, newest first (the court page's confirmation).
#[server(endpoint = "court/exports", input = Json)]
pub async fn recent_exports() -> Result<Vec<crate::model::court::ExportBatchView>, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Court).await?;
    crate::store::court::recent_exports(
        &request.state.store.reader,
        &request.state.settings.town_zone,
    )
    .await
}

/// Marks citations filed with the court (they are frozen from then on).
#[server(endpoint = "court/file", input = Json)]
pub async fn file_citations(filing: Filing) -> Result<Vec<CitationStatus>, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Court).await?;
    let today = request.state.settings.town_zone.date(request.now);
    AppError::unless_any(filing.problems(&today))?;
    crate::store::court::file(&request.state.store, clerk(&request), &filing).await
}

/// Records what the court decided about a filed citation.
#[server(endpoint = "court/dispose", input = Json)]
pub async fn record_disposition(
    number: String,
    disposition: Disposition,
) -> Result<CitationStatus, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Court).await?;
    let today = request.state.settings.town_zone.date(request.now);
    AppError::unless_any(disposition.problems(&today))?;
    crate::store::court::dispose(&request.state.store, clerk(&request), &number, &disposition).await
}

/// The clerk's register: the court's citations by status, filing date, court date.
#[server(endpoint = "court/register", input = Json)]
pub async fn court_register(filter: CourtFilter) -> Result<Vec<CourtRow>, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Court).await?;
    AppError::unless_any(filter.problems())?;
    crate::store::court::register(
        &request.state.store.reader,
        &request.state.settings.town_zone,
        &filter,
    )
    .await
}

/// The clerk's calendar: hearings from today on, by day (issue #37, finding 18).
#[server(endpoint = "court/calendar", input = Json)]
pub async fn hearing_calendar() -> Result<crate::model::court::HearingCalendar, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Court).await?;
    crate::store::court::hearings(
        &request.state.store.reader,
        &request.state.settings.town_zone,
        request.now,
    )
    .await
}

/// One citation with its filing and dispositions.
#[server(endpoint = "court/citation", input = Json)]
pub async fn load_court_citation(number: String) -> Result<CourtCitation, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Court).await?;
    let found = crate::store::court::citation(
        &request.state.store.reader,
        &request.state.settings.town_zone,
        &number,
        request.now,
    )
    .await;
    request.read("citation", &number, found).await
}
