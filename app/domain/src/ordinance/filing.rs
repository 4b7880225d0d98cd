//! Getting a citation to the District Court.
//!
//! Not a rule of Chapter 52 itself, but of the court it sends cases to: the
//! original of a Uniform Summons and Complaint must reach the District Court
//! within five days of issuance (DESIGN §3). Kept here with the law so that the
//! clerk's queue, the printed summons and the exports count the same days.
//!
//! ## The department's readings
//!
//! 1. **The five days are the court's rule**, not §52-4's: §52-4 sets the
//!    penalty and says nothing of filing (issue #33).
//! 2. **A filed citation is the court's.** Once a citation is filed (and after
//!    it is disposed) its number, person, offence, arrest and fine are what the
//!    court was given. The Town cannot dismiss a case, so a change after filing
//!    is a new citation — issued and approved by the chief who amends, naming
//!    the one it replaces — and a recorded withdrawal of the old one, which the
//!    clerk takes to the court, whose dismissal closes it. Another person is
//!    cited by taking the person out of the report (their citation is withdrawn)
//!    and adding the right one; one person is cited once for an offence, so a
//!    withdrawn offence is not cited to the same person again.
//! 3. **A summons needs an identified person** (the Uniform Summons and
//!    Complaint names the defendant and their address). A citation of a person
//!    only described is kept and approved, and held out of filing until the
//!    chief's amendment identifies the person.

/// Days from issuance within which the original must be filed with the court.
pub const FILING_DAYS: u32 = 5;

/// "within 5 days of issuance", as the summons and the clerk's screens say it.
pub fn filing_rule() -> String {
    format!("The original must reach the District Court within {FILING_DAYS} days of issuance.")
}
