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
use crate::model::incident::{
    AgeRange, GpsFix, IdType, Identity, IncidentReport, Location, Perceived, PerceivedRace,
    PerceivedSex, SubjectEntry,
};
use crate::ordinance::{
    Charge, Conduct, DispersalOrder, Moment, Offence, PersonFacts, PlaceType, ProtectedActivity,
    RefusalManner, Response, Scene,
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

    /// Takes `from`'s facts as this person's own ("same as person 1"): the §52-1 E
    /// answer, the conduct, who they stood with (each other, and the rest), the
    /// order, the response and the offences charged — not the identity, and not
    /// a citation or an arrest, which the officer decides for each person.
    pub fn copy_facts(&mut self, from: &SubjectDraft) {
        self.protected = from.protected;
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

    /// Asks for a citation for a charged offence, or not.
    pub fn toggle_citation(&mut self, offence: Offence, on: bool) {
        self.cite.retain(|o| *o != offence);
        if on && self.offences.contains(&offence) {
            self.cite.push(offence);
        }
        if !self.cite.contains(&Offence::GroupObstruction) {
            self.arrested = false;
        }
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

    /// Removes a person; no one stands with them any more.
    pub fn remove_subject(&mut self, id: Uuid) {
        self.subjects.retain(|s| s.subject_id != id);
        for s in &mut self.subjects {
            s.stood_with.retain(|w| *w != id);
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
        PersonFacts {
            protected_activity: s.protected.unwrap_or_default(),
            conduct,
            order: s.order,
            response: s.response(local, fallback).unwrap_or(Response::NoOrder),
            arrested: s.arrested,
        }
    }

    fn order(o: &OrderDraft, at: Moment) -> DispersalOrder {
        DispersalOrder {
            words: o.words.trim().to_owned(),
            given_at: at,
            move_on: o.move_on,
            minutes_to_comply: o.minutes_to_comply.unwrap_or(0),
        }
    }

    /// The report, or every answer still missing, each at its field. `local` turns
    /// a phone-local `YYYY-MM-DDTHH:MM` into a moment.
    pub fn to_report(
        &self,
        local: impl Fn(&str) -> Option<Moment>,
    ) -> Result<IncidentReport, Vec<FieldError>> {
        let mut missing = Vec::new();
        let mut time = |field: String, text: &str, what: &str| -> Moment {
            local(text).unwrap_or_else(|| {
                missing.push(FieldError::new(field, format!("Give {what}.")));
                Moment(0)
            })
        };
        let occurred_at = time(
            "occurred_at".into(),
            &self.occurred_at,
            "the date and time of the incident",
        );
        let orders: Vec<DispersalOrder> = self
            .orders
            .iter()
            .enumerate()
            .map(|(k, o)| {
                let at = time(
                    format!("orders.{k}.given_at"),
                    &o.at,
                    "§52-1 D: the time the order was given",
                );
                Draft::order(o, at)
            })
            .collect();
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
        let mut subjects = Vec::new();
        for (i, s) in self.subjects.iter().enumerate() {
            let f = |name: &str| format!("subjects.{i}.{name}");
            if s.protected.is_none() {
                missing.push(FieldError::new(
                    f("protected_activity"),
                    "§52-1 E: answer whether this person was expressing an opinion lawfully.",
                ));
            }
            if s.response.is_none() {
                missing.push(FieldError::new(
                    f("response"),
                    "Say what this person did about the order (§52-1 D).",
                ));
            }
            if s.response == Some(ResponseChoice::Refused) && s.manner.is_none() {
                missing.push(FieldError::new(
                    f("manner"),
                    "§52-1 D: say how the person failed or refused.",
                ));
            }
            if s.offences.is_empty() && !s.no_offence {
                missing.push(FieldError::new(
                    f("charges"),
                    "Choose the offence, or “no offence”.",
                ));
            }
            let (Some(age_range), Some(sex), Some(race)) = (s.age_range, s.sex, s.race) else {
                missing.push(FieldError::new(
                    f("perceived"),
                    "Record your perception of age, sex and race (for bias audits; never asked of the person).",
                ));
                continue;
            };
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
            subjects.push(SubjectEntry {
                subject_id: s.subject_id,
                identity,
                perceived: Perceived {
                    age_range,
                    sex,
                    race,
                },
                facts: self.person_facts(s, &local, Moment(0)),
                charges: s.charges(),
            });
        }
        let Some(place) = self.place else {
            missing.push(FieldError::new(
                "location.place",
                "Choose the type of place (§52-1 C).",
            ));
            return Err(missing);
        };
        if !missing.is_empty() {
            return Err(missing);
        }
        Ok(IncidentReport {
            incident_id: self.incident_id,
            occurred_at,
            location: Location {
                text: self.location_text.trim().to_owned(),
                place,
                gps: self.gps,
            },
            orders,
            narrative: self.narrative.trim().to_owned(),
            subjects,
            numbers: Vec::new(),
        })
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

    /// The draft of a stored report, to correct it (a returned report).
    pub fn from_report(report: &IncidentReport, local: impl Fn(Moment) -> String) -> Draft {
        let ids: Vec<Uuid> = report.subjects.iter().map(|s| s.subject_id).collect();
        let subjects = report
            .subjects
            .iter()
            .map(|s| {
                let mut d = SubjectDraft::new(s.subject_id);
                match &s.identity {
                    Identity::Identified {
                        full_name,
                        date_of_birth,
                        address,
                        id_type,
                        id_number,
                    } => {
                        d.full_name = full_name.clone();
                        d.date_of_birth = date_of_birth.clone();
                        d.address = address.clone();
                        d.id_type = *id_type;
                        d.id_number = id_number.clone().unwrap_or_default();
                    }
                    Identity::Described { description } => {
                        d.identified = false;
                        d.description = description.clone();
                    }
                }
                d.age_range = Some(s.perceived.age_range);
                d.sex = Some(s.perceived.sex);
                d.race = Some(s.perceived.race);
                let f = &s.facts;
                d.protected = Some(f.protected_activity);
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
                    Response::Refused { at, manner } => {
                        (ResponseChoice::Refused, Some(at), Some(manner))
                    }
                };
                d.response = Some(choice);
                d.response_at = at.map(&local).unwrap_or_default();
                d.manner = manner;
                d.arrested = f.arrested;
                d.offences = s.offences().collect();
                d.cite = s
                    .charges
                    .iter()
                    .filter(|c| c.issue_citation)
                    .map(|c| c.offence)
                    .collect();
                d.no_offence = s.charges.is_empty();
                d
            })
            .collect();
        Draft {
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
            subjects,
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
        /// Each person gets the incident's answers, for the officer to check.
        pub(super) fn into_draft(self) -> Draft {
            // The conduct converts as a stored report's does.
            let conduct = crate::model::first_version::conduct_of(
                &self.conduct,
                self.place.unwrap_or(PlaceType::OtherPublicPlace),
            );
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
                    d
                })
                .collect();
            Draft {
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

/// `YYYY-MM-DDTHH:MM` read as UTC: the conversion tests use (the phone uses its
/// own zone through the browser).
pub fn parse_utc_local(text: &str) -> Option<Moment> {
    let (date, time) = text.trim().split_once('T')?;
    let (y, m, d) = crate::model::incident::parse_date(date)?;
    let (h, min) = time.split_once(':')?;
    let (h, min): (i64, i64) = (h.parse().ok()?, min.get(..2)?.parse().ok()?);
    if !(0..24).contains(&h) || !(0..60).contains(&min) {
        return None;
    }
    let days = crate::model::incident::days_from_civil(y, m, d);
    Some(Moment((days * 86_400 + h * 3600 + min * 60) * 1000))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ordinance::{Outcome, PassageObstruction};

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
                "subjects.0.manner",
                "subjects.0.perceived",
                "subjects.1.protected_activity",
                "location.place"
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
    fn a_draft_saved_by_the_first_version_opens_with_its_answers_given_to_each_person() {
        let first = serde_json::json!({
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
        });
        let d = Draft::load(&first.to_string()).expect("converted");
        assert_eq!(d.orders.len(), 1);
        let s = &d.subjects[0];
        assert_eq!(s.protected, Some(ProtectedActivity::None));
        assert!(s.conduct.remained_in_one_location && s.conduct.passage.pedestrians);
        assert_eq!(s.conduct.passage.place, Some(PlaceType::Sidewalk));
        assert_eq!(s.order, Some(0));
        assert_eq!(s.cite, vec![Offence::LoiteringObstruction]);
        assert!(d.to_report(parse_utc_local).is_ok());
    }

    #[test]
    fn local_times_parse_strictly() {
        assert_eq!(parse_utc_local("1970-01-01T00:01"), Some(Moment(60_000)));
        assert_eq!(parse_utc_local("2026-02-30T10:00"), None);
        assert_eq!(parse_utc_local("2026-07-04T25:00"), None);
        assert_eq!(parse_utc_local(""), None);
    }
}
