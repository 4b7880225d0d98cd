//! How each person's part in an incident ends. Outcomes that are not citations are
//! as much a record as citations: "complied — no violation" is the base rate every
//! later audit of this ordinance needs (DESIGN §2).

use serde::{Deserialize, Serialize};

use super::decision::{Decision, Finding, Verdict};
use super::facts::{PersonFacts, Response};
use super::offence::{Element, Offence};
use crate::ordinance::Penalty;

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
    /// Cited: a summons and a fine plus costs (§52-4), no arrest.
    Cited,
    /// §52-2: arrested to be brought before the District Court, and cited.
    Arrested,
    /// §52-7: cited for conducting a mass gathering without a permit; a summons
    /// and the §52-12 fine plus costs.
    CitedGathering,
}

impl Outcome {
    pub const ALL: [Outcome; 7] = [
        Outcome::Complied,
        Outcome::Departed,
        Outcome::Warned,
        Outcome::ProtectedActivity,
        Outcome::Cited,
        Outcome::Arrested,
        Outcome::CitedGathering,
    ];

    /// Whether this outcome carries a citation.
    pub const fn is_citation(self) -> bool {
        matches!(
            self,
            Outcome::Cited | Outcome::Arrested | Outcome::CitedGathering
        )
    }

    pub const fn code(self) -> &'static str {
        match self {
            Outcome::Complied => "complied",
            Outcome::Departed => "departed",
            Outcome::Warned => "warned",
            Outcome::ProtectedActivity => "protected_activity",
            Outcome::Cited => "cited",
            Outcome::Arrested => "arrested",
            Outcome::CitedGathering => "cited_gathering",
        }
    }

    pub fn from_code(code: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.code() == code)
    }

    /// In words, without an offence or section where none was broken: a person
    /// who complied is named with no offence code.
    pub fn label(self) -> String {
        match self {
            Outcome::Complied => "Complied — no violation".to_owned(),
            Outcome::Departed => "Left before an order — no violation".to_owned(),
            Outcome::Warned => "Warned — no citation".to_owned(),
            Outcome::ProtectedActivity => "Protected activity — no action (§52-1 E)".to_owned(),
            Outcome::Cited => format!("Cited — {} plus costs", Penalty::ARTICLE_I.fine_text()),
            Outcome::Arrested => "Arrested and cited — District Court (§52-2)".to_owned(),
            Outcome::CitedGathering => format!(
                "Cited — {} plus costs (§52-12)",
                Penalty::ARTICLE_II.fine_text()
            ),
        }
    }
}

/// One offence charged to a person, with whether the officer issues its citation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Charge {
    pub offence: Offence,
    pub issue_citation: bool,
}

/// The outcome for one person, from the rules' decision on each offence charged
/// to them (in the order of `charges`). Asking to cite where the rules do not
/// allow it is refused with the reasons; the officer may always decline to cite.
/// A person may carry one citation per offence violated.
pub fn outcome(
    person: &PersonFacts,
    charges: &[Charge],
    decisions: &[Decision],
) -> Result<Outcome, Vec<Finding>> {
    let mut refused = Vec::new();
    let mut cited = false;
    let mut cited_52_2 = false;
    let mut cited_article_ii = false;
    for (charge, decision) in charges.iter().zip(decisions) {
        if !charge.issue_citation {
            continue;
        }
        match decision.verdict {
            Verdict::Citable { .. } => {
                cited = true;
                cited_52_2 |= charge.offence.permits_arrest();
                cited_article_ii |= charge.offence.is_article_ii();
            }
            _ => refused.extend(decision.reasons()),
        }
    }
    if person.arrested && !cited_52_2 {
        refused.push(Finding::new(
            Offence::GroupObstruction,
            Element::FailedOrRefused,
            "an arrest is recorded, but §52-2 is the only section of Article I that directs an arrest, and \
             only of a person who did not obey the order to move on — issue the §52-2 citation, or record \
             that no arrest was made",
        ));
    }
    if !refused.is_empty() {
        return Err(refused);
    }
    if cited {
        return Ok(if person.arrested {
            Outcome::Arrested
        } else if cited_article_ii {
            Outcome::CitedGathering
        } else {
            Outcome::Cited
        });
    }
    let excluded = decisions
        .iter()
        .all(|d| matches!(d.verdict, Verdict::Excluded { .. }));
    Ok(if person.protected_activity.is_protected() && excluded {
        Outcome::ProtectedActivity
    } else {
        match person.response {
            Response::Complied { .. } => Outcome::Complied,
            Response::LeftBeforeOrder => Outcome::Departed,
            Response::NoOrder | Response::Refused { .. } => Outcome::Warned,
        }
    })
}
