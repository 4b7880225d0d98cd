//! Reports waiting to reach the server, kept on the phone until the server has
//! them. A report goes in the outbox before the first attempt to send; it leaves
//! only when the server acknowledges it (a receipt) or refuses it for good (a
//! validation error the officer must fix). No signal, a dropped response or an
//! expired sign-in just leave it there for the next try; the server stores a
//! retried report once (same `incident_id`).
//!
//! It also holds the officer's block of citation numbers (issue #17): a person
//! the rules cite gets the next number of the block the moment the report is
//! queued, signal or not, with a subject's copy printed from this phone. All of
//! it is kept in IndexedDB (`phone_store`), moved there from localStorage once.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::ordinance::Moment;

use crate::api::incidents::submit_incident;
use crate::api::numbers::{give_back_numbers, reserve_numbers};
use crate::client;
use crate::error::AppError;
use crate::model::citation::{subject_copy, CitationDocument};
use crate::model::incident::{IncidentReport, Receipt};
use crate::model::numbers::{HandedNumber, NumberBlock};
use crate::phone_store;

/// What is kept on the phone, per officer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Queue {
    pub pending: Vec<IncidentReport>,
    /// The last receipts, newest last, so the officer can see numbers after a reload.
    pub receipts: Vec<Receipt>,
    /// Reports the server refused, with why; they stay until the officer fixes them.
    pub rejected: Vec<(IncidentReport, AppError)>,
    /// Subject's copies of the citations numbered on this phone, newest last.
    pub copies: Vec<PhoneCopy>,
    /// Photos waiting to be sent (issue #20), each once its report is in; their
    /// JPEGs are kept under `photo_key`.
    pub photos: Vec<QueuedPhoto>,
    /// Photos the server refused for good, with why: kept on the phone, never
    /// dropped unseen.
    pub refused_photos: Vec<(QueuedPhoto, String)>,
}

/// A photo in line to be sent, and the incident it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueuedPhoto {
    pub incident_id: Uuid,
    pub photo_id: Uuid,
}

/// A subject's copy made on the phone when it gave out the number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhoneCopy {
    pub incident_id: Uuid,
    pub subject_id: Uuid,
    pub doc: CitationDocument,
}

/// The block of numbers this phone holds for the officer, and the next one to
/// give out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Held {
    pub block: NumberBlock,
    pub next: i64,
}

impl Held {
    pub fn left(&self) -> i64 {
        self.block.last_seq + 1 - self.next
    }

    /// The block with its next number past every one of its numbers the queue
    /// already gave out, whatever the last write managed to save.
    fn past(mut self, queue: &Queue) -> Held {
        let given = queue
            .pending
            .iter()
            .chain(queue.rejected.iter().map(|(r, _)| r))
            .flat_map(|r| r.numbers.iter().map(|n| n.number.as_str()))
            .chain(queue.copies.iter().map(|c| c.doc.number.as_str()));
        for number in given {
            if let Some((year, seq)) = crate::model::numbers::parse_number(number) {
                if self.block.contains(year, seq) && seq >= self.next {
                    self.next = seq + 1;
                }
            }
        }
        self
    }
}

/// A block is replaced while there is signal once it has fewer numbers than
/// this left, or less than an hour of use: an officer leaving for the beach
/// should not run out there.
const TOP_UP_BELOW: i64 = 3;
const TOP_UP_BEFORE_MS: i64 = 3_600_000;
const KEEP_COPIES: usize = 50;

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
            #[serde(default)]
            copies: Vec<PhoneCopy>,
            #[serde(default)]
            photos: Vec<QueuedPhoto>,
            #[serde(default)]
            refused_photos: Vec<(QueuedPhoto, String)>,
        }
        let saved: Saved = serde_json::from_str(json).ok()?;
        let mut queue = Queue {
            receipts: saved.receipts,
            copies: saved.copies,
            photos: saved.photos,
            refused_photos: saved.refused_photos,
            ..Queue::default()
        };
        let first_version = || {
            AppError::invalid(
                "request",
                format!(
                    "Not sent yet: {}.",
                    crate::model::first_version::FIRST_VERSION_REFUSED
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
    /// The officer's queue and block have been read from the phone.
    pub loaded: RwSignal<bool>,
    pub queue: RwSignal<Queue>,
    pub held: RwSignal<Option<Held>>,
    /// The server gave no block: the officer holds the most allowed, on
    /// other phones (`model::numbers::MAX_OPEN_BLOCKS`).
    pub all_held: RwSignal<bool>,
    pub state: RwSignal<SendState>,
}

pub fn provide_outbox() {
    provide_context(Outbox {
        user: RwSignal::new(None),
        loaded: RwSignal::new(false),
        queue: RwSignal::new(Queue::default()),
        held: RwSignal::new(None),
        all_held: RwSignal::new(false),
        state: RwSignal::new(SendState::Idle),
    });
}

pub fn use_outbox() -> Outbox {
    expect_context::<Outbox>()
}

/// Where each officer's things are kept: IndexedDB keys, and the localStorage
/// key the queue had before.
fn queue_key(user: &str) -> String {
    format!("outbox.{user}")
}
fn old_queue_key(user: &str) -> String {
    format!("wells.outbox.{user}")
}
fn numbers_key(user: &str) -> String {
    format!("numbers.{user}")
}

impl Outbox {
    /// Loads the signed-in officer's queue and block from the phone, then
    /// sends what waits and tops the block up.
    pub fn attach(&self, username: &str) {
        if self.user.get_untracked().as_deref() == Some(username) {
            return;
        }
        self.user.set(Some(username.to_owned()));
        self.loaded.set(false);
        let (this, user) = (*self, username.to_owned());
        leptos::task::spawn_local(async move {
            let queue = phone_store::get_or_move(&queue_key(&user), &old_queue_key(&user))
                .await
                .and_then(|text| Queue::load(&text))
                .unwrap_or_default();
            let held = phone_store::get(&numbers_key(&user))
                .await
                .and_then(|text| serde_json::from_str(&text).ok());
            if this.user.get_untracked().as_deref() != Some(user.as_str()) {
                return;
            }
            let held = held.map(|h: Held| h.past(&queue));
            this.queue.set(queue);
            this.held.set(held);
            this.loaded.set(true);
            this.flush().await;
            this.top_up().await;
        });
    }

    /// Writes the queue and the block to the phone; true once on its disk.
    async fn save(&self) -> bool {
        let Some(user) = self.user.get_untracked() else {
            return false;
        };
        let queue = self.queue.get_untracked();
        let held = self.held.get_untracked();
        // The block first: a phone stopped between the two writes then has
        // its next number past the one in the queue (a number skipped, which
        // returns with the block), never before it (a number given twice).
        // `attach` also moves `next` past every number the queue holds.
        phone_store::put(&numbers_key(&user), &held).await
            && phone_store::put(&queue_key(&user), &queue).await
    }

    /// Puts a report in the outbox (replacing an earlier copy with the same
    /// id), giving each person the rules cite the next number of the block.
    /// Returns once the report is on the phone's disk (false if it could not
    /// be written: the officer must not leave the page believing it saved).
    pub async fn enqueue(&self, report: IncidentReport, photos: &[Uuid]) -> bool {
        let (report, copies) = self.hand_out(report);
        self.queue.update(|q| {
            for photo_id in photos {
                if !q.photos.iter().any(|p| p.photo_id == *photo_id) {
                    q.photos.push(QueuedPhoto {
                        incident_id: report.incident_id,
                        photo_id: *photo_id,
                    });
                }
            }
            q.pending.retain(|p| p.incident_id != report.incident_id);
            q.rejected
                .retain(|(p, _)| p.incident_id != report.incident_id);
            q.copies.retain(|c| c.incident_id != report.incident_id);
            q.copies.extend(copies);
            let extra = q.copies.len().saturating_sub(KEEP_COPIES);
            q.copies.drain(..extra);
            q.pending.push(report);
        });
        self.save().await
    }

    /// Numbers the report's citations from the block, as far as it goes (the
    /// server numbers the rest when the report reaches it). A report sent again
    /// after a refusal never keeps its old numbers: the server voided them.
    fn hand_out(&self, mut report: IncidentReport) -> (IncidentReport, Vec<PhoneCopy>) {
        report.numbers.clear();
        let now = client::now();
        let Ok(verdicts) = crate::model::incident::check(&report, now) else {
            return (report, Vec::new());
        };
        let mut held = self.held.get_untracked();
        let Some(h) = held.as_mut().filter(|h| h.block.usable(now)) else {
            return (report, Vec::new());
        };
        for (subject, verdict) in report.subjects.iter().zip(&verdicts) {
            let Ok(outcome) = verdict.outcome else {
                continue;
            };
            for offence in subject.cited_offences(outcome) {
                if h.left() <= 0 {
                    break;
                }
                report.numbers.push(HandedNumber {
                    subject_id: subject.subject_id,
                    offence,
                    number: h.block.number(h.next),
                });
                h.next += 1;
            }
        }
        let copies = report
            .numbers
            .iter()
            .filter_map(|n| {
                let doc = subject_copy(
                    &report,
                    n.subject_id,
                    n.offence,
                    &n.number,
                    &h.block,
                    now,
                    &client::TownTime {
                        zone: &h.block.town_zone,
                    },
                )?;
                Some(PhoneCopy {
                    incident_id: report.incident_id,
                    subject_id: n.subject_id,
                    doc,
                })
            })
            .collect();
        self.held.set(held);
        (report, copies)
    }

    /// The subject's copies made on this phone for a report.
    pub fn copies_for(&self, id: Uuid) -> Vec<PhoneCopy> {
        self.queue.with(|q| {
            q.copies
                .iter()
                .filter(|c| c.incident_id == id)
                .cloned()
                .collect()
        })
    }

    /// Takes a new block while there is signal, when the one held is nearly
    /// used up or about to end; the old one's unused numbers go back.
    pub async fn top_up(self) {
        let now = client::now();
        let needed = self.held.with_untracked(|held| {
            held.as_ref().is_none_or(|h| {
                h.left() < TOP_UP_BELOW || !h.block.usable(Moment(now.0 + TOP_UP_BEFORE_MS))
            })
        });
        if !needed || !self.loaded.get_untracked() || !client::online() {
            return;
        }
        let block = match reserve_numbers().await {
            Ok(Some(block)) => block,
            Ok(None) => {
                self.all_held.set(true);
                return;
            }
            Err(_) => return,
        };
        self.all_held.set(false);
        let next = block.first_seq;
        let old = self
            .held
            .try_update(|h| h.replace(Held { block, next }))
            .flatten();
        // The old block goes back only once the new one is on the phone's
        // disk: a reload must never bring back a block the server took back.
        if self.save().await {
            if let Some(old) = old {
                self.give_back(old).await;
            }
        }
    }

    /// Gives the server back the numbers of `old` not handed out; those handed
    /// out for reports still waiting stay reserved until the reports arrive.
    async fn give_back(&self, old: Held) -> bool {
        let keep: Vec<String> = self.queue.with_untracked(|q| {
            q.pending
                .iter()
                .chain(q.rejected.iter().map(|(r, _)| r))
                .flat_map(|r| r.numbers.iter().map(|n| n.number.clone()))
                .collect()
        });
        give_back_numbers(old.block.block_id, keep).await.is_ok()
    }

    /// At sign-out: the block goes back to the server (while there is signal;
    /// otherwise it stays on the phone for this officer's next sign-in).
    pub async fn before_sign_out(self) {
        let Some(held) = self.held.get_untracked() else {
            return;
        };
        if self.give_back(held).await {
            self.held.set(None);
            self.save().await;
        }
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

    /// A report the server refused, as it was sent.
    pub fn refused_report(&self, id: Uuid) -> Option<IncidentReport> {
        self.queue.with_untracked(|q| {
            q.rejected
                .iter()
                .find(|(p, _)| p.incident_id == id)
                .map(|(p, _)| p.clone())
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
        if self.state.get_untracked() == SendState::Sending || !self.loaded.get_untracked() {
            return;
        }
        loop {
            let Some(next) = self.queue.with_untracked(|q| q.pending.first().cloned()) else {
                // Sending, so a second flush (the timer, the signal returning) waits.
                self.state.set(SendState::Sending);
                let state = self.send_photos().await;
                self.state.set(state);
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
                Err(
                    AppError::PasswordChangeRequired
                    | AppError::SecondFactorRequired
                    | AppError::SignInRefused,
                ) => {
                    self.state.set(SendState::SignInNeeded);
                    return;
                }
                // Only a refusal of the report itself (the server voided its
                // numbers) moves it to "refused"; anything else may pass later.
                Err(other) if !other.is_final() => {
                    self.state.set(SendState::Retrying);
                    return;
                }
                Err(refused) => self.queue.update(|q| {
                    q.pending.retain(|p| p.incident_id != id);
                    q.rejected.retain(|(p, _)| p.incident_id != id);
                    q.rejected.push((next, refused));
                }),
            }
            self.save().await;
        }
    }
}

impl Outbox {
    /// Sends the photos whose reports the server has (a report refused or not
    /// yet sent keeps its photos waiting), one at a time, each forgotten by the
    /// phone only once the server has it.
    async fn send_photos(&self) -> SendState {
        #[cfg(feature = "hydrate")]
        loop {
            use crate::components::photos::{upload, NotSent};
            let next = self.queue.with_untracked(|q| {
                q.photos
                    .iter()
                    .find(|p| {
                        !q.pending.iter().any(|r| r.incident_id == p.incident_id)
                            && !q
                                .rejected
                                .iter()
                                .any(|(r, _)| r.incident_id == p.incident_id)
                    })
                    .copied()
            });
            let Some(next) = next else {
                return SendState::Idle;
            };
            let key = crate::phone_store::photo_key(next.photo_id);
            let jpeg = phone_store::get(&key)
                .await
                .and_then(|text| serde_json::from_str::<String>(&text).ok());
            // Not read (IndexedDB refused this time): tried again later, never
            // given up on.
            let sent = match &jpeg {
                Some(url) => upload(next.incident_id, next.photo_id, url).await,
                None => Err(NotSent::Later),
            };
            match sent {
                Ok(()) => {
                    self.queue.update(|q| q.photos.retain(|p| *p != next));
                    if self.save().await {
                        phone_store::delete(&key).await;
                    }
                }
                Err(NotSent::Offline) => return SendState::Offline,
                Err(NotSent::SignIn) => return SendState::SignInNeeded,
                Err(NotSent::Later) => return SendState::Retrying,
                Err(NotSent::Refused(why)) => {
                    self.queue.update(|q| {
                        q.photos.retain(|p| *p != next);
                        q.refused_photos.push((next, why));
                    });
                    self.save().await;
                }
            }
        }
        #[cfg(not(feature = "hydrate"))]
        SendState::Idle
    }
}

/// Keeps sending in the background for the signed-in officer: at start, when the
/// phone comes back online (then also topping the block of numbers up), and
/// every 20 seconds while anything waits.
#[component]
pub fn OutboxSender(username: String) -> impl IntoView {
    let outbox = use_outbox();
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        outbox.attach(&username);
        let online = window_event_listener(leptos::ev::online, move |_| {
            leptos::task::spawn_local(async move {
                outbox.flush().await;
                outbox.top_up().await;
            });
        });
        let timer = set_interval_with_handle(
            move || {
                let waiting = outbox
                    .queue
                    .with_untracked(|q| !q.pending.is_empty() || !q.photos.is_empty());
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
