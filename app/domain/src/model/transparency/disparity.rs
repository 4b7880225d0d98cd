//! The chief's disparity view (issue #40, never public): for each group of the
//! officer's perception, the share of persons given an order (§52-1 D, §52-2)
//! who were cited after refusing it, beside the Town's, with the counts and an
//! interval that says how much of a difference small numbers alone could make.

use serde::{Deserialize, Serialize};

use super::{Dimension, Tally, ALL, ORGANISATION};

/// Below this many persons given an order, a group's rate is marked as resting
/// on small numbers.
pub const SMALL: u32 = 30;

/// What the view says of small numbers, beside it.
pub fn small_numbers_note() -> String {
    format!(
        "Small numbers: a group with fewer than {SMALL} persons given an order is marked \"few\". \
         Its rate can differ from the Town's by chance alone: one person more or less moves it by \
         several points. The range beside each rate (95 %, Wilson) is how far chance alone could \
         move it; a difference is worth a look when the Town's rate is outside that range, and \
         is not by itself proof of anything. The counts here are exact and never published."
    )
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RateRow {
    pub label: String,
    /// Persons given an order.
    pub ordered: u32,
    /// Of them, cited after refusing.
    pub cited: u32,
    /// cited / ordered, as a fraction (none when no one was ordered).
    pub rate: Option<f64>,
    /// The Wilson score interval of the rate at 95 %.
    pub interval: Option<(f64, f64)>,
    /// The rate over the Town's (1.0: the same).
    pub ratio: Option<f64>,
    /// Fewer than [`SMALL`] persons given an order.
    pub small: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DisparityTable {
    pub code: String,
    pub title: String,
    pub rows: Vec<RateRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Disparity {
    pub from: String,
    pub to: String,
    pub town: RateRow,
    pub tables: Vec<DisparityTable>,
}

/// The Wilson score interval of `k` in `n` at 95 % (z = 1.96).
pub fn wilson(k: u32, n: u32) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let (k, n, z) = (f64::from(k), f64::from(n), 1.96_f64);
    let p = k / n;
    let denominator = 1.0 + z * z / n;
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    Some((
        ((centre - spread) / denominator).max(0.0),
        ((centre + spread) / denominator).min(1.0),
    ))
}

fn rate_row(label: String, ordered: u32, cited: u32, town: Option<f64>) -> RateRow {
    let rate = (ordered > 0).then(|| f64::from(cited) / f64::from(ordered));
    RateRow {
        label,
        ordered,
        cited,
        rate,
        interval: wilson(cited, ordered),
        ratio: match (rate, town) {
            (Some(r), Some(t)) if t > 0.0 => Some(r / t),
            _ => None,
        },
        small: ordered < SMALL,
    }
}

/// Persons given an order and cited after refusing, in a row of `tally` (the
/// desk's row, read the same way).
fn counts(tally: &Tally, table: &str, row: &str) -> (u32, u32) {
    let row = super::desk::row(tally, table, row.to_owned(), String::new());
    (row.ordered(), row.cited_after_order())
}

/// The disparity view of the true counts of a period: the Town's rate is that
/// of persons (organisations have no perception and are left out).
pub fn disparity(from: &str, to: &str, tally: &Tally) -> Disparity {
    let (all_ordered, all_cited) = counts(tally, Dimension::Age.code(), ALL);
    let (org_ordered, org_cited) = counts(tally, Dimension::Age.code(), ORGANISATION);
    let town = rate_row(
        "The Town (every person)".to_owned(),
        all_ordered - org_ordered,
        all_cited - org_cited,
        None,
    );
    let tables = [Dimension::Age, Dimension::Sex, Dimension::Race]
        .into_iter()
        .map(|d| DisparityTable {
            code: d.code().to_owned(),
            title: d.title().to_owned(),
            rows: d
                .rows()
                .into_iter()
                .filter(|(code, _)| code != ORGANISATION)
                .map(|(code, label)| {
                    let (ordered, cited) = counts(tally, d.code(), &code);
                    rate_row(label, ordered, cited, town.rate)
                })
                .collect(),
        })
        .collect();
    Disparity {
        from: from.to_owned(),
        to: to.to_owned(),
        town,
        tables,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::transparency::Class;

    #[test]
    fn the_wilson_interval_is_wide_for_few_and_narrow_for_many() {
        let (lo, hi) = wilson(1, 2).expect("an interval");
        assert!(lo < 0.1 && hi > 0.9, "{lo} {hi}");
        let (lo, hi) = wilson(500, 1000).expect("an interval");
        assert!((hi - lo) < 0.07, "{lo} {hi}");
        assert_eq!(wilson(0, 0), None);
        let (lo, _) = wilson(0, 10).expect("an interval");
        assert_eq!(lo, 0.0);
    }

    #[test]
    fn each_group_is_read_beside_the_towns_rate_with_small_numbers_marked() {
        let tally = crate::model::transparency::tally_by_race(&[
            ("white", Class::Complied, 60),
            ("white", Class::RefusedCited, 20),
            ("black", Class::Complied, 6),
            ("black", Class::RefusedCited, 6),
        ]);
        let d = disparity("2026-01", "2026-11", &tally);
        assert_eq!((d.town.ordered, d.town.cited), (92, 26));
        let race = d
            .tables
            .iter()
            .find(|t| t.code == "perceived_race")
            .expect("race");
        let black = race
            .rows
            .iter()
            .find(|r| r.label == "Black")
            .expect("a row");
        assert_eq!((black.ordered, black.cited), (12, 6));
        assert!(black.small);
        assert!(black.ratio.is_some_and(|r| r > 1.7 && r < 1.8));
        let white = race
            .rows
            .iter()
            .find(|r| r.label == "White")
            .expect("a row");
        assert!(!white.small);
        assert!(race
            .rows
            .iter()
            .all(|r| r.label != "An organisation (not a person)"));
    }
}
