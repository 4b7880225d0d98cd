//! Cautions: what does not stop a citation but must reach the chief before the
//! case goes to court — expression (§52-1 E), speech (§52-3), the word
//! "annoyance" (§52-1 A(3)), an arrest for an offence punishable by a fine only
//! (§52-2, §52-4), two sections on one refusal (§52-1 D, §52-2), status words,
//! minors and persons not identified.
//!
//! A decision's cautions come from [`super::decide`]; a person's own (age,
//! identity, the citations asked for together) from [`super::person_cautions`].

use serde::{Deserialize, Serialize};

use super::facts::{PeaceProng, ProtectedActivity};
use super::offence::Offence;
use crate::ordinance::persons::ADULT_AGE_YEARS;
use crate::ordinance::status::ScreenedText;
use crate::ordinance::Section;

/// Something that does not stop a citation but must reach the chief before the
/// case goes to court.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Caution {
    /// This person was expressing an opinion in a §52-2 or §52-3 case. §52-1 E does
    /// not reach those sections, but citing expression is constitutionally
    /// sensitive.
    ExpressionInvolved {
        offence: Offence,
        activity: ProtectedActivity,
    },
    /// A §52-3 case rests on what was sung or said (songs, or obscene and indecent
    /// and profane words): Cohen v. California, 403 U.S. 15 (1971); Gooding v.
    /// Wilson, 405 U.S. 518 (1972); Grayned v. City of Rockford, 408 U.S. 104
    /// (1972). Always for the chief, whatever the §52-1 E answer.
    SpeechBasis { prongs: Vec<PeaceProng> },
    /// A free text leans on who a person is rather than what they did
    /// (Papachristou v. City of Jacksonville, 405 U.S. 156 (1972); City of Chicago
    /// v. Morales, 527 U.S. 41 (1999)).
    StatusWords {
        words: Vec<String>,
        #[serde(flatten)]
        text: ScreenedText,
    },
    /// Every §52-1 A(3) decision: "annoyance" is the word Coates v. Cincinnati,
    /// 402 U.S. 611 (1971) held too vague to punish.
    AnnoyanceBasis,
    /// §52-2 directs an arrest, but the offence is punishable by a fine only
    /// (§52-4): the chief confirms the authority for the arrest.
    ArrestFineOnly,
    /// §52-1 E's proviso: the person was expressing an opinion, set outside the
    /// exclusion only because it contravened the law named.
    ExpressionContravening { offence: Offence, law: String },
    /// A §52-2 citation and a §52-1 citation rest on the same refusal of the same
    /// order.
    TwoSectionsOneRefusal,
    /// The person (at this position, 0-based) is under 18: by their date of birth
    /// (`age` at the incident) or as the officer perceived them (`age` absent).
    Minor { person: usize, age: Option<u32> },
    /// The person (at this position) under 18 is recorded as arrested (§52-2).
    MinorArrested { person: usize },
    /// A citation is asked for a person (at this position) who is not
    /// identified: held out of the filing queue until the identity is recorded.
    Unidentified { person: usize },
}

impl Caution {
    pub fn message(&self) -> String {
        match self {
            Caution::ExpressionInvolved { offence, .. } => format!(
                "{}: the person was expressing an opinion. §52-1 E does not cover this section, \
                 but the case needs the chief's review before it goes to court.",
                offence.reference()
            ),
            Caution::SpeechBasis { .. } => format!(
                "{}: the case rests on songs or words — what was said or sung. Speech is cited only \
                 for its disturbance of the quiet and good order, never for its content; the chief \
                 reviews it before it goes to court.",
                Section::S52_3
            ),
            Caution::StatusWords { words, text } => format!(
                "{} uses status words ({}). Being homeless, young, idle or in a group is no element \
                 of any offence: describe what the person did.",
                text.label(),
                words.join(", ")
            ),
            Caution::AnnoyanceBasis => format!(
                "{}: “annoyance” is the word Coates v. Cincinnati, 402 U.S. 611 (1971) held too vague \
                 to punish. The record must show the disturbance — what this person did — not only that \
                 someone was annoyed; the chief reviews it before it goes to court.",
                Section::S52_1A3
            ),
            Caution::ArrestFineOnly => format!(
                "{}: an arrest is recorded, but the offence is punishable by a fine only ({}). The chief \
                 confirms the authority for the arrest before the case goes to court.",
                Section::S52_2,
                Section::S52_4
            ),
            Caution::ExpressionContravening { offence, law } => format!(
                "{}: the person was expressing an opinion; {} is charged only because the expression \
                 contravened {}. The chief reviews it before it goes to court.",
                Section::S52_1E,
                offence.reference(),
                if law.trim().is_empty() {
                    "a law not yet named"
                } else {
                    law.trim()
                }
            ),
            Caution::TwoSectionsOneRefusal => format!(
                "{} and {}: citations under both sections rest on the same refusal of the same order. \
                 The chief confirms that each section's own conduct is shown before the case goes to court.",
                Section::S52_1D,
                Section::S52_2
            ),
            Caution::Minor { person, age } => format!(
                "Person {} is under {ADULT_AGE_YEARS} ({}). Chapter 52 has no rule of its own for minors: \
                 the chief reviews the case before it goes further, and juvenile process may apply.",
                person + 1,
                match age {
                    Some(age) => format!("{age} at the incident, by the date of birth"),
                    None => "as the officer perceived them".to_owned(),
                }
            ),
            Caution::MinorArrested { person } => format!(
                "{}: person {}, under {ADULT_AGE_YEARS}, is recorded as arrested. The chief reviews the \
                 arrest of a minor.",
                Section::S52_2,
                person + 1
            ),
            Caution::Unidentified { person } => format!(
                "Person {} is not identified: a summons needs the person's name and address, so the \
                 citation is held out of the filing queue until the report is amended with the identity.",
                person + 1
            ),
        }
    }

    /// A short name for filters and badges.
    pub const fn kind(&self) -> &'static str {
        match self {
            Caution::ExpressionInvolved { .. } => "expression_involved",
            Caution::SpeechBasis { .. } => "speech_basis",
            Caution::StatusWords { .. } => "status_words",
            Caution::AnnoyanceBasis => "annoyance_basis",
            Caution::ArrestFineOnly => "arrest_fine_only",
            Caution::ExpressionContravening { .. } => "expression_contravening",
            Caution::TwoSectionsOneRefusal => "two_sections_one_refusal",
            Caution::Minor { .. } => "minor",
            Caution::MinorArrested { .. } => "minor_arrested",
            Caution::Unidentified { .. } => "unidentified",
        }
    }
}
