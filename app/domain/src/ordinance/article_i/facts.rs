//! What the officer records: the facts the rules decide on, as types.
//!
//! Each person answers for their own conduct (DESIGN §2). The incident shares a
//! [`Scene`] — when it began, the type of place, the orders the officer gave —
//! and each person carries their own [`PersonFacts`]: what *they* did, their own
//! §52-1 E answer, which order *they* received, their response and its time, and
//! whether they were arrested. A person's verdict reads their facts and the scene,
//! never another person's facts.
//!
//! Free text (the order's words, the narrative) is kept where the law needs the
//! words themselves; everything the rules decide on is a closed choice.

use serde::{Deserialize, Serialize};

use crate::ordinance::time::Moment;

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

/// The §52-1 E question, asked of each person before any offence is chosen: "Is
/// this person picketing peacefully, speaking publicly, or otherwise expressing an
/// opinion lawfully?" One person's expression shields that person only.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProtectedActivity {
    #[default]
    None,
    PeacefulPicketing,
    PublicSpeaking,
    /// "other lawful expressions or opinion" (§52-1 E)
    OtherLawfulExpression,
    /// Expressing an opinion, but "in contravention of other Town Ordinances or
    /// State and Federal Laws" (§52-1 E's proviso): not shielded, and the law
    /// contravened is named ([`PersonFacts::contravenes`]). Always a caution for
    /// the chief.
    UnlawfulExpression,
}

impl ProtectedActivity {
    pub const ALL: [ProtectedActivity; 5] = [
        ProtectedActivity::None,
        ProtectedActivity::PeacefulPicketing,
        ProtectedActivity::PublicSpeaking,
        ProtectedActivity::OtherLawfulExpression,
        ProtectedActivity::UnlawfulExpression,
    ];

    /// Shielded by §52-1 E: §52-1 does not apply to this person.
    pub const fn is_protected(self) -> bool {
        !matches!(
            self,
            ProtectedActivity::None | ProtectedActivity::UnlawfulExpression
        )
    }

    /// The person was expressing an opinion, lawfully or not.
    pub const fn is_expression(self) -> bool {
        !matches!(self, ProtectedActivity::None)
    }

    pub const fn label(self) -> &'static str {
        match self {
            ProtectedActivity::None => "No — not expressing an opinion",
            ProtectedActivity::PeacefulPicketing => "Peaceful picketing",
            ProtectedActivity::PublicSpeaking => "Public speaking",
            ProtectedActivity::OtherLawfulExpression => "Other lawful expression of opinion",
            ProtectedActivity::UnlawfulExpression => {
                "Expressing an opinion, but in contravention of another Town ordinance or a State or Federal law"
            }
        }
    }

    pub const fn code(self) -> &'static str {
        match self {
            ProtectedActivity::None => "none",
            ProtectedActivity::PeacefulPicketing => "peaceful_picketing",
            ProtectedActivity::PublicSpeaking => "public_speaking",
            ProtectedActivity::OtherLawfulExpression => "other_lawful_expression",
            ProtectedActivity::UnlawfulExpression => "unlawful_expression",
        }
    }

    pub fn from_code(code: &str) -> Option<ProtectedActivity> {
        ProtectedActivity::ALL
            .into_iter()
            .find(|p| p.code() == code)
    }
}

/// §52-1 A(1): hindering or impeding, or tending to hinder or impede, the
/// uninterrupted passage of pedestrians or vehicles — of a *public* street or
/// place, which may not be where the person stood (someone in a doorway can block
/// the sidewalk in front of it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PassageObstruction {
    pub pedestrians: bool,
    pub vehicles: bool,
    /// The street or place whose passage was obstructed; `None` until recorded.
    #[serde(default)]
    pub place: Option<PlaceType>,
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

/// §52-2: this person stood together with, or near, others, obstructing free
/// passage of a street or sidewalk.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GroupStanding {
    /// The other persons of this incident the person stood with, by position
    /// (0-based) in the incident's list of persons.
    #[serde(default)]
    pub stood_with: Vec<usize>,
    /// Others they stood with who are not persons of this report (they left, or
    /// were not identified or described).
    #[serde(default)]
    pub others: u16,
    /// "in such a manner as to obstruct the free passage thereon or thereover"
    pub obstructs_free_passage: bool,
}

impl GroupStanding {
    /// The persons standing together, this person included.
    pub fn persons_together(&self) -> usize {
        1 + self.stood_with.len() + usize::from(self.others)
    }

    pub fn any(&self) -> bool {
        self.obstructs_free_passage || !self.stood_with.is_empty() || self.others > 0
    }
}

/// §52-3, in the section's words, one fact each: "make any loud or unusual noise,
/// either by voice or otherwise, or sing improper or boisterous songs, or utter
/// obscene and indecent and profane songs or words, or in any unruly or
/// boisterous manner disturb the quiet and good order of the Town".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PeaceDisturbance {
    pub loud_noise: bool,
    pub unusual_noise: bool,
    pub improper_songs: bool,
    pub boisterous_songs: bool,
    /// "obscene and indecent and profane": the section joins the three with
    /// "and", so the words prong needs all three; each is its own fact.
    pub obscene: bool,
    pub indecent: bool,
    pub profane: bool,
    pub unruly_or_boisterous_manner: bool,
    /// The quiet and good order of the Town was in fact disturbed — needed by
    /// every prong (the department's reading, see [`crate::ordinance::article_i`]).
    pub disturbed_quiet_and_good_order: bool,
}

impl PeaceDisturbance {
    /// "obscene and indecent and profane songs or words": all three.
    pub const fn obscene_indecent_and_profane(self) -> bool {
        self.obscene && self.indecent && self.profane
    }

    /// The prongs of §52-3 recorded in full.
    pub fn prongs(self) -> Vec<PeaceProng> {
        let mut out = Vec::new();
        if self.loud_noise || self.unusual_noise {
            out.push(PeaceProng::Noise);
        }
        if self.improper_songs || self.boisterous_songs {
            out.push(PeaceProng::Songs);
        }
        if self.obscene_indecent_and_profane() {
            out.push(PeaceProng::ObsceneWords);
        }
        if self.unruly_or_boisterous_manner {
            out.push(PeaceProng::UnrulyManner);
        }
        out
    }

    /// Whether any §52-3 fact is recorded (a prong, part of one, or the disturbance).
    pub const fn any(self) -> bool {
        self.loud_noise
            || self.unusual_noise
            || self.improper_songs
            || self.boisterous_songs
            || self.obscene
            || self.indecent
            || self.profane
            || self.unruly_or_boisterous_manner
            || self.disturbed_quiet_and_good_order
    }

    /// The facts recorded, in the section's words, for the printed violation.
    pub fn described(self) -> Vec<&'static str> {
        [
            (self.loud_noise, "loud noise"),
            (self.unusual_noise, "unusual noise"),
            (self.improper_songs, "improper songs"),
            (self.boisterous_songs, "boisterous songs"),
            (
                self.obscene_indecent_and_profane(),
                "obscene and indecent and profane songs or words",
            ),
            (
                self.unruly_or_boisterous_manner,
                "unruly or boisterous manner",
            ),
        ]
        .into_iter()
        .filter_map(|(on, words)| on.then_some(words))
        .collect()
    }
}

/// The four ways §52-3 can be broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PeaceProng {
    /// "make any loud or unusual noise, either by voice or otherwise"
    Noise,
    /// "sing improper or boisterous songs" — speech.
    Songs,
    /// "utter obscene and indecent and profane songs or words" — speech.
    ObsceneWords,
    /// "in any unruly or boisterous manner"
    UnrulyManner,
}

impl PeaceProng {
    /// Whether the prong punishes what was said or sung: the cases a court looks
    /// at hardest (Cohen v. California, 403 U.S. 15 (1971); Gooding v. Wilson,
    /// 405 U.S. 518 (1972)).
    pub const fn is_speech(self) -> bool {
        matches!(self, PeaceProng::Songs | PeaceProng::ObsceneWords)
    }
}

/// What this one person did, one part per offence it can support.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Conduct {
    /// §52-1 B: "remaining in essentially one location either alone or in concert
    /// with others" — without it there is no loitering, whatever else happened.
    pub remained_in_one_location: bool,
    #[serde(default)]
    pub passage: PassageObstruction,
    #[serde(default)]
    pub interference: Interference,
    #[serde(default)]
    pub disturbance: Disturbance,
    #[serde(default)]
    pub group: GroupStanding,
    #[serde(default)]
    pub peace: PeaceDisturbance,
    /// §52-7: this person's part in a mass gathering (Article II reports only;
    /// absent, and not written, otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gathering: Option<crate::ordinance::article_ii::enforcement::GatheringRole>,
}

/// §52-1 D (and §52-2's order to move on): an order the officer gave — to one
/// person or to a group; each person records whether they received it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DispersalOrder {
    /// The words used, as near as the officer can give them.
    pub words: String,
    pub given_at: Moment,
    /// The order included "move on and disperse" (optional under §52-1 D, the whole
    /// order under §52-2).
    pub move_on: bool,
    /// Minutes the officer allowed to comply; 0 means at once (then only an
    /// outright refusal counts in the order's own minute).
    pub minutes_to_comply: u32,
}

/// The least chance to obey an order, in minutes, whatever time the officer
/// allowed: times are recorded to the minute, so a failure to obey recorded in
/// the order's own minute had no chance to obey (the department's reading of
/// §52-1 D "fails … to obey").
pub const MIN_CHANCE_MINUTES: u32 = 1;

impl DispersalOrder {
    /// When the time allowed to comply ends.
    pub const fn comply_by(&self) -> Moment {
        self.given_at.plus_minutes(self.minutes_to_comply)
    }

    /// From when a failure to obey (anything but an outright refusal) counts:
    /// once the time allowed has passed, and never within the order's own
    /// minute ([`MIN_CHANCE_MINUTES`]).
    pub const fn failure_counts_from(&self) -> Moment {
        let minutes = if self.minutes_to_comply > MIN_CHANCE_MINUTES {
            self.minutes_to_comply
        } else {
            MIN_CHANCE_MINUTES
        };
        self.given_at.plus_minutes(minutes)
    }
}

/// How a person failed or refused to obey (§52-1 D: "fails or refuses").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalManner {
    /// Said they would not comply: an outright refusal.
    RefusedVerbally,
    /// Did the opposite of the order (moved to block again, turned the music
    /// up): an outright refusal.
    ActedAgainstOrder,
    /// Did not stop, stayed in place: a failure to obey only once the time allowed
    /// to comply has passed.
    StayedInPlace,
    /// Left, then came back, and took up again the conduct the order stopped:
    /// acting against the order, an outright refusal.
    ReturnedAndResumed,
    /// "Left, then came back", as reports recorded it before the conduct resumed
    /// was asked. Coming back is not by itself a failure to obey: still read from
    /// stored reports, no longer offered, never citable.
    Returned,
    /// Any other way; the narrative says how. Counts only once the time allowed
    /// has passed.
    Other,
}

impl RefusalManner {
    /// Every manner a stored report may carry.
    pub const ALL: [RefusalManner; 6] = [
        RefusalManner::RefusedVerbally,
        RefusalManner::ActedAgainstOrder,
        RefusalManner::StayedInPlace,
        RefusalManner::ReturnedAndResumed,
        RefusalManner::Returned,
        RefusalManner::Other,
    ];

    /// The manners an officer records today: [`RefusalManner::Returned`] is not
    /// among them.
    pub const OFFERED: [RefusalManner; 5] = [
        RefusalManner::RefusedVerbally,
        RefusalManner::ActedAgainstOrder,
        RefusalManner::StayedInPlace,
        RefusalManner::ReturnedAndResumed,
        RefusalManner::Other,
    ];

    pub const fn code(self) -> &'static str {
        match self {
            RefusalManner::RefusedVerbally => "refused_verbally",
            RefusalManner::ActedAgainstOrder => "acted_against_order",
            RefusalManner::StayedInPlace => "stayed_in_place",
            RefusalManner::ReturnedAndResumed => "returned_and_resumed",
            RefusalManner::Returned => "returned",
            RefusalManner::Other => "other",
        }
    }

    pub fn from_code(code: &str) -> Option<RefusalManner> {
        RefusalManner::ALL.into_iter().find(|m| m.code() == code)
    }

    /// As the form offers it and documents print it (a stored "returned" prints
    /// in the words it was recorded with).
    pub const fn label(self) -> &'static str {
        match self {
            RefusalManner::RefusedVerbally => "Refused out loud",
            RefusalManner::ActedAgainstOrder => "Did the opposite of the order",
            RefusalManner::StayedInPlace => "Did not stop or move",
            RefusalManner::ReturnedAndResumed => {
                "Came back and resumed the conduct the order stopped"
            }
            RefusalManner::Returned => "Left, then came back",
            RefusalManner::Other => "Other (described in the narrative)",
        }
    }

    /// An outright refusal — saying no, or acting against the order (coming back
    /// to the conduct it stopped is acting against it) — is a refusal at once;
    /// any other failure to obey needs the chance to obey first (the department's
    /// reading of §52-1 D "fails or refuses").
    pub const fn is_outright(self) -> bool {
        matches!(
            self,
            RefusalManner::RefusedVerbally
                | RefusalManner::ActedAgainstOrder
                | RefusalManner::ReturnedAndResumed
        )
    }

    /// A failure to obey that counts only after the chance to obey
    /// ([`DispersalOrder::failure_counts_from`]).
    pub const fn needs_a_chance(self) -> bool {
        matches!(self, RefusalManner::StayedInPlace | RefusalManner::Other)
    }

    /// No refusal at all: the person came back, but no resumed conduct is
    /// recorded ([`RefusalManner::Returned`]).
    pub const fn is_no_refusal(self) -> bool {
        matches!(self, RefusalManner::Returned)
    }
}

/// What one person did about the order they received.
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

    /// The same response at another time (a response without a time stays as it is).
    pub const fn at_time(self, at: Moment) -> Response {
        match self {
            Response::Complied { .. } => Response::Complied { at },
            Response::Refused { manner, .. } => Response::Refused { at, manner },
            other => other,
        }
    }

    /// Whether the response answers an order (and so needs one).
    pub const fn answers_an_order(self) -> bool {
        matches!(self, Response::Complied { .. } | Response::Refused { .. })
    }
}

/// What the persons of one incident share: when it began, the type of place they
/// were in, and the orders the officer gave.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Scene {
    pub started_at: Moment,
    /// Where the persons were (§52-1 A, C; §52-2's street or sidewalk; §52-3's
    /// street or public place), unless a person's own place says otherwise
    /// ([`PersonFacts::place`]).
    pub place: PlaceType,
    pub orders: Vec<DispersalOrder>,
    /// An Article II report's gathering (§52-7): counted, how long, where, and
    /// the permit register's answer. Absent from Article I reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gathering: Option<crate::ordinance::article_ii::enforcement::GatheringScene>,
}

/// One person's own facts: all a verdict about them may read, with the scene.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PersonFacts {
    /// §52-1 E, answered for this person.
    pub protected_activity: ProtectedActivity,
    pub conduct: Conduct,
    /// The order this person received, by position in the scene's orders.
    pub order: Option<usize>,
    pub response: Response,
    /// §52-2: an arrest was made. A summons without arrest is the default.
    pub arrested: bool,
    /// Where this person was, when not the incident's place (one on their own
    /// porch, another in the street). `None`: the incident's place — every report
    /// stored before it was asked reads so, and is written as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<PlaceType>,
    /// §52-1 E's proviso: the Town ordinance or State or Federal law the person's
    /// expression contravened, named (with its section), one line. Only with
    /// [`ProtectedActivity::UnlawfulExpression`]; absent, and not written, otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contravenes: Option<String>,
}

impl PersonFacts {
    /// The order this person received, if any (and if it exists).
    pub fn order_in<'a>(&self, scene: &'a Scene) -> Option<&'a DispersalOrder> {
        self.order.and_then(|i| scene.orders.get(i))
    }

    /// Where this person was: their own place, or the incident's.
    pub fn place_in(&self, scene: &Scene) -> PlaceType {
        self.place.unwrap_or(scene.place)
    }

    /// The law named as contravened, if any words were given.
    pub fn law_contravened(&self) -> Option<&str> {
        self.contravenes
            .as_deref()
            .map(str::trim)
            .filter(|law| !law.is_empty())
    }
}
