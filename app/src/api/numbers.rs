//! Citation numbers for the officer's phone to hand out without signal, and the
//! account of every number of a year (issue #17; `model::numbers`).

use leptos::prelude::*;
use leptos::server_fn::codec::Json;
use uuid::Uuid;

use crate::error::AppError;
use crate::model::numbers::{NumberAccount, NumberBlock};

/// Reserves the next block of this year's numbers for the officer's phone.
/// `None` when the officer already holds the most blocks allowed
/// (`MAX_OPEN_BLOCKS`, on other phones): not an error the phone can fix — it
/// works on, and the server numbers its citations when reports arrive.
#[server(endpoint = "numbers/reserve", input = Json)]
pub async fn reserve_numbers() -> Result<Option<NumberBlock>, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::RecordIncidents).await?;
    match crate::store::numbers::reserve(
        &request.state.store,
        crate::api::review::issuing(&request),
    )
    .await
    {
        Ok(block) => Ok(Some(block)),
        Err(crate::store::numbers::Reserve::AllHeld) => Ok(None),
        Err(crate::store::numbers::Reserve::Failed(e)) => Err(e),
    }
}

/// The phone gives back the numbers of a block it did not hand out; `keep` are
/// those it handed out for reports it has not sent yet. Returns how many came
/// back (none on a repeat).
#[server(endpoint = "numbers/give-back", input = Json)]
pub async fn give_back_numbers(block_id: Uuid, keep: Vec<String>) -> Result<i64, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::RecordIncidents).await?;
    if keep.len() > 100 {
        return Err(AppError::invalid(
            "keep",
            "A block has at most 100 numbers.",
        ));
    }
    crate::store::numbers::give_back(
        &request.state.store,
        crate::api::review::issuing(&request),
        block_id,
        &keep,
    )
    .await
}

/// Every number of `year` (this year when `None`): issued, void, returned, or
/// reserved by whom, and any missing.
#[server(endpoint = "numbers/account", input = Json)]
pub async fn year_numbers(year: Option<i16>) -> Result<NumberAccount, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::AccountNumbers).await?;
    let zone = &request.state.settings.town_zone;
    let year = year.unwrap_or_else(|| zone.year(request.now));
    if !(2000..=9999).contains(&year) {
        return Err(AppError::invalid("year", "Give a year from 2000 to 9999."));
    }
    crate::store::numbers::account(&request.state.store.reader, year, zone).await
}
