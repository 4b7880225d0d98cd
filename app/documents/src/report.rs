//! The full incident report as a PDF: what the chief prints for the file — the
//! same record, verdicts, citations, history and decisions as the report page.

use domain::model::review::ReportView;

use super::pdf::Document;

/// The report, with its photos (`photos`, in the order of `view.photos`) drawn
/// after the citations.
pub fn pdf(view: &ReportView, photos: &[domain::model::photo::CleanJpeg]) -> Vec<u8> {
    let mut doc = Document::new();
    doc.text(
        "TOWN OF WELLS POLICE DEPARTMENT — CODE CHAPTER 52, ARTICLE I",
        9.0,
        true,
    );
    doc.text("INCIDENT REPORT", 14.0, true);
    doc.field("Report", &view.incident_id.to_string());
    doc.field("Status", view.status.label());
    doc.field("Revision", &view.revision.to_string());
    doc.field("Officer", &view.officer);
    doc.field("Submitted", &view.submitted_text);
    if let Some(reason) = &view.return_reason {
        doc.field("Returned", reason);
    }
    doc.heading("The record");
    for (label, value) in &view.record {
        doc.field(label, value);
    }
    doc.heading("Narrative");
    doc.text(&view.report.narrative, 10.0, false);
    if !view.cautions.is_empty() {
        doc.heading("Cautions");
        for c in &view.cautions {
            doc.text(&format!("• {c}"), 10.0, false);
        }
    }
    doc.heading("Persons and verdicts");
    for s in &view.subjects {
        let offence: String = s
            .offences
            .iter()
            .map(|o| format!(" · {} {}", o.reference(), o.title()))
            .collect();
        doc.text(
            &format!("{} — {}{offence}", s.label, s.outcome.label()),
            10.0,
            false,
        );
    }
    doc.heading("Citations");
    if view.citations.is_empty() {
        doc.text("None.", 10.0, false);
    }
    for c in &view.citations {
        doc.text(
            &format!(
                "{} · {} · {} · {}",
                c.number,
                c.subject,
                c.offence.reference(),
                c.status.label()
            ),
            10.0,
            false,
        );
    }
    if !photos.is_empty() {
        doc.heading("Photos");
        for (i, (photo, stored)) in photos.iter().zip(&view.photos).enumerate() {
            doc.photo(
                photo,
                &format!(
                    "Photo {} of {}, {} x {} px, SHA-256 {}",
                    i + 1,
                    photos.len(),
                    photo.width,
                    photo.height,
                    stored.sha256
                ),
            );
        }
    }
    doc.heading("History");
    for r in &view.history {
        let why = r
            .reason
            .as_ref()
            .map(|w| format!(" — {w}"))
            .unwrap_or_default();
        doc.text(
            &format!(
                "Revision {} · {} by {} · {}{why}",
                r.revision, r.kind, r.actor, r.at_text
            ),
            10.0,
            true,
        );
        for c in &r.changes {
            let what = if c.label.is_empty() {
                &c.field
            } else {
                &c.label
            };
            doc.text(&format!("{what}: {} → {}", c.before, c.after), 9.0, false);
        }
    }
    doc.heading("Decisions");
    if view.decisions.is_empty() {
        doc.text("None yet.", 10.0, false);
    }
    for d in &view.decisions {
        let mut line = format!(
            "{} · {} · {} (revision {})",
            d.at_text, d.actor, d.action, d.revision
        );
        if let Some(c) = &d.citation {
            line.push_str(&format!(" · {c}"));
        }
        if let Some(r) = &d.reason {
            line.push_str(&format!(" — {r}"));
        }
        doc.text(&line, 10.0, false);
    }
    doc.finish(&format!("Incident report {}", view.incident_id))
}
