//! What a page shows when its record could not be loaded — and, rendered on the
//! server, the HTTP status that goes with it: a record that is not there (or not
//! the reader's to see) answers 404, not 200 with "Not found." in the page.

use leptos::prelude::*;

use crate::error::AppError;

#[component]
pub fn LoadError(
    error: AppError,
    #[prop(optional)] heading: Option<&'static str>,
) -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(error.status());
    }
    view! {
        {heading.map(|h| view! { <h1>{h}</h1> })}
        <p class="notice bad" role="alert">{error.to_string()}</p>
    }
}
