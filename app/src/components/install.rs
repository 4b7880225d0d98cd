//! "Install app" (issue #15): the browser's own install prompt, offered where
//! the browser has one, and on an iPhone or iPad, whose Safari has none, one
//! line saying how. The prompt's event can fire before the app has started (the
//! WASM loads once the page is idle), so the page's start script keeps it in
//! `window.wellsInstallOffer` and announces it with `wells-install-offer`.

use leptos::prelude::*;

/// Where the start script keeps the browser's offer (see `StartApp` in lib.rs).
#[cfg(feature = "hydrate")]
const OFFER: &str = "wellsInstallOffer";

#[component]
pub fn InstallApp() -> impl IntoView {
    let offered = RwSignal::new(false);
    let ios = RwSignal::new(false);
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        use wasm_bindgen::{closure::Closure, JsCast};
        let Some(window) = web_sys::window() else {
            return;
        };
        let navigator = window.navigator();
        let ua = navigator.user_agent().unwrap_or_default();
        let standalone = js_sys::Reflect::get(&navigator, &"standalone".into())
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        ios.set((ua.contains("iPhone") || ua.contains("iPad")) && !standalone);
        offered.set(pending_offer().is_some());
        let on_offer = Closure::<dyn FnMut()>::new(move || offered.set(pending_offer().is_some()));
        let _ = window.add_event_listener_with_callback(
            "wells-install-offer",
            on_offer.as_ref().unchecked_ref(),
        );
        on_offer.forget();
    });
    let install = move |_| {
        #[cfg(feature = "hydrate")]
        if let Some(offer) = pending_offer() {
            use wasm_bindgen::JsCast;
            if let Ok(prompt) = js_sys::Reflect::get(&offer, &"prompt".into())
                .and_then(|f| f.dyn_into::<js_sys::Function>())
            {
                let _ = prompt.call0(&offer);
            }
            // The browser offers an event's prompt once.
            if let Some(window) = web_sys::window() {
                let _ = js_sys::Reflect::set(&window, &OFFER.into(), &wasm_bindgen::JsValue::NULL);
            }
        }
        offered.set(false);
    };
    view! {
        <Show when=move || offered.get()>
            <p><button type="button" class="secondary" data-testid="install" on:click=install>"Install app"</button></p>
        </Show>
        <Show when=move || ios.get()>
            <p class="hint" data-testid="install-hint">"To install: tap Share, then “Add to Home Screen”."</p>
        </Show>
    }
}

/// The browser's install offer the start script kept, if any.
#[cfg(feature = "hydrate")]
fn pending_offer() -> Option<wasm_bindgen::JsValue> {
    let window = web_sys::window()?;
    js_sys::Reflect::get(&window, &OFFER.into())
        .ok()
        .filter(|v| !v.is_null() && !v.is_undefined())
}
