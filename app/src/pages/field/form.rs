//! The incident form: one scrolling page in the order the officer works on scene —
//! when and where, the order given, then each person with their own facts (the
//! §52-1 E answer, what they did, the order they received and their response,
//! the offences charged with the rules' verdict live), the narrative, and a
//! review of every person's outcome.
//!
//! Problems show as the officer goes: a field's own problems once the officer
//! leaves it, every problem at once on "Submit", with the first of them
//! scrolled to and focused. They come from [`Draft::problems`], the server's
//! own check run on the phone, so the form never invents a rule.

use std::collections::HashSet;

use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use leptos::web_sys;
use uuid::Uuid;

use super::draft::{
    Draft, OrderDraft, RemovedSubject, ResponseChoice, SubjectDraft, MINUTES_TO_COMPLY,
    ORDER_PHRASES,
};
use super::inputs::{dom_id, Check, Radios, Text, TimeField};
use super::scan::ScanLicence;
use crate::client;
use crate::components::signature_pad::SignaturePad;
use crate::error::FieldError;
use crate::model::incident::{
    AgeRange, IdType, PerceivedRace, PerceivedSex, Submission, MAX_NARRATIVE_CHARS, MAX_SHORT_CHARS,
};
use crate::model::licence::LicenceScan;
use crate::model::signature::{PersonSignature, Signature};
use crate::ordinance::status::status_words;
use crate::ordinance::{
    decide, outcome, suggested_offences, Caution, Charge, Conduct, Decision, Offence, Outcome,
    PersonFacts, PlaceType, ProtectedActivity, RefusalManner, Scene, Verdict,
};

/// The message for `field` among `errors`, as a signal.
pub(super) fn error_at(
    errors: RwSignal<Vec<FieldError>>,
    field: impl Into<String>,
) -> Signal<Option<String>> {
    let field = field.into();
    Signal::derive(move || {
        errors.with(|e| {
            let found: Vec<&str> = e
                .iter()
                .filter(|x| x.field == field)
                .map(|x| x.message.as_str())
                .collect();
            (!found.is_empty()).then(|| found.join(" "))
        })
    })
}

/// Reads part of the draft, as a signal.
fn read<T: Clone + Send + Sync + 'static>(
    draft: RwSignal<Draft>,
    f: impl Fn(&Draft) -> T + Send + Sync + 'static,
) -> Signal<T> {
    Signal::derive(move || draft.with(&f))
}

/// Changes part of the draft.
fn write<T>(
    draft: RwSignal<Draft>,
    f: impl Fn(&mut Draft, T) + Send + Sync + 'static,
) -> Callback<T>
where
    T: Send + Sync + 'static,
{
    Callback::new(move |v| draft.update(|d| f(d, v)))
}

fn read_subject<T: Clone + Default + Send + Sync + 'static>(
    draft: RwSignal<Draft>,
    id: Uuid,
    f: impl Fn(&SubjectDraft) -> T + Send + Sync + 'static,
) -> Signal<T> {
    Signal::derive(move || {
        draft.with(|d| {
            d.subjects
                .iter()
                .find(|s| s.subject_id == id)
                .map(&f)
                .unwrap_or_default()
        })
    })
}

fn write_subject<T: Send + Sync + 'static>(
    draft: RwSignal<Draft>,
    id: Uuid,
    f: impl Fn(&mut SubjectDraft, T) + Send + Sync + 'static,
) -> Callback<T> {
    Callback::new(move |v| {
        draft.update(|d| {
            if let Some(s) = d.subjects.iter_mut().find(|s| s.subject_id == id) {
                f(s, v);
            }
        })
    })
}

/// The error signal for a person's field (its index can change when persons are removed).
fn subject_error(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    id: Uuid,
    name: &'static str,
) -> Signal<Option<String>> {
    Signal::derive(move || {
        let i = draft.with(|d| d.subject_index(id))?;
        error_at(errors, format!("subjects.{i}.{name}")).get()
    })
}

/// The field path of a person's input, at their current position.
fn subject_field(draft: RwSignal<Draft>, id: Uuid, name: &str) -> String {
    let i = draft.with_untracked(|d| d.subject_index(id).unwrap_or(0));
    format!("subjects.{i}.{name}")
}

/// The scene and one person's facts as far as answered, for live verdicts.
fn person_preview(draft: RwSignal<Draft>, id: Uuid) -> Option<(Scene, PersonFacts)> {
    draft.with(|d| {
        let (scene, persons) = d.preview(client::parse_local, client::now())?;
        let i = d.subject_index(id)?;
        persons.into_iter().nth(i).flatten().map(|p| (scene, p))
    })
}

/// The form. `errors` is what it shows: a submit (or the server) sets it to the
/// problems found then; from there the form keeps it current as the draft
/// changes — the live problems of every field left or reported, and the
/// reported problems the phone cannot check itself (the server's) until the
/// officer goes back to their field.
///
/// `photos`: the photo picker (a new incident's form; a correction goes to the
/// server as one request, and photos travel through the outbox after a report).
/// `correction`: the draft corrects a stored report (checked as the server
/// checks a correction: an incident of any age).
#[component]
pub fn IncidentForm(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    #[prop(optional)] photos: bool,
    #[prop(optional)] correction: bool,
) -> impl IntoView {
    let touched = RwSignal::new(HashSet::<String>::new());
    let server_only = StoredValue::new(Vec::<FieldError>::new());
    let submission = if correction {
        Submission::Correction
    } else {
        Submission::New
    };
    check_as_the_officer_goes(draft, errors, touched, server_only, submission);
    let left = move |ev: leptos::ev::FocusEvent| {
        let fields = fields_left(&ev);
        if fields.is_empty() {
            return;
        }
        server_only.update_value(|s| s.retain(|e| !fields.contains(&e.field)));
        touched.update(|t| t.extend(fields));
    };
    view! {
        <div class="incident-form" on:focusout=left>
            <WhenAndWhere draft errors/>
            <Orders draft errors/>
            <People draft errors/>
            <Narrative draft errors photos/>
            <Review draft/>
        </div>
    }
}

/// Keeps `errors` (what the form shows) current: see [`IncidentForm`].
fn check_as_the_officer_goes(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    touched: RwSignal<HashSet<String>>,
    server_only: StoredValue<Vec<FieldError>>,
    submission: Submission,
) {
    let live = Memo::new(move |_| {
        draft.with(|d| d.problems_as(submission, client::parse_local, client::now()))
    });
    // What this effect last wrote: anything else in `errors` was set by a submit
    // or the server.
    let written = StoredValue::new(Vec::<FieldError>::new());
    let reported = StoredValue::new(HashSet::<String>::new());
    Effect::new(move |_| {
        let current = errors.get();
        let touched_now = touched.get();
        live.with(|live| {
            if written.with_value(|w| *w != current) {
                if current.is_empty() {
                    // Sent, or started over: a clean form.
                    reported.update_value(HashSet::clear);
                    server_only.set_value(Vec::new());
                    if !touched_now.is_empty() {
                        touched.set(HashSet::new());
                    }
                } else {
                    reported.update_value(|r| r.extend(current.iter().map(|e| e.field.clone())));
                    server_only.set_value(
                        current
                            .iter()
                            .filter(|e| !live.contains(e))
                            .cloned()
                            .collect(),
                    );
                }
            }
            let watched = |field: &String| {
                touched_now.contains(field) || reported.with_value(|r| r.contains(field))
            };
            let mut shown: Vec<FieldError> =
                live.iter().filter(|e| watched(&e.field)).cloned().collect();
            for e in server_only.get_value() {
                if !shown.contains(&e) {
                    shown.push(e);
                }
            }
            written.set_value(shown.clone());
            if shown != current {
                errors.set(shown);
            }
        });
    });
}

/// The fields (`data-field` of the input's containers) that focus has just
/// left: a container that focus moves within is not left yet, so a person's
/// perception is judged once all three of its questions are behind the officer.
fn fields_left(ev: &leptos::ev::FocusEvent) -> Vec<String> {
    let Some(mut at) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return Vec::new();
    };
    let to = ev
        .related_target()
        .and_then(|t| t.dyn_into::<web_sys::Node>().ok());
    let mut fields = Vec::new();
    while let Ok(Some(container)) = at.closest("[data-field]") {
        if to.as_ref().is_some_and(|n| container.contains(Some(n))) {
            break;
        }
        fields.extend(container.get_attribute("data-field"));
        match container.parent_element() {
            Some(parent) => at = parent,
            None => break,
        }
    }
    fields
}

/// Brings the officer to the first of `errors` in the form: scrolled to (with
/// its label) and focused, a closed "ID document" section opened if that is
/// where it is. Errors of no field go to the summary at the top.
pub fn go_to_first(errors: &[FieldError]) {
    let ids: Vec<String> = errors.iter().map(|e| dom_id(&e.field)).collect();
    // After the errors are drawn, so an input shown only with its error exists.
    request_animation_frame(move || {
        let document = document();
        let first = ids
            .iter()
            .filter_map(|id| document.get_element_by_id(id))
            .reduce(|first, other| {
                let before = first.compare_document_position(&other)
                    & web_sys::Node::DOCUMENT_POSITION_PRECEDING
                    != 0;
                if before {
                    other
                } else {
                    first
                }
            })
            .or_else(|| document.get_element_by_id("form-errors"));
        let Some(element) = first else {
            return;
        };
        let mut closed = element.closest("details:not([open])").ok().flatten();
        while let Some(details) = closed {
            let _ = details.set_attribute("open", "");
            closed = element.closest("details:not([open])").ok().flatten();
        }
        let is_input = matches!(element.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT");
        let target = if is_input {
            Some(element.clone())
        } else {
            element
                .query_selector("input:checked, input, textarea, select, button")
                .ok()
                .flatten()
        };
        let frame = element
            .closest("[data-field]")
            .ok()
            .flatten()
            .unwrap_or_else(|| element.clone());
        frame.scroll_into_view_with_bool(true);
        let focusable = target
            .or(Some(element))
            .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(t) = focusable {
            // A message with no input of its own is focused as text.
            if t.tab_index() < 0 {
                t.set_tab_index(-1);
            }
            let _ = t.focus();
        }
    });
}

#[component]
fn WhenAndWhere(draft: RwSignal<Draft>, errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    let gps_status = RwSignal::new(None::<String>);
    let locate = move |_| {
        gps_status.set(Some("Finding your location…".into()));
        client::locate(move |result| match result {
            Ok(fix) => {
                gps_status.set(Some(format!(
                    "GPS {:.5}, {:.5} (±{:.0} m)",
                    fix.latitude, fix.longitude, fix.accuracy_m
                )));
                draft.update(|d| d.gps = Some(fix));
            }
            Err(why) => gps_status.set(Some(why)),
        });
    };
    let places = PlaceType::ALL
        .iter()
        .map(|p| (*p, p.label().to_owned()))
        .collect();
    view! {
        <section class="panel step" aria-labelledby="step-where">
            <h2 id="step-where">"1. When and where"</h2>
            <TimeField field="occurred_at".into() label="Date and time the incident began".into()
                value=read(draft, |d| d.occurred_at.clone())
                on_input=write(draft, |d, v| d.occurred_at = v)
                error=error_at(errors, "occurred_at")/>
            <Text field="location.text".into() label="Address or landmark".into()
                value=read(draft, |d| d.location_text.clone())
                on_input=write(draft, |d, v| d.location_text = v)
                error=error_at(errors, "location.text")
                autocomplete="off" maxlength=200/>
            <StatusWordsNotice text=read(draft, |d| d.location_text.clone()) what="The location"/>
            <div class="field">
                <button type="button" class="secondary" on:click=locate>"Add GPS location"</button>
                <span class="hint" role="status">{move || gps_status.get().or_else(|| {
                    draft.with(|d| d.gps.map(|g| format!("GPS {:.5}, {:.5} (±{:.0} m)", g.latitude, g.longitude, g.accuracy_m)))
                })}</span>
                <span class="error-text" id="location-gps">{move || error_at(errors, "location.gps").get()}</span>
            </div>
            <Radios name="location.place".into() legend="Type of place where the persons were (§52-1 C)".into() options=places
                selected=read(draft, |d| d.place)
                on_change=write(draft, |d, v| d.place = Some(v))
                error=error_at(errors, "location.place")/>
        </section>
    }
}

/// The time of an order, for the persons' "order received" choice.
fn order_label(k: usize, o: &OrderDraft) -> String {
    let time = o.at.split_once('T').map(|(_, t)| t).unwrap_or("");
    if time.is_empty() {
        format!("Order {}", k + 1)
    } else {
        format!("Order {} ({time})", k + 1)
    }
}

#[component]
fn Orders(draft: RwSignal<Draft>, errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    let given = read(draft, |d| !d.orders.is_empty());
    let pick_phrase = move |words: &'static str, move_on: bool| {
        draft.update(|d| {
            if d.orders.is_empty() {
                d.add_order(client::now_local());
            }
            if let Some(o) = d.orders.last_mut() {
                o.words = words.to_owned();
                o.move_on = o.move_on || move_on;
            }
        })
    };
    let set_given = write(draft, |d, v: bool| {
        if v && d.orders.is_empty() {
            d.add_order(client::now_local());
        } else if !v {
            while !d.orders.is_empty() {
                d.remove_order(0);
            }
        }
    });
    let add = move |_| {
        draft.update(|d| {
            d.add_order(client::now_local());
        })
    };
    view! {
        <section class="panel step" id="orders" aria-labelledby="step-order">
            <h2 id="step-order">"2. The order (§52-1 D)"</h2>
            <p class="hint">"Under §52-1 the violation is failing or refusing to obey your order: record the order first. Each person then says whether they received it."</p>
            <div class="phrases" role="group" aria-label="Order words in one tap">
                {ORDER_PHRASES.iter().map(|(words, move_on)| view! {
                    <button type="button" class="secondary phrase" on:click=move |_| pick_phrase(words, *move_on)>{*words}</button>
                }).collect_view()}
            </div>
            <Check id="order-given".into() label="An order was given".into() checked=given on_change=set_given/>
            <For
                each=move || draft.with(|d| (0..d.orders.len()).collect::<Vec<_>>())
                key=|k| *k
                children=move |k| view! { <OrderFields draft errors k/> }
            />
            <Show when=move || given.get()>
                <button type="button" class="secondary" on:click=add>"Add another order"</button>
            </Show>
        </section>
    }
}

/// "At once" as the form offers it: in the order's own minute only an outright
/// refusal counts (§52-1 D; `DispersalOrder::failure_counts_from`).
const AT_ONCE: &str = "At once — only an outright refusal counts in the order's minute";

#[component]
fn OrderFields(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    k: usize,
) -> impl IntoView {
    let read_order = move |f: fn(&OrderDraft) -> String| {
        Signal::derive(move || draft.with(|d| d.orders.get(k).map(f).unwrap_or_default()))
    };
    let write_order = move |f: fn(&mut OrderDraft, String)| {
        Callback::new(move |v: String| {
            draft.update(|d| {
                if let Some(o) = d.orders.get_mut(k) {
                    f(o, v);
                }
            })
        })
    };
    let many = read(draft, |d| d.orders.len() > 1);
    let minutes: Vec<(u32, String)> = MINUTES_TO_COMPLY
        .iter()
        .map(|m| {
            (
                *m,
                if *m == 0 {
                    AT_ONCE.to_owned()
                } else {
                    format!("{m} min")
                },
            )
        })
        .collect();
    let f = move |name: &str| format!("orders.{k}.{name}");
    view! {
        <div class="order" role="group" aria-label=format!("Order {}", k + 1)>
            <Show when=move || many.get()>
                <p class="subhead">{format!("Order {}", k + 1)}</p>
            </Show>
            <Text field=f("words") label="Words of the order".into() multiline=true
                value=read_order(|o| o.words.clone())
                on_input=write_order(|o, v| o.words = v)
                error=error_at(errors, f("words")) maxlength=2000/>
            <StatusWordsNotice text=read_order(|o| o.words.clone()) what="The words of the order"/>
            <TimeField field=f("given_at") label="Time the order was given".into()
                value=read_order(|o| o.at.clone())
                on_input=write_order(|o, v| o.at = v)
                error=error_at(errors, f("given_at"))/>
            <Check id=format!("order-{k}-move-on") label="Included “move on and disperse”".into()
                checked=Signal::derive(move || draft.with(|d| d.orders.get(k).is_some_and(|o| o.move_on)))
                on_change=write(draft, move |d, v| if let Some(o) = d.orders.get_mut(k) { o.move_on = v })/>
            <Radios name=f("minutes_to_comply") legend="Time allowed to comply".into() compact=true options=minutes
                hint="A person fails to obey only after a chance to obey (§52-1 D): choose the time you gave.".into()
                selected=Signal::derive(move || draft.with(|d| d.orders.get(k).and_then(|o| o.minutes_to_comply)))
                on_change=write(draft, move |d, v| if let Some(o) = d.orders.get_mut(k) { o.minutes_to_comply = Some(v) })
                error=error_at(errors, f("minutes_to_comply"))/>
            <Show when=move || many.get()>
                <button type="button" class="secondary" on:click=move |_| draft.update(|d| d.remove_order(k))>
                    {format!("Remove order {}", k + 1)}
                </button>
            </Show>
        </div>
    }
}

#[component]
fn People(draft: RwSignal<Draft>, errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    let add = move |_| draft.update(|d| d.subjects.push(SubjectDraft::new(client::new_id())));
    // The removal on offer to undo: (which removal, the person, the draft it left).
    let undo = RwSignal::new(None::<(u32, RemovedSubject, Draft)>);
    let removals = StoredValue::new(0u32);
    let remove = Callback::new(move |id: Uuid| {
        let mut removed = None;
        draft.update(|d| removed = d.remove_subject(id));
        let Some(removed) = removed else {
            return;
        };
        removals.update_value(|n| *n += 1);
        let this = removals.get_value();
        undo.set(Some((this, removed, draft.get_untracked())));
        set_timeout(
            move || {
                undo.try_update(|u| {
                    if u.as_ref().is_some_and(|(n, ..)| *n == this) {
                        *u = None;
                    }
                });
            },
            UNDO_FOR,
        );
        // The button tapped is gone with the person: focus goes to "Undo".
        crate::components::form::focus_input("undo-remove");
    });
    // Any other change ends the offer: an undo then would undo more than the removal.
    Effect::new(move |_| {
        let changed = draft
            .with(|d| undo.with_untracked(|u| u.as_ref().is_some_and(|(_, _, left)| left != d)));
        if changed {
            undo.set(None);
        }
    });
    let restore = move |_| {
        if let Some((_, removed, _)) = undo.get_untracked() {
            undo.set(None);
            draft.update(|d| d.restore_subject(removed));
        }
    };
    view! {
        <section class="panel step" aria-labelledby="step-people">
            <h2 id="step-people">"3. People — each answers for their own conduct"</h2>
            <p class="error-text" id="subjects">{move || error_at(errors, "subjects").get()}</p>
            <For
                each=move || draft.with(|d| d.subjects.iter().map(|s| s.subject_id).collect::<Vec<_>>())
                key=|id| *id
                children=move |id| view! { <Person draft errors id on_remove=remove/> }
            />
            {move || undo.with(|u| u.as_ref().map(|(_, removed, _)| {
                let name = removed.subject.title(removed.position());
                view! {
                    <div class="notice warn undo" role="status" data-testid="undo-remove">
                        <p>{format!("{name} removed from the report.")}</p>
                        <button type="button" class="secondary" id="undo-remove" on:click=restore>
                            {format!("Undo — put {name} back")}
                        </button>
                    </div>
                }
            }))}
            <button type="button" class="secondary add-person" on:click=add>"Add another person"</button>
        </section>
    }
}

/// How long "Undo" is offered after a person is removed (unless the draft
/// changes first).
const UNDO_FOR: std::time::Duration = std::time::Duration::from_secs(10);

#[component]
fn Person(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    id: Uuid,
    on_remove: Callback<Uuid>,
) -> impl IntoView {
    let title = Signal::derive(move || {
        draft.with(|d| {
            d.subject_index(id)
                .map(|i| d.subjects[i].title(i))
                .unwrap_or_default()
        })
    });
    let index = Signal::derive(move || draft.with(|d| d.subject_index(id).unwrap_or(0)));
    let many = read(draft, |d| d.subjects.len() > 1);
    view! {
        <article class="person" aria-label=move || title.get()>
            <div class="person-head">
                <h3>{move || title.get()}</h3>
                // Kept at the top of the person, away from "Add another person";
                // a removal can be undone.
                <Show when=move || many.get()>
                    <button type="button" class="secondary remove-person"
                        aria-label=move || format!("Remove {} from the report", title.get())
                        on:click=move |_| on_remove.run(id)>"Remove"</button>
                </Show>
            </div>
            <IdentityOf draft errors id/>
            <PerceivedOf draft errors id/>
            <Show when=move || { index.get() > 0 }>
                <SameAsFirst draft id/>
            </Show>
            <ConvertedCheck draft errors id/>
            <ProtectedOf draft errors id/>
            <PlaceOf draft errors id/>
            <ConductOf draft id/>
            <ResponseOf draft errors id/>
            <ChargesOf draft errors id/>
        </article>
    }
}

/// Who the person is: identified (by hand or from a licence's barcode), or
/// described.
#[component]
fn IdentityOf(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    id: Uuid,
) -> impl IntoView {
    let identified = read_subject(draft, id, |s| s.identified);
    let err = move |name: &'static str| subject_error(draft, errors, id, name);
    let field = move |name: &str| subject_field(draft, id, name);
    let ids: Vec<(IdType, String)> = IdType::ALL
        .iter()
        .map(|t| (*t, t.label().to_owned()))
        .collect();
    view! {
        <Radios name=field("identified") legend="Identity".into() compact=true
            options=vec![(true, "Identified".to_owned()), (false, "Not identified — describe".to_owned())]
            selected=Signal::derive(move || Some(identified.get()))
            on_change=write_subject(draft, id, |s, v| s.identified = v)/>
        <Show when=move || identified.get() fallback=move || view! {
            <Text field=field("description") label="Description (clothing, build, hair)".into()
                hint="What they looked like — not who they are: no age group or status words.".into()
                value=read_subject(draft, id, |s| s.description.clone())
                on_input=write_subject(draft, id, |s, v| s.description = v)
                error=err("description") maxlength=200/>
            <StatusWordsNotice text=read_subject(draft, id, |s| s.description.clone())
                what="The description"/>
        }>
            <ScanLicence field=field("licence")
                on_fill=write_subject(draft, id, |s, card: LicenceScan| s.fill_from_card(&card))/>
            <Text field=field("full_name") label="Full name".into()
                value=read_subject(draft, id, |s| s.full_name.clone())
                on_input=write_subject(draft, id, |s, v| s.full_name = v)
                error=err("full_name") autocomplete="off" maxlength=200/>
            <Text field=field("date_of_birth") label="Date of birth".into() kind="date"
                value=read_subject(draft, id, |s| s.date_of_birth.clone())
                on_input=write_subject(draft, id, |s, v| s.date_of_birth = v)
                error=err("date_of_birth")/>
            <Text field=field("address") label="Address".into()
                value=read_subject(draft, id, |s| s.address.clone())
                on_input=write_subject(draft, id, |s, v| s.address = v)
                error=err("address") autocomplete="off" maxlength=200/>
            <details class="more">
                <summary>"ID document (optional)"</summary>
                <Radios name=field("id_type") legend="Type of ID".into() compact=true options=ids.clone()
                    selected=read_subject(draft, id, |s| s.id_type)
                    on_change=write_subject(draft, id, |s, v| s.id_type = Some(v))
                    error=err("id_type")/>
                <Text field=field("id_number") label="ID number".into()
                    value=read_subject(draft, id, |s| s.id_number.clone())
                    on_input=write_subject(draft, id, |s, v| s.id_number = v)
                    error=err("id_number") autocomplete="off" maxlength=200/>
            </details>
        </Show>
    }
}

/// The officer's perception of the person, for bias audits.
#[component]
fn PerceivedOf(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    id: Uuid,
) -> impl IntoView {
    let field = move |name: &str| subject_field(draft, id, name);
    let ages = AgeRange::ALL
        .iter()
        .map(|t| (*t, t.label().to_owned()))
        .collect();
    let sexes = PerceivedSex::ALL
        .iter()
        .map(|t| (*t, t.label().to_owned()))
        .collect();
    let races = PerceivedRace::ALL
        .iter()
        .map(|t| (*t, t.label().to_owned()))
        .collect();
    view! {
        <div class="perceived" id=dom_id(&field("perceived")) data-field=field("perceived")>
            <p class="subhead">"Your perception (for bias audits — never ask the person)"</p>
            <p class="error-text">{move || subject_error(draft, errors, id, "perceived").get()}</p>
            <Radios name=field("age") legend="Age range".into() compact=true options=ages
                selected=read_subject(draft, id, |s| s.age_range)
                on_change=write_subject(draft, id, |s, v| s.age_range = Some(v))/>
            <Radios name=field("sex") legend="Sex".into() compact=true options=sexes
                selected=read_subject(draft, id, |s| s.sex)
                on_change=write_subject(draft, id, |s, v| s.sex = Some(v))/>
            <Radios name=field("race") legend="Race".into() compact=true options=races
                selected=read_subject(draft, id, |s| s.race)
                on_change=write_subject(draft, id, |s, v| s.race = Some(v))/>
        </div>
    }
}

/// "Same facts as" the first person, in one tap, said once tapped.
#[component]
fn SameAsFirst(draft: RwSignal<Draft>, id: Uuid) -> impl IntoView {
    let first_title = read(draft, |d| {
        d.subjects.first().map(|s| s.title(0)).unwrap_or_default()
    });
    // What was copied, said once the officer taps: nothing is shared silently.
    let copied = RwSignal::new(None::<String>);
    let same_as_first = move |_| {
        draft.update(|d| {
            let Some(first) = d.subjects.first().cloned() else {
                return;
            };
            if let Some(s) = d.subjects.iter_mut().find(|s| s.subject_id == id) {
                s.copy_facts(&first);
            }
        });
        copied.set(Some(first_title.get_untracked()));
    };
    view! {
        <div class="same-as-first">
            <button type="button" class="secondary" on:click=same_as_first
                data-testid="same-as-first">
                {move || format!("Same facts as {}", first_title.get())}
            </button>
            <p class="hint">"Copies the §52-1 E answer, where they were, conduct, order, response and offences; not the identity, the citation or an arrest."</p>
            <p class="notice ok" role="status" hidden=move || copied.with(Option::is_none)>
                {move || copied.get().map(|from| format!(
                    "Copied from {from}. Check each answer below for this person: each answers for their own conduct."
                ))}
            </p>
        </div>
    }
}

/// A person converted from the earlier app (issue #33): the answers it filled in
/// without a record of them, to be checked and confirmed before the report goes.
#[component]
fn ConvertedCheck(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    id: Uuid,
) -> impl IntoView {
    let to_check = read_subject(draft, id, |s| s.to_check.clone());
    let confirm = write_subject(draft, id, |s, ()| s.to_check.clear());
    let field = subject_field(draft, id, "to_check");
    view! {
        <Show when=move || !to_check.with(Vec::is_empty)>
            <div class="notice warn" role="status" id=dom_id(&field)
                data-field=field.clone() data-testid="converted-check">
                <p>{move || super::draft::to_check_message(&to_check.get())}</p>
                <p class="error-text">{move || subject_error(draft, errors, id, "to_check").get()}</p>
                <button type="button" class="secondary" on:click=move |_| confirm.run(())>
                    "I have checked these answers for this person"</button>
            </div>
        </Show>
    }
}

/// A caution beside a free text that uses status words (never a block).
#[component]
fn StatusWordsNotice(text: Signal<String>, what: &'static str) -> impl IntoView {
    let words = Memo::new(move |_| text.with(|t| status_words(t)));
    view! {
        <Show when=move || !words.get().is_empty()>
            <div class="notice warn" role="status" data-testid="status-words">
                {move || format!(
                    "{what} uses status words: {}. Being homeless, young, idle or in a group is no element of any offence — describe what the person did. The chief will see this caution.",
                    words.get().join(", ")
                )}
            </div>
        </Show>
    }
}

#[component]
fn ProtectedOf(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    id: Uuid,
) -> impl IntoView {
    let options = ProtectedActivity::ALL
        .iter()
        .map(|p| (*p, p.label().to_owned()))
        .collect();
    let protected = read_subject(draft, id, |s| s.protected.is_some_and(|p| p.is_protected()));
    let contravening = read_subject(draft, id, |s| {
        s.protected == Some(ProtectedActivity::UnlawfulExpression)
    });
    let no_action = write_subject(draft, id, |s, ()| {
        s.no_action();
        if s.response.is_none() {
            s.response = Some(ResponseChoice::NoOrder);
            s.order = None;
        }
    });
    view! {
        <Radios name=subject_field(draft, id, "protected_activity")
            legend="§52-1 E — Was this person picketing peacefully, speaking publicly, or otherwise expressing an opinion lawfully?".into()
            options
            selected=read_subject(draft, id, |s| s.protected)
            on_change=write_subject(draft, id, |s, v| {
                s.protected = Some(v);
                if v.is_protected() {
                    // §52-1 offences cannot be charged to this person.
                    let gone: Vec<Offence> = s.offences.iter().copied().filter(|o| o.is_section_52_1()).collect();
                    for o in gone { s.toggle_offence(o, false); }
                }
            })
            error=subject_error(draft, errors, id, "protected_activity")/>
        <Show when=move || protected.get()>
            <div class="notice warn" role="status" data-testid="protected-notice">
                <p>"§52-1 E: loitering (§52-1) does not apply to this person's peaceful picketing, public speaking or other lawful "
                   "expression. §52-1 offences are not offered for them. A §52-2 or §52-3 case involving expression goes to the chief for review."</p>
                <button type="button" class="secondary" on:click=move |_| no_action.run(())>"Record this person as protected activity — no action"</button>
            </div>
        </Show>
        <Show when=move || contravening.get()>
            <div class="notice warn" role="status" data-testid="contravening-notice">
                <p>"§52-1 E: expression is shielded unless it contravened another Town ordinance or a State or "
                   "Federal law. Name that law: §52-1 offences may then be charged, and the chief reviews the case."</p>
            </div>
            <Text field=subject_field(draft, id, "contravenes")
                label="The law the expression contravened (ordinance or statute, with its section)".into()
                value=read_subject(draft, id, |s| s.contravenes.clone())
                on_input=write_subject(draft, id, |s, v| s.contravenes = v)
                error=subject_error(draft, errors, id, "contravenes") maxlength=MAX_SHORT_CHARS/>
        </Show>
    }
}

/// Where this person was (§52-1 A, C; §52-2; §52-3): the incident's place unless
/// the officer says otherwise — no tap when it is the same.
#[component]
fn PlaceOf(draft: RwSignal<Draft>, errors: RwSignal<Vec<FieldError>>, id: Uuid) -> impl IntoView {
    let incident = read(draft, |d| d.place);
    let own = read_subject(draft, id, |s| s.place);
    let summary = move || match (own.get(), incident.get()) {
        (Some(place), _) => format!("Where was this person? {}", place.label()),
        (None, Some(place)) => format!(
            "Where was this person? Same place as the incident — {}",
            place.label()
        ),
        (None, None) => "Where was this person? Same place as the incident".to_owned(),
    };
    let options = Signal::derive(move || {
        let same = match incident.get() {
            Some(place) => format!("Same place as the incident ({})", place.label()),
            None => "Same place as the incident".to_owned(),
        };
        std::iter::once((None, same))
            .chain(
                PlaceType::ALL
                    .iter()
                    .map(|p| (Some(*p), p.label().to_owned())),
            )
            .collect::<Vec<_>>()
    });
    // Drawn only while open: a closed question has no second set of place
    // names on the page beside the incident's.
    let open = RwSignal::new(false);
    let toggled = move |ev: leptos::ev::Event| {
        open.set(event_target::<web_sys::Element>(&ev).has_attribute("open"));
    };
    view! {
        <details class="more person-place" data-testid="person-place" on:toggle=toggled>
            <summary>{summary}</summary>
            <Show when=move || open.get()>
                {move || view! {
                    <Radios name=subject_field(draft, id, "place") legend="Where was this person? (§52-1 C)".into()
                        compact=true options=options.get()
                        hint="Each person is judged where they were: on their own porch is not a street or public place.".into()
                        selected=Signal::derive(move || Some(own.get()))
                        on_change=write_subject(draft, id, |s, v: Option<PlaceType>| s.place = v)
                        error=subject_error(draft, errors, id, "place")/>
                }}
            </Show>
        </details>
    }
}

#[component]
fn ConductOf(draft: RwSignal<Draft>, id: Uuid) -> impl IntoView {
    let protected = read_subject(draft, id, |s| s.protected.is_some_and(|p| p.is_protected()));
    let check =
        move |name: &str, label: &str, get: fn(&Conduct) -> bool, set: fn(&mut Conduct, bool)| {
            view! {
                <Check id=format!("c-{id}-{name}") label=label.to_owned()
                    checked=read_subject(draft, id, move |s| get(&s.conduct))
                    on_change=write_subject(draft, id, move |s, v| {
                        set(&mut s.conduct, v);
                    })/>
            }
        };
    let obstructing = read_subject(draft, id, |s| s.conduct.passage.any());
    // Passage hindered: the place obstructed defaults to where the person was.
    // (Written only when the place is missing, so the write does not wake this
    // effect again.)
    Effect::new(move |_| {
        let unset = draft.with_untracked(|d| {
            d.subjects
                .iter()
                .any(|s| s.subject_id == id && s.conduct.passage.place.is_none())
        });
        if obstructing.get() && unset {
            draft.update(|d| {
                let place = d.place;
                if let Some(s) = d.subjects.iter_mut().find(|s| s.subject_id == id) {
                    s.conduct.passage.place = place;
                }
            });
        }
    });
    let others = read_subject(draft, id, |s| s.conduct.group.others);
    let step = move |delta: i32| {
        draft.update(|d| {
            if let Some(s) = d.subjects.iter_mut().find(|s| s.subject_id == id) {
                let n = i32::from(s.conduct.group.others) + delta;
                s.conduct.group.others = n.clamp(0, 999) as u16;
            }
        })
    };
    let label_id = format!("others-{id}");
    let suggested = Memo::new(move |_| {
        person_preview(draft, id)
            .map(|(_, p)| suggested_offences(&p))
            .unwrap_or_default()
    });
    view! {
        <fieldset class="conduct">
            <legend>"What this person did"</legend>
            <p class="hint">"Record this person's own conduct only. Tick what you saw them do."</p>
            <Show when=move || !protected.get()>
                <p class="subhead">"Loitering (§52-1)"</p>
                {check("stayed", "Remained in essentially one place, alone or with others (§52-1 B)",
                    |c| c.remained_in_one_location, |c, v| c.remained_in_one_location = v)}
                <p class="subhead">"Obstructed passage — §52-1 A(1)"</p>
                {check("pedestrians", "Hindered or impeded pedestrians (or tended to)",
                    |c| c.passage.pedestrians, |c, v| c.passage.pedestrians = v)}
                {check("vehicles", "Hindered or impeded vehicles (or tended to)",
                    |c| c.passage.vehicles, |c, v| c.passage.vehicles = v)}
                <Show when=move || obstructing.get()>
                    <Radios name=subject_field(draft, id, "conduct.passage.place")
                        legend="The street or place obstructed (it must be public)".into() compact=true
                        options=PlaceType::ALL.iter().map(|p| (*p, p.label().to_owned())).collect()
                        selected=read_subject(draft, id, |s| s.conduct.passage.place)
                        on_change=write_subject(draft, id, |s, v| s.conduct.passage.place = Some(v))/>
                </Show>
                <p class="subhead">"Interfered — §52-1 A(2)"</p>
                {check("property", "With the use of property",
                    |c| c.interference.use_of_property, |c, v| c.interference.use_of_property = v)}
                {check("business", "With a business being lawfully conducted",
                    |c| c.interference.lawful_business, |c, v| c.interference.lawful_business = v)}
                {check("access", "With free ingress or egress",
                    |c| c.interference.ingress_egress, |c, v| c.interference.ingress_egress = v)}
                <p class="subhead">"Disturbance — §52-1 A(3)"</p>
                {check("annoyance", "Created a disturbance or annoyance",
                    |c| c.disturbance.disturbance_or_annoyance, |c, v| c.disturbance.disturbance_or_annoyance = v)}
                {check("alarm", "It caused a person discomfort or alarm",
                    |c| c.disturbance.discomfort_or_alarm, |c, v| c.disturbance.discomfort_or_alarm = v)}
                {check("passing", "That person was lawfully going in, to or from a building, dwelling or public place",
                    |c| c.disturbance.person_lawfully_passing, |c, v| c.disturbance.person_lawfully_passing = v)}
            </Show>
            <p class="subhead" id=dom_id(&subject_field(draft, id, "conduct.group.stood_with"))>"Standing together in the street or on the sidewalk — §52-2"</p>
            <For
                each=move || draft.with(|d| d.subjects.iter().filter(|s| s.subject_id != id).map(|s| s.subject_id).collect::<Vec<_>>())
                key=|other| *other
                children=move |other| {
                    let name = Signal::derive(move || draft.with(|d| {
                        d.subject_index(other).map(|j| d.subjects[j].title(j)).unwrap_or_default()
                    }));
                    // The label follows the other person's name as it is typed.
                    move || view! {
                        <Check id=format!("c-{id}-with-{other}") label=format!("Stood with {}", name.get())
                            checked=read_subject(draft, id, move |s| s.stood_with.contains(&other))
                            on_change=write_subject(draft, id, move |s, v| {
                                s.stood_with.retain(|w| *w != other);
                                if v { s.stood_with.push(other); }
                            })/>
                    }
                }
            />
            <div class="field">
                <span id=label_id.clone()>"Others they stood with, not listed as persons here"</span>
                <div class="stepper" role="group" aria-labelledby=label_id>
                    <button type="button" class="secondary" aria-label="One fewer other person" on:click=move |_| step(-1)>"−"</button>
                    <output aria-live="polite" data-testid="others-together">{move || others.get()}</output>
                    <button type="button" class="secondary" aria-label="One more other person" on:click=move |_| step(1)>"+"</button>
                </div>
            </div>
            {check("group", "They obstructed free passage",
                |c| c.group.obstructs_free_passage, |c, v| c.group.obstructs_free_passage = v)}
            <p class="subhead">"Disturbing the peace — §52-3"</p>
            {check("loud", "Made a loud noise", |c| c.peace.loud_noise, |c, v| c.peace.loud_noise = v)}
            {check("unusual", "Made an unusual noise", |c| c.peace.unusual_noise, |c, v| c.peace.unusual_noise = v)}
            {check("improper", "Sang improper songs", |c| c.peace.improper_songs, |c, v| c.peace.improper_songs = v)}
            {check("boisterous", "Sang boisterous songs", |c| c.peace.boisterous_songs, |c, v| c.peace.boisterous_songs = v)}
            <p class="hint">"Songs or words that are obscene and indecent and profane — all three are needed:"</p>
            {check("obscene", "Obscene", |c| c.peace.obscene, |c, v| c.peace.obscene = v)}
            {check("indecent", "Indecent", |c| c.peace.indecent, |c, v| c.peace.indecent = v)}
            {check("profane", "Profane", |c| c.peace.profane, |c, v| c.peace.profane = v)}
            {check("unruly", "Unruly or boisterous manner", |c| c.peace.unruly_or_boisterous_manner, |c, v| c.peace.unruly_or_boisterous_manner = v)}
            {check("quiet", "…and it disturbed the quiet and good order of the Town",
                |c| c.peace.disturbed_quiet_and_good_order, |c, v| c.peace.disturbed_quiet_and_good_order = v)}
            <p class="hint" role="status" data-testid="suggested">
                {move || {
                    let s = suggested.get();
                    if s.is_empty() {
                        "No offence matches this person's conduct yet.".to_owned()
                    } else {
                        format!("Matches: {}", s.iter().map(|o| o.reference()).collect::<Vec<_>>().join(", "))
                    }
                }}
            </p>
        </fieldset>
    }
}

#[component]
fn ResponseOf(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    id: Uuid,
) -> impl IntoView {
    let choice = read_subject(draft, id, |s| s.response);
    let options = ResponseChoice::ALL
        .iter()
        .map(|c| (*c, c.label().to_owned()))
        .collect();
    view! {
        <div class="response">
            <Radios name=subject_field(draft, id, "response") legend="What this person did about the order (§52-1 D)".into() options
                selected=choice
                on_change=Callback::new(move |v: ResponseChoice| {
                    draft.update(|d| {
                        let last = d.orders.len().checked_sub(1);
                        if let Some(s) = d.subjects.iter_mut().find(|s| s.subject_id == id) {
                            s.response = Some(v);
                            // The time stays empty until the officer gives it: a
                            // time filled in here would be the minute of the tap,
                            // inside any time allowed to comply (§52-1 D).
                            if v.needs_time() {
                                if s.order.is_none() { s.order = last; }
                            } else {
                                s.order = None;
                            }
                        }
                    })
                })
                error=subject_error(draft, errors, id, "response")/>
            <OrderReceivedOf draft errors id/>
            // How, before when: whether the time allowed matters depends on it.
            <Show when=move || choice.get() == Some(ResponseChoice::Refused)>
                <MannerOf draft errors id/>
            </Show>
            <Show when=move || choice.get().is_some_and(ResponseChoice::needs_time)>
                <TimeField field=subject_field(draft, id, "response_at") label="Time of the response".into()
                    hint="The time it happened. Inside the time allowed to comply the person may still comply: record a failure to obey once that time has passed.".into()
                    value=read_subject(draft, id, |s| s.response_at.clone())
                    on_input=write_subject(draft, id, |s, v| s.response_at = v)
                    error=subject_error(draft, errors, id, "response_at")/>
            </Show>
        </div>
    }
}

/// Which order the person received, asked only when there are several (with
/// one, its problem shows in the question's place).
#[component]
fn OrderReceivedOf(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    id: Uuid,
) -> impl IntoView {
    let choice = read_subject(draft, id, |s| s.response);
    let several_orders = read(draft, |d| d.orders.len() > 1);
    let order_options = Signal::derive(move || {
        draft.with(|d| {
            d.orders
                .iter()
                .enumerate()
                .map(|(k, o)| (Some(k), order_label(k, o)))
                .chain(std::iter::once((None, "None".to_owned())))
                .collect::<Vec<_>>()
        })
    });
    view! {
        <Show when=move || several_orders.get() && choice.get().is_some_and(ResponseChoice::needs_time)>
            {move || view! {
                <Radios name=subject_field(draft, id, "order") legend="The order this person received".into() compact=true
                    options=order_options.get()
                    selected=read_subject(draft, id, |s| Some(s.order))
                    on_change=write_subject(draft, id, |s, v| s.order = v)
                    error=subject_error(draft, errors, id, "order")/>
            }}
        </Show>
        // With one order its radio is not shown: the message stands in its place.
        <p class="error-text" id=move || (!several_orders.get()).then(|| dom_id(&subject_field(draft, id, "order")))>
            {move || if several_orders.get() { None } else { subject_error(draft, errors, id, "order").get() }}
        </p>
    }
}

/// How the person failed or refused (§52-1 D): outright at once, or a failure
/// after the chance to obey.
#[component]
fn MannerOf(draft: RwSignal<Draft>, errors: RwSignal<Vec<FieldError>>, id: Uuid) -> impl IntoView {
    // "Left, then came back" is no longer offered; a stored report's answer is
    // still shown, to be corrected.
    let stored_manner = draft.with_untracked(|d| {
        d.subjects
            .iter()
            .find(|s| s.subject_id == id)
            .and_then(|s| s.manner)
    });
    let manners: Vec<(RefusalManner, String)> = RefusalManner::ALL
        .iter()
        .filter(|m| RefusalManner::OFFERED.contains(m) || stored_manner == Some(**m))
        .map(|m| (*m, m.label().to_owned()))
        .collect();
    view! {
        <Radios name=subject_field(draft, id, "manner") legend="How they failed or refused".into() options=manners
            hint="Saying no, doing the opposite, or coming back to the conduct the order stopped is a refusal at once. Staying put is a failure to obey only after the chance to obey: the time allowed, and never in the order's own minute. Coming back peacefully is not a refusal.".into()
            selected=read_subject(draft, id, |s| s.manner)
            on_change=write_subject(draft, id, |s, v| s.manner = Some(v))
            error=subject_error(draft, errors, id, "manner")/>
    }
}

/// This person's decision on each offence offered, as the server will make it.
fn decisions_of(draft: RwSignal<Draft>, id: Uuid) -> Vec<Decision> {
    let Some((scene, person)) = person_preview(draft, id) else {
        return Vec::new();
    };
    Offence::offered(person.protected_activity)
        .into_iter()
        .map(|o| decide(&scene, &person, o, client::now()))
        .collect()
}

#[component]
fn ChargesOf(draft: RwSignal<Draft>, errors: RwSignal<Vec<FieldError>>, id: Uuid) -> impl IntoView {
    let protected = read_subject(draft, id, |s| s.protected.unwrap_or_default());
    let decisions = Memo::new(move |_| decisions_of(draft, id));
    let suggested = Memo::new(move |_| {
        person_preview(draft, id)
            .map(|(_, p)| suggested_offences(&p))
            .unwrap_or_default()
    });
    let cites_52_2 = read_subject(draft, id, |s| s.cite.contains(&Offence::GroupObstruction));
    let cites_any = read_subject(draft, id, |s| !s.cite.is_empty());
    // A §52-1 citation the officer's last tick took back, to say why.
    let taken_back = RwSignal::new(None::<(Offence, Offence)>);
    let cite = move |o: Offence| {
        Callback::new(move |on: bool| {
            let mut back = None;
            draft.update(|d| {
                if let Some(s) = d.subjects.iter_mut().find(|s| s.subject_id == id) {
                    back = s.toggle_citation(o, on);
                }
            });
            taken_back.set(back.map(|b| (o, b)));
        })
    };
    view! {
        <article class="charge" data-testid="verdict">
            <fieldset id=move || dom_id(&subject_field(draft, id, "charges"))
                data-field=move || subject_field(draft, id, "charges")>
                <legend>"Offences charged to this person"</legend>
                {move || {
                    let suggested = suggested.get();
                    Offence::offered(protected.get()).into_iter().map(|o| {
                        let mark = if suggested.contains(&o) { " — matches what this person did" } else { "" };
                        let label = format!("{} {}{mark}", o.reference(), o.title());
                        let decision = Signal::derive(move || decisions.with(|ds| ds.iter().find(|d| d.offence == o).cloned()));
                        let charged = read_subject(draft, id, move |s| s.offences.contains(&o));
                        view! {
                            <div class="offence">
                                <Check id=format!("charge-{id}-{}", o.code()) label=label
                                    checked=charged
                                    on_change=write_subject(draft, id, move |s, v| s.toggle_offence(o, v))/>
                                <Show when=move || charged.get()>
                                    {move || decision.get().map(|d| view! { <VerdictNotice decision=d/> })}
                                    // Shown while citable, and while a citation is asked
                                    // for that the facts no longer allow (to untick it).
                                    <Show when=move || decision.get().is_some_and(|d| d.is_citable())
                                        || draft.with(|d| d.subjects.iter().any(|s| s.subject_id == id && s.cite.contains(&o)))>
                                        <Check id=format!("issue-{id}-{}", o.code())
                                            label=cite_label(o)
                                            checked=read_subject(draft, id, move |s| s.cite.contains(&o))
                                            on_change=cite(o)/>
                                    </Show>
                                </Show>
                            </div>
                        }
                    }).collect_view()
                }}
                <Check id=format!("no-offence-{id}") label="No offence — no action".into()
                    checked=read_subject(draft, id, |s| s.no_offence)
                    on_change=write_subject(draft, id, |s, v| if v { s.no_action() } else { s.no_offence = false })/>
                <p class="error-text">{move || subject_error(draft, errors, id, "charges").get()}</p>
            </fieldset>
            <OneSection52_1Citation taken_back/>
            <PersonCautions draft id/>
            <Show when=move || cites_52_2.get()>
                <Check id=format!("arrest-{id}")
                    label="An arrest was made, to bring the person before the District Court (§52-2). Leave unticked for a summons without arrest.".into()
                    checked=read_subject(draft, id, |s| s.arrested)
                    on_change=write_subject(draft, id, |s, v| s.arrested = v)/>
            </Show>
            <Show when=move || cites_any.get()>
                <PersonSignatureOf draft errors id/>
            </Show>
        </article>
    }
}

/// Says why a §52-1 citation was unticked when another was ticked (§52-1 D:
/// one refusal of one order is one violation).
#[component]
fn OneSection52_1Citation(taken_back: RwSignal<Option<(Offence, Offence)>>) -> impl IntoView {
    view! {
        {move || taken_back.get().map(|(cited, back)| view! {
            <p class="notice warn" role="status" data-testid="one-section-52-1-citation">
                {format!(
                    "§52-1 D: one refusal of one order is one violation of §52-1 — the citation for {} was \
                     unticked for {}. {} stays charged, without a citation.",
                    back.reference(),
                    cited.reference(),
                    back.reference()
                )}
            </p>
        })}
    }
}

/// The cautions for the chief that concern this person as a whole (a minor, a
/// person not identified given a citation, §52-2 beside §52-1), as the server
/// will record them.
#[component]
fn PersonCautions(draft: RwSignal<Draft>, id: Uuid) -> impl IntoView {
    let cautions = Memo::new(move |_| {
        draft.with(|d| d.person_cautions(id, client::parse_local, client::now()))
    });
    view! {
        <Show when=move || !cautions.with(Vec::is_empty)>
            <div class="notice warn" role="status" data-testid="person-cautions">
                <p><strong>"For the chief's review:"</strong></p>
                <ul>{move || cautions.get().iter().map(Caution::message).map(|m| view! { <li>{m}</li> }).collect_view()}</ul>
            </div>
        </Show>
    }
}

/// Whether the person was asked to sign the summons, and what they did: read
/// from the draft's `signature` (absent: not asked).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum AskedToSign {
    #[default]
    No,
    Signs,
    Refused,
}

impl AskedToSign {
    fn of(signature: Option<&PersonSignature>) -> AskedToSign {
        match signature {
            None => AskedToSign::No,
            Some(PersonSignature::Signed(_)) => AskedToSign::Signs,
            Some(PersonSignature::Refused) => AskedToSign::Refused,
        }
    }
}

/// The person's signature on their summons (issue #20): optional — Maine does
/// not require it — so "not asked" is a full answer and a refusal is recorded as
/// such. Kept in the draft as it is drawn, so it survives a reload and no signal.
#[component]
fn PersonSignatureOf(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    id: Uuid,
) -> impl IntoView {
    let asked = read_subject(draft, id, |s| AskedToSign::of(s.signature.as_ref()));
    // The pad's strokes as they are drawn, point by point; they reach the draft
    // (and so the phone's disk) when a stroke is finished, not at every point.
    let strokes = RwSignal::new(draft.with_untracked(|d| {
        d.subjects
            .iter()
            .find(|s| s.subject_id == id)
            .and_then(|s| match &s.signature {
                Some(PersonSignature::Signed(drawn)) => Some(drawn.strokes.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }));
    let answer = write_subject(draft, id, move |s, asked: AskedToSign| {
        s.signature = match asked {
            AskedToSign::No => None,
            AskedToSign::Refused => Some(PersonSignature::Refused),
            AskedToSign::Signs => Some(PersonSignature::Signed(Signature {
                strokes: strokes.get_untracked(),
            })),
        };
    });
    let options = vec![
        (AskedToSign::No, "Not asked".to_owned()),
        (AskedToSign::Signs, "Signs on this phone".to_owned()),
        (AskedToSign::Refused, "Asked; refused to sign".to_owned()),
    ];
    view! {
        <div class="person-signature">
            <Radios name=subject_field(draft, id, "signature")
                legend="The person's signature on the summons (optional: Maine does not require it)".into()
                options selected=Signal::derive(move || Some(asked.get()))
                on_change=answer
                error=subject_error(draft, errors, id, "signature")/>
            <Show when=move || asked.get() == AskedToSign::Signs>
                <SignaturePad label="The person signs here; signing is not an admission".to_owned()
                    strokes testid="person-signature"
                    on_change=Callback::new(move |()| answer.run(AskedToSign::Signs))/>
            </Show>
        </div>
    }
}

/// "Issue citation — <reference> <fine> plus costs (<section>)", from the
/// offence's penalty.
fn cite_label(o: Offence) -> String {
    let penalty = o.penalty();
    format!(
        "Issue citation — {} {} plus costs ({})",
        o.reference(),
        penalty.fine_text(),
        penalty.section
    )
}

#[component]
fn VerdictNotice(decision: Decision) -> impl IntoView {
    let (class, headline) = match &decision.verdict {
        Verdict::Citable { .. } => ("notice ok", decision.summary()),
        Verdict::NotCitable { .. } => (
            "notice bad",
            format!("{}: not citable", decision.offence.reference()),
        ),
        Verdict::Excluded { .. } => (
            "notice warn",
            "Protected activity — no action (§52-1 E)".to_owned(),
        ),
    };
    let reasons = decision.reasons();
    let cautions = decision.cautions.clone();
    view! {
        <div class=class role="status">
            <strong>{headline}</strong>
            {(!reasons.is_empty()).then(|| view! {
                <ul>{reasons.into_iter().map(|r| view! { <li>{r.message}</li> }).collect_view()}</ul>
            })}
            {(!cautions.is_empty()).then(|| view! {
                <p><strong>"For the chief's review:"</strong></p>
                <ul>{cautions.into_iter().map(|c| view! { <li>{c.message()}</li> }).collect_view()}</ul>
            })}
        </div>
    }
}

#[component]
fn Narrative(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    photos: bool,
) -> impl IntoView {
    let count = read(draft, |d| d.narrative.chars().count());
    view! {
        <section class="panel step" aria-labelledby="step-narrative">
            <h2 id="step-narrative">"4. Narrative"</h2>
            <Text field="narrative".into() label="What each person did".into() multiline=true
                hint="Describe conduct, not status: where each stood, what it blocked, what you said, what each did.".into()
                value=read(draft, |d| d.narrative.clone())
                on_input=write(draft, |d, v| d.narrative = v)
                error=error_at(errors, "narrative") maxlength=MAX_NARRATIVE_CHARS/>
            <p class="hint">{move || format!("{} / {MAX_NARRATIVE_CHARS} characters", count.get())}</p>
            <StatusWordsNotice text=read(draft, |d| d.narrative.clone()) what="The narrative"/>
            {photos.then(|| view! { <super::photos::PhotosOf draft/> })}
        </section>
    }
}

/// What each person's part comes to, as the server will record it.
fn outcome_line(draft: RwSignal<Draft>, id: Uuid) -> Option<Result<Outcome, Vec<String>>> {
    let (scene, person) = person_preview(draft, id)?;
    let charges: Vec<Charge> = draft.with(|d| {
        d.subjects
            .iter()
            .find(|s| s.subject_id == id)
            .map(SubjectDraft::charges)
            .unwrap_or_default()
    });
    let decisions: Vec<Decision> = charges
        .iter()
        .map(|c| decide(&scene, &person, c.offence, client::now()))
        .collect();
    Some(
        outcome(&person, &charges, &decisions)
            .map_err(|r| r.into_iter().map(|f| f.message).collect()),
    )
}

#[component]
fn Review(draft: RwSignal<Draft>) -> impl IntoView {
    view! {
        <section class="panel step" aria-labelledby="step-review">
            <h2 id="step-review">"5. Review"</h2>
            <p class="hint">"Each person's outcome, from their own facts, exactly as the server will decide it."</p>
            <ul class="outcomes" data-testid="outcomes">
                <For
                    each=move || draft.with(|d| d.subjects.iter().map(|s| s.subject_id).collect::<Vec<_>>())
                    key=|id| *id
                    children=move |id| {
                        let title = Signal::derive(move || draft.with(|d| {
                            d.subject_index(id).map(|i| d.subjects[i].title(i)).unwrap_or_default()
                        }));
                        view! {
                            <li data-testid="outcome">
                                <strong>{move || title.get()}</strong>": "
                                {move || match outcome_line(draft, id) {
                                    None => "not answered yet".to_owned(),
                                    Some(Ok(o)) => o.label(),
                                    Some(Err(reasons)) => format!("cannot be cited as asked — {}", reasons.join(" ")),
                                }}
                            </li>
                        }
                    }
                />
            </ul>
        </section>
    }
}
