//! Mass-gathering permits (Article II, issue #19): the operator's public
//! application and private status link, the Town Clerk's record, the advisors'
//! opinions, the Selectmen's decision, and the register officers search.

use leptos::prelude::*;
use leptos::server_fn::codec::Json;
use uuid::Uuid;

use crate::error::AppError;
use crate::model::permit::{
    BoardVote, DecisionRecord, Filed, PermitApplication, PermitDecision, PermitRecord, PermitRow,
};

/// What the Town Clerk records, as the browser sends it (dollars as typed).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "entry", rename_all = "snake_case")]
pub enum ClerkAction {
    /// §52-9 A: the permit fee received, with its receipt number.
    Fee { receipt: String },
    /// §52-9 D: the Town's estimate of its public costs, the bond and the deposit furnished.
    Security {
        estimated_costs_cents: u64,
        bond_cents: u64,
        deposit_cents: u64,
    },
    /// The Selectmen's meeting that considers it (`YYYY-MM-DD`).
    Schedule { day: String },
    /// After the gathering: the actual public costs (§52-9 D).
    Settle { actual_costs_cents: u64 },
}

#[cfg(feature = "ssr")]
mod serve {
    use crate::auth::By;
    use crate::error::AppError;
    use crate::model::civil;
    use crate::ordinance::Moment;
    use crate::state::AppState;
    use crate::store::permits::Desk;

    /// The Town day of `now` (the §52-9 calendar counts the Town's days).
    pub fn today(state: &AppState, now: Moment) -> i64 {
        civil::day_number(&state.settings.town_zone.date(now)).unwrap_or(0)
    }

    pub fn desk<'a>(request: &'a crate::auth::guard::Authorized) -> Desk<'a> {
        Desk {
            by: By {
                actor: Some(&request.actor),
                source: request.source.as_deref(),
                now: request.now,
            },
            today: today(&request.state, request.now),
        }
    }

    /// Anyone may apply and follow an application, so the public calls are
    /// counted per client address (the sign-in limiter's window, its own keys):
    /// a flood of applications or of guessed status links is refused.
    pub fn limit(request: &crate::auth::guard::Public, what: &str) -> Result<(), AppError> {
        let key = format!("{what}:{}", request.source.as_deref().unwrap_or("unknown"));
        if request.state.sign_in_limiter.allow(&key, request.now) {
            Ok(())
        } else {
            Err(AppError::RateLimited)
        }
    }

    pub fn public_desk(request: &crate::auth::guard::Public) -> Desk<'_> {
        Desk {
            by: By {
                actor: None,
                source: request.source.as_deref(),
                now: request.now,
            },
            today: today(&request.state, request.now),
        }
    }

    /// Files an application checked through the rules, whichever way it came.
    pub async fn file(
        state: &AppState,
        desk: Desk<'_>,
        application: &crate::model::permit::PermitApplication,
    ) -> Result<crate::model::permit::Filed, AppError> {
        AppError::unless_any(application.problems(desk.today))?;
        crate::store::permits::file(&state.store, desk, &state.settings.town_zone, application)
            .await
    }

    /// A token that cannot be one answers as one that matches nothing.
    pub fn token(token: &str) -> Result<&str, AppError> {
        let token = token.trim();
        if crate::model::permit::plausible_token(token) {
            Ok(token)
        } else {
            Err(AppError::NotFound)
        }
    }
}

/// The operator's application, from the public page (no account). Answers the
/// application's number and the private status link's token, shown once.
#[server(endpoint = "permits/apply", input = Json)]
pub async fn apply_for_permit(application: PermitApplication) -> Result<Filed, AppError> {
    let request = crate::auth::guard::public()?;
    serve::limit(&request, "permit-apply")?;
    serve::file(&request.state, serve::public_desk(&request), &application).await
}

/// §52-10(9)'s decibel level the Town has set, or `null` while unconfirmed:
/// the application page's calculator states it.
#[server(endpoint = "permits/sound-limit", input = Json)]
pub async fn sound_limit() -> Result<Option<u32>, AppError> {
    let request = crate::auth::guard::public()?;
    crate::store::settings::sound_limit(&request.state.store.reader).await
}

/// The application the status link opens.
#[server(endpoint = "permits/status", input = Json)]
pub async fn permit_status(token: String) -> Result<PermitRecord, AppError> {
    let request = crate::auth::guard::public()?;
    serve::limit(&request, "permit-status")?;
    let token = serve::token(&token)?;
    crate::store::permits::by_token(
        &request.state.store.reader,
        token,
        serve::today(&request.state, request.now),
        &request.state.settings.town_zone,
    )
    .await
}

/// The operator changes the application through the status link: before the
/// decision, or after a denial to meet what it lists.
#[server(endpoint = "permits/amend", input = Json)]
pub async fn amend_application(
    token: String,
    application: PermitApplication,
) -> Result<(), AppError> {
    let request = crate::auth::guard::public()?;
    serve::limit(&request, "permit-status")?;
    let token = serve::token(&token)?;
    let desk = serve::public_desk(&request);
    AppError::unless_any(application.problems(desk.today))?;
    crate::store::permits::amend(&request.state.store, desk, token, &application).await
}

/// A paper application, typed in by the Town Clerk: the same record as an
/// online one, and the status link to give the operator.
#[server(endpoint = "permits/file-paper", input = Json)]
pub async fn file_paper_application(application: PermitApplication) -> Result<Filed, AppError> {
    let request =
        crate::auth::guard::authorize(crate::access::Permission::ReceiveApplications).await?;
    serve::file(&request.state, serve::desk(&request), &application).await
}

/// The permit register; with `day` (`YYYY-MM-DD`), the applications whose
/// gatherings cover that day — "does this crowd hold a permit today?". `today`
/// is the Town's day by the server's clock (the §52-9 calendar's): the phone on
/// scene asks for it, since neither the phone's zone nor the server's UTC is the
/// Town's (from 7 p.m. in winter UTC's date is already tomorrow's).
#[server(endpoint = "permits/register", input = Json)]
pub async fn permit_register(day: Option<String>) -> Result<Vec<PermitRow>, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::ReadPermits).await?;
    let today = serve::today(&request.state, request.now);
    let day = match day.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        None => None,
        Some(TODAY) => Some(today),
        Some(d) => Some(
            crate::model::civil::day_number(d)
                .ok_or_else(|| AppError::invalid("day", "Day: a date as YYYY-MM-DD, or today."))?,
        ),
    };
    crate::store::permits::register(&request.state.store.reader, day, today).await
}

/// `permits/register`'s `day` for the Town's today.
pub const TODAY: &str = "today";

/// One application's whole record.
#[server(endpoint = "permits/get", input = Json)]
pub async fn get_permit(application_id: Uuid) -> Result<PermitRecord, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::ReadPermits).await?;
    let found = crate::store::permits::record(
        &request.state.store.reader,
        application_id,
        serve::today(&request.state, request.now),
        &request.state.settings.town_zone,
    )
    .await;
    request
        .read("permit", &application_id.to_string(), found)
        .await
}

/// The Town Clerk's entries: fee, estimate/bond/deposit, the meeting, settlement.
#[server(endpoint = "permits/clerk", input = Json)]
pub async fn record_clerk_entry(application_id: Uuid, action: ClerkAction) -> Result<(), AppError> {
    use crate::store::permits::ClerkEntry;
    let request =
        crate::auth::guard::authorize(crate::access::Permission::ReceiveApplications).await?;
    let desk = serve::desk(&request);
    let fee = crate::ordinance::article_ii::Requirements::FEE_CENTS;
    let entry = match &action {
        ClerkAction::Fee { receipt } => {
            if receipt.trim().is_empty() || receipt.chars().count() > 100 {
                return Err(AppError::invalid(
                    "receipt",
                    format!(
                        "Receipt: the number of the Town's receipt for the {} fee (§52-9 A).",
                        crate::ordinance::article_ii::Requirements::fee_text()
                    ),
                ));
            }
            ClerkEntry::Fee {
                receipt,
                cents: fee,
            }
        }
        ClerkAction::Security {
            estimated_costs_cents,
            bond_cents,
            deposit_cents,
        } => ClerkEntry::Security {
            estimated_costs_cents: *estimated_costs_cents,
            bond_cents: *bond_cents,
            deposit_cents: *deposit_cents,
        },
        ClerkAction::Schedule { day } => {
            let day = crate::model::civil::day_number(day.trim())
                .ok_or_else(|| AppError::invalid("day", "Meeting day: a date as YYYY-MM-DD."))?;
            if day < desk.today {
                return Err(AppError::invalid(
                    "day",
                    "Meeting day: today or later; §52-9 B's seven days run from it.",
                ));
            }
            if let Some(why) = crate::model::court_calendar::town_closed(day) {
                return Err(AppError::invalid(
                    "day",
                    format!("Meeting day: {why}, when the Board of Selectmen does not meet. Choose the day of its meeting (§52-9 B)."),
                ));
            }
            ClerkEntry::Schedule { day }
        }
        ClerkAction::Settle { actual_costs_cents } => ClerkEntry::Settle {
            actual_costs_cents: *actual_costs_cents,
        },
    };
    crate::store::permits::clerk(&request.state.store, desk, application_id, entry).await
}

/// The Board of Selectmen's decision (§52-9 B) on the revision it read, made at
/// its meeting on the motion and vote `vote` records (issue #37); a Selectman
/// or the Town Clerk records it. The meeting, the mover and the vote are
/// checked with the application's consideration day, in the store.
#[server(endpoint = "permits/decide", input = Json)]
pub async fn decide_permit(
    application_id: Uuid,
    revision: i64,
    decision: PermitDecision,
    vote: BoardVote,
) -> Result<DecisionRecord, AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::DecidePermits).await?;
    if let PermitDecision::Deny { findings } = &decision {
        AppError::unless_any(crate::model::permit::finding_problems(findings))?;
    }
    crate::store::permits::decide(
        &request.state.store,
        serve::desk(&request),
        application_id,
        revision,
        &decision,
        &vote,
    )
    .await
}

/// The Board marks one of its findings met (§52-8) at its meeting of
/// `meeting_day` (`YYYY-MM-DD`), with its note; a Selectman or the Town Clerk
/// records it.
#[server(endpoint = "permits/finding-met", input = Json)]
pub async fn mark_finding_met(
    application_id: Uuid,
    finding_id: Uuid,
    meeting_day: String,
    note: String,
) -> Result<(), AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::DecidePermits).await?;
    crate::store::permits::mark_met(
        &request.state.store,
        serve::desk(&request),
        application_id,
        finding_id,
        &meeting_day,
        &note,
    )
    .await
}

/// The operator answers one of the Board's findings through the status link.
#[server(endpoint = "permits/answer-finding", input = Json)]
pub async fn answer_finding(
    token: String,
    finding_id: Uuid,
    answer: String,
) -> Result<(), AppError> {
    let request = crate::auth::guard::public()?;
    serve::limit(&request, "permit-status")?;
    let token = serve::token(&token)?;
    AppError::unless_any(
        crate::model::permit::finding_text_problem("answer", "Your answer", &answer)
            .into_iter()
            .collect(),
    )?;
    crate::store::permits::answer_finding(
        &request.state.store,
        serve::public_desk(&request),
        token,
        finding_id,
        &answer,
    )
    .await
}

/// A written opinion for the Selectmen (§52-8 A), in the author's capacity.
#[server(endpoint = "permits/opinion", input = Json)]
pub async fn add_opinion(
    application_id: Uuid,
    capacity: String,
    opinion: String,
) -> Result<(), AppError> {
    let request = crate::auth::guard::authorize(crate::access::Permission::AdvisePermits).await?;
    let mut errors = Vec::new();
    if capacity.trim().is_empty() || capacity.chars().count() > 100 {
        errors.push(crate::error::FieldError::new(
            "capacity",
            "Capacity: the office you advise in, e.g. Fire Chief (§52-8 A).",
        ));
    }
    if opinion.trim().is_empty() || opinion.chars().count() > crate::model::permit::MAX_TEXT {
        errors.push(crate::error::FieldError::new(
            "opinion",
            "Opinion: your written advice to the Selectmen (§52-8 A), at most 4,000 characters.",
        ));
    }
    AppError::unless_any(errors)?;
    crate::store::permits::opine(
        &request.state.store,
        serve::desk(&request),
        application_id,
        &capacity,
        &opinion,
    )
    .await
}
