//! `/court/citations/:number`: one citation at court — its filing, the court's
//! dispositions so far, and the form to record the next.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::access::Permission;
use crate::api::court::{load_court_citation, record_disposition};
use crate::components::confirm::Confirm;
use crate::components::session::{hydrated, Guard};
use crate::error::{AppError, FieldError};
use crate::model::court::{dollars, CourtCitation, Disposition, DispositionKind};
use crate::model::incident::CitationStatus;

#[component]
pub fn CourtCitationPage() -> impl IntoView {
    view! {
        <Title text="Citation at court"/>
        <Guard permission=Permission::Court>
            <CourtCitationView/>
        </Guard>
    }
}

#[component]
fn CourtCitationView() -> impl IntoView {
    let params = use_params_map();
    let number = Memo::new(move |_| params.with(|p| p.get("number")).unwrap_or_default());
    let version = RwSignal::new(0u32);
    // Kept here, above the refetch: saving reloads the citation, which rebuilds
    // the form, and the confirmation must outlive that.
    let saved = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        number.track();
        saved.set(None);
    });
    let data = Resource::new(
        move || (number.get(), version.get()),
        |(n, _)| load_court_citation(n),
    );
    view! {
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(c) => view! { <Detail c version saved/> }.into_any(),
                    Err(e) => view! { <crate::components::load_error::LoadError error=e heading="Citation"/> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn Detail(
    c: CourtCitation,
    version: RwSignal<u32>,
    saved: RwSignal<Option<String>>,
) -> impl IntoView {
    let r = c.row.clone();
    let copy = format!("/citations/{}", r.number);
    let filed = matches!(r.status, CitationStatus::Filed | CitationStatus::Disposed);
    view! {
        <h1>{r.number.clone()}</h1>
        <p><span class="badge" data-testid="court-status">{r.status.label()}</span>
           {r.disposition.map(|d| view! { " " <span class="badge" data-testid="court-disposition">{d.label()}</span> })}</p>
        {r.withdrawn.clone().map(|why| view! {
            <p class="notice warn" role="status" data-testid="court-withdrawn">
                "Withdrawn by the Town — ask the court to dismiss it: " {why}
                {r.replaced_by.clone().map(|n| view! {
                    " Replaced by " <a href=format!("/court/citations/{n}")>{n.clone()}</a> "."
                })}
            </p>
        })}
        {r.replaces.clone().map(|n| view! {
            <p class="notice" data-testid="court-replaces">
                "Replaces " <a href=format!("/court/citations/{n}")>{n.clone()}</a>
                ", withdrawn from the court: file both with the court."
            </p>
        })}
        <dl class="facts">
            <dt>"Defendant"</dt><dd>{r.subject.clone()}</dd>
            <dt>"Offence"</dt><dd>{format!("{} {}", r.offence.reference(), r.offence.title())}</dd>
            <dt>"Issued"</dt><dd>{r.issued_text.clone()}</dd>
            <dt>"Filed"</dt><dd>{r.filed_on.clone().map(|d| format!("{d} · {}", r.filing_reference.clone().unwrap_or_default())).unwrap_or_else(|| "Not yet".into())}</dd>
            <dt>"Court date"</dt><dd>{r.court_date.clone()}</dd>
            <dt>"Fine on the citation"</dt><dd>{format!("{} ({})", c.charged.fine_text(), c.charged.section)}</dd>
            {c.fine_cents.map(|f| view! { <dt>"Fine assessed"</dt><dd data-testid="fine-assessed">{dollars(f)}</dd> })}
            {r.fine_departure.clone().map(|words| view! {
                <dt>"The court's words for it"</dt>
                <dd data-testid="fine-departure"><span class="badge warn">{format!("Differs from {}", c.charged.section)}</span>
                    " “" {words} "”"</dd>
            })}
            {c.costs_cents.map(|f| view! { <dt>"Costs assessed"</dt><dd>{dollars(f)}</dd> })}
            {c.paid_cents.map(|f| view! { <dt>"Paid"</dt><dd data-testid="paid">{dollars(f)}</dd> })}
        </dl>
        <p><a href=copy>"The summons as issued"</a></p>
        <h2>"Court history"</h2>
        {if c.history.is_empty() {
            view! { <p>"Nothing recorded yet."</p> }.into_any()
        } else {
            view! { <ul data-testid="court-history">{c.history.iter().map(|e| view! {
                <li>{e.at_text.clone()} " · " {e.actor.clone()} " · " <strong>{e.kind.clone()}</strong> " " {e.details.clone()}</li>
            }).collect_view()}</ul> }.into_any()
        }}
        {if filed {
            view! { <DispositionForm c=c.clone() version saved/> }.into_any()
        } else {
            view! { <p class="notice warn">"Mark it filed (from the filing queue) before recording what the court decided."</p> }.into_any()
        }}
    }
}

/// `12.50` or `$12.50` as cents.
fn cents(text: &str) -> Option<i64> {
    let t = text.trim().trim_start_matches('$');
    let (whole, part) = t.split_once('.').unwrap_or((t, "0"));
    if whole.is_empty()
        || part.len() > 2
        || !whole
            .bytes()
            .chain(part.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let part = if part.len() == 1 {
        format!("{part}0")
    } else {
        part.to_owned()
    };
    Some(whole.parse::<i64>().ok()? * 100 + part.parse::<i64>().ok()?)
}

/// The court's decision, starting from what is recorded (it used to show "paid"
/// again whatever was recorded). Changing a final decision asks for a reason.
#[component]
fn DispositionForm(
    c: CourtCitation,
    version: RwSignal<u32>,
    saved: RwSignal<Option<String>>,
) -> impl IntoView {
    let number = c.row.number.clone();
    let number_shown = number.clone();
    // The Town's date, from the server: the default and the latest allowed.
    let today = c.today.clone();
    let recorded = c.row.disposition;
    let closed = recorded.filter(|k| k.is_final());
    let text = |cents: Option<i64>| {
        cents
            .map(|c| format!("{}.{:02}", c / 100, c % 100))
            .unwrap_or_default()
    };
    let kind = RwSignal::new(recorded.unwrap_or(DispositionKind::Paid));
    let on = RwSignal::new(c.disposition_on.clone().unwrap_or_else(|| today.clone()));
    let hearing = RwSignal::new(c.hearing_on.clone().unwrap_or_default());
    let paid = RwSignal::new(text(c.paid_cents));
    // The citation's own fine and section (§52-4 or §52-12), as it states them.
    let charged = c.charged;
    let fine = RwSignal::new(
        c.fine_cents
            .map(|f| text(Some(f)))
            .unwrap_or_else(|| text(Some(i64::from(charged.fine_cents)))),
    );
    let costs = RwSignal::new(text(c.costs_cents));
    let reason = RwSignal::new(String::new());
    let court_words = RwSignal::new(c.row.fine_departure.clone().unwrap_or_default());
    // The court assessed another fine than the citation's: its words are asked.
    let departs = move || {
        kind.get().assesses()
            && fine.with(|f| cents(f).is_some_and(|f| f != i64::from(charged.fine_cents)))
    };
    let errors = RwSignal::new(Vec::<FieldError>::new());
    let save = Action::new(move |_: &()| {
        let number = number.clone();
        let k = kind.get_untracked();
        let mut problems = Vec::new();
        let mut money = |field: &str, what: &str, text: String, wanted: bool| -> Option<i64> {
            if !wanted {
                return None;
            }
            let v = cents(&text);
            if v.is_none() {
                problems.push(FieldError::new(
                    field,
                    format!("{what}: an amount such as 25.00."),
                ));
            }
            v
        };
        let d = Disposition {
            kind: k,
            on: on.get_untracked(),
            hearing_on: (k == DispositionKind::Contested).then(|| hearing.get_untracked()),
            paid_cents: money(
                "paid_cents",
                "Amount paid",
                paid.get_untracked(),
                k == DispositionKind::Paid,
            ),
            fine_cents: money(
                "fine_cents",
                "Fine assessed",
                fine.get_untracked(),
                k.assesses(),
            ),
            costs_cents: money(
                "costs_cents",
                "Costs assessed",
                costs.get_untracked(),
                k.assesses(),
            ),
            reason: Some(reason.get_untracked()).filter(|r| !r.trim().is_empty()),
            court_words: Some(court_words.get_untracked()).filter(|w| !w.trim().is_empty()),
        };
        async move {
            if !problems.is_empty() {
                return errors.set(problems);
            }
            match record_disposition(number, d).await {
                Ok(status) => {
                    errors.set(Vec::new());
                    saved.set(Some(format!(
                        "Recorded. The citation is now: {}.",
                        status.label()
                    )));
                    version.update(|v| *v += 1);
                }
                Err(AppError::Invalid { errors: e }) => errors.set(e),
                Err(e) => errors.set(vec![FieldError::new("request", e.to_string())]),
            }
        }
    });
    let error = move |field: &'static str| {
        move || {
            errors.with(|e| {
                e.iter()
                    .find(|x| x.field == field)
                    .map(|x| x.message.clone())
            })
        }
    };
    let ready = hydrated();
    let amount = move |id: &'static str, label: String, value: RwSignal<String>| {
        view! {
            <div class="field">
                <label for=id>{label}</label>
                <input id=id type="text" inputmode="decimal" prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                    aria-describedby=format!("{id}-error")/>
                <span class="error-text" id=format!("{id}-error")>{error(id)}</span>
            </div>
        }
    };
    view! {
        <section class="panel" aria-labelledby="dispose-heading">
            <h2 id="dispose-heading">"Record the court's decision"</h2>
            {move || saved.get().map(|s| view! { <p class="notice ok" role="status" data-testid="disposition-saved">{s}</p> })}
            {move || errors.with(|e| e.iter().find(|x| x.field == "request").map(|x| view! {
                <p class="notice bad" role="alert">{x.message.clone()}</p>
            }))}
            <fieldset class="choices">
                <legend>"Decision"</legend>
                {DispositionKind::ALL.into_iter().map(|k| {
                    let id = format!("kind-{}", k.code());
                    let target = id.clone();
                    view! {
                        <label class="choice" for=target>
                            <input type="radio" id=id name="kind" prop:checked=move || kind.get() == k
                                on:change=move |_| kind.set(k)/>
                            <span>{k.label()}</span>
                        </label>
                    }
                }).collect_view()}
            </fieldset>
            <div class="field">
                <label for="on">"Date of the decision or payment"</label>
                <input id="on" type="date" max=today prop:value=move || on.get() on:input=move |ev| on.set(event_target_value(&ev))
                    aria-describedby="on-error"/>
                <span class="error-text" id="on-error">{error("on")}</span>
            </div>
            <Show when=move || kind.get() == DispositionKind::Contested>
                <div class="field">
                    <label for="hearing_on">"Hearing date"</label>
                    <input id="hearing_on" type="date" prop:value=move || hearing.get()
                        on:input=move |ev| hearing.set(event_target_value(&ev)) aria-describedby="hearing_on-error"/>
                    <span class="error-text" id="hearing_on-error">{error("hearing_on")}</span>
                </div>
            </Show>
            <Show when=move || kind.get() == DispositionKind::Paid>
                {amount("paid_cents", "Amount paid ($)".to_owned(), paid)}
            </Show>
            <Show when=move || kind.get().assesses()>
                {amount("fine_cents", format!("Fine assessed ($, {})", charged.section), fine)}
                {amount("costs_cents", "Costs assessed ($)".to_owned(), costs)}
            </Show>
            <Show when=departs>
                <div class="field">
                    <label for="court_words">{format!(
                        "The court's words for this fine (it differs from the citation's {}, {})",
                        charged.fine_text(),
                        charged.section
                    )}</label>
                    <textarea id="court_words" rows="2" prop:value=move || court_words.get()
                        on:input=move |ev| court_words.set(event_target_value(&ev))
                        aria-describedby="court_words-error"></textarea>
                    <span class="hint">"Quote the court's order or docket entry. The fine is recorded as the court assessed it, flagged."</span>
                    <span class="error-text" id="court_words-error">{error("court_words")}</span>
                </div>
            </Show>
            {closed.map(|was| view! {
                <div class="field">
                    <label for="reason">{format!("Reason for changing the recorded decision (now “{}”)", was.label())}</label>
                    <textarea id="reason" rows="2" prop:value=move || reason.get()
                        on:input=move |ev| reason.set(event_target_value(&ev)) aria-describedby="reason-error"></textarea>
                    <span class="error-text" id="reason-error">{error("reason")}</span>
                </div>
            })}
            <div class="actions">
                <Confirm label="Record" yes="Yes, record it" testid="save-disposition"
                    disabled=Signal::derive(move || !ready.get() || save.pending().get())
                    question=Signal::derive(move || {
                        let k = kind.get();
                        match closed {
                            Some(was) => format!(
                                "Change {number_shown} from “{}” to “{}”? The earlier decision stays in the court history.",
                                was.label(),
                                k.label()
                            ),
                            None if k.is_final() => format!(
                                "Record “{}” for {number_shown}? The citation will be closed as disposed.",
                                k.label()
                            ),
                            None => format!("Record “{}” for {number_shown}?", k.label()),
                        }
                    })
                    on_confirm=Callback::new(move |()| { save.dispatch(()); })/>
            </div>
        </section>
    }
}
