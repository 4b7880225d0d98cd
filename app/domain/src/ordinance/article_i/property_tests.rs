//! Property tests over random incidents: the promises the rules make whatever
//! the officer records. The central one: no person is ever citable unless *their
//! own* facts hold every element of the offence — checked against an oracle
//! written here from the text of Chapter 52, independently of `decide`.

use proptest::prelude::*;

use super::timing::ORDER_LAPSES_AFTER_MINUTES;
use super::*;
use crate::ordinance::time::CLOCK_TOLERANCE_MS;
use crate::ordinance::Moment;

const NOW: Moment = Moment(1_780_000_000_000);

fn moment() -> impl Strategy<Value = Moment> {
    // Two hours either side of now, and now and then a day before: past, present,
    // future and stale times all occur.
    prop_oneof![
        4 => (-7_200_000i64..7_200_000).prop_map(|d| Moment(NOW.0 + d)),
        1 => (86_400_000i64..90_000_000).prop_map(|d| Moment(NOW.0 - d)),
    ]
}

fn place() -> impl Strategy<Value = PlaceType> {
    prop::sample::select(PlaceType::ALL.to_vec())
}

fn protected() -> impl Strategy<Value = ProtectedActivity> {
    prop::sample::select(ProtectedActivity::ALL.to_vec())
}

fn offence() -> impl Strategy<Value = Offence> {
    prop::sample::select(Offence::ARTICLE_I.to_vec())
}

fn conduct() -> impl Strategy<Value = Conduct> {
    (
        any::<bool>(),
        (any::<bool>(), any::<bool>(), prop::option::of(place())),
        any::<[bool; 3]>(),
        any::<[bool; 3]>(),
        (
            prop::collection::vec(0usize..4, 0..3),
            0u16..3,
            any::<bool>(),
        ),
        any::<[bool; 9]>(),
    )
        .prop_map(
            |(stayed, (p, v, obstructed), i, d, (with, others, o), peace)| Conduct {
                remained_in_one_location: stayed,
                passage: PassageObstruction {
                    pedestrians: p,
                    vehicles: v,
                    place: obstructed,
                },
                interference: Interference {
                    use_of_property: i[0],
                    lawful_business: i[1],
                    ingress_egress: i[2],
                },
                disturbance: Disturbance {
                    disturbance_or_annoyance: d[0],
                    discomfort_or_alarm: d[1],
                    person_lawfully_passing: d[2],
                },
                group: GroupStanding {
                    stood_with: with,
                    others,
                    obstructs_free_passage: o,
                },
                peace: PeaceDisturbance {
                    loud_noise: peace[0],
                    unusual_noise: peace[1],
                    improper_songs: peace[2],
                    boisterous_songs: peace[3],
                    obscene: peace[4],
                    indecent: peace[5],
                    profane: peace[6],
                    unruly_or_boisterous_manner: peace[7],
                    disturbed_quiet_and_good_order: peace[8],
                },
                gathering: None,
            },
        )
}

fn dispersal_order() -> impl Strategy<Value = DispersalOrder> {
    (
        prop::sample::select(vec![
            "",
            "  ",
            "Stop and move on.",
            "Stop blocking the door.",
        ]),
        moment(),
        any::<bool>(),
        0u32..15,
    )
        .prop_map(|(words, given_at, move_on, minutes)| DispersalOrder {
            words: words.to_owned(),
            given_at,
            move_on,
            minutes_to_comply: minutes,
        })
}

fn scene() -> impl Strategy<Value = Scene> {
    (
        moment(),
        place(),
        prop::collection::vec(dispersal_order(), 0..3),
    )
        .prop_map(|(started_at, place, orders)| Scene {
            started_at,
            place,
            orders,
            gathering: None,
        })
}

fn response() -> impl Strategy<Value = Response> {
    prop_oneof![
        Just(Response::NoOrder),
        Just(Response::LeftBeforeOrder),
        moment().prop_map(|at| Response::Complied { at }),
        (moment(), prop::sample::select(RefusalManner::ALL.to_vec()))
            .prop_map(|(at, manner)| Response::Refused { at, manner }),
    ]
}

/// The law named under §52-1 E's proviso: none, blank, or named.
fn law() -> impl Strategy<Value = Option<String>> {
    prop::option::of(
        prop::sample::select(vec!["", "  ", "Wells Code §86-3"]).prop_map(str::to_owned),
    )
}

fn person() -> impl Strategy<Value = PersonFacts> {
    (
        protected(),
        conduct(),
        prop::option::of(0usize..3),
        response(),
        any::<bool>(),
        prop::option::of(place()),
        law(),
    )
        .prop_map(
            |(protected_activity, conduct, order, response, arrested, place, contravenes)| {
                PersonFacts {
                    protected_activity,
                    conduct,
                    order,
                    response,
                    arrested,
                    place,
                    contravenes,
                }
            },
        )
}

/// An incident of one to four persons.
fn incident() -> impl Strategy<Value = (Scene, Vec<PersonFacts>)> {
    (scene(), prop::collection::vec(person(), 1..5))
}

/// The oracle: whether `person`'s own facts (and the scene) hold every element of
/// `offence`, read from the text of Chapter 52 and the department's readings
/// (article_i module documentation), not from `decide`.
fn holds_every_element(scene: &Scene, p: &PersonFacts, offence: Offence) -> bool {
    let c = &p.conduct;
    let public = |place: PlaceType| place != PlaceType::AboutBuildingOrDwelling;
    let not_future = |at: Moment| at.0 <= NOW.0 + CLOCK_TOLERANCE_MS;
    // Where this person was: their own place, or the incident's.
    let place = p.place.unwrap_or(scene.place);
    // §52-1 D / §52-2: an order to this person, within the incident, with words,
    // then a refusal after the chance to obey (or outright), before it lapses.
    let order_then_refusal = |move_on_needed: bool| {
        let Some(order) = p.order.and_then(|i| scene.orders.get(i)) else {
            return false;
        };
        let Response::Refused { at, manner } = p.response else {
            return false;
        };
        if manner == RefusalManner::Returned {
            return false;
        }
        let comply_by = Moment(order.given_at.0 + i64::from(order.minutes_to_comply) * 60_000);
        let chance = Moment(comply_by.0.max(order.given_at.0 + 60_000));
        let lapses = Moment(comply_by.0 + i64::from(ORDER_LAPSES_AFTER_MINUTES) * 60_000);
        let outright = matches!(
            manner,
            RefusalManner::RefusedVerbally
                | RefusalManner::ActedAgainstOrder
                | RefusalManner::ReturnedAndResumed
        );
        !order.words.trim().is_empty()
            && (!move_on_needed || order.move_on)
            && scene.started_at <= order.given_at
            && not_future(order.given_at)
            && order.given_at <= at
            && (outright || chance <= at)
            && at <= lapses
            && not_future(at)
    };
    // §52-1 E: not shielded — no expression, or expression contravening a law
    // that is named.
    let law_named = p
        .contravenes
        .as_deref()
        .is_some_and(|law| !law.trim().is_empty());
    let not_shielded = match p.protected_activity {
        ProtectedActivity::None => true,
        ProtectedActivity::UnlawfulExpression => law_named,
        _ => false,
    };
    let loitering_52_1 = not_shielded && c.remained_in_one_location;
    match offence {
        Offence::LoiteringObstruction => {
            loitering_52_1
                && (c.passage.pedestrians || c.passage.vehicles)
                && c.passage.place.is_some_and(public)
                && order_then_refusal(false)
        }
        Offence::LoiteringInterference => {
            loitering_52_1
                && public(place)
                && (c.interference.use_of_property
                    || c.interference.lawful_business
                    || c.interference.ingress_egress)
                && order_then_refusal(false)
        }
        Offence::LoiteringDisturbance => {
            loitering_52_1
                && c.disturbance.disturbance_or_annoyance
                && c.disturbance.discomfort_or_alarm
                && c.disturbance.person_lawfully_passing
                && order_then_refusal(false)
        }
        Offence::GroupObstruction => {
            matches!(place, PlaceType::Street | PlaceType::Sidewalk)
                && (c.group.stood_with.len() + usize::from(c.group.others)) >= 1
                && c.group.obstructs_free_passage
                && order_then_refusal(true)
        }
        Offence::DisturbingThePeace => {
            let q = c.peace;
            public(place)
                && (q.loud_noise
                    || q.unusual_noise
                    || q.improper_songs
                    || q.boisterous_songs
                    || (q.obscene && q.indecent && q.profane)
                    || q.unruly_or_boisterous_manner)
                && q.disturbed_quiet_and_good_order
        }
        // Article II's offence is decided on the gathering's facts
        // (`article_ii::enforcement`'s own tests), never drawn here.
        Offence::UnpermittedMassGathering => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// The issue's property: a person is citable exactly when their own facts
    /// hold every element of the offence — never on anyone else's.
    #[test]
    fn a_person_is_citable_only_when_their_own_facts_hold_every_element(
        (scene, persons) in incident(), offence in offence()
    ) {
        for (i, p) in persons.iter().enumerate() {
            let d = decide(&scene, p, offence, NOW);
            prop_assert_eq!(
                d.is_citable(),
                holds_every_element(&scene, p, offence),
                "person {} of {:?} for {:?}: {:?}", i, persons, offence, d.verdict
            );
        }
    }

    /// Another person's facts, however damning, change nothing about this one.
    #[test]
    fn another_persons_facts_never_change_a_verdict(
        (scene, persons) in incident(), other in person(), offence in offence()
    ) {
        let alone = decide(&scene, &persons[0], offence, NOW);
        let mut crowd = persons.clone();
        crowd.push(other);
        // `decide` takes one person: the crowd cannot reach it. Asking again with
        // the crowd around gives the same answer for every person already there.
        for (i, p) in crowd.iter().enumerate().take(persons.len()) {
            prop_assert_eq!(&decide(&scene, p, offence, NOW), &decide(&scene, &persons[i], offence, NOW));
        }
        prop_assert_eq!(alone, decide(&scene, &crowd[0], offence, NOW));
    }

    #[test]
    fn a_section_52_1_offence_is_never_citable_for_a_person_expressing_an_opinion_lawfully(
        scene in scene(), p in person(), offence in offence()
    ) {
        let d = decide(&scene, &p, offence, NOW);
        if offence.is_section_52_1() && p.protected_activity.is_protected() {
            let excluded = matches!(d.verdict, Verdict::Excluded { .. });
            prop_assert!(excluded);
        }
    }

    #[test]
    fn a_speech_based_section_52_3_case_always_carries_the_speech_caution(
        scene in scene(), p in person()
    ) {
        let d = decide(&scene, &p, Offence::DisturbingThePeace, NOW);
        let q = p.conduct.peace;
        let speech = q.improper_songs || q.boisterous_songs || (q.obscene && q.indecent && q.profane);
        let cautioned = d.cautions.iter().any(|c| matches!(c, Caution::SpeechBasis { .. }));
        prop_assert_eq!(cautioned, speech);
    }

    #[test]
    fn section_52_3_never_needs_an_order(
        scene in scene(), p in person()
    ) {
        let with = decide(&scene, &p, Offence::DisturbingThePeace, NOW);
        let without_order = PersonFacts { order: None, response: Response::NoOrder, ..p.clone() };
        let bare = Scene { orders: Vec::new(), ..scene.clone() };
        prop_assert_eq!(with.is_citable(), decide(&bare, &without_order, Offence::DisturbingThePeace, NOW).is_citable());
    }

    #[test]
    fn every_non_citable_decision_gives_a_reason_that_names_its_section(
        scene in scene(), p in person(), offence in offence()
    ) {
        let d = decide(&scene, &p, offence, NOW);
        if !d.is_citable() {
            let reasons = d.reasons();
            prop_assert!(!reasons.is_empty());
            for r in reasons {
                let prefix = format!("{}: ", r.section);
                prop_assert!(r.message.starts_with(&prefix), "{}", r.message);
            }
        } else {
            prop_assert!(d.reasons().is_empty());
        }
    }

    #[test]
    fn every_citable_decision_carries_the_offences_penalty(
        scene in scene(), p in person(), offence in offence()
    ) {
        let d = decide(&scene, &p, offence, NOW);
        if let Verdict::Citable { penalty } = d.verdict {
            prop_assert_eq!(penalty, offence.penalty());
            prop_assert_eq!(penalty.fine_text(), "$100.00");
            prop_assert!(penalty.plus_costs);
        }
    }

    #[test]
    fn an_outcome_with_a_citation_exists_only_where_every_cited_decision_is_citable(
        scene in scene(), p in person(),
        charges in prop::collection::vec((offence(), any::<bool>()), 0..3)
    ) {
        let mut charges: Vec<Charge> = charges
            .into_iter()
            .map(|(offence, issue_citation)| Charge { offence, issue_citation })
            .collect();
        charges.dedup_by_key(|c| c.offence);
        let decisions: Vec<Decision> = charges.iter().map(|c| decide(&scene, &p, c.offence, NOW)).collect();
        let any_cited = charges.iter().any(|c| c.issue_citation);
        match outcome(&p, &charges, &decisions) {
            Ok(o) => {
                prop_assert_eq!(o.is_citation(), any_cited);
                for (c, d) in charges.iter().zip(&decisions) {
                    if c.issue_citation { prop_assert!(d.is_citable()); }
                }
                if o == Outcome::Arrested {
                    prop_assert!(p.arrested);
                    prop_assert!(charges.iter().zip(&decisions).any(|(c, d)|
                        c.issue_citation && c.offence == Offence::GroupObstruction && d.is_citable()));
                }
                if p.arrested { prop_assert_eq!(o, Outcome::Arrested); }
                if o == Outcome::ProtectedActivity {
                    prop_assert!(p.protected_activity.is_protected());
                }
            }
            Err(reasons) => {
                prop_assert!(!reasons.is_empty());
                let refused_charge = charges.iter().zip(&decisions).any(|(c, d)| c.issue_citation && !d.is_citable());
                let cited_52_1 = charges.iter().filter(|c| c.issue_citation && c.offence.is_section_52_1()).count();
                prop_assert!(refused_charge || p.arrested || cited_52_1 > 1);
            }
        }
    }

    /// Issue #33: no person is citable for a failure to obey without an outright
    /// refusal or the time allowed having passed — and never in the order's own
    /// minute; coming back without resuming the conduct is no refusal at all.
    #[test]
    fn no_person_is_citable_for_a_failure_to_obey_without_an_outright_refusal_or_the_time_allowed_passed(
        scene in scene(), p in person(), offence in offence()
    ) {
        let d = decide(&scene, &p, offence, NOW);
        if d.is_citable() && offence.needs_order() {
            let order = p.order_in(&scene);
            prop_assert!(order.is_some());
            let Response::Refused { at, manner } = p.response else {
                return Err(TestCaseError::fail("citable without a refusal"));
            };
            prop_assert!(manner != RefusalManner::Returned);
            if !manner.is_outright() {
                let order = order.map(|o| (o.given_at, o.comply_by()));
                prop_assert!(order.is_some_and(|(given_at, comply_by)|
                    at >= comply_by && at.0 >= given_at.0 + 60_000));
            }
        }
    }

    /// Issue #33: one refusal of one order is one §52-1 violation — at most one
    /// §52-1 citation per person (a person receives one order).
    #[test]
    fn at_most_one_section_52_1_citation_per_person_per_order_refused(
        scene in scene(), p in person(),
        charges in prop::collection::vec((offence(), any::<bool>()), 0..6)
    ) {
        let mut charges: Vec<Charge> = charges
            .into_iter()
            .map(|(offence, issue_citation)| Charge { offence, issue_citation })
            .collect();
        charges.sort_by_key(|c| c.offence);
        charges.dedup_by_key(|c| c.offence);
        let decisions: Vec<Decision> = charges.iter().map(|c| decide(&scene, &p, c.offence, NOW)).collect();
        if let Ok(o) = outcome(&p, &charges, &decisions) {
            let cited_52_1 = charges.iter().filter(|c| c.issue_citation && c.offence.is_section_52_1()).count();
            prop_assert!(!o.is_citation() || cited_52_1 <= 1, "{:?}", charges);
        }
    }

    /// Issue #33: the chief sees every §52-1 A(3) decision ("annoyance") and
    /// every arrest for an offence punishable by a fine only.
    #[test]
    fn annoyance_and_an_arrest_always_reach_the_chief(
        scene in scene(), p in person(), offence in offence()
    ) {
        let d = decide(&scene, &p, offence, NOW);
        prop_assert_eq!(
            d.cautions.contains(&Caution::AnnoyanceBasis),
            offence == Offence::LoiteringDisturbance
        );
        prop_assert_eq!(
            d.cautions.contains(&Caution::ArrestFineOnly),
            offence == Offence::GroupObstruction && p.arrested
        );
    }

    #[test]
    fn facts_and_decisions_survive_the_wire(
        (scene, persons) in incident(), offence in offence()
    ) {
        let fail = |e: serde_json::Error| TestCaseError::fail(e.to_string());
        let json = serde_json::to_string(&(&scene, &persons)).map_err(fail)?;
        let back: (Scene, Vec<PersonFacts>) = serde_json::from_str(&json).map_err(fail)?;
        prop_assert_eq!(&back, &(scene.clone(), persons.clone()));
        let d = decide(&scene, &persons[0], offence, NOW);
        let json = serde_json::to_string(&d).map_err(fail)?;
        let back: Decision = serde_json::from_str(&json).map_err(fail)?;
        prop_assert_eq!(back, d);
    }
}
