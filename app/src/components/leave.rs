//! Signing out, with or without signal (issue #35). With signal: the block of
//! citation numbers goes back, the server ends the session, the pages this
//! phone kept are forgotten. With no signal the phone is signed out at once —
//! the page is put away and this phone owes the server a sign-out — and the
//! server is told when the signal returns (or at the next start with signal),
//! after the reports waiting on the phone are sent: they are the officer's, and
//! nothing acknowledged is lost. Reports waiting are named before signing out.

use leptos::prelude::*;

use crate::api::account::sign_out;
use crate::client;
use crate::components::confirm::Confirm;
use crate::components::session::{go_to, hydrated};
use crate::outbox::Outbox;

/// This phone signed out with no signal: the server is still to be told.
const SIGN_OUT_OWED: &str = "wells.sign_out_owed";

/// Whether the page is put away because the officer signed out on this phone.
#[derive(Clone, Copy)]
pub struct SignedOutHere(pub RwSignal<bool>);

pub fn provide_signed_out_here() -> RwSignal<bool> {
    let out = RwSignal::new(false);
    provide_context(SignedOutHere(out));
    out
}

/// The sign-out button; it asks first when reports wait on this phone.
#[component]
pub fn SignOut(outbox: Outbox) -> impl IntoView {
    let ready = hydrated();
    let out = use_context::<SignedOutHere>().map(|s| s.0);
    let leave = Action::new_local(move |_: &()| async move {
        if !client::online() {
            // The session ends on this phone now; the server hears of it later.
            client::save(SIGN_OUT_OWED, &true);
            if let Some(out) = out {
                out.set(true);
            }
            return;
        }
        finish(outbox).await;
    });
    settle_when_online(outbox, out);
    let waiting = move || outbox.queue.with(|q| q.pending.len());
    let question = Signal::derive(move || {
        let n = waiting();
        // With no signal they go when it returns, before the server hears of
        // the sign-out; with signal (the server would not take them yet) at
        // the next sign-in on this phone.
        let when = if client::online() {
            "when you sign in again on this phone"
        } else {
            "when the signal returns"
        };
        format!(
            "{} on this phone for signal. {} sent {when}. Sign out now?",
            if n == 1 {
                "1 report waits".to_owned()
            } else {
                format!("{n} reports wait")
            },
            if n == 1 { "It is" } else { "They are" },
        )
    });
    let disabled = Signal::derive(move || !ready.get() || leave.pending().get());
    move || {
        if waiting() > 0 {
            view! {
                <Confirm label="Sign out" question yes="Sign out anyway" testid="sign-out" class="secondary"
                    disabled on_confirm=Callback::new(move |()| { leave.dispatch(()); })/>
            }
            .into_any()
        } else {
            view! {
                <button type="button" class="secondary" data-testid="sign-out"
                    on:click=move |_| { leave.dispatch(()); } disabled=move || disabled.get()>
                    "Sign out"
                </button>
            }
            .into_any()
        }
    }
}

/// Signs out with the server: the block goes back while the session still lets
/// the phone say so; whatever the answer, the page stops showing a signed-in state.
async fn finish(outbox: Outbox) {
    outbox.before_sign_out().await;
    // Until the server has heard it, the sign-out is owed (settled at the
    // next start with signal).
    if sign_out().await.is_ok() {
        client::remove(SIGN_OUT_OWED);
    } else {
        client::save(SIGN_OUT_OWED, &true);
    }
    client::forget_cached_pages();
    go_to("/sign-in");
}

/// A sign-out this phone owes: the page stays put away, and once there is
/// signal the waiting reports go and the server is told.
fn settle_when_online(outbox: Outbox, out: Option<RwSignal<bool>>) {
    #[cfg(feature = "hydrate")]
    {
        // Once: a second settle would find the first one's flush under way,
        // skip it, and end the session while the reports are still going.
        let settling = StoredValue::new(false);
        Effect::new(move |_| {
            // Tracks the page's own sign-out too: it may be owed from now on.
            let here = out.is_some_and(|o| o.get());
            if !here && client::load::<bool>(SIGN_OUT_OWED) != Some(true) {
                return;
            }
            if let Some(out) = out.filter(|o| !o.get_untracked()) {
                // This effect runs again for it, and goes on from there.
                out.set(true);
                return;
            }
            let settle = move || {
                if settling.get_value() {
                    return;
                }
                settling.set_value(true);
                leptos::task::spawn_local(async move {
                    outbox.flush().await;
                    finish(outbox).await;
                })
            };
            if client::online() {
                settle();
            }
            let online = window_event_listener(leptos::ev::online, move |_| settle());
            on_cleanup(move || online.remove());
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (outbox, out);
}

/// What the page shows once the officer signed out here with no signal.
#[component]
pub fn SignedOutPanel() -> impl IntoView {
    view! {
        <section class="panel notice warn" role="status" data-testid="signed-out-here">
            <h1>"Signed out on this phone"</h1>
            <p>"No signal: the server is told when the signal returns. Reports waiting on this phone are sent first; nothing recorded is lost."</p>
        </section>
    }
}
