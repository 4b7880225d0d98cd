//! Court and town settings an administrator edits.

use serde::{Deserialize, Serialize};

use crate::error::FieldError;

/// Where citations are answered (printed on every summons).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CourtSettings {
    pub court_name: String,
    pub court_address: String,
    /// Days from issuance to the appearance or answer date printed on the citation
    /// (moved on to the next court day).
    pub answer_days: u32,
    /// The days the court is closed besides weekends, `YYYY-MM-DD`. `None` until
    /// an administrator saves a list: then Maine's legal holidays
    /// (`model::court_calendar`).
    #[serde(default)]
    pub closed_days: Option<Vec<String>>,
}

impl CourtSettings {
    /// The answer date of a citation issued on `issued` (`YYYY-MM-DD`, the
    /// Town's date) plus `answer_days`: the first court day on or after it.
    pub fn answer_date(&self, after_days: &str) -> String {
        crate::model::court_calendar::court_day_on_or_after(after_days, self.closed_days.as_deref())
    }
}

impl Default for CourtSettings {
    fn default() -> Self {
        CourtSettings {
            court_name: "Maine District Court".to_owned(),
            court_address: "York District Court, 11 Chases Pond Road, York, ME 03909".to_owned(),
            answer_days: 21,
            closed_days: None,
        }
    }
}

impl CourtSettings {
    pub fn problems(&self) -> Vec<FieldError> {
        let mut errors = Vec::new();
        let line = |t: &str| {
            !t.trim().is_empty() && t.chars().count() <= 200 && !t.chars().any(char::is_control)
        };
        if !line(&self.court_name) {
            errors.push(FieldError::new(
                "court_name",
                "Court name: 1 to 200 characters, one line.",
            ));
        }
        if !line(&self.court_address) {
            errors.push(FieldError::new(
                "court_address",
                "Court address: 1 to 200 characters, one line.",
            ));
        }
        if !(1..=120).contains(&self.answer_days) {
            errors.push(FieldError::new("answer_days", "Days to answer: 1 to 120."));
        }
        if let Some(bad) = self
            .closed_days
            .iter()
            .flatten()
            .find(|d| crate::model::civil::parse_date(d).is_none())
        {
            errors.push(FieldError::new(
                "closed_days",
                format!(
                    "Days the court is closed: “{}” is not a date as YYYY-MM-DD.",
                    bad.chars().take(20).collect::<String>()
                ),
            ));
        }
        if self.closed_days.as_ref().is_some_and(|d| d.len() > 400) {
            errors.push(FieldError::new(
                "closed_days",
                "Days the court is closed: at most 400 dates.",
            ));
        }
        errors
    }
}
