//! The permit application form (§52-9 A, in the detail of §52-10 and §52-11),
//! shared by the operator's public page, the operator's changes through the
//! status link and the Town Clerk typing in a paper application; and the
//! requirements calculator beside it, computed in the browser by the same
//! rules the Selectmen's list comes from.

use leptos::prelude::*;

use crate::components::form::{field_error, ErrorSummary};
use crate::error::AppError;
use crate::model::permit::{ClerkRecord, PermitApplication};
use crate::ordinance::article_ii::{
    advice, calendar, grounds_to_deny, shortfalls, Provided, Provision, Requirements, Shortfall,
};
use crate::ordinance::penalty::dollars;

type Read<T> = fn(&PermitApplication) -> T;
type Write<T> = fn(&mut PermitApplication, T);

fn to_u32(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// How a number is typed: whole units, dollars (kept in cents), acres (kept in
/// hundredths).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Whole,
    Dollars,
    Acres,
}

impl Unit {
    /// The value typed, in the unit's smallest part; `None` when it is not a number.
    pub fn parse(self, text: &str) -> Option<u64> {
        let clean: String = text
            .chars()
            .filter(|c| !matches!(c, ',' | '$' | ' '))
            .collect();
        if clean.is_empty() {
            return Some(0);
        }
        match self {
            Unit::Whole => clean.parse().ok(),
            Unit::Dollars | Unit::Acres => {
                let (whole, frac) = clean.split_once('.').unwrap_or((&clean, ""));
                if frac.len() > 2 || !frac.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                let whole: u64 = if whole.is_empty() {
                    0
                } else {
                    whole.parse().ok()?
                };
                let frac: u64 = format!("{frac:0<2}").parse().ok()?;
                whole.checked_mul(100)?.checked_add(frac)
            }
        }
    }

    fn show(self, value: u64) -> String {
        match (self, value) {
            (_, 0) => String::new(),
            (Unit::Whole, v) => v.to_string(),
            (_, v) if v % 100 == 0 => (v / 100).to_string(),
            (_, v) => format!("{}.{:02}", v / 100, v % 100),
        }
    }

    pub fn problem(self) -> &'static str {
        match self {
            Unit::Whole => "A whole number, e.g. 24.",
            Unit::Dollars => "An amount in dollars, e.g. 300000 or 1250.50.",
            Unit::Acres => "Acres, e.g. 6 or 6.25.",
        }
    }
}

#[component]
fn Text(
    app: RwSignal<PermitApplication>,
    name: &'static str,
    label: &'static str,
    get: Read<String>,
    set: Write<String>,
    error: Signal<Option<AppError>>,
    #[prop(optional)] hint: Option<&'static str>,
    #[prop(default = "text")] kind: &'static str,
    #[prop(optional)] long: bool,
    #[prop(optional)] required: bool,
) -> impl IntoView {
    let message = field_error(error, name);
    let initial = app.with_untracked(get);
    let on_input = move |ev| app.update(|a| set(a, event_target_value(&ev)));
    let described = format!("{name}-hint {name}-error");
    view! {
        <div class="field">
            <label for=name>{label}</label>
            {hint.map(|h| view! { <span class="hint" id=format!("{name}-hint")>{h}</span> })}
            {if long {
                view! {
                    <textarea id=name name=name rows="3" aria-describedby=described.clone()
                        aria-invalid=move || if message.get().is_some() { "true" } else { "false" }
                        on:input=on_input>{initial}</textarea>
                }.into_any()
            } else {
                view! {
                    <input id=name name=name type=kind value=initial required=required
                        aria-describedby=described.clone()
                        aria-invalid=move || if message.get().is_some() { "true" } else { "false" }
                        on:input=on_input/>
                }.into_any()
            }}
            <span class="error-text" id=format!("{name}-error")>{move || message.get()}</span>
        </div>
    }
}

#[component]
fn Number(
    app: RwSignal<PermitApplication>,
    name: &'static str,
    label: &'static str,
    get: Read<u64>,
    set: Write<u64>,
    error: Signal<Option<AppError>>,
    #[prop(default = Unit::Whole)] unit: Unit,
    #[prop(optional)] hint: Option<&'static str>,
) -> impl IntoView {
    let server = field_error(error, name);
    let typed = RwSignal::new(None::<&'static str>);
    let message = move || typed.get().map(str::to_owned).or_else(|| server.get());
    let initial = unit.show(app.with_untracked(get));
    let on_input = move |ev| match unit.parse(&event_target_value(&ev)) {
        Some(v) => {
            typed.set(None);
            app.update(|a| set(a, v));
        }
        None => typed.set(Some(unit.problem())),
    };
    let described = format!("{name}-hint {name}-error");
    view! {
        <div class="field">
            <label for=name>{label}</label>
            {hint.map(|h| view! { <span class="hint" id=format!("{name}-hint")>{h}</span> })}
            <input id=name name=name type="text"
                inputmode=if unit == Unit::Whole { "numeric" } else { "decimal" }
                value=initial aria-describedby=described
                aria-invalid=move || if message().is_some() { "true" } else { "false" }
                on:input=on_input/>
            <span class="error-text" id=format!("{name}-error")>{message}</span>
        </div>
    }
}

#[component]
fn Check(
    app: RwSignal<PermitApplication>,
    name: &'static str,
    label: &'static str,
    get: Read<bool>,
    set: Write<bool>,
) -> impl IntoView {
    let initial = app.with_untracked(get);
    view! {
        <label class="choice">
            <input type="checkbox" id=name name=name checked=initial
                on:change=move |ev| app.update(|a| set(a, event_target_checked(&ev)))/>
            {label}
        </label>
    }
}

/// An empty application: every number 0, every box unticked.
pub fn blank() -> PermitApplication {
    PermitApplication {
        operator: String::new(),
        operator_address: String::new(),
        operator_phone: String::new(),
        operator_email: String::new(),
        sponsor: String::new(),
        landowner: String::new(),
        lessee: String::new(),
        place: String::new(),
        map_point: String::new(),
        purpose: String::new(),
        first_day: String::new(),
        last_day: String::new(),
        starts: String::new(),
        ends: String::new(),
        attendance: 0,
        vehicles: 0,
        buses: 0,
        expected_men: None,
        expected_women: None,
        water_under_pressure: false,
        provided: Provided::default(),
        refuse_plan: String::new(),
        lighting_plan: String::new(),
        medical_plan: String::new(),
    }
}

/// The form's inputs, in the order of §52-10, editing `app`.
#[component]
pub fn ApplicationFields(
    app: RwSignal<PermitApplication>,
    error: Signal<Option<AppError>>,
) -> impl IntoView {
    view! {
        <ErrorSummary error/>
        <section class="panel" aria-labelledby="who">
            <h2 id="who">"Who is responsible (§52-6(4), §52-7)"</h2>
            <Text app error name="operator" label="Operator" required=true
                hint="The person or organisation managing the gathering area."
                get=|a| a.operator.clone() set=|a, v| a.operator = v/>
            <Text app error name="operator_address" label="Operator's mailing address" required=true
                get=|a| a.operator_address.clone() set=|a, v| a.operator_address = v/>
            <Text app error name="operator_phone" label="Operator's phone" kind="tel"
                get=|a| a.operator_phone.clone() set=|a, v| a.operator_phone = v/>
            <Text app error name="operator_email" label="Operator's e-mail" kind="email"
                get=|a| a.operator_email.clone() set=|a, v| a.operator_email = v/>
            <Text app error name="sponsor" label="Sponsor or promoter, if another"
                get=|a| a.sponsor.clone() set=|a, v| a.sponsor = v/>
            <Text app error name="landowner" label="Owner of the ground" required=true
                get=|a| a.landowner.clone() set=|a, v| a.landowner = v/>
            <Text app error name="lessee" label="Lessee of the ground, if any"
                get=|a| a.lessee.clone() set=|a, v| a.lessee = v/>
        </section>
        <section class="panel" aria-labelledby="when">
            <h2 id="when">"The gathering (§52-5, §52-7)"</h2>
            <Text app error name="purpose" label="Purpose" required=true
                get=|a| a.purpose.clone() set=|a, v| a.purpose = v/>
            <Text app error name="place" label="Place" required=true
                hint="Street address or a description an officer can find."
                get=|a| a.place.clone() set=|a, v| a.place = v/>
            <Text app error name="map_point" label="Map point (optional)"
                hint="Latitude, longitude, e.g. 43.3197, -70.5633."
                get=|a| a.map_point.clone() set=|a, v| a.map_point = v/>
            <Text app error name="first_day" label="First day" kind="date" required=true
                hint="At least 20 days after the Town Clerk receives this application (§52-9 A)."
                get=|a| a.first_day.clone() set=|a, v| a.first_day = v/>
            <Text app error name="last_day" label="Last day" kind="date" required=true
                get=|a| a.last_day.clone() set=|a, v| a.last_day = v/>
            <Text app error name="starts" label="Each day starts at" kind="time" required=true
                get=|a| a.starts.clone() set=|a, v| a.starts = v/>
            <Text app error name="ends" label="Each day ends at" kind="time" required=true
                hint="No overnight assemblage is permitted (§52-10(2)(f))."
                get=|a| a.ends.clone() set=|a, v| a.ends = v/>
            <Number app error name="attendance" label="Persons expected"
                get=|a| u64::from(a.attendance) set=|a, v| a.attendance = to_u32(v)/>
            <Number app error name="vehicles" label="Passenger cars expected"
                get=|a| u64::from(a.vehicles) set=|a, v| a.vehicles = to_u32(v)/>
            <Number app error name="buses" label="Buses expected"
                get=|a| u64::from(a.buses) set=|a, v| a.buses = to_u32(v)/>
        </section>
        <section class="panel" aria-labelledby="grounds">
            <h2 id="grounds">"Access and grounds (§52-10(1), (2))"</h2>
            <Check app name="traffic_control" label="Traffic control personnel on the public roads nearby (§52-10(1))"
                get=|a| a.provided.traffic_control set=|a, v| a.provided.traffic_control = v/>
            <Check app name="lighting" label="The assembly area is lit at night (§52-10(2)(d))"
                get=|a| a.provided.lighting set=|a, v| a.provided.lighting = v/>
            <Text app error name="lighting_plan" label="Lighting plan" long=true
                get=|a| a.lighting_plan.clone() set=|a, v| a.lighting_plan = v/>
            <Number app error name="parking_spaces" label="Parking spaces (§52-10(2)(e))"
                get=|a| u64::from(a.provided.parking_spaces) set=|a, v| a.provided.parking_spaces = to_u32(v)/>
            <Number app error name="parking_acres" label="Usable acres of parking" unit=Unit::Acres
                get=|a| u64::from(a.provided.parking_acre_hundredths) set=|a, v| a.provided.parking_acre_hundredths = to_u32(v)/>
            <Number app error name="road_lanes" label="Traffic lanes of the service roads"
                get=|a| u64::from(a.provided.road_lanes) set=|a, v| a.provided.road_lanes = to_u32(v)/>
            <Number app error name="road_parking_lanes" label="Parallel parking lanes on them"
                get=|a| u64::from(a.provided.road_parking_lanes) set=|a, v| a.provided.road_parking_lanes = to_u32(v)/>
            <Number app error name="road_width_feet" label="Width of the service roads, feet"
                get=|a| u64::from(a.provided.road_width_feet) set=|a, v| a.provided.road_width_feet = to_u32(v)/>
            <Number app error name="site_square_feet" label="Square feet for the assemblage (§52-10(2)(f))"
                get=|a| a.provided.site_square_feet set=|a, v| a.provided.site_square_feet = v/>
        </section>
        <section class="panel" aria-labelledby="water">
            <h2 id="water">"Water and sanitation (§52-10(3), (4))"</h2>
            <Check app name="potable_water" label="Potable water from an approved source, no common cups (§52-10(3))"
                get=|a| a.provided.potable_water set=|a, v| a.provided.potable_water = v/>
            <Check app name="water_under_pressure" label="Water under pressure with flush toilets (§52-10(4)(a))"
                get=|a| a.water_under_pressure set=|a, v| a.water_under_pressure = v/>
            <Number app error name="water_gallons_per_day" label="Gallons of water a day"
                get=|a| a.provided.water_gallons_per_day set=|a, v| a.provided.water_gallons_per_day = v/>
            <Number app error name="water_psi" label="Pressure at the fixtures, psi (if under pressure)"
                get=|a| u64::from(a.provided.water_psi.unwrap_or(0))
                set=|a, v| a.provided.water_psi = (v > 0).then(|| to_u32(v))/>
            <Number app error name="expected_men" label="Men expected (optional)"
                hint="With the women expected: the toilets of each sex are counted for their own. Left blank, half the persons each (§52-10(4)(d))."
                get=|a| u64::from(a.expected_men.unwrap_or(0)) set=|a, v| a.expected_men = (v > 0).then(|| to_u32(v))/>
            <Number app error name="expected_women" label="Women expected (optional)"
                get=|a| u64::from(a.expected_women.unwrap_or(0)) set=|a, v| a.expected_women = (v > 0).then(|| to_u32(v))/>
            <Number app error name="toilets_men" label="Toilets for men (§52-10(4)(d))"
                get=|a| u64::from(a.provided.toilets_men) set=|a, v| a.provided.toilets_men = to_u32(v)/>
            <Number app error name="toilets_women" label="Toilets for women"
                get=|a| u64::from(a.provided.toilets_women) set=|a, v| a.provided.toilets_women = to_u32(v)/>
        </section>
        <section class="panel" aria-labelledby="refuse">
            <h2 id="refuse">"Refuse (§52-10(5))"</h2>
            <Number app error name="refuse_fifty" label="50-gallon containers at the assembly"
                get=|a| u64::from(a.provided.refuse.fifty_gallon) set=|a, v| a.provided.refuse.fifty_gallon = to_u32(v)/>
            <Number app error name="refuse_sixteen" label="16-cubic-yard containers at the assembly"
                get=|a| u64::from(a.provided.refuse.sixteen_cubic_yard) set=|a, v| a.provided.refuse.sixteen_cubic_yard = to_u32(v)/>
            <Number app error name="parking_refuse_fifty" label="50-gallon containers where vehicles park"
                get=|a| u64::from(a.provided.parking_refuse.fifty_gallon) set=|a, v| a.provided.parking_refuse.fifty_gallon = to_u32(v)/>
            <Number app error name="parking_refuse_sixteen" label="16-cubic-yard containers where vehicles park"
                get=|a| u64::from(a.provided.parking_refuse.sixteen_cubic_yard) set=|a, v| a.provided.parking_refuse.sixteen_cubic_yard = to_u32(v)/>
            <Number app error name="collections" label="Refuse collections planned"
                get=|a| u64::from(a.provided.collections) set=|a, v| a.provided.collections = to_u32(v)/>
            <Number app error name="clear_within_hours" label="Grounds cleared within (hours after)"
                get=|a| u64::from(a.provided.clear_within_hours) set=|a, v| a.provided.clear_within_hours = to_u32(v)/>
            <Text app error name="refuse_plan" label="Refuse plan" long=true
                get=|a| a.refuse_plan.clone() set=|a, v| a.refuse_plan = v/>
        </section>
        <section class="panel" aria-labelledby="safety">
            <h2 id="safety">"Safety, medical and sound (§52-10(7), (8), (9))"</h2>
            <Check app name="fire_department_informed" label="The Wells Fire Department is informed (§52-10(7)(d))"
                get=|a| a.provided.fire_department_informed set=|a, v| a.provided.fire_department_informed = v/>
            <Number app error name="officers" label="Law enforcement officers on site (§52-10(7)(e))"
                get=|a| u64::from(a.provided.officers) set=|a, v| a.provided.officers = to_u32(v)/>
            <Check app name="physician_supervision" label="Emergency medical services under a licensed physician (§52-10(8)(a))"
                get=|a| a.provided.physician_supervision set=|a, v| a.provided.physician_supervision = v/>
            <Check app name="first_aid_station" label="A first aid building or tent (§52-10(8)(b))"
                get=|a| a.provided.first_aid_station set=|a, v| a.provided.first_aid_station = v/>
            <Check app name="ambulances_on_site" label="Licensed ambulances on site throughout (§52-10(8)(c))"
                get=|a| a.provided.ambulances_on_site set=|a, v| a.provided.ambulances_on_site = v/>
            <Check app name="phone_and_radio" label="Telephone and radio for emergencies (§52-10(8)(d))"
                get=|a| a.provided.phone_and_radio set=|a, v| a.provided.phone_and_radio = v/>
            <Check app name="hospitals_told" label="Area hospitals told of the gathering (§52-10(8)(e))"
                get=|a| a.provided.hospitals_told set=|a, v| a.provided.hospitals_told = v/>
            <Check app name="sound_precautions" label="Precautions so the sound does not carry beyond the site (§52-10(9))"
                get=|a| a.provided.sound_precautions set=|a, v| a.provided.sound_precautions = v/>
            <Text app error name="medical_plan" label="Medical plan" long=true
                get=|a| a.medical_plan.clone() set=|a, v| a.medical_plan = v/>
        </section>
        <section class="panel" aria-labelledby="insurance">
            <h2 id="insurance">"Insurance (§52-11)"</h2>
            <Number app error name="insurance_per_person" label="Bodily injury, per person ($)" unit=Unit::Dollars
                get=|a| a.provided.insurance_per_person_cents set=|a, v| a.provided.insurance_per_person_cents = v/>
            <Number app error name="insurance_per_occurrence" label="Bodily injury, per occurrence ($)" unit=Unit::Dollars
                get=|a| a.provided.insurance_per_occurrence_cents set=|a, v| a.provided.insurance_per_occurrence_cents = v/>
            <Number app error name="insurance_property" label="Property damage ($)" unit=Unit::Dollars
                get=|a| a.provided.insurance_property_cents set=|a, v| a.provided.insurance_property_cents = v/>
            <p class="hint">"The bond (at least $5,000) and the deposit (120 % of the Town's estimate of its public costs) are furnished to the Town Clerk (§52-9 D)."</p>
        </section>
    }
}

/// The whole form — fields, calculator, send button — for `action`: a new
/// application (online or from paper), or the operator's changes.
#[component]
pub fn ApplicationForm<T>(
    app: RwSignal<PermitApplication>,
    action: Action<PermitApplication, Result<T, AppError>>,
    button: &'static str,
) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
{
    let ready = crate::components::session::hydrated();
    let error = Signal::derive(move || action.value().get().and_then(Result::err));
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        action.dispatch(app.get_untracked());
    };
    view! {
        <form class="permit-form" on:submit=submit novalidate>
            <ApplicationFields app error/>
            <Calculator app/>
            <button type="submit" disabled=move || !ready.get() || action.pending().get()>{button}</button>
        </form>
    }
}

/// A new application: the form, then its number and private link.
#[component]
pub fn NewApplication(
    action: Action<PermitApplication, Result<crate::model::permit::Filed, AppError>>,
    button: &'static str,
) -> impl IntoView {
    let app = RwSignal::new(blank());
    move || match action.value().get().and_then(Result::ok) {
        Some(filed) => {
            let email = app.with_untracked(|a| a.operator_email.trim().to_owned());
            view! { <FiledNotice filed email/> }.into_any()
        }
        None => view! { <ApplicationForm app action button/> }.into_any(),
    }
}

/// The application's number and its private link, shown once: brought into
/// view and focused (issue #37: on a phone it was left off-screen, below the
/// long form), with a button to copy it and one to e-mail it to the operator.
#[component]
fn FiledNotice(filed: crate::model::permit::Filed, email: String) -> impl IntoView {
    let link = format!("/permits/status?token={}", filed.token);
    let heading = NodeRef::<leptos::html::H2>::new();
    Effect::new(move |_| {
        if let Some(h) = heading.get() {
            h.scroll_into_view();
            let _ = h.focus();
        }
    });
    let full = crate::client::origin() + &link;
    let copied = RwSignal::new(None::<bool>);
    let copy = Action::new_local(move |text: &String| {
        let text = text.clone();
        async move { copied.set(Some(crate::client::copy_to_clipboard(&text).await)) }
    });
    let to_copy = full.clone();
    let mail = format!(
        "mailto:{}?subject={}&body={}",
        crate::components::session::encode(&email),
        crate::components::session::encode(&format!("Permit application {}: the private status link", filed.number)),
        crate::components::session::encode(&format!(
            "Application {} to the Town of Wells for a mass gathering permit. Its private status link (keep it; it is shown only once): {full}",
            filed.number
        )),
    );
    view! {
        <section class="panel notice ok" role="status" data-testid="permit-filed">
            <h2 node_ref=heading tabindex="-1">{format!("Application {} received", filed.number)}</h2>
            <p>"Keep this private link: it is the only way to see the application's status and, if the Selectmen deny it, to make the changes their decision lists. It is shown only now."</p>
            <p class="link-box"><a href=link.clone() data-testid="status-link">{full.clone()}</a></p>
            <div class="actions">
                <button type="button" data-testid="copy-status-link" on:click=move |_| { copy.dispatch(to_copy.clone()); }>"Copy the link"</button>
                <a class="button secondary" href=mail data-testid="email-status-link">
                    {if email.is_empty() { "E-mail the link".to_owned() } else { format!("E-mail the link to {email}") }}</a>
            </div>
            <p role="status" data-testid="copy-result">{move || copied.get().map(|ok| if ok {
                "Copied: paste it somewhere you keep.".to_owned()
            } else {
                "This browser did not copy it: select the link above and copy it, or e-mail it.".to_owned()
            })}</p>
            <p>{format!(
                "Pay the {} fee to the Town Clerk; the Board of Selectmen considers the application once the fee is recorded (§52-9 A).",
                crate::ordinance::article_ii::Requirements::fee_text()
            )}</p>
        </section>
    }
}

/// The requirements calculator: what a gathering of this size needs, and what
/// the plan as typed does not yet meet (bond and deposit aside: the Town Clerk
/// records those).
#[component]
pub fn Calculator(app: RwSignal<PermitApplication>) -> impl IntoView {
    // Read in the browser only: the calculator shows nothing until the
    // operator types, so the server's render never needs it.
    let sound = LocalResource::new(crate::api::permits::sound_limit);
    let assessed = move || {
        app.with(|a| {
            let schedule = a.schedule().ok()?;
            let plan = a.plan(&schedule, 0);
            plan.validate().ok()?;
            let provided = a.provided_with(&schedule, &ClerkRecord::default());
            let short: Vec<_> = shortfalls(&plan, &provided)
                .unwrap_or_default()
                .into_iter()
                .filter(|s| s.provision != Provision::S52_9D)
                .collect();
            Some((Requirements::for_plan(&plan), short, schedule.first_day))
        })
    };
    view! {
        <section class="panel" aria-labelledby="calculator" aria-live="polite">
            <h2 id="calculator">"What the ordinance requires"</h2>
            {move || match assessed() {
                None => view! {
                    <p class="hint">"Give the dates, hours and persons expected to see the requirements."</p>
                }.into_any(),
                Some((need, short, first_day)) => view! {
                    <RequirementList need sound=sound.get().and_then(Result::ok).flatten()/>
                    <p class="hint" data-testid="filing-deadline">{
                        let (by, moved) = crate::model::permit::filing_deadline(first_day);
                        format!(
                            "File with the Town Clerk by {} ({} days before the first day, §52-9 A{}).",
                            crate::model::civil::date_text(by),
                            calendar::FILING_DAYS_AHEAD,
                            moved.map(|why| format!("; {why}")).unwrap_or_default()
                        )
                    }</p>
                    <PlanVerdict short/>
                }.into_any(),
            }}
        </section>
    }
}

/// What the plan as typed does not yet meet: the "shall" standards first, then
/// the "should" ones, advice the Board may issue with open (§52-8 A).
#[component]
fn PlanVerdict(short: Vec<Shortfall>) -> impl IntoView {
    let (grounds, advice) = (grounds_to_deny(&short), advice(&short));
    view! {
        {if grounds.is_empty() {
            view! { <p class="notice ok" data-testid="plan-meets">"As typed, the plan meets every standard above that the ordinance says shall be met."</p> }.into_any()
        } else {
            view! {
                <p class="notice warn" data-testid="plan-short">"As typed, the plan does not yet meet:"</p>
                <ul class="shortfalls">{grounds.into_iter().map(|s| view! {
                    <li>{s.reason()}</li>
                }).collect_view()}</ul>
            }.into_any()
        }}
        {(!advice.is_empty()).then(|| view! {
            <p class="hint">"Advice — the ordinance says these \"should\" be provided; the Board may issue with them open (§52-8 A):"</p>
            <ul class="advice" data-testid="plan-advice">{advice.into_iter().map(|s| view! {
                <li>{s.reason()}</li>
            }).collect_view()}</ul>
        })}
    }
}

/// Each number of the §52-10, §52-11 and §52-9 standards for a plan.
#[component]
pub fn RequirementList(
    need: Requirements,
    /// §52-10(9)'s level the Town has set, `None` while unconfirmed.
    sound: Option<u32>,
) -> impl IntoView {
    let money = |c: u64| dollars(i64::try_from(c).unwrap_or(i64::MAX));
    let acres = |h: u32| format!("{}.{:02}", h / 100, h % 100);
    let water = match need.water_psi {
        Some(psi) => format!(
            "{} gallons a day at {psi} psi or more",
            need.water_gallons_per_day
        ),
        None => format!("{} gallons a day", need.water_gallons_per_day),
    };
    let rows: Vec<(&str, String)> = vec![
        (
            "§52-10(2)(e)",
            format!(
                "{} parking spaces on {} usable acres or more",
                need.parking_spaces,
                acres(need.parking_acre_hundredths)
            ),
        ),
        (
            "§52-10(2)(f)",
            format!(
                "{} square feet for the assemblage; none overnight",
                need.site_square_feet
            ),
        ),
        ("§52-10(4)(a)/(b)", water),
        (
            "§52-10(4)(d)",
            format!(
                "{} toilets for men and {} for women (one for each 350 of the {} men and the {} women each serves)",
                need.toilets_men, need.toilets_women, need.served.men, need.served.women
            ),
        ),
        (
            "§52-10(5)(b)",
            format!(
                "{} fifty-gallon or {} sixteen-yard refuse containers (\"should\": advised)",
                need.refuse.fifty_gallon, need.refuse.sixteen_cubic_yard
            ),
        ),
        (
            "§52-10(5)(c)",
            format!(
                "{} fifty-gallon or {} sixteen-yard containers where cars and buses park (\"should\": advised)",
                need.parking_refuse.fifty_gallon, need.parking_refuse.sixteen_cubic_yard
            ),
        ),
        (
            "§52-10(5)(d)",
            format!(
                "{} refuse collections (twice each twelve-hour period of assembly, on each day)",
                need.collections
            ),
        ),
        (
            "§52-10(5)(e)",
            format!("grounds cleared within {} hours", need.clear_within_hours),
        ),
        (
            "§52-10(7)(e)",
            format!("{} law enforcement officers on site", need.officers),
        ),
        (
            "§52-10(9)",
            crate::ordinance::article_ii::requirements::sound_text(sound),
        ),
        (
            "§52-11",
            format!(
                "insurance {} / {} bodily injury, {} property",
                money(need.insurance_per_person_cents),
                money(need.insurance_per_occurrence_cents),
                money(need.insurance_property_cents)
            ),
        ),
        (
            "§52-9 D",
            format!(
                "bond of {} or more; deposit {}",
                money(need.bond_cents),
                if need.deposit_cents == 0 {
                    "120 % of the Town's estimate".to_owned()
                } else {
                    money(need.deposit_cents)
                }
            ),
        ),
        (
            "§52-9 A",
            format!("fee {} (not refundable)", money(need.fee_cents)),
        ),
    ];
    view! {
        <dl class="requirements" data-testid="requirements">
            {rows.into_iter().map(|(section, text)| view! {
                <dt>{section}</dt><dd>{text}</dd>
            }).collect_view()}
        </dl>
    }
}

#[cfg(test)]
mod tests {
    use super::Unit;

    #[test]
    fn amounts_and_acres_read_as_typed_and_refuse_what_is_not_a_number() {
        assert_eq!(Unit::Dollars.parse("300,000"), Some(30_000_000));
        assert_eq!(Unit::Dollars.parse("$1250.5"), Some(125_050));
        assert_eq!(Unit::Acres.parse("6.25"), Some(625));
        assert_eq!(Unit::Acres.parse(""), Some(0));
        assert_eq!(Unit::Whole.parse("24"), Some(24));
        assert_eq!(Unit::Whole.parse("2.5"), None);
        assert_eq!(Unit::Dollars.parse("1.234"), None);
        assert_eq!(Unit::Whole.parse("many"), None);
        assert_eq!(Unit::Acres.show(650), "6.50");
        assert_eq!(Unit::Dollars.show(30_000_000), "300000");
    }
}
