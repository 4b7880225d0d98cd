//! The decision: may this person be cited for this offence on these facts?
//!
//! [`decide`] is the one function every screen and server function asks. It never
//! guesses: each element of the offence (see [`Offence::elements`]) is checked
//! against what was recorded, and every element that is missing or contradicted
//! becomes a [`Finding`] naming its section in a sentence the officer can act on.

use serde::{Deserialize, Serialize};

use super::facts::{Facts, ProtectedActivity, Response};
use super::narrative::status_words;
use super::offence::{Element, Offence};
use super::time::{Moment, CLOCK_TOLERANCE_MS};
use super::{Penalty, Section};

/// One missing or contrary element.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Finding {
    pub section: Section,
    pub element: Element,
    /// Starts with the section: "§52-1 D: no refusal recorded — …".
    pub message: String,
}

impl Finding {
    fn new(offence: Offence, element: Element, text: &str) -> Finding {
        let section = element.section(offence);
        Finding {
            section,
            element,
            message: format!("{section}: {text}"),
        }
    }
}

/// Something that does not stop a citation but must reach the chief before the
/// case goes to court.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Caution {
    /// Expression was involved in a §52-2 or §52-3 case. §52-1 E does not reach
    /// those sections, but citing speech is constitutionally sensitive.
    ExpressionInvolved {
        offence: Offence,
        activity: ProtectedActivity,
    },
    /// The narrative leans on who the person is rather than what they did
    /// (Papachristou v. City of Jacksonville, 405 U.S. 156 (1972); City of Chicago
    /// v. Morales, 527 U.S. 41 (1999)).
    StatusWords { words: Vec<String> },
    /// The refusal is recorded before the time the officer allowed to comply had
    /// passed.
    RefusedBeforeTimeAllowed {
        minutes_allowed: u32,
        minutes_after_order: i64,
    },
}

impl Caution {
    pub fn message(&self) -> String {
        match self {
            Caution::ExpressionInvolved { offence, .. } => format!(
                "{}: expression of opinion was involved. §52-1 E does not cover this section, \
                 but the case needs the chief's review before it goes to court.",
                offence.reference()
            ),
            Caution::StatusWords { words } => format!(
                "The narrative uses status words ({}). Being homeless, young or in a group is \
                 no element of any offence: describe what the person did.",
                words.join(", ")
            ),
            Caution::RefusedBeforeTimeAllowed {
                minutes_allowed,
                minutes_after_order,
            } => format!(
                "§52-1 D: the refusal is recorded {minutes_after_order} min after the order, \
                 before the {minutes_allowed} min allowed to comply had passed."
            ),
        }
    }

    /// A short name for filters and badges.
    pub const fn kind(&self) -> &'static str {
        match self {
            Caution::ExpressionInvolved { .. } => "expression_involved",
            Caution::StatusWords { .. } => "status_words",
            Caution::RefusedBeforeTimeAllowed { .. } => "refused_before_time_allowed",
        }
    }
}

/// What the rules allow.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Every element is recorded: a citation may be issued, with this penalty.
    Citable {
        penalty: Penalty,
        /// §52-2: arrest, and the District Court.
        arrest_and_court: bool,
    },
    /// At least one element is missing or contradicted; each is listed.
    NotCitable { reasons: Vec<Finding> },
    /// §52-1 E: protected activity is outside §52-1 altogether.
    Excluded { activity: ProtectedActivity },
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Decision {
    pub offence: Offence,
    pub verdict: Verdict,
    pub cautions: Vec<Caution>,
}

impl Decision {
    pub const fn is_citable(&self) -> bool {
        matches!(self.verdict, Verdict::Citable { .. })
    }

    /// The reasons a citation cannot issue (empty when it can).
    pub fn reasons(&self) -> Vec<Finding> {
        match &self.verdict {
            Verdict::Citable { .. } => Vec::new(),
            Verdict::NotCitable { reasons } => reasons.clone(),
            Verdict::Excluded { .. } => vec![excluded_finding(self.offence)],
        }
    }

    /// One line for the officer and the chief: "§52-1 A(1), D: citable — $100.00 plus
    /// costs…" or the first reason.
    pub fn summary(&self) -> String {
        match &self.verdict {
            Verdict::Citable {
                penalty,
                arrest_and_court,
            } => {
                let arrest = if *arrest_and_court {
                    "; §52-2: arrest and bring before the District Court"
                } else {
                    ""
                };
                format!(
                    "{}: citable — {}{arrest}",
                    self.offence.reference(),
                    penalty.statement()
                )
            }
            Verdict::NotCitable { reasons } => match reasons.first() {
                Some(first) if reasons.len() == 1 => format!("Not citable — {}", first.message),
                Some(first) => format!(
                    "Not citable — {} (and {} more)",
                    first.message,
                    reasons.len() - 1
                ),
                None => "Not citable".to_owned(),
            },
            Verdict::Excluded { .. } => excluded_finding(self.offence).message,
        }
    }
}

fn excluded_finding(offence: Offence) -> Finding {
    Finding::new(
        offence,
        Element::NotProtectedExpression,
        "peaceful picketing, public speaking and other lawful expression of opinion are outside \
         §52-1 — no §52-1 citation can be issued; the incident is kept as protected activity, no action",
    )
}

/// Decides whether the person whose `response` is given may be cited for `offence`
/// on `facts`. `now` is the server's (or phone's) clock, for the rule that recorded
/// times cannot be in the future.
pub fn decide(facts: &Facts, response: Response, offence: Offence, now: Moment) -> Decision {
    let mut cautions = Vec::new();
    let words = status_words(&facts.narrative);
    if !words.is_empty() {
        cautions.push(Caution::StatusWords { words });
    }

    if facts.protected_activity.is_protected() {
        if offence.is_section_52_1() {
            return Decision {
                offence,
                verdict: Verdict::Excluded {
                    activity: facts.protected_activity,
                },
                cautions,
            };
        }
        cautions.insert(
            0,
            Caution::ExpressionInvolved {
                offence,
                activity: facts.protected_activity,
            },
        );
    }

    let mut reasons = Vec::new();
    conduct_elements(facts, offence, &mut reasons);
    if offence != Offence::DisturbingThePeace {
        order_and_refusal(facts, response, offence, now, &mut reasons, &mut cautions);
    }

    let verdict = if reasons.is_empty() {
        Verdict::Citable {
            penalty: offence.penalty(),
            arrest_and_court: offence.directs_arrest(),
        }
    } else {
        Verdict::NotCitable { reasons }
    };
    Decision {
        offence,
        verdict,
        cautions,
    }
}

/// The conduct elements: §52-1 A and B, §52-2's first sentence, §52-3.
fn conduct_elements(facts: &Facts, offence: Offence, reasons: &mut Vec<Finding>) {
    let c = &facts.conduct;
    let mut need = |ok: bool, element: Element, text: &str| {
        if !ok {
            reasons.push(Finding::new(offence, element, text));
        }
    };
    if offence.is_section_52_1() {
        need(
            c.remained_in_one_location,
            Element::Loitering,
            "loitering means remaining in essentially one location — record that the person stayed in one place",
        );
    }
    match offence {
        Offence::LoiteringObstruction => {
            need(
                facts.place.is_public_place(),
                Element::PublicStreetOrPlace,
                "the obstruction must be of a public street or public place (§52-1 C); the place recorded is a \
                 building or dwelling — if the person blocked the street or sidewalk, record that place",
            );
            need(
                c.passage.any(),
                Element::PassageObstructed,
                "record whose passage was hindered or impeded (or tended to be): pedestrians, vehicles or both",
            );
        }
        Offence::LoiteringInterference => {
            need(
                facts.place.is_public_place(),
                Element::PublicStreetOrPlace,
                "the act must be in or upon a public street or public place (§52-1 C); the place recorded is a \
                 building or dwelling",
            );
            need(
                c.interference.any(),
                Element::UseOrBusinessOrAccessObstructed,
                "record what was obstructed or interfered with: use of property, a lawful business, or ingress and egress",
            );
        }
        Offence::LoiteringDisturbance => {
            need(
                c.disturbance.disturbance_or_annoyance,
                Element::DisturbanceOrAnnoyance,
                "record the disturbance or annoyance the person created",
            );
            need(
                c.disturbance.discomfort_or_alarm,
                Element::DiscomfortOrAlarm,
                "record that it caused a person discomfort or alarm",
            );
            need(
                c.disturbance.person_lawfully_passing,
                Element::PersonLawfullyPassing,
                "record that the person disturbed was lawfully going in, to or from a building, dwelling or public place",
            );
        }
        Offence::GroupObstruction => {
            need(
                facts.place.is_street_or_sidewalk(),
                Element::StreetOrSidewalk,
                "applies only in a street or on a sidewalk",
            );
            need(
                c.group.persons_together >= 2,
                Element::TwoOrMorePersons,
                "needs two or more persons standing together or near each other — one person alone is not covered",
            );
            need(
                c.group.obstructs_free_passage,
                Element::FreePassageObstructed,
                "record that the group obstructed free passage",
            );
        }
        Offence::DisturbingThePeace => {
            need(
                facts.place.is_public_place(),
                Element::PublicStreetOrPlace,
                "applies in a street or public place (§52-1 C); the place recorded is a building or dwelling",
            );
            need(
                c.peace.any(),
                Element::PeaceConduct,
                "record the conduct: loud or unusual noise, improper or boisterous songs, obscene and indecent and \
                 profane songs or words, or an unruly or boisterous manner",
            );
            let only_manner = c.peace.unruly_or_boisterous_manner
                && !(c.peace.loud_or_unusual_noise
                    || c.peace.improper_or_boisterous_songs
                    || c.peace.obscene_indecent_and_profane);
            need(
                !only_manner || c.peace.disturbed_quiet_and_good_order,
                Element::QuietAndGoodOrderDisturbed,
                "an unruly or boisterous manner is an offence only when it disturbs the quiet and good order of the \
                 Town — record that it did",
            );
        }
    }
}

/// §52-1 D and §52-2's second sentence: the order, then the refusal.
fn order_and_refusal(
    facts: &Facts,
    response: Response,
    offence: Offence,
    now: Moment,
    reasons: &mut Vec<Finding>,
    cautions: &mut Vec<Caution>,
) {
    let latest_allowed = Moment(now.0 + CLOCK_TOLERANCE_MS);
    let order_element = if offence == Offence::GroupObstruction {
        Element::OrderToMoveOn
    } else {
        Element::OrderToStop
    };
    let Some(order) = &facts.order else {
        reasons.push(Finding::new(
            offence,
            order_element,
            "no order was recorded — the violation is failing or refusing to obey an order, so an order must \
             come first",
        ));
        return;
    };
    if order.words.trim().is_empty() {
        reasons.push(Finding::new(
            offence,
            order_element,
            "record the words of the order",
        ));
    }
    if order.given_at > latest_allowed {
        reasons.push(Finding::new(
            offence,
            order_element,
            "the time the order was given is in the future — check the time",
        ));
    }
    if offence == Offence::GroupObstruction && !order.move_on {
        reasons.push(Finding::new(
            offence,
            Element::OrderToMoveOn,
            "the order must be to move on — record that the persons were told to move on",
        ));
    }

    let refused = |text: &str| Finding::new(offence, Element::FailedOrRefused, text);
    match response {
        Response::NoOrder => reasons.push(refused(
            "no refusal recorded — record whether this person obeyed the order",
        )),
        Response::LeftBeforeOrder => reasons.push(refused(
            "the person left before an order could be given — no violation",
        )),
        Response::Complied { .. } => reasons.push(refused(
            "no refusal recorded — a person who complied has committed no violation",
        )),
        Response::Refused { at, .. } => {
            if at > latest_allowed {
                reasons.push(refused(
                    "the time of the refusal is in the future — check the time",
                ));
            } else if at < order.given_at {
                reasons.push(refused(
                    "the refusal is recorded before the order was given — a person can only refuse an order \
                     already given; check both times",
                ));
            } else if at < order.given_at.plus_minutes(order.minutes_to_comply) {
                cautions.push(Caution::RefusedBeforeTimeAllowed {
                    minutes_allowed: order.minutes_to_comply,
                    minutes_after_order: at.minutes_since(order.given_at),
                });
            }
        }
    }
}

/// The offences whose conduct is recorded, among those offered (§52-1 E): what the
/// form suggests once the officer has said what was happening.
pub fn suggested_offences(facts: &Facts) -> Vec<Offence> {
    let c = &facts.conduct;
    Offence::offered(facts.protected_activity)
        .into_iter()
        .filter(|offence| match offence {
            Offence::LoiteringObstruction => c.passage.any(),
            Offence::LoiteringInterference => c.interference.any(),
            Offence::LoiteringDisturbance => c.disturbance.any(),
            Offence::GroupObstruction => c.group.obstructs_free_passage,
            Offence::DisturbingThePeace => c.peace.any(),
        })
        .collect()
}
