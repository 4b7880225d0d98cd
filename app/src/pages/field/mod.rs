//! The patrol officer's screens: a new incident, and "My reports".

pub mod correct;
pub mod draft;
pub mod form;
pub mod inputs;
pub mod reports;

use leptos::prelude::*;
use leptos_meta::Title;

use crate::access::Permission;
use crate::client;
use crate::components::session::{use_current_user, Guard};
use crate::error::{AppError, FieldError};
use crate::model::incident::Receipt;
use crate::ordinance::Outcome;
use crate::outbox::{use_outbox, SendState};
use draft::Draft;
use form::IncidentForm;
use inputs::dom_id;

fn draft_key(username: &str) -> String {
    format!("wells.draft.{username}")
}

fn fresh() -> Draft {
    Draft::new(client::new_id(), client::new_id(), client::now_local())
}

#[component]
pub fn NewIncidentPage() -> impl IntoView {
    view! {
        <Title text="New incident"/>
        <Guard permission=Permission::RecordIncidents>
            <NewIncident/>
        </Guard>
    }
}

/// Loads the draft saved on this phone (or starts one), saves it after every
/// change, and hands finished reports to the outbox.
#[component]
fn NewIncident() -> impl IntoView {
    let user = use_current_user().0;
    let username = Signal::derive(move || {
        user.get()
            .and_then(|r| r.ok().flatten())
            .map(|m| m.username)
            .unwrap_or_default()
    });
    let draft = RwSignal::new(Draft::new(
        uuid::Uuid::nil(),
        uuid::Uuid::nil(),
        String::new(),
    ));
    let loaded = RwSignal::new(false);
    let errors = RwSignal::new(Vec::<FieldError>::new());
    let outbox = use_outbox();

    Effect::new(move |_| {
        let name = username.get();
        if name.is_empty() || loaded.get_untracked() {
            return;
        }
        outbox.attach(&name);
        draft.set(
            client::load_text(&draft_key(&name))
                .and_then(|text| Draft::load(&text))
                .unwrap_or_else(fresh),
        );
        loaded.set(true);
    });
    Effect::new(move |_| {
        let current = draft.get();
        if loaded.get_untracked() {
            client::save(&draft_key(&username.get_untracked()), &current);
        }
    });
    // A report the server refused comes back with its field errors.
    Effect::new(move |_| {
        let id = draft.with(|d| d.incident_id);
        if let Some(AppError::Invalid { errors: e }) = outbox.rejection_for(id) {
            errors.set(e);
        }
    });

    let submit = move |_| {
        let d = draft.get_untracked();
        let now = client::now();
        // Every problem at once (not the server's waves), then the report the
        // server will check the same way.
        let problems = d.problems(client::parse_local, now);
        let result = if problems.is_empty() {
            d.to_report(client::parse_local)
                .map_err(|missing| AppError::Invalid { errors: missing })
                .and_then(|report| crate::model::incident::check(&report, now).map(|_| report))
        } else {
            Err(AppError::Invalid { errors: problems })
        };
        let shown = match result {
            Ok(report) => {
                errors.set(Vec::new());
                outbox.enqueue(report);
                leptos::task::spawn_local(outbox.flush());
                return;
            }
            Err(AppError::Invalid { errors: e }) => e,
            Err(other) => vec![FieldError::new("request", other.to_string())],
        };
        form::go_to_first(&shown);
        errors.set(shown);
    };
    let start_over = move |_| {
        errors.set(Vec::new());
        draft.set(fresh());
    };

    let id = Signal::derive(move || draft.with(|d| d.incident_id));
    let receipt = Signal::derive(move || outbox.receipt_for(id.get()));
    let pending = Signal::derive(move || outbox.is_pending(id.get()));
    // The server renders the empty form too, so the page has its final shape at
    // once on a slow phone (nothing jumps when the app starts); its inputs stay
    // disabled until the draft saved on this phone is loaded into them, so
    // nothing typed before that can be overwritten.
    let editing = Signal::derive(move || receipt.get().is_none() && !pending.get());

    view! {
        <h1>"New incident"</h1>
        <Show when=move || loaded.get()>
            {move || receipt.get().map(|r| view! {
                <ReceiptPanel receipt=r/>
                <div class="actions">
                    <button type="button" on:click=start_over>"Start a new report"</button>
                </div>
            })}
            <Show when=move || pending.get()>
                <PendingBanner state=outbox.state/>
            </Show>
        </Show>
        <Show when=move || editing.get()>
            <ErrorList errors/>
            <form on:submit=|ev: leptos::ev::SubmitEvent| ev.prevent_default()>
                <fieldset class="unboxed" disabled=move || !loaded.get()>
                    <IncidentForm draft errors/>
                    <div class="actions sticky">
                        <button type="button" on:click=submit data-testid="submit-report">
                            {move || if loaded.get() { "Submit report" } else { "Opening the form…" }}
                        </button>
                    </div>
                </fieldset>
            </form>
        </Show>
    }
}

/// What still needs attention, each linked to its input. The form keeps the
/// list current as the officer fixes things, and the submit takes the officer to
/// the first one itself: this is the overview, not the way there. (No live
/// region: it changes with every answer; each input names its own problem.)
#[component]
fn ErrorList(errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    move || {
        let list = errors.get();
        (!list.is_empty()).then(|| {
            let count = list.len();
            view! {
                <div class="notice bad" id="form-errors" tabindex="-1" data-testid="form-errors">
                    <strong>{if count == 1 {
                        "Not sent yet — 1 thing to fix:".to_owned()
                    } else {
                        format!("Not sent yet — {count} things to fix:")
                    }}</strong>
                    <ul>
                        {list.into_iter().map(|e| {
                            let href = format!("#{}", dom_id(&e.field));
                            let one = [e.clone()];
                            let go = move |ev: leptos::ev::MouseEvent| {
                                ev.prevent_default();
                                form::go_to_first(&one);
                            };
                            view! { <li><a href=href on:click=go>{e.message}</a></li> }
                        }).collect_view()}
                    </ul>
                </div>
            }
        })
    }
}

#[component]
fn PendingBanner(state: RwSignal<SendState>) -> impl IntoView {
    view! {
        <div class="notice warn" role="status" data-testid="queued">
            {move || match state.get() {
                SendState::Sending | SendState::Idle => view! { <p>"Sending…"</p> }.into_any(),
                SendState::Offline => view! {
                    <p><strong>"No signal. "</strong>"The report is saved on this phone and will be sent automatically when the signal returns. Do not clear the browser's data."</p>
                }.into_any(),
                SendState::SignInNeeded => view! {
                    <p><strong>"Your sign-in has ended. "</strong>"The report is kept on this phone. "
                        <a href="/sign-in?next=/field/new">"Sign in again"</a>" to send it."</p>
                }.into_any(),
                SendState::Retrying => view! {
                    <p>"The server could not take the report yet; it is kept on this phone and will be sent again shortly."</p>
                }.into_any(),
            }}
        </div>
    }
}

/// The server's acknowledgement: outcomes and citation numbers, with the
/// subject's copies.
#[component]
pub fn ReceiptPanel(receipt: Receipt) -> impl IntoView {
    let cited = receipt
        .outcomes
        .iter()
        .filter(|(_, o)| o.is_citation())
        .count();
    let summary: Vec<String> = receipt
        .outcomes
        .iter()
        .map(|(_, o)| o.label().to_owned())
        .collect();
    view! {
        <div class="notice ok" role="status" data-testid="receipt">
            <p><strong>"Report saved on the server. "</strong>
               {if cited == 0 { "No citation issued.".to_owned() } else { format!("{cited} citation(s) issued.") }}</p>
            <ul>{summary.into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}</ul>
            {receipt.citations.into_iter().map(|c| {
                let page = format!("/citations/{}", c.number);
                let pdf = format!("/citations/{}/pdf", c.number);
                let arrest = c.arrest.then_some(" — arrest, District Court (§52-2)");
                view! {
                    <p class="citation-line">
                        <strong data-testid="citation-number">{c.number.clone()}</strong>
                        " · " {c.subject.clone()} " · " {c.offence.reference()} {arrest}
                        <br/>
                        <a href=page rel="external">"Subject's copy"</a>" · "
                        <a href=pdf rel="external" data-testid="citation-pdf">"PDF"</a>
                    </p>
                }
            }).collect_view()}
        </div>
    }
}

/// Labels for outcomes in lists.
pub fn outcome_badge(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Cited | Outcome::Arrested => "badge bad",
        Outcome::Warned => "badge warn",
        _ => "badge ok",
    }
}
