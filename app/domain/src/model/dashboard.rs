//! The chief's dashboard (issue #6): what enforcement of Article I looked like in
//! a period — every figure a table of counts, each count with the register filter
//! that lists the incidents behind it, drawn as a chart and downloadable as CSV.

use serde::{Deserialize, Serialize};

use crate::error::FieldError;
use crate::model::review::ReportFilter;

/// The period shown: Town calendar dates, both ends included.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Period {
    pub from: String,
    pub to: String,
}

/// Longest period one dashboard covers: ten years of days is still a small
/// aggregate, and a longer one is a typing mistake.
pub const MAX_PERIOD_DAYS: i64 = 3_660;

impl Period {
    pub fn problems(&self) -> Vec<FieldError> {
        let mut errors = Vec::new();
        for (field, value) in [("from", &self.from), ("to", &self.to)] {
            if crate::model::incident::parse_date(value).is_none() {
                errors.push(FieldError::new(
                    field,
                    format!("{field}: a date as YYYY-MM-DD."),
                ));
            }
        }
        if errors.is_empty() && self.from > self.to {
            errors.push(FieldError::new("to", "to: on or after the from date."));
        }
        if let (Some(a), Some(b)) = (day_number(&self.from), day_number(&self.to)) {
            if b - a + 1 > MAX_PERIOD_DAYS {
                errors.push(FieldError::new(
                    "to",
                    format!("to: a period of at most {MAX_PERIOD_DAYS} days."),
                ));
            }
        }
        errors
    }

    /// The register filter of the whole period.
    pub fn filter(&self) -> ReportFilter {
        ReportFilter {
            from: Some(self.from.clone()),
            to: Some(self.to.clone()),
            ..ReportFilter::default()
        }
    }
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` date.
pub use crate::model::civil::day_number;

/// How a figure is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Chart {
    /// Upright columns in order: time, hours, weekdays.
    Columns,
    /// Horizontal bars, largest first or in a fixed order.
    Bars,
}

/// One count, and the register filter that lists its incidents (`None` when
/// no filter can: the count is zero, or it is a computed rate).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Count {
    pub value: i64,
    pub filter: Option<ReportFilter>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FigureRow {
    pub label: String,
    /// One per column of the figure.
    pub counts: Vec<Count>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    /// Stable name: the CSV download's `figure` parameter.
    pub key: String,
    pub title: String,
    /// What is counted, when it is not obvious.
    pub note: Option<String>,
    /// Heading of the label column.
    pub label_heading: String,
    /// Headings of the count columns.
    pub columns: Vec<String>,
    pub rows: Vec<FigureRow>,
    pub chart: Chart,
}

impl Figure {
    /// The figure as CSV records: the headings, then one record per row.
    pub fn records(&self) -> Vec<Vec<String>> {
        let mut out = vec![std::iter::once(self.label_heading.clone())
            .chain(self.columns.iter().cloned())
            .collect()];
        out.extend(self.rows.iter().map(|r| {
            std::iter::once(r.label.clone())
                .chain(r.counts.iter().map(|c| c.value.to_string()))
                .collect()
        }));
        out
    }
}

/// A headline figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Total {
    pub label: String,
    pub value: String,
    pub filter: Option<ReportFilter>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dashboard {
    pub period: Period,
    /// The one-screen summary above the detail (issue #37).
    pub summary: Summary,
    pub totals: Vec<Total>,
    pub figures: Vec<Figure>,
}

/// What, where and to whom, on one screen (issue #37): this month against the
/// month before, persons by named area × offence × outcome, the areas as a
/// schematic map, and the §52-1 D order's outcome by perceived group.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Summary {
    pub months: MonthComparison,
    pub places: PlaceTable,
    pub groups: Vec<GroupRow>,
}

/// The month of the period's last day (up to that day) against the whole
/// calendar month before it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MonthComparison {
    /// "1–7 December 2026".
    pub this_month: String,
    /// "November 2026".
    pub last_month: String,
    pub rows: Vec<MonthRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MonthRow {
    pub label: String,
    pub this_month: i64,
    pub last_month: i64,
}

impl MonthRow {
    /// The change from last month: "+3 (+12 %)", "−2 (−50 %)", "no change";
    /// no percentage of a month that counted none.
    pub fn change(&self) -> String {
        let d = self.this_month - self.last_month;
        if d == 0 {
            return "no change".into();
        }
        let sign = if d > 0 { "+" } else { "\u{2212}" };
        let n = crate::model::text::grouped(d.abs());
        if self.last_month == 0 {
            format!("{sign}{n}")
        } else {
            let pct = (d.abs() as f64 * 100.0 / self.last_month as f64).round() as i64;
            format!("{sign}{n} ({sign}{} %)", crate::model::text::grouped(pct))
        }
    }
}

/// Persons of the period by the Town's named area (rows) and the offence
/// charged (columns; the last is "none charged").
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PlaceTable {
    /// The offences' headings: (reference, title).
    pub offences: Vec<(String, String)>,
    pub rows: Vec<PlaceRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlaceRow {
    /// `model::transparency::area::NamedArea` code.
    pub area: String,
    pub label: String,
    /// Every person of the area, once, by outcome.
    pub persons: Outcomes,
    /// One per offence heading, then none charged: a person charged with two
    /// offences counts under each.
    pub cells: Vec<Outcomes>,
}

/// Persons by what came of them: cited (or arrested and cited), warned, and
/// no action (complied, left, or protected activity under §52-1 E).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Outcomes {
    pub cited: i64,
    pub warned: i64,
    pub no_action: i64,
}

impl Outcomes {
    pub fn total(&self) -> i64 {
        self.cited + self.warned + self.no_action
    }

    /// Counts one person (or charge) with the outcome coded `code`.
    pub fn add(&mut self, code: &str, n: i64) {
        match crate::ordinance::Outcome::from_code(code) {
            Some(o) if o.is_citation() => self.cited += n,
            Some(crate::ordinance::Outcome::Warned) => self.warned += n,
            Some(_) => self.no_action += n,
            // A code this version does not know is no outcome to count.
            None => {}
        }
    }
}

/// Groups smaller than this are flagged: a rate of a few persons says little.
pub const SMALL_GROUP: i64 = 10;

/// Persons of one perceived group given a §52-1 D order, and what followed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupRow {
    /// "Perceived age", "Perceived sex" or "Perceived race".
    pub dimension: String,
    pub label: String,
    pub ordered: i64,
    pub complied: i64,
    /// Refused the order and were cited.
    pub cited: i64,
}

impl GroupRow {
    pub fn small(&self) -> bool {
        self.ordered < SMALL_GROUP
    }
}

impl Dashboard {
    pub fn figure(&self, key: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| f.key == key)
    }
}

/// "71.4 %" of `part` in `whole`, or "—" when there is nothing to divide.
pub fn percent(part: i64, whole: i64) -> String {
    if whole == 0 {
        "—".to_owned()
    } else {
        format!("{:.1} %", part as f64 * 100.0 / whole as f64)
    }
}

/// Day names by the Town's `local_weekday` (0 = Monday).
pub use crate::model::civil::WEEKDAY_NAMES as WEEKDAYS;
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_period_needs_two_dates_in_order() {
        let ok = Period {
            from: "2026-01-01".into(),
            to: "2026-12-31".into(),
        };
        assert!(ok.problems().is_empty());
        let backwards = Period {
            from: "2026-12-31".into(),
            to: "2026-01-01".into(),
        };
        assert_eq!(backwards.problems()[0].field, "to");
        let bad = Period {
            from: "2026-02-30".into(),
            to: "soon".into(),
        };
        let fields: Vec<_> = bad.problems().into_iter().map(|e| e.field).collect();
        assert_eq!(fields, ["from", "to"]);
    }

    #[test]
    fn a_period_is_at_most_ten_years() {
        assert_eq!(day_number("1970-01-01"), Some(0));
        assert_eq!(day_number("2026-03-01"), Some(20_513));
        let long = Period {
            from: "2000-01-01".into(),
            to: "2026-12-31".into(),
        };
        assert_eq!(long.problems()[0].field, "to");
    }

    #[test]
    fn a_months_change_is_signed_with_its_share_of_last_month() {
        let row = |this_month, last_month| MonthRow {
            label: "Cited".into(),
            this_month,
            last_month,
        };
        assert_eq!(row(3, 3).change(), "no change");
        assert_eq!(row(6, 4).change(), "+2 (+50 %)");
        assert_eq!(row(1, 4).change(), "\u{2212}3 (\u{2212}75 %)");
        assert_eq!(row(2_500, 0).change(), "+2,500");
    }

    #[test]
    fn outcomes_count_citations_warnings_and_no_action_apart() {
        let mut o = Outcomes::default();
        for code in [
            "cited",
            "arrested",
            "cited_gathering",
            "warned",
            "complied",
            "departed",
            "protected_activity",
        ] {
            o.add(code, 1);
        }
        assert_eq!((o.cited, o.warned, o.no_action, o.total()), (3, 1, 3, 7));
    }

    #[test]
    fn percent_of_nothing_is_a_dash_not_a_division_by_zero() {
        assert_eq!(percent(0, 0), "—");
        assert_eq!(percent(5, 7), "71.4 %");
    }

    #[test]
    fn a_figure_becomes_csv_records_with_its_headings() {
        let f = Figure {
            key: "by_hour".into(),
            title: "By hour".into(),
            note: None,
            label_heading: "Hour".into(),
            columns: vec!["Incidents".into()],
            rows: vec![FigureRow {
                label: "14:00".into(),
                counts: vec![Count {
                    value: 3,
                    filter: None,
                }],
            }],
            chart: Chart::Columns,
        };
        assert_eq!(
            f.records(),
            vec![vec!["Hour", "Incidents"], vec!["14:00", "3"]]
        );
    }
}
