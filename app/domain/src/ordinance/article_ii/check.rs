//! An application against the standards: every standard it does not meet, with
//! its provision, what was found and a step that would meet it — exactly what
//! §52-9 B(2) requires a written denial to list. The Selectmen decide (§52-8);
//! this list is what they decide on, never a decision itself.

use serde::{Deserialize, Serialize};

use super::requirements::{road_width_feet, Containers, Plan, PlanError, Requirements};
use super::Provision;
use crate::ordinance::penalty::dollars;

/// What the operator's application provides (§52-10, §52-11, §52-9 D).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provided {
    pub parking_spaces: u32,
    /// Usable acres of the parking areas, in hundredths of an acre.
    pub parking_acre_hundredths: u32,
    /// Service roads: traffic lanes, parallel parking lanes, width in feet.
    pub road_lanes: u32,
    pub road_parking_lanes: u32,
    pub road_width_feet: u32,
    /// Square feet of the site for the daytime assemblage.
    pub site_square_feet: u64,
    /// The assemblage continues overnight (§52-10(2)(f) forbids it).
    pub overnight: bool,
    /// Lighting planned for the assembly area at night (§52-10(2)(d)).
    pub lighting: bool,
    /// Traffic control personnel on the public roadways nearby (§52-10(1)).
    pub traffic_control: bool,
    /// Potable water from an approved source, no common cups (§52-10(3)).
    pub potable_water: bool,
    pub water_gallons_per_day: u64,
    /// Pressure at the fixtures, where the water is under pressure.
    pub water_psi: Option<u32>,
    /// Toilets (or their §52-10(4)(e) equivalents) for men and for women.
    pub toilets_men: u32,
    pub toilets_women: u32,
    pub refuse: Containers,
    pub parking_refuse: Containers,
    pub collections: u32,
    /// Hours after the assembly by which the grounds will be cleared.
    pub clear_within_hours: u32,
    pub fire_department_informed: bool,
    pub officers: u32,
    pub physician_supervision: bool,
    pub first_aid_station: bool,
    pub ambulances_on_site: bool,
    pub phone_and_radio: bool,
    pub hospitals_told: bool,
    /// Precautions against the sound carrying beyond the site (§52-10(9)).
    pub sound_precautions: bool,
    pub insurance_per_person_cents: u64,
    pub insurance_per_occurrence_cents: u64,
    pub insurance_property_cents: u64,
    pub bond_cents: u64,
    pub deposit_cents: u64,
}

/// A standard not met.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shortfall {
    pub provision: Provision,
    /// What the application provides against what is required.
    pub finding: String,
    /// A step which, if followed, meets the standard (§52-9 B(2)).
    pub step: String,
}

impl Shortfall {
    /// `§52-10(4)(d): 4 toilets per sex provided, 7 required`.
    pub fn reason(&self) -> String {
        format!("{}: {}", self.provision, self.finding)
    }
}

/// Every standard `provided` does not meet for `plan`, in the ordinance's order.
pub fn shortfalls(plan: &Plan, provided: &Provided) -> Result<Vec<Shortfall>, PlanError> {
    plan.validate()?;
    let need = Requirements::for_plan(plan);
    let mut out = Vec::new();
    let mut short = |provision, finding: String, step: String| {
        out.push(Shortfall {
            provision,
            finding,
            step,
        })
    };
    let flag = |ok: bool,
                provision,
                finding: &str,
                step: &str,
                short: &mut dyn FnMut(Provision, String, String)| {
        if !ok {
            short(provision, finding.to_string(), step.to_string());
        }
    };

    flag(
        provided.traffic_control,
        Provision::S52_10_1,
        "no traffic control personnel on the public roadways nearby",
        "Staff the public roadways near the site with traffic control personnel.",
        &mut short,
    );
    flag(
        provided.lighting,
        Provision::S52_10_2D,
        "no lighting of the assembly area at night",
        "Light the assembly area at night without lighting beyond its boundaries.",
        &mut short,
    );
    if provided.parking_spaces < need.parking_spaces {
        short(
            Provision::S52_10_2E,
            format!(
                "{} parking spaces provided, {} required (one for every four persons)",
                provided.parking_spaces, need.parking_spaces
            ),
            format!(
                "Provide {} more parking spaces.",
                need.parking_spaces - provided.parking_spaces
            ),
        );
    }
    if provided.parking_acre_hundredths < need.parking_acre_hundredths {
        short(
            Provision::S52_10_2E,
            format!(
                "{} usable acres of parking for the vehicles expected, {} required (at most 100 cars or 30 buses per usable acre)",
                acres(provided.parking_acre_hundredths),
                acres(need.parking_acre_hundredths)
            ),
            format!(
                "Add {} usable acres of parking.",
                acres(need.parking_acre_hundredths - provided.parking_acre_hundredths)
            ),
        );
    }
    let road = road_width_feet(provided.road_lanes.max(1), provided.road_parking_lanes);
    if provided.road_width_feet < road {
        short(
            Provision::S52_10_2E,
            format!(
                "service roads {} feet wide, {road} required for {} traffic lane(s) and {} parallel parking lane(s)",
                provided.road_width_feet,
                provided.road_lanes.max(1),
                provided.road_parking_lanes
            ),
            format!("Widen the service roads to {road} feet."),
        );
    }
    if provided.site_square_feet < need.site_square_feet {
        short(
            Provision::S52_10_2F,
            format!(
                "{} square feet for the assemblage, {} required (10 per person)",
                provided.site_square_feet, need.site_square_feet
            ),
            format!(
                "Add {} square feet to the site, or plan for fewer persons.",
                need.site_square_feet - provided.site_square_feet
            ),
        );
    }
    flag(
        !provided.overnight,
        Provision::S52_10_2F,
        "the assemblage continues overnight",
        "End each day's assemblage before night; no overnight assemblage is permitted.",
        &mut short,
    );
    flag(
        provided.potable_water,
        Provision::S52_10_3,
        "no approved supply of potable water",
        "Provide potable water from an approved source, without common cups.",
        &mut short,
    );
    let water_provision = if plan.water_under_pressure {
        Provision::S52_10_4A
    } else {
        Provision::S52_10_4B
    };
    if provided.water_gallons_per_day < need.water_gallons_per_day {
        short(
            water_provision,
            format!(
                "{} gallons of water a day, {} required ({} per person)",
                provided.water_gallons_per_day,
                need.water_gallons_per_day,
                need.water_gallons_per_day / u64::from(plan.attendance)
            ),
            format!(
                "Provide {} more gallons of water a day.",
                need.water_gallons_per_day - provided.water_gallons_per_day
            ),
        );
    }
    if let Some(psi) = need.water_psi {
        let at = provided.water_psi.unwrap_or(0);
        if at < psi {
            short(
                Provision::S52_10_4A,
                format!("water at {at} pounds per square inch, {psi} required at every fixture"),
                format!("Deliver at least {psi} pounds per square inch to every fixture."),
            );
        }
    }
    let fewest = provided.toilets_men.min(provided.toilets_women);
    if fewest < need.toilets_per_sex {
        short(
            Provision::S52_10_4D,
            format!(
                "{fewest} toilets per sex provided, {} required",
                need.toilets_per_sex
            ),
            format!(
                "Provide {} toilets for men and {} for women (one for each 350 persons, separate for each sex).",
                need.toilets_per_sex, need.toilets_per_sex
            ),
        );
    }
    if !need.refuse.met_by(
        provided.refuse.fifty_gallon,
        provided.refuse.sixteen_cubic_yard,
    ) {
        short(
            Provision::S52_10_5B,
            format!(
                "{} fifty-gallon and {} sixteen-cubic-yard refuse containers, {} or {} required",
                provided.refuse.fifty_gallon,
                provided.refuse.sixteen_cubic_yard,
                need.refuse.fifty_gallon,
                need.refuse.sixteen_cubic_yard
            ),
            format!(
                "Provide {} fifty-gallon refuse containers (one per 100 persons) or {} sixteen-cubic-yard containers (one per 5,000).",
                need.refuse.fifty_gallon, need.refuse.sixteen_cubic_yard
            ),
        );
    }
    if !need.parking_refuse.met_by(
        provided.parking_refuse.fifty_gallon,
        provided.parking_refuse.sixteen_cubic_yard,
    ) {
        short(
            Provision::S52_10_5C,
            format!(
                "{} fifty-gallon and {} sixteen-cubic-yard refuse containers where vehicles park, {} or {} required",
                provided.parking_refuse.fifty_gallon,
                provided.parking_refuse.sixteen_cubic_yard,
                need.parking_refuse.fifty_gallon,
                need.parking_refuse.sixteen_cubic_yard
            ),
            format!(
                "Provide {} fifty-gallon containers (one per 25 vehicles) or {} sixteen-cubic-yard containers (one per 2,000) in the parking areas.",
                need.parking_refuse.fifty_gallon, need.parking_refuse.sixteen_cubic_yard
            ),
        );
    }
    if provided.collections < need.collections {
        short(
            Provision::S52_10_5D,
            format!(
                "{} refuse collections planned, {} required (twice each twelve hours of assembly)",
                provided.collections, need.collections
            ),
            format!("Plan {} refuse collections.", need.collections),
        );
    }
    if provided.clear_within_hours > need.clear_within_hours {
        short(
            Provision::S52_10_5E,
            format!(
                "grounds cleared {} hours after the assembly, within {} required",
                provided.clear_within_hours, need.clear_within_hours
            ),
            "Clear the grounds and the property around them of refuse within 24 hours.".into(),
        );
    }
    flag(
        provided.fire_department_informed,
        Provision::S52_10_7D,
        "the Wells Fire Department has not been informed",
        "Inform the Wells Fire Department and have fire prevention equipment on site.",
        &mut short,
    );
    if provided.officers < need.officers {
        short(
            Provision::S52_10_7E,
            format!(
                "{} law enforcement officers on site, at least {} required",
                provided.officers, need.officers
            ),
            format!(
                "Arrange {} more law enforcement officers on site.",
                need.officers - provided.officers
            ),
        );
    }
    flag(
        provided.physician_supervision,
        Provision::S52_10_8A,
        "no licensed physician supervising emergency medical services",
        "Have a licensed physician supervise the emergency medical services.",
        &mut short,
    );
    flag(
        provided.first_aid_station,
        Provision::S52_10_8B,
        "no first aid building or tent",
        "Provide a first aid building or tent with adequate medical supplies.",
        &mut short,
    );
    flag(
        provided.ambulances_on_site,
        Provision::S52_10_8C,
        "no licensed ambulances on site throughout",
        "Keep licensed ambulances on site for the whole gathering.",
        &mut short,
    );
    flag(
        provided.phone_and_radio,
        Provision::S52_10_8D,
        "no telephone and radio for emergencies",
        "Provide telephone and radio communications for emergencies.",
        &mut short,
    );
    flag(
        provided.hospitals_told,
        Provision::S52_10_8E,
        "area hospitals have not been told",
        "Advise area hospitals of the gathering and the number expected.",
        &mut short,
    );
    flag(
        provided.sound_precautions,
        Provision::S52_10_9,
        "no precautions against the sound carrying beyond the site",
        "Take precautions so that the sound does not carry unreasonably beyond the site.",
        &mut short,
    );
    // Amounts: §52-11's insurance, §52-9 D's bond and deposit. In each step "{}"
    // is the amount required.
    let amounts = [
        (
            Provision::S52_11,
            provided.insurance_per_person_cents,
            need.insurance_per_person_cents,
            "liability insurance for bodily injury per person",
            "Carry at least {} for bodily injury per person.",
        ),
        (
            Provision::S52_11,
            provided.insurance_per_occurrence_cents,
            need.insurance_per_occurrence_cents,
            "liability insurance for bodily injury per occurrence",
            "Carry at least {} for bodily injury per occurrence.",
        ),
        (
            Provision::S52_11,
            provided.insurance_property_cents,
            need.insurance_property_cents,
            "liability insurance for property damage",
            "Carry at least {} for property damage.",
        ),
        (
            Provision::S52_9D,
            provided.bond_cents,
            need.bond_cents,
            "bond",
            "Furnish a surety bond (or cash or securities) of at least {}.",
        ),
        (
            Provision::S52_9D,
            provided.deposit_cents,
            need.deposit_cents,
            "deposit (120 % of the estimated public costs)",
            "Deposit {} with the Town.",
        ),
    ];
    for (provision, has, needs, what, step) in amounts {
        if has < needs {
            let needs = dollars(cents(needs));
            short(
                provision,
                format!(
                    "{what} of {}, at least {needs} required",
                    dollars(cents(has))
                ),
                step.replace("{}", &needs),
            );
        }
    }
    Ok(out)
}

/// Every reason a permit could not issue on an application filed on
/// `filed_day` for gatherings from `first_day`: a late filing (§52-9 A) first,
/// then every standard of `shortfalls` not met.
pub fn application_shortfalls(
    plan: &Plan,
    provided: &Provided,
    filed_day: i64,
    first_day: i64,
) -> Result<Vec<Shortfall>, PlanError> {
    let mut out = Vec::new();
    if let Some((provision, finding)) = super::calendar::filing_problem(filed_day, first_day) {
        out.push(Shortfall {
            provision,
            finding,
            step: format!(
                "Apply for a first gathering at least {} days after the day the application \
                 reaches the Town Clerk.",
                super::calendar::FILING_DAYS_AHEAD
            ),
        });
    }
    out.extend(shortfalls(plan, provided)?);
    Ok(out)
}

/// `12.5`, `3`, `0.34`: hundredths of an acre in words a reader expects.
fn acres(hundredths: u32) -> String {
    let whole = hundredths / 100;
    match hundredths % 100 {
        0 => whole.to_string(),
        frac if frac % 10 == 0 => format!("{whole}.{}", frac / 10),
        frac => format!("{whole}.{frac:02}"),
    }
}

fn cents(amount: u64) -> i64 {
    i64::try_from(amount).unwrap_or(i64::MAX)
}
