use leptos::prelude::*;

use crate::components::connection::ConnectionStatus;

/// Header, main area and footer around every page.
#[component]
pub fn Layout(children: Children) -> impl IntoView {
    view! {
        <a class="skip-link" href="#main">"Skip to content"</a>
        <header class="site-header">
            <a class="brand" href="/">"Wells PD · Loitering log"</a>
            <div class="header-status">
                <ConnectionStatus/>
                <span class="who">"Not signed in"</span>
            </div>
        </header>
        <main id="main" tabindex="-1">{children()}</main>
        <footer class="site-footer">
            <p>"Town of Wells Police Department · Code Chapter 52, Article I"</p>
        </footer>
    }
}
