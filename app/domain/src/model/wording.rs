//! A report in words, shared by the server's printed documents and the
//! subject's copy a phone prints without signal (issue #17): the violation in
//! the ordinance's words, the order and the person's response. Times are
//! worded by a [`TimeWords`]: the Town's zone on the server, the phone's clock
//! (the phone is in Wells) in the browser.

use crate::model::incident::{Identity, IncidentReport, SubjectEntry};
use crate::ordinance::{DispersalOrder, Element, Moment, Offence, Response};

/// How a document words moments and dates.
pub trait TimeWords {
    /// `2026-07-04 01:30 EDT`
    fn date_time(&self, moment: Moment) -> String;
    /// The calendar date `days` after the date of `moment`, `YYYY-MM-DD`.
    fn date_after(&self, moment: Moment, days: u32) -> String;
}

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
pub fn order_text(o: &DispersalOrder, zone: &impl TimeWords) -> String {
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
pub fn response_text(response: &Response, zone: &impl TimeWords) -> String {
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
        Identity::Organisation { name, .. } => name.clone(),
    }
}

pub fn line(element: Element, offence: Offence, detail: Option<String>) -> String {
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

/// Where a gathering was held, as §52-6(2) sorts places.
pub fn venue_text(venue: crate::ordinance::article_ii::Venue) -> &'static str {
    use crate::ordinance::article_ii::Venue;
    match venue {
        Venue::Open => "a field, beach, lot or other open place",
        Venue::PermanentPlaceOfAssembly {
            sufficient_sanitary_facilities: false,
        } => "a permanent place of assembly without sanitary facilities sufficient for the crowd",
        Venue::PermanentPlaceOfAssembly {
            sufficient_sanitary_facilities: true,
        } => "a permanent place of assembly with sanitary facilities sufficient for the crowd",
    }
}

/// What the permit register showed the officer.
pub fn permit_text(check: &crate::ordinance::article_ii::enforcement::PermitCheck) -> String {
    use crate::ordinance::article_ii::enforcement::PermitCheck;
    match check {
        PermitCheck::NoneFound { not_this } if not_this.is_empty() => {
            "no permit in the register covers it".to_owned()
        }
        PermitCheck::NoneFound { not_this } => {
            let others: Vec<String> = not_this
                .iter()
                .map(|n| format!("{} is another gathering: {}", n.number.trim(), n.why.trim()))
                .collect();
            format!(
                "no permit in the register covers it ({})",
                others.join("; ")
            )
        }
        PermitCheck::Held { number } => format!("permit {number} covers it"),
        PermitCheck::Chapter55 { number } => format!(
            "the Board determined that its permit be issued under Chapter 55 regulations ({number}, §52-7)"
        ),
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
                Element::PublicStreetOrPlace | Element::StreetOrSidewalk => Some(
                    subject
                        .facts
                        .place
                        .unwrap_or(report.location.place)
                        .label()
                        .to_owned(),
                ),
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
                Element::ConductedGathering => c.gathering.map(|r| r.label().to_owned()),
                Element::MassGathering => report.gathering.as_ref().map(|g| {
                    let outdoors = if g.outdoor { "outdoors" } else { "indoors" };
                    format!(
                        "{}, {outdoors}",
                        crate::ordinance::article_ii::enforcement::summary(g)
                    )
                }),
                Element::MassGatheringArea => report
                    .gathering
                    .as_ref()
                    .map(|g| venue_text(g.venue).to_owned()),
                Element::WithoutPermit => report.gathering.as_ref().map(|g| permit_text(&g.permit)),
                _ => None,
            };
            line(element, offence, detail)
        })
        .collect()
}

/// The person's conduct for `offence`, element by element, without the order,
/// the response and the §52-1 E answer: the lines a record lists under
/// "Conduct" (issue #37: a person who complied showed "Failed or refused to
/// obey the order" there). The record states those apart, as recorded.
pub fn conduct_lines(
    report: &IncidentReport,
    subject: &SubjectEntry,
    offence: Offence,
) -> Vec<String> {
    offence
        .elements()
        .iter()
        .zip(violation_lines(report, subject, offence))
        .filter(|(element, _)| element.is_conduct())
        .map(|(_, line)| line)
        .collect()
}

/// What the printed citation of `subject_id`'s `offence` says of the
/// violation: that person's own facts, the order they received and their
/// response. `None` when the person is not in the report.
pub fn violation_text(
    report: &IncidentReport,
    subject_id: uuid::Uuid,
    offence: Offence,
    zone: &impl TimeWords,
) -> Option<ViolationText> {
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
        place: subject
            .facts
            .place
            .unwrap_or(report.location.place)
            .label()
            .to_owned(),
        order_words: order.map(|o| o.words.clone()),
        order_given_text: order.map(|o| order_text(o, zone)),
        refusal_text: matches!(response, Response::Refused { .. })
            .then(|| response_text(&response, zone)),
        narrative: report.narrative.clone(),
    })
}
