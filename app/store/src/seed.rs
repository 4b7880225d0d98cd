//! `server seed`: fills a database with realistic, deterministic synthetic
//! incidents for demos and benchmarks (issue #6). The same `--seed` gives the same
//! incidents, persons, outcomes and citation numbers on an empty database.
//!
//! Every report is made the way an officer's would be — Wells places, the §52-1 E
//! question, conduct, an order and each person's response — and goes through the
//! same rules (`model::incident::check`) and the same store writes as a real
//! submission; only the audit entries are summarised in one `seed.run` entry, so a
//! million incidents do not carry a million audit records of events that never
//! happened.

use crate::db::Conn;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use uuid::Uuid;

use crate::audit::{self, Event};
use crate::incidents::{issue_citation, write_subject, write_version, Version};
use crate::numbers::Issuing;
use crate::Store;
use domain::actor::Actor;
use domain::error::AppError;
use domain::model::account::{Me, Role};
use domain::model::audit::AuditOutcome;
use domain::model::court::{Disposition, DispositionKind};
use domain::model::incident::{
    AgeRange, Charge, CitationStatus, GpsFix, IdType, Identity, IncidentReport, Location,
    Perceived, PerceivedRace, PerceivedSex, ReportStatus, SubjectEntry,
};
use domain::ordinance::{
    suggested_offences, Conduct, DispersalOrder, Moment, PersonFacts, PlaceType, ProtectedActivity,
    RefusalManner, Response,
};
use domain::town_time::TownZone;

/// Usernames of the synthetic accounts start so; incidents by anyone else are real.
pub const SEED_USER_PREFIX: &str = "seed-";

/// Incidents written per transaction.
const BATCH: usize = 1_000;

const MINUTE: i64 = 60_000;
const DAY: i64 = 86_400_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedPlan {
    pub incidents: u64,
    pub seed: u64,
    /// Run even when the database holds real records.
    pub force: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeedSummary {
    pub incidents: u64,
    pub persons: u64,
    pub citations: u64,
    pub returned: u64,
    pub voided: u64,
}

struct Place {
    text: &'static str,
    lat: f64,
    lon: f64,
    place: PlaceType,
    /// Relative frequency: the beach and Route 1 see most of it.
    weight: u32,
}

const PLACES: &[Place] = &[
    place(
        "Wells Beach, Atlantic Avenue at Mile Road",
        43.3196,
        -70.5660,
        PlaceType::Beach,
        30,
    ),
    place(
        "Mile Road at Post Road (Route 1)",
        43.3222,
        -70.5809,
        PlaceType::Sidewalk,
        22,
    ),
    place(
        "Drakes Island Beach parking lot",
        43.3361,
        -70.5525,
        PlaceType::PublicGrounds,
        12,
    ),
    place(
        "Wells Harbor, Harbor Road",
        43.3199,
        -70.5745,
        PlaceType::PublicGrounds,
        10,
    ),
    place(
        "Post Road (Route 1) at Sanford Road",
        43.3205,
        -70.5884,
        PlaceType::Street,
        14,
    ),
    place(
        "Wells Plaza, Post Road",
        43.3108,
        -70.5925,
        PlaceType::FrontOfBusiness,
        11,
    ),
    place(
        "Crescent Beach, Webhannet Drive",
        43.2975,
        -70.5723,
        PlaceType::Beach,
        8,
    ),
    place(
        "Moody Beach, Ocean Avenue",
        43.2722,
        -70.5868,
        PlaceType::Beach,
        9,
    ),
    place(
        "Wells Transportation Center, Sanford Road",
        43.3268,
        -70.6098,
        PlaceType::PublicGrounds,
        5,
    ),
    place(
        "Post Road at Bourne Avenue",
        43.2647,
        -70.5985,
        PlaceType::Sidewalk,
        6,
    ),
    place(
        "Harbor Park, Harbor Road",
        43.3187,
        -70.5751,
        PlaceType::Park,
        7,
    ),
    place(
        "Post Road at Chapel Road",
        43.3326,
        -70.5776,
        PlaceType::Sidewalk,
        6,
    ),
    place(
        "Route 109 at Route 9",
        43.3347,
        -70.6268,
        PlaceType::Street,
        4,
    ),
    place(
        "Wells Recreation Park, Sanford Road",
        43.3239,
        -70.6067,
        PlaceType::Park,
        5,
    ),
    place(
        "Moody Point, Post Road shops",
        43.2761,
        -70.5958,
        PlaceType::FrontOfBusiness,
        6,
    ),
    place(
        "Atlantic Avenue at Eldredge Road",
        43.3121,
        -70.5690,
        PlaceType::Street,
        5,
    ),
    place(
        "Depot Street at Post Road",
        43.3171,
        -70.5899,
        PlaceType::Sidewalk,
        4,
    ),
    place(
        "Elmwood Park, Post Road",
        43.3008,
        -70.5950,
        PlaceType::Park,
        3,
    ),
    place(
        "Wells Corner Shopping Center, Post Road",
        43.3229,
        -70.5852,
        PlaceType::FrontOfBusiness,
        7,
    ),
    place(
        "Ocean View Parking Lot, Atlantic Avenue",
        43.3158,
        -70.5676,
        PlaceType::PublicGrounds,
        5,
    ),
];

const fn place(text: &'static str, lat: f64, lon: f64, place: PlaceType, weight: u32) -> Place {
    Place {
        text,
        lat,
        lon,
        place,
        weight,
    }
}

const OFFICERS: &[(&str, &str)] = &[
    ("Officer Jordan Ames", "9101"),
    ("Officer Riley Boucher", "9102"),
    ("Officer Casey Cote", "9103"),
    ("Officer Morgan Dube", "9104"),
    ("Officer Taylor Emery", "9105"),
    ("Officer Avery Fogg", "9106"),
    ("Officer Quinn Gagne", "9107"),
    ("Officer Reese Hatch", "9108"),
    ("Officer Parker Ingalls", "9109"),
    ("Officer Drew Jellison", "9110"),
    ("Officer Sage Kimball", "9111"),
    ("Officer Rowan Littlefield", "9112"),
];

const FIRST: &[&str] = &[
    "Alex",
    "Sam",
    "Jamie",
    "Chris",
    "Pat",
    "Robin",
    "Terry",
    "Dana",
    "Lee",
    "Kim",
    "Noel",
    "Marie-Claire",
    "José",
    "Zoë",
    "Seán",
    "Aaliyah",
    "Mateo",
    "Hannah",
    "Omar",
    "Priya",
];
const LAST: &[&str] = &[
    "Smith",
    "Pelletier",
    "O'Brien",
    "Nguyen",
    "García",
    "Thibodeau",
    "Murphy",
    "Lévesque",
    "Johnson",
    "Brown",
    "Dubois",
    "Ouellette",
    "Carter-Lee",
    "Haddad",
    "Kowalski",
    "Chen",
];
const STREETS: &[&str] = &[
    "Main Street",
    "Post Road",
    "Sanford Road",
    "Chapel Road",
    "Mile Road",
    "Bypass Road",
];
const TOWNS: &[&str] = &[
    "Wells",
    "Ogunquit",
    "Sanford",
    "Kennebunk",
    "Biddeford",
    "Portland",
];

/// What happened, weighted like a coastal summer town's calls.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scene {
    Blocking,
    Entrance,
    Alarm,
    Group,
    Noise,
    Picket,
}

const SCENES: &[(Scene, u32)] = &[
    (Scene::Blocking, 34),
    (Scene::Entrance, 20),
    (Scene::Alarm, 9),
    (Scene::Group, 11),
    (Scene::Noise, 21),
    (Scene::Picket, 5),
];

fn weighted<'a, T>(rng: &mut StdRng, items: &'a [T], weight: impl Fn(&T) -> u32) -> &'a T {
    let total: u32 = items.iter().map(&weight).sum();
    let mut pick = rng.gen_range(0..total);
    for item in items {
        let w = weight(item);
        if pick < w {
            return item;
        }
        pick -= w;
    }
    &items[items.len() - 1]
}

fn chance(rng: &mut StdRng, percent: u32) -> bool {
    rng.gen_range(0..100) < percent
}

/// An id made like the phone's (UUID v7 at `at`), from the seeded generator.
fn v7(rng: &mut StdRng, at: Moment) -> Uuid {
    uuid::Builder::from_unix_timestamp_millis(at.0.max(0) as u64, &rng.gen()).into_uuid()
}

/// Occurrence times over the period, busier in summer and in the afternoon and
/// evening, sorted so citation numbers follow the calendar.
fn occurrence_times(rng: &mut StdRng, n: u64, now: Moment, zone: &TownZone) -> Vec<Moment> {
    // Five years at a million; at least one year for small sets.
    let years = (n / 200_000).clamp(1, 10) as i64;
    let start = now.0 - years * 365 * DAY;
    let end = now.0 - 2 * 60 * MINUTE;
    let mut out = Vec::with_capacity(n as usize);
    while out.len() < n as usize {
        let at = Moment(rng.gen_range(start..end));
        let (date, hour, _) = zone.local_parts(at);
        let month: u32 = date[5..7].parse().unwrap_or(1);
        let season = match month {
            6..=8 => 100,
            5 | 9 => 60,
            _ => 25,
        };
        let daytime = match hour {
            13..=22 => 100,
            0 | 1 | 10..=12 | 23 => 55,
            _ => 15,
        };
        if rng.gen_range(0..100 * 100) < season * daytime {
            out.push(at);
        }
    }
    out.sort_unstable();
    out
}

fn person(rng: &mut StdRng) -> (Identity, Perceived) {
    let identity = if chance(rng, 80) {
        let first = FIRST[rng.gen_range(0..FIRST.len())];
        let last = LAST[rng.gen_range(0..LAST.len())];
        Identity::Identified {
            full_name: format!("{first} {last}"),
            date_of_birth: format!(
                "{}-{:02}-{:02}",
                rng.gen_range(1950..2008),
                rng.gen_range(1..=12),
                rng.gen_range(1..=28)
            ),
            address: format!(
                "{} {}, {}, ME",
                rng.gen_range(1..400),
                STREETS[rng.gen_range(0..STREETS.len())],
                TOWNS[rng.gen_range(0..TOWNS.len())]
            ),
            id_type: Some(IdType::ALL[rng.gen_range(0..IdType::ALL.len())]),
            id_number: Some(format!("{:07}", rng.gen_range(0..10_000_000))),
        }
    } else {
        let shirts = ["red", "blue", "white", "black", "green", "grey"];
        Identity::Described {
            description: format!(
                "wearing a {} shirt, about {} cm tall",
                shirts[rng.gen_range(0..shirts.len())],
                rng.gen_range(155..195)
            ),
        }
    };
    let age = *weighted(
        rng,
        &[
            (AgeRange::Under18, 8),
            (AgeRange::From18To24, 30),
            (AgeRange::From25To34, 25),
            (AgeRange::From35To49, 20),
            (AgeRange::From50To64, 10),
            (AgeRange::From65, 3),
            (AgeRange::Unknown, 4),
        ],
        |x| x.1,
    );
    let sex = *weighted(
        rng,
        &[
            (PerceivedSex::Male, 62),
            (PerceivedSex::Female, 34),
            (PerceivedSex::Unknown, 4),
        ],
        |x| x.1,
    );
    let race = *weighted(
        rng,
        &[
            (PerceivedRace::White, 84),
            (PerceivedRace::Black, 4),
            (PerceivedRace::Hispanic, 4),
            (PerceivedRace::Asian, 3),
            (PerceivedRace::NativeAmerican, 1),
            (PerceivedRace::MiddleEastern, 1),
            (PerceivedRace::Unknown, 3),
        ],
        |x| x.1,
    );
    (
        identity,
        Perceived {
            age_range: age.0,
            sex: sex.0,
            race: race.0,
        },
    )
}

/// One report and when it was submitted.
fn report(rng: &mut StdRng, at: Moment) -> (IncidentReport, Moment) {
    let scene = weighted(rng, SCENES, |s| s.1).0;
    let fitting: Vec<&Place> = PLACES
        .iter()
        .filter(|p| match scene {
            Scene::Blocking | Scene::Group => p.place.is_street_or_sidewalk(),
            Scene::Entrance => p.place == PlaceType::FrontOfBusiness,
            _ => true,
        })
        .collect();
    let where_ = *weighted(rng, &fitting, |p| p.weight);
    let gps = gps_near(rng, where_);
    let mut conduct = Conduct {
        remained_in_one_location: true,
        ..Conduct::default()
    };
    let persons = match scene {
        Scene::Group => rng.gen_range(2..=4),
        _ => weighted(rng, &[(1usize, 70), (2, 20), (3, 10)], |x| x.1).0,
    };
    let (protected, narrative, words, move_on) = setting(rng, scene, where_, &mut conduct);
    let protected_activity = protected_activity(protected);
    let mut narrative = narrative.to_owned();
    // Now and then a narrative describes who someone is, not what they did: the
    // chief's queue cautions on it.
    if chance(rng, 2) {
        narrative = format!("A transient man. {narrative}");
    }
    let order_given = matches!(protected_activity, ProtectedActivity::None) && chance(rng, 92);
    let given_at = Moment(at.0 + rng.gen_range(3..12) * MINUTE);
    let minutes = [0u32, 1, 2, 5][rng.gen_range(0..4)];
    let orders: Vec<DispersalOrder> = order_given
        .then(|| DispersalOrder {
            words: words.to_owned(),
            given_at,
            move_on,
            minutes_to_comply: minutes,
        })
        .into_iter()
        .collect();
    let incident_id = v7(rng, at);
    let scenario = Scenario {
        scene,
        persons,
        conduct: &conduct,
        protected_activity,
        order_given,
        given_at,
        minutes,
        at,
    };
    let subjects: Vec<SubjectEntry> = (0..persons)
        .map(|i| person_entry(rng, i, &scenario))
        .collect();
    let latest = subjects
        .iter()
        .filter_map(|s| s.facts.response.at())
        .fold(given_at, |latest, t| Moment(latest.0.max(t.0)));
    let report = IncidentReport {
        incident_id,
        occurred_at: at,
        location: Location {
            text: where_.text.to_owned(),
            place: where_.place,
            gps,
        },
        orders,
        narrative,
        subjects,
        numbers: Vec::new(),
        gathering: None,
    };
    let submitted = Moment(latest.0 + rng.gen_range(10..45) * MINUTE);
    (report, submitted)
}

/// The phone's fix, three times in four; one fix in a hundred is from
/// somewhere else entirely (a wrong address or a stale fix): the chief's queue
/// flags those.
fn gps_near(rng: &mut StdRng, where_: &Place) -> Option<GpsFix> {
    chance(rng, 75).then(|| {
        let (lat, lon) = if chance(rng, 1) {
            let other = &PLACES[rng.gen_range(0..PLACES.len())];
            (other.lat + 0.02, other.lon - 0.02)
        } else {
            (where_.lat, where_.lon)
        };
        GpsFix {
            latitude: lat + rng.gen_range(-0.0005..0.0005),
            longitude: lon + rng.gen_range(-0.0005..0.0005),
            accuracy_m: rng.gen_range(4.0..30.0),
        }
    })
}

/// What happened, by the scene: each person's conduct (set in `conduct`), the
/// §52-1 E answer's code, the narrative, the order's words and whether it said
/// to move on.
fn setting(
    rng: &mut StdRng,
    scene: Scene,
    where_: &Place,
    conduct: &mut Conduct,
) -> (&'static str, &'static str, &'static str, bool) {
    match scene {
        Scene::Blocking => {
            conduct.passage.pedestrians = true;
            conduct.passage.vehicles = chance(rng, 20);
            conduct.passage.place = Some(where_.place);
            (
                "none",
                "Stood across the sidewalk; pedestrians had to step into the road to pass.",
                "Stop blocking the way and move on.",
                true,
            )
        }
        Scene::Entrance => {
            conduct.interference.ingress_egress = true;
            conduct.interference.lawful_business = chance(rng, 50);
            (
                "none",
                "Stood in the shop's doorway; customers could not get in or out.",
                "Stop blocking the entrance and move on.",
                true,
            )
        }
        Scene::Alarm => {
            conduct.disturbance.discomfort_or_alarm = true;
            conduct.disturbance.person_lawfully_passing = true;
            (
                "none",
                "Followed people walking past, shouting at them; two said they were alarmed.",
                "Stop what you are doing.",
                false,
            )
        }
        Scene::Group => {
            conduct.group.others = rng.gen_range(0..3);
            conduct.group.obstructs_free_passage = true;
            conduct.passage.pedestrians = true;
            conduct.passage.place = Some(where_.place);
            (
                "none",
                "A group stood across the street and the sidewalk; traffic had to stop.",
                "Move on and disperse now.",
                true,
            )
        }
        Scene::Noise => {
            conduct.remained_in_one_location = chance(rng, 50);
            conduct.peace.loud_noise = true;
            conduct.peace.unusual_noise = chance(rng, 30);
            conduct.peace.unruly_or_boisterous_manner = chance(rng, 40);
            conduct.peace.boisterous_songs = chance(rng, 10);
            conduct.peace.disturbed_quiet_and_good_order = true;
            (
                "none",
                "Shouting and playing loud music after midnight; neighbours called twice.",
                "Stop the noise now.",
                false,
            )
        }
        Scene::Picket => {
            conduct.passage.pedestrians = chance(rng, 30);
            conduct.passage.place = conduct.passage.pedestrians.then_some(where_.place);
            (
                weighted(
                    rng,
                    &[
                        ("peaceful_picketing", 60),
                        ("public_speaking", 25),
                        ("other_lawful_expression", 15),
                    ],
                    |x| x.1,
                )
                .0,
                "Held signs about the zoning vote and spoke to passers-by.",
                "",
                false,
            )
        }
    }
}

fn protected_activity(code: &str) -> ProtectedActivity {
    match code {
        "peaceful_picketing" => ProtectedActivity::PeacefulPicketing,
        "public_speaking" => ProtectedActivity::PublicSpeaking,
        "other_lawful_expression" => ProtectedActivity::OtherLawfulExpression,
        _ => ProtectedActivity::None,
    }
}

/// What the persons of one report share: the scene, how many they are, the
/// conduct seen, the §52-1 E answer, and the order if one was given.
struct Scenario<'a> {
    scene: Scene,
    persons: usize,
    conduct: &'a Conduct,
    protected_activity: ProtectedActivity,
    order_given: bool,
    given_at: Moment,
    minutes: u32,
    at: Moment,
}

/// Person `i` of the report: who, their own conduct and response, the offence
/// their conduct suggests and whether the officer cites it.
fn person_entry(rng: &mut StdRng, i: usize, s: &Scenario<'_>) -> SubjectEntry {
    let (identity, perceived) = person(rng);
    // Each person answers for their own conduct: beside the first, one
    // in five only stood by.
    let bystander = i > 0 && s.scene != Scene::Group && chance(rng, 20);
    let mut own = if bystander {
        Conduct::default()
    } else {
        s.conduct.clone()
    };
    if s.scene == Scene::Group {
        own.group.stood_with = (0..s.persons).filter(|&j| j != i).collect();
    }
    let response = if !s.order_given {
        Response::NoOrder
    } else {
        let allowed = s.given_at.0 + i64::from(s.minutes) * MINUTE;
        let manner = RefusalManner::OFFERED[rng.gen_range(0..RefusalManner::OFFERED.len())];
        // Saying no is a refusal at once; staying put counts once the
        // time allowed has passed.
        let at = if manner.is_outright() && chance(rng, 10) {
            s.given_at.0
        } else {
            allowed + rng.gen_range(1..6) * MINUTE
        };
        match rng.gen_range(0..100) {
            0..=64 => Response::Complied {
                at: Moment(allowed.max(s.given_at.0 + MINUTE)),
            },
            65..=89 => Response::Refused {
                at: Moment(at),
                manner,
            },
            _ => Response::LeftBeforeOrder,
        }
    };
    let facts = PersonFacts {
        protected_activity: s.protected_activity,
        conduct: own,
        order: response.answers_an_order().then_some(0),
        response,
        arrested: false,
        place: None,
        contravenes: None,
    };
    // The most specific offence the person's conduct suggests (§52-2 over
    // §52-1(A)(1) for a group); a §52-2 citation is now and then an arrest.
    let offence = suggested_offences(&facts).last().copied();
    let charges: Vec<Charge> = match (response, offence) {
        (Response::Refused { .. }, Some(offence)) => vec![Charge {
            offence,
            issue_citation: chance(rng, 85),
        }],
        _ => Vec::new(),
    };
    let arrested = charges
        .iter()
        .any(|c| c.issue_citation && c.offence.permits_arrest())
        && chance(rng, 30);
    SubjectEntry {
        subject_id: v7(rng, s.at),
        identity,
        perceived,
        facts: PersonFacts { arrested, ..facts },
        charges,
        signature: None,
        not_recorded: Vec::new(),
    }
}

/// What became of an approved citation at the District Court by `now`, as the
/// clerk would have recorded it: filed within the filing days (§52-4 via the
/// filing rule of `model::court`), and most decided some weeks later — paid,
/// dismissed, defaulted, adjudicated — with a few contested and waiting for a
/// hearing. Only the last ten days' approvals still wait in the filing queue,
/// as in a department that keeps up.
async fn at_court(
    tx: &mut Conn,
    rng: &mut StdRng,
    clerk: &Actor,
    number: &str,
    approved: Moment,
    now: Moment,
    zone: &TownZone,
) -> Result<(), AppError> {
    if now.0 - approved.0 < 10 * DAY {
        return Ok(());
    }
    let filed = Moment(approved.0 + rng.gen_range(2..96) * 60 * MINUTE);
    let filed_on = zone.date(filed);
    let reference = format!(
        "YORDC-CV-{}-{:05}",
        &filed_on[..4],
        rng.gen_range(1..100_000)
    );
    let clerk_id = clerk.user_id.to_string();
    sqlx::query(
        "UPDATE citation SET status = 'filed', filed_on = $1, filing_reference = $2, filed_by = $3, \
         filed_at = $4, updated_at = $5 WHERE number = $6",
    )
    .bind(&filed_on)
    .bind(&reference)
    .bind(&clerk_id)
    .bind(filed.0)
    .bind(filed.0)
    .bind(number)
    .execute(&mut *tx)
    .await?;
    let filing = serde_json::json!({ "filed_on": filed_on, "reference": reference });
    court_event(tx, rng, number, "filed", &filing, &clerk_id, filed).await?;
    let decided = Moment(filed.0 + rng.gen_range(14..75) * DAY);
    if decided.0 > now.0 {
        return Ok(());
    }
    let costs = 500 * rng.gen_range(3..12);
    let fine = i64::from(domain::ordinance::Penalty::ARTICLE_I.fine_cents);
    let fined = (Some(fine), Some(costs));
    let (kind, paid, (fine_cents, costs_cents)) = match rng.gen_range(0..100) {
        0..=54 => (DispositionKind::Paid, Some(fine + costs), (None, None)),
        55..=64 => (DispositionKind::Dismissed, None, (None, None)),
        65..=74 => (DispositionKind::Defaulted, None, fined),
        75..=84 => (DispositionKind::Admitted, Some(fine + costs), fined),
        85..=91 => (DispositionKind::Guilty, None, fined),
        92..=96 => (DispositionKind::NotGuilty, None, (None, None)),
        _ => (DispositionKind::Contested, None, (None, None)),
    };
    let d = Disposition {
        kind,
        on: zone.date(decided),
        hearing_on: (!kind.is_final()).then(|| zone.date_after(decided, 30)),
        paid_cents: paid,
        fine_cents,
        costs_cents,
        reason: None,
        court_words: None,
    };
    let status = if kind.is_final() {
        CitationStatus::Disposed
    } else {
        CitationStatus::Filed
    };
    sqlx::query(
        "UPDATE citation SET status = $1, disposition = $2, disposition_on = $3, hearing_on = $4, paid_cents = $5, \
         fine_assessed_cents = $6, costs_assessed_cents = $7, updated_at = $8 WHERE number = $9",
    )
    .bind(status.code())
    .bind(kind.code())
    .bind(&d.on)
    .bind(&d.hearing_on)
    .bind(d.paid_cents)
    .bind(d.fine_cents)
    .bind(d.costs_cents)
    .bind(decided.0)
    .bind(number)
    .execute(&mut *tx)
    .await?;
    let details = serde_json::to_value(&d).map_err(|_| AppError::Internal)?;
    court_event(tx, rng, number, kind.code(), &details, &clerk_id, decided).await
}

async fn court_event(
    tx: &mut Conn,
    rng: &mut StdRng,
    number: &str,
    kind: &str,
    details: &serde_json::Value,
    clerk_id: &str,
    at: Moment,
) -> Result<(), AppError> {
    sqlx::query(
        "INSERT INTO court_event (event_id, number, kind, details, actor_id, at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(v7(rng, at).to_string())
    .bind(number)
    .bind(kind)
    .bind(details.to_string())
    .bind(clerk_id)
    .bind(at.0)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// The seed accounts (disabled: no one signs in as them), made once and found
/// again by username on a later run.
async fn accounts(store: &Store, now: Moment) -> Result<(Vec<Actor>, Actor, Actor), AppError> {
    let mut wanted: Vec<(String, String, Option<String>, Role)> = OFFICERS
        .iter()
        .enumerate()
        .map(|(i, (name, badge))| {
            (
                format!("{SEED_USER_PREFIX}officer-{:02}", i + 1),
                (*name).to_owned(),
                Some((*badge).to_owned()),
                Role::Officer,
            )
        })
        .collect();
    wanted.push((
        format!("{SEED_USER_PREFIX}chief"),
        "Chief (seed data)".to_owned(),
        None,
        Role::Chief,
    ));
    wanted.push((
        format!("{SEED_USER_PREFIX}clerk"),
        "Court clerk (seed data)".to_owned(),
        None,
        Role::Clerk,
    ));
    let mut tx = store.begin_write().await?;
    let mut actors = Vec::new();
    for (username, full_name, badge_number, role) in wanted {
        // "!" is no password hash at all: nothing ever verifies against it.
        sqlx::query(
            "INSERT INTO app_user (user_id, username, full_name, badge_number, password_hash, active, \
             created_at, updated_at) VALUES ($1, $2, $3, $4, '!', 0, $5, $6) ON CONFLICT (username) DO NOTHING",
        )
        .bind(Uuid::now_v7().to_string())
        .bind(&username)
        .bind(&full_name)
        .bind(&badge_number)
        .bind(now.0)
        .bind(now.0)
        .execute(&mut *tx)
        .await?;
        let id: String = sqlx::query_scalar("SELECT user_id FROM app_user WHERE username = $1")
            .bind(&username)
            .fetch_one(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO user_role (user_id, role) VALUES ($1, $2) ON CONFLICT DO NOTHING")
            .bind(&id)
            .bind(role.code())
            .execute(&mut *tx)
            .await?;
        actors.push(Actor::resolved(Me {
            user_id: crate::incidents::parse_uuid(&id)?,
            username,
            full_name,
            badge_number,
            roles: vec![role],
            must_change_password: false,
            needs_second_factor: false,
        }));
    }
    tx.commit().await?;
    let clerk = actors.pop().ok_or(AppError::Internal)?;
    let chief = actors.pop().ok_or(AppError::Internal)?;
    Ok((actors, chief, clerk))
}

/// Incidents by anyone but the seed accounts.
pub async fn real_incidents(store: &Store) -> Result<i64, AppError> {
    Ok(sqlx::query_scalar(
        "SELECT COUNT(*) FROM incident i JOIN app_user u ON u.user_id = i.officer_id \
         WHERE substr(u.username, 1, length($1)) <> $1",
    )
    .bind(SEED_USER_PREFIX)
    .fetch_one(&store.reader)
    .await?)
}

pub async fn seed(
    store: &Store,
    zone: &TownZone,
    plan: SeedPlan,
    now: Moment,
) -> Result<SeedSummary, AppError> {
    let real = real_incidents(store).await?;
    if real > 0 && !plan.force {
        return Err(AppError::conflict(format!(
            "This database holds {real} real incident(s); seed data would mix with them. \
             Use an empty database, or pass --force."
        )));
    }
    let (officers, chief, clerk) = accounts(store, now).await?;
    let desk = Desk {
        officers: &officers,
        chief: &chief,
        clerk: &clerk,
        zone,
        now,
    };
    let mut rng = StdRng::seed_from_u64(plan.seed);
    // The court's side has its own stream, so the incidents a seed makes do not
    // change with how their citations fare at court.
    let mut court_rng = StdRng::seed_from_u64(plan.seed ^ 0xC0_7A7);
    let times = occurrence_times(&mut rng, plan.incidents, now, zone);
    let mut summary = SeedSummary::default();
    for batch in times.chunks(BATCH) {
        let mut tx = store.begin_write().await?;
        for &at in batch {
            let streams = Streams {
                incidents: &mut rng,
                court: &mut court_rng,
            };
            seed_incident(&mut tx, &desk, streams, at, &mut summary).await?;
        }
        crate::register_text::flush(&mut tx).await?;
        tx.commit().await?;
    }
    record_run(store, plan, &summary, real, now).await?;
    // Counted now, not by the first chief to open the dashboard.
    crate::dashboard::rollup::refresh(store).await?;
    Ok(summary)
}

/// Who works the synthetic year: the officers, the chief who reviews, the
/// clerk who files; the Town's zone and the end of the period.
struct Desk<'a> {
    officers: &'a [Actor],
    chief: &'a Actor,
    clerk: &'a Actor,
    zone: &'a TownZone,
    now: Moment,
}

/// The two random streams: the incidents', and the court's.
struct Streams<'a> {
    incidents: &'a mut StdRng,
    court: &'a mut StdRng,
}

/// One incident, from the officer's report to the chief's decision and the
/// court, written as a real one is.
async fn seed_incident(
    tx: &mut Conn,
    desk: &Desk<'_>,
    streams: Streams<'_>,
    at: Moment,
    summary: &mut SeedSummary,
) -> Result<(), AppError> {
    let rng = streams.incidents;
    let (now, zone) = (desk.now, desk.zone);
    let officer = &desk.officers[rng.gen_range(0..desk.officers.len())];
    let (mut report, submitted) = report(rng, at);
    let verdicts = checked_or_warned(&mut report, submitted)?;
    // A week's reports still wait for review; older ones were decided.
    let status = if now.0 - submitted.0 < 7 * DAY {
        ReportStatus::Submitted
    } else if chance(rng, 3) {
        ReportStatus::Returned
    } else {
        ReportStatus::Approved
    };
    write_version(
        tx,
        Version {
            report: &report,
            verdicts: &verdicts,
            officer_id: &officer.user_id.to_string(),
            status,
            revision: 1,
            kind: "submitted",
            reason: None,
            actor: officer,
            now: submitted,
            zone,
            cautions: None,
        },
    )
    .await?;
    let numbers = write_persons(tx, officer, &report, &verdicts, submitted, zone, summary).await?;
    summary.incidents += 1;
    summary.citations += numbers.len() as u64;
    let review = Review {
        report: &report,
        status,
        submitted,
        numbers: &numbers,
    };
    decide_review(tx, desk, rng, streams.court, review, summary).await
}

/// The report as the rules take it; where they refuse a charge (an element
/// missing in this combination), the officer would have warned instead, and
/// failing that charged nothing.
fn checked_or_warned(
    report: &mut IncidentReport,
    submitted: Moment,
) -> Result<Vec<domain::model::incident::SubjectVerdict>, AppError> {
    if let Ok(verdicts) = domain::model::incident::check(report, submitted) {
        return Ok(verdicts);
    }
    for s in &mut report.subjects {
        s.facts.arrested = false;
        for c in &mut s.charges {
            c.issue_citation = false;
        }
    }
    if let Ok(verdicts) = domain::model::incident::check(report, submitted) {
        return Ok(verdicts);
    }
    for s in &mut report.subjects {
        s.charges.clear();
    }
    domain::model::incident::check(report, submitted)
}

/// Each person of the report and their citations; the numbers issued.
async fn write_persons(
    tx: &mut Conn,
    officer: &Actor,
    report: &IncidentReport,
    verdicts: &[domain::model::incident::SubjectVerdict],
    submitted: Moment,
    zone: &TownZone,
    summary: &mut SeedSummary,
) -> Result<Vec<String>, AppError> {
    let issuing = Issuing {
        officer,
        source: Some("seed"),
        now: submitted,
        zone,
    };
    let mut numbers = Vec::new();
    for (position, (subject, verdict)) in report.subjects.iter().zip(verdicts).enumerate() {
        let outcome = verdict.outcome.clone().map_err(|_| AppError::Internal)?;
        write_subject(tx, report.incident_id, position, subject, outcome).await?;
        summary.persons += 1;
        for offence in subject.cited_offences(outcome) {
            numbers.push(
                issue_citation(tx, issuing, report.incident_id, subject, offence, None).await?,
            );
        }
    }
    Ok(numbers)
}

/// A report's decision as the chief takes it.
struct Review<'a> {
    report: &'a IncidentReport,
    status: ReportStatus,
    submitted: Moment,
    numbers: &'a [String],
}

/// The chief's decision: none yet, returned, or approved (now and then with
/// one citation voided), and the approved citations' life at court.
async fn decide_review(
    tx: &mut Conn,
    desk: &Desk<'_>,
    rng: &mut StdRng,
    court_rng: &mut StdRng,
    review: Review<'_>,
    summary: &mut SeedSummary,
) -> Result<(), AppError> {
    let Review {
        report,
        status,
        submitted,
        numbers,
    } = review;
    let (chief, clerk, now, zone) = (desk.chief, desk.clerk, desk.now, desk.zone);
    let decided = Moment(submitted.0 + rng.gen_range(2..72) * 60 * MINUTE);
    let decision_ids = [v7(rng, decided), v7(rng, decided)];
    let void_one = chance(rng, 2);
    let id = report.incident_id.to_string();
    let chief_id = chief.user_id.to_string();
    let decide = |n: usize,
                  action: &'static str,
                  citation: Option<String>,
                  reason: Option<&'static str>| {
        sqlx::query(
            "INSERT INTO review_decision (decision_id, incident_id, revision, action, citation, reason, actor_id, at) \
             VALUES ($1, $2, 1, $3, $4, $5, $6, $7)",
        )
        .bind(decision_ids[n].to_string())
        .bind(id.clone())
        .bind(action)
        .bind(citation)
        .bind(reason)
        .bind(chief_id.clone())
        .bind(decided.0)
    };
    match status {
        ReportStatus::Submitted => {}
        ReportStatus::Returned => {
            let reason = "Give the exact words of the order and the time allowed.";
            decide(0, "return", None, Some(reason))
                .execute(&mut *tx)
                .await?;
            sqlx::query("UPDATE incident SET return_reason = $1, reviewed_by = $2, reviewed_at = $3 WHERE incident_id = $4")
                .bind(reason)
                .bind(chief.user_id.to_string())
                .bind(decided.0)
                .bind(&id)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "UPDATE citation SET status = 'returned', updated_at = $1 WHERE incident_id = $2",
            )
            .bind(decided.0)
            .bind(&id)
            .execute(&mut *tx)
            .await?;
            summary.returned += 1;
        }
        ReportStatus::Approved => {
            decide(0, "approve", None, None).execute(&mut *tx).await?;
            sqlx::query(
                "UPDATE incident SET reviewed_by = $1, reviewed_at = $2 WHERE incident_id = $3",
            )
            .bind(chief.user_id.to_string())
            .bind(decided.0)
            .bind(&id)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE citation SET status = 'approved', reviewed_by = $1, reviewed_at = $2, updated_at = $3 \
                 WHERE incident_id = $4",
            )
            .bind(chief.user_id.to_string())
            .bind(decided.0)
            .bind(decided.0)
            .bind(&id)
            .execute(&mut *tx)
            .await?;
            if let Some(number) = numbers.first().filter(|_| void_one) {
                let reason = "Entered against the wrong person.";
                decide(1, "void", Some(number.clone()), Some(reason))
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(
                    "UPDATE citation SET status = 'void', void_reason = $1, voided_by = $2, voided_at = $3, \
                     updated_at = $4 WHERE number = $5",
                )
                .bind(reason)
                .bind(chief.user_id.to_string())
                .bind(decided.0)
                .bind(decided.0)
                .bind(number)
                .execute(&mut *tx)
                .await?;
                summary.voided += 1;
            }
            for number in numbers.iter().skip(usize::from(void_one)) {
                at_court(tx, court_rng, clerk, number, decided, now, zone).await?;
            }
        }
    }
    Ok(())
}

/// The run's one audit entry: a million incidents do not carry a million
/// audit records of events that never happened.
async fn record_run(
    store: &Store,
    plan: SeedPlan,
    summary: &SeedSummary,
    real: i64,
    now: Moment,
) -> Result<(), AppError> {
    let mut tx = store.begin_write().await?;
    let event = Event::new("seed.run", AuditOutcome::Success)
        .by(None, Some("cli"))
        .on("database", "seed")
        .after(serde_json::json!({
            "seed": plan.seed,
            "incidents": summary.incidents,
            "persons": summary.persons,
            "citations": summary.citations,
            "returned": summary.returned,
            "voided": summary.voided,
            "forced": plan.force && real > 0,
        }));
    audit::append(&mut tx, now, &event).await?;
    tx.commit().await?;
    Ok(())
}
