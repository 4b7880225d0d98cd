//! The Town's permit screens: the register (officers look up a place and day),
//! one application's record with the Town Clerk's, the advisors' and the
//! Selectmen's parts, and a paper application typed in.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;
use uuid::Uuid;

use super::form::{NewApplication, Unit};
use super::view::{AdviceList, DecisionPanel, PermitSummary, ShortfallList, StateBadge};
use crate::access::{Decision, Permission};
use crate::api::permits::{
    add_opinion, decide_permit, file_paper_application, get_permit, permit_register,
    record_clerk_entry, ClerkAction,
};
use crate::components::form::{ErrorSummary, TextField};
use crate::components::session::{hydrated, signed_in, Guard};
use crate::components::table::ScrollTable;
use crate::error::AppError;
use crate::model::permit::{PermitApplication, PermitDecision, PermitRecord, PermitState};
use crate::ordinance::article_ii::{advice, grounds_to_deny, Provision, Shortfall, Standard};

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
                                            <td>{r.attendance}</td>
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
    view! {
        <h1>{format!("Permit application {}", record.number)}</h1>
        <PermitSummary record=record.clone()/>
        <DecisionPanel record=record.clone() pdf/>
        <StandardsNotMet shortfalls=record.shortfalls.clone()/>
        <Show when=move || undecided && may(Permission::DecidePermits)>
            <DecideForm record=for_board.clone() version/>
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
                view! { <ul>{record.opinions.iter().map(|o| view! {
                    <li><strong>{format!("{} ({}), {}: ", o.author, o.capacity, o.at)}</strong>{o.opinion.clone()}</li>
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
        ("Vehicles / buses", format!("{} / {}", a.vehicles, a.buses)),
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

/// The Selectmen issue, or deny with the rules' reasons and their own findings.
#[component]
fn DecideForm(record: PermitRecord, version: RwSignal<u32>) -> impl IntoView {
    let ready = hydrated();
    let id = record.application_id;
    let revision = record.revision;
    let finding = RwSignal::new(String::new());
    let step = RwSignal::new(String::new());
    let decide = Action::new(move |d: &PermitDecision| decide_permit(id, revision, d.clone()));
    let error = Signal::derive(move || decide.value().get().and_then(Result::err));
    Effect::new(move |_| {
        if matches!(decide.value().get(), Some(Ok(_))) {
            version.update(|v| *v += 1);
        }
    });
    let meets = grounds_to_deny(&record.shortfalls).is_empty();
    let deny = move |_| {
        let (f, s) = (finding.get_untracked(), step.get_untracked());
        let findings = if f.trim().is_empty() && s.trim().is_empty() {
            Vec::new()
        } else {
            vec![Shortfall {
                provision: Provision::S52_8,
                finding: f,
                step: s,
                standard: Standard::Shall,
            }]
        };
        decide.dispatch(PermitDecision::Deny { findings });
    };
    view! {
        <section class="panel" aria-labelledby="decide">
            <h2 id="decide">"Decision of the Board of Selectmen (§52-9 B)"</h2>
            <p class="hint">{if meets {
                "Every standard the ordinance says shall be met is met: the Board issues unless it finds one not met (§52-8); advice, if any, goes with the permit. A denial needs the Board's own finding."
            } else {
                "A denial lists every ground above with its step (§52-9 B(2)); a permit issues only when they are met."
            }}</p>
            <ErrorSummary error/>
            <TextField name="finding" label="A further finding of the Board (optional)" value=finding
                hint="A standard the rules cannot check, e.g. §52-10(2)(b)."/>
            <TextField name="step" label="The step that would meet it" value=step/>
            <div class="actions">
                <button type="button" disabled=move || !ready.get() || decide.pending().get() || !meets
                    on:click=move |_| { decide.dispatch(PermitDecision::Issue); }>"Issue the permit"</button>
                <button type="button" class="danger" disabled=move || !ready.get() || decide.pending().get()
                    on:click=deny>"Deny, with these reasons"</button>
                <button type="button" class="secondary" disabled=move || !ready.get() || decide.pending().get()
                    on:click=move |_| { decide.dispatch(PermitDecision::Chapter55); }>"Issue under Chapter 55 instead (§52-7)"</button>
            </div>
        </section>
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
                    <TextField name="day" label="Selectmen's meeting that considers it" kind="date" value=day error/>
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
            <TextField name="opinion" label="Opinion" value=opinion error/>
            <button type="submit" disabled=move || !ready.get() || send.pending().get()>"Add the opinion"</button>
        </form>
    }
}
