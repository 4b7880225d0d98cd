//! The report as the officer is filling it in: every answer optional until
//! submit, saved on the phone after every change, turned into an
//! [`IncidentReport`] (or the list of what is still missing) on demand.
//!
//! Each person carries their own facts (DESIGN §2): their §52-1 E answer, what
//! they did, the order they received, their response and the offences charged.
//! The orders are the incident's: one given to the group is received by each
//! person it reached.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::model::converted::ConvertedFact;
use crate::model::incident::{
    AgeRange, GpsFix, IdType, Identity, IncidentReport, Location, Perceived, PerceivedRace,
    PerceivedSex, SubjectEntry, Submission,
};
use crate::model::signature::PersonSignature;
use crate::ordinance::{
    Caution, Charge, Conduct, DispersalOrder, Moment, Offence, PersonFacts, PlaceType,
    ProtectedActivity, RefusalManner, Response, Scene,
};

/// What the person did about the order, before its time is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseChoice {
    NoOrder,
    LeftBeforeOrder,
    Complied,
    Refused,
}

impl ResponseChoice {
    pub const ALL: [ResponseChoice; 4] = [
        ResponseChoice::Refused,
        ResponseChoice::Complied,
        ResponseChoice::LeftBeforeOrder,
        ResponseChoice::NoOrder,
    ];
    pub const fn label(self) -> &'static str {
        match self {
            ResponseChoice::Refused => "Failed or refused to obey",
            ResponseChoice::Complied => "Complied",
            ResponseChoice::LeftBeforeOrder => "Left before an order could be given",
            ResponseChoice::NoOrder => "No order given to this person",
        }
    }
    pub const fn needs_time(self) -> bool {
        matches!(self, ResponseChoice::Refused | ResponseChoice::Complied)
    }
}

/// An order as typed: its time in the phone's clock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrderDraft {
    pub words: String,
    /// `YYYY-MM-DDTHH:MM` in the phone's time.
    pub at: String,
    pub move_on: bool,
    pub minutes_to_comply: Option<u32>,
}

impl OrderDraft {
    pub fn new(now_local: String) -> OrderDraft {
        OrderDraft {
            words: String::new(),
            at: now_local,
            move_on: false,
            minutes_to_comply: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubjectDraft {
    pub subject_id: Uuid,
    pub identified: bool,
    pub full_name: String,
    pub date_of_birth: String,
    pub address: String,
    pub id_type: Option<IdType>,
    pub id_number: String,
    pub description: String,
    pub age_range: Option<AgeRange>,
    pub sex: Option<PerceivedSex>,
    pub race: Option<PerceivedRace>,
    /// §52-1 E, for this person.
    pub protected: Option<ProtectedActivity>,
    /// §52-1 E's proviso: the law the expression contravened, as typed (sent only
    /// with that answer).
    #[serde(default)]
    pub contravenes: String,
    /// Where this person was, when not the incident's place (`None`: the same).
    #[serde(default)]
    pub place: Option<PlaceType>,
    /// What this person did. Its `group.stood_with` is not used here: the persons
    /// stood with are `stood_with`, by id, since positions change as persons are
    /// added and removed.
    pub conduct: Conduct,
    pub stood_with: Vec<Uuid>,
    /// The order this person received, by position in the draft's orders.
    pub order: Option<usize>,
    pub response: Option<ResponseChoice>,
    /// `YYYY-MM-DDTHH:MM` in the phone's time.
    pub response_at: String,
    pub manner: Option<RefusalManner>,
    /// §52-2: an arrest was made.
    pub arrested: bool,
    /// The offences charged, in the order chosen.
    pub offences: Vec<Offence>,
    /// Those of `offences` to issue a citation for.
    pub cite: Vec<Offence>,
    /// "No offence" was chosen (rather than not answered yet).
    pub no_offence: bool,
    /// Asked to sign the summons: signed, or refused (issue #20). Kept only for a
    /// person given a summons.
    #[serde(default)]
    pub signature: Option<PersonSignature>,
    /// Answers a conversion from the earlier app filled in without a record of
    /// them (issue #33): the officer checks and confirms them before sending.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub to_check: Vec<ConvertedFact>,
}

impl SubjectDraft {
    pub fn new(subject_id: Uuid) -> SubjectDraft {
        SubjectDraft {
            subject_id,
            identified: true,
            full_name: String::new(),
            date_of_birth: String::new(),
            address: String::new(),
            id_type: None,
            id_number: String::new(),
            description: String::new(),
            age_range: None,
            sex: None,
            race: None,
            protected: None,
            contravenes: String::new(),
            place: None,
            conduct: Conduct::default(),
            stood_with: Vec::new(),
            order: None,
            response: None,
            response_at: String::new(),
            manner: None,
            arrested: false,
            offences: Vec::new(),
            cite: Vec::new(),
            no_offence: false,
            signature: None,
            to_check: Vec::new(),
        }
    }

    /// A short name for headings: the name, the description, or "Person n".
    pub fn title(&self, index: usize) -> String {
        let text = if self.identified {
            self.full_name.trim()
        } else {
            self.description.trim()
        };
        if text.is_empty() {
            format!("Person {}", index + 1)
        } else {
            text.chars().take(40).collect()
        }
    }

    /// The identity a licence's barcode gave, once the officer confirmed it against
    /// the card: name, date of birth, address (kept as typed when the card has
    /// none), the kind of document and its number. The officer's perception is
    /// never filled from the card.
    pub fn fill_from_card(&mut self, card: &crate::model::licence::LicenceScan) {
        use crate::model::licence::ScannedDocument;
        self.identified = true;
        self.full_name = card.full_name();
        self.date_of_birth = card.date_of_birth.clone();
        let address = card.address();
        if !address.is_empty() {
            self.address = address;
        }
        self.id_type = Some(match card.document {
            ScannedDocument::DriverLicence => IdType::DriverLicense,
            ScannedDocument::IdCard => IdType::StateId,
        });
        self.id_number = card.number.clone();
    }

    /// Takes `from`'s facts as this person's own ("same as person 1"): the §52-1 E
    /// answer (and the law named), where they were, the conduct, who they stood
    /// with (each other, and the rest), the order, the response and the offences
    /// charged — not the identity, and not a citation or an arrest, which the
    /// officer decides for each person.
    pub fn copy_facts(&mut self, from: &SubjectDraft) {
        self.protected = from.protected;
        self.contravenes = from.contravenes.clone();
        self.place = from.place;
        self.conduct = from.conduct.clone();
        self.stood_with = from
            .stood_with
            .iter()
            .copied()
            .filter(|id| *id != self.subject_id)
            .chain(std::iter::once(from.subject_id))
            .collect();
        self.order = from.order;
        self.response = from.response;
        self.response_at = from.response_at.clone();
        self.manner = from.manner;
        self.offences = from.offences.clone();
        self.cite.clear();
        self.arrested = false;
        self.no_offence = from.no_offence;
    }

    /// Charges an offence, or takes it back (with its citation).
    pub fn toggle_offence(&mut self, offence: Offence, on: bool) {
        self.offences.retain(|o| *o != offence);
        self.cite.retain(|o| *o != offence);
        if on {
            self.offences.push(offence);
            self.no_offence = false;
        }
        if !self.cite.contains(&Offence::GroupObstruction) {
            self.arrested = false;
        }
    }

    /// Asks for a citation for a charged offence, or not. One refusal of one
    /// order is one §52-1 violation (§52-1 D): asking for a §52-1 citation takes
    /// back the person's other §52-1 citation, which is returned (its offence
    /// stays charged) so the form can say why.
    pub fn toggle_citation(&mut self, offence: Offence, on: bool) -> Option<Offence> {
        self.cite.retain(|o| *o != offence);
        let mut taken_back = None;
        if on && self.offences.contains(&offence) {
            if offence.is_section_52_1() {
                taken_back = self.cite.iter().copied().find(|o| o.is_section_52_1());
                self.cite.retain(|o| !o.is_section_52_1());
            }
            self.cite.push(offence);
        }
        if !self.cite.contains(&Offence::GroupObstruction) {
            self.arrested = false;
        }
        taken_back
    }

    /// "No offence — no action": clears the charges.
    pub fn no_action(&mut self) {
        self.offences.clear();
        self.cite.clear();
        self.no_offence = true;
        self.arrested = false;
    }

    fn response(
        &self,
        local: &impl Fn(&str) -> Option<Moment>,
        fallback: Moment,
    ) -> Option<Response> {
        self.response.map(|choice| match choice {
            ResponseChoice::NoOrder => Response::NoOrder,
            ResponseChoice::LeftBeforeOrder => Response::LeftBeforeOrder,
            ResponseChoice::Complied => Response::Complied {
                at: local(&self.response_at).unwrap_or(fallback),
            },
            ResponseChoice::Refused => Response::Refused {
                at: local(&self.response_at).unwrap_or(fallback),
                manner: self.manner.unwrap_or(RefusalManner::Other),
            },
        })
    }

    /// This person's answers still missing (but their times), each at its field;
    /// the person is at position `i`.
    fn missing(&self, i: usize) -> Vec<FieldError> {
        let f = |name: &str| format!("subjects.{i}.{name}");
        let mut missing = Vec::new();
        if self.protected.is_none() {
            missing.push(FieldError::new(
                f("protected_activity"),
                "§52-1 E: answer whether this person was expressing an opinion lawfully.",
            ));
        }
        if self.response.is_none() {
            missing.push(FieldError::new(
                f("response"),
                "Say what this person did about the order (§52-1 D).",
            ));
        }
        if self.response == Some(ResponseChoice::Refused) && self.manner.is_none() {
            missing.push(FieldError::new(
                f("manner"),
                "§52-1 D: say how the person failed or refused.",
            ));
        }
        if self.offences.is_empty() && !self.no_offence {
            missing.push(FieldError::new(
                f("charges"),
                "Choose the offence, or “no offence”.",
            ));
        }
        if self.age_range.is_none() || self.sex.is_none() || self.race.is_none() {
            missing.push(FieldError::new(
                f("perceived"),
                "Record your perception of age, sex and race (for bias audits; never asked of the person).",
            ));
        }
        if !self.to_check.is_empty() {
            missing.push(FieldError::new(
                f("to_check"),
                to_check_message(&self.to_check),
            ));
        }
        missing
    }

    /// The offences charged, each with whether its citation is asked for.
    pub fn charges(&self) -> Vec<Charge> {
        self.offences
            .iter()
            .map(|&offence| Charge {
                offence,
                issue_citation: self.cite.contains(&offence),
            })
            .collect()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Draft {
    pub incident_id: Uuid,
    /// `YYYY-MM-DDTHH:MM` in the phone's time.
    pub occurred_at: String,
    pub location_text: String,
    pub place: Option<PlaceType>,
    pub gps: Option<GpsFix>,
    pub orders: Vec<OrderDraft>,
    pub narrative: String,
    pub subjects: Vec<SubjectDraft>,
    /// Photos taken for this incident (issue #20); each JPEG waits on the phone
    /// under [`crate::phone_store::photo_key`] until the outbox has sent it.
    #[serde(default)]
    pub photos: Vec<PhotoDraft>,
}

/// A photo of the incident, scaled and re-encoded on the phone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhotoDraft {
    pub photo_id: Uuid,
    pub width: u16,
    pub height: u16,
}

/// A person taken off the draft, kept to undo the removal.
#[derive(Debug, Clone, PartialEq)]
pub struct RemovedSubject {
    position: usize,
    pub subject: SubjectDraft,
    /// The persons who stood with them, each with where they were in that list.
    stood_with_by: Vec<(Uuid, usize)>,
}

impl RemovedSubject {
    /// Where the person was among the persons (from 0).
    pub fn position(&self) -> usize {
        self.position
    }
}

/// A person's fields in the order the form asks them.
const PERSON_FIELDS: &[&str] = &[
    "identified",
    "description",
    "full_name",
    "date_of_birth",
    "address",
    "id_type",
    "id_number",
    "perceived",
    "protected_activity",
    "contravenes",
    "place",
    "conduct",
    "response",
    "order",
    "manner",
    "response_at",
    "charges",
];

/// Where a field comes in the form, top to bottom: problems are listed (and the
/// first one is focused) in the order the officer meets them on the screen.
fn form_position(field: &str) -> (u8, usize, usize) {
    let mut parts = field.splitn(3, '.');
    let (first, second, rest) = (parts.next(), parts.next(), parts.next());
    let index = |n: Option<&str>| n.and_then(|n| n.parse().ok()).unwrap_or(0);
    match first {
        Some("occurred_at") => (1, 0, 0),
        Some("location") => match second {
            Some("text") => (2, 0, 0),
            Some("gps") => (2, 0, 1),
            _ => (2, 0, 2),
        },
        Some("orders") => (
            3,
            index(second),
            match rest {
                Some("words") => 1,
                Some("given_at") => 2,
                _ => 3,
            },
        ),
        Some("subjects") => {
            let name = rest.and_then(|r| r.split('.').next());
            let sub = name
                .map(|n| {
                    1 + PERSON_FIELDS
                        .iter()
                        .position(|f| *f == n)
                        .unwrap_or(PERSON_FIELDS.len())
                })
                .unwrap_or(0);
            (4, index(second), sub)
        }
        Some("narrative") => (5, 0, 0),
        // The report as a whole (`request`, `incident_id`): before any field.
        _ => (0, 0, 0),
    }
}

/// What an officer (or the chief) is asked about a person converted from the
/// earlier app, before the report goes.
pub fn to_check_message(facts: &[ConvertedFact]) -> String {
    format!(
        "Converted from the earlier app: {} — {} for this person (the earlier app recorded them \
         once for the whole incident, or not at all). Check them, then confirm.",
        crate::model::converted::listed(facts),
        crate::model::converted::NOT_RECORDED
    )
}

fn in_form_order(errors: &mut [FieldError]) {
    errors.sort_by_key(|e| form_position(&e.field));
}

/// Words the officer can put in the order with one tap.
pub const ORDER_PHRASES: &[(&str, bool)] = &[
    ("Stop blocking the way and move on.", true),
    ("Stop blocking the entrance and move on.", true),
    ("Stop the noise now.", false),
    ("Stop what you are doing.", false),
];

/// Times the officer can allow to comply, in minutes.
pub const MINUTES_TO_COMPLY: &[u32] = &[0, 1, 2, 5, 10];

impl Draft {
    pub fn new(incident_id: Uuid, first_subject: Uuid, now_local: String) -> Draft {
        Draft {
            incident_id,
            occurred_at: now_local,
            location_text: String::new(),
            place: None,
            gps: None,
            orders: Vec::new(),
            narrative: String::new(),
            subjects: vec![SubjectDraft::new(first_subject)],
            photos: Vec::new(),
        }
    }

    /// Reads a draft saved on this phone, including one saved by the app before
    /// each person had their own facts (`first_version`): the officer's work
    /// survives the update, with the incident's answers given to every person
    /// for the officer to check.
    pub fn load(json: &str) -> Option<Draft> {
        let value: serde_json::Value = serde_json::from_str(json).ok()?;
        if value.get("conduct").is_some() {
            return serde_json::from_value::<first_version::FirstDraft>(value)
                .ok()
                .map(first_version::FirstDraft::into_draft);
        }
        serde_json::from_value(value).ok()
    }

    /// Whether the officer has started filling it in (worth keeping).
    pub fn is_started(&self) -> bool {
        !self.location_text.trim().is_empty()
            || self.place.is_some()
            || !self.narrative.trim().is_empty()
            || !self.photos.is_empty()
            || self.subjects.iter().any(|s| {
                !s.full_name.trim().is_empty()
                    || !s.description.trim().is_empty()
                    || s.protected.is_some()
            })
    }

    pub fn subject_index(&self, id: Uuid) -> Option<usize> {
        self.subjects.iter().position(|s| s.subject_id == id)
    }

    /// Adds an order (given now), returning its position.
    pub fn add_order(&mut self, now_local: String) -> usize {
        self.orders.push(OrderDraft::new(now_local));
        self.orders.len() - 1
    }

    /// Removes an order; persons who received it received none.
    pub fn remove_order(&mut self, k: usize) {
        if k >= self.orders.len() {
            return;
        }
        self.orders.remove(k);
        for s in &mut self.subjects {
            s.order = match s.order {
                Some(o) if o == k => None,
                Some(o) if o > k => Some(o - 1),
                other => other,
            };
        }
    }

    /// Removes a person; no one stands with them any more. Returns what
    /// [`Draft::restore_subject`] needs to put them back exactly as they were.
    pub fn remove_subject(&mut self, id: Uuid) -> Option<RemovedSubject> {
        let position = self.subject_index(id)?;
        let subject = self.subjects.remove(position);
        let stood_with_by = self
            .subjects
            .iter_mut()
            .filter_map(|s| {
                let at = s.stood_with.iter().position(|w| *w == id)?;
                s.stood_with.remove(at);
                Some((s.subject_id, at))
            })
            .collect();
        Some(RemovedSubject {
            position,
            subject,
            stood_with_by,
        })
    }

    /// Undoes [`Draft::remove_subject`]: the person back at their place, and back
    /// among those the others stood with. (The undo is offered only until the
    /// next change, so the draft is as the removal left it.)
    pub fn restore_subject(&mut self, removed: RemovedSubject) {
        let id = removed.subject.subject_id;
        if self.subject_index(id).is_some() {
            return;
        }
        let position = removed.position.min(self.subjects.len());
        self.subjects.insert(position, removed.subject);
        for (other, at) in removed.stood_with_by {
            if let Some(s) = self.subjects.iter_mut().find(|s| s.subject_id == other) {
                if !s.stood_with.contains(&id) {
                    let at = at.min(s.stood_with.len());
                    s.stood_with.insert(at, id);
                }
            }
        }
    }

    /// The person's own facts as far as answered; unfilled times count as
    /// `fallback`.
    fn person_facts(
        &self,
        s: &SubjectDraft,
        local: &impl Fn(&str) -> Option<Moment>,
        fallback: Moment,
    ) -> PersonFacts {
        let mut conduct = s.conduct.clone();
        conduct.group.stood_with = s
            .stood_with
            .iter()
            .filter_map(|id| self.subject_index(*id))
            .collect();
        let protected_activity = s.protected.unwrap_or_default();
        PersonFacts {
            protected_activity,
            conduct,
            order: s.order,
            response: s.response(local, fallback).unwrap_or(Response::NoOrder),
            arrested: s.arrested,
            place: s.place,
            contravenes: (protected_activity == ProtectedActivity::UnlawfulExpression)
                .then(|| s.contravenes.trim().to_owned())
                .filter(|law| !law.is_empty()),
        }
    }

    /// The order as far as answered: a time to comply not chosen yet stands in
    /// as "at once" (never sent: [`Draft::missing`] asks for it).
    fn order(o: &OrderDraft, at: Moment) -> DispersalOrder {
        DispersalOrder {
            words: o.words.trim().to_owned(),
            given_at: at,
            move_on: o.move_on,
            minutes_to_comply: o.minutes_to_comply.unwrap_or(0),
        }
    }

    /// Every answer still missing, each at its field, in the form's order.
    fn missing(&self, local: &impl Fn(&str) -> Option<Moment>) -> Vec<FieldError> {
        let mut missing = Vec::new();
        let mut time = |field: String, text: &str, what: &str| {
            if local(text).is_none() {
                missing.push(FieldError::new(field, format!("Give {what}.")));
            }
        };
        time(
            "occurred_at".into(),
            &self.occurred_at,
            "the date and time of the incident",
        );
        for (k, o) in self.orders.iter().enumerate() {
            time(
                format!("orders.{k}.given_at"),
                &o.at,
                "§52-1 D: the time the order was given",
            );
        }
        for (i, s) in self.subjects.iter().enumerate() {
            if s.response.is_some_and(ResponseChoice::needs_time) {
                let what = if s.response == Some(ResponseChoice::Refused) {
                    "§52-1 D: the time the person failed or refused to obey"
                } else {
                    "the time the person complied"
                };
                time(format!("subjects.{i}.response_at"), &s.response_at, what);
            }
        }
        for (k, o) in self.orders.iter().enumerate() {
            if o.minutes_to_comply.is_none() {
                missing.push(FieldError::new(
                    format!("orders.{k}.minutes_to_comply"),
                    "§52-1 D: choose the time allowed to comply — a person fails to obey only after a \
                     chance to obey (“At once”: only an outright refusal counts in the order's minute).",
                ));
            }
        }
        for (i, s) in self.subjects.iter().enumerate() {
            missing.extend(s.missing(i));
        }
        if self.place.is_none() {
            missing.push(FieldError::new(
                "location.place",
                "Choose the type of place (§52-1 C).",
            ));
        }
        in_form_order(&mut missing);
        missing
    }

    /// The report as far as answered. What is not answered yet stands in as a
    /// value no one would record: a time at the epoch, a perception of "cannot
    /// tell", the place as "other public place". Only complete drafts become
    /// reports ([`Draft::to_report`]); [`Draft::problems`] discards what the
    /// stand-ins cause.
    fn report_as_answered(&self, local: &impl Fn(&str) -> Option<Moment>) -> IncidentReport {
        let unset = Moment(0);
        let subjects = self
            .subjects
            .iter()
            .map(|s| {
                let identity = if s.identified {
                    Identity::Identified {
                        full_name: s.full_name.trim().to_owned(),
                        date_of_birth: s.date_of_birth.trim().to_owned(),
                        address: s.address.trim().to_owned(),
                        id_type: s.id_type,
                        id_number: Some(s.id_number.trim().to_owned()).filter(|n| !n.is_empty()),
                    }
                } else {
                    Identity::Described {
                        description: s.description.trim().to_owned(),
                    }
                };
                SubjectEntry {
                    subject_id: s.subject_id,
                    identity,
                    perceived: Perceived {
                        age_range: s.age_range.unwrap_or(AgeRange::Unknown),
                        sex: s.sex.unwrap_or(PerceivedSex::Unknown),
                        race: s.race.unwrap_or(PerceivedRace::Unknown),
                    },
                    facts: self.person_facts(s, local, unset),
                    charges: s.charges(),
                    signature: s
                        .signature
                        .clone()
                        .filter(|_| s.charges().iter().any(|c| c.issue_citation)),
                    not_recorded: s.to_check.clone(),
                }
            })
            .collect();
        IncidentReport {
            incident_id: self.incident_id,
            occurred_at: local(&self.occurred_at).unwrap_or(unset),
            location: Location {
                text: self.location_text.trim().to_owned(),
                place: self.place.unwrap_or(PlaceType::OtherPublicPlace),
                gps: self.gps,
            },
            orders: self
                .orders
                .iter()
                .map(|o| Draft::order(o, local(&o.at).unwrap_or(unset)))
                .collect(),
            narrative: self.narrative.trim().to_owned(),
            subjects,
            // The numbers handed out on scene are the outbox's to add.
            numbers: Vec::new(),
            gathering: None,
        }
    }

    /// The report, or every answer still missing, each at its field. `local` turns
    /// a phone-local `YYYY-MM-DDTHH:MM` into a moment.
    pub fn to_report(
        &self,
        local: impl Fn(&str) -> Option<Moment>,
    ) -> Result<IncidentReport, Vec<FieldError>> {
        let missing = self.missing(&local);
        if missing.is_empty() {
            Ok(self.report_as_answered(&local))
        } else {
            Err(missing)
        }
    }

    /// The new report to send, or every problem at once — the check the server
    /// runs (`model::incident::check`), not its waves.
    pub fn ready(
        &self,
        local: impl Fn(&str) -> Option<Moment> + Copy,
        now: Moment,
    ) -> Result<IncidentReport, Vec<FieldError>> {
        self.ready_as(Submission::New, local, now)
    }

    /// The report to send as `submission` (a new report, or a correction of a
    /// stored one), or every problem at once.
    pub fn ready_as(
        &self,
        submission: Submission,
        local: impl Fn(&str) -> Option<Moment> + Copy,
        now: Moment,
    ) -> Result<IncidentReport, Vec<FieldError>> {
        let problems = self.problems_as(submission, local, now);
        if !problems.is_empty() {
            return Err(problems);
        }
        let report = self.to_report(local)?;
        match crate::model::incident::check_as(&report, now, submission) {
            Ok(_) => Ok(report),
            Err(crate::error::AppError::Invalid { errors }) => Err(errors),
            Err(other) => Err(vec![FieldError::new("request", other.to_string())]),
        }
    }

    /// Everything the officer must still fix, all at once and in the form's
    /// order: the answers missing, then what the server's own check
    /// ([`crate::model::incident::problems`], and the rules' refusal of a
    /// citation asked for) finds in what is answered. Empty exactly when the
    /// report would pass [`crate::model::incident::check`] at `now`.
    ///
    /// The server checks in waves (the rules only once the data is sound); an
    /// officer on scene needs the whole list at the first tap of "Submit".
    pub fn problems(&self, local: impl Fn(&str) -> Option<Moment>, now: Moment) -> Vec<FieldError> {
        self.problems_as(Submission::New, local, now)
    }

    /// [`Draft::problems`] of the draft sent as `submission`: a correction of a
    /// stored report may concern an incident of any age.
    pub fn problems_as(
        &self,
        submission: Submission,
        local: impl Fn(&str) -> Option<Moment>,
        now: Moment,
    ) -> Vec<FieldError> {
        let missing = self.missing(&local);
        let report = self.report_as_answered(&local);
        let unanswered = |field: &str| missing.iter().any(|m| m.field == field);
        // A response answers an order: with the order's time (or its time to
        // comply) unanswered, what the time rules say of the response is the
        // stand-in's doing.
        let order_untimed = |i: usize| {
            self.subjects[i].order.is_some_and(|k| {
                unanswered(&format!("orders.{k}.given_at"))
                    || unanswered(&format!("orders.{k}.minutes_to_comply"))
            })
        };
        let stand_in = |field: &str| {
            unanswered(field)
                || (0..self.subjects.len())
                    .any(|i| field == format!("subjects.{i}.response_at") && order_untimed(i))
        };
        let mut out = missing.clone();
        out.extend(
            crate::model::incident::problems_of(&report, now, submission)
                .into_iter()
                .filter(|e| !stand_in(&e.field)),
        );
        // The rules decide on a person's citation from the scene and that
        // person's facts: asked only once both are answered and sound, so a
        // refusal never repeats a problem already listed.
        let scene_sound = !out.iter().any(|e| {
            e.field == "occurred_at" || e.field.starts_with("orders") || e.field == "location.place"
        });
        if scene_sound {
            let verdicts = crate::model::incident::verdicts(&report, now);
            for (i, verdict) in verdicts.iter().enumerate() {
                let own = format!("subjects.{i}.");
                if out.iter().any(|e| e.field.starts_with(&own)) {
                    continue;
                }
                if let Err(reasons) = &verdict.outcome {
                    out.extend(
                        reasons
                            .iter()
                            .map(|r| FieldError::new(format!("{own}charges"), r.message.clone())),
                    );
                }
            }
        }
        in_form_order(&mut out);
        out.dedup();
        out
    }

    /// The scene and each person's facts as far as answered, for the live verdict
    /// while the officer types (`None` until the place is chosen). Unfilled times
    /// count as `now`, an unanswered response as "no order"; a person whose §52-1 E
    /// answer is not given yet is `None` (it decides which offences are offered).
    pub fn preview(
        &self,
        local: impl Fn(&str) -> Option<Moment>,
        now: Moment,
    ) -> Option<(Scene, Vec<Option<PersonFacts>>)> {
        let scene = Scene {
            started_at: local(&self.occurred_at).unwrap_or(now),
            place: self.place?,
            orders: self
                .orders
                .iter()
                .map(|o| Draft::order(o, local(&o.at).unwrap_or(now)))
                .collect(),
            gathering: None,
        };
        let persons = self
            .subjects
            .iter()
            .map(|s| {
                s.protected
                    .is_some()
                    .then(|| self.person_facts(s, &local, now))
            })
            .collect();
        Some((scene, persons))
    }

    /// The cautions for the chief that belong to person `id` as a whole rather
    /// than to one offence's decision (a minor, a minor arrested, a citation for
    /// a person not identified, §52-2 cited beside §52-1), as the server will
    /// record them.
    pub fn person_cautions(
        &self,
        id: Uuid,
        local: impl Fn(&str) -> Option<Moment>,
        now: Moment,
    ) -> Vec<Caution> {
        let report = self.report_as_answered(&local);
        let occurred_at = local(&self.occurred_at).unwrap_or(now);
        report
            .subjects
            .iter()
            .enumerate()
            .find(|(_, s)| s.subject_id == id)
            .map(|(i, s)| {
                crate::ordinance::person_cautions(i, s.standing(occurred_at), &s.facts, &s.charges)
            })
            .unwrap_or_default()
    }

    /// The draft of a stored report, to correct it (a returned report).
    pub fn from_report(report: &IncidentReport, local: impl Fn(Moment) -> String) -> Draft {
        let ids: Vec<Uuid> = report.subjects.iter().map(|s| s.subject_id).collect();
        Draft {
            photos: Vec::new(),
            incident_id: report.incident_id,
            occurred_at: local(report.occurred_at),
            location_text: report.location.text.clone(),
            place: Some(report.location.place),
            gps: report.location.gps,
            orders: report
                .orders
                .iter()
                .map(|o| OrderDraft {
                    words: o.words.clone(),
                    at: local(o.given_at),
                    move_on: o.move_on,
                    minutes_to_comply: Some(o.minutes_to_comply),
                })
                .collect(),
            narrative: report.narrative.clone(),
            subjects: report
                .subjects
                .iter()
                .map(|s| SubjectDraft::from_entry(s, &ids, &local))
                .collect(),
        }
    }
}

impl SubjectDraft {
    /// The draft of a stored person; `ids` are the report's persons in order
    /// (who they stood with is kept by id).
    fn from_entry(
        s: &SubjectEntry,
        ids: &[Uuid],
        local: &impl Fn(Moment) -> String,
    ) -> SubjectDraft {
        let mut d = SubjectDraft::new(s.subject_id);
        d.signature = s.signature.clone();
        d.set_identity(&s.identity);
        d.age_range = Some(s.perceived.age_range);
        d.sex = Some(s.perceived.sex);
        d.race = Some(s.perceived.race);
        let f = &s.facts;
        d.protected = Some(f.protected_activity);
        d.contravenes = f.contravenes.clone().unwrap_or_default();
        d.place = f.place;
        d.conduct = f.conduct.clone();
        d.stood_with = f
            .conduct
            .group
            .stood_with
            .iter()
            .filter_map(|&j| ids.get(j).copied())
            .collect();
        d.conduct.group.stood_with.clear();
        d.order = f.order;
        let (choice, at, manner) = match f.response {
            Response::NoOrder => (ResponseChoice::NoOrder, None, None),
            Response::LeftBeforeOrder => (ResponseChoice::LeftBeforeOrder, None, None),
            Response::Complied { at } => (ResponseChoice::Complied, Some(at), None),
            Response::Refused { at, manner } => (ResponseChoice::Refused, Some(at), Some(manner)),
        };
        d.response = Some(choice);
        d.response_at = at.map(local).unwrap_or_default();
        d.manner = manner;
        d.arrested = f.arrested;
        d.to_check = s.not_recorded.clone();
        d.offences = s.offences().collect();
        d.cite = s
            .charges
            .iter()
            .filter(|c| c.issue_citation)
            .map(|c| c.offence)
            .collect();
        d.no_offence = s.charges.is_empty();
        d
    }

    fn set_identity(&mut self, identity: &Identity) {
        match identity {
            Identity::Identified {
                full_name,
                date_of_birth,
                address,
                id_type,
                id_number,
            } => {
                self.full_name = full_name.clone();
                self.date_of_birth = date_of_birth.clone();
                self.address = address.clone();
                self.id_type = *id_type;
                self.id_number = id_number.clone().unwrap_or_default();
            }
            Identity::Described { description } => {
                self.identified = false;
                self.description = description.clone();
            }
            // Article II only: this form records persons, so the name and
            // address are kept and the rules ask for what a person needs.
            Identity::Organisation { name, address, .. } => {
                self.full_name = name.clone();
                self.address = address.clone();
            }
        }
    }
}

/// Drafts saved on a phone by the app before each person had their own facts.
mod first_version {
    use super::*;
    use crate::model::first_version::IncidentConduct;

    #[derive(Deserialize)]
    pub(super) struct FirstSubjectDraft {
        subject_id: Uuid,
        identified: bool,
        full_name: String,
        date_of_birth: String,
        address: String,
        id_type: Option<IdType>,
        id_number: String,
        description: String,
        age_range: Option<AgeRange>,
        sex: Option<PerceivedSex>,
        race: Option<PerceivedRace>,
        response: Option<ResponseChoice>,
        response_at: String,
        manner: Option<RefusalManner>,
        offence: Option<Offence>,
        no_offence: bool,
        issue_citation: bool,
    }

    #[derive(Deserialize)]
    pub(super) struct FirstDraft {
        incident_id: Uuid,
        occurred_at: String,
        location_text: String,
        place: Option<PlaceType>,
        gps: Option<GpsFix>,
        protected: Option<ProtectedActivity>,
        conduct: IncidentConduct,
        order_given: bool,
        order_words: String,
        order_at: String,
        move_on: bool,
        minutes_to_comply: Option<u32>,
        narrative: String,
        subjects: Vec<FirstSubjectDraft>,
    }

    impl FirstDraft {
        /// Each person gets the incident's answers, marked for the officer to
        /// check (as a stored report's conversion marks them): the draft cannot
        /// be sent until they confirm each person's.
        pub(super) fn into_draft(self) -> Draft {
            // The conduct converts as a stored report's does.
            let conduct = crate::model::first_version::conduct_of(
                &self.conduct,
                self.place.unwrap_or(PlaceType::OtherPublicPlace),
            );
            let marked =
                crate::model::first_version::converted_facts(&self.conduct, self.subjects.len());
            let subjects = self
                .subjects
                .into_iter()
                .map(|s| {
                    let mut d = SubjectDraft::new(s.subject_id);
                    d.identified = s.identified;
                    d.full_name = s.full_name;
                    d.date_of_birth = s.date_of_birth;
                    d.address = s.address;
                    d.id_type = s.id_type;
                    d.id_number = s.id_number;
                    d.description = s.description;
                    d.age_range = s.age_range;
                    d.sex = s.sex;
                    d.race = s.race;
                    d.protected = self.protected;
                    d.conduct = conduct.clone();
                    d.order = (self.order_given
                        && s.response.is_some_and(ResponseChoice::needs_time))
                    .then_some(0);
                    d.response = s.response;
                    d.response_at = s.response_at;
                    d.manner = s.manner;
                    d.offences = s.offence.filter(|_| !s.no_offence).into_iter().collect();
                    d.cite = d
                        .offences
                        .iter()
                        .copied()
                        .filter(|_| s.issue_citation)
                        .collect();
                    d.no_offence = s.no_offence;
                    d.to_check = marked.clone();
                    // The earlier app never asked about an arrest (§52-2).
                    if d.cite.contains(&Offence::GroupObstruction) {
                        d.to_check.push(ConvertedFact::Arrest);
                    }
                    d
                })
                .collect();
            Draft {
                photos: Vec::new(),
                incident_id: self.incident_id,
                occurred_at: self.occurred_at,
                location_text: self.location_text,
                place: self.place,
                gps: self.gps,
                orders: if self.order_given {
                    vec![OrderDraft {
                        words: self.order_words,
                        at: self.order_at,
                        move_on: self.move_on,
                        minutes_to_comply: self.minutes_to_comply,
                    }]
                } else {
                    Vec::new()
                },
                narrative: self.narrative,
                subjects,
            }
        }
    }
}

pub use crate::model::civil::parse_utc_local;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ordinance::{Outcome, PassageObstruction};

    #[test]
    fn a_confirmed_card_fills_the_identity_and_nothing_else() {
        use crate::model::licence::{CardSex, LicenceScan, ScannedDocument};
        let card = LicenceScan {
            document: ScannedDocument::IdCard,
            version: 10,
            issuer: "636041".into(),
            family_name: "PUBLIC".into(),
            given_names: "JOHN QUINCY".into(),
            date_of_birth: "1980-07-04".into(),
            street: None,
            city: None,
            state: None,
            postal_code: None,
            number: "1234567".into(),
            expires: None,
            sex: Some(CardSex::Female),
            height: None,
            eyes: None,
        };
        let mut s = SubjectDraft::new(Uuid::now_v7());
        s.identified = false;
        s.address = "typed before the scan".into();
        s.fill_from_card(&card);
        assert!(s.identified);
        assert_eq!(s.full_name, "JOHN QUINCY PUBLIC");
        assert_eq!(s.date_of_birth, "1980-07-04");
        assert_eq!(
            s.address, "typed before the scan",
            "a card without an address keeps the typed one"
        );
        assert_eq!(s.id_type, Some(IdType::StateId));
        assert_eq!(s.id_number, "1234567");
        assert_eq!(
            s.sex, None,
            "the officer's perception is never taken from the card"
        );
    }

    /// Two persons on a sidewalk: the first refused, the second complied.
    fn filled() -> Draft {
        let mut d = Draft::new(Uuid::now_v7(), Uuid::now_v7(), "2026-07-04T21:00".into());
        d.location_text = "Post Road at Mile Road".into();
        d.place = Some(PlaceType::Sidewalk);
        let k = d.add_order("2026-07-04T21:05".into());
        d.orders[k].words = "Stop blocking the way and move on.".into();
        d.orders[k].move_on = true;
        d.orders[k].minutes_to_comply = Some(2);
        d.narrative = "Stood across the sidewalk; pedestrians stepped into the road.".into();
        let s = &mut d.subjects[0];
        s.full_name = "Alex Doe".into();
        s.date_of_birth = "1990-02-03".into();
        s.address = "1 Main St, Wells ME".into();
        s.age_range = Some(AgeRange::From35To49);
        s.sex = Some(PerceivedSex::Male);
        s.race = Some(PerceivedRace::White);
        s.protected = Some(ProtectedActivity::None);
        s.conduct.remained_in_one_location = true;
        s.conduct.passage = PassageObstruction {
            pedestrians: true,
            vehicles: false,
            place: Some(PlaceType::Sidewalk),
        };
        s.order = Some(0);
        s.response = Some(ResponseChoice::Refused);
        s.response_at = "2026-07-04T21:08".into();
        s.manner = Some(RefusalManner::StayedInPlace);
        s.toggle_offence(Offence::LoiteringObstruction, true);
        s.toggle_citation(Offence::LoiteringObstruction, true);
        let mut second = SubjectDraft::new(Uuid::now_v7());
        second.copy_facts(&d.subjects[0]);
        second.full_name = "Sam Roe".into();
        second.date_of_birth = "1992-04-05".into();
        second.address = "2 Main St, Wells ME".into();
        second.age_range = Some(AgeRange::From25To34);
        second.sex = Some(PerceivedSex::Female);
        second.race = Some(PerceivedRace::Unknown);
        second.response = Some(ResponseChoice::Complied);
        second.response_at = "2026-07-04T21:06".into();
        second.manner = None;
        d.subjects.push(second);
        d
    }

    #[test]
    fn a_two_person_draft_cites_the_one_who_refused_and_not_the_one_who_complied() {
        let report = filled().to_report(parse_utc_local).expect("complete");
        let now = Moment(report.occurred_at.0 + 3_600_000);
        let verdicts = crate::model::incident::check(&report, now).expect("valid");
        assert_eq!(verdicts[0].outcome, Ok(Outcome::Cited));
        assert_eq!(verdicts[1].outcome, Ok(Outcome::Complied));
    }

    #[test]
    fn same_facts_as_person_1_copies_the_facts_and_stands_them_together() {
        let d = filled();
        let (first, second) = (&d.subjects[0], &d.subjects[1]);
        assert_eq!(second.conduct, first.conduct);
        assert_eq!(second.protected, first.protected);
        assert_eq!(second.order, first.order);
        assert_eq!(second.stood_with, vec![first.subject_id]);
        assert_eq!(second.offences, vec![Offence::LoiteringObstruction]);
        assert!(
            second.cite.is_empty(),
            "each person's citation is the officer's own call"
        );
        assert!(!second.arrested);
    }

    #[test]
    fn every_missing_answer_is_named_at_its_field() {
        let mut d = filled();
        d.place = None;
        d.subjects[0].manner = None;
        d.subjects[0].race = None;
        d.subjects[1].protected = None;
        let errors = d.to_report(parse_utc_local).expect_err("incomplete");
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "location.place",
                "subjects.0.perceived",
                "subjects.0.manner",
                "subjects.1.protected_activity",
            ]
        );
    }

    #[test]
    fn a_report_comes_back_as_the_same_draft() {
        let d = filled();
        let report = d.to_report(parse_utc_local).expect("complete");
        let back = Draft::from_report(&report, |m| {
            let s = m.0 / 1000;
            let days = s.div_euclid(86_400);
            let secs = s.rem_euclid(86_400);
            // 2026-07-04 is day 20638.
            let date = if days == 20_638 { "2026-07-04" } else { "?" };
            format!("{date}T{:02}:{:02}", secs / 3600, secs % 3600 / 60)
        });
        assert_eq!(back, d);
    }

    #[test]
    fn removing_a_person_or_an_order_keeps_the_others_references_right() {
        let mut d = filled();
        let second = d.subjects[1].subject_id;
        d.subjects[0].stood_with.push(second);
        d.remove_subject(second);
        assert!(d.subjects[0].stood_with.is_empty());
        d.add_order("2026-07-04T21:30".into());
        d.subjects[0].order = Some(1);
        d.remove_order(0);
        assert_eq!(d.subjects[0].order, Some(0));
        d.remove_order(0);
        assert_eq!(d.subjects[0].order, None);
    }

    #[test]
    fn a_draft_saved_by_the_first_version_opens_with_its_answers_to_check_for_each_person() {
        let first = first_version_draft();
        let d = Draft::load(&first.to_string()).expect("converted");
        assert_eq!(d.orders.len(), 1);
        let s = &d.subjects[0];
        assert_eq!(s.protected, Some(ProtectedActivity::None));
        assert!(s.conduct.remained_in_one_location && s.conduct.passage.pedestrians);
        assert_eq!(s.conduct.passage.place, Some(PlaceType::Sidewalk));
        assert_eq!(s.order, Some(0));
        assert_eq!(s.cite, vec![Offence::LoiteringObstruction]);
        // Issue #33: the earlier app never recorded the place obstructed; the
        // officer checks it before the report can go.
        assert_eq!(s.to_check, [ConvertedFact::ObstructedPlace]);
        let refused = d.to_report(parse_utc_local).expect_err("to check");
        assert!(
            refused.iter().any(|e| e.field == "subjects.0.to_check"),
            "{refused:?}"
        );
        let mut checked = d.clone();
        checked.subjects[0].to_check.clear();
        let report = checked.to_report(parse_utc_local).expect("checked");
        assert!(report.subjects[0].not_recorded.is_empty());
    }

    /// A draft as the first version saved it: one person, obstructing the sidewalk.
    fn first_version_draft() -> serde_json::Value {
        serde_json::json!({
            "incident_id": Uuid::now_v7(), "occurred_at": "2026-07-04T21:00",
            "location_text": "Post Road", "place": "sidewalk", "gps": null,
            "protected": "none",
            "conduct": {"remained_in_one_location": true,
                "passage": {"pedestrians": true, "vehicles": false},
                "interference": {"use_of_property": false, "lawful_business": false, "ingress_egress": false},
                "disturbance": {"disturbance_or_annoyance": false, "discomfort_or_alarm": false, "person_lawfully_passing": false},
                "group": {"persons_together": 0, "obstructs_free_passage": false},
                "peace": {"loud_or_unusual_noise": false, "improper_or_boisterous_songs": false,
                    "obscene_indecent_and_profane": false, "unruly_or_boisterous_manner": false,
                    "disturbed_quiet_and_good_order": false}},
            "order_given": true, "order_words": "Move on.", "order_at": "2026-07-04T21:05",
            "move_on": true, "minutes_to_comply": 2, "narrative": "Blocked the sidewalk.",
            "subjects": [{"subject_id": Uuid::now_v7(), "identified": true, "full_name": "Alex Doe",
                "date_of_birth": "1990-02-03", "address": "1 Main St", "id_type": null, "id_number": "",
                "description": "", "age_range": "35_49", "sex": "male", "race": "white",
                "response": "refused", "response_at": "2026-07-04T21:08", "manner": "stayed_in_place",
                "offence": "52-1(A)(1)", "no_offence": false, "issue_citation": true}]
        })
    }

    /// Issue #33: a first-version draft of a §52-2 group recorded no arrest;
    /// each person's shared answers and the arrest are to be checked.
    #[test]
    fn a_first_version_group_draft_asks_each_person_and_records_no_arrest() {
        let mut first = first_version_draft();
        first["conduct"]["group"] =
            serde_json::json!({"persons_together": 2, "obstructs_free_passage": true});
        let other = first["subjects"][0].clone();
        first["subjects"][0]["offence"] = serde_json::json!("52-2");
        first["subjects"]
            .as_array_mut()
            .expect("subjects")
            .push(other);
        first["subjects"][1]["subject_id"] = serde_json::json!(Uuid::now_v7());
        let d = Draft::load(&first.to_string()).expect("converted");
        use ConvertedFact::*;
        assert_eq!(
            d.subjects[0].to_check,
            [ProtectedActivity, Conduct, ObstructedPlace, Arrest]
        );
        assert!(!d.subjects[0].arrested);
        assert_eq!(
            d.subjects[1].to_check,
            [ProtectedActivity, Conduct, ObstructedPlace]
        );
    }

    /// An hour after the incident of [`filled`].
    fn an_hour_later(d: &Draft) -> Moment {
        Moment(parse_utc_local(&d.occurred_at).expect("time").0 + 3_600_000)
    }

    fn fields(errors: &[FieldError]) -> Vec<&str> {
        errors.iter().map(|e| e.field.as_str()).collect()
    }

    #[test]
    fn an_empty_form_names_every_problem_at_once_in_the_forms_order() {
        let d = Draft::new(Uuid::now_v7(), Uuid::now_v7(), "2026-07-04T21:00".into());
        let now = an_hour_later(&d);
        let problems = d.problems(parse_utc_local, now);
        assert_eq!(
            fields(&problems),
            [
                "location.text",
                "location.place",
                "subjects.0.full_name",
                "subjects.0.date_of_birth",
                "subjects.0.address",
                "subjects.0.perceived",
                "subjects.0.protected_activity",
                "subjects.0.response",
                "subjects.0.charges",
                "narrative",
            ]
        );
        // The summary used to list only the first wave (to_report's).
        let first_wave = d.to_report(parse_utc_local).expect_err("incomplete");
        assert!(first_wave.len() < problems.len());
    }

    #[test]
    fn a_complete_draft_has_no_problems_and_passes_the_servers_check() {
        let d = filled();
        let now = an_hour_later(&d);
        assert_eq!(d.problems(parse_utc_local, now), []);
        let report = d.to_report(parse_utc_local).expect("complete");
        assert!(crate::model::incident::check(&report, now).is_ok());
    }

    #[test]
    fn a_refusal_inside_the_time_allowed_is_named_with_the_missing_answers() {
        let mut d = filled();
        // Stayed put at 21:06, one minute into the two allowed from 21:05.
        d.subjects[0].response_at = "2026-07-04T21:06".into();
        d.narrative.clear();
        let now = an_hour_later(&d);
        let problems = d.problems(parse_utc_local, now);
        assert_eq!(
            fields(&problems),
            ["subjects.0.response_at", "narrative"],
            "{problems:?}"
        );
        // The server names the same time problem (and would then refuse the citation).
        let report = d.to_report(parse_utc_local).expect("answered");
        let server = match crate::model::incident::check(&report, now) {
            Err(crate::error::AppError::Invalid { errors }) => errors,
            other => panic!("expected invalid, got {other:?}"),
        };
        assert!(server.iter().any(|e| e.field == "subjects.0.response_at"
            && e.message.contains("inside the 2 min allowed")));
    }

    #[test]
    fn a_citation_the_rules_refuse_is_named_once_the_persons_answers_are_sound() {
        let mut d = filled();
        d.subjects[0].conduct.passage.pedestrians = false;
        let problems = d.problems(parse_utc_local, an_hour_later(&d));
        assert_eq!(fields(&problems), ["subjects.0.charges"]);
    }

    #[test]
    fn an_order_with_no_time_does_not_blame_the_responses_to_it() {
        let mut d = filled();
        d.orders[0].at.clear();
        let problems = d.problems(parse_utc_local, an_hour_later(&d));
        assert_eq!(fields(&problems), ["orders.0.given_at"]);
    }

    /// Issue #35: "Now" records the moment it is tapped. A failure to obey taken
    /// inside the time allowed is not moved to its end (that records a moment
    /// that had not come): the rules say the person may still comply.
    #[test]
    fn a_failure_recorded_now_inside_the_time_allowed_says_the_person_may_still_comply() {
        let mut d = filled();
        // Order at 21:05 with 2 min to comply; the response taken at 21:05.
        d.subjects[0].response_at = "2026-07-04T21:05".into();
        let now = an_hour_later(&d);
        let problems = d.problems(parse_utc_local, now);
        assert_eq!(fields(&problems), ["subjects.0.response_at"]);
        assert!(
            problems[0]
                .message
                .contains("inside the 2 min allowed to comply — the person may still comply"),
            "{problems:?}"
        );
        // Once the time allowed has passed the same failure is sound.
        d.subjects[0].response_at = "2026-07-04T21:07".into();
        assert_eq!(d.problems(parse_utc_local, now), []);
    }

    #[test]
    fn undoing_a_removal_puts_the_person_back_exactly() {
        let mut d = filled();
        let mut third = SubjectDraft::new(Uuid::now_v7());
        third.copy_facts(&d.subjects[0]);
        third.full_name = "Kim Poe".into();
        d.subjects.push(third);
        let (first, second) = (d.subjects[0].subject_id, d.subjects[1].subject_id);
        let third = d.subjects[2].subject_id;
        d.subjects[0].stood_with = vec![third, second];
        d.subjects[2].stood_with = vec![second, first];
        let before = d.clone();
        let removed = d.remove_subject(second).expect("there");
        assert_eq!(d.subjects.len(), 2);
        assert_eq!(d.subjects[0].stood_with, [third]);
        assert_eq!(d.subjects[1].stood_with, [first]);
        d.restore_subject(removed.clone());
        assert_eq!(d, before);
        // Twice does not make two.
        d.restore_subject(removed);
        assert_eq!(d, before);
        assert!(d.remove_subject(Uuid::now_v7()).is_none());
    }

    /// Issue #33, finding 1: the time allowed to comply starts unset and must be
    /// chosen; "at once" is a choice.
    #[test]
    fn an_order_without_a_time_to_comply_chosen_is_not_ready() {
        let mut d = filled();
        d.orders[0].minutes_to_comply = None;
        let now = an_hour_later(&d);
        let problems = d.problems(parse_utc_local, now);
        assert_eq!(
            fields(&problems),
            ["orders.0.minutes_to_comply"],
            "{problems:?}"
        );
        assert!(problems[0]
            .message
            .starts_with("§52-1 D: choose the time allowed to comply"));
        assert!(d.to_report(parse_utc_local).is_err());
        assert_eq!(
            OrderDraft::new("2026-07-04T21:05".into()).minutes_to_comply,
            None
        );
        d.orders[0].minutes_to_comply = Some(0);
        assert_eq!(d.problems(parse_utc_local, now), []);
    }

    /// Issue #33, finding 1: with "at once", a failure to obey in the order's own
    /// minute is refused with §52-1 D named; an outright refusal counts at once.
    #[test]
    fn with_no_time_allowed_a_failure_in_the_orders_minute_is_refused_but_an_outright_refusal_counts(
    ) {
        let mut d = filled();
        d.orders[0].minutes_to_comply = Some(0);
        d.subjects[0].response_at = "2026-07-04T21:05".into();
        let now = an_hour_later(&d);
        let problems = d.problems(parse_utc_local, now);
        assert_eq!(fields(&problems), ["subjects.0.response_at"]);
        assert!(problems[0]
            .message
            .starts_with("§52-1 D: recorded in the minute the order was given"));
        d.subjects[0].manner = Some(RefusalManner::RefusedVerbally);
        assert_eq!(d.problems(parse_utc_local, now), []);
    }

    /// Issue #33, finding 2: ticking a §52-1 citation unticks the person's other
    /// §52-1 citation (the offence stays charged); §52-2 and §52-3 are untouched.
    #[test]
    fn ticking_a_second_section_52_1_citation_unticks_the_first() {
        let mut s = filled().subjects[0].clone();
        s.toggle_offence(Offence::LoiteringDisturbance, true);
        s.toggle_offence(Offence::GroupObstruction, true);
        assert_eq!(s.toggle_citation(Offence::GroupObstruction, true), None);
        assert_eq!(
            s.toggle_citation(Offence::LoiteringDisturbance, true),
            Some(Offence::LoiteringObstruction)
        );
        assert_eq!(
            s.cite,
            [Offence::GroupObstruction, Offence::LoiteringDisturbance]
        );
        assert!(s.offences.contains(&Offence::LoiteringObstruction));
        assert_eq!(
            s.toggle_citation(Offence::LoiteringDisturbance, false),
            None
        );
    }

    /// Issue #33, findings 6 and 7: a person's own place, and the law their
    /// expression contravened (sent only with that answer).
    #[test]
    fn a_persons_own_place_and_the_law_named_reach_the_report() {
        let mut d = filled();
        d.subjects[0].place = Some(PlaceType::Street);
        d.subjects[0].contravenes = "Wells Code §86-3".into();
        let report = d.to_report(parse_utc_local).expect("complete");
        assert_eq!(report.subjects[0].facts.place, Some(PlaceType::Street));
        assert_eq!(report.subjects[0].facts.contravenes, None);
        assert_eq!(report.subjects[1].facts.place, None);
        d.subjects[0].protected = Some(ProtectedActivity::UnlawfulExpression);
        let report = d.to_report(parse_utc_local).expect("complete");
        assert_eq!(
            report.subjects[0].facts.contravenes.as_deref(),
            Some("Wells Code §86-3")
        );
        d.subjects[0].contravenes = "  ".into();
        let problems = d.problems(parse_utc_local, an_hour_later(&d));
        assert_eq!(fields(&problems), ["subjects.0.contravenes"]);
        // "Same facts as" copies both.
        let mut third = SubjectDraft::new(Uuid::now_v7());
        third.copy_facts(&d.subjects[0]);
        assert_eq!(third.place, Some(PlaceType::Street));
        assert_eq!(third.protected, Some(ProtectedActivity::UnlawfulExpression));
        // And a draft saved before these questions reads with the incident's place.
        let mut saved = serde_json::to_value(&d).expect("json");
        for s in saved["subjects"].as_array_mut().expect("persons") {
            let person = s.as_object_mut().expect("person");
            person.remove("place");
            person.remove("contravenes");
        }
        let back = Draft::load(&saved.to_string()).expect("loads");
        assert_eq!(back.subjects[0].place, None);
    }

    /// Issue #33, finding 14: a person under 18 is cautioned on the form as the
    /// server will record it.
    #[test]
    fn a_minor_is_cautioned_on_the_form() {
        let mut d = filled();
        let id = d.subjects[0].subject_id;
        let now = an_hour_later(&d);
        assert!(d.person_cautions(id, parse_utc_local, now).is_empty());
        d.subjects[0].date_of_birth = "2010-01-01".into();
        assert_eq!(
            d.person_cautions(id, parse_utc_local, now),
            vec![Caution::Minor {
                person: 0,
                age: Some(16)
            }]
        );
    }

    /// Issue #33, finding 11: the correction form checks as the server checks a
    /// correction — an incident of any age.
    #[test]
    fn a_correction_of_an_old_report_is_not_refused_for_its_age() {
        let d = filled();
        let later = Moment(an_hour_later(&d).0 + 400 * 86_400_000);
        assert_eq!(fields(&d.problems(parse_utc_local, later)), ["occurred_at"]);
        assert_eq!(
            d.problems_as(Submission::Correction, parse_utc_local, later),
            []
        );
        assert!(d
            .ready_as(Submission::Correction, parse_utc_local, later)
            .is_ok());
    }

    #[test]
    fn local_times_parse_strictly() {
        assert_eq!(parse_utc_local("1970-01-01T00:01"), Some(Moment(60_000)));
        assert_eq!(parse_utc_local("2026-02-30T10:00"), None);
        assert_eq!(parse_utc_local("2026-07-04T25:00"), None);
        assert_eq!(parse_utc_local(""), None);
    }
}
