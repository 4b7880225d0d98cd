use leptos::prelude::*;
use leptos_meta::Title;

/// Shown for any path the router does not know; the server answers it with 404.
#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::NOT_FOUND);
    }
    view! {
        <Title text="Page not found"/>
        <section class="panel">
            <h1>"Page not found"</h1>
            <p>"There is no page at this address."</p>
            <p><a href="/">"Go to the start page"</a></p>
        </section>
    }
}
