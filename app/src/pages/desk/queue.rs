//! `/review`: every submitted report awaiting the chief, oldest first.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::{filter_from_query, FilterForm, ReportCard};
use crate::access::Permission;
use crate::api::review::{list_officers, review_queue};
use crate::components::session::Guard;

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
                    Ok(list) if list.is_empty() => view! {
                        <p class="notice ok" role="status" data-testid="queue-empty">"Nothing is waiting for review."</p>
                    }.into_any(),
                    Ok(list) => view! {
                        <p role="status" data-testid="queue-count">{format!("{} report(s) awaiting review", list.len())}</p>
                        <ul class="reports">{list.into_iter().map(|row| view! { <ReportCard row/> }).collect_view()}</ul>
                    }.into_any(),
                };
                view! { {form} {list} }
            })}
        </Transition>
    }
}
