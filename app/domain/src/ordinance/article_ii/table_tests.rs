//! Every number of the calculator at its boundaries, and the permit threshold at
//! its edges (issue #19's table).

use super::calendar::*;
use super::*;
use crate::ordinance::Penalty;

fn plan(attendance: u32, vehicles: u32) -> Plan {
    Plan {
        attendance,
        vehicles,
        buses: 0,
        daily_minutes: 8 * 60,
        days: 1,
        by_sex: None,
        water_under_pressure: false,
        estimated_public_costs_cents: 0,
    }
}

fn need(attendance: u32, vehicles: u32) -> Requirements {
    Requirements::for_plan(&plan(attendance, vehicles))
}

fn gathering(attendance: u32, minutes: u32) -> Gathering {
    Gathering {
        outdoor: true,
        expected_attendance: attendance,
        expected_minutes: minutes,
        venue: Venue::Open,
    }
}

#[test]
fn a_permit_is_needed_from_500_persons_and_two_hours() {
    let cases = [
        (499, 120, false),
        (500, 120, true),
        (500, 119, false),
        (2_400, 119, false),
        (2_400, 120, true),
        (10_000, 600, true),
    ];
    for (attendance, minutes, required) in cases {
        assert_eq!(
            permit_need(&gathering(attendance, minutes)).is_required(),
            required,
            "{attendance} persons for {minutes} min"
        );
    }
    let PermitNeed::NotRequired(why) = permit_need(&gathering(500, 119)) else {
        panic!("1 h 59 min needs no permit");
    };
    assert_eq!(why[0].0, Provision::S52_7);
    assert!(why[0].1.contains("1 h 59 min"), "{why:?}");
    let PermitNeed::NotRequired(why) = permit_need(&gathering(499, 120)) else {
        panic!("499 persons need no permit");
    };
    assert_eq!(why[0].0, Provision::S52_6_3);
}

#[test]
fn indoors_or_at_a_permanent_venue_with_facilities_needs_no_permit() {
    let indoors = Gathering {
        outdoor: false,
        ..gathering(5_000, 300)
    };
    assert!(!permit_need(&indoors).is_required());
    let stadium = |sufficient| Gathering {
        venue: Venue::PermanentPlaceOfAssembly {
            sufficient_sanitary_facilities: sufficient,
        },
        ..gathering(5_000, 300)
    };
    let PermitNeed::NotRequired(why) = permit_need(&stadium(true)) else {
        panic!("a stadium with facilities is not a mass gathering area");
    };
    assert_eq!(why[0].0, Provision::S52_6_2);
    assert!(
        permit_need(&stadium(false)).is_required(),
        "a stadium whose facilities fall short is a mass gathering area"
    );
}

#[test]
fn toilets_are_one_per_350_of_the_persons_each_sex_serves() {
    // No split stated: half the persons each side, rounded up (§52-10(4)(d)).
    for (n, each) in [
        (1, 1),
        (700, 1),
        (701, 2),
        (1_400, 2),
        (1_401, 3),
        (2_100, 3),
        (2_101, 4),
        (2_400, 4),
        (2_800, 4),
        (2_801, 5),
    ] {
        let r = need(n, 0);
        assert_eq!((r.toilets_men, r.toilets_women), (each, each), "N = {n}");
    }
    // The application states the men and the women expected: each their own.
    let stated = |men, women| {
        Requirements::for_plan(&Plan {
            by_sex: Some(BySex { men, women }),
            ..plan(men + women, 0)
        })
    };
    let r = stated(1_500, 900);
    assert_eq!((r.toilets_men, r.toilets_women), (5, 3), "1,500 + 900");
    let r = stated(350, 351);
    assert_eq!((r.toilets_men, r.toilets_women), (1, 2), "350 + 351");
    let r = stated(0, 2_400);
    assert_eq!(
        (r.toilets_men, r.toilets_women),
        (0, 7),
        "no men expected, none for men"
    );
}

#[test]
fn refuse_containers_for_persons_and_for_motor_vehicles() {
    for (n, fifty, sixteen) in [(100, 1, 1), (101, 2, 1), (5_000, 50, 1), (5_001, 51, 2)] {
        let refuse = need(n, 0).refuse;
        assert_eq!(
            (refuse.fifty_gallon, refuse.sixteen_cubic_yard),
            (fifty, sixteen),
            "N = {n}"
        );
    }
    // §52-10(5)(c) counts motor vehicles: the cars and the buses.
    for (v, b, fifty, sixteen) in [
        (25, 0, 1, 1),
        (26, 0, 2, 1),
        (24, 1, 1, 1),
        (25, 1, 2, 1),
        (600, 0, 24, 1),
        (600, 1, 25, 1),
        (600, 4, 25, 1),
        (2_000, 0, 80, 1),
        (2_001, 0, 81, 2),
        (1_999, 2, 81, 2),
    ] {
        let refuse = Requirements::for_plan(&Plan {
            buses: b,
            ..plan(5_000, v)
        })
        .parking_refuse;
        assert_eq!(
            (refuse.fifty_gallon, refuse.sixteen_cubic_yard),
            (fifty, sixteen),
            "V = {v}, B = {b}"
        );
    }
    let issue = Requirements::for_plan(&Plan {
        buses: 4,
        ..plan(2_400, 600)
    });
    assert_eq!(
        issue.parking_refuse.fifty_gallon, 25,
        "N 2,400, V 600, B 4: ⌈604/25⌉"
    );
    assert_eq!(
        need(5_000, 0).parking_refuse.fifty_gallon,
        0,
        "no vehicles, no parking refuse"
    );
}

#[test]
fn refuse_is_collected_twice_each_twelve_hour_period_on_each_day() {
    for (days, daily, collections) in [
        (1, 120, 2),
        (1, 6 * 60, 2),
        (1, 6 * 60 + 1, 2),
        (1, 12 * 60, 2),
        (1, 12 * 60 + 1, 4),
        (1, 24 * 60, 4),
        (2, 8 * 60, 4),
        (3, 4 * 60, 6),
        (3, 5 * 60, 6),
        (2, 12 * 60 + 1, 8),
    ] {
        assert_eq!(
            requirements::collections(daily, days),
            collections,
            "{days} day(s) of {daily} min"
        );
        let plan = Plan {
            daily_minutes: daily,
            days,
            ..plan(2_400, 0)
        };
        assert_eq!(Requirements::for_plan(&plan).collections, collections);
    }
}

#[test]
fn either_kind_of_container_or_a_mix_of_both_meets_the_refuse_standard() {
    let rule = Containers {
        fifty_gallon: 24,
        sixteen_cubic_yard: 1,
    };
    assert!(rule.met_by(24, 0));
    assert!(rule.met_by(0, 1));
    assert!(!rule.met_by(23, 0));
    let two = Containers {
        fifty_gallon: 60,
        sixteen_cubic_yard: 2,
    };
    assert!(two.met_by(30, 1), "half and half");
    assert!(!two.met_by(29, 1));
}

#[test]
fn parking_space_area_roads_water_officers() {
    let n = need(2_401, 600);
    assert_eq!(
        n.parking_spaces, 601,
        "one space for every four persons, rounded up"
    );
    assert_eq!(need(2_400, 600).parking_spaces, 600);
    assert_eq!(
        n.parking_acre_hundredths, 600,
        "600 cars at 100 an acre: 6 acres"
    );
    let buses = Requirements::for_plan(&Plan {
        buses: 31,
        ..plan(2_400, 100)
    });
    // 100 cars (1 acre) + 31 buses (31/30 acre) = 2.0333… → 2.04 acres.
    assert_eq!(buses.parking_acre_hundredths, 204);
    assert_eq!(n.site_square_feet, 24_010, "10 square feet a person");
    assert_eq!(road_width_feet(1, 0), 12);
    assert_eq!(road_width_feet(2, 0), 24);
    assert_eq!(road_width_feet(2, 1), 31);
    assert_eq!(n.water_gallons_per_day, 3 * 2_401, "no pressure: 3 gallons");
    let pressure = Requirements::for_plan(&Plan {
        water_under_pressure: true,
        ..plan(2_401, 0)
    });
    assert_eq!(pressure.water_gallons_per_day, 30 * 2_401);
    assert_eq!(pressure.water_psi, Some(20));
    assert_eq!(n.water_psi, None);
    assert_eq!(n.officers, 15);
    assert_eq!(n.clear_within_hours, 24);
}

#[test]
fn money_insurance_bond_deposit_fee_and_fine() {
    let n = Requirements::for_plan(&Plan {
        estimated_public_costs_cents: 10_000 * 100 + 1,
        ..plan(2_400, 0)
    });
    assert_eq!(n.insurance_per_person_cents, 300_000 * 100);
    assert_eq!(n.insurance_per_occurrence_cents, 500_000 * 100);
    assert_eq!(n.insurance_property_cents, 100_000 * 100);
    assert_eq!(n.bond_cents, 5_000 * 100);
    assert_eq!(
        n.deposit_cents,
        12_000 * 100 + 2,
        "120 %, rounded up to the cent"
    );
    assert_eq!(n.fee_cents, 100 * 100);
    assert_eq!(Penalty::ARTICLE_II.fine_text(), "$1,000.00");
    assert!(Penalty::ARTICLE_II.statement().contains("§52-12"));
}

/// An application that meets every standard for `plan`.
fn complete(plan: &Plan) -> Provided {
    let n = Requirements::for_plan(plan);
    Provided {
        parking_spaces: n.parking_spaces,
        parking_acre_hundredths: n.parking_acre_hundredths,
        road_lanes: 2,
        road_parking_lanes: 0,
        road_width_feet: 24,
        site_square_feet: n.site_square_feet,
        overnight: false,
        lighting: true,
        traffic_control: true,
        potable_water: true,
        water_gallons_per_day: n.water_gallons_per_day,
        water_psi: n.water_psi,
        toilets_men: n.toilets_men,
        toilets_women: n.toilets_women,
        refuse: n.refuse,
        parking_refuse: n.parking_refuse,
        collections: n.collections,
        clear_within_hours: 24,
        fire_department_informed: true,
        officers: 15,
        physician_supervision: true,
        first_aid_station: true,
        ambulances_on_site: true,
        phone_and_radio: true,
        hospitals_told: true,
        sound_precautions: true,
        insurance_per_person_cents: n.insurance_per_person_cents,
        insurance_per_occurrence_cents: n.insurance_per_occurrence_cents,
        insurance_property_cents: n.insurance_property_cents,
        bond_cents: n.bond_cents,
        deposit_cents: n.deposit_cents,
    }
}

#[test]
fn a_complete_application_has_no_shortfall_and_each_gap_names_its_section_and_step() {
    let p = plan(2_400, 600);
    assert_eq!(shortfalls(&p, &complete(&p)), Ok(vec![]));
    let short = Provided {
        toilets_men: 3,
        toilets_women: 5,
        officers: 12,
        overnight: true,
        ..complete(&p)
    };
    let found = shortfalls(&p, &short).expect("a valid plan");
    let reasons: Vec<String> = found.iter().map(Shortfall::reason).collect();
    assert_eq!(
        reasons,
        [
            "§52-10(2)(f): the assemblage continues overnight",
            "§52-10(4)(d): 3 toilets for men provided, 4 required (one for each 350 of 1200 men, half the 2400 persons expected)",
            "§52-10(7)(e): 12 law enforcement officers on site, at least 15 required",
        ]
    );
    assert!(
        found[1].step.starts_with("Provide 4 toilets for men"),
        "{:?}",
        found[1]
    );
    assert!(found[2].step.contains("3 more"), "{:?}", found[2]);
    let underinsured = Provided {
        bond_cents: 4_000 * 100,
        insurance_property_cents: 50_000 * 100,
        ..complete(&p)
    };
    let found = shortfalls(&p, &underinsured).expect("a valid plan");
    let reasons: Vec<String> = found.iter().map(Shortfall::reason).collect();
    assert_eq!(
        reasons,
        [
            "§52-11: liability insurance for property damage of $50,000.00, at least $100,000.00 required",
            "§52-9 D: bond of $4,000.00, at least $5,000.00 required",
        ]
    );
    assert_eq!(
        found[1].step,
        "Furnish a surety bond (or cash or securities) of at least $5,000.00."
    );
}

#[test]
fn a_plan_that_cannot_be_planned_for_names_its_field_and_section() {
    let p = plan(2_400, 600);
    let provided = complete(&p);
    let zero = shortfalls(&plan(0, 0), &provided).expect_err("no one anticipated");
    assert_eq!(
        (zero.field, zero.provision),
        ("attendance", Provision::S52_10_2F)
    );
    let absurd = plan(requirements::MAX_ATTENDANCE + 1, 0)
        .validate()
        .expect_err("absurd");
    assert_eq!(absurd.field, "attendance");
    let no_time = Plan {
        daily_minutes: 0,
        ..p
    };
    assert_eq!(no_time.validate().expect_err("no hours").field, "hours");
    let too_long = Plan {
        daily_minutes: 25 * 60,
        ..p
    };
    assert_eq!(
        too_long.validate().expect_err("25 h in a day").field,
        "hours"
    );
    let no_day = Plan { days: 0, ..p };
    assert_eq!(no_day.validate().expect_err("no day").field, "days");
    let split = Plan {
        by_sex: Some(BySex {
            men: 1_000,
            women: 1_000,
        }),
        ..p
    };
    let wrong = split.validate().expect_err("2,000 of 2,400");
    assert_eq!(
        (wrong.field, wrong.provision),
        ("expected_men", Provision::S52_10_4D)
    );
    let cars = Plan {
        vehicles: 2_401,
        ..p
    };
    assert_eq!(
        cars.validate().expect_err("more cars than people").field,
        "vehicles"
    );
}

#[test]
fn the_calendar_of_section_52_9() {
    // Day numbers: 20 600 is 2026-05-26.
    let first = 20_600;
    assert_eq!(last_filing_day(first), 20_580);
    assert_eq!(
        filing_problem(20_580, first),
        None,
        "the twentieth day before is in time"
    );
    let (provision, late) = filing_problem(20_581, first).expect("a day late");
    assert_eq!(provision, Provision::S52_9A);
    assert!(late.contains("1 day(s) late"), "{late}");
    assert_eq!(decision_clock(None, 20_000), DecisionClock::NotConsidered);
    assert_eq!(
        decision_clock(Some(20_000), 20_007),
        DecisionClock::DueBy(20_007)
    );
    assert_eq!(
        decision_clock(Some(20_000), 20_008),
        DecisionClock::DeemedDenied { since: 20_008 },
        "no decision within seven days is a denial (§52-9 B(3))"
    );
    assert_eq!(excess_due_day(20_100), 20_110);
    assert_eq!(
        settlement_cents(12_000 * 100, 9_500 * 100),
        2_500 * 100,
        "refund"
    );
    assert_eq!(
        settlement_cents(12_000 * 100, 13_000 * 100),
        -1_000 * 100,
        "owed"
    );
    assert!(APPEAL.contains("Rule 80B"));
}

#[test]
fn a_late_filing_is_the_first_reason_and_twenty_days_ahead_is_in_time() {
    let p = plan(2_400, 0);
    let provided = complete(&p);
    let first_day = 20_000;
    let on_time =
        application_shortfalls(&p, &provided, first_day - 20, first_day).expect("a valid plan");
    assert!(on_time.is_empty(), "{on_time:?}");
    let late =
        application_shortfalls(&p, &provided, first_day - 19, first_day).expect("a valid plan");
    assert_eq!(late.len(), 1);
    assert_eq!(late[0].provision, Provision::S52_9A);
    assert!(late[0].finding.contains("1 day(s) late"), "{late:?}");
    let short = Provided {
        toilets_men: 3,
        ..provided
    };
    let both = application_shortfalls(&p, &short, first_day - 19, first_day).expect("a valid plan");
    assert_eq!(
        both.iter().map(|s| s.provision).collect::<Vec<_>>(),
        [Provision::S52_9A, Provision::S52_10_4D]
    );
}

#[test]
fn should_items_are_advice_and_shall_items_are_grounds() {
    let p = plan(2_400, 600);
    let open = Provided {
        // §52-10(2)(e): two lanes "should" be 24 feet.
        road_width_feet: 20,
        // §52-10(5)(b), (c): containers "should" be provided.
        refuse: Containers {
            fifty_gallon: 20,
            sixteen_cubic_yard: 0,
        },
        parking_refuse: Containers {
            fifty_gallon: 20,
            sixteen_cubic_yard: 0,
        },
        ..complete(&p)
    };
    let found = shortfalls(&p, &open).expect("a valid plan");
    let standards: Vec<(Provision, Standard)> =
        found.iter().map(|s| (s.provision, s.standard)).collect();
    assert_eq!(
        standards,
        [
            (Provision::S52_10_2E, Standard::Should),
            (Provision::S52_10_5B, Standard::Should),
            (Provision::S52_10_5C, Standard::Should),
        ]
    );
    assert!(grounds_to_deny(&found).is_empty(), "advice only: no ground");
    assert_eq!(advice(&found).len(), 3);
    // The rest of (2)(e) is "shall": parking spaces and acreage are grounds.
    let short = Provided {
        parking_spaces: 599,
        parking_acre_hundredths: 599,
        toilets_women: 3,
        collections: 1,
        ..open
    };
    let found = shortfalls(&p, &short).expect("a valid plan");
    let grounds: Vec<Provision> = grounds_to_deny(&found)
        .iter()
        .map(|s| s.provision)
        .collect();
    assert_eq!(
        grounds,
        [
            Provision::S52_10_2E,
            Provision::S52_10_2E,
            Provision::S52_10_4D,
            Provision::S52_10_5D,
        ]
    );
    assert_eq!(advice(&found).len(), 3);
}

#[test]
fn a_reason_stored_before_advice_was_told_apart_reads_as_a_ground() {
    let stored = r#"{"provision":"S52_10_5B","finding":"20 fifty-gallon","step":"Provide 24."}"#;
    let read: Shortfall = serde_json::from_str(stored).expect("a stored reason");
    assert_eq!(read.standard, Standard::Shall);
    assert_eq!(serde_json::to_string(&read).expect("json"), stored);
    let advice = Shortfall {
        standard: Standard::Should,
        ..read
    };
    assert!(serde_json::to_string(&advice)
        .expect("json")
        .contains(r#""standard":"should""#));
}

/// Issue #37, finding 18: "§52-8: §52-10(2)(b): …". Every reason names its
/// section once: those the rules find for an application that provides
/// nothing, and a Board finding typed with the section it names, under any
/// standard.
#[test]
fn every_reason_names_its_section_once() {
    let twice = |reason: &str| {
        let head = reason.split(": ").take(2).collect::<Vec<_>>();
        head.len() == 2 && head[0].starts_with('§') && head[1].starts_with('§')
    };
    let p = plan(2_400, 600);
    let nothing = Provided {
        overnight: true,
        clear_within_hours: 72,
        ..Provided::default()
    };
    let found = shortfalls(&p, &nothing).expect("a valid plan");
    assert!(found.len() > 10, "{found:?}");
    for s in &found {
        let reason = s.reason();
        assert!(reason.starts_with('§'), "{reason}");
        assert!(!twice(&reason), "{reason}");
    }
    for provision in [Provision::S52_8, Provision::S52_10_2E, Provision::S52_10_1] {
        let board = Shortfall {
            provision,
            finding: "§52-10(2)(b): one gate for 2,400 persons; a second is needed".into(),
            step: "Provide a second gate.".into(),
            standard: Standard::Shall,
        };
        // Under §52-8 the section typed is the one the finding rests on; under
        // another standard the record says which it is stored under.
        let expected = if provision == Provision::S52_8 {
            "§52-10(2)(b): one gate for 2,400 persons; a second is needed".to_owned()
        } else {
            format!("{provision}: §52-10(2)(b): one gate for 2,400 persons; a second is needed")
        };
        assert_eq!(board.reason(), expected);
        let own = Shortfall {
            finding: format!("{provision}: one gate for 2,400 persons"),
            ..board.clone()
        };
        assert_eq!(
            own.reason(),
            format!("{provision}: one gate for 2,400 persons")
        );
        let plain = Shortfall {
            finding: "one gate for 2,400 persons".into(),
            ..board
        };
        assert_eq!(
            plain.reason(),
            format!("{provision}: one gate for 2,400 persons")
        );
    }
}
