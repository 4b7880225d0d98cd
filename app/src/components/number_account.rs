//! The year's citation numbers, accounted for (issue #17): how many are
//! citations that stand, how many are void — a citation the chief voided or a
//! correction stopped citing, or a number handed out for a report the server
//! refused, each with who and why (issue #37) — how many came back unused, and
//! which are still reserved on an officer's phone. "Gapless" is this statement:
//! the four add up to the last number, and none is missing.

use leptos::prelude::*;

use crate::api::numbers::year_numbers;
use crate::model::numbers::NumberAccount;

#[component]
pub fn NumberAccountPanel() -> impl IntoView {
    let account = Resource::new(|| (), |_| year_numbers(None));
    view! {
        <section class="panel" aria-labelledby="numbers-heading" data-testid="number-account">
            <Transition fallback=|| view! { <p class="hint">"Counting this year's numbers…"</p> }>
                {move || Suspend::new(async move {
                    match account.await {
                        Err(e) => view! {
                            <h2 id="numbers-heading">"Citation numbers"</h2>
                            <p class="notice bad" role="alert">{e.to_string()}</p>
                        }.into_any(),
                        Ok(a) => view! { <Account a/> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn Account(a: NumberAccount) -> impl IntoView {
    let balance = if a.balances() {
        view! {
            <p class="notice ok" role="status" data-testid="numbers-balance">
                {format!("Every number from 1 to {} is accounted for.", a.last)}
            </p>
        }
        .into_any()
    } else {
        view! {
            <p class="notice bad" role="alert" data-testid="numbers-balance">
                {format!("Numbers not accounted for: {}. Report this to the administrator.", a.missing.join(", "))}
            </p>
        }
        .into_any()
    };
    view! {
        <h2 id="numbers-heading">{format!("Citation numbers of {}", a.year)}</h2>
        {balance}
        <dl class="facts">
            <dt>"Citations standing"</dt><dd data-testid="numbers-issued">{a.standing()}</dd>
            <dt>"Void"</dt><dd data-testid="numbers-voided">{a.void_total()}
                <span class="hint">{format!(
                    " ({} citation(s) voided, {} number(s) voided on submission)",
                    a.voided_citations, a.voided
                )}</span></dd>
            <dt>"Returned unused"</dt><dd data-testid="numbers-returned">{a.returned}</dd>
            <dt>"Reserved on phones"</dt><dd data-testid="numbers-reserved">{a.reserved}</dd>
        </dl>
        {(!a.reserved_runs.is_empty()).then(|| view! {
            <h3>"Reserved on officers' phones"</h3>
            <ul>
                {a.reserved_runs.into_iter().map(|r| view! {
                    <li>{format!("{} · {} numbers, {} to {} · usable until {}", r.officer, r.count, r.first, r.last, r.use_until_text)}</li>
                }).collect_view()}
            </ul>
        })}
        {(!a.voids.is_empty()).then(|| view! {
            <h3>"Voids, newest first"</h3>
            <ul>
                {a.voids.into_iter().map(|v| {
                    let what = if v.citation { "citation voided" } else { "voided on submission" };
                    let by = if v.by.is_empty() { String::new() } else { format!(" by {}", v.by) };
                    view! {
                        <li data-testid="numbers-void"><strong>{v.number}</strong>
                            {format!(" · {what} {}{by} · {}", v.at_text, v.reason)}</li>
                    }
                }).collect_view()}
            </ul>
        })}
    }
}
