//! A citation as printed: the fields of Maine's Uniform Summons and Complaint.

use serde::{Deserialize, Serialize};

use super::incident::{CitationStatus, IdType, Identity, IncidentReport};
use super::numbers::NumberBlock;
use super::wording::{violation_text, TimeWords};
use crate::ordinance::{Moment, Offence};

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
    /// The officer's account of the whole incident, which names the others: on
    /// the court's record and in the API, never on the subject's copy (see
    /// [`CitationDocument::as_subject_copy`]).
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
    /// The officer's signature on file when the citation was issued (issue #20).
    /// Absent (and not written) when there is none, so citations issued before
    /// read as they did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub officer_signature: Option<crate::model::signature::Signature>,
    /// The person's signature, or refusal to sign; `None`: not asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person_signature: Option<crate::model::signature::PersonSignature>,
    /// Withdrawn by the Town after it was filed (issue #33): the court is asked
    /// to dismiss it. Absent, and not written, for every other citation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawal: Option<WithdrawalNote>,
    /// The withdrawn citation this one replaces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
}

/// What a withdrawn citation says of its withdrawal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WithdrawalNote {
    /// The chief's amendment's reason.
    pub reason: String,
    pub at_text: String,
    /// The citation issued in its place, if any.
    pub replaced_by: Option<String>,
}

/// What a citation document is made of, wherever it is printed: the stored
/// citation on the server, or the subject's copy a phone prints on scene.
pub struct Parts<'a> {
    pub number: &'a str,
    pub status: CitationStatus,
    pub issued_at: Moment,
    pub officer_name: &'a str,
    pub officer_badge: &'a str,
    pub defendant: Defendant,
    pub offence: Offence,
    pub text: super::wording::ViolationText,
    pub penalty: crate::ordinance::Penalty,
    pub arrest: bool,
    pub court_name: &'a str,
    pub court_address: &'a str,
    pub appearance_date: String,
    pub void_reason: Option<String>,
    pub officer_signature: Option<crate::model::signature::Signature>,
    pub person_signature: Option<crate::model::signature::PersonSignature>,
    pub withdrawal: Option<WithdrawalNote>,
    pub replaces: Option<String>,
}

impl CitationDocument {
    /// What the subject's copy carries: only what it prints. The narrative
    /// names the other persons and what they did (issue #35: it was in the copy
    /// page's data three times though never printed).
    pub fn as_subject_copy(mut self) -> CitationDocument {
        self.narrative.clear();
        self
    }

    pub fn compose(p: Parts<'_>, time: &impl TimeWords) -> CitationDocument {
        CitationDocument {
            number: p.number.to_owned(),
            status: p.status,
            issued_at_text: time.date_time(p.issued_at),
            officer_name: p.officer_name.to_owned(),
            officer_badge: p.officer_badge.to_owned(),
            subject_name: p.defendant.name,
            subject_date_of_birth: p.defendant.date_of_birth,
            subject_address: p.defendant.address,
            subject_id_document: p.defendant.id_document,
            offence_code: p.offence.code().to_owned(),
            offence_reference: p.offence.reference(),
            offence_title: p.offence.title().to_owned(),
            violation: p.text.violation,
            narrative: p.text.narrative,
            occurred_at_text: p.text.occurred_at_text,
            location: p.text.location,
            place: p.text.place,
            order_words: p.text.order_words,
            order_given_text: p.text.order_given_text,
            refusal_text: p.text.refusal_text,
            fine_text: p.penalty.fine_text(),
            penalty_statement: p.penalty.statement(),
            arrest: p.arrest,
            arrest_permitted: p.offence.permits_arrest(),
            court_name: p.court_name.to_owned(),
            court_address: p.court_address.to_owned(),
            appearance_date: p.appearance_date,
            filing_deadline: time.date_after(p.issued_at, crate::ordinance::FILING_DAYS),
            void_reason: p.void_reason,
            officer_signature: p.officer_signature,
            person_signature: p.person_signature,
            withdrawal: p.withdrawal,
            replaces: p.replaces,
        }
    }
}

/// How the court's papers name a person: the name (or the description of one
/// not identified), date of birth, address and identity document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defendant {
    pub name: String,
    pub date_of_birth: Option<String>,
    pub address: Option<String>,
    pub id_document: Option<String>,
}

impl Defendant {
    pub fn of(identity: &Identity) -> Defendant {
        match identity {
            Identity::Described { description } => Defendant {
                name: format!("Unidentified person: {description}"),
                date_of_birth: None,
                address: None,
                id_document: None,
            },
            // A party, not a person: no date of birth, no identity document; the
            // person who represents it, if known, named with it.
            Identity::Organisation {
                name,
                address,
                representative,
            } => Defendant {
                name: match representative.as_deref().map(str::trim) {
                    Some(who) if !who.is_empty() => {
                        format!("{}, by its representative {who}", name.trim())
                    }
                    _ => name.trim().to_owned(),
                },
                date_of_birth: None,
                address: Some(address.trim().to_owned()).filter(|a| !a.is_empty()),
                id_document: None,
            },
            Identity::Identified {
                full_name,
                date_of_birth,
                address,
                id_type,
                id_number,
            } => {
                let kind = id_type.map_or("ID", IdType::label);
                let blank = |t: &str| Some(t.trim().to_owned()).filter(|t| !t.is_empty());
                Defendant {
                    name: full_name.trim().to_owned(),
                    date_of_birth: blank(date_of_birth),
                    address: blank(address),
                    id_document: id_number
                        .as_deref()
                        .filter(|n| !n.trim().is_empty())
                        .map(|n| format!("{kind} {n}")),
                }
            }
        }
    }
}

/// The subject's copy a phone prints on scene without signal (issue #17), from
/// the report it is about to send and the number it gave out of its block.
/// It says what the server's copy will say once the report arrives, with the
/// court of the block (the one in force when the phone reserved it). `None`
/// when the person is not in the report.
pub fn subject_copy(
    report: &IncidentReport,
    subject_id: uuid::Uuid,
    offence: Offence,
    number: &str,
    block: &NumberBlock,
    issued_at: Moment,
    time: &impl TimeWords,
) -> Option<CitationDocument> {
    let subject = report
        .subjects
        .iter()
        .find(|s| s.subject_id == subject_id)?;
    let text = violation_text(report, subject_id, offence, time)?;
    let court = &block.court;
    Some(
        CitationDocument::compose(
            Parts {
                number,
                status: CitationStatus::Issued,
                issued_at,
                officer_name: &block.officer_name,
                officer_badge: &block.officer_badge,
                defendant: Defendant::of(&subject.identity),
                offence,
                text,
                penalty: offence.penalty(),
                arrest: subject.arrest_for(offence),
                court_name: &court.court_name,
                court_address: &court.court_address,
                appearance_date: court.answer_date(&time.date_after(issued_at, court.answer_days)),
                void_reason: None,
                officer_signature: block.officer_signature.clone(),
                person_signature: subject.signature.clone(),
                withdrawal: None,
                replaces: None,
            },
            time,
        )
        .as_subject_copy(),
    )
}
