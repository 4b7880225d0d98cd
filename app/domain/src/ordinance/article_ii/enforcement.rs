//! §52-7 on scene: an officer at a large gathering records what was seen, and
//! the rules say whether a person may be cited under §52-12.
//!
//! §52-7 forbids a person to "sponsor, promote, sell tickets to, permit on his
//! property, or otherwise conduct" a mass outdoor gathering without a permit. It
//! reaches those who put the gathering on — never the people attending it — so
//! each person recorded carries their own part in it ([`GatheringRole`]), and a
//! citation reads that person's part and the gathering's facts only.

use serde::{Deserialize, Serialize};

use super::permit::{duration_text, permit_need, Gathering, PermitNeed, Venue};
use super::Provision;

/// How the officer arrived at the number of persons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CountMethod {
    /// Counted, one by one or with a tally counter.
    HeadCount,
    /// Counted at the entrances (gate or turnstile figures).
    GateCount,
    /// Tickets sold or scanned, from the organiser's records.
    TicketsSold,
    /// The area occupied times a crowd density (e.g. persons per 10 sq ft).
    AreaDensity,
    /// The organiser's own figure, as told to the officer.
    OrganiserFigure,
}

impl CountMethod {
    pub const ALL: [CountMethod; 5] = [
        CountMethod::HeadCount,
        CountMethod::GateCount,
        CountMethod::TicketsSold,
        CountMethod::AreaDensity,
        CountMethod::OrganiserFigure,
    ];

    pub const fn code(self) -> &'static str {
        match self {
            CountMethod::HeadCount => "head_count",
            CountMethod::GateCount => "gate_count",
            CountMethod::TicketsSold => "tickets_sold",
            CountMethod::AreaDensity => "area_density",
            CountMethod::OrganiserFigure => "organiser_figure",
        }
    }

    pub fn from_code(code: &str) -> Option<CountMethod> {
        CountMethod::ALL.into_iter().find(|m| m.code() == code)
    }

    pub const fn label(self) -> &'static str {
        match self {
            CountMethod::HeadCount => "Counted (tally)",
            CountMethod::GateCount => "Gate or turnstile count",
            CountMethod::TicketsSold => "Tickets sold or scanned",
            CountMethod::AreaDensity => "Area × crowd density",
            CountMethod::OrganiserFigure => "The organiser's figure",
        }
    }
}

/// What the permit register showed for this gathering.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PermitCheck {
    /// No issued permit covers this place and day.
    NoneFound,
    /// A permit is held for it (its number): no §52-7 violation.
    Held { number: String },
}

/// The gathering as the officer found it: shared by every person of the report.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GatheringScene {
    pub outdoor: bool,
    /// Persons present, and how that number was reached.
    pub counted: u32,
    pub count_method: CountMethod,
    /// How long the attendance has continued, or is announced to continue
    /// (§52-7: "may, will, or is intended to attract … for two or more hours"),
    /// in minutes from when the gathering began.
    pub minutes: u32,
    pub venue: Venue,
    pub permit: PermitCheck,
}

/// One person's part in the gathering (§52-7; the operator of §52-6(4)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GatheringRole {
    Sponsor,
    Promoter,
    SellsTickets,
    /// Owner (or lessee) who permits it on their property.
    PermitsOnProperty,
    /// Manages the gathering area or otherwise conducts the gathering (§52-6(4)).
    Operator,
    /// Attends: not within §52-7.
    Attendee,
}

impl GatheringRole {
    pub const ALL: [GatheringRole; 6] = [
        GatheringRole::Operator,
        GatheringRole::Sponsor,
        GatheringRole::Promoter,
        GatheringRole::SellsTickets,
        GatheringRole::PermitsOnProperty,
        GatheringRole::Attendee,
    ];

    pub const fn code(self) -> &'static str {
        match self {
            GatheringRole::Sponsor => "sponsor",
            GatheringRole::Promoter => "promoter",
            GatheringRole::SellsTickets => "sells_tickets",
            GatheringRole::PermitsOnProperty => "permits_on_property",
            GatheringRole::Operator => "operator",
            GatheringRole::Attendee => "attendee",
        }
    }

    pub fn from_code(code: &str) -> Option<GatheringRole> {
        GatheringRole::ALL.into_iter().find(|r| r.code() == code)
    }

    pub const fn label(self) -> &'static str {
        match self {
            GatheringRole::Sponsor => "Sponsors it",
            GatheringRole::Promoter => "Promotes it",
            GatheringRole::SellsTickets => "Sells tickets to it",
            GatheringRole::PermitsOnProperty => "Permits it on their property (owner or lessee)",
            GatheringRole::Operator => "Operates or otherwise conducts it",
            GatheringRole::Attendee => "Attends it",
        }
    }
}

/// Which part of §52-7 a fact bears on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Missing {
    /// The person sponsored, promoted, sold tickets, permitted it or conducted it.
    Conduct,
    /// 500 or more persons, two or more hours, outdoors (§52-5, §52-6(3), §52-7).
    MassGathering,
    /// Not an established permanent place of assembly with sufficient sanitary
    /// facilities (§52-6(2)).
    GatheringArea,
    /// No permit from the Board of Selectmen.
    Permit,
}

/// Every element of §52-7 that `scene` and this person's `role` do not show,
/// with what to record (or why there is no violation). Empty: citable under §52-12.
pub fn missing_elements(
    scene: Option<&GatheringScene>,
    role: Option<GatheringRole>,
) -> Vec<(Missing, Provision, String)> {
    let mut out = Vec::new();
    match role {
        None => out.push((
            Missing::Conduct,
            Provision::S52_7,
            "record this person's part: sponsor, promoter, ticket seller, owner or lessee who permits it, \
             or operator"
                .to_owned(),
        )),
        Some(GatheringRole::Attendee) => out.push((
            Missing::Conduct,
            Provision::S52_7,
            "§52-7 reaches those who sponsor, promote, sell tickets to, permit on their property or \
             conduct the gathering — never the people attending it"
                .to_owned(),
        )),
        Some(_) => {}
    }
    let Some(scene) = scene else {
        out.push((
            Missing::MassGathering,
            Provision::S52_7,
            "record the gathering: persons counted and how, how long, outdoors, the place and the permit \
             register's answer"
                .to_owned(),
        ));
        return out;
    };
    let gathering = Gathering {
        outdoor: scene.outdoor,
        expected_attendance: scene.counted,
        expected_minutes: scene.minutes,
        venue: scene.venue,
    };
    if let PermitNeed::NotRequired(reasons) = permit_need(&gathering) {
        for (provision, text) in reasons {
            let missing = if provision == Provision::S52_6_2 {
                Missing::GatheringArea
            } else {
                Missing::MassGathering
            };
            out.push((missing, provision, text));
        }
    }
    if let PermitCheck::Held { number } = &scene.permit {
        out.push((
            Missing::Permit,
            Provision::S52_7,
            format!("the gathering holds permit {number}: no violation of §52-7"),
        ));
    }
    out
}

/// `2,400 persons (gate or turnstile count) for 3 h`.
pub fn summary(scene: &GatheringScene) -> String {
    format!(
        "{} persons ({}) for {}",
        scene.counted,
        scene.count_method.label().to_lowercase(),
        duration_text(scene.minutes)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scene(counted: u32, minutes: u32) -> GatheringScene {
        GatheringScene {
            outdoor: true,
            counted,
            count_method: CountMethod::GateCount,
            minutes,
            venue: Venue::Open,
            permit: PermitCheck::NoneFound,
        }
    }

    #[test]
    fn the_operator_of_an_unpermitted_gathering_of_500_for_two_hours_is_citable() {
        let s = scene(500, 120);
        assert_eq!(
            missing_elements(Some(&s), Some(GatheringRole::Operator)),
            vec![]
        );
        for role in GatheringRole::ALL {
            let citable = missing_elements(Some(&s), Some(role)).is_empty();
            assert_eq!(citable, role != GatheringRole::Attendee, "{role:?}");
        }
    }

    #[test]
    fn each_missing_element_names_its_provision() {
        let short = |counted, minutes| {
            missing_elements(
                Some(&scene(counted, minutes)),
                Some(GatheringRole::Promoter),
            )
            .into_iter()
            .map(|(m, p, _)| (m, p))
            .collect::<Vec<_>>()
        };
        assert_eq!(
            short(499, 120),
            [(Missing::MassGathering, Provision::S52_6_3)]
        );
        assert_eq!(
            short(500, 119),
            [(Missing::MassGathering, Provision::S52_7)]
        );
        let stadium = GatheringScene {
            venue: Venue::PermanentPlaceOfAssembly {
                sufficient_sanitary_facilities: true,
            },
            ..scene(5_000, 300)
        };
        let found = missing_elements(Some(&stadium), Some(GatheringRole::Operator));
        assert_eq!(found[0].0, Missing::GatheringArea);
        let permitted = GatheringScene {
            permit: PermitCheck::Held {
                number: "MG-2026-0001".into(),
            },
            ..scene(5_000, 300)
        };
        let found = missing_elements(Some(&permitted), Some(GatheringRole::Operator));
        assert_eq!(found[0].0, Missing::Permit);
        assert!(found[0].2.contains("MG-2026-0001"));
        assert_eq!(missing_elements(None, None).len(), 2);
    }
}
