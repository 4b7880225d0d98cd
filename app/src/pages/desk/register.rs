//! `/register`: every incident, newest first, 50 a page, searchable by citation
//! number, person, place, date and officer. Paging follows a keyset cursor in the
//! address (`after_at`, `after_id`), so page 1 000 is as fast as page 1; the
//! way back is a cursor too, and the page says where it stands (issue #37).

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::{filter_from_query, filter_query, param, FilterForm};
use crate::access::Permission;
use crate::api::review::{list_officers, search_register};
use crate::components::session::Guard;
use crate::components::table::ScrollTable;
use crate::model::review::{
    PreviousPage, RegisterCursor, RegisterPage as Page, ReportFilter, ReportRow,
};
use crate::pages::field::outcome_badge;

#[component]
pub fn RegisterPage() -> impl IntoView {
    view! {
        <Title text="Incident register"/>
        <Guard permission=Permission::Oversee>
            <Register/>
        </Guard>
    }
}

#[component]
fn Register() -> impl IntoView {
    let query = use_query_map();
    let wanted = Memo::new(move |_| {
        query.with(|q| {
            let after = match (param::<i64>(q, "after_at"), param(q, "after_id")) {
                (Some(occurred_at), Some(incident_id)) => Some(RegisterCursor {
                    occurred_at,
                    incident_id,
                }),
                _ => None,
            };
            (filter_from_query(q), after)
        })
    });
    let page = Resource::new(move || wanted.get(), |(f, after)| search_register(f, after));
    let officers = Resource::new(|| (), |_| list_officers());
    view! {
        <h1 class="wide">"Incident register"</h1>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let officers = officers.await.unwrap_or_default();
                let (filter, _) = wanted.get_untracked();
                let form = view! { <FilterForm action="/register" filter=filter.clone() officers register=true/> };
                let body = match page.await {
                    Err(e) => view! { <p class="notice bad" role="alert">{e.to_string()}</p> }.into_any(),
                    Ok(p) => view! { <Rows page=p filter/> }.into_any(),
                };
                view! { {form} {body} }
            })}
        </Transition>
        <crate::components::number_account::NumberAccountPanel/>
    }
}

/// The register's address for the page after `after` (the first page without).
fn page_href(base: &str, after: Option<RegisterCursor>) -> String {
    match after {
        None => format!("/register?{base}"),
        Some(c) => {
            let sep = if base.is_empty() { "" } else { "&" };
            format!(
                "/register?{base}{sep}after_at={}&after_id={}",
                c.occurred_at, c.incident_id
            )
        }
    }
}

#[component]
fn Rows(page: Page, filter: ReportFilter) -> impl IntoView {
    let base = filter_query(&filter);
    let next = page.next.map(|c| page_href(&base, Some(c)));
    let previous = page.previous.map(|p| match p {
        PreviousPage::First => page_href(&base, None),
        PreviousPage::After(c) => page_href(&base, Some(c)),
    });
    // "First page" where the page before is not the first.
    let first_page =
        matches!(page.previous, Some(PreviousPage::After(_))).then(|| page_href(&base, None));
    let nav = view! {
        <nav class="actions" aria-label="Pages">
            {first_page.map(|href| view! { <a class="button secondary" href=href data-testid="first-page">"First page"</a> })}
            {previous.map(|href| view! { <a class="button secondary" href=href data-testid="previous-page">"Previous 50"</a> })}
            {next.map(|href| view! { <a class="button" href=href data-testid="next-page">"Next 50"</a> })}
        </nav>
    };
    if page.rows.is_empty() {
        // A page emptied since its link was made still leads back.
        return view! {
            <p role="status" data-testid="register-empty">"No incident matches these filters."</p>
            {nav}
        }
        .into_any();
    }
    let place = page.place();
    view! {
        <p role="status" data-testid="register-place">{place}</p>
        <ScrollTable label="Incidents".to_owned()>
            <table class="register" data-testid="register">
                <thead><tr>
                    <th scope="col">"When"</th><th scope="col">"Where"</th><th scope="col">"Officer"</th>
                    <th scope="col">"Persons and citations"</th><th scope="col">"Status"</th><th scope="col">"Cautions"</th>
                </tr></thead>
                <tbody>{page.rows.into_iter().map(|row| view! { <Row row/> }).collect_view()}</tbody>
            </table>
        </ScrollTable>
        {nav}
    }
    .into_any()
}

#[component]
fn Row(row: ReportRow) -> impl IntoView {
    let href = format!("/reports/{}", row.incident_id);
    view! {
        <tr data-testid="register-row">
            <td class="nowrap"><a href=href>{row.occurred_text}</a></td>
            <td>{row.location}</td>
            <td>{row.officer}</td>
            <td><ul class="plain">{row.subjects.into_iter().map(|s| view! {
                <li>{s.label.clone()} " — " <span class=if s.citations_void() { "badge" } else { outcome_badge(s.outcome) } data-testid="outcome-badge">{s.outcome_text()}</span>
                    {s.citations.into_iter().map(|c| view! { " " <span class="nowrap" data-testid="row-citation">{c.number}</span> " (" {c.status.label()} ")" }).collect_view()}
                </li>
            }).collect_view()}</ul></td>
            <td>{row.status.label()}</td>
            <td>{row.cautions.iter().map(|c| c.label()).collect::<Vec<_>>().join("; ")}</td>
        </tr>
    }
}
