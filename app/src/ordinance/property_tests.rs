//! Property tests over random facts: the promises the rules make whatever the
//! officer records.

use proptest::prelude::*;

use super::*;

const NOW: Moment = Moment(1_780_000_000_000);

fn moment() -> impl Strategy<Value = Moment> {
    // Two hours either side of now: past, present and future times all occur.
    (-7_200_000i64..7_200_000).prop_map(|d| Moment(NOW.0 + d))
}

fn place() -> impl Strategy<Value = PlaceType> {
    prop::sample::select(PlaceType::ALL.to_vec())
}

fn protected() -> impl Strategy<Value = ProtectedActivity> {
    prop::sample::select(ProtectedActivity::ALL.to_vec())
}

fn offence() -> impl Strategy<Value = Offence> {
    prop::sample::select(Offence::ALL.to_vec())
}

fn conduct() -> impl Strategy<Value = Conduct> {
    (
        any::<bool>(),
        (any::<bool>(), any::<bool>()),
        (any::<bool>(), any::<bool>(), any::<bool>()),
        (any::<bool>(), any::<bool>(), any::<bool>()),
        (0u16..6, any::<bool>()),
        (any::<[bool; 5]>()),
    )
        .prop_map(
            |(stayed, (p, v), (u, b, i), (d, a, l), (n, o), peace)| Conduct {
                remained_in_one_location: stayed,
                passage: PassageObstruction {
                    pedestrians: p,
                    vehicles: v,
                },
                interference: Interference {
                    use_of_property: u,
                    lawful_business: b,
                    ingress_egress: i,
                },
                disturbance: Disturbance {
                    disturbance_or_annoyance: d,
                    discomfort_or_alarm: a,
                    person_lawfully_passing: l,
                },
                group: GroupObstruction {
                    persons_together: n,
                    obstructs_free_passage: o,
                },
                peace: PeaceDisturbance {
                    loud_or_unusual_noise: peace[0],
                    improper_or_boisterous_songs: peace[1],
                    obscene_indecent_and_profane: peace[2],
                    unruly_or_boisterous_manner: peace[3],
                    disturbed_quiet_and_good_order: peace[4],
                },
            },
        )
}

fn order() -> impl Strategy<Value = Option<DispersalOrder>> {
    prop::option::of(
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
            }),
    )
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

fn facts() -> impl Strategy<Value = Facts> {
    (
        place(),
        protected(),
        conduct(),
        order(),
        prop::sample::select(vec![
            "Blocked the sidewalk.",
            "A homeless man sat there.",
            "",
        ]),
    )
        .prop_map(
            |(place, protected_activity, conduct, order, narrative)| Facts {
                place,
                protected_activity,
                conduct,
                order,
                narrative: narrative.to_owned(),
            },
        )
}

/// An order, then a refusal after it, neither in the future.
fn order_then_refusal(facts: &Facts, response: Response) -> bool {
    match (&facts.order, response) {
        (Some(order), Response::Refused { at, .. }) => {
            !order.words.trim().is_empty()
                && order.given_at <= at
                && at.0 <= NOW.0 + time::CLOCK_TOLERANCE_MS
                && order.given_at.0 <= NOW.0 + time::CLOCK_TOLERANCE_MS
        }
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn a_section_52_1_offence_with_protected_activity_is_never_citable(
        facts in facts(), response in response(), offence in offence()
    ) {
        let d = decide(&facts, response, offence, NOW);
        if offence.is_section_52_1() && facts.protected_activity.is_protected() {
            prop_assert!(!d.is_citable());
            let excluded = matches!(d.verdict, Verdict::Excluded { .. });
            prop_assert!(excluded);
        }
    }

    #[test]
    fn no_section_52_1_or_52_2_citation_without_an_order_followed_by_a_refusal(
        facts in facts(), response in response(), offence in offence()
    ) {
        let d = decide(&facts, response, offence, NOW);
        if offence != Offence::DisturbingThePeace && d.is_citable() {
            prop_assert!(order_then_refusal(&facts, response), "{:?} {:?}", facts.order, response);
        }
    }

    #[test]
    fn section_52_2_is_never_citable_for_one_person_or_off_the_street_and_sidewalk(
        facts in facts(), response in response()
    ) {
        let d = decide(&facts, response, Offence::GroupObstruction, NOW);
        if facts.conduct.group.persons_together < 2 || !facts.place.is_street_or_sidewalk() {
            prop_assert!(!d.is_citable());
        }
        if d.is_citable() {
            prop_assert!(facts.order.as_ref().is_some_and(|o| o.move_on));
        }
    }

    #[test]
    fn section_52_3_never_needs_an_order(
        facts in facts(), response in response()
    ) {
        let with = decide(&facts, response, Offence::DisturbingThePeace, NOW);
        let mut without_order = facts.clone();
        without_order.order = None;
        let without = decide(&without_order, Response::NoOrder, Offence::DisturbingThePeace, NOW);
        prop_assert_eq!(with.is_citable(), without.is_citable());
    }

    #[test]
    fn every_non_citable_decision_gives_a_reason_that_names_its_section(
        facts in facts(), response in response(), offence in offence()
    ) {
        let d = decide(&facts, response, offence, NOW);
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
    fn every_citable_decision_carries_exactly_one_hundred_dollars_plus_costs(
        facts in facts(), response in response(), offence in offence()
    ) {
        let d = decide(&facts, response, offence, NOW);
        if let Verdict::Citable { penalty, arrest_and_court } = d.verdict {
            prop_assert_eq!(penalty.fine_cents, 10_000);
            prop_assert!(penalty.plus_costs);
            prop_assert_eq!(penalty.fine_text(), "$100.00");
            prop_assert_eq!(arrest_and_court, offence == Offence::GroupObstruction);
        }
    }

    #[test]
    fn an_outcome_with_a_citation_exists_only_where_the_decision_is_citable(
        facts in facts(), response in response(), offence in offence(), cite in any::<bool>()
    ) {
        let d = decide(&facts, response, offence, NOW);
        match outcome(Some(&d), cite, facts.protected_activity, response) {
            Ok(o) => {
                prop_assert_eq!(o.is_citation(), cite);
                if cite { prop_assert!(d.is_citable()); }
                if o == Outcome::ProtectedActivity {
                    prop_assert!(facts.protected_activity.is_protected());
                }
            }
            Err(reasons) => {
                prop_assert!(cite && !d.is_citable());
                prop_assert!(!reasons.is_empty());
            }
        }
    }

    #[test]
    fn facts_and_decisions_survive_the_wire(
        facts in facts(), response in response(), offence in offence()
    ) {
        let d = decide(&facts, response, offence, NOW);
        let facts_json = serde_json::to_string(&facts).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back: Facts = serde_json::from_str(&facts_json).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back, &facts);
        let json = serde_json::to_string(&d).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back: Decision = serde_json::from_str(&json).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back, d);
    }
}
