//! Group commit: concurrent write transactions share one commit (on SQLite the
//! one writer's, on PostgreSQL each app server's under the write lock).
//!
//! With `synchronous=FULL` every commit waits for the disk (an fsync of the WAL),
//! and SQLite has one writer, so ten officers submitting at once would wait for ten
//! fsyncs in a row. Instead one task takes the write connection, opens one
//! transaction, runs every write that is waiting, commits once, and only then
//! answers the callers. An answer still means "on disk" — an acknowledged
//! citation is a legal record (DESIGN §4) — only the fsyncs in between are saved.
//!
//! Each write stands or falls alone, as if it were its own transaction: when one
//! fails (or panics), the batch is rolled back, that write is answered with its
//! error, and the others run again from the start in a new transaction. Writes
//! fail rarely (the rules refuse bad reports before they get here), so the
//! common batch pays for no savepoints — on this machine each statement is a
//! round trip of about 70 µs to SQLite's worker thread, and the one writer is
//! what every officer's submission waits for.
//!
//! Writes run one after another, in arrival order, on the one write connection, so
//! the audit chain and the gapless citation numbers (§52-4, DESIGN §3) are appended
//! exactly as before; a write rolled back takes its citation numbers back with it.

use crate::db::{Backend, Conn, Pool};
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use futures_util::FutureExt;

use tokio::sync::{mpsc, oneshot};

use domain::error::AppError;

/// Writes one commit takes at most, so the first of them never waits for an
/// unbounded batch.
const MAX_BATCH: usize = 64;

/// Writes waiting for the writer before a new caller waits to be queued.
const QUEUE: usize = 1_024;

/// What a write is given: the batch's connection, and the audit chain's newest
/// entry as the batch has left it. The batch is one transaction holding
/// SQLite's write lock, so no one else can append between its writes and the
/// head is read once per batch, not once per write.
pub struct Batch<'c> {
    pub conn: &'c mut Conn,
    pub audit: &'c mut Option<crate::audit::Head>,
}

/// The work of one write, in its batch. It may run more than once
/// (after a rollback caused by another write of its batch); only the last run is
/// committed and answered.
pub type WriteFuture<'c, T> = Pin<Box<dyn Future<Output = Result<T, AppError>> + Send + 'c>>;

/// One run of a write in a batch; its future says whether the write stands.
type Attempt =
    Box<dyn for<'c> FnMut(Batch<'c>) -> Pin<Box<dyn Future<Output = bool> + Send + 'c>> + Send>;

/// A queued write with its result type erased.
struct Job {
    attempt: Attempt,
    /// Answers the caller with the last run's result, once the batch's commit
    /// has succeeded (`Ok`) or failed.
    settle: Box<dyn FnOnce(Result<(), AppError>) + Send>,
}

/// The queue to the one writer task. Cheap to clone.
#[derive(Clone)]
pub struct GroupCommit {
    jobs: mpsc::Sender<Job>,
    tally: Arc<Tally>,
}

/// Commits made and writes they carried, since the start.
#[derive(Debug, Default)]
struct Tally {
    commits: AtomicU64,
    writes: AtomicU64,
    /// Batches by size, for `/metrics` (issue #38): at most 1, 2, 4, … writes.
    sizes: [AtomicU64; BATCH_BOUNDS.len()],
}

/// The upper bounds of the batch-size histogram (a batch holds at most
/// `MAX_BATCH` writes).
pub const BATCH_BOUNDS: [u64; 7] = [1, 2, 4, 8, 16, 32, MAX_BATCH as u64];

impl std::fmt::Debug for GroupCommit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupCommit").finish_non_exhaustive()
    }
}

impl GroupCommit {
    /// Starts the writer task on `writer` (a pool of one connection, shared with
    /// the store's other, ungrouped, write transactions).
    pub fn start(writer: Pool, backend: Backend) -> GroupCommit {
        let (jobs, queue) = mpsc::channel(QUEUE);
        let tally = Arc::new(Tally::default());
        let counted = tally.clone();
        // Its own thread and runtime: each of a write's statements is a round trip
        // to SQLite's worker thread, and on the server's shared runtime every
        // one of them waited behind the HTTP tasks to be resumed (measured: the
        // writer, not the disk or the CPU, bounded submissions at ~430/s).
        let spawned = std::thread::Builder::new()
            .name("group-commit".into())
            .spawn(move || {
                match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime.block_on(run(writer, backend, queue, counted)),
                    Err(error) => {
                        tracing::error!(%error, "the group-commit writer could not start")
                    }
                }
            });
        if let Err(error) = spawned {
            tracing::error!(%error, "the group-commit writer thread could not start");
        }
        GroupCommit { jobs, tally }
    }

    /// (commits attempted, writes they carried) since the start.
    pub fn tally(&self) -> (u64, u64) {
        (
            self.tally.commits.load(Ordering::Relaxed),
            self.tally.writes.load(Ordering::Relaxed),
        )
    }

    /// Batches committed, by size: for each of [`BATCH_BOUNDS`], the batches
    /// of at most that many writes and more than the bound before.
    pub fn batch_sizes(&self) -> [u64; BATCH_BOUNDS.len()] {
        self.tally
            .sizes
            .each_ref()
            .map(|n| n.load(Ordering::Relaxed))
    }

    /// Runs `work` in a write transaction and answers once it is committed to
    /// disk. An `Err` from `work` undoes everything it wrote, and nothing else.
    /// `work` may be called again if another write of its batch fails, so it
    /// must do the same each time (build what it writes from what it captured).
    pub async fn write<T, F>(&self, work: F) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: for<'c> Fn(Batch<'c>) -> WriteFuture<'c, T> + Send + 'static,
    {
        let (answer, answered) = oneshot::channel();
        let last = Arc::new(std::sync::Mutex::new(None::<Result<T, AppError>>));
        let kept = last.clone();
        let job = Job {
            attempt: Box::new(move |batch| {
                let run = work(batch);
                let kept = kept.clone();
                Box::pin(async move {
                    let result = run.await;
                    let stands = result.is_ok();
                    if let Ok(mut slot) = kept.lock() {
                        *slot = Some(result);
                    }
                    stands
                })
            }),
            settle: Box::new(move |committed| {
                // No result: the write panicked.
                let result = last
                    .lock()
                    .ok()
                    .and_then(|mut slot| slot.take())
                    .unwrap_or(Err(AppError::Internal));
                // The write's own refusal comes first: it wrote nothing either way.
                let _ = answer.send(result.and_then(|value| committed.map(|()| value)));
            }),
        };
        if self.jobs.send(job).await.is_err() {
            tracing::error!("the group-commit writer has stopped");
            return Err(AppError::Internal);
        }
        // A dropped answer means the batch failed before this write was settled.
        answered.await.map_err(|_| AppError::Internal)?
    }
}

async fn run(writer: Pool, backend: Backend, mut queue: mpsc::Receiver<Job>, tally: Arc<Tally>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while queue.recv_many(&mut batch, MAX_BATCH).await > 0 {
        tally.commits.fetch_add(1, Ordering::Relaxed);
        tally
            .writes
            .fetch_add(batch.len() as u64, Ordering::Relaxed);
        let size = batch.len() as u64;
        if let Some(bucket) = BATCH_BOUNDS.iter().position(|&bound| size <= bound) {
            tally.sizes[bucket].fetch_add(1, Ordering::Relaxed);
        }
        commit(&writer, backend, std::mem::take(&mut batch)).await;
    }
}

/// One transaction for the whole batch. A write that fails is answered and
/// left out, and the rest run again in a new transaction.
async fn commit(writer: &Pool, backend: Backend, mut batch: Vec<Job>) {
    while !batch.is_empty() {
        match attempt(writer, backend, &mut batch).await {
            Ok(None) => {
                for job in batch.drain(..) {
                    (job.settle)(Ok(()));
                }
            }
            Ok(Some(failed)) => {
                // Its refusal (or "internal error" after a panic) is its answer;
                // nothing it wrote was kept.
                (batch.remove(failed).settle)(Ok(()));
            }
            Err(error) => {
                tracing::error!(%error, "a group commit failed; every write in it is refused");
                for job in batch.drain(..) {
                    (job.settle)(Err(AppError::Internal));
                }
            }
        }
    }
}

/// Runs every write of `batch` in one transaction and commits it, or stops at
/// the first write that fails, rolls back, and names it.
async fn attempt(
    writer: &Pool,
    backend: Backend,
    batch: &mut [Job],
) -> Result<Option<usize>, sqlx::Error> {
    let mut tx = crate::db::begin_write(writer, backend).await?;
    let mut head = None;
    for (i, job) in batch.iter_mut().enumerate() {
        let stands = AssertUnwindSafe((job.attempt)(Batch {
            conn: &mut tx,
            audit: &mut head,
        }))
        .catch_unwind()
        .await
        .unwrap_or_else(|_| {
            tracing::error!("a write panicked; its batch is rolled back and run without it");
            false
        });
        if !stands {
            tx.rollback().await?;
            return Ok(Some(i));
        }
    }
    crate::register_text::flush(&mut tx).await?;
    tx.commit().await?;
    Ok(None)
}
