//! Table-driven tests: every offence × every element present or missing ×
//! §52-1 E yes/no × every kind of response, each asserting the exact verdict and
//! the sections it cites; then one test per finding of issue #14, each of which
//! the first version of the rules got wrong.
//!
//! The expected sections are written out here by hand, not taken from
//! `Element::section`, so a wrong mapping in the rules fails these tests.

use super::*;
use crate::ordinance::status::{status_words, ScreenedText};
use crate::ordinance::{Moment, Penalty, Section};

const STARTED_AT: Moment = Moment(1_780_000_000_000 - 600_000);
const ORDER_AT: Moment = Moment(1_780_000_000_000);
const NOW: Moment = Moment(1_780_000_000_000 + 3_600_000);
const MINUTES_TO_COMPLY: u32 = 2;
const DAY_MS: i64 = 86_400_000;

fn order() -> DispersalOrder {
    DispersalOrder {
        words: "Stop blocking the sidewalk and move on.".into(),
        given_at: ORDER_AT,
        move_on: true,
        minutes_to_comply: MINUTES_TO_COMPLY,
    }
}

fn scene() -> Scene {
    Scene {
        started_at: STARTED_AT,
        place: PlaceType::Sidewalk,
        orders: vec![order()],
        gathering: None,
    }
}

/// A person whose own facts make every offence citable (given a valid refusal).
fn complete_person() -> PersonFacts {
    PersonFacts {
        protected_activity: ProtectedActivity::None,
        conduct: Conduct {
            remained_in_one_location: true,
            passage: PassageObstruction {
                pedestrians: true,
                vehicles: false,
                place: Some(PlaceType::Sidewalk),
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
            group: GroupStanding {
                stood_with: vec![1],
                others: 1,
                obstructs_free_passage: true,
            },
            peace: PeaceDisturbance {
                loud_noise: true,
                disturbed_quiet_and_good_order: true,
                ..PeaceDisturbance::default()
            },
            gathering: None,
        },
        order: Some(0),
        response: refused_after_time_allowed(),
        arrested: false,
        place: None,
        contravenes: None,
    }
}

/// A person who stood by and did nothing the rules count.
fn bystander() -> PersonFacts {
    PersonFacts {
        protected_activity: ProtectedActivity::None,
        conduct: Conduct::default(),
        order: Some(0),
        response: Response::Refused {
            at: ORDER_AT.plus_minutes(MINUTES_TO_COMPLY + 1),
            manner: RefusalManner::StayedInPlace,
        },
        arrested: false,
        place: None,
        contravenes: None,
    }
}

fn refused_after_time_allowed() -> Response {
    Response::Refused {
        at: ORDER_AT.plus_minutes(MINUTES_TO_COMPLY + 1),
        manner: RefusalManner::StayedInPlace,
    }
}

/// One way to take an element away, with the section the finding must cite.
struct Missing {
    name: &'static str,
    element: Element,
    section: Section,
    apply: fn(&mut Scene, &mut PersonFacts),
}

fn no_loitering(_: &mut Scene, p: &mut PersonFacts) {
    p.conduct.remained_in_one_location = false;
}
fn at_a_dwelling(s: &mut Scene, _: &mut PersonFacts) {
    s.place = PlaceType::AboutBuildingOrDwelling;
}
fn in_a_park(s: &mut Scene, _: &mut PersonFacts) {
    s.place = PlaceType::Park;
}
fn no_passage(_: &mut Scene, p: &mut PersonFacts) {
    p.conduct.passage = PassageObstruction::default();
}
fn obstructed_a_dwelling(_: &mut Scene, p: &mut PersonFacts) {
    p.conduct.passage.place = Some(PlaceType::AboutBuildingOrDwelling);
}
fn obstructed_place_unrecorded(_: &mut Scene, p: &mut PersonFacts) {
    p.conduct.passage.place = None;
}
fn no_interference(_: &mut Scene, p: &mut PersonFacts) {
    p.conduct.interference = Interference::default();
}
fn no_annoyance(_: &mut Scene, p: &mut PersonFacts) {
    p.conduct.disturbance.disturbance_or_annoyance = false;
}
fn no_alarm(_: &mut Scene, p: &mut PersonFacts) {
    p.conduct.disturbance.discomfort_or_alarm = false;
}
fn nobody_passing(_: &mut Scene, p: &mut PersonFacts) {
    p.conduct.disturbance.person_lawfully_passing = false;
}
fn stood_alone(_: &mut Scene, p: &mut PersonFacts) {
    p.conduct.group.stood_with.clear();
    p.conduct.group.others = 0;
}
fn group_not_obstructing(_: &mut Scene, p: &mut PersonFacts) {
    p.conduct.group.obstructs_free_passage = false;
}
fn no_peace_prong(_: &mut Scene, p: &mut PersonFacts) {
    p.conduct.peace = PeaceDisturbance {
        disturbed_quiet_and_good_order: true,
        ..PeaceDisturbance::default()
    };
}
fn only_obscene(_: &mut Scene, p: &mut PersonFacts) {
    p.conduct.peace = PeaceDisturbance {
        obscene: true,
        disturbed_quiet_and_good_order: true,
        ..PeaceDisturbance::default()
    };
}
fn noise_without_disturbance(_: &mut Scene, p: &mut PersonFacts) {
    p.conduct.peace.disturbed_quiet_and_good_order = false;
}
fn no_order_received(_: &mut Scene, p: &mut PersonFacts) {
    p.order = None;
}
fn order_without_words(s: &mut Scene, _: &mut PersonFacts) {
    s.orders[0].words = "   ".into();
}
fn order_in_future(s: &mut Scene, _: &mut PersonFacts) {
    s.orders[0].given_at = NOW.plus_minutes(60);
}
fn order_before_incident(s: &mut Scene, _: &mut PersonFacts) {
    s.orders[0].given_at = Moment(STARTED_AT.0 - DAY_MS);
}
fn order_without_move_on(s: &mut Scene, _: &mut PersonFacts) {
    s.orders[0].move_on = false;
}

/// Order cases every offence with an order element shares.
fn order_cases(element: Element, section: Section) -> Vec<Missing> {
    let m = |name, apply| Missing {
        name,
        element,
        section,
        apply,
    };
    vec![
        m("order", no_order_received),
        m("order words", order_without_words),
        m("order time", order_in_future),
        m("order before incident", order_before_incident),
    ]
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
    let mut cases = match offence {
        Offence::LoiteringObstruction => vec![
            m("loitering", E::Loitering, S::S52_1B, no_loitering),
            m("passage", E::PassageObstructed, S::S52_1A1, no_passage),
            m(
                "obstructed place not public",
                E::ObstructedPlaceIsPublic,
                S::S52_1A1,
                obstructed_a_dwelling,
            ),
            m(
                "obstructed place unrecorded",
                E::ObstructedPlaceIsPublic,
                S::S52_1A1,
                obstructed_place_unrecorded,
            ),
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
        ],
        Offence::GroupObstruction => vec![
            m(
                "street or sidewalk",
                E::StreetOrSidewalk,
                S::S52_2,
                in_a_park,
            ),
            m("two persons", E::TwoOrMorePersons, S::S52_2, stood_alone),
            m(
                "free passage",
                E::FreePassageObstructed,
                S::S52_2,
                group_not_obstructing,
            ),
            m("move on", E::OrderToMoveOn, S::S52_2, order_without_move_on),
        ],
        Offence::DisturbingThePeace => vec![
            m(
                "public place",
                E::PublicStreetOrPlace,
                S::S52_3,
                at_a_dwelling,
            ),
            m("conduct", E::PeaceConduct, S::S52_3, no_peace_prong),
            m(
                "one of three words",
                E::PeaceConduct,
                S::S52_3,
                only_obscene,
            ),
            m(
                "quiet disturbed",
                E::QuietAndGoodOrderDisturbed,
                S::S52_3,
                noise_without_disturbance,
            ),
        ],
        Offence::UnpermittedMassGathering => Vec::new(),
    };
    match offence {
        Offence::GroupObstruction => cases.extend(order_cases(E::OrderToMoveOn, S::S52_2)),
        Offence::DisturbingThePeace => {}
        _ => cases.extend(order_cases(E::OrderToStop, S::S52_1D)),
    }
    cases
}

#[derive(Clone, Copy, Debug)]
enum ResponseCase {
    NoResponse,
    Left,
    Complied,
    StayedAfterTimeAllowed,
    StayedWithinTimeAllowed,
    RefusedOutrightWithinTimeAllowed,
    RefusedBeforeOrder,
    RefusedInFuture,
    RefusedAfterOrderLapsed,
    /// Came back to the conduct the order stopped, inside the time allowed: an
    /// outright refusal.
    ResumedWithinTimeAllowed,
    /// "Left, then came back" as stored reports recorded it: no refusal.
    CameBackPeacefully,
}

const RESPONSES: [ResponseCase; 11] = [
    ResponseCase::NoResponse,
    ResponseCase::Left,
    ResponseCase::Complied,
    ResponseCase::StayedAfterTimeAllowed,
    ResponseCase::StayedWithinTimeAllowed,
    ResponseCase::RefusedOutrightWithinTimeAllowed,
    ResponseCase::RefusedBeforeOrder,
    ResponseCase::RefusedInFuture,
    ResponseCase::RefusedAfterOrderLapsed,
    ResponseCase::ResumedWithinTimeAllowed,
    ResponseCase::CameBackPeacefully,
];

impl ResponseCase {
    fn response(self) -> Response {
        let stayed = RefusalManner::StayedInPlace;
        match self {
            ResponseCase::NoResponse => Response::NoOrder,
            ResponseCase::Left => Response::LeftBeforeOrder,
            ResponseCase::Complied => Response::Complied {
                at: ORDER_AT.plus_minutes(1),
            },
            ResponseCase::StayedAfterTimeAllowed => refused_after_time_allowed(),
            ResponseCase::StayedWithinTimeAllowed => Response::Refused {
                at: ORDER_AT.plus_minutes(1),
                manner: stayed,
            },
            ResponseCase::RefusedOutrightWithinTimeAllowed => Response::Refused {
                at: ORDER_AT.plus_minutes(1),
                manner: RefusalManner::RefusedVerbally,
            },
            ResponseCase::RefusedBeforeOrder => Response::Refused {
                at: Moment(ORDER_AT.0 - 60_000),
                manner: RefusalManner::RefusedVerbally,
            },
            ResponseCase::RefusedInFuture => Response::Refused {
                at: NOW.plus_minutes(30),
                manner: stayed,
            },
            ResponseCase::RefusedAfterOrderLapsed => Response::Refused {
                at: ORDER_AT
                    .plus_minutes(MINUTES_TO_COMPLY + timing::ORDER_LAPSES_AFTER_MINUTES + 1),
                manner: RefusalManner::ReturnedAndResumed,
            },
            ResponseCase::ResumedWithinTimeAllowed => Response::Refused {
                at: ORDER_AT.plus_minutes(1),
                manner: RefusalManner::ReturnedAndResumed,
            },
            ResponseCase::CameBackPeacefully => Response::Refused {
                at: ORDER_AT.plus_minutes(MINUTES_TO_COMPLY + 1),
                manner: RefusalManner::Returned,
            },
        }
    }

    /// Whether this response, on its own, is a valid refusal of the order.
    fn is_valid_refusal(self) -> bool {
        matches!(
            self,
            ResponseCase::StayedAfterTimeAllowed
                | ResponseCase::RefusedOutrightWithinTimeAllowed
                | ResponseCase::ResumedWithinTimeAllowed
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
    // An order moved into the future comes after every recorded refusal, and one
    // moved to the day before has lapsed by the time of any of them.
    let order_moved =
        missing.is_some_and(|m| m.name == "order time" || m.name == "order before incident");
    let came_back = matches!(response, ResponseCase::CameBackPeacefully);
    if offence.needs_order() && !order_absent {
        // Coming back is no refusal, whatever its time; the time rules still
        // apply to the time recorded.
        if came_back {
            expected.push((Element::FailedOrRefused, refusal_section(offence)));
        }
        if order_moved || !(response.is_valid_refusal() || came_back) {
            expected.push((Element::FailedOrRefused, refusal_section(offence)));
        }
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
    let mut expected_cases = 0;
    for offence in Offence::ARTICLE_I {
        let variants: Vec<Option<Missing>> = std::iter::once(None)
            .chain(missing_cases(offence).into_iter().map(Some))
            .collect();
        expected_cases += variants.len() * ProtectedActivity::ALL.len() * RESPONSES.len();
        for missing in &variants {
            for activity in ProtectedActivity::ALL {
                for response in RESPONSES {
                    cases += 1;
                    let mut scene = scene();
                    let mut person = complete_person();
                    person.protected_activity = activity;
                    // §52-1 E's proviso with the law named: decided as any person
                    // not expressing an opinion (the law unnamed has its own test).
                    person.contravenes = (activity == ProtectedActivity::UnlawfulExpression)
                        .then(|| "Wells Code §86-3 (amplified sound after 10 p.m.)".to_owned());
                    person.response = response.response();
                    if let Some(m) = missing {
                        (m.apply)(&mut scene, &mut person);
                    }
                    let decision = decide(&scene, &person, offence, NOW);
                    let label = format!(
                        "{} missing={:?} protected={activity:?} response={response:?}",
                        offence.code(),
                        missing.as_ref().map(|m| m.name)
                    );
                    assert_eq!(decision.offence, offence, "{label}");
                    let annoyance = decision.cautions.contains(&Caution::AnnoyanceBasis);
                    assert_eq!(
                        annoyance,
                        offence == Offence::LoiteringDisturbance,
                        "{label}"
                    );

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
                                penalty: Penalty::ARTICLE_I
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
                    let contravening = decision
                        .cautions
                        .iter()
                        .any(|c| matches!(c, Caution::ExpressionContravening { .. }));
                    assert_eq!(
                        contravening,
                        activity == ProtectedActivity::UnlawfulExpression,
                        "{label}"
                    );
                }
            }
        }
    }
    assert_eq!(cases, expected_cases);
    // 5 offences; (1 + 8 + 8 + 8 + 9 + 5) fact variants; 5 answers to §52-1 E; 11 responses.
    assert_eq!(cases, (1 + 8 + 1 + 7 + 1 + 8 + 1 + 8 + 1 + 4) * 5 * 11);
}

// ---- Issue #14's findings, one test each (each fails on the first version). ----

/// Finding 1: a bystander in a two-person incident is never cited for the other
/// person's noise or obstruction.
#[test]
fn a_bystander_is_not_citable_for_another_persons_conduct() {
    let scene = scene();
    let loud = complete_person();
    let quiet = bystander();
    for offence in Offence::ARTICLE_I {
        assert!(
            decide(&scene, &loud, offence, NOW).is_citable(),
            "{offence:?}"
        );
        let d = decide(&scene, &quiet, offence, NOW);
        assert!(
            !d.is_citable(),
            "the bystander must not be citable for {offence:?}"
        );
    }
    let d = decide(&scene, &quiet, Offence::DisturbingThePeace, NOW);
    assert_eq!(
        findings_of(&d),
        vec![
            (Element::PeaceConduct, Section::S52_3),
            (Element::QuietAndGoodOrderDisturbed, Section::S52_3)
        ]
    );
}

/// Finding 2: an order given the day before (or dated 1970) does not make a later
/// "left and came back" citable. (Issue #33: the return is recorded with the
/// conduct resumed, the only return that is a refusal.)
#[test]
fn an_order_from_the_day_before_does_not_count() {
    let mut person = complete_person();
    person.response = Response::Refused {
        at: ORDER_AT.plus_minutes(5),
        manner: RefusalManner::ReturnedAndResumed,
    };
    for given_at in [Moment(ORDER_AT.0 - DAY_MS), Moment(0)] {
        let mut scene = scene();
        scene.orders[0].given_at = given_at;
        let d = decide(&scene, &person, Offence::LoiteringObstruction, NOW);
        assert!(!d.is_citable(), "order at {given_at:?}");
        let messages: Vec<String> = d.reasons().into_iter().map(|r| r.message).collect();
        assert!(
            messages
                .iter()
                .any(|m| m.contains("before the incident began")),
            "{messages:?}"
        );
        assert!(
            messages.iter().any(|m| m.contains("no longer counts")),
            "{messages:?}"
        );
    }
    // The same return to the conduct, within the order's hour, is a refusal.
    assert!(decide(&scene(), &person, Offence::LoiteringObstruction, NOW).is_citable());
}

/// Finding 3: a failure to obey recorded inside the time allowed to comply is not
/// citable; an outright refusal is, at once.
#[test]
fn a_refusal_inside_the_time_to_comply_is_not_citable_unless_outright() {
    let scene = scene();
    let mut person = complete_person();
    person.response = ResponseCase::StayedWithinTimeAllowed.response();
    let d = decide(&scene, &person, Offence::LoiteringObstruction, NOW);
    assert_eq!(
        findings_of(&d),
        vec![(Element::FailedOrRefused, Section::S52_1D)]
    );
    assert!(d.reasons()[0]
        .message
        .contains("inside the 2 min allowed to comply"));
    person.response = ResponseCase::RefusedOutrightWithinTimeAllowed.response();
    assert!(decide(&scene, &person, Offence::LoiteringObstruction, NOW).is_citable());
    person.response = Response::Refused {
        at: ORDER_AT.plus_minutes(1),
        manner: RefusalManner::Other,
    };
    assert!(!decide(&scene, &person, Offence::LoiteringObstruction, NOW).is_citable());
}

/// Finding 4: songs alone, or one of the three conjunctive words, are not §52-3;
/// songs with the disturbance are, and always carry the speech caution.
#[test]
fn section_52_3_needs_the_disturbance_and_all_three_words_and_cautions_speech() {
    let scene = scene();
    let mut person = bystander();
    person.conduct.peace = PeaceDisturbance {
        boisterous_songs: true,
        ..PeaceDisturbance::default()
    };
    let d = decide(&scene, &person, Offence::DisturbingThePeace, NOW);
    assert_eq!(
        findings_of(&d),
        vec![(Element::QuietAndGoodOrderDisturbed, Section::S52_3)]
    );
    person.conduct.peace.disturbed_quiet_and_good_order = true;
    let d = decide(&scene, &person, Offence::DisturbingThePeace, NOW);
    assert!(d.is_citable());
    assert_eq!(
        d.cautions,
        vec![Caution::SpeechBasis {
            prongs: vec![PeaceProng::Songs]
        }]
    );

    person.conduct.peace = PeaceDisturbance {
        obscene: true,
        profane: true,
        disturbed_quiet_and_good_order: true,
        ..PeaceDisturbance::default()
    };
    let d = decide(&scene, &person, Offence::DisturbingThePeace, NOW);
    assert_eq!(
        findings_of(&d),
        vec![(Element::PeaceConduct, Section::S52_3)]
    );
    assert!(d.reasons()[0].message.contains("all three"));
    person.conduct.peace.indecent = true;
    let d = decide(&scene, &person, Offence::DisturbingThePeace, NOW);
    assert!(d.is_citable());
    assert_eq!(
        d.cautions,
        vec![Caution::SpeechBasis {
            prongs: vec![PeaceProng::ObsceneWords]
        }]
    );

    // Noise is not speech, but it too needs the disturbance.
    person.conduct.peace = PeaceDisturbance {
        loud_noise: true,
        ..PeaceDisturbance::default()
    };
    assert!(!decide(&scene, &person, Offence::DisturbingThePeace, NOW).is_citable());
    person.conduct.peace.disturbed_quiet_and_good_order = true;
    let d = decide(&scene, &person, Offence::DisturbingThePeace, NOW);
    assert!(d.is_citable());
    assert!(d.cautions.is_empty());
}

/// Finding 5: a §52-2 citation is a summons unless an arrest was in fact made,
/// and an arrest needs a §52-2 citation.
#[test]
fn a_section_52_2_citation_is_a_summons_unless_an_arrest_is_recorded() {
    let scene = scene();
    let mut person = complete_person();
    let cite = |offence| Charge {
        offence,
        issue_citation: true,
    };
    let charges = [cite(Offence::GroupObstruction)];
    let decisions = [decide(&scene, &person, Offence::GroupObstruction, NOW)];
    assert_eq!(outcome(&person, &charges, &decisions), Ok(Outcome::Cited));
    person.arrested = true;
    assert_eq!(
        outcome(&person, &charges, &decisions),
        Ok(Outcome::Arrested)
    );

    let charges = [cite(Offence::LoiteringObstruction)];
    let decisions = [decide(&scene, &person, Offence::LoiteringObstruction, NOW)];
    let refused = outcome(&person, &charges, &decisions).expect_err("no §52-2 citation");
    assert_eq!(refused[0].section, Section::S52_2);
    let declined = [Charge {
        offence: Offence::GroupObstruction,
        issue_citation: false,
    }];
    let decisions = [decide(&scene, &person, Offence::GroupObstruction, NOW)];
    assert!(outcome(&person, &declined, &decisions).is_err());
}

/// Finding 6: one picketer's expression does not shield a doorway-blocker.
#[test]
fn one_persons_expression_does_not_shield_another() {
    let scene = Scene {
        place: PlaceType::FrontOfBusiness,
        ..scene()
    };
    let mut picketer = complete_person();
    picketer.protected_activity = ProtectedActivity::PeacefulPicketing;
    let mut blocker = complete_person();
    blocker.conduct.interference = Interference {
        ingress_egress: true,
        ..Interference::default()
    };
    let offence = Offence::LoiteringInterference;
    assert_eq!(
        decide(&scene, &picketer, offence, NOW).verdict,
        Verdict::Excluded {
            activity: ProtectedActivity::PeacefulPicketing
        }
    );
    assert!(decide(&scene, &blocker, offence, NOW).is_citable());
}

/// Finding 7: §52-1 A(1) asks whether the obstructed street or place is public,
/// not the place where the person stood.
#[test]
fn section_52_1_a_1_checks_the_obstructed_place_not_where_the_person_stood() {
    let scene = Scene {
        place: PlaceType::AboutBuildingOrDwelling,
        ..scene()
    };
    let mut person = complete_person();
    person.conduct.passage.place = Some(PlaceType::Sidewalk);
    assert!(decide(&scene, &person, Offence::LoiteringObstruction, NOW).is_citable());
    let public = Scene {
        place: PlaceType::Sidewalk,
        ..scene.clone()
    };
    person.conduct.passage.place = Some(PlaceType::AboutBuildingOrDwelling);
    assert!(!decide(&public, &person, Offence::LoiteringObstruction, NOW).is_citable());
}

/// Finding 8: the status screen knows youth and idleness words.
#[test]
fn juveniles_hanging_around_with_no_apparent_purpose_are_status_words() {
    assert_eq!(
        status_words("Juveniles hanging around with no apparent purpose"),
        vec!["juveniles", "hanging around", "no apparent purpose"]
    );
    let caution = Caution::StatusWords {
        words: status_words("teen in a red hoodie"),
        text: ScreenedText::Description { person: 1 },
    };
    assert!(caution
        .message()
        .starts_with("The description of person 2 uses status words (teen)"));
}

// ---- The rest of the rules. ----

#[test]
fn complied_after_the_order_is_no_violation_in_the_words_of_section_52_1_d() {
    let mut person = complete_person();
    person.response = ResponseCase::Complied.response();
    let d = decide(&scene(), &person, Offence::LoiteringObstruction, NOW);
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
    let mut scene = scene();
    scene.orders.clear();
    let mut person = complete_person();
    person.order = None;
    for response in RESPONSES {
        person.response = response.response();
        let d = decide(&scene, &person, Offence::DisturbingThePeace, NOW);
        assert!(d.is_citable(), "{response:?}");
    }
}

#[test]
fn section_52_1_a_3_reaches_a_building_or_dwelling_but_a_2_and_section_52_3_do_not() {
    let scene = Scene {
        place: PlaceType::AboutBuildingOrDwelling,
        ..scene()
    };
    let person = complete_person();
    assert!(decide(&scene, &person, Offence::LoiteringDisturbance, NOW).is_citable());
    assert!(decide(&scene, &person, Offence::LoiteringObstruction, NOW).is_citable());
    assert!(!decide(&scene, &person, Offence::LoiteringInterference, NOW).is_citable());
    assert!(!decide(&scene, &person, Offence::DisturbingThePeace, NOW).is_citable());
}

#[test]
fn every_public_place_type_supports_every_section_52_1_offence() {
    let person = complete_person();
    for place in PlaceType::ALL.into_iter().filter(|p| p.is_public_place()) {
        let scene = Scene { place, ..scene() };
        for offence in Offence::ALL.into_iter().filter(|o| o.is_section_52_1()) {
            assert!(
                decide(&scene, &person, offence, NOW).is_citable(),
                "{place:?} {offence:?}"
            );
        }
        assert_eq!(
            decide(&scene, &person, Offence::GroupObstruction, NOW).is_citable(),
            place.is_street_or_sidewalk(),
            "{place:?}"
        );
    }
}

#[test]
fn a_citable_decision_states_the_penalty_and_for_section_52_2_the_arrest_it_permits() {
    let person = complete_person();
    let one = decide(&scene(), &person, Offence::LoiteringObstruction, NOW);
    assert_eq!(
        one.summary(),
        "§52-1 A(1), D: citable — $100.00 plus costs as assessed by the court (§52-4)"
    );
    let group = decide(&scene(), &person, Offence::GroupObstruction, NOW);
    assert_eq!(
        group.summary(),
        "§52-2: citable — $100.00 plus costs as assessed by the court (§52-4); \
         §52-2 permits an arrest, to bring the person before the District Court"
    );
}

// (Issue #33 inverts what `a_refusal_at_the_same_moment_as_the_order_counts_when_no_time_was_allowed`
// pinned: with no time allowed, staying put in the order's own minute was citable.)

#[test]
fn a_person_answers_to_the_order_they_received() {
    let mut scene = scene();
    // A second order, an hour and a half later, to one person who came back.
    scene.orders.push(DispersalOrder {
        words: "Stop blocking the door.".into(),
        given_at: ORDER_AT.plus_minutes(90),
        move_on: false,
        minutes_to_comply: 0,
    });
    let mut person = complete_person();
    person.response = Response::Refused {
        at: ORDER_AT.plus_minutes(95),
        manner: RefusalManner::RefusedVerbally,
    };
    let now = ORDER_AT.plus_minutes(120);
    // Against the first order, the refusal came after it lapsed.
    assert!(!decide(&scene, &person, Offence::LoiteringObstruction, now).is_citable());
    person.order = Some(1);
    assert!(decide(&scene, &person, Offence::LoiteringObstruction, now).is_citable());
    // §52-2 needs an order to move on; the second was not.
    assert!(!decide(&scene, &person, Offence::GroupObstruction, now).is_citable());
    // An order position that does not exist is no order.
    person.order = Some(7);
    assert_eq!(
        findings_of(&decide(&scene, &person, Offence::LoiteringObstruction, now)),
        vec![(Element::OrderToStop, Section::S52_1D)]
    );
}

#[test]
fn suggested_offences_follow_the_persons_conduct_and_their_section_52_1_e_answer() {
    let mut person = bystander();
    person.conduct = Conduct {
        remained_in_one_location: true,
        passage: PassageObstruction {
            pedestrians: true,
            vehicles: false,
            place: Some(PlaceType::Sidewalk),
        },
        ..Conduct::default()
    };
    assert_eq!(
        suggested_offences(&person),
        vec![Offence::LoiteringObstruction]
    );
    person.conduct.peace.loud_noise = true;
    person.protected_activity = ProtectedActivity::PublicSpeaking;
    assert_eq!(
        suggested_offences(&person),
        vec![Offence::DisturbingThePeace]
    );
    assert!(suggested_offences(&bystander()).is_empty());
}

/// Outcomes: the charges asked for × their verdicts × the response.
#[test]
fn outcome_table() {
    let scene = scene();
    let refused = complete_person();
    let mut complied = complete_person();
    complied.response = ResponseCase::Complied.response();
    let mut picketing = complete_person();
    picketing.protected_activity = ProtectedActivity::PeacefulPicketing;
    let mut left = complete_person();
    left.order = None;
    left.response = Response::LeftBeforeOrder;
    let mut no_order = complete_person();
    no_order.order = None;
    no_order.response = Response::NoOrder;
    let mut picketing_no_order = no_order.clone();
    picketing_no_order.protected_activity = ProtectedActivity::PeacefulPicketing;

    let c = |offence, issue_citation| Charge {
        offence,
        issue_citation,
    };
    use Offence::*;
    type Row = (PersonFacts, Vec<Charge>, Result<Outcome, Section>);
    let table: Vec<Row> = vec![
        (
            refused.clone(),
            vec![c(LoiteringObstruction, true)],
            Ok(Outcome::Cited),
        ),
        (
            refused.clone(),
            vec![c(LoiteringObstruction, false)],
            Ok(Outcome::Warned),
        ),
        (
            refused.clone(),
            vec![c(GroupObstruction, true), c(DisturbingThePeace, true)],
            Ok(Outcome::Cited),
        ),
        (
            complied.clone(),
            vec![c(LoiteringObstruction, true)],
            Err(Section::S52_1D),
        ),
        (
            complied.clone(),
            vec![c(LoiteringObstruction, false)],
            Ok(Outcome::Complied),
        ),
        (
            complied.clone(),
            vec![c(DisturbingThePeace, true)],
            Ok(Outcome::Cited),
        ),
        (
            picketing.clone(),
            vec![c(LoiteringObstruction, true)],
            Err(Section::S52_1E),
        ),
        (
            picketing.clone(),
            vec![c(LoiteringObstruction, false)],
            Ok(Outcome::ProtectedActivity),
        ),
        (picketing_no_order, vec![], Ok(Outcome::ProtectedActivity)),
        (
            picketing.clone(),
            vec![c(DisturbingThePeace, false)],
            Ok(Outcome::Warned),
        ),
        (left, vec![], Ok(Outcome::Departed)),
        (complied, vec![], Ok(Outcome::Complied)),
        (no_order, vec![], Ok(Outcome::Warned)),
    ];
    for (i, (person, charges, expected)) in table.into_iter().enumerate() {
        let decisions: Vec<Decision> = charges
            .iter()
            .map(|ch| decide(&scene, &person, ch.offence, NOW))
            .collect();
        let got = outcome(&person, &charges, &decisions);
        match expected {
            Ok(o) => assert_eq!(got, Ok(o), "row {i}"),
            Err(section) => {
                let reasons = got.expect_err("must be refused");
                assert_eq!(reasons.first().map(|r| r.section), Some(section), "row {i}");
            }
        }
    }
}

#[test]
fn the_time_rules_name_the_field_and_the_section() {
    let mut scene = scene();
    scene.orders[0].given_at = Moment(STARTED_AT.0 - 60_000);
    let problems = timing::scene_problems(&scene, NOW);
    assert_eq!(
        problems,
        vec![TimeProblem::OrderBeforeIncident { order: 0 }]
    );
    assert_eq!(problems[0].field(), TimeField::Order(0));
    assert!(problems[0]
        .message()
        .starts_with("§52-1 D: the order is timed before the incident began"));
    let future = Scene {
        started_at: NOW.plus_minutes(60),
        ..self::scene()
    };
    assert_eq!(
        timing::scene_problems(&future, NOW)[0].message(),
        "The time of the incident is in the future — check the time."
    );
    let early = timing::response_problems(
        Some(&order()),
        ResponseCase::RefusedBeforeOrder.response(),
        NOW,
    );
    assert_eq!(early, vec![TimeProblem::ResponseBeforeOrder]);
    // A refusal long after the order answers no order. (A compliance then is no
    // error: issue #33, `a_late_compliance_is_no_violation_and_no_error`.)
    let late = timing::response_problems(
        Some(&order()),
        Response::Refused {
            at: ORDER_AT.plus_minutes(MINUTES_TO_COMPLY + timing::ORDER_LAPSES_AFTER_MINUTES + 1),
            manner: RefusalManner::StayedInPlace,
        },
        // Checked once that moment has come (it is after NOW).
        NOW.plus_minutes(10),
    );
    assert!(matches!(late[..], [TimeProblem::OrderLapsed { .. }]));
}

// ---- Issue #33's findings (Article I), one test each; each fails on the rules
// ---- before it.

/// Finding 1: failing to obey needs the chance to obey. With no time allowed, a
/// failure recorded in the order's own minute is not citable; a minute later it
/// is; an outright refusal counts at once.
#[test]
fn a_failure_to_obey_in_the_orders_own_minute_is_not_citable_even_when_no_time_was_allowed() {
    let mut scene = scene();
    scene.orders[0].minutes_to_comply = 0;
    let mut person = complete_person();
    let at = |ms: i64, manner| Response::Refused {
        at: Moment(ORDER_AT.0 + ms),
        manner,
    };
    for (response, citable) in [
        (at(0, RefusalManner::StayedInPlace), false),
        (at(59_999, RefusalManner::StayedInPlace), false),
        (at(59_999, RefusalManner::Other), false),
        (at(60_000, RefusalManner::StayedInPlace), true),
        (at(0, RefusalManner::RefusedVerbally), true),
        (at(0, RefusalManner::ActedAgainstOrder), true),
        (at(0, RefusalManner::ReturnedAndResumed), true),
    ] {
        person.response = response;
        let d = decide(&scene, &person, Offence::LoiteringObstruction, NOW);
        assert_eq!(d.is_citable(), citable, "{response:?}");
        if !citable {
            assert_eq!(
                findings_of(&d),
                vec![(Element::FailedOrRefused, Section::S52_1D)]
            );
            assert!(d.reasons()[0]
                .message
                .starts_with("§52-1 D: recorded in the minute the order was given"));
        }
    }
    // The same holds for §52-2's order to move on, in §52-2's words.
    person.response = at(0, RefusalManner::StayedInPlace);
    let d = decide(&scene, &person, Offence::GroupObstruction, NOW);
    assert_eq!(
        findings_of(&d),
        vec![(Element::FailedOrRefused, Section::S52_2)]
    );
    // And the report itself is refused, at the response's time.
    let problems = timing::response_problems(Some(&scene.orders[0]), person.response, NOW);
    assert_eq!(problems, vec![TimeProblem::FailedInTheOrdersMinute]);
    let section = timing::order_section(&[Offence::GroupObstruction]);
    assert!(problems[0].message_under(section).starts_with("§52-2: "));
    // One minute allowed: the minute after the order is inside it.
    scene.orders[0].minutes_to_comply = 1;
    person.response = at(30_000, RefusalManner::StayedInPlace);
    assert!(matches!(
        timing::response_problems(Some(&scene.orders[0]), person.response, NOW)[..],
        [TimeProblem::RefusedWithinTimeAllowed { .. }]
    ));
}

/// Finding 2: one refusal of one order is one §52-1 violation. Two §52-1 prongs
/// cited together are refused with §52-1 D; one cited with the others charged
/// but not cited is a citation; §52-2 and §52-3 beside it stay allowed.
#[test]
fn one_refusal_of_one_order_is_one_section_52_1_violation() {
    let scene = scene();
    let person = complete_person();
    use Offence::*;
    let ask = |cite: &[Offence], charged: &[Offence]| {
        let charges: Vec<Charge> = charged
            .iter()
            .map(|&offence| Charge {
                offence,
                issue_citation: cite.contains(&offence),
            })
            .collect();
        let decisions: Vec<Decision> = charges
            .iter()
            .map(|c| decide(&scene, &person, c.offence, NOW))
            .collect();
        outcome(&person, &charges, &decisions)
    };
    let prongs = [
        LoiteringObstruction,
        LoiteringInterference,
        LoiteringDisturbance,
    ];
    let refused = ask(&prongs, &prongs).expect_err("three §52-1 citations on one refusal");
    assert_eq!(
        refused.iter().map(|r| r.section).collect::<Vec<_>>(),
        vec![Section::S52_1D]
    );
    assert!(refused[0]
        .message
        .starts_with("§52-1 D: one refusal of one order is one violation of this section"));
    assert!(ask(&prongs[..2], &prongs[..2]).is_err());
    assert!(ask(&[LoiteringInterference, LoiteringDisturbance], &prongs).is_err());
    assert_eq!(ask(&[LoiteringObstruction], &prongs), Ok(Outcome::Cited));
    let all = [
        LoiteringObstruction,
        LoiteringInterference,
        GroupObstruction,
        DisturbingThePeace,
    ];
    assert_eq!(
        ask(
            &[LoiteringObstruction, GroupObstruction, DisturbingThePeace],
            &all
        ),
        Ok(Outcome::Cited)
    );
}

/// Finding 2, the caution: a §52-2 citation beside a §52-1 citation rests on the
/// same refusal of the same order — allowed, for the chief to see.
#[test]
fn section_52_2_beside_section_52_1_on_the_same_refusal_reaches_the_chief() {
    let person = complete_person();
    let charges = |cite_52_1: bool| {
        vec![
            Charge {
                offence: Offence::LoiteringObstruction,
                issue_citation: cite_52_1,
            },
            Charge {
                offence: Offence::GroupObstruction,
                issue_citation: true,
            },
        ]
    };
    let adult = crate::ordinance::persons::Standing {
        age: Some(30),
        perceived_under_18: false,
        identified: true,
    };
    assert_eq!(
        person_cautions(0, adult, &person, &charges(true)),
        vec![Caution::TwoSectionsOneRefusal]
    );
    assert!(person_cautions(0, adult, &person, &charges(false)).is_empty());
    assert!(Caution::TwoSectionsOneRefusal
        .message()
        .starts_with("§52-1 D and §52-2: "));
}

/// Finding 3: coming back peacefully is not a refusal (the stored "left, then
/// came back" still reads, and is never citable); coming back to the conduct
/// the order stopped is, at once.
#[test]
fn coming_back_peacefully_is_not_a_refusal_but_resuming_the_conduct_is() {
    let scene = scene();
    let mut person = complete_person();
    person.response = Response::Refused {
        at: ORDER_AT.plus_minutes(5),
        manner: RefusalManner::Returned,
    };
    for offence in [Offence::LoiteringObstruction, Offence::GroupObstruction] {
        let d = decide(&scene, &person, offence, NOW);
        assert_eq!(
            findings_of(&d),
            vec![(Element::FailedOrRefused, refusal_section(offence))],
            "{offence:?}"
        );
        assert!(d.reasons()[0]
            .message
            .contains("coming back is not by itself a failure to obey"));
    }
    person.response = Response::Refused {
        at: ORDER_AT,
        manner: RefusalManner::ReturnedAndResumed,
    };
    assert!(decide(&scene, &person, Offence::LoiteringObstruction, NOW).is_citable());
    // Stored reports keep their word; the form no longer offers it.
    assert_eq!(
        serde_json::from_str::<RefusalManner>("\"returned\"").ok(),
        Some(RefusalManner::Returned)
    );
    assert_eq!(RefusalManner::Returned.label(), "Left, then came back");
    assert!(!RefusalManner::OFFERED.contains(&RefusalManner::Returned));
    assert!(RefusalManner::OFFERED.contains(&RefusalManner::ReturnedAndResumed));
    assert!(!RefusalManner::Returned.is_outright());
}

/// Finding 6: each person is judged where they were. A person shouting on their
/// own porch is not in a street or public place (§52-3), whatever the incident's
/// place; the person in the street beside them is.
#[test]
fn each_person_is_judged_where_they_were() {
    let scene = Scene {
        place: PlaceType::Street,
        ..scene()
    };
    let street = complete_person();
    let mut porch = complete_person();
    porch.place = Some(PlaceType::AboutBuildingOrDwelling);
    assert!(decide(&scene, &street, Offence::DisturbingThePeace, NOW).is_citable());
    assert_eq!(
        findings_of(&decide(&scene, &porch, Offence::DisturbingThePeace, NOW)),
        vec![(Element::PublicStreetOrPlace, Section::S52_3)]
    );
    assert_eq!(
        findings_of(&decide(&scene, &porch, Offence::LoiteringInterference, NOW)),
        vec![(Element::PublicStreetOrPlace, Section::S52_1A2)]
    );
    // A(1) reads the place obstructed, and A(3) reaches dwellings: unchanged.
    assert!(decide(&scene, &porch, Offence::LoiteringObstruction, NOW).is_citable());
    assert!(decide(&scene, &porch, Offence::LoiteringDisturbance, NOW).is_citable());
    // §52-2 is a street's or sidewalk's: a person in a park beside the street is not.
    let mut park = complete_person();
    park.place = Some(PlaceType::Park);
    assert_eq!(
        findings_of(&decide(&scene, &park, Offence::GroupObstruction, NOW)),
        vec![(Element::StreetOrSidewalk, Section::S52_2)]
    );
    // And the other way round: a person on the sidewalk of an incident recorded
    // at a dwelling.
    let dwelling = Scene {
        place: PlaceType::AboutBuildingOrDwelling,
        ..scene.clone()
    };
    let mut sidewalk = complete_person();
    sidewalk.place = Some(PlaceType::Sidewalk);
    assert!(decide(&dwelling, &sidewalk, Offence::GroupObstruction, NOW).is_citable());
    // Absent, the person's place is the incident's: stored reports read as before.
    let json = serde_json::to_value(&street).unwrap_or_default();
    assert!(json.get("place").is_none());
}

/// Finding 7: §52-1 E's proviso. Expression in contravention of another law is
/// not shielded, but the law must be named, and the case always reaches the chief.
#[test]
fn expression_contravening_another_law_must_name_it_and_reaches_the_chief() {
    let scene = scene();
    let mut person = complete_person();
    person.protected_activity = ProtectedActivity::UnlawfulExpression;
    assert!(!ProtectedActivity::UnlawfulExpression.is_protected());
    assert!(ProtectedActivity::UnlawfulExpression.is_expression());
    assert_eq!(
        Offence::offered(ProtectedActivity::UnlawfulExpression),
        Offence::ARTICLE_I.to_vec()
    );
    for law in [None, Some("   ".to_owned())] {
        person.contravenes = law;
        let d = decide(&scene, &person, Offence::LoiteringObstruction, NOW);
        assert_eq!(
            findings_of(&d),
            vec![(Element::NotProtectedExpression, Section::S52_1E)]
        );
    }
    person.contravenes = Some("Wells Code §86-3".to_owned());
    for offence in Offence::ARTICLE_I {
        let d = decide(&scene, &person, offence, NOW);
        assert!(d.is_citable(), "{offence:?}");
        let caution = Caution::ExpressionContravening {
            offence,
            law: "Wells Code §86-3".to_owned(),
        };
        assert!(d.cautions.contains(&caution), "{offence:?}");
        assert!(caution.message().starts_with("§52-1 E: "));
        assert!(caution.message().contains("contravened Wells Code §86-3"));
    }
    assert_eq!(
        ProtectedActivity::None.label(),
        "No — not expressing an opinion"
    );
}

/// Finding 11: a compliance is no violation whenever it came — the order's lapse
/// concerns refusals only, so a late "complied" is recorded, not refused.
#[test]
fn a_late_compliance_is_no_violation_and_no_error() {
    let late = ORDER_AT.plus_minutes(MINUTES_TO_COMPLY + timing::ORDER_LAPSES_AFTER_MINUTES + 30);
    let complied = Response::Complied { at: late };
    assert_eq!(
        timing::response_problems(Some(&order()), complied, late),
        vec![]
    );
    let mut person = complete_person();
    person.response = complied;
    let charges = [Charge {
        offence: Offence::LoiteringObstruction,
        issue_citation: false,
    }];
    let decisions = [decide(
        &scene(),
        &person,
        Offence::LoiteringObstruction,
        late,
    )];
    assert_eq!(
        outcome(&person, &charges, &decisions),
        Ok(Outcome::Complied)
    );
    // Before the order, it is still impossible.
    let early = Response::Complied {
        at: Moment(ORDER_AT.0 - 60_000),
    };
    assert_eq!(
        timing::response_problems(Some(&order()), early, NOW),
        vec![TimeProblem::ResponseBeforeOrder]
    );
}

/// Finding 14: a minor (by date of birth or as perceived), the arrest of a
/// minor, and a citation asked for a person not identified each reach the chief
/// — cautions, never blocks.
#[test]
fn a_minor_an_arrested_minor_and_an_unidentified_person_cited_reach_the_chief() {
    use crate::ordinance::persons::Standing;
    let mut person = complete_person();
    let cite = [Charge {
        offence: Offence::GroupObstruction,
        issue_citation: true,
    }];
    let standing = |age, perceived_under_18, identified| Standing {
        age,
        perceived_under_18,
        identified,
    };
    let adult = standing(Some(18), false, true);
    assert!(person_cautions(0, adult, &person, &cite).is_empty());
    assert_eq!(
        person_cautions(1, standing(Some(17), false, true), &person, &cite),
        vec![Caution::Minor {
            person: 1,
            age: Some(17)
        }]
    );
    assert_eq!(
        person_cautions(0, standing(None, true, false), &person, &cite),
        vec![
            Caution::Minor {
                person: 0,
                age: None
            },
            Caution::Unidentified { person: 0 }
        ]
    );
    person.arrested = true;
    assert_eq!(
        person_cautions(0, standing(Some(16), false, true), &person, &cite),
        vec![
            Caution::Minor {
                person: 0,
                age: Some(16)
            },
            Caution::MinorArrested { person: 0 }
        ]
    );
    // A caution, not a block: the arrested minor is cited and arrested.
    let decisions = [decide(&scene(), &person, Offence::GroupObstruction, NOW)];
    assert_eq!(outcome(&person, &cite, &decisions), Ok(Outcome::Arrested));
    // Not identified but no citation asked: nothing held.
    let no_citation = [Charge {
        offence: Offence::GroupObstruction,
        issue_citation: false,
    }];
    person.arrested = false;
    assert!(person_cautions(0, standing(None, false, false), &person, &no_citation).is_empty());
    assert!(Caution::Unidentified { person: 0 }
        .message()
        .contains("held out of the filing queue until"));
}

/// Finding 15: every §52-1 A(3) decision carries the "annoyance" caution (Coates
/// v. Cincinnati), citable or not.
#[test]
fn section_52_1_a_3_always_carries_the_annoyance_caution() {
    let mut person = complete_person();
    for disturbance in [true, false] {
        person.conduct.disturbance.disturbance_or_annoyance = disturbance;
        let d = decide(&scene(), &person, Offence::LoiteringDisturbance, NOW);
        assert_eq!(d.is_citable(), disturbance);
        assert!(d.cautions.contains(&Caution::AnnoyanceBasis));
    }
    assert!(Caution::AnnoyanceBasis
        .message()
        .contains("Coates v. Cincinnati, 402 U.S. 611 (1971)"));
    assert!(
        !decide(&scene(), &person, Offence::LoiteringObstruction, NOW)
            .cautions
            .contains(&Caution::AnnoyanceBasis)
    );
}

/// Finding 15: §52-2 directs an arrest, but the offence is punishable by a fine
/// only (§52-4): every arrest asks the chief to confirm the authority.
#[test]
fn an_arrest_for_an_offence_punishable_by_a_fine_only_asks_the_chief_to_confirm() {
    let mut person = complete_person();
    let d = decide(&scene(), &person, Offence::GroupObstruction, NOW);
    assert!(!d.cautions.contains(&Caution::ArrestFineOnly));
    person.arrested = true;
    let d = decide(&scene(), &person, Offence::GroupObstruction, NOW);
    assert!(d.is_citable());
    assert_eq!(d.cautions, vec![Caution::ArrestFineOnly]);
    let message = Caution::ArrestFineOnly.message();
    assert!(message.starts_with("§52-2: ") && message.contains("fine only (§52-4)"));
}
