//! An Article II report's gathering as data (§52-7): the counts and their
//! times, what shows the attendance it was intended to attract, and the
//! officer's answer about the permit register, each problem named by the field
//! the gathering page shows it beside. Whether the facts make a §52-7 violation
//! is the rules' ([`crate::ordinance::article_ii::enforcement`]); whether the
//! answer agrees with the register is the server's check of the register
//! ([`crate::ordinance::article_ii::enforcement::register_problems`]).

use crate::error::FieldError;
use crate::model::text::{has_control, short_text, too_long};
use crate::ordinance::article_ii::enforcement::{GatheringScene, PermitCheck};
use crate::ordinance::article_ii::requirements::MAX_ATTENDANCE;
use crate::ordinance::time::is_future;
use crate::ordinance::Moment;

/// Most counts one report holds: one every half hour of a long day.
pub const MAX_COUNTS: usize = 48;

/// Longest a gathering is taken to last or to be meant to last: 31 days.
const MAX_MINUTES: u32 = 31 * 24 * 60;

/// Everything wrong with `scene` as data, for a gathering that began at
/// `occurred_at`, checked at `now`.
pub fn scene_problems(scene: &GatheringScene, occurred_at: Moment, now: Moment) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let earlier_form = scene.counted > 0 || scene.minutes > 0 || scene.count_method.is_some();
    if earlier_form {
        earlier_form_problems(&mut errors, scene);
    } else if scene.counts.is_empty() && scene.intended.is_none() {
        errors.push(FieldError::new(
            "gathering.counts",
            "Counts (§52-7): record at least one count of the persons present, with its time — or what \
             shows the attendance it was meant to attract (tickets sold).",
        ));
    }
    count_problems(&mut errors, scene, occurred_at, now);
    intended_problems(&mut errors, scene);
    permit_problems(&mut errors, &scene.permit);
    errors
}

/// A report in the earlier form (one count and a duration, as reports were
/// stored before counts over time): read and amended as it was, never mixed
/// with counts.
fn earlier_form_problems(errors: &mut Vec<FieldError>, scene: &GatheringScene) {
    if !scene.counts.is_empty() || scene.intended.is_some() {
        errors.push(FieldError::new(
            "gathering.counts",
            "Counts (§52-7): record the counts over time in place of the earlier single count, not \
             beside it.",
        ));
    }
    if scene.counted == 0 || scene.counted > MAX_ATTENDANCE {
        errors.push(FieldError::new(
            "gathering.counted",
            format!("Persons counted: 1 to {MAX_ATTENDANCE} (§52-7 counts 500 or more)."),
        ));
    }
    if scene.minutes == 0 || scene.minutes > MAX_MINUTES {
        errors.push(FieldError::new(
            "gathering.minutes",
            "How long: the hours the gathering has lasted or is announced to last (§52-7 counts two or \
             more), at most 31 days.",
        ));
    }
}

fn count_problems(
    errors: &mut Vec<FieldError>,
    scene: &GatheringScene,
    occurred_at: Moment,
    now: Moment,
) {
    if scene.counts.len() > MAX_COUNTS {
        errors.push(FieldError::new(
            "gathering.counts",
            format!("Counts: at most {MAX_COUNTS} in one report."),
        ));
        return;
    }
    for (k, count) in scene.counts.iter().enumerate() {
        if count.persons == 0 || count.persons > MAX_ATTENDANCE {
            errors.push(FieldError::new(
                format!("gathering.counts.{k}.persons"),
                format!(
                    "Count {}: 1 to {MAX_ATTENDANCE} persons (§52-7 counts 500 or more).",
                    k + 1
                ),
            ));
        }
        if count.at < occurred_at || is_future(count.at, now) {
            errors.push(FieldError::new(
                format!("gathering.counts.{k}.at"),
                format!(
                    "Time of count {}: after the gathering began and not in the future — check the time.",
                    k + 1
                ),
            ));
        }
    }
}

fn intended_problems(errors: &mut Vec<FieldError>, scene: &GatheringScene) {
    let Some(intended) = &scene.intended else {
        return;
    };
    short_text(
        errors,
        "gathering.intended.source".into(),
        &intended.source,
        "Where it is shown (§52-7)",
        true,
    );
    if intended.minutes == 0 || intended.minutes > MAX_MINUTES {
        errors.push(FieldError::new(
            "gathering.intended.minutes",
            "Hours advertised or ticketed: how long the attendance is meant to continue (§52-7 counts two \
             or more), at most 31 days.",
        ));
    }
    if intended
        .persons
        .is_some_and(|p| p == 0 || p > MAX_ATTENDANCE)
    {
        errors.push(FieldError::new(
            "gathering.intended.persons",
            format!("Persons the tickets or the advertising show: 1 to {MAX_ATTENDANCE}, or leave it blank."),
        ));
    }
}

/// A permit number as the register writes it (`MG-YYYY-NNNN`), of a sane size.
fn plausible_number(number: &str) -> bool {
    !number.trim().is_empty() && !too_long(number, 40) && !has_control(number)
}

fn permit_problems(errors: &mut Vec<FieldError>, permit: &PermitCheck) {
    match permit {
        PermitCheck::Held { number } | PermitCheck::Chapter55 { number } => {
            if !plausible_number(number) {
                errors.push(FieldError::new(
                    "gathering.permit",
                    "Permit: its number as the register shows it (MG-YYYY-NNNN).",
                ));
            }
        }
        PermitCheck::NoneFound { not_this } => {
            for (k, other) in not_this.iter().enumerate() {
                let field = format!("gathering.permit.not_this.{k}");
                if !plausible_number(&other.number)
                    || not_this[..k]
                        .iter()
                        .any(|o| o.number.trim() == other.number.trim())
                {
                    errors.push(FieldError::new(
                        field.clone(),
                        "Permit: each permit of the day set aside once, by its number as the register \
                         shows it.",
                    ));
                }
                short_text(
                    errors,
                    field,
                    &other.why,
                    &format!("Why {} is another gathering (§52-7)", other.number.trim()),
                    true,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ordinance::article_ii::enforcement::{
        Count, CountMethod, Intended, IntentEvidence, NotThis,
    };
    use crate::ordinance::article_ii::Venue;

    const BEGAN: Moment = Moment(1_790_000_000_000);

    fn scene() -> GatheringScene {
        GatheringScene {
            outdoor: true,
            counted: 0,
            count_method: None,
            minutes: 0,
            venue: Venue::Open,
            permit: PermitCheck::none_found(),
            counts: vec![Count {
                at: BEGAN,
                persons: 2_400,
                method: CountMethod::GateCount,
            }],
            intended: None,
        }
    }

    fn fields(scene: &GatheringScene) -> Vec<String> {
        scene_problems(scene, BEGAN, BEGAN.plus_minutes(300))
            .into_iter()
            .map(|e| e.field)
            .collect()
    }

    #[test]
    fn each_problem_of_a_gathering_is_named_by_its_field() {
        assert_eq!(fields(&scene()), Vec::<String>::new());
        let nothing = GatheringScene {
            counts: Vec::new(),
            ..scene()
        };
        assert_eq!(fields(&nothing), ["gathering.counts"]);
        let mut bad = scene();
        bad.counts.push(Count {
            at: BEGAN.plus_minutes(600),
            persons: 0,
            method: CountMethod::HeadCount,
        });
        assert_eq!(
            fields(&bad),
            ["gathering.counts.1.persons", "gathering.counts.1.at"]
        );
        let unnamed = GatheringScene {
            intended: Some(Intended {
                evidence: IntentEvidence::AdvertisedHours,
                source: String::new(),
                minutes: 0,
                persons: Some(0),
            }),
            ..scene()
        };
        assert_eq!(
            fields(&unnamed),
            [
                "gathering.intended.source",
                "gathering.intended.minutes",
                "gathering.intended.persons"
            ]
        );
        let set_aside = GatheringScene {
            permit: PermitCheck::NoneFound {
                not_this: vec![NotThis {
                    number: "MG-2026-0001".into(),
                    why: " ".into(),
                }],
            },
            ..scene()
        };
        assert_eq!(fields(&set_aside), ["gathering.permit.not_this.0"]);
        let mixed = GatheringScene {
            counted: 2_400,
            count_method: Some(CountMethod::GateCount),
            minutes: 180,
            ..scene()
        };
        assert_eq!(fields(&mixed), ["gathering.counts"]);
        let earlier = GatheringScene {
            counts: Vec::new(),
            ..mixed
        };
        assert_eq!(fields(&earlier), Vec::<String>::new(), "as stored before");
    }
}
