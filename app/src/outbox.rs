//! Reports waiting to reach the server, kept on the phone until the server has
//! them. A report goes in the outbox before the first attempt to send; it leaves
//! only when the server acknowledges it (a receipt) or refuses it for good (a
//! validation error the officer must fix). No signal, a dropped response or an
//! expired sign-in just leave it there for the next try; the server stores a
//! retried report once (same `incident_id`).

use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::api::incidents::submit_incident;
use crate::client;
use crate::error::AppError;
use crate::model::incident::{IncidentReport, Receipt};

/// What is kept on the phone, per officer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Queue {
    pub pending: Vec<IncidentReport>,
    /// The last receipts, newest last, so the officer can see numbers after a reload.
    pub receipts: Vec<Receipt>,
    /// Reports the server refused, with why; they stay until the officer fixes them.
    pub rejected: Vec<(IncidentReport, AppError)>,
}

impl Queue {
    /// Reads a queue saved on this phone. A report queued by the app before each
    /// person had their own facts (and not yet sent) is not lost, nor sent as it
    /// is — the server would refuse it: it comes back as a refused report, each
    /// person given the incident's answers, for the officer to check and send.
    pub fn load(json: &str) -> Option<Queue> {
        use crate::model::first_version::{is_first_version, to_current, FirstReport};
        #[derive(Deserialize)]
        struct Saved {
            pending: Vec<serde_json::Value>,
            receipts: Vec<Receipt>,
            rejected: Vec<(serde_json::Value, AppError)>,
        }
        let saved: Saved = serde_json::from_str(json).ok()?;
        let mut queue = Queue {
            receipts: saved.receipts,
            ..Queue::default()
        };
        let first_version = || {
            AppError::invalid(
                "request",
                format!(
                    "Not sent yet: {}.",
                    crate::model::incident::FIRST_VERSION_REFUSED
                ),
            )
        };
        for value in saved.pending {
            if is_first_version(&value) {
                let first: FirstReport = serde_json::from_value(value).ok()?;
                queue.rejected.push((to_current(&first), first_version()));
            } else {
                queue.pending.push(serde_json::from_value(value).ok()?);
            }
        }
        for (value, error) in saved.rejected {
            if is_first_version(&value) {
                let first: FirstReport = serde_json::from_value(value).ok()?;
                queue.rejected.push((to_current(&first), first_version()));
            } else {
                queue
                    .rejected
                    .push((serde_json::from_value(value).ok()?, error));
            }
        }
        Some(queue)
    }
}

const KEEP_RECEIPTS: usize = 20;

/// How the last attempt to send went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendState {
    Idle,
    Sending,
    /// No connection: will try again when the signal returns.
    Offline,
    /// The session ended: reports wait until the officer signs in again.
    SignInNeeded,
    /// The server had a problem; will try again.
    Retrying,
}

#[derive(Debug, Clone, Copy)]
pub struct Outbox {
    user: RwSignal<Option<String>>,
    pub queue: RwSignal<Queue>,
    pub state: RwSignal<SendState>,
}

pub fn provide_outbox() {
    provide_context(Outbox {
        user: RwSignal::new(None),
        queue: RwSignal::new(Queue::default()),
        state: RwSignal::new(SendState::Idle),
    });
}

pub fn use_outbox() -> Outbox {
    expect_context::<Outbox>()
}

fn key(user: &str) -> String {
    format!("wells.outbox.{user}")
}

impl Outbox {
    /// Loads the signed-in officer's queue from the phone.
    pub fn attach(&self, username: &str) {
        if self.user.get_untracked().as_deref() == Some(username) {
            return;
        }
        self.user.set(Some(username.to_owned()));
        self.queue.set(
            client::load_text(&key(username))
                .and_then(|text| Queue::load(&text))
                .unwrap_or_default(),
        );
    }

    fn persist(&self) {
        if let Some(user) = self.user.get_untracked() {
            self.queue.with_untracked(|q| client::save(&key(&user), q));
        }
    }

    /// Puts a report in the outbox (replacing an earlier copy with the same id).
    pub fn enqueue(&self, report: IncidentReport) {
        self.queue.update(|q| {
            q.pending.retain(|p| p.incident_id != report.incident_id);
            q.rejected
                .retain(|(p, _)| p.incident_id != report.incident_id);
            q.pending.push(report);
        });
        self.persist();
    }

    pub fn is_pending(&self, id: Uuid) -> bool {
        self.queue
            .with(|q| q.pending.iter().any(|p| p.incident_id == id))
    }

    pub fn receipt_for(&self, id: Uuid) -> Option<Receipt> {
        self.queue.with(|q| {
            q.receipts
                .iter()
                .rev()
                .find(|r| r.incident_id == id)
                .cloned()
        })
    }

    pub fn rejection_for(&self, id: Uuid) -> Option<AppError> {
        self.queue.with(|q| {
            q.rejected
                .iter()
                .find(|(p, _)| p.incident_id == id)
                .map(|(_, e)| e.clone())
        })
    }

    /// Sends every waiting report, oldest first, until one cannot go.
    pub async fn flush(self) {
        if self.state.get_untracked() == SendState::Sending {
            return;
        }
        loop {
            let Some(next) = self.queue.with_untracked(|q| q.pending.first().cloned()) else {
                self.state.set(SendState::Idle);
                return;
            };
            self.state.set(SendState::Sending);
            let id = next.incident_id;
            match submit_incident(next.clone()).await {
                Ok(receipt) => self.queue.update(|q| {
                    q.pending.retain(|p| p.incident_id != id);
                    q.receipts.push(receipt);
                    let extra = q.receipts.len().saturating_sub(KEEP_RECEIPTS);
                    q.receipts.drain(..extra);
                }),
                Err(AppError::Unreachable) => {
                    self.state.set(SendState::Offline);
                    return;
                }
                Err(AppError::Unauthenticated) => {
                    self.state.set(SendState::SignInNeeded);
                    return;
                }
                Err(AppError::Internal | AppError::RateLimited) => {
                    self.state.set(SendState::Retrying);
                    return;
                }
                Err(refused) => self.queue.update(|q| {
                    q.pending.retain(|p| p.incident_id != id);
                    q.rejected.retain(|(p, _)| p.incident_id != id);
                    q.rejected.push((next, refused));
                }),
            }
            self.persist();
        }
    }
}

/// Keeps sending in the background for the signed-in officer: at start, when the
/// phone comes back online, and every 20 seconds while anything waits.
#[component]
pub fn OutboxSender(username: String) -> impl IntoView {
    let outbox = use_outbox();
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        outbox.attach(&username);
        leptos::task::spawn_local(outbox.flush());
        let online = window_event_listener(leptos::ev::online, move |_| {
            leptos::task::spawn_local(outbox.flush());
        });
        let timer = set_interval_with_handle(
            move || {
                let waiting = outbox.queue.with_untracked(|q| !q.pending.is_empty());
                if waiting && client::online() {
                    leptos::task::spawn_local(outbox.flush());
                }
            },
            std::time::Duration::from_secs(20),
        )
        .ok();
        on_cleanup(move || {
            online.remove();
            if let Some(t) = timer {
                t.clear();
            }
        });
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = (username, outbox);
}
