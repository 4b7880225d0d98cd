//! A report's history in words (issue #16): each changed field named as a person
//! reads it ("Alex Morgan — time of the response"), its values in the Town's time
//! and the ordinance's words, and a long text's change word by word.

use domain::model::incident::IncidentReport;
use domain::model::review::{word_changes, Change};
use domain::ordinance::{Moment, Offence, PlaceType, ProtectedActivity, RefusalManner};
use domain::town_time::TownZone;

/// Labels and readable values for `changes` between two versions of a report.
pub fn describe(
    changes: Vec<Change>,
    before: &IncidentReport,
    after: &IncidentReport,
    zone: &TownZone,
) -> Vec<Change> {
    changes
        .into_iter()
        .map(|c| {
            let parts: Vec<&str> = c.field.split('.').collect();
            let label = label(&parts, before, after);
            let value = |v: &str| value(&parts, v, zone);
            let words = if parts == ["narrative"] && c.before != "—" && c.after != "—" {
                word_changes(&c.before, &c.after)
            } else {
                Vec::new()
            };
            Change {
                before: value(&c.before),
                after: value(&c.after),
                label,
                words,
                ..c
            }
        })
        .collect()
}

/// The person at position `i`, by name, from the later version (or the earlier).
fn person(i: usize, before: &IncidentReport, after: &IncidentReport) -> String {
    after
        .subjects
        .get(i)
        .or_else(|| before.subjects.get(i))
        .map(|s| crate::record::who(&s.identity))
        .unwrap_or_else(|| format!("Person {}", i + 1))
}

fn label(parts: &[&str], before: &IncidentReport, after: &IncidentReport) -> String {
    match parts {
        ["occurred_at"] => "Date and time the incident began".into(),
        ["narrative"] => "Narrative".into(),
        ["location", "text"] => "Address or landmark".into(),
        ["location", "place"] => "Type of place (§52-1 C)".into(),
        ["location", "gps", what] => format!("GPS {}", what.replace('_', " ")),
        ["orders", k, rest @ ..] => {
            let n = k.parse::<usize>().map_or(0, |k| k + 1);
            format!("Order {n} — {}", order_field(rest))
        }
        ["subjects", i, rest @ ..] => {
            let who = i
                .parse::<usize>()
                .map_or_else(|_| "A person".to_owned(), |i| person(i, before, after));
            format!("{who} — {}", subject_field(rest))
        }
        other => other.join(" "),
    }
}

fn order_field(rest: &[&str]) -> String {
    match rest {
        ["words"] => "words".into(),
        ["given_at"] => "time given".into(),
        ["move_on"] => "included “move on”".into(),
        ["minutes_to_comply"] => "minutes allowed to comply".into(),
        other => other.join(" "),
    }
}

fn subject_field(rest: &[&str]) -> String {
    match rest {
        ["identity", "full_name"] => "name".into(),
        ["identity", "date_of_birth"] => "date of birth".into(),
        ["identity", "address"] => "address".into(),
        ["identity", "id_type"] => "type of ID".into(),
        ["identity", "id_number"] => "ID number".into(),
        ["identity", "description"] => "description".into(),
        ["identity", "kind"] => "identified or described".into(),
        // An organisation (§52-12's "party").
        ["identity", "name"] => "name".into(),
        ["identity", "representative"] => "representative".into(),
        ["perceived", what] => format!("perceived {}", what.replace('_', " ")),
        ["protected_activity"] => "§52-1 E answer".into(),
        ["order"] => "order received".into(),
        ["response", "kind"] => "response to the order".into(),
        ["response", "at"] => "time of the response".into(),
        ["response", "manner"] => "how they failed or refused".into(),
        ["arrested"] => "arrest (§52-2)".into(),
        ["charges", k, what] => {
            let n = k.parse::<usize>().map_or(0, |k| k + 1);
            match *what {
                "offence" => format!("offence charged ({n})"),
                "issue_citation" => format!("citation for offence {n}"),
                other => other.replace('_', " "),
            }
        }
        ["conduct", rest @ ..] => format!("conduct: {}", conduct_field(rest)),
        other => other.join(" ").replace('_', " "),
    }
}

fn conduct_field(rest: &[&str]) -> String {
    let words = match rest {
        ["remained_in_one_location"] => "remained in one place (§52-1 B)",
        ["passage", "pedestrians"] => "hindered pedestrians (§52-1 A(1))",
        ["passage", "vehicles"] => "hindered vehicles (§52-1 A(1))",
        ["passage", "place"] => "place obstructed (§52-1 A(1))",
        ["interference", "use_of_property"] => "interfered with the use of property (§52-1 A(2))",
        ["interference", "lawful_business"] => "interfered with a lawful business (§52-1 A(2))",
        ["interference", "ingress_egress"] => "interfered with ingress or egress (§52-1 A(2))",
        ["disturbance", "disturbance_or_annoyance"] => {
            "created a disturbance or annoyance (§52-1 A(3))"
        }
        ["disturbance", "discomfort_or_alarm"] => "to a person's discomfort or alarm (§52-1 A(3))",
        ["disturbance", "person_lawfully_passing"] => "that person lawfully passing (§52-1 A(3))",
        ["group", "stood_with", ..] => "stood with (§52-2)",
        ["group", "others"] => "others stood with (§52-2)",
        ["group", "obstructs_free_passage"] => "obstructed free passage (§52-2)",
        ["peace", what] => return format!("{} (§52-3)", what.replace('_', " ")),
        other => return other.join(" ").replace('_', " "),
    };
    words.to_owned()
}

/// A value as a person reads it: times in the Town's zone, yes and no, the
/// ordinance's words for its codes.
fn value(parts: &[&str], raw: &str, zone: &TownZone) -> String {
    if raw == "—" {
        return raw.to_owned();
    }
    let last = parts.last().copied().unwrap_or_default();
    let is_time = matches!(last, "at" | "given_at" | "occurred_at");
    if is_time {
        if let Ok(ms) = raw.parse::<i64>() {
            return zone.date_time(Moment(ms));
        }
    }
    match raw {
        "true" => return "yes".into(),
        "false" => return "no".into(),
        "null" => return "—".into(),
        _ => {}
    }
    match last {
        "place" => {
            PlaceType::from_code(raw).map_or_else(|| raw.to_owned(), |p| p.label().to_owned())
        }
        "protected_activity" => ProtectedActivity::from_code(raw)
            .map_or_else(|| raw.to_owned(), |p| p.label().to_owned()),
        "manner" => {
            RefusalManner::from_code(raw).map_or_else(|| raw.to_owned(), |m| m.label().to_owned())
        }
        "offence" => Offence::from_code(raw).map_or_else(|| raw.to_owned(), |o| o.to_string()),
        "kind" if parts.first() == Some(&"subjects") => raw.replace('_', " "),
        "order" => raw
            .parse::<usize>()
            .map_or_else(|_| raw.to_owned(), |k| format!("Order {}", k + 1)),
        _ => raw.to_owned(),
    }
}
