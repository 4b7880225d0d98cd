//! `/transparency/publish`: the chief publishes a month that has ended — reads
//! what would be published (the next revision, with what changed since the
//! last one), gives the reason for a correction, and publishes. Nothing is
//! public until then.

use leptos::prelude::*;
use leptos_meta::Title;

use super::tables::ViewTables;
use crate::access::Permission;
use crate::api::transparency::{desk_months, preview_month, publish_month};
use crate::components::form::field_error;
use crate::components::form::ErrorSummary;
use crate::components::load_error::LoadError;
use crate::components::session::{hydrated, Guard};
use crate::model::transparency::{DeskMonth, Preview, Published, MAX_REASON_CHARS};

#[component]
pub fn PublishPage() -> impl IntoView {
    view! {
        <Title text="Publish a month"/>
        <Guard permission=Permission::Oversee>
            <PublishView/>
        </Guard>
    }
}

#[component]
fn PublishView() -> impl IntoView {
    // The last publication: the list and the month read again after it.
    let published = RwSignal::new(None::<Published>);
    let months = Resource::new(move || published.get(), |_| desk_months());
    let chosen = RwSignal::new(None::<String>);
    view! {
        <h1 class="wide">"Publish a month"</h1>
        <p>"A month is published once it has ended. What is published is public at "<a href="/transparency">"/transparency"</a>" for good: a correction publishes a new revision, and every earlier one stays readable."</p>
        <p><a href="/transparency/desk" data-testid="chief-tables">"The chief's tables: by officer, and each perceived group's rate beside the Town's (exact counts, never published)"</a></p>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match months.await {
                    Ok(months) => view! { <MonthList months chosen/> }.into_any(),
                    Err(error) => view! { <LoadError error/> }.into_any(),
                }
            })}
        </Transition>
        {move || published.get().map(|d| view! {
            <p class="notice ok" role="status" data-testid="published">
                {format!("Published: {} revision {}. ", d.month, d.revision)}
                <a href=format!("/transparency/{}/r{}", d.month, d.revision)>"Open the public page"</a>
            </p>
        })}
        {move || chosen.get().map(|month| view! { <PreviewPanel month published/> })}
    }
}

#[component]
fn MonthList(months: Vec<DeskMonth>, chosen: RwSignal<Option<String>>) -> impl IntoView {
    let ready = hydrated();
    view! {
        <section class="panel" aria-labelledby="months-heading">
            <h2 id="months-heading">"Months"</h2>
            <ul class="month-list" data-testid="desk-months">
                {months.into_iter().map(|m| {
                    let status = match m.revisions.last() {
                        None => "not published".to_owned(),
                        Some(r) if r.revision == 1 => format!("published {}", r.published_on),
                        Some(r) => format!("revision {} published {}", r.revision, r.published_on),
                    };
                    let month = m.month.clone();
                    let action = if m.revisions.is_empty() { "Read and publish" } else { "Read and correct" };
                    view! {
                        <li data-month=m.month.clone()>
                            <span>{m.label.clone()}": "{status}</span>" "
                            <button type="button" disabled=move || !ready.get()
                                aria-label=format!("{action}: {}", m.label)
                                on:click=move |_| chosen.set(Some(month.clone()))>{action}</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <OtherMonth chosen/>
        </section>
    }
}

/// A month before those listed (`YYYY-MM`, as a month input gives it).
#[component]
fn OtherMonth(chosen: RwSignal<Option<String>>) -> impl IntoView {
    let ready = hydrated();
    let typed = RwSignal::new(String::new());
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        chosen.set(Some(typed.get_untracked().trim().to_owned()));
    };
    view! {
        <form class="desk-filters" on:submit=submit aria-label="Another month">
            <div class="field">
                <label for="other-month">"Another month"</label>
                <span class="hint" id="other-month-hint">"Year and month, for example 2025-11."</span>
                <input id="other-month" name="month" type="month" required
                    aria-describedby="other-month-hint" bind:value=typed/>
            </div>
            <div class="actions">
                <button type="submit" disabled=move || !ready.get()>"Read the month"</button>
            </div>
        </form>
    }
}

#[component]
fn PreviewPanel(month: String, published: RwSignal<Option<Published>>) -> impl IntoView {
    let preview = Resource::new(
        move || (month.clone(), published.get()),
        |(m, _)| preview_month(m),
    );
    view! {
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match preview.await {
                    Ok(p) => view! { <PublishForm p published/> }.into_any(),
                    Err(error) => view! { <p class="notice bad" role="alert">{error.to_string()}</p> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn PublishForm(p: Preview, published: RwSignal<Option<Published>>) -> impl IntoView {
    let ready = hydrated();
    let reason = RwSignal::new(String::new());
    let (month, revision) = (p.month.clone(), p.revision);
    let publish = Action::new(move |why: &Option<String>| {
        publish_month(month.clone(), revision, why.clone())
    });
    let error = Signal::derive(move || publish.value().get().and_then(Result::err));
    let reason_error = field_error(error, "reason");
    Effect::new(move |_| {
        if let Some(Ok(done)) = publish.value().get() {
            published.set(Some(done));
        }
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let why = (revision > 1).then(|| reason.get_untracked());
        publish.dispatch(why);
    };
    let is_correction = p.revision > 1;
    let heading = if is_correction {
        format!("{}: correction (revision {})", p.label, p.revision)
    } else {
        format!("{}: what would be published", p.label)
    };
    view! {
        <section class="panel" aria-labelledby="preview-heading" data-testid="preview">
            <h2 id="preview-heading">{heading}</h2>
            {(p.awaiting_review > 0).then(|| view! {
                <p class="notice" data-testid="awaiting-review">{format!("{} report(s) of this month are not yet approved; they are counted as they stand.", p.awaiting_review)}</p>
            })}
            {if p.unchanged {
                view! { <p data-testid="unchanged">{format!("Nothing published would change: revision {} stands.", p.revision - 1)}</p> }.into_any()
            } else {
                view! {
                    {is_correction.then(|| view! {
                        <p>"What would change:"</p>
                        <ul data-testid="changes">{p.changes.iter().map(|c| view! { <li>{c.clone()}</li> }).collect_view()}</ul>
                    })}
                    <ErrorSummary error/>
                    <form on:submit=submit>
                        {is_correction.then(|| view! {
                            <div class="field">
                                <label for="reason">"Reason for the correction (published as written)"</label>
                                <span class="hint" id="reason-hint">{format!("What was wrong and why it changed; at most {MAX_REASON_CHARS} characters. No names.")}</span>
                                <textarea id="reason" name="reason" maxlength=MAX_REASON_CHARS.to_string()
                                    aria-describedby="reason-hint reason-error"
                                    aria-invalid=move || if reason_error.get().is_some() { "true" } else { "false" }
                                    bind:value=reason></textarea>
                                <span class="error-text" id="reason-error">{move || reason_error.get()}</span>
                            </div>
                        })}
                        <button type="submit" disabled=move || !ready.get() || publish.pending().get()>
                            {if is_correction { format!("Publish revision {}", p.revision) } else { format!("Publish {}", p.label) }}
                        </button>
                    </form>
                }.into_any()
            }}
            <ViewTables view=p.view.clone()/>
        </section>
    }
}
