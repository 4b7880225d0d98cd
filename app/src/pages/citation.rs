use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::access::Permission;
use crate::api::incidents::citation_copy;
use crate::components::session::Guard;
use crate::model::citation::CitationDocument;
use crate::model::incident::CitationStatus;

/// A citation on screen, laid out to print as the subject's copy.
#[component]
pub fn CitationPage() -> impl IntoView {
    view! {
        <Title text="Citation"/>
        <Guard permission=Permission::ViewCitations>
            <CitationView/>
        </Guard>
    }
}

#[component]
fn CitationView() -> impl IntoView {
    let params = use_params_map();
    let number = move || params.with(|p| p.get("number")).unwrap_or_default();
    let doc = Resource::new(number, citation_copy);
    view! {
        <Suspense fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match doc.await {
                    Ok(d) => view! { <Summons doc=d/> }.into_any(),
                    Err(e) => view! { <section class="panel"><crate::components::load_error::LoadError error=e heading="Citation"/></section> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The subject's copy: this person's conduct, the order they received and
/// their response — never the officer's account of the whole incident, which
/// names the others (issue #17). `on_phone`: made on the officer's phone
/// without signal (no server PDF; the browser prints or saves it as a PDF).
#[component]
pub fn Summons(doc: CitationDocument, #[prop(optional)] on_phone: bool) -> impl IntoView {
    let pdf = format!("/citations/{}/pdf", doc.number);
    let print = move |_| {
        #[cfg(feature = "hydrate")]
        let _ = window().print();
    };
    let pdf_link =
        (!on_phone).then(|| view! { <a class="button" href=pdf.clone() rel="external">"PDF"</a> });
    // Web Share (#35): the PDF to the phone's share sheet, where it has one,
    // fetched first so the tap opens the sheet at once (a phone shares only
    // from the tap itself). No button until it is ready.
    let ready = RwSignal::new_local(None::<crate::client::ShareFile>);
    let shared = RwSignal::new(None::<Result<(), String>>);
    if !on_phone {
        let (url, name) = (pdf, format!("{}.pdf", doc.number));
        let title = format!("Summons {}", doc.number);
        Effect::new(move |_| {
            if !crate::client::can_share() {
                return;
            }
            let (url, name, title) = (url.clone(), name.clone(), title.clone());
            leptos::task::spawn_local(async move {
                // Not shareable here (no signal, no file sharing): no button;
                // PDF and Print remain.
                if let Ok(file) = crate::client::share_file(&url, &name, &title).await {
                    ready.set(Some(file));
                }
            });
        });
    }
    let share = move |_| {
        if let Some(file) = ready.get_untracked() {
            let sharing = crate::client::share(&file);
            leptos::task::spawn_local(async move { shared.set(Some(sharing.await)) });
        }
    };
    let share_button = view! {
        <Show when=move || ready.with(Option::is_some)>
            <button type="button" class="secondary" data-testid="share-copy" on:click=share>"Share"</button>
        </Show>
    };
    let print_label = if on_phone {
        "Print or save as PDF"
    } else {
        "Print"
    };
    let void =
        (doc.status == CitationStatus::Void).then(|| doc.void_reason.clone().unwrap_or_default());
    view! {
        <article class="summons">
            <p class="summons-kicker">"Town of Wells Police Department · State of Maine"</p>
            <h1>"Uniform Summons and Complaint"</h1>
            <p class="citation-number" data-testid="citation-number">{doc.number.clone()}</p>
            {void.map(|reason| view! { <p class="notice bad">"VOID — " {reason}</p> })}
            <div class="actions no-print">
                {pdf_link}
                {share_button}
                <button type="button" class="secondary" on:click=print>{print_label}</button>
            </div>
            {move || shared.get().and_then(Result::err).map(|e| view! { <p class="notice bad no-print" role="alert">{e}</p> })}
            <dl class="facts">
                <dt>"Status"</dt><dd>{doc.status.label()}</dd>
                <dt>"Issued"</dt><dd>{doc.issued_at_text.clone()}</dd>
            </dl>
            <h2>"Defendant"</h2>
            <dl class="facts">
                <dt>"Name"</dt><dd>{doc.subject_name.clone()}</dd>
                {doc.subject_date_of_birth.clone().map(|d| view! { <dt>"Date of birth"</dt><dd>{d}</dd> })}
                {doc.subject_address.clone().map(|a| view! { <dt>"Address"</dt><dd>{a}</dd> })}
                {doc.subject_id_document.clone().map(|a| view! { <dt>"Identification"</dt><dd>{a}</dd> })}
            </dl>
            <h2>"Violation"</h2>
            <dl class="facts">
                <dt>"Date and time"</dt><dd>{doc.occurred_at_text.clone()}</dd>
                <dt>"Place"</dt><dd>{format!("{} ({})", doc.location, doc.place)}</dd>
                <dt>"Offence"</dt><dd>{format!("Town of Wells Code {} — {}", doc.offence_reference, doc.offence_title)}</dd>
                {doc.order_words.clone().map(|w| view! { <dt>"Order given"</dt><dd>"“" {w} "”"</dd> })}
                {doc.order_given_text.clone().map(|w| view! { <dt>"Order"</dt><dd>{w}</dd> })}
                {doc.refusal_text.clone().map(|w| view! { <dt>"Failed or refused"</dt><dd>{w}</dd> })}
            </dl>
            <ul>{doc.violation.iter().map(|l| view! { <li>{l.clone()}</li> }).collect_view()}</ul>
            <h2>"Penalty"</h2>
            // The amount once: the penalty statement names the fine and the costs (§52-4).
            <p data-testid="citation-penalty"><strong>{doc.fine_text.clone()}</strong>
                {doc.penalty_statement.strip_prefix(doc.fine_text.as_str()).map_or_else(
                    || format!(" — {}", doc.penalty_statement),
                    str::to_owned,
                )}</p>
            {doc.arrest.then(|| view! { <p><strong>"§52-2: arrested, to be brought before the District Court."</strong></p> })}
            {(doc.arrest_permitted && !doc.arrest).then(|| view! { <p>"§52-2: no arrest — summoned to answer in court."</p> })}
            <h2>"Court"</h2>
            <dl class="facts">
                <dt>"Court"</dt><dd>{doc.court_name.clone()}</dd>
                <dt>"Address"</dt><dd>{doc.court_address.clone()}</dd>
                <dt>"Appear or answer by"</dt><dd>{doc.appearance_date.clone()}</dd>
            </dl>
            <h2>"Officer"</h2>
            <dl class="facts">
                <dt>"Officer"</dt><dd>{doc.officer_name.clone()}</dd>
                <dt>"Badge"</dt><dd>{doc.officer_badge.clone()}</dd>
            </dl>
            <p class="signature">"Defendant's signature (optional — signing is not an admission): ______________________"</p>
            <p class="hint">{format!("To be filed with the court within {} days of issuance (by {}).", crate::ordinance::FILING_DAYS, doc.filing_deadline)}</p>
        </article>
    }
}
