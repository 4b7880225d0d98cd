use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::account::create_first_admin;
use crate::components::form::{ErrorSummary, TextField};
use crate::components::session::hydrated;

/// First run: the link the server printed at start-up creates the first
/// administrator, once.
#[component]
pub fn SetupPage() -> impl IntoView {
    let query = use_query_map();
    let token = move || query.with(|q| q.get("token")).unwrap_or_default();
    let username = RwSignal::new(String::new());
    let full_name = RwSignal::new(String::new());
    let badge = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let ready = hydrated();
    let create = Action::new(move |_: &()| {
        let badge = badge.get_untracked();
        let args = (
            token(),
            username.get_untracked(),
            full_name.get_untracked(),
            (!badge.trim().is_empty()).then_some(badge),
            password.get_untracked(),
        );
        async move { create_first_admin(args.0, args.1, args.2, args.3, args.4).await }
    });
    let error = Signal::derive(move || create.value().get().and_then(Result::err));
    let done = move || matches!(create.value().get(), Some(Ok(())));
    view! {
        <Title text="First-run setup"/>
        <section class="panel narrow">
            <h1>"Create the first administrator"</h1>
            <Show
                when=done
                fallback=move || view! {
                    <p>"This link works once. The administrator manages accounts and settings; "
                       "give them the officer or chief role too only if they need it."</p>
                    <ErrorSummary error/>
                    <form method="post" on:submit=move |ev: leptos::ev::SubmitEvent| {
                        ev.prevent_default();
                        create.dispatch(());
                    }>
                        <TextField name="username" label="Username" value=username error autocomplete="username" required=true/>
                        <TextField name="full_name" label="Full name" value=full_name error autocomplete="name" required=true/>
                        <TextField name="badge_number" label="Badge number (optional)" value=badge error/>
                        <TextField name="password" label="Password" value=password error kind="password"
                            autocomplete="new-password" required=true
                            hint="At least 12 characters; a short phrase works well."/>
                        <div class="actions">
                            <button type="submit" disabled=move || !ready.get() || create.pending().get()>
                                "Create administrator"
                            </button>
                        </div>
                    </form>
                }
            >
                <div class="notice ok" role="status">
                    "The administrator account is ready and signed in. Next, set up your second factor "
                    "(a passkey or an authenticator app): the sign-in policy requires one. "
                    <a href="/account/security" rel="external">"Set up your second factor"</a>
                </div>
            </Show>
        </section>
    }
}
