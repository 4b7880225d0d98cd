//! The operator's pages (no account): the application, and the private status
//! link that follows it to a decision — and, after a denial, takes the fixes.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::form::{ApplicationForm, NewApplication};
use super::view::{DecisionPanel, FindingsList, PermitSummary, ShortfallList};
use crate::api::permits::{amend_application, answer_finding, apply_for_permit, permit_status};
use crate::components::form::ErrorSummary;
use crate::model::permit::{BoardFinding, PermitApplication, PermitRecord};

/// `/permits/apply`: anyone may apply.
#[component]
pub fn ApplyPage() -> impl IntoView {
    let send = Action::new(move |a: &PermitApplication| apply_for_permit(a.clone()));
    view! {
        <Title text="Apply for a mass gathering permit"/>
        <h1>"Apply for a mass gathering permit"</h1>
        <p>{format!(
            "An outdoor gathering of {} or more persons for two or more hours needs a permit from the Board of Selectmen (Town Code §52-7). Apply at least {} days before the first day; the fee is {} and is not refundable (§52-9 A).",
            crate::ordinance::article_ii::permit::PERMIT_ATTENDANCE,
            crate::ordinance::article_ii::calendar::FILING_DAYS_AHEAD,
            crate::ordinance::article_ii::Requirements::fee_text(),
        )}</p>
        <NewApplication action=send button="Send the application"/>
    }
}

/// `/permits/status?token=…`: the operator's view of their application.
#[component]
pub fn StatusPage() -> impl IntoView {
    let query = use_query_map();
    let token = move || query.with(|q| q.get("token").unwrap_or_default());
    let version = RwSignal::new(0u32);
    let record = Resource::new(move || (token(), version.get()), |(t, _)| permit_status(t));
    view! {
        <Title text="Permit application status"/>
        <h1>"Permit application status"</h1>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match record.await {
                    Err(e) => view! { <crate::components::load_error::LoadError error=e/> }.into_any(),
                    Ok(record) => view! { <OperatorRecord record token=token() version/> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn OperatorRecord(record: PermitRecord, token: String, version: RwSignal<u32>) -> impl IntoView {
    let editing = RwSignal::new(false);
    let can_change = record.state.open_to_amendment();
    let application = record.application.clone();
    let answering = StoredValue::new(token.clone());
    let answer = can_change.then(|| {
        Callback::new(move |f: BoardFinding| {
            view! { <AnswerFinding finding=f token=answering.get_value() version/> }.into_any()
        })
    });
    view! {
        <PermitSummary record=record.clone()/>
        <DecisionPanel record=record.clone() pdf=format!("/permits/status/pdf?token={token}")/>
        <FindingsList findings=record.findings.clone() act=answer/>
        {(!record.shortfalls.is_empty()).then(|| view! {
            <section class="panel" aria-labelledby="short">
                <h2 id="short">"What the application does not yet meet"</h2>
                <ShortfallList list=record.shortfalls.clone()/>
            </section>
        })}
        {can_change.then(|| view! {
            <Show when=move || !editing.get() fallback=move || view! {
                <AmendForm application=application.clone() token=token.clone() version/>
            }>
                <button type="button" on:click=move |_| editing.set(true)>"Change the application"</button>
            </Show>
        })}
    }
}

#[component]
fn AmendForm(
    application: PermitApplication,
    token: String,
    version: RwSignal<u32>,
) -> impl IntoView {
    let app = RwSignal::new(application);
    let token = StoredValue::new(token);
    let send =
        Action::new(move |a: &PermitApplication| amend_application(token.get_value(), a.clone()));
    Effect::new(move |_| {
        if matches!(send.value().get(), Some(Ok(()))) {
            version.update(|v| *v += 1);
        }
    });
    view! {
        <h2>"Change the application"</h2>
        <ApplicationForm app action=send button="Send the changes"/>
    }
}

/// The operator's answer to one of the Board's findings (issue #37): kept
/// with the finding, for the Board, which alone marks it met.
#[component]
fn AnswerFinding(finding: BoardFinding, token: String, version: RwSignal<u32>) -> impl IntoView {
    let ready = crate::components::session::hydrated();
    let answer = RwSignal::new(finding.answer.clone().unwrap_or_default());
    let token = StoredValue::new(token);
    let finding_id = finding.finding_id;
    let id = format!("answer-{finding_id}");
    let send = Action::new(move |text: &String| {
        answer_finding(token.get_value(), finding_id, text.clone())
    });
    let error = Signal::derive(move || send.value().get().and_then(Result::err));
    Effect::new(move |_| {
        if matches!(send.value().get(), Some(Ok(()))) {
            version.update(|v| *v += 1);
        }
    });
    view! {
        <form class="no-print" on:submit=move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            send.dispatch(answer.get_untracked());
        }>
            <ErrorSummary error/>
            <div class="field">
                <label for=id.clone()>"Your answer to the Board"</label>
                <span class="hint" id=format!("{id}-hint")>"What you changed or will do to meet it. The Board reads it and decides whether it is met."</span>
                <textarea id=id.clone() rows="4" aria-describedby=format!("{id}-hint")
                    prop:value=move || answer.get() on:input=move |ev| answer.set(event_target_value(&ev))></textarea>
            </div>
            <button type="submit" disabled=move || !ready.get() || send.pending().get()>"Send your answer"</button>
        </form>
    }
}
