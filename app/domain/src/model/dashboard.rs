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
    pub totals: Vec<Total>,
    pub figures: Vec<Figure>,
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
pub const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

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
