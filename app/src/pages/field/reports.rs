use leptos::prelude::*;
use leptos_meta::Title;

use super::{outcome_badge, ReceiptPanel};
use crate::access::Permission;
use crate::api::incidents::my_reports;
use crate::components::session::Guard;
use crate::error::AppError;
use crate::model::incident::{ReportStatus, ReportSummary};
use crate::outbox::use_outbox;

/// The officer's own reports, newest first, with what is still on the phone.
#[component]
pub fn MyReportsPage() -> impl IntoView {
    view! {
        <Title text="My reports"/>
        <Guard permission=Permission::RecordIncidents>
            <MyReports/>
        </Guard>
    }
}

#[component]
fn MyReports() -> impl IntoView {
    let outbox = use_outbox();
    let reports = Resource::new(
        move || outbox.queue.with(|q| q.receipts.len()),
        |_| my_reports(None),
    );
    view! {
        <h1>"My reports"</h1>
        {move || {
            let q = outbox.queue.get();
            (!q.pending.is_empty() || !q.rejected.is_empty()).then(|| view! {
                <section class="panel" aria-labelledby="on-phone">
                    <h2 id="on-phone">"On this phone"</h2>
                    <ul>
                        {q.pending.iter().map(|r| view! {
                            <li data-testid="queued-report">"Waiting to send: " {r.location.text.clone()}</li>
                        }).collect_view()}
                        {q.rejected.iter().map(|(r, e)| view! {
                            <li>"Refused by the server: " {r.location.text.clone()} " — " {e.to_string()}</li>
                        }).collect_view()}
                    </ul>
                    <p><a class="button secondary" href="/field/new">"Open the form"</a></p>
                </section>
            })
        }}
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match reports.await {
                    // No signal (#35): the list is the server's, but the phone
                    // keeps the receipts of what it sent.
                    Err(AppError::Unreachable) => view! { <KeptReceipts/> }.into_any(),
                    Err(e) => view! { <p class="notice bad">{e.to_string()}</p> }.into_any(),
                    Ok(list) if list.is_empty() => view! { <p>"No reports yet."</p> }.into_any(),
                    Ok(mut list) => {
                        // Returned reports first (#35: one sat at the bottom):
                        // they are the officer's work to do; the rest newest first.
                        list.sort_by_key(|r| r.status != ReportStatus::Returned);
                        view! {
                            <ul class="reports">{list.into_iter().map(|r| view! { <ReportRow report=r/> }).collect_view()}</ul>
                        }.into_any()
                    }
                }
            })}
        </Transition>
        {move || outbox.queue.with(|q| q.receipts.last().cloned()).map(|r| view! {
            <details class="panel">
                <summary>"Last receipt on this phone"</summary>
                <ReceiptPanel receipt=r/>
            </details>
        })}
    }
}

/// With no signal: the receipts this phone keeps (the last 20 it sent), newest
/// first, with whose each outcome is and the citation numbers.
#[component]
fn KeptReceipts() -> impl IntoView {
    let outbox = use_outbox();
    let receipts: Vec<_> = outbox
        .queue
        .with(|q| q.receipts.iter().rev().cloned().collect());
    view! {
        <p class="notice warn" role="status" data-testid="no-signal-reports">
            <strong>"No signal. "</strong>
            {match receipts.len() {
                0 => "The list of your reports comes from the server, and this phone holds no receipts yet.".to_owned(),
                1 => "The list of your reports comes from the server; here is the receipt this phone keeps.".to_owned(),
                n => format!("The list of your reports comes from the server; here are the {n} receipts this phone keeps, newest first."),
            }}
        </p>
        <ul class="reports">
            {receipts.into_iter().map(|r| view! {
                <li class="panel report" data-testid="kept-receipt"><ReceiptPanel receipt=r/></li>
            }).collect_view()}
        </ul>
    }
}

#[component]
fn ReportRow(report: ReportSummary) -> impl IntoView {
    let status_class = match report.status {
        ReportStatus::Returned => "badge bad",
        ReportStatus::Submitted => "badge warn",
        ReportStatus::Approved => "badge ok",
    };
    let edit = (report.status == ReportStatus::Returned)
        .then(|| format!("/field/reports/{}", report.incident_id));
    view! {
        <li class="panel report" data-testid="report">
            <p><strong>{report.occurred_text.clone()}</strong>" · " {report.location.clone()}</p>
            <p><span class=status_class data-testid="report-status">{report.status.label()}</span></p>
            {report.return_reason.clone().map(|reason| view! {
                <p class="notice warn" data-testid="return-reason">"Chief's reason: " {reason}</p>
            })}
            {edit.map(|href| view! { <p><a class="button" href=href>"Correct and resubmit"</a></p> })}
            <ul>
                {report.subjects.iter().map(|(name, outcome)| view! {
                    <li>{name.clone()} " — " <span class=outcome_badge(*outcome)>{outcome.label()}</span></li>
                }).collect_view()}
            </ul>
            {report.citations.iter().map(|c| {
                let href = format!("/citations/{}", c.number);
                view! {
                    <p><a href=href>{c.number.clone()}</a> " · " {c.offence.reference()} " · "
                       <span class="badge">{c.status.label()}</span></p>
                }
            }).collect_view()}
        </li>
    }
}
