//! A reason being typed, kept in this browser tab as it is typed (issue #37,
//! finding 12): a session that ends before it is sent (signed out elsewhere, or
//! timed out) loses nothing, and after signing in again the text is back in its
//! field. Kept per user, record and field; forgotten once the decision it was
//! for is recorded.

use leptos::prelude::*;

use crate::client;

/// Where a draft is kept: the user who typed it, the record and the field.
pub fn draft_key(username: &str, record: &str, field: &str) -> String {
    format!("wells.draft.{username}.{record}.{field}")
}

/// Forgets a draft (its decision is recorded).
pub fn forget_draft(key: &str) {
    client::keep_tab_text(key, "");
}

/// A labelled textarea bound to `value` whose text is kept under `key` as it is
/// typed, and put back when the page opens again with the field empty.
#[component]
pub fn DraftText(
    id: String,
    label: String,
    key: String,
    value: RwSignal<String>,
    #[prop(default = 3)] rows: u32,
) -> impl IntoView {
    let key = StoredValue::new(key);
    // In the browser only, after the page is taken over: the server has no draft.
    Effect::new(move |_| {
        if let Some(kept) = key.with_value(|k| client::tab_text(k)) {
            if value.get_untracked().is_empty() {
                value.set(kept);
            }
        }
    });
    view! {
        <div class="field">
            <label for=id.clone()>{label}</label>
            <textarea id=id rows=rows.to_string() prop:value=move || value.get()
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    key.with_value(|k| client::keep_tab_text(k, &text));
                    value.set(text);
                }></textarea>
        </div>
    }
}
