//! An Article I incident report as the officer's phone sends it, and what the
//! server answers. Validation lives here, shared by phone and server, so the
//! officer sees the same field errors before and after pressing submit.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{AppError, FieldError};
use crate::ordinance::time::CLOCK_TOLERANCE_MS;
use crate::ordinance::Moment;
use crate::ordinance::{
    self, Conduct, Decision, DispersalOrder, Facts, Finding, Offence, Outcome, PlaceType,
    ProtectedActivity, Response,
};

/// Longest narrative accepted (issue #5: 20 000 characters).
pub const MAX_NARRATIVE_CHARS: usize = 20_000;
/// Longest name, address or other short field.
pub const MAX_SHORT_CHARS: usize = 200;
/// Most persons in one incident.
pub const MAX_SUBJECTS: usize = 50;

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GpsFix {
    pub latitude: f64,
    pub longitude: f64,
    /// Metres, as the phone reported.
    pub accuracy_m: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Location {
    /// Street address or landmark ("Mile Road at Atlantic Ave", "Wells Beach, main lot").
    pub text: String,
    pub place: PlaceType,
    pub gps: Option<GpsFix>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdType {
    DriverLicense,
    StateId,
    Passport,
    Other,
}

impl IdType {
    pub const ALL: [IdType; 4] = [
        IdType::DriverLicense,
        IdType::StateId,
        IdType::Passport,
        IdType::Other,
    ];
    pub const fn label(self) -> &'static str {
        match self {
            IdType::DriverLicense => "Driver's license",
            IdType::StateId => "State ID",
            IdType::Passport => "Passport",
            IdType::Other => "Other",
        }
    }
    pub const fn code(self) -> &'static str {
        match self {
            IdType::DriverLicense => "driver_license",
            IdType::StateId => "state_id",
            IdType::Passport => "passport",
            IdType::Other => "other",
        }
    }
    pub fn from_code(code: &str) -> Option<IdType> {
        Self::ALL.iter().copied().find(|t| t.code() == code)
    }
}

/// Who the person is: identified, or described when they would not or could not
/// be identified.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Identity {
    Identified {
        full_name: String,
        /// `YYYY-MM-DD`
        date_of_birth: String,
        address: String,
        id_type: Option<IdType>,
        id_number: Option<String>,
    },
    Described {
        description: String,
    },
}

impl Identity {
    /// The name, or the description, for lists.
    pub fn display(&self) -> String {
        match self {
            Identity::Identified { full_name, .. } => full_name.clone(),
            Identity::Described { description } => format!("Unidentified: {description}"),
        }
    }
}

macro_rules! choice_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident => $code:literal, $label:literal;)* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name { $(#[serde(rename = $code)] $variant,)* }
        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];
            pub const fn code(self) -> &'static str { match self { $($name::$variant => $code,)* } }
            pub const fn label(self) -> &'static str { match self { $($name::$variant => $label,)* } }
            pub fn from_code(code: &str) -> Option<$name> { Self::ALL.iter().copied().find(|v| v.code() == code) }
        }
    };
}

choice_enum! {
    /// The officer's perception, for bias audits; never asked of the person.
    AgeRange {
        Under18 => "under_18", "Under 18";
        From18To24 => "18_24", "18–24";
        From25To34 => "25_34", "25–34";
        From35To49 => "35_49", "35–49";
        From50To64 => "50_64", "50–64";
        From65 => "65_plus", "65 or over";
        Unknown => "unknown", "Cannot tell";
    }
}

choice_enum! {
    /// The officer's perception, for bias audits; never asked of the person.
    PerceivedSex {
        Male => "male", "Male";
        Female => "female", "Female";
        Unknown => "unknown", "Cannot tell";
    }
}

choice_enum! {
    /// The officer's perception, for bias audits; never asked of the person.
    PerceivedRace {
        White => "white", "White";
        Black => "black", "Black";
        Hispanic => "hispanic", "Hispanic or Latino";
        Asian => "asian", "Asian";
        NativeAmerican => "native_american", "American Indian or Alaska Native";
        PacificIslander => "pacific_islander", "Native Hawaiian or Pacific Islander";
        MiddleEastern => "middle_eastern", "Middle Eastern or North African";
        Unknown => "unknown", "Cannot tell";
    }
}

/// Recorded separately from identity, whatever the person said or showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Perceived {
    pub age_range: AgeRange,
    pub sex: PerceivedSex,
    pub race: PerceivedRace,
}

/// The offence charged to a person, and whether the officer issues a citation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Charge {
    pub offence: Offence,
    pub issue_citation: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubjectEntry {
    /// Made on the phone: keeps the person's identity across retries and corrections.
    pub subject_id: Uuid,
    pub identity: Identity,
    pub perceived: Perceived,
    pub response: Response,
    /// `None`: no offence charged to this person.
    pub charge: Option<Charge>,
}

/// The whole report. Submitting it again with the same `incident_id` is harmless.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IncidentReport {
    /// Made on the phone (UUID v7) before the first attempt to send.
    pub incident_id: Uuid,
    pub occurred_at: Moment,
    pub location: Location,
    pub protected_activity: ProtectedActivity,
    pub conduct: Conduct,
    pub order: Option<DispersalOrder>,
    pub narrative: String,
    pub subjects: Vec<SubjectEntry>,
}

impl IncidentReport {
    /// The facts the rules decide on.
    pub fn facts(&self) -> Facts {
        Facts {
            place: self.location.place,
            protected_activity: self.protected_activity,
            conduct: self.conduct,
            order: self.order.clone(),
            narrative: self.narrative.clone(),
        }
    }
}

/// The rules' word on one person: the decision on the offence charged (if any)
/// and the outcome, or the reasons a requested citation cannot issue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubjectVerdict {
    pub subject_id: Uuid,
    pub decision: Option<Decision>,
    pub outcome: Result<Outcome, Vec<Finding>>,
}

/// Asks the rules about every person of the report, exactly as the server will.
pub fn verdicts(report: &IncidentReport, now: Moment) -> Vec<SubjectVerdict> {
    let facts = report.facts();
    report
        .subjects
        .iter()
        .map(|s| {
            let decision = s
                .charge
                .map(|c| ordinance::decide(&facts, s.response, c.offence, now));
            let cite = s.charge.is_some_and(|c| c.issue_citation);
            let outcome = ordinance::outcome(
                decision.as_ref(),
                cite,
                report.protected_activity,
                s.response,
            );
            SubjectVerdict {
                subject_id: s.subject_id,
                decision,
                outcome,
            }
        })
        .collect()
}

fn too_long(text: &str, max: usize) -> bool {
    text.chars().count() > max
}

fn has_control(text: &str) -> bool {
    // Newlines and tabs are fine in a narrative; other control characters (and
    // the bidirectional overrides that can disguise text) are not.
    text.chars().any(|c| {
        (c.is_control() && c != '\n' && c != '\r' && c != '\t')
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    })
}

/// Checks a short one-line text field.
fn short_text(
    errors: &mut Vec<FieldError>,
    field: String,
    text: &str,
    label: &str,
    required: bool,
) {
    if required && text.trim().is_empty() {
        errors.push(FieldError::new(field, format!("{label}: required.")));
    } else if too_long(text, MAX_SHORT_CHARS) {
        errors.push(FieldError::new(
            field,
            format!("{label}: at most {MAX_SHORT_CHARS} characters."),
        ));
    } else if has_control(text) || text.contains('\n') {
        errors.push(FieldError::new(
            field,
            format!("{label}: one line of plain text."),
        ));
    }
}

/// A `YYYY-MM-DD` date that exists; returns (year, month, day).
pub fn parse_date(text: &str) -> Option<(i32, u32, u32)> {
    let mut parts = text.trim().splitn(3, '-');
    let y: i32 = parts.next()?.parse().ok()?;
    let m: u32 = parts.next()?.parse().ok()?;
    let d: u32 = parts.next()?.parse().ok()?;
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (text.trim().len() == 10 && (1..=days).contains(&d)).then_some((y, m, d))
}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
pub fn days_from_civil(y: i32, m: u32, d: u32) -> i64 {
    let y = i64::from(if m <= 2 { y - 1 } else { y });
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn future(at: Moment, now: Moment) -> bool {
    at.0 > now.0 + CLOCK_TOLERANCE_MS
}

/// Everything wrong with the report as data: sizes, formats, impossible or future
/// times, duplicate persons. Field paths match the form's inputs.
pub fn problems(report: &IncidentReport, now: Moment) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if report.incident_id.get_version_num() != 7 && report.incident_id.get_version_num() != 4 {
        errors.push(FieldError::new(
            "incident_id",
            "The report id must be a UUID made by the phone.",
        ));
    }
    if future(report.occurred_at, now) {
        errors.push(FieldError::new(
            "occurred_at",
            "The time of the incident is in the future.",
        ));
    }
    if report.occurred_at.0 < now.0 - 366 * 24 * 3_600_000 {
        errors.push(FieldError::new(
            "occurred_at",
            "The time of the incident is more than a year ago — check the date.",
        ));
    }
    short_text(
        &mut errors,
        "location.text".into(),
        &report.location.text,
        "Location",
        true,
    );
    if let Some(gps) = report.location.gps {
        let valid = gps.latitude.is_finite()
            && gps.longitude.is_finite()
            && gps.accuracy_m.is_finite()
            && (-90.0..=90.0).contains(&gps.latitude)
            && (-180.0..=180.0).contains(&gps.longitude)
            && (0.0..=100_000.0).contains(&gps.accuracy_m);
        if !valid {
            errors.push(FieldError::new(
                "location.gps",
                "GPS fix out of range: latitude −90…90, longitude −180…180, accuracy 0…100 000 m.",
            ));
        }
    }
    if report.narrative.trim().is_empty() {
        errors.push(FieldError::new(
            "narrative",
            "Narrative: describe what the person did (conduct, not status).",
        ));
    } else if too_long(&report.narrative, MAX_NARRATIVE_CHARS) {
        errors.push(FieldError::new(
            "narrative",
            format!("Narrative: at most {MAX_NARRATIVE_CHARS} characters."),
        ));
    } else if has_control(&report.narrative) {
        errors.push(FieldError::new(
            "narrative",
            "Narrative: remove control characters.",
        ));
    }
    if let Some(order) = &report.order {
        if too_long(&order.words, 2_000) || has_control(&order.words) {
            errors.push(FieldError::new(
                "order.words",
                "The words of the order: at most 2 000 characters of plain text.",
            ));
        }
        if future(order.given_at, now) {
            errors.push(FieldError::new(
                "order.given_at",
                "§52-1 D: the time the order was given is in the future.",
            ));
        }
        if order.minutes_to_comply > 24 * 60 {
            errors.push(FieldError::new(
                "order.minutes_to_comply",
                "Time allowed to comply: at most 24 hours.",
            ));
        }
    }
    if report.subjects.is_empty() {
        errors.push(FieldError::new("subjects", "Add at least one person."));
    }
    if report.subjects.len() > MAX_SUBJECTS {
        errors.push(FieldError::new(
            "subjects",
            format!("At most {MAX_SUBJECTS} persons in one incident."),
        ));
    }
    let mut seen_ids = Vec::new();
    let mut seen_people: Vec<(String, String)> = Vec::new();
    for (i, s) in report.subjects.iter().enumerate() {
        let f = |name: &str| format!("subjects.{i}.{name}");
        if seen_ids.contains(&s.subject_id) {
            errors.push(FieldError::new(
                f("subject_id"),
                "The same person is listed twice.",
            ));
        }
        seen_ids.push(s.subject_id);
        match &s.identity {
            Identity::Identified {
                full_name,
                date_of_birth,
                address,
                id_type,
                id_number,
            } => {
                short_text(&mut errors, f("full_name"), full_name, "Name", true);
                short_text(&mut errors, f("address"), address, "Address", true);
                match parse_date(date_of_birth) {
                    None => errors.push(FieldError::new(
                        f("date_of_birth"),
                        "Date of birth: a real date, as YYYY-MM-DD.",
                    )),
                    Some((y, m, d)) => {
                        let day = days_from_civil(y, m, d) * 86_400_000;
                        if day > now.0 || day < now.0 - 120 * 366 * 86_400_000 {
                            errors.push(FieldError::new(
                                f("date_of_birth"),
                                "Date of birth: not in the future, nor more than 120 years ago.",
                            ));
                        }
                    }
                }
                if let Some(number) = id_number {
                    short_text(&mut errors, f("id_number"), number, "ID number", false);
                    if id_type.is_none() && !number.trim().is_empty() {
                        errors.push(FieldError::new(
                            f("id_type"),
                            "Say what kind of ID the number is from.",
                        ));
                    }
                }
                let key = (
                    full_name.trim().to_lowercase(),
                    date_of_birth.trim().to_owned(),
                );
                if !key.0.is_empty() && seen_people.contains(&key) {
                    errors.push(FieldError::new(
                        f("full_name"),
                        "This person (same name and date of birth) is already listed.",
                    ));
                }
                seen_people.push(key);
            }
            Identity::Described { description } => {
                short_text(
                    &mut errors,
                    f("description"),
                    description,
                    "Description",
                    true,
                );
            }
        }
        if let Some(at) = s.response.at() {
            if future(at, now) {
                errors.push(FieldError::new(
                    f("response.at"),
                    "The time of the response is in the future.",
                ));
            }
        }
        if matches!(
            s.response,
            Response::Complied { .. } | Response::Refused { .. }
        ) && report.order.is_none()
        {
            errors.push(FieldError::new(
                f("response"),
                "§52-1 D: a response to an order needs the order — record it, or choose “no order”.",
            ));
        }
        if let Some(charge) = s.charge {
            if report.protected_activity.is_protected() && charge.offence.is_section_52_1() {
                errors.push(FieldError::new(
                    f("charge"),
                    "§52-1 E: protected activity — §52-1 offences cannot be charged.",
                ));
            }
        }
    }
    errors
}

/// The rules' refusals, as field errors: each person asked to be cited whose
/// decision does not allow it.
pub fn refusals(verdicts: &[SubjectVerdict]) -> Vec<FieldError> {
    verdicts
        .iter()
        .enumerate()
        .flat_map(|(i, v)| match &v.outcome {
            Ok(_) => Vec::new(),
            Err(reasons) if reasons.is_empty() => vec![FieldError::new(
                format!("subjects.{i}.charge"),
                "Choose the offence before issuing a citation.",
            )],
            Err(reasons) => reasons
                .iter()
                .map(|r| FieldError::new(format!("subjects.{i}.charge"), r.message.clone()))
                .collect(),
        })
        .collect()
}

/// Validates the whole report, data and law; the server calls exactly this.
pub fn check(report: &IncidentReport, now: Moment) -> Result<Vec<SubjectVerdict>, AppError> {
    let mut errors = problems(report, now);
    let verdicts = verdicts(report, now);
    if errors.is_empty() {
        errors = refusals(&verdicts);
    }
    AppError::unless_any(errors).map(|()| verdicts)
}

/// Where a report is in its life (DESIGN §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportStatus {
    /// Waiting for the chief's review.
    Submitted,
    /// Sent back by the chief with a reason; the officer corrects and resubmits.
    Returned,
    /// Reviewed and approved by the chief.
    Approved,
}

impl ReportStatus {
    pub const fn code(self) -> &'static str {
        match self {
            ReportStatus::Submitted => "submitted",
            ReportStatus::Returned => "returned",
            ReportStatus::Approved => "approved",
        }
    }
    pub fn from_code(code: &str) -> Option<ReportStatus> {
        [
            ReportStatus::Submitted,
            ReportStatus::Returned,
            ReportStatus::Approved,
        ]
        .into_iter()
        .find(|s| s.code() == code)
    }
    pub const fn label(self) -> &'static str {
        match self {
            ReportStatus::Submitted => "Submitted — awaiting review",
            ReportStatus::Returned => "Returned for correction",
            ReportStatus::Approved => "Approved",
        }
    }
}

/// Where a citation is in its life: issued → approved → filed → disposed, with
/// returned and void (the number stays used).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CitationStatus {
    Issued,
    Returned,
    Approved,
    Filed,
    Disposed,
    Void,
}

impl CitationStatus {
    pub const ALL: [CitationStatus; 6] = [
        CitationStatus::Issued,
        CitationStatus::Returned,
        CitationStatus::Approved,
        CitationStatus::Filed,
        CitationStatus::Disposed,
        CitationStatus::Void,
    ];
    pub const fn code(self) -> &'static str {
        match self {
            CitationStatus::Issued => "issued",
            CitationStatus::Returned => "returned",
            CitationStatus::Approved => "approved",
            CitationStatus::Filed => "filed",
            CitationStatus::Disposed => "disposed",
            CitationStatus::Void => "void",
        }
    }
    pub fn from_code(code: &str) -> Option<CitationStatus> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }
    pub const fn label(self) -> &'static str {
        match self {
            CitationStatus::Issued => "Issued — awaiting review",
            CitationStatus::Returned => "Returned for correction",
            CitationStatus::Approved => "Approved — for the clerk to file",
            CitationStatus::Filed => "Filed with the court",
            CitationStatus::Disposed => "Disposed by the court",
            CitationStatus::Void => "Void",
        }
    }
}

/// One citation as lists show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CitationBrief {
    pub number: String,
    pub subject: String,
    pub offence: Offence,
    pub status: CitationStatus,
    pub arrest: bool,
}

/// The server's answer to a submit: what was stored and the citation numbers. A
/// retry of the same report gets the same receipt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Receipt {
    pub incident_id: Uuid,
    pub status: ReportStatus,
    pub outcomes: Vec<(Uuid, Outcome)>,
    pub citations: Vec<CitationBrief>,
    /// True when this submit was a retry of one already stored.
    pub already_stored: bool,
}

/// A row of the officer's "My reports".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportSummary {
    pub incident_id: Uuid,
    pub occurred_at: Moment,
    pub occurred_text: String,
    pub location: String,
    pub status: ReportStatus,
    pub return_reason: Option<String>,
    pub subjects: Vec<(String, Outcome)>,
    pub citations: Vec<CitationBrief>,
}
