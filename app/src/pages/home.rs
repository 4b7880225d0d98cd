use leptos::prelude::*;
use leptos_meta::Title;

/// The start page: what this system is, and where each user goes.
#[component]
pub fn HomePage() -> impl IntoView {
    view! {
        <Title text="Start"/>
        <section class="panel">
            <h1>"Loitering enforcement log"</h1>
            <p>
                "Records of Town of Wells Code Chapter 52, Article I: loitering (§52-1), "
                "obstructing streets and sidewalks (§52-2) and disturbing the peace (§52-3)."
            </p>
        </section>
    }
}
