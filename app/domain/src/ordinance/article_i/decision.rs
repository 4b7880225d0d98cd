//! The decision: may this person be cited for this offence on their own facts?
//!
//! [`decide`] is the one function every screen and server function asks. It reads
//! the incident's [`Scene`] and one person's [`PersonFacts`] — never another
//! person's. Each element of the offence (see [`Offence::elements`]) is checked
//! against what was recorded for that person, and every element that is missing
//! or contradicted becomes a [`Finding`] naming its section in a sentence the
//! officer can act on.

use serde::{Deserialize, Serialize};

pub use super::caution::Caution;
use super::facts::{
    PeaceProng, PersonFacts, PlaceType, ProtectedActivity, RefusalManner, Response, Scene,
};
use super::offence::{Element, Offence};
use super::timing::{self, TimeProblem};
use crate::ordinance::time::Moment;
use crate::ordinance::{Penalty, Section};

/// One missing or contrary element.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Finding {
    pub section: Section,
    pub element: Element,
    /// Starts with the section: "§52-1 D: no refusal recorded — …".
    pub message: String,
}

impl Finding {
    pub(crate) fn new(offence: Offence, element: Element, text: &str) -> Finding {
        let section = element.section(offence);
        Finding {
            section,
            element,
            message: format!("{section}: {text}"),
        }
    }
}

/// What the rules allow.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Every element is recorded in the person's own facts: a citation may be
    /// issued, with this penalty.
    Citable { penalty: Penalty },
    /// At least one element is missing or contradicted; each is listed.
    NotCitable { reasons: Vec<Finding> },
    /// §52-1 E: this person's protected activity is outside §52-1 altogether.
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
            Verdict::Citable { penalty } => {
                let arrest = if self.offence.permits_arrest() {
                    "; §52-2 permits an arrest, to bring the person before the District Court"
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
        "this person was picketing peacefully, speaking publicly or otherwise lawfully expressing an \
         opinion, which is outside §52-1 — no §52-1 citation can be issued to them; they are recorded as \
         protected activity, no action",
    )
}

/// Decides whether `person` may be cited for `offence`, on the scene and their
/// own facts. `now` is the server's (or phone's) clock, for the rule that recorded
/// times cannot be in the future.
pub fn decide(scene: &Scene, person: &PersonFacts, offence: Offence, now: Moment) -> Decision {
    let cautions = decision_cautions(person, offence);
    let activity = person.protected_activity;
    if activity.is_protected() && offence.is_section_52_1() {
        return Decision {
            offence,
            verdict: Verdict::Excluded { activity },
            cautions,
        };
    }

    let mut reasons = Vec::new();
    expression_elements(person, offence, &mut reasons);
    conduct_elements(scene, person, offence, &mut reasons);
    if offence.needs_order() {
        order_and_refusal(scene, person, offence, now, &mut reasons);
    }

    let verdict = if reasons.is_empty() {
        Verdict::Citable {
            penalty: offence.penalty(),
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

/// The cautions a decision on `offence` carries for the chief, whatever its
/// verdict: expression (§52-1 E), the word "annoyance" (§52-1 A(3)), speech
/// (§52-3), an arrest for an offence punishable by a fine only (§52-2, §52-4).
fn decision_cautions(person: &PersonFacts, offence: Offence) -> Vec<Caution> {
    let mut cautions = Vec::new();
    let activity = person.protected_activity;
    if activity == ProtectedActivity::UnlawfulExpression {
        cautions.push(Caution::ExpressionContravening {
            offence,
            law: person.law_contravened().unwrap_or_default().to_owned(),
        });
    } else if activity.is_protected() && !offence.is_section_52_1() {
        cautions.push(Caution::ExpressionInvolved { offence, activity });
    }
    if offence == Offence::LoiteringDisturbance {
        cautions.push(Caution::AnnoyanceBasis);
    }
    if offence == Offence::DisturbingThePeace {
        let speech: Vec<PeaceProng> = person
            .conduct
            .peace
            .prongs()
            .into_iter()
            .filter(|p| p.is_speech())
            .collect();
        if !speech.is_empty() {
            cautions.push(Caution::SpeechBasis { prongs: speech });
        }
    }
    if offence.permits_arrest() && person.arrested {
        cautions.push(Caution::ArrestFineOnly);
    }
    cautions
}

/// §52-1 E's proviso: expression in contravention of another law is not
/// shielded, but only once that law is named.
fn expression_elements(person: &PersonFacts, offence: Offence, reasons: &mut Vec<Finding>) {
    if offence.is_section_52_1()
        && person.protected_activity == ProtectedActivity::UnlawfulExpression
        && person.law_contravened().is_none()
    {
        reasons.push(Finding::new(
            offence,
            Element::NotProtectedExpression,
            "the person was expressing an opinion: name the Town ordinance or State or Federal law (with its \
             section) the expression contravened — without it the exclusion stands and §52-1 does not apply",
        ));
    }
}

/// The findings of one offence's elements, each pushed when its fact is missing.
struct Needs<'a> {
    offence: Offence,
    reasons: &'a mut Vec<Finding>,
}

impl Needs<'_> {
    fn need(&mut self, ok: bool, element: Element, text: &str) {
        if !ok {
            self.reasons.push(Finding::new(self.offence, element, text));
        }
    }
}

/// The conduct elements: §52-1 A and B, §52-2's first sentence, §52-3, §52-7 —
/// each read from this person's conduct, and where this person was.
fn conduct_elements(
    scene: &Scene,
    person: &PersonFacts,
    offence: Offence,
    reasons: &mut Vec<Finding>,
) {
    let mut needs = Needs { offence, reasons };
    if offence.is_section_52_1() {
        needs.need(
            person.conduct.remained_in_one_location,
            Element::Loitering,
            "loitering means remaining in essentially one location — record that this person stayed in one place",
        );
    }
    let place = person.place_in(scene);
    match offence {
        Offence::LoiteringObstruction => passage_elements(person, &mut needs),
        Offence::LoiteringInterference => interference_elements(person, place, &mut needs),
        Offence::LoiteringDisturbance => disturbance_elements(person, &mut needs),
        Offence::GroupObstruction => group_elements(person, place, &mut needs),
        Offence::UnpermittedMassGathering => gathering_elements(scene, person, &mut needs),
        Offence::DisturbingThePeace => peace_elements(person, place, &mut needs),
    }
}

/// §52-1 A(1): passage hindered, of a *public* street or place.
fn passage_elements(person: &PersonFacts, needs: &mut Needs) {
    let passage = person.conduct.passage;
    needs.need(
        passage.any(),
        Element::PassageObstructed,
        "record whose passage this person hindered or impeded (or tended to): pedestrians, vehicles or both",
    );
    if passage.any() {
        needs.need(
            passage.place.is_some_and(|p| p.is_public_place()),
            Element::ObstructedPlaceIsPublic,
            match passage.place {
                None => "record the street or place whose passage was obstructed",
                Some(_) => {
                    "the street or place obstructed must be public (§52-1 C); a building or dwelling \
                     is not — if the person blocked the sidewalk or street in front of it, record that"
                }
            },
        );
    }
}

/// §52-1 A(2): in or upon a public street or place, an interference.
fn interference_elements(person: &PersonFacts, place: PlaceType, needs: &mut Needs) {
    needs.need(
        place.is_public_place(),
        Element::PublicStreetOrPlace,
        "the act must be in or upon a public street or public place (§52-1 C); the place recorded for this \
         person is a building or dwelling",
    );
    needs.need(
        person.conduct.interference.any(),
        Element::UseOrBusinessOrAccessObstructed,
        "record what this person obstructed or interfered with: use of property, a lawful business, or \
         ingress and egress",
    );
}

/// §52-1 A(3): the disturbance or annoyance, the discomfort or alarm, the
/// person lawfully passing.
fn disturbance_elements(person: &PersonFacts, needs: &mut Needs) {
    let d = person.conduct.disturbance;
    needs.need(
        d.disturbance_or_annoyance,
        Element::DisturbanceOrAnnoyance,
        "record the disturbance or annoyance this person created",
    );
    needs.need(
        d.discomfort_or_alarm,
        Element::DiscomfortOrAlarm,
        "record that it caused a person discomfort or alarm",
    );
    needs.need(
        d.person_lawfully_passing,
        Element::PersonLawfullyPassing,
        "record that the person disturbed was lawfully going in, to or from a building, dwelling or public place",
    );
}

/// §52-2's first sentence: two or more persons, in a street or on a sidewalk,
/// obstructing free passage.
fn group_elements(person: &PersonFacts, place: PlaceType, needs: &mut Needs) {
    let group = &person.conduct.group;
    needs.need(
        place.is_street_or_sidewalk(),
        Element::StreetOrSidewalk,
        "applies only in a street or on a sidewalk",
    );
    needs.need(
        group.persons_together() >= 2,
        Element::TwoOrMorePersons,
        "needs two or more persons standing together or near each other — record who this person stood \
         with; one person alone is not covered",
    );
    needs.need(
        group.obstructs_free_passage,
        Element::FreePassageObstructed,
        "record that this person's group obstructed free passage",
    );
}

/// §52-7, on the gathering's facts (Article II's own rules).
fn gathering_elements(scene: &Scene, person: &PersonFacts, needs: &mut Needs) {
    use crate::ordinance::article_ii::enforcement::{missing_elements, Missing};
    for (missing, _, text) in missing_elements(scene.gathering.as_ref(), person.conduct.gathering) {
        let element = match missing {
            Missing::Conduct => Element::ConductedGathering,
            Missing::MassGathering => Element::MassGathering,
            Missing::GatheringArea => Element::MassGatheringArea,
            Missing::Permit => Element::WithoutPermit,
        };
        needs.need(false, element, &text);
    }
}

/// §52-3: in a street or public place, one of the section's kinds of conduct,
/// disturbing the quiet and good order of the Town.
fn peace_elements(person: &PersonFacts, place: PlaceType, needs: &mut Needs) {
    let p = person.conduct.peace;
    needs.need(
        place.is_public_place(),
        Element::PublicStreetOrPlace,
        "applies in a street or public place (§52-1 C); the place recorded for this person is a building or \
         dwelling",
    );
    let partial_words = (p.obscene || p.indecent || p.profane) && !p.obscene_indecent_and_profane();
    needs.need(
        !p.prongs().is_empty(),
        Element::PeaceConduct,
        if partial_words {
            "the words prong needs songs or words that are obscene and indecent and profane — all three; \
             record each, or record the conduct another way"
        } else {
            "record what this person did: loud or unusual noise, improper or boisterous songs, obscene \
             and indecent and profane songs or words, or an unruly or boisterous manner"
        },
    );
    needs.need(
        p.disturbed_quiet_and_good_order,
        Element::QuietAndGoodOrderDisturbed,
        "the conduct is an offence only when it disturbs the quiet and good order of the Town — record \
         that it did",
    );
}

/// §52-1 D and §52-2's second sentence: the order this person received, then
/// their failure or refusal to obey it, in time.
fn order_and_refusal(
    scene: &Scene,
    person: &PersonFacts,
    offence: Offence,
    now: Moment,
    reasons: &mut Vec<Finding>,
) {
    let order_element = if offence == Offence::GroupObstruction {
        Element::OrderToMoveOn
    } else {
        Element::OrderToStop
    };
    let Some(order) = person.order_in(scene) else {
        reasons.push(Finding::new(
            offence,
            order_element,
            "no order to this person is recorded — the violation is failing or refusing to obey an order, so \
             an order must come first",
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
    for problem in timing::scene_problems(scene, now) {
        if matches!(
            problem,
            TimeProblem::OrderBeforeIncident { order: i } | TimeProblem::InFuture { field: timing::TimeField::Order(i) }
                if Some(i) == person.order
        ) {
            reasons.push(Finding::new(offence, order_element, &problem.text()));
        }
    }
    if offence == Offence::GroupObstruction && !order.move_on {
        reasons.push(Finding::new(
            offence,
            Element::OrderToMoveOn,
            "the order must be to move on — record that the person was told to move on",
        ));
    }

    let refused = |text: &str| Finding::new(offence, Element::FailedOrRefused, text);
    match person.response {
        Response::NoOrder | Response::LeftBeforeOrder => reasons.push(refused(
            "no response to the order is recorded — record whether this person obeyed it",
        )),
        Response::Complied { .. } => reasons.push(refused(
            "no refusal recorded — a person who complied has committed no violation",
        )),
        Response::Refused { manner, .. } => {
            if manner == RefusalManner::Returned {
                reasons.push(refused(
                    "coming back is not by itself a failure to obey — record that the person came back and \
                     resumed the conduct the order stopped, or record no refusal",
                ));
            }
            for problem in timing::response_problems(Some(order), person.response, now) {
                reasons.push(refused(&problem.text()));
            }
        }
    }
}

/// The offences whose conduct this person's facts show, among those offered to
/// them (§52-1 E): what the form suggests once the officer has said what they did.
pub fn suggested_offences(person: &PersonFacts) -> Vec<Offence> {
    let c = &person.conduct;
    Offence::offered(person.protected_activity)
        .into_iter()
        .filter(|offence| match offence {
            Offence::LoiteringObstruction => c.passage.any(),
            Offence::LoiteringInterference => c.interference.any(),
            Offence::LoiteringDisturbance => c.disturbance.any(),
            Offence::GroupObstruction => c.group.obstructs_free_passage,
            Offence::DisturbingThePeace => c.peace.any(),
            Offence::UnpermittedMassGathering => false,
        })
        .collect()
}
