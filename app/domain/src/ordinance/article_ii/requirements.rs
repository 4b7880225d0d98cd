//! The §52-10, §52-11 and §52-9 D standards as numbers: what a gathering of a
//! given size needs. Pure arithmetic on whole units (persons, vehicles, minutes,
//! cents, hundredths of an acre), rounded up wherever the ordinance says "for
//! each" or "at least", so a requirement is never met by a fraction.

use serde::{Deserialize, Serialize};

use super::Provision;

/// The plan's numbers the standards are computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// Persons anticipated (N).
    pub attendance: u32,
    /// Passenger cars expected to park (V).
    pub vehicles: u32,
    /// Buses expected to park (B).
    pub buses: u32,
    /// Minutes of assembly on each day the gathering assembles.
    pub daily_minutes: u32,
    /// Days on which the gathering assembles (water and refuse collections are
    /// counted per day).
    pub days: u32,
    /// The men and the women expected, where the application states them; the
    /// toilets of each sex serve their own (§52-10(4)(d)). `None`: an even split.
    pub by_sex: Option<BySex>,
    /// Water distributed under pressure to flush toilets (§52-10(4)(a)); else
    /// the no-pressure rate of §52-10(4)(b) applies.
    pub water_under_pressure: bool,
    /// The Town's estimate of its public costs, in cents (§52-9 D).
    pub estimated_public_costs_cents: u64,
}

/// Persons by sex: the men and the women a gathering's separate sanitary
/// facilities serve (§52-10(4)(d)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BySex {
    pub men: u32,
    pub women: u32,
}

impl Plan {
    /// The persons the men's and the women's facilities each serve: the
    /// numbers the application states, or else an even split of the persons
    /// anticipated, each side rounded up so that neither is under-provided
    /// (the department's reading of §52-10(4)(d)).
    pub fn served_by_sex(&self) -> BySex {
        self.by_sex.unwrap_or(BySex {
            men: self.attendance.div_ceil(2),
            women: self.attendance.div_ceil(2),
        })
    }
}

/// A number of the plan that cannot be planned for: which field, which
/// provision, and what is wrong, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{field}: {message} ({provision})")]
pub struct PlanError {
    pub field: &'static str,
    pub provision: Provision,
    pub message: String,
}

/// Minutes in a day: a day's assembly lasts at most this long.
const MINUTES_A_DAY: u32 = 24 * 60;

/// More persons than any plan is taken for: twice the largest gathering the
/// State has seen is still far below; a larger figure is a typing slip.
pub const MAX_ATTENDANCE: u32 = 1_000_000;

impl Plan {
    /// The plan's numbers, each checked: a standard computed from a slip would
    /// be a wrong standard.
    pub fn validate(&self) -> Result<(), PlanError> {
        let error = |field, provision, message: String| {
            Err(PlanError {
                field,
                provision,
                message,
            })
        };
        if self.attendance == 0 {
            return error(
                "attendance",
                Provision::S52_10_2F,
                "say how many persons are anticipated".into(),
            );
        }
        if self.attendance > MAX_ATTENDANCE {
            return error(
                "attendance",
                Provision::S52_10_2F,
                format!(
                    "{} persons is more than any plan is taken for (at most {MAX_ATTENDANCE})",
                    self.attendance
                ),
            );
        }
        if self.vehicles > self.attendance || self.buses > self.attendance {
            return error(
                "vehicles",
                Provision::S52_10_2E,
                "more vehicles than persons anticipated".into(),
            );
        }
        if self.daily_minutes == 0 {
            return error(
                "hours",
                Provision::S52_7,
                "say how long the gathering lasts each day".into(),
            );
        }
        if self.daily_minutes > MINUTES_A_DAY {
            return error(
                "hours",
                Provision::S52_7,
                "a day's assembly lasts at most 24 hours".into(),
            );
        }
        if self.days == 0 {
            return error(
                "days",
                Provision::S52_10_3,
                "say on how many days the gathering assembles".into(),
            );
        }
        if let Some(split) = self.by_sex {
            if u64::from(split.men) + u64::from(split.women) != u64::from(self.attendance) {
                return error(
                    "expected_men",
                    Provision::S52_10_4D,
                    format!(
                        "the men ({}) and the women ({}) expected add up to {}, not the {} persons \
                         anticipated",
                        split.men,
                        split.women,
                        u64::from(split.men) + u64::from(split.women),
                        self.attendance
                    ),
                );
            }
        }
        Ok(())
    }
}

/// A refuse standard met either way the ordinance allows: 50-gallon containers
/// or 16-cubic-yard containers (§52-10(5)(b) and (c)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Containers {
    pub fifty_gallon: u32,
    pub sixteen_cubic_yard: u32,
}

impl Containers {
    /// Whether `fifty_gallon` and `sixteen_cubic_yard` containers provided meet
    /// this standard. "Or its equivalent": each kind covers its share, so half
    /// the 50-gallon containers and half the 16-yard ones together meet it.
    pub fn met_by(self, fifty_gallon: u32, sixteen_cubic_yard: u32) -> bool {
        if self.fifty_gallon == 0 || self.sixteen_cubic_yard == 0 {
            return true;
        }
        // fifty/F + sixteen/S >= 1, in integers.
        u64::from(fifty_gallon) * u64::from(self.sixteen_cubic_yard)
            + u64::from(sixteen_cubic_yard) * u64::from(self.fifty_gallon)
            >= u64::from(self.fifty_gallon) * u64::from(self.sixteen_cubic_yard)
    }
}

/// Every number a plan must meet, with the provision that sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Requirements {
    /// §52-10(2)(e): one space for every four persons.
    pub parking_spaces: u32,
    /// §52-10(2)(e): at most 100 cars or 30 buses per usable acre, so the
    /// vehicles need V/100 + B/30 acres, in hundredths of an acre.
    pub parking_acre_hundredths: u32,
    /// §52-10(2)(f): 10 square feet per person.
    pub site_square_feet: u64,
    /// §52-10(4)(a) or (b): gallons a day, 30 or 3 per person.
    pub water_gallons_per_day: u64,
    /// §52-10(4)(a): 20 pounds per square inch at every fixture, where the water
    /// is under pressure.
    pub water_psi: Option<u32>,
    /// §52-10(4)(d): toilets for men, one for each 350 of the men they serve.
    pub toilets_men: u32,
    /// §52-10(4)(d): toilets for women, one for each 350 of the women they serve.
    pub toilets_women: u32,
    /// The men and the women the toilets are counted for ([`Plan::served_by_sex`]).
    pub served: BySex,
    /// §52-10(5)(b): refuse containers for the persons anticipated.
    pub refuse: Containers,
    /// §52-10(5)(c): refuse containers where the motor vehicles — cars and
    /// buses — park.
    pub parking_refuse: Containers,
    /// §52-10(5)(d): refuse collections from the assembly area, over all its days.
    pub collections: u32,
    /// §52-10(5)(e): hours after the assembly within which the grounds are clear.
    pub clear_within_hours: u32,
    /// §52-10(7)(e): law enforcement officers on site.
    pub officers: u32,
    /// §52-11: bodily injury per person, per occurrence, property damage, cents.
    pub insurance_per_person_cents: u64,
    pub insurance_per_occurrence_cents: u64,
    pub insurance_property_cents: u64,
    /// §52-9 D: the bond's least amount (the Selectmen may require more).
    pub bond_cents: u64,
    /// §52-9 D: 120 % of the estimated public costs.
    pub deposit_cents: u64,
    /// §52-9 A: the non-refundable fee.
    pub fee_cents: u64,
}

/// §52-10(9) in words: the noise limit it cites is in "Chapter lot" of the Town
/// Code, a defect in the text; until the Town confirms the chapter and its
/// decibel level, no limit is applied and the precautions are what is checked.
pub const SOUND_LIMIT_UNCONFIRMED: &str = "precautions so the sound does not carry \
     unreasonably beyond the site; the decibel limit §52-10(9) cites (\"Chapter lot\" of the \
     Town Code, a defect in the text) is unconfirmed, so no limit is applied";

/// §52-10(9) with the Town's level, where it has set one (`None`: unconfirmed).
pub fn sound_text(limit_dba: Option<u32>) -> String {
    match limit_dba {
        None => SOUND_LIMIT_UNCONFIRMED.to_owned(),
        Some(db) => format!(
            "precautions so the sound does not carry unreasonably beyond the site, and at most {db} \
             dBA at the perimeter: the level the Town set for the \"Chapter lot\" §52-10(9) cites"
        ),
    }
}

/// A decibel level that can be a perimeter limit at all: quieter than a quiet
/// room or louder than a chainsaw at arm's length is a typing slip.
pub const SOUND_LIMIT_RANGE: std::ops::RangeInclusive<u32> = 40..=120;

/// §52-10(2)(e): service road widths, in feet.
pub const ONE_LANE_FEET: u32 = 12;
pub const TWO_LANES_FEET: u32 = 24;
pub const PARALLEL_PARKING_LANE_FEET: u32 = 7;

/// The least width of a service road of `lanes` traffic lanes (12 feet each:
/// "one traffic lane 12 feet; two traffic lanes 24 feet") with
/// `parking_lanes` parallel parking lanes of 7 feet.
pub fn road_width_feet(lanes: u32, parking_lanes: u32) -> u32 {
    let traffic = match lanes {
        0 => 0,
        1 => ONE_LANE_FEET,
        2 => TWO_LANES_FEET,
        more => more * ONE_LANE_FEET,
    };
    traffic + parking_lanes * PARALLEL_PARKING_LANE_FEET
}

/// §52-10(4)(d): "set at a rate of one for each 350 persons".
pub const PERSONS_PER_TOILET: u32 = 350;

/// §52-10(5)(d): "twice each twelve (12) hour period of assembly".
pub const COLLECTIONS_PER_PERIOD: u32 = 2;
pub const COLLECTION_PERIOD_MINUTES: u32 = 12 * 60;

/// Whole units for `n` at `per` each: ⌈n / per⌉.
fn for_each(n: u32, per: u32) -> u32 {
    n.div_ceil(per)
}

impl Requirements {
    /// §52-9 A: "a non-refundable permit fee of $100".
    pub const FEE_CENTS: u64 = 100 * 100;

    /// The fee as the forms and notices print it: `$100.00`.
    pub fn fee_text() -> String {
        crate::ordinance::penalty::dollars(i64::try_from(Requirements::FEE_CENTS).unwrap_or(0))
    }

    /// The standards for a valid `plan` ([`Plan::validate`]).
    pub fn for_plan(plan: &Plan) -> Requirements {
        let n = plan.attendance;
        let v = plan.vehicles;
        // §52-10(5)(c) counts "motor vehicles": the buses as well as the cars.
        let motor_vehicles = v.saturating_add(plan.buses);
        let served = plan.served_by_sex();
        // V/100 + B/30 acres = (3V + 10B) / 300 acres = (3V + 10B) / 3 hundredths.
        let parking_acre_hundredths = (3 * u64::from(v) + 10 * u64::from(plan.buses)).div_ceil(3);
        Requirements {
            parking_spaces: for_each(n, 4),
            parking_acre_hundredths: u32::try_from(parking_acre_hundredths).unwrap_or(u32::MAX),
            site_square_feet: 10 * u64::from(n),
            water_gallons_per_day: u64::from(n) * if plan.water_under_pressure { 30 } else { 3 },
            water_psi: plan.water_under_pressure.then_some(20),
            toilets_men: for_each(served.men, PERSONS_PER_TOILET),
            toilets_women: for_each(served.women, PERSONS_PER_TOILET),
            served,
            refuse: Containers {
                fifty_gallon: for_each(n, 100),
                sixteen_cubic_yard: for_each(n, 5_000),
            },
            parking_refuse: Containers {
                fifty_gallon: for_each(motor_vehicles, 25),
                sixteen_cubic_yard: for_each(motor_vehicles, 2_000),
            },
            collections: collections(plan.daily_minutes, plan.days),
            clear_within_hours: 24,
            officers: 15,
            insurance_per_person_cents: 300_000 * 100,
            insurance_per_occurrence_cents: 500_000 * 100,
            insurance_property_cents: 100_000 * 100,
            bond_cents: 5_000 * 100,
            deposit_cents: (plan.estimated_public_costs_cents * 6).div_ceil(5),
            fee_cents: Requirements::FEE_CENTS,
        }
    }
}

/// §52-10(5)(d): "at least twice each twelve (12) hour period of assembly, with a
/// minimum of two (2) such collections per gatherings exceeding six (6) hours".
/// A period of assembly is counted on each day the gathering assembles — the
/// assembly of one day and of the next are two periods, never one summed — and
/// each period begun is collected twice: a four-hour day is within one
/// twelve-hour period and is collected twice, so the six-hour minimum always
/// holds. Over `days` days of `daily_minutes` each: days × 2 × ⌈daily minutes / 720⌉.
pub fn collections(daily_minutes: u32, days: u32) -> u32 {
    days.saturating_mul(COLLECTIONS_PER_PERIOD)
        .saturating_mul(daily_minutes.div_ceil(COLLECTION_PERIOD_MINUTES))
}
