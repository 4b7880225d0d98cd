//! "Scan license" on each identified person (issue #20): the barcode on the back of
//! a US or Canadian license or ID card, read by the phone's camera, by a
//! keyboard-wedge barcode reader or from pasted text, and parsed in Rust
//! (`model::licence`). Nothing fills until the officer has read what the card
//! says and confirmed it; a barcode that is not a card, or is cut short, says so
//! and changes nothing.

use leptos::prelude::*;

use super::inputs::Text;
use crate::model::licence::{self, LicenceScan, ScannedDocument};

#[component]
pub fn ScanLicence(
    /// The person's field path; the barcode box's id is derived from it.
    field: String,
    on_fill: Callback<LicenceScan>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let camera_on = RwSignal::new(false);
    let typed = RwSignal::new(String::new());
    let found: RwSignal<Option<LicenceScan>> = RwSignal::new(None);
    let problem: RwSignal<Option<String>> = RwSignal::new(None);
    let video = NodeRef::<leptos::html::Video>::new();
    // Where focus goes as buttons hide themselves: a keyboard or screen-reader
    // user is never left on a control that vanished.
    let scan_button = NodeRef::<leptos::html::Button>::new();
    let camera_button = NodeRef::<leptos::html::Button>::new();
    let stop_button = NodeRef::<leptos::html::Button>::new();
    let fill_button = NodeRef::<leptos::html::Button>::new();
    // The camera goes off with the panel: a person switched to "not identified",
    // removed, or the page left.
    on_cleanup(crate::components::camera::stop);

    let read = move |text: String| match licence::parse(&text) {
        Ok(card) => {
            found.set(Some(card));
            problem.set(None);
            focus_soon(fill_button);
        }
        Err(error) => {
            found.set(None);
            problem.set(Some(error.to_string()));
        }
    };
    let close = move || {
        crate::components::camera::stop();
        camera_on.set(false);
        open.set(false);
        found.set(None);
        problem.set(None);
        typed.set(String::new());
        focus_soon(scan_button);
    };
    let use_camera = move |_| {
        problem.set(None);
        found.set(None);
        #[cfg(feature = "hydrate")]
        if let Some(video) = video.get() {
            camera_on.set(true);
            focus_soon(stop_button);
            leptos::task::spawn_local(async move {
                let answer = crate::components::camera::read_barcode(video).await;
                camera_on.set(false);
                focus_soon(camera_button);
                match answer {
                    Ok(Some(text)) => read(text),
                    Ok(None) => {}
                    Err(message) => problem.set(Some(message)),
                }
            });
        }
    };
    let stop_camera = move |_| {
        crate::components::camera::stop();
        camera_on.set(false);
        focus_soon(camera_button);
    };
    let fill = move |_| {
        if let Some(card) = found.get_untracked() {
            on_fill.run(card);
            close();
        }
    };
    let again = move |_| {
        found.set(None);
        typed.set(String::new());
    };

    view! {
        <div class="scan-licence">
            <button type="button" class="secondary" hidden=move || open.get() node_ref=scan_button
                on:click=move |_| { open.set(true); focus_soon(camera_button); }
                data-testid="scan-licence">"Scan license"</button>
            <section class="scan-panel" aria-label="Scan license" hidden=move || !open.get()>
                <p class="hint">"The barcode on the back of a US or Canadian license or ID card. Nothing fills until you confirm."</p>
                <video node_ref=video class="scan-video" playsinline=true muted=true
                    aria-label="Camera view" hidden=move || !camera_on.get()></video>
                <div class="actions">
                    <button type="button" on:click=use_camera hidden=move || camera_on.get()
                        node_ref=camera_button data-testid="scan-camera">"Use the camera"</button>
                    <button type="button" class="secondary" on:click=stop_camera
                        node_ref=stop_button hidden=move || !camera_on.get()>"Stop the camera"</button>
                </div>
                <p class="hint" role="status">
                    {move || camera_on.get().then_some("Hold the barcode flat in the frame, in good light.")}
                </p>
                <Text field=format!("{field}.barcode")
                    label="Or a barcode reader's text (or paste it)".into()
                    value=typed.into() on_input=Callback::new(move |v| typed.set(v))
                    multiline=true autocomplete="off" maxlength=licence::MAX_SCAN_CHARS/>
                <div class="actions">
                    <button type="button" class="secondary" on:click=move |_| read(typed.get_untracked())
                        data-testid="scan-read">"Read the text"</button>
                </div>
                <p class="error-text" role="alert" data-testid="scan-problem">{move || problem.get()}</p>
                {move || found.get().map(|card| view! {
                    <CardFound card/>
                    <div class="actions">
                        <button type="button" on:click=fill node_ref=fill_button
                            data-testid="scan-fill">"Fill these details"</button>
                        <button type="button" class="secondary" on:click=again>"Not this card"</button>
                    </div>
                })}
                <div class="actions">
                    <button type="button" class="secondary" on:click=move |_| close()>"Close"</button>
                </div>
            </section>
        </div>
    }
}

/// Moves focus to `button` once the page has drawn the change that shows it.
fn focus_soon(button: NodeRef<leptos::html::Button>) {
    #[cfg(feature = "hydrate")]
    request_animation_frame(move || {
        if let Some(button) = button.get_untracked() {
            let _ = button.focus();
        }
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = button;
}

/// What the card says, for the officer to compare with the card in hand.
#[component]
fn CardFound(card: LicenceScan) -> impl IntoView {
    let today: String = crate::client::now_local().chars().take(10).collect();
    let document = match card.document {
        ScannedDocument::DriverLicence => "Driver's license",
        ScannedDocument::IdCard => "ID card",
    };
    let issued_by = card
        .state
        .clone()
        .map(|state| format!(" ({state})"))
        .unwrap_or_default();
    let expired = card.expired_on(&today).then(|| {
        format!(
            "Expired on {}: still identification; note it in the narrative if it matters.",
            card.expires.clone().unwrap_or_default()
        )
    });
    let described = [
        card.sex.map(|s| format!("sex {}", s.label())),
        card.height.clone().map(|h| format!("height {h}")),
        card.eyes.clone().map(|e| format!("eyes {e}")),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ");
    view! {
        <div class="notice ok scan-found" role="status" data-testid="scan-found">
            <p><strong>"The card says — check it against the card:"</strong></p>
            <dl class="facts">
                <dt>"Name"</dt><dd>{card.full_name()}</dd>
                <dt>"Date of birth"</dt><dd>{card.date_of_birth.clone()}</dd>
                <dt>"Address"</dt><dd>{card.address()}</dd>
                <dt>{document}</dt><dd>{format!("{}{issued_by}", card.number)}</dd>
                <dt>"Expires"</dt><dd>{card.expires.clone().unwrap_or_else(|| "not given".to_owned())}</dd>
                {(!described.is_empty()).then(|| view! { <dt>"On the card"</dt><dd>{described}</dd> })}
            </dl>
            {expired.map(|text| view! { <p class="notice warn">{text}</p> })}
            <p class="hint">"Your perception below is still yours to record: the card does not fill it."</p>
        </div>
    }
}
