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
    provide_context(SessionGone(RwSignal::new(false)));
}

/// Set once a server function answered that the session is gone (signed out
/// elsewhere, or timed out) while this page was open: the header stops naming
/// a signed-in user the server no longer knows (issue #37, finding 12).
#[derive(Clone, Copy)]
pub struct SessionGone(pub RwSignal<bool>);

impl SessionGone {
    /// Notes `error`: one that says the session is gone marks it gone.
    pub fn note(self, error: &AppError) {
        if matches!(error, AppError::Unauthenticated) {
            self.0.set(true);
        }
    }
}

/// The page's [`SessionGone`] (a fresh one where no app provided it).
pub fn use_session_gone() -> SessionGone {
    use_context::<SessionGone>().unwrap_or_else(|| SessionGone(RwSignal::new(false)))
}

/// The sign-in page, coming back to `here` after.
pub fn sign_in_href(here: &str) -> String {
    format!("/sign-in?next={}", encode(here))
}

/// What a page says when a server function found the session gone: what was
/// typed is kept, and the way back, to this same page.
#[component]
pub fn SessionEnded() -> impl IntoView {
    let location = use_location();
    let href = move || {
        sign_in_href(&(location.pathname.get_untracked() + &location.search.get_untracked()))
    };
    view! {
        <span data-testid="session-ended">
            "Your session has ended (signed out, or timed out), so this was not recorded. "
            "What you typed is kept in this browser tab. "
            <a href=href rel="external">"Sign in again"</a>
            " to come back to this page and finish."
        </span>
    }
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
pub use crate::model::text::percent_encode as encode;

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
