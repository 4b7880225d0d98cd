//! `/transparency`: what the Town publishes of its enforcement of Chapter 52,
//! for anyone, signed in or not. The index lists every published month (each
//! revision) and year to date; `/transparency/2026-11`, `/transparency/2026-11/r2`
//! and `/transparency/2026` show one, with its CSV and JSON. An address of
//! anything not published answers as a page that does not exist.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use super::tables::ViewTables;
use crate::api::transparency::{load_public_index, load_public_view};
use crate::components::load_error::LoadError;
use crate::error::AppError;
use crate::model::transparency::{
    parse_revision, Class, Dimension, Month, PublicIndex, PublicView, ViewKind, ALL, CSV_COLUMNS,
    THRESHOLD, WITHHELD,
};
use crate::pages::not_found::NotFound;

#[component]
pub fn TransparencyPage() -> impl IntoView {
    let index = Resource::new(|| (), |_| load_public_index());
    view! {
        <Title text="Public reports"/>
        <h1 class="wide">"Loitering enforcement: public reports"</h1>
        <p>"Each month, once it has ended and the Chief of Police has published it, the Town publishes what its officers did under Chapter 52 of the Town Code: how many persons were given an order to move on, how many complied, refused, were cited or were doing something the law protects — by section, area, time of day, weekday and the officer's perception of age, sex and race. Nobody can be identified from it."</p>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match index.await {
                    Ok(index) => view! { <Published index/> }.into_any(),
                    Err(error) => view! { <LoadError error/> }.into_any(),
                }
            })}
        </Transition>
        <Notes/>
        <Dictionary/>
    }
}

#[component]
fn Published(index: PublicIndex) -> impl IntoView {
    if index.months.is_empty() {
        return view! {
            <section class="panel" aria-labelledby="published-heading">
                <h2 id="published-heading">"Published months"</h2>
                <p data-testid="nothing-published">"No month has been published yet."</p>
            </section>
        }
        .into_any();
    }
    view! {
        <section class="panel" aria-labelledby="published-heading" data-testid="published-months">
            <h2 id="published-heading">"Published months"</h2>
            <ul>
                {index.months.into_iter().map(|m| {
                    let latest = m.revisions.last().map_or(1, |r| r.revision);
                    view! {
                        <li>
                            <a href=format!("/transparency/{}", m.month)>{m.label.clone()}</a>
                            {(latest > 1).then(|| view! { <span>{format!(" (corrected: revision {latest})")}</span> })}
                        </li>
                    }
                }).collect_view()}
            </ul>
            <h2>"Year to date"</h2>
            <ul>
                {index.years.into_iter().map(|y| view! {
                    <li><a href=format!("/transparency/{y}")>{format!("{y}, every month published so far")}</a></li>
                }).collect_view()}
            </ul>
        </section>
    }
    .into_any()
}

/// `/transparency/:period` and `/transparency/:period/:revision`.
#[component]
pub fn PublishedPeriodPage() -> impl IntoView {
    let params = use_params_map();
    let wanted = Memo::new(move |_| {
        params.with(|p| {
            let period = p.get("period").unwrap_or_default();
            let revision = p.get("revision");
            (period, revision)
        })
    });
    let data = Resource::new(
        move || wanted.get(),
        |(period, revision)| async move {
            // A revision that is not `r` and a number names nothing published.
            let revision = match revision {
                Some(text) => Some(parse_revision(&text).ok_or(AppError::NotFound)?),
                None => None,
            };
            load_public_view(period, revision).await
        },
    );
    view! {
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(view) => view! { <PeriodView view/> }.into_any(),
                    Err(AppError::NotFound) => view! { <NotFound/> }.into_any(),
                    Err(error) => view! { <LoadError error/> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn PeriodView(view: PublicView) -> impl IntoView {
    let v = view.view.clone();
    let title = match (v.kind, Month::parse(&v.period)) {
        (ViewKind::Month, Some(m)) => m.label(),
        _ => format!("{}, year to date", v.period),
    };
    let base = match v.revision {
        Some(r) => format!("/transparency/{}/r{r}", v.period),
        None => format!("/transparency/{}", v.period),
    };
    let revision_line = v.revision.map(|r| {
        let newer = view.latest.filter(|l| *l > r).map(|l| {
            view! { " A newer revision, "<a href=format!("/transparency/{}/r{l}", v.period)>{format!("revision {l}")}</a>", corrects it." }
        });
        view! { <p data-testid="revision">{format!("Revision {r}, published {}.", v.published_on)}{newer}</p> }
    });
    let months_counted = (v.kind == ViewKind::YearToDate).then(|| {
        let list: Vec<String> = v
            .months
            .iter()
            .map(|m| format!("{} (revision {})", Month::parse(&m.month).map_or_else(|| m.month.clone(), Month::label), m.revision))
            .collect();
        view! { <p>{format!("Counts every month of the year published so far: {}. Published {}.", list.join(", "), v.published_on)}</p> }
    });
    let correction = v.correction.clone().map(|c| view! {
        <section class="panel" aria-labelledby="correction-heading" data-testid="correction">
            <h2 id="correction-heading">{format!("This revision corrects revision {}", c.replaces_revision)}</h2>
            <p>"Why: "{c.reason.clone()}</p>
            <p>"What changed:"</p>
            <ul>{c.changes.into_iter().map(|ch| view! { <li>{ch}</li> }).collect_view()}</ul>
        </section>
    });
    let revisions = (view.revisions.len() > 1).then(|| {
        let period = v.period.clone();
        view! {
            <section class="panel" aria-labelledby="revisions-heading">
                <h2 id="revisions-heading">"Every revision of this month"</h2>
                <ul data-testid="revisions">
                    {view.revisions.iter().map(|r| view! {
                        <li>
                            <a href=format!("/transparency/{period}/r{}", r.revision)>{format!("Revision {}", r.revision)}</a>
                            {format!(", published {}", r.published_on)}
                            {r.reason.clone().map(|why| format!(": {why}"))}
                        </li>
                    }).collect_view()}
                </ul>
            </section>
        }
    });
    view! {
        <Title text=format!("Public report: {title}")/>
        <p><a href="/transparency">"All public reports"</a></p>
        <h1 class="wide">{title.clone()}</h1>
        {revision_line}
        {months_counted}
        <p class="hint">{format!("A count of 1 to {} persons is shown as \"withheld\", and so are a few others, so that no count of fewer than {THRESHOLD} can be worked out from the totals, another table, the year to date or an earlier revision.", THRESHOLD - 1)}</p>
        {correction}
        <section class="panel" aria-labelledby="downloads-heading">
            <h2 id="downloads-heading">"Open data"</h2>
            <ul>
                <li><a href=format!("{base}/data.csv") rel="external" download="" data-testid="csv">"Download CSV"</a></li>
                <li><a href=format!("{base}/data.json") rel="external" download="" data-testid="json">"Download JSON"</a></li>
                <li><a href="/transparency#data-dictionary">"What each column means (data dictionary)"</a></li>
            </ul>
            <p class="hint">"SHA-256 of the JSON: "<code class="hash">{view.sha256.clone()}</code></p>
        </section>
        {revisions}
        <ViewTables view=v/>
    }
}

/// What the figures mean, in plain words, with the sections they count.
#[component]
fn Notes() -> impl IntoView {
    view! {
        <section class="panel" aria-labelledby="notes-heading">
            <h2 id="notes-heading">"What the figures mean"</h2>
            <dl>
                <dt>"An order"</dt>
                <dd>"Under §52-1 D (and §52-2), before anyone may be cited for loitering an officer must tell the person what they are doing that the ordinance forbids and order them to stop or move on. A person who complies is not cited. §52-3 and §52-7 need no order."</dd>
                <dt>"Protected activity"</dt>
                <dd>"§52-1 E: the ordinance does not apply to a person exercising a right the constitution protects (speech, assembly, religion, picketing…). The officer records it and takes no action."</dd>
                <dt>"Perceived age, sex and race"</dt>
                <dd>"What the officer saw, recorded for this report only: the person is never asked, and it may be wrong. It is recorded so the Town can see whether enforcement falls differently on different groups."</dd>
                <dt>"Areas"</dt>
                <dd>"The Town's named areas. No address, street or coordinates are published."</dd>
                <dt>"Withheld"</dt>
                <dd>{format!("Any count of 1 to {} persons, and the counts that would give one back by subtraction. Zero is shown as zero.", THRESHOLD - 1)}</dd>
                <dt>"Never published"</dt>
                <dd>"Names, dates of birth, addresses, exact times, citation numbers, officers and what the reports say."</dd>
            </dl>
            <p>"The law: Chapter 52 of the Code of the Town of Wells, Article I (loitering, §§52-1 to 52-6) and Article II (mass gatherings, §§52-7 to 52-14)."</p>
        </section>
    }
}

/// The CSV's columns and codes.
#[component]
fn Dictionary() -> impl IntoView {
    view! {
        <section class="panel" id="data-dictionary" aria-labelledby="dictionary-heading">
            <h2 id="dictionary-heading">"Data dictionary"</h2>
            <p>{format!("Each CSV has a header row and one record per published count; the JSON holds the same tables. A withheld count is the word \"{WITHHELD}\".")}</p>
            <dl data-testid="dictionary">
                {CSV_COLUMNS.iter().map(|(column, meaning)| view! {
                    <dt><code>{*column}</code></dt>
                    <dd>{*meaning}</dd>
                }).collect_view()}
            </dl>
            <h3>"Column codes (what happened)"</h3>
            <dl>
                {Class::ALL.into_iter().map(|c| view! {
                    <dt><code>{c.code()}</code></dt>
                    <dd>{c.label()}</dd>
                }).collect_view()}
                <dt><code>{ALL}</code></dt>
                <dd>"Everyone in the row"</dd>
            </dl>
            <h3>"Tables and their row codes"</h3>
            <dl>
                {Dimension::ALL.into_iter().map(|d| {
                    let rows: Vec<String> = d.rows().into_iter().map(|(code, label)| format!("{code} ({label})")).collect();
                    view! {
                        <dt><code>{d.code()}</code>" — "{d.title()}</dt>
                        <dd>{format!("{}; {ALL} (the total row).", rows.join("; "))}</dd>
                    }
                }).collect_view()}
            </dl>
        </section>
    }
}
