use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::account::sign_in;
use crate::api::second_factor::{passkey_sign_in_begin, passkey_sign_in_finish, sign_in_with_code};
use crate::components::form::{ErrorSummary, TextField};
use crate::components::session::{go_to, hydrated, safe_next};
use crate::error::AppError;
use crate::model::account::{FactorKind, Me, SignInStep};

/// Where a finished sign-in goes: a new password first, then a second factor if
/// the policy needs one, else where the user was headed.
fn signed_in(me: &Me, next: Option<String>) {
    // An officer's drafts and unsent reports live in this browser's storage.
    if me.has(crate::model::account::Role::Officer) {
        crate::client::keep_storage();
    }
    if me.must_change_password {
        go_to("/account/password");
    } else if me.needs_second_factor {
        go_to("/account/security");
    } else {
        go_to(&safe_next(next));
    }
}

/// Sign in: the password, then (for an account with one) the second factor.
/// The password can be shown (typing on a phone outdoors is error-prone).
#[component]
pub fn SignInPage() -> impl IntoView {
    let query = use_query_map();
    let next = move || query.get_untracked().get("next");
    let username = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let show = RwSignal::new(false);
    let ready = hydrated();
    // The factors the account has, once the password was right.
    let methods = RwSignal::new(None::<Vec<FactorKind>>);
    let attempt = Action::new(move |(u, p): &(String, String)| {
        let (u, p) = (u.clone(), p.clone());
        async move { sign_in(u, p).await }
    });
    Effect::new(move |_| match attempt.value().get() {
        Some(Ok(SignInStep::SignedIn { me })) => signed_in(&me, next()),
        Some(Ok(SignInStep::SecondFactor { methods: m })) => methods.set(Some(m)),
        _ => {}
    });
    let error = Signal::derive(move || attempt.value().get().and_then(Result::err));
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        attempt.dispatch((username.get_untracked(), password.get_untracked()));
    };
    view! {
        <Title text="Sign in"/>
        <section class="panel narrow">
            <h1>"Sign in"</h1>
            <Show
                when=move || methods.get().is_none()
                fallback=move || view! {
                    <SecondStep methods=methods.get().unwrap_or_default() back=methods next=next()/>
                }
            >
                <ErrorSummary error/>
                <form method="post" on:submit=on_submit>
                    <TextField name="username" label="Username" value=username autocomplete="username" required=true/>
                    <div class="field">
                        <label for="password">"Password"</label>
                        <input
                            id="password"
                            name="password"
                            type=move || if show.get() { "text" } else { "password" }
                            bind:value=password
                            autocomplete="current-password"
                            required
                        />
                    </div>
                    <label class="choice">
                        <input type="checkbox" bind:checked=show/>
                        "Show password"
                    </label>
                    <div class="actions">
                        <button type="submit" disabled=move || !ready.get() || attempt.pending().get()>
                            {move || if attempt.pending().get() { "Signing in…" } else { "Sign in" }}
                        </button>
                    </div>
                </form>
                <p class="hint">
                    "Accounts are made by an administrator. After 5 failed attempts an account is locked "
                    "until an administrator unlocks it."
                </p>
            </Show>
        </section>
    }
}

/// The second factor: a passkey (one tap), or a code from the authenticator app
/// or a recovery code. An expired step (five minutes) goes back to the password.
#[component]
fn SecondStep(
    methods: Vec<FactorKind>,
    back: RwSignal<Option<Vec<FactorKind>>>,
    next: Option<String>,
) -> impl IntoView {
    let code = RwSignal::new(String::new());
    let ready = hydrated();
    let has_passkey = methods.contains(&FactorKind::Passkey);
    let has_totp = methods.contains(&FactorKind::Totp);
    let has_recovery = methods.contains(&FactorKind::RecoveryCode);
    let with_code = Action::new(move |c: &String| {
        let c = c.clone();
        async move { sign_in_with_code(c).await }
    });
    // Local: the browser's WebAuthn promise is not `Send`.
    let with_passkey = Action::new_local(move |_: &()| async move {
        let options = passkey_sign_in_begin().await?;
        let credential = crate::components::passkey::get(options)
            .await
            .map_err(AppError::conflict)?;
        passkey_sign_in_finish(credential).await
    });
    let next = StoredValue::new(next);
    let outcome = move || {
        with_passkey
            .value()
            .get()
            .or_else(|| with_code.value().get())
    };
    Effect::new(move |_| match outcome() {
        Some(Ok(me)) => signed_in(&me, next.get_value()),
        // Locked, disabled or reset meanwhile: back to the password, with the reason.
        Some(Err(AppError::SignInRefused)) => back.set(None),
        _ => {}
    });
    let error = Signal::derive(move || outcome().and_then(Result::err));
    let busy = move || with_code.pending().get() || with_passkey.pending().get();
    let code_label = match (has_totp, has_recovery) {
        (true, true) => "Code from your authenticator app, or a recovery code",
        (true, false) => "Code from your authenticator app",
        _ => "Recovery code",
    };
    view! {
        <p>"Your password is right. Now prove it is you with your second factor."</p>
        <ErrorSummary error/>
        {has_passkey.then(|| view! {
            <div class="actions">
                <button type="button" id="use-passkey" disabled=move || !ready.get() || busy()
                    on:click=move |_| { with_passkey.dispatch(()); }>
                    "Use a passkey"
                </button>
            </div>
        })}
        {(has_totp || has_recovery).then(|| view! {
            <form method="post" on:submit=move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                with_code.dispatch(code.get_untracked());
            }>
                <TextField name="code" label=code_label value=code error autocomplete="one-time-code"
                    inputmode="text" required=true
                    hint="Six digits from the app, or one of your ten recovery codes (each works once)."/>
                <div class="actions">
                    <button type="submit" disabled=move || !ready.get() || busy()>
                        {move || if with_code.pending().get() { "Checking…" } else { "Continue" }}
                    </button>
                </div>
            </form>
        })}
        <p class="hint">
            "Lost your phone? Use a recovery code, or ask an administrator to reset your second factor. "
            <a href="/sign-in" rel="external">"Start again"</a>
        </p>
    }
}
