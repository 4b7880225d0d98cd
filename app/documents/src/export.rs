//! The files the clerk sends the District Court (issue #7): CSV (RFC 4180, UTF-8,
//! columns in `docs/export.md`), PDF (one Uniform Summons and Complaint per
//! citation, then a docket of the batch) and JSON (`model::court::CourtExport`).

use std::borrow::Cow;

use domain::model::citation::CitationDocument;
use domain::model::court::{CourtExport, ExportedCitation, EXPORT_SCHEMA, EXPORT_VERSION};

use super::pdf::Document;

/// The CSV header, in order; `docs/export.md` describes each column. Columns
/// are only ever appended (issue #33 added the last three).
pub const CSV_COLUMNS: [&str; 25] = [
    "citation_number",
    "status",
    "amended_filing",
    "issued_at",
    "officer_name",
    "officer_badge",
    "subject_name",
    "subject_date_of_birth",
    "subject_address",
    "subject_identification",
    "offence_code",
    "offence_section",
    "occurred_at",
    "place",
    "fine",
    "costs",
    "arrest",
    "court_name",
    "court_address",
    "appearance_date",
    "filing_deadline",
    "batch_id",
    "withdrawn",
    "withdrawal_reason",
    "replaces",
];

/// A cell a spreadsheet would evaluate (`=`, `+`, `-`, `@`, tab, carriage
/// return first) gets a leading apostrophe, so it opens as the text it is
/// (spreadsheet formula injection). Everything else is byte for byte.
pub fn neutralise(cell: &str) -> Cow<'_, str> {
    match cell.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => Cow::Owned(format!("'{cell}")),
        _ => Cow::Borrowed(cell),
    }
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new())
}

fn finish(out: csv::Writer<Vec<u8>>) -> Result<Vec<u8>, csv::Error> {
    out.into_inner().map_err(|e| e.into_error().into())
}

/// Records of text cells as CSV, each cell neutralised.
pub fn csv_of(records: impl IntoIterator<Item = Vec<String>>) -> Result<Vec<u8>, csv::Error> {
    let mut out = writer();
    for record in records {
        out.write_record(record.iter().map(|c| neutralise(c).into_owned()))?;
    }
    finish(out)
}

/// The court's CSV, written a citation at a time as each line is read (an
/// export of 100 000 is built while the database is still being read).
pub struct CourtCsv {
    out: csv::Writer<Vec<u8>>,
    batch_id: String,
}

impl CourtCsv {
    /// The file so far: its header.
    pub fn new(batch_id: &str) -> Result<CourtCsv, csv::Error> {
        let mut out = writer();
        out.write_record(CSV_COLUMNS)?;
        Ok(CourtCsv {
            out,
            batch_id: batch_id.to_owned(),
        })
    }

    pub fn push(&mut self, c: &ExportedCitation) -> Result<(), csv::Error> {
        let cells: [&str; 25] = [
            &c.number,
            c.status.code(),
            yes(c.amended),
            &c.issued_at,
            &c.officer_name,
            &c.officer_badge,
            &c.subject_name,
            c.subject_date_of_birth.as_deref().unwrap_or_default(),
            c.subject_address.as_deref().unwrap_or_default(),
            c.subject_identification.as_deref().unwrap_or_default(),
            &c.offence_code,
            &c.offence_section,
            &c.occurred_at,
            &c.place,
            &c.fine,
            &c.costs,
            yes(c.arrest),
            &c.court_name,
            &c.court_address,
            &c.appearance_date,
            &c.filing_deadline,
            &self.batch_id,
            yes(c.withdrawn),
            c.withdrawal_reason.as_deref().unwrap_or_default(),
            c.replaces.as_deref().unwrap_or_default(),
        ];
        for cell in cells {
            self.out.write_field(neutralise(cell).as_bytes())?;
        }
        self.out.write_record(None::<&[u8]>)
    }

    pub fn finish(self) -> Result<Vec<u8>, csv::Error> {
        finish(self.out)
    }
}

/// The docket's title: "filed" only once the court has every citation it
/// lists (issue #37: an export made before filing was titled "filed").
pub fn docket_title(docs: &[(CitationDocument, bool)]) -> &'static str {
    let filed = docs.iter().all(|(c, _)| {
        matches!(
            c.status,
            domain::model::incident::CitationStatus::Filed
                | domain::model::incident::CitationStatus::Disposed
        )
    });
    if filed {
        "DOCKET OF CIVIL VIOLATION SUMMONSES FILED"
    } else {
        "DOCKET OF CIVIL VIOLATION SUMMONSES FOR FILING"
    }
}

/// One summons per citation, then the docket listing the batch, named as the
/// clerk's folder names it (`batch`: "No. 3 of 2026-07-10", the day's export
/// number), not by its internal id.
pub fn pdf(docs: &[(CitationDocument, bool)], batch: &str, generated: &str) -> Vec<u8> {
    let mut doc = Document::new();
    for (i, (citation, amended)) in docs.iter().enumerate() {
        if i > 0 {
            doc.page_break();
        }
        if *amended && citation.withdrawal.is_none() {
            doc.text(
                "AMENDED FILING — replaces the copy filed earlier",
                11.0,
                true,
            );
        }
        super::summons::write(&mut doc, citation);
    }
    doc.page_break();
    doc.text(
        "TOWN OF WELLS POLICE DEPARTMENT — STATE OF MAINE",
        9.0,
        true,
    );
    doc.text(docket_title(docs), 13.0, true);
    doc.field("Export", batch);
    doc.field("Prepared", generated);
    doc.field("Citations", &docs.len().to_string());
    doc.gap(6.0);
    let columns = [0.0, 100.0, 250.0, 340.0, 420.0];
    doc.row(
        &[
            (columns[0], "Citation"),
            (columns[1], "Defendant"),
            (columns[2], "Offence"),
            (columns[3], "Fine"),
            (columns[4], "Appearance"),
        ],
        9.0,
        true,
    );
    for (c, amended) in docs {
        let name: String = c.subject_name.chars().take(28).collect();
        let number = if c.withdrawal.is_some() {
            format!("{} (withdrawn)", c.number)
        } else if *amended {
            format!("{} (amended)", c.number)
        } else {
            c.number.clone()
        };
        doc.row(
            &[
                (columns[0], &number),
                (columns[1], &name),
                (columns[2], &c.offence_reference),
                (columns[3], &c.fine_text),
                (columns[4], &c.appearance_date),
            ],
            9.0,
            false,
        );
    }
    doc.gap(8.0);
    // The penalties of the offences listed, each once, in the ordinance's words.
    let mut penalties: Vec<&str> = docs
        .iter()
        .map(|(c, _)| c.penalty_statement.as_str())
        .collect();
    penalties.sort_unstable();
    penalties.dedup();
    for penalty in penalties {
        doc.text(
            &format!("Each fine: {penalty}, Town of Wells Code."),
            9.0,
            false,
        );
    }
    doc.finish(&format!("Court filing, export {batch}"))
}

pub fn json(citations: Vec<ExportedCitation>, batch_id: &str, generated_at: &str) -> CourtExport {
    CourtExport {
        schema: EXPORT_SCHEMA.to_owned(),
        version: EXPORT_VERSION,
        batch_id: batch_id.to_owned(),
        generated_at: generated_at.to_owned(),
        citations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::model::incident::CitationStatus;

    /// A summons as an export prints it, approved (not yet filed).
    fn summons(number: &str) -> CitationDocument {
        let p = domain::ordinance::Penalty::ARTICLE_I;
        CitationDocument {
            number: number.into(),
            status: CitationStatus::Approved,
            issued_at_text: "2026-07-04 16:20 EDT".into(),
            officer_name: "Officer Sam Price".into(),
            officer_badge: "117".into(),
            subject_name: "Alex Morgan".into(),
            subject_date_of_birth: Some("1990-02-03".into()),
            subject_address: Some("12 Main Street, Wells, ME".into()),
            subject_id_document: None,
            offence_code: "52-1(A)(1)".into(),
            offence_reference: "§52-1 A(1), D".into(),
            offence_title: "Loitering — obstructing passage".into(),
            violation: vec!["Remained in essentially one location".into()],
            narrative: "Stood across the sidewalk.".into(),
            occurred_at_text: "2026-07-04 15:40 EDT".into(),
            location: "Post Road at Mile Road".into(),
            place: "Sidewalk".into(),
            order_words: Some("Move on.".into()),
            order_given_text: None,
            refusal_text: None,
            fine_text: p.fine_text(),
            penalty_statement: p.statement(),
            arrest: false,
            arrest_permitted: false,
            court_name: "Maine District Court".into(),
            court_address: "York".into(),
            appearance_date: "2026-07-27".into(),
            filing_deadline: "2026-07-09".into(),
            void_reason: None,
            officer_signature: None,
            person_signature: None,
            withdrawal: None,
            replaces: None,
        }
    }

    /// The lines of text a PDF of ours shows, in order: its content streams are
    /// not compressed, and each line is one `(…) Tj` or, with a byte past
    /// ASCII, `<hex> Tj` in WinAnsi.
    fn lines(pdf: &[u8]) -> Vec<String> {
        let text = String::from_utf8_lossy(pdf);
        text.lines()
            .filter_map(|l| l.trim().strip_suffix(" Tj"))
            .map(|shown| {
                if let Some(hex) = shown.strip_prefix('<').and_then(|h| h.strip_suffix('>')) {
                    (0..hex.len())
                        .step_by(2)
                        .filter_map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
                        .map(|b| if b == 0xA7 { '§' } else { char::from(b) })
                        .collect()
                } else {
                    shown
                        .trim_start_matches('(')
                        .trim_end_matches(')')
                        .to_owned()
                }
            })
            .collect()
    }

    /// How many times `needle` is printed in a PDF of ours.
    fn printed(pdf: &[u8], needle: &str) -> usize {
        lines(pdf).iter().map(|l| l.matches(needle).count()).sum()
    }

    /// Issue #37, finding 7: the docket of an export made before filing was
    /// titled "summonses filed" and named its batch by a UUID; the summons
    /// printed "$100.00" twice.
    #[test]
    fn the_docket_says_what_is_filed_and_names_the_export_and_the_fine_prints_once() {
        let approved = vec![(summons("WPD-2026-000042"), false)];
        let bytes = pdf(&approved, "No. 3 of 2026-07-10", "2026-07-10 09:00 EDT");
        assert_eq!(printed(&bytes, "SUMMONSES FOR FILING"), 1);
        assert_eq!(printed(&bytes, "SUMMONSES FILED"), 0);
        assert_eq!(printed(&bytes, "No. 3 of 2026-07-10"), 1);
        let one = super::super::summons::pdf(&approved[0].0);
        assert_eq!(printed(&one, "$100.00"), 1, "{:?}", lines(&one));
        assert_eq!(
            printed(&one, "$100.00 plus costs as assessed by the court (§52-4)"),
            1
        );
        let mut filed = approved.clone();
        filed[0].0.status = CitationStatus::Filed;
        assert_eq!(
            docket_title(&filed),
            "DOCKET OF CIVIL VIOLATION SUMMONSES FILED"
        );
    }

    /// The court's CSV of these citations, as an export writes it.
    fn csv(citations: &[ExportedCitation], batch_id: &str) -> Result<Vec<u8>, csv::Error> {
        let mut file = CourtCsv::new(batch_id)?;
        for c in citations {
            file.push(c)?;
        }
        file.finish()
    }

    fn citation(name: &str) -> ExportedCitation {
        ExportedCitation {
            number: "WPD-2026-000042".into(),
            status: CitationStatus::Approved,
            amended: false,
            issued_at: "2026-07-04 16:20 EDT".into(),
            officer_name: "Officer Sam Price".into(),
            officer_badge: "117".into(),
            subject_name: name.into(),
            subject_date_of_birth: Some("1990-02-03".into()),
            subject_address: Some("12 Main Street, Wells, ME".into()),
            subject_identification: Some("Driver's license 1234567".into()),
            offence_code: "52-1(A)(1)".into(),
            offence_section: "Town of Wells Code §52-1 A(1), D — Loitering — obstructing passage"
                .into(),
            occurred_at: "2026-07-04 15:40 EDT".into(),
            place: "Post Road at Mile Road (Sidewalk)".into(),
            fine: "$100.00".into(),
            costs: "plus costs as assessed by the court (§52-4)".into(),
            arrest: false,
            court_name: "Maine District Court".into(),
            court_address: "York District Court, 11 Chases Pond Road, York, ME 03909".into(),
            appearance_date: "2026-07-25".into(),
            filing_deadline: "2026-07-09".into(),
            withdrawn: false,
            withdrawal_reason: None,
            replaces: None,
        }
    }

    fn parse(bytes: &[u8]) -> Vec<Vec<String>> {
        csv::Reader::from_reader(bytes)
            .records()
            .map(|r| r.expect("record").iter().map(str::to_owned).collect())
            .collect()
    }

    #[test]
    fn formulas_in_hostile_names_are_neutralised() {
        for hostile in [
            "=HYPERLINK(\"http://evil.example\",\"click\")",
            "+1",
            "-2+3",
            "@x",
            "\tTab",
            "\rReturn",
        ] {
            let bytes = csv(&[citation(hostile)], "b1").expect("csv");
            let rows = parse(&bytes);
            assert_eq!(rows[0][6], format!("'{hostile}"), "{hostile:?}");
        }
        // Text that merely contains the characters is left alone.
        let rows = parse(&csv(&[citation("Anne-Marie O'Neil")], "b1").expect("csv"));
        assert_eq!(rows[0][6], "Anne-Marie O'Neil");
    }

    #[test]
    fn unicode_names_round_trip_byte_for_byte() {
        for name in [
            "Zoë Lévesque",
            "Seán O'Brien",
            "José García-Núñez",
            "Marie-Claire Thibodeau",
            "Nguyễn Thị Minh Khai",
        ] {
            let bytes = csv(&[citation(name)], "b1").expect("csv");
            assert!(std::str::from_utf8(&bytes).is_ok());
            let rows = parse(&bytes);
            assert_eq!(rows[0][6].as_bytes(), name.as_bytes());
        }
    }

    #[test]
    fn the_csv_header_is_the_documented_one() {
        let bytes = csv(&[citation("A B")], "b1").expect("csv");
        let mut reader = csv::Reader::from_reader(bytes.as_slice());
        let header: Vec<String> = reader
            .headers()
            .expect("header")
            .iter()
            .map(str::to_owned)
            .collect();
        assert_eq!(header, CSV_COLUMNS);
        let docs = include_str!("../../../docs/export.md");
        for column in CSV_COLUMNS {
            assert!(
                docs.contains(&format!("`{column}`")),
                "docs/export.md names {column}"
            );
        }
        assert!(bytes.ends_with(b"\r\n"), "RFC 4180 line endings");
    }

    /// The JSON a court system parses: a change here is a change of schema.
    #[test]
    fn the_json_export_schema_is_stable() {
        let export = json(
            vec![citation("Alex Morgan")],
            "0193f5c0-0000-7000-8000-000000000001",
            "2026-07-05T12:00:00Z",
        );
        let expected = serde_json::json!({
            "schema": "wells-loitering-citations",
            "version": 1,
            "batch_id": "0193f5c0-0000-7000-8000-000000000001",
            "generated_at": "2026-07-05T12:00:00Z",
            "citations": [{
                "number": "WPD-2026-000042",
                "status": "approved",
                "amended": false,
                "issued_at": "2026-07-04 16:20 EDT",
                "officer_name": "Officer Sam Price",
                "officer_badge": "117",
                "subject_name": "Alex Morgan",
                "subject_date_of_birth": "1990-02-03",
                "subject_address": "12 Main Street, Wells, ME",
                "subject_identification": "Driver's license 1234567",
                "offence_code": "52-1(A)(1)",
                "offence_section": "Town of Wells Code §52-1 A(1), D — Loitering — obstructing passage",
                "occurred_at": "2026-07-04 15:40 EDT",
                "place": "Post Road at Mile Road (Sidewalk)",
                "fine": "$100.00",
                "costs": "plus costs as assessed by the court (§52-4)",
                "arrest": false,
                "court_name": "Maine District Court",
                "court_address": "York District Court, 11 Chases Pond Road, York, ME 03909",
                "appearance_date": "2026-07-25",
                "filing_deadline": "2026-07-09",
                "withdrawn": false,
                "withdrawal_reason": null,
                "replaces": null
            }]
        });
        assert_eq!(serde_json::to_value(&export).expect("json"), expected);
    }
}
