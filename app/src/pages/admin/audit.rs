use leptos::prelude::*;
use leptos_meta::Title;

use crate::access::Permission;
use crate::api::admin::audit_log;
use crate::components::form::field_error;
use crate::components::session::{hydrated, Guard};
use crate::components::table::ScrollTable;
use crate::error::AppError;
use crate::model::audit::{AuditOutcome, AuditQuery, ACTIONS};

/// The audit log, newest first, filtered and paged.
#[component]
pub fn AuditPage() -> impl IntoView {
    view! {
        <Title text="Audit log"/>
        <Guard permission=Permission::ReadAudit>
            <AuditLog/>
        </Guard>
    }
}

#[component]
fn AuditLog() -> impl IntoView {
    let actor = RwSignal::new(String::new());
    let action = RwSignal::new(String::new());
    let outcome = RwSignal::new(String::new());
    let from_date = RwSignal::new(String::new());
    let to_date = RwSignal::new(String::new());
    let query = RwSignal::new(AuditQuery::default());
    // The date range checked here as the server checks it, each error by its field.
    let problem = RwSignal::new(None::<AppError>);
    let ready = hydrated();
    let page = Resource::new(move || query.get(), audit_log);
    let apply = move |before_seq: Option<i64>| {
        let text = |s: RwSignal<String>| {
            Some(s.get_untracked().trim().to_owned()).filter(|t| !t.is_empty())
        };
        let asked = AuditQuery {
            actor: text(actor),
            action: text(action),
            outcome: AuditOutcome::from_code(&outcome.get_untracked()),
            from: None,
            to: None,
            before_seq,
            from_date: text(from_date),
            to_date: text(to_date),
        };
        match AppError::unless_any(asked.problems()) {
            Ok(()) => {
                problem.set(None);
                query.set(asked);
            }
            Err(e) => problem.set(Some(e)),
        }
    };
    let problem = Signal::from(problem);
    view! {
        <h1 class="wide">"Audit log"</h1>
        <p class="hint">"Every sign-in, change, export and refused request, with a hash chain that "
            <code>"server audit verify"</code>" checks end to end."</p>
        <form class="panel filters" on:submit=move |ev: leptos::ev::SubmitEvent| { ev.prevent_default(); apply(None); }>
            <div class="grid-2">
                <div class="field">
                    <label for="audit-actor">"User"</label>
                    <input id="audit-actor" type="search" bind:value=actor/>
                </div>
                <div class="field">
                    <label for="audit-action">"Action"</label>
                    <select id="audit-action" bind:value=action>
                        <option value="">"Any"</option>
                        {ACTIONS.iter().map(|(code, words)| view! { <option value=*code>{*words}</option> }).collect_view()}
                    </select>
                </div>
                <DateField id="audit-from" field="from_date" label="From (date)" value=from_date problem/>
                <DateField id="audit-to" field="to_date" label="To (date)" value=to_date problem/>
                <div class="field">
                    <label for="audit-outcome">"Outcome"</label>
                    <select id="audit-outcome" bind:value=outcome>
                        <option value="">"Any"</option>
                        <option value="success">"Success"</option>
                        <option value="failure">"Failure"</option>
                        <option value="denied">"Denied"</option>
                    </select>
                </div>
            </div>
            <button type="submit" disabled=move || !ready.get()>"Filter"</button>
        </form>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Err(e) => view! { <p class="notice bad">{e.to_string()}</p> }.into_any(),
                    Ok(p) => {
                        let next = p.next_before_seq;
                        view! {
                            <ScrollTable label="Audit entries".to_owned()>
                                <table>
                                    <thead><tr>
                                        <th scope="col">"#"</th>
                                        <th scope="col">"When"</th>
                                        <th scope="col">"Who"</th>
                                        <th scope="col">"Action"</th>
                                        <th scope="col">"Record"</th>
                                        <th scope="col">"Outcome"</th>
                                        <th scope="col">"Detail"</th>
                                    </tr></thead>
                                    <tbody>
                                        {p.entries.into_iter().map(|e| {
                                            let badge = match e.outcome {
                                                AuditOutcome::Success => "badge ok",
                                                AuditOutcome::Failure => "badge warn",
                                                AuditOutcome::Denied => "badge bad",
                                            };
                                            let record = e.record_text.clone();
                                            let lines = |heading: &'static str, lines: Vec<String>| (!lines.is_empty()).then(|| view! {
                                                <p class="subhead">{heading}</p>
                                                <ul class="plain">{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                                            });
                                            // A change has both sides, of which the store keeps only what
                                            // changed: a field added shows a "Now" alone, not an "After" that
                                            // reads as a creation, and a save that changed nothing says so.
                                            let change = e.before.is_some() && e.after.is_some();
                                            let nothing = change && e.before_lines.is_empty() && e.after_lines.is_empty();
                                            let detail = view! {
                                                {lines(if change { "Was" } else { "Before" }, e.before_lines.clone())}
                                                {lines(if change { "Now" } else { "After" }, e.after_lines.clone())}
                                                {nothing.then(|| view! { <p>"No field changed."</p> })}
                                            };
                                            view! {
                                                <tr>
                                                    <td>{e.seq}</td>
                                                    <td>{e.at_text.clone()}</td>
                                                    <td>{e.actor.clone().unwrap_or_else(|| "—".into())}
                                                        {e.source.clone().map(|s| format!(" ({s})"))}</td>
                                                    <td>{e.action_text.clone()}</td>
                                                    <td>{record}</td>
                                                    <td><span class=badge>{e.outcome.code()}</span></td>
                                                    <td class="detail">{detail}</td>
                                                </tr>
                                            }
                                        }).collect_view()}
                                    </tbody>
                                </table>
                            </ScrollTable>
                            {next.map(|seq| view! {
                                <div class="actions">
                                    <button type="button" class="secondary" on:click=move |_| apply(Some(seq))>"Older entries"</button>
                                </div>
                            })}
                        }.into_any()
                    }
                }
            })}
        </Transition>
    }
}

/// A date of the range, with its own error beneath it.
#[component]
fn DateField(
    id: &'static str,
    field: &'static str,
    label: &'static str,
    value: RwSignal<String>,
    problem: Signal<Option<AppError>>,
) -> impl IntoView {
    let message = field_error(problem, field);
    let error_id = format!("{id}-error");
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <input id=id type="date" bind:value=value aria-describedby=error_id.clone()
                aria-invalid=move || if message.get().is_some() { "true" } else { "false" }/>
            <span class="error-text" id=error_id data-testid=format!("{field}-error")>{move || message.get()}</span>
        </div>
    }
}
