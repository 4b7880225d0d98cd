use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::access::{Decision, Permission};
use crate::components::connection::ConnectionStatus;
use crate::components::leave::{provide_signed_out_here, SignOut, SignedOutPanel};
use crate::components::session::{sign_in_href, use_current_user, use_session_gone};
use crate::model::account::Me;

/// The screens each permission opens, in the order the menu lists them.
const MENU: &[(Permission, &str, &str)] = &[
    (Permission::RecordIncidents, "/field/new", "New incident"),
    (Permission::RecordIncidents, "/field/reports", "My reports"),
    (
        Permission::RecordIncidents,
        "/field/gathering",
        "Mass gathering",
    ),
    (
        Permission::RecordIncidents,
        "/account/signature",
        "My signature",
    ),
    (Permission::Review, "/review", "Review queue"),
    (Permission::Oversee, "/register", "Register"),
    (Permission::Oversee, "/dashboard", "Dashboard"),
    (
        Permission::Oversee,
        "/transparency/publish",
        "Publish a month",
    ),
    (Permission::Court, "/court", "Filing queue"),
    (Permission::Court, "/court/register", "Clerk's register"),
    (Permission::Court, "/court/calendar", "Hearings calendar"),
    (Permission::ReadPermits, "/permits", "Gathering permits"),
    (Permission::ManageUsers, "/admin/users", "Users"),
    (Permission::ReadAudit, "/admin/audit", "Audit log"),
    (
        Permission::ManageSettings,
        "/admin/settings",
        "Court settings",
    ),
];

/// Header, menu, main area and footer around every page.
///
/// On a phone the header is one row — the name of the app, the connection, and
/// "Menu" — so the page starts under it (the name, badge, sign-out and the
/// screens' links took a third of a 390 × 844 screen). The menu is a
/// `<details>`: it opens and closes without the app's code, on a page the
/// server sent, and browsers announce its summary as a button that is expanded
/// or collapsed. On a desk's wider screen it stays open (style: `.site-menu`).
#[component]
pub fn Layout(children: Children) -> impl IntoView {
    let user = use_current_user().0;
    let signed_out_here = provide_signed_out_here();
    let gone = use_session_gone();
    view! {
        <a class="skip-link" href="#main">"Skip to content"</a>
        <header class="site-header">
            <a class="brand" href="/">"Wells PD"<span class="brand-more">" · Loitering log"</span></a>
            <ConnectionStatus/>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match user.await.ok().flatten() {
                        // The server said the session is gone: no longer named as
                        // signed in, with the way back to this page.
                        Some(me) => view! {
                            <Show when=move || !gone.0.get() fallback=|| view! { <NotSignedIn back=true/> }>
                                <SiteMenu me=me.clone()/>
                            </Show>
                        }.into_any(),
                        None => view! { <NotSignedIn back=false/> }.into_any(),
                    }
                })}
            </Suspense>
        </header>
        <main id="main" tabindex="-1">
            <Show when=move || signed_out_here.get()>
                <SignedOutPanel/>
            </Show>
            // Put away, not removed: the page's own tasks (the outbox sending
            // what waits) run on until the server is told.
            <div hidden=move || signed_out_here.get() data-testid="page">{children()}</div>
        </main>
        <footer class="site-footer">
            <p>"Town of Wells · Code Chapter 52, Articles I and II · "<a href="/transparency">"Public reports"</a></p>
        </footer>
    }
}

/// No one signed in; `back`: the sign-in comes back to this page.
#[component]
fn NotSignedIn(back: bool) -> impl IntoView {
    let location = use_location();
    let href = move || {
        if back {
            sign_in_href(&(location.pathname.get() + &location.search.get()))
        } else {
            "/sign-in".to_owned()
        }
    };
    view! {
        <div class="header-status" data-testid="not-signed-in">
            <span class="who">"Not signed in"</span>
            <a class="sign-in" href=href rel=back.then_some("external")>"Sign in"</a>
        </div>
    }
}

/// Who is signed in, sign-out and the screens' links, behind "Menu" on a phone.
#[component]
fn SiteMenu(me: Me) -> impl IntoView {
    let menu = NodeRef::<leptos::html::Details>::new();
    // A link followed in the app keeps this header: close the menu as a new page
    // would have it.
    let close_on_link = move |ev: leptos::ev::MouseEvent| {
        use leptos::wasm_bindgen::JsCast;
        let on_link = ev
            .target()
            .and_then(|t| t.dyn_into::<leptos::web_sys::Element>().ok())
            .and_then(|t| t.closest("a[href]").ok().flatten())
            .is_some();
        if on_link {
            if let Some(details) = menu.get_untracked() {
                let _ = details.remove_attribute("open");
            }
        }
    };
    view! {
        <details class="site-menu" node_ref=menu>
            <summary>"Menu"</summary>
            <div class="menu-body" on:click=close_on_link>
                <Menu me=me.clone()/>
                <div class="header-status">
                    <SignedIn me/>
                </div>
            </div>
        </details>
    }
}

#[component]
fn SignedIn(me: Me) -> impl IntoView {
    let outbox = crate::outbox::use_outbox();
    let badge = me.badge_number.clone().map(|b| format!(" · badge {b}"));
    let sender = me
        .has(crate::model::account::Role::Officer)
        .then(|| view! { <crate::outbox::OutboxSender username=me.username.clone()/> });
    view! {
        {sender}
        <span class="who" data-testid="signed-in-as">{me.full_name.clone()}{badge}</span>
        <SignOut outbox/>
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
                <ul>
                    {items}
                    <li><a href="/account/password">"Password"</a></li>
                    <li><a href="/account/security">"Sign-in security"</a></li>
                </ul>
            </nav>
        }
    })
}
