//! Pieces of a permit record every reader sees: the summary, the decision
//! (the permit's conditions, or the denial's reasons and steps) and the list of
//! unmet standards.

use crate::model::text::grouped;
use leptos::prelude::*;

use super::form::RequirementList;
use crate::model::permit::{BoardFinding, DecisionRecord, PermitRecord, PermitState};
use crate::ordinance::article_ii::{calendar, Shortfall};

fn badge(state: PermitState) -> &'static str {
    match state {
        PermitState::Issued | PermitState::Settled => "badge ok",
        PermitState::Denied | PermitState::DeemedDenied => "badge bad",
        _ => "badge warn",
    }
}

#[component]
pub fn StateBadge(state: PermitState) -> impl IntoView {
    view! { <span class=badge(state) data-testid="permit-state">{state.label()}</span> }
}

/// An amount the Town Clerk recorded, as the Town prints it.
fn money(cents: u64) -> String {
    crate::ordinance::penalty::dollars(i64::try_from(cents).unwrap_or(i64::MAX))
}

#[component]
pub fn PermitSummary(record: PermitRecord) -> impl IntoView {
    let a = &record.application;
    let days = if a.first_day == a.last_day {
        a.first_day.clone()
    } else {
        format!("{} to {}", a.first_day, a.last_day)
    };
    let rows: Vec<(&str, String)> = vec![
        ("Application", record.number.clone()),
        ("Operator", a.operator.clone()),
        ("Place", a.place.clone()),
        ("Days", format!("{days}, {} to {}", a.starts, a.ends)),
        ("Persons expected", grouped(i64::from(a.attendance))),
        (
            "Filed",
            format!("{} ({})", record.filed_day, record.channel),
        ),
        (
            "Fee (§52-9 A)",
            match (&record.clerk.fee_receipt, record.clerk.fee_cents) {
                (Some(r), Some(cents)) => format!("{} received, receipt {r}", money(cents)),
                (Some(r), None) => format!(
                    "{} received, receipt {r}",
                    crate::ordinance::article_ii::Requirements::fee_text()
                ),
                _ => "not yet recorded".to_owned(),
            },
        ),
        // The amounts the Town Clerk recorded (issue #37: the record said
        // what was recorded, not how much).
        (
            "Estimate, bond and deposit (§52-9 D)",
            match (
                record.clerk.estimated_costs_cents,
                record.clerk.bond_cents,
                record.clerk.deposit_cents,
            ) {
                (Some(estimate), Some(bond), Some(deposit)) => format!(
                    "public costs estimated at {}; bond {}; deposit {}",
                    money(estimate),
                    money(bond),
                    money(deposit)
                ),
                _ => "not yet recorded".to_owned(),
            },
        ),
        (
            "Before the Selectmen",
            match (&record.consideration_day, &record.decide_by) {
                (Some(day), Some(by)) => format!("{day}; decision due by {by} (§52-9 B)"),
                (Some(day), None) => day.clone(),
                _ => "not yet scheduled".to_owned(),
            },
        ),
    ];
    view! {
        <section class="panel" aria-labelledby="summary">
            <h2 id="summary">{record.number.clone()}" "<StateBadge state=record.state/></h2>
            <dl class="facts">
                {rows.into_iter().map(|(k, v)| view! { <dt>{k}</dt><dd>{v}</dd> }).collect_view()}
            </dl>
            {record.settlement.as_ref().map(|s| view! {
                <p class="notice" data-testid="settlement">{s.text()}</p>
            })}
        </section>
    }
}

/// The "should" standards not met: advice, listed apart from the grounds; the
/// Board may issue with them open (§52-8 A).
#[component]
pub fn AdviceList(
    list: Vec<Shortfall>,
    #[prop(default = "advice")] testid: &'static str,
) -> impl IntoView {
    view! {
        <div class="advice" data-testid=testid>
            <p class="hint">"Advice — the ordinance says these \"should\" be provided (§52-10(2)(e), (5)(b), (5)(c)); they are not grounds to deny, and the Board may issue with them open (§52-8 A):"</p>
            <ul class="shortfalls">
                {list.into_iter().map(|s| view! {
                    <li><strong>{s.reason()}</strong><br/>"Advised: "{s.step.clone()}</li>
                }).collect_view()}
            </ul>
        </div>
    }
}

#[component]
pub fn ShortfallList(list: Vec<Shortfall>) -> impl IntoView {
    view! {
        <ol class="shortfalls" data-testid="shortfalls">
            {list.into_iter().map(|s| view! {
                <li><strong>{s.reason()}</strong><br/>"Step: "{s.step.clone()}</li>
            }).collect_view()}
        </ol>
    }
}

/// How the Board decided, where the record keeps it (issue #37): the meeting,
/// the motion and the vote, and who recorded it. Decisions recorded before say
/// nothing more than they did.
#[component]
fn BoardLine(decision: DecisionRecord) -> impl IntoView {
    decision.board.map(|b| {
        view! {
            <p data-testid="decision-board">{format!(
                "Decided by the Board of Selectmen at its meeting of {}. {}. Recorded by {} on {}.",
                crate::model::civil::date_text(b.meeting_day),
                b.motion_text(),
                b.recorded_by,
                crate::model::civil::date_text(b.recorded_day),
            )}</p>
        }
    })
}

/// The Board's findings (§52-8 B), each open until the Board marks it met:
/// what it found, the step, the operator's answer, and when it was met.
/// `act` adds, under each open finding, what the reader may do about it (the
/// operator's answer, the Board's marking it met).
#[component]
pub fn FindingsList(
    findings: Vec<BoardFinding>,
    /// What the reader may do about an open finding, if anything.
    act: Option<Callback<BoardFinding, AnyView>>,
) -> impl IntoView {
    (!findings.is_empty()).then(|| {
        let open = findings.iter().filter(|f| f.is_open()).count();
        view! {
            <section class="panel" aria-labelledby="findings-heading" data-testid="board-findings">
                <h2 id="findings-heading">"Findings of the Board (§52-8 B)"</h2>
                <p class="hint">{if open == 0 {
                    "The Board has marked every finding it made met.".to_owned()
                } else {
                    format!("{open} open: no permit issues until the Board marks each met (§52-8 A).")
                }}</p>
                <ol class="shortfalls">
                    {findings.into_iter().map(|f| {
                        let more = act.filter(|_| f.is_open()).map(|act| act.run(f.clone()));
                        view! {
                            <li data-testid="board-finding">
                                <strong>{f.shortfall.reason()}</strong><br/>
                                "Step: "{f.shortfall.step.clone()}<br/>
                                <span class="hint">{format!("Found at the Board's meeting of {}.", f.found_day)}</span>
                                {match &f.met {
                                    Some(m) => view! {
                                        <p class="notice ok" data-testid="finding-met">{format!(
                                            "Met — marked by the Board at its meeting of {} (recorded by {}): {}",
                                            m.day, m.by, m.note
                                        )}</p>
                                    }.into_any(),
                                    None => view! { <p><span class="badge warn" data-testid="finding-open">"Open"</span></p> }.into_any(),
                                }}
                                {f.answer.clone().map(|a| view! {
                                    <p data-testid="finding-answer"><strong>"The operator's answer"</strong>
                                        {f.answered_at.clone().map(|at| format!(" ({at})"))}": "<span class="paragraph">{a}</span></p>
                                })}
                                {more}
                            </li>
                        }
                    }).collect_view()}
                </ol>
            </section>
        }
    })
}

/// The decision as the operator and the Town read it: an issued permit with its
/// conditions, a written denial with each reason and step (§52-9 B(2)), or the
/// deemed denial (§52-9 B(3)); each with the appeal (§52-9 C).
#[component]
pub fn DecisionPanel(record: PermitRecord, pdf: String) -> impl IntoView {
    match (record.state, record.decision.clone()) {
        (PermitState::DeemedDenied, _) => view! {
            <section class="panel notice bad" aria-labelledby="decision" data-testid="decision">
                <h2 id="decision">"Deemed denied"</h2>
                <p>{format!(
                    "The Board of Selectmen neither issued a permit nor sent a written denial within {} days after considering the application on {}, so the permit is deemed denied (§52-9 B(3)).",
                    calendar::DECISION_DAYS,
                    record.consideration_day.clone().unwrap_or_default()
                )}</p>
                <p>{calendar::APPEAL}</p>
            </section>
        }.into_any(),
        (_, Some(decision)) if decision.chapter_55 => view! {
            <section class="panel notice" aria-labelledby="decision" data-testid="decision">
                <h2 id="decision">"To be issued under Chapter 55"</h2>
                <p>{format!(
                    "On {}, {} determined that the permit for this gathering shall be issued under Chapter 55 of the Town Code, outdoor festivals and special amusements (§52-7). Apply under that chapter.",
                    crate::model::civil::date_text(decision.day), decision.by
                )}</p>
                <BoardLine decision=decision.clone()/>
                <p><a href=pdf download data-testid="chapter-55-pdf">"Print the determination (PDF)"</a></p>
            </section>
        }.into_any(),
        (_, Some(decision)) if decision.issued => view! {
            <section class="panel notice ok" aria-labelledby="decision" data-testid="decision">
                <h2 id="decision">"Permit issued"</h2>
                <p>{format!("Issued by {} on {} (§52-9 B(1)), on the conditions of §52-10, §52-11 and §52-9 D:", decision.by, crate::model::civil::date_text(decision.day))}</p>
                <BoardLine decision=decision.clone()/>
                {record.requirements.map(|need| view! { <RequirementList need sound=record.sound_limit_dba/> })}
                {(!decision.advice.is_empty()).then(|| view! { <AdviceList list=decision.advice.clone() testid="decision-advice"/> })}
                <p><a href=pdf download data-testid="permit-pdf">"Print the permit (PDF)"</a></p>
            </section>
        }.into_any(),
        (_, Some(decision)) => view! {
            <section class="panel notice bad" aria-labelledby="decision" data-testid="decision">
                <h2 id="decision">"Permit denied"</h2>
                <p>{format!("Denied by {} on {}. The reasons, each with a step which, if followed, would result in a permit being issued (§52-9 B(2)):", decision.by, crate::model::civil::date_text(decision.day))}</p>
                <BoardLine decision=decision.clone()/>
                <ShortfallList list=decision.reasons.clone()/>
                {(!decision.advice.is_empty()).then(|| view! { <AdviceList list=decision.advice.clone() testid="decision-advice"/> })}
                <p>{calendar::APPEAL}</p>
                <p><a href=pdf download data-testid="denial-pdf">"Print the written denial (PDF)"</a></p>
            </section>
        }.into_any(),
        _ => ().into_any(),
    }
}
