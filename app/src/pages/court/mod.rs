//! The court clerk's screens (issue #7): the filing queue with its exports and
//! "mark filed", the clerk's register, and one citation's dispositions.

pub mod calendar;
pub mod citation;
pub mod register;

use leptos::prelude::*;
use leptos_meta::Title;

use crate::access::Permission;
use crate::api::court::{file_citations, filing_queue, recent_exports};
use crate::components::confirm::Confirm;
use crate::components::session::{hydrated, Guard};
use crate::components::table::ScrollTable;
use crate::model::court::{Filing, FilingRow, Withdrawal};

#[component]
pub fn FilingQueuePage() -> impl IntoView {
    view! {
        <Title text="Filing queue"/>
        <Guard permission=Permission::Court>
            <FilingQueue/>
        </Guard>
    }
}

/// "2 days left", "due today", "overdue by 3 days", with the badge that says how urgent.
fn deadline_words(days_left: i64) -> (&'static str, String) {
    match days_left {
        d if d < 0 => ("badge bad", format!("Overdue by {} day(s)", -d)),
        0 => ("badge bad", "Due today".to_owned()),
        1 => ("badge warn", "1 day left".to_owned()),
        d => ("badge ok", format!("{d} days left")),
    }
}

#[component]
fn FilingQueue() -> impl IntoView {
    let version = RwSignal::new(0u32);
    let rows = Resource::new(move || version.get(), |_| filing_queue());
    let selected = RwSignal::new(Vec::<String>::new());
    // The court's today, as the queue was read: set where the queue is awaited,
    // never read from the resource outside its Transition (issue #39).
    let today = RwSignal::new(None::<String>);
    view! {
        <h1 class="wide">"Filing queue"</h1>
        <p class="hint">{format!("Citations the chief approved, to be filed with the District Court within {} days of issuance. Overdue ones come first.", crate::ordinance::FILING_DAYS)}</p>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let rows = rows.await;
                today.set(rows.as_ref().ok().map(|q| q.today.clone()));
                match rows {
                    Err(e) => view! { <p class="notice bad" role="alert">{e.to_string()}</p> }.into_any(),
                    Ok(queue) if queue.rows.is_empty() => view! {
                        <HeldNotice held=queue.held_unidentified/>
                        <Withdrawals list=queue.withdrawals selected/>
                        <p class="notice ok" role="status" data-testid="queue-empty">"Nothing is waiting to be filed."</p>
                    }.into_any(),
                    Ok(queue) => view! {
                        <HeldNotice held=queue.held_unidentified/>
                        <Withdrawals list=queue.withdrawals.clone() selected/>
                        {(queue.waiting > queue.rows.len() as u64).then(|| view! {
                            <p class="notice warn" role="status" data-testid="queue-more">{format!(
                                "{} citations wait; these are the {} most urgent. File them and the rest follow.",
                                queue.waiting, queue.rows.len(),
                            )}</p>
                        })}
                        <QueueTable list=queue.rows selected/>
                    }.into_any(),
                }
            })}
        </Transition>
        <ExportForms selected/>
        <MarkFiled selected version today=today.into()/>
        <crate::components::number_account::NumberAccountPanel/>
    }
}

#[component]
fn QueueTable(list: Vec<FilingRow>, selected: RwSignal<Vec<String>>) -> impl IntoView {
    let all: Vec<String> = list.iter().map(|r| r.number.clone()).collect();
    let overdue = list.iter().filter(|r| r.days_left < 0).count();
    view! {
        {(overdue > 0).then(|| view! {
            <p class="notice bad" role="alert" data-testid="overdue">{format!("{overdue} citation(s) past the {}-day filing deadline.", crate::ordinance::FILING_DAYS)}</p>
        })}
        <div class="actions">
            <button type="button" class="secondary" on:click=move |_| selected.set(all.clone())>"Select all"</button>
            <button type="button" class="secondary" on:click=move |_| selected.set(Vec::new())>"Select none"</button>
        </div>
        <ScrollTable label="Citations to file".to_owned()>
            <table data-testid="filing-queue">
                <thead><tr>
                    <th scope="col">"File"</th><th scope="col">"Citation"</th><th scope="col">"Defendant"</th>
                    <th scope="col">"Offence"</th><th scope="col">"Issued"</th><th scope="col">"Deadline"</th>
                </tr></thead>
                <tbody>
                    {list.into_iter().map(|r| {
                        let number = r.number.clone();
                        let id = format!("pick-{}", r.number);
                        let (badge, words) = deadline_words(r.days_left);
                        let href = format!("/court/citations/{}", r.number);
                        let checked = {
                            let n = number.clone();
                            move || selected.with(|s| s.contains(&n))
                        };
                        view! {
                            <tr data-testid="filing-row" class:overdue=r.days_left < 0>
                                <td>
                                    <input type="checkbox" id=id.clone() prop:checked=checked
                                        on:change=move |ev| {
                                            let on = event_target_checked(&ev);
                                            selected.update(|s| {
                                                s.retain(|x| *x != number);
                                                if on { s.push(number.clone()); }
                                            });
                                        }/>
                                    <label for=id class="visually-hidden">{format!("Select {}", r.number)}</label>
                                </td>
                                <td><a href=href>{r.number.clone()}</a>
                                    {r.amended.then_some(view! { " " <span class="badge warn">"amended"</span> })}
                                    {r.replaces.clone().map(|old| view! {
                                        <br/><span class="hint" data-testid="replaces">{format!("Replaces {old}, withdrawn")}</span>
                                    })}</td>
                                <td>{r.subject}</td>
                                <td>{r.offence.reference()}</td>
                                <td>{r.issued_text}</td>
                                <td>{r.deadline} " " <span class=badge data-testid="days-left">{words}</span></td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </ScrollTable>
    }
}

/// Approved citations held out of the queue: a summons needs an identified
/// person (issue #33). Said, with why and what clears it.
#[component]
fn HeldNotice(held: u64) -> impl IntoView {
    (held > 0).then(|| {
        view! {
            <p class="notice warn" role="status" data-testid="held-unidentified">{format!(
                "{held} approved citation(s) held out of this queue: the person is not identified, and a summons needs \
                 the person's name and address. They join the queue once the chief amends the report with the identity."
            )}</p>
        }
    })
}

/// Citations the Town withdrew after filing (issue #33), until an export has
/// carried them to the court: each with the chief's reason and the citation
/// that replaces it, selectable for export like the queue's.
#[component]
fn Withdrawals(list: Vec<Withdrawal>, selected: RwSignal<Vec<String>>) -> impl IntoView {
    (!list.is_empty()).then(|| {
        view! {
            <section class="panel" aria-labelledby="withdrawn-heading" data-testid="withdrawals">
                <h2 id="withdrawn-heading">"Withdrawn by the Town — tell the court"</h2>
                <p class="hint">"A chief's amendment after filing changed these citations' person, charge or arrest, or took them away. \
                    The court is asked to dismiss each; export it (it is marked withdrawn, with the reason) and file the replacement."</p>
                <ul class="plain">
                    {list.into_iter().map(|w| {
                        let number = w.number.clone();
                        let id = format!("pick-{}", w.number);
                        let checked = {
                            let n = number.clone();
                            move || selected.with(|s| s.contains(&n))
                        };
                        view! {
                            <li data-testid="withdrawal">
                                <input type="checkbox" id=id.clone() prop:checked=checked
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        selected.update(|s| {
                                            s.retain(|x| *x != number);
                                            if on { s.push(number.clone()); }
                                        });
                                    }/>
                                <label for=id>{format!("Select {}", w.number)}</label>
                                " · " <a href=format!("/court/citations/{}", w.number)>{w.number.clone()}</a>
                                " · " {w.subject} " · " {w.offence.reference()}
                                <br/><span>{format!("Withdrawn {} by {}: {}", w.at_text, w.by, w.reason)}</span>
                                {match w.replaced_by {
                                    Some(n) => view! { <br/><span data-testid="replaced-by">{format!("Replaced by {n}")}</span> }.into_any(),
                                    None => view! { <br/><span>"Not replaced"</span> }.into_any(),
                                }}
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </section>
        }
    })
}

/// Exports are plain form posts, so the browser saves the file the server sends;
/// the list of recent exports below confirms each one once it is recorded.
#[component]
fn ExportForms(selected: RwSignal<Vec<String>>) -> impl IntoView {
    let ready = hydrated();
    let none = move || !ready.get() || selected.with(Vec::is_empty);
    let asked = RwSignal::new(0u32);
    let recent = Resource::new(move || asked.get(), |_| recent_exports());
    // The download starts as the form posts; the batch is listed once recorded.
    let requested = move |_: leptos::ev::SubmitEvent| {
        set_timeout(
            move || asked.update(|n| *n += 1),
            std::time::Duration::from_millis(1500),
        );
    };
    let bom = |id: &'static str| {
        view! {
            <label class="choice" for=id>
                // On unless the clerk turns it off: Excel misreads "§" without
                // it (issue #37, finding 15).
                <input type="checkbox" id=id name="bom" value="1" checked/>
                <span>"CSV for Excel: mark the file as UTF-8 (a byte-order mark), so “§” and “—” read right"</span>
            </label>
        }
    };
    view! {
        <section class="panel" aria-labelledby="export-heading">
            <h2 id="export-heading">"Export for the court"</h2>
            <form method="post" action="/court/export" on:submit=requested>
                <input type="hidden" name="numbers" prop:value=move || selected.get().join(",")/>
                <p role="status">{move || format!("{} citation(s) selected", selected.with(Vec::len))}</p>
                {bom("bom-selected")}
                <div class="actions">
                    <button type="submit" name="format" value="csv" disabled=none data-testid="export-csv">"Export CSV"</button>
                    <button type="submit" name="format" value="pdf" disabled=none data-testid="export-pdf">"Export PDF (summonses and docket)"</button>
                    <button type="submit" name="format" value="json" class="secondary" disabled=none>"Export JSON"</button>
                </div>
            </form>
            <form method="post" action="/court/export" class="desk-filters" on:submit=requested>
                <div class="field">
                    <label for="export-from">"Issued from"</label>
                    <input id="export-from" name="from" type="date" required/>
                </div>
                <div class="field">
                    <label for="export-to">"Issued to"</label>
                    <input id="export-to" name="to" type="date" required/>
                </div>
                {bom("bom-range")}
                <div class="actions">
                    <button type="submit" name="format" value="csv" class="secondary">"Export range as CSV"</button>
                    <button type="submit" name="format" value="pdf" class="secondary">"Export range as PDF"</button>
                    <button type="submit" name="format" value="json" class="secondary" data-testid="export-range-json">"Export range as JSON"</button>
                </div>
            </form>
            <h3>"Recent exports"</h3>
            <Transition fallback=|| ()>
                {move || Suspend::new(async move {
                    match recent.await {
                        Ok(list) if list.is_empty() => view! { <p class="hint">"None yet."</p> }.into_any(),
                        Ok(list) => view! {
                            <ul class="plain" data-testid="recent-exports">
                                {list.into_iter().map(|b| view! {
                                    <li><strong>{b.file}</strong> " · " {b.citations} " citation(s) · " {b.at_text}
                                        " · " {b.by} <br/><span class="hint">"SHA-256 " <code>{b.sha256}</code></span></li>
                                }).collect_view()}
                            </ul>
                        }.into_any(),
                        Err(e) => view! { <p class="notice bad" role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn MarkFiled(
    selected: RwSignal<Vec<String>>,
    version: RwSignal<u32>,
    /// The Town's date once the queue has loaded. Not the browser's: a clerk
    /// whose computer keeps another zone (or UTC) would otherwise default to a
    /// date the Town has not reached, which the server refuses.
    today: Signal<Option<String>>,
) -> impl IntoView {
    // The date the clerk typed; until they type one, the Town's today.
    let typed = RwSignal::new(None::<String>);
    let filed_on = Signal::derive(move || typed.get().or_else(|| today.get()).unwrap_or_default());
    let reference = RwSignal::new(String::new());
    let message = RwSignal::new(None::<(bool, String)>);
    let file = Action::new(move |_: &()| {
        let filing = Filing {
            numbers: selected.get_untracked(),
            filed_on: filed_on.get_untracked(),
            reference: reference.get_untracked(),
        };
        async move {
            let n = filing.numbers.len();
            let numbers = filing.numbers.join(", ");
            match file_citations(filing).await {
                Ok(_) => {
                    message.set(Some((
                        true,
                        format!("{n} citation(s) marked filed: {numbers}."),
                    )));
                    selected.set(Vec::new());
                    version.update(|v| *v += 1);
                }
                Err(e) => message.set(Some((false, e.to_string()))),
            }
        }
    });
    let ready = hydrated();
    view! {
        <section class="panel" aria-labelledby="file-heading">
            <h2 id="file-heading">"Mark filed"</h2>
            <p class="hint">"Once filed, a citation's number, person, offence, arrest and fine are the court's. A chief's amendment of the report shows on the next export as an amended filing; a change to the citation itself withdraws it, and a new citation replaces it."</p>
            {move || message.get().map(|(ok, text)| view! {
                <p class=if ok { "notice ok" } else { "notice bad" } role="status" data-testid="file-result">{text}</p>
            })}
            <div class="desk-filters">
                <div class="field">
                    <label for="filed-on">"Date filed"</label>
                    <input id="filed-on" type="date" prop:max=move || today.get().unwrap_or_default()
                        prop:value=move || filed_on.get()
                        on:input=move |ev| typed.set(Some(event_target_value(&ev)))/>
                </div>
                <div class="field">
                    <label for="filing-reference">"Court's filing reference"</label>
                    <input id="filing-reference" type="text" prop:value=move || reference.get()
                        on:input=move |ev| reference.set(event_target_value(&ev))/>
                </div>
            </div>
            <div class="actions">
                // Filing hands the citations to the court: asked first, with
                // the count and the numbers (issue #37, finding 14).
                <Confirm label="Mark selected filed" yes="Yes, mark them filed" testid="mark-filed"
                    disabled=Signal::derive(move || !ready.get() || selected.with(Vec::is_empty) || file.pending().get())
                    question=Signal::derive(move || selected.with(|numbers| format!(
                        "Mark {} citation(s) filed with the court on {}{}: {}? Their number, person, offence and fine are then the court's.",
                        numbers.len(),
                        filed_on.get(),
                        reference.with(|r| if r.trim().is_empty() { String::new() } else { format!(" (reference {})", r.trim()) }),
                        numbers.join(", ")
                    )))
                    on_confirm=Callback::new(move |()| { file.dispatch(()); })/>
            </div>
        </section>
    }
}
