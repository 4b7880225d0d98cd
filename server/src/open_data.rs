//! The Town's published months as open data (issue #40): anyone may download
//! each published month (newest revision, or one named revision) and each year
//! to date, as the JSON whose SHA-256 is published (byte for byte as stored)
//! or as CSV in the data dictionary's columns. What was never published is not
//! found, at every address.

use app::error::AppError;
use app::model::transparency::{parse_revision, PublicPeriod};
use app::state::AppState;
use app::store::transparency::{month_view, year_view};
use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

use crate::downloads::JsonError;

/// `GET /transparency/{period}/data.json` of a month's newest revision
/// (`2026-11`) or of a year to date (`2026`).
pub async fn latest_json(State(state): State<AppState>, Path(period): Path<String>) -> Response {
    file_of(&state, &period, None, "data.json")
        .await
        .unwrap_or_else(JsonError::into_response_json)
}

/// `GET /transparency/{period}/data.csv`, as `latest_json`.
pub async fn latest_csv(State(state): State<AppState>, Path(period): Path<String>) -> Response {
    file_of(&state, &period, None, "data.csv")
        .await
        .unwrap_or_else(JsonError::into_response_json)
}

/// `GET /transparency/{month}/{revision}/{file}`: one revision (`r2`) of a month.
pub async fn revision(
    State(state): State<AppState>,
    Path((period, revision, file)): Path<(String, String, String)>,
) -> Response {
    let Some(revision) = parse_revision(&revision) else {
        return AppError::NotFound.into_response_json();
    };
    file_of(&state, &period, Some(revision), &file)
        .await
        .unwrap_or_else(JsonError::into_response_json)
}

async fn file_of(
    state: &AppState,
    period: &str,
    revision: Option<u32>,
    file: &str,
) -> Result<Response, AppError> {
    let store = &state.store;
    let (view, json) = match (
        PublicPeriod::parse(period).ok_or(AppError::NotFound)?,
        revision,
    ) {
        (PublicPeriod::Month(month), revision) => month_view(store, month, revision).await?,
        (PublicPeriod::Year(year), None) => year_view(store, year).await?,
        (PublicPeriod::Year(_), Some(_)) => return Err(AppError::NotFound),
    };
    let name = match view.view.revision {
        Some(r) => format!("wells-transparency-{}-r{r}", view.view.period),
        None => format!("wells-transparency-{}-year-to-date", view.view.period),
    };
    let (content_type, bytes, extension) = match file {
        "data.json" => ("application/json", json.into_bytes(), "json"),
        "data.csv" => (
            "text/csv; charset=utf-8",
            app::documents::export::csv_of(view.view.records()).map_err(|_| AppError::Internal)?,
            "csv",
        ),
        _ => return Err(AppError::NotFound),
    };
    Ok((
        [
            (CONTENT_TYPE, content_type.to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}.{extension}\""),
            ),
            // A newer revision may replace what the month's own address serves.
            (CACHE_CONTROL, "no-cache".to_owned()),
        ],
        bytes,
    )
        .into_response())
}
