//! `/court/register`: the court's citations by status, filing date and court date.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::access::Permission;
use crate::api::court::court_register;
use crate::components::session::Guard;
use crate::components::table::ScrollTable;
use crate::model::court::CourtFilter;
use crate::model::incident::CitationStatus;

#[component]
pub fn CourtRegisterPage() -> impl IntoView {
    view! {
        <Title text="Clerk's register"/>
        <Guard permission=Permission::Court>
            <CourtRegister/>
        </Guard>
    }
}

#[component]
fn CourtRegister() -> impl IntoView {
    let query = use_query_map();
    let filter = Memo::new(move |_| {
        query.with(|q| {
            let text = |k: &str| q.get(k).filter(|v| !v.trim().is_empty());
            CourtFilter {
                status: text("status").and_then(|s| CitationStatus::from_code(&s)),
                filed_from: text("filed_from"),
                filed_to: text("filed_to"),
                court_from: text("court_from"),
                court_to: text("court_to"),
                number: text("number"),
            }
        })
    });
    let rows = Resource::new(move || filter.get(), court_register);
    view! {
        <h1 class="wide">"Clerk's register"</h1>
        <p class="hint wide"><a href="/court/calendar">"Hearings calendar"</a>" — the hearings set from today on, day by day."</p>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let f = filter.get_untracked();
                let form = view! { <Filters f/> };
                let body = match rows.await {
                    Err(e) => view! { <p class="notice bad" role="alert">{e.to_string()}</p> }.into_any(),
                    Ok(list) if list.is_empty() => view! { <p role="status">"No citation matches."</p> }.into_any(),
                    Ok(list) => view! {
                        <ScrollTable label="Citations at court".to_owned()>
                            <table data-testid="court-register">
                                <thead><tr>
                                    <th scope="col">"Citation"</th><th scope="col">"Defendant"</th><th scope="col">"Status"</th>
                                    <th scope="col">"Filed"</th><th scope="col">"Court date"</th><th scope="col">"Disposition"</th>
                                </tr></thead>
                                <tbody>{list.into_iter().map(|r| {
                                    let href = format!("/court/citations/{}", r.number);
                                    view! {
                                        <tr data-testid="court-row">
                                            <td><a href=href>{r.number.clone()}</a>
                                                {r.withdrawn.is_some().then_some(view! { " " <span class="badge warn">"withdrawn"</span> })}
                                                {r.replaces.clone().map(|n| view! { " " <span class="badge">{format!("replaces {n}")}</span> })}
                                                {r.fine_departure.is_some().then_some(view! { " " <span class="badge warn">"fine differs"</span> })}</td>
                                            <td>{r.subject}</td>
                                            <td>{r.status.label()}</td>
                                            <td>{r.filed_on.unwrap_or_default()} " " {r.filing_reference.unwrap_or_default()}</td>
                                            <td>{r.court_date}</td>
                                            <td>{r.disposition.map(|d| d.label()).unwrap_or("—")}</td>
                                        </tr>
                                    }
                                }).collect_view()}</tbody>
                            </table>
                        </ScrollTable>
                    }.into_any(),
                };
                view! { {form} {body} }
            })}
        </Transition>
    }
}

#[component]
fn Filters(f: CourtFilter) -> impl IntoView {
    let opt = |v: &Option<String>| v.clone().unwrap_or_default();
    let current = f.status.map(|s| s.code()).unwrap_or_default();
    let date = |id: &'static str, label: &'static str, value: String| {
        view! {
            <div class="field">
                <label for=format!("court-{id}")>{label}</label>
                <input id=format!("court-{id}") name=id type="date" value=value/>
            </div>
        }
    };
    view! {
        <form class="panel desk-filters" method="get" action="/court/register" role="search" aria-label="Filter citations">
            <div class="field">
                <label for="court-number">"Citation number"</label>
                <input id="court-number" name="number" type="search" value=opt(&f.number)/>
            </div>
            <div class="field">
                <label for="court-status">"Status"</label>
                <select id="court-status" name="status">
                    <option value="" selected=current.is_empty()>"Any"</option>
                    {[CitationStatus::Approved, CitationStatus::Filed, CitationStatus::Disposed].into_iter().map(|s| view! {
                        <option value=s.code() selected=s.code() == current>{s.label()}</option>
                    }).collect_view()}
                </select>
            </div>
            {date("filed_from", "Filed from", opt(&f.filed_from))}
            {date("filed_to", "Filed to", opt(&f.filed_to))}
            {date("court_from", "Court date from", opt(&f.court_from))}
            {date("court_to", "Court date to", opt(&f.court_to))}
            <div class="actions">
                <button type="submit">"Apply filters"</button>
                <a class="button secondary" href="/court/register">"Clear"</a>
            </div>
        </form>
    }
}
