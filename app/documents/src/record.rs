//! A report in words: the lines the full report, the printed report and the
//! printed citation are made of, in the Town's time.
//!
//! Reports stored in the first version's shape (`model::first_version`) print
//! from that shape, with the words they were first printed in: a reprint of a
//! citation already with the court must say what the filed one said.

use domain::model::converted;
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
        // Counts over time, each at its time (reports stored with one count
        // have none and print as they did).
        for (k, c) in g.counts_in_order().iter().enumerate() {
            lines.push((
                format!("Count {} (§52-7)", k + 1),
                format!(
                    "{}: {} persons ({})",
                    zone.date_time(c.at),
                    c.persons,
                    c.method.label().to_lowercase()
                ),
            ));
        }
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
    // An Article II report asks no §52-1 D order, §52-1 E answer or response
    // (issue #33): its record does not print them as if they were answered.
    let article_i = report.gathering.is_none();
    if report.orders.is_empty() && article_i {
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
        if article_i {
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
        }
        for offence in domain::ordinance::suggested_offences(facts) {
            for line in domain::model::wording::conduct_lines(report, s, offence) {
                lines.push((format!("Conduct — {who} — {}", offence.reference()), line));
            }
        }
        if article_i {
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
        }
        // What a conversion from the first version filled in without a record
        // of it (issue #33): said, so that no one reads it as recorded.
        if !s.not_recorded.is_empty() {
            lines.push((
                format!("Not recorded — {who}"),
                format!(
                    "{}: {} from the first version's report, which recorded them once for the \
                     whole incident, or not at all",
                    converted::listed(&s.not_recorded),
                    converted::NOT_RECORDED
                ),
            ));
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use domain::model::converted::ConvertedFact;
    use domain::model::incident::{
        AgeRange, Identity, Location, Perceived, PerceivedRace, PerceivedSex, SubjectEntry,
    };
    use domain::ordinance::article_ii::enforcement::{
        CountMethod, GatheringRole, GatheringScene, PermitCheck,
    };
    use domain::ordinance::article_ii::Venue;
    use domain::ordinance::{Charge, Conduct, Moment, PersonFacts, PlaceType, ProtectedActivity};

    /// An Article II report as issue #19's version stored it: one count and
    /// "how long it has lasted or is announced to last" (issue #33 records
    /// counts over time instead).
    const ONE_COUNT: &str = r#"{"incident_id":"0190a9e4-0000-7000-8000-000000000001","occurred_at":1783179000000,"location":{"text":"Drake farm field","place":"public_grounds","gps":null},"orders":[],"narrative":"Counted 2,400 at the gates.","subjects":[{"subject_id":"0190a9e4-0000-7000-8000-000000000002","identity":{"kind":"identified","full_name":"Pat Promoter","date_of_birth":"1990-02-03","address":"12 Main Street, Wells, ME","id_type":"driver_license","id_number":"1234567"},"perceived":{"age_range":"35_49","sex":"male","race":"white"},"protected_activity":"none","conduct":{"remained_in_one_location":false,"passage":{"pedestrians":false,"vehicles":false,"place":null},"interference":{"use_of_property":false,"lawful_business":false,"ingress_egress":false},"disturbance":{"disturbance_or_annoyance":false,"discomfort_or_alarm":false,"person_lawfully_passing":false},"group":{"stood_with":[],"others":0,"obstructs_free_passage":false},"peace":{"loud_noise":false,"unusual_noise":false,"improper_songs":false,"boisterous_songs":false,"obscene":false,"indecent":false,"profane":false,"unruly_or_boisterous_manner":false,"disturbed_quiet_and_good_order":false},"gathering":"promoter"},"order":null,"response":{"kind":"no_order"},"arrested":false,"charges":[{"offence":"52-7","issue_citation":true}]}],"gathering":{"outdoor":true,"counted":2400,"count_method":"gate_count","minutes":180,"venue":"Open","permit":{"kind":"none_found"}}}"#;

    fn zone() -> TownZone {
        TownZone::named("America/New_York").expect("bundled zone")
    }

    fn value<'a>(lines: &'a [(String, String)], label: &str) -> Option<&'a str> {
        lines
            .iter()
            .find(|(l, _)| l == label)
            .map(|(_, v)| v.as_str())
    }

    #[test]
    fn a_gathering_report_stored_with_one_count_prints_as_it_did() {
        let stored = StoredReport::parse(ONE_COUNT).expect("a stored report");
        let StoredReport::Current(report) = &stored else {
            panic!("the current shape");
        };
        assert_eq!(
            serde_json::to_string(report).expect("json"),
            ONE_COUNT,
            "the same bytes, so the same content hash"
        );
        let lines = record_lines(&stored, &zone());
        assert_eq!(
            value(&lines, "Gathering (§52-7)"),
            Some("2400 persons (gate or turnstile count) for 3 h, outdoors")
        );
        assert_eq!(
            value(&lines, "Permit register"),
            Some("no permit in the register covers it")
        );
        assert!(
            !lines.iter().any(|(l, _)| l.starts_with("Count ")),
            "{lines:?}"
        );
        let subject = report.subjects[0].subject_id;
        let text = violation_text(&stored, subject, Offence::UnpermittedMassGathering, &zone())
            .expect("the person");
        assert!(
            text.violation
                .iter()
                .any(|l| l.contains("2400 persons (gate or turnstile count) for 3 h, outdoors")),
            "{:?}",
            text.violation
        );
    }

    #[test]
    fn counts_over_time_print_each_at_its_time() {
        let json = ONE_COUNT.replace(
            r#""counted":2400,"count_method":"gate_count","minutes":180,"#,
            "",
        );
        let json = json.replace(
            r#""permit":{"kind":"none_found"}}"#,
            r#""permit":{"kind":"chapter_55","number":"MG-2026-0003"},"counts":[{"at":1783179000000,"persons":2400,"method":"gate_count"},{"at":1783189800000,"persons":2350,"method":"head_count"}]}"#,
        );
        let stored = StoredReport::parse(&json).expect("a report");
        let lines = record_lines(&stored, &zone());
        assert_eq!(
            value(&lines, "Gathering (§52-7)"),
            Some("2400 persons (gate or turnstile count); 2350 (counted (tally)) 3 h later, outdoors")
        );
        assert_eq!(
            value(&lines, "Count 2 (§52-7)"),
            Some("2026-07-04 14:30 EDT: 2350 persons (counted (tally))")
        );
        assert!(
            value(&lines, "Permit register").is_some_and(|p| p.contains("Chapter 55")),
            "{lines:?}"
        );
    }

    /// One identified person, no order: an Article I report as far as the
    /// record goes.
    fn report() -> IncidentReport {
        IncidentReport {
            incident_id: uuid::Uuid::from_u128(1),
            occurred_at: Moment(1_783_180_800_000),
            location: Location {
                text: "Drake farm field".into(),
                place: PlaceType::Park,
                gps: None,
            },
            orders: Vec::new(),
            narrative: "Counted the crowd at the gates.".into(),
            subjects: vec![SubjectEntry {
                subject_id: uuid::Uuid::from_u128(2),
                identity: Identity::Identified {
                    full_name: "Pat Promoter".into(),
                    date_of_birth: "1980-01-01".into(),
                    address: "1 Main Street, Wells, ME".into(),
                    id_type: None,
                    id_number: None,
                },
                perceived: Perceived {
                    age_range: AgeRange::Unknown,
                    sex: PerceivedSex::Unknown,
                    race: PerceivedRace::Unknown,
                },
                facts: PersonFacts {
                    protected_activity: ProtectedActivity::None,
                    conduct: Conduct::default(),
                    order: None,
                    response: Response::NoOrder,
                    arrested: false,
                    place: None,
                    contravenes: None,
                },
                charges: Vec::new(),
                signature: None,
                not_recorded: Vec::new(),
            }],
            numbers: Vec::new(),
            gathering: None,
        }
    }

    fn labels(lines: &[(String, String)]) -> Vec<&str> {
        lines.iter().map(|(label, _)| label.as_str()).collect()
    }

    /// Issue #33: a gathering report printed "Order (§52-1 D): No order given"
    /// and each person's §52-1 E answer, order and response, none of which the
    /// gathering form asks.
    #[test]
    fn a_gathering_record_prints_no_article_i_answer_it_never_asked() {
        let mut r = report();
        r.gathering = Some(GatheringScene {
            outdoor: true,
            counted: 2_400,
            count_method: Some(CountMethod::GateCount),
            minutes: 180,
            venue: Venue::Open,
            permit: PermitCheck::NoneFound {
                not_this: Vec::new(),
            },
            counts: Vec::new(),
            intended: None,
        });
        r.subjects[0].facts.conduct.gathering = Some(GatheringRole::Promoter);
        r.subjects[0].charges = vec![Charge {
            offence: Offence::UnpermittedMassGathering,
            issue_citation: true,
        }];
        let lines = record_lines(&StoredReport::Current(r), &zone());
        let labels = labels(&lines);
        assert!(labels.contains(&"Gathering (§52-7)"), "{labels:?}");
        assert!(labels.contains(&"Part in the gathering (§52-7) — Pat Promoter"));
        for never_asked in [
            "Order (§52-1 D)",
            "Protected activity (§52-1 E) — Pat Promoter",
            "Order received — Pat Promoter",
            "Response — Pat Promoter",
        ] {
            assert!(!labels.contains(&never_asked), "{never_asked}: {labels:?}");
        }
    }

    #[test]
    fn an_article_i_record_still_says_no_order_was_given() {
        let lines = record_lines(&StoredReport::Current(report()), &zone());
        assert!(lines
            .iter()
            .any(|(l, v)| l == "Order (§52-1 D)" && v == "No order given"));
        assert!(labels(&lines).contains(&"Response — Pat Promoter"));
    }

    /// Issue #37, finding 3: a person who complied showed "Failed or refused
    /// to obey the order" among their conduct rows, beside "Complied".
    #[test]
    fn a_person_who_complied_is_never_listed_as_having_failed_or_refused() {
        let mut r = report();
        r.orders = vec![domain::ordinance::DispersalOrder {
            words: "Stop blocking the way and move on.".into(),
            given_at: Moment(r.occurred_at.0 + 300_000),
            move_on: true,
            minutes_to_comply: 2,
        }];
        let facts = &mut r.subjects[0].facts;
        facts.conduct.remained_in_one_location = true;
        facts.conduct.passage.pedestrians = true;
        facts.conduct.passage.place = Some(PlaceType::Sidewalk);
        facts.order = Some(0);
        facts.response = Response::Complied {
            at: Moment(r.occurred_at.0 + 420_000),
        };
        let lines = record_lines(&StoredReport::Current(r), &zone());
        let conduct: Vec<&str> = lines
            .iter()
            .filter(|(l, _)| l.starts_with("Conduct — Pat Promoter"))
            .map(|(_, v)| v.as_str())
            .collect();
        assert!(!conduct.is_empty(), "{lines:?}");
        assert!(
            conduct.iter().all(|v| !v.contains("Failed or refused")
                && !v.contains("Ordered to")
                && !v.contains("Not peaceful picketing")),
            "{conduct:?}"
        );
        let response = value(&lines, "Response — Pat Promoter").expect("the response");
        assert!(response.starts_with("Complied"), "{response}");
    }

    /// Issue #33: what a conversion from the first version filled in is
    /// printed as not recorded, never as if it were.
    #[test]
    fn a_converted_person_prints_what_was_not_recorded() {
        let mut r = report();
        r.subjects[0].not_recorded = vec![ConvertedFact::Conduct, ConvertedFact::Arrest];
        let lines = record_lines(&StoredReport::Current(r), &zone());
        let (_, value) = lines
            .iter()
            .find(|(l, _)| l == "Not recorded — Pat Promoter")
            .expect("the line");
        assert!(
            value.starts_with(
                "the conduct and whether an arrest was made (§52-2): not recorded — converted"
            ),
            "{value}"
        );
    }
}
