//! The chief's own tables (issue #40, inside the desk, never public): the
//! published tables' rows and columns — what the order of §52-1 D (and §52-2),
//! the response to it, §52-1 E's exclusion and the citations of §52-4 and
//! §52-12 came to — per officer, with true counts, so the chief sees a pattern
//! before anyone else does. Nothing here is withheld, and nothing here is ever
//! part of a publication: the published types ([`super::PublishedView`]) are
//! made from the officers' counts added up.

use serde::{Deserialize, Serialize};

use super::{Class, Dimension, Heading, Key, Month, Tally, ALL};
use crate::error::FieldError;

/// The longest period the desk reads at once, in months (the dashboard's limit
/// of ten years).
pub const MAX_MONTHS: i32 = 120;

/// The per-officer view of a period: a row per officer who recorded anyone,
/// the Town's row (every officer), and the chosen officer's seven tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfficerTables {
    pub from: String,
    pub to: String,
    /// One per class, in [`Class::ALL`]'s order.
    pub columns: Vec<Heading>,
    /// One row per officer who recorded anyone: code = the officer's id; most
    /// persons first.
    pub officers: Vec<DeskRow>,
    /// Every officer's added up.
    pub town: DeskRow,
    /// The chosen officer's tables.
    pub chosen: Option<OfficerDetail>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfficerDetail {
    pub officer: String,
    pub label: String,
    pub tables: Vec<DeskTable>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeskTable {
    pub code: String,
    pub title: String,
    pub row_heading: String,
    pub rows: Vec<DeskRow>,
}

/// A row of true counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeskRow {
    pub code: String,
    pub label: String,
    /// One per class, in [`Class::ALL`]'s order.
    pub counts: Vec<u32>,
    pub persons: u32,
}

impl DeskRow {
    fn sum(&self, pick: impl Fn(Class) -> bool) -> u32 {
        Class::ALL
            .into_iter()
            .zip(&self.counts)
            .filter(|(c, _)| pick(*c))
            .map(|(_, n)| n)
            .sum()
    }

    /// Persons given an order (§52-1 D, §52-2).
    pub fn ordered(&self) -> u32 {
        self.sum(Class::ordered)
    }

    /// Of them, those who refused it.
    pub fn refused(&self) -> u32 {
        self.sum(Class::refused)
    }

    /// Of them, those cited after refusing.
    pub fn cited_after_order(&self) -> u32 {
        self.sum(|c| c == Class::RefusedCited)
    }

    /// Everyone cited (after an order, or needing none).
    pub fn cited(&self) -> u32 {
        self.sum(Class::cited)
    }

    /// Percent of persons given an order who were cited after refusing it (the
    /// published rate), none when no one was given an order.
    pub fn cited_per_order(&self) -> Option<f64> {
        let ordered = self.ordered();
        (ordered > 0).then(|| f64::from(self.cited_after_order()) * 100.0 / f64::from(ordered))
    }
}

/// The row `row` of table `table` of `tally`.
pub(super) fn row(tally: &Tally, table: &str, code: String, label: String) -> DeskRow {
    DeskRow {
        counts: Class::ALL
            .into_iter()
            .map(|c| tally.get(&Key::new(table, &code, c.code())))
            .collect(),
        persons: tally.get(&Key::new(table, &code, ALL)),
        code,
        label,
    }
}

/// The desk's seven tables of `tally` (true counts), each with its total row.
pub fn desk_tables(tally: &Tally) -> Vec<DeskTable> {
    Dimension::ALL
        .into_iter()
        .map(|d| DeskTable {
            code: d.code().to_owned(),
            title: d.title().to_owned(),
            row_heading: d.row_heading().to_owned(),
            rows: d
                .rows()
                .into_iter()
                .chain([(ALL.to_owned(), "All persons".to_owned())])
                .map(|(code, label)| row(tally, d.code(), code, label))
                .collect(),
        })
        .collect()
}

/// The class columns' headings.
pub fn columns() -> Vec<Heading> {
    Class::ALL
        .into_iter()
        .map(|c| Heading {
            code: c.code().to_owned(),
            label: c.label(),
        })
        .collect()
}

/// A period of whole months for the desk: `from` and `to` as `YYYY-MM`, both
/// included, `to` not before `from`, at most [`MAX_MONTHS`] months.
pub fn month_range_problems(from: &str, to: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    for (field, name, value) in [("from", "From", from), ("to", "To", to)] {
        if Month::parse(value).is_none() {
            errors.push(FieldError::new(
                field,
                format!("{name}: give a month as YYYY-MM, for example 2026-11."),
            ));
        }
    }
    if let (Some(a), Some(b)) = (Month::parse(from), Month::parse(to)) {
        let months = (b.year - a.year) * 12 + b.month as i32 - a.month as i32 + 1;
        if b < a {
            errors.push(FieldError::new(
                "to",
                "To: the same month as From, or a later one.",
            ));
        } else if months > MAX_MONTHS {
            errors.push(FieldError::new(
                "to",
                format!("To: at most {MAX_MONTHS} months (ten years) from From."),
            ));
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally() -> Tally {
        crate::model::transparency::tally_by_race(&[
            ("white", Class::Complied, 7),
            ("white", Class::RefusedCited, 2),
            ("black", Class::RefusedNotCited, 1),
            ("black", Class::CitedWithoutRefusal, 3),
        ])
    }

    #[test]
    fn a_desk_row_counts_orders_refusals_and_citations_by_class_not_by_position() {
        // Every person of the tally, by class: a table's total row.
        let tables = desk_tables(&tally());
        let town = tables[0].rows.last().expect("a total row").clone();
        assert_eq!(town.persons, 13);
        assert_eq!(town.ordered(), 10);
        assert_eq!(town.refused(), 3);
        assert_eq!(town.cited_after_order(), 2);
        assert_eq!(town.cited(), 5);
        assert_eq!(town.cited_per_order(), Some(20.0));
        let nobody = DeskRow {
            code: "x".to_owned(),
            label: "x".to_owned(),
            counts: vec![0; Class::ALL.len()],
            persons: 0,
        };
        assert_eq!(nobody.cited_per_order(), None);
    }

    #[test]
    fn the_desks_tables_show_exact_small_counts_with_each_tables_total() {
        let tables = desk_tables(&tally());
        assert_eq!(tables.len(), Dimension::ALL.len());
        let race = tables
            .iter()
            .find(|t| t.code == "perceived_race")
            .expect("race");
        let black = race.rows.iter().find(|r| r.code == "black").expect("black");
        // 1 and 3: exact, never withheld here.
        assert_eq!(black.counts, vec![0, 0, 1, 3, 0, 0]);
        assert_eq!(black.persons, 4);
        let all = race.rows.last().expect("a total");
        assert_eq!((all.code.as_str(), all.persons), (ALL, 13));
    }

    #[test]
    fn a_desk_period_is_whole_months_in_order_and_at_most_ten_years() {
        assert!(month_range_problems("2026-01", "2026-11").is_empty());
        assert!(month_range_problems("2026-11", "2026-11").is_empty());
        assert!(month_range_problems("2017-01", "2026-12").is_empty());
        let fields = |from, to| {
            month_range_problems(from, to)
                .into_iter()
                .map(|e| e.field)
                .collect::<Vec<_>>()
        };
        assert_eq!(fields("2026-1", "2026-11"), ["from"]);
        assert_eq!(fields("2026-11", "nope"), ["to"]);
        assert_eq!(fields("2026-11", "2026-10"), ["to"]);
        assert_eq!(fields("2016-12", "2026-12"), ["to"]);
    }
}
