use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::access::{Decision, Permission};
use crate::api::account::sign_out;
use crate::components::connection::ConnectionStatus;
use crate::components::session::{go_to, hydrated, use_current_user};
use crate::model::account::Me;

/// The screens each permission opens, in the order the menu lists them.
const MENU: &[(Permission, &str, &str)] = &[
    (Permission::RecordIncidents, "/field/new", "New incident"),
    (Permission::RecordIncidents, "/field/reports", "My reports"),
    (Permission::Review, "/review", "Review queue"),
    (Permission::Oversee, "/register", "Register"),
    (Permission::Oversee, "/dashboard", "Dashboard"),
    (Permission::Court, "/court", "Filing queue"),
    (Permission::Court, "/court/register", "Clerk's register"),
    (Permission::ManageUsers, "/admin/users", "Users"),
    (Permission::ReadAudit, "/admin/audit", "Audit log"),
    (
        Permission::ManageSettings,
        "/admin/settings",
        "Court settings",
    ),
];

/// Header, menu, main area and footer around every page.
#[component]
pub fn Layout(children: Children) -> impl IntoView {
    let user = use_current_user().0;
    view! {
        <a class="skip-link" href="#main">"Skip to content"</a>
        <header class="site-header">
            <a class="brand" href="/">"Wells PD · Loitering log"</a>
            <div class="header-status">
                <ConnectionStatus/>
                <Suspense fallback=|| ()>
                    {move || Suspend::new(async move {
                        match user.await.ok().flatten() {
                            Some(me) => view! { <SignedIn me/> }.into_any(),
                            None => view! {
                                <span class="who">"Not signed in"</span>
                                <a href="/sign-in">"Sign in"</a>
                            }.into_any(),
                        }
                    })}
                </Suspense>
            </div>
        </header>
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                user.await.ok().flatten().map(|me| view! { <Menu me/> })
            })}
        </Suspense>
        <main id="main" tabindex="-1">{children()}</main>
        <footer class="site-footer">
            <p>"Town of Wells Police Department · Code Chapter 52, Article I"</p>
        </footer>
    }
}

#[component]
fn SignedIn(me: Me) -> impl IntoView {
    let ready = hydrated();
    let outbox = crate::outbox::use_outbox();
    let leave = Action::new_local(move |_: &()| async move {
        // The block of citation numbers goes back (issue #17) while the
        // session still lets the phone say so.
        outbox.before_sign_out().await;
        // Whatever the answer, the page must not keep showing a signed-in state.
        let _ = sign_out().await;
        crate::client::forget_cached_pages();
        go_to("/sign-in");
    });
    let badge = me.badge_number.clone().map(|b| format!(" · badge {b}"));
    let sender = me
        .has(crate::model::account::Role::Officer)
        .then(|| view! { <crate::outbox::OutboxSender username=me.username.clone()/> });
    view! {
        {sender}
        <span class="who" data-testid="signed-in-as">{me.full_name.clone()}{badge}</span>
        <button
            type="button"
            class="secondary"
            on:click=move |_| { leave.dispatch(()); }
            disabled=move || !ready.get() || leave.pending().get()
        >
            "Sign out"
        </button>
    }
}

#[component]
fn Menu(me: Me) -> impl IntoView {
    let location = use_location();
    let items: Vec<_> = MENU
        .iter()
        .filter(|(p, _, _)| p.allows(Some(&me.roles)) == Decision::Allow)
        .map(|(_, href, label)| {
            let href = *href;
            let current = move || location.pathname.get().starts_with(href).then_some("page");
            view! { <li><a href=href aria-current=current>{*label}</a></li> }
        })
        .collect();
    (!items.is_empty()).then(|| {
        view! {
            <nav class="site-nav" aria-label="Main">
                <ul>{items}<li><a href="/account/password">"Password"</a></li></ul>
            </nav>
        }
    })
}
