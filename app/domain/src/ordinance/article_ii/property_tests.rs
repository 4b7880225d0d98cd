//! Property tests: the standards never fall as a gathering grows, and an
//! application that meets them for a larger gathering meets them for a smaller.

use proptest::prelude::*;

use super::*;

fn plan() -> impl Strategy<Value = Plan> {
    (
        1u32..200_000,
        0u32..100,
        0u32..100,
        1u32..=24 * 60,
        1u32..=31,
        any::<bool>(),
        0u64..1_000_000_000,
    )
        .prop_map(
            |(attendance, car_share, bus_share, daily_minutes, days, pressure, costs)| Plan {
                attendance,
                vehicles: attendance / 100 * car_share / 4,
                buses: attendance / 100 * bus_share / 100,
                daily_minutes,
                days,
                by_sex: None,
                water_under_pressure: pressure,
                estimated_public_costs_cents: costs,
            },
        )
}

/// Each number a requirement sets, in one comparable list.
fn numbers(r: &Requirements) -> Vec<u64> {
    vec![
        u64::from(r.parking_spaces),
        u64::from(r.parking_acre_hundredths),
        r.site_square_feet,
        r.water_gallons_per_day,
        u64::from(r.toilets_men),
        u64::from(r.toilets_women),
        u64::from(r.refuse.fifty_gallon),
        u64::from(r.refuse.sixteen_cubic_yard),
        u64::from(r.parking_refuse.fifty_gallon),
        u64::from(r.parking_refuse.sixteen_cubic_yard),
        u64::from(r.collections),
        u64::from(r.officers),
        r.deposit_cents,
    ]
}

proptest! {
    #[test]
    fn requirements_never_fall_as_the_gathering_grows(
        p in plan(),
        more_people in 0u32..50_000,
        more_cars in 0u32..5_000,
        more_buses in 0u32..200,
        more_minutes in 0u32..600,
        more_days in 0u32..5,
    ) {
        let bigger = Plan {
            attendance: p.attendance + more_people,
            vehicles: p.vehicles + more_cars,
            buses: p.buses + more_buses,
            daily_minutes: (p.daily_minutes + more_minutes).min(24 * 60),
            days: p.days + more_days,
            ..p
        };
        let small = numbers(&Requirements::for_plan(&p));
        let large = numbers(&Requirements::for_plan(&bigger));
        for (i, (s, l)) in small.iter().zip(&large).enumerate() {
            prop_assert!(l >= s, "requirement {} fell: {} -> {} for {:?} -> {:?}", i, s, l, p, bigger);
        }
    }

    #[test]
    fn each_sex_has_one_toilet_for_each_350_of_those_it_serves_and_no_more(
        men in 0u32..100_000,
        women in 0u32..100_000,
        stated in any::<bool>(),
    ) {
        prop_assume!(men + women > 0);
        let p = Plan {
            attendance: men + women,
            vehicles: 0,
            buses: 0,
            daily_minutes: 480,
            days: 1,
            by_sex: stated.then_some(BySex { men, women }),
            water_under_pressure: false,
            estimated_public_costs_cents: 0,
        };
        let r = Requirements::for_plan(&p);
        let served = p.served_by_sex();
        for (toilets, persons) in [(r.toilets_men, served.men), (r.toilets_women, served.women)] {
            prop_assert!(toilets * 350 >= persons, "{} toilets for {}", toilets, persons);
            prop_assert!(toilets == 0 || (toilets - 1) * 350 < persons, "{} toilets for {}", toilets, persons);
        }
        // Together they never serve fewer than all the persons anticipated.
        prop_assert!((r.toilets_men + r.toilets_women) * 350 >= p.attendance);
    }

    #[test]
    fn a_permit_is_needed_exactly_at_500_persons_and_two_hours_outdoors(
        attendance in 0u32..2_000,
        minutes in 0u32..600,
    ) {
        let need = permit_need(&Gathering {
            outdoor: true,
            expected_attendance: attendance,
            expected_minutes: minutes,
            venue: Venue::Open,
        });
        prop_assert_eq!(need.is_required(), attendance >= 500 && minutes >= 120);
    }
}
