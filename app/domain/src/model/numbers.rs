//! Citation numbers a phone holds for use without signal (issue #17), and the
//! account of every number of a year.
//!
//! Paper citation books come in numbered blocks; so do these. While it has
//! signal, the officer's phone reserves a block of the year's sequence; on scene
//! it gives the next one to each person it cites, at once, so the subject leaves
//! with a numbered copy (§52-4: the citation is the summons). The report brings
//! the number to the server, which confirms it or, when its rules refuse the
//! report, records it void — never reused. Numbers nobody used come back.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::settings::CourtSettings;
use crate::ordinance::{Moment, Offence};

/// How many numbers a phone reserves at a time: a shift's citations, and few
/// enough that an abandoned phone leaves a short run to return.
pub const BLOCK_SIZE: i64 = 10;

/// How long a phone may hand out numbers of a block: one shift and a half. A
/// new block replaces it while there is signal.
pub const USE_FOR_MS: i64 = 12 * 3_600_000;

/// How long after `use_until` the server waits for reports still on a phone
/// before it returns the block's numbers nobody brought: a week off the network
/// is a lost phone, not a weak signal.
pub const EXPIRE_AFTER_MS: i64 = 7 * 24 * 3_600_000;

/// How many unsettled blocks one officer may hold (a phone and a spare): a
/// stolen password cannot reserve the year's numbers away.
pub const MAX_OPEN_BLOCKS: i64 = 3;

/// `WPD-2026-000042`
pub fn citation_number(year: i16, seq: i64) -> String {
    format!("WPD-{year:04}-{seq:06}")
}

/// `WPD-2026-000123`
pub fn is_citation_number(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 15
        && text.starts_with("WPD-")
        && b[4..8].iter().all(u8::is_ascii_digit)
        && b[8] == b'-'
        && b[9..].iter().all(u8::is_ascii_digit)
}

/// The year and sequence of `WPD-2026-000042`.
pub fn parse_number(number: &str) -> Option<(i16, i64)> {
    let number = number.trim();
    if !is_citation_number(number) {
        return None;
    }
    let year: i16 = number[4..8].parse().ok()?;
    let seq: i64 = number[9..].parse().ok()?;
    (seq >= 1).then_some((year, seq))
}

/// A block of numbers reserved for one officer's phone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NumberBlock {
    pub block_id: Uuid,
    pub year: i16,
    pub first_seq: i64,
    pub last_seq: i64,
    /// The phone hands out none of these after this moment.
    pub use_until: Moment,
    /// The court in force when the block was reserved, for the subject's copy a
    /// phone prints without signal (the stored citation prints the court in
    /// force when it reached the server; an administrator changes it rarely).
    pub court: CourtSettings,
    /// The officer as the copy prints them, with their signature on file
    /// (issue #20; absent from blocks a phone kept from before).
    pub officer_name: String,
    pub officer_badge: String,
    #[serde(default)]
    pub officer_signature: Option<crate::model::signature::Signature>,
    /// The Town's zone (IANA), in which the phone's copy states its times, as
    /// the court's copy does (issue #35); blocks a phone kept from before are
    /// the Town's default zone.
    #[serde(default = "default_town_zone")]
    pub town_zone: String,
}

fn default_town_zone() -> String {
    "America/New_York".to_owned()
}

impl NumberBlock {
    pub fn number(&self, seq: i64) -> String {
        citation_number(self.year, seq)
    }
    pub fn contains(&self, year: i16, seq: i64) -> bool {
        year == self.year && (self.first_seq..=self.last_seq).contains(&seq)
    }
    pub fn usable(&self, now: Moment) -> bool {
        now < self.use_until
    }
}

/// A number the phone gave to a person on scene, for one offence: the report
/// carries it so the server's citation takes the same number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandedNumber {
    pub subject_id: Uuid,
    pub offence: Offence,
    pub number: String,
}

/// A number that is not a standing citation, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpentNumber {
    pub number: String,
    /// `void` (a citation voided, or a number handed out for a report the
    /// server refused) or `returned`.
    pub state: String,
    pub reason: String,
    pub at_text: String,
    /// Who voided it: the chief, the officer whose correction or refused
    /// report voided it (issue #37: every void, whatever path voided it).
    #[serde(default)]
    pub by: String,
    /// A citation voided after it was issued (rather than a number voided on
    /// submission).
    #[serde(default)]
    pub citation: bool,
}

/// Numbers still reserved: in a block a phone holds, or handed out for reports
/// still on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReservedRun {
    pub officer: String,
    pub first: String,
    pub last: String,
    pub count: i64,
    pub use_until_text: String,
}

/// Every number of a year, accounted for: `issued + voided + returned +
/// reserved = last`, and `missing` lists any number that is none of these
/// (there should be none: that is what "gapless" means once numbers are handed
/// out without signal).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NumberAccount {
    pub year: i16,
    /// The highest number given out or reserved this year.
    pub last: i64,
    /// Citations (whatever their status since: a void keeps its number).
    pub issued: i64,
    /// Numbers voided on submission: handed out for a report the server refused.
    pub voided: i64,
    pub returned: i64,
    pub reserved: i64,
    /// Citations voided after they were issued — by the chief, or by a
    /// correction that no longer cites them — counted among `issued`.
    #[serde(default)]
    pub voided_citations: i64,
    /// Every void, newest first (at most 50): citations voided and numbers
    /// voided on submission, each with who voided it and why.
    pub voids: Vec<SpentNumber>,
    pub reserved_runs: Vec<ReservedRun>,
    pub missing: Vec<String>,
}

impl NumberAccount {
    pub fn balances(&self) -> bool {
        self.missing.is_empty()
            && self.issued + self.voided + self.returned + self.reserved == self.last
    }

    /// Citations that stand: issued and not voided.
    pub fn standing(&self) -> i64 {
        self.issued - self.voided_citations
    }

    /// Every void of the year: citations voided and numbers voided on submission.
    pub fn void_total(&self) -> i64 {
        self.voided + self.voided_citations
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_reads_back_as_its_year_and_sequence() {
        assert_eq!(citation_number(2026, 42), "WPD-2026-000042");
        assert_eq!(parse_number("WPD-2026-000042"), Some((2026, 42)));
        assert_eq!(parse_number(" WPD-2026-000042 "), Some((2026, 42)));
    }

    #[test]
    fn anything_else_is_not_a_number() {
        for text in [
            "",
            "WPD-2026-42",
            "WPD-26-000042",
            "XYZ-2026-000042",
            "WPD-2026-000000",
            "WPD-2026-00004a",
            "WPD-2026-0000042",
        ] {
            assert_eq!(parse_number(text), None, "{text}");
        }
    }
}
