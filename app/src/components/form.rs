//! Form pieces: a labelled field that shows its own error, and the error list.

use leptos::prelude::*;

use crate::error::AppError;

/// Puts the focus on the element `id` once the browser app has drawn it: the
/// input to type in next (the phone opens its keyboard at once), or the control
/// that replaced the one tapped.
pub fn focus_input(id: &'static str) {
    #[cfg(feature = "hydrate")]
    request_animation_frame(move || {
        use wasm_bindgen::JsCast;
        if let Some(input) = document()
            .get_element_by_id(id)
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = input.focus();
        }
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = id;
}

/// The message of `error` for `field`, as a signal.
pub fn field_error(error: Signal<Option<AppError>>, field: &'static str) -> Signal<Option<String>> {
    Signal::derive(move || {
        error.with(|e| {
            e.as_ref()
                .and_then(|e| e.for_field(field).map(str::to_owned))
        })
    })
}

/// A labelled text input bound to `value`, with a hint and its error beneath.
#[component]
pub fn TextField(
    /// The dotted field path the server names in errors; also the input's id.
    name: &'static str,
    label: &'static str,
    value: RwSignal<String>,
    #[prop(optional)] error: Option<Signal<Option<AppError>>>,
    #[prop(default = "text")] kind: &'static str,
    #[prop(optional)] hint: Option<&'static str>,
    #[prop(optional)] autocomplete: Option<&'static str>,
    #[prop(optional)] required: bool,
    #[prop(optional)] inputmode: Option<&'static str>,
) -> impl IntoView {
    let message = error.map(|e| field_error(e, name));
    let has_error = move || message.is_some_and(|m| m.get().is_some());
    let id = name.replace('.', "-");
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    let described = {
        let mut ids = Vec::new();
        if hint.is_some() {
            ids.push(hint_id.clone());
        }
        ids.push(error_id.clone());
        ids.join(" ")
    };
    view! {
        <div class="field">
            <label for=id.clone()>{label}</label>
            {hint.map(|h| view! { <span class="hint" id=hint_id.clone()>{h}</span> })}
            <input
                id=id
                name=name
                type=kind
                bind:value=value
                autocomplete=autocomplete
                inputmode=inputmode
                required=required
                aria-invalid=move || if has_error() { "true" } else { "false" }
                aria-describedby=described
            />
            <span class="error-text" id=error_id>
                {move || message.and_then(|m| m.get())}
            </span>
        </div>
    }
}

/// The errors of a failed request that belong to no field on the page (or all
/// of them, for a summary at the top of the form).
#[component]
pub fn ErrorSummary(error: Signal<Option<AppError>>) -> impl IntoView {
    move || {
        error.get().map(|e| {
            let items = match &e {
                AppError::Invalid { errors } => errors.iter().map(|f| f.message.clone()).collect(),
                other => vec![other.to_string()],
            };
            view! {
                <div class="notice bad" role="alert">
                    <strong>"Not saved."</strong>
                    <ul>{items.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul>
                </div>
            }
        })
    }
}

/// One checkbox per role, editing `roles` (account roles; the roles that must use
/// a passkey).
#[component]
pub fn RoleChoices(
    name: &'static str,
    roles: RwSignal<Vec<crate::model::account::Role>>,
) -> impl IntoView {
    crate::model::account::Role::ALL
        .into_iter()
        .map(|role| {
            view! {
                <label class="choice">
                    <input type="checkbox" name=name value=role.code()
                        prop:checked=move || roles.with(|r| r.contains(&role))
                        on:change=move |_| roles.update(|r| {
                            if r.contains(&role) { r.retain(|x| *x != role) } else { r.push(role) }
                        })/>
                    {role.label()}
                </label>
            }
        })
        .collect_view()
}
