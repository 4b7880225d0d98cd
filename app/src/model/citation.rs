//! A citation as printed: the fields of Maine's Uniform Summons and Complaint.

use serde::{Deserialize, Serialize};

use super::incident::CitationStatus;

/// Everything the subject's copy, the court summons and the exports print. Built
/// on the server, times already in the Town's zone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CitationDocument {
    pub number: String,
    pub status: CitationStatus,
    pub issued_at_text: String,
    /// Officer, as printed: name and badge.
    pub officer_name: String,
    pub officer_badge: String,
    /// The person: name, date of birth and address, or a description.
    pub subject_name: String,
    pub subject_date_of_birth: Option<String>,
    pub subject_address: Option<String>,
    pub subject_id_document: Option<String>,
    /// `52-1(A)(1)`
    pub offence_code: String,
    /// `§52-1 A(1), D`
    pub offence_reference: String,
    pub offence_title: String,
    /// The violation in words: the elements the officer recorded.
    pub violation: Vec<String>,
    pub narrative: String,
    /// Date, time and place of the violation.
    pub occurred_at_text: String,
    pub location: String,
    pub place: String,
    pub order_words: Option<String>,
    pub order_given_text: Option<String>,
    pub refusal_text: Option<String>,
    /// The fine, as `Penalty::fine_text` prints it.
    pub fine_text: String,
    /// The penalty, as `Penalty::statement` words it.
    pub penalty_statement: String,
    /// §52-2: an arrest was made, to bring the person before the District Court.
    pub arrest: bool,
    /// The offence is §52-2's, which permits an arrest: the citation says whether
    /// one was made.
    #[serde(default)]
    pub arrest_permitted: bool,
    pub court_name: String,
    pub court_address: String,
    pub appearance_date: String,
    /// The original must reach the court within `ordinance::FILING_DAYS` of issuance.
    pub filing_deadline: String,
    pub void_reason: Option<String>,
}
