//! How each person's part in an incident ends. Outcomes that are not citations are
//! as much a record as citations: "complied — no violation" is the base rate every
//! later audit of this ordinance needs (DESIGN §2).

use serde::{Deserialize, Serialize};

use super::caution::Caution;
use super::decision::{Decision, Finding, Verdict};
use super::facts::{PersonFacts, Response};
use super::offence::{Element, Offence};
use crate::ordinance::persons::Standing;
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
/// A person may carry one citation per section violated: §52-1's prongs are one
/// violation per order refused (§52-1 D), so at most one of them is cited.
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
    refused.extend(one_section_52_1_citation(charges));
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
    Ok(not_cited(person, decisions))
}

/// §52-1 D: "any person who fails or refuses to obey any such order shall be
/// guilty of a violation of this section" — one refusal of one order is one
/// violation, whatever prongs the conduct met. A person receives one order, so a
/// second §52-1 citation asked for is refused (the prong stays charged).
fn one_section_52_1_citation(charges: &[Charge]) -> Option<Finding> {
    let second = charges
        .iter()
        .filter(|c| c.issue_citation && c.offence.is_section_52_1())
        .nth(1)?;
    Some(Finding::new(
        second.offence,
        Element::FailedOrRefused,
        "one refusal of one order is one violation of this section — cite the one prong that fits best \
         (A(1), A(2) or A(3)); the others stay charged, without a citation",
    ))
}

/// The outcome of a person for whom no citation issues.
fn not_cited(person: &PersonFacts, decisions: &[Decision]) -> Outcome {
    let excluded = decisions
        .iter()
        .all(|d| matches!(d.verdict, Verdict::Excluded { .. }));
    if person.protected_activity.is_protected() && excluded {
        Outcome::ProtectedActivity
    } else {
        match person.response {
            Response::Complied { .. } => Outcome::Complied,
            Response::LeftBeforeOrder => Outcome::Departed,
            Response::NoOrder | Response::Refused { .. } => Outcome::Warned,
        }
    }
}

/// The cautions of one person (at `position`, 0-based) for the chief, beside
/// their decisions': a minor, a minor arrested, a citation asked for a person not
/// identified, and §52-2 cited beside §52-1 on the same refusal.
pub fn person_cautions(
    position: usize,
    standing: Standing,
    person: &PersonFacts,
    charges: &[Charge],
) -> Vec<Caution> {
    let cited = |f: fn(Offence) -> bool| charges.iter().any(|c| c.issue_citation && f(c.offence));
    let mut cautions = Vec::new();
    if standing.is_minor() {
        cautions.push(Caution::Minor {
            person: position,
            age: standing.age.filter(|_| standing.minor_by_age()),
        });
        if person.arrested {
            cautions.push(Caution::MinorArrested { person: position });
        }
    }
    if !standing.identified && cited(|_| true) {
        cautions.push(Caution::Unidentified { person: position });
    }
    if cited(Offence::permits_arrest) && cited(Offence::is_section_52_1) {
        cautions.push(Caution::TwoSectionsOneRefusal);
    }
    cautions
}
