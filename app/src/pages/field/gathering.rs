//! `/field/gathering`: an officer at a large gathering checks the permit
//! register for today and records an unpermitted mass gathering (§52-7): the
//! crowd and how it was counted, when it began, and the persons who put it on —
//! sponsor, promoter, ticket seller, landowner, operator, never those attending.
//! Each person cited gets a §52-12 citation through the same numbering, review
//! and court filing as Article I.

use leptos::prelude::*;
use leptos_meta::Title;
use uuid::Uuid;

use crate::access::Permission;
use crate::api::incidents::submit_incident;
use crate::api::permits::permit_register;
use crate::client;
use crate::components::form::{ErrorSummary, TextField};
use crate::components::session::{hydrated, Guard};
use crate::error::AppError;
use crate::model::incident::{
    AgeRange, Identity, IncidentReport, Location, Perceived, PerceivedRace, PerceivedSex, Receipt,
    SubjectEntry,
};
use crate::model::permit::{PermitRow, PermitState};
use crate::ordinance::article_ii::enforcement::{
    CountMethod, GatheringRole, GatheringScene, PermitCheck,
};
use crate::ordinance::article_ii::Venue;
use crate::ordinance::{
    Charge, Conduct, Offence, PersonFacts, PlaceType, ProtectedActivity, Response,
};

#[component]
pub fn GatheringPage() -> impl IntoView {
    view! {
        <Title text="Mass gathering"/>
        <Guard permission=Permission::RecordIncidents>
            <GatheringForm/>
        </Guard>
    }
}

/// One person who put the gathering on, as typed.
#[derive(Debug, Clone, PartialEq)]
struct Responsible {
    id: Uuid,
    name: RwSignal<String>,
    birth: RwSignal<String>,
    address: RwSignal<String>,
    role: RwSignal<GatheringRole>,
    cite: RwSignal<bool>,
}

impl Responsible {
    fn new() -> Responsible {
        Responsible {
            id: client::new_id(),
            name: RwSignal::new(String::new()),
            birth: RwSignal::new(String::new()),
            address: RwSignal::new(String::new()),
            role: RwSignal::new(GatheringRole::Operator),
            cite: RwSignal::new(true),
        }
    }

    fn entry(&self) -> SubjectEntry {
        SubjectEntry {
            subject_id: self.id,
            identity: Identity::Identified {
                full_name: self.name.get_untracked(),
                date_of_birth: self.birth.get_untracked(),
                address: self.address.get_untracked(),
                id_type: None,
                id_number: None,
            },
            perceived: Perceived {
                age_range: AgeRange::Unknown,
                sex: PerceivedSex::Unknown,
                race: PerceivedRace::Unknown,
            },
            facts: PersonFacts {
                protected_activity: ProtectedActivity::None,
                conduct: Conduct {
                    gathering: Some(self.role.get_untracked()),
                    ..Conduct::default()
                },
                order: None,
                response: Response::NoOrder,
                arrested: false,
                place: None,
                contravenes: None,
            },
            charges: vec![Charge {
                offence: Offence::UnpermittedMassGathering,
                issue_citation: self.cite.get_untracked(),
            }],
            signature: None,
        }
    }
}

/// Today's permits from the register; the phone keeps the last list it got, so
/// with no signal on scene the officer still sees it (and is told it is a copy).
async fn today_s_permits(day: String) -> Result<(Vec<PermitRow>, bool), AppError> {
    let key = format!("wells-permits-{day}");
    match permit_register(Some(day)).await {
        Ok(rows) => {
            client::save(&key, &rows);
            Ok((rows, false))
        }
        Err(error) => client::load::<Vec<PermitRow>>(&key)
            .map(|rows| (rows, true))
            .ok_or(error),
    }
}

/// `2.5` or `2:30` hours → minutes.
fn minutes_of(text: &str) -> Option<u32> {
    let text = text.trim();
    if let Some((h, m)) = text.split_once(':') {
        let (h, m) = (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?);
        return (m < 60).then(|| h.saturating_mul(60).saturating_add(m));
    }
    let hours: f64 = text.parse().ok()?;
    (hours.is_finite() && hours > 0.0 && hours <= 24.0 * 31.0)
        .then(|| (hours * 60.0).round() as u32)
}

#[component]
fn GatheringForm() -> impl IntoView {
    let ready = hydrated();
    let incident_id = client::new_id();
    let today = client::now_local().chars().take(10).collect::<String>();
    let permits = Resource::new(move || today.clone(), today_s_permits);
    let permit = RwSignal::new(String::new());
    let location = RwSignal::new(String::new());
    let place = RwSignal::new(PlaceType::PublicGrounds);
    let began = RwSignal::new(client::now_local());
    let counted = RwSignal::new(String::new());
    let method = RwSignal::new(CountMethod::GateCount);
    let hours = RwSignal::new(String::new());
    let outdoor = RwSignal::new(true);
    let venue = RwSignal::new(String::from("open"));
    let narrative = RwSignal::new(String::new());
    let persons = RwSignal::new(vec![Responsible::new()]);

    let send = Action::new(move |report: &Result<IncidentReport, AppError>| {
        let report = report.clone();
        async move { submit_incident(report?).await }
    });
    let error = Signal::derive(move || send.value().get().and_then(Result::err));
    let build = move || -> Result<IncidentReport, AppError> {
        let mut errors = Vec::new();
        let occurred_at = client::parse_local(&began.get_untracked());
        if occurred_at.is_none() {
            errors.push(crate::error::FieldError::new(
                "occurred_at",
                "When it began: a date and time.",
            ));
        }
        let counted = counted
            .get_untracked()
            .trim()
            .replace(',', "")
            .parse::<u32>()
            .ok();
        if counted.is_none() {
            errors.push(crate::error::FieldError::new(
                "gathering.counted",
                "Persons counted: a whole number (§52-7 counts 500 or more).",
            ));
        }
        let minutes = minutes_of(&hours.get_untracked());
        if minutes.is_none() {
            errors.push(crate::error::FieldError::new(
                "gathering.minutes",
                "How long: hours, e.g. 3 or 2:30 (§52-7 counts two or more).",
            ));
        }
        AppError::unless_any(errors)?;
        let permit = match permit.get_untracked() {
            number if number.is_empty() => PermitCheck::NoneFound,
            number => PermitCheck::Held { number },
        };
        let venue = match venue.get_untracked().as_str() {
            "open" => Venue::Open,
            other => Venue::PermanentPlaceOfAssembly {
                sufficient_sanitary_facilities: other == "permanent_sufficient",
            },
        };
        Ok(IncidentReport {
            incident_id,
            occurred_at: occurred_at.unwrap_or(client::now()),
            location: Location {
                text: location.get_untracked(),
                place: place.get_untracked(),
                gps: None,
            },
            orders: Vec::new(),
            narrative: narrative.get_untracked(),
            subjects: persons.with_untracked(|p| p.iter().map(Responsible::entry).collect()),
            numbers: Vec::new(),
            gathering: Some(GatheringScene {
                outdoor: outdoor.get_untracked(),
                counted: counted.unwrap_or(0),
                count_method: method.get_untracked(),
                minutes: minutes.unwrap_or(0),
                venue,
                permit,
            }),
        })
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        send.dispatch(build());
    };
    let done = move || send.value().get().and_then(Result::ok);
    view! {
        <h1>"Mass gathering (§52-7)"</h1>
        <p class="hint">"An outdoor gathering of 500 or more persons for two or more hours needs a permit from the Board of Selectmen. Those who sponsor, promote, sell tickets to, permit it on their property or conduct it may be cited under §52-12; those attending may not."</p>
        {move || match done() {
            Some(receipt) => view! { <Issued receipt/> }.into_any(),
            None => view! {
                <form class="permit-form" on:submit=submit novalidate>
                    <ErrorSummary error/>
                    <section class="panel" aria-labelledby="register">
                        <h2 id="register">"Permits for today"</h2>
                        <Transition fallback=|| view! { <p class="hint">"Looking up the register…"</p> }>
                            {move || Suspend::new(async move {
                                let (rows, copy, failed) = match permits.await {
                                    Ok((rows, copy)) => (rows, copy, None),
                                    Err(e) => (Vec::new(), false, Some(e.to_string())),
                                };
                                let issued: Vec<_> = rows.into_iter()
                                    .filter(|r| matches!(r.state, PermitState::Issued | PermitState::Settled))
                                    .collect();
                                view! {
                                    {copy.then(|| view! {
                                        <p class="notice warn" role="status" data-testid="permits-copy">"No signal: this is the list this phone last got from the register today."</p>
                                    })}
                                    {failed.map(|e| view! {
                                        <p class="notice bad" role="alert">{format!("The register could not be reached ({e}); check by radio before citing.")}</p>
                                    })}
                                    <fieldset>
                                        <legend>"Does the gathering hold one of today's permits?"</legend>
                                        <label class="choice">
                                            <input type="radio" name="permit" checked=true
                                                on:change=move |_| permit.set(String::new())/>
                                            "No permit covers this gathering"
                                        </label>
                                        {issued.into_iter().map(|r| {
                                            let number = r.number.clone();
                                            view! {
                                                <label class="choice">
                                                    <input type="radio" name="permit"
                                                        on:change=move |_| permit.set(number.clone())/>
                                                    {format!("{} — {}, {} persons", r.number, r.place, r.attendance)}
                                                </label>
                                            }
                                        }).collect_view()}
                                    </fieldset>
                                }
                            })}
                        </Transition>
                    </section>
                    <section class="panel" aria-labelledby="crowd">
                        <h2 id="crowd">"The gathering"</h2>
                        <TextField name="location.text" label="Where" value=location error/>
                        <div class="field">
                            <label for="place">"Kind of place"</label>
                            <select id="place" on:change=move |ev| {
                                if let Some(p) = PlaceType::ALL.into_iter().find(|p| p.code() == event_target_value(&ev)) { place.set(p) }
                            }>
                                {PlaceType::ALL.into_iter().map(|p| view! {
                                    <option value=p.code() selected=p == PlaceType::PublicGrounds>{p.label()}</option>
                                }).collect_view()}
                            </select>
                        </div>
                        <TextField name="occurred_at" label="When it began" kind="datetime-local" value=began error/>
                        <TextField name="gathering.counted" label="Persons counted" value=counted error inputmode="numeric"/>
                        <div class="field">
                            <label for="count-method">"How they were counted"</label>
                            <select id="count-method" on:change=move |ev| {
                                if let Some(m) = CountMethod::from_code(&event_target_value(&ev)) { method.set(m) }
                            }>
                                {CountMethod::ALL.into_iter().map(|m| view! {
                                    <option value=m.code() selected=m == CountMethod::GateCount>{m.label()}</option>
                                }).collect_view()}
                            </select>
                        </div>
                        <TextField name="gathering.minutes" label="Hours it has lasted or is announced to last" value=hours error
                            inputmode="decimal" hint="e.g. 3 or 2:30"/>
                        <label class="choice">
                            <input type="checkbox" checked=true on:change=move |ev| outdoor.set(event_target_checked(&ev))/>
                            "Outdoors"
                        </label>
                        <div class="field">
                            <label for="venue">"The place"</label>
                            <select id="venue" on:change=move |ev| venue.set(event_target_value(&ev))>
                                <option value="open" selected=true>"A field, beach, lot or other open place"</option>
                                <option value="permanent_insufficient">"A permanent stadium, arena or fair ground without enough sanitary facilities"</option>
                                <option value="permanent_sufficient">"A permanent place of assembly with sanitary facilities for the crowd (§52-6(2))"</option>
                            </select>
                        </div>
                        <TextField name="narrative" label="What you saw" value=narrative error
                            hint="How the crowd was counted and when; who said they ran it."/>
                    </section>
                    <section class="panel" aria-labelledby="who-ran">
                        <h2 id="who-ran">"Who put it on"</h2>
                        <For each=move || persons.get() key=|p| p.id children=move |p| view! { <ResponsibleFields p/> }/>
                        <button type="button" class="secondary" on:click=move |_| persons.update(|v| v.push(Responsible::new()))>
                            "Add another person"
                        </button>
                    </section>
                    <button type="submit" disabled=move || !ready.get() || send.pending().get()>"Save and issue"</button>
                </form>
            }.into_any(),
        }}
    }
}

/// A labelled input of one person (ids carry the person's key: several persons
/// share the page).
#[component]
fn PersonInput(
    key: String,
    name: &'static str,
    label: &'static str,
    value: RwSignal<String>,
    #[prop(default = "text")] kind: &'static str,
) -> impl IntoView {
    let id = format!("{name}-{key}");
    view! {
        <div class="field">
            <label for=id.clone()>{label}</label>
            <input id=id name=name type=kind prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))/>
        </div>
    }
}

#[component]
fn ResponsibleFields(p: Responsible) -> impl IntoView {
    let key = p.id.simple().to_string();
    let role_id = format!("role-{key}");
    let cite_id = format!("cite-{key}");
    view! {
        <fieldset class="person">
            <legend>"Person"</legend>
            <PersonInput key=key.clone() name="full_name" label="Full name" value=p.name/>
            <PersonInput key=key.clone() name="date_of_birth" label="Date of birth" kind="date" value=p.birth/>
            <PersonInput key=key.clone() name="address" label="Address" value=p.address/>
            <div class="field">
                <label for=role_id.clone()>"Their part (§52-7)"</label>
                <select id=role_id on:change=move |ev| {
                    if let Some(r) = GatheringRole::from_code(&event_target_value(&ev)) { p.role.set(r) }
                }>
                    {GatheringRole::ALL.into_iter().map(|r| view! {
                        <option value=r.code() selected=r == GatheringRole::Operator>{r.label()}</option>
                    }).collect_view()}
                </select>
            </div>
            <label class="choice" for=cite_id.clone()>
                <input type="checkbox" id=cite_id.clone() checked=true on:change=move |ev| p.cite.set(event_target_checked(&ev))/>
                "Issue a §52-12 citation"
            </label>
        </fieldset>
    }
}

#[component]
fn Issued(receipt: Receipt) -> impl IntoView {
    view! {
        <section class="panel notice ok" role="status" data-testid="gathering-saved"
            data-incident=receipt.incident_id.to_string()>
            <h2>"Saved"</h2>
            {if receipt.citations.is_empty() {
                view! { <p>"No citation issued."</p> }.into_any()
            } else {
                view! {
                    <ul>{receipt.citations.into_iter().map(|c| view! {
                        <li><a href=format!("/citations/{}", c.number)>{c.number.clone()}</a>{format!(" — {} ({})", c.subject, c.offence.reference())}</li>
                    }).collect_view()}</ul>
                }.into_any()
            }}
            <p><a href="/field/reports">"My reports"</a></p>
        </section>
    }
}
