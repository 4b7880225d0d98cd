//! Correcting a stored report: the officer's resubmission of a report the chief
//! returned (`/field/reports/:id`), and the chief's amendment with a reason
//! (`/reports/:id/amend`). The same form as a new incident, filled from the stored
//! report; the server re-runs the rules and keeps the previous version (DESIGN §3).

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::draft::Draft;
use super::form::{error_at, IncidentForm};
use super::inputs::Text;
use super::{ErrorList, ReceiptPanel};
use crate::access::Permission;
use crate::api::review::{amend_report, full_report, resubmit_incident};
use crate::client;
use crate::components::session::Guard;
use crate::error::{AppError, FieldError};
use crate::model::incident::{Receipt, ReportStatus};
use crate::model::review::ReportView;

/// Who corrects, and so which server function takes the correction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The officer, after the chief returned the report.
    Resubmit,
    /// The chief, with a reason, at any time (an approved or filed citation
    /// changes only this way).
    Amend,
}

/// The correction kept on the phone while it is being typed: tied to the
/// revision it started from, so a newer version on the server is never hidden by
/// an old local copy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct SavedCorrection {
    revision: i64,
    draft: Draft,
    reason: String,
}

impl SavedCorrection {
    /// Reads a correction kept on this phone, its draft in either shape
    /// ([`Draft::load`]).
    fn load(json: &str) -> Option<SavedCorrection> {
        let value: serde_json::Value = serde_json::from_str(json).ok()?;
        Some(SavedCorrection {
            revision: value.get("revision")?.as_i64()?,
            draft: Draft::load(&value.get("draft")?.to_string())?,
            reason: value.get("reason")?.as_str()?.to_owned(),
        })
    }
}

fn saved_key(id: Uuid) -> String {
    format!("wells.correction.{id}")
}

fn report_id() -> Memo<Option<Uuid>> {
    let params = use_params_map();
    Memo::new(move |_| params.with(|p| p.get("id")).and_then(|s| s.parse().ok()))
}

#[component]
pub fn CorrectReportPage() -> impl IntoView {
    view! {
        <Title text="Correct a report"/>
        <Guard permission=Permission::RecordIncidents>
            <LoadThenCorrect mode=Mode::Resubmit/>
        </Guard>
    }
}

#[component]
pub fn AmendReportPage() -> impl IntoView {
    view! {
        <Title text="Amend a report"/>
        <Guard permission=Permission::Review>
            <LoadThenCorrect mode=Mode::Amend/>
        </Guard>
    }
}

#[component]
fn LoadThenCorrect(mode: Mode) -> impl IntoView {
    let id = report_id();
    let report = Resource::new(
        move || id.get(),
        |id| async move {
            match id {
                Some(id) => full_report(id).await,
                None => Err(AppError::NotFound),
            }
        },
    );
    view! {
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match report.await {
                    Ok(view) => view! { <Correction view mode/> }.into_any(),
                    Err(e) => view! { <crate::components::load_error::LoadError error=e/> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn Correction(view: ReportView, mode: Mode) -> impl IntoView {
    let id = view.incident_id;
    let revision = view.revision;
    let open = mode == Mode::Amend || view.status == ReportStatus::Returned;
    let stored = StoredValue::new(view.report.clone());
    let draft = RwSignal::new(Draft::new(id, Uuid::nil(), String::new()));
    let reason = RwSignal::new(String::new());
    let errors = RwSignal::new(Vec::<FieldError>::new());
    let loaded = RwSignal::new(false);
    let receipt = RwSignal::new(None::<Receipt>);
    let sending = RwSignal::new(false);

    // Local times exist only in the browser, so the draft is made there.
    Effect::new(move |_| {
        if loaded.get_untracked() {
            return;
        }
        let saved = client::load_text(&saved_key(id))
            .and_then(|text| SavedCorrection::load(&text))
            .filter(|s| s.revision == revision && s.draft.incident_id == id);
        match saved {
            Some(s) => {
                draft.set(s.draft);
                reason.set(s.reason);
            }
            None => draft.set(stored.with_value(|r| Draft::from_report(r, client::local_text))),
        }
        loaded.set(true);
    });
    Effect::new(move |_| {
        let current = SavedCorrection {
            revision,
            draft: draft.get(),
            reason: reason.get(),
        };
        if loaded.get_untracked() && receipt.with_untracked(Option::is_none) {
            client::save(&saved_key(id), &current);
        }
    });

    let submit = move |_| {
        // As on a new report: every problem at once, the first one brought to.
        let report = match draft.get_untracked().ready_as(
            crate::model::incident::Submission::Correction,
            client::parse_local,
            client::now(),
        ) {
            Ok(report) => report,
            Err(e) => {
                super::form::go_to_first(&e);
                return errors.set(e);
            }
        };
        let why = reason.get_untracked();
        if mode == Mode::Amend {
            let problems = crate::model::review::reason_problems("reason", &why, "amended");
            if !problems.is_empty() {
                return errors.set(problems);
            }
        }
        sending.set(true);
        leptos::task::spawn_local(async move {
            let answer = match mode {
                Mode::Resubmit => resubmit_incident(report).await,
                Mode::Amend => amend_report(report, why).await,
            };
            sending.set(false);
            match answer {
                Ok(r) => {
                    client::remove(&saved_key(id));
                    errors.set(Vec::new());
                    receipt.set(Some(r));
                }
                Err(AppError::Invalid { errors: e }) => errors.set(e),
                Err(e) if !client::online() => errors.set(vec![FieldError::new(
                    "request",
                    format!("No signal ({e}). The correction is kept on this phone; send it again when the signal returns."),
                )]),
                Err(e) => errors.set(vec![FieldError::new("request", e.to_string())]),
            }
        });
    };

    let heading = match mode {
        Mode::Resubmit => "Correct and resubmit",
        Mode::Amend => "Amend the report",
    };
    let back = format!("/reports/{id}");
    view! {
        <h1>{heading}</h1>
        <p><a href=back.clone()>"Back to the full report"</a></p>
        {view.return_reason.clone().filter(|_| mode == Mode::Resubmit).map(|r| view! {
            <p class="notice warn" data-testid="return-reason">"Chief's reason: " {r}</p>
        })}
        {(!open).then(|| view! {
            <p class="notice" role="status">"This report is " {view.status.label()} " — only a returned report can be corrected by its officer."</p>
        })}
        {move || receipt.get().map(|r| view! {
            <ReceiptPanel receipt=r/>
            <p><a class="button" href=back.clone()>"Open the full report"</a></p>
        })}
        <Show when=move || open && loaded.get() && receipt.with(Option::is_none)>
            <ErrorList errors draft/>
            <form on:submit=|ev: leptos::ev::SubmitEvent| ev.prevent_default()>
                {(mode == Mode::Amend).then(|| view! { <AmendReason reason errors/> })}
                <IncidentForm draft errors correction=true/>
                <div class="actions sticky">
                    <button type="button" on:click=submit disabled=move || sending.get() data-testid="submit-correction">
                        {match mode { Mode::Resubmit => "Resubmit report", Mode::Amend => "Save amendment" }}
                    </button>
                </div>
            </form>
        </Show>
    }
}

#[component]
fn AmendReason(reason: RwSignal<String>, errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    view! {
        <section class="panel">
            <Text field="reason".into() label="Reason for the amendment".into()
                hint="Kept in the report's history with your name.".into()
                value=reason.into() on_input=Callback::new(move |v| reason.set(v))
                error=error_at(errors, "reason") multiline=true
                maxlength=crate::model::review::MAX_REASON_CHARS/>
        </section>
    }
}
