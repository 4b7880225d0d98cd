use leptos::prelude::*;
use leptos_meta::Title;

use crate::access::{Decision, Permission};
use crate::api::incidents::my_reports;
use crate::components::install::InstallApp;
use crate::components::session::use_current_user;
use crate::model::incident::ReportStatus;

/// Where each kind of user starts, as (permission, link, title, what it is for).
const DESKS: &[(Permission, &str, &str, &str)] = &[
    (
        Permission::RecordIncidents,
        "/field/new",
        "New incident",
        "Record an Article I incident on scene; issue citations the law allows.",
    ),
    (
        Permission::RecordIncidents,
        "/field/reports",
        "My reports",
        "Your reports and citations, and any returned for correction.",
    ),
    (
        Permission::RecordIncidents,
        "/field/gathering",
        "Mass gathering",
        "Article II: check today's permits; record an unpermitted gathering and cite those who run it (§52-7, §52-12).",
    ),
    (
        Permission::Review,
        "/review",
        "Review queue",
        "Submitted reports waiting for your decision, oldest first: approve, return with a reason, or void a citation.",
    ),
    (
        Permission::Oversee,
        "/register",
        "Register",
        "Every report and citation, by number, person, place, officer or date.",
    ),
    (
        Permission::Oversee,
        "/dashboard",
        "Dashboard",
        "What was recorded, where and to whom, month by month.",
    ),
    (
        Permission::Oversee,
        "/transparency/publish",
        "Publish a month",
        "The month's public counts, checked and published for the Town's transparency report.",
    ),
    (
        Permission::Court,
        "/court",
        "Filing queue",
        "Approved citations to file with the District Court, the oldest deadline first.",
    ),
    (
        Permission::Court,
        "/court/register",
        "Clerk's register",
        "Filed citations, their hearings and the court's decisions.",
    ),
    (
        Permission::Court,
        "/court/calendar",
        "Hearings calendar",
        "Hearings set from today on, day by day, with their citations.",
    ),
    (
        Permission::ReadPermits,
        "/permits",
        "Gathering permits",
        "Article II: which gatherings hold a permit for a place and day; applications and decisions.",
    ),
    (
        Permission::ManageUsers,
        "/admin/users",
        "Users",
        "Accounts, roles, lockouts and password resets.",
    ),
    (
        Permission::ReadAudit,
        "/admin/audit",
        "Audit log",
        "Every sign-in, change and export, hash-chained.",
    ),
    (
        Permission::ManageSettings,
        "/admin/settings",
        "Court settings",
        "The court's closed days and filing settings the deadlines are counted with.",
    ),
];

/// The start page: what this system is, and where the signed-in user goes.
#[component]
pub fn HomePage() -> impl IntoView {
    let user = use_current_user().0;
    view! {
        <Title text="Start"/>
        <section class="panel">
            <h1>"Loitering enforcement log"</h1>
            <p>
                "Records of Town of Wells Code Chapter 52, Article I: loitering (§52-1), "
                "obstructing streets and sidewalks (§52-2) and disturbing the peace (§52-3); "
                "and Article II's mass outdoor gathering permits (§52-5 to §52-12)."
            </p>
        </section>
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match user.await.ok().flatten() {
                    None => view! {
                        <p><a class="button" href="/sign-in">"Sign in"</a></p>
                        <p><a class="button" href="/permits/apply">"Apply for a mass gathering permit"</a></p>
                        <p class="hint">"Anyone may apply for an Article II permit; no account is needed (§52-9 A)."</p>
                    }.into_any(),
                    Some(me) if me.needs_second_factor => view! {
                        <div class="notice warn" role="status">
                            "The sign-in policy requires a second factor for your account. "
                            <a href="/account/security">"Set one up"</a>
                            " to continue."
                        </div>
                    }.into_any(),
                    Some(me) => {
                        let may = |p: &Permission| p.allows(Some(&me.roles)) == Decision::Allow;
                        let desks: Vec<_> = DESKS.iter()
                            .filter(|(p, ..)| may(p))
                            .map(|(_, href, title, about)| view! {
                                <li class="panel"><a class="desk-link" href=*href><strong>{*title}</strong></a>
                                    {(*href == "/review").then(|| view! { <QueueWaiting/> })}
                                    <p class="hint">{*about}</p></li>
                            })
                            .collect();
                        // The officer's phone is where the app is worth installing.
                        let install = may(&Permission::RecordIncidents)
                            .then(|| view! { <InstallApp/> });
                        let returned = may(&Permission::RecordIncidents)
                            .then(|| view! { <ReturnedReports/> });
                        view! {
                            <h2>{format!("Welcome, {}", me.full_name)}</h2>
                            {returned}
                            <ul class="desks">{desks}</ul>
                            {install}
                        }.into_any()
                    }
                }
            })}
        </Suspense>
    }
}

/// How many reports wait for the chief's review, as the queue counts them ("200
/// or more" once the queue is full).
#[component]
fn QueueWaiting() -> impl IntoView {
    let waiting = Resource::new(|| (), |_| crate::api::review::review_waiting());
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match waiting.await {
                    Ok(0) => view! { <p data-testid="queue-waiting">"Nothing is waiting for review."</p> }.into_any(),
                    Ok(n) => view! {
                        <p data-testid="queue-waiting"><strong>{crate::model::review::waiting_in_all(n)}</strong>" for review."</p>
                    }.into_any(),
                    Err(e) => view! { <p class="notice bad" data-testid="queue-waiting">{format!("The queue's count could not be read: {e}")}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The officer's reports the chief returned for correction, before anything
/// else: each waits on the officer, and the court's deadline runs (DESIGN §3).
/// From the first page of "My reports" (the newest 50), which is where a
/// returned report is: the chief returns what was recently sent.
#[component]
fn ReturnedReports() -> impl IntoView {
    let reports = Resource::new(|| (), |_| my_reports(None));
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                // Unreachable or refused: "My reports" below says so in full.
                let returned: Vec<_> = reports
                    .await
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|r| r.status == ReportStatus::Returned)
                    .collect();
                (!returned.is_empty()).then(|| {
                    let count = returned.len();
                    view! {
                        <section class="notice warn returned" aria-labelledby="returned-heading" data-testid="returned-reports">
                            <h2 id="returned-heading">{if count == 1 {
                                "1 report returned for correction".to_owned()
                            } else {
                                format!("{count} reports returned for correction")
                            }}</h2>
                            <ul class="plain">
                                {returned.into_iter().map(|r| {
                                    let href = format!("/field/reports/{}", r.incident_id);
                                    view! {
                                        <li>
                                            <a class="button secondary" href=href>
                                                {format!("Correct: {} · {}", r.occurred_text, r.location)}
                                            </a>
                                            {r.return_reason.map(|why| view! { <p class="hint">"Chief's reason: " {why}</p> })}
                                        </li>
                                    }
                                }).collect_view()}
                            </ul>
                        </section>
                    }
                })
            })}
        </Suspense>
    }
}
