//! The Board of Selectmen's written decision on a mass-gathering permit
//! application (§52-9 B): the permit with its conditions, or the written
//! denial with every reason and the steps to a permit.

use super::pdf::Document;
use domain::model::civil;
use domain::model::permit::PermitRecord;
use domain::ordinance::article_ii::{calendar, Shortfall};
use domain::ordinance::penalty::dollars;

fn money(cents: u64) -> String {
    dollars(i64::try_from(cents).unwrap_or(i64::MAX))
}

/// The "should" standards open at the decision: advice, not conditions and not
/// grounds (§52-8 A).
fn advice_lines(doc: &mut Document, advice: &[Shortfall]) {
    if advice.is_empty() {
        return;
    }
    doc.heading("Advice (§52-10: \"should\")");
    doc.text("The ordinance says these \"should\" be provided; they are advice to the operator, not conditions of the permit nor grounds of a denial (§52-8).", 10.0, false);
    for s in advice {
        doc.text(&s.reason(), 10.0, true);
        doc.text(&format!("Advised: {}", s.step), 10.0, false);
    }
}

/// The Board's action, where the decision records it (issue #37): the
/// meeting, the motion and the vote. Decisions recorded before print as they
/// did.
fn board_lines(doc: &mut Document, d: &domain::model::permit::DecisionRecord) {
    if let Some(b) = &d.board {
        doc.field(
            "By the Board",
            &format!(
                "at its meeting of {}. {}.",
                civil::date_text(b.meeting_day),
                b.motion_text()
            ),
        );
    }
}

/// The permit (issued) or the written denial (denied or deemed denied); `None`
/// while undecided.
pub fn pdf(record: &PermitRecord) -> Option<Vec<u8>> {
    let decision = record.decision.as_ref();
    let deemed = record.state == domain::model::permit::PermitState::DeemedDenied;
    if decision.is_none() && !deemed {
        return None;
    }
    if let Some(d) = decision.filter(|d| d.chapter_55) {
        let mut doc = Document::new();
        doc.text("TOWN OF WELLS, MAINE — BOARD OF SELECTMEN", 9.0, true);
        doc.text("DETERMINATION UNDER §52-7", 16.0, true);
        doc.gap(8.0);
        doc.field("Application", &record.number);
        doc.field("Operator", &record.application.operator);
        doc.field("Place", &record.application.place);
        doc.field("Determined", &civil::date_text(d.day));
        board_lines(&mut doc, d);
        doc.text(
            "The Board of Selectmen, in its discretion under §52-7, determines that the permit for this \
             gathering shall be issued under Chapter 55 of the Code of the Town of Wells (outdoor festivals \
             and special amusements). The operator applies under that chapter.",
            10.0,
            false,
        );
        doc.gap(18.0);
        doc.signature_line("For the Board of Selectmen");
        return Some(doc.finish(&format!("Determination {}", record.number)));
    }
    let issued = decision.is_some_and(|d| d.issued);
    let a = &record.application;
    let mut doc = Document::new();
    doc.text("TOWN OF WELLS, MAINE — BOARD OF SELECTMEN", 9.0, true);
    doc.text(
        if issued {
            "MASS OUTDOOR GATHERING PERMIT"
        } else {
            "WRITTEN DENIAL OF A MASS OUTDOOR GATHERING PERMIT"
        },
        16.0,
        true,
    );
    doc.text(
        "Town Code Chapter 52, Article II (§52-5 to §52-12)",
        9.0,
        false,
    );
    doc.gap(8.0);
    doc.field("Application", &record.number);
    doc.field("Operator", &a.operator);
    doc.field("Address", &a.operator_address);
    if !a.sponsor.trim().is_empty() {
        doc.field("Sponsor", &a.sponsor);
    }
    doc.field("Landowner", &a.landowner);
    doc.field("Place", &a.place);
    let days = if a.first_day == a.last_day {
        a.first_day.clone()
    } else {
        format!("{} to {}", a.first_day, a.last_day)
    };
    doc.field(
        "Days and hours",
        &format!("{days}, {} to {} each day", a.starts, a.ends),
    );
    doc.field("Persons", &a.attendance.to_string());
    doc.field("Filed", &record.filed_day);
    if let Some(day) = &record.consideration_day {
        doc.field("Considered", day);
    }
    match (decision, issued) {
        (Some(d), true) => {
            doc.field("Issued", &civil::date_text(d.day));
            board_lines(&mut doc, d);
            doc.heading("Conditions (§52-10, §52-11, §52-9 D)");
            doc.text("This permit is issued on the application as filed (revision shown below) and on these conditions, each a standard of Chapter 52:", 10.0, false);
            if let Some(need) = &record.requirements {
                let lines = [
                    format!("§52-10(2)(e): at least {} parking spaces, no more than 100 cars or 30 buses per usable acre; service roads 12 feet a lane, 7 feet a parallel parking lane.", need.parking_spaces),
                    format!("§52-10(2)(f): at least {} square feet for the assemblage; no overnight assemblage.", need.site_square_feet),
                    format!("§52-10(4): at least {} gallons of water a day{}; {} toilets for men and {} for women, one for each 350 of the {} men and the {} women each serves.", need.water_gallons_per_day, need.water_psi.map(|p| format!(" at {p} psi")).unwrap_or_default(), need.toilets_men, need.toilets_women, need.served.men, need.served.women),
                    format!("§52-10(5): {} fifty-gallon (or {} sixteen-yard) refuse containers, {} (or {}) where cars and buses park; {} collections; grounds cleared within {} hours.", need.refuse.fifty_gallon, need.refuse.sixteen_cubic_yard, need.parking_refuse.fifty_gallon, need.parking_refuse.sixteen_cubic_yard, need.collections, need.clear_within_hours),
                    "§52-10(7): the Wells Fire Department informed; fire prevention equipment available.".to_owned(),
                    format!("§52-10(7)(e): at least {} law enforcement officers on site.", need.officers),
                    "§52-10(8): emergency medical services under a licensed physician, a first aid building or tent, licensed ambulances on site throughout, telephone and radio, area hospitals told.".to_owned(),
                    format!("§52-10(9): {}.", domain::ordinance::article_ii::requirements::sound_text(record.sound_limit_dba)),
                    format!("§52-11: public liability insurance of at least {} / {} bodily injury and {} property damage.", money(need.insurance_per_person_cents), money(need.insurance_per_occurrence_cents), money(need.insurance_property_cents)),
                    format!("§52-9 D: bond of {} furnished; deposit of {} held against the Town's public costs, settled after the gathering.", money(record.clerk.bond_cents.unwrap_or(0)), money(record.clerk.deposit_cents.unwrap_or(0))),
                ];
                for line in lines {
                    doc.text(&line, 10.0, false);
                }
            }
            advice_lines(&mut doc, &d.advice);
            doc.field("Revision", &d.revision.to_string());
            doc.text(
                &format!(
                    "A violation of Article II is subject to a fine of {}.",
                    domain::ordinance::Penalty::ARTICLE_II.statement()
                ),
                10.0,
                false,
            );
            doc.gap(18.0);
            doc.signature_line("For the Board of Selectmen");
        }
        (Some(d), false) => {
            doc.field("Denied", &civil::date_text(d.day));
            board_lines(&mut doc, d);
            doc.heading("Reasons and steps (§52-9 B(2))");
            doc.text("The Board of Selectmen finds that the following standards of Chapter 52 are not met (§52-8 B). Each reason is followed by a step which, if followed by the operator, would result in a permit being issued.", 10.0, false);
            for (i, s) in d.reasons.iter().enumerate() {
                doc.text(&format!("{}. {}", i + 1, s.reason()), 10.0, true);
                doc.text(&format!("Step: {}", s.step), 10.0, false);
            }
            advice_lines(&mut doc, &d.advice);
            doc.heading("Appeal (§52-9 C)");
            doc.text(calendar::APPEAL, 10.0, false);
            doc.gap(18.0);
            doc.signature_line("For the Board of Selectmen");
        }
        (None, _) => {
            doc.heading("Deemed denied (§52-9 B(3))");
            doc.text(&format!(
                "The Board of Selectmen considered the application on {} and neither issued a permit nor sent a written denial within {} days; the permit is therefore deemed denied (§52-9 B(3)).",
                record.consideration_day.clone().unwrap_or_default(),
                calendar::DECISION_DAYS
            ), 10.0, false);
            doc.heading("Appeal (§52-9 C)");
            doc.text(calendar::APPEAL, 10.0, false);
        }
    }
    let title = if issued {
        format!("Permit {}", record.number)
    } else {
        format!("Denial {}", record.number)
    };
    Some(doc.finish(&title))
}
