//! A report in words: the lines the full report, the printed report and the
//! printed citation are made of, in the Town's time.
//!
//! Reports stored in the first version's shape (`model::first_version`) print
//! from that shape, with the words they were first printed in: a reprint of a
//! citation already with the court must say what the filed one said.

use domain::model::first_version::{FirstReport, StoredReport};
use domain::model::incident::IncidentReport;
use domain::model::wording::line;
pub use domain::model::wording::{order_text, response_text, violation_lines, who, ViolationText};
use domain::ordinance::{Element, Offence, Response};
use domain::town_time::TownZone;

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
            domain::model::wording::violation_text(report, subject_id, offence, zone)
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
    occurred_at: domain::ordinance::Moment,
    location: &domain::model::incident::Location,
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

fn perceived_line(s: &domain::model::incident::Perceived) -> String {
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
    // An Article II report's gathering (§52-7); Article I reports have none and
    // print as they always have.
    if let Some(g) = &report.gathering {
        use domain::model::wording::{permit_text, venue_text};
        lines.push((
            "Gathering (§52-7)".to_owned(),
            format!(
                "{}, {}",
                domain::ordinance::article_ii::enforcement::summary(g),
                if g.outdoor { "outdoors" } else { "indoors" }
            ),
        ));
        lines.push((
            "Place (§52-6(2))".to_owned(),
            venue_text(g.venue).to_owned(),
        ));
        lines.push(("Permit register".to_owned(), permit_text(&g.permit)));
    }
    for s in &report.subjects {
        if let Some(role) = s.facts.conduct.gathering {
            lines.push((
                format!("Part in the gathering (§52-7) — {}", who(&s.identity)),
                role.label().to_owned(),
            ));
        }
    }
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
        // Written only where recorded, so reports stored before print as they did.
        if let Some(law) = &facts.contravenes {
            lines.push((format!("Law contravened (§52-1 E) — {who}"), law.clone()));
        }
        if let Some(place) = facts.place {
            lines.push((format!("Place (§52-1 C) — {who}"), place.label().to_owned()));
        }
        for offence in domain::ordinance::suggested_offences(facts) {
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
                // The first version knew Article I only.
                Offence::UnpermittedMassGathering => false,
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
    fn first_protected_label(p: domain::ordinance::ProtectedActivity) -> &'static str {
        match p {
            domain::ordinance::ProtectedActivity::None => "No — nobody is expressing an opinion",
            other => other.label(),
        }
    }
}
