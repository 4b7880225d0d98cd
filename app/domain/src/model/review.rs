//! The chief's desk: the review queue, decisions, the register and full reports
//! with their history (issue #6). Shared by the server functions and the pages.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::model::incident::{
    AgeRange, CitationBrief, CitationStatus, IncidentReport, PerceivedRace, PerceivedSex,
    ReportStatus, MAX_SHORT_CHARS,
};
use crate::ordinance::{Caution, Offence, Outcome, ProtectedActivity};

/// What the chief should look at before approving. Most come from the rules
/// (`ordinance::Caution`); the GPS one is a check on the record itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CautionKind {
    /// A person was expressing an opinion: in a §52-2 or §52-3 case (the
    /// rules' caution), or answered under §52-1 E (issue #37: the filter finds
    /// every report the dashboard's §52-1 E figure counts).
    Expression,
    /// A §52-3 case rests on songs or words.
    Speech,
    /// The narrative or a person's description describes who the person is
    /// rather than what they did.
    StatusWords,
    /// Refusal recorded before the time allowed to comply had passed: on
    /// reports stored under the first version of the rules, which let it
    /// through with this caution, and (issue #37) on every report whose
    /// refusal counts at once as an outright refusal (§52-1 D).
    EarlyRefusal,
    /// The GPS fix is far from where earlier reports at the same typed location
    /// were made: the address or the fix may be wrong.
    GpsFar,
    /// A §52-1 A(3) decision: "annoyance" (Coates v. Cincinnati).
    Annoyance,
    /// An arrest for an offence punishable by a fine only (§52-2, §52-4).
    ArrestAuthority,
    /// Expression set outside §52-1 E only because it contravened another law.
    Contravening,
    /// §52-1 and §52-2 cited on the same refusal.
    TwoSections,
    /// A person under 18 (or arrested while under 18).
    Minor,
    /// A citation asked for a person not identified: held from filing.
    Unidentified,
}

impl CautionKind {
    pub const ALL: [CautionKind; 11] = [
        CautionKind::Expression,
        CautionKind::Speech,
        CautionKind::StatusWords,
        CautionKind::EarlyRefusal,
        CautionKind::GpsFar,
        CautionKind::Annoyance,
        CautionKind::ArrestAuthority,
        CautionKind::Contravening,
        CautionKind::TwoSections,
        CautionKind::Minor,
        CautionKind::Unidentified,
    ];

    pub const fn code(self) -> &'static str {
        match self {
            CautionKind::Expression => "expression",
            CautionKind::Speech => "speech",
            CautionKind::StatusWords => "status_words",
            CautionKind::EarlyRefusal => "early_refusal",
            CautionKind::GpsFar => "gps_far",
            CautionKind::Annoyance => "annoyance",
            CautionKind::ArrestAuthority => "arrest_authority",
            CautionKind::Contravening => "contravening",
            CautionKind::TwoSections => "two_sections",
            CautionKind::Minor => "minor",
            CautionKind::Unidentified => "unidentified",
        }
    }

    /// As the queue's badges and filter name it.
    pub const fn label(self) -> &'static str {
        match self {
            CautionKind::Expression => "Expression involved (§52-1 E)",
            CautionKind::Speech => "Songs or words are the basis (§52-3)",
            CautionKind::StatusWords => "Status words in the record",
            CautionKind::EarlyRefusal => "Refused before the time allowed (§52-1 D)",
            CautionKind::GpsFar => "GPS far from the typed location",
            CautionKind::Annoyance => "“Annoyance” in the case (§52-1 A(3))",
            CautionKind::ArrestAuthority => "Arrest for a fine-only offence (§52-2, §52-4)",
            CautionKind::Contravening => "Expression contravening another law (§52-1 E)",
            CautionKind::TwoSections => "§52-1 and §52-2 cited on one refusal",
            CautionKind::Minor => "A person under 18",
            CautionKind::Unidentified => "Cited but not identified — held from filing",
        }
    }

    pub fn from_code(code: &str) -> Option<CautionKind> {
        Self::ALL.into_iter().find(|k| k.code() == code)
    }

    pub const fn of(caution: &Caution) -> CautionKind {
        match caution {
            Caution::ExpressionInvolved { .. } => CautionKind::Expression,
            Caution::SpeechBasis { .. } => CautionKind::Speech,
            Caution::StatusWords { .. } => CautionKind::StatusWords,
            Caution::AnnoyanceBasis => CautionKind::Annoyance,
            Caution::ArrestFineOnly => CautionKind::ArrestAuthority,
            Caution::ExpressionContravening { .. } => CautionKind::Contravening,
            Caution::TwoSectionsOneRefusal => CautionKind::TwoSections,
            Caution::Minor { .. } | Caution::MinorArrested { .. } => CautionKind::Minor,
            Caution::Unidentified { .. } => CautionKind::Unidentified,
        }
    }
}

/// What the record itself shows the chief should look at, besides the rules'
/// cautions (issue #37, finding 4), each with its words:
/// - a person's §52-1 E answer is expression (picketing, speaking, another
///   lawful expression): "Expression involved" finds every such report, as the
///   dashboard's §52-1 E figure counts them, not only the §52-2 and §52-3 ones
///   the rules caution on;
/// - a refusal recorded before the time allowed to comply had passed: lawful
///   only as an outright refusal, which counts at once (§52-1 D, the
///   department's reading 3); the chief checks the manner against the narrative.
pub fn record_cautions(report: &IncidentReport) -> Vec<(CautionKind, String)> {
    let mut out = Vec::new();
    for s in &report.subjects {
        let who = crate::model::wording::who(&s.identity);
        let answer = s.facts.protected_activity;
        if answer.is_protected() {
            out.push((
                CautionKind::Expression,
                format!(
                    "§52-1 E: {who} — {}. §52-1 does not apply to them; check that what is \
                     recorded of them is conduct, not the expression.",
                    answer.label().to_lowercase()
                ),
            ));
        }
        let order = s.facts.order.and_then(|k| report.orders.get(k));
        if let (crate::ordinance::Response::Refused { at, manner }, Some(order)) =
            (s.facts.response, order)
        {
            if at < order.failure_counts_from() {
                out.push((
                    CautionKind::EarlyRefusal,
                    format!(
                        "§52-1 D: {who}'s refusal is recorded before the time allowed to comply \
                         had passed ({} minute(s) from the order, and never in its own minute): \
                         it counts only as an outright refusal — “{}”. Check the manner against \
                         the narrative.",
                        order.minutes_to_comply,
                        manner.label()
                    ),
                ));
            }
        }
    }
    out
}

/// Metres beyond which a GPS fix is "far" from earlier reports at the same typed
/// location. Wells's beaches and Route 1 landmarks are a few hundred metres long.
pub const GPS_FAR_METRES: f64 = 400.0;

/// Great-circle distance in metres (haversine; the Earth's mean radius).
pub fn distance_m(a: (f64, f64), b: (f64, f64)) -> f64 {
    let (lat1, lon1) = (a.0.to_radians(), a.1.to_radians());
    let (lat2, lon2) = (b.0.to_radians(), b.1.to_radians());
    let h = ((lat2 - lat1) / 2.0).sin().powi(2)
        + lat1.cos() * lat2.cos() * ((lon2 - lon1) / 2.0).sin().powi(2);
    2.0 * 6_371_000.0 * h.sqrt().asin()
}

/// Filters of the review queue and the register. Dates are the Town's calendar
/// dates, `YYYY-MM-DD`, both ends included.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ReportFilter {
    #[serde(default)]
    pub officer: Option<Uuid>,
    #[serde(default)]
    pub offence: Option<Offence>,
    #[serde(default)]
    pub outcome: Option<Outcome>,
    #[serde(default)]
    pub caution: Option<CautionKind>,
    #[serde(default)]
    pub status: Option<ReportStatus>,
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub to: Option<String>,
    /// Citation number, subject name (start of), or location (start of).
    #[serde(default)]
    pub text: Option<String>,
    // The dashboard's figures link to the register rows behind them; these
    // narrow it the way each figure counts.
    /// The §52-1 E answer.
    #[serde(default)]
    pub protected: Option<ProtectedActivity>,
    /// Hour of the day in the Town's time, 0–23.
    #[serde(default)]
    pub hour: Option<u8>,
    /// Day of the week in the Town's time, 0 = Monday.
    #[serde(default)]
    pub weekday: Option<u8>,
    /// The typed location, exactly (ignoring case).
    #[serde(default)]
    pub location: Option<String>,
    /// A GPS cell of the dashboard's map grid.
    #[serde(default)]
    pub cell: Option<GpsCell>,
    /// A person perceived so (bias audit); with `offence` and `outcome` the same
    /// person must match all three.
    #[serde(default)]
    pub age: Option<AgeRange>,
    #[serde(default)]
    pub sex: Option<PerceivedSex>,
    #[serde(default)]
    pub race: Option<PerceivedRace>,
    /// A person who answered the order so (§52-1 D).
    #[serde(default)]
    pub response: Option<ResponseKind>,
    /// Reports with at least one citation that is not void.
    #[serde(default)]
    pub cited: Option<bool>,
    /// Reports the chief returned, or with a citation voided.
    #[serde(default)]
    pub decided: Option<DecidedKind>,
}

/// A person's response to the order, without its time (as `subject.response`
/// stores it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseKind {
    NoOrder,
    LeftBeforeOrder,
    Complied,
    Refused,
}

impl ResponseKind {
    pub const fn code(self) -> &'static str {
        match self {
            ResponseKind::NoOrder => "no_order",
            ResponseKind::LeftBeforeOrder => "left_before_order",
            ResponseKind::Complied => "complied",
            ResponseKind::Refused => "refused",
        }
    }
}

/// A chief's decision the register can look for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecidedKind {
    Return,
    Void,
}

impl DecidedKind {
    pub const fn code(self) -> &'static str {
        match self {
            DecidedKind::Return => "return",
            DecidedKind::Void => "void",
        }
    }
}

/// Cells of the dashboard's location grid, in 1/200 of a degree (about 550 m
/// north–south and 400 m east–west at Wells): small enough to tell Drakes
/// Island from Wells Beach, large enough to gather fixes of one place.
pub const CELLS_PER_DEGREE: f64 = 200.0;

/// A GPS grid cell, written `lat_index:lon_index` (counted from 90° S, 180° W, so
/// both are positive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GpsCell {
    pub lat_index: i64,
    pub lon_index: i64,
}

impl GpsCell {
    pub fn of(latitude: f64, longitude: f64) -> GpsCell {
        GpsCell {
            lat_index: ((latitude + 90.0) * CELLS_PER_DEGREE) as i64,
            lon_index: ((longitude + 180.0) * CELLS_PER_DEGREE) as i64,
        }
    }
    /// The cell's centre, as latitude and longitude.
    pub fn centre(self) -> (f64, f64) {
        (
            (self.lat_index as f64 + 0.5) / CELLS_PER_DEGREE - 90.0,
            (self.lon_index as f64 + 0.5) / CELLS_PER_DEGREE - 180.0,
        )
    }
}

impl std::fmt::Display for GpsCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.lat_index, self.lon_index)
    }
}

impl std::str::FromStr for GpsCell {
    type Err = ();
    fn from_str(s: &str) -> Result<GpsCell, ()> {
        let (a, b) = s.split_once(':').ok_or(())?;
        let cell = GpsCell {
            lat_index: a.trim().parse().map_err(|_| ())?,
            lon_index: b.trim().parse().map_err(|_| ())?,
        };
        let max_lat = (180.0 * CELLS_PER_DEGREE) as i64;
        let max_lon = (360.0 * CELLS_PER_DEGREE) as i64;
        ((0..=max_lat).contains(&cell.lat_index) && (0..=max_lon).contains(&cell.lon_index))
            .then_some(cell)
            .ok_or(())
    }
}

impl Serialize for GpsCell {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for GpsCell {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GpsCell, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|()| serde::de::Error::custom("cell: lat_index:lon_index of the grid"))
    }
}

impl ReportFilter {
    /// Rejects dates that are not dates and text that is not one short line.
    pub fn problems(&self) -> Vec<FieldError> {
        let mut errors = Vec::new();
        for (field, value) in [("from", &self.from), ("to", &self.to)] {
            if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
                if crate::model::incident::parse_date(v).is_none() {
                    errors.push(FieldError::new(
                        field,
                        format!("{field}: a date as YYYY-MM-DD."),
                    ));
                }
            }
        }
        if let (Some(from), Some(to)) = (self.from.as_deref(), self.to.as_deref()) {
            if !from.is_empty() && !to.is_empty() && from > to {
                errors.push(FieldError::new("to", "to: on or after the from date."));
            }
        }
        for (field, value) in [("text", &self.text), ("location", &self.location)] {
            if value
                .as_deref()
                .is_some_and(|t| t.chars().count() > MAX_SHORT_CHARS)
            {
                errors.push(FieldError::new(
                    field,
                    format!("{field}: at most {MAX_SHORT_CHARS} characters."),
                ));
            }
        }
        if self.hour.is_some_and(|h| h > 23) {
            errors.push(FieldError::new("hour", "hour: 0 to 23."));
        }
        if self.weekday.is_some_and(|d| d > 6) {
            errors.push(FieldError::new("weekday", "weekday: 0 (Monday) to 6."));
        }
        errors
    }
}

/// One person as the chief's lists show them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubjectLine {
    pub label: String,
    pub outcome: Outcome,
    /// Every offence charged to the person.
    pub offences: Vec<Offence>,
    /// The person's citations, one per offence cited (void ones included).
    pub citations: Vec<CitationBrief>,
    /// Date of birth, address and identity document, as recorded (the full
    /// report shows them; lists do not).
    #[serde(default)]
    pub details: Option<String>,
}

impl SubjectLine {
    /// The offences to show beside the person: none for a person who complied,
    /// left or was protected — an offence code beside "no violation" reads as
    /// an accusation.
    pub fn offences_shown(&self) -> &[Offence] {
        match self.outcome {
            Outcome::Cited | Outcome::Arrested | Outcome::CitedGathering | Outcome::Warned => {
                &self.offences
            }
            Outcome::Complied | Outcome::Departed | Outcome::ProtectedActivity => &[],
        }
    }

    /// Every citation of the person is void (the chief voided it, or a
    /// correction stopped citing): the record no longer cites them.
    pub fn citations_void(&self) -> bool {
        !self.citations.is_empty()
            && self
                .citations
                .iter()
                .all(|c| c.status == crate::model::incident::CitationStatus::Void)
    }

    /// The person's outcome as a list shows it: once every citation is void it
    /// no longer says "Cited" with the fine (issue #37, finding 5); an
    /// arrest stays what happened.
    pub fn outcome_text(&self) -> String {
        if !self.citations_void() {
            return self.outcome.label();
        }
        match self.outcome {
            Outcome::Arrested => "Arrested — citation void, no fine".to_owned(),
            _ => "Citation void — no fine".to_owned(),
        }
    }
}

/// The most reports the review queue lists at once, oldest first: a count of
/// what it returned is a count of what waits only below it.
pub const QUEUE_LIMIT: usize = 200;

/// How many reports wait, counted up to `QUEUE_LIMIT`: at the limit it says "or
/// more" rather than a number that is not the count.
pub fn waiting_in_all(counted: usize) -> String {
    let n = crate::model::text::grouped(counted as i64);
    match counted {
        1 => "1 report waits".to_owned(),
        l if l >= QUEUE_LIMIT => format!("{n} or more reports wait"),
        _ => format!("{n} reports wait"),
    }
}

/// A row of the review queue or the register.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportRow {
    pub incident_id: Uuid,
    pub revision: i64,
    pub status: ReportStatus,
    pub officer: String,
    pub occurred_text: String,
    pub submitted_text: String,
    pub location: String,
    pub subjects: Vec<SubjectLine>,
    pub cautions: Vec<CautionKind>,
    /// The last day to file its first citation with the court (issuance +
    /// `ordinance::FILING_DAYS`), while one is not void.
    #[serde(default)]
    pub filing_deadline: Option<String>,
}

/// Rows a register page holds.
pub const REGISTER_PAGE_ROWS: u64 = 50;

/// How far the register counts its reports (issue #37, finding 18), 200
/// pages (10,000 reports): a count stops here, so a page's place costs the
/// same at a million reports as at a thousand; past it the page says "at
/// least".
pub const REGISTER_COUNT_LIMIT: u64 = 200 * REGISTER_PAGE_ROWS;

/// A count of reports: exact, or a floor where counting stopped (past
/// `REGISTER_COUNT_LIMIT`, or after reading as many incidents as a count may).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Counted {
    Exactly(u64),
    AtLeast(u64),
}

impl Default for Counted {
    fn default() -> Self {
        Counted::Exactly(0)
    }
}

impl Counted {
    /// The number counted, exact or not.
    pub const fn n(self) -> u64 {
        match self {
            Counted::Exactly(n) | Counted::AtLeast(n) => n,
        }
    }

    /// A floor no lower than `known`: reports already seen are there, however
    /// early the count stopped.
    pub fn at_least(self, known: u64) -> Counted {
        match self {
            Counted::Exactly(n) => Counted::Exactly(n),
            Counted::AtLeast(n) => Counted::AtLeast(n.max(known)),
        }
    }
}

/// A page of the register: 50 rows, the cursor of the next page if any, the
/// way back, and where the page stands among the reports the filter finds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterPage {
    pub rows: Vec<ReportRow>,
    /// Pass back as `after` for the next page (newest first).
    pub next: Option<RegisterCursor>,
    /// The page before this one; `None` on the first page.
    #[serde(default)]
    pub previous: Option<PreviousPage>,
    /// Reports on the pages before this one, and in all.
    #[serde(default)]
    pub before: Counted,
    #[serde(default)]
    pub total: Counted,
}

/// Where the page before a register page starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PreviousPage {
    /// It is the first page.
    First,
    /// After this cursor.
    After(RegisterCursor),
}

impl RegisterPage {
    /// Where the page stands, in words: "Reports 51–100 of 2,345 · page 2 of
    /// 47". A count that stopped is said as a floor ("at least"), never as a
    /// number it is not, and then no page number is given.
    pub fn place(&self) -> String {
        use crate::model::text::grouped;
        let shown = self.rows.len() as u64;
        if shown == 0 {
            return String::new();
        }
        let Counted::Exactly(before) = self.before else {
            return format!(
                "Reports after the first {}",
                grouped(self.before.n() as i64)
            );
        };
        let (first, last) = (before + 1, before + shown);
        let span = if first == last {
            format!("Report {}", grouped(first as i64))
        } else {
            format!("Reports {}–{}", grouped(first as i64), grouped(last as i64))
        };
        let total = match self.total {
            Counted::AtLeast(n) => {
                return format!("{span} of at least {}", grouped(n.max(last) as i64));
            }
            Counted::Exactly(n) => n,
        };
        // A page starts where the one before ended: when reports arrive between
        // two pages they need not fall on multiples of 50, so the page is the
        // one its first report is on.
        let page = before / REGISTER_PAGE_ROWS + 1;
        let pages = total.div_ceil(REGISTER_PAGE_ROWS).max(page);
        format!(
            "{span} of {} · page {} of {}",
            grouped(total as i64),
            grouped(page as i64),
            grouped(pages as i64)
        )
    }
}

/// Keyset cursor: the last row's occurrence time and id, so paging stays fast
/// however deep it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterCursor {
    pub occurred_at: i64,
    pub incident_id: Uuid,
}

/// An officer, for the chief's filters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfficerOption {
    pub user_id: Uuid,
    /// Name and badge.
    pub label: String,
}

/// A chief's decision on a submitted report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ReviewAction {
    /// Its citations go to the clerk.
    Approve,
    /// Back to the officer to correct; the reason is required (DESIGN §3).
    Return { reason: String },
}

/// Longest reason accepted for a return, void or amendment.
pub const MAX_REASON_CHARS: usize = 2_000;

/// A reason is required, in plain text, of reasonable length.
pub fn reason_problems(field: &str, reason: &str, what: &str) -> Vec<FieldError> {
    if reason.trim().is_empty() {
        vec![FieldError::new(
            field,
            format!("Reason: required — nothing is {what} without one."),
        )]
    } else if reason.chars().count() > MAX_REASON_CHARS {
        vec![FieldError::new(
            field,
            format!("Reason: at most {MAX_REASON_CHARS} characters."),
        )]
    } else {
        Vec::new()
    }
}

/// One field that changed between two revisions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// JSON path, e.g. `subjects.0.response.at`.
    pub field: String,
    pub before: String,
    pub after: String,
    /// The field in words: "Alex Morgan — time of the response".
    #[serde(default)]
    pub label: String,
    /// A long text's change word by word (the narrative), so a one-word edit
    /// does not strike out the whole text; empty for short values.
    #[serde(default)]
    pub words: Vec<WordChange>,
}

/// A run of words of a text's change: kept, taken out or put in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "text", rename_all = "snake_case")]
pub enum WordChange {
    Same(String),
    Removed(String),
    Added(String),
}

/// The word-by-word change from `before` to `after` (a longest common
/// subsequence of words; runs of one kind joined). Long unchanged runs are cut
/// to a few words each side of a change.
pub fn word_changes(before: &str, after: &str) -> Vec<WordChange> {
    let a: Vec<&str> = before.split_whitespace().collect();
    let b: Vec<&str> = after.split_whitespace().collect();
    // Texts are at most 20 000 characters (a few thousand words): the table is
    // bounded, and past it the change is shown whole.
    if a.len().saturating_mul(b.len()) > 16_000_000 {
        return vec![
            WordChange::Removed(before.to_owned()),
            WordChange::Added(after.to_owned()),
        ];
    }
    let mut table = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            table[i][j] = if a[i] == b[j] {
                table[i + 1][j + 1] + 1
            } else {
                table[i + 1][j].max(table[i][j + 1])
            };
        }
    }
    let mut runs: Vec<WordChange> = Vec::new();
    let mut push = |make: fn(String) -> WordChange, word: &str| {
        let same_kind = |last: &WordChange| {
            std::mem::discriminant(last) == std::mem::discriminant(&make(String::new()))
        };
        match runs.last_mut() {
            Some(last) if same_kind(last) => {
                let (WordChange::Same(t) | WordChange::Removed(t) | WordChange::Added(t)) = last;
                t.push(' ');
                t.push_str(word);
            }
            _ => runs.push(make(word.to_owned())),
        }
    };
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            push(WordChange::Same, a[i]);
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || table[i + 1][j] >= table[i][j + 1]) {
            // What was taken out reads before what was put in.
            push(WordChange::Removed, a[i]);
            i += 1;
        } else {
            push(WordChange::Added, b[j]);
            j += 1;
        }
    }
    // Keep six words of context either side of each change.
    let last = runs.len().saturating_sub(1);
    runs.into_iter()
        .enumerate()
        .map(|(n, run)| match run {
            WordChange::Same(text) => {
                let words: Vec<&str> = text.split(' ').collect();
                if words.len() <= 12 {
                    return WordChange::Same(text);
                }
                let head = if n == 0 {
                    Vec::new()
                } else {
                    words[..6].to_vec()
                };
                let tail = if n == last {
                    Vec::new()
                } else {
                    words[words.len() - 6..].to_vec()
                };
                let mut kept = head.join(" ");
                if !kept.is_empty() {
                    kept.push(' ');
                }
                kept.push('…');
                if !tail.is_empty() {
                    kept.push(' ');
                    kept.push_str(&tail.join(" "));
                }
                WordChange::Same(kept)
            }
            other => other,
        })
        .collect()
}

/// Every leaf that differs between two reports, in path order.
pub fn changes(before: &serde_json::Value, after: &serde_json::Value) -> Vec<Change> {
    let mut a = Vec::new();
    let mut b = Vec::new();
    flatten("", before, &mut a);
    flatten("", after, &mut b);
    let a: std::collections::BTreeMap<String, String> = a.into_iter().collect();
    let b: std::collections::BTreeMap<String, String> = b.into_iter().collect();
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter_map(|k| {
            let (x, y) = (a.get(k), b.get(k));
            (x != y).then(|| Change {
                field: k.clone(),
                before: x.cloned().unwrap_or_else(|| "—".into()),
                after: y.cloned().unwrap_or_else(|| "—".into()),
                label: String::new(),
                words: Vec::new(),
            })
        })
        .collect()
}

fn flatten(prefix: &str, value: &serde_json::Value, out: &mut Vec<(String, String)>) {
    let join = |k: &str| {
        if prefix.is_empty() {
            k.to_owned()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                flatten(&join(k), v, out);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                flatten(&join(&i.to_string()), v, out);
            }
        }
        serde_json::Value::String(s) => out.push((prefix.to_owned(), s.clone())),
        other => out.push((prefix.to_owned(), other.to_string())),
    }
}

/// One version of a report in its history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevisionView {
    pub revision: i64,
    pub at_text: String,
    pub actor: String,
    /// submitted, resubmitted (officer's correction) or amended (chief).
    pub kind: String,
    pub reason: Option<String>,
    /// What changed from the revision before (empty for the first).
    pub changes: Vec<Change>,
}

/// A chief's decision as the history shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionView {
    pub at_text: String,
    pub actor: String,
    pub action: String,
    pub revision: i64,
    pub citation: Option<String>,
    pub reason: Option<String>,
}

/// The full report, as the chief (or its officer) reads and prints it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportView {
    pub incident_id: Uuid,
    pub revision: i64,
    pub status: ReportStatus,
    pub officer: String,
    pub occurred_text: String,
    pub submitted_text: String,
    pub return_reason: Option<String>,
    pub report: IncidentReport,
    pub subjects: Vec<SubjectLine>,
    /// Every citation of the incident, void ones included (the number stays used).
    pub citations: Vec<CitationBrief>,
    /// Cautions in words (rules' messages, and the GPS check's).
    pub cautions: Vec<String>,
    /// The record in words, in the Town's time: label and value, in the order
    /// the form asks (when, where, §52-1 E, conduct, order, each response).
    pub record: Vec<(String, String)>,
    pub history: Vec<RevisionView>,
    pub decisions: Vec<DecisionView>,
    /// Photos of the incident (issue #20), in the order they were added.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub photos: Vec<crate::model::photo::PhotoRef>,
    /// Citations of the report withdrawn from the court by an amendment (issue
    /// #33), each with the citation that replaces it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withdrawals: Vec<crate::model::court::Withdrawal>,
}

/// A standing citation of a report converted from the first version's shape
/// (issue #33): on the chief's list until checked, once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConvertedCitation {
    pub number: String,
    pub incident_id: Uuid,
    pub subject: String,
    pub offence: Offence,
    pub status: CitationStatus,
    pub issued_text: String,
}

/// The chief's note on a converted citation checked: optional, one paragraph.
pub fn check_note_problems(note: &str) -> Vec<FieldError> {
    if note.chars().count() > 2_000 {
        vec![FieldError::new("note", "Note: at most 2,000 characters.")]
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {

    /// Issue #37, finding 18: the register says where a page stands, and says
    /// "more than" where its count stopped rather than a number that is not one.
    #[test]
    fn a_register_page_says_where_it_stands() {
        let row = ReportRow {
            incident_id: Uuid::nil(),
            revision: 1,
            status: ReportStatus::Submitted,
            officer: "Olive Officer".into(),
            occurred_text: String::new(),
            submitted_text: String::new(),
            location: "Post Road".into(),
            subjects: Vec::new(),
            cautions: Vec::new(),
            filing_deadline: None,
        };
        let page = |shown: usize, before: Counted, total: Counted| {
            RegisterPage {
                rows: vec![row.clone(); shown],
                next: None,
                previous: None,
                before,
                total,
            }
            .place()
        };
        use Counted::{AtLeast, Exactly};
        assert_eq!(
            page(50, Exactly(0), Exactly(2_345)),
            "Reports 1–50 of 2,345 · page 1 of 47"
        );
        assert_eq!(
            page(45, Exactly(2_300), Exactly(2_345)),
            "Reports 2,301–2,345 of 2,345 · page 47 of 47"
        );
        assert_eq!(
            page(1, Exactly(0), Exactly(1)),
            "Report 1 of 1 · page 1 of 1"
        );
        // Reports that arrived between two pages: the page its first row is on.
        assert_eq!(
            page(50, Exactly(53), Exactly(200)),
            "Reports 54–103 of 200 · page 2 of 4"
        );
        assert_eq!(
            page(50, Exactly(50), AtLeast(10_001)),
            "Reports 51–100 of at least 10,001"
        );
        // A count that stopped short of this page's rows is no less than they are.
        assert_eq!(
            page(50, Exactly(50), AtLeast(60)),
            "Reports 51–100 of at least 100"
        );
        assert_eq!(
            page(50, AtLeast(10_001), AtLeast(10_001)),
            "Reports after the first 10,001"
        );
        assert_eq!(page(0, Exactly(0), Exactly(0)), "");
    }

    /// Issue #37, finding 5: a voided citation kept its "Cited — $100.00" badge.
    #[test]
    fn a_person_whose_citations_are_all_void_is_not_shown_as_cited() {
        use crate::model::incident::{CitationBrief, CitationStatus};
        let brief = |status| CitationBrief {
            number: "WPD-2026-000007".into(),
            subject: "Alex Morgan".into(),
            offence: Offence::LoiteringObstruction,
            status,
            arrest: false,
        };
        let mut line = SubjectLine {
            label: "Alex Morgan".into(),
            outcome: Outcome::Cited,
            offences: vec![Offence::LoiteringObstruction],
            citations: vec![brief(CitationStatus::Void)],
            details: None,
        };
        assert!(line.citations_void());
        assert_eq!(line.outcome_text(), "Citation void — no fine");
        line.citations.push(brief(CitationStatus::Approved));
        assert!(!line.citations_void());
        assert!(line.outcome_text().starts_with("Cited — $100.00"));
        line.citations.clear();
        assert_eq!(line.outcome_text(), Outcome::Cited.label());
    }
    use super::*;
    use serde_json::json;

    #[test]
    fn changes_lists_each_changed_leaf_with_both_values() {
        let a = json!({ "location": { "text": "Post Road" }, "subjects": [{ "n": 1 }] });
        let b =
            json!({ "location": { "text": "Mile Road" }, "subjects": [{ "n": 1 }, { "n": 2 }] });
        let c = changes(&a, &b);
        assert_eq!(
            c,
            vec![
                Change {
                    field: "location.text".into(),
                    before: "Post Road".into(),
                    after: "Mile Road".into(),
                    label: String::new(),
                    words: Vec::new(),
                },
                Change {
                    field: "subjects.1.n".into(),
                    before: "—".into(),
                    after: "2".into(),
                    label: String::new(),
                    words: Vec::new(),
                },
            ]
        );
    }

    #[test]
    fn a_one_word_change_is_shown_as_that_word_not_the_whole_text() {
        let before =
            "Stood across the sidewalk for twenty minutes; pedestrians stepped into the road.";
        let after =
            "Stood across the sidewalk for thirty minutes; pedestrians stepped into the road.";
        assert_eq!(
            word_changes(before, after),
            vec![
                WordChange::Same("Stood across the sidewalk for".into()),
                WordChange::Removed("twenty".into()),
                WordChange::Added("thirty".into()),
                WordChange::Same("minutes; pedestrians stepped into the road.".into()),
            ]
        );
        let long_before = format!("{} end.", "word ".repeat(40));
        let long_after = format!("{} stop.", "word ".repeat(40));
        let runs = word_changes(&long_before, &long_after);
        assert_eq!(
            runs[0],
            WordChange::Same("… word word word word word word".into())
        );
    }

    #[test]
    fn one_kilometre_of_latitude_is_measured_as_such() {
        let d = distance_m((43.3221, -70.5806), (43.3311, -70.5806));
        assert!((d - 1000.8).abs() < 2.0, "{d}");
    }

    #[test]
    fn a_reason_is_required_and_bounded() {
        assert_eq!(reason_problems("reason", "  ", "returned").len(), 1);
        assert!(reason_problems("reason", "Time of refusal missing", "returned").is_empty());
        assert_eq!(
            reason_problems("reason", &"x".repeat(MAX_REASON_CHARS + 1), "voided").len(),
            1
        );
    }
}
