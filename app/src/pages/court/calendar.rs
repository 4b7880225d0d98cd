//! `/court/calendar`: the court clerk's calendar (issue #37, finding 18) — the
//! hearings set from today on, day by day, each citation a link to its page.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::access::Permission;
use crate::api::court::hearing_calendar;
use crate::components::session::Guard;
use crate::model::court::{HearingDay, CALENDAR_LIMIT};

#[component]
pub fn CourtCalendarPage() -> impl IntoView {
    view! {
        <Title text="Hearings calendar"/>
        <Guard permission=Permission::Court>
            <Calendar/>
        </Guard>
    }
}

#[component]
fn Calendar() -> impl IntoView {
    let calendar = Resource::new(|| (), |_| hearing_calendar());
    view! {
        <h1>"Hearings calendar"</h1>
        <p class="hint">"Hearings the District Court set for contested citations, from today on, day by day. "
            "A hearing date is recorded on the citation's page with the court's decision. "
            <a href="/court/register">"Clerk's register"</a></p>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match calendar.await {
                    Err(e) => view! { <p class="notice bad" role="alert">{e.to_string()}</p> }.into_any(),
                    Ok(c) if c.days.is_empty() => view! {
                        <p role="status" data-testid="calendar-empty">{format!("No hearing is set from today ({}) on.", c.today)}</p>
                    }.into_any(),
                    Ok(c) => {
                        let count: usize = c.days.iter().map(|d| d.hearings.len()).sum();
                        view! {
                            <p role="status" data-testid="calendar-count">{match count {
                                1 => "1 hearing from today on.".to_owned(),
                                n if n >= CALENDAR_LIMIT => format!("The first {n} hearings from today on."),
                                n => format!("{n} hearings from today on."),
                            }}</p>
                            {c.days.into_iter().map(|day| view! { <Day day today=c.today.clone()/> }).collect_view()}
                        }.into_any()
                    }
                }
            })}
        </Transition>
    }
}

#[component]
fn Day(day: HearingDay, today: String) -> impl IntoView {
    let id = format!("day-{}", day.date);
    let labelled_by = id.clone();
    let heading = if day.date == today {
        format!("Today, {}", day.day_text)
    } else {
        day.day_text.clone()
    };
    view! {
        <section class="panel" aria-labelledby=labelled_by data-testid="calendar-day">
            <h2 id=id>{heading}</h2>
            <ul class="plain">
                {day.hearings.into_iter().map(|h| view! {
                    <li data-testid="hearing">
                        <a href=format!("/court/citations/{}", h.number)><strong>{h.number.clone()}</strong></a>
                        " · " {h.subject} " · " {h.offence.reference()} " " {h.offence.title()}
                        {h.filing_reference.map(|r| view! { " · court no. " {r} })}
                    </li>
                }).collect_view()}
            </ul>
        </section>
    }
}
