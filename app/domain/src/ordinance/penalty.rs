//! The penalties of Chapter 52: §52-4 for Article I, §52-12 for Article II.
//!
//! The department's reading (issue #33): the sections set the amount a citation
//! states; the court's judgment is the record of what was assessed. A fine the
//! court assessed otherwise is recorded as assessed, flagged, with the court's
//! words — compared with the citation's own stored fine under its own section,
//! never with another offence's.

use serde::{Deserialize, Serialize};

use super::Section;

/// A fine "plus costs recoverable for the use and benefit of the Town of Wells".
/// The costs are the court's to assess, so the citation states them in words only.
/// Every amount the product shows, stores or exports comes from here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Penalty {
    /// Fine in cents.
    pub fine_cents: u32,
    /// Costs are added by the court at disposition.
    pub plus_costs: bool,
    /// The section that sets the penalty.
    pub section: Section,
}

impl Penalty {
    /// §52-4: "fined one hundred ($100.00) plus costs" for any Article I provision,
    /// the same for every person found guilty.
    pub const ARTICLE_I: Penalty = Penalty {
        fine_cents: 10_000,
        plus_costs: true,
        section: Section::S52_4,
    };

    /// §52-12: "a fine of one thousand dollars ($1,000.00), plus costs" for any
    /// person or party violating Article II.
    pub const ARTICLE_II: Penalty = Penalty {
        fine_cents: 100_000,
        plus_costs: true,
        section: Section::S52_12,
    };

    /// The fine as printed: `$100.00`, `$1,000.00`.
    pub fn fine_text(self) -> String {
        dollars(i64::from(self.fine_cents))
    }

    /// The whole penalty as the citation states it.
    pub fn statement(self) -> String {
        format!(
            "{} plus costs as assessed by the court ({})",
            self.fine_text(),
            self.section
        )
    }
}

/// Cents as dollars the way the Town prints them: `$1,234.50`, `-$5.00`.
pub fn dollars(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let cents = cents.unsigned_abs();
    format!("{sign}${}.{:02}", thousands(cents / 100), cents % 100)
}

/// A count the way the Town prints it: `1,234`, `-17,400` (issue #37).
pub fn grouped(n: i64) -> String {
    let sign = if n < 0 { "-" } else { "" };
    format!("{sign}{}", thousands(n.unsigned_abs()))
}

fn thousands(n: u64) -> String {
    let whole = n.to_string();
    let mut out = String::with_capacity(whole.len() + whole.len() / 3);
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
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

    #[test]
    fn dollars_group_thousands_and_keep_cents() {
        assert_eq!(dollars(0), "$0.00");
        assert_eq!(dollars(5), "$0.05");
        assert_eq!(dollars(100_000), "$1,000.00");
        assert_eq!(dollars(123_456_789), "$1,234,567.89");
        assert_eq!(dollars(-13_500), "-$135.00");
    }

    #[test]
    fn counts_group_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(17_400), "17,400");
        assert_eq!(grouped(1_000_000), "1,000,000");
        assert_eq!(grouped(-2_000), "-2,000");
    }
}
