//! How each person's part in an incident ends. Outcomes that are not citations are
//! as much a record as citations: "complied — no violation" is the base rate every
//! later audit of this ordinance needs (DESIGN §2).

use serde::{Deserialize, Serialize};

use super::decision::{Decision, Finding, Verdict};
use super::facts::{ProtectedActivity, Response};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Obeyed the order: no violation (§52-1 D).
    Complied,
    /// Left before an order could be given: no violation.
    Departed,
    /// Spoken to or warned; no citation (the officer's discretion, or the elements
    /// were not all there).
    Warned,
    /// §52-1 E: protected activity — no action.
    ProtectedActivity,
    /// A $100.00-plus-costs citation was issued (§52-4).
    Cited,
    /// §52-2: arrested to be brought before the District Court; a citation is
    /// issued as well.
    Arrested,
}

impl Outcome {
    pub const ALL: [Outcome; 6] = [
        Outcome::Complied,
        Outcome::Departed,
        Outcome::Warned,
        Outcome::ProtectedActivity,
        Outcome::Cited,
        Outcome::Arrested,
    ];

    /// Whether this outcome carries a citation.
    pub const fn is_citation(self) -> bool {
        matches!(self, Outcome::Cited | Outcome::Arrested)
    }

    pub const fn code(self) -> &'static str {
        match self {
            Outcome::Complied => "complied",
            Outcome::Departed => "departed",
            Outcome::Warned => "warned",
            Outcome::ProtectedActivity => "protected_activity",
            Outcome::Cited => "cited",
            Outcome::Arrested => "arrested",
        }
    }

    pub fn from_code(code: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.code() == code)
    }

    pub const fn label(self) -> &'static str {
        match self {
            Outcome::Complied => "Complied — no violation",
            Outcome::Departed => "Left before an order — no violation",
            Outcome::Warned => "Warned — no citation",
            Outcome::ProtectedActivity => "Protected activity — no action (§52-1 E)",
            Outcome::Cited => "Cited — $100.00 plus costs (§52-4)",
            Outcome::Arrested => "Arrested and cited — District Court (§52-2)",
        }
    }
}

/// The outcome for one person. `decision` is the rules' decision on the offence
/// charged (none when no offence was charged); `issue_citation` is what the
/// officer asked for. Asking to cite where the rules do not allow it is refused
/// with the reasons; the officer may always decline to cite.
pub fn outcome(
    decision: Option<&Decision>,
    issue_citation: bool,
    protected: ProtectedActivity,
    response: Response,
) -> Result<Outcome, Vec<Finding>> {
    if issue_citation {
        return match decision {
            Some(d) => match &d.verdict {
                Verdict::Citable {
                    arrest_and_court, ..
                } => Ok(if *arrest_and_court {
                    Outcome::Arrested
                } else {
                    Outcome::Cited
                }),
                _ => Err(d.reasons()),
            },
            // The wire types tie a citation to a charged offence, so this is a
            // programming error upstream; refuse rather than guess.
            None => Err(Vec::new()),
        };
    }
    let excluded = matches!(
        decision.map(|d| &d.verdict),
        None | Some(Verdict::Excluded { .. })
    );
    Ok(if protected.is_protected() && excluded {
        Outcome::ProtectedActivity
    } else {
        match response {
            Response::Complied { .. } => Outcome::Complied,
            Response::LeftBeforeOrder => Outcome::Departed,
            Response::NoOrder | Response::Refused { .. } => Outcome::Warned,
        }
    })
}
