use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::account::sign_in;
use crate::components::form::{ErrorSummary, TextField};
use crate::components::session::{go_to, hydrated, safe_next};

/// Sign in. The password can be shown (typing on a phone outdoors is error-prone).
#[component]
pub fn SignInPage() -> impl IntoView {
    let query = use_query_map();
    let username = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let show = RwSignal::new(false);
    let ready = hydrated();
    let attempt = Action::new(move |(u, p): &(String, String)| {
        let (u, p) = (u.clone(), p.clone());
        async move { sign_in(u, p).await }
    });
    Effect::new(move |_| {
        if let Some(Ok(me)) = attempt.value().get() {
            // An officer's drafts and unsent reports live in this browser's storage.
            if me.has(crate::model::account::Role::Officer) {
                crate::client::keep_storage();
            }
            if me.must_change_password {
                go_to("/account/password");
            } else {
                go_to(&safe_next(query.get_untracked().get("next")));
            }
        }
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
        </section>
    }
}
