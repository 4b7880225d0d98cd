//! Court settings: where citations are answered, printed on every summons (§52-4
//! penalties are imposed by the District Court).

use leptos::prelude::*;
use leptos_meta::Title;

use crate::access::Permission;
use crate::api::admin::{
    get_court_settings, get_sign_in_policy, save_court_settings, save_sign_in_policy,
};
use crate::components::form::{ErrorSummary, RoleChoices, TextField};
use crate::components::session::{hydrated, Guard};
use crate::error::AppError;
use crate::model::account::SignInPolicy;
use crate::model::settings::CourtSettings;

#[component]
pub fn SettingsPage() -> impl IntoView {
    view! {
        <Title text="Court settings"/>
        <Guard permission=Permission::ManageSettings>
            <CourtForm/>
            <SignInPolicyForm/>
            <SoundLimitForm/>
        </Guard>
    }
}

/// Loads the settings inside a Transition, so server rendering waits for them
/// the way Leptos expects, then shows the form filled in.
#[component]
fn CourtForm() -> impl IntoView {
    let current = Resource::new(|| (), |_| get_court_settings());
    view! {
        <h1>"Court settings"</h1>
        <p class="hint">"Printed on every citation issued from now on; citations already issued keep the court they were issued with."</p>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match current.await {
                    Err(e) => view! { <p class="notice bad" role="alert">{e.to_string()}</p> }.into_any(),
                    Ok(settings) => view! { <CourtEditor settings/> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn CourtEditor(settings: CourtSettings) -> impl IntoView {
    let name = RwSignal::new(settings.court_name);
    let address = RwSignal::new(settings.court_address);
    let days = RwSignal::new(settings.answer_days.to_string());
    // With no list saved, the court keeps Maine's legal holidays: shown for this
    // year and the next two, to edit.
    let this_year = settings.closed_days.is_none().then(|| {
        crate::model::civil::civil_from_days(crate::client::now().0.div_euclid(86_400_000)).0
    });
    let closed = RwSignal::new(match &settings.closed_days {
        Some(days) => days.join("\n"),
        None => this_year
            .map(|y| {
                (y..y + 3)
                    .flat_map(crate::model::court_calendar::maine_holidays)
                    .map(|(d, name)| format!("{d} {name}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default(),
    });
    let ready = hydrated();
    let save = Action::new(move |s: &CourtSettings| save_court_settings(s.clone()));
    let error = Signal::derive(move || save.value().get().and_then(Result::err));
    let saved = move || matches!(save.value().get(), Some(Ok(_)));
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        // Not a number becomes 0, so the server's rule names the field and its range.
        let answer_days = days
            .get_untracked()
            .trim()
            .parse::<u32>()
            .unwrap_or_default();
        // One date a line; what follows the date on its line is a note.
        let closed_days = closed
            .get_untracked()
            .lines()
            .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
            .collect();
        save.dispatch(CourtSettings {
            court_name: name.get_untracked(),
            court_address: address.get_untracked(),
            answer_days,
            closed_days: Some(closed_days),
        });
    };
    view! {
        <ErrorSummary error/>
        <Show when=saved>
            <p class="notice ok" role="status" data-testid="settings-saved">"Saved."</p>
        </Show>
        <form class="panel" on:submit=submit>
            <TextField name="court_name" label="Court name" value=name error required=true/>
            <TextField name="court_address" label="Court address" value=address error required=true/>
            <TextField name="answer_days" label="Days from issue to the answer date" value=days error
                inputmode="numeric" required=true hint="1 to 120 days; a weekend or a day the court is closed moves it to the next court day."/>
            <div class="field">
                <label for="closed_days">"Days the court is closed (besides weekends)"</label>
                <span class="hint" id="closed_days-hint">"One date a line, as YYYY-MM-DD; words after the date are a note. Until saved, Maine's legal holidays."</span>
                <textarea id="closed_days" rows="8" aria-describedby="closed_days-hint closed_days-error"
                    prop:value=move || closed.get() on:input=move |ev| closed.set(event_target_value(&ev))></textarea>
                <span class="error-text" id="closed_days-error">{move || {
                    error.get().and_then(|e| e.for_field("closed_days").map(str::to_owned))
                }}</span>
            </div>
            <button type="submit" disabled=move || !ready.get() || save.pending().get()>"Save"</button>
        </form>
    }
}

/// The sign-in policy (issue #18, CJIS IA-2): a second factor for everyone, and
/// the roles that must use a passkey.
#[component]
fn SignInPolicyForm() -> impl IntoView {
    let current = Resource::new(|| (), |_| get_sign_in_policy());
    view! {
        <h2 id="sign-in-policy">"Sign-in policy"</h2>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match current.await {
                    Err(e) => view! { <p class="notice bad" role="alert">{e.to_string()}</p> }.into_any(),
                    Ok(policy) => view! { <SignInPolicyEditor policy/> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn SignInPolicyEditor(policy: SignInPolicy) -> impl IntoView {
    let required = RwSignal::new(policy.second_factor_required);
    let roles = RwSignal::new(policy.passkey_roles);
    let ready = hydrated();
    let save = Action::new(move |p: &SignInPolicy| save_sign_in_policy(p.clone()));
    let error = Signal::derive(move || save.value().get().and_then(Result::err));
    let saved = move || matches!(save.value().get(), Some(Ok(_)));
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        save.dispatch(SignInPolicy {
            second_factor_required: required.get_untracked(),
            passkey_roles: roles.get_untracked(),
        });
    };
    view! {
        <ErrorSummary error/>
        <Show when=saved>
            <p class="notice ok" role="status" data-testid="policy-saved">"Saved: it applies at each user's next click."</p>
        </Show>
        <form class="panel" on:submit=submit>
            <label class="choice">
                <input type="checkbox" name="second_factor_required" bind:checked=required/>
                "Require a second factor (passkey or authenticator app) for every account"
            </label>
            <p class="hint">"An account without one is sent to set one up right after its password, and can do nothing else until it has."</p>
            <fieldset>
                <legend>"Roles that must sign in with a passkey"</legend>
                <RoleChoices name="passkey_roles" roles/>
                <span class="error-text">{move || error.get().and_then(|e| e.for_field("passkey_roles").map(str::to_owned))}</span>
            </fieldset>
            <button type="submit" disabled=move || !ready.get() || save.pending().get()>"Save sign-in policy"</button>
        </form>
    }
}

/// §52-10(9)'s decibel level (issue #19): the ordinance cites "Chapter lot" of
/// the Town Code, a defect in the text, so the level is the Town's to confirm;
/// until it is, every calculator and permit says it is unconfirmed.
#[component]
fn SoundLimitForm() -> impl IntoView {
    let current = Resource::new(|| (), |_| crate::api::permits::sound_limit());
    view! {
        <h2 id="sound-limit">"Mass gatherings: noise limit (§52-10(9))"</h2>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match current.await {
                    Err(e) => view! { <p class="notice bad" role="alert">{e.to_string()}</p> }.into_any(),
                    Ok(limit) => view! { <SoundLimitEditor limit/> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn SoundLimitEditor(limit: Option<u32>) -> impl IntoView {
    let text = RwSignal::new(limit.map(|l| l.to_string()).unwrap_or_default());
    let ready = hydrated();
    let save = Action::new(move |limit: &Option<u32>| crate::api::admin::save_sound_limit(*limit));
    let typed = RwSignal::new(None::<AppError>);
    let error = Signal::derive(move || {
        typed
            .get()
            .or_else(|| save.value().get().and_then(Result::err))
    });
    let saved = move || typed.get().is_none() && matches!(save.value().get(), Some(Ok(_)));
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let value = text.get_untracked();
        match value.trim() {
            "" => {
                typed.set(None);
                save.dispatch(None);
            }
            v => match v.parse::<u32>() {
                Ok(db) => {
                    typed.set(None);
                    save.dispatch(Some(db));
                }
                // Not a number: the server's range message, without a round trip.
                Err(_) => typed.set(Some(AppError::invalid(
                    "limit_dba",
                    "Noise limit: a whole number of dBA, or empty while unconfirmed (§52-10(9)).",
                ))),
            },
        }
    };
    view! {
        <p class="hint">"The ordinance limits the noise at a gathering's perimeter to \"the decibel level set forth in Chapter lot of the Code of the Town of Wells\" — a chapter that does not exist as written. Until the Town confirms the level, the calculator, the permits and the denials say it is unconfirmed and only the precautions are checked."</p>
        <ErrorSummary error/>
        <Show when=saved>
            <p class="notice ok" role="status" data-testid="sound-limit-saved">"Saved."</p>
        </Show>
        <form class="panel" on:submit=submit>
            <TextField name="limit_dba" label="Noise limit at the perimeter (dBA)" value=text error
                inputmode="numeric" hint="Empty: unconfirmed."/>
            <button type="submit" disabled=move || !ready.get() || save.pending().get()>"Save the noise limit"</button>
        </form>
    }
}
