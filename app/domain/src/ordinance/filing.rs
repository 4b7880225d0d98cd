//! Getting a citation to the District Court.
//!
//! Not a rule of Chapter 52 itself, but of the court it sends cases to: the
//! original of a Uniform Summons and Complaint must reach the District Court
//! within five days of issuance (DESIGN §3). Kept here with the law so that the
//! clerk's queue, the printed summons and the exports count the same days.

/// Days from issuance within which the original must be filed with the court.
pub const FILING_DAYS: u32 = 5;

/// "within 5 days of issuance", as the summons and the clerk's screens say it.
pub fn filing_rule() -> String {
    format!("The original must reach the District Court within {FILING_DAYS} days of issuance.")
}
