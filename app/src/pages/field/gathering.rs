//! `/field/gathering`: an officer at a large gathering checks the permit
//! register for today and records an unpermitted mass gathering (§52-7): the
//! counts of the crowd over time and what shows how long it was meant to last,
//! where it is, and the persons or organisations who put it on — sponsor,
//! promoter, ticket seller, landowner, operator, never those attending. Each one
//! cited gets a §52-12 citation through the same numbering, review and court
//! filing as Article I.
//!
//! Nothing is answered for the officer: the permit register's answer, each
//! person's part and each citation are chosen, never pre-selected. A gathering
//! the Board routed to Chapter 55 is listed as permitted (§52-7).

use leptos::prelude::*;
use leptos_meta::Title;
use uuid::Uuid;

use crate::access::Permission;
use crate::api::permits::{permit_register, TODAY};
use crate::client;
use crate::components::form::{field_error, ErrorSummary, TextField};
use crate::components::session::{hydrated, Guard};
use crate::error::{AppError, FieldError};
use crate::model::incident::{
    AgeRange, Identity, IncidentReport, Location, Perceived, PerceivedRace, PerceivedSex, Receipt,
    SubjectEntry,
};
use crate::model::permit::{PermitRow, PermitState};
use crate::ordinance::article_ii::enforcement::{
    Count, CountMethod, GatheringRole, GatheringScene, Intended, IntentEvidence, NotThis,
    PermitCheck,
};
use crate::ordinance::article_ii::Venue;
use crate::ordinance::{
    Charge, Conduct, Offence, PersonFacts, PlaceType, ProtectedActivity, Response,
};
use crate::outbox::use_outbox;

#[component]
pub fn GatheringPage() -> impl IntoView {
    view! {
        <Title text="Mass gathering"/>
        <Guard permission=Permission::RecordIncidents>
            <GatheringForm/>
        </Guard>
    }
}

/// The officer's answer about the permit register.
#[derive(Debug, Clone, PartialEq, Eq)]
enum RegisterAnswer {
    NoneCovers,
    Held(String),
    Chapter55(String),
}

/// One count of the crowd, as typed.
#[derive(Debug, Clone, Copy, PartialEq)]
struct CountRow {
    id: Uuid,
    at: RwSignal<String>,
    persons: RwSignal<String>,
    method: RwSignal<CountMethod>,
}

impl CountRow {
    fn new() -> CountRow {
        CountRow {
            id: client::new_id(),
            at: RwSignal::new(client::now_local()),
            persons: RwSignal::new(String::new()),
            method: RwSignal::new(CountMethod::GateCount),
        }
    }
}

/// One who put the gathering on, as typed: a person, or an organisation
/// (§52-12's "party"). Neither their part nor a citation is chosen for them.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Responsible {
    id: Uuid,
    organisation: RwSignal<bool>,
    name: RwSignal<String>,
    birth: RwSignal<String>,
    address: RwSignal<String>,
    representative: RwSignal<String>,
    role: RwSignal<Option<GatheringRole>>,
    cite: RwSignal<bool>,
}

impl Responsible {
    fn new() -> Responsible {
        Responsible {
            id: client::new_id(),
            organisation: RwSignal::new(false),
            name: RwSignal::new(String::new()),
            birth: RwSignal::new(String::new()),
            address: RwSignal::new(String::new()),
            representative: RwSignal::new(String::new()),
            role: RwSignal::new(None),
            cite: RwSignal::new(false),
        }
    }

    fn identity(&self) -> Identity {
        if self.organisation.get_untracked() {
            Identity::Organisation {
                name: self.name.get_untracked(),
                address: self.address.get_untracked(),
                representative: Some(self.representative.get_untracked().trim().to_owned())
                    .filter(|r| !r.is_empty()),
            }
        } else {
            Identity::Identified {
                full_name: self.name.get_untracked(),
                date_of_birth: self.birth.get_untracked(),
                address: self.address.get_untracked(),
                id_type: None,
                id_number: None,
            }
        }
    }

    fn entry(&self) -> SubjectEntry {
        SubjectEntry {
            subject_id: self.id,
            identity: self.identity(),
            perceived: Perceived {
                age_range: AgeRange::Unknown,
                sex: PerceivedSex::Unknown,
                race: PerceivedRace::Unknown,
            },
            facts: PersonFacts {
                protected_activity: ProtectedActivity::None,
                conduct: Conduct {
                    gathering: self.role.get_untracked(),
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
            not_recorded: Vec::new(),
        }
    }
}

/// Everything the officer types on the page, and the report it makes.
#[derive(Debug, Clone, Copy)]
struct GatheringEntry {
    incident_id: Uuid,
    answer: RwSignal<Option<RegisterAnswer>>,
    /// Why each permit of the day set aside is another gathering: (number, why).
    not_this: RwSignal<Vec<(String, String)>>,
    location: RwSignal<String>,
    place: RwSignal<PlaceType>,
    began: RwSignal<String>,
    counts: RwSignal<Vec<CountRow>>,
    evidence: RwSignal<Option<IntentEvidence>>,
    source: RwSignal<String>,
    intended_hours: RwSignal<String>,
    intended_persons: RwSignal<String>,
    outdoor: RwSignal<bool>,
    venue: RwSignal<String>,
    narrative: RwSignal<String>,
    persons: RwSignal<Vec<Responsible>>,
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

/// `2,400` → 2400.
fn whole_number(text: &str) -> Option<u32> {
    text.trim().replace(',', "").parse().ok()
}

impl GatheringEntry {
    fn new() -> GatheringEntry {
        GatheringEntry {
            incident_id: client::new_id(),
            answer: RwSignal::new(None),
            not_this: RwSignal::new(Vec::new()),
            location: RwSignal::new(String::new()),
            place: RwSignal::new(PlaceType::PublicGrounds),
            began: RwSignal::new(client::now_local()),
            counts: RwSignal::new(vec![CountRow::new()]),
            evidence: RwSignal::new(None),
            source: RwSignal::new(String::new()),
            intended_hours: RwSignal::new(String::new()),
            intended_persons: RwSignal::new(String::new()),
            outdoor: RwSignal::new(true),
            venue: RwSignal::new(String::from("open")),
            narrative: RwSignal::new(String::new()),
            persons: RwSignal::new(vec![Responsible::new()]),
        }
    }

    /// The report as typed, or each field that does not read.
    fn report(&self) -> Result<IncidentReport, AppError> {
        let mut errors = Vec::new();
        let occurred_at = client::parse_local(&self.began.get_untracked());
        if occurred_at.is_none() {
            errors.push(FieldError::new(
                "occurred_at",
                "When it began: a date and time.",
            ));
        }
        let permit = self.permit(&mut errors);
        let counts = self.counts(&mut errors);
        let intended = self.intended(&mut errors);
        let subjects = self.subjects(&mut errors);
        AppError::unless_any(errors)?;
        Ok(IncidentReport {
            incident_id: self.incident_id,
            occurred_at: occurred_at.unwrap_or(client::now()),
            location: Location {
                text: self.location.get_untracked(),
                place: self.place.get_untracked(),
                gps: None,
            },
            orders: Vec::new(),
            narrative: self.narrative.get_untracked(),
            subjects,
            numbers: Vec::new(),
            gathering: Some(GatheringScene {
                outdoor: self.outdoor.get_untracked(),
                counted: 0,
                count_method: None,
                minutes: 0,
                venue: self.venue(),
                permit,
                counts,
                intended,
            }),
        })
    }

    /// The register's answer: chosen by the officer, never assumed.
    fn permit(&self, errors: &mut Vec<FieldError>) -> PermitCheck {
        match self.answer.get_untracked() {
            None => {
                errors.push(FieldError::new(
                    "gathering.permit",
                    "Permit register (§52-7): say whether the gathering holds one of the permits listed, \
                     or that none covers it.",
                ));
                PermitCheck::none_found()
            }
            Some(RegisterAnswer::NoneCovers) => PermitCheck::NoneFound {
                not_this: self
                    .not_this
                    .get_untracked()
                    .into_iter()
                    .filter(|(_, why)| !why.trim().is_empty())
                    .map(|(number, why)| NotThis { number, why })
                    .collect(),
            },
            Some(RegisterAnswer::Held(number)) => PermitCheck::Held { number },
            Some(RegisterAnswer::Chapter55(number)) => PermitCheck::Chapter55 { number },
        }
    }

    /// The counts typed, each with its time; a row left without a number is
    /// not a count.
    fn counts(&self, errors: &mut Vec<FieldError>) -> Vec<Count> {
        let mut out = Vec::new();
        for (k, row) in self.counts.get_untracked().iter().enumerate() {
            let typed = row.persons.get_untracked();
            if typed.trim().is_empty() {
                continue;
            }
            let persons = whole_number(&typed);
            if persons.is_none() {
                errors.push(FieldError::new(
                    format!("gathering.counts.{k}.persons"),
                    format!("Persons at count {}: a whole number.", k + 1),
                ));
            }
            let at = client::parse_local(&row.at.get_untracked());
            if at.is_none() {
                errors.push(FieldError::new(
                    format!("gathering.counts.{k}.at"),
                    format!("Time of count {}: a date and time.", k + 1),
                ));
            }
            if let (Some(persons), Some(at)) = (persons, at) {
                out.push(Count {
                    at,
                    persons,
                    method: row.method.get_untracked(),
                });
            }
        }
        out
    }

    /// What shows how long the gathering was meant to last, if chosen.
    fn intended(&self, errors: &mut Vec<FieldError>) -> Option<Intended> {
        let evidence = self.evidence.get_untracked()?;
        let minutes = minutes_of(&self.intended_hours.get_untracked());
        if minutes.is_none() {
            errors.push(FieldError::new(
                "gathering.intended.minutes",
                "Hours advertised or ticketed: hours, e.g. 5 or 4:30 (§52-7 counts two or more).",
            ));
        }
        let typed = self.intended_persons.get_untracked();
        let persons = whole_number(&typed);
        if !typed.trim().is_empty() && persons.is_none() {
            errors.push(FieldError::new(
                "gathering.intended.persons",
                "Persons the tickets or the advertising show: a whole number, or leave it blank.",
            ));
        }
        Some(Intended {
            evidence,
            source: self.source.get_untracked(),
            minutes: minutes.unwrap_or(0),
            persons,
        })
    }

    /// Each one who put it on, with their part chosen.
    fn subjects(&self, errors: &mut Vec<FieldError>) -> Vec<SubjectEntry> {
        let persons = self.persons.get_untracked();
        for (i, p) in persons.iter().enumerate() {
            if p.role.get_untracked().is_none() {
                errors.push(FieldError::new(
                    format!("subjects.{i}.role"),
                    format!(
                        "Their part (§52-7), person {}: choose what they did — or “Attends it”.",
                        i + 1
                    ),
                ));
            }
        }
        persons.iter().map(Responsible::entry).collect()
    }

    fn venue(&self) -> Venue {
        match self.venue.get_untracked().as_str() {
            "open" => Venue::Open,
            other => Venue::PermanentPlaceOfAssembly {
                sufficient_sanitary_facilities: other == "permanent_sufficient",
            },
        }
    }
}

/// The Town's permits for today (the server's Town day: the page rendered by the
/// server and the phone ask for the same list); the phone keeps the last list it
/// got under its own date, so with no signal on scene the officer still sees it
/// (and is told it is a copy).
async fn today_s_permits() -> Result<(Vec<PermitRow>, bool), AppError> {
    let day = client::now_local().chars().take(10).collect::<String>();
    let key = format!("wells-permits-{day}");
    match permit_register(Some(TODAY.to_owned())).await {
        Ok(rows) => {
            client::save(&key, &rows);
            Ok((rows, false))
        }
        Err(error) => client::load::<Vec<PermitRow>>(&key)
            .map(|rows| (rows, true))
            .ok_or(error),
    }
}

/// The message of `error` for a field named at run time (a count, a person).
fn message_for(error: Signal<Option<AppError>>, field: String) -> Signal<Option<String>> {
    Signal::derive(move || {
        error.with(|e| {
            e.as_ref()
                .and_then(|e| e.for_field(&field).map(str::to_owned))
        })
    })
}

/// The form, handed to the same outbox as an Article I report (issue #35): a
/// report saved with no signal waits on the phone and is sent once, with the
/// numbers of the phone's block; the server's refusal comes back to the fields.
/// The form stays mounted through a failed save, so what is on screen is what
/// the entry holds and what is sent.
#[component]
fn GatheringForm() -> impl IntoView {
    let ready = hydrated();
    let outbox = use_outbox();
    let entry = GatheringEntry::new();
    let id = entry.incident_id;
    let permits = Resource::new(|| (), |()| today_s_permits());
    // The phone's own check (or its storage failing); the server's refusal is
    // the outbox's.
    let checked = RwSignal::new(None::<AppError>);
    let error = Signal::derive(move || checked.get().or_else(|| outbox.rejection_for(id)));
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match entry.report() {
            Err(e) => checked.set(Some(e)),
            Ok(report) => {
                checked.set(None);
                leptos::task::spawn_local(async move {
                    if let Err(e) = super::hand_over(outbox, report, &[]).await {
                        checked.set(Some(AppError::Invalid { errors: vec![e] }));
                    }
                });
            }
        }
    };
    // Waiting in the outbox, the form shows what waits and cannot change it; a
    // refusal takes it out of the outbox and gives the form back.
    let pending = Memo::new(move |_| outbox.is_pending(id));
    let saved = Memo::new(move |_| outbox.receipt_for(id).is_some());
    view! {
        <h1>"Mass gathering (§52-7)"</h1>
        <p class="hint">"An outdoor gathering of 500 or more persons for two or more hours needs a permit from the Board of Selectmen. Those who sponsor, promote, sell tickets to, permit it on their property or conduct it — persons or organisations — may be cited under §52-12; those attending may not."</p>
        <Show when=move || pending.get()>
            <super::PendingBanner state=outbox.state/>
            <super::PhoneCopies incident_id=id/>
        </Show>
        // The numbers given on scene for a report the server refused are void:
        // the officer must tell each person.
        {move || outbox.rejection_for(id).map(|e| view! { <super::VoidNotice incident_id=id error=e/> })}
        <Show
            when=move || !saved.get()
            fallback=move || outbox.receipt_for(id).map(|receipt| view! { <Issued receipt/> })
        >
            <form class="permit-form" on:submit=submit novalidate>
                <fieldset class="unboxed" disabled=move || pending.get()>
                    <RegisterSection entry permits error/>
                    <CrowdSection entry error/>
                    <CountsSection entry error/>
                    <IntendedSection entry error/>
                    <WhoSection entry error/>
                    // Where the officer is when the save fails: the list beside
                    // the button, each field's own message at the field.
                    <ErrorSummary error/>
                    // Until the phone's queue is read, a report put in it could be
                    // overwritten by the queue as read.
                    <button type="submit" disabled=move || !ready.get() || !outbox.loaded.get() || pending.get()>"Save"</button>
                </fieldset>
            </form>
        </Show>
    }
}

/// A permit of the day as the officer chooses it: an issued permit, or the
/// Board's determination that it be issued under Chapter 55 (§52-7).
fn permit_choice(row: &PermitRow) -> (RegisterAnswer, String) {
    let what = format!("{} — {}, {} persons", row.number, row.place, row.attendance);
    if row.state == PermitState::Chapter55 {
        (
            RegisterAnswer::Chapter55(row.number.clone()),
            format!("{what}: permitted under Chapter 55 — the Board routed it there (§52-7)"),
        )
    } else {
        (
            RegisterAnswer::Held(row.number.clone()),
            format!("{what}: permit issued"),
        )
    }
}

/// "Does the gathering hold one of today's permits?": nothing chosen until
/// the officer answers; choosing "none" while the register lists permits asks
/// why each is another gathering.
#[component]
fn RegisterSection(
    entry: GatheringEntry,
    permits: Resource<Result<(Vec<PermitRow>, bool), AppError>>,
    error: Signal<Option<AppError>>,
) -> impl IntoView {
    let message = field_error(error, "gathering.permit");
    let answer = entry.answer;
    view! {
        <section class="panel" aria-labelledby="register">
            <h2 id="register">"Permits for today"</h2>
            <Transition fallback=|| view! { <p class="hint">"Looking up the register…"</p> }>
                {move || Suspend::new(async move {
                    let (rows, copy, failed) = match permits.await {
                        Ok((rows, copy)) => (rows, copy, None),
                        Err(e) => (Vec::new(), false, Some(e.to_string())),
                    };
                    let permitted: Vec<PermitRow> = rows
                        .into_iter()
                        .filter(|r| matches!(r.state, PermitState::Issued | PermitState::Settled | PermitState::Chapter55))
                        .collect();
                    let listed = !permitted.is_empty();
                    let others = permitted.clone();
                    view! {
                        {copy.then(|| view! {
                            <p class="notice warn" role="status" data-testid="permits-copy">"No signal: this is the list this phone last got from the register today."</p>
                        })}
                        {failed.map(|e| view! {
                            <p class="notice bad" role="alert">{format!("The register could not be reached ({e}); check by radio before citing.")}</p>
                        })}
                        <fieldset aria-describedby="gathering-permit-error">
                            <legend>"Does the gathering hold one of today's permits?"</legend>
                            {permitted.iter().map(|r| {
                                let (choice, label) = permit_choice(r);
                                let mine = choice.clone();
                                view! {
                                    <label class="choice">
                                        <input type="radio" name="permit"
                                            prop:checked=move || answer.get().as_ref() == Some(&mine)
                                            on:change=move |_| answer.set(Some(choice.clone()))/>
                                        {label}
                                    </label>
                                }
                            }).collect_view()}
                            <label class="choice">
                                <input type="radio" name="permit"
                                    prop:checked=move || answer.get() == Some(RegisterAnswer::NoneCovers)
                                    on:change=move |_| answer.set(Some(RegisterAnswer::NoneCovers))/>
                                "No permit covers this gathering"
                            </label>
                            <span class="error-text" id="gathering-permit-error">{move || message.get()}</span>
                        </fieldset>
                        <Show when=move || listed && answer.get() == Some(RegisterAnswer::NoneCovers)>
                            <NotThisFields entry rows=others.clone()/>
                        </Show>
                    }
                })}
            </Transition>
        </section>
    }
}

/// For each permit of the day, why this gathering is another one (§52-7).
#[component]
fn NotThisFields(entry: GatheringEntry, rows: Vec<PermitRow>) -> impl IntoView {
    rows.into_iter()
        .map(|r| {
            let number = r.number.clone();
            let id = format!("not-this-{}", r.number);
            let why = {
                let number = number.clone();
                move || {
                    entry.not_this.with(|list| {
                        list.iter()
                            .find(|(n, _)| *n == number)
                            .map(|(_, w)| w.clone())
                            .unwrap_or_default()
                    })
                }
            };
            let set = move |text: String| {
                entry.not_this.update(|list| {
                    match list.iter_mut().find(|(n, _)| *n == number) {
                        Some(found) => found.1 = text,
                        None => list.push((number.clone(), text)),
                    }
                })
            };
            view! {
                <div class="field">
                    <label for=id.clone()>{format!("Why this is not {} ({})", r.number, r.place)}</label>
                    <input id=id type="text" prop:value=why
                        on:input=move |ev| set(event_target_value(&ev))/>
                </div>
            }
        })
        .collect_view()
}

/// The kinds of venue §52-6(2) and §52-10 tell apart, as the select offers them
/// (the codes `GatheringEntry::venue` reads).
const VENUES: [(&str, &str); 3] = [
    ("open", "A field, beach, lot or other open place"),
    (
        "permanent_insufficient",
        "A permanent stadium, arena or fair ground without enough sanitary facilities",
    ),
    (
        "permanent_sufficient",
        "A permanent place of assembly with sanitary facilities for the crowd (§52-6(2))",
    ),
];

/// Where and when, and the place as §52-6(2) sorts it.
#[component]
fn CrowdSection(entry: GatheringEntry, error: Signal<Option<AppError>>) -> impl IntoView {
    let GatheringEntry {
        location,
        place,
        began,
        outdoor,
        venue,
        narrative,
        ..
    } = entry;
    view! {
        <section class="panel" aria-labelledby="crowd">
            <h2 id="crowd">"The gathering"</h2>
            <TextField name="location.text" label="Where" value=location error/>
            <div class="field">
                <label for="place">"Kind of place"</label>
                <select id="place" on:change=move |ev| {
                    if let Some(p) = PlaceType::ALL.into_iter().find(|p| p.code() == event_target_value(&ev)) { place.set(p) }
                }>
                    {PlaceType::ALL.into_iter().map(|p| view! {
                        <option value=p.code() selected=move || place.get() == p
                            prop:selected=move || place.get() == p>{p.label()}</option>
                    }).collect_view()}
                </select>
            </div>
            <TextField name="occurred_at" label="When it began" kind="datetime-local" value=began error/>
            <label class="choice">
                <input type="checkbox" checked=move || outdoor.get() prop:checked=move || outdoor.get()
                    on:change=move |ev| outdoor.set(event_target_checked(&ev))/>
                "Outdoors"
            </label>
            <div class="field">
                <label for="venue">"The place"</label>
                <select id="venue" on:change=move |ev| venue.set(event_target_value(&ev))>
                    {VENUES.into_iter().map(|(code, label)| view! {
                        <option value=code selected=move || venue.with(|v| v == code)
                            prop:selected=move || venue.with(|v| v == code)>{label}</option>
                    }).collect_view()}
                </select>
            </div>
            <TextField name="narrative" label="What you saw" value=narrative error
                hint="How and when the crowd was counted; who said they ran it."/>
        </section>
    }
}

/// The counts over time: §52-7's "continued attendance" is not shown by one
/// count at one moment.
#[component]
fn CountsSection(entry: GatheringEntry, error: Signal<Option<AppError>>) -> impl IntoView {
    let counts = entry.counts;
    let message = field_error(error, "gathering.counts");
    let rows = move || counts.get().into_iter().enumerate().collect::<Vec<_>>();
    view! {
        <section class="panel" aria-labelledby="counts">
            <h2 id="counts">"Counts of the crowd"</h2>
            <p class="hint" id="counts-hint">"§52-7 asks for a continued attendance of 500 or more for two or more hours: one count at one moment does not show it. Count again at least two hours after the first, or record below what shows it was meant to last that long."</p>
            <span class="error-text" id="gathering-counts-error">{move || message.get()}</span>
            <For each=rows key=|(_, c)| c.id
                children=move |(k, row)| view! { <CountFields k row error/> }/>
            <button type="button" class="secondary" on:click=move |_| counts.update(|v| v.push(CountRow::new()))>
                "Add a count"
            </button>
        </section>
    }
}

#[component]
fn CountFields(k: usize, row: CountRow, error: Signal<Option<AppError>>) -> impl IntoView {
    let key = row.id.simple().to_string();
    let (at_id, persons_id, method_id) = (
        format!("count-at-{key}"),
        format!("count-persons-{key}"),
        format!("count-method-{key}"),
    );
    let n = k + 1;
    view! {
        <fieldset class="person">
            <legend>{format!("Count {n}")}</legend>
            <RowInput id=at_id label=format!("Time of count {n}") kind="datetime-local" value=row.at
                message=message_for(error, format!("gathering.counts.{k}.at"))/>
            <RowInput id=persons_id label=format!("Persons at count {n}") inputmode="numeric" value=row.persons
                message=message_for(error, format!("gathering.counts.{k}.persons"))/>
            <div class="field">
                <label for=method_id.clone()>{format!("How count {n} was made")}</label>
                <select id=method_id on:change=move |ev| {
                    if let Some(m) = CountMethod::from_code(&event_target_value(&ev)) { row.method.set(m) }
                }>
                    {CountMethod::ALL.into_iter().map(|m| view! {
                        <option value=m.code() selected=move || row.method.get() == m
                            prop:selected=move || row.method.get() == m>{m.label()}</option>
                    }).collect_view()}
                </select>
            </div>
        </fieldset>
    }
}

/// What shows the gathering "may, will, or is intended to attract" its crowd
/// for two or more hours (§52-7), with where that is shown.
#[component]
fn IntendedSection(entry: GatheringEntry, error: Signal<Option<AppError>>) -> impl IntoView {
    let evidence = entry.evidence;
    view! {
        <section class="panel" aria-labelledby="intended">
            <h2 id="intended">"What shows how long it was meant to last"</h2>
            <div class="field">
                <label for="intended-evidence">"What shows it (§52-7: “may, will, or is intended to attract”)"</label>
                <select id="intended-evidence" on:change=move |ev| evidence.set(IntentEvidence::from_code(&event_target_value(&ev)))>
                    <option value="" selected=move || evidence.get().is_none()
                        prop:selected=move || evidence.get().is_none()>"Nothing more recorded"</option>
                    {IntentEvidence::ALL.into_iter().map(|e| view! {
                        <option value=e.code() selected=move || evidence.get() == Some(e)
                            prop:selected=move || evidence.get() == Some(e)>{e.label()}</option>
                    }).collect_view()}
                </select>
            </div>
            <Show when=move || evidence.get().is_some()>
                <TextField name="gathering.intended.source" label="Where it is shown" value=entry.source error
                    hint="e.g. the poster at the gate, the festival's website, the box office's sales list."/>
                <TextField name="gathering.intended.minutes" label="Hours advertised or ticketed" value=entry.intended_hours error
                    inputmode="decimal" hint="e.g. 5 or 4:30"/>
                <TextField name="gathering.intended.persons" label="Persons the tickets or advertising show (optional)"
                    value=entry.intended_persons error inputmode="numeric"/>
            </Show>
        </section>
    }
}

/// Who put it on, each a person or an organisation.
#[component]
fn WhoSection(entry: GatheringEntry, error: Signal<Option<AppError>>) -> impl IntoView {
    let persons = entry.persons;
    let rows = move || persons.get().into_iter().enumerate().collect::<Vec<_>>();
    view! {
        <section class="panel" aria-labelledby="who-ran">
            <h2 id="who-ran">"Who put it on"</h2>
            <For each=rows key=|(_, p)| p.id
                children=move |(i, p)| view! { <ResponsibleFields i p error/> }/>
            <button type="button" class="secondary" on:click=move |_| persons.update(|v| v.push(Responsible::new()))>
                "Add another person or organisation"
            </button>
        </section>
    }
}

/// A labelled input of one row of a list (ids carry the row's key: several
/// rows share the page), with its error beneath.
#[component]
fn RowInput(
    id: String,
    label: String,
    value: RwSignal<String>,
    message: Signal<Option<String>>,
    #[prop(default = "text")] kind: &'static str,
    #[prop(optional)] inputmode: Option<&'static str>,
) -> impl IntoView {
    let error_id = format!("{id}-error");
    view! {
        <div class="field">
            <label for=id.clone()>{label}</label>
            <input id=id type=kind inputmode=inputmode prop:value=move || value.get()
                aria-describedby=error_id.clone()
                aria-invalid=move || if message.get().is_some() { "true" } else { "false" }
                on:input=move |ev| value.set(event_target_value(&ev))/>
            <span class="error-text" id=error_id>{move || message.get()}</span>
        </div>
    }
}

#[component]
fn ResponsibleFields(i: usize, p: Responsible, error: Signal<Option<AppError>>) -> impl IntoView {
    let key = p.id.simple().to_string();
    let field = move |name: &str| message_for(error, format!("subjects.{i}.{name}"));
    let role_id = format!("role-{key}");
    let cite_id = format!("cite-{key}");
    let kind = format!("kind-{key}");
    let (role_message, identity_message, charges_message) =
        (field("role"), field("identity"), field("charges"));
    let (name_message, birth_message, address_message, representative_message) = (
        field("full_name"),
        field("date_of_birth"),
        field("address"),
        field("representative"),
    );
    let organisation = p.organisation;
    view! {
        <fieldset class="person">
            <legend>{format!("Person or organisation {}", i + 1)}</legend>
            <fieldset>
                <legend>"Who they are"</legend>
                <label class="choice">
                    <input type="radio" name=kind.clone() prop:checked=move || !organisation.get()
                        on:change=move |_| organisation.set(false)/>
                    "A person"
                </label>
                <label class="choice">
                    <input type="radio" name=kind prop:checked=move || organisation.get()
                        on:change=move |_| organisation.set(true)/>
                    "An organisation (§52-12: “any person or party”)"
                </label>
                <span class="error-text">{move || identity_message.get()}</span>
            </fieldset>
            {
                let key = key.clone();
                move || if organisation.get() {
                    view! {
                        <RowInput id=format!("name-{key}") label="Name of the organisation".into() value=p.name message=name_message/>
                        <RowInput id=format!("address-{key}") label="Address".into() value=p.address message=address_message/>
                        <RowInput id=format!("representative-{key}") label="Representative (optional)".into() value=p.representative message=representative_message/>
                    }.into_any()
                } else {
                    view! {
                        <RowInput id=format!("name-{key}") label="Full name".into() value=p.name message=name_message/>
                        <RowInput id=format!("birth-{key}") label="Date of birth".into() kind="date" value=p.birth message=birth_message/>
                        <RowInput id=format!("address-{key}") label="Address".into() value=p.address message=address_message/>
                    }.into_any()
                }
            }
            <div class="field">
                <label for=role_id.clone()>"Their part (§52-7)"</label>
                <select id=role_id.clone() aria-describedby=format!("{role_id}-error")
                    aria-invalid=move || if role_message.get().is_some() { "true" } else { "false" }
                    on:change=move |ev| p.role.set(GatheringRole::from_code(&event_target_value(&ev)))>
                    <option value="" selected=move || p.role.get().is_none()
                        prop:selected=move || p.role.get().is_none()>"— choose their part —"</option>
                    {GatheringRole::ALL.into_iter().map(|r| view! {
                        <option value=r.code() selected=move || p.role.get() == Some(r)
                            prop:selected=move || p.role.get() == Some(r)>{r.label()}</option>
                    }).collect_view()}
                </select>
                <span class="error-text" id=format!("{role_id}-error")>{move || role_message.get()}</span>
            </div>
            <label class="choice" for=cite_id.clone()>
                <input type="checkbox" id=cite_id.clone() prop:checked=move || p.cite.get()
                    on:change=move |ev| p.cite.set(event_target_checked(&ev))/>
                "Issue a §52-12 citation"
            </label>
            <span class="error-text">{move || charges_message.get()}</span>
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
