//! `/reports/:id`: the full report as the chief reviews and prints it — the
//! record in words, each person's verdict and citation, cautions, every version
//! with what changed, and the chief's decisions. The chief approves, returns or
//! voids here; the officer reads their own and corrects it when returned.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;
use uuid::Uuid;

use super::CautionList;
use crate::access::{Decision, Permission};
use crate::api::review::{decide_report, full_report, void_citation};
use crate::components::confirm::Confirm;
use crate::components::draft::{draft_key, forget_draft, DraftText};
use crate::components::session::{
    signed_in, use_current_user, use_session_gone, Guard, SessionEnded,
};
use crate::error::AppError;
use crate::model::incident::{CitationBrief, CitationStatus, ReportStatus};
use crate::model::review::{ReportView, ReviewAction, RevisionView, WordChange};
use crate::pages::field::outcome_badge;

#[component]
pub fn ReportPage() -> impl IntoView {
    view! {
        <Title text="Full report"/>
        <Guard permission=Permission::ReadReports>
            <Report/>
        </Guard>
    }
}

#[component]
fn Report() -> impl IntoView {
    let params = use_params_map();
    let id = Memo::new(move |_| {
        params
            .with(|p| p.get("id"))
            .and_then(|s| s.parse::<Uuid>().ok())
    });
    // Bumped after each decision so the page shows the stored result.
    let version = RwSignal::new(0u32);
    let report = Resource::new(
        move || (id.get(), version.get()),
        |(id, _)| async move {
            match id {
                Some(id) => full_report(id).await,
                None => Err(AppError::NotFound),
            }
        },
    );
    let user = use_current_user().0;
    view! {
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let chief = user.await.ok().flatten().is_some_and(|me| {
                    Permission::Review.allows(Some(&me.roles)) == Decision::Allow
                });
                match report.await {
                    Ok(view) => view! { <FullReport view chief version/> }.into_any(),
                    Err(e) => view! {
                        <crate::components::load_error::LoadError error=e heading="Full report"/>
                    }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn FullReport(view: ReportView, chief: bool, version: RwSignal<u32>) -> impl IntoView {
    let id = view.incident_id;
    let pdf = format!("/reports/{id}/pdf");
    let print = move |_| {
        #[cfg(feature = "hydrate")]
        let _ = window().print();
    };
    let officer_fix =
        (!chief && view.status == ReportStatus::Returned).then(|| format!("/field/reports/{id}"));
    let standing = view
        .citations
        .iter()
        .filter(|c| c.status != CitationStatus::Void)
        .count();
    let decide = (chief && view.status == ReportStatus::Submitted)
        .then(|| view! { <DecisionPanel id revision=view.revision citations=standing version/> });
    let next =
        (chief && view.status != ReportStatus::Submitted).then(|| view! { <NextInQueue id/> });
    let amend = chief.then(|| format!("/reports/{id}/amend"));
    view! {
        <article class="full-report">
            <h1>"Incident report"</h1>
            <p class="hint">"Town of Wells Police Department · Code Chapter 52, Article I · revision " {view.revision}</p>
            <p><span class="badge" data-testid="report-status">{view.status.label()}</span></p>
            {view.return_reason.clone().map(|r| view! {
                <p class="notice warn" data-testid="return-reason">"Returned: " {r}</p>
            })}
            <div class="actions no-print">
                <a class="button secondary" href=pdf rel="external" data-testid="report-pdf">"PDF"</a>
                <button type="button" class="secondary" on:click=print>"Print"</button>
                {officer_fix.map(|href| view! { <a class="button" href=href>"Correct and resubmit"</a> })}
                {amend.map(|href| view! { <a class="button secondary" href=href>"Amend with a reason"</a> })}
            </div>
            <CautionList cautions=view.cautions.clone()/>
            {decide}
            {next}
            <dl class="facts">
                <dt>"Officer"</dt><dd>{view.officer.clone()}</dd>
                <dt>"Submitted"</dt><dd>{view.submitted_text.clone()}</dd>
                {view.record.iter().map(|(label, value)| view! {
                    <dt>{label.clone()}</dt><dd>{value.clone()}</dd>
                }).collect_view()}
            </dl>
            <h2>"Narrative"</h2>
            <p class="narrative">{view.report.narrative.clone()}</p>
            <h2>"Persons and verdicts"</h2>
            <ul>
                {view.subjects.iter().map(|s| view! {
                    <li>{s.label.clone()} " — " <span class=outcome_badge(s.outcome)>{s.outcome.label()}</span>
                        {s.offences_shown().iter().map(|o| view! { " · " {o.reference()} " " {o.title()} }).collect_view()}
                        {s.details.clone().map(|d| view! { <br/><span class="hint" data-testid="person-details">{d}</span> })}</li>
                }).collect_view()}
            </ul>
            {(!view.photos.is_empty()).then(|| {
                let id = view.incident_id;
                let count = view.photos.len();
                view! {
                    <h2>"Photos"</h2>
                    <ul class="photos" data-testid="photos">
                        {view.photos.iter().enumerate().map(|(i, p)| view! {
                            <li><a href=format!("/incidents/{id}/photos/{}", p.photo_id)>
                                <img src=format!("/incidents/{id}/photos/{}", p.photo_id) loading="lazy"
                                    width=p.width.to_string() height=p.height.to_string()
                                    alt=format!("Photo {} of {count} of the incident ({} × {} pixels)", i + 1, p.width, p.height)/>
                            </a></li>
                        }).collect_view()}
                    </ul>
                }
            })}
            <h2>"Citations"</h2>
            {if view.citations.is_empty() {
                view! { <p>"None."</p> }.into_any()
            } else {
                view! { <ul>{view.citations.iter().cloned().map(|c| view! { <CitationItem c chief version/> }).collect_view()}</ul> }.into_any()
            }}
            {(!view.withdrawals.is_empty()).then(|| view! {
                <h2>"Withdrawn from the court"</h2>
                <ul data-testid="report-withdrawals">{view.withdrawals.iter().map(|w| view! {
                    <li>
                        <strong>{w.number.clone()}</strong> " · " {w.subject.clone()} " · " {w.offence.reference()}
                        " · withdrawn " {w.at_text.clone()} " by " {w.by.clone()} ": " {w.reason.clone()}
                        {w.replaced_by.clone().map(|n| view! { " · replaced by " <a href=format!("/citations/{n}")>{n.clone()}</a> })}
                        {(!w.sent).then_some(view! { " · " <span class="badge warn">"not yet sent to the court"</span> })}
                    </li>
                }).collect_view()}</ul>
            })}
            <h2>"History"</h2>
            <ol class="history">{view.history.iter().cloned().map(|r| view! { <Revision r/> }).collect_view()}</ol>
            <h2>"Decisions"</h2>
            {if view.decisions.is_empty() {
                view! { <p>"None yet."</p> }.into_any()
            } else {
                view! {
                    <ul data-testid="decisions">{view.decisions.iter().map(|d| view! {
                        <li>{d.at_text.clone()} " · " {d.actor.clone()} " · " <strong>{d.action.clone()}</strong>
                            {d.citation.clone().map(|c| view! { " " {c} })}
                            " (revision " {d.revision} ")"
                            {d.reason.clone().map(|r| view! { " — " {r} })}</li>
                    }).collect_view()}</ul>
                }.into_any()
            }}
        </article>
    }
}

/// Approve, or return with a reason. The revision sent is the one on screen, so
/// a decision on a report changed meanwhile is refused rather than misapplied.
#[component]
fn DecisionPanel(
    id: Uuid,
    revision: i64,
    citations: usize,
    version: RwSignal<u32>,
) -> impl IntoView {
    let reason = RwSignal::new(String::new());
    let error = RwSignal::new(None::<AppError>);
    let gone = use_session_gone();
    let key = draft_key(&me_username(), &id.to_string(), "return-reason");
    let kept = StoredValue::new(key.clone());
    let decide = Action::new(move |action: &ReviewAction| {
        let action = action.clone();
        async move {
            match decide_report(id, revision, action).await {
                Ok(_) => {
                    kept.with_value(|k| forget_draft(k));
                    version.update(|v| *v += 1)
                }
                Err(e) => {
                    gone.note(&e);
                    error.set(Some(e))
                }
            }
        }
    });
    let ready = crate::components::session::hydrated();
    let busy = move || !ready.get() || decide.pending().get();
    view! {
        <section class="panel no-print" aria-labelledby="decide-heading" data-testid="decision-panel">
            <h2 id="decide-heading">"Your decision"</h2>
            {move || error.get().map(|e| view! {
                <p class="notice bad" role="alert" data-testid="decision-error"><ErrorText e/></p>
            })}
            <div class="actions">
                <Confirm label="Approve" yes="Yes, approve" testid="approve"
                    disabled=Signal::derive(busy)
                    question=Signal::derive(move || match citations {
                        0 => "Approve this report? It is closed; no citation goes to the clerk.".to_owned(),
                        n => format!(
                            "Approve this report? Its {n} citation(s) go to the clerk, to be filed with the District Court within {} days of issuance.",
                            crate::ordinance::FILING_DAYS
                        ),
                    })
                    on_confirm=Callback::new(move |()| { decide.dispatch(ReviewAction::Approve); })/>
            </div>
            <DraftText id="return-reason".to_owned() label="Reason for returning it to the officer".to_owned()
                key value=reason/>
            <div class="actions">
                <button type="button" class="secondary" data-testid="return" disabled=busy
                    on:click=move |_| { decide.dispatch(ReviewAction::Return { reason: reason.get_untracked() }); }>
                    "Return to the officer"</button>
            </div>
        </section>
    }
}

/// The signed-in user's username (drafts are kept per user).
fn me_username() -> String {
    signed_in().map(|me| me.username).unwrap_or_default()
}

/// A server function's refusal in words; a session gone says so, with the way
/// back to this page (what was typed is kept).
#[component]
fn ErrorText(e: AppError) -> impl IntoView {
    match e {
        AppError::Unauthenticated => view! { <SessionEnded/> }.into_any(),
        e => e.to_string().into_any(),
    }
}

/// A citation, with the chief's void (reason required). Filed and disposed
/// citations belong to the court: only the court dismisses them.
#[component]
fn CitationItem(c: CitationBrief, chief: bool, version: RwSignal<u32>) -> impl IntoView {
    let href = format!("/citations/{}", c.number);
    let can_void = chief
        && matches!(
            c.status,
            CitationStatus::Issued | CitationStatus::Returned | CitationStatus::Approved
        );
    let number = c.number.clone();
    let reason = RwSignal::new(String::new());
    let error = RwSignal::new(None::<AppError>);
    let gone = use_session_gone();
    let key = draft_key(&me_username(), &c.number, "void-reason");
    let kept = StoredValue::new(key.clone());
    // A void reason kept from before a sign-in opens its section again.
    let reopen = crate::client::tab_text(&key).is_some();
    let void = Action::new(move |_: &()| {
        let number = number.clone();
        async move {
            match void_citation(number, reason.get_untracked()).await {
                Ok(_) => {
                    kept.with_value(|k| forget_draft(k));
                    version.update(|v| *v += 1)
                }
                Err(e) => {
                    gone.note(&e);
                    error.set(Some(e))
                }
            }
        }
    });
    let field = format!("void-{}", c.number);
    // Set after the page is taken over (the server has no draft to know of).
    let reopen_now = RwSignal::new(false);
    Effect::new(move |_| reopen_now.set(reopen));
    let void_number = c.number.clone();
    view! {
        <li data-testid="report-citation">
            <a href=href><strong>{c.number.clone()}</strong></a> " · " {c.subject.clone()} " · " {c.offence.reference()}
            {c.arrest.then_some(" · arrest (§52-2)")} " · "
            <span class="badge" data-testid="citation-status">{c.status.label()}</span>
            {can_void.then(|| view! {
                <details class="no-print" prop:open=move || reopen_now.get()>
                    <summary>"Void this citation"</summary>
                    {move || error.get().map(|e| view! { <p class="notice bad" role="alert" data-testid="void-error"><ErrorText e/></p> })}
                    <DraftText id=field.clone() label="Reason for voiding (the number stays used and shows as void)".to_owned()
                        key=key.clone() value=reason rows=2/>
                    <Confirm label="Void" yes="Yes, void it" testid="void" class="danger"
                        disabled=Signal::derive(move || void.pending().get())
                        question=Signal::derive(move || format!(
                            "Void {}? It will not go to court; its number stays used and shows as void.",
                            void_number
                        ))
                        on_confirm=Callback::new(move |()| { void.dispatch(()); })/>
                </details>
            })}
        </li>
    }
}

/// After a decision: the next report waiting, so the chief goes on without going
/// back to the list.
#[component]
fn NextInQueue(id: Uuid) -> impl IntoView {
    let waiting = Resource::new(
        || (),
        |_| crate::api::review::review_queue(crate::model::review::ReportFilter::default()),
    );
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                let next = waiting.await.ok().and_then(|rows| rows.into_iter().find(|r| r.incident_id != id));
                match next {
                    Some(row) => view! {
                        <p class="no-print"><a class="button" data-testid="next-report" href=format!("/reports/{}", row.incident_id)>
                            {format!("Next report in the queue: {} · {} →", row.occurred_text, row.location)}</a></p>
                    }.into_any(),
                    None => view! { <p class="hint no-print" data-testid="queue-done">"Nothing else is waiting for review."</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Revision(r: RevisionView) -> impl IntoView {
    view! {
        <li data-testid="revision">
            <p><strong>"Revision " {r.revision}</strong> " · " {r.kind.clone()} " by " {r.actor.clone()} " · " {r.at_text.clone()}
               {r.reason.clone().map(|why| view! { " — " {why} })}</p>
            {(!r.changes.is_empty()).then(|| view! {
                <crate::components::table::ScrollTable label=format!("Changes in revision {}", r.revision)>
                    <table class="diff" data-testid="diff">
                        <thead><tr><th scope="col">"What"</th><th scope="col">"Before"</th><th scope="col">"After"</th></tr></thead>
                        <tbody>{r.changes.iter().map(|c| {
                            let what = if c.label.is_empty() { c.field.clone() } else { c.label.clone() };
                            if c.words.is_empty() {
                                view! {
                                    <tr><td>{what}</td><td><del>{c.before.clone()}</del></td><td><ins>{c.after.clone()}</ins></td></tr>
                                }.into_any()
                            } else {
                                // A text changed word by word: one cell, the words
                                // taken out struck through, the words put in marked.
                                view! {
                                    <tr><td>{what}</td><td colspan="2" class="words">{c.words.iter().map(|w| match w {
                                        WordChange::Same(t) => view! { <span>{format!("{t} ")}</span> }.into_any(),
                                        WordChange::Removed(t) => view! { <del>{t.clone()}</del>" " }.into_any(),
                                        WordChange::Added(t) => view! { <ins>{t.clone()}</ins>" " }.into_any(),
                                    }).collect_view()}</td></tr>
                                }.into_any()
                            }
                        }).collect_view()}</tbody>
                    </table>
                </crate::components::table::ScrollTable>
            })}
        </li>
    }
}
