//! Table-driven tests: every offence × every element present or missing ×
//! protected activity yes/no × every kind of response, each asserting the exact
//! verdict and the sections it cites.
//!
//! The expected sections are written out here by hand, not taken from
//! `Element::section`, so a wrong mapping in the rules fails these tests.

use super::*;

const ORDER_AT: Moment = Moment(1_780_000_000_000);
const NOW: Moment = Moment(1_780_000_000_000 + 3_600_000);
const MINUTES_TO_COMPLY: u32 = 2;

/// Facts on which every offence is citable (given a valid refusal).
fn complete_facts() -> Facts {
    Facts {
        place: PlaceType::Sidewalk,
        protected_activity: ProtectedActivity::None,
        conduct: Conduct {
            remained_in_one_location: true,
            passage: PassageObstruction {
                pedestrians: true,
                vehicles: false,
            },
            interference: Interference {
                use_of_property: false,
                lawful_business: true,
                ingress_egress: false,
            },
            disturbance: Disturbance {
                disturbance_or_annoyance: true,
                discomfort_or_alarm: true,
                person_lawfully_passing: true,
            },
            group: GroupObstruction {
                persons_together: 3,
                obstructs_free_passage: true,
            },
            peace: PeaceDisturbance {
                loud_or_unusual_noise: true,
                ..PeaceDisturbance::default()
            },
        },
        order: Some(DispersalOrder {
            words: "Stop blocking the sidewalk and move on.".into(),
            given_at: ORDER_AT,
            move_on: true,
            minutes_to_comply: MINUTES_TO_COMPLY,
        }),
        narrative:
            "Stood across the sidewalk in front of the store; pedestrians stepped into the road."
                .into(),
    }
}

/// One way to take an element away, with the section the finding must cite.
struct Missing {
    name: &'static str,
    element: Element,
    section: Section,
    apply: fn(&mut Facts),
}

fn no_loitering(f: &mut Facts) {
    f.conduct.remained_in_one_location = false;
}
fn at_a_dwelling(f: &mut Facts) {
    f.place = PlaceType::AboutBuildingOrDwelling;
}
fn in_a_park(f: &mut Facts) {
    f.place = PlaceType::Park;
}
fn no_passage(f: &mut Facts) {
    f.conduct.passage = PassageObstruction::default();
}
fn no_interference(f: &mut Facts) {
    f.conduct.interference = Interference::default();
}
fn no_annoyance(f: &mut Facts) {
    f.conduct.disturbance.disturbance_or_annoyance = false;
}
fn no_alarm(f: &mut Facts) {
    f.conduct.disturbance.discomfort_or_alarm = false;
}
fn nobody_passing(f: &mut Facts) {
    f.conduct.disturbance.person_lawfully_passing = false;
}
fn one_person(f: &mut Facts) {
    f.conduct.group.persons_together = 1;
}
fn group_not_obstructing(f: &mut Facts) {
    f.conduct.group.obstructs_free_passage = false;
}
fn no_peace_conduct(f: &mut Facts) {
    f.conduct.peace = PeaceDisturbance::default();
}
fn manner_without_disturbance(f: &mut Facts) {
    f.conduct.peace = PeaceDisturbance {
        unruly_or_boisterous_manner: true,
        ..PeaceDisturbance::default()
    };
}
fn no_order(f: &mut Facts) {
    f.order = None;
}
fn order_without_words(f: &mut Facts) {
    if let Some(o) = f.order.as_mut() {
        o.words = "   ".into();
    }
}
fn order_in_future(f: &mut Facts) {
    if let Some(o) = f.order.as_mut() {
        o.given_at = NOW.plus_minutes(60);
    }
}
fn order_without_move_on(f: &mut Facts) {
    if let Some(o) = f.order.as_mut() {
        o.move_on = false;
    }
}

/// The elements of each offence that the facts carry (the response and §52-1 E are
/// their own dimensions below).
fn missing_cases(offence: Offence) -> Vec<Missing> {
    use Element as E;
    use Section as S;
    let m = |name, element, section, apply| Missing {
        name,
        element,
        section,
        apply,
    };
    match offence {
        Offence::LoiteringObstruction => vec![
            m("loitering", E::Loitering, S::S52_1B, no_loitering),
            m(
                "public place",
                E::PublicStreetOrPlace,
                S::S52_1A1,
                at_a_dwelling,
            ),
            m("passage", E::PassageObstructed, S::S52_1A1, no_passage),
            m("order", E::OrderToStop, S::S52_1D, no_order),
            m(
                "order words",
                E::OrderToStop,
                S::S52_1D,
                order_without_words,
            ),
            m("order time", E::OrderToStop, S::S52_1D, order_in_future),
        ],
        Offence::LoiteringInterference => vec![
            m("loitering", E::Loitering, S::S52_1B, no_loitering),
            m(
                "public place",
                E::PublicStreetOrPlace,
                S::S52_1A2,
                at_a_dwelling,
            ),
            m(
                "interference",
                E::UseOrBusinessOrAccessObstructed,
                S::S52_1A2,
                no_interference,
            ),
            m("order", E::OrderToStop, S::S52_1D, no_order),
            m(
                "order words",
                E::OrderToStop,
                S::S52_1D,
                order_without_words,
            ),
            m("order time", E::OrderToStop, S::S52_1D, order_in_future),
        ],
        Offence::LoiteringDisturbance => vec![
            m("loitering", E::Loitering, S::S52_1B, no_loitering),
            m(
                "annoyance",
                E::DisturbanceOrAnnoyance,
                S::S52_1A3,
                no_annoyance,
            ),
            m("alarm", E::DiscomfortOrAlarm, S::S52_1A3, no_alarm),
            m(
                "person passing",
                E::PersonLawfullyPassing,
                S::S52_1A3,
                nobody_passing,
            ),
            m("order", E::OrderToStop, S::S52_1D, no_order),
            m(
                "order words",
                E::OrderToStop,
                S::S52_1D,
                order_without_words,
            ),
            m("order time", E::OrderToStop, S::S52_1D, order_in_future),
        ],
        Offence::GroupObstruction => vec![
            m(
                "street or sidewalk",
                E::StreetOrSidewalk,
                S::S52_2,
                in_a_park,
            ),
            m("two persons", E::TwoOrMorePersons, S::S52_2, one_person),
            m(
                "free passage",
                E::FreePassageObstructed,
                S::S52_2,
                group_not_obstructing,
            ),
            m("order", E::OrderToMoveOn, S::S52_2, no_order),
            m(
                "order words",
                E::OrderToMoveOn,
                S::S52_2,
                order_without_words,
            ),
            m("order time", E::OrderToMoveOn, S::S52_2, order_in_future),
            m("move on", E::OrderToMoveOn, S::S52_2, order_without_move_on),
        ],
        Offence::DisturbingThePeace => vec![
            m(
                "public place",
                E::PublicStreetOrPlace,
                S::S52_3,
                at_a_dwelling,
            ),
            m("conduct", E::PeaceConduct, S::S52_3, no_peace_conduct),
            m(
                "quiet disturbed",
                E::QuietAndGoodOrderDisturbed,
                S::S52_3,
                manner_without_disturbance,
            ),
        ],
    }
}

#[derive(Clone, Copy, Debug)]
enum ResponseCase {
    NoOrder,
    Left,
    Complied,
    RefusedAfterTimeAllowed,
    RefusedWithinTimeAllowed,
    RefusedBeforeOrder,
    RefusedInFuture,
}

const RESPONSES: [ResponseCase; 7] = [
    ResponseCase::NoOrder,
    ResponseCase::Left,
    ResponseCase::Complied,
    ResponseCase::RefusedAfterTimeAllowed,
    ResponseCase::RefusedWithinTimeAllowed,
    ResponseCase::RefusedBeforeOrder,
    ResponseCase::RefusedInFuture,
];

impl ResponseCase {
    fn response(self) -> Response {
        let manner = RefusalManner::StayedInPlace;
        match self {
            ResponseCase::NoOrder => Response::NoOrder,
            ResponseCase::Left => Response::LeftBeforeOrder,
            ResponseCase::Complied => Response::Complied {
                at: ORDER_AT.plus_minutes(1),
            },
            ResponseCase::RefusedAfterTimeAllowed => Response::Refused {
                at: ORDER_AT.plus_minutes(MINUTES_TO_COMPLY + 1),
                manner,
            },
            ResponseCase::RefusedWithinTimeAllowed => Response::Refused {
                at: ORDER_AT.plus_minutes(1),
                manner,
            },
            ResponseCase::RefusedBeforeOrder => Response::Refused {
                at: Moment(ORDER_AT.0 - 60_000),
                manner,
            },
            ResponseCase::RefusedInFuture => Response::Refused {
                at: NOW.plus_minutes(30),
                manner,
            },
        }
    }

    /// Whether this response, on its own, is a valid refusal of the order.
    fn is_valid_refusal(self) -> bool {
        matches!(
            self,
            ResponseCase::RefusedAfterTimeAllowed | ResponseCase::RefusedWithinTimeAllowed
        )
    }
}

fn refusal_section(offence: Offence) -> Section {
    match offence {
        Offence::GroupObstruction => Section::S52_2,
        _ => Section::S52_1D,
    }
}

/// The findings the rules must give, as (element, section), for one case.
fn expected_findings(
    offence: Offence,
    missing: Option<&Missing>,
    response: ResponseCase,
) -> Vec<(Element, Section)> {
    let mut expected = Vec::new();
    if let Some(m) = missing {
        expected.push((m.element, m.section));
    }
    let order_absent = missing.is_some_and(|m| m.name == "order");
    // An order moved into the future comes after every recorded refusal.
    let order_later = missing.is_some_and(|m| m.name == "order time");
    let needs_refusal = offence != Offence::DisturbingThePeace;
    if needs_refusal && !order_absent && (order_later || !response.is_valid_refusal()) {
        expected.push((Element::FailedOrRefused, refusal_section(offence)));
    }
    expected
}

fn findings_of(decision: &Decision) -> Vec<(Element, Section)> {
    match &decision.verdict {
        Verdict::NotCitable { reasons } => reasons.iter().map(|r| (r.element, r.section)).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn every_offence_element_protection_and_response_gives_the_exact_verdict() {
    let mut cases = 0;
    for offence in Offence::ALL {
        let variants: Vec<Option<Missing>> = std::iter::once(None)
            .chain(missing_cases(offence).into_iter().map(Some))
            .collect();
        for missing in &variants {
            for activity in ProtectedActivity::ALL {
                for response in RESPONSES {
                    cases += 1;
                    let mut facts = complete_facts();
                    facts.protected_activity = activity;
                    if let Some(m) = missing {
                        (m.apply)(&mut facts);
                    }
                    let decision = decide(&facts, response.response(), offence, NOW);
                    let label = format!(
                        "{} missing={:?} protected={activity:?} response={response:?}",
                        offence.code(),
                        missing.as_ref().map(|m| m.name)
                    );
                    assert_eq!(decision.offence, offence, "{label}");

                    if activity.is_protected() && offence.is_section_52_1() {
                        assert_eq!(decision.verdict, Verdict::Excluded { activity }, "{label}");
                        let reasons = decision.reasons();
                        assert_eq!(reasons.len(), 1, "{label}");
                        assert_eq!(reasons[0].section, Section::S52_1E, "{label}");
                        continue;
                    }

                    let expected = expected_findings(offence, missing.as_ref(), response);
                    if expected.is_empty() {
                        assert_eq!(
                            decision.verdict,
                            Verdict::Citable {
                                penalty: Penalty::ARTICLE_I,
                                arrest_and_court: offence == Offence::GroupObstruction,
                            },
                            "{label}"
                        );
                    } else {
                        assert_eq!(findings_of(&decision), expected, "{label}");
                    }
                    for reason in decision.reasons() {
                        assert!(
                            reason.message.starts_with(&format!("{}: ", reason.section)),
                            "{label}: message must start with its section: {}",
                            reason.message
                        );
                    }

                    let expression = decision
                        .cautions
                        .iter()
                        .any(|c| matches!(c, Caution::ExpressionInvolved { .. }));
                    assert_eq!(expression, activity.is_protected(), "{label}");
                    let early = decision
                        .cautions
                        .iter()
                        .any(|c| matches!(c, Caution::RefusedBeforeTimeAllowed { .. }));
                    let order_usable = missing
                        .as_ref()
                        .is_none_or(|m| m.name != "order" && m.name != "order time");
                    assert_eq!(
                        early,
                        offence != Offence::DisturbingThePeace
                            && order_usable
                            && matches!(response, ResponseCase::RefusedWithinTimeAllowed),
                        "{label}"
                    );
                }
            }
        }
    }
    // 5 offences; (1 + 6 + 6 + 7 + 8 + 3) fact variants; 4 answers to §52-1 E; 7 responses.
    assert_eq!(cases, (1 + 6 + 1 + 6 + 1 + 7 + 1 + 7 + 1 + 3) * 4 * 7);
}

#[test]
fn complied_after_the_order_is_no_violation_in_the_words_of_section_52_1_d() {
    let facts = complete_facts();
    let d = decide(
        &facts,
        ResponseCase::Complied.response(),
        Offence::LoiteringObstruction,
        NOW,
    );
    assert_eq!(
        d.reasons()
            .iter()
            .map(|r| r.message.as_str())
            .collect::<Vec<_>>(),
        vec!["§52-1 D: no refusal recorded — a person who complied has committed no violation"]
    );
}

#[test]
fn section_52_3_needs_no_order_and_ignores_the_response() {
    let mut facts = complete_facts();
    facts.order = None;
    for response in RESPONSES {
        let d = decide(
            &facts,
            response.response(),
            Offence::DisturbingThePeace,
            NOW,
        );
        assert!(d.is_citable(), "{response:?}");
    }
}

#[test]
fn section_52_3_unruly_manner_needs_the_quiet_disturbed_but_noise_does_not() {
    let mut facts = complete_facts();
    facts.conduct.peace = PeaceDisturbance {
        unruly_or_boisterous_manner: true,
        disturbed_quiet_and_good_order: true,
        ..PeaceDisturbance::default()
    };
    assert!(decide(&facts, Response::NoOrder, Offence::DisturbingThePeace, NOW).is_citable());
    facts.conduct.peace = PeaceDisturbance {
        unruly_or_boisterous_manner: true,
        loud_or_unusual_noise: true,
        ..PeaceDisturbance::default()
    };
    assert!(decide(&facts, Response::NoOrder, Offence::DisturbingThePeace, NOW).is_citable());
}

#[test]
fn section_52_1_a_3_reaches_a_building_or_dwelling_but_a_1_and_a_2_do_not() {
    let mut facts = complete_facts();
    facts.place = PlaceType::AboutBuildingOrDwelling;
    let refused = ResponseCase::RefusedAfterTimeAllowed.response();
    assert!(decide(&facts, refused, Offence::LoiteringDisturbance, NOW).is_citable());
    assert!(!decide(&facts, refused, Offence::LoiteringObstruction, NOW).is_citable());
    assert!(!decide(&facts, refused, Offence::LoiteringInterference, NOW).is_citable());
}

#[test]
fn every_public_place_type_supports_every_section_52_1_offence() {
    let refused = ResponseCase::RefusedAfterTimeAllowed.response();
    for place in PlaceType::ALL.into_iter().filter(|p| p.is_public_place()) {
        let mut facts = complete_facts();
        facts.place = place;
        for offence in Offence::ALL.into_iter().filter(|o| o.is_section_52_1()) {
            assert!(
                decide(&facts, refused, offence, NOW).is_citable(),
                "{place:?} {offence:?}"
            );
        }
        assert_eq!(
            decide(&facts, refused, Offence::GroupObstruction, NOW).is_citable(),
            place.is_street_or_sidewalk(),
            "{place:?}"
        );
    }
}

#[test]
fn a_citable_decision_states_the_penalty_and_for_section_52_2_the_arrest() {
    let facts = complete_facts();
    let refused = ResponseCase::RefusedAfterTimeAllowed.response();
    let one = decide(&facts, refused, Offence::LoiteringObstruction, NOW);
    assert_eq!(
        one.summary(),
        "§52-1 A(1), D: citable — $100.00 plus costs as assessed by the court (§52-4)"
    );
    let group = decide(&facts, refused, Offence::GroupObstruction, NOW);
    assert_eq!(
        group.summary(),
        "§52-2: citable — $100.00 plus costs as assessed by the court (§52-4); \
         §52-2: arrest and bring before the District Court"
    );
}

#[test]
fn status_words_in_the_narrative_caution_but_do_not_block() {
    let mut facts = complete_facts();
    facts.narrative = "Homeless male, known to police, blocking the sidewalk.".into();
    let d = decide(
        &facts,
        ResponseCase::RefusedAfterTimeAllowed.response(),
        Offence::LoiteringObstruction,
        NOW,
    );
    assert!(d.is_citable());
    assert_eq!(
        d.cautions,
        vec![Caution::StatusWords {
            words: vec!["homeless".into(), "known to".into()]
        }]
    );
}

#[test]
fn a_refusal_within_the_time_allowed_is_cautioned_with_the_minutes() {
    let facts = complete_facts();
    let d = decide(
        &facts,
        ResponseCase::RefusedWithinTimeAllowed.response(),
        Offence::LoiteringObstruction,
        NOW,
    );
    assert!(d.is_citable());
    assert_eq!(
        d.cautions,
        vec![Caution::RefusedBeforeTimeAllowed {
            minutes_allowed: MINUTES_TO_COMPLY,
            minutes_after_order: 1
        }]
    );
}

#[test]
fn a_refusal_at_the_same_moment_as_the_order_counts_when_no_time_was_allowed() {
    let mut facts = complete_facts();
    if let Some(o) = facts.order.as_mut() {
        o.minutes_to_comply = 0;
    }
    let at_once = Response::Refused {
        at: ORDER_AT,
        manner: RefusalManner::RefusedVerbally,
    };
    let d = decide(&facts, at_once, Offence::LoiteringObstruction, NOW);
    assert!(d.is_citable());
    assert!(d.cautions.is_empty());
}

#[test]
fn suggested_offences_follow_the_conduct_and_respect_section_52_1_e() {
    let mut facts = complete_facts();
    facts.conduct = Conduct {
        remained_in_one_location: true,
        passage: PassageObstruction {
            pedestrians: true,
            vehicles: false,
        },
        ..Conduct::default()
    };
    assert_eq!(
        suggested_offences(&facts),
        vec![Offence::LoiteringObstruction]
    );
    facts.conduct.peace.loud_or_unusual_noise = true;
    facts.protected_activity = ProtectedActivity::PublicSpeaking;
    assert_eq!(
        suggested_offences(&facts),
        vec![Offence::DisturbingThePeace]
    );
}

/// Outcomes: officer asked to cite × verdict × response.
#[test]
fn outcome_table() {
    let facts = complete_facts();
    let refused = ResponseCase::RefusedAfterTimeAllowed.response();
    let complied = ResponseCase::Complied.response();
    let cite_ok = decide(&facts, refused, Offence::LoiteringObstruction, NOW);
    let arrest_ok = decide(&facts, refused, Offence::GroupObstruction, NOW);
    let not_ok = decide(&facts, complied, Offence::LoiteringObstruction, NOW);
    let mut protected = facts.clone();
    protected.protected_activity = ProtectedActivity::PeacefulPicketing;
    let excluded = decide(&protected, refused, Offence::LoiteringObstruction, NOW);
    let none = ProtectedActivity::None;
    let picketing = ProtectedActivity::PeacefulPicketing;

    type Row<'a> = (
        Option<&'a Decision>,
        bool,
        ProtectedActivity,
        Response,
        Result<Outcome, Section>,
    );
    let table: Vec<Row> = vec![
        (Some(&cite_ok), true, none, refused, Ok(Outcome::Cited)),
        (Some(&cite_ok), false, none, refused, Ok(Outcome::Warned)),
        (Some(&arrest_ok), true, none, refused, Ok(Outcome::Arrested)),
        (Some(&not_ok), true, none, complied, Err(Section::S52_1D)),
        (Some(&not_ok), false, none, complied, Ok(Outcome::Complied)),
        (
            Some(&excluded),
            true,
            picketing,
            refused,
            Err(Section::S52_1E),
        ),
        (
            Some(&excluded),
            false,
            picketing,
            refused,
            Ok(Outcome::ProtectedActivity),
        ),
        (
            None,
            false,
            picketing,
            Response::NoOrder,
            Ok(Outcome::ProtectedActivity),
        ),
        (
            None,
            false,
            none,
            Response::LeftBeforeOrder,
            Ok(Outcome::Departed),
        ),
        (None, false, none, complied, Ok(Outcome::Complied)),
        (None, false, none, Response::NoOrder, Ok(Outcome::Warned)),
    ];
    for (i, (decision, cite, activity, response, expected)) in table.into_iter().enumerate() {
        let got = outcome(decision, cite, activity, response);
        match expected {
            Ok(o) => assert_eq!(got, Ok(o), "row {i}"),
            Err(section) => {
                let reasons = got.expect_err("must be refused");
                assert_eq!(reasons.first().map(|r| r.section), Some(section), "row {i}");
            }
        }
    }
}
