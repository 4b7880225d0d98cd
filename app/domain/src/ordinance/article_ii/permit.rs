//! When a gathering needs a permit (§52-5, §52-6(2) and (3), §52-7).

use serde::{Deserialize, Serialize};

use super::Provision;

/// "500 or more persons" (§52-5, §52-6(3), §52-7).
pub const PERMIT_ATTENDANCE: u32 = 500;

/// "two or more hours" (§52-5, §52-7), in minutes. §52-6(3) says a gathering
/// "anticipated to exceed two hours"; §52-7, the section that forbids, says "for
/// two or more hours", and it is the one applied: exactly two hours needs a
/// permit (the reading that never lets a two-hour event escape the standards).
pub const PERMIT_MINUTES: u32 = 120;

/// Where the gathering is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Venue {
    /// A field, a beach, a lot: any place used for the gathering.
    Open,
    /// An established permanent stadium, athletic field, arena, auditorium,
    /// coliseum, fair ground or similar permanent place of assembly (§52-6(2)).
    PermanentPlaceOfAssembly {
        /// Its existing sanitary facilities can handle the expected gathering.
        sufficient_sanitary_facilities: bool,
    },
}

/// What is known of a gathering before it is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gathering {
    /// Held out of doors ("mass outdoor gathering", §52-7).
    pub outdoor: bool,
    /// The attendance it "may, will, or is intended to attract" (§52-7).
    pub expected_attendance: u32,
    /// How long that attendance is expected to continue, in minutes.
    pub expected_minutes: u32,
    pub venue: Venue,
}

/// Whether a permit is needed, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum PermitNeed {
    /// A permit from the Board of Selectmen is required (§52-7). The Board may
    /// instead have it issued under Chapter 55 (outdoor festivals and special
    /// amusements): that is the Board's decision, never the software's.
    Required,
    /// No Article II permit: each reason with the provision it comes from.
    NotRequired(Vec<(Provision, String)>),
}

impl PermitNeed {
    pub fn is_required(&self) -> bool {
        matches!(self, PermitNeed::Required)
    }
}

/// Applies §52-7 to a gathering.
pub fn permit_need(gathering: &Gathering) -> PermitNeed {
    let reasons: Vec<(Provision, String)> = indoors(gathering.outdoor)
        .into_iter()
        .chain(below_size(
            gathering.expected_attendance,
            gathering.expected_minutes,
        ))
        .chain(permanent_place(gathering.venue))
        .collect();
    if reasons.is_empty() {
        PermitNeed::Required
    } else {
        PermitNeed::NotRequired(reasons)
    }
}

/// §52-7: Article II governs "mass outdoor" gatherings.
pub(crate) fn indoors(outdoor: bool) -> Option<(Provision, String)> {
    (!outdoor).then(|| {
        (
            Provision::S52_7,
            "Article II governs mass outdoor gatherings; this one is indoors.".to_string(),
        )
    })
}

/// §52-6(3), §52-7: "500 or more persons" for "two or more hours".
pub(crate) fn below_size(attendance: u32, minutes: u32) -> Vec<(Provision, String)> {
    let mut reasons = Vec::new();
    if attendance < PERMIT_ATTENDANCE {
        reasons.push((
            Provision::S52_6_3,
            format!(
                "{attendance} persons expected; a mass gathering is {PERMIT_ATTENDANCE} or more."
            ),
        ));
    }
    if minutes < PERMIT_MINUTES {
        reasons.push((
            Provision::S52_7,
            format!(
                "{} expected; a permit is needed for two or more hours.",
                duration_text(minutes)
            ),
        ));
    }
    reasons
}

/// §52-6(2): an established permanent place of assembly with sufficient
/// sanitary facilities is not a mass gathering area.
pub(crate) fn permanent_place(venue: Venue) -> Option<(Provision, String)> {
    matches!(
        venue,
        Venue::PermanentPlaceOfAssembly {
            sufficient_sanitary_facilities: true,
        }
    )
    .then(|| {
        (
            Provision::S52_6_2,
            "An established permanent place of assembly with sanitary facilities sufficient \
             for the gathering is not a mass gathering area."
                .to_string(),
        )
    })
}

/// `1 h 59 min`, `2 h`, `45 min`.
pub fn duration_text(minutes: u32) -> String {
    match (minutes / 60, minutes % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    }
}
