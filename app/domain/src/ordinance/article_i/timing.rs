//! The time rules: an order, then the chance to obey it, then the refusal — all
//! within one incident, none in the future.
//!
//! §52-1 D punishes a person who "fails or refuses to obey" an order, and §52-2 one
//! who "does not obey" the order to move on. Neither says how long an order
//! lasts or how long a person has to obey; these are the department's readings,
//! each one written beside the rule that makes it:
//!
//! - An order comes within its incident: not before the incident began
//!   ([`TimeProblem::OrderBeforeIncident`]), and a response comes after the order
//!   it answers ([`TimeProblem::ResponseBeforeOrder`]).
//! - Failing to obey needs the chance to obey: a person who stays put has failed
//!   only once the time the officer allowed has passed
//!   ([`TimeProblem::RefusedWithinTimeAllowed`]), and never within the order's own
//!   minute, even when the officer allowed no time
//!   ([`TimeProblem::FailedInTheOrdersMinute`],
//!   [`DispersalOrder::failure_counts_from`]). An outright refusal — saying no,
//!   acting against the order, coming back to the conduct it stopped — is a
//!   refusal at once ([`RefusalManner::is_outright`]).
//! - An order does not last for ever: a refusal more than
//!   [`ORDER_LAPSES_AFTER_MINUTES`] after the time to comply ended answers no
//!   order; the officer gives a new one ([`TimeProblem::OrderLapsed`]). So coming
//!   back the next day is not a refusal of yesterday's order. A compliance is no
//!   violation whenever it came: the lapse concerns refusals only.
//! - Nothing recorded is in the future ([`crate::ordinance::time::CLOCK_TOLERANCE_MS`]).
//!
//! Every report must pass these rules, whether or not anyone is cited: a record
//! whose refusal comes before its order is impossible, and the dashboard's
//! compliance figures count every report.

use serde::{Deserialize, Serialize};

use super::facts::{DispersalOrder, PersonFacts, RefusalManner, Response, Scene};
use super::offence::Offence;
use crate::ordinance::time::{is_future, Moment};
use crate::ordinance::Section;

/// Minutes after the time to comply has ended beyond which an order no longer
/// counts: a later response needs a new order (the department's reading).
pub const ORDER_LAPSES_AFTER_MINUTES: u32 = 60;

/// Where a time problem lies, so a screen can put it beside its field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeField {
    /// When the incident began.
    Incident,
    /// When the order (by position) was given.
    Order(usize),
    /// When the person responded.
    Response,
}

/// A time that breaks a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
pub enum TimeProblem {
    InFuture {
        field: TimeField,
    },
    /// The order is timed before the incident began.
    OrderBeforeIncident {
        order: usize,
    },
    /// The response is timed before the order it answers.
    ResponseBeforeOrder,
    /// A failure to obey (not an outright refusal) recorded before the time
    /// allowed to comply had passed.
    RefusedWithinTimeAllowed {
        minutes_allowed: u32,
        minutes_after_order: i64,
    },
    /// A failure to obey (not an outright refusal) recorded in the minute the
    /// order was given, with no time allowed: no chance to obey.
    FailedInTheOrdersMinute,
    /// The response came so long after the time to comply ended that the order
    /// no longer counts.
    OrderLapsed {
        minutes_after_order: i64,
    },
}

impl TimeProblem {
    pub const fn field(self) -> TimeField {
        match self {
            TimeProblem::InFuture { field } => field,
            TimeProblem::OrderBeforeIncident { order } => TimeField::Order(order),
            TimeProblem::ResponseBeforeOrder
            | TimeProblem::RefusedWithinTimeAllowed { .. }
            | TimeProblem::FailedInTheOrdersMinute
            | TimeProblem::OrderLapsed { .. } => TimeField::Response,
        }
    }

    /// What is wrong and what to do, without a section: a decision puts the
    /// section of the offence's element in front.
    pub fn text(self) -> String {
        match self {
            TimeProblem::InFuture { field } => format!(
                "the time {} is in the future — check the time",
                match field {
                    TimeField::Incident => "of the incident",
                    TimeField::Order(_) => "the order was given",
                    TimeField::Response => "of the response",
                }
            ),
            TimeProblem::OrderBeforeIncident { .. } => {
                "the order is timed before the incident began — an order counts only within its \
                 incident; check both times"
                    .to_owned()
            }
            TimeProblem::ResponseBeforeOrder => {
                "the response is timed before the order — a person can only obey or refuse an order \
                 already given; check both times"
                    .to_owned()
            }
            TimeProblem::RefusedWithinTimeAllowed {
                minutes_allowed,
                minutes_after_order,
            } => format!(
                "recorded {minutes_after_order} min after the order, inside the {minutes_allowed} min \
                 allowed to comply — the person may still comply. Failing to obey needs the chance to \
                 obey: record the time the person was still not obeying once the time allowed had \
                 passed, or “{}” if they said no",
                RefusalManner::RefusedVerbally.label()
            ),
            TimeProblem::FailedInTheOrdersMinute => format!(
                "recorded in the minute the order was given — failing to obey needs the chance to obey, \
                 even when the order was to comply at once. Record the time the person was still not \
                 obeying after that minute, or “{}” or “{}” if they refused outright",
                RefusalManner::RefusedVerbally.label(),
                RefusalManner::ActedAgainstOrder.label()
            ),
            TimeProblem::OrderLapsed {
                minutes_after_order,
            } => format!(
                "the response is {minutes_after_order} min after the order, more than \
                 {ORDER_LAPSES_AFTER_MINUTES} min after the time to comply ended — that order no longer \
                 counts; give a new order and record it"
            ),
        }
    }

    /// The problem as a field error on the report: the order rules are §52-1 D's
    /// (and §52-2's, whose order works the same way).
    pub fn message(self) -> String {
        self.message_under(Section::S52_1D)
    }

    /// The problem as a field error on a person charged under `section`: a person
    /// charged only under §52-2 ("did not obey the order to move on") is told the
    /// rule under §52-2, not §52-1 D (#35).
    pub fn message_under(self, section: Section) -> String {
        let text = self.text();
        let mut chars = text.chars();
        let capitalised: String = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        match self {
            TimeProblem::InFuture { .. } => format!("{capitalised}."),
            _ => format!("{section}: {text}."),
        }
    }
}

/// Whose order a person's response answers, for the section its time problems
/// name: §52-2's order to move on for a person charged under §52-2 and under no
/// prong of §52-1; otherwise §52-1 D's (the order is one; see `message_under`).
pub fn order_section(charged: &[Offence]) -> Section {
    let under_52_2 = charged.contains(&Offence::GroupObstruction);
    if under_52_2 && !charged.iter().any(|o| o.is_section_52_1()) {
        Section::S52_2
    } else {
        Section::S52_1D
    }
}

/// The time problems of the incident itself and its orders.
pub fn scene_problems(scene: &Scene, now: Moment) -> Vec<TimeProblem> {
    let mut out = Vec::new();
    if is_future(scene.started_at, now) {
        out.push(TimeProblem::InFuture {
            field: TimeField::Incident,
        });
    }
    for (i, order) in scene.orders.iter().enumerate() {
        if is_future(order.given_at, now) {
            out.push(TimeProblem::InFuture {
                field: TimeField::Order(i),
            });
        } else if order.given_at < scene.started_at {
            out.push(TimeProblem::OrderBeforeIncident { order: i });
        }
    }
    out
}

/// The time problems of one person's response to the order they received.
pub fn response_problems(
    order: Option<&DispersalOrder>,
    response: Response,
    now: Moment,
) -> Vec<TimeProblem> {
    let Some(at) = response.at() else {
        return Vec::new();
    };
    if is_future(at, now) {
        return vec![TimeProblem::InFuture {
            field: TimeField::Response,
        }];
    }
    let Some(order) = order else {
        // A response without an order is a different error (the order is
        // missing), named where the order is checked.
        return Vec::new();
    };
    let minutes_after_order = at.minutes_since(order.given_at);
    if at < order.given_at {
        return vec![TimeProblem::ResponseBeforeOrder];
    }
    let Response::Refused { manner, .. } = response else {
        // A compliance is no violation whenever it came: a late "complied" is a
        // fact to record, not an error.
        return Vec::new();
    };
    if at > order.comply_by().plus_minutes(ORDER_LAPSES_AFTER_MINUTES) {
        return vec![TimeProblem::OrderLapsed {
            minutes_after_order,
        }];
    }
    if manner.needs_a_chance() && at < order.failure_counts_from() {
        return vec![if at < order.comply_by() {
            TimeProblem::RefusedWithinTimeAllowed {
                minutes_allowed: order.minutes_to_comply,
                minutes_after_order,
            }
        } else {
            TimeProblem::FailedInTheOrdersMinute
        }];
    }
    Vec::new()
}

/// Every time problem of one person, with the scene's.
pub fn person_problems(scene: &Scene, person: &PersonFacts, now: Moment) -> Vec<TimeProblem> {
    let mut out = scene_problems(scene, now);
    out.extend(response_problems(
        person.order_in(scene),
        person.response,
        now,
    ));
    out
}
