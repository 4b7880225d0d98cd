//! A mass-gathering permit application (Article II, issue #19) as the operator
//! gives it, the Town Clerk's record of it, and how each of its readers sees it.
//!
//! The numbers and the verdicts come from `ordinance::article_ii`; this module
//! turns an application's words and dates into the plan those rules read, and
//! says which field is wrong when it cannot.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::model::civil;
use crate::ordinance::article_ii::board::{self, MeetingProblem, Vote};
use crate::ordinance::article_ii::enforcement::{Registered, Standing};
use crate::ordinance::article_ii::{
    calendar, permit::duration_text, BySex, Plan, Provided, Provision, Requirements, Shortfall,
};

/// The longest any text of an application may be: a plan fits in a page.
pub const MAX_TEXT: usize = 4_000;

/// The application (§52-9 A, in the detail §52-10 asks). Both ways in — the
/// public page and the clerk typing a paper one — send this.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PermitApplication {
    /// The person responsible for managing the gathering area (§52-6(4)).
    pub operator: String,
    pub operator_address: String,
    pub operator_phone: String,
    pub operator_email: String,
    /// Whoever sponsors or promotes it, if not the operator (§52-7).
    pub sponsor: String,
    /// The owner of the ground, and the lessee if there is one (§52-6(4)).
    pub landowner: String,
    pub lessee: String,
    /// Where: an address or description, and a map point (`43.3227, -70.5806`).
    pub place: String,
    pub map_point: String,
    pub purpose: String,
    /// First and last day of the gathering, `YYYY-MM-DD`.
    pub first_day: String,
    pub last_day: String,
    /// Each day's hours, `HH:MM`. An end at or before the start runs past
    /// midnight: an overnight assemblage (§52-10(2)(f)).
    pub starts: String,
    pub ends: String,
    /// Persons anticipated (N), passenger cars (V), buses (B).
    pub attendance: u32,
    pub vehicles: u32,
    pub buses: u32,
    /// The men and the women expected, where the operator states them: the
    /// toilets of each sex are counted for their own (§52-10(4)(d)). Both or
    /// neither; absent (an even split) in applications filed before they were
    /// asked, which keep their stored form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_men: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_women: Option<u32>,
    /// Water distributed under pressure to flush toilets (§52-10(4)(a)).
    pub water_under_pressure: bool,
    /// What the plan provides against each standard. `overnight` is taken from
    /// the hours, and `bond_cents` and `deposit_cents` from the clerk's record
    /// (the operator furnishes them to the Town, §52-9 D): what the browser sends
    /// for those three is not read.
    pub provided: Provided,
    pub refuse_plan: String,
    pub lighting_plan: String,
    pub medical_plan: String,
}

/// Minutes since midnight of `HH:MM`.
fn clock_minutes(text: &str) -> Option<u32> {
    let (h, m) = text.trim().split_once(':')?;
    let (h, m) = (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

/// `(latitude, longitude)` of `43.3227, -70.5806`.
pub fn parse_map_point(text: &str) -> Option<(f64, f64)> {
    let (lat, lon) = text.split_once(',')?;
    let (lat, lon) = (
        lat.trim().parse::<f64>().ok()?,
        lon.trim().parse::<f64>().ok()?,
    );
    ((-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon)).then_some((lat, lon))
}

/// The days and hours of an application, once they read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    pub first_day: i64,
    pub last_day: i64,
    /// Minutes of assembly each day.
    pub daily_minutes: u32,
    pub overnight: bool,
}

impl Schedule {
    pub fn days(&self) -> u32 {
        u32::try_from(self.last_day - self.first_day + 1).unwrap_or(u32::MAX)
    }
}

impl PermitApplication {
    /// The dates and hours, or the field that does not read.
    pub fn schedule(&self) -> Result<Schedule, Vec<FieldError>> {
        let mut errors = Vec::new();
        let first = civil::day_number(self.first_day.trim());
        let last = civil::day_number(self.last_day.trim());
        if first.is_none() {
            errors.push(FieldError::new(
                "first_day",
                "First day: a date as YYYY-MM-DD (§52-9 A counts twenty days back from it).",
            ));
        }
        if last.is_none() {
            errors.push(FieldError::new(
                "last_day",
                "Last day: a date as YYYY-MM-DD.",
            ));
        }
        let starts = clock_minutes(&self.starts);
        let ends = clock_minutes(&self.ends);
        if starts.is_none() {
            errors.push(FieldError::new(
                "starts",
                "Starts: a time as HH:MM (§52-7 counts the hours of attendance).",
            ));
        }
        if ends.is_none() {
            errors.push(FieldError::new("ends", "Ends: a time as HH:MM."));
        }
        if let (Some(first), Some(last)) = (first, last) {
            if last < first {
                errors.push(FieldError::new(
                    "last_day",
                    "Last day: on or after the first day.",
                ));
            } else if last - first >= 31 {
                errors.push(FieldError::new(
                    "last_day",
                    "Last day: one application covers at most 31 days of gatherings.",
                ));
            }
        }
        match (first, last, starts, ends, errors.is_empty()) {
            (Some(first_day), Some(last_day), Some(s), Some(e), true) => {
                let overnight = e <= s;
                let daily_minutes = if overnight { 24 * 60 - s + e } else { e - s };
                Ok(Schedule {
                    first_day,
                    last_day,
                    daily_minutes,
                    overnight,
                })
            }
            _ => Err(errors),
        }
    }

    /// The plan the §52-10 standards are computed from, with the Town's
    /// estimate of its public costs (§52-9 D; 0 until the clerk records it).
    pub fn plan(&self, schedule: &Schedule, estimated_public_costs_cents: u64) -> Plan {
        Plan {
            attendance: self.attendance,
            vehicles: self.vehicles,
            buses: self.buses,
            daily_minutes: schedule.daily_minutes,
            days: schedule.days(),
            by_sex: self.by_sex(),
            water_under_pressure: self.water_under_pressure,
            estimated_public_costs_cents,
        }
    }

    /// The men and the women expected, when the application states both.
    pub fn by_sex(&self) -> Option<BySex> {
        match (self.expected_men, self.expected_women) {
            (Some(men), Some(women)) => Some(BySex { men, women }),
            _ => None,
        }
    }

    /// What the plan provides, with what the application does not decide put
    /// in from where it comes (see [`PermitApplication::provided`]).
    pub fn provided_with(&self, schedule: &Schedule, clerk: &ClerkRecord) -> Provided {
        Provided {
            overnight: schedule.overnight,
            bond_cents: clerk.bond_cents.unwrap_or(0),
            deposit_cents: clerk.deposit_cents.unwrap_or(0),
            ..self.provided.clone()
        }
    }

    /// Everything wrong with the application as given on `today` (a Town day
    /// number): each field named, with the section that asks for it. Empty: it
    /// can be filed. A late filing is not refused here — it is the first reason
    /// a denial lists (§52-9 A) — but a gathering already begun cannot be applied for.
    pub fn problems(&self, today: i64) -> Vec<FieldError> {
        let mut errors = Vec::new();
        let required = [
            (
                "operator",
                &self.operator,
                "Operator: the person responsible for the gathering area (§52-6(4)).",
            ),
            (
                "operator_address",
                &self.operator_address,
                "Operator's address: where the Town sends notice (§52-9 B, §52-9 D).",
            ),
            (
                "landowner",
                &self.landowner,
                "Landowner: the owner of the ground (§52-6(4)).",
            ),
            (
                "place",
                &self.place,
                "Place: where the gathering is held (§52-10(1)).",
            ),
            (
                "purpose",
                &self.purpose,
                "Purpose: what the gathering is for (§52-6(3)).",
            ),
        ];
        for (field, value, message) in required {
            if value.trim().is_empty() {
                errors.push(FieldError::new(field, message));
            }
        }
        if self.operator_phone.trim().is_empty() && self.operator_email.trim().is_empty() {
            errors.push(FieldError::new(
                "operator_phone",
                "Operator's phone or e-mail: how the Town Clerk reaches the operator (§52-9 A).",
            ));
        }
        let texts = [
            ("operator", &self.operator),
            ("operator_address", &self.operator_address),
            ("operator_phone", &self.operator_phone),
            ("operator_email", &self.operator_email),
            ("sponsor", &self.sponsor),
            ("landowner", &self.landowner),
            ("lessee", &self.lessee),
            ("place", &self.place),
            ("map_point", &self.map_point),
            ("purpose", &self.purpose),
            ("refuse_plan", &self.refuse_plan),
            ("lighting_plan", &self.lighting_plan),
            ("medical_plan", &self.medical_plan),
        ];
        for (field, value) in texts {
            if value.chars().count() > MAX_TEXT {
                errors.push(FieldError::new(
                    field,
                    format!("{field}: at most {MAX_TEXT} characters."),
                ));
            }
        }
        if self.expected_men.is_some() != self.expected_women.is_some() {
            let field = if self.expected_men.is_none() {
                "expected_men"
            } else {
                "expected_women"
            };
            errors.push(FieldError::new(
                field,
                "Men and women expected: give both, or neither for an even split (§52-10(4)(d)).",
            ));
        }
        if !self.map_point.trim().is_empty() && parse_map_point(&self.map_point).is_none() {
            errors.push(FieldError::new(
                "map_point",
                "Map point: latitude, longitude in degrees, e.g. 43.3227, -70.5806.",
            ));
        }
        match self.schedule() {
            Err(mut e) => errors.append(&mut e),
            Ok(schedule) => {
                if schedule.first_day < today {
                    errors.push(FieldError::new(
                        "first_day",
                        format!(
                            "First day: {} is in the past; a permit is applied for before the \
                             gathering (§52-9 A).",
                            civil::date_text(schedule.first_day)
                        ),
                    ));
                }
                if let Err(e) = self.plan(&schedule, 0).validate() {
                    errors.push(FieldError::new(
                        e.field,
                        format!("{}: {} ({}).", label(e.field), e.message, e.provision),
                    ));
                }
            }
        }
        errors
    }
}

/// A field's name as the form labels it.
fn label(field: &str) -> &str {
    match field {
        "attendance" => "Persons expected",
        "vehicles" => "Vehicles",
        "expected_men" => "Men and women expected",
        "hours" => "Hours",
        "days" => "Days",
        other => other,
    }
}

/// The Town Clerk's record of an application (§52-9 A, §52-9 D), in cents.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClerkRecord {
    pub fee_cents: Option<u64>,
    pub fee_receipt: Option<String>,
    pub estimated_costs_cents: Option<u64>,
    pub bond_cents: Option<u64>,
    pub deposit_cents: Option<u64>,
}

/// Where an application stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PermitState {
    /// Received; the permit fee not yet recorded (§52-9 A).
    Filed,
    FeeRecorded,
    /// On the agenda of the Selectmen's meeting of `consideration_day`.
    Scheduled,
    Issued,
    Denied,
    /// Seven days after consideration with neither permit nor written denial
    /// (§52-9 B(3)). Never stored: read from the calendar at every look.
    DeemedDenied,
    /// After the gathering: deposit against actual public costs (§52-9 D).
    Settled,
    /// The Board determined the permit is to be issued under Chapter 55
    /// (outdoor festivals and special amusements) instead (§52-7): the Article
    /// II application ends here.
    #[serde(rename = "chapter_55")]
    Chapter55,
}

impl PermitState {
    pub fn code(self) -> &'static str {
        match self {
            PermitState::Filed => "filed",
            PermitState::FeeRecorded => "fee_recorded",
            PermitState::Scheduled => "scheduled",
            PermitState::Issued => "issued",
            PermitState::Denied => "denied",
            PermitState::DeemedDenied => "deemed_denied",
            PermitState::Settled => "settled",
            PermitState::Chapter55 => "chapter_55",
        }
    }

    pub fn from_code(code: &str) -> Option<PermitState> {
        [
            PermitState::Filed,
            PermitState::FeeRecorded,
            PermitState::Scheduled,
            PermitState::Issued,
            PermitState::Denied,
            PermitState::DeemedDenied,
            PermitState::Settled,
            PermitState::Chapter55,
        ]
        .into_iter()
        .find(|s| s.code() == code)
    }

    pub fn label(self) -> &'static str {
        match self {
            PermitState::Filed => "Filed, fee not recorded",
            PermitState::FeeRecorded => "Fee recorded, awaiting scheduling",
            PermitState::Scheduled => "Before the Selectmen",
            PermitState::Issued => "Permit issued",
            PermitState::Denied => "Denied",
            PermitState::DeemedDenied => "Deemed denied (§52-9 B(3))",
            PermitState::Settled => "Settled",
            PermitState::Chapter55 => "To be issued under Chapter 55 (§52-7)",
        }
    }

    /// The stored state as of `today`: a scheduled application not decided
    /// within seven days of its consideration is deemed denied.
    pub fn as_of(self, consideration_day: Option<i64>, today: i64) -> PermitState {
        match (self, calendar::decision_clock(consideration_day, today)) {
            (PermitState::Scheduled, calendar::DecisionClock::DeemedDenied { .. }) => {
                PermitState::DeemedDenied
            }
            (state, _) => state,
        }
    }

    /// The operator may still change the application: before a decision, or
    /// after a denial (to fix what it lists).
    pub fn open_to_amendment(self) -> bool {
        !matches!(
            self,
            PermitState::Issued | PermitState::Settled | PermitState::Chapter55
        )
    }
}

/// The Selectmen's decision (§52-9 B).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum PermitDecision {
    /// §52-9 B(1).
    Issue,
    /// §52-9 B(2): in writing, every reason with the step that meets it. The
    /// shortfalls the rules find are always listed; `findings` adds what the
    /// Board found that the rules cannot see (e.g. §52-10(2)(b), vegetation).
    Deny { findings: Vec<Shortfall> },
    /// §52-7: the Board's discretion to have the permit issued under Chapter 55
    /// (outdoor festivals and special amusements) instead.
    #[serde(rename = "chapter_55")]
    Chapter55,
}

/// The Board's action as the person recording it enters it (issue #37): the
/// meeting at which the Board decided, the motion and the vote. A Selectman or
/// the Town Clerk records it; the decision is the Board's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardVote {
    /// The meeting's date, `YYYY-MM-DD`: the date the decision was made.
    pub meeting_day: String,
    /// The member who moved it.
    pub moved_by: String,
    /// The member who seconded it; empty when no one did.
    #[serde(default)]
    pub seconded_by: String,
    #[serde(flatten)]
    pub vote: Vote,
}

/// Longest name of a member, as the minutes give it.
pub const MAX_MEMBER_CHARS: usize = 100;

impl BoardVote {
    /// The meeting day as a Town day number, once it reads.
    pub fn day(&self) -> Option<i64> {
        civil::day_number(self.meeting_day.trim())
    }

    /// Everything wrong with the record of the Board's action, on `today`, for
    /// an application the Town Clerk scheduled for `consideration_day`: each
    /// field named, with the section that asks for it.
    pub fn problems(&self, consideration_day: Option<i64>, today: i64) -> Vec<FieldError> {
        let mut errors = Vec::new();
        match self.day() {
            None => errors.push(FieldError::new(
                "meeting_day",
                "Meeting: the date of the Board's meeting that decided, as YYYY-MM-DD (§52-9 B).",
            )),
            Some(day) => {
                if let Some(why) = crate::model::court_calendar::town_closed(day) {
                    errors.push(FieldError::new(
                        "meeting_day",
                        format!("Meeting: {why}, when the Board of Selectmen does not meet. Give the date of the meeting that decided."),
                    ));
                }
                let considered = consideration_day.unwrap_or(day);
                if let Some(problem) = board::meeting_problem(day, considered, today) {
                    let message = match problem {
                        MeetingProblem::NotHeld => format!(
                            "Meeting: {}: {} has not come; record a decision the Board has made.",
                            problem.provision(),
                            civil::date_text(day)
                        ),
                        MeetingProblem::BeforeConsideration => format!(
                            "Meeting: {}: the Board acts after its consideration of the application, \
                             which the Town Clerk scheduled for {}; a decision dated {} is before it.",
                            problem.provision(),
                            civil::date_text(considered),
                            civil::date_text(day)
                        ),
                    };
                    errors.push(FieldError::new("meeting_day", message));
                }
            }
        }
        for (field, value, label, required) in [
            ("moved_by", &self.moved_by, "Moved by", true),
            ("seconded_by", &self.seconded_by, "Seconded by", false),
        ] {
            if required && value.trim().is_empty() {
                errors.push(FieldError::new(
                    field,
                    format!("{label}: the member who made the motion, as the minutes name them (§52-8)."),
                ));
            } else if value.chars().count() > MAX_MEMBER_CHARS
                || value.chars().any(char::is_control)
            {
                errors.push(FieldError::new(
                    field,
                    format!("{label}: one line of at most {MAX_MEMBER_CHARS} characters."),
                ));
            }
        }
        if let Some((provision, why)) = board::vote_problem(&self.vote) {
            errors.push(FieldError::new(
                "vote",
                format!("Vote: {provision}: {why}."),
            ));
        }
        errors
    }
}

/// The Board's action as the decision record keeps it (issue #37). Absent from
/// decisions recorded before the Board's meeting and vote were asked, which
/// read and print as they were written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRecord {
    /// The meeting at which the Board decided (Town day number).
    pub meeting_day: i64,
    pub moved_by: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconded_by: Option<String>,
    pub vote: Vote,
    /// Who recorded it (a Selectman or the Town Clerk), and when.
    pub recorded_by: String,
    pub recorded_day: i64,
}

impl BoardRecord {
    /// `Moved by A, seconded by B; 3 for, 1 against, 1 abstaining`.
    pub fn motion_text(&self) -> String {
        let seconded = self.seconded_by.as_deref().map_or_else(
            || ", not seconded".to_owned(),
            |s| format!(", seconded by {s}"),
        );
        format!("Moved by {}{seconded}; {}", self.moved_by, self.vote.text())
    }
}

/// What a decision recorded: the revision it decided, and for a denial every reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionRecord {
    pub issued: bool,
    /// §52-7: routed to Chapter 55 rather than issued or denied.
    #[serde(default)]
    pub chapter_55: bool,
    pub revision: i64,
    /// The day the decision was made: the Board's meeting (since issue #37);
    /// the day it was entered, in decisions recorded before.
    pub day: i64,
    /// "the Board of Selectmen" (since issue #37); the Selectman who entered
    /// it, in decisions recorded before.
    pub by: String,
    /// The meeting, the motion and the vote (issue #37).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardRecord>,
    /// For a denial, its grounds: the "shall" standards not met and the Board's
    /// own findings (§52-8 B).
    pub reasons: Vec<Shortfall>,
    /// The "should" standards open when the Board decided: advice printed
    /// with the permit or the denial, never a ground (§52-8 A). Absent from
    /// decisions recorded before advice was told apart.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub advice: Vec<Shortfall>,
}

/// The settlement after the gathering (§52-9 D).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settlement {
    pub deposit_cents: u64,
    pub actual_costs_cents: u64,
    /// Positive: refunded to the operator; negative: owed to the Town.
    pub balance_cents: i64,
    pub notified_day: i64,
    /// When an amount is owed: the day it is due (ten days after notice).
    pub due_day: Option<i64>,
}

impl Settlement {
    pub fn new(deposit_cents: u64, actual_costs_cents: u64, notified_day: i64) -> Settlement {
        let balance_cents = calendar::settlement_cents(deposit_cents, actual_costs_cents);
        Settlement {
            deposit_cents,
            actual_costs_cents,
            balance_cents,
            notified_day,
            due_day: (balance_cents < 0).then(|| calendar::excess_due_day(notified_day)),
        }
    }

    /// `Refund of $1,200.00 to the operator` or `$300.00 due by 2027-07-20 (§52-9 D)`.
    pub fn text(&self) -> String {
        let amount = crate::ordinance::penalty::dollars(self.balance_cents.abs());
        match self.due_day {
            Some(due) => format!(
                "{amount} owed to the Town, due by {} (§52-9 D: within ten days of notice)",
                civil::date_text(due)
            ),
            None => format!("Refund of {amount} to the operator (§52-9 D)"),
        }
    }
}

/// One line of the permit register.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PermitRow {
    pub application_id: Uuid,
    pub number: String,
    pub state: PermitState,
    pub operator: String,
    pub place: String,
    pub first_day: String,
    pub last_day: String,
    pub attendance: u32,
    /// The day the Selectmen must decide by (scheduled ones), `YYYY-MM-DD`.
    pub decide_by: Option<String>,
}

impl PermitRow {
    /// The entry as an officer's §52-7 answer is held against it: an issued (or
    /// settled) permit permits the gathering, and so does the Board's
    /// determination that it be issued under Chapter 55 (§52-7).
    pub fn registered(&self) -> Registered {
        Registered {
            number: self.number.clone(),
            place: self.place.clone(),
            state: self.state.label().to_owned(),
            standing: match self.state {
                PermitState::Issued | PermitState::Settled => Standing::Permitted,
                PermitState::Chapter55 => Standing::Chapter55,
                PermitState::Filed
                | PermitState::FeeRecorded
                | PermitState::Scheduled
                | PermitState::Denied
                | PermitState::DeemedDenied => Standing::NotPermitted,
            },
        }
    }
}

/// One thing that happened to an application.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PermitEvent {
    pub at: String,
    pub by: String,
    pub kind: String,
    pub note: Option<String>,
}

/// A standard the Board found not met (§52-8 B), open until the Board marks
/// it met (issue #37), with the operator's answer if they gave one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardFinding {
    pub finding_id: Uuid,
    /// The standard, its finding and the step that would meet it.
    pub shortfall: Shortfall,
    /// The meeting at which the Board found it, `YYYY-MM-DD`.
    pub found_day: String,
    /// The operator's answer, through the status link.
    pub answer: Option<String>,
    pub answered_at: Option<String>,
    /// Once the Board marked it met: the meeting's date, who recorded it, and
    /// the Board's note.
    pub met: Option<FindingMet>,
}

impl BoardFinding {
    pub fn is_open(&self) -> bool {
        self.met.is_none()
    }
}

/// The Board's marking of a finding as met.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindingMet {
    pub day: String,
    pub by: String,
    pub note: String,
}

/// The operator's answer to a finding, or the Board's note marking it met:
/// one paragraph.
pub fn finding_text_problem(field: &str, label: &str, text: &str) -> Option<FieldError> {
    if text.trim().is_empty() {
        Some(FieldError::new(field, format!("{label}: required.")))
    } else if text.chars().count() > MAX_TEXT {
        Some(FieldError::new(
            field,
            format!("{label}: at most {MAX_TEXT} characters."),
        ))
    } else {
        None
    }
}

/// Everything wrong with the Board's marking of a finding met: the meeting
/// (not on a day the Town's offices are closed, not before the meeting that
/// found it, not to come), and the Board's note.
pub fn met_problems(meeting_day: &str, found_day: i64, today: i64, note: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    match civil::day_number(meeting_day.trim()) {
        None => errors.push(FieldError::new(
            "meeting_day",
            "Meeting: the date of the Board's meeting that found it met, as YYYY-MM-DD (§52-8).",
        )),
        Some(day) => {
            if let Some(why) = crate::model::court_calendar::town_closed(day) {
                errors.push(FieldError::new(
                    "meeting_day",
                    format!("Meeting: {why}, when the Board of Selectmen does not meet."),
                ));
            }
            if day > today {
                errors.push(FieldError::new(
                    "meeting_day",
                    format!(
                        "Meeting: {} has not come; record what the Board has done.",
                        civil::date_text(day)
                    ),
                ));
            } else if day < found_day {
                errors.push(FieldError::new(
                    "meeting_day",
                    format!(
                        "Meeting: the Board found it not met on {}; it is marked met at that meeting or a later one.",
                        civil::date_text(found_day)
                    ),
                ));
            }
        }
    }
    errors.extend(finding_text_problem("note", "The Board's note", note));
    errors
}

/// The last day to file an application for a gathering first held on
/// `first_day` that the Town Clerk's office is open (§52-9 A; the
/// department's reading 16: the twentieth day before, or the last open day
/// before it), and, when it moved, why.
pub fn filing_deadline(first_day: i64) -> (i64, Option<String>) {
    let statutory = calendar::last_filing_day(first_day);
    let open = crate::model::court_calendar::town_open_on_or_before(statutory);
    let why = (open != statutory)
        .then(|| crate::model::court_calendar::town_closed(statutory))
        .flatten()
        .map(|why| {
            format!("the twentieth day before, {why}, when the Town Clerk's office is closed")
        });
    (open, why)
}

/// A written opinion for the Selectmen (§52-8 A).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opinion {
    pub at: String,
    pub author: String,
    pub capacity: String,
    pub opinion: String,
}

/// Everything about one application: the staff's view, and (without the
/// opinions and the history's names) the operator's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PermitRecord {
    pub application_id: Uuid,
    pub number: String,
    pub revision: i64,
    pub state: PermitState,
    pub channel: String,
    pub filed_day: String,
    pub application: PermitApplication,
    pub clerk: ClerkRecord,
    pub consideration_day: Option<String>,
    pub decide_by: Option<String>,
    pub requirements: Option<Requirements>,
    /// §52-10(9)'s level the Town has set (dBA), or `None` while unconfirmed.
    #[serde(default)]
    pub sound_limit_dba: Option<u32>,
    /// What the rules find unmet now (§52-9 B(2)'s list, if the Board denies).
    pub shortfalls: Vec<Shortfall>,
    pub decision: Option<DecisionRecord>,
    pub settlement: Option<Settlement>,
    pub opinions: Vec<Opinion>,
    pub history: Vec<PermitEvent>,
    /// The Board's findings (§52-8 B), open and met, oldest first (issue #37).
    #[serde(default)]
    pub findings: Vec<BoardFinding>,
    /// Today on the Town's calendar, as the record was read: the meeting a
    /// decision defaults to and may not pass.
    #[serde(default)]
    pub today: String,
}

impl PermitRecord {
    /// The Board's findings not yet marked met: no permit issues while one is.
    pub fn open_findings(&self) -> Vec<&BoardFinding> {
        self.findings.iter().filter(|f| f.is_open()).collect()
    }
}

/// What the public page answers when an application is filed: its number and
/// the private link to follow it (shown once).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Filed {
    pub application_id: Uuid,
    pub number: String,
    pub token: String,
}

/// `MG-2026-0007`.
pub fn permit_number(year: i32, seq: i64) -> String {
    format!("MG-{year}-{seq:04}")
}

/// A token that can be a status token at all (64 hex digits): anything else is
/// refused before the database is asked.
pub fn plausible_token(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Reasons a denial lists that the Board adds itself: each with a reason and a
/// step, naming a standard of the ordinance or §52-8 itself.
pub fn finding_problems(findings: &[Shortfall]) -> Vec<FieldError> {
    let mut errors = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        if f.provision != Provision::S52_8 && !Provision::BOARD_STANDARDS.contains(&f.provision) {
            errors.push(FieldError::new(
                format!("findings.{i}"),
                "A finding names a standard of §52-10, §52-11 or §52-9 D, or §52-8 (§52-8 B).",
            ));
        }
        if f.finding.trim().is_empty() || f.step.trim().is_empty() {
            errors.push(FieldError::new(
                format!("findings.{i}"),
                "Each reason of a denial states what was found and a step that would meet it \
                 (§52-9 B(2)).",
            ));
        }
        if f.finding.chars().count() > MAX_TEXT || f.step.chars().count() > MAX_TEXT {
            errors.push(FieldError::new(
                format!("findings.{i}"),
                format!("A reason or step: at most {MAX_TEXT} characters."),
            ));
        }
    }
    errors
}

/// How long each day's gathering lasts, as the register shows it.
pub fn daily_hours_text(schedule: &Schedule) -> String {
    duration_text(schedule.daily_minutes)
}

/// The provision a permit's conditions open with.
pub const PERMIT_PROVISION: Provision = Provision::S52_9B;

#[cfg(test)]
mod tests {
    use super::*;

    pub fn application() -> PermitApplication {
        PermitApplication {
            operator: "Harbor Fest LLC".into(),
            operator_address: "1 Post Road, Wells ME".into(),
            operator_phone: "207-555-0100".into(),
            operator_email: String::new(),
            sponsor: String::new(),
            landowner: "Town of Wells".into(),
            lessee: String::new(),
            place: "Wells Harbor Park".into(),
            map_point: "43.3197, -70.5633".into(),
            purpose: "Music festival".into(),
            first_day: "2027-07-10".into(),
            last_day: "2027-07-10".into(),
            starts: "10:00".into(),
            ends: "18:00".into(),
            attendance: 2_400,
            vehicles: 600,
            buses: 0,
            expected_men: None,
            expected_women: None,
            water_under_pressure: false,
            provided: Provided {
                parking_spaces: 600,
                parking_acre_hundredths: 600,
                road_lanes: 2,
                road_parking_lanes: 0,
                road_width_feet: 24,
                site_square_feet: 30_000,
                overnight: false,
                lighting: true,
                traffic_control: true,
                potable_water: true,
                water_gallons_per_day: 7_200,
                water_psi: None,
                toilets_men: 4,
                toilets_women: 4,
                refuse: crate::ordinance::article_ii::Containers {
                    fifty_gallon: 24,
                    sixteen_cubic_yard: 0,
                },
                parking_refuse: crate::ordinance::article_ii::Containers {
                    fifty_gallon: 24,
                    sixteen_cubic_yard: 0,
                },
                collections: 2,
                clear_within_hours: 24,
                fire_department_informed: true,
                officers: 15,
                physician_supervision: true,
                first_aid_station: true,
                ambulances_on_site: true,
                phone_and_radio: true,
                hospitals_told: true,
                sound_precautions: true,
                insurance_per_person_cents: 30_000_000,
                insurance_per_occurrence_cents: 50_000_000,
                insurance_property_cents: 10_000_000,
                bond_cents: 0,
                deposit_cents: 0,
            },
            refuse_plan: "Two collections".into(),
            lighting_plan: "Flood lights".into(),
            medical_plan: "Dr. Smith supervises".into(),
        }
    }

    fn day(text: &str) -> i64 {
        civil::day_number(text).expect("a date")
    }

    #[test]
    fn a_complete_application_has_no_problem_and_its_hours_make_the_plan() {
        let a = application();
        assert_eq!(a.problems(day("2027-06-01")), vec![]);
        let s = a.schedule().expect("a schedule");
        assert_eq!((s.daily_minutes, s.overnight, s.days()), (480, false, 1));
        assert_eq!((a.plan(&s, 0).daily_minutes, a.plan(&s, 0).days), (480, 1));
    }

    #[test]
    fn each_bad_field_is_named_with_its_section_and_nothing_else_is_blamed() {
        let today = day("2027-06-01");
        type Spoil = fn(&mut PermitApplication);
        let cases: [(&str, Spoil, &str); 8] = [
            ("attendance", |a| a.attendance = 0, "§52-10(2)(f)"),
            ("attendance", |a| a.attendance = 5_000_000, "at most"),
            (
                "first_day",
                |a| {
                    a.first_day = "2027-05-01".into();
                    a.last_day = "2027-05-01".into();
                },
                "in the past",
            ),
            (
                "last_day",
                |a| a.last_day = "2027-07-09".into(),
                "on or after",
            ),
            ("operator", |a| a.operator = " ".into(), "§52-6(4)"),
            (
                "map_point",
                |a| a.map_point = "north of the pier".into(),
                "latitude",
            ),
            ("starts", |a| a.starts = "25:00".into(), "HH:MM"),
            (
                "last_day",
                |a| a.last_day = "2027-08-20".into(),
                "at most 31 days",
            ),
        ];
        for (field, spoil, words) in cases {
            let mut a = application();
            spoil(&mut a);
            let problems = a.problems(today);
            assert_eq!(problems.len(), 1, "{field}: {problems:?}");
            assert_eq!(problems[0].field, field);
            assert!(problems[0].message.contains(words), "{problems:?}");
        }
    }

    #[test]
    fn an_end_at_or_before_the_start_is_an_overnight_assemblage() {
        let mut a = application();
        a.starts = "18:00".into();
        a.ends = "02:00".into();
        let s = a.schedule().expect("a schedule");
        assert!(s.overnight);
        assert_eq!(s.daily_minutes, 8 * 60);
        let provided = a.provided_with(&s, &ClerkRecord::default());
        assert!(provided.overnight);
    }

    /// Issue #37, finding 10: the calculator's filing date could be a Sunday.
    #[test]
    fn the_filing_deadline_shown_is_a_day_the_town_clerks_office_is_open() {
        // 2027-01-23 is a Saturday: twenty days before 2027-02-12 (a Friday).
        let (by, why) = filing_deadline(day("2027-02-12"));
        assert_eq!(civil::date_text(by), "2027-01-22");
        assert_eq!(
            why.as_deref(),
            Some("the twentieth day before, 2027-01-23 is a Saturday, when the Town Clerk's office is closed")
        );
        // Twenty days before 2027-01-21 is Friday 2027-01-01, New Year's Day.
        let (by, why) = filing_deadline(day("2027-01-21"));
        assert_eq!(civil::date_text(by), "2026-12-31");
        assert!(why.is_some_and(|w| w.contains("New Year's Day")));
        let (by, why) = filing_deadline(day("2027-02-10"));
        assert_eq!((civil::date_text(by), why), ("2027-01-21".to_owned(), None));
        // The late-filing reason still counts from the statutory day.
        assert!(calendar::filing_problem(day("2027-01-23"), day("2027-02-12")).is_none());
    }

    #[test]
    fn a_board_vote_names_what_is_wrong_with_the_meeting_and_the_motion() {
        let vote = |meeting: &str, f: u32, a: u32| BoardVote {
            meeting_day: meeting.into(),
            moved_by: "Selectman Ames".into(),
            seconded_by: String::new(),
            vote: Vote {
                in_favour: f,
                against: a,
                abstaining: 0,
            },
        };
        let considered = Some(day("2026-12-26") + 3); // Tuesday 2026-12-29
        let today = day("2027-01-04");
        assert!(vote("2026-12-29", 3, 2)
            .problems(considered, today)
            .is_empty());
        let fields = |v: BoardVote| -> Vec<String> {
            v.problems(considered, today)
                .into_iter()
                .map(|e| format!("{}: {}", e.field, e.message))
                .collect()
        };
        let before = fields(vote("2026-12-07", 3, 0));
        assert!(
            before[0].contains("§52-9 B") && before[0].contains("scheduled for 2026-12-29"),
            "{before:?}"
        );
        let saturday = fields(vote("2027-01-02", 3, 0));
        assert!(
            saturday[0].contains("2027-01-02 is a Saturday"),
            "{saturday:?}"
        );
        let lost = fields(vote("2026-12-29", 2, 2));
        assert!(
            lost[0].starts_with("vote: Vote: §52-8: the motion did not carry"),
            "{lost:?}"
        );
        let mut unmoved = vote("2026-12-29", 3, 0);
        unmoved.moved_by = " ".into();
        assert!(fields(unmoved)[0].starts_with("moved_by"));
    }

    #[test]
    fn an_undecided_application_is_deemed_denied_the_eighth_day_after_consideration() {
        let considered = day("2027-06-10");
        let at = |d| PermitState::Scheduled.as_of(Some(considered), day(d));
        assert_eq!(at("2027-06-17"), PermitState::Scheduled);
        assert_eq!(at("2027-06-18"), PermitState::DeemedDenied);
        assert_eq!(
            PermitState::Issued.as_of(Some(considered), day("2027-09-01")),
            PermitState::Issued
        );
    }

    #[test]
    fn a_settlement_refunds_the_excess_or_names_the_day_the_rest_is_due() {
        let refund = Settlement::new(120_000, 90_000, day("2027-07-15"));
        assert_eq!(refund.balance_cents, 30_000);
        assert_eq!(refund.due_day, None);
        assert!(refund.text().starts_with("Refund of $300.00"));
        let owed = Settlement::new(120_000, 150_000, day("2027-07-15"));
        assert_eq!(owed.due_day, Some(day("2027-07-25")));
        assert!(owed.text().contains("due by 2027-07-25"), "{}", owed.text());
    }
}
