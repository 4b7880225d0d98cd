//! Article II's days, on day numbers (days since 1970-01-01, as
//! `model::civil` counts them), so the browser and the server agree.

use serde::{Deserialize, Serialize};

use super::Provision;

/// §52-9 A: filed "at least twenty (20) days prior to the first outdoor gathering".
pub const FILING_DAYS_AHEAD: i64 = 20;
/// §52-9 B: the Selectmen act "within seven (7) days after consideration".
pub const DECISION_DAYS: i64 = 7;
/// §52-9 D: excess public costs paid "within ten (10) days after being so notified".
pub const EXCESS_DUE_DAYS: i64 = 10;

/// The last day an application for a gathering first held on `first_day` may
/// be filed: twenty days before it (filed on that day is "at least twenty days
/// prior").
pub fn last_filing_day(first_day: i64) -> i64 {
    first_day - FILING_DAYS_AHEAD
}

/// A filing day checked against §52-9 A.
pub fn filing_problem(filed_day: i64, first_day: i64) -> Option<(Provision, String)> {
    let late = filed_day - last_filing_day(first_day);
    (late > 0).then(|| {
        (
            Provision::S52_9A,
            format!(
                "filed {late} day(s) late: an application must reach the Town Clerk at least \
                 {FILING_DAYS_AHEAD} days before the first gathering"
            ),
        )
    })
}

/// Where the Selectmen's decision stands on `today`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DecisionClock {
    /// Not yet considered: no clock runs.
    NotConsidered,
    /// Considered; the decision is due by this day (inclusive).
    DueBy(i64),
    /// Seven days passed with no permit and no written denial: the permit is
    /// deemed denied (§52-9 B(3)), as of the day after the last day.
    DeemedDenied { since: i64 },
}

/// §52-9 B and B(3) for an application considered on `considered_day` (if it
/// has been) and not yet decided.
pub fn decision_clock(considered_day: Option<i64>, today: i64) -> DecisionClock {
    match considered_day {
        None => DecisionClock::NotConsidered,
        Some(day) => {
            let last = day + DECISION_DAYS;
            if today > last {
                DecisionClock::DeemedDenied { since: last + 1 }
            } else {
                DecisionClock::DueBy(last)
            }
        }
    }
}

/// §52-9 D: the day excess public costs are due, notified on `notified_day`.
pub fn excess_due_day(notified_day: i64) -> i64 {
    notified_day + EXCESS_DUE_DAYS
}

/// §52-9 D: after the gathering, the deposit against the actual public costs:
/// positive, the refund to the operator; negative, what the operator owes.
pub fn settlement_cents(deposit_cents: u64, actual_public_costs_cents: u64) -> i64 {
    i64::try_from(deposit_cents).unwrap_or(i64::MAX)
        - i64::try_from(actual_public_costs_cents).unwrap_or(i64::MAX)
}

/// §52-9 C, as a denial states it.
pub const APPEAL: &str = "A party aggrieved by the decision of the Board of Selectmen may \
     appeal under Rule 80B of the Maine Rules of Civil Procedure to the Superior Court (§52-9 C).";
