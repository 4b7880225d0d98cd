//! Article II of Chapter 52: mass outdoor gatherings (§52-5 to §52-12).
//!
//! | Section | What it says | Where it is enforced |
//! |---|---|---|
//! | §52-5, §52-6(3), §52-7 | a permit from the Board of Selectmen for an outdoor gathering of 500 or more persons for two or more hours; the Board may route it under Chapter 55 | [`permit_need`] |
//! | §52-6(2) | a permanent place of assembly with sufficient sanitary facilities is not a mass gathering area | [`Venue::PermanentPlaceOfAssembly`] |
//! | §52-8 | the permit issues unless a standard is not met; a denial finds one not met | [`shortfalls`]; [`grounds_to_deny`] ("shall") and [`advice`] ("should"); the Board's own findings, named by standard ([`Provision::BOARD_STANDARDS`]), open until the Board marks them met |
//! | §52-9 A | filed 20 days ahead, $100 non-refundable fee | [`calendar::last_filing_day`], [`calendar::filing_problem`], [`Requirements::fee_cents`] |
//! | §52-9 B | decision within 7 days of consideration; a denial lists reasons and steps; no decision is a denial | [`calendar::decision_clock`]; [`Shortfall`] (reason and step); the Board's meeting and vote, [`board`] |
//! | §52-9 C | appeal under Rule 80B | [`calendar::APPEAL`] |
//! | §52-9 D | bond of at least $5,000; deposit of 120 % of estimated public costs; refund or excess due in 10 days | [`Requirements`], [`calendar::settlement_cents`], [`calendar::excess_due_day`] |
//! | §52-10 | the application's standards (access, grounds, water, sanitation, refuse, safety, medical, sound) | [`Requirements::for_plan`], [`shortfalls`] |
//! | §52-11 | insurance $300,000 / $500,000 bodily injury, $100,000 property | [`Requirements`] |
//! | §52-7 on scene | an unpermitted gathering: who may be cited (never those attending); a continued attendance shown over time; the officer's answer against the register | [`enforcement::missing_elements`], [`enforcement::continued_attendance`], [`enforcement::register_problems`], `Offence::UnpermittedMassGathering` |
//! | §52-12 | $1,000 plus costs, on "any person or party" | [`crate::ordinance::Penalty::ARTICLE_II`]; an organisation, `model::incident::Identity::Organisation` |
//!
//! The ordinance's own numbering is kept: §52-10 goes from (5) to (7).
//!
//! ## The department's readings, where the text is silent or defective
//!
//! 1. **Two hours.** §52-6(3) says "exceed two hours", §52-7 "two or more
//!    hours"; §52-7 forbids, so exactly two hours needs a permit
//!    ([`permit::PERMIT_MINUTES`]).
//! 2. **Toilets** (§52-10(4)(d): "separate for males and females, set at a rate
//!    of one for each 350 persons"): each sex's facilities at one for each 350
//!    of the persons they serve — the men and the women the application states
//!    it expects, or else an even split, ⌈N/2⌉ each side so that neither is
//!    under-provided (2,400 persons: 4 + 4; 701 persons: 2 + 2)
//!    ([`Plan::served_by_sex`]). Not ⌈N/350⌉ for each sex, which counts every
//!    person twice.
//! 3. **Refuse collections** (§52-10(5)(d)) are twice each twelve-hour period of
//!    assembly begun, on each day the gathering assembles: days × 2 ×
//!    ⌈daily minutes / 720⌉ ([`requirements::collections`]). The assemblies of
//!    two days are two periods, never minutes summed across days; the six-hour
//!    minimum then always holds.
//! 4. **"Or its equivalent"** for refuse: 50-gallon and 16-yard containers may
//!    be mixed, each covering its share ([`Containers::met_by`]).
//! 5. **Parking density** with cars and buses together: V/100 + B/30 usable acres.
//! 6. **Sound** (§52-10(9)) refers to a decibel level "set forth in Chapter lot",
//!    a defect in the text: no limit is applied here; the precautions are checked,
//!    and the limit is a setting the Town must confirm before it is shown.
//! 7. **§52-10 cites itself** ("submitted pursuant to §52-10"); it is read as
//!    §52-9 A, the section that requires the application.
//! 8. **Motor vehicles** (§52-10(5)(c)) are the cars and the buses that park:
//!    the containers are counted on V + B (N 2,400, V 600, B 4: ⌈604/25⌉ = 25).
//! 9. **"Should" is advice, "shall" is a ground** (§52-8 A: the Board "shall
//!    issue … unless it finds the standards … are not met"). §52-10 says
//!    "should" of exactly three standards — the service roads' width
//!    (§52-10(2)(e)) and the refuse containers' number (§52-10(5)(b), (c)) —
//!    and "shall", "will" or "must" of the rest, the rest of (2)(e) included.
//!    A "should" not met is listed as advice and printed with the decision; the
//!    Board may issue with it open, and a denial must rest on a "shall" standard
//!    not met or on a finding of the Board's own (§52-8 B) ([`Standard`]).
//! 10. **"Continued attendance … for two or more hours"** (§52-7) is not shown by
//!     one count at one moment: it is shown by counts of 500 or more at least
//!     two hours apart with none under 500 between, or by what shows the
//!     gathering "may, will, or is intended to" attract it — the hours advertised
//!     or the tickets sold, with where that is shown named; with no number of its
//!     own, the largest count stands for the persons
//!     ([`enforcement::continued_attendance`]). Reports stored with one count and
//!     a duration read and print as they did, and are decided under this reading
//!     if amended.
//! 11. **A gathering routed to Chapter 55** is permitted: §52-7 lets the Board
//!     determine that "the permit for such gathering shall be issued under
//!     Chapter 55 regulations"; the product cannot see Chapter 55 permits, so a
//!     gathering the register shows so routed is no §52-7 violation and nobody is
//!     cited for it.
//! 12. **The officer's permit answer is held against the register** for the
//!     Town day the gathering began: "no permit" while the register holds an
//!     issued, settled or Chapter 55 entry for the day stands only with why that
//!     one is another gathering; a permit named must be in the register for that
//!     day, as what it is ([`enforcement::register_problems`]).
//! 13. **"Any person or party"** (§52-12): an organisation may be cited for
//!     Article II, without a date of birth; Article I's offences are a person's
//!     own conduct (loitering, standing together, making noise), so an
//!     organisation is refused on an Article I report. Perception (age, sex,
//!     race) is a person's: not recorded for an organisation, and the
//!     dashboard's perception figures count persons only.
//! 14. **The Board decides at its meeting** (§52-8, §52-9 B; issue #37). A
//!     decision is the Board's, made at a meeting held at or after the
//!     consideration the Town Clerk scheduled — a decision dated before it is
//!     refused — on a motion carried by a majority of those voting (more for
//!     than against; abstentions count neither way; the ordinance names no
//!     quorum, so none is checked) ([`board`]). A Selectman or the Town Clerk
//!     records it, with the meeting's date, who moved, who seconded if anyone,
//!     and the vote. Meetings are held on the days the Town's offices are open:
//!     a meeting on a weekend or a Maine legal holiday (as observed) is refused
//!     with the day named (`model::court_calendar::town_closed`).
//! 15. **The Board's findings stay open** (§52-8 B). A standard the Board finds
//!     not met — one the rules cannot check, e.g. §52-10(2)(b) — is recorded
//!     with the standard it names and stays open, through the operator's
//!     changes and later meetings, until the Board marks it met (dated, with
//!     who recorded it); the operator may answer it through the status link;
//!     a permit is not issued while one is open (§52-8 A: the Board "shall
//!     issue … unless it finds the standards … are not met").
//! 16. **The filing deadline shown** (§52-9 A): the twentieth day before the
//!     first gathering, or — when the Town Clerk's office is closed that day
//!     (a weekend or a Maine legal holiday) — the last day before it that the
//!     office is open, so the calculator never names a day nobody can file on
//!     paper. An application filed online on the statutory day is still on
//!     time: the late-filing reason counts from the statutory day.

pub mod board;
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

pub use check::{
    advice, application_shortfalls, denial_reasons, grounds_to_deny, shortfalls, Provided,
    Shortfall, Standard,
};
pub use permit::{permit_need, Gathering, PermitNeed, Venue};
pub use provision::Provision;
pub use requirements::{road_width_feet, BySex, Containers, Plan, PlanError, Requirements};
