//! Article II of Chapter 52: mass outdoor gatherings (§52-5 to §52-12).
//!
//! | Section | What it says | Where it is enforced |
//! |---|---|---|
//! | §52-5, §52-6(3), §52-7 | a permit from the Board of Selectmen for an outdoor gathering of 500 or more persons for two or more hours; the Board may route it under Chapter 55 | [`permit_need`] |
//! | §52-6(2) | a permanent place of assembly with sufficient sanitary facilities is not a mass gathering area | [`Venue::PermanentPlaceOfAssembly`] |
//! | §52-8 | the permit issues unless a standard is not met | [`shortfalls`]: empty means every standard is met |
//! | §52-9 A | filed 20 days ahead, $100 non-refundable fee | [`calendar::last_filing_day`], [`calendar::filing_problem`], [`Requirements::fee_cents`] |
//! | §52-9 B | decision within 7 days of consideration; a denial lists reasons and steps; no decision is a denial | [`calendar::decision_clock`]; [`Shortfall`] (reason and step) |
//! | §52-9 C | appeal under Rule 80B | [`calendar::APPEAL`] |
//! | §52-9 D | bond of at least $5,000; deposit of 120 % of estimated public costs; refund or excess due in 10 days | [`Requirements`], [`calendar::settlement_cents`], [`calendar::excess_due_day`] |
//! | §52-10 | the application's standards (access, grounds, water, sanitation, refuse, safety, medical, sound) | [`Requirements::for_plan`], [`shortfalls`] |
//! | §52-11 | insurance $300,000 / $500,000 bodily injury, $100,000 property | [`Requirements`] |
//! | §52-7 on scene | an unpermitted gathering: who may be cited (never those attending) | [`enforcement::missing_elements`], `Offence::UnpermittedMassGathering` |
//! | §52-12 | $1,000 plus costs | [`crate::ordinance::Penalty::ARTICLE_II`] |
//!
//! The ordinance's own numbering is kept: §52-10 goes from (5) to (7).
//!
//! ## The department's readings, where the text is silent or defective
//!
//! 1. **Two hours.** §52-6(3) says "exceed two hours", §52-7 "two or more
//!    hours"; §52-7 forbids, so exactly two hours needs a permit
//!    ([`permit::PERMIT_MINUTES`]).
//! 2. **Toilets** are one for each 350 persons *for each sex* (§52-10(4)(d):
//!    "separate for males and females, set at a rate of one for each 350").
//! 3. **Refuse collections** are twice for every twelve hours of assembly begun
//!    ([`requirements::collections`]); the six-hour minimum then always holds.
//! 4. **"Or its equivalent"** for refuse: 50-gallon and 16-yard containers may
//!    be mixed, each covering its share ([`Containers::met_by`]).
//! 5. **Parking density** with cars and buses together: V/100 + B/30 usable acres.
//! 6. **Sound** (§52-10(9)) refers to a decibel level "set forth in Chapter lot",
//!    a defect in the text: no limit is applied here; the precautions are checked,
//!    and the limit is a setting the Town must confirm before it is shown.
//! 7. **§52-10 cites itself** ("submitted pursuant to §52-10"); it is read as
//!    §52-9 A, the section that requires the application.

pub mod calendar;
pub mod check;
pub mod enforcement;
pub mod permit;
pub mod provision;
pub mod requirements;

#[cfg(test)]
mod property_tests;
#[cfg(test)]
mod table_tests;

pub use check::{application_shortfalls, shortfalls, Provided, Shortfall};
pub use permit::{permit_need, Gathering, PermitNeed, Venue};
pub use provision::Provision;
pub use requirements::{road_width_feet, Containers, Plan, PlanError, Requirements};
