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
    /// The name, or the description, for lists.
    pub fn display(&self) -> String {
        match self {
            Identity::Identified { full_name, .. } => full_name.clone(),
            Identity::Described { description } => format!("Unidentified: {description}"),
            Identity::Organisation { name, .. } => name.clone(),
        }
    }

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

/// The rules' word on one person: the decision on each offence charged (in the
/// order of their charges), the cautions for the chief, and the outcome — or the
/// reasons a requested citation cannot issue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubjectVerdict {
    pub subject_id: Uuid,
    pub decisions: Vec<Decision>,
    /// The decisions' cautions, and status words in this person's description.
    pub cautions: Vec<Caution>,
    pub outcome: Result<Outcome, Vec<Finding>>,
}

impl SubjectVerdict {
    /// The decision on `offence`, if it was charged.
    pub fn decision(&self, offence: Offence) -> Option<&Decision> {
        self.decisions.iter().find(|d| d.offence == offence)
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
            for c in decisions.iter().flat_map(|d| d.cautions.iter()) {
                if !cautions.contains(c) {
                    cautions.push(c.clone());
                }
            }
            if let Some(text) = s.identity.description() {
                let words = status_words(text);
                if !words.is_empty() {
                    cautions.push(Caution::StatusWords {
                        words,
                        text: ScreenedText::Description { person: i },
                    });
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

/// Every caution of the report for the chief: the narrative's status words, then
/// each person's, without repeats.
pub fn cautions(report: &IncidentReport, verdicts: &[SubjectVerdict]) -> Vec<Caution> {
    let mut out = Vec::new();
    let words = status_words(&report.narrative);
    if !words.is_empty() {
        out.push(Caution::StatusWords {
            words,
            text: ScreenedText::Narrative,
        });
    }
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

/// Everything wrong with the report as data: sizes, formats, impossible or future
/// times (every report passes the time rules, cited or not: §52-1 D's order,
/// then the chance to obey, then the response), contradictions between a person's
/// response and the order they received, duplicate persons. Field paths match
/// the form's inputs.
pub fn problems(report: &IncidentReport, now: Moment) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if report.incident_id.get_version_num() != 7 && report.incident_id.get_version_num() != 4 {
        errors.push(FieldError::new(
            "incident_id",
            "The report id must be a UUID made by the phone.",
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
            "Narrative: describe what each person did (conduct, not status).",
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
    if let Some(g) = &report.gathering {
        errors.extend(crate::model::gathering::scene_problems(
            g,
            report.occurred_at,
            now,
        ));
    }
    if report.orders.len() > MAX_ORDERS {
        errors.push(FieldError::new(
            "orders",
            format!("At most {MAX_ORDERS} orders in one incident."),
        ));
    }
    for (k, order) in report.orders.iter().enumerate() {
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
    let scene = report.scene();
    for problem in ordinance::article_i::timing::scene_problems(&scene, now) {
        errors.push(FieldError::new(
            time_field(problem, None),
            problem.message(),
        ));
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
        identity_problems(&mut errors, i, &s.identity, now, &mut seen_people);
        if s.identity.is_organisation() {
            organisation_problems(&mut errors, report, i);
        }
        person_problems(&mut errors, report, i, now);
        if let Some(signature) = &s.signature {
            let problem = match signature {
                _ if !s.charges.iter().any(|c| c.issue_citation) => {
                    Some("Signature: only a person given a summons is asked to sign it.")
                }
                crate::model::signature::PersonSignature::Signed(drawn) => drawn.problem(),
                crate::model::signature::PersonSignature::Refused => None,
            };
            if let Some(problem) = problem {
                errors.push(FieldError::new(f("signature"), problem));
            }
        }
    }
    errors
}

fn identity_problems(
    errors: &mut Vec<FieldError>,
    i: usize,
    identity: &Identity,
    now: Moment,
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

/// One person's own facts as data: the order they received exists and their
/// response fits it, its time passes the time rules, the persons they stood with
/// are others of this report, and each offence is charged once.
fn person_problems(errors: &mut Vec<FieldError>, report: &IncidentReport, i: usize, now: Moment) {
    let s = &report.subjects[i];
    let p = &s.facts;
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
    for problem in ordinance::article_i::timing::response_problems(order, p.response, now) {
        errors.push(FieldError::new(
            time_field(problem, Some(i)),
            problem.message(),
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

/// Validates the whole report, data and law; the server calls exactly this.
pub fn check(report: &IncidentReport, now: Moment) -> Result<Vec<SubjectVerdict>, AppError> {
    let mut errors = problems(report, now);
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
