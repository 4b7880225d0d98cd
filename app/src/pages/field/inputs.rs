//! Inputs sized for a thumb in a glove: whole-row radio buttons and check boxes,
//! large text boxes, "Now" buttons for times. Each shows its own error.

use leptos::prelude::*;

/// The id an input gets from its dotted field path.
pub fn dom_id(field: &str) -> String {
    field.replace('.', "-")
}

/// One of several, as large rows.
#[component]
pub fn Radios<T>(
    /// Field path, also the radio group's name.
    name: String,
    legend: String,
    options: Vec<(T, String)>,
    selected: Signal<Option<T>>,
    on_change: Callback<T>,
    #[prop(optional, into)] error: Signal<Option<String>>,
    #[prop(optional)] hint: Option<String>,
    /// Short options, laid out two to a row.
    #[prop(optional)]
    compact: bool,
) -> impl IntoView
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    let id = dom_id(&name);
    let error_id = format!("{id}-error");
    let described = error_id.clone();
    let fieldset_id = id.clone();
    view! {
        <fieldset id=fieldset_id data-field=name.clone() aria-describedby=described class=move || if error.get().is_some() { "invalid" } else { "" }>
            <legend>{legend}</legend>
            {hint.map(|h| view! { <p class="hint">{h}</p> })}
            <div class=if compact { "choices compact" } else { "choices" }>
                {options.into_iter().enumerate().map(|(i, (value, label))| {
                    let name = name.clone();
                    let input_id = format!("{id}-{i}");
                    let label_for = input_id.clone();
                    view! {
                        <label class="choice" for=label_for>
                            <input
                                type="radio"
                                id=input_id
                                name=name
                                prop:checked=move || selected.get() == Some(value)
                                on:change=move |_| on_change.run(value)
                            />
                            <span>{label}</span>
                        </label>
                    }
                }).collect_view()}
            </div>
            <p class="error-text" id=error_id>{move || error.get()}</p>
        </fieldset>
    }
}

/// A yes/no question as one large row.
#[component]
pub fn Check(
    id: String,
    label: String,
    checked: Signal<bool>,
    on_change: Callback<bool>,
) -> impl IntoView {
    let label_for = id.clone();
    view! {
        <label class="choice" for=label_for>
            <input
                type="checkbox"
                id=id
                prop:checked=move || checked.get()
                on:change=move |ev| on_change.run(event_target_checked(&ev))
            />
            <span>{label}</span>
        </label>
    }
}

/// A labelled text input (or text area).
#[component]
pub fn Text(
    /// Field path; the input's id is derived from it.
    field: String,
    label: String,
    value: Signal<String>,
    on_input: Callback<String>,
    #[prop(optional, into)] error: Signal<Option<String>>,
    #[prop(default = "text")] kind: &'static str,
    #[prop(optional)] hint: Option<String>,
    #[prop(optional)] autocomplete: Option<&'static str>,
    #[prop(optional)] inputmode: Option<&'static str>,
    #[prop(optional)] multiline: bool,
    #[prop(optional)] maxlength: Option<usize>,
) -> impl IntoView {
    let id = dom_id(&field);
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    let described = if hint.is_some() {
        format!("{hint_id} {error_id}")
    } else {
        error_id.clone()
    };
    let invalid = move || {
        if error.get().is_some() {
            "true"
        } else {
            "false"
        }
    };
    let input = if multiline {
        view! {
            <textarea
                id=id.clone()
                name=field.clone()
                prop:value=move || value.get()
                on:input=move |ev| on_input.run(event_target_value(&ev))
                aria-invalid=invalid
                aria-describedby=described.clone()
                maxlength=maxlength
            ></textarea>
        }
        .into_any()
    } else {
        view! {
            <input
                id=id.clone()
                name=field.clone()
                type=kind
                prop:value=move || value.get()
                on:input=move |ev| on_input.run(event_target_value(&ev))
                autocomplete=autocomplete
                inputmode=inputmode
                aria-invalid=invalid
                aria-describedby=described.clone()
                maxlength=maxlength
            />
        }
        .into_any()
    };
    view! {
        <div class="field" data-field=field.clone()>
            <label for=id>{label}</label>
            {hint.map(|h| view! { <span class="hint" id=hint_id>{h}</span> })}
            {input}
            <span class="error-text" id=error_id>{move || error.get()}</span>
        </div>
    }
}

/// A date and time, with a one-tap "Now": the minute it is tapped, never a
/// time still to come (a legal record states when things happened).
#[component]
pub fn TimeField(
    field: String,
    label: String,
    value: Signal<String>,
    on_input: Callback<String>,
    #[prop(optional, into)] error: Signal<Option<String>>,
    #[prop(optional)] hint: Option<String>,
) -> impl IntoView {
    let id = dom_id(&field);
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    let described = if hint.is_some() {
        format!("{hint_id} {error_id}")
    } else {
        error_id.clone()
    };
    let now_label = format!("Now — {label}");
    let container = field.clone();
    view! {
        <div class="field time" data-field=container>
            <label for=id.clone()>{label}</label>
            {hint.map(|h| view! { <span class="hint" id=hint_id>{h}</span> })}
            <div class="inline">
                <input
                    id=id
                    name=field
                    type="datetime-local"
                    prop:value=move || value.get()
                    on:input=move |ev| on_input.run(event_target_value(&ev))
                    aria-invalid=move || if error.get().is_some() { "true" } else { "false" }
                    aria-describedby=described
                />
                <button type="button" class="secondary now" aria-label=now_label
                    on:click=move |_| on_input.run(crate::client::now_local())>"Now"</button>
            </div>
            <span class="error-text" id=error_id>{move || error.get()}</span>
        </div>
    }
}
