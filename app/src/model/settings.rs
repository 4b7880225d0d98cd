//! Court and town settings an administrator edits.

use serde::{Deserialize, Serialize};

use crate::error::FieldError;

/// Where citations are answered (printed on every summons).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CourtSettings {
    pub court_name: String,
    pub court_address: String,
    /// Days from issuance to the appearance or answer date printed on the citation.
    pub answer_days: u32,
}

impl Default for CourtSettings {
    fn default() -> Self {
        CourtSettings {
            court_name: "Maine District Court".to_owned(),
            court_address: "York District Court, 11 Chases Pond Road, York, ME 03909".to_owned(),
            answer_days: 21,
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
        errors
    }
}
