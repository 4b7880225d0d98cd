//! The patrol officer's screens: a new incident, and "My reports".

pub mod correct;
pub mod draft;
pub mod form;
pub mod gathering;
pub mod inputs;
pub mod photos;
pub mod reports;
pub mod scan;

use leptos::prelude::*;
use leptos_meta::Title;

use crate::access::Permission;
use crate::client;
use crate::components::session::{signed_in, Guard};
use crate::error::{AppError, FieldError};
use crate::model::incident::Receipt;
use crate::ordinance::Outcome;
use crate::outbox::{use_outbox, SendState};
use crate::pages::citation::Summons;
use draft::Draft;
use form::IncidentForm;
use inputs::dom_id;

/// The officer's drafts on this phone: the one on the form, and any others
/// started and put aside ("Start another report") — as many as needed.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Drafts {
    pub current: Draft,
    pub others: Vec<Draft>,
}

impl Drafts {
    /// Reads what the phone kept: this shape, or the single draft an earlier
    /// version kept (in localStorage, moved over by `phone_store`).
    fn load(text: &str) -> Option<Drafts> {
        serde_json::from_str(text).ok().or_else(|| {
            Draft::load(text).map(|current| Drafts {
                current,
                others: Vec::new(),
            })
        })
    }
}

/// Puts a finished report (Article I or II) in the outbox and sends what waits.
/// Once it is on the phone's disk the officer may leave; the error when it could
/// not be written (then it is only in this page, still sent while it is open).
async fn hand_over(
    outbox: crate::outbox::Outbox,
    report: crate::model::incident::IncidentReport,
    photos: &[uuid::Uuid],
) -> Result<(), FieldError> {
    let kept = outbox.enqueue(report, photos).await;
    leptos::task::spawn_local(outbox.flush());
    kept.then_some(()).ok_or_else(|| {
        FieldError::new(
            "request",
            "This phone could not save the report (its storage is full or blocked). \
             Keep this page open and try again with signal.",
        )
    })
}

fn drafts_key(username: &str) -> String {
    format!("drafts.{username}")
}
/// Where the app kept the one draft before (localStorage).
fn old_draft_key(username: &str) -> String {
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

/// Loads the drafts saved on this phone (or starts one), saves them after
/// every change, and hands finished reports to the outbox.
#[component]
fn NewIncident() -> impl IntoView {
    let username = signed_in().map(|m| m.username).unwrap_or_default();
    let draft = RwSignal::new(Draft::new(
        uuid::Uuid::nil(),
        uuid::Uuid::nil(),
        String::new(),
    ));
    let others = RwSignal::new(Vec::<Draft>::new());
    let drafts_loaded = RwSignal::new(false);
    let errors = RwSignal::new(Vec::<FieldError>::new());
    let outbox = use_outbox();
    let loaded = Signal::derive(move || drafts_loaded.get() && outbox.loaded.get());

    let name = username.clone();
    Effect::new(move |_| {
        let name = name.clone();
        if name.is_empty() || drafts_loaded.get_untracked() {
            return;
        }
        outbox.attach(&name);
        leptos::task::spawn_local(async move {
            let kept = crate::phone_store::get_or_move(&drafts_key(&name), &old_draft_key(&name))
                .await
                .and_then(|text| Drafts::load(&text));
            let kept = kept.unwrap_or_else(|| Drafts {
                current: fresh(),
                others: Vec::new(),
            });
            draft.set(kept.current);
            others.set(kept.others);
            drafts_loaded.set(true);
        });
    });
    Effect::new(move |_| {
        let kept = Drafts {
            current: draft.get(),
            others: others.get(),
        };
        if drafts_loaded.get_untracked() {
            let key = drafts_key(&username);
            leptos::task::spawn_local(async move {
                crate::phone_store::put(&key, &kept).await;
            });
        }
    });
    // "New incident" opens on a new report, not on the receipt of the last one
    // (#35): a report the server took lives on in My reports. Checked once, when
    // the page has the phone's drafts and queue; a report still waiting or
    // refused stays on the form, with its banner, and so does a receipt that
    // says what became of numbers given on scene (said once, there).
    let opened = StoredValue::new(false);
    Effect::new(move |_| {
        if !loaded.get() || opened.get_value() {
            return;
        }
        opened.set_value(true);
        let told = outbox.receipt_for(draft.with_untracked(|d| d.incident_id));
        if told.is_some_and(|r| r.number_notes.is_empty()) {
            draft.set(fresh());
        }
    });
    // A report the server refused comes back with its field errors.
    Effect::new(move |_| {
        let id = draft.with(|d| d.incident_id);
        if let Some(AppError::Invalid { errors: e }) = outbox.rejection_for(id) {
            errors.set(e);
        }
    });

    let submit = move |_| match draft
        .get_untracked()
        .ready(client::parse_local, client::now())
    {
        Ok(report) => {
            errors.set(Vec::new());
            leptos::task::spawn_local(async move {
                let photos: Vec<_> =
                    draft.with_untracked(|d| d.photos.iter().map(|p| p.photo_id).collect());
                if let Err(e) = hand_over(outbox, report, &photos).await {
                    errors.set(vec![e]);
                }
            });
        }
        // Every problem at once, the first one brought to.
        Err(shown) => {
            form::go_to_first(&shown);
            errors.set(shown);
        }
    };
    // A report already handed to the outbox lives on there; an unfinished
    // draft is put aside, to be continued from "On this phone".
    let start_another = move |_| {
        errors.set(Vec::new());
        let current = draft.get_untracked();
        let handed_over = outbox.is_pending(current.incident_id)
            || outbox.receipt_for(current.incident_id).is_some();
        if current.is_started() && !handed_over {
            others.update(|o| o.push(current));
        }
        draft.set(fresh());
    };
    let resume = move |id: uuid::Uuid| {
        errors.set(Vec::new());
        let current = draft.get_untracked();
        let handed_over = outbox.is_pending(current.incident_id)
            || outbox.receipt_for(current.incident_id).is_some();
        let mut rest = others.get_untracked();
        let chosen = match rest.iter().position(|d| d.incident_id == id) {
            Some(k) => rest.remove(k),
            // A refused report put aside: back on the form from what was sent.
            None => match outbox.refused_report(id) {
                Some(report) => Draft::from_report(&report, client::local_text),
                None => return,
            },
        };
        if current.is_started() && !handed_over && current.incident_id != id {
            rest.push(current);
        }
        others.set(rest);
        draft.set(chosen);
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
            {move || receipt.get().map(|r| view! { <ReceiptPanel receipt=r/> })}
            <Show when=move || pending.get()>
                <PendingBanner state=outbox.state/>
            </Show>
            {move || (!editing.get()).then(|| view! {
                <PhoneCopies incident_id=id.get()/>
                <div class="actions">
                    <button type="button" on:click=start_another data-testid="start-another">"Start another report"</button>
                </div>
            })}
            {move || outbox.rejection_for(id.get()).map(|e| view! { <VoidNotice incident_id=id.get() error=e/> })}
        </Show>
        <Show when=move || editing.get()>
            <ErrorList errors draft/>
            <form on:submit=|ev: leptos::ev::SubmitEvent| ev.prevent_default()>
                <fieldset class="unboxed" disabled=move || !loaded.get()>
                    <IncidentForm draft errors photos=true/>
                    <div class="actions sticky">
                        <button type="button" on:click=submit data-testid="submit-report">
                            {move || if loaded.get() { "Submit report" } else { "Opening the form…" }}
                        </button>
                    </div>
                </fieldset>
            </form>
        </Show>
        <Show when=move || loaded.get()>
            <OnThisPhone current=id others start_another resume/>
        </Show>
    }
}

/// Everything of the officer's on this phone besides the form: drafts put
/// aside, reports waiting for signal, reports the server refused, and the
/// block of citation numbers.
#[component]
fn OnThisPhone(
    current: Signal<uuid::Uuid>,
    others: RwSignal<Vec<Draft>>,
    start_another: impl Fn(leptos::ev::MouseEvent) + Copy + Send + Sync + 'static,
    resume: impl Fn(uuid::Uuid) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let outbox = use_outbox();
    move || {
        let here = current.get();
        let drafts: Vec<Draft> = others.get();
        let (pending, refused) = outbox.queue.with(|q| {
            (
                // The report on the form is listed too (#35: the one just
                // queued was missing), its copies shown once, above.
                q.pending.to_vec(),
                q.rejected
                    .iter()
                    .filter(|(r, _)| r.incident_id != here)
                    .cloned()
                    .collect::<Vec<_>>(),
            )
        });
        let all_held = outbox.all_held.get().then(|| view! {
            <p class="hint" data-testid="numbers-all-held">
                "You hold the most blocks of citation numbers allowed, on other phones: citations recorded here get their numbers when the reports reach the server. Sign out on a phone you no longer use to give its numbers back."
            </p>
        });
        let numbers = outbox.held.get().map(|h| {
            if h.left() > 0 && h.block.usable(client::now()) {
                format!(
                    "Citation numbers on this phone: {} left ({} to {}).",
                    h.left(),
                    h.block.number(h.next),
                    h.block.number(h.block.last_seq)
                )
            } else {
                "No citation numbers left on this phone: a citation gets its number when the report reaches the server.".to_owned()
            }
        });
        // Photos still to go, and any the server refused (kept on the phone).
        let (photos_waiting, photos_refused) = outbox
            .queue
            .with(|q| (q.photos.len(), q.refused_photos.clone()));
        let started = |d: &Draft| {
            let place = d.location_text.trim();
            let place = if place.is_empty() {
                "no place yet"
            } else {
                place
            };
            format!(
                "Draft started {} · {place}",
                d.occurred_at.replace('T', " ")
            )
        };
        view! {
            <section class="panel" aria-labelledby="on-phone" data-testid="on-this-phone">
                <h2 id="on-phone">"On this phone"</h2>
                {numbers.map(|n| view! { <p class="hint" data-testid="numbers-held">{n}</p> })}
                {all_held}
                <ul class="on-phone">
                    {drafts.into_iter().map(|d| {
                        let id = d.incident_id;
                        view! {
                            <li data-testid="draft">{started(&d)}" "
                                <button type="button" class="secondary" on:click=move |_| resume(id)>"Continue"</button>
                            </li>
                        }
                    }).collect_view()}
                    {pending.into_iter().map(|r| {
                        let id = r.incident_id;
                        let on_form = id == here;
                        view! {
                            <li data-testid="queued-report">"Waiting to send: " {r.location.text.clone()}
                                {on_form.then_some(" — the report on the form above")}
                                {(!on_form).then(|| view! { <PhoneCopies incident_id=id/> })}
                            </li>
                        }
                    }).collect_view()}
                    {refused.into_iter().map(|(r, e)| {
                        let id = r.incident_id;
                        view! {
                            <li data-testid="refused-report">"Refused by the server: " {r.location.text.clone()} " — " {e.to_string()}" "
                                <button type="button" on:click=move |_| resume(id)>"Fix and send again"</button>
                                <VoidNotice incident_id=id error=e.clone()/>
                            </li>
                        }
                    }).collect_view()}
                    {(photos_waiting > 0).then(|| view! {
                        <li data-testid="photos-waiting">{format!(
                            "{photos_waiting} photo{} waiting to send, each after its report.",
                            if photos_waiting == 1 { "" } else { "s" }
                        )}</li>
                    })}
                    {photos_refused.into_iter().map(|(_, why)| view! {
                        <li data-testid="photo-refused">"A photo the server refused (kept on this phone): " {why}</li>
                    }).collect_view()}
                </ul>
                <button type="button" class="secondary" on:click=start_another>"Start another report"</button>
            </section>
        }
    }
}

/// The citation numbers the phone gave out for a report the server refused:
/// void, never used again (the server recorded why), and the people holding
/// them must be told.
#[component]
fn VoidNotice(incident_id: uuid::Uuid, error: AppError) -> impl IntoView {
    let outbox = use_outbox();
    let numbers: Vec<String> = outbox
        .copies_for(incident_id)
        .into_iter()
        .map(|c| c.doc.number)
        .collect();
    (!numbers.is_empty()).then(|| view! {
        <p class="notice bad" role="alert" data-testid="void-numbers">
            <strong>{format!("Void: {}. ", numbers.join(", "))}</strong>
            {format!("The server refused this report ({error}), so the citation numbers given on scene do not stand and will not be used again. Tell each person; a corrected report gets new numbers.")}
        </p>
    })
}

/// The subject's copies this phone made for a report, each shown on tap as the
/// printable summons (no signal needed).
#[component]
fn PhoneCopies(incident_id: uuid::Uuid) -> impl IntoView {
    let outbox = use_outbox();
    let copies = outbox.copies_for(incident_id);
    let refused = outbox.rejection_for(incident_id).is_some();
    (!copies.is_empty() && !refused).then(|| {
        view! {
            <ul class="copies">
                {copies.into_iter().map(|c| {
                    let open = RwSignal::new(false);
                    let doc = c.doc.clone();
                    view! {
                        <li class="citation-line">
                            <strong data-testid="phone-citation-number">{c.doc.number.clone()}</strong>
                            " · " {c.doc.subject_name.clone()} " · " {c.doc.offence_reference.clone()}
                            " — given on this phone"
                            <br/>
                            <button type="button" class="secondary" aria-expanded=move || open.get().to_string()
                                on:click=move |_| open.update(|o| *o = !*o) data-testid="phone-copy">
                                {move || if open.get() { "Hide the subject's copy" } else { "Subject's copy" }}
                            </button>
                            <Show when=move || open.get()>
                                <Summons doc=doc.clone() on_phone=true/>
                            </Show>
                        </li>
                    }
                }).collect_view()}
            </ul>
        }
    })
}

/// A problem as the list says it: a person's problem names the person, as their
/// part of the form is headed ("Name: required." alone did not say whose, #35).
fn whose_problem(draft: &Draft, error: &FieldError) -> String {
    let person = error
        .field
        .strip_prefix("subjects.")
        .and_then(|rest| rest.split('.').next())
        .and_then(|i| i.parse::<usize>().ok());
    match person.and_then(|i| draft.subjects.get(i).map(|s| (i, s))) {
        Some((i, subject)) => format!("{} — {}", subject.title(i), error.message),
        None => error.message.clone(),
    }
}

/// What still needs attention, each linked to its input. The form keeps the
/// list current as the officer fixes things, and the submit takes the officer to
/// the first one itself: this is the overview, not the way there. (No live
/// region: it changes with every answer; each input names its own problem.)
#[component]
fn ErrorList(errors: RwSignal<Vec<FieldError>>, draft: RwSignal<Draft>) -> impl IntoView {
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
                            let text = draft.with(|d| whose_problem(d, &e));
                            view! { <li><a href=href on:click=go>{text}</a></li> }
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
        .named_outcomes()
        .into_iter()
        .map(|(name, o)| match name {
            Some(name) => format!("{name}: {}", o.label()),
            None => o.label(),
        })
        .collect();
    view! {
        <div class="notice ok" role="status" data-testid="receipt">
            <p><strong>"Report saved on the server. "</strong>
               {match cited { 0 => "No citation issued.".to_owned(), 1 => "1 citation issued.".to_owned(), n => format!("{n} citations issued.") }}</p>
            <ul>{summary.into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}</ul>
            {receipt.number_notes.into_iter().map(|n| view! { <p class="notice bad" data-testid="number-note">{n}</p> }).collect_view()}
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
