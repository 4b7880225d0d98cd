//! The offences of Article I and the elements each one needs.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::facts::ProtectedActivity;
use crate::ordinance::{Penalty, Section};

/// An Article I offence. The serialised form is the stable code printed on
/// citations and exports: `52-1(A)(1)`, `52-1(A)(2)`, `52-1(A)(3)`, `52-2`, `52-3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Offence {
    /// §52-1 A(1), D: loitering so as to obstruct passage, and refusing the order.
    #[serde(rename = "52-1(A)(1)")]
    LoiteringObstruction,
    /// §52-1 A(2), D: loitering so as to interfere with property, a lawful business,
    /// or ingress and egress, and refusing the order.
    #[serde(rename = "52-1(A)(2)")]
    LoiteringInterference,
    /// §52-1 A(3), D: loitering so as to disturb or alarm a person lawfully passing,
    /// and refusing the order.
    #[serde(rename = "52-1(A)(3)")]
    LoiteringDisturbance,
    /// §52-2: two or more persons obstructing a street or sidewalk who do not obey
    /// the order to move on.
    #[serde(rename = "52-2")]
    GroupObstruction,
    /// §52-3: disturbing the peace.
    #[serde(rename = "52-3")]
    DisturbingThePeace,
    /// §52-7 (Article II): sponsoring, promoting, selling tickets to, permitting
    /// on one's property or otherwise conducting a mass outdoor gathering without
    /// a permit; fined under §52-12. Recorded from the gathering page, never
    /// offered on the Article I form.
    #[serde(rename = "52-7")]
    UnpermittedMassGathering,
}

/// One fact the law requires before a person may be cited for an offence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Element {
    /// §52-1 B: remained in essentially one location.
    Loitering,
    /// §52-1 A(2), §52-3: the conduct was in or upon a public street or public
    /// place (§52-1 C).
    PublicStreetOrPlace,
    /// §52-1 A(1): the street or place obstructed is public — "obstruct any public
    /// street or public place" (wherever the person stood).
    ObstructedPlaceIsPublic,
    /// §52-1 A(1)
    PassageObstructed,
    /// §52-1 A(2)
    UseOrBusinessOrAccessObstructed,
    /// §52-1 A(3)
    DisturbanceOrAnnoyance,
    /// §52-1 A(3)
    DiscomfortOrAlarm,
    /// §52-1 A(3)
    PersonLawfullyPassing,
    /// §52-2: "in any street or on any sidewalk"
    StreetOrSidewalk,
    /// §52-2: "two or more persons"
    TwoOrMorePersons,
    /// §52-2: "in such a manner as to obstruct the free passage"
    FreePassageObstructed,
    /// §52-3: one of the section's kinds of conduct
    PeaceConduct,
    /// §52-3: the conduct disturbed the quiet and good order of the Town
    QuietAndGoodOrderDisturbed,
    /// §52-1 D: an order to stop, with its words and time
    OrderToStop,
    /// §52-2: an order to move on
    OrderToMoveOn,
    /// §52-1 D / §52-2: failed or refused to obey, after the order
    FailedOrRefused,
    /// §52-1 E: not peaceful picketing, public speaking or other lawful expression
    NotProtectedExpression,
    /// §52-7: sponsored, promoted, sold tickets to, permitted on their property
    /// or otherwise conducted the gathering
    ConductedGathering,
    /// §52-5, §52-6(3), §52-7: 500 or more persons, two or more hours, outdoors
    MassGathering,
    /// §52-6(2): not a permanent place of assembly with sufficient sanitary facilities
    MassGatheringArea,
    /// §52-7: without a permit from the Board of Selectmen
    WithoutPermit,
}

impl Element {
    pub const fn section(self, offence: Offence) -> Section {
        match self {
            Element::Loitering => Section::S52_1B,
            Element::PublicStreetOrPlace => match offence {
                Offence::DisturbingThePeace => Section::S52_3,
                _ => offence.prong_section(),
            },
            Element::PassageObstructed | Element::ObstructedPlaceIsPublic => Section::S52_1A1,
            Element::UseOrBusinessOrAccessObstructed => Section::S52_1A2,
            Element::DisturbanceOrAnnoyance
            | Element::DiscomfortOrAlarm
            | Element::PersonLawfullyPassing => Section::S52_1A3,
            Element::StreetOrSidewalk
            | Element::TwoOrMorePersons
            | Element::FreePassageObstructed
            | Element::OrderToMoveOn => Section::S52_2,
            Element::PeaceConduct | Element::QuietAndGoodOrderDisturbed => Section::S52_3,
            Element::OrderToStop => Section::S52_1D,
            Element::FailedOrRefused => match offence {
                Offence::GroupObstruction => Section::S52_2,
                _ => Section::S52_1D,
            },
            Element::NotProtectedExpression => Section::S52_1E,
            Element::ConductedGathering | Element::MassGathering | Element::WithoutPermit => {
                Section::S52_7
            }
            Element::MassGatheringArea => Section::S52_6_2,
        }
    }

    /// Whether the element is the person's conduct (or where it happened), as
    /// opposed to the order given (§52-1 D, §52-2), the response to it, or the
    /// §52-1 E answer — which a record states apart, as what was recorded, so
    /// a person who complied is never listed as having failed or refused.
    pub const fn is_conduct(self) -> bool {
        !matches!(
            self,
            Element::OrderToStop
                | Element::OrderToMoveOn
                | Element::FailedOrRefused
                | Element::NotProtectedExpression
        )
    }

    /// What the element means, as the checklist on the review screen and the
    /// printed violation state it. (The printed citations of reports stored before
    /// facts were kept per person use these same words: change one and those
    /// reprints change too.)
    pub const fn description(self) -> &'static str {
        match self {
            Element::Loitering => "Remained in essentially one location, alone or with others",
            Element::PublicStreetOrPlace => "In or upon a public street or public place",
            Element::ObstructedPlaceIsPublic => "The street or place obstructed is public",
            Element::PassageObstructed => {
                "Hindered or impeded, or tended to hinder or impede, the passage of pedestrians or vehicles"
            }
            Element::UseOrBusinessOrAccessObstructed => {
                "Obstructed or interfered with the use of property, a lawful business, or ingress and egress"
            }
            Element::DisturbanceOrAnnoyance => "Created or caused a disturbance or annoyance",
            Element::DiscomfortOrAlarm => "To the discomfort or alarm of a person",
            Element::PersonLawfullyPassing => {
                "That person was lawfully going in, to or from a building, dwelling or public place"
            }
            Element::StreetOrSidewalk => "In a street or on a sidewalk",
            Element::TwoOrMorePersons => "Two or more persons standing together or near each other",
            Element::FreePassageObstructed => "Obstructed free passage",
            Element::PeaceConduct => {
                "Loud or unusual noise, improper or boisterous songs, obscene and indecent and profane songs or words, or an unruly or boisterous manner"
            }
            Element::QuietAndGoodOrderDisturbed => "Disturbed the quiet and good order of the Town",
            Element::OrderToStop => "Ordered to stop the conduct (words and time recorded)",
            Element::OrderToMoveOn => "Ordered to move on",
            Element::FailedOrRefused => "Failed or refused to obey the order, after it was given",
            Element::NotProtectedExpression => {
                "Not peaceful picketing, public speaking or other lawful expression of opinion"
            }
            Element::ConductedGathering => {
                "Sponsored, promoted, sold tickets to, permitted on their property or otherwise conducted the gathering"
            }
            Element::MassGathering => {
                "A mass outdoor gathering: 500 or more persons, continuing or intended to continue two or more hours"
            }
            Element::MassGatheringArea => {
                "Not an established permanent place of assembly with sanitary facilities sufficient for it"
            }
            Element::WithoutPermit => "No permit from the Board of Selectmen for the gathering",
        }
    }
}

impl Offence {
    /// Every offence the product records, both articles.
    pub const ALL: [Offence; 6] = [
        Offence::LoiteringObstruction,
        Offence::LoiteringInterference,
        Offence::LoiteringDisturbance,
        Offence::GroupObstruction,
        Offence::DisturbingThePeace,
        Offence::UnpermittedMassGathering,
    ];

    /// Article I's offences: what the incident form offers.
    pub const ARTICLE_I: [Offence; 5] = [
        Offence::LoiteringObstruction,
        Offence::LoiteringInterference,
        Offence::LoiteringDisturbance,
        Offence::GroupObstruction,
        Offence::DisturbingThePeace,
    ];

    /// The stable code, as serialised and printed.
    pub const fn code(self) -> &'static str {
        match self {
            Offence::LoiteringObstruction => "52-1(A)(1)",
            Offence::LoiteringInterference => "52-1(A)(2)",
            Offence::LoiteringDisturbance => "52-1(A)(3)",
            Offence::GroupObstruction => "52-2",
            Offence::DisturbingThePeace => "52-3",
            Offence::UnpermittedMassGathering => "52-7",
        }
    }

    pub fn from_code(code: &str) -> Option<Offence> {
        Offence::ALL.into_iter().find(|o| o.code() == code)
    }

    pub const fn title(self) -> &'static str {
        match self {
            Offence::LoiteringObstruction => "Loitering — obstructing passage",
            Offence::LoiteringInterference => {
                "Loitering — interfering with property, business, or ingress and egress"
            }
            Offence::LoiteringDisturbance => "Loitering — disturbance or alarm to a person passing",
            Offence::GroupObstruction => "Obstructing a street or sidewalk (two or more persons)",
            Offence::DisturbingThePeace => "Disturbing the peace",
            Offence::UnpermittedMassGathering => {
                "Conducting a mass outdoor gathering without a permit"
            }
        }
    }

    /// The sections the offence rests on, as the citation lists them.
    pub const fn sections(self) -> &'static [Section] {
        match self {
            Offence::LoiteringObstruction => &[Section::S52_1A1, Section::S52_1D],
            Offence::LoiteringInterference => &[Section::S52_1A2, Section::S52_1D],
            Offence::LoiteringDisturbance => &[Section::S52_1A3, Section::S52_1D],
            Offence::GroupObstruction => &[Section::S52_2],
            Offence::DisturbingThePeace => &[Section::S52_3],
            Offence::UnpermittedMassGathering => &[Section::S52_7],
        }
    }

    /// "§52-1 A(1), D" — the reference printed on citations.
    pub fn reference(self) -> String {
        match self {
            Offence::LoiteringObstruction => "§52-1 A(1), D".to_owned(),
            Offence::LoiteringInterference => "§52-1 A(2), D".to_owned(),
            Offence::LoiteringDisturbance => "§52-1 A(3), D".to_owned(),
            Offence::GroupObstruction => "§52-2".to_owned(),
            Offence::DisturbingThePeace => "§52-3".to_owned(),
            Offence::UnpermittedMassGathering => "§52-7".to_owned(),
        }
    }

    /// The section whose conduct the offence charges.
    pub const fn prong_section(self) -> Section {
        match self {
            Offence::LoiteringObstruction => Section::S52_1A1,
            Offence::LoiteringInterference => Section::S52_1A2,
            Offence::LoiteringDisturbance => Section::S52_1A3,
            Offence::GroupObstruction => Section::S52_2,
            Offence::DisturbingThePeace => Section::S52_3,
            Offence::UnpermittedMassGathering => Section::S52_7,
        }
    }

    /// Whether this is a §52-1 offence: only those are subject to the §52-1 E
    /// exclusion and to the §52-1 D order-and-refusal rule.
    pub const fn is_section_52_1(self) -> bool {
        matches!(
            self,
            Offence::LoiteringObstruction
                | Offence::LoiteringInterference
                | Offence::LoiteringDisturbance
        )
    }

    /// Whether the violation is disobeying an order (§52-1 D, §52-2); §52-3 and
    /// §52-7 have no order element.
    pub const fn needs_order(self) -> bool {
        !matches!(
            self,
            Offence::DisturbingThePeace | Offence::UnpermittedMassGathering
        )
    }

    /// An Article II offence (§52-7), fined under §52-12.
    pub const fn is_article_ii(self) -> bool {
        matches!(self, Offence::UnpermittedMassGathering)
    }

    /// The elements that must all be recorded, in this person's own facts, to cite.
    pub const fn elements(self) -> &'static [Element] {
        use Element::*;
        match self {
            Offence::LoiteringObstruction => &[
                NotProtectedExpression,
                Loitering,
                PassageObstructed,
                ObstructedPlaceIsPublic,
                OrderToStop,
                FailedOrRefused,
            ],
            Offence::LoiteringInterference => &[
                NotProtectedExpression,
                Loitering,
                PublicStreetOrPlace,
                UseOrBusinessOrAccessObstructed,
                OrderToStop,
                FailedOrRefused,
            ],
            Offence::LoiteringDisturbance => &[
                NotProtectedExpression,
                Loitering,
                DisturbanceOrAnnoyance,
                DiscomfortOrAlarm,
                PersonLawfullyPassing,
                OrderToStop,
                FailedOrRefused,
            ],
            Offence::GroupObstruction => &[
                StreetOrSidewalk,
                TwoOrMorePersons,
                FreePassageObstructed,
                OrderToMoveOn,
                FailedOrRefused,
            ],
            Offence::DisturbingThePeace => &[
                PublicStreetOrPlace,
                PeaceConduct,
                QuietAndGoodOrderDisturbed,
            ],
            Offence::UnpermittedMassGathering => &[
                ConductedGathering,
                MassGathering,
                MassGatheringArea,
                WithoutPermit,
            ],
        }
    }

    /// The elements as the first version of the rules listed them (before facts
    /// were kept per person, until issue #14): §52-1 A(1) checked the place where
    /// the person stood, and §52-3 needed the disturbance of the quiet and good
    /// order only for an unruly manner. Used only to reprint, word for word, the
    /// citations and reports stored then.
    pub const fn first_version_elements(self) -> &'static [Element] {
        use Element::*;
        match self {
            Offence::LoiteringObstruction => &[
                NotProtectedExpression,
                Loitering,
                PublicStreetOrPlace,
                PassageObstructed,
                OrderToStop,
                FailedOrRefused,
            ],
            Offence::DisturbingThePeace => &[PublicStreetOrPlace, PeaceConduct],
            other => other.elements(),
        }
    }

    /// §52-4 for every Article I offence; §52-12 for Article II's.
    pub const fn penalty(self) -> Penalty {
        if self.is_article_ii() {
            Penalty::ARTICLE_II
        } else {
            Penalty::ARTICLE_I
        }
    }

    /// §52-2 directs the officer, if the person does not obey, "to arrest and by
    /// lawful process cause him to be brought before the District Court". Whether
    /// an arrest was in fact made is a fact of the person, not of the offence.
    pub const fn permits_arrest(self) -> bool {
        matches!(self, Offence::GroupObstruction)
    }

    /// The offences the officer may choose from for a person, given that person's
    /// §52-1 E answer: when they were expressing themselves, §52-1 offences are
    /// not offered at all.
    pub fn offered(protected: ProtectedActivity) -> Vec<Offence> {
        Offence::ARTICLE_I
            .into_iter()
            .filter(|o| !(protected.is_protected() && o.is_section_52_1()))
            .collect()
    }
}

impl fmt::Display for Offence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.reference(), self.title())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_stable_and_round_trip_through_json() {
        for offence in Offence::ALL {
            let json = serde_json::to_string(&offence).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", offence.code()));
            assert_eq!(Offence::from_code(offence.code()), Some(offence));
            assert_eq!(serde_json::from_str::<Offence>(&json).ok(), Some(offence));
        }
    }

    #[test]
    fn unknown_offence_codes_are_rejected() {
        assert!(serde_json::from_str::<Offence>("\"52-9\"").is_err());
        assert!(
            serde_json::from_str::<Offence>("\"52-5\"").is_err(),
            "§52-5 states a purpose, not an offence"
        );
        assert_eq!(Offence::from_code("52-1"), None);
    }

    #[test]
    fn protected_activity_removes_every_section_52_1_offence_from_the_choices() {
        for activity in ProtectedActivity::ALL {
            let offered = Offence::offered(activity);
            if activity.is_protected() {
                assert_eq!(
                    offered,
                    vec![Offence::GroupObstruction, Offence::DisturbingThePeace]
                );
            } else {
                assert_eq!(offered, Offence::ARTICLE_I.to_vec());
            }
        }
    }

    #[test]
    fn every_section_52_1_offence_requires_an_order_a_refusal_and_no_protected_expression() {
        for offence in Offence::ALL.into_iter().filter(|o| o.is_section_52_1()) {
            let e = offence.elements();
            assert!(e.contains(&Element::OrderToStop), "{offence:?}");
            assert!(e.contains(&Element::FailedOrRefused), "{offence:?}");
            assert!(e.contains(&Element::NotProtectedExpression), "{offence:?}");
            assert!(e.contains(&Element::Loitering), "{offence:?}");
        }
        assert!(!Offence::DisturbingThePeace
            .elements()
            .contains(&Element::FailedOrRefused));
    }

    #[test]
    fn section_52_1_a_1_requires_the_obstructed_place_not_the_persons_place_to_be_public() {
        let e = Offence::LoiteringObstruction.elements();
        assert!(e.contains(&Element::ObstructedPlaceIsPublic));
        assert!(!e.contains(&Element::PublicStreetOrPlace));
    }

    #[test]
    fn every_section_52_3_prong_needs_the_quiet_and_good_order_disturbed() {
        assert!(Offence::DisturbingThePeace
            .elements()
            .contains(&Element::QuietAndGoodOrderDisturbed));
    }

    #[test]
    fn only_section_52_2_permits_an_arrest_and_every_offence_carries_section_52_4() {
        for offence in Offence::ARTICLE_I {
            assert_eq!(
                offence.permits_arrest(),
                offence == Offence::GroupObstruction
            );
            assert_eq!(offence.penalty(), Penalty::ARTICLE_I);
        }
        let gathering = Offence::UnpermittedMassGathering;
        assert!(!gathering.permits_arrest() && !gathering.needs_order());
        assert_eq!(gathering.penalty(), Penalty::ARTICLE_II);
        assert!(!Offence::offered(ProtectedActivity::None).contains(&gathering));
    }
}
