//! A report in words: the lines the full report, the printed report and the
//! printed citation are made of, in the Town's time.
//!
//! Reports stored in the first version's shape (`model::first_version`) print
//! from that shape, with the words they were first printed in: a reprint of a
//! citation already with the court must say what the filed one said.

use crate::model::first_version::{FirstReport, StoredReport};
use crate::model::incident::{Identity, IncidentReport, SubjectEntry};
use crate::ordinance::{DispersalOrder, Element, Offence, Response};
use crate::town_time::TownZone;

/// What a printed citation says of the violation: the person's own facts, the
/// order they received and their response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViolationText {
    pub violation: Vec<String>,
    pub occurred_at_text: String,
    pub location: String,
    pub place: String,
    pub order_words: Option<String>,
    pub order_given_text: Option<String>,
    pub refusal_text: Option<String>,
    pub narrative: String,
}

/// The §52-1 D order in words: when, whether to move on, the time allowed.
pub fn order_text(o: &DispersalOrder, zone: &TownZone) -> String {
    let time = if o.minutes_to_comply == 0 {
        "to comply at once".to_owned()
    } else {
        format!("{} min allowed to comply", o.minutes_to_comply)
    };
    let move_on = if o.move_on {
        "; ordered to move on"
    } else {
        ""
    };
    format!("{}{move_on}; {time}", zone.date_time(o.given_at))
}

/// A person's response to the order in words.
pub fn response_text(response: &Response, zone: &TownZone) -> String {
    match response {
        Response::NoOrder => "No order given to this person".to_owned(),
        Response::LeftBeforeOrder => "Left before an order could be given".to_owned(),
        Response::Complied { at } => format!("Complied at {}", zone.date_time(*at)),
        Response::Refused { at, manner } => {
            format!("{} at {}", manner.label(), zone.date_time(*at))
        }
    }
}

/// How lists name a person.
pub fn who(identity: &Identity) -> String {
    match identity {
        Identity::Identified { full_name, .. } => full_name.clone(),
        Identity::Described { description } => format!("Unidentified: {description}"),
    }
}

fn line(element: Element, offence: Offence, detail: Option<String>) -> String {
    match detail {
        Some(d) if !d.is_empty() => format!(
            "{} ({d}) — {}",
            element.description(),
            element.section(offence)
        ),
        _ => format!("{} — {}", element.description(), element.section(offence)),
    }
}

fn joined(parts: &[(&str, bool)]) -> String {
    let on: Vec<&str> = parts
        .iter()
        .filter(|(_, on)| *on)
        .map(|(w, _)| *w)
        .collect();
    match on.as_slice() {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The violation in the ordinance's words: each element of the offence, with
/// what was recorded of this person where the element has parts.
pub fn violation_lines(
    report: &IncidentReport,
    subject: &SubjectEntry,
    offence: Offence,
) -> Vec<String> {
    let c = &subject.facts.conduct;
    offence
        .elements()
        .iter()
        .map(|&element| {
            let detail = match element {
                Element::PassageObstructed => Some(joined(&[
                    ("pedestrians", c.passage.pedestrians),
                    ("vehicles", c.passage.vehicles),
                ])),
                Element::ObstructedPlaceIsPublic => c.passage.place.map(|p| p.label().to_owned()),
                Element::PublicStreetOrPlace | Element::StreetOrSidewalk => {
                    Some(report.location.place.label().to_owned())
                }
                Element::UseOrBusinessOrAccessObstructed => Some(joined(&[
                    ("use of property", c.interference.use_of_property),
                    ("a lawful business", c.interference.lawful_business),
                    ("ingress and egress", c.interference.ingress_egress),
                ])),
                Element::TwoOrMorePersons => {
                    let names: Vec<String> = c
                        .group
                        .stood_with
                        .iter()
                        .filter_map(|&j| report.subjects.get(j))
                        .map(|s| who(&s.identity))
                        .collect();
                    let others = match c.group.others {
                        0 => None,
                        1 => Some("1 other".to_owned()),
                        n => Some(format!("{n} others")),
                    };
                    let with: Vec<String> = names.into_iter().chain(others).collect();
                    Some(format!(
                        "{} persons{}",
                        c.group.persons_together(),
                        if with.is_empty() {
                            String::new()
                        } else {
                            format!(": with {}", with.join(", "))
                        }
                    ))
                }
                Element::PeaceConduct => Some(c.peace.described().join(", ")),
                _ => None,
            };
            line(element, offence, detail)
        })
        .collect()
}

/// What the printed citation of `subject_id`'s `offence` says of the violation,
/// from the report in the shape it was stored in. `None` when the person is not
/// in the report.
pub fn violation_text(
    stored: &StoredReport,
    subject_id: uuid::Uuid,
    offence: Offence,
    zone: &TownZone,
) -> Option<ViolationText> {
    match stored {
        StoredReport::First(first) => {
            first_version::violation_text(first, subject_id, offence, zone)
        }
        StoredReport::Current(report) => {
            let subject = report
                .subjects
                .iter()
                .find(|s| s.subject_id == subject_id)?;
            let order = subject.facts.order.and_then(|k| report.orders.get(k));
            let response = subject.facts.response;
            Some(ViolationText {
                violation: violation_lines(report, subject, offence),
                occurred_at_text: zone.date_time(report.occurred_at),
                location: report.location.text.trim().to_owned(),
                place: report.location.place.label().to_owned(),
                order_words: order.map(|o| o.words.clone()),
                order_given_text: order.map(|o| order_text(o, zone)),
                refusal_text: matches!(response, Response::Refused { .. })
                    .then(|| response_text(&response, zone)),
                narrative: report.narrative.clone(),
            })
        }
    }
}

/// The report in words for the full report page, in the Town's time, from the
/// report in the shape it was stored in.
pub fn record_lines(stored: &StoredReport, zone: &TownZone) -> Vec<(String, String)> {
    match stored {
        StoredReport::First(first) => first_version::record_lines(first, zone),
        StoredReport::Current(report) => current_record_lines(report, zone),
    }
}

fn place_lines(
    occurred_at: crate::ordinance::Moment,
    location: &crate::model::incident::Location,
    zone: &TownZone,
) -> Vec<(String, String)> {
    let mut lines = vec![
        ("Date and time".to_owned(), zone.date_time(occurred_at)),
        ("Location".to_owned(), location.text.clone()),
        (
            "Place (§52-1 C)".to_owned(),
            location.place.label().to_owned(),
        ),
    ];
    if let Some(g) = location.gps {
        lines.push((
            "GPS fix".to_owned(),
            format!(
                "{:.5}, {:.5} (± {:.0} m)",
                g.latitude, g.longitude, g.accuracy_m
            ),
        ));
    }
    lines
}

fn perceived_line(s: &crate::model::incident::Perceived) -> String {
    format!(
        "{}, {}, {} (officer's perception, for bias audits)",
        s.age_range.label(),
        s.sex.label(),
        s.race.label()
    )
}

/// The current shape in words: the incident, its orders, then each person's own
/// facts, response and charges.
fn current_record_lines(report: &IncidentReport, zone: &TownZone) -> Vec<(String, String)> {
    let mut lines = place_lines(report.occurred_at, &report.location, zone);
    if report.orders.is_empty() {
        lines.push(("Order (§52-1 D)".to_owned(), "No order given".to_owned()));
    }
    for (k, o) in report.orders.iter().enumerate() {
        lines.push((format!("Order {} (§52-1 D)", k + 1), order_text(o, zone)));
        lines.push((
            format!("Words of order {}", k + 1),
            format!("“{}”", o.words),
        ));
    }
    for s in &report.subjects {
        let who = who(&s.identity);
        let facts = &s.facts;
        lines.push((
            format!("Protected activity (§52-1 E) — {who}"),
            facts.protected_activity.label().to_owned(),
        ));
        for offence in crate::ordinance::suggested_offences(facts) {
            for line in violation_lines(report, s, offence) {
                lines.push((format!("Conduct — {who} — {}", offence.reference()), line));
            }
        }
        lines.push((
            format!("Order received — {who}"),
            match facts.order {
                Some(k) => format!("Order {}", k + 1),
                None => "None".to_owned(),
            },
        ));
        lines.push((
            format!("Response — {who}"),
            response_text(&facts.response, zone),
        ));
        if facts.arrested {
            lines.push((
                format!("Arrest — {who}"),
                "Arrested, to be brought before the District Court (§52-2)".to_owned(),
            ));
        }
        if !s.charges.is_empty() {
            let charged: Vec<String> = s
                .charges
                .iter()
                .map(|c| {
                    format!(
                        "{} {}{}",
                        c.offence.reference(),
                        c.offence.title(),
                        if c.issue_citation {
                            " — citation"
                        } else {
                            " — no citation"
                        }
                    )
                })
                .collect();
            lines.push((format!("Charged — {who}"), charged.join("; ")));
        }
        lines.push((format!("Perceived — {who}"), perceived_line(&s.perceived)));
    }
    lines
}

/// The first version's words, exactly as reports stored then were printed.
mod first_version {
    use super::*;

    pub(super) fn violation_lines(report: &FirstReport, offence: Offence) -> Vec<String> {
        let c = &report.conduct;
        offence
            .first_version_elements()
            .iter()
            .map(|&element| {
                let detail = match element {
                    Element::PassageObstructed => Some(
                        [
                            ("pedestrians", c.passage.pedestrians),
                            ("vehicles", c.passage.vehicles),
                        ]
                        .iter()
                        .filter(|(_, on)| *on)
                        .map(|(w, _)| *w)
                        .collect::<Vec<_>>()
                        .join(" and "),
                    ),
                    Element::TwoOrMorePersons => {
                        Some(format!("{} persons", c.group.persons_together))
                    }
                    _ => None,
                };
                line(element, offence, detail)
            })
            .collect()
    }

    pub(super) fn violation_text(
        report: &FirstReport,
        subject_id: uuid::Uuid,
        offence: Offence,
        zone: &TownZone,
    ) -> Option<ViolationText> {
        let subject = report
            .subjects
            .iter()
            .find(|s| s.subject_id == subject_id)?;
        Some(ViolationText {
            violation: violation_lines(report, offence),
            occurred_at_text: zone.date_time(report.occurred_at),
            location: report.location.text.trim().to_owned(),
            place: report.location.place.label().to_owned(),
            order_words: report.order.as_ref().map(|o| o.words.clone()),
            order_given_text: report.order.as_ref().map(|o| order_text(o, zone)),
            refusal_text: matches!(subject.response, Response::Refused { .. })
                .then(|| response_text(&subject.response, zone)),
            narrative: report.narrative.clone(),
        })
    }

    /// The offences the first version suggested from the incident's conduct.
    fn suggested(report: &FirstReport) -> Vec<Offence> {
        let c = &report.conduct;
        Offence::offered(report.protected_activity)
            .into_iter()
            .filter(|offence| match offence {
                Offence::LoiteringObstruction => c.passage.pedestrians || c.passage.vehicles,
                Offence::LoiteringInterference => {
                    c.interference.use_of_property
                        || c.interference.lawful_business
                        || c.interference.ingress_egress
                }
                Offence::LoiteringDisturbance => {
                    c.disturbance.disturbance_or_annoyance
                        || c.disturbance.discomfort_or_alarm
                        || c.disturbance.person_lawfully_passing
                }
                Offence::GroupObstruction => c.group.obstructs_free_passage,
                Offence::DisturbingThePeace => {
                    c.peace.loud_or_unusual_noise
                        || c.peace.improper_or_boisterous_songs
                        || c.peace.obscene_indecent_and_profane
                        || c.peace.unruly_or_boisterous_manner
                }
            })
            .collect()
    }

    pub(super) fn record_lines(report: &FirstReport, zone: &TownZone) -> Vec<(String, String)> {
        let mut lines = place_lines(report.occurred_at, &report.location, zone);
        lines.push((
            "Protected activity (§52-1 E)".to_owned(),
            first_protected_label(report.protected_activity).to_owned(),
        ));
        for offence in suggested(report) {
            for line in violation_lines(report, offence) {
                lines.push((format!("Conduct — {}", offence.reference()), line));
            }
        }
        match &report.order {
            Some(o) => {
                lines.push(("Order (§52-1 D)".to_owned(), order_text(o, zone)));
                lines.push(("Words of the order".to_owned(), format!("“{}”", o.words)));
            }
            None => lines.push(("Order (§52-1 D)".to_owned(), "No order given".to_owned())),
        }
        for s in &report.subjects {
            let who = who(&s.identity);
            lines.push((
                format!("Response — {who}"),
                response_text(&s.response, zone),
            ));
            lines.push((format!("Perceived — {who}"), perceived_line(&s.perceived)));
        }
        lines
    }

    /// The §52-1 E answer as the first version worded it: for the whole incident.
    fn first_protected_label(p: crate::ordinance::ProtectedActivity) -> &'static str {
        match p {
            crate::ordinance::ProtectedActivity::None => "No — nobody is expressing an opinion",
            other => other.label(),
        }
    }
}
