//! The chief's desk (issue #6): the review queue, the register, the full report
//! with its decisions, and the dashboard. Filters live in the address bar, so a
//! dashboard figure can link to the register rows behind it and a filtered page
//! can be bookmarked or shared.

pub mod dashboard;
pub mod queue;
pub mod register;
pub mod report;

use leptos::prelude::*;
use leptos_router::params::ParamsMap;
use serde::de::DeserializeOwned;

use crate::model::incident::ReportStatus;
use crate::model::review::{CautionKind, OfficerOption, ReportFilter, ReportRow};
use crate::ordinance::{Offence, Outcome};
use crate::pages::field::outcome_badge;

/// One query parameter as the type it names — a code or text, or a number or
/// `true`/`false` as written; anything else counts as absent (the server
/// checks the filter again).
fn param<T: DeserializeOwned>(query: &ParamsMap, key: &str) -> Option<T> {
    let value = query.get(key).filter(|v| !v.trim().is_empty())?;
    serde_json::from_value(serde_json::Value::String(value.clone()))
        .or_else(|_| serde_json::from_str(value.trim()))
        .ok()
}

/// The filter a page's address describes.
pub fn filter_from_query(query: &ParamsMap) -> ReportFilter {
    ReportFilter {
        officer: param(query, "officer"),
        offence: param(query, "offence"),
        outcome: param(query, "outcome"),
        caution: param(query, "caution"),
        status: param(query, "status"),
        from: param(query, "from"),
        to: param(query, "to"),
        text: param(query, "text"),
        protected: param(query, "protected"),
        hour: param(query, "hour"),
        weekday: param(query, "weekday"),
        location: param(query, "location"),
        cell: param(query, "cell"),
        age: param(query, "age"),
        sex: param(query, "sex"),
        race: param(query, "race"),
        response: param(query, "response"),
        cited: param(query, "cited"),
        decided: param(query, "decided"),
    }
}

/// A filter's set fields as (name, value) pairs, named as in the address.
fn query_pairs(filter: &ReportFilter) -> Vec<(String, String)> {
    let serde_json::Value::Object(map) = serde_json::to_value(filter).unwrap_or_default() else {
        return Vec::new();
    };
    map.into_iter()
        .filter_map(|(key, v)| match v {
            serde_json::Value::String(s) => Some((key, s)),
            serde_json::Value::Number(n) => Some((key, n.to_string())),
            _ => None,
        })
        .collect()
}

/// The query string of a filter (for links to the register).
pub fn filter_query(filter: &ReportFilter) -> String {
    query_pairs(filter)
        .into_iter()
        .map(|(k, v)| format!("{k}={}", crate::components::session::encode(&v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The dashboard-only parts of a filter, which the form has no inputs for.
fn beyond_form(filter: &ReportFilter) -> ReportFilter {
    ReportFilter {
        protected: filter.protected,
        hour: filter.hour,
        weekday: filter.weekday,
        location: filter.location.clone(),
        cell: filter.cell,
        age: filter.age,
        sex: filter.sex,
        race: filter.race,
        response: filter.response,
        cited: filter.cited,
        decided: filter.decided,
        ..ReportFilter::default()
    }
}

fn code<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

/// A `<select>` over `options` (value, label), with "Any" first.
#[component]
fn Choice(
    name: &'static str,
    label: &'static str,
    current: String,
    options: Vec<(String, String)>,
) -> impl IntoView {
    let id = format!("filter-{name}");
    view! {
        <div class="field">
            <label for=id.clone()>{label}</label>
            <select id=id name=name>
                <option value="" selected=current.is_empty()>"Any"</option>
                {options.into_iter().map(|(value, text)| {
                    let selected = value == current;
                    view! { <option value=value selected=selected>{text}</option> }
                }).collect_view()}
            </select>
        </div>
    }
}

/// The filters, as a plain GET form: it works before the page is interactive
/// and leaves the filter in the address.
#[component]
pub fn FilterForm(
    action: &'static str,
    filter: ReportFilter,
    officers: Vec<OfficerOption>,
    /// The register also searches text and status.
    #[prop(optional)]
    register: bool,
) -> impl IntoView {
    let officer = filter.officer.map(|o| o.to_string()).unwrap_or_default();
    let officers = officers
        .into_iter()
        .map(|o| (o.user_id.to_string(), o.label))
        .collect();
    let offences = Offence::ALL
        .iter()
        .map(|o| (code(o), format!("{} {}", o.reference(), o.title())))
        .collect();
    let outcomes = Outcome::ALL
        .iter()
        .map(|o| (code(o), o.label().to_owned()))
        .collect();
    let cautions = CautionKind::ALL
        .iter()
        .map(|c| (c.code().to_owned(), c.label().to_owned()))
        .collect();
    let statuses = [
        ReportStatus::Submitted,
        ReportStatus::Returned,
        ReportStatus::Approved,
    ]
    .iter()
    .map(|s| (s.code().to_owned(), s.label().to_owned()))
    .collect();
    let opt = |v: &Option<String>| v.clone().unwrap_or_default();
    // Kept through "Apply filters", and said in words.
    let hidden = query_pairs(&beyond_form(&filter));
    let narrowed = (!hidden.is_empty()).then(|| {
        let words = hidden
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect::<Vec<_>>()
            .join(", ");
        view! { <p class="hint wide" data-testid="narrowed">"Also narrowed by: " {words}</p> }
    });
    view! {
        <form class="panel desk-filters" method="get" action=action role="search" aria-label="Filter reports">
            {hidden.into_iter().map(|(name, value)| view! { <input type="hidden" name=name value=value/> }).collect_view()}
            {narrowed}
            {register.then(|| view! {
                <div class="field wide">
                    <label for="filter-text">"Citation number, person or place"</label>
                    <input id="filter-text" name="text" type="search" value=opt(&filter.text)
                        aria-describedby="filter-text-hint"
                        placeholder="WPD-2026-000123, a surname, part of an address"/>
                    <span class="hint" id="filter-text-hint">"Any part of a name, a description, a place or a citation number (three characters or more)."</span>
                </div>
            })}
            <Choice name="officer" label="Officer" current=officer options=officers/>
            <Choice name="offence" label="Offence" current=filter.offence.map(|o| code(&o)).unwrap_or_default() options=offences/>
            <Choice name="outcome" label="Outcome" current=filter.outcome.map(|o| code(&o)).unwrap_or_default() options=outcomes/>
            <Choice name="caution" label="Caution" current=filter.caution.map(|c| c.code().to_owned()).unwrap_or_default() options=cautions/>
            {register.then(|| view! {
                <Choice name="status" label="Status" current=filter.status.map(|s| s.code().to_owned()).unwrap_or_default() options=statuses/>
            })}
            <div class="field">
                <label for="filter-from">"From (date)"</label>
                <input id="filter-from" name="from" type="date" value=opt(&filter.from)/>
            </div>
            <div class="field">
                <label for="filter-to">"To (date)"</label>
                <input id="filter-to" name="to" type="date" value=opt(&filter.to)/>
            </div>
            <div class="actions">
                <button type="submit">"Apply filters"</button>
                <a class="button secondary" href=action>"Clear"</a>
            </div>
        </form>
    }
}

/// The cautions of a report, prominent: each is something to check before
/// approving.
#[component]
pub fn CautionList(cautions: Vec<String>) -> impl IntoView {
    (!cautions.is_empty()).then(|| {
        view! {
            <div class="notice warn" data-testid="cautions">
                <strong>"Check before approving:"</strong>
                <ul>{cautions.into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}</ul>
            </div>
        }
    })
}

/// A report in the queue: verdict per person, cautions, and the way in.
#[component]
pub fn ReportCard(row: ReportRow) -> impl IntoView {
    let href = format!("/reports/{}", row.incident_id);
    let cautions = row.cautions.iter().map(|c| c.label().to_owned()).collect();
    view! {
        <li class="panel report" data-testid="queue-report">
            <p><strong>{row.occurred_text.clone()}</strong>" · " {row.location.clone()}</p>
            <p class="hint">"By " {row.officer.clone()} " · submitted " {row.submitted_text.clone()}</p>
            {row.filing_deadline.clone().map(|d| view! {
                <p data-testid="filing-deadline"><strong>"To file with the court by " {d}</strong>
                    {format!(" ({} days from issuance)", crate::ordinance::FILING_DAYS)}</p>
            })}
            <CautionList cautions/>
            <SubjectLines row=row.clone()/>
            <p><a class="button" href=href>"Review the full report"</a></p>
        </li>
    }
}

#[component]
fn SubjectLines(row: ReportRow) -> impl IntoView {
    view! {
        <ul>
            {row.subjects.into_iter().map(|s| view! {
                <li>
                    {s.label.clone()} " — " <span class=if s.citations_void() { "badge" } else { outcome_badge(s.outcome) } data-testid="outcome-badge">{s.outcome_text()}</span>
                    {s.offences_shown().iter().map(|o| view! { " " {o.reference()} }).collect_view()}
                    {s.citations.into_iter().map(|c| view! {
                        " · " <span data-testid="row-citation">{c.number}</span>
                        " (" {c.status.label()} ")"
                    }).collect_view()}
                </li>
            }).collect_view()}
        </ul>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A number in the address is a number: the register's cursor time was
    /// read as a JSON string only, never found, and "Next 50" showed page 1
    /// again (issue #37). Codes and texts still read as strings, digits too.
    #[test]
    fn the_address_reads_numbers_flags_codes_and_texts() {
        let query: ParamsMap = [
            ("after_at", "1601519504601"),
            ("hour", " 22 "),
            ("weekday", "5"),
            ("cited", "true"),
            ("text", "000083"),
            ("status", "submitted"),
            ("officer", "not a uuid"),
        ]
        .into_iter()
        .map(|(k, v)| (k, v.to_owned()))
        .collect();
        assert_eq!(param::<i64>(&query, "after_at"), Some(1_601_519_504_601));
        let filter = filter_from_query(&query);
        assert_eq!(
            (filter.hour, filter.weekday, filter.cited),
            (Some(22), Some(5), Some(true))
        );
        assert_eq!(filter.text.as_deref(), Some("000083"));
        assert_eq!(filter.status, Some(ReportStatus::Submitted));
        assert_eq!(filter.officer, None);
    }
}
