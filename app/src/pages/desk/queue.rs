//! `/review`: every submitted report awaiting the chief, oldest first.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::{filter_from_query, FilterForm, ReportCard};
use crate::access::Permission;
use crate::api::review::{
    conversion_checked, converted_citations, list_officers, review_queue, review_waiting,
};
use crate::components::session::Guard;
use crate::model::review::{ConvertedCitation, ReportFilter};

#[component]
pub fn ReviewQueuePage() -> impl IntoView {
    view! {
        <Title text="Review queue"/>
        <Guard permission=Permission::Review>
            <ReviewQueue/>
        </Guard>
    }
}

#[component]
fn ReviewQueue() -> impl IntoView {
    let query = use_query_map();
    let filter = Memo::new(move |_| query.with(filter_from_query));
    let rows = Resource::new(move || filter.get(), review_queue);
    // How many wait in all: a filter that matches nothing says so, and says
    // how many wait (issue #37: it said "Nothing is waiting" while 25 were).
    let all = Resource::new(
        move || filter.get() != ReportFilter::default(),
        |filtered| async move {
            if filtered {
                review_waiting().await
            } else {
                Ok(0)
            }
        },
    );
    let officers = Resource::new(|| (), |_| list_officers());
    view! {
        <h1>"Review queue"</h1>
        <p class="hint">"Every submitted report waits here, oldest first. No citation goes to the clerk until you approve it."</p>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let officers = officers.await.unwrap_or_default();
                let form = view! { <FilterForm action="/review" filter=filter.get_untracked() officers/> };
                let list = match rows.await {
                    Err(e) => view! { <p class="notice bad" role="alert">{e.to_string()}</p> }.into_any(),
                    Ok(list) if list.is_empty() => match all.await {
                        Ok(waiting) if waiting > 0 => view! {
                            <p class="notice warn" role="status" data-testid="queue-empty">{format!(
                                "No report waiting for review matches these filters; {} in all.",
                                crate::model::review::waiting_in_all(waiting)
                            )}" " <a href="/review">"Show them all"</a></p>
                        }.into_any(),
                        _ => view! {
                            <p class="notice ok" role="status" data-testid="queue-empty">"Nothing is waiting for review."</p>
                        }.into_any(),
                    },
                    Ok(list) => view! {
                        <p role="status" data-testid="queue-count">{format!("{} report(s) awaiting review", crate::model::text::grouped(list.len() as i64))}</p>
                        <ul class="reports">{list.into_iter().map(|row| view! { <ReportCard row/> }).collect_view()}</ul>
                    }.into_any(),
                };
                view! { {form} {list} }
            })}
        </Transition>
        <ConvertedToCheck/>
    }
}

/// The standing citations of reports converted from the first version that the
/// chief has not checked yet (issue #33): each once, marked checked with a note.
#[component]
fn ConvertedToCheck() -> impl IntoView {
    let version = RwSignal::new(0u32);
    let list = Resource::new(move || version.get(), |_| converted_citations());
    view! {
        <Transition fallback=|| ()>
            {move || Suspend::new(async move {
                match list.await {
                    Ok(rows) if rows.is_empty() => ().into_any(),
                    Ok(rows) => view! {
                        <section class="panel" aria-labelledby="converted-heading" data-testid="converted">
                            <h2 id="converted-heading">{format!("Converted citations to check ({})", rows.len())}</h2>
                            <p class="hint">"These reports were written by the first version of the app, which recorded the conduct, the order and \
                                the §52-1 E answer once for the whole incident and never asked about an arrest. What it could not know is marked \
                                “not recorded — converted” in the report. Check each citation against what is known of the person, once."</p>
                            <ul class="plain">
                                {rows.into_iter().map(|c| view! { <ConvertedItem c version/> }).collect_view()}
                            </ul>
                        </section>
                    }.into_any(),
                    Err(e) => view! { <p class="notice bad" role="alert">{e.to_string()}</p> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn ConvertedItem(c: ConvertedCitation, version: RwSignal<u32>) -> impl IntoView {
    let note = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let number = c.number.clone();
    let check = Action::new(move |_: &()| {
        let number = number.clone();
        async move {
            match conversion_checked(number, note.get_untracked()).await {
                Ok(()) => version.update(|v| *v += 1),
                Err(e) => error.set(Some(e.to_string())),
            }
        }
    });
    let field = format!("converted-note-{}", c.number);
    let ready = crate::components::session::hydrated();
    view! {
        <li data-testid="converted-citation">
            <a href=format!("/reports/{}", c.incident_id)><strong>{c.number.clone()}</strong></a>
            " · " {c.subject.clone()} " · " {c.offence.reference()} " · " {c.status.label()} " · issued " {c.issued_text.clone()}
            {move || error.get().map(|e| view! { <p class="notice bad" role="alert">{e}</p> })}
            <div class="field">
                <label for=field.clone()>{format!("What you checked for {} (optional)", c.number)}</label>
                <input id=field type="text" prop:value=move || note.get()
                    on:input=move |ev| note.set(event_target_value(&ev))/>
            </div>
            <button type="button" class="secondary" data-testid="conversion-checked"
                disabled=move || !ready.get() || check.pending().get()
                on:click=move |_| { check.dispatch(()); }>{format!("Mark {} checked", c.number)}</button>
        </li>
    }
}
