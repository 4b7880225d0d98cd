//! A destructive or closing action asks once, saying what it will do, before it
//! acts (issue #16: approve, void, disable and a changed disposition used to act
//! on one click).

use leptos::prelude::*;

/// A button that, pressed, shows what will happen and asks to go on. `question`
/// is read when the button is pressed, so it can name the current state.
#[component]
pub fn Confirm(
    /// The button's words ("Approve").
    label: &'static str,
    /// What will happen, in a sentence.
    question: Signal<String>,
    /// The confirming button's words ("Yes, approve").
    yes: &'static str,
    on_confirm: Callback<()>,
    #[prop(optional, into)] disabled: Signal<bool>,
    /// `data-testid` of the first button; the confirming one gets `-confirm`.
    testid: &'static str,
    #[prop(default = "")] class: &'static str,
) -> impl IntoView {
    let asking = RwSignal::new(false);
    let confirm_id = format!("{testid}-confirm");
    view! {
        <Show when=move || asking.get() fallback=move || view! {
            <button type="button" class=class data-testid=testid disabled=move || disabled.get()
                on:click=move |_| asking.set(true)>{label}</button>
        }>
            <div class="confirm" role="group" aria-label=label>
                <p role="status">{move || question.get()}</p>
                <button type="button" class=class data-testid=confirm_id.clone() disabled=move || disabled.get()
                    on:click=move |_| { asking.set(false); on_confirm.run(()); }>{yes}</button>
                <button type="button" class="secondary" on:click=move |_| asking.set(false)>"Cancel"</button>
            </div>
        </Show>
    }
}
