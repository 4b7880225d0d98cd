//! The Town's permit screens: the register (officers look up a place and day),
//! one application's record with the Town Clerk's, the advisors' and the
//! Selectmen's parts, and a paper application typed in.

use crate::model::text::grouped;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;
use uuid::Uuid;

use super::form::{NewApplication, Unit};
use super::view::{
    AdviceList, DecisionPanel, FindingsList, PermitSummary, ShortfallList, StateBadge,
};
use crate::access::{Decision, Permission};
use crate::api::permits::{
    add_opinion, decide_permit, file_paper_application, get_permit, mark_finding_met,
    permit_register, record_clerk_entry, ClerkAction,
};
use crate::components::confirm::Confirm;
use crate::components::form::{ErrorSummary, TextField};
use crate::components::session::{hydrated, signed_in, Guard};
use crate::components::table::ScrollTable;
use crate::error::AppError;
use crate::model::permit::{
    BoardFinding, BoardVote, PermitApplication, PermitDecision, PermitRecord, PermitState,
};
use crate::ordinance::article_ii::board::Vote;
use crate::ordinance::article_ii::{
    advice, denial_reasons, grounds_to_deny, Provision, Shortfall, Standard,
};

/// `/permits`: every application, or those covering one day.
#[component]
pub fn PermitRegisterPage() -> impl IntoView {
    view! {
        <Title text="Gathering permits"/>
        <Guard permission=Permission::ReadPermits>
            <Register/>
        </Guard>
    }
}

#[component]
fn Register() -> impl IntoView {
    let day = RwSignal::new(String::new());
    let shown = RwSignal::new(None::<String>);
    let rows = Resource::new(move || shown.get(), permit_register);
    // The register's refusal of the day asked, for the field: set where the rows
    // are awaited, never read from the resource outside its Transition.
    let refused = RwSignal::new(None::<AppError>);
    let clerk = signed_in()
        .is_some_and(|m| Permission::ReceiveApplications.allows(Some(&m.roles)) == Decision::Allow);
    view! {
        <h1 class="wide">"Mass gathering permits"</h1>
        <p class="hint">"Article II: an outdoor gathering of 500 or more persons for two or more hours needs a permit (§52-7)."</p>
        <Show when=move || clerk>
            <p><a href="/permits/paper">"Type in a paper application"</a></p>
        </Show>
        <form class="panel filters" on:submit=move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            let d = day.get_untracked();
            shown.set((!d.trim().is_empty()).then_some(d));
        }>
            <TextField name="day" label="Gatherings on this day" kind="date" value=day
                error=Signal::derive(move || refused.get())/>
            <button type="submit">"Show"</button>
            <button type="button" class="secondary" on:click=move |_| {
                day.set(String::new());
                shown.set(None);
            }>"All"</button>
        </form>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let rows = rows.await;
                refused.set(rows.as_ref().err().cloned());
                match rows {
                    Err(e) => view! { <p class="notice bad" role="alert">{e.to_string()}</p> }.into_any(),
                    Ok(list) if list.is_empty() => view! {
                        <p class="notice warn" role="status" data-testid="no-permits">"No application covers that day: a gathering of 500 or more there holds no permit (§52-7)."</p>
                    }.into_any(),
                    Ok(list) => view! {
                        <ScrollTable label="Permit applications".to_owned()>
                            <table class="register">
                                <thead><tr>
                                    <th scope="col">"Number"</th><th scope="col">"Status"</th>
                                    <th scope="col">"Place"</th><th scope="col">"Days"</th>
                                    <th scope="col">"Operator"</th><th scope="col">"Persons"</th>
                                </tr></thead>
                                <tbody>
                                    {list.into_iter().map(|r| view! {
                                        <tr>
                                            <td><a href=format!("/permits/{}", r.application_id)>{r.number.clone()}</a></td>
                                            <td><StateBadge state=r.state/>{r.decide_by.clone().map(|d| format!(" decide by {d}"))}</td>
                                            <td>{r.place.clone()}</td>
                                            <td>{if r.first_day == r.last_day { r.first_day.clone() } else { format!("{} – {}", r.first_day, r.last_day) }}</td>
                                            <td>{r.operator.clone()}</td>
                                            <td>{grouped(i64::from(r.attendance))}</td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                        </ScrollTable>
                    }.into_any(),
                }
            })}
        </Transition>
    }
}

/// `/permits/paper`: the Town Clerk types in an application received on paper.
#[component]
pub fn PaperApplicationPage() -> impl IntoView {
    view! {
        <Title text="Paper permit application"/>
        <Guard permission=Permission::ReceiveApplications>
            <PaperForm/>
        </Guard>
    }
}

#[component]
fn PaperForm() -> impl IntoView {
    let send = Action::new(move |a: &PermitApplication| file_paper_application(a.clone()));
    view! {
        <h1>"Paper permit application"</h1>
        <p class="hint">"Type the application as received. The operator gets the same private status link as an online application: print it for them."</p>
        <NewApplication action=send button="File the application"/>
    }
}

/// `/permits/:id`: one application's record.
#[component]
pub fn PermitRecordPage() -> impl IntoView {
    view! {
        <Title text="Permit application"/>
        <Guard permission=Permission::ReadPermits>
            <RecordLoader/>
        </Guard>
    }
}

#[component]
fn RecordLoader() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id").and_then(|i| Uuid::parse_str(&i).ok()));
    let version = RwSignal::new(0u32);
    let record = Resource::new(
        move || (id(), version.get()),
        |(id, _)| async move {
            match id {
                Some(id) => get_permit(id).await,
                None => Err(AppError::NotFound),
            }
        },
    );
    view! {
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match record.await {
                    Err(e) => view! { <crate::components::load_error::LoadError error=e heading="Permit application"/> }.into_any(),
                    Ok(record) => view! { <Record record version/> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn Record(record: PermitRecord, version: RwSignal<u32>) -> impl IntoView {
    let roles = StoredValue::new(signed_in().map(|m| m.roles).unwrap_or_default());
    let may = move |p: Permission| roles.with_value(|r| p.allows(Some(r)) == Decision::Allow);
    let undecided = matches!(
        record.state,
        PermitState::Filed | PermitState::FeeRecorded | PermitState::Scheduled
    );
    let pdf = format!("/permits/{}/pdf", record.application_id);
    let id = record.application_id;
    let for_board = record.clone();
    let for_clerk = record.clone();
    let scheduled = record.state == PermitState::Scheduled;
    let today = record.today.clone();
    let board_acts = may(Permission::DecidePermits) && record.state.open_to_amendment();
    let mark_met = board_acts.then(|| {
        Callback::new(move |f: BoardFinding| {
            view! { <MarkMet id finding=f today=today.clone() version/> }.into_any()
        })
    });
    view! {
        <h1>{format!("Permit application {}", record.number)}</h1>
        <PermitSummary record=record.clone()/>
        <DecisionPanel record=record.clone() pdf/>
        <StandardsNotMet shortfalls=record.shortfalls.clone()/>
        <FindingsList findings=record.findings.clone() act=mark_met/>
        <Show when=move || scheduled && may(Permission::DecidePermits)>
            <DecideForm record=for_board.clone() version/>
        </Show>
        <Show when=move || undecided && !scheduled && may(Permission::DecidePermits)>
            <p class="notice" data-testid="not-before-the-board">"The Board's decision is recorded once the Town Clerk has put the application before it (§52-9 B)."</p>
        </Show>
        <Show when=move || may(Permission::ReceiveApplications)>
            <ClerkForms record=for_clerk.clone() version/>
        </Show>
        <Show when=move || undecided && may(Permission::AdvisePermits)>
            <OpinionForm id version/>
        </Show>
        <section class="panel" aria-labelledby="opinions">
            <h2 id="opinions">"Opinions for the Selectmen (§52-8 A)"</h2>
            {if record.opinions.is_empty() {
                view! { <p class="hint">"None yet."</p> }.into_any()
            } else {
                view! { <ul class="plain">{record.opinions.iter().map(|o| view! {
                    <li data-testid="opinion"><strong>{format!("{} ({}), {}:", o.author, o.capacity, o.at)}</strong>
                        <blockquote class="paragraph">{o.opinion.clone()}</blockquote></li>
                }).collect_view()}</ul> }.into_any()
            }}
        </section>
        <ApplicationDetails application=record.application.clone()/>
        <section class="panel" aria-labelledby="history">
            <h2 id="history">"History"</h2>
            <ol class="history">{record.history.iter().map(|e| view! {
                <li>{format!("{} · {} · {}", e.at, e.by, e.kind.replace('_', " "))}{e.note.clone().map(|n| format!(" — {n}"))}</li>
            }).collect_view()}</ol>
        </section>
    }
}

/// What the rules find unmet now: the grounds a denial may rest on ("shall"),
/// then the advice the Board may issue with open ("should", §52-8 A).
#[component]
fn StandardsNotMet(shortfalls: Vec<Shortfall>) -> impl IntoView {
    let (grounds, advice) = (grounds_to_deny(&shortfalls), advice(&shortfalls));
    view! {
        <section class="panel" aria-labelledby="standards">
            <h2 id="standards">"Standards not met now"</h2>
            {if grounds.is_empty() {
                view! { <p class="notice ok" data-testid="no-shortfalls">"Every standard the ordinance says shall be met is met: the Board shall issue unless it finds one not met (§52-8 A)."</p> }.into_any()
            } else {
                view! {
                    <p class="hint">"Grounds — standards the ordinance says shall be met (§52-8 B):"</p>
                    <ShortfallList list=grounds/>
                }.into_any()
            }}
            {(!advice.is_empty()).then(|| view! { <AdviceList list=advice/> })}
        </section>
    }
}

#[component]
fn ApplicationDetails(application: PermitApplication) -> impl IntoView {
    let a = application;
    let rows: Vec<(&str, String)> = vec![
        ("Address", a.operator_address),
        (
            "Phone / e-mail",
            format!("{} {}", a.operator_phone, a.operator_email),
        ),
        ("Sponsor", a.sponsor),
        (
            "Landowner / lessee",
            format!("{} / {}", a.landowner, a.lessee),
        ),
        ("Map point", a.map_point),
        ("Purpose", a.purpose),
        (
            "Vehicles / buses",
            format!(
                "{} / {}",
                grouped(i64::from(a.vehicles)),
                grouped(i64::from(a.buses))
            ),
        ),
        ("Refuse plan", a.refuse_plan),
        ("Lighting plan", a.lighting_plan),
        ("Medical plan", a.medical_plan),
    ];
    view! {
        <details class="panel">
            <summary>"The application as given"</summary>
            <dl class="facts">
                {rows.into_iter().map(|(k, v)| view! { <dt>{k}</dt><dd>{v}</dd> }).collect_view()}
            </dl>
        </details>
    }
}

/// What the Board decided, as the form holds it before it is confirmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Motion {
    Issue,
    Deny,
    Chapter55,
}

impl Motion {
    const fn words(self) -> &'static str {
        match self {
            Motion::Issue => "issue the permit (§52-9 B(1))",
            Motion::Deny => "deny the permit, in writing, for the reasons listed (§52-9 B(2))",
            Motion::Chapter55 => "have the permit issued under Chapter 55 instead (§52-7)",
        }
    }
}

/// A whole number typed, or `None`.
fn count(text: &str) -> Option<u32> {
    text.trim().parse().ok()
}

/// The Board's decision, as a Selectman or the Town Clerk records it (§52-8,
/// §52-9 B; issue #37): the meeting at which the Board decided (not before the
/// consideration the Town Clerk scheduled), the motion, who moved and seconded
/// it, and the vote; then what will be recorded, to confirm before it is.
#[component]
fn DecideForm(record: PermitRecord, version: RwSignal<u32>) -> impl IntoView {
    let ready = hydrated();
    let id = record.application_id;
    let revision = record.revision;
    let considered = record.consideration_day.clone().unwrap_or_default();
    let meeting = RwSignal::new(considered.clone());
    let moved = RwSignal::new(String::new());
    let seconded = RwSignal::new(String::new());
    let (for_, against, abstaining) = (
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
    );
    let motion = RwSignal::new(None::<Motion>);
    let provision = RwSignal::new(Provision::S52_8);
    let finding = RwSignal::new(String::new());
    let step = RwSignal::new(String::new());
    let typed = RwSignal::new(None::<AppError>);
    let decide = Action::new(move |(d, v): &(PermitDecision, BoardVote)| {
        decide_permit(id, revision, d.clone(), v.clone())
    });
    let error = Signal::derive(move || {
        typed
            .get()
            .or_else(|| decide.value().get().and_then(Result::err))
    });
    Effect::new(move |_| {
        if matches!(decide.value().get(), Some(Ok(_))) {
            version.update(|v| *v += 1);
        }
    });
    let grounds = grounds_to_deny(&record.shortfalls);
    let open: Vec<Shortfall> = record
        .open_findings()
        .into_iter()
        .map(|f| f.shortfall.clone())
        .collect();
    let may_issue = grounds.is_empty() && open.is_empty();
    let the_vote = move || -> Result<BoardVote, AppError> {
        let number = |field: &'static str, label: &str, value: RwSignal<String>| {
            count(&value.get_untracked()).ok_or_else(|| {
                AppError::invalid(
                    field,
                    format!("{label}: a whole number of votes, 0 if none."),
                )
            })
        };
        Ok(BoardVote {
            meeting_day: meeting.get_untracked(),
            moved_by: moved.get_untracked(),
            seconded_by: seconded.get_untracked(),
            vote: Vote {
                in_favour: number("in_favour", "For", for_)?,
                against: number("against", "Against", against)?,
                abstaining: number("abstaining", "Abstaining", abstaining)?,
            },
        })
    };
    let added = move || {
        let (f, s) = (finding.get_untracked(), step.get_untracked());
        (!(f.trim().is_empty() && s.trim().is_empty())).then(|| Shortfall {
            provision: provision.get_untracked(),
            finding: f,
            step: s,
            standard: Standard::Shall,
        })
    };
    let grounds_for_summary = StoredValue::new(grounds.clone());
    let open_for_summary = StoredValue::new(open.clone());
    // What will be recorded, in words, with the reasons of a denial.
    let summary_of = move |vote: &BoardVote, m: Motion, decision: &PermitDecision| {
        let seconded = if vote.seconded_by.trim().is_empty() {
            "not seconded".to_owned()
        } else {
            format!("seconded by {}", vote.seconded_by.trim())
        };
        // The reasons the store will record, by the same rule.
        let reasons: Vec<String> = match decision {
            PermitDecision::Deny { findings } => grounds_for_summary.with_value(|g| {
                open_for_summary.with_value(|o| {
                    denial_reasons(g, o, findings)
                        .iter()
                        .map(Shortfall::reason)
                        .collect()
                })
            }),
            _ => Vec::new(),
        };
        (
            format!(
                "The Board of Selectmen, at its meeting of {}, on the motion of {}, {}, voted {} to {}.",
                vote.meeting_day.trim(),
                vote.moved_by.trim(),
                seconded,
                vote.vote.text(),
                m.words()
            ),
            reasons,
        )
    };
    // Reviewing freezes what is recorded: the summary shows it and "Record"
    // sends it, and the fields are closed until "Change it" (what is on the
    // screen is what is sent).
    let to_record = RwSignal::new(None::<(PermitDecision, BoardVote, (String, Vec<String>))>);
    let confirming = Signal::derive(move || to_record.with(Option::is_some));
    let review = move |_| {
        typed.set(None);
        match (the_vote(), motion.get_untracked()) {
            (Err(e), _) => typed.set(Some(e)),
            (Ok(_), None) => typed.set(Some(AppError::invalid(
                "motion",
                "Decision: what the Board's motion was (§52-9 B).",
            ))),
            (Ok(vote), Some(m)) => {
                let decision = match m {
                    Motion::Issue => PermitDecision::Issue,
                    Motion::Chapter55 => PermitDecision::Chapter55,
                    Motion::Deny => PermitDecision::Deny {
                        findings: added().into_iter().collect(),
                    },
                };
                let words = summary_of(&vote, m, &decision);
                to_record.set(Some((decision, vote, words)));
            }
        }
    };
    let confirm = move |_| {
        if let Some((decision, vote, _)) = to_record.get_untracked() {
            to_record.set(None);
            decide.dispatch((decision, vote));
        }
    };
    let standards: Vec<(Provision, String)> = std::iter::once((
        Provision::S52_8,
        "§52-8 — another finding of the Board".to_owned(),
    ))
    .chain(
        Provision::BOARD_STANDARDS
            .iter()
            .map(|p| (*p, format!("{} — {}", p.label(), p.title()))),
    )
    .collect();
    let choice = move |m: Motion, label: &'static str, id: &'static str, enabled: bool| {
        view! {
            <label class="choice" for=id>
                <input type="radio" id=id name="motion" disabled=!enabled
                    prop:checked=move || motion.get() == Some(m)
                    on:change=move |_| motion.set(Some(m))/>
                <span>{label}</span>
            </label>
        }
    };
    let number_field = |name: &'static str, label: &'static str, value: RwSignal<String>| {
        view! { <TextField name label value error inputmode="numeric"/> }
    };
    view! {
        <section class="panel" aria-labelledby="decide" data-testid="board-decision">
            <h2 id="decide">"Record the Board's decision (§52-8, §52-9 B)"</h2>
            <p class="hint">{format!(
                "The Board of Selectmen decides at its meeting, at or after the consideration the Town Clerk scheduled for {considered}, by a majority of those voting. Record the meeting, the motion and the vote as the minutes give them; you will see what is recorded and confirm it."
            )}</p>
            <p class="hint">{if may_issue {
                "Every standard the ordinance says shall be met is met, and no finding of the Board is open: the Board issues unless it finds one not met (§52-8 A); advice, if any, goes with the permit."
            } else {
                "A standard the ordinance says shall be met is not met, or a finding of the Board is open: a permit cannot issue. A denial lists each with its step (§52-9 B(2))."
            }}</p>
            <ErrorSummary error/>
            <fieldset class="unboxed" disabled=move || confirming.get()>
            <TextField name="meeting_day" label="Meeting at which the Board decided" kind="date" value=meeting error
                hint="Not before the consideration; the Board meets on days the Town's offices are open."/>
            <TextField name="moved_by" label="Moved by" value=moved error hint="The member who made the motion."/>
            <TextField name="seconded_by" label="Seconded by (empty if no one seconded)" value=seconded error/>
            <fieldset class="choices">
                <legend>"The vote on the motion"</legend>
                {number_field("in_favour", "For", for_)}
                {number_field("against", "Against", against)}
                {number_field("abstaining", "Abstaining", abstaining)}
                <span class="error-text" id="vote-error">{move || error.with(|e| e.as_ref().and_then(|e| e.for_field("vote").map(str::to_owned)))}</span>
            </fieldset>
            <fieldset class="choices">
                <legend>"The Board's motion"</legend>
                {choice(Motion::Issue, "Issue the permit", "motion-issue", may_issue)}
                {choice(Motion::Deny, "Deny the permit, with the reasons listed", "motion-deny", true)}
                {choice(Motion::Chapter55, "Have it issued under Chapter 55 instead (§52-7)", "motion-chapter-55", true)}
            </fieldset>
            <Show when=move || motion.get() == Some(Motion::Deny)>
                <div class="field">
                    <label for="finding-provision">"A further finding of the Board: the standard not met"</label>
                    <select id="finding-provision" on:change=move |ev| {
                        let code = event_target_value(&ev);
                        if let Some((p, _)) = standards_lookup(&code) {
                            provision.set(p);
                        }
                    }>
                        {standards.iter().map(|(p, label)| view! {
                            <option value=p.label() selected=*p == Provision::S52_8>{label.clone()}</option>
                        }).collect_view()}
                    </select>
                </div>
                <TextField name="finding" label="What the Board found (optional)" value=finding error
                    hint="A standard the rules cannot check, e.g. §52-10(2)(b): the trees left intact."/>
                <TextField name="step" label="The step that would meet it" value=step error/>
            </Show>
            </fieldset>
            <Show when=move || confirming.get() fallback=move || view! {
                <div class="actions">
                    <button type="button" data-testid="review-decision"
                        disabled=move || !ready.get() || decide.pending().get() on:click=review>"Review what will be recorded"</button>
                </div>
            }>
                <div class="confirm" role="group" aria-label="Confirm the Board's decision" data-testid="decision-summary">
                    {move || to_record.get().map(|(_, _, (words, reasons))| view! {
                        <p role="status"><strong>{words}</strong></p>
                        {(!reasons.is_empty()).then(|| view! {
                            <p>"The reasons, each with its step:"</p>
                            <ul>{reasons.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}</ul>
                        })}
                    })}
                    <p class="hint">"It is recorded as the Board's decision, with your name as the person who recorded it."</p>
                    <button type="button" data-testid="record-decision"
                        disabled=move || !ready.get() || decide.pending().get() on:click=confirm>"Record the Board's decision"</button>
                    <button type="button" class="secondary" on:click=move |_| to_record.set(None)>"Change it"</button>
                </div>
            </Show>
        </section>
    }
}

/// A provision by its label (the select's value).
fn standards_lookup(label: &str) -> Option<(Provision, &'static str)> {
    std::iter::once(Provision::S52_8)
        .chain(Provision::BOARD_STANDARDS)
        .find(|p| p.label() == label)
        .map(|p| (p, p.label()))
}

/// The Board marks an open finding met, at a meeting, with its note (§52-8).
#[component]
fn MarkMet(
    id: Uuid,
    finding: BoardFinding,
    today: String,
    version: RwSignal<u32>,
) -> impl IntoView {
    let ready = hydrated();
    let meeting = RwSignal::new(today);
    let note = RwSignal::new(String::new());
    let finding_id = finding.finding_id;
    let mark = Action::new(move |(day, note): &(String, String)| {
        mark_finding_met(id, finding_id, day.clone(), note.clone())
    });
    let error = Signal::derive(move || mark.value().get().and_then(Result::err));
    Effect::new(move |_| {
        if matches!(mark.value().get(), Some(Ok(()))) {
            version.update(|v| *v += 1);
        }
    });
    let reason = finding.shortfall.reason();
    view! {
        <details class="no-print">
            <summary>"The Board found this met"</summary>
            <ErrorSummary error/>
            <div class="field">
                <label for=format!("met-day-{finding_id}")>"Meeting at which the Board found it met"</label>
                <input type="date" id=format!("met-day-{finding_id}") prop:value=move || meeting.get()
                    on:input=move |ev| meeting.set(event_target_value(&ev))/>
            </div>
            <div class="field">
                <label for=format!("met-note-{finding_id}")>"The Board's note"</label>
                <textarea id=format!("met-note-{finding_id}") rows="3" prop:value=move || note.get()
                    on:input=move |ev| note.set(event_target_value(&ev))></textarea>
            </div>
            <Confirm label="Mark met" yes="Yes, record it met" testid="mark-met"
                disabled=Signal::derive(move || !ready.get() || mark.pending().get())
                question=Signal::derive(move || format!(
                    "Record that the Board of Selectmen, at its meeting of {}, found met: {}?",
                    meeting.get(), reason
                ))
                on_confirm=Callback::new(move |()| { mark.dispatch((meeting.get_untracked(), note.get_untracked())); })/>
        </details>
    }
}

/// Dollars typed → cents, or the field's error.
fn cents_of(field: &'static str, text: &str) -> Result<u64, AppError> {
    Unit::Dollars
        .parse(text)
        .ok_or_else(|| AppError::invalid(field, Unit::Dollars.problem()))
}

#[component]
fn ClerkForms(record: PermitRecord, version: RwSignal<u32>) -> impl IntoView {
    let ready = hydrated();
    let id = record.application_id;
    let act = Action::new(move |a: &Result<ClerkAction, AppError>| {
        let a = a.clone();
        async move { record_clerk_entry(id, a?).await }
    });
    let error = Signal::derive(move || act.value().get().and_then(Result::err));
    Effect::new(move |_| {
        if matches!(act.value().get(), Some(Ok(()))) {
            version.update(|v| *v += 1);
        }
    });
    let money = |c: Option<u64>| {
        c.map(|c| format!("{}.{:02}", c / 100, c % 100))
            .unwrap_or_default()
    };
    let receipt = RwSignal::new(String::new());
    let estimate = RwSignal::new(money(record.clerk.estimated_costs_cents));
    let bond = RwSignal::new(money(record.clerk.bond_cents));
    let deposit = RwSignal::new(money(record.clerk.deposit_cents));
    let day = RwSignal::new(String::new());
    let actual = RwSignal::new(String::new());
    let busy = move || !ready.get() || act.pending().get();
    let state = record.state;
    let fee_due = record.clerk.fee_cents.is_none();
    let undecided = matches!(
        state,
        PermitState::Filed | PermitState::FeeRecorded | PermitState::Scheduled
    );
    let deposit_hint = record
        .requirements
        .filter(|r| r.deposit_cents > 0)
        .map(|r| {
            format!(
                "120 % of the estimate: {} (§52-9 D).",
                crate::ordinance::penalty::dollars(i64::try_from(r.deposit_cents).unwrap_or(0))
            )
        })
        .unwrap_or_else(|| "120 % of the estimate (§52-9 D).".to_owned());
    view! {
        <section class="panel" aria-labelledby="clerk">
            <h2 id="clerk">"Town Clerk"</h2>
            <ErrorSummary error/>
            {fee_due.then(|| view! {
                <form on:submit=move |ev: leptos::ev::SubmitEvent| {
                    ev.prevent_default();
                    act.dispatch(Ok(ClerkAction::Fee { receipt: receipt.get_untracked() }));
                }>
                    <TextField name="receipt" label="Receipt number for the permit fee (§52-9 A)" value=receipt error/>
                    <button type="submit" disabled=busy>"Record the fee"</button>
                </form>
            })}
            {undecided.then(|| view! {
                <form on:submit=move |ev: leptos::ev::SubmitEvent| {
                    ev.prevent_default();
                    let entry = (|| Ok(ClerkAction::Security {
                        estimated_costs_cents: cents_of("estimate", &estimate.get_untracked())?,
                        bond_cents: cents_of("bond", &bond.get_untracked())?,
                        deposit_cents: cents_of("deposit", &deposit.get_untracked())?,
                    }))();
                    act.dispatch(entry);
                }>
                    <TextField name="estimate" label="The Town's estimate of its public costs ($)" value=estimate error inputmode="decimal"/>
                    <TextField name="bond" label="Bond furnished ($, at least $5,000)" value=bond error inputmode="decimal"/>
                    <TextField name="deposit" label="Deposit received ($)" value=deposit error inputmode="decimal"/>
                    <p class="hint">{deposit_hint.clone()}</p>
                    <button type="submit" disabled=busy>"Record estimate, bond and deposit"</button>
                </form>
                <form on:submit=move |ev: leptos::ev::SubmitEvent| {
                    ev.prevent_default();
                    act.dispatch(Ok(ClerkAction::Schedule { day: day.get_untracked() }));
                }>
                    <TextField name="day" label="Selectmen's meeting that considers it" kind="date" value=day error
                        hint="A day the Town's offices are open: not a weekend or a Maine legal holiday."/>
                    <button type="submit" disabled=busy>"Schedule"</button>
                </form>
            })}
            {(state == PermitState::Issued).then(|| view! {
                <form on:submit=move |ev: leptos::ev::SubmitEvent| {
                    ev.prevent_default();
                    let entry = cents_of("actual", &actual.get_untracked())
                        .map(|c| ClerkAction::Settle { actual_costs_cents: c });
                    act.dispatch(entry);
                }>
                    <TextField name="actual" label="Actual public costs after the gathering ($)" value=actual error inputmode="decimal"/>
                    <button type="submit" disabled=busy>"Settle the deposit (§52-9 D)"</button>
                </form>
            })}
        </section>
    }
}

#[component]
fn OpinionForm(id: Uuid, version: RwSignal<u32>) -> impl IntoView {
    let ready = hydrated();
    let capacity = RwSignal::new(String::new());
    let opinion = RwSignal::new(String::new());
    let send = Action::new(move |(c, o): &(String, String)| add_opinion(id, c.clone(), o.clone()));
    let error = Signal::derive(move || send.value().get().and_then(Result::err));
    Effect::new(move |_| {
        if matches!(send.value().get(), Some(Ok(()))) {
            version.update(|v| *v += 1);
        }
    });
    view! {
        <form class="panel" on:submit=move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            send.dispatch((capacity.get_untracked(), opinion.get_untracked()));
        }>
            <h2>"Your opinion for the Selectmen (§52-8 A)"</h2>
            <ErrorSummary error/>
            <TextField name="capacity" label="In your capacity as" value=capacity error hint="e.g. Police Chief, Fire Chief, Health Officer."/>
            <div class="field">
                <label for="opinion">"Opinion"</label>
                <span class="hint" id="opinion-hint">"Your written advice, in as many paragraphs as it needs (at most 4,000 characters)."</span>
                <textarea id="opinion" name="opinion" rows="8" aria-describedby="opinion-hint opinion-error"
                    prop:value=move || opinion.get() on:input=move |ev| opinion.set(event_target_value(&ev))></textarea>
                <span class="error-text" id="opinion-error">{move || error.with(|e| e.as_ref().and_then(|e| e.for_field("opinion").map(str::to_owned)))}</span>
            </div>
            <button type="submit" disabled=move || !ready.get() || send.pending().get()>"Add the opinion"</button>
        </form>
    }
}
