//! The officer's own signature for summonses (issue #20): drawn once, printed on
//! the officer's line of every summons issued after; those issued before keep
//! the one they were issued with.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::access::Permission;
use crate::api::signatures::{my_signature, save_signature};
use crate::components::load_error::LoadError;
use crate::components::session::{hydrated, Guard};
use crate::components::signature_pad::SignaturePad;
use crate::model::signature::{Signature, HEIGHT, WIDTH};

#[component]
pub fn SignaturePage() -> impl IntoView {
    view! {
        <Title text="My signature"/>
        <Guard permission=Permission::RecordIncidents>
            <SignatureForm/>
        </Guard>
    }
}

#[component]
fn SignatureForm() -> impl IntoView {
    let on_file = Resource::new(|| (), |_| my_signature());
    let strokes = RwSignal::new(Vec::new());
    let ready = hydrated();
    let save = Action::new(move |_: &()| {
        let signature = Signature {
            strokes: strokes.get_untracked(),
        };
        async move { save_signature(signature).await }
    });
    Effect::new(move |_| {
        if matches!(save.value().get(), Some(Ok(()))) {
            strokes.set(Vec::new());
            on_file.refetch();
        }
    });
    let error = move || {
        save.value()
            .get()
            .and_then(Result::err)
            .map(|e| e.to_string())
    };
    view! {
        <section class="panel narrow">
            <h1>"My signature"</h1>
            <p>"Printed on the officer's line of each summons you issue from now on. Summonses already issued keep the signature they were issued with."</p>
            <Suspense fallback=|| view! { <p class="hint">"Loading…"</p> }>
                {move || Suspend::new(async move { match on_file.await {
                    Ok(Some(signature)) => view! {
                        <p class="subhead">"On file"</p>
                        <SignatureDrawing signature label="Your signature on file"/>
                    }.into_any(),
                    Ok(None) => view! {
                        <p class="notice warn" role="status" data-testid="no-signature">
                            "No signature on file: your summonses print with a blank officer's line."
                        </p>
                    }.into_any(),
                    Err(error) => view! { <LoadError error/> }.into_any(),
                }})}
            </Suspense>
            <SignaturePad label="Sign here with your finger".to_owned() strokes testid="officer-signature"/>
            <p class="error-text" role="alert">{error}</p>
            <Show when=move || matches!(save.value().get(), Some(Ok(())))>
                <p class="notice ok" role="status">"Saved. Summonses you issue from now on carry it."</p>
            </Show>
            <div class="actions">
                <button type="button" on:click=move |_| { save.dispatch(()); }
                    disabled=move || !ready.get() || save.pending().get() || strokes.with(Vec::is_empty)>
                    "Save signature"
                </button>
            </div>
        </section>
    }
}

/// A signature as an inline drawing (SVG: no image request, and nothing the
/// page's content policy refuses).
#[component]
pub fn SignatureDrawing(signature: Signature, label: &'static str) -> impl IntoView {
    let lines = signature
        .strokes
        .iter()
        .filter(|s| !s.is_empty())
        .map(|stroke| {
            let points = stroke
                .iter()
                .map(|[x, y]| format!("{x},{y}"))
                .collect::<Vec<_>>()
                .join(" ");
            view! {
                <polyline points=points fill="none" stroke="currentColor" stroke-width="6"
                    stroke-linecap="round" stroke-linejoin="round"/>
            }
        })
        .collect_view();
    view! {
        <svg class="signature-drawing" viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="img" aria-label=label>
            {lines}
        </svg>
    }
}
