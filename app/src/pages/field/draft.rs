//! The report as the officer is filling it in: every answer optional until
//! submit, saved on the phone after every change, turned into an
//! [`IncidentReport`] (or the list of what is still missing) on demand.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::model::incident::{
    AgeRange, Charge, GpsFix, IdType, Identity, IncidentReport, Location, Perceived, PerceivedRace,
    PerceivedSex, SubjectEntry,
};
use crate::ordinance::{
    Conduct, DispersalOrder, Moment, Offence, PlaceType, ProtectedActivity, RefusalManner, Response,
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
    pub response: Option<ResponseChoice>,
    /// `YYYY-MM-DDTHH:MM` in the phone's time.
    pub response_at: String,
    pub manner: Option<RefusalManner>,
    /// `None` with `no_offence` false: not answered yet.
    pub offence: Option<Offence>,
    pub no_offence: bool,
    pub issue_citation: bool,
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
            response: None,
            response_at: String::new(),
            manner: None,
            offence: None,
            no_offence: false,
            issue_citation: false,
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
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Draft {
    pub incident_id: Uuid,
    /// `YYYY-MM-DDTHH:MM` in the phone's time.
    pub occurred_at: String,
    pub location_text: String,
    pub place: Option<PlaceType>,
    pub gps: Option<GpsFix>,
    pub protected: Option<ProtectedActivity>,
    pub conduct: Conduct,
    pub order_given: bool,
    pub order_words: String,
    pub order_at: String,
    pub move_on: bool,
    pub minutes_to_comply: Option<u32>,
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
            protected: None,
            conduct: Conduct::default(),
            order_given: false,
            order_words: String::new(),
            order_at: String::new(),
            move_on: false,
            minutes_to_comply: None,
            narrative: String::new(),
            subjects: vec![SubjectDraft::new(first_subject)],
        }
    }

    /// Whether the officer has started filling it in (worth keeping).
    pub fn is_started(&self) -> bool {
        !self.location_text.trim().is_empty()
            || self.place.is_some()
            || self.protected.is_some()
            || !self.narrative.trim().is_empty()
            || self
                .subjects
                .iter()
                .any(|s| !s.full_name.trim().is_empty() || !s.description.trim().is_empty())
    }

    /// The report, or every answer still missing, each at its field. `local` turns
    /// a phone-local `YYYY-MM-DDTHH:MM` into a moment.
    pub fn to_report(
        &self,
        local: impl Fn(&str) -> Option<Moment>,
    ) -> Result<IncidentReport, Vec<FieldError>> {
        let mut missing = Vec::new();
        let time =
            |missing: &mut Vec<FieldError>, field: String, text: &str, what: &str| -> Moment {
                local(text).unwrap_or_else(|| {
                    missing.push(FieldError::new(field, format!("Give {what}.")));
                    Moment(0)
                })
            };
        let occurred_at = time(
            &mut missing,
            "occurred_at".into(),
            &self.occurred_at,
            "the date and time of the incident",
        );
        let order = self.order_given.then(|| DispersalOrder {
            words: self.order_words.trim().to_owned(),
            given_at: time(
                &mut missing,
                "order.given_at".into(),
                &self.order_at,
                "§52-1 D: the time the order was given",
            ),
            move_on: self.move_on,
            minutes_to_comply: self.minutes_to_comply.unwrap_or(0),
        });
        let mut subjects = Vec::new();
        for (i, s) in self.subjects.iter().enumerate() {
            let response = match s.response {
                None => {
                    missing.push(FieldError::new(
                        format!("subjects.{i}.response"),
                        "Say what this person did about the order (§52-1 D).",
                    ));
                    Response::NoOrder
                }
                Some(ResponseChoice::NoOrder) => Response::NoOrder,
                Some(ResponseChoice::LeftBeforeOrder) => Response::LeftBeforeOrder,
                Some(ResponseChoice::Complied) => Response::Complied {
                    at: time(
                        &mut missing,
                        format!("subjects.{i}.response_at"),
                        &s.response_at,
                        "the time the person complied",
                    ),
                },
                Some(ResponseChoice::Refused) => {
                    let at = time(
                        &mut missing,
                        format!("subjects.{i}.response_at"),
                        &s.response_at,
                        "§52-1 D: the time the person failed or refused to obey",
                    );
                    let manner = s.manner.unwrap_or_else(|| {
                        missing.push(FieldError::new(
                            format!("subjects.{i}.manner"),
                            "§52-1 D: say how the person failed or refused.",
                        ));
                        RefusalManner::Other
                    });
                    Response::Refused { at, manner }
                }
            };
            let (Some(age_range), Some(sex), Some(race)) = (s.age_range, s.sex, s.race) else {
                missing.push(FieldError::new(
                    format!("subjects.{i}.perceived"),
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
            if s.offence.is_none() && !s.no_offence {
                missing.push(FieldError::new(
                    format!("subjects.{i}.charge"),
                    "Choose the offence, or “no offence”.",
                ));
            }
            subjects.push(SubjectEntry {
                subject_id: s.subject_id,
                identity,
                perceived: Perceived {
                    age_range,
                    sex,
                    race,
                },
                response,
                charge: s.offence.filter(|_| !s.no_offence).map(|offence| Charge {
                    offence,
                    issue_citation: s.issue_citation,
                }),
            });
        }
        let Some(place) = self.place else {
            missing.push(FieldError::new(
                "location.place",
                "Choose the type of place (§52-1 C).",
            ));
            return Err(missing);
        };
        let Some(protected_activity) = self.protected else {
            missing.push(FieldError::new(
                "protected_activity",
                "§52-1 E: answer whether anyone is expressing an opinion lawfully.",
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
            protected_activity,
            conduct: self.conduct,
            order,
            narrative: self.narrative.trim().to_owned(),
            subjects,
        })
    }

    /// The facts and each person's response as far as answered, for the live
    /// verdict while the officer types (`None` until place and §52-1 E are
    /// answered). Unfilled times count as `now`.
    pub fn preview(
        &self,
        local: impl Fn(&str) -> Option<Moment>,
        now: Moment,
    ) -> Option<(crate::ordinance::Facts, Vec<Option<Response>>)> {
        let facts = crate::ordinance::Facts {
            place: self.place?,
            protected_activity: self.protected?,
            conduct: self.conduct,
            order: self.order_given.then(|| DispersalOrder {
                words: self.order_words.clone(),
                given_at: local(&self.order_at).unwrap_or(now),
                move_on: self.move_on,
                minutes_to_comply: self.minutes_to_comply.unwrap_or(0),
            }),
            narrative: self.narrative.clone(),
        };
        let responses = self
            .subjects
            .iter()
            .map(|s| {
                s.response.map(|choice| match choice {
                    ResponseChoice::NoOrder => Response::NoOrder,
                    ResponseChoice::LeftBeforeOrder => Response::LeftBeforeOrder,
                    ResponseChoice::Complied => Response::Complied {
                        at: local(&s.response_at).unwrap_or(now),
                    },
                    ResponseChoice::Refused => Response::Refused {
                        at: local(&s.response_at).unwrap_or(now),
                        manner: s.manner.unwrap_or(RefusalManner::Other),
                    },
                })
            })
            .collect();
        Some((facts, responses))
    }

    /// The draft of a stored report, to correct it (a returned report).
    pub fn from_report(report: &IncidentReport, local: impl Fn(Moment) -> String) -> Draft {
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
                let (choice, at, manner) = match s.response {
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
                d.offence = s.charge.map(|c| c.offence);
                d.no_offence = s.charge.is_none();
                d.issue_citation = s.charge.is_some_and(|c| c.issue_citation);
                d
            })
            .collect();
        Draft {
            incident_id: report.incident_id,
            occurred_at: local(report.occurred_at),
            location_text: report.location.text.clone(),
            place: Some(report.location.place),
            gps: report.location.gps,
            protected: Some(report.protected_activity),
            conduct: report.conduct,
            order_given: report.order.is_some(),
            order_words: report
                .order
                .as_ref()
                .map(|o| o.words.clone())
                .unwrap_or_default(),
            order_at: report
                .order
                .as_ref()
                .map(|o| local(o.given_at))
                .unwrap_or_default(),
            move_on: report.order.as_ref().is_some_and(|o| o.move_on),
            minutes_to_comply: report.order.as_ref().map(|o| o.minutes_to_comply),
            narrative: report.narrative.clone(),
            subjects,
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
    use crate::ordinance::PassageObstruction;

    fn filled() -> Draft {
        let mut d = Draft::new(Uuid::now_v7(), Uuid::now_v7(), "2026-07-04T21:00".into());
        d.location_text = "Post Road at Mile Road".into();
        d.place = Some(PlaceType::Sidewalk);
        d.protected = Some(ProtectedActivity::None);
        d.conduct.remained_in_one_location = true;
        d.conduct.passage = PassageObstruction {
            pedestrians: true,
            vehicles: false,
        };
        d.order_given = true;
        d.order_words = "Stop blocking the way and move on.".into();
        d.order_at = "2026-07-04T21:05".into();
        d.move_on = true;
        d.minutes_to_comply = Some(2);
        d.narrative = "Stood across the sidewalk; pedestrians stepped into the road.".into();
        let s = &mut d.subjects[0];
        s.full_name = "Alex Doe".into();
        s.date_of_birth = "1990-02-03".into();
        s.address = "1 Main St, Wells ME".into();
        s.age_range = Some(AgeRange::From35To49);
        s.sex = Some(PerceivedSex::Male);
        s.race = Some(PerceivedRace::White);
        s.response = Some(ResponseChoice::Refused);
        s.response_at = "2026-07-04T21:08".into();
        s.manner = Some(RefusalManner::StayedInPlace);
        s.offence = Some(Offence::LoiteringObstruction);
        s.issue_citation = true;
        d
    }

    #[test]
    fn a_complete_draft_becomes_a_citable_report() {
        let report = filled().to_report(parse_utc_local).expect("complete");
        let now = Moment(report.occurred_at.0 + 3_600_000);
        let verdicts = crate::model::incident::check(&report, now).expect("valid");
        assert_eq!(verdicts[0].outcome, Ok(crate::ordinance::Outcome::Cited));
    }

    #[test]
    fn every_missing_answer_is_named_at_its_field() {
        let mut d = filled();
        d.place = None;
        d.subjects[0].manner = None;
        d.subjects[0].race = None;
        let errors = d.to_report(parse_utc_local).expect_err("incomplete");
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "subjects.0.manner",
                "subjects.0.perceived",
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
    fn local_times_parse_strictly() {
        assert_eq!(parse_utc_local("1970-01-01T00:01"), Some(Moment(60_000)));
        assert_eq!(parse_utc_local("2026-02-30T10:00"), None);
        assert_eq!(parse_utc_local("2026-07-04T25:00"), None);
        assert_eq!(parse_utc_local(""), None);
    }
}
