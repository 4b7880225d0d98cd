//! The court clerk's work (issue #7): the filing queue against the filing deadline,
//! exports to the District Court, marking citations filed, and the court's
//! dispositions. Shared by the server functions and the pages.

use serde::{Deserialize, Serialize};

use crate::error::FieldError;
use crate::model::incident::{parse_date, CitationStatus, MAX_SHORT_CHARS};
pub use crate::model::numbers::is_citation_number;
use crate::ordinance::{Offence, Penalty};

/// A civil-violation summons must reach the District Court within this many days
/// of issuance (the ordinance module keeps the number).
pub use crate::ordinance::FILING_DAYS;

/// Most citations one export or one "mark filed" takes.
pub const MAX_BATCH: usize = 500;

/// An approved citation waiting to be filed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilingRow {
    pub number: String,
    pub subject: String,
    pub offence: Offence,
    pub officer: String,
    pub issued_text: String,
    /// The last day to file: issuance + `FILING_DAYS`, the Town's calendar.
    pub deadline: String,
    /// Negative when overdue.
    pub days_left: i64,
    /// Changed by a chief's amendment since it last went out.
    pub amended: bool,
    /// The citation withdrawn from the court that this one replaces (issue #33):
    /// the court is told both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
}

/// A citation the Town withdrew from the court (issue #33): a chief's amendment
/// after filing changed its person, charge or arrest, or took it away. The
/// product cannot dismiss a case; the clerk takes the withdrawal to the court,
/// with the citation that replaces it, if one does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Withdrawal {
    pub number: String,
    pub subject: String,
    pub offence: Offence,
    /// The amendment's reason.
    pub reason: String,
    pub at_text: String,
    /// The chief who amended.
    pub by: String,
    /// The new citation issued in its place, if any.
    pub replaced_by: Option<String>,
    /// An export has carried it to the court since it was withdrawn.
    pub sent: bool,
}

/// The filing queue: the most urgent `MAX_BATCH` citations, and how many wait in
/// all, so a backlog larger than one page is never hidden.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilingBacklog {
    pub waiting: u64,
    pub rows: Vec<FilingRow>,
    /// Approved citations held out of the queue because their person is not
    /// identified: they wait for the chief's amendment with the identity.
    #[serde(default)]
    pub held_unidentified: u64,
    /// Withdrawals no export has carried to the court yet, oldest first.
    #[serde(default)]
    pub withdrawals: Vec<Withdrawal>,
    /// Today on the Town's calendar: the date a filing defaults to and may not
    /// pass. The clerk's browser may keep another zone's date (or a wrong clock).
    pub today: String,
}

/// The export formats the court can take today.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    Csv,
    Pdf,
    Json,
}

impl ExportFormat {
    pub const fn code(self) -> &'static str {
        match self {
            ExportFormat::Csv => "csv",
            ExportFormat::Pdf => "pdf",
            ExportFormat::Json => "json",
        }
    }
    pub const fn content_type(self) -> &'static str {
        match self {
            ExportFormat::Csv => "text/csv; charset=utf-8",
            ExportFormat::Pdf => "application/pdf",
            ExportFormat::Json => "application/json",
        }
    }
}

/// An export as the court page lists it, to confirm what was sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportBatchView {
    pub batch_id: String,
    pub file: String,
    pub at_text: String,
    pub by: String,
    pub citations: i64,
    pub sha256: String,
}

/// Which citations to export: the numbers chosen, or those issued in a date
/// range (Town dates, both ends included). Only approved, filed and disposed
/// citations are the court's.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportSelection {
    #[serde(default)]
    pub numbers: Vec<String>,
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub to: Option<String>,
}

impl ExportSelection {
    pub fn problems(&self) -> Vec<FieldError> {
        let mut errors = Vec::new();
        let range = self.from.is_some() || self.to.is_some();
        if self.numbers.is_empty() && !range {
            errors.push(FieldError::new(
                "numbers",
                "Choose citations, or a date range of issuance.",
            ));
        }
        if self.numbers.len() > MAX_BATCH {
            errors.push(FieldError::new(
                "numbers",
                format!("At most {MAX_BATCH} citations at a time."),
            ));
        }
        if let Some(bad) = self.numbers.iter().find(|n| !is_citation_number(n)) {
            errors.push(FieldError::new(
                "numbers",
                format!("{}: not a citation number (WPD-YYYY-NNNNNN).", short(bad)),
            ));
        }
        if range {
            for (field, value) in [("from", &self.from), ("to", &self.to)] {
                if value.as_deref().and_then(parse_date).is_none() {
                    errors.push(FieldError::new(
                        field,
                        format!("{field}: a date as YYYY-MM-DD."),
                    ));
                }
            }
        }
        errors
    }
}

fn short(text: &str) -> String {
    text.chars().take(40).collect()
}

/// The clerk records that the court received these citations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Filing {
    pub numbers: Vec<String>,
    /// The date the court received them.
    pub filed_on: String,
    /// The court's docket or receipt reference.
    pub reference: String,
}

impl Filing {
    pub fn problems(&self, today: &str) -> Vec<FieldError> {
        let mut errors = ExportSelection {
            numbers: self.numbers.clone(),
            ..ExportSelection::default()
        }
        .problems();
        match parse_date(&self.filed_on) {
            None => errors.push(FieldError::new(
                "filed_on",
                "Date filed: a date as YYYY-MM-DD.",
            )),
            Some(_) if self.filed_on.as_str() > today => errors.push(FieldError::new(
                "filed_on",
                "Date filed: not in the future.",
            )),
            Some(_) => {}
        }
        if let Some(problem) = line_problem(&self.reference, "Filing reference") {
            errors.push(FieldError::new("reference", problem));
        }
        errors
    }
}

fn line_problem(text: &str, what: &str) -> Option<String> {
    if text.trim().is_empty() {
        Some(format!("{what}: required."))
    } else if text.chars().count() > MAX_SHORT_CHARS || text.chars().any(char::is_control) {
        Some(format!(
            "{what}: one line of at most {MAX_SHORT_CHARS} characters."
        ))
    } else {
        None
    }
}

/// What the court decided (or the stage the case is at).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DispositionKind {
    /// The fine (and any costs) paid without a hearing.
    Paid,
    /// The person admitted the violation; the court assesses fine and costs.
    Admitted,
    /// The person contests: a hearing is set. Not final.
    Contested,
    Dismissed,
    /// Adjudicated: the court assesses the §52-4 fine plus costs.
    Guilty,
    NotGuilty,
    /// Did not answer or appear: judgment by default, fine and costs assessed.
    Defaulted,
}

impl DispositionKind {
    pub const ALL: [DispositionKind; 7] = [
        DispositionKind::Paid,
        DispositionKind::Admitted,
        DispositionKind::Contested,
        DispositionKind::Dismissed,
        DispositionKind::Guilty,
        DispositionKind::NotGuilty,
        DispositionKind::Defaulted,
    ];
    pub const fn code(self) -> &'static str {
        match self {
            DispositionKind::Paid => "paid",
            DispositionKind::Admitted => "admitted",
            DispositionKind::Contested => "contested",
            DispositionKind::Dismissed => "dismissed",
            DispositionKind::Guilty => "guilty",
            DispositionKind::NotGuilty => "not_guilty",
            DispositionKind::Defaulted => "defaulted",
        }
    }
    pub fn from_code(code: &str) -> Option<DispositionKind> {
        Self::ALL.into_iter().find(|k| k.code() == code)
    }
    pub const fn label(self) -> &'static str {
        match self {
            DispositionKind::Paid => "Paid",
            DispositionKind::Admitted => "Admitted",
            DispositionKind::Contested => "Contested — hearing set",
            DispositionKind::Dismissed => "Dismissed",
            DispositionKind::Guilty => "Found to have committed the violation",
            DispositionKind::NotGuilty => "Found not to have committed the violation",
            DispositionKind::Defaulted => "Defaulted",
        }
    }
    /// Every kind but a contest ends the case: the citation becomes disposed.
    pub const fn is_final(self) -> bool {
        !matches!(self, DispositionKind::Contested)
    }
    /// The court assesses the fine and costs (§52-4: the fine plus costs).
    pub const fn assesses(self) -> bool {
        matches!(
            self,
            DispositionKind::Admitted | DispositionKind::Guilty | DispositionKind::Defaulted
        )
    }
}

/// A disposition as the clerk records it. Money in cents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Disposition {
    pub kind: DispositionKind,
    /// The date of the court's decision or of the payment.
    pub on: String,
    /// Contested: the hearing date.
    #[serde(default)]
    pub hearing_on: Option<String>,
    /// Paid: the amount received.
    #[serde(default)]
    pub paid_cents: Option<i64>,
    /// Admitted, guilty, defaulted: the fine and costs the court assessed.
    #[serde(default)]
    pub fine_cents: Option<i64>,
    #[serde(default)]
    pub costs_cents: Option<i64>,
    /// Why a decision already recorded as final is changed: required then (the
    /// old one is kept in the court history and the audit log).
    #[serde(default)]
    pub reason: Option<String>,
    /// The court's own words for a fine other than the citation's (its order
    /// or docket entry): required when the amount differs, and recorded with
    /// it, flagged (issue #33, finding 10). Absent, and not written, otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub court_words: Option<String>,
}

/// Longest court's words for a fine that differs.
pub const MAX_COURT_WORDS_CHARS: usize = 2_000;

/// Largest amount taken, so a typo of extra zeros is caught: a fine plus costs
/// is never tens of thousands of dollars.
pub const MAX_AMOUNT_CENTS: i64 = 1_000_000;

impl Disposition {
    pub fn problems(&self, today: &str) -> Vec<FieldError> {
        let mut errors = Vec::new();
        match parse_date(&self.on) {
            None => errors.push(FieldError::new("on", "Date: a date as YYYY-MM-DD.")),
            Some(_) if self.on.as_str() > today => {
                errors.push(FieldError::new("on", "Date: not in the future."))
            }
            Some(_) => {}
        }
        let amount = |errors: &mut Vec<FieldError>, field: &str, what: &str, v: Option<i64>| match v
        {
            None => errors.push(FieldError::new(field, format!("{what}: required."))),
            Some(c) if !(0..=MAX_AMOUNT_CENTS).contains(&c) => errors.push(FieldError::new(
                field,
                format!("{what}: from $0.00 to ${}.", MAX_AMOUNT_CENTS / 100),
            )),
            Some(_) => {}
        };
        match self.kind {
            DispositionKind::Contested
                if self.hearing_on.as_deref().and_then(parse_date).is_none() =>
            {
                errors.push(FieldError::new(
                    "hearing_on",
                    "Hearing date: required for a contested citation, as YYYY-MM-DD.",
                ));
            }
            DispositionKind::Paid => {
                amount(&mut errors, "paid_cents", "Amount paid", self.paid_cents);
                if self.paid_cents == Some(0) {
                    errors.push(FieldError::new(
                        "paid_cents",
                        "Amount paid: more than $0.00.",
                    ));
                }
            }
            kind if kind.assesses() => {
                amount(&mut errors, "fine_cents", "Fine assessed", self.fine_cents);
                amount(
                    &mut errors,
                    "costs_cents",
                    "Costs assessed",
                    self.costs_cents,
                );
            }
            _ => {}
        }
        if let Some(words) = &self.court_words {
            if words.chars().count() > MAX_COURT_WORDS_CHARS
                || words
                    .chars()
                    .any(|c| c.is_control() && c != '\n' && c != '\r' && c != '\t')
            {
                errors.push(FieldError::new(
                    "court_words",
                    format!(
                        "The court's words: plain text of at most {MAX_COURT_WORDS_CHARS} characters."
                    ),
                ));
            }
        }
        errors
    }

    /// A hearing set on a day the District Court does not sit (issue #37: a
    /// hearing on Christmas Day was taken): refused with the day named.
    /// `closed` is the court's list of closed days (`CourtSettings`), `None`
    /// while Maine's legal holidays stand for it.
    pub fn hearing_problem(&self, closed: Option<&[String]>) -> Option<FieldError> {
        let day = crate::model::civil::day_number(self.hearing_on.as_deref()?)?;
        let why = crate::model::court_calendar::court_closed(day, closed)?;
        Some(FieldError::new(
            "hearing_on",
            format!("Hearing date: {why}, when the District Court does not sit. Give the date the court set."),
        ))
    }

    /// The court's words, when given.
    pub fn words(&self) -> Option<&str> {
        self.court_words
            .as_deref()
            .map(str::trim)
            .filter(|w| !w.is_empty())
    }

    /// Whether the fine assessed differs from the citation's: `charged` is the
    /// penalty the citation states (its stored fine, its offence's section).
    pub fn departs(&self, charged: Penalty) -> bool {
        self.kind.assesses()
            && self
                .fine_cents
                .is_some_and(|f| f != i64::from(charged.fine_cents))
    }

    /// A fine other than the citation's needs the court's words: the court's
    /// judgment is the record, and the clerk records it flagged, never silently
    /// (issue #33, finding 10). `charged` is the citation's own penalty — its
    /// stored fine and its section (§52-4 or §52-12) — not the ordinance's
    /// amount for some other offence.
    pub fn fine_problem(&self, charged: Penalty) -> Option<FieldError> {
        (self.departs(charged) && self.words().is_none()).then(|| {
            FieldError::new(
                "court_words",
                format!(
                    "The court's words: {} sets it at {} for this citation (costs are added \
                     separately). If the court assessed another amount, quote the court's order \
                     for it; it is recorded, flagged.",
                    charged.section,
                    charged.fine_text()
                ),
            )
        })
    }
}

/// `$1,234.50`: amounts as the Town prints them (the ordinance's own format).
pub use crate::ordinance::penalty::dollars;

/// Filters of the clerk's register. Dates `YYYY-MM-DD`, both ends included.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CourtFilter {
    #[serde(default)]
    pub status: Option<CitationStatus>,
    /// Filed on or after / before.
    #[serde(default)]
    pub filed_from: Option<String>,
    #[serde(default)]
    pub filed_to: Option<String>,
    /// Court date (hearing, or the appearance date printed on the citation).
    #[serde(default)]
    pub court_from: Option<String>,
    #[serde(default)]
    pub court_to: Option<String>,
    /// Citation number, exactly.
    #[serde(default)]
    pub number: Option<String>,
}

impl CourtFilter {
    pub fn problems(&self) -> Vec<FieldError> {
        let mut errors = Vec::new();
        for (field, value) in [
            ("filed_from", &self.filed_from),
            ("filed_to", &self.filed_to),
            ("court_from", &self.court_from),
            ("court_to", &self.court_to),
        ] {
            if value.as_deref().is_some_and(|v| parse_date(v).is_none()) {
                errors.push(FieldError::new(
                    field,
                    format!("{field}: a date as YYYY-MM-DD."),
                ));
            }
        }
        if self
            .number
            .as_deref()
            .is_some_and(|n| n.chars().count() > MAX_SHORT_CHARS)
        {
            errors.push(FieldError::new("number", "Citation number: too long."));
        }
        errors
    }
}

/// A citation in the clerk's register.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CourtRow {
    pub number: String,
    pub subject: String,
    pub offence: Offence,
    pub status: CitationStatus,
    pub issued_text: String,
    pub filed_on: Option<String>,
    pub filing_reference: Option<String>,
    pub court_date: String,
    pub disposition: Option<DispositionKind>,
    /// The court's words for a fine other than the citation's: shown flagged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fine_departure: Option<String>,
    /// Withdrawn by the Town after filing (issue #33): the amendment's reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn: Option<String>,
    /// The citation this one replaces, or the one that replaces it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced_by: Option<String>,
}

/// The court clerk's calendar (issue #37, finding 18): the hearings set from
/// today on, day by day, earliest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HearingCalendar {
    /// Today on the Town's calendar.
    pub today: String,
    pub days: Vec<HearingDay>,
}

/// One day of the calendar and its hearings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HearingDay {
    /// YYYY-MM-DD.
    pub date: String,
    /// The day in words: "Tuesday 2026-12-08".
    pub day_text: String,
    pub hearings: Vec<CourtRow>,
}

/// How many hearings the calendar lists at most (a year of a busy court).
pub const CALENDAR_LIMIT: usize = 500;

impl HearingCalendar {
    /// Rows in court-date order, grouped by their court date.
    pub fn by_day(today: String, rows: Vec<CourtRow>) -> HearingCalendar {
        let mut days: Vec<HearingDay> = Vec::new();
        for row in rows {
            match days.last_mut() {
                Some(day) if day.date == row.court_date => day.hearings.push(row),
                _ => {
                    let weekday = crate::model::civil::day_number(&row.court_date).map(|d| {
                        crate::model::civil::WEEKDAY_NAMES[crate::model::civil::weekday(d) as usize]
                    });
                    days.push(HearingDay {
                        date: row.court_date.clone(),
                        day_text: match weekday {
                            Some(w) => format!("{w} {}", row.court_date),
                            None => row.court_date.clone(),
                        },
                        hearings: vec![row],
                    })
                }
            }
        }
        HearingCalendar { today, days }
    }
}

/// One filing or disposition in a citation's court history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CourtEventView {
    pub at_text: String,
    pub actor: String,
    pub kind: String,
    pub details: String,
}

/// The clerk's page of one citation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CourtCitation {
    pub row: CourtRow,
    /// The date of the decision or payment recorded, if any.
    #[serde(default)]
    pub disposition_on: Option<String>,
    pub hearing_on: Option<String>,
    pub fine_cents: Option<i64>,
    pub costs_cents: Option<i64>,
    pub paid_cents: Option<i64>,
    pub history: Vec<CourtEventView>,
    /// Today on the Town's calendar, as in `FilingBacklog::today`.
    pub today: String,
    /// The penalty the citation states: its stored fine and its own section
    /// (§52-4 or §52-12), which a disposition's fine is compared with.
    pub charged: Penalty,
}

/// The JSON export (`court/export`) for a court or records system. `version`
/// changes only when a field is removed or changes meaning; fields may be added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CourtExport {
    /// Always `wells-loitering-citations`.
    pub schema: String,
    pub version: u32,
    pub batch_id: String,
    /// UTC, RFC 3339.
    pub generated_at: String,
    pub citations: Vec<ExportedCitation>,
}

pub const EXPORT_SCHEMA: &str = "wells-loitering-citations";
pub const EXPORT_VERSION: u32 = 1;

/// One citation as every export carries it (the CSV has the same fields as
/// columns; `docs/export.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportedCitation {
    pub number: String,
    pub status: CitationStatus,
    /// Changed by a chief's amendment since it was last exported.
    pub amended: bool,
    pub issued_at: String,
    pub officer_name: String,
    pub officer_badge: String,
    pub subject_name: String,
    pub subject_date_of_birth: Option<String>,
    pub subject_address: Option<String>,
    pub subject_identification: Option<String>,
    /// `52-1(A)(1)`
    pub offence_code: String,
    /// `Town of Wells Code §52-1 A(1), D — Loitering — obstructing passage`
    pub offence_section: String,
    pub occurred_at: String,
    pub place: String,
    /// The fine, as `Penalty::fine_text` prints it.
    pub fine: String,
    /// `plus costs as assessed by the court (§52-4)`
    pub costs: String,
    pub arrest: bool,
    pub court_name: String,
    pub court_address: String,
    pub appearance_date: String,
    pub filing_deadline: String,
    /// Withdrawn by the Town after filing (issue #33): the court is asked to
    /// dismiss it, for `withdrawal_reason`. Appended: older readers ignore it.
    #[serde(default)]
    pub withdrawn: bool,
    #[serde(default)]
    pub withdrawal_reason: Option<String>,
    /// The number of the withdrawn citation this one replaces.
    #[serde(default)]
    pub replaces: Option<String>,
}

/// The offence as the court's files name it, from its section reference and title.
pub fn offence_section(reference: &str, title: &str) -> String {
    format!("Town of Wells Code {reference} — {title}")
}

/// The penalty's "plus costs" (§52-4 for Article I), as the court's files say it.
pub fn costs_text(penalty: Penalty) -> String {
    format!("plus costs as assessed by the court ({})", penalty.section)
}

impl ExportedCitation {
    /// The court's line of a citation as printed. Exports build the same line
    /// from the tables (`store::incidents::court_lines`); a test holds the two
    /// equal for every citation.
    pub fn of(doc: &crate::model::citation::CitationDocument, amended: bool) -> ExportedCitation {
        ExportedCitation {
            number: doc.number.clone(),
            status: doc.status,
            amended,
            issued_at: doc.issued_at_text.clone(),
            officer_name: doc.officer_name.clone(),
            officer_badge: doc.officer_badge.clone(),
            subject_name: doc.subject_name.clone(),
            subject_date_of_birth: doc.subject_date_of_birth.clone(),
            subject_address: doc.subject_address.clone(),
            subject_identification: doc.subject_id_document.clone(),
            offence_code: doc.offence_code.clone(),
            offence_section: offence_section(&doc.offence_reference, &doc.offence_title),
            occurred_at: doc.occurred_at_text.clone(),
            place: format!("{} ({})", doc.location, doc.place),
            fine: doc.fine_text.clone(),
            costs: costs_text(
                Offence::from_code(&doc.offence_code).map_or(Penalty::ARTICLE_I, Offence::penalty),
            ),
            arrest: doc.arrest,
            court_name: doc.court_name.clone(),
            court_address: doc.court_address.clone(),
            appearance_date: doc.appearance_date.clone(),
            filing_deadline: doc.filing_deadline.clone(),
            withdrawn: doc.withdrawal.is_some(),
            withdrawal_reason: doc.withdrawal.as_ref().map(|w| w.reason.clone()),
            replaces: doc.replaces.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TODAY: &str = "2026-07-10";

    #[test]
    fn citation_numbers_have_one_shape() {
        assert!(is_citation_number("WPD-2026-000123"));
        for bad in [
            "WPD-2026-12",
            "wpd-2026-000123",
            "WPD-2026-00012x",
            "=HYPERLINK()",
        ] {
            assert!(!is_citation_number(bad), "{bad}");
        }
    }

    #[test]
    fn a_guilty_finding_needs_the_offences_own_fine_and_costs() {
        let mut d = Disposition {
            kind: DispositionKind::Guilty,
            on: "2026-07-09".into(),
            hearing_on: None,
            paid_cents: None,
            fine_cents: None,
            costs_cents: None,
            reason: None,
            court_words: None,
        };
        let fields: Vec<_> = d.problems(TODAY).into_iter().map(|e| e.field).collect();
        assert_eq!(fields, ["fine_cents", "costs_cents"]);
        d.fine_cents = Some(5_000);
        d.costs_cents = Some(3_500);
        assert!(d.problems(TODAY).is_empty(), "amounts in range");
        let wrong = d.fine_problem(Penalty::ARTICLE_I).expect("§52-4's fine");
        assert!(wrong.message.contains("§52-4"), "{}", wrong.message);
        let wrong = d.fine_problem(Penalty::ARTICLE_II).expect("§52-12's fine");
        assert!(
            wrong.message.contains("§52-12 sets it at $1,000.00"),
            "{}",
            wrong.message
        );
        d.fine_cents = Some(10_000);
        assert!(d.fine_problem(Penalty::ARTICLE_I).is_none());
    }

    #[test]
    fn a_fine_the_court_set_otherwise_is_recorded_with_the_courts_words() {
        let mut d = Disposition {
            kind: DispositionKind::Guilty,
            on: "2026-07-09".into(),
            hearing_on: None,
            paid_cents: None,
            fine_cents: Some(5_000),
            costs_cents: Some(3_500),
            reason: None,
            court_words: Some("   ".into()),
        };
        assert!(d.departs(Penalty::ARTICLE_I));
        let refused = d.fine_problem(Penalty::ARTICLE_I).expect("words needed");
        assert_eq!(refused.field, "court_words");
        assert!(refused.message.contains("quote the court's order"));
        d.court_words = Some("Fine reduced to $50.00 on the defendant's motion.".into());
        assert!(d.fine_problem(Penalty::ARTICLE_I).is_none(), "recorded");
        assert!(d.problems(TODAY).is_empty());
        // Compared with the citation's own fine and section: a citation that
        // states $1,000.00 under §52-12 is not measured against §52-4.
        d.fine_cents = Some(100_000);
        assert!(!d.departs(Penalty::ARTICLE_II));
        assert!(d.departs(Penalty::ARTICLE_I));
        d.court_words = Some("x".repeat(MAX_COURT_WORDS_CHARS + 1));
        assert_eq!(d.problems(TODAY)[0].field, "court_words");
    }

    #[test]
    fn a_contest_needs_a_hearing_date_and_a_payment_an_amount() {
        let contested = Disposition {
            kind: DispositionKind::Contested,
            on: "2026-07-09".into(),
            hearing_on: None,
            paid_cents: None,
            fine_cents: None,
            costs_cents: None,
            reason: None,
            court_words: None,
        };
        assert_eq!(contested.problems(TODAY)[0].field, "hearing_on");
        let paid = Disposition {
            kind: DispositionKind::Paid,
            paid_cents: Some(0),
            ..contested
        };
        assert_eq!(paid.problems(TODAY)[0].field, "paid_cents");
    }

    #[test]
    fn a_hearing_on_a_day_the_court_does_not_sit_is_refused_with_the_day_named() {
        let mut d = Disposition {
            kind: DispositionKind::Contested,
            on: "2026-12-07".into(),
            hearing_on: Some("2026-12-25".into()),
            paid_cents: None,
            fine_cents: None,
            costs_cents: None,
            reason: None,
            court_words: None,
        };
        let refused = d.hearing_problem(None).expect("Christmas Day");
        assert_eq!(refused.field, "hearing_on");
        assert!(
            refused.message.contains("2026-12-25 is Christmas Day"),
            "{}",
            refused.message
        );
        d.hearing_on = Some("2026-12-28".into());
        assert!(d.hearing_problem(None).is_none());
        let list = vec!["2026-12-28".to_owned()];
        assert!(d.hearing_problem(Some(&list)).is_some());
    }

    #[test]
    fn dates_in_the_future_are_refused() {
        let filing = Filing {
            numbers: vec!["WPD-2026-000001".into()],
            filed_on: "2026-07-11".into(),
            reference: "YORDC-CV-26-1".into(),
        };
        assert_eq!(filing.problems(TODAY)[0].field, "filed_on");
    }

    #[test]
    fn the_calendar_groups_hearings_by_their_day_with_its_weekday() {
        let row = |number: &str, date: &str| CourtRow {
            number: number.to_owned(),
            subject: "Sam Person".to_owned(),
            offence: crate::ordinance::Offence::ALL[0],
            status: crate::model::incident::CitationStatus::Filed,
            issued_text: String::new(),
            filed_on: None,
            filing_reference: None,
            court_date: date.to_owned(),
            disposition: Some(DispositionKind::Contested),
            fine_departure: None,
            withdrawn: None,
            replaces: None,
            replaced_by: None,
        };
        let calendar = HearingCalendar::by_day(
            "2026-12-07".to_owned(),
            vec![
                row("WPD-2026-000001", "2026-12-08"),
                row("WPD-2026-000002", "2026-12-08"),
                row("WPD-2026-000003", "2026-12-10"),
            ],
        );
        let days: Vec<_> = calendar
            .days
            .iter()
            .map(|d| (d.day_text.as_str(), d.hearings.len()))
            .collect();
        assert_eq!(
            days,
            [("Tuesday 2026-12-08", 2), ("Thursday 2026-12-10", 1)]
        );
    }
}
