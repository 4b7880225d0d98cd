//! `/dashboard`: what enforcement of Article I looked like in a period. At the
//! top, one screen of what, where and to whom (issue #37): this month against
//! the last, persons by named area × offence × outcome, the named areas as a
//! schematic map, and the §52-1 D order's outcome by perceived group. Below,
//! the detail with a contents list: each figure is a table whose counts link to
//! the register rows behind them, a chart drawn as SVG on the server (no chart
//! library, nothing from the internet), and a CSV download.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::filter_query;
use crate::access::Permission;
use crate::api::dashboard::load_dashboard;
use crate::components::session::{encode, Guard};
use crate::components::table::ScrollTable;
use crate::model::dashboard::{
    Chart, Count, Dashboard, Figure, GroupRow, MonthComparison, Outcomes, Period, PlaceTable,
    Summary, SMALL_GROUP,
};
use crate::model::text::grouped;
use crate::model::transparency::area::NamedArea;

#[component]
pub fn DashboardPage() -> impl IntoView {
    view! {
        <Title text="Dashboard"/>
        <Guard permission=Permission::Oversee>
            <DashboardView/>
        </Guard>
    }
}

#[component]
fn DashboardView() -> impl IntoView {
    let query = use_query_map();
    let period = Memo::new(move |_| {
        query.with(|q| match (q.get("from"), q.get("to")) {
            (Some(from), Some(to)) if !from.is_empty() && !to.is_empty() => {
                Some(Period { from, to })
            }
            _ => None,
        })
    });
    let data = Resource::new(move || period.get(), load_dashboard);
    view! {
        <h1 class="wide">"Dashboard"</h1>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(d) => view! { <Figures d/> }.into_any(),
                    Err(e) => view! {
                        <PeriodForm period=period.get_untracked().unwrap_or_default()/>
                        <p class="notice bad" role="alert">{e.to_string()}</p>
                    }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn PeriodForm(period: Period) -> impl IntoView {
    view! {
        <form class="panel desk-filters" method="get" action="/dashboard" aria-label="Period">
            <div class="field">
                <label for="period-from">"From (date)"</label>
                <input id="period-from" name="from" type="date" value=period.from required/>
            </div>
            <div class="field">
                <label for="period-to">"To (date)"</label>
                <input id="period-to" name="to" type="date" value=period.to required/>
            </div>
            <div class="actions"><button type="submit">"Show the period"</button></div>
        </form>
    }
}

fn register_link(count: &Count) -> Option<String> {
    count
        .filter
        .as_ref()
        .map(|f| format!("/register?{}", filter_query(f)))
}

#[component]
fn Figures(d: Dashboard) -> impl IntoView {
    let period = d.period.clone();
    let contents: Vec<(String, String)> = d
        .figures
        .iter()
        .map(|f| (format!("#figure-{}", f.key), f.title.clone()))
        .collect();
    view! {
        <SummaryView s=d.summary period=period.clone()/>
        <nav class="panel contents" aria-labelledby="contents-heading" data-testid="contents">
            <h2 id="contents-heading">"The detail"</h2>
            <ul>
                <li><a href="#period">"Period and totals"</a></li>
                {contents.into_iter().map(|(href, title)| view! { <li><a href=href>{title}</a></li> }).collect_view()}
            </ul>
        </nav>
        <h2 id="period" class="visually-hidden">"Period and totals"</h2>
        <PeriodForm period=period.clone()/>
        <p class="hint">{format!("{} to {} (Town calendar dates). Every count opens the register rows behind it.", period.from, period.to)}</p>
        <ul class="totals" data-testid="totals">
            {d.totals.into_iter().map(|t| {
                let href = t.filter.as_ref().map(|f| format!("/register?{}", filter_query(f)));
                view! {
                    <li class="panel">
                        <span class="total-label">{t.label.clone()}</span>
                        {match href {
                            Some(h) => view! { <a class="total-value" href=h data-testid="total">{t.value}</a> }.into_any(),
                            None => view! { <span class="total-value" data-testid="total">{t.value}</span> }.into_any(),
                        }}
                    </li>
                }
            }).collect_view()}
        </ul>
        {d.figures.into_iter().map(|f| view! { <FigureView f period=period.clone()/> }).collect_view()}
    }
}

#[component]
fn FigureView(f: Figure, period: Period) -> impl IntoView {
    let heading = format!("figure-{}", f.key);
    let labelled = heading.clone();
    let csv = format!(
        "/dashboard/{}.csv?from={}&to={}",
        f.key,
        encode(&period.from),
        encode(&period.to)
    );
    let testid = format!("figure-{}", f.key);
    view! {
        <section class="panel figure" aria-labelledby=labelled data-testid=testid>
            <h2 id=heading>{f.title.clone()}</h2>
            {f.note.clone().map(|n| view! { <p class="hint">{n}</p> })}
            <SvgChart f=f.clone()/>
            <ScrollTable label=format!("{} (table)", f.title)>
                <table>
                    <thead><tr>
                        <th scope="col">{f.label_heading.clone()}</th>
                        {f.columns.iter().map(|c| view! { <th scope="col" class="num">{c.clone()}</th> }).collect_view()}
                    </tr></thead>
                    <tbody>
                        {f.rows.iter().map(|r| view! {
                            <tr>
                                <th scope="row">{r.label.clone()}</th>
                                {r.counts.iter().map(|c| {
                                    let value = grouped(c.value);
                                    view! { <td class="num">{match register_link(c) {
                                        Some(href) => view! { <a class="count" href=href>{value}</a> }.into_any(),
                                        None => view! { {value} }.into_any(),
                                    }}</td> }
                                }).collect_view()}
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </ScrollTable>
            <p><a href=csv rel="external" download="">"Download CSV"</a></p>
        </section>
    }
}

/// The one-screen summary (issue #37): on a desk, four panels side by side
/// above the fold; on a phone, one after another in the same order.
#[component]
fn SummaryView(s: Summary, period: Period) -> impl IntoView {
    view! {
        <section class="summary" aria-labelledby="summary-heading" data-testid="summary">
            <h2 id="summary-heading" class="visually-hidden">"Summary"</h2>
            <MonthsView m=s.months/>
            <PlacesView t=s.places.clone() period=period.clone()/>
            <MapView t=s.places period=period.clone()/>
            <GroupsView rows=s.groups period/>
        </section>
    }
}

/// `from` to `to`, as the panels of the period say it.
fn period_words(period: &Period) -> String {
    format!("{} to {}", period.from, period.to)
}

#[component]
fn MonthsView(m: MonthComparison) -> impl IntoView {
    view! {
        <section class="panel summary-panel" aria-labelledby="summary-months" data-testid="summary-months">
            <h3 id="summary-months">"This month against last"</h3>
            <p class="hint">{format!("Persons, {} against {}.", m.this_month, m.last_month)}</p>
            <table class="compact">
                <thead><tr>
                    <th scope="col">"Persons"</th>
                    <th scope="col" class="num">"This month"</th>
                    <th scope="col" class="num">"Last month"</th>
                    <th scope="col" class="num">"Change"</th>
                </tr></thead>
                <tbody>
                    {m.rows.into_iter().map(|r| {
                        let change = r.change();
                        view! {
                            <tr>
                                <th scope="row">{r.label.clone()}</th>
                                <td class="num">{grouped(r.this_month)}</td>
                                <td class="num">{grouped(r.last_month)}</td>
                                <td class="num nowrap">{change}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </section>
    }
}

/// One cell of the place table: the persons, and under them what came of
/// them as "cited · warned · no action" (the words read aloud, not shown: the
/// panel's hint says the order once).
fn outcome_cell(o: Outcomes) -> impl IntoView {
    let total = o.total();
    view! {
        <td class="num">
            {if total == 0 {
                view! { <span class="none">"0"</span> }.into_any()
            } else {
                view! {
                    <strong>{grouped(total)}</strong>
                    <span class="outcomes">
                        {grouped(o.cited)}<span class="visually-hidden">" cited,"</span>" · "
                        {grouped(o.warned)}<span class="visually-hidden">" warned,"</span>" · "
                        {grouped(o.no_action)}<span class="visually-hidden">" no action"</span>
                    </span>
                }.into_any()
            }}
        </td>
    }
}

#[component]
fn PlacesView(t: PlaceTable, period: Period) -> impl IntoView {
    view! {
        <section class="panel summary-panel" aria-labelledby="summary-places" data-testid="summary-places">
            <h3 id="summary-places">"Where, for what, and what came of it"</h3>
            <p class="hint">{format!("Persons, {}: cited · warned · no action under each count; one charged with two offences counts under each.", period_words(&period))}</p>
            <ScrollTable label="Persons by named area and offence (table)".into()>
                <table class="compact">
                    <thead><tr>
                        <th scope="col">"Area"</th>
                        <th scope="col" class="num">"All persons"</th>
                        {t.offences.iter().map(|(reference, title)| view! {
                            <th scope="col" class="num"><abbr title=title.clone()>{reference.clone()}</abbr></th>
                        }).collect_view()}
                    </tr></thead>
                    <tbody>
                        {t.rows.into_iter().map(|r| view! {
                            <tr data-testid=format!("place-{}", r.area)>
                                <th scope="row" title=r.label.clone()>{short_name(&r.area)}</th>
                                {outcome_cell(r.persons)}
                                {r.cells.into_iter().map(outcome_cell).collect_view()}
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </ScrollTable>
        </section>
    }
}

/// A named area's name where space is short (the full name is the row's
/// title and in the map's table).
fn short_name(code: &str) -> &'static str {
    NamedArea::ALL
        .into_iter()
        .find(|a| a.code() == code)
        .map_or("", |a| tile(a).4)
}

/// Where each named area sits on the schematic (x, y, width, height in a
/// 360 × 250 drawing), with its short name: Route 1 inland along the west,
/// the Town centre and the harbor on it, the beaches along the shore from
/// Drakes Island in the north to Moody Beach in the south. Only the areas:
/// never where a person was.
fn tile(area: NamedArea) -> (f64, f64, f64, f64, &'static str) {
    match area {
        NamedArea::Route1 => (4.0, 4.0, 70.0, 242.0, "Route 1"),
        NamedArea::TownCentre => (82.0, 64.0, 84.0, 56.0, "Town centre"),
        NamedArea::WellsHarbor => (172.0, 64.0, 84.0, 56.0, "Wells Harbor"),
        NamedArea::DrakesIsland => (262.0, 4.0, 88.0, 54.0, "Drakes Island"),
        NamedArea::WellsBeach => (262.0, 64.0, 88.0, 110.0, "Wells Beach"),
        NamedArea::MoodyBeach => (172.0, 182.0, 178.0, 64.0, "Moody Beach"),
        NamedArea::Elsewhere => (82.0, 128.0, 84.0, 54.0, "Elsewhere"),
        NamedArea::NotGiven => (82.0, 190.0, 84.0, 56.0, "No GPS fix"),
    }
}

#[component]
fn MapView(t: PlaceTable, period: Period) -> impl IntoView {
    let max = t
        .rows
        .iter()
        .map(|r| r.persons.total())
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let tiles = t.rows.iter().filter_map(|r| {
        let area = NamedArea::ALL.into_iter().find(|a| a.code() == r.area)?;
        let (x, y, w, h, name) = tile(area);
        let n = r.persons.total();
        let shade = format!("{:.2}", 0.08 + 0.5 * n as f64 / max);
        Some(view! {
            <g data-area=r.area.clone()>
                <rect class="series-0" x=x y=y width=w height=h rx="6" fill-opacity=shade/>
                <rect class="map-edge" x=x y=y width=w height=h rx="6"/>
                <text x=x + 6.0 y=y + 16.0 class="map-name">{name}</text>
                <text x=x + 6.0 y=y + 32.0 class="map-count">{grouped(n)}</text>
                <text x=x + 6.0 y=y + 46.0 class="tick">{format!("{} cited", grouped(r.persons.cited))}</text>
            </g>
        })
    }).collect_view();
    view! {
        <section class="panel summary-panel" aria-labelledby="summary-map" data-testid="summary-map">
            <h3 id="summary-map">"Persons by named area"</h3>
            <svg class="chart map" viewBox="0 0 360 250" aria-hidden="true" focusable="false">
                {tiles}
                <text x="356" y="125" class="tick" transform="rotate(90 356 125)" text-anchor="middle">"Atlantic Ocean"</text>
            </svg>
            <table class="visually-hidden">
                <caption>{format!("Persons by named area, {}", period_words(&period))}</caption>
                <thead><tr><th scope="col">"Area"</th><th scope="col">"Persons"</th><th scope="col">"Cited"</th></tr></thead>
                <tbody>
                    {t.rows.into_iter().map(|r| view! {
                        <tr><th scope="row">{r.label}</th><td>{grouped(r.persons.total())}</td><td>{grouped(r.persons.cited)}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
            <p class="hint">"A schematic of the Town's named areas, not to scale: an incident's area is found from its GPS fix."</p>
        </section>
    }
}

/// "71 %" of `part` in `whole`; "—" of none.
fn rate(part: i64, whole: i64) -> String {
    if whole == 0 {
        "—".into()
    } else {
        format!("{} %", (part as f64 * 100.0 / whole as f64).round() as i64)
    }
}

#[component]
fn GroupsView(rows: Vec<GroupRow>, period: Period) -> impl IntoView {
    let small = rows.iter().any(GroupRow::small);
    view! {
        <section class="panel summary-panel" aria-labelledby="summary-groups" data-testid="summary-groups">
            <h3 id="summary-groups">"After an order (§52-1 D), by perceived group"</h3>
            <table class="compact">
                <caption class="visually-hidden">{format!("Persons given an order by perceived group, {}", period_words(&period))}</caption>
                <thead><tr>
                    <th scope="col">"Group"</th>
                    <th scope="col" class="num">"Ordered"</th>
                    <th scope="col" class="num">"Complied"</th>
                    <th scope="col" class="num">"Cited"</th>
                </tr></thead>
                {group_bodies(rows)}
            </table>
            <p class="hint">
                "Complied and cited are shares of the persons ordered, by the officer's perception (bias audit). "
                {small.then(|| format!("* Fewer than {SMALL_GROUP} persons ordered: a rate of so few says little."))}
            </p>
        </section>
    }
}

/// One body per perception, headed by its name.
fn group_bodies(rows: Vec<GroupRow>) -> impl IntoView {
    let mut bodies: Vec<(String, Vec<GroupRow>)> = Vec::new();
    for r in rows {
        match bodies.last_mut() {
            Some((d, list)) if *d == r.dimension => list.push(r),
            _ => bodies.push((r.dimension.clone(), vec![r])),
        }
    }
    bodies
        .into_iter()
        .map(|(dimension, rows)| {
            view! {
                <tbody>
                    <tr class="group-head"><th scope="colgroup" colspan="4">{dimension}</th></tr>
                    {rows.into_iter().map(|r| {
                        let mark = if r.small() { "*" } else { "" };
                        view! {
                            <tr data-testid="group-row">
                                <th scope="row">{format!("{}{mark}", r.label)}</th>
                                <td class="num">{grouped(r.ordered)}</td>
                                <td class="num">{rate(r.complied, r.ordered)}</td>
                                <td class="num">{rate(r.cited, r.ordered)}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            }
        })
        .collect_view()
}

const WIDTH: f64 = 640.0;

/// The figure as a chart. Hidden from screen readers: the table beside it
/// carries the same numbers, and the links.
#[component]
fn SvgChart(f: Figure) -> impl IntoView {
    let max = f
        .rows
        .iter()
        .flat_map(|r| r.counts.iter().map(|c| c.value))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let series = f.columns.len().max(1);
    match f.chart {
        Chart::Bars => {
            let label_w = 230.0;
            let bar_h = 14.0;
            let row_h = bar_h * series as f64 + 8.0;
            let height = row_h * f.rows.len() as f64 + 4.0;
            let scale = (WIDTH - label_w - 50.0) / max;
            let rows = f.rows.iter().enumerate().map(|(i, r)| {
                let y = i as f64 * row_h + 4.0;
                view! {
                    <text x="0" y=y + bar_h - 2.0><title>{r.label.clone()}</title>{short_label(&r.label, 34)}</text>
                    {r.counts.iter().enumerate().map(|(j, c)| {
                        let w = c.value as f64 * scale;
                        let by = y + j as f64 * bar_h;
                        view! {
                            <rect class=format!("series-{j}") x=label_w y=by width=w.max(0.0) height=bar_h - 2.0/>
                            <text x=label_w + w + 4.0 y=by + bar_h - 3.0 class="value">{grouped(c.value)}</text>
                        }
                    }).collect_view()}
                }
            }).collect_view();
            view! {
                <svg class="chart" viewBox=format!("0 0 {WIDTH} {height}") aria-hidden="true" focusable="false">{rows}</svg>
                {(series > 1).then(|| view! { <Legend columns=f.columns.clone()/> })}
            }.into_any()
        }
        Chart::Columns => {
            let height = 180.0;
            let base = height - 20.0;
            let n = f.rows.len().max(1);
            let slot = WIDTH / n as f64;
            let bar_w = (slot - 2.0).max(1.0) / series as f64;
            let every = n.div_ceil(12);
            let scale = (base - 14.0) / max;
            let cols = f.rows.iter().enumerate().map(|(i, r)| {
                let x = i as f64 * slot;
                let tick = (i % every == 0).then(|| view! {
                    <text x=x y=height - 4.0 class="tick">{r.label.clone()}</text>
                });
                view! {
                    {r.counts.iter().enumerate().map(|(j, c)| {
                        let h = c.value as f64 * scale;
                        view! { <rect class=format!("series-{j}") x=x + j as f64 * bar_w y=base - h width=bar_w height=h/> }
                    }).collect_view()}
                    {tick}
                }
            }).collect_view();
            view! {
                <svg class="chart" viewBox=format!("0 0 {WIDTH} {height}") aria-hidden="true" focusable="false">
                    {cols}
                    <line x1="0" y1=base x2=WIDTH y2=base class="axis"/>
                    <text x="0" y="10" class="tick">{format!("max {}", grouped(max as i64))}</text>
                </svg>
                <Legend columns=f.columns.clone()/>
            }.into_any()
        }
    }
}

/// Which colour is which column.
#[component]
fn Legend(columns: Vec<String>) -> impl IntoView {
    view! {
        <p class="legend" aria-hidden="true">
            {columns.into_iter().enumerate().map(|(j, c)| view! {
                <span><span class=format!("swatch series-{j}")></span>{c}</span>
            }).collect_view()}
        </p>
    }
}

/// A label cut at a word, not mid-word, to at most `max` characters (the whole
/// label is the chart's tooltip and is in the table beside it).
fn short_label(label: &str, max: usize) -> String {
    if label.chars().count() <= max {
        return label.to_owned();
    }
    let cut: String = label.chars().take(max - 1).collect();
    let at_word = cut
        .rfind(' ')
        .filter(|&i| i > max / 2)
        .map_or(cut.as_str(), |i| &cut[..i]);
    format!("{}…", at_word.trim_end_matches([',', ';', '—', ' ']))
}

#[cfg(test)]
mod tests {
    use super::short_label;

    #[test]
    fn a_long_label_is_cut_where_a_word_ends() {
        let label = "§52-1 A(1) Obstructing free passage — refused to move on";
        let short = short_label(label, 34);
        assert!(short.chars().count() <= 34, "{short}");
        assert_eq!(short, "§52-1 A(1) Obstructing free…");
        assert_eq!(short_label("Saturday", 34), "Saturday");
    }
}
