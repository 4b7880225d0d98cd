use leptos::prelude::*;

/// A wide table that scrolls sideways on a phone. The scrolling region takes
/// keyboard focus and has a name, so it can be scrolled without a mouse.
#[component]
pub fn ScrollTable(label: String, children: Children) -> impl IntoView {
    view! {
        <p class="scroll-hint" aria-hidden="true">"Scroll sideways for more →"</p>
        <div class="table-wrap" tabindex="0" role="region" aria-label=label>
            {children()}
        </div>
    }
}
