//! A published view's tables as the page shows them: each a chart drawn as
//! SVG (hidden from screen readers) beside a table of the same numbers, with
//! the outcome rates made of the published numbers only.

use leptos::prelude::*;

use crate::components::table::ScrollTable;
use crate::model::transparency::{PublishedRow, PublishedTable, PublishedView, WITHHELD};

/// A figure made of published numbers, or "withheld" as a cell reads.
fn figure_text(n: Option<u32>) -> String {
    n.map_or_else(|| WITHHELD.to_owned(), |n| n.to_string())
}

/// Every table of `view`, in order.
#[component]
pub fn ViewTables(view: PublishedView) -> impl IntoView {
    let tables = view.tables.clone();
    tables
        .into_iter()
        .map(|t| view! { <TableView table=t view=view.clone()/> })
        .collect_view()
}

#[component]
fn TableView(table: PublishedTable, view: PublishedView) -> impl IntoView {
    let heading = format!("table-{}", table.code);
    let labelled = heading.clone();
    let testid = format!("table-{}", table.code);
    let rows: Vec<PublishedRow> = table.rows.iter().chain([&table.total]).cloned().collect();
    let columns = view.columns.clone();
    view! {
        <section class="panel figure" aria-labelledby=labelled data-testid=testid>
            <h2 id=heading>{table.title.clone()}</h2>
            {table.note.clone().map(|n| view! { <p class="hint">{n}</p> })}
            <Chart rows=table.rows.clone()/>
            <ScrollTable label=format!("{} (table)", table.title)>
                <table>
                    <thead><tr>
                        <th scope="col">{table.row_heading.clone()}</th>
                        {columns.iter().map(|c| view! { <th scope="col" class="num">{c.label.clone()}</th> }).collect_view()}
                        <th scope="col" class="num">"All persons"</th>
                        <th scope="col" class="num">"Given an order"</th>
                        <th scope="col" class="num">"Cited"</th>
                        <th scope="col" class="num">"Cited per 100 given an order"</th>
                    </tr></thead>
                    <tbody>
                        {rows.into_iter().map(|r| {
                            let d = view.derived(&r);
                            let rate = per_100(d.cited_per_order);
                            view! {
                                <tr>
                                    <th scope="row">{r.label.clone()}</th>
                                    {r.cells.iter().map(|c| view! { <td class="num">{c.text()}</td> }).collect_view()}
                                    <td class="num">{r.persons.text()}</td>
                                    <td class="num">{figure_text(d.ordered)}</td>
                                    <td class="num">{figure_text(d.cited)}</td>
                                    <td class="num">{rate}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </ScrollTable>
        </section>
    }
}

// Narrow, so the chart's words stay legible when a phone shrinks it to fit.
const WIDTH: f64 = 360.0;

/// Persons per row as bars, each under its row's name (long names need the
/// whole width on a phone); a withheld row has no bar and says so.
#[component]
fn Chart(rows: Vec<PublishedRow>) -> impl IntoView {
    let max = rows
        .iter()
        .filter_map(|r| r.persons.count())
        .max()
        .unwrap_or(0)
        .max(1);
    let bar_h = 12.0;
    let row_h = 34.0;
    let height = row_h * rows.len() as f64 + 4.0;
    let scale = (WIDTH - 70.0) / f64::from(max);
    let bars = rows
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let y = i as f64 * row_h + 14.0;
            let w = r.persons.count().map_or(0.0, |n| f64::from(n) * scale);
            view! {
                <text x="0" y=y>{r.label.clone()}</text>
                <rect class="series-0" x="0" y=y + 5.0 width=w height=bar_h/>
                <text x=w + 4.0 y=y + 5.0 + bar_h - 2.0 class="value">{r.persons.text()}</text>
            }
        })
        .collect_view();
    view! {
        <svg class="chart" viewBox=format!("0 0 {WIDTH} {height}") aria-hidden="true" focusable="false">{bars}</svg>
    }
}

/// A rate per 100 to one decimal, or "—" where there is nothing to divide.
pub fn per_100(rate: Option<f64>) -> String {
    rate.map_or_else(|| "—".to_owned(), |p| format!("{p:.1}"))
}
