//! Persons the law treats differently: minors, and persons not identified.
//!
//! Chapter 52 says nothing of age or identity: any "person" may violate Article I
//! (§52-1 to §52-3) and be fined (§52-4). The department's readings (written in
//! [`crate::ordinance::article_i`]'s documentation) are that a minor is cited only
//! after the chief has seen the case, that an arrest of a minor is for the chief
//! to review (a caution, not a block: the ordinance gives no juvenile rule, and
//! blocking would be the product making law), that a date of birth making a
//! person younger than [`MIN_AGE_YEARS`] at the incident is a mistyped date, and
//! that a summons needs an identified person.

/// The age of majority in Maine: a person younger is a minor, and their case
/// goes to the chief first.
pub const ADULT_AGE_YEARS: u32 = 18;

/// The youngest age a date of birth may give a person at the incident: a younger
/// one is refused as a mistyped date (a plausibility floor, the department's
/// number, not the ordinance's).
pub const MIN_AGE_YEARS: u32 = 10;

/// What the rules know of a person beside their facts: their age at the incident
/// (from the date of birth, when given), whether the officer perceived them as
/// under 18, and whether they are identified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Standing {
    pub age: Option<u32>,
    pub perceived_under_18: bool,
    pub identified: bool,
}

impl Standing {
    /// Under 18 by the date of birth, or as the officer perceived them (either
    /// is enough for the chief to look: a date of birth can be false).
    pub const fn is_minor(self) -> bool {
        self.minor_by_age() || self.perceived_under_18
    }

    /// Under 18 by the date of birth.
    pub const fn minor_by_age(self) -> bool {
        matches!(self.age, Some(age) if age < ADULT_AGE_YEARS)
    }
}
