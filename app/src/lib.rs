//! Wells loitering enforcement log: the Leptos application.
//!
//! Compiled twice: for the server (`ssr`: rendering, server functions, store, auth)
//! and for the browser (`hydrate`: the same components made interactive). The law of
//! Chapter 52 lives in [`ordinance`], pure and shared by both, so the phone shows the
//! verdict the server will enforce.
//!
//! The app stands on three crates of its own, each in its folder under `app/`,
//! layered so that a lower one never names a higher one:
//!
//! | crate | folder | what it is |
//! |---|---|---|
//! | `domain` | `app/domain/` | the law ([`ordinance`]), the records ([`model`]), [`error`]; for the server who acts (`actor`, `clock`, `lockout`) and the Town's time (`town_time`) |
//! | `documents` | `app/documents/` | the printed and exported records (server) |
//! | `store` | `app/store/` | the records kept, on SQLite or PostgreSQL (server) |
//! | `app` | `app/src/` | pages, components, server functions, `auth` |

pub mod access;
pub mod api;
#[cfg(feature = "ssr")]
pub mod auth;
pub mod client;
pub mod components;
pub mod on_demand;
pub mod outbox;
pub mod pages;
pub mod phone_store;
#[cfg(feature = "ssr")]
pub mod state;

// The crates below the app, under the names the app has always used: the domain
// (the law, the records, the error every call answers with), and on the server
// the printed documents and the store.
#[cfg(feature = "ssr")]
pub use ::documents;
#[cfg(feature = "ssr")]
pub use ::store;
#[cfg(feature = "ssr")]
pub use domain::town_time;
pub use domain::{error, model, ordinance};

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, Link, Meta, MetaTags, Title};
use leptos_router::{
    components::{Route, Router, Routes},
    path, Lazy, SsrMode,
};

use crate::components::layout::Layout;
use crate::components::session::provide_current_user;
use crate::on_demand::{
    AccountPasswordRoute, AccountSecurityRoute, AccountSignatureRoute, AdminAuditRoute,
    AdminSettingsRoute, AdminUsersRoute, CourtCalendarRoute, CourtCitationRoute, CourtQueueRoute,
    CourtRegisterRoute, DeskAmendRoute, DeskDashboardRoute, DeskQueueRoute, DeskRegisterRoute,
    DeskReportRoute, FieldGatheringRoute, PermitApplyRoute, PermitPaperRoute, PermitRecordRoute,
    PermitRegisterRoute, PermitStatusRoute, TransparencyDeskRoute, TransparencyPeriodRoute,
    TransparencyPublishRoute, TransparencyRoute,
};
use crate::pages::citation::CitationPage;
use crate::pages::field::correct::CorrectReportPage;
use crate::pages::field::{reports::MyReportsPage, NewIncidentPage};
use crate::pages::setup::SetupPage;
use crate::pages::sign_in::SignInPage;
use crate::pages::{home::HomePage, not_found::NotFound};

/// The HTML document around the app. Runs only on the server.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    use_request_nonce();
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <AutoReload options=options.clone()/>
                <link id="leptos" rel="stylesheet" href=format!("{}/wells.css", release_files())/>
                <StartApp/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// Starts the browser app once the page the server rendered has loaded and the
/// browser is idle. On a phone with one bar, the page and its stylesheet get the
/// whole connection and are painted seconds before the megabyte of WASM could
/// arrive; fetching that WASM at the same time (Leptos's `HydrationScripts`
/// preloads it from the head) only slows the first paint. Until the app runs,
/// forms that need it keep their buttons disabled (`hydrated`).
#[component]
fn StartApp() -> impl IntoView {
    let nonce = leptos::nonce::use_nonce();
    let files = release_files();
    let script = format!(
        "const start = () => {{ performance.mark('wells:fetch'); \
           import({js:?}).then((app) => app.default({{ module_or_path: {wasm:?} }}).then(() => {{ \
             performance.mark('wells:instantiated'); app.hydrate(); }})); }};\n\
         const whenIdle = () => ('requestIdleCallback' in window) \
           ? requestIdleCallback(start, {{ timeout: 1000 }}) : setTimeout(start, 0);\n\
         addEventListener('beforeinstallprompt', (offer) => {{ offer.preventDefault(); \
           window.wellsInstallOffer = offer; dispatchEvent(new Event('wells-install-offer')); }});\n\
         if (document.readyState === 'complete') whenIdle(); \
         else addEventListener('load', whenIdle, {{ once: true }});",
        js = format!("{files}/wells.js"),
        wasm = format!("{files}/wells.wasm"),
    );
    view! { <script type="module" nonce=nonce>{script}</script> }
}

/// Where the app's files of this server's release are: `/pkg/<release>`
/// (`server::release`). A page asks for the files of its own build, the split
/// loader fetches on-demand pages relative to them, and the service worker keeps
/// them under that name, so an old build's cached WASM can never answer a new
/// build's page. Plain `/pkg` where the server's state is not at hand (the 404
/// fallback), which serves the same files without the release check.
fn release_files() -> String {
    #[cfg(feature = "ssr")]
    if let Some(state) = use_context::<crate::state::AppState>() {
        return format!("/pkg/{}", state.settings.release);
    }
    String::from("/pkg")
}

/// The Content-Security-Policy of a page: only scripts of our origin and the
/// inline ones carrying this response's nonce (Leptos's hydration loader and its
/// streamed data) run; nothing injected does.
#[cfg(feature = "ssr")]
pub fn page_security_policy(nonce: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
         manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; \
         frame-ancestors 'none'; form-action 'self'"
    )
}

/// Renders the page with the nonce the server's middleware chose for this
/// request (`server::security`), which names it in the response's CSP header.
/// The header used to be set from here through `ResponseOptions`, but when the
/// browser abandoned one page load for another, the next response sometimes
/// went out without it (seen in Playwright about one time in three) and the page
/// never hydrated; the request's own extensions cannot go astray that way.
#[cfg(feature = "ssr")]
fn use_request_nonce() {
    let chosen = use_context::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<leptos::nonce::Nonce>().cloned());
    if let Some(nonce) = chosen {
        provide_context(nonce);
    }
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    provide_current_user();
    outbox::provide_outbox();
    // The service worker keeps the field form usable with no signal.
    Effect::new(|_| client::register_service_worker());
    // Every page renders completely on the server before the first byte goes out
    // (`SsrMode::Async`), so a 403 or a redirect to sign-in gets its real status.
    let ssr = || SsrMode::Async;

    view! {
        <Link rel="icon" href="/favicon.svg" type_="image/svg+xml"/>
        <Link rel="manifest" href="/manifest.webmanifest"/>
        <Meta name="theme-color" content="#0b3d91"/>
        <Title
            formatter=|page: String| format!("{page} · Wells PD loitering log")
            text=on_demand::title_while_loading()
        />
        <Router>
            <Layout>
                <Routes fallback=NotFound>
                    <Route path=path!("") view=HomePage ssr=ssr()/>
                    <Route path=path!("/sign-in") view=SignInPage ssr=ssr()/>
                    <Route path=path!("/setup") view=SetupPage ssr=ssr()/>
                    <Route path=path!("/account/password") view={Lazy::<AccountPasswordRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/account/security") view={Lazy::<AccountSecurityRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/account/signature") view={Lazy::<AccountSignatureRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/admin/users") view={Lazy::<AdminUsersRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/admin/audit") view={Lazy::<AdminAuditRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/admin/settings") view={Lazy::<AdminSettingsRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/field/new") view=NewIncidentPage ssr=ssr()/>
                    <Route path=path!("/field/reports") view=MyReportsPage ssr=ssr()/>
                    <Route path=path!("/field/gathering") view={Lazy::<FieldGatheringRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/field/reports/:id") view=CorrectReportPage ssr=ssr()/>
                    <Route path=path!("/review") view={Lazy::<DeskQueueRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/register") view={Lazy::<DeskRegisterRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/dashboard") view={Lazy::<DeskDashboardRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/reports/:id") view={Lazy::<DeskReportRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/reports/:id/amend") view={Lazy::<DeskAmendRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/citations/:number") view=CitationPage ssr=ssr()/>
                    <Route path=path!("/court") view={Lazy::<CourtQueueRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/court/register") view={Lazy::<CourtRegisterRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/court/calendar") view={Lazy::<CourtCalendarRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/court/citations/:number") view={Lazy::<CourtCitationRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/permits/apply") view={Lazy::<PermitApplyRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/permits/status") view={Lazy::<PermitStatusRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/permits/paper") view={Lazy::<PermitPaperRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/permits") view={Lazy::<PermitRegisterRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/permits/:id") view={Lazy::<PermitRecordRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/transparency") view={Lazy::<TransparencyRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/transparency/publish") view={Lazy::<TransparencyPublishRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/transparency/desk") view={Lazy::<TransparencyDeskRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/transparency/:period") view={Lazy::<TransparencyPeriodRoute>::new()} ssr=ssr()/>
                    <Route path=path!("/transparency/:period/:revision") view={Lazy::<TransparencyPeriodRoute>::new()} ssr=ssr()/>
                </Routes>
            </Layout>
        </Router>
    }
}

/// Browser entry point: takes over the server-rendered page.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    // Waits for the code of an on-demand page (`on_demand`) before taking it over.
    on_demand::take_over();
}
