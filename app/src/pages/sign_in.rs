use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::account::{sign_in, SignInForm};
use crate::api::second_factor::{passkey_sign_in_begin, passkey_sign_in_finish, sign_in_with_code};
use crate::components::form::{focus_input, ErrorSummary, TextField};
use crate::components::session::{go_to, hydrated};
use crate::error::AppError;
use crate::model::account::{after_sign_in, sign_in_address as plain, FactorKind, Me, SignInStep};

fn signed_in(me: &Me, next: Option<String>) {
    // An officer's drafts and unsent reports live in this browser's storage.
    if me.has(crate::model::account::Role::Officer) {
        crate::client::keep_storage();
    }
    go_to(&after_sign_in(me, next));
}

/// Sign in: the password, then (for an account with one) the second factor.
/// The password can be shown (typing on a phone outdoors is error-prone).
///
/// The form works before the browser app has started (#35): it is a plain form
/// post to `session/sign-in-form` until then, and the inputs are not bound to
/// signals, so what was typed while the app loaded is neither lost when it
/// starts nor ignored. Once started, the app sends the same fields itself.
#[component]
pub fn SignInPage() -> impl IntoView {
    let query = use_query_map();
    let given = query.get_untracked();
    let next = StoredValue::new(given.get("next"));
    let show = RwSignal::new(false);
    let username_input = NodeRef::<leptos::html::Input>::new();
    let password_input = NodeRef::<leptos::html::Input>::new();
    // The factors the account has, once the password was right: from the app's
    // own call, or from the page's address after a plain form post.
    let methods = RwSignal::new(given.get("second").map(|s| plain::methods(&s)));
    let refused_before = given.get("refused").map(|r| plain::error(&r));
    let attempt = Action::new(move |(u, p): &(String, String)| {
        let (u, p) = (u.clone(), p.clone());
        async move { sign_in(u, p).await }
    });
    Effect::new(move |_| match attempt.value().get() {
        Some(Ok(SignInStep::SignedIn { me })) => signed_in(&me, next.get_value()),
        Some(Ok(SignInStep::SecondFactor { methods: m })) => methods.set(Some(m)),
        _ => {}
    });
    let error = Signal::derive(move || match attempt.value().get() {
        Some(outcome) => outcome.err(),
        None => refused_before.clone(),
    });
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let value = |input: NodeRef<leptos::html::Input>| {
            input.get_untracked().map(|i| i.value()).unwrap_or_default()
        };
        attempt.dispatch((value(username_input), value(password_input)));
    };
    view! {
        <Title text="Sign in"/>
        <section class="panel narrow">
            <h1>"Sign in"</h1>
            <Show
                when=move || methods.get().is_none()
                fallback=move || view! {
                    <SecondStep methods=methods.get().unwrap_or_default() back=methods next=next.get_value()/>
                }
            >
                <ErrorSummary error/>
                <form method="post" action=SignInForm::url() on:submit=on_submit>
                    <input type="hidden" name="next" value=next.get_value()/>
                    <div class="field">
                        <label for="username">"Username"</label>
                        <input id="username" name="username" node_ref=username_input
                            autocomplete="username" required/>
                    </div>
                    <div class="field">
                        <label for="password">"Password"</label>
                        <input
                            id="password"
                            name="password"
                            node_ref=password_input
                            type=move || if show.get() { "text" } else { "password" }
                            autocomplete="current-password"
                            required
                        />
                    </div>
                    <label class="choice">
                        <input type="checkbox" bind:checked=show/>
                        "Show password"
                    </label>
                    <div class="actions">
                        <button type="submit" disabled=move || attempt.pending().get()>
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
    // The app's six digits by default, on a numeric keyboard; a recovery code
    // (letters) behind its own link (#35), or alone when the account has no app.
    let recovery = RwSignal::new(!has_totp);
    Effect::new(move |_| {
        recovery.track();
        focus_input("code");
    });
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
                {move || if recovery.get() {
                    view! {
                        <TextField name="code" label="Recovery code" value=code error autocomplete="off"
                            inputmode="text" required=true
                            hint="One of the ten codes you wrote down when you set up the app (each works once)."/>
                    }.into_any()
                } else {
                    view! {
                        <TextField name="code" label="Code from your authenticator app" value=code error
                            autocomplete="one-time-code" inputmode="numeric" required=true
                            hint="The six digits the app shows now."/>
                    }.into_any()
                }}
                <div class="actions">
                    <button type="submit" disabled=move || !ready.get() || busy()>
                        {move || if with_code.pending().get() { "Checking…" } else { "Continue" }}
                    </button>
                </div>
            </form>
            {(has_totp && has_recovery).then(|| view! {
                <p>
                    <button type="button" class="secondary" data-testid="code-kind"
                        on:click=move |_| { code.set(String::new()); recovery.update(|r| *r = !*r); }>
                        {move || if recovery.get() { "Use the code from the app instead" } else { "Use a recovery code instead" }}
                    </button>
                </p>
            })}
        })}
        <p class="hint">
            "Lost your phone? Use a recovery code, or ask an administrator to reset your second factor. "
            <a href="/sign-in" rel="external">"Start again"</a>
        </p>
    }
}
