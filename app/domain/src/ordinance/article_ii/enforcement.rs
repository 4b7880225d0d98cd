//! §52-7 on scene: an officer at a large gathering records what was seen, and
//! the rules say whether a person may be cited under §52-12.
//!
//! §52-7 forbids a person to "sponsor, promote, sell tickets to, permit on his
//! property, or otherwise conduct" a mass outdoor gathering without a permit. It
//! reaches those who put the gathering on — never the people attending it — so
//! each person recorded carries their own part in it ([`GatheringRole`]), and a
//! citation reads that person's part and the gathering's facts only.
//!
//! "A continued attendance … of 500 or more persons for two or more hours" is
//! shown by counts over time, or by what shows the gathering was intended to
//! attract it ([`continued_attendance`]); a count at one moment is not enough.
//! The officer's answer about the permit register is held against the register
//! for the gathering's day ([`register_problems`]); a gathering the Board routed
//! to Chapter 55 (§52-7's last sentence) is permitted.

use serde::{Deserialize, Serialize};

use super::permit::{
    duration_text, indoors, permanent_place, Venue, PERMIT_ATTENDANCE, PERMIT_MINUTES,
};
use super::Provision;
use crate::ordinance::Moment;

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
    /// No permit covers this place and day. Each permit the register lists for
    /// the day that the officer found to be another gathering is named, with
    /// why; absent (and not written) when there was none, so reports stored
    /// before keep their form.
    NoneFound {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        not_this: Vec<NotThis>,
    },
    /// A permit is held for it (its number): no §52-7 violation.
    Held { number: String },
    /// The Board determined that the permit for this gathering be issued under
    /// Chapter 55 (§52-7's last sentence; its register number): permitted, no
    /// §52-7 violation.
    #[serde(rename = "chapter_55")]
    Chapter55 { number: String },
}

impl PermitCheck {
    /// "No permit covers this gathering", with no permit of the day set aside.
    pub const fn none_found() -> PermitCheck {
        PermitCheck::NoneFound {
            not_this: Vec::new(),
        }
    }
}

/// A permit of the day the officer found to be another gathering, and why.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NotThis {
    pub number: String,
    pub why: String,
}

/// One count of the persons present, and when it was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Count {
    pub at: Moment,
    pub persons: u32,
    pub method: CountMethod,
}

/// What shows the gathering "may, will, or is intended to attract" its
/// attendance (§52-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntentEvidence {
    /// The hours advertised: a poster, a website, a programme.
    AdvertisedHours,
    /// Tickets sold for the gathering's hours.
    TicketsSold,
}

impl IntentEvidence {
    pub const ALL: [IntentEvidence; 2] =
        [IntentEvidence::AdvertisedHours, IntentEvidence::TicketsSold];

    pub const fn code(self) -> &'static str {
        match self {
            IntentEvidence::AdvertisedHours => "advertised_hours",
            IntentEvidence::TicketsSold => "tickets_sold",
        }
    }

    pub fn from_code(code: &str) -> Option<IntentEvidence> {
        IntentEvidence::ALL.into_iter().find(|e| e.code() == code)
    }

    pub const fn label(self) -> &'static str {
        match self {
            IntentEvidence::AdvertisedHours => "Advertised hours (poster, website, programme)",
            IntentEvidence::TicketsSold => "Tickets sold",
        }
    }

    const fn short(self) -> &'static str {
        match self {
            IntentEvidence::AdvertisedHours => "advertised",
            IntentEvidence::TicketsSold => "tickets sold",
        }
    }
}

/// What shows the attendance the gathering was meant to attract, with where
/// that is shown.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Intended {
    pub evidence: IntentEvidence,
    /// Where it is shown: "poster at the gate", "the box office's sales list".
    pub source: String,
    /// How long the attendance is advertised or ticketed to continue.
    pub minutes: u32,
    /// The persons the tickets sold or the advertising show; `None`: the
    /// largest count recorded stands for them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persons: Option<u32>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The gathering as the officer found it: shared by every person of the report.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GatheringScene {
    pub outdoor: bool,
    /// Reports stored before counts over time were recorded held one count
    /// (`counted`, `count_method`) and how long the attendance "has lasted or
    /// is announced to last" (`minutes`). They read and print as they did; new
    /// reports record `counts` and `intended` instead and leave these out.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub counted: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count_method: Option<CountMethod>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub minutes: u32,
    pub venue: Venue,
    pub permit: PermitCheck,
    /// The counts of the persons present, each with its time.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counts: Vec<Count>,
    /// What shows it was intended to attract its attendance, if recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intended: Option<Intended>,
}

impl GatheringScene {
    /// The counts in the order they were made.
    pub fn counts_in_order(&self) -> Vec<Count> {
        let mut counts = self.counts.clone();
        counts.sort_by_key(|c| c.at);
        counts
    }

    /// The most persons any count, the earlier form's single count or the
    /// intent recorded shows.
    fn most_persons(&self) -> u32 {
        self.counts
            .iter()
            .map(|c| c.persons)
            .chain([self.counted])
            .chain(self.intended.as_ref().and_then(|i| i.persons))
            .max()
            .unwrap_or(0)
    }
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

/// What shows the "continued attendance … of 500 or more persons for two or
/// more hours" §52-7 names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Continued {
    /// Counts of 500 or more `minutes` apart (two hours or more), none under 500
    /// between; `least` the smallest of them.
    Observed { least: u32, minutes: u32 },
    /// What shows the gathering was intended to attract `persons` for `minutes`:
    /// the hours advertised or the tickets sold, with where that is shown.
    Intended { persons: u32, minutes: u32 },
}

/// Whether `scene` shows a continued attendance of 500 or more for two or more
/// hours (§52-5, §52-6(3), §52-7), and how; or what to record, with its section.
/// A count at one moment is never enough: it shows the persons, not that they
/// continued — reports stored with one count and a duration included.
pub fn continued_attendance(scene: &GatheringScene) -> Result<Continued, (Provision, String)> {
    let counts = scene.counts_in_order();
    if let Some(observed) = observed(&counts) {
        return Ok(observed);
    }
    if let Some(intended) = intended(scene) {
        return Ok(intended);
    }
    Err(not_shown(scene, &counts))
}

/// The longest run of counts of 500 or more, if it spans two hours or more.
fn observed(counts: &[Count]) -> Option<Continued> {
    runs(counts)
        .into_iter()
        .filter(|run| span(run) >= i64::from(PERMIT_MINUTES))
        .max_by_key(|run| span(run))
        .map(|run| Continued::Observed {
            least: run.iter().map(|c| c.persons).min().unwrap_or(0),
            minutes: u32::try_from(span(run)).unwrap_or(u32::MAX),
        })
}

/// The runs of consecutive counts of 500 or more: a count under 500 ends one.
fn runs(counts: &[Count]) -> Vec<&[Count]> {
    counts
        .split(|c| c.persons < PERMIT_ATTENDANCE)
        .filter(|run| !run.is_empty())
        .collect()
}

/// Minutes from the first count of `run` to its last.
fn span(run: &[Count]) -> i64 {
    match (run.first(), run.last()) {
        (Some(first), Some(last)) => last.at.minutes_since(first.at),
        _ => 0,
    }
}

/// The intent recorded, where it shows 500 or more for two or more hours and
/// names its source. Without a number of its own, the largest count stands
/// for the persons it attracts.
fn intended(scene: &GatheringScene) -> Option<Continued> {
    let intent = scene.intended.as_ref()?;
    let persons = intent.persons.unwrap_or(scene.most_persons());
    (!intent.source.trim().is_empty()
        && persons >= PERMIT_ATTENDANCE
        && intent.minutes >= PERMIT_MINUTES)
        .then_some(Continued::Intended {
            persons,
            minutes: intent.minutes,
        })
}

/// Why `scene` does not show a continued attendance, and what to record.
fn not_shown(scene: &GatheringScene, counts: &[Count]) -> (Provision, String) {
    let most = scene.most_persons();
    if most < PERMIT_ATTENDANCE {
        return (
            Provision::S52_6_3,
            format!(
                "{most} persons at most counted or expected; a mass gathering is {PERMIT_ATTENDANCE} or more."
            ),
        );
    }
    let record = "record a count at least two hours after the first, with none under 500 between, \
                  or what shows the gathering was intended to last two hours or more — the hours \
                  advertised or the tickets sold, and where that is shown";
    if let Some(intent) = scene
        .intended
        .as_ref()
        .filter(|i| i.minutes < PERMIT_MINUTES)
    {
        return (
            Provision::S52_7,
            format!(
                "{} {}; a permit is needed for two or more hours. Or {record}.",
                duration_text(intent.minutes),
                intent.evidence.short()
            ),
        );
    }
    let longest = runs(counts).into_iter().map(span).max().unwrap_or(0);
    let shown = if longest > 0 {
        format!(
            "the counts of 500 or more recorded span {}",
            duration_text(u32::try_from(longest).unwrap_or(u32::MAX))
        )
    } else {
        "a count at one moment shows the persons, not that they continued".to_owned()
    };
    (
        Provision::S52_7,
        format!(
            "{shown}: §52-7 needs a continued attendance of {PERMIT_ATTENDANCE} or more for two or more \
             hours — {record}."
        ),
    )
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
            // The message is prefixed with the section already ("§52-7: …").
            "it reaches those who sponsor, promote, sell tickets to, permit on their property or \
             conduct the gathering — never the people attending it"
                .to_owned(),
        )),
        Some(_) => {}
    }
    let Some(scene) = scene else {
        out.push((
            Missing::MassGathering,
            Provision::S52_7,
            "record the gathering: the counts of persons and when, what shows it was meant to last, \
             outdoors, the place and the permit register's answer"
                .to_owned(),
        ));
        return out;
    };
    let reasons = indoors(scene.outdoor)
        .into_iter()
        .chain(continued_attendance(scene).err())
        .chain(permanent_place(scene.venue));
    for (provision, text) in reasons {
        let missing = if provision == Provision::S52_6_2 {
            Missing::GatheringArea
        } else {
            Missing::MassGathering
        };
        out.push((missing, provision, text));
    }
    match &scene.permit {
        PermitCheck::Held { number } => out.push((
            Missing::Permit,
            Provision::S52_7,
            format!("the gathering holds permit {number}: no violation of §52-7"),
        )),
        PermitCheck::Chapter55 { number } => out.push((
            Missing::Permit,
            Provision::S52_7,
            format!(
                "the Board determined that the permit for this gathering ({number}) be issued under \
                 Chapter 55 regulations (§52-7): it is permitted, no violation of §52-7"
            ),
        )),
        PermitCheck::NoneFound { .. } => {}
    }
    out
}

/// How an entry of the permit register stands for §52-7 on the gathering's day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// A permit issued (and, after the gathering, settled).
    Permitted,
    /// The Board determined the permit be issued under Chapter 55 (§52-7).
    Chapter55,
    /// Filed, before the Board, or denied: it permits nothing.
    NotPermitted,
}

/// An entry of the permit register covering the gathering's day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registered {
    pub number: String,
    pub place: String,
    /// Its state in words, for the officer.
    pub state: String,
    pub standing: Standing,
}

/// The officer's answer held against the permit register's entries covering
/// the gathering's day (`date` in words): each problem, naming §52-7 and what
/// to do. A "no permit" answer while the register holds a permit or a Chapter
/// 55 determination for the day stands only with why that one is another
/// gathering; a permit named must be in the register for that day, as what it is.
pub fn register_problems(answer: &PermitCheck, day: &[Registered], date: &str) -> Vec<String> {
    let entry = |number: &str| day.iter().find(|r| r.number == number.trim());
    let not_on_day = |number: &str| {
        format!(
            "§52-7: {} does not cover {date} in the permit register. Choose a permit the register \
             lists for that day, or answer that none covers this gathering.",
            number.trim()
        )
    };
    match answer {
        PermitCheck::Held { number } => match entry(number) {
            None => vec![not_on_day(number)],
            Some(r) => match r.standing {
                Standing::Permitted => Vec::new(),
                Standing::Chapter55 => vec![format!(
                    "§52-7: {} is the Board's determination that the permit be issued under Chapter 55, \
                     not an Article II permit — choose it as routed to Chapter 55.",
                    r.number
                )],
                Standing::NotPermitted => vec![permits_nothing(r)],
            },
        },
        PermitCheck::Chapter55 { number } => match entry(number) {
            None => vec![not_on_day(number)],
            Some(r) => match r.standing {
                Standing::Chapter55 => Vec::new(),
                Standing::Permitted => vec![format!(
                    "§52-7: {} is a permit the Board issued, not a Chapter 55 determination — choose it \
                     as a permit.",
                    r.number
                )],
                Standing::NotPermitted => vec![permits_nothing(r)],
            },
        },
        PermitCheck::NoneFound { not_this } => day
            .iter()
            .filter(|r| r.standing != Standing::NotPermitted)
            .filter(|r| {
                !not_this
                    .iter()
                    .any(|n| n.number.trim() == r.number && !n.why.trim().is_empty())
            })
            .map(|r| {
                format!(
                    "§52-7: the permit register shows {} ({}, {}) for {date}. Choose it if this is that \
                     gathering, or say why this gathering is another one.",
                    r.number,
                    r.state.to_lowercase(),
                    r.place
                )
            })
            .collect(),
    }
}

fn permits_nothing(r: &Registered) -> String {
    format!(
        "§52-7: {} is {}: it permits no gathering. Answer that no permit covers this gathering.",
        r.number,
        r.state.to_lowercase()
    )
}

/// The gathering in words: `2400 persons (gate or turnstile count); 2350
/// (counted (tally)) 2 h 10 min later; advertised: 5 h (poster at the gate)`.
/// A report stored with one count prints as it did: `2400 persons (gate or
/// turnstile count) for 3 h`.
pub fn summary(scene: &GatheringScene) -> String {
    if scene.counts.is_empty() && scene.intended.is_none() {
        return format!(
            "{} persons ({}) for {}",
            scene.counted,
            scene
                .count_method
                .map_or("count", CountMethod::label)
                .to_lowercase(),
            duration_text(scene.minutes)
        );
    }
    let counts = scene.counts_in_order();
    let mut parts: Vec<String> = Vec::new();
    if let Some(first) = counts.first() {
        parts.push(format!(
            "{} persons ({})",
            first.persons,
            first.method.label().to_lowercase()
        ));
        for c in &counts[1..] {
            parts.push(format!(
                "{} ({}) {} later",
                c.persons,
                c.method.label().to_lowercase(),
                duration_text(u32::try_from(c.at.minutes_since(first.at)).unwrap_or(0))
            ));
        }
    }
    if let Some(i) = &scene.intended {
        let persons = i
            .persons
            .map(|p| format!("{p} persons for "))
            .unwrap_or_default();
        parts.push(format!(
            "{}: {persons}{} ({})",
            i.evidence.short(),
            duration_text(i.minutes),
            i.source.trim()
        ));
    }
    parts.join("; ")
}
#[cfg(test)]
mod tests {
    use super::*;

    const T0: Moment = Moment(1_790_000_000_000);

    fn count(after_minutes: u32, persons: u32) -> Count {
        Count {
            at: T0.plus_minutes(after_minutes),
            persons,
            method: CountMethod::GateCount,
        }
    }

    /// Counts of `persons` at each of `minutes` after the first.
    fn scene(counts: &[(u32, u32)]) -> GatheringScene {
        GatheringScene {
            outdoor: true,
            counted: 0,
            count_method: None,
            minutes: 0,
            venue: Venue::Open,
            permit: PermitCheck::none_found(),
            counts: counts.iter().map(|&(m, p)| count(m, p)).collect(),
            intended: None,
        }
    }

    fn advertised(minutes: u32, persons: Option<u32>) -> Intended {
        Intended {
            evidence: IntentEvidence::AdvertisedHours,
            source: "poster at the farm gate".into(),
            minutes,
            persons,
        }
    }

    #[test]
    fn the_operator_of_an_unpermitted_gathering_of_500_for_two_hours_is_citable() {
        let s = scene(&[(0, 500), (120, 500)]);
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
    fn a_single_count_is_not_continued_attendance() {
        let short = |s: &GatheringScene| {
            missing_elements(Some(s), Some(GatheringRole::Promoter))
                .into_iter()
                .map(|(m, p, _)| (m, p))
                .collect::<Vec<_>>()
        };
        let continued = |counts: &[(u32, u32)]| continued_attendance(&scene(counts)).is_ok();
        // One count at one moment, however large.
        assert_eq!(
            short(&scene(&[(0, 2_400)])),
            [(Missing::MassGathering, Provision::S52_7)]
        );
        let (_, why) = continued_attendance(&scene(&[(0, 2_400)])).expect_err("one count");
        assert!(why.contains("a count at one moment"), "{why}");
        // Two counts of 500 or more two hours apart, none under 500 between.
        assert!(continued(&[(0, 500), (120, 500)]));
        assert!(!continued(&[(0, 500), (119, 500)]), "1 h 59 min apart");
        assert!(continued(&[(0, 2_400), (60, 1_800), (125, 900)]));
        assert!(
            !continued(&[(0, 2_400), (60, 499), (125, 900)]),
            "a count under 500 between breaks the continuance"
        );
        assert!(continued(&[(0, 300), (30, 600), (90, 700), (150, 650)]));
        assert!(!continued(&[(0, 499), (180, 499)]));
        assert_eq!(
            continued_attendance(&scene(&[(0, 2_400), (60, 1_800), (125, 900)])),
            Ok(Continued::Observed {
                least: 900,
                minutes: 125
            })
        );
        // The counts may be recorded in any order.
        assert!(continued(&[(120, 800), (0, 700)]));
        let (_, why) =
            continued_attendance(&scene(&[(0, 2_400), (90, 2_000)])).expect_err("1 h 30 min");
        assert!(why.contains("span 1 h 30 min"), "{why}");
        // Under 500 everywhere: not a mass gathering (§52-6(3)).
        assert_eq!(
            short(&scene(&[(0, 499), (180, 499)])),
            [(Missing::MassGathering, Provision::S52_6_3)]
        );
    }

    #[test]
    fn what_shows_it_was_intended_stands_for_the_hours_with_its_source_named() {
        let with = |intended: Intended, counts: &[(u32, u32)]| GatheringScene {
            intended: Some(intended),
            ..scene(counts)
        };
        // One count of 2,400 and five hours advertised.
        assert_eq!(
            continued_attendance(&with(advertised(300, None), &[(0, 2_400)])),
            Ok(Continued::Intended {
                persons: 2_400,
                minutes: 300
            })
        );
        // Tickets sold before anyone is counted.
        let tickets = Intended {
            evidence: IntentEvidence::TicketsSold,
            source: "the box office's sales list".into(),
            minutes: 240,
            persons: Some(3_000),
        };
        assert!(continued_attendance(&with(tickets, &[])).is_ok());
        assert!(continued_attendance(&with(advertised(119, None), &[(0, 2_400)])).is_err());
        assert!(continued_attendance(&with(advertised(300, None), &[(0, 499)])).is_err());
        let unnamed = Intended {
            source: " ".into(),
            ..advertised(300, None)
        };
        assert!(
            continued_attendance(&with(unnamed, &[(0, 2_400)])).is_err(),
            "the source must be named"
        );
    }

    #[test]
    fn a_report_stored_with_one_count_reads_prints_and_is_decided_under_todays_reading() {
        let stored = r#"{"outdoor":true,"counted":2400,"count_method":"gate_count","minutes":180,"venue":"Open","permit":{"kind":"none_found"}}"#;
        let read: GatheringScene = serde_json::from_str(stored).expect("a stored scene");
        assert_eq!(
            serde_json::to_string(&read).expect("json"),
            stored,
            "the same bytes"
        );
        assert_eq!(
            summary(&read),
            "2400 persons (gate or turnstile count) for 3 h"
        );
        // One count and a duration that was "lasted or announced" is one count.
        assert!(continued_attendance(&read).is_err());
        let held = r#"{"outdoor":true,"counted":2400,"count_method":"gate_count","minutes":180,"venue":"Open","permit":{"kind":"held","number":"MG-2026-0001"}}"#;
        let read: GatheringScene = serde_json::from_str(held).expect("a stored scene");
        assert_eq!(serde_json::to_string(&read).expect("json"), held);
    }

    #[test]
    fn a_chapter_55_determination_is_no_section_52_7_violation() {
        let routed = GatheringScene {
            permit: PermitCheck::Chapter55 {
                number: "MG-2026-0003".into(),
            },
            ..scene(&[(0, 5_000), (300, 5_000)])
        };
        let found = missing_elements(Some(&routed), Some(GatheringRole::Operator));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, Missing::Permit);
        assert!(found[0].2.contains("Chapter 55"), "{found:?}");
        assert!(found[0].2.contains("MG-2026-0003"), "{found:?}");
    }

    #[test]
    fn each_missing_element_names_its_provision() {
        let stadium = GatheringScene {
            venue: Venue::PermanentPlaceOfAssembly {
                sufficient_sanitary_facilities: true,
            },
            ..scene(&[(0, 5_000), (300, 5_000)])
        };
        let found = missing_elements(Some(&stadium), Some(GatheringRole::Operator));
        assert_eq!(found[0].0, Missing::GatheringArea);
        let indoors = GatheringScene {
            outdoor: false,
            ..scene(&[(0, 5_000), (300, 5_000)])
        };
        let found = missing_elements(Some(&indoors), Some(GatheringRole::Operator));
        assert_eq!(
            (found[0].0, found[0].1),
            (Missing::MassGathering, Provision::S52_7)
        );
        let permitted = GatheringScene {
            permit: PermitCheck::Held {
                number: "MG-2026-0001".into(),
            },
            ..scene(&[(0, 5_000), (300, 5_000)])
        };
        let found = missing_elements(Some(&permitted), Some(GatheringRole::Operator));
        assert_eq!(found[0].0, Missing::Permit);
        assert!(found[0].2.contains("MG-2026-0001"));
        assert_eq!(missing_elements(None, None).len(), 2);
    }

    fn registered(number: &str, standing: Standing) -> Registered {
        Registered {
            number: number.into(),
            place: "Wells Harbor Park".into(),
            state: match standing {
                Standing::Permitted => "Permit issued",
                Standing::Chapter55 => "To be issued under Chapter 55 (§52-7)",
                Standing::NotPermitted => "Denied",
            }
            .into(),
            standing,
        }
    }

    #[test]
    fn the_officers_answer_is_held_against_the_register_for_the_day() {
        let day = [
            registered("MG-2026-0001", Standing::Permitted),
            registered("MG-2026-0002", Standing::Chapter55),
            registered("MG-2026-0003", Standing::NotPermitted),
        ];
        let problems = |answer: &PermitCheck| register_problems(answer, &day, "2026-07-04");
        // "No permit" while the register holds two for the day: each named.
        let none = problems(&PermitCheck::none_found());
        assert_eq!(none.len(), 2, "{none:?}");
        assert!(none[0].starts_with("§52-7: the permit register shows MG-2026-0001 (permit issued"));
        assert!(none[1].contains("MG-2026-0002"), "{none:?}");
        // …unless the officer says why each is another gathering.
        let why = |number: &str, why: &str| NotThis {
            number: number.into(),
            why: why.into(),
        };
        let explained = PermitCheck::NoneFound {
            not_this: vec![
                why(
                    "MG-2026-0001",
                    "That permit is for the harbor park; this is the Drake farm.",
                ),
                why("MG-2026-0002", "A craft fair across town."),
            ],
        };
        assert_eq!(problems(&explained), Vec::<String>::new());
        let blank = PermitCheck::NoneFound {
            not_this: vec![
                why("MG-2026-0001", " "),
                why("MG-2026-0002", "Another fair."),
            ],
        };
        assert_eq!(problems(&blank).len(), 1);
        // A permit named must be in the register for the day, as what it is.
        let held = |n: &str| PermitCheck::Held { number: n.into() };
        let routed = |n: &str| PermitCheck::Chapter55 { number: n.into() };
        assert_eq!(problems(&held("MG-2026-0001")), Vec::<String>::new());
        assert_eq!(problems(&routed("MG-2026-0002")), Vec::<String>::new());
        assert!(problems(&held("MG-2026-0009"))[0].contains("does not cover 2026-07-04"));
        assert!(problems(&held("MG-2026-0002"))[0].contains("Chapter 55"));
        assert!(problems(&routed("MG-2026-0001"))[0].contains("a permit the Board issued"));
        assert!(problems(&held("MG-2026-0003"))[0].contains("permits no gathering"));
        // An empty register for the day: "no permit" stands alone.
        assert_eq!(
            register_problems(&PermitCheck::none_found(), &[], "2026-07-04"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn counts_over_time_print_with_their_offsets_and_the_intent_with_its_source() {
        let s = GatheringScene {
            intended: Some(advertised(300, None)),
            ..scene(&[(130, 2_350), (0, 2_400)])
        };
        assert_eq!(
            summary(&s),
            "2400 persons (gate or turnstile count); 2350 (gate or turnstile count) 2 h 10 min later; \
             advertised: 5 h (poster at the farm gate)"
        );
    }
}
