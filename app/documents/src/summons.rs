//! The citation as a Uniform Summons and Complaint page (subject's copy, court
//! filing) — the same fields the screen shows.

use domain::model::citation::CitationDocument;
use domain::model::incident::CitationStatus;
use domain::model::signature::PersonSignature;

use super::pdf::Document;

/// Lays out one citation on the document (starting a new page if `new_page`).
pub fn write(doc: &mut Document, c: &CitationDocument) {
    doc.text(
        "TOWN OF WELLS POLICE DEPARTMENT — STATE OF MAINE",
        9.0,
        true,
    );
    doc.text(
        "UNIFORM SUMMONS AND COMPLAINT — CIVIL VIOLATION",
        13.0,
        true,
    );
    doc.text(&format!("Citation {}", c.number), 16.0, true);
    if c.status == CitationStatus::Void {
        doc.text(
            &format!("VOID — {}", c.void_reason.clone().unwrap_or_default()),
            14.0,
            true,
        );
    }
    if let Some(w) = &c.withdrawal {
        // Issue #33: the Town withdrew it after filing; the court dismisses it.
        doc.text(
            &format!(
                "WITHDRAWN BY THE TOWN on {} — the court is asked to dismiss it: {}",
                w.at_text, w.reason
            ),
            12.0,
            true,
        );
        if let Some(by) = &w.replaced_by {
            doc.text(&format!("Replaced by citation {by}."), 11.0, true);
        }
    }
    if let Some(old) = &c.replaces {
        doc.text(
            &format!("Replaces citation {old}, withdrawn by the Town."),
            11.0,
            true,
        );
    }
    doc.field("Issued", &c.issued_at_text);

    doc.heading("Defendant");
    doc.field("Name", &c.subject_name);
    if let Some(dob) = &c.subject_date_of_birth {
        doc.field("Date of birth", dob);
    }
    if let Some(address) = &c.subject_address {
        doc.field("Address", address);
    }
    if let Some(id) = &c.subject_id_document {
        doc.field("Identification", id);
    }

    doc.heading("Violation");
    doc.field("Date and time", &c.occurred_at_text);
    doc.field("Place", &format!("{} ({})", c.location, c.place));
    doc.field(
        "Offence",
        &format!(
            "Town of Wells Code {} — {}",
            c.offence_reference, c.offence_title
        ),
    );
    for line in &c.violation {
        doc.field("", &format!("• {line}"));
    }
    if let Some(words) = &c.order_words {
        doc.field("Order given", &format!("“{words}”"));
    }
    if let Some(given) = &c.order_given_text {
        doc.field("", given);
    }
    if let Some(refusal) = &c.refusal_text {
        doc.field("Failed or refused", refusal);
    }

    doc.heading("Penalty");
    // The statement names the fine once, with the costs as assessed by
    // the court (§52-4) (issue #37: the amount printed twice).
    doc.field("Fine", &c.penalty_statement);
    if c.arrest {
        doc.field(
            "§52-2",
            "Arrested, to be brought before the District Court by lawful process.",
        );
    } else if c.arrest_permitted {
        doc.field("§52-2", "No arrest: summoned to answer in court.");
    }

    doc.heading("Court");
    doc.field("Court", &c.court_name);
    doc.field("Address", &c.court_address);
    doc.field("Appear or answer by", &c.appearance_date);

    doc.heading("Officer");
    doc.field("Officer", &c.officer_name);
    doc.field("Badge", &c.officer_badge);
    doc.signed_line(
        "Officer's signature",
        c.officer_signature
            .as_ref()
            .map(|s| (s, "OfficerSignature")),
    );
    // Maine does not require the defendant's signature on a summons: a refusal is
    // recorded as such, and the summons stands.
    const DEFENDANT: &str = "Defendant's signature (optional — signing is not an admission)";
    match &c.person_signature {
        Some(PersonSignature::Signed(drawn)) => {
            doc.signed_line(DEFENDANT, Some((drawn, "DefendantSignature")))
        }
        Some(PersonSignature::Refused) => {
            doc.signature_line(DEFENDANT);
            doc.field("", "Asked to sign on the officer's phone; declined.");
        }
        None => doc.signature_line(DEFENDANT),
    }

    // Not the officer's account of the whole incident: it names the other
    // persons, and this is one person's summons (issue #17). The violation
    // above is this person's own conduct, order and response.
    doc.gap(10.0);
    doc.text(
        &format!(
            "The original of this summons must be filed with the court within {} days of issuance (by {}).",
            domain::ordinance::FILING_DAYS,
            c.filing_deadline
        ),
        8.0,
        false,
    );
}

/// The subject's copy of one citation.
pub fn pdf(c: &CitationDocument) -> Vec<u8> {
    let mut doc = Document::new();
    write(&mut doc, c);
    doc.finish(&format!("Citation {}", c.number))
}
