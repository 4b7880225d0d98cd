//! `/transparency/desk`: the chief's own tables (issue #40, never public) for
//! a month or a run of months — what the orders of §52-1 D (and §52-2), the
//! responses, §52-1 E's exclusion and the citations came to per officer, the
//! chosen officer's tables by section, area, time, weekday and perceived group,
//! and the disparity view: each perceived group's rate of citation per order
//! beside the Town's, with the exact counts and a note on small numbers.

use leptos::prelude::*;
use leptos_meta::Title;

use super::tables::per_100;
use crate::access::Permission;
use crate::api::transparency::{desk_disparity, desk_months, desk_officers};
use crate::components::form::TextField;
use crate::components::load_error::LoadError;
use crate::components::session::{hydrated, Guard};
use crate::components::table::ScrollTable;
use crate::error::AppError;
use crate::model::transparency::desk::{month_range_problems, DeskRow, DeskTable, OfficerTables};
use crate::model::transparency::disparity::{small_numbers_note, Disparity, RateRow};
use crate::model::transparency::Heading;

#[component]
pub fn ChiefTablesPage() -> impl IntoView {
    view! {
        <Title text="The chief's tables"/>
        <Guard permission=Permission::Oversee>
            <ChiefTablesView/>
        </Guard>
    }
}

#[component]
fn ChiefTablesView() -> impl IntoView {
    // The newest month that has ended starts the period.
    let months = Resource::new(|| (), |_| desk_months());
    view! {
        <h1 class="wide">"The chief's tables"</h1>
        <p data-testid="never-public">"For the chief only, with exact counts: none of this is published, and small numbers are not withheld here. What the public reads is at "<a href="/transparency/publish">"Publish a month"</a>"."</p>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match months.await {
                    Ok(months) => {
                        let latest = months.first().map(|m| m.month.clone()).unwrap_or_default();
                        view! { <Period latest/> }.into_any()
                    }
                    Err(error) => view! { <LoadError error/> }.into_any(),
                }
            })}
        </Transition>
    }
}

/// The period chooser and what it shows.
#[component]
fn Period(latest: String) -> impl IntoView {
    let ready = hydrated();
    let from = RwSignal::new(latest.clone());
    let to = RwSignal::new(latest.clone());
    let period = RwSignal::new((latest.clone(), latest));
    let officer = RwSignal::new(None::<String>);
    let problems = RwSignal::new(None::<AppError>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (f, t) = (
            from.get_untracked().trim().to_owned(),
            to.get_untracked().trim().to_owned(),
        );
        let found = month_range_problems(&f, &t);
        if found.is_empty() {
            problems.set(None);
            officer.set(None);
            period.set((f, t));
        } else {
            problems.set(Some(AppError::Invalid { errors: found }));
        }
    };
    let tables = Resource::new(
        move || (period.get(), officer.get()),
        |((f, t), o)| desk_officers(f, t, o),
    );
    let disparity = Resource::new(move || period.get(), |(f, t)| desk_disparity(f, t));
    view! {
        <section class="panel" aria-labelledby="period-heading">
            <h2 id="period-heading">"Period"</h2>
            <form class="desk-filters" on:submit=submit aria-label="Period" novalidate>
                <TextField name="from" label="From" kind="month" required=true value=from
                    error=Signal::derive(move || problems.get())
                    hint="Year and month, for example 2026-01."/>
                <TextField name="to" label="To" kind="month" required=true value=to
                    error=Signal::derive(move || problems.get())
                    hint="The last month counted, at most ten years after From."/>
                <div class="actions">
                    <button type="submit" disabled=move || !ready.get()>"Show the period"</button>
                </div>
            </form>
            <p class="hint" data-testid="period-shown">{move || {
                let (f, t) = period.get();
                if f == t { format!("Showing {f}.") } else { format!("Showing {f} to {t}.") }
            }}</p>
        </section>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match tables.await {
                    Ok(t) => view! { <Officers t officer/> }.into_any(),
                    Err(error) => view! { <LoadError error/> }.into_any(),
                }
            })}
        </Transition>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match disparity.await {
                    Ok(d) => view! { <DisparityView d/> }.into_any(),
                    Err(error) => view! { <LoadError error/> }.into_any(),
                }
            })}
        </Transition>
    }
}

/// The heading cells of a row of true counts, after its first.
fn count_headings(columns: &[Heading]) -> impl IntoView {
    view! {
        {columns.iter().map(|c| view! { <th scope="col" class="num">{c.label.clone()}</th> }).collect_view()}
        <th scope="col" class="num">"All persons"</th>
        <th scope="col" class="num">"Given an order"</th>
        <th scope="col" class="num">"Refused"</th>
        <th scope="col" class="num">"Cited"</th>
        <th scope="col" class="num">"Cited per 100 given an order"</th>
    }
}

/// The count cells of `row`.
fn count_cells(row: &DeskRow) -> impl IntoView {
    view! {
        {row.counts.iter().map(|n| view! { <td class="num">{*n}</td> }).collect_view()}
        <td class="num">{row.persons}</td>
        <td class="num">{row.ordered()}</td>
        <td class="num">{row.refused()}</td>
        <td class="num">{row.cited()}</td>
        <td class="num">{per_100(row.cited_per_order())}</td>
    }
}

#[component]
fn Officers(t: OfficerTables, officer: RwSignal<Option<String>>) -> impl IntoView {
    let ready = hydrated();
    let columns = t.columns.clone();
    let detail_columns = t.columns.clone();
    view! {
        <section class="panel figure" aria-labelledby="officers-heading" data-testid="officers">
            <h2 id="officers-heading">"By officer"</h2>
            <p class="hint">"Every person an officer recorded, once, by what happened to them; the Town's row adds every officer up. Choose an officer for their tables."</p>
            {if t.officers.is_empty() {
                view! { <p data-testid="no-officers">"No one was recorded in this period."</p> }.into_any()
            } else {
                view! {
                    <ScrollTable label="By officer (table)".to_owned()>
                        <table>
                            <thead><tr>
                                <th scope="col">"Officer"</th>
                                {count_headings(&columns)}
                            </tr></thead>
                            <tbody>
                                {t.officers.iter().map(|r| {
                                    let id = r.code.clone();
                                    let label = r.label.clone();
                                    view! {
                                        <tr data-officer=r.code.clone()>
                                            <th scope="row">
                                                <button type="button" disabled=move || !ready.get()
                                                    aria-label=format!("Tables of {label}")
                                                    on:click=move |_| officer.set(Some(id.clone()))>{r.label.clone()}</button>
                                            </th>
                                            {count_cells(r)}
                                        </tr>
                                    }
                                }).collect_view()}
                                <tr data-officer="all">
                                    <th scope="row">{t.town.label.clone()}</th>
                                    {count_cells(&t.town)}
                                </tr>
                            </tbody>
                        </table>
                    </ScrollTable>
                }.into_any()
            }}
        </section>
        {t.chosen.map(|c| {
            let heading = format!("{}: tables", c.label);
            view! {
                <section class="panel" aria-labelledby="chosen-heading" data-testid="chosen-officer">
                    <h2 id="chosen-heading">{heading}</h2>
                    {c.tables.into_iter().map(|table| view! { <DeskTableView table columns=detail_columns.clone()/> }).collect_view()}
                </section>
            }
        })}
    }
}

#[component]
fn DeskTableView(table: DeskTable, columns: Vec<Heading>) -> impl IntoView {
    let heading = format!("officer-{}", table.code);
    view! {
        <div class="figure" data-testid=format!("officer-table-{}", table.code)>
            <h3 id=heading.clone()>{table.title.clone()}</h3>
            <ScrollTable label=format!("{} (officer's table)", table.title)>
                <table aria-labelledby=heading>
                    <thead><tr>
                        <th scope="col">{table.row_heading.clone()}</th>
                        {count_headings(&columns)}
                    </tr></thead>
                    <tbody>
                        {table.rows.iter().map(|r| view! {
                            <tr data-row=r.code.clone()>
                                <th scope="row">{r.label.clone()}</th>
                                {count_cells(r)}
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </ScrollTable>
        </div>
    }
}

fn rate_cells(r: &RateRow) -> impl IntoView {
    let rate = per_100(r.rate.map(|x| x * 100.0));
    let range = r.interval.map_or_else(
        || "—".to_owned(),
        |(lo, hi)| format!("{:.1}–{:.1}", lo * 100.0, hi * 100.0),
    );
    let ratio = r
        .ratio
        .map_or_else(|| "—".to_owned(), |x| format!("{x:.2}"));
    view! {
        <td class="num">{r.ordered}</td>
        <td class="num">{r.cited}</td>
        <td class="num">{rate}</td>
        <td class="num">{range}</td>
        <td class="num">{ratio}</td>
        <td>{if r.small { "few" } else { "" }}</td>
    }
}

fn rate_headings() -> impl IntoView {
    view! {
        <th scope="col" class="num">"Given an order"</th>
        <th scope="col" class="num">"Cited after refusing"</th>
        <th scope="col" class="num">"Cited per 100 given an order"</th>
        <th scope="col" class="num">"Range by chance (95 %)"</th>
        <th scope="col" class="num">"Times the Town's rate"</th>
        <th scope="col">"Small numbers"</th>
    }
}

#[component]
fn DisparityView(d: Disparity) -> impl IntoView {
    let town = d.town.clone();
    view! {
        <section class="panel figure" aria-labelledby="disparity-heading" data-testid="disparity">
            <h2 id="disparity-heading">"Disparity: each perceived group beside the Town"</h2>
            <p class="hint">"Of the persons given an order (§52-1 D, §52-2), the share cited after refusing it, for each group of the officer's perception, beside the same share for every person (organisations have no perception and are left out)."</p>
            <p class="notice" data-testid="small-numbers">{small_numbers_note()}</p>
            <p data-testid="town-rate">{format!(
                "The Town: {} given an order, {} cited after refusing, {} per 100.",
                town.ordered, town.cited, per_100(town.rate.map(|x| x * 100.0))
            )}</p>
            {d.tables.into_iter().map(|t| {
                let heading = format!("disparity-{}", t.code);
                let town = town.clone();
                view! {
                    <div class="figure" data-testid=format!("disparity-{}", t.code)>
                        <h3 id=heading.clone()>{t.title.clone()}</h3>
                        <ScrollTable label=format!("{} (disparity)", t.title)>
                            <table aria-labelledby=heading>
                                <thead><tr>
                                    <th scope="col">"Group"</th>
                                    {rate_headings()}
                                </tr></thead>
                                <tbody>
                                    {t.rows.iter().map(|r| view! {
                                        <tr>
                                            <th scope="row">{r.label.clone()}</th>
                                            {rate_cells(r)}
                                        </tr>
                                    }).collect_view()}
                                    <tr data-row="town">
                                        <th scope="row">{town.label.clone()}</th>
                                        {rate_cells(&town)}
                                    </tr>
                                </tbody>
                            </table>
                        </ScrollTable>
                    </div>
                }
            }).collect_view()}
        </section>
    }
}
