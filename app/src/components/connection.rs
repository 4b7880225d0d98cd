use leptos::prelude::*;

/// Whether this device can reach the network right now.
///
/// Officers work where the signal comes and goes; the header says plainly whether a
/// submit will go now or wait in the queue. The server cannot know, so the server
/// renders "checking" and the browser fills in the truth once the page hydrates.
/// "Checking…" and "Online" take the same width (style: `.connection`), so the
/// header does not re-wrap, and the page under it does not jump, when it does.
#[component]
pub fn ConnectionStatus() -> impl IntoView {
    let online = RwSignal::new(None::<bool>);

    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        use leptos::ev;
        let read = move || {
            online.set(Some(window().navigator().on_line()));
        };
        read();
        let on = window_event_listener(ev::online, move |_| read());
        let off = window_event_listener(ev::offline, move |_| read());
        on_cleanup(move || {
            on.remove();
            off.remove();
        });
    });

    let label = move || match online.get() {
        None => "Checking…",
        Some(true) => "Online",
        Some(false) => "Offline — submissions will wait",
    };
    let class = move || match online.get() {
        None => "connection",
        Some(true) => "connection online",
        Some(false) => "connection offline",
    };
    view! {
        <span class=class role="status" data-testid="connection">{label}</span>
    }
}
