//! What the conversion of a first-version report could not know (issue #33,
//! finding 8). The first version recorded the conduct, the order and the §52-1 E
//! answer once for the whole incident, merged the pairs of §52-3's words, never
//! asked where an obstruction of passage was, and never asked about an arrest.
//! A converted person carries the facts the conversion filled in, marked "not
//! recorded — converted", until someone who knows checks them.

use serde::{Deserialize, Serialize};

/// A fact of one person that the conversion filled in without a record of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConvertedFact {
    /// §52-1 E: answered once for the whole incident.
    ProtectedActivity,
    /// The conduct: recorded once for the whole incident.
    Conduct,
    /// §52-1 A(1): the place obstructed (the incident's place was taken).
    ObstructedPlace,
    /// §52-3: "loud or unusual", "improper or boisterous" recorded as one word.
    NoiseOrSongWord,
    /// §52-2: whether an arrest was made (never asked).
    Arrest,
}

impl ConvertedFact {
    pub const ALL: [ConvertedFact; 5] = [
        ConvertedFact::ProtectedActivity,
        ConvertedFact::Conduct,
        ConvertedFact::ObstructedPlace,
        ConvertedFact::NoiseOrSongWord,
        ConvertedFact::Arrest,
    ];

    /// What was not recorded, in words.
    pub const fn label(self) -> &'static str {
        match self {
            ConvertedFact::ProtectedActivity => "the §52-1 E answer",
            ConvertedFact::Conduct => "the conduct",
            ConvertedFact::ObstructedPlace => "the place obstructed (§52-1 A(1))",
            ConvertedFact::NoiseOrSongWord => "which of §52-3's words",
            ConvertedFact::Arrest => "whether an arrest was made (§52-2)",
        }
    }
}

/// The words a converted fact is shown with, wherever it is printed.
pub const NOT_RECORDED: &str = "not recorded — converted";

/// "the §52-1 E answer, the conduct and whether an arrest was made (§52-2)".
pub fn listed(facts: &[ConvertedFact]) -> String {
    let labels: Vec<&str> = facts.iter().map(|f| f.label()).collect();
    match labels.as_slice() {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
