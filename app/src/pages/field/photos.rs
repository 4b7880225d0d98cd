//! Photos of the incident on the officer's phone (issue #20): up to ten, from
//! the camera or the gallery, scaled and stripped of their metadata on the phone
//! (`components::photos`), kept on the phone with the draft — through no signal
//! and a reload — and sent by the outbox after the report.

use leptos::prelude::*;
use uuid::Uuid;

use super::draft::Draft;
use crate::model::photo::MAX_PHOTOS;
use crate::phone_store::photo_key;

#[component]
pub fn PhotosOf(draft: RwSignal<Draft>) -> impl IntoView {
    // Each photo's JPEG as a data URL, for its thumbnail.
    let shown: RwSignal<Vec<(Uuid, String)>> = RwSignal::new(Vec::new());
    let problem: RwSignal<Option<String>> = RwSignal::new(None);
    let busy = RwSignal::new(false);
    let count = Memo::new(move |_| draft.with(|d| d.photos.len()));
    #[cfg(feature = "hydrate")]
    let outbox = crate::outbox::use_outbox();

    // The thumbnails of photos the draft already holds (after a reload, or a
    // draft continued), read back from the phone.
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        let ids: Vec<Uuid> = draft.with(|d| d.photos.iter().map(|p| p.photo_id).collect());
        let missing: Vec<Uuid> = shown.with_untracked(|s| {
            ids.iter()
                .filter(|id| !s.iter().any(|(k, _)| k == *id))
                .copied()
                .collect()
        });
        if missing.is_empty() {
            return;
        }
        leptos::task::spawn_local(async move {
            for id in missing {
                let url = crate::phone_store::get(&photo_key(id))
                    .await
                    .and_then(|t| serde_json::from_str::<String>(&t).ok());
                if let Some(url) = url {
                    shown.update(|s| {
                        if !s.iter().any(|(k, _)| *k == id) {
                            s.push((id, url));
                        }
                    });
                }
            }
        });
    });

    let pick = move |ev: leptos::ev::Event| {
        #[cfg(feature = "hydrate")]
        {
            use leptos::wasm_bindgen::JsCast;
            let Some(input) = ev
                .target()
                .and_then(|t| t.dyn_into::<leptos::web_sys::HtmlInputElement>().ok())
            else {
                return;
            };
            let files: Vec<leptos::web_sys::File> = input
                .files()
                .map(|list| (0..list.length()).filter_map(|i| list.get(i)).collect())
                .unwrap_or_default();
            // The same photo may be chosen again after a removal.
            input.set_value("");
            let room = MAX_PHOTOS.saturating_sub(count.get_untracked());
            // The incident the photos are for: a photo still being scaled when the
            // report is sent (or another incident started) must not land elsewhere.
            let incident = draft.with_untracked(|d| d.incident_id);
            problem.set((files.len() > room).then(|| {
                format!(
                    "At most {MAX_PHOTOS} photos per incident: {} not added.",
                    files.len() - room
                )
            }));
            busy.set(true);
            leptos::task::spawn_local(async move {
                for file in files.into_iter().take(room) {
                    match crate::components::photos::prepare(file).await {
                        Ok(_)
                            if draft.with_untracked(|d| d.incident_id) != incident
                                || outbox.is_pending(incident)
                                || outbox.receipt_for(incident).is_some() =>
                        {
                            problem.set(Some(
                                "The report was sent before this photo was ready: the photo was not added."
                                    .to_owned(),
                            ));
                            break;
                        }
                        Ok((url, width, height)) => {
                            let photo_id = crate::client::new_id();
                            if crate::phone_store::put(&photo_key(photo_id), &url).await {
                                shown.update(|s| s.push((photo_id, url)));
                                draft.update(|d| {
                                    d.photos.push(super::draft::PhotoDraft {
                                        photo_id,
                                        width,
                                        height,
                                    })
                                });
                            } else {
                                problem.set(Some(
                                    "This phone could not keep the photo (its storage is full or blocked)."
                                        .to_owned(),
                                ));
                            }
                        }
                        Err(message) => problem.set(Some(message)),
                    }
                }
                busy.set(false);
            });
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = ev;
    };
    let remove = move |photo_id: Uuid| {
        draft.update(|d| d.photos.retain(|p| p.photo_id != photo_id));
        shown.update(|s| s.retain(|(k, _)| *k != photo_id));
        leptos::task::spawn_local(
            async move { crate::phone_store::delete(&photo_key(photo_id)).await },
        );
    };

    view! {
        <div class="incident-photos">
            <label for="incident-photos" class="subhead">"Photos (optional)"</label>
            <p class="hint" id="incident-photos-hint">
                {move || format!(
                    "{} of {MAX_PHOTOS}. The obstruction, the crowd — from the camera or the gallery. \
                     The phone scales each and removes its location data: the incident's own location is the one recorded.",
                    count.get()
                )}
            </p>
            <input id="incident-photos" type="file" accept="image/*" multiple=true
                aria-describedby="incident-photos-hint" on:change=pick
                disabled=move || { busy.get() || count.get() >= MAX_PHOTOS } data-testid="add-photos"/>
            <p class="error-text" role="alert">{move || problem.get()}</p>
            <ul class="photos" data-testid="draft-photos">
                {move || {
                    let photos = draft.with(|d| d.photos.clone());
                    let total = photos.len();
                    photos.into_iter().enumerate().map(|(i, photo)| {
                        let url = shown.with(|s| s.iter().find(|(k, _)| *k == photo.photo_id).map(|(_, u)| u.clone()));
                        let label = format!("Photo {} of {total}", i + 1);
                        view! {
                            <li>
                                {match url {
                                    Some(url) => view! { <img src=url alt=label.clone()/> }.into_any(),
                                    None => view! { <span class="hint">{format!("{label} (loading…)")}</span> }.into_any(),
                                }}
                                <button type="button" class="secondary" on:click=move |_| remove(photo.photo_id)
                                    aria-label=format!("Remove {}", label.to_lowercase())>"Remove"</button>
                            </li>
                        }
                    }).collect_view()
                }}
            </ul>
        </div>
    }
}
