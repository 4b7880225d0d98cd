//! The chief's dashboard (issue #6).

use leptos::prelude::*;
use leptos::server_fn::codec::Json;

use crate::error::AppError;
use crate::model::dashboard::{Dashboard, Period};

/// Every figure of a period (`None`: the 365 days up to today).
#[server(endpoint = "dashboard", input = Json)]
pub async fn load_dashboard(period: Option<Period>) -> Result<Dashboard, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::Oversee).await?;
    let period = period.unwrap_or_else(|| {
        crate::store::dashboard::last_365_days(&request.state.settings.town_zone, request.now)
    });
    AppError::unless_any(period.problems())?;
    let today = request.state.settings.town_zone.date(request.now);
    crate::store::dashboard::dashboard(&request.state.store, &period, &today).await
}
