//! What the officer records: the facts the rules decide on, as types.
//!
//! Each field answers one question the ordinance asks. Free text (the order's words,
//! the narrative) is kept where the law needs the words themselves; everything the
//! rules decide on is a closed choice.

use serde::{Deserialize, Serialize};

use super::time::Moment;

/// Where it happened, in the terms of §52-1 A and the §52-1 C definition of a
/// public place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlaceType {
    Street,
    Sidewalk,
    Park,
    Beach,
    /// "all public grounds, areas" (§52-1 C)
    PublicGrounds,
    /// "the front or immediate area around any store, shop, restaurant, tavern, or
    /// other place of business" (§52-1 C)
    FrontOfBusiness,
    /// "in or about any building or dwelling or adjacent thereto" (§52-1 A): covered
    /// by §52-1, but not itself a public place.
    AboutBuildingOrDwelling,
    /// Any other "place to which the general public has access and the right to
    /// enter" (§52-1 C).
    OtherPublicPlace,
}

impl PlaceType {
    pub const ALL: [PlaceType; 8] = [
        PlaceType::Street,
        PlaceType::Sidewalk,
        PlaceType::Park,
        PlaceType::Beach,
        PlaceType::PublicGrounds,
        PlaceType::FrontOfBusiness,
        PlaceType::AboutBuildingOrDwelling,
        PlaceType::OtherPublicPlace,
    ];

    /// A public place as §52-1 C defines it (streets and sidewalks included: the
    /// general public has access and the right to use them).
    pub const fn is_public_place(self) -> bool {
        !matches!(self, PlaceType::AboutBuildingOrDwelling)
    }

    /// A "street or sidewalk", the only places §52-2 covers.
    pub const fn is_street_or_sidewalk(self) -> bool {
        matches!(self, PlaceType::Street | PlaceType::Sidewalk)
    }

    pub const fn label(self) -> &'static str {
        match self {
            PlaceType::Street => "Street",
            PlaceType::Sidewalk => "Sidewalk",
            PlaceType::Park => "Park",
            PlaceType::Beach => "Beach",
            PlaceType::PublicGrounds => "Public grounds or area",
            PlaceType::FrontOfBusiness => "Front of a store, shop, restaurant, tavern or business",
            PlaceType::AboutBuildingOrDwelling => "In, about or next to a building or dwelling",
            PlaceType::OtherPublicPlace => "Other place open to the public",
        }
    }

    pub const fn code(self) -> &'static str {
        match self {
            PlaceType::Street => "street",
            PlaceType::Sidewalk => "sidewalk",
            PlaceType::Park => "park",
            PlaceType::Beach => "beach",
            PlaceType::PublicGrounds => "public_grounds",
            PlaceType::FrontOfBusiness => "front_of_business",
            PlaceType::AboutBuildingOrDwelling => "about_building_or_dwelling",
            PlaceType::OtherPublicPlace => "other_public_place",
        }
    }

    pub fn from_code(code: &str) -> Option<PlaceType> {
        PlaceType::ALL.into_iter().find(|p| p.code() == code)
    }
}

/// The §52-1 E question, asked before any offence is chosen: "Is anyone picketing
/// peacefully, speaking publicly, or otherwise expressing an opinion lawfully?"
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProtectedActivity {
    None,
    PeacefulPicketing,
    PublicSpeaking,
    /// "other lawful expressions or opinion" (§52-1 E)
    OtherLawfulExpression,
}

impl ProtectedActivity {
    pub const ALL: [ProtectedActivity; 4] = [
        ProtectedActivity::None,
        ProtectedActivity::PeacefulPicketing,
        ProtectedActivity::PublicSpeaking,
        ProtectedActivity::OtherLawfulExpression,
    ];

    pub const fn is_protected(self) -> bool {
        !matches!(self, ProtectedActivity::None)
    }

    pub const fn label(self) -> &'static str {
        match self {
            ProtectedActivity::None => "No — nobody is expressing an opinion",
            ProtectedActivity::PeacefulPicketing => "Peaceful picketing",
            ProtectedActivity::PublicSpeaking => "Public speaking",
            ProtectedActivity::OtherLawfulExpression => "Other lawful expression of opinion",
        }
    }

    pub const fn code(self) -> &'static str {
        match self {
            ProtectedActivity::None => "none",
            ProtectedActivity::PeacefulPicketing => "peaceful_picketing",
            ProtectedActivity::PublicSpeaking => "public_speaking",
            ProtectedActivity::OtherLawfulExpression => "other_lawful_expression",
        }
    }
}

/// §52-1 A(1): hindering or impeding, or tending to hinder or impede, the
/// uninterrupted passage of pedestrians or vehicles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PassageObstruction {
    pub pedestrians: bool,
    pub vehicles: bool,
}

impl PassageObstruction {
    pub const fn any(self) -> bool {
        self.pedestrians || self.vehicles
    }
}

/// §52-1 A(2): an act that obstructs or interferes with any of these.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Interference {
    /// "the free and uninterrupted use of any property"
    pub use_of_property: bool,
    /// "any business being lawfully conducted by anyone in any public place"
    pub lawful_business: bool,
    /// "the free and uninterrupted ingress and egress"
    pub ingress_egress: bool,
}

impl Interference {
    pub const fn any(self) -> bool {
        self.use_of_property || self.lawful_business || self.ingress_egress
    }
}

/// §52-1 A(3): each part of the prong is its own element.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Disturbance {
    /// "create or cause to be created any disturbance or annoyance"
    pub disturbance_or_annoyance: bool,
    /// "to the discomfort or alarm of any person"
    pub discomfort_or_alarm: bool,
    /// that person was "lawfully going in or going to or from any building,
    /// dwelling, or public place"
    pub person_lawfully_passing: bool,
}

impl Disturbance {
    pub const fn any(self) -> bool {
        self.disturbance_or_annoyance || self.discomfort_or_alarm || self.person_lawfully_passing
    }
}

/// §52-2: two or more persons standing together or near each other, obstructing
/// free passage of a street or sidewalk.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GroupObstruction {
    /// How many persons stood together or near each other (the officer's count).
    pub persons_together: u16,
    /// "in such a manner as to obstruct the free passage thereon or thereover"
    pub obstructs_free_passage: bool,
}

/// §52-3: the kinds of conduct, in the section's words.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PeaceDisturbance {
    /// "make any loud or unusual noise, either by voice or otherwise"
    pub loud_or_unusual_noise: bool,
    /// "sing improper or boisterous songs"
    pub improper_or_boisterous_songs: bool,
    /// "utter obscene and indecent and profane songs or words" — the section joins
    /// the three with "and", so one choice states all three.
    pub obscene_indecent_and_profane: bool,
    /// "in any unruly or boisterous manner disturb the quiet and good order of the
    /// Town": the manner alone is not enough, see `disturbed_quiet_and_good_order`.
    pub unruly_or_boisterous_manner: bool,
    /// The quiet and good order of the Town was in fact disturbed.
    pub disturbed_quiet_and_good_order: bool,
}

impl PeaceDisturbance {
    /// Whether any §52-3 conduct is recorded.
    pub const fn any(self) -> bool {
        self.loud_or_unusual_noise
            || self.improper_or_boisterous_songs
            || self.obscene_indecent_and_profane
            || self.unruly_or_boisterous_manner
    }
}

/// The conduct observed, one part per offence it can support.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Conduct {
    /// §52-1 B: "remaining in essentially one location either alone or in concert
    /// with others" — without it there is no loitering, whatever else happened.
    pub remained_in_one_location: bool,
    pub passage: PassageObstruction,
    pub interference: Interference,
    pub disturbance: Disturbance,
    pub group: GroupObstruction,
    pub peace: PeaceDisturbance,
}

/// §52-1 D (and §52-2's order to move on): the order the officer gave.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DispersalOrder {
    /// The words used, as near as the officer can give them.
    pub words: String,
    pub given_at: Moment,
    /// The order included "move on and disperse" (optional under §52-1 D, the whole
    /// order under §52-2).
    pub move_on: bool,
    /// Minutes the officer allowed to comply; 0 means at once.
    pub minutes_to_comply: u32,
}

/// How a person failed or refused to obey (§52-1 D: "fails or refuses").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalManner {
    /// Said they would not comply.
    RefusedVerbally,
    /// Did not stop, stayed in place.
    StayedInPlace,
    /// Left and came back to the same conduct.
    Returned,
    /// Any other way; the narrative says how.
    Other,
}

impl RefusalManner {
    pub const fn code(self) -> &'static str {
        match self {
            RefusalManner::RefusedVerbally => "refused_verbally",
            RefusalManner::StayedInPlace => "stayed_in_place",
            RefusalManner::Returned => "returned",
            RefusalManner::Other => "other",
        }
    }

    pub const ALL: [RefusalManner; 4] = [
        RefusalManner::RefusedVerbally,
        RefusalManner::StayedInPlace,
        RefusalManner::Returned,
        RefusalManner::Other,
    ];

    pub const fn label(self) -> &'static str {
        match self {
            RefusalManner::RefusedVerbally => "Refused out loud",
            RefusalManner::StayedInPlace => "Did not stop or move",
            RefusalManner::Returned => "Left, then came back",
            RefusalManner::Other => "Other (described in the narrative)",
        }
    }
}

/// What one person did about the order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Response {
    /// No order was given to this person (e.g. a §52-3 case, or the officer chose
    /// not to order).
    NoOrder,
    /// Left before an order could be given.
    LeftBeforeOrder,
    Complied {
        at: Moment,
    },
    Refused {
        at: Moment,
        manner: RefusalManner,
    },
}

impl Response {
    pub const fn code(self) -> &'static str {
        match self {
            Response::NoOrder => "no_order",
            Response::LeftBeforeOrder => "left_before_order",
            Response::Complied { .. } => "complied",
            Response::Refused { .. } => "refused",
        }
    }

    /// The time recorded with the response, if any.
    pub const fn at(self) -> Option<Moment> {
        match self {
            Response::Complied { at } | Response::Refused { at, .. } => Some(at),
            Response::NoOrder | Response::LeftBeforeOrder => None,
        }
    }
}

/// Everything about the incident that the rules read, apart from each person's
/// response.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Facts {
    pub place: PlaceType,
    pub protected_activity: ProtectedActivity,
    pub conduct: Conduct,
    /// `None` when no order was given.
    pub order: Option<DispersalOrder>,
    /// The officer's account. The rules only read it for status words (cautions);
    /// it must describe conduct.
    pub narrative: String,
}
