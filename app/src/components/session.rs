//! The signed-in user, known to every page, and the guard pages put around
//! their content.

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::access::{Decision, Permission};
use crate::api::account::current_user;
use crate::error::AppError;
use crate::model::account::Me;

/// Provided by `App`: who is signed in (resolved on the server while rendering,
/// then carried to the browser with the page).
#[derive(Clone, Copy)]
pub struct CurrentUser(pub Resource<Result<Option<Me>, AppError>>);

pub fn provide_current_user() {
    provide_context(CurrentUser(Resource::new(|| (), |_| current_user())));
}

pub fn use_current_user() -> CurrentUser {
    expect_context::<CurrentUser>()
}

/// Who is signed in, as the [`Guard`] around the page resolved it: a plain value
/// for the page's components, which read it instead of the [`CurrentUser`]
/// resource. A page never reads a resource synchronously (`.get()`) outside the
/// Suspense that awaits it: under concurrent server renders that left some pages
/// waiting for ever (issue #39, `server::render`; `server/tests/resource_reads.rs`
/// keeps it so).
#[derive(Clone, Debug)]
pub struct SignedIn(pub Option<Me>);

/// The signed-in user of the page, inside a [`Guard`] (None outside one).
pub fn signed_in() -> Option<Me> {
    use_context::<SignedIn>().and_then(|s| s.0)
}

/// Leaves for `path` with a full page load (the session changed, so everything
/// the server rendered must be rendered again), or answers with a redirect when
/// still on the server.
pub fn go_to(path: &str) {
    #[cfg(feature = "ssr")]
    leptos_axum::redirect(path);
    #[cfg(feature = "hydrate")]
    {
        let _ = window().location().assign(path);
    }
    #[cfg(not(any(feature = "ssr", feature = "hydrate")))]
    let _ = path;
}

/// A `next` parameter is only followed within this site.
pub fn safe_next(next: Option<String>) -> String {
    next.filter(|n| n.starts_with('/') && !n.starts_with("//") && !n.contains('\\'))
        .unwrap_or_else(|| "/".to_owned())
}

/// Renders `children` only for users the permission allows. Not signed in: off to
/// the sign-in page (and back here after). Wrong role: a 403 page. A password
/// reset by an administrator: off to choose a new one first. No second factor
/// where the policy requires one: off to set one up. The server checks
/// again in every server function; this only decides what to show.
#[component]
pub fn Guard(permission: Permission, children: ChildrenFn) -> impl IntoView {
    let user = use_current_user().0;
    let location = use_location();
    let children = StoredValue::new(children);
    view! {
        <Suspense fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let me = user.await.ok().flatten();
                let decision = permission.allows(me.as_ref().map(|m| m.roles.as_slice()));
                let must_change = me.as_ref().is_some_and(|m| m.must_change_password)
                    && permission != Permission::OwnAccount;
                let must_enrol = me.as_ref().is_some_and(|m| m.needs_second_factor)
                    && permission != Permission::OwnAccount;
                match decision {
                    Decision::SignInFirst => {
                        let here = location.pathname.get_untracked() + &location.search.get_untracked();
                        go_to(&format!("/sign-in?next={}", encode(&here)));
                        view! { <p>"Sign in to continue."</p> }.into_any()
                    }
                    Decision::Deny => view! { <Forbidden/> }.into_any(),
                    Decision::Allow if must_change => {
                        go_to("/account/password");
                        view! { <p>"Choose a new password first."</p> }.into_any()
                    }
                    Decision::Allow if must_enrol => {
                        go_to("/account/security");
                        view! { <p>"Set up your second factor first."</p> }.into_any()
                    }
                    Decision::Allow => view! {
                        <leptos::context::Provider value=SignedIn(me)>
                            {children.with_value(|c| c())}
                        </leptos::context::Provider>
                    }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// Percent-encodes a path for a query parameter.
pub fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The 403 page: the server answers with status 403 too.
#[component]
pub fn Forbidden() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::FORBIDDEN);
    }
    view! {
        <leptos_meta::Title text="Not permitted"/>
        <section class="panel" role="alert">
            <h1>"Not permitted"</h1>
            <p>"Your account does not have access to this page. If you need it, ask an administrator to add the role."</p>
            <p><a href="/">"Go to the start page"</a></p>
        </section>
    }
}

/// True once the browser app runs: forms keep their buttons disabled until then,
/// so a submit can never fall back to a plain form post.
pub fn hydrated() -> ReadSignal<bool> {
    let (ready, set_ready) = signal(false);
    Effect::new(move |_| set_ready.set(true));
    ready
}
