//! An Article I incident report as the officer's phone sends it, and what the
//! server answers. Validation lives here, shared by phone and server, so the
//! officer sees the same field errors before and after pressing submit.
//!
//! The report's shape follows DESIGN §2, "each person answers for their own
//! conduct": the incident holds what is shared (when, where, the orders given,
//! the narrative) and each person their own facts — conduct, §52-1 E answer, the
//! order they received, their response, an arrest, and the offences charged.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::{AppError, FieldError};
use crate::model::text::{has_control, short_text, too_long};
use crate::ordinance::persons::{Standing, MIN_AGE_YEARS};
use crate::ordinance::status::{status_words, ScreenedText};
pub use crate::ordinance::Charge;
use crate::ordinance::{
    self, Caution, Decision, DispersalOrder, Finding, Moment, Offence, Outcome, PersonFacts,
    PlaceType, ProtectedActivity, Response, Scene, TimeField, TimeProblem,
};

/// Longest narrative accepted (issue #5: 20 000 characters).
pub const MAX_NARRATIVE_CHARS: usize = 20_000;
/// Longest name, address or other short field.
pub use crate::model::text::MAX_SHORT_CHARS;
/// Most persons in one incident.
pub const MAX_SUBJECTS: usize = 50;
/// Most orders in one incident (one to the group, and a few to persons who came
/// back or were dealt with apart).
pub const MAX_ORDERS: usize = 10;

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
/// be identified — or, on an Article II report, an organisation ("any person or
/// party", §52-12), which has no date of birth and no perceived traits.
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
    /// A company, club or other party cited under §52-12 for its part in a mass
    /// gathering (Article II reports only), with whoever represents it.
    Organisation {
        name: String,
        address: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        representative: Option<String>,
    },
}

impl Identity {
    /// The free-text description of a person not identified (screened for status
    /// words: the citation prints it).
    pub fn description(&self) -> Option<&str> {
        match self {
            Identity::Described { description } => Some(description),
            Identity::Identified { .. } | Identity::Organisation { .. } => None,
        }
    }

    /// A party that is not a natural person (§52-12: "any person or party").
    pub fn is_organisation(&self) -> bool {
        matches!(self, Identity::Organisation { .. })
    }

    /// Named, with an address (and a person's date of birth): what a summons
    /// needs. A person only described is not (their citation is held from
    /// filing).
    pub const fn identified(&self) -> bool {
        matches!(
            self,
            Identity::Identified { .. } | Identity::Organisation { .. }
        )
    }

    /// The person's age at `moment` by their date of birth, when one is recorded
    /// (negative when the date is after it).
    pub fn age_at(&self, moment: Moment) -> Option<i64> {
        match self {
            Identity::Identified { date_of_birth, .. } => parse_date(date_of_birth)
                .map(|born| crate::model::civil::years_on(born, town_day(moment))),
            Identity::Described { .. } | Identity::Organisation { .. } => None,
        }
    }
}

/// The Town's calendar day of `moment`, as the rules count ages: the day at UTC−5
/// (Eastern Standard Time). The phone and the server have no shared time zone in
/// the rules; in summer the hour after midnight counts as the day before, which
/// makes a person one day younger at most — it can only add a caution.
fn town_day(moment: Moment) -> i64 {
    const TOWN_OFFSET_MS: i64 = 5 * 3_600_000;
    (moment.0 - TOWN_OFFSET_MS).div_euclid(86_400_000)
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubjectEntry {
    /// Made on the phone: keeps the person's identity across retries and corrections.
    pub subject_id: Uuid,
    pub identity: Identity,
    pub perceived: Perceived,
    /// This person's own facts: §52-1 E answer, conduct, the order they received
    /// (its position in the report's `orders`), their response, and an arrest.
    #[serde(flatten)]
    pub facts: PersonFacts,
    /// The offences charged to this person, at most one each; each may carry a
    /// citation. Empty: no offence charged.
    #[serde(default)]
    pub charges: Vec<Charge>,
    /// The person's signature on the summons, or their refusal (issue #20); absent
    /// when not asked, and then not written, so reports stored before it keep
    /// their form and content hash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<crate::model::signature::PersonSignature>,
    /// Facts a conversion from the first version filled in without a record of
    /// them (issue #33): "not recorded — converted" until checked. Absent, and
    /// not written, in every report recorded as it is now.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_recorded: Vec<crate::model::converted::ConvertedFact>,
}

impl SubjectEntry {
    /// The offences charged, in the order listed.
    pub fn offences(&self) -> impl Iterator<Item = Offence> + '_ {
        self.charges.iter().map(|c| c.offence)
    }

    /// The offences this person is cited for: those charged with a citation
    /// asked for, when the rules' outcome carries one. The phone numbers these
    /// on scene; the server issues these.
    pub fn cited_offences(&self, outcome: Outcome) -> Vec<Offence> {
        if !outcome.is_citation() {
            return Vec::new();
        }
        self.charges
            .iter()
            .filter(|c| c.issue_citation)
            .map(|c| c.offence)
            .collect()
    }

    /// Whether the citation for `offence` records an arrest: §52-2's, when one
    /// was in fact made.
    pub fn arrest_for(&self, offence: Offence) -> bool {
        self.facts.arrested && offence.permits_arrest()
    }

    /// Whether `fact` was recorded for this person (not filled in by a
    /// conversion from the first version).
    pub fn recorded(&self, fact: crate::model::converted::ConvertedFact) -> bool {
        !self.not_recorded.contains(&fact)
    }

    /// Whether the person is identified (a summons needs it).
    pub const fn identified(&self) -> bool {
        self.identity.identified()
    }

    /// What the rules know of the person beside their facts, at the incident.
    pub fn standing(&self, occurred_at: Moment) -> Standing {
        Standing {
            age: self
                .identity
                .age_at(occurred_at)
                .and_then(|age| u32::try_from(age).ok()),
            perceived_under_18: self.perceived.age_range == AgeRange::Under18,
            identified: self.identified(),
        }
    }
}

/// The whole report. Submitting it again with the same `incident_id` is harmless.
///
/// Its `Serialize` and `Deserialize` are written where the reports of earlier
/// shapes are recognised ([`crate::model::first_version`]): the wire refuses
/// those with a message, and this type knows only its own shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct IncidentReport {
    /// Made on the phone (UUID v7) before the first attempt to send.
    pub incident_id: Uuid,
    /// When the incident began.
    pub occurred_at: Moment,
    pub location: Location,
    /// The orders the officer gave (§52-1 D; §52-2's order to move on), to the
    /// group or to one person; each person records which one they received.
    #[serde(default)]
    pub orders: Vec<DispersalOrder>,
    pub narrative: String,
    pub subjects: Vec<SubjectEntry>,
    /// Citation numbers the phone gave out on scene from its block (issue #17),
    /// one per person and offence cited; the server's citations take them.
    /// Absent from reports without them, so their stored form and content hash
    /// are what they were.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub numbers: Vec<crate::model::numbers::HandedNumber>,
    /// An Article II report (§52-7, issue #19): the gathering as the officer
    /// found it. Absent (and not written) in Article I reports, so their stored
    /// form and content hash are what they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gathering: Option<crate::ordinance::article_ii::enforcement::GatheringScene>,
}

impl IncidentReport {
    /// What the persons share, as the rules read it.
    pub fn scene(&self) -> Scene {
        Scene {
            started_at: self.occurred_at,
            place: self.location.place,
            orders: self.orders.clone(),
            gathering: self.gathering.clone(),
        }
    }

    /// The incident's §52-1 E summary for lists and the dashboard: the first
    /// person's protected activity, if anyone's was.
    pub fn protected_activity(&self) -> ProtectedActivity {
        self.subjects
            .iter()
            .map(|s| s.facts.protected_activity)
            .find(|p| p.is_protected())
            .unwrap_or(ProtectedActivity::None)
    }
}

/// The precision the phone's and the desk's forms send a time at: the minute
/// (a `datetime-local` input shows no seconds).
pub const FORM_PRECISION_MS: i64 = 60_000;

/// `sent`, unless it is `stored` as a form shows it: sent at the form's
/// precision and in the same minute, it is the stored time unchanged, seconds
/// and all.
fn kept(sent: Moment, stored: Moment) -> Moment {
    let at_form_precision = sent.0.rem_euclid(FORM_PRECISION_MS) == 0;
    let same_minute =
        sent.0.div_euclid(FORM_PRECISION_MS) == stored.0.div_euclid(FORM_PRECISION_MS);
    if at_form_precision && same_minute {
        stored
    } else {
        sent
    }
}

impl IncidentReport {
    /// The report as a correction means it (issue #37, finding 1): every time
    /// sent at the form's precision that equals the stored one at that
    /// precision is the stored time, so a correction of the narrative alone
    /// keeps the stored seconds and writes no history line for a time nobody
    /// changed. Times are matched by what they are the time of: the
    /// incident's start, each order (by its place in the list), each person's
    /// response (by the person), each count of a gathering (by its place).
    /// Every path that stores a correction goes through this.
    pub fn keeping_stored_times(mut self, stored: &IncidentReport) -> IncidentReport {
        self.occurred_at = kept(self.occurred_at, stored.occurred_at);
        for (order, was) in self.orders.iter_mut().zip(&stored.orders) {
            order.given_at = kept(order.given_at, was.given_at);
        }
        for subject in &mut self.subjects {
            let Some(was) = stored
                .subjects
                .iter()
                .find(|s| s.subject_id == subject.subject_id)
            else {
                continue;
            };
            if let (Some(at), Some(before)) = (subject.facts.response.at(), was.facts.response.at())
            {
                subject.facts.response = subject.facts.response.at_time(kept(at, before));
            }
        }
        if let (Some(scene), Some(was)) = (self.gathering.as_mut(), stored.gathering.as_ref()) {
            for (count, before) in scene.counts.iter_mut().zip(&was.counts) {
                count.at = kept(count.at, before.at);
            }
        }
        self
    }
}

/// The rules' word on one person: the decision on each offence charged (in the
/// order of their charges), the cautions for the chief, and the outcome — or the
/// reasons a requested citation cannot issue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubjectVerdict {
    pub subject_id: Uuid,
    pub decisions: Vec<Decision>,
    /// The decisions' cautions, the person's own (a minor, not identified, two
    /// sections on one refusal), and status words in this person's free texts.
    pub cautions: Vec<Caution>,
    pub outcome: Result<Outcome, Vec<Finding>>,
}

impl SubjectVerdict {
    /// The decision on `offence`, if it was charged.
    pub fn decision(&self, offence: Offence) -> Option<&Decision> {
        self.decisions.iter().find(|d| d.offence == offence)
    }

    /// A citation is asked for this person but they are not identified: a
    /// summons needs the person's name and address, so their citations are held
    /// out of the filing queue until the report is amended with the identity.
    pub fn held_until_identified(&self) -> bool {
        self.cautions
            .iter()
            .any(|c| matches!(c, Caution::Unidentified { .. }))
    }
}

/// Asks the rules about every person of the report, exactly as the server will.
/// Each person's verdict reads the scene and their own facts only.
pub fn verdicts(report: &IncidentReport, now: Moment) -> Vec<SubjectVerdict> {
    let scene = report.scene();
    report
        .subjects
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let decisions: Vec<Decision> = s
                .charges
                .iter()
                .map(|c| ordinance::decide(&scene, &s.facts, c.offence, now))
                .collect();
            let mut cautions: Vec<Caution> = Vec::new();
            let own =
                ordinance::person_cautions(i, s.standing(report.occurred_at), &s.facts, &s.charges);
            let decided = decisions.iter().flat_map(|d| d.cautions.iter().cloned());
            for c in decided.chain(own).chain(person_status_words(i, s)) {
                if !cautions.contains(&c) {
                    cautions.push(c);
                }
            }
            let outcome = ordinance::outcome(&s.facts, &s.charges, &decisions);
            SubjectVerdict {
                subject_id: s.subject_id,
                decisions,
                cautions,
                outcome,
            }
        })
        .collect()
}

/// A status-word caution on `text`, if it has any.
fn screened(text: &str, which: ScreenedText) -> Option<Caution> {
    let words = status_words(text);
    (!words.is_empty()).then_some(Caution::StatusWords { words, text: which })
}

/// The status words of a person's own free texts: the description of a person
/// not identified, and the law their expression is said to contravene.
fn person_status_words(i: usize, s: &SubjectEntry) -> impl Iterator<Item = Caution> {
    let description = s
        .identity
        .description()
        .and_then(|text| screened(text, ScreenedText::Description { person: i }));
    let law = s
        .facts
        .contravenes
        .as_deref()
        .and_then(|text| screened(text, ScreenedText::Law { person: i }));
    description.into_iter().chain(law)
}

/// Every caution of the report for the chief: the status words of the
/// narrative, of each order's words and of the location, then each person's,
/// without repeats.
pub fn cautions(report: &IncidentReport, verdicts: &[SubjectVerdict]) -> Vec<Caution> {
    let orders = report
        .orders
        .iter()
        .enumerate()
        .filter_map(|(k, o)| screened(&o.words, ScreenedText::Order { order: k }));
    let mut out: Vec<Caution> = screened(&report.narrative, ScreenedText::Narrative)
        .into_iter()
        .chain(orders)
        .chain(screened(&report.location.text, ScreenedText::Location))
        .collect();
    for c in verdicts.iter().flat_map(|v| v.cautions.iter()) {
        if !out.contains(c) {
            out.push(c.clone());
        }
    }
    out
}

/// Dates as the civil calendar counts them (shared with the browser).
pub use crate::model::civil::{days_from_civil, parse_date};

/// Where a time problem goes on the form.
fn time_field(problem: TimeProblem, person: Option<usize>) -> String {
    match (problem.field(), person) {
        (TimeField::Incident, _) => "occurred_at".to_owned(),
        (TimeField::Order(k), _) => format!("orders.{k}.given_at"),
        (TimeField::Response, Some(i)) => format!("subjects.{i}.response_at"),
        (TimeField::Response, None) => "subjects".to_owned(),
    }
}

/// What is being sent: a new report, or a correction of one stored (the
/// officer's resubmission of a returned report, the chief's amendment). A
/// correction carries its reason and may concern an incident of any age.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Submission {
    New,
    Correction,
}

/// Everything wrong with a new report as data: see [`problems_of`].
pub fn problems(report: &IncidentReport, now: Moment) -> Vec<FieldError> {
    problems_of(report, now, Submission::New)
}

/// Everything wrong with the report as data: sizes, formats, impossible or future
/// times (every report passes the time rules, cited or not: §52-1 D's order,
/// then the chance to obey, then the response), contradictions between a person's
/// response and the order they received, duplicate persons. Field paths match
/// the form's inputs. A new report must also concern an incident of the last
/// year (a check of the date typed); a correction need not.
pub fn problems_of(
    report: &IncidentReport,
    now: Moment,
    submission: Submission,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if report.incident_id.get_version_num() != 7 && report.incident_id.get_version_num() != 4 {
        errors.push(FieldError::new(
            "incident_id",
            "The report id must be a UUID made by the phone.",
        ));
    }
    if submission == Submission::New && report.occurred_at.0 < now.0 - 366 * 24 * 3_600_000 {
        errors.push(FieldError::new(
            "occurred_at",
            "The time of the incident is more than a year ago — check the date.",
        ));
    }
    location_problems(&mut errors, &report.location);
    narrative_problems(&mut errors, &report.narrative);
    if let Some(g) = &report.gathering {
        errors.extend(crate::model::gathering::scene_problems(
            g,
            report.occurred_at,
            now,
        ));
    }
    order_problems(&mut errors, &report.orders);
    let scene = report.scene();
    for problem in ordinance::article_i::timing::scene_problems(&scene, now) {
        errors.push(FieldError::new(
            time_field(problem, None),
            problem.message(),
        ));
    }
    subject_problems(&mut errors, report, now);
    errors
}

fn location_problems(errors: &mut Vec<FieldError>, location: &Location) {
    short_text(
        errors,
        "location.text".into(),
        &location.text,
        "Location",
        true,
    );
    if let Some(gps) = location.gps {
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
}

fn narrative_problems(errors: &mut Vec<FieldError>, narrative: &str) {
    if narrative.trim().is_empty() {
        errors.push(FieldError::new(
            "narrative",
            "Narrative: describe what each person did (conduct, not status).",
        ));
    } else if too_long(narrative, MAX_NARRATIVE_CHARS) {
        errors.push(FieldError::new(
            "narrative",
            format!("Narrative: at most {MAX_NARRATIVE_CHARS} characters."),
        ));
    } else if has_control(narrative) {
        errors.push(FieldError::new(
            "narrative",
            "Narrative: remove control characters.",
        ));
    }
}

fn order_problems(errors: &mut Vec<FieldError>, orders: &[DispersalOrder]) {
    if orders.len() > MAX_ORDERS {
        errors.push(FieldError::new(
            "orders",
            format!("At most {MAX_ORDERS} orders in one incident."),
        ));
    }
    for (k, order) in orders.iter().enumerate() {
        if too_long(&order.words, 2_000) || has_control(&order.words) {
            errors.push(FieldError::new(
                format!("orders.{k}.words"),
                "The words of the order: at most 2 000 characters of plain text.",
            ));
        }
        if order.minutes_to_comply > 24 * 60 {
            errors.push(FieldError::new(
                format!("orders.{k}.minutes_to_comply"),
                "Time allowed to comply: at most 24 hours.",
            ));
        }
    }
}

/// The persons: how many, each once, each identity, each person's own facts,
/// each signature.
fn subject_problems(errors: &mut Vec<FieldError>, report: &IncidentReport, now: Moment) {
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
        if seen_ids.contains(&s.subject_id) {
            errors.push(FieldError::new(
                format!("subjects.{i}.subject_id"),
                "The same person is listed twice.",
            ));
        }
        seen_ids.push(s.subject_id);
        let when = When {
            now,
            occurred_at: report.occurred_at,
        };
        identity_problems(errors, i, &s.identity, when, &mut seen_people);
        if s.identity.is_organisation() {
            organisation_problems(errors, report, i);
        }
        person_problems(errors, report, i, now);
        if let Some(problem) = signature_problem(s) {
            errors.push(FieldError::new(format!("subjects.{i}.signature"), problem));
        }
    }
}

fn signature_problem(s: &SubjectEntry) -> Option<&'static str> {
    let signature = s.signature.as_ref()?;
    match signature {
        _ if !s.charges.iter().any(|c| c.issue_citation) => {
            Some("Signature: only a person given a summons is asked to sign it.")
        }
        crate::model::signature::PersonSignature::Signed(drawn) => drawn.problem(),
        crate::model::signature::PersonSignature::Refused => None,
    }
}

/// The clock, and when the incident began: a date of birth is checked against
/// both.
#[derive(Clone, Copy)]
struct When {
    now: Moment,
    occurred_at: Moment,
}

fn identity_problems(
    errors: &mut Vec<FieldError>,
    i: usize,
    identity: &Identity,
    when: When,
    seen_people: &mut Vec<(String, String)>,
) {
    let f = |name: &str| format!("subjects.{i}.{name}");
    match identity {
        Identity::Identified {
            full_name,
            date_of_birth,
            address,
            id_type,
            id_number,
        } => {
            short_text(errors, f("full_name"), full_name, "Name", true);
            short_text(errors, f("address"), address, "Address", true);
            if let Some(problem) = date_of_birth_problem(identity, date_of_birth, when) {
                errors.push(FieldError::new(f("date_of_birth"), problem));
            }
            if let Some(number) = id_number {
                short_text(errors, f("id_number"), number, "ID number", false);
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
            short_text(errors, f("description"), description, "Description", true);
        }
        Identity::Organisation {
            name,
            address,
            representative,
        } => {
            short_text(
                errors,
                f("full_name"),
                name,
                "Name of the organisation",
                true,
            );
            short_text(errors, f("address"), address, "Address", true);
            if let Some(who) = representative {
                short_text(errors, f("representative"), who, "Representative", false);
            }
            let key = (name.trim().to_lowercase(), "organisation".to_owned());
            if !key.0.is_empty() && seen_people.contains(&key) {
                errors.push(FieldError::new(
                    f("full_name"),
                    "This organisation is already listed.",
                ));
            }
            seen_people.push(key);
        }
    }
}

/// An organisation is a party to Article II only: §52-12 fines "any person or
/// party violating the provisions of Article II", while Article I's offences are
/// a person's own conduct — loitering, standing, making noise. Its perception
/// (age, sex, race) is not recorded: those are a person's.
fn organisation_problems(errors: &mut Vec<FieldError>, report: &IncidentReport, i: usize) {
    let s = &report.subjects[i];
    let article_i = s.offences().any(|o| o != Offence::UnpermittedMassGathering);
    if report.gathering.is_none() || article_i {
        errors.push(FieldError::new(
            format!("subjects.{i}.identity"),
            "An organisation is cited only under Article II (§52-12: \u{201c}any person or party\u{201d}, \
             for a mass gathering without a permit, §52-7): Article I's offences (§52-1 to §52-3) are a \
             person's own conduct — record the person who acted.",
        ));
    }
    let p = s.perceived;
    if (p.age_range, p.sex, p.race)
        != (
            AgeRange::Unknown,
            PerceivedSex::Unknown,
            PerceivedRace::Unknown,
        )
    {
        errors.push(FieldError::new(
            format!("subjects.{i}.perceived"),
            "Perceived age, sex and race are recorded for persons only, not for an organisation.",
        ));
    }
}

/// A date of birth that is no date, in the future, more than 120 years ago, or
/// that makes the person younger than [`MIN_AGE_YEARS`] at the incident (a
/// mistyped date: the department's plausibility floor).
fn date_of_birth_problem(identity: &Identity, date_of_birth: &str, when: When) -> Option<String> {
    let Some((y, m, d)) = parse_date(date_of_birth) else {
        return Some("Date of birth: a real date, as YYYY-MM-DD.".to_owned());
    };
    let day = days_from_civil(y, m, d) * 86_400_000;
    if day > when.now.0 || day < when.now.0 - 120 * 366 * 86_400_000 {
        return Some("Date of birth: not in the future, nor more than 120 years ago.".to_owned());
    }
    let age = identity.age_at(when.occurred_at)?;
    (age < i64::from(MIN_AGE_YEARS)).then(|| {
        if age < 0 {
            "Date of birth: after the incident — check the date.".to_owned()
        } else {
            format!(
                "Date of birth: the person would be {age} at the incident, younger than \
                 {MIN_AGE_YEARS} — check the date."
            )
        }
    })
}

/// One person's own facts as data: the order they received exists and their
/// response fits it, its time passes the time rules, the persons they stood with
/// are others of this report, the law their expression contravened is named,
/// and each offence is charged once.
fn person_problems(errors: &mut Vec<FieldError>, report: &IncidentReport, i: usize, now: Moment) {
    let s = &report.subjects[i];
    let p = &s.facts;
    let f = |name: &str| format!("subjects.{i}.{name}");
    let order = order_and_response_problems(errors, report, i);
    let section = ordinance::article_i::timing::order_section(&s.offences().collect::<Vec<_>>());
    for problem in ordinance::article_i::timing::response_problems(order, p.response, now) {
        errors.push(FieldError::new(
            time_field(problem, Some(i)),
            problem.message_under(section),
        ));
    }
    let with = &p.conduct.group.stood_with;
    if with
        .iter()
        .enumerate()
        .any(|(n, &j)| j >= report.subjects.len() || j == i || with[..n].contains(&j))
    {
        errors.push(FieldError::new(
            f("conduct.group.stood_with"),
            "§52-2: the persons this person stood with must be other persons of this report, each once.",
        ));
    }
    law_contravened_problems(errors, i, p);
    let mut offences: Vec<Offence> = s.offences().collect();
    offences.sort();
    if offences.windows(2).any(|w| w[0] == w[1]) {
        errors.push(FieldError::new(
            f("charges"),
            "Each offence is charged to a person once.",
        ));
    }
    if p.protected_activity.is_protected() && offences.iter().any(|o| o.is_section_52_1()) {
        errors.push(FieldError::new(
            f("charges"),
            "§52-1 E: this person was expressing an opinion — §52-1 offences cannot be charged to them.",
        ));
    }
}

/// The order person `i` received exists, and their response fits having
/// received it (or not); returns the order.
fn order_and_response_problems<'a>(
    errors: &mut Vec<FieldError>,
    report: &'a IncidentReport,
    i: usize,
) -> Option<&'a DispersalOrder> {
    let p = &report.subjects[i].facts;
    let f = |name: &str| format!("subjects.{i}.{name}");
    let order = match p.order {
        Some(k) if k >= report.orders.len() => {
            errors.push(FieldError::new(
                f("order"),
                "§52-1 D: the order this person received is not among the report's orders.",
            ));
            None
        }
        Some(k) => report.orders.get(k),
        None => None,
    };
    match (p.order.is_some(), p.response) {
        (false, Response::Complied { .. } | Response::Refused { .. }) => {
            errors.push(FieldError::new(
                f("order"),
                "§52-1 D: a response to an order needs the order — record that this person received it, \
                 or choose “no order”.",
            ))
        }
        (true, Response::NoOrder) => errors.push(FieldError::new(
            f("response"),
            "§52-1 D: this person received the order — say whether they complied or failed or refused to \
             obey it.",
        )),
        (true, Response::LeftBeforeOrder) => errors.push(FieldError::new(
            f("response"),
            "A person who left before an order could be given did not receive it — choose one or the other.",
        )),
        _ => {}
    }
    order
}

/// §52-1 E's proviso: expression in contravention of another law names that
/// law, in one line; no other answer names one.
fn law_contravened_problems(errors: &mut Vec<FieldError>, i: usize, p: &PersonFacts) {
    let field = format!("subjects.{i}.contravenes");
    let law = p.contravenes.as_deref().unwrap_or_default();
    if p.protected_activity == ProtectedActivity::UnlawfulExpression {
        if law.trim().is_empty() {
            errors.push(FieldError::new(
                field,
                "§52-1 E: name the Town ordinance or State or Federal law (with its section) this \
                 person's expression contravened.",
            ));
        } else {
            short_text(errors, field, law, "§52-1 E: the law contravened", true);
        }
    } else if p.contravenes.is_some() {
        errors.push(FieldError::new(
            field,
            "§52-1 E: a law is named only for expression that contravened it — choose that answer, or \
             remove the law.",
        ));
    }
}

/// The rules' refusals, as field errors: each person asked to be cited whose
/// decisions do not allow it.
pub fn refusals(verdicts: &[SubjectVerdict]) -> Vec<FieldError> {
    verdicts
        .iter()
        .enumerate()
        .flat_map(|(i, v)| match &v.outcome {
            Ok(_) => Vec::new(),
            Err(reasons) => reasons
                .iter()
                .map(|r| FieldError::new(format!("subjects.{i}.charges"), r.message.clone()))
                .collect(),
        })
        .collect()
}

/// Validates a new report, data and law; the server calls exactly this on a
/// submission.
pub fn check(report: &IncidentReport, now: Moment) -> Result<Vec<SubjectVerdict>, AppError> {
    check_as(report, now, Submission::New)
}

/// Validates a correction or amendment of a stored report, data and law: as a
/// new report, but an incident of any age (a correction carries its reason).
pub fn check_correction(
    report: &IncidentReport,
    now: Moment,
) -> Result<Vec<SubjectVerdict>, AppError> {
    check_as(report, now, Submission::Correction)
}

/// Validates the whole report as `submission`, data and law.
pub fn check_as(
    report: &IncidentReport,
    now: Moment,
    submission: Submission,
) -> Result<Vec<SubjectVerdict>, AppError> {
    let mut errors = problems_of(report, now, submission);
    let verdicts = verdicts(report, now);
    if errors.is_empty() {
        errors = refusals(&verdicts);
    }
    AppError::unless_any(errors).map(|()| verdicts)
}

/// A person's signature (or refusal) is given once, when the summons is handed
/// over: a correction or an amendment of the report may not add, change or take
/// it away — the person is no longer there to sign. Problems by field.
pub fn signature_changed_in_correction(
    before: &IncidentReport,
    after: &IncidentReport,
) -> Vec<FieldError> {
    after
        .subjects
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            let was = before
                .subjects
                .iter()
                .find(|b| b.subject_id == s.subject_id)
                .and_then(|b| b.signature.as_ref());
            was != s.signature.as_ref()
        })
        .map(|(i, _)| {
            FieldError::new(
                format!("subjects.{i}.signature"),
                "Signature: given (or refused) when the summons was handed over; a correction cannot add, change or remove it.",
            )
        })
        .collect()
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
    /// What became of numbers given out on scene that the citations do not
    /// carry (issue #17): void, or replaced. Said once, to the submission.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub number_notes: Vec<String>,
    /// Each person's name (or description) by subject id, so the receipt says
    /// whose outcome each line is (#35). Empty in receipts a phone kept from
    /// before: their lines read "Person n".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub persons: Vec<(Uuid, String)>,
}

impl Receipt {
    /// Each outcome with whose it is, in the report's order: `None` in a
    /// receipt kept from before receipts named persons (it read as outcomes alone).
    pub fn named_outcomes(&self) -> Vec<(Option<String>, Outcome)> {
        self.outcomes
            .iter()
            .map(|(id, outcome)| {
                let name = self
                    .persons
                    .iter()
                    .find(|(p, _)| p == id)
                    .map(|(_, name)| name.clone());
                (name, *outcome)
            })
            .collect()
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ordinance::{Conduct, PassageObstruction, RefusalManner};

    /// 2026-07-04 21:00 EDT, and an hour later.
    const OCCURRED: Moment = Moment(1_783_213_200_000);
    const NOW: Moment = Moment(OCCURRED.0 + 3_600_000);

    /// One identified adult who stood across the sidewalk and refused: cited.
    fn report() -> IncidentReport {
        let minutes = |m: u32| OCCURRED.plus_minutes(m);
        IncidentReport {
            incident_id: Uuid::from_u128(0x01937f00_0000_7000_8000_000000000001),
            occurred_at: OCCURRED,
            location: Location {
                text: "Post Road at Mile Road".into(),
                place: PlaceType::Sidewalk,
                gps: None,
            },
            orders: vec![DispersalOrder {
                words: "Stop blocking the way and move on.".into(),
                given_at: minutes(5),
                move_on: true,
                minutes_to_comply: 2,
            }],
            narrative: "Stood across the sidewalk; pedestrians stepped into the road.".into(),
            subjects: vec![SubjectEntry {
                subject_id: Uuid::from_u128(0x01937f00_0000_7000_8000_000000000002),
                identity: Identity::Identified {
                    full_name: "Alex Morgan".into(),
                    date_of_birth: "1990-02-03".into(),
                    address: "12 Main Street, Wells, ME".into(),
                    id_type: None,
                    id_number: None,
                },
                perceived: Perceived {
                    age_range: AgeRange::From35To49,
                    sex: PerceivedSex::Male,
                    race: PerceivedRace::White,
                },
                facts: PersonFacts {
                    protected_activity: ProtectedActivity::None,
                    conduct: Conduct {
                        remained_in_one_location: true,
                        passage: PassageObstruction {
                            pedestrians: true,
                            vehicles: false,
                            place: Some(PlaceType::Sidewalk),
                        },
                        ..Conduct::default()
                    },
                    order: Some(0),
                    response: Response::Refused {
                        at: minutes(8),
                        manner: RefusalManner::StayedInPlace,
                    },
                    arrested: false,
                    place: None,
                    contravenes: None,
                },
                charges: vec![Charge {
                    offence: Offence::LoiteringObstruction,
                    issue_citation: true,
                }],
                signature: None,
                not_recorded: Vec::new(),
            }],
            numbers: Vec::new(),
            gathering: None,
        }
    }

    fn born(report: &mut IncidentReport, date: &str) {
        if let Identity::Identified { date_of_birth, .. } = &mut report.subjects[0].identity {
            *date_of_birth = date.to_owned();
        }
    }

    fn errors_at(report: &IncidentReport, field: &str) -> Vec<String> {
        problems(report, NOW)
            .into_iter()
            .filter(|e| e.field == field)
            .map(|e| e.message)
            .collect()
    }

    /// #35: a §52-2 person's response in the order's own minute was refused
    /// naming §52-1 D, a section they were not charged under.
    #[test]
    fn a_time_problem_names_the_section_of_the_order_the_person_is_charged_under() {
        let mut report = report();
        report.subjects[0].facts.response = Response::Refused {
            at: OCCURRED.plus_minutes(5),
            manner: RefusalManner::StayedInPlace,
        };
        let field = "subjects.0.response_at";
        let errors = errors_at(&report, field);
        assert!(
            errors[0].starts_with("§52-1 D: recorded 0 min after the order"),
            "{errors:?}"
        );
        report.subjects[0].charges[0].offence = Offence::GroupObstruction;
        let errors = errors_at(&report, field);
        assert!(
            errors[0].starts_with("§52-2: recorded 0 min after the order"),
            "{errors:?}"
        );
        // Charged under both, the order is §52-1 D's.
        report.subjects[0].charges.push(Charge {
            offence: Offence::LoiteringObstruction,
            issue_citation: false,
        });
        assert!(errors_at(&report, field)[0].starts_with("§52-1 D: "));
    }

    #[test]
    fn a_time_sent_to_the_minute_that_is_the_stored_minute_keeps_the_stored_seconds() {
        let mut stored = report();
        stored.occurred_at = Moment(OCCURRED.0 + 17_250);
        stored.orders[0].given_at = Moment(stored.orders[0].given_at.0 + 42_000);
        stored.subjects[0].facts.response = Response::Refused {
            at: Moment(OCCURRED.plus_minutes(8).0 + 59_999),
            manner: RefusalManner::StayedInPlace,
        };
        // What the amend form sends back: every time to its minute, and a new narrative.
        let minute = |m: Moment| Moment(m.0 - m.0.rem_euclid(FORM_PRECISION_MS));
        let mut sent = stored.clone();
        sent.occurred_at = minute(stored.occurred_at);
        sent.orders[0].given_at = minute(stored.orders[0].given_at);
        sent.subjects[0].facts.response = stored.subjects[0].facts.response.at_time(minute(
            stored.subjects[0].facts.response.at().expect("a time"),
        ));
        sent.narrative = "Stood across the whole sidewalk for twenty minutes.".into();
        let meant = sent.clone().keeping_stored_times(&stored);
        assert_eq!(meant.occurred_at, stored.occurred_at);
        assert_eq!(meant.orders, stored.orders);
        assert_eq!(
            meant.subjects[0].facts.response,
            stored.subjects[0].facts.response
        );
        assert_eq!(meant.narrative, sent.narrative);
        // A time moved to another minute, or sent with seconds of its own, is a change.
        let mut moved = sent.clone();
        moved.occurred_at = Moment(minute(stored.occurred_at).0 + 60_000);
        moved.orders[0].given_at = Moment(stored.orders[0].given_at.0 + 1_000);
        let meant = moved.clone().keeping_stored_times(&stored);
        assert_eq!(meant.occurred_at, moved.occurred_at);
        assert_eq!(meant.orders[0].given_at, moved.orders[0].given_at);
    }

    #[test]
    fn the_sample_report_is_sound() {
        let verdicts = check(&report(), NOW).expect("sound");
        assert_eq!(verdicts[0].outcome, Ok(Outcome::Cited));
        assert!(verdicts[0].cautions.is_empty());
    }

    /// Issue #33, finding 14: a date of birth making the person younger than 10
    /// at the incident is a mistyped date, refused at the date of birth.
    #[test]
    fn a_date_of_birth_making_the_person_younger_than_10_is_refused() {
        let mut r = report();
        for (date, refused) in [
            ("2026-07-03", true),
            ("2016-07-05", true),
            ("2016-07-04", false),
            ("2008-07-05", false),
        ] {
            born(&mut r, date);
            let errors = errors_at(&r, "subjects.0.date_of_birth");
            assert_eq!(!errors.is_empty(), refused, "{date}: {errors:?}");
            if refused {
                assert!(errors[0].starts_with("Date of birth: the person would be "));
                assert!(errors[0].contains("younger than 10"));
            }
        }
        // After the incident (but not in the future): still a date to check.
        let mut later = report();
        later.occurred_at = Moment(OCCURRED.0 - 400 * 86_400_000);
        born(&mut later, "2026-01-01");
        assert!(problems_of(&later, NOW, Submission::Correction)
            .iter()
            .any(|e| e.field == "subjects.0.date_of_birth"
                && e.message.contains("after the incident")));
    }

    /// Issue #33, finding 14: a person under 18 at the incident — by the date of
    /// birth, or as perceived — draws a caution, and so does their arrest; the
    /// report is accepted.
    #[test]
    fn a_minor_is_cautioned_by_date_of_birth_or_perception_and_still_recorded() {
        let mut r = report();
        born(&mut r, "2008-07-05");
        let v = check(&r, NOW).expect("a minor's report is recorded");
        assert_eq!(
            v[0].cautions,
            vec![Caution::Minor {
                person: 0,
                age: Some(17)
            }]
        );
        born(&mut r, "2008-07-04");
        assert!(check(&r, NOW).expect("sound")[0].cautions.is_empty());
        r.subjects[0].perceived.age_range = AgeRange::Under18;
        assert_eq!(
            check(&r, NOW).expect("sound")[0].cautions,
            vec![Caution::Minor {
                person: 0,
                age: None
            }]
        );
        let kinds: Vec<_> = cautions(&r, &verdicts(&r, NOW))
            .iter()
            .map(crate::model::review::CautionKind::of)
            .collect();
        assert_eq!(kinds, vec![crate::model::review::CautionKind::Minor]);
    }

    /// Issue #33, finding 14: a citation asked for a person not identified is
    /// recorded, with a caution that it is held from filing until identified.
    #[test]
    fn a_citation_for_a_person_not_identified_is_held_until_identified() {
        let mut r = report();
        r.subjects[0].identity = Identity::Described {
            description: "Red jacket, grey cap".into(),
        };
        let v = check(&r, NOW).expect("recorded");
        assert!(v[0].held_until_identified());
        assert!(!r.subjects[0].identified());
        r.subjects[0].charges[0].issue_citation = false;
        assert!(!check(&r, NOW).expect("recorded")[0].held_until_identified());
    }

    /// Issue #33, finding 15: the order's words and the location are screened
    /// for status words, as the narrative and descriptions are.
    #[test]
    fn the_orders_words_and_the_location_are_screened_for_status_words() {
        let mut r = report();
        r.orders[0].words = "You kids stop hanging around here.".into();
        r.location.text = "Behind the store where the unhoused sleep".into();
        let screened: Vec<(Vec<String>, ScreenedText)> = cautions(&r, &verdicts(&r, NOW))
            .into_iter()
            .filter_map(|c| match c {
                Caution::StatusWords { words, text } => Some((words, text)),
                _ => None,
            })
            .collect();
        assert_eq!(
            screened,
            vec![
                (
                    vec!["kids".to_owned(), "hanging around".to_owned()],
                    ScreenedText::Order { order: 0 }
                ),
                (vec!["unhoused".to_owned()], ScreenedText::Location),
            ]
        );
        assert!(Caution::StatusWords {
            words: vec!["kids".into()],
            text: ScreenedText::Order { order: 0 }
        }
        .message()
        .starts_with("The words of order 1 uses status words"));
    }

    /// Issue #33, finding 7: expression in contravention of another law names
    /// the law, in one line; no other answer names one.
    #[test]
    fn the_law_an_expression_contravened_is_named_in_one_line() {
        let mut r = report();
        r.subjects[0].facts.protected_activity = ProtectedActivity::UnlawfulExpression;
        let errors = errors_at(&r, "subjects.0.contravenes");
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("§52-1 E: name the Town ordinance"));
        r.subjects[0].facts.contravenes = Some("Wells Code §86-3\nand more".into());
        assert_eq!(errors_at(&r, "subjects.0.contravenes").len(), 1);
        r.subjects[0].facts.contravenes = Some("Wells Code §86-3 (amplified sound)".into());
        let v = check(&r, NOW).expect("named");
        assert_eq!(v[0].outcome, Ok(Outcome::Cited));
        assert!(matches!(
            v[0].cautions[..],
            [Caution::ExpressionContravening { .. }]
        ));
        r.subjects[0].facts.protected_activity = ProtectedActivity::None;
        assert_eq!(errors_at(&r, "subjects.0.contravenes").len(), 1);
    }

    /// Issue #33, finding 11: a new report of an incident more than a year old is
    /// refused (a check of the date typed); a correction or amendment of one is
    /// not — it carries its reason.
    #[test]
    fn a_correction_of_a_report_over_a_year_old_is_allowed() {
        let mut r = report();
        let year_and_more = 400 * 86_400_000;
        let now = Moment(NOW.0 + year_and_more);
        let old = check(&r, now).expect_err("a new report of last year's incident");
        assert!(matches!(old, AppError::Invalid { errors } if errors[0].field == "occurred_at"));
        assert!(check_correction(&r, now).is_ok());
        // A late "complied" is a fact, not an error.
        r.subjects[0].facts.response = Response::Complied {
            at: OCCURRED.plus_minutes(5 + 2 + 90),
        };
        r.subjects[0].charges[0].issue_citation = false;
        let v = check(&r, Moment(NOW.0 + 3 * 3_600_000)).expect("late compliance");
        assert_eq!(v[0].outcome, Ok(Outcome::Complied));
    }

    /// Issue #33, finding 6: a report without a person's own place is stored as
    /// before (the field is not written), and reads back the same.
    #[test]
    fn a_report_without_a_persons_own_place_is_written_as_before() {
        let r = report();
        let json = serde_json::to_value(&r.subjects[0]).unwrap_or_default();
        assert!(json.get("place").is_none() && json.get("contravenes").is_none());
        let mut on_porch = report();
        on_porch.subjects[0].facts.place = Some(PlaceType::AboutBuildingOrDwelling);
        let json = serde_json::to_string(&on_porch.subjects[0]).unwrap_or_default();
        assert!(json.contains("\"place\":\"about_building_or_dwelling\""));
        let back: SubjectEntry = serde_json::from_str(&json).expect("reads");
        assert_eq!(back, on_porch.subjects[0]);
    }
}
