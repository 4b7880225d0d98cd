//! The incident form: one scrolling page in the order the officer works on scene —
//! when and where, the §52-1 E question, what was happening, who, the order and
//! each response, the narrative, and the review with the rules' verdict per person.

use leptos::prelude::*;
use uuid::Uuid;

use super::draft::{Draft, ResponseChoice, SubjectDraft, MINUTES_TO_COMPLY, ORDER_PHRASES};
use super::inputs::{Check, Radios, Text, TimeField};
use crate::client;
use crate::error::FieldError;
use crate::model::incident::{AgeRange, IdType, PerceivedRace, PerceivedSex, MAX_NARRATIVE_CHARS};
use crate::ordinance::narrative::status_words;
use crate::ordinance::{
    decide, suggested_offences, Decision, Offence, PlaceType, ProtectedActivity, RefusalManner,
    Verdict,
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

fn subject_index(draft: &Draft, id: Uuid) -> Option<usize> {
    draft.subjects.iter().position(|s| s.subject_id == id)
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
        let i = draft.with(|d| subject_index(d, id))?;
        error_at(errors, format!("subjects.{i}.{name}")).get()
    })
}

#[component]
pub fn IncidentForm(draft: RwSignal<Draft>, errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    // The offence(s) the recorded conduct supports, given the §52-1 E answer.
    let suggested = Memo::new(move |_| {
        draft.with(|d| {
            d.preview(client::parse_local, client::now())
                .map(|(facts, _)| suggested_offences(&facts))
                .unwrap_or_default()
        })
    });
    // A person with no offence chosen yet takes the first one the conduct supports.
    let unanswered = Memo::new(move |_| {
        draft.with(|d| {
            d.subjects
                .iter()
                .filter(|s| s.offence.is_none() && !s.no_offence)
                .count()
        })
    });
    Effect::new(move |_| {
        let first = suggested.get().first().copied();
        let Some(first) = first else { return };
        if unanswered.get() > 0 {
            draft.update(|d| {
                for s in d
                    .subjects
                    .iter_mut()
                    .filter(|s| s.offence.is_none() && !s.no_offence)
                {
                    s.offence = Some(first);
                }
            });
        }
    });
    view! {
        <WhenAndWhere draft errors/>
        <Protected draft errors/>
        <Happening draft suggested/>
        <People draft errors/>
        <Order draft errors/>
        <Narrative draft errors/>
        <Review draft errors suggested/>
    }
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
            <TimeField field="occurred_at".into() label="Date and time of the incident".into()
                value=read(draft, |d| d.occurred_at.clone())
                on_input=write(draft, |d, v| d.occurred_at = v)
                error=error_at(errors, "occurred_at")/>
            <Text field="location.text".into() label="Address or landmark".into()
                value=read(draft, |d| d.location_text.clone())
                on_input=write(draft, |d, v| d.location_text = v)
                error=error_at(errors, "location.text")
                autocomplete="off" maxlength=200/>
            <div class="field">
                <button type="button" class="secondary" on:click=locate>"Add GPS location"</button>
                <span class="hint" role="status">{move || gps_status.get().or_else(|| {
                    draft.with(|d| d.gps.map(|g| format!("GPS {:.5}, {:.5} (±{:.0} m)", g.latitude, g.longitude, g.accuracy_m)))
                })}</span>
                <span class="error-text">{move || error_at(errors, "location.gps").get()}</span>
            </div>
            <Radios name="location.place".into() legend="Type of place (§52-1 C)".into() options=places
                selected=read(draft, |d| d.place)
                on_change=write(draft, |d, v| d.place = Some(v))
                error=error_at(errors, "location.place")/>
        </section>
    }
}

#[component]
fn Protected(draft: RwSignal<Draft>, errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    let options = ProtectedActivity::ALL
        .iter()
        .map(|p| (*p, p.label().to_owned()))
        .collect();
    let protected = read(draft, |d| d.protected.is_some_and(|p| p.is_protected()));
    let no_action = move |_| {
        draft.update(|d| {
            for s in &mut d.subjects {
                s.offence = None;
                s.no_offence = true;
                s.issue_citation = false;
                if s.response.is_none() {
                    s.response = Some(ResponseChoice::NoOrder);
                }
            }
        })
    };
    view! {
        <section class="panel step" aria-labelledby="step-protected">
            <h2 id="step-protected">"2. Protected activity (§52-1 E)"</h2>
            <Radios name="protected_activity".into()
                legend="Is anyone picketing peacefully, speaking publicly, or otherwise expressing an opinion lawfully?".into()
                options
                selected=read(draft, |d| d.protected)
                on_change=write(draft, |d, v| d.protected = Some(v))
                error=error_at(errors, "protected_activity")/>
            <Show when=move || protected.get()>
                <div class="notice warn" role="status" data-testid="protected-notice">
                    <p>"§52-1 E: loitering (§52-1) does not apply to peaceful picketing, public speaking or other lawful "
                       "expression. §52-1 offences are not offered. §52-2 and §52-3 cases involving expression go to the chief for review."</p>
                    <button type="button" class="secondary" on:click=no_action>"Record as protected activity — no action"</button>
                </div>
            </Show>
        </section>
    }
}

#[component]
fn Happening(draft: RwSignal<Draft>, suggested: Memo<Vec<Offence>>) -> impl IntoView {
    let protected = read(draft, |d| d.protected.is_some_and(|p| p.is_protected()));
    let check = move |id: &str, label: &str, get: fn(&Draft) -> bool, set: fn(&mut Draft, bool)| {
        view! { <Check id=id.to_owned() label=label.to_owned() checked=read(draft, get) on_change=write(draft, set)/> }
    };
    let persons = read(draft, |d| d.conduct.group.persons_together);
    let step = move |delta: i32| {
        draft.update(|d| {
            let n = i32::from(d.conduct.group.persons_together) + delta;
            d.conduct.group.persons_together = n.clamp(0, 999) as u16;
        })
    };
    view! {
        <section class="panel step" aria-labelledby="step-happening">
            <h2 id="step-happening">"3. What was happening"</h2>
            <p class="hint">"Record conduct only. Tick what you saw."</p>
            <Show when=move || !protected.get()>
                <fieldset>
                    <legend>"Loitering (§52-1)"</legend>
                    {check("c-stayed", "Remained in essentially one place, alone or with others (§52-1 B)",
                        |d| d.conduct.remained_in_one_location, |d, v| d.conduct.remained_in_one_location = v)}
                    <p class="subhead">"Obstructed passage — §52-1 A(1)"</p>
                    {check("c-pedestrians", "Hindered or impeded pedestrians (or tended to)",
                        |d| d.conduct.passage.pedestrians, |d, v| d.conduct.passage.pedestrians = v)}
                    {check("c-vehicles", "Hindered or impeded vehicles (or tended to)",
                        |d| d.conduct.passage.vehicles, |d, v| d.conduct.passage.vehicles = v)}
                    <p class="subhead">"Interfered — §52-1 A(2)"</p>
                    {check("c-property", "With the use of property",
                        |d| d.conduct.interference.use_of_property, |d, v| d.conduct.interference.use_of_property = v)}
                    {check("c-business", "With a business being lawfully conducted",
                        |d| d.conduct.interference.lawful_business, |d, v| d.conduct.interference.lawful_business = v)}
                    {check("c-access", "With free ingress or egress",
                        |d| d.conduct.interference.ingress_egress, |d, v| d.conduct.interference.ingress_egress = v)}
                    <p class="subhead">"Disturbance — §52-1 A(3)"</p>
                    {check("c-annoyance", "Created a disturbance or annoyance",
                        |d| d.conduct.disturbance.disturbance_or_annoyance, |d, v| d.conduct.disturbance.disturbance_or_annoyance = v)}
                    {check("c-alarm", "It caused a person discomfort or alarm",
                        |d| d.conduct.disturbance.discomfort_or_alarm, |d, v| d.conduct.disturbance.discomfort_or_alarm = v)}
                    {check("c-passing", "That person was lawfully going in, to or from a building, dwelling or public place",
                        |d| d.conduct.disturbance.person_lawfully_passing, |d, v| d.conduct.disturbance.person_lawfully_passing = v)}
                </fieldset>
            </Show>
            <fieldset>
                <legend>"Group in the street or on the sidewalk (§52-2)"</legend>
                <div class="field">
                    <span id="persons-label">"Persons standing together or near each other"</span>
                    <div class="stepper" role="group" aria-labelledby="persons-label">
                        <button type="button" class="secondary" aria-label="One fewer person" on:click=move |_| step(-1)>"−"</button>
                        <output aria-live="polite" data-testid="persons-together">{move || persons.get()}</output>
                        <button type="button" class="secondary" aria-label="One more person" on:click=move |_| step(1)>"+"</button>
                    </div>
                </div>
                {check("c-group", "They obstructed free passage",
                    |d| d.conduct.group.obstructs_free_passage, |d, v| d.conduct.group.obstructs_free_passage = v)}
            </fieldset>
            <fieldset>
                <legend>"Disturbing the peace (§52-3)"</legend>
                {check("c-noise", "Loud or unusual noise",
                    |d| d.conduct.peace.loud_or_unusual_noise, |d, v| d.conduct.peace.loud_or_unusual_noise = v)}
                {check("c-songs", "Improper or boisterous songs",
                    |d| d.conduct.peace.improper_or_boisterous_songs, |d, v| d.conduct.peace.improper_or_boisterous_songs = v)}
                {check("c-obscene", "Obscene and indecent and profane songs or words",
                    |d| d.conduct.peace.obscene_indecent_and_profane, |d, v| d.conduct.peace.obscene_indecent_and_profane = v)}
                {check("c-unruly", "Unruly or boisterous manner",
                    |d| d.conduct.peace.unruly_or_boisterous_manner, |d, v| d.conduct.peace.unruly_or_boisterous_manner = v)}
                {check("c-quiet", "…which disturbed the quiet and good order of the Town",
                    |d| d.conduct.peace.disturbed_quiet_and_good_order, |d, v| d.conduct.peace.disturbed_quiet_and_good_order = v)}
            </fieldset>
            <p class="hint" role="status" data-testid="suggested">
                {move || {
                    let s = suggested.get();
                    if s.is_empty() {
                        "No offence matches the conduct recorded yet.".to_owned()
                    } else {
                        format!("Matches: {}", s.iter().map(|o| o.reference()).collect::<Vec<_>>().join(", "))
                    }
                }}
            </p>
        </section>
    }
}

#[component]
fn People(draft: RwSignal<Draft>, errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    let add = move |_| draft.update(|d| d.subjects.push(SubjectDraft::new(client::new_id())));
    view! {
        <section class="panel step" aria-labelledby="step-people">
            <h2 id="step-people">"4. People"</h2>
            <p class="error-text">{move || error_at(errors, "subjects").get()}</p>
            <For
                each=move || draft.with(|d| d.subjects.iter().map(|s| s.subject_id).collect::<Vec<_>>())
                key=|id| *id
                children=move |id| view! { <Person draft errors id/> }
            />
            <button type="button" class="secondary" on:click=add>"Add another person"</button>
        </section>
    }
}

#[component]
fn Person(draft: RwSignal<Draft>, errors: RwSignal<Vec<FieldError>>, id: Uuid) -> impl IntoView {
    let title = Signal::derive(move || {
        draft.with(|d| {
            subject_index(d, id)
                .map(|i| d.subjects[i].title(i))
                .unwrap_or_default()
        })
    });
    let identified = read_subject(draft, id, |s| s.identified);
    let many = read(draft, |d| d.subjects.len() > 1);
    let err = move |name: &'static str| subject_error(draft, errors, id, name);
    let field = move |name: &str| {
        let i = draft.with_untracked(|d| subject_index(d, id).unwrap_or(0));
        format!("subjects.{i}.{name}")
    };
    let remove = move |_| draft.update(|d| d.subjects.retain(|s| s.subject_id != id));
    let ids: Vec<(IdType, String)> = IdType::ALL
        .iter()
        .map(|t| (*t, t.label().to_owned()))
        .collect();
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
        <article class="person" aria-label=move || title.get()>
            <h3>{move || title.get()}</h3>
            <Radios name=field("identified") legend="Identity".into() compact=true
                options=vec![(true, "Identified".to_owned()), (false, "Not identified — describe".to_owned())]
                selected=Signal::derive(move || Some(identified.get()))
                on_change=write_subject(draft, id, |s, v| s.identified = v)/>
            <Show when=move || identified.get() fallback=move || view! {
                <Text field=field("description") label="Description (clothing, build, hair)".into()
                    value=read_subject(draft, id, |s| s.description.clone())
                    on_input=write_subject(draft, id, |s, v| s.description = v)
                    error=err("description") maxlength=200/>
            }>
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
            <div class="perceived">
                <p class="subhead">"Your perception (for bias audits — never ask the person)"</p>
                <p class="error-text">{move || err("perceived").get()}</p>
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
            <Show when=move || many.get()>
                <button type="button" class="secondary" on:click=remove>"Remove this person"</button>
            </Show>
        </article>
    }
}

#[component]
fn Order(draft: RwSignal<Draft>, errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    let given = read(draft, |d| d.order_given);
    let pick_phrase = move |words: &'static str, move_on: bool| {
        draft.update(|d| {
            d.order_given = true;
            d.order_words = words.to_owned();
            d.move_on = d.move_on || move_on;
            if d.order_at.trim().is_empty() {
                d.order_at = client::now_local();
            }
        })
    };
    let minutes: Vec<(u32, String)> = MINUTES_TO_COMPLY
        .iter()
        .map(|m| {
            (
                *m,
                if *m == 0 {
                    "At once".to_owned()
                } else {
                    format!("{m} min")
                },
            )
        })
        .collect();
    view! {
        <section class="panel step" aria-labelledby="step-order">
            <h2 id="step-order">"5. The order (§52-1 D) and each response"</h2>
            <p class="hint">"Under §52-1 the violation is failing or refusing to obey your order: record the order first."</p>
            <div class="phrases" role="group" aria-label="Order words in one tap">
                {ORDER_PHRASES.iter().map(|(words, move_on)| view! {
                    <button type="button" class="secondary phrase" on:click=move |_| pick_phrase(words, *move_on)>{*words}</button>
                }).collect_view()}
            </div>
            <Check id="order-given".into() label="An order was given".into() checked=given
                on_change=write(draft, |d, v| {
                    d.order_given = v;
                    if v && d.order_at.trim().is_empty() { d.order_at = client::now_local(); }
                })/>
            <Show when=move || given.get()>
                <Text field="order.words".into() label="Words of the order".into() multiline=true
                    value=read(draft, |d| d.order_words.clone())
                    on_input=write(draft, |d, v| d.order_words = v)
                    error=error_at(errors, "order.words") maxlength=2000/>
                <TimeField field="order.given_at".into() label="Time the order was given".into()
                    value=read(draft, |d| d.order_at.clone())
                    on_input=write(draft, |d, v| d.order_at = v)
                    error=error_at(errors, "order.given_at")/>
                <Check id="order-move-on".into() label="Included “move on and disperse”".into()
                    checked=read(draft, |d| d.move_on) on_change=write(draft, |d, v| d.move_on = v)/>
                <Radios name="order.minutes_to_comply".into() legend="Time allowed to comply".into() compact=true options=minutes.clone()
                    selected=read(draft, |d| d.minutes_to_comply.or(Some(0)))
                    on_change=write(draft, |d, v| d.minutes_to_comply = Some(v))
                    error=error_at(errors, "order.minutes_to_comply")/>
            </Show>
            <For
                each=move || draft.with(|d| d.subjects.iter().map(|s| s.subject_id).collect::<Vec<_>>())
                key=|id| *id
                children=move |id| view! { <ResponseOf draft errors id/> }
            />
        </section>
    }
}

#[component]
fn ResponseOf(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    id: Uuid,
) -> impl IntoView {
    let title = Signal::derive(move || {
        draft.with(|d| {
            subject_index(d, id)
                .map(|i| d.subjects[i].title(i))
                .unwrap_or_default()
        })
    });
    let field = move |name: &str| {
        let i = draft.with_untracked(|d| subject_index(d, id).unwrap_or(0));
        format!("subjects.{i}.{name}")
    };
    let choice = read_subject(draft, id, |s| s.response);
    let options = ResponseChoice::ALL
        .iter()
        .map(|c| (*c, c.label().to_owned()))
        .collect();
    let manners: Vec<(RefusalManner, String)> = RefusalManner::ALL
        .iter()
        .map(|m| (*m, m.label().to_owned()))
        .collect();
    view! {
        <div class="response">
            <Radios name=field("response") legend=format!("What {} did", title.get_untracked()) options
                selected=choice
                on_change=write_subject(draft, id, |s, v: ResponseChoice| {
                    s.response = Some(v);
                    if v.needs_time() && s.response_at.trim().is_empty() {
                        s.response_at = client::now_local();
                    }
                })
                error=subject_error(draft, errors, id, "response")/>
            <Show when=move || choice.get().is_some_and(ResponseChoice::needs_time)>
                <TimeField field=field("response_at") label="Time of the response".into()
                    value=read_subject(draft, id, |s| s.response_at.clone())
                    on_input=write_subject(draft, id, |s, v| s.response_at = v)
                    error=subject_error(draft, errors, id, "response_at")/>
            </Show>
            <Show when=move || choice.get() == Some(ResponseChoice::Refused)>
                <Radios name=field("manner") legend="How they failed or refused".into() options=manners.clone()
                    selected=read_subject(draft, id, |s| s.manner)
                    on_change=write_subject(draft, id, |s, v| s.manner = Some(v))
                    error=subject_error(draft, errors, id, "manner")/>
            </Show>
        </div>
    }
}

#[component]
fn Narrative(draft: RwSignal<Draft>, errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    let words = Memo::new(move |_| draft.with(|d| status_words(&d.narrative)));
    let count = read(draft, |d| d.narrative.chars().count());
    view! {
        <section class="panel step" aria-labelledby="step-narrative">
            <h2 id="step-narrative">"6. Narrative"</h2>
            <Text field="narrative".into() label="What the person did".into() multiline=true
                hint="Describe conduct, not status: where they stood, what it blocked, what you said, what they did.".into()
                value=read(draft, |d| d.narrative.clone())
                on_input=write(draft, |d, v| d.narrative = v)
                error=error_at(errors, "narrative") maxlength=MAX_NARRATIVE_CHARS/>
            <p class="hint">{move || format!("{} / {MAX_NARRATIVE_CHARS} characters", count.get())}</p>
            <Show when=move || !words.get().is_empty()>
                <div class="notice warn" role="status" data-testid="status-words">
                    {move || format!(
                        "Status words: {}. Being homeless, young or in a group is no element of any offence — describe what the person did. The chief will see this caution.",
                        words.get().join(", ")
                    )}
                </div>
            </Show>
        </section>
    }
}

#[component]
fn Review(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    suggested: Memo<Vec<Offence>>,
) -> impl IntoView {
    view! {
        <section class="panel step" aria-labelledby="step-review">
            <h2 id="step-review">"7. Review"</h2>
            <p class="hint">"The rules' verdict for each person, exactly as the server will decide it."</p>
            <For
                each=move || draft.with(|d| d.subjects.iter().map(|s| s.subject_id).collect::<Vec<_>>())
                key=|id| *id
                children=move |id| view! { <Charge draft errors suggested id/> }
            />
        </section>
    }
}

#[component]
fn Charge(
    draft: RwSignal<Draft>,
    errors: RwSignal<Vec<FieldError>>,
    suggested: Memo<Vec<Offence>>,
    id: Uuid,
) -> impl IntoView {
    let title = Signal::derive(move || {
        draft.with(|d| {
            subject_index(d, id)
                .map(|i| d.subjects[i].title(i))
                .unwrap_or_default()
        })
    });
    let field = move |name: &str| {
        let i = draft.with_untracked(|d| subject_index(d, id).unwrap_or(0));
        format!("subjects.{i}.{name}")
    };
    let protected = read(draft, |d| d.protected.unwrap_or(ProtectedActivity::None));
    // None: "no offence"; Some(o): that offence.
    let selected = read_subject(draft, id, |s| {
        if s.no_offence {
            Some(None)
        } else {
            s.offence.map(Some)
        }
    });
    let decision = Memo::new(move |_| -> Option<Decision> {
        let offence = draft.with(|d| {
            d.subjects
                .iter()
                .find(|s| s.subject_id == id)
                .and_then(|s| s.offence.filter(|_| !s.no_offence))
        })?;
        let (facts, responses) = draft.with(|d| d.preview(client::parse_local, client::now()))?;
        let i = draft.with(|d| subject_index(d, id))?;
        let response = responses.get(i).copied().flatten()?;
        Some(decide(&facts, response, offence, client::now()))
    });
    let citable =
        Signal::derive(move || decision.with(|d| d.as_ref().is_some_and(Decision::is_citable)));
    let arrest = Signal::derive(move || {
        decision.with(|d| d.as_ref().is_some_and(|d| d.offence.directs_arrest()))
    });
    view! {
        <article class="charge" data-testid="verdict">
            <h3>{move || title.get()}</h3>
            {move || {
                let offered = Offence::offered(protected.get());
                let suggested = suggested.get();
                let mut options: Vec<(Option<Offence>, String)> = offered.iter().map(|o| {
                    let mark = if suggested.contains(o) { " — matches the conduct" } else { "" };
                    (Some(*o), format!("{} {}{mark}", o.reference(), o.title()))
                }).collect();
                options.push((None, "No offence — no action".to_owned()));
                view! {
                    <Radios name=field("charge") legend="Offence".into() options
                        selected=selected
                        on_change=write_subject(draft, id, |s, v: Option<Offence>| {
                            s.no_offence = v.is_none();
                            s.offence = v;
                            if v.is_none() { s.issue_citation = false; }
                        })
                        error=subject_error(draft, errors, id, "charge")/>
                }
            }}
            {move || decision.get().map(|d| view! { <Verdict decision=d/> })}
            <Show when=move || citable.get()>
                <Check id=format!("issue-{id}")
                    label=if arrest.get_untracked() { "Arrest and issue citation — District Court (§52-2), $100.00 plus costs".into() } else { "Issue citation — $100.00 plus costs (§52-4)".into() }
                    checked=read_subject(draft, id, |s| s.issue_citation)
                    on_change=write_subject(draft, id, |s, v| s.issue_citation = v)/>
            </Show>
        </article>
    }
}

#[component]
fn Verdict(decision: Decision) -> impl IntoView {
    let (class, headline) = match &decision.verdict {
        Verdict::Citable { .. } => ("notice ok", decision.summary()),
        Verdict::NotCitable { .. } => ("notice bad", "Not citable".to_owned()),
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
