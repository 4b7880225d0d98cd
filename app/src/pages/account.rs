use leptos::prelude::*;
use leptos_meta::Title;

use crate::access::Permission;
use crate::api::account::change_password;
use crate::components::form::{ErrorSummary, TextField};
use crate::components::session::{hydrated, signed_in, Guard};
use crate::error::AppError;

/// One's own password; also where a reset by an administrator sends the user.
#[component]
pub fn PasswordPage() -> impl IntoView {
    view! {
        <Title text="Change password"/>
        <Guard permission=Permission::OwnAccount>
            <PasswordForm/>
        </Guard>
    }
}

#[component]
fn PasswordForm() -> impl IntoView {
    let current = RwSignal::new(String::new());
    let new = RwSignal::new(String::new());
    let confirm = RwSignal::new(String::new());
    let ready = hydrated();
    let change = Action::new(move |_: &()| {
        let (c, n, k) = (
            current.get_untracked(),
            new.get_untracked(),
            confirm.get_untracked(),
        );
        async move {
            if n != k {
                return Err(AppError::invalid(
                    "confirm",
                    "The two new passwords are not the same.",
                ));
            }
            change_password(c, n).await
        }
    });
    let error = Signal::derive(move || change.value().get().and_then(Result::err));
    let must_change = signed_in().is_some_and(|m| m.must_change_password);
    view! {
        <section class="panel narrow">
            <h1>"Change password"</h1>
            <Show when=move || must_change>
                <div class="notice warn" role="status">
                    "An administrator reset your password. Choose a new one to continue."
                </div>
            </Show>
            <Show when=move || matches!(change.value().get(), Some(Ok(())))>
                <div class="notice ok" role="status">
                    "Password changed. Your other sessions have been signed out. "
                    <a href="/" rel="external">"Continue"</a>
                </div>
            </Show>
            <ErrorSummary error/>
            <form method="post" on:submit=move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                change.dispatch(());
            }>
                <TextField name="current_password" label="Current password" value=current error
                    kind="password" autocomplete="current-password" required=true/>
                <TextField name="new_password" label="New password" value=new error kind="password"
                    autocomplete="new-password" required=true
                    hint="At least 12 characters, not a common password, not containing your username."/>
                <TextField name="confirm" label="New password again" value=confirm error kind="password"
                    autocomplete="new-password" required=true/>
                <div class="actions">
                    <button type="submit" disabled=move || !ready.get() || change.pending().get()>
                        "Change password"
                    </button>
                </div>
            </form>
        </section>
    }
}
