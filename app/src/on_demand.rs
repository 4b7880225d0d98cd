//! The pages an officer's phone never needs, loaded on demand (issue #15).
//!
//! The officer's pages (home, sign-in, the field form, My reports, the citation
//! copy) are the app's main WASM. The chief's, the court clerk's, the
//! administrator's and the account pages are routes whose view is a lazy
//! function: in a split build (the app's `split` feature with `cargo leptos build
//! --split`, which `make build`, `make test` and `make release` all use) each one
//! and the code only it reaches go to their own `.wasm`, fetched the first time
//! such a page opens; code two of them share goes to a chunk both fetch. Without
//! the feature (the server's build, and a browser build without `--split`) the
//! same routes are plain async views, so every build routes, renders and
//! hydrates the same pages.

use leptos::prelude::*;
use leptos_router::LazyRoute;

use crate::pages::account::PasswordPage;
use crate::pages::admin::{audit::AuditPage, settings::SettingsPage, users::UsersPage};
use crate::pages::court::{
    calendar::CourtCalendarPage, citation::CourtCitationPage, register::CourtRegisterPage,
    FilingQueuePage,
};
use crate::pages::desk::{
    dashboard::DashboardPage, queue::ReviewQueuePage, register::RegisterPage, report::ReportPage,
};
use crate::pages::field::correct::AmendReportPage;
use crate::pages::field::gathering::GatheringPage;
use crate::pages::permits::desk::{PaperApplicationPage, PermitRecordPage, PermitRegisterPage};
use crate::pages::permits::public::{ApplyPage, StatusPage};
use crate::pages::security::SecurityPage;
use crate::pages::signature::SignaturePage;
use crate::pages::transparency::chief::ChiefTablesPage;
use crate::pages::transparency::desk::PublishPage;
use crate::pages::transparency::public::{PublishedPeriodPage, TransparencyPage};

/// `on_demand!(Route => Page)`: a route type whose view is `Page`, split out of
/// the main WASM where the build splits. The page fetches its own data (its
/// resources), so the route's `data` has nothing to start early.
macro_rules! on_demand {
    ($($route:ident => $page:ident),* $(,)?) => {$(
        #[doc = concat!("The route of [`", stringify!($page), "`], loaded on demand.")]
        pub struct $route;

        // Split: the macro turns this `view` into an async lazy function.
        #[cfg(feature = "split")]
        #[leptos_router::lazy_route]
        impl LazyRoute for $route {
            fn data() -> Self {
                $route
            }

            fn view(this: Self) -> AnyView {
                let $route = this;
                view! { <$page/> }.into_any()
            }
        }

        #[cfg(not(feature = "split"))]
        impl LazyRoute for $route {
            fn data() -> Self {
                $route
            }

            async fn view(this: Self) -> AnyView {
                let $route = this;
                view! { <$page/> }.into_any()
            }
        }
    )*};
}

on_demand! {
    AccountPasswordRoute => PasswordPage,
    AccountSecurityRoute => SecurityPage,
    AccountSignatureRoute => SignaturePage,
    AdminUsersRoute => UsersPage,
    AdminAuditRoute => AuditPage,
    AdminSettingsRoute => SettingsPage,
    DeskQueueRoute => ReviewQueuePage,
    DeskRegisterRoute => RegisterPage,
    DeskDashboardRoute => DashboardPage,
    DeskReportRoute => ReportPage,
    DeskAmendRoute => AmendReportPage,
    CourtQueueRoute => FilingQueuePage,
    CourtRegisterRoute => CourtRegisterPage,
    CourtCalendarRoute => CourtCalendarPage,
    CourtCitationRoute => CourtCitationPage,
    PermitApplyRoute => ApplyPage,
    PermitStatusRoute => StatusPage,
    PermitRegisterRoute => PermitRegisterPage,
    PermitPaperRoute => PaperApplicationPage,
    PermitRecordRoute => PermitRecordPage,
    FieldGatheringRoute => GatheringPage,
    TransparencyRoute => TransparencyPage,
    TransparencyPeriodRoute => PublishedPeriodPage,
    TransparencyPublishRoute => PublishPage,
    TransparencyDeskRoute => ChiefTablesPage,
}

// Set once the whole page, on-demand page included, runs in the browser.
#[cfg(feature = "hydrate")]
thread_local! {
    static TAKEN_OVER: ArcRwSignal<bool> = ArcRwSignal::new(false);
}

/// Takes over the page the server rendered. An on-demand page's code may still
/// be on its way while the header already runs, so `<html data-ready>` marks the
/// moment all of it does (what end-to-end tests wait for before typing: text
/// typed before a field is taken over is replaced by the field's value).
#[cfg(feature = "hydrate")]
pub fn take_over() {
    // Not Leptos's own spawner: it is set up by the hydration awaited here.
    wasm_bindgen_futures::spawn_local(async {
        let Some(body) = document().body() else {
            return;
        };
        leptos::mount::hydrate_from_async(body, crate::App)
            .await
            .forget();
        TAKEN_OVER.with(|taken_over| taken_over.set(true));
        if let Some(html) = document().document_element() {
            let _ = html.set_attribute("data-ready", "");
        }
        // With `wells:fetch` and `wells:instantiated` (the start script): how long
        // the download, the WASM's start and the taking over each took
        // (`.ci/lighthouse.sh` reports them).
        if let Some(timing) = window().performance() {
            let _ = timing.mark("wells:ready");
        }
    });
}

/// The page name the app's `<Title>` falls back on when no page names one: while
/// the page the server rendered is being taken over, its own name (an on-demand
/// page names itself only once its code is in, and the title must not blink
/// empty meanwhile); afterwards, while an on-demand page's code is fetched,
/// "Opening…". Empty on the server, where every page names itself.
pub fn title_while_loading() -> impl Fn() -> String + Send + Sync + 'static {
    #[cfg(feature = "hydrate")]
    {
        let rendered = document().title();
        let rendered = rendered.split(" · ").next().unwrap_or_default().to_string();
        let taken_over = TAKEN_OVER.with(|taken_over| taken_over.clone());
        move || {
            if taken_over.get() {
                "Opening…".to_string()
            } else {
                rendered.clone()
            }
        }
    }
    #[cfg(not(feature = "hydrate"))]
    {
        String::new
    }
}
