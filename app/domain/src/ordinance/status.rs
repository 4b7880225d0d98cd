//! Status, not conduct: words that show a record leaning on who a person is.
//!
//! Being homeless, young, idle or in a group is no element of any offence of
//! Chapter 52, and loitering laws enforced against status or aimless presence
//! were struck down (Papachristou v. City of Jacksonville, 405 U.S. 156 (1972);
//! City of Chicago v. Morales, 527 U.S. 41 (1999)). The rules never block on these
//! words — a record may quote them — but the chief sees a caution. Every free
//! text of a report is screened: the narrative, the description of a person not
//! identified (which the citation prints), the words of each order, the location,
//! and the law a person's expression is said to contravene (§52-1 E).

use serde::{Deserialize, Serialize};

/// Words and phrases that describe status. Matched case-insensitively on word
/// boundaries, so "gangway" is not "gang" and "kidney" is not "kid".
pub const STATUS_WORDS: &[&str] = &[
    // Poverty and housing.
    "homeless",
    "vagrant",
    "vagrants",
    "vagrancy",
    "transient",
    "transients",
    "drifter",
    "drifters",
    "vagabond",
    "bum",
    "bums",
    "panhandler",
    "panhandlers",
    "street person",
    "street people",
    "unhoused",
    "no fixed address",
    "addict",
    "addicts",
    // Age.
    "juvenile",
    "juveniles",
    "kid",
    "kids",
    "teen",
    "teens",
    "teenager",
    "teenagers",
    "youth",
    "youths",
    // "minor injury" is flagged too: a caution only, for the chief to read.
    "minor",
    "minors",
    // Reputation and association.
    "gang",
    "gangs",
    "gang member",
    "gang members",
    "known to",
    "undesirable",
    "undesirables",
    // Idleness: Morales struck down "remain in any one place with no apparent
    // purpose" — aimlessness is exactly what the ordinance may not punish.
    "known loiterer",
    "loiterer",
    "loiterers",
    "habitual loiterer",
    "loafer",
    "loafers",
    "loafing",
    "idler",
    "idlers",
    "hanging around",
    "hanging out",
    "hung around",
    "hang around",
    "hangs around",
    "hung out",
    "hangs out",
    "hang out",
    "wandering",
    "aimless",
    "aimlessly",
    "no apparent purpose",
    "no visible purpose",
    "no legitimate purpose",
    "no lawful purpose",
    "without apparent purpose",
];

/// Which free text a caution is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "text", rename_all = "snake_case")]
pub enum ScreenedText {
    /// The officer's narrative.
    Narrative,
    /// The description of the person at this position (0-based) of the incident.
    Description { person: usize },
    /// The words of the order at this position (0-based) of the incident.
    Order { order: usize },
    /// The location typed for the incident.
    Location,
    /// The law named as contravened by the expression of the person at this
    /// position (§52-1 E).
    Law { person: usize },
}

impl ScreenedText {
    pub fn label(self) -> String {
        match self {
            ScreenedText::Narrative => "The narrative".to_owned(),
            ScreenedText::Description { person } => {
                format!("The description of person {}", person + 1)
            }
            ScreenedText::Order { order } => format!("The words of order {}", order + 1),
            ScreenedText::Location => "The location".to_owned(),
            ScreenedText::Law { person } => {
                format!("The law named for person {}", person + 1)
            }
        }
    }
}

/// The status words in `text`, in list order, each once; where a longer phrase
/// ("gang member") and a shorter one ("gang") both match, only the longer is given.
pub fn status_words(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    let hits: Vec<&str> = STATUS_WORDS
        .iter()
        .copied()
        .filter(|phrase| {
            let needle: Vec<&str> = phrase.split(' ').collect();
            words.windows(needle.len()).any(|w| w == needle.as_slice())
        })
        .collect();
    hits.iter()
        .filter(|short| {
            !hits
                .iter()
                .any(|long| long.len() > short.len() && contains_words(long, short))
        })
        .map(|s| (*s).to_owned())
        .collect()
}

/// Whether the words of `short` appear, in order and whole, inside `long`.
fn contains_words(long: &str, short: &str) -> bool {
    let long: Vec<&str> = long.split(' ').collect();
    let short: Vec<&str> = short.split(' ').collect();
    long.windows(short.len()).any(|w| w == short.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conduct_only_narrative_has_no_status_words() {
        let text = "Subject stood in the middle of the sidewalk in front of 1234 Post Road for 20 minutes; \
                    pedestrians stepped into Route 1 to pass. Ordered to stop and move on at 21:05; refused.";
        assert!(status_words(text).is_empty());
    }

    #[test]
    fn status_words_are_found_case_insensitively_on_word_boundaries() {
        assert_eq!(status_words("A HOMELESS man"), vec!["homeless"]);
        assert_eq!(
            status_words("walked down the gangway"),
            Vec::<String>::new()
        );
        assert_eq!(status_words("a kidney-shaped pool"), Vec::<String>::new());
        assert_eq!(status_words("Subject is known to police"), vec!["known to"]);
        assert_eq!(status_words("a vagrant, loitering"), vec!["vagrant"]);
    }

    #[test]
    fn youth_and_aimlessness_are_status_words() {
        assert_eq!(
            status_words("Juveniles hanging around with no apparent purpose"),
            vec!["juveniles", "hanging around", "no apparent purpose"]
        );
        assert_eq!(status_words("two kids and a teen"), vec!["kids", "teen"]);
        assert_eq!(status_words("a loafer by the pier"), vec!["loafer"]);
    }

    /// Issue #33, finding 15: the words the screen missed.
    #[test]
    fn minors_the_unhoused_addicts_and_wandering_are_status_words() {
        for (text, words) in [
            ("two minors by the pier", vec!["minors"]),
            ("a minor in a red coat", vec!["minor"]),
            (
                "unhoused man, no fixed address",
                vec!["unhoused", "no fixed address"],
            ),
            ("an addict and two addicts", vec!["addict", "addicts"]),
            (
                "hangs around the lot; hung out there all day",
                vec!["hangs around", "hung out"],
            ),
            (
                "they hang out and he hangs out",
                vec!["hangs out", "hang out"],
            ),
            (
                "wandering aimlessly, an aimless walk",
                vec!["wandering", "aimless", "aimlessly"],
            ),
        ] {
            assert_eq!(status_words(text), words, "{text}");
        }
        // Whole words only.
        for text in [
            "a minority view",
            "wanderlust",
            "minority",
            "the addiction clinic",
        ] {
            assert!(status_words(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn the_longer_phrase_is_reported_instead_of_its_part() {
        assert_eq!(status_words("two gang members"), vec!["gang members"]);
        assert_eq!(status_words("a known loiterer"), vec!["known loiterer"]);
    }
}
