//! What the Town publishes of its enforcement (issue #40): the chief's
//! publication of a month that has ended, and what anyone may read of it; and
//! the chief's own per-officer and disparity tables (read only, never public).

use leptos::prelude::*;
use leptos::server_fn::codec::Json;

use crate::error::AppError;
use crate::model::transparency::desk::OfficerTables;
use crate::model::transparency::disparity::Disparity;
use crate::model::transparency::{DeskMonth, Preview, PublicIndex, PublicView, Published};
#[cfg(feature = "ssr")]
use crate::model::transparency::{Month, PublicPeriod};

#[cfg(feature = "ssr")]
fn month(text: &str) -> Result<Month, AppError> {
    Month::parse(text).ok_or_else(|| {
        AppError::invalid("month", "Give the month as YYYY-MM, for example 2026-11.")
    })
}

/// The chief's list: the last closed months and every month published.
#[server(endpoint = "transparency/months", input = Json)]
pub async fn desk_months() -> Result<Vec<DeskMonth>, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Oversee).await?;
    crate::store::transparency::desk_months(
        &request.state.store,
        &request.state.settings.town_zone,
        request.now,
    )
    .await
}

/// What publishing `month` would publish now (its next revision), for the
/// chief to read before publishing.
#[server(endpoint = "transparency/preview", input = Json)]
pub async fn preview_month(month: String) -> Result<Preview, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Oversee).await?;
    let month = self::month(&month)?;
    crate::store::transparency::preview(
        &request.state.store,
        &request.state.settings.town_zone,
        request.now,
        month,
    )
    .await
}

/// Publishes `revision` of `month` (the one previewed): the first, or a
/// correction with the reason it is made.
#[server(endpoint = "transparency/publish", input = Json)]
pub async fn publish_month(
    month: String,
    revision: u32,
    reason: Option<String>,
) -> Result<Published, AppError> {
    use crate::store::transparency::{publish, Chief};
    let request = crate::auth::guard::authorize(crate::access::Permission::Oversee).await?;
    let month = self::month(&month)?;
    let chief = Chief {
        actor: &request.actor,
        source: request.source.as_deref(),
        now: request.now,
    };
    publish(
        &request.state.store,
        chief,
        &request.state.settings.town_zone,
        month,
        revision,
        reason.as_deref(),
    )
    .await
}

/// The desk's period, `from..=to` (whole months), checked before it is read.
#[cfg(feature = "ssr")]
fn months(from: &str, to: &str) -> Result<(Month, Month), AppError> {
    use crate::model::transparency::desk::month_range_problems;
    AppError::unless_any(month_range_problems(from, to))?;
    Ok((self::month(from)?, self::month(to)?))
}

/// The chief's tables by officer for the months `from..=to` (true counts,
/// never public), and `officer`'s seven tables when one is chosen.
#[server(endpoint = "transparency/desk/officers", input = Json)]
pub async fn desk_officers(
    from: String,
    to: String,
    officer: Option<String>,
) -> Result<OfficerTables, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Oversee).await?;
    let (from, to) = months(&from, &to)?;
    crate::store::transparency::officers(&request.state.store, from, to, officer.as_deref()).await
}

/// The chief's disparity view for the months `from..=to`: each perceived
/// group's rate of citation per order beside the Town's (true counts, never
/// public).
#[server(endpoint = "transparency/desk/disparity", input = Json)]
pub async fn desk_disparity(from: String, to: String) -> Result<Disparity, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Oversee).await?;
    let (from, to) = months(&from, &to)?;
    crate::store::transparency::disparity(&request.state.store, from, to).await
}

/// Every published month and year to date (anyone, signed in or not).
#[server(endpoint = "transparency/index", input = Json)]
pub async fn load_public_index() -> Result<PublicIndex, AppError> {
    let request = crate::auth::guard::public()?;
    crate::store::transparency::index(&request.state.store).await
}

/// A published month (its newest revision, or `revision`) or a year to date
/// (anyone). What was never published is not found.
#[server(endpoint = "transparency/view", input = Json)]
pub async fn load_public_view(
    period: String,
    revision: Option<u32>,
) -> Result<PublicView, AppError> {
    use crate::store::transparency::{month_view, year_view};
    let request = crate::auth::guard::public()?;
    let store = &request.state.store;
    match (
        PublicPeriod::parse(&period).ok_or(AppError::NotFound)?,
        revision,
    ) {
        (PublicPeriod::Month(month), revision) => Ok(month_view(store, month, revision).await?.0),
        (PublicPeriod::Year(year), None) => Ok(year_view(store, year).await?.0),
        (PublicPeriod::Year(_), Some(_)) => Err(AppError::NotFound),
    }
}
