//! §52-4: the one penalty of Article I.

use serde::{Deserialize, Serialize};

use super::Section;

/// "fined one hundred ($100.00) plus costs recoverable for the use and benefit of the
/// Town of Wells" (§52-4). The same for every Article I provision and every person;
/// the costs are the court's to assess, so the citation states them in words only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Penalty {
    /// Fine in cents: always 10 000 ($100.00).
    pub fine_cents: u32,
    /// Always true: costs are added by the court at disposition.
    pub plus_costs: bool,
}

impl Penalty {
    pub const ARTICLE_I: Penalty = Penalty {
        fine_cents: 10_000,
        plus_costs: true,
    };

    pub const SECTION: Section = Section::S52_4;

    /// The fine as printed: `$100.00`.
    pub fn fine_text(self) -> String {
        format!("${}.{:02}", self.fine_cents / 100, self.fine_cents % 100)
    }

    /// The whole penalty as the citation states it.
    pub fn statement(self) -> String {
        format!(
            "{} plus costs as assessed by the court ({})",
            self.fine_text(),
            Self::SECTION
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn article_i_penalty_reads_one_hundred_dollars_plus_costs() {
        assert_eq!(Penalty::ARTICLE_I.fine_text(), "$100.00");
        assert_eq!(
            Penalty::ARTICLE_I.statement(),
            "$100.00 plus costs as assessed by the court (§52-4)"
        );
    }
}
