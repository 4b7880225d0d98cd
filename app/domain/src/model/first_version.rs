//! Reports in the first version's shape: stored before each person's facts were
//! recorded separately (issue #14), when the conduct, the order and the §52-1 E
//! answer were recorded once for the whole incident.
//!
//! Those reports are legal records and stay exactly as they were stored: their
//! revisions keep this shape, and they print from it word for word
//! (`documents::record`). The migration to the current shape
//! (`store::first_version`) gives each stored incident a current report built by
//! [`to_current`], without changing anything that was decided — outcomes,
//! citations, numbers, arrests stay as stored — so that a later correction or
//! amendment starts from it under the current rules.
//!
//! A phone that has not updated yet may still send this shape; the server refuses
//! it ([`FIRST_VERSION_REFUSED`]: the wire form of the current report is written here, above it) rather than convert it,
//! since converting would copy one person's conduct onto everyone.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use uuid::Uuid;

use crate::model::converted::ConvertedFact;
use crate::model::incident::{Identity, IncidentReport, Location, Perceived, SubjectEntry};
use crate::ordinance::{
    Charge, Conduct, DispersalOrder, Disturbance, GroupStanding, Interference, Moment, Offence,
    PassageObstruction, PeaceDisturbance, PersonFacts, ProtectedActivity, Response,
};

/// Whether a report's JSON is in the first version's shape: it answered §52-1 E
/// and recorded the conduct once, at the top.
pub fn is_first_version(value: &serde_json::Value) -> bool {
    value.get("protected_activity").is_some() || value.get("conduct").is_some()
}

/// The message a report in the first version's shape gets: a phone that has not
/// updated yet must not have its report converted, which would copy one
/// person's conduct onto everyone (the very defect the new shape fixes).
pub const FIRST_VERSION_REFUSED: &str =
    "this report is in the shape the app used before each person's facts were recorded \
     separately (conduct, order and the §52-1 E answer once for the whole incident). Each person \
     now answers for their own conduct: reload the app to update it, check each person's facts in \
     the report kept on this phone, and send it again";

impl Serialize for IncidentReport {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        IncidentReport::serialize(self, s)
    }
}

impl<'de> Deserialize<'de> for IncidentReport {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<IncidentReport, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        if is_first_version(&value) {
            return Err(serde::de::Error::custom(FIRST_VERSION_REFUSED));
        }
        IncidentReport::deserialize(value).map_err(serde::de::Error::custom)
    }
}

/// §52-1 A(1) as first recorded: whose passage, not where.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Passage {
    pub pedestrians: bool,
    pub vehicles: bool,
}

/// §52-2 as first recorded: the officer's count of persons together.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    pub persons_together: u16,
    pub obstructs_free_passage: bool,
}

/// §52-3 as first recorded: one choice per pair of the section's words.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Peace {
    pub loud_or_unusual_noise: bool,
    pub improper_or_boisterous_songs: bool,
    pub obscene_indecent_and_profane: bool,
    pub unruly_or_boisterous_manner: bool,
    pub disturbed_quiet_and_good_order: bool,
}

/// The conduct, once for the whole incident.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IncidentConduct {
    pub remained_in_one_location: bool,
    pub passage: Passage,
    pub interference: Interference,
    pub disturbance: Disturbance,
    pub group: Group,
    pub peace: Peace,
}

/// The one offence a person could be charged with, then.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstCharge {
    pub offence: Offence,
    pub issue_citation: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FirstSubject {
    pub subject_id: Uuid,
    pub identity: Identity,
    pub perceived: Perceived,
    pub response: Response,
    pub charge: Option<FirstCharge>,
}

/// A report as the first version stored it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FirstReport {
    pub incident_id: Uuid,
    pub occurred_at: Moment,
    pub location: Location,
    pub protected_activity: ProtectedActivity,
    pub conduct: IncidentConduct,
    pub order: Option<DispersalOrder>,
    pub narrative: String,
    pub subjects: Vec<FirstSubject>,
}

/// One person's conduct from the incident's, as [`to_current`] reads it;
/// `place` is where the incident happened.
pub fn conduct_of(c: &IncidentConduct, place: crate::ordinance::PlaceType) -> Conduct {
    Conduct {
        remained_in_one_location: c.remained_in_one_location,
        passage: PassageObstruction {
            pedestrians: c.passage.pedestrians,
            vehicles: c.passage.vehicles,
            place: (c.passage.pedestrians || c.passage.vehicles).then_some(place),
        },
        interference: c.interference,
        disturbance: c.disturbance,
        group: GroupStanding {
            stood_with: Vec::new(),
            others: c.group.persons_together.saturating_sub(1),
            obstructs_free_passage: c.group.obstructs_free_passage,
        },
        peace: PeaceDisturbance {
            loud_noise: c.peace.loud_or_unusual_noise,
            unusual_noise: false,
            improper_songs: c.peace.improper_or_boisterous_songs,
            boisterous_songs: false,
            obscene: c.peace.obscene_indecent_and_profane,
            indecent: c.peace.obscene_indecent_and_profane,
            profane: c.peace.obscene_indecent_and_profane,
            unruly_or_boisterous_manner: c.peace.unruly_or_boisterous_manner,
            disturbed_quiet_and_good_order: c.peace.disturbed_quiet_and_good_order,
        },
        gathering: None,
    }
}

/// The facts every person of a converted report (or draft) of `persons`
/// persons carries without a record of them, in [`ConvertedFact::ALL`]'s
/// order. (An arrest is marked only for a person cited under §52-2.)
pub fn converted_facts(c: &IncidentConduct, persons: usize) -> Vec<ConvertedFact> {
    let shared = persons >= 2;
    [
        (ConvertedFact::ProtectedActivity, shared),
        (ConvertedFact::Conduct, shared),
        (
            ConvertedFact::ObstructedPlace,
            c.passage.pedestrians || c.passage.vehicles,
        ),
        (
            ConvertedFact::NoiseOrSongWord,
            c.peace.loud_or_unusual_noise || c.peace.improper_or_boisterous_songs,
        ),
    ]
    .into_iter()
    .filter_map(|(fact, marked)| marked.then_some(fact))
    .collect()
}

/// A new report still carrying answers a conversion filled in unchecked
/// (issue #33): each such person, at their field, for the officer to check.
/// Only a report already stored (a converted one, amended by the chief) may
/// keep them.
pub fn unchecked(report: &IncidentReport) -> Vec<crate::error::FieldError> {
    report
        .subjects
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.not_recorded.is_empty())
        .map(|(i, s)| {
            crate::error::FieldError::new(
                format!("subjects.{i}.to_check"),
                format!(
                    "Converted from the earlier app: {} — {} for this person. Check them, then \
                     send the report again.",
                    crate::model::converted::listed(&s.not_recorded),
                    crate::model::converted::NOT_RECORDED
                ),
            )
        })
        .collect()
}

/// A stored report, in whichever shape it was stored.
#[derive(Debug, Clone, PartialEq)]
pub enum StoredReport {
    First(FirstReport),
    Current(IncidentReport),
}

impl StoredReport {
    /// Reads a stored report of either shape.
    pub fn parse(json: &str) -> Result<StoredReport, serde_json::Error> {
        let value: serde_json::Value = serde_json::from_str(json)?;
        if is_first_version(&value) {
            serde_json::from_value(value).map(StoredReport::First)
        } else {
            serde_json::from_value(value).map(StoredReport::Current)
        }
    }

    /// The report in the current shape (a first-version one converted).
    pub fn current(self) -> IncidentReport {
        match self {
            StoredReport::First(first) => to_current(&first),
            StoredReport::Current(report) => report,
        }
    }
}

/// The current shape of a first-version report: each person gets the incident's
/// facts as their own, which is what the first version decided on. Nothing that
/// was decided changes — the stored outcomes and citations are not recomputed,
/// and a citation's arrest stays as it was stored — and the first version's
/// words survive as near as the current facts allow (the original revision is
/// kept and printed as it was):
///
/// - "loud or unusual noise" becomes loud noise, "improper or boisterous songs"
///   improper songs (the section's first word of each pair: both satisfy the same
///   prong); "obscene and indecent and profane" becomes all three;
/// - the place of an obstruction of passage is the place the incident recorded;
/// - the officer's count of persons together becomes "others" beside the person;
/// - a person who responded to the order received it.
///
/// What the conversion fills in without a record of it is marked on the person
/// ([`ConvertedFact`], "not recorded — converted", issue #33) so that no one
/// reads it as recorded: with two or more persons, the §52-1 E answer and the
/// conduct (recorded once for everyone); an obstruction's place; a pair of
/// §52-3's words taken as its first; and, for a person cited under §52-2,
/// whether an arrest was made — the first version never asked, so the
/// conversion records none (the citation's arrest, the court's record, stays as
/// stored).
pub fn to_current(first: &FirstReport) -> IncidentReport {
    let conduct = conduct_of(&first.conduct, first.location.place);
    let shared = converted_facts(&first.conduct, first.subjects.len());
    let subjects = first
        .subjects
        .iter()
        .map(|s| {
            let received = first.order.is_some() && s.response.answers_an_order();
            let cited_52_2 = s
                .charge
                .is_some_and(|c| c.issue_citation && c.offence == Offence::GroupObstruction);
            let mut not_recorded = shared.clone();
            if cited_52_2 {
                not_recorded.push(ConvertedFact::Arrest);
            }
            let charges: Vec<Charge> = s
                .charge
                .map(|c| Charge {
                    offence: c.offence,
                    issue_citation: c.issue_citation,
                })
                .into_iter()
                .collect();
            SubjectEntry {
                subject_id: s.subject_id,
                identity: s.identity.clone(),
                perceived: s.perceived,
                facts: PersonFacts {
                    protected_activity: first.protected_activity,
                    conduct: conduct.clone(),
                    order: received.then_some(0),
                    response: s.response,
                    arrested: false,
                    place: None,
                    contravenes: None,
                },
                charges,
                signature: None,
                not_recorded,
            }
        })
        .collect();
    IncidentReport {
        incident_id: first.incident_id,
        occurred_at: first.occurred_at,
        location: first.location.clone(),
        orders: first.order.clone().into_iter().collect(),
        narrative: first.narrative.clone(),
        subjects,
        numbers: Vec::new(),
        gathering: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::incident::{AgeRange, PerceivedRace, PerceivedSex};
    use crate::ordinance::{PlaceType, RefusalManner};

    fn subject(n: u128, charge: Option<Offence>) -> FirstSubject {
        FirstSubject {
            subject_id: Uuid::from_u128(n),
            identity: Identity::Described {
                description: "Blue coat".into(),
            },
            perceived: Perceived {
                age_range: AgeRange::Unknown,
                sex: PerceivedSex::Unknown,
                race: PerceivedRace::Unknown,
            },
            response: Response::Refused {
                at: Moment(2_000),
                manner: RefusalManner::StayedInPlace,
            },
            charge: charge.map(|offence| FirstCharge {
                offence,
                issue_citation: true,
            }),
        }
    }

    fn first(subjects: Vec<FirstSubject>) -> FirstReport {
        FirstReport {
            incident_id: Uuid::from_u128(7),
            occurred_at: Moment(0),
            location: Location {
                text: "Post Road".into(),
                place: PlaceType::Sidewalk,
                gps: None,
            },
            protected_activity: ProtectedActivity::None,
            conduct: IncidentConduct {
                remained_in_one_location: true,
                passage: Passage {
                    pedestrians: true,
                    vehicles: false,
                },
                group: Group {
                    persons_together: 2,
                    obstructs_free_passage: true,
                },
                peace: Peace {
                    loud_or_unusual_noise: true,
                    ..Peace::default()
                },
                ..IncidentConduct::default()
            },
            order: Some(DispersalOrder {
                words: "Move on.".into(),
                given_at: Moment(1_000),
                move_on: true,
                minutes_to_comply: 0,
            }),
            narrative: "Blocked the sidewalk.".into(),
            subjects,
        }
    }

    /// Issue #33, finding 8: the conversion copied the incident's facts onto
    /// everyone and recorded an arrest for every §52-2 citation, facts no one
    /// recorded. It keeps the values (nothing decided changes) but marks them,
    /// and records no arrest.
    #[test]
    fn to_current_marks_what_it_did_not_record_and_records_no_arrest() {
        use ConvertedFact::*;
        let report = to_current(&first(vec![
            subject(1, Some(Offence::GroupObstruction)),
            subject(2, Some(Offence::LoiteringObstruction)),
        ]));
        let group = &report.subjects[0];
        assert_eq!(
            group.not_recorded,
            [
                ProtectedActivity,
                Conduct,
                ObstructedPlace,
                NoiseOrSongWord,
                Arrest
            ]
        );
        assert!(!group.facts.arrested, "never asked, so not recorded");
        assert!(group.facts.conduct.peace.loud_noise, "the value stays");
        assert_eq!(
            report.subjects[1].not_recorded,
            [ProtectedActivity, Conduct, ObstructedPlace, NoiseOrSongWord]
        );
        // One person: the incident's conduct is theirs.
        let alone = to_current(&first(vec![subject(3, None)]));
        assert_eq!(
            alone.subjects[0].not_recorded,
            [ObstructedPlace, NoiseOrSongWord]
        );
        // A report recorded as it is now carries no mark, and its form is
        // unchanged.
        let json = serde_json::to_value(&alone).expect("json");
        assert!(json["subjects"][0].get("not_recorded").is_some());
        let mut unmarked = alone.clone();
        unmarked.subjects[0].not_recorded.clear();
        let json = serde_json::to_value(&unmarked).expect("json");
        assert!(json["subjects"][0].get("not_recorded").is_none());
        // A new report still carrying marks is refused until checked.
        assert_eq!(unchecked(&alone)[0].field, "subjects.0.to_check");
        assert!(unchecked(&unmarked).is_empty());
    }
}
