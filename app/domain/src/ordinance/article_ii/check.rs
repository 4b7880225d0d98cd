//! An application against the standards: every standard it does not meet, with
//! its provision, what was found and a step that would meet it — exactly what
//! §52-9 B(2) requires a written denial to list. The Selectmen decide (§52-8);
//! this list is what they decide on, never a decision itself.

use serde::{Deserialize, Serialize};

use super::requirements::{road_width_feet, Containers, Plan, PlanError, Requirements};
use super::Provision;
use crate::ordinance::penalty::dollars;

/// What the operator's application provides (§52-10, §52-11, §52-9 D). The
/// default provides nothing: a blank application's answers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
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

/// How the ordinance words a standard. §52-10 says what an application "shall
/// show" in "shall", "will" and "must" — standards whose shortfall is a ground
/// to deny (§52-8 B) — and in three places "should": the width of the service
/// roads (§52-10(2)(e)) and the number of refuse containers (§52-10(5)(b) and
/// (c)). A "should" not met is advice: the Board shall issue unless it finds a
/// standard not met (§52-8 A), and may issue with advice open.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Standard {
    #[default]
    Shall,
    Should,
}

impl Standard {
    pub fn is_shall(&self) -> bool {
        *self == Standard::Shall
    }
}

/// A standard not met.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shortfall {
    pub provision: Provision,
    /// What the application provides against what is required.
    pub finding: String,
    /// A step which, if followed, meets the standard (§52-9 B(2)).
    pub step: String,
    /// "Shall" or "should". Absent for "shall", so the decision records stored
    /// before advice was told apart read as they were written: every reason
    /// they list a ground.
    #[serde(default, skip_serializing_if = "Standard::is_shall")]
    pub standard: Standard,
}

impl Shortfall {
    /// `§52-10(4)(d): 3 toilets for men provided, 4 required (…)`. A section
    /// is said once (issue #37): a Board finding under §52-8 that names the
    /// section it rests on (“§52-10(2)(b): …”, as findings were typed before
    /// the Board chose the standard) is said as typed, not “§52-8:
    /// §52-10(2)(b): …”, and a finding that repeats its own standard's section
    /// not twice. A finding stored under one standard and typed naming another
    /// keeps both: the record says under which it stands.
    pub fn reason(&self) -> String {
        let finding = self.finding.trim_start();
        let names_own = finding.starts_with(&self.provision.to_string());
        if names_own || (self.provision == Provision::S52_8 && finding.starts_with('§')) {
            self.finding.trim().to_owned()
        } else {
            format!("{}: {}", self.provision, self.finding)
        }
    }

    /// A "shall" standard not met: a ground on which the Board may deny (§52-8 B).
    pub fn is_ground(&self) -> bool {
        self.standard.is_shall()
    }
}

/// The shortfalls a denial may rest on: the "shall" standards not met (§52-8 B).
pub fn grounds_to_deny(found: &[Shortfall]) -> Vec<Shortfall> {
    found.iter().filter(|s| s.is_ground()).cloned().collect()
}

/// The reasons a denial records, in order (§52-8 B, §52-9 B(2)): the "shall"
/// standards the application does not meet, then the Board's findings still
/// open, then those it finds now — each a ground of its own, so a "shall".
pub fn denial_reasons(
    grounds: &[Shortfall],
    open: &[Shortfall],
    added: &[Shortfall],
) -> Vec<Shortfall> {
    grounds
        .iter()
        .chain(open)
        .cloned()
        .chain(added.iter().map(|f| Shortfall {
            standard: Standard::Shall,
            ..f.clone()
        }))
        .collect()
}

/// The "should" standards not met: advice, printed with the decision; the
/// Board may issue with it open (§52-8 A).
pub fn advice(found: &[Shortfall]) -> Vec<Shortfall> {
    found.iter().filter(|s| !s.is_ground()).cloned().collect()
}

/// The standards not met, as the paragraphs of §52-10 are read in order.
#[derive(Default)]
struct Findings(Vec<Shortfall>);

impl Findings {
    /// A "shall" standard not met.
    fn ground(
        &mut self,
        provision: Provision,
        finding: impl Into<String>,
        step: impl Into<String>,
    ) {
        self.push(Standard::Shall, provision, finding.into(), step.into());
    }

    /// A "should" standard not met.
    fn advice(
        &mut self,
        provision: Provision,
        finding: impl Into<String>,
        step: impl Into<String>,
    ) {
        self.push(Standard::Should, provision, finding.into(), step.into());
    }

    fn push(&mut self, standard: Standard, provision: Provision, finding: String, step: String) {
        self.0.push(Shortfall {
            provision,
            finding,
            step,
            standard,
        });
    }
}

/// Every standard `provided` does not meet for `plan`, in the ordinance's order:
/// §52-10 paragraph by paragraph, then the insurance of §52-11 and the bond
/// and deposit of §52-9 D.
pub fn shortfalls(plan: &Plan, provided: &Provided) -> Result<Vec<Shortfall>, PlanError> {
    plan.validate()?;
    let need = Requirements::for_plan(plan);
    let mut found = Findings::default();
    access(&mut found, provided);
    grounds(&mut found, &need, provided);
    water_supply(&mut found, provided);
    sanitation(&mut found, plan, &need, provided);
    refuse_disposal(&mut found, &need, provided);
    safety(&mut found, &need, provided);
    medical(&mut found, provided);
    sound(&mut found, provided);
    insurance(&mut found, &need, provided);
    bond_and_deposit(&mut found, &need, provided);
    Ok(found.0)
}

/// §52-10(1) Access: "all public roadways in the proximity … adequately
/// staffed with traffic control personnel".
fn access(found: &mut Findings, provided: &Provided) {
    if !provided.traffic_control {
        found.ground(
            Provision::S52_10_1,
            "no traffic control personnel on the public roadways nearby",
            "Staff the public roadways near the site with traffic control personnel.",
        );
    }
}

/// §52-10(2) Grounds: (d) illumination, (e) parking and service roads, (f) space
/// for the daytime assemblage and none overnight.
fn grounds(found: &mut Findings, need: &Requirements, provided: &Provided) {
    if !provided.lighting {
        found.ground(
            Provision::S52_10_2D,
            "no lighting of the assembly area at night",
            "Light the assembly area at night without lighting beyond its boundaries.",
        );
    }
    parking(found, need, provided);
    service_roads(found, provided);
    assemblage(found, need, provided);
}

/// §52-10(2)(e): "adequate parking space shall be provided": one space to every
/// four persons, at most 100 cars or 30 buses per usable acre.
fn parking(found: &mut Findings, need: &Requirements, provided: &Provided) {
    if provided.parking_spaces < need.parking_spaces {
        found.ground(
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
        found.ground(
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
}

/// §52-10(2)(e): "width of the service road should not be less than" 12 feet a
/// traffic lane, 24 for two, 7 a parallel parking lane — advice.
fn service_roads(found: &mut Findings, provided: &Provided) {
    let lanes = provided.road_lanes.max(1);
    let road = road_width_feet(lanes, provided.road_parking_lanes);
    if provided.road_width_feet < road {
        found.advice(
            Provision::S52_10_2E,
            format!(
                "service roads {} feet wide, {road} advised for {lanes} traffic lane(s) and {} parallel parking lane(s)",
                provided.road_width_feet, provided.road_parking_lanes
            ),
            format!("Widen the service roads to {road} feet."),
        );
    }
}

/// §52-10(2)(f): "at least 10 square feet per person shall be provided … and
/// … no overnight assemblage will be permitted".
fn assemblage(found: &mut Findings, need: &Requirements, provided: &Provided) {
    if provided.site_square_feet < need.site_square_feet {
        found.ground(
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
    if provided.overnight {
        found.ground(
            Provision::S52_10_2F,
            "the assemblage continues overnight",
            "End each day's assemblage before night; no overnight assemblage is permitted.",
        );
    }
}

/// §52-10(3) Water Supply: "an adequate, safe supply of potable water … common
/// cups will not be used".
fn water_supply(found: &mut Findings, provided: &Provided) {
    if !provided.potable_water {
        found.ground(
            Provision::S52_10_3,
            "no approved supply of potable water",
            "Provide potable water from an approved source, without common cups.",
        );
    }
}

/// §52-10(4) Sanitation: (a) or (b) the water a day, (a) its pressure, (d) the
/// toilets.
fn sanitation(found: &mut Findings, plan: &Plan, need: &Requirements, provided: &Provided) {
    let water_provision = if plan.water_under_pressure {
        Provision::S52_10_4A
    } else {
        Provision::S52_10_4B
    };
    if provided.water_gallons_per_day < need.water_gallons_per_day {
        found.ground(
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
            found.ground(
                Provision::S52_10_4A,
                format!("water at {at} pounds per square inch, {psi} required at every fixture"),
                format!("Deliver at least {psi} pounds per square inch to every fixture."),
            );
        }
    }
    toilets(found, plan, need, provided);
}

/// §52-10(4)(d): "sanitary facilities shall be separate for males and females,
/// set at a rate of one for each 350 persons" — each sex's at one for each 350
/// of the persons they serve.
fn toilets(found: &mut Findings, plan: &Plan, need: &Requirements, provided: &Provided) {
    let sexes = [
        (
            "men",
            provided.toilets_men,
            need.toilets_men,
            need.served.men,
        ),
        (
            "women",
            provided.toilets_women,
            need.toilets_women,
            need.served.women,
        ),
    ];
    for (sex, has, needs, served) in sexes {
        if has < needs {
            let whom = if plan.by_sex.is_some() {
                format!("the {served} {sex} expected")
            } else {
                format!(
                    "{served} {sex}, half the {} persons expected",
                    plan.attendance
                )
            };
            found.ground(
                Provision::S52_10_4D,
                format!("{has} toilets for {sex} provided, {needs} required (one for each 350 of {whom})"),
                format!(
                    "Provide {needs} toilets for {sex} (one for each 350 of the {sex} they serve, separate from the other sex's)."
                ),
            );
        }
    }
}

/// §52-10(5) Refuse Disposal: (b) containers for the persons and (c) where the
/// motor vehicles park — "should", advice — (d) collections, (e) the grounds
/// cleared.
fn refuse_disposal(found: &mut Findings, need: &Requirements, provided: &Provided) {
    if !need.refuse.met_by(
        provided.refuse.fifty_gallon,
        provided.refuse.sixteen_cubic_yard,
    ) {
        found.advice(
            Provision::S52_10_5B,
            format!(
                "{} fifty-gallon and {} sixteen-cubic-yard refuse containers, {} or {} advised",
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
        found.advice(
            Provision::S52_10_5C,
            format!(
                "{} fifty-gallon and {} sixteen-cubic-yard refuse containers where motor vehicles park, {} or {} advised",
                provided.parking_refuse.fifty_gallon,
                provided.parking_refuse.sixteen_cubic_yard,
                need.parking_refuse.fifty_gallon,
                need.parking_refuse.sixteen_cubic_yard
            ),
            format!(
                "Provide {} fifty-gallon containers (one per 25 cars and buses) or {} sixteen-cubic-yard containers (one per 2,000) in the parking areas.",
                need.parking_refuse.fifty_gallon, need.parking_refuse.sixteen_cubic_yard
            ),
        );
    }
    if provided.collections < need.collections {
        found.ground(
            Provision::S52_10_5D,
            format!(
                "{} refuse collections planned, {} required (twice each twelve-hour period of assembly, on each day)",
                provided.collections, need.collections
            ),
            format!("Plan {} refuse collections.", need.collections),
        );
    }
    if provided.clear_within_hours > need.clear_within_hours {
        found.ground(
            Provision::S52_10_5E,
            format!(
                "grounds cleared {} hours after the assembly, within {} required",
                provided.clear_within_hours, need.clear_within_hours
            ),
            "Clear the grounds and the property around them of refuse within 24 hours.",
        );
    }
}

/// §52-10(7) Safety: (d) the Fire Department informed, (e) at least 15 law
/// enforcement officers on site.
fn safety(found: &mut Findings, need: &Requirements, provided: &Provided) {
    if !provided.fire_department_informed {
        found.ground(
            Provision::S52_10_7D,
            "the Wells Fire Department has not been informed",
            "Inform the Wells Fire Department and have fire prevention equipment on site.",
        );
    }
    if provided.officers < need.officers {
        found.ground(
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
}

/// §52-10(8) Medical: (a) a licensed physician, (b) first aid, (c) ambulances,
/// (d) telephone and radio, (e) the hospitals told.
fn medical(found: &mut Findings, provided: &Provided) {
    let standards = [
        (
            provided.physician_supervision,
            Provision::S52_10_8A,
            "no licensed physician supervising emergency medical services",
            "Have a licensed physician supervise the emergency medical services.",
        ),
        (
            provided.first_aid_station,
            Provision::S52_10_8B,
            "no first aid building or tent",
            "Provide a first aid building or tent with adequate medical supplies.",
        ),
        (
            provided.ambulances_on_site,
            Provision::S52_10_8C,
            "no licensed ambulances on site throughout",
            "Keep licensed ambulances on site for the whole gathering.",
        ),
        (
            provided.phone_and_radio,
            Provision::S52_10_8D,
            "no telephone and radio for emergencies",
            "Provide telephone and radio communications for emergencies.",
        ),
        (
            provided.hospitals_told,
            Provision::S52_10_8E,
            "area hospitals have not been told",
            "Advise area hospitals of the gathering and the number expected.",
        ),
    ];
    for (met, provision, finding, step) in standards {
        if !met {
            found.ground(provision, finding, step);
        }
    }
}

/// §52-10(9) Sound: "reasonable precautions … that the sound of the assembly
/// will not carry unreasonably beyond the boundaries".
fn sound(found: &mut Findings, provided: &Provided) {
    if !provided.sound_precautions {
        found.ground(
            Provision::S52_10_9,
            "no precautions against the sound carrying beyond the site",
            "Take precautions so that the sound does not carry unreasonably beyond the site.",
        );
    }
}

/// §52-11: liability insurance of at least $300,000 / $500,000 bodily injury and
/// $100,000 property damage.
fn insurance(found: &mut Findings, need: &Requirements, provided: &Provided) {
    let amounts = [
        (
            provided.insurance_per_person_cents,
            need.insurance_per_person_cents,
            "liability insurance for bodily injury per person",
            "Carry at least {} for bodily injury per person.",
        ),
        (
            provided.insurance_per_occurrence_cents,
            need.insurance_per_occurrence_cents,
            "liability insurance for bodily injury per occurrence",
            "Carry at least {} for bodily injury per occurrence.",
        ),
        (
            provided.insurance_property_cents,
            need.insurance_property_cents,
            "liability insurance for property damage",
            "Carry at least {} for property damage.",
        ),
    ];
    for (has, needs, what, step) in amounts {
        at_least(found, Provision::S52_11, has, needs, what, step);
    }
}

/// §52-9 D: a bond of at least $5,000, and a deposit of 120 % of the estimated
/// public costs.
fn bond_and_deposit(found: &mut Findings, need: &Requirements, provided: &Provided) {
    at_least(
        found,
        Provision::S52_9D,
        provided.bond_cents,
        need.bond_cents,
        "bond",
        "Furnish a surety bond (or cash or securities) of at least {}.",
    );
    at_least(
        found,
        Provision::S52_9D,
        provided.deposit_cents,
        need.deposit_cents,
        "deposit (120 % of the estimated public costs)",
        "Deposit {} with the Town.",
    );
}

/// An amount in cents `has` against the least `needs`; in `step`, "{}" is the
/// amount required.
fn at_least(
    found: &mut Findings,
    provision: Provision,
    has: u64,
    needs: u64,
    what: &str,
    step: &str,
) {
    if has < needs {
        let needs = dollars(cents(needs));
        found.ground(
            provision,
            format!(
                "{what} of {}, at least {needs} required",
                dollars(cents(has))
            ),
            step.replace("{}", &needs),
        );
    }
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
            standard: Standard::Shall,
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
