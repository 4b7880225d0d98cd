//! `/dashboard`: what enforcement of Article I looked like in a period. Each
//! figure is a table whose counts link to the register rows behind them, a chart
//! drawn as SVG on the server (no chart library, nothing from the internet), and a
//! CSV download.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::filter_query;
use crate::access::Permission;
use crate::api::dashboard::load_dashboard;
use crate::components::session::{encode, Guard};
use crate::components::table::ScrollTable;
use crate::model::dashboard::{Chart, Count, Dashboard, Figure, Period};

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
    view! {
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
                                    let value = c.value;
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
                            <text x=label_w + w + 4.0 y=by + bar_h - 3.0 class="value">{c.value}</text>
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
                    <text x="0" y="10" class="tick">{format!("max {}", max as i64)}</text>
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
