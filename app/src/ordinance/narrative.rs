//! Status, not conduct: words that show a narrative leaning on who a person is.
//!
//! Being homeless, young, or in a group is no element of any Article I offence, and
//! loitering laws enforced against status were struck down (Papachristou v. City of
//! Jacksonville, 1972; City of Chicago v. Morales, 1999). The rules do not block on
//! these words — a narrative may quote them — but the chief sees a caution.

/// Words and phrases that describe status. Matched case-insensitively on word
/// boundaries, so "gangway" is not "gang".
pub const STATUS_WORDS: &[&str] = &[
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
    "gang",
    "gangs",
    "gang member",
    "gang members",
    "known to",
    "known loiterer",
    "loiterer",
    "loiterers",
    "habitual loiterer",
    "street person",
    "street people",
    "undesirable",
    "undesirables",
];

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
        assert_eq!(status_words("Subject is known to police"), vec!["known to"]);
        assert_eq!(status_words("a vagrant, loitering"), vec!["vagrant"]);
    }

    #[test]
    fn the_longer_phrase_is_reported_instead_of_its_part() {
        assert_eq!(status_words("two gang members"), vec!["gang members"]);
        assert_eq!(status_words("a known loiterer"), vec!["known loiterer"]);
    }
}
