//! Group commit: concurrent write transactions share one SQLite commit.
//!
//! With `synchronous=FULL` every commit waits for the disk (an fsync of the WAL),
//! and SQLite has one writer, so ten officers submitting at once would wait for ten
//! fsyncs in a row. Instead one task takes the write connection, opens one
//! transaction, runs every write that is waiting inside its own savepoint (a write
//! that fails is rolled back alone, exactly as if it had been its own transaction),
//! commits once, and only then answers the callers. An answer still means "on
//! disk" — an acknowledged citation is a legal record (DESIGN §4) — only the fsyncs
//! in between are saved.
//!
//! Writes run one after another, in arrival order, on the one write connection, so
//! the audit chain and the gapless citation counter (§52-4, DESIGN §3) are appended
//! exactly as before; a write rolled back takes its citation numbers back with it.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;

use futures_util::FutureExt;
use sqlx::{Connection, SqliteConnection, SqlitePool};
use tokio::sync::{mpsc, oneshot};

use crate::error::AppError;

/// Writes one commit takes at most, so the first of them never waits for an
/// unbounded batch. Under the heaviest load measured (8 clients) batches held 3–8.
const MAX_BATCH: usize = 64;

/// Writes waiting for the writer before a new caller waits to be queued.
const QUEUE: usize = 1_024;

/// The work of one write, on the batch's connection inside its savepoint.
pub type WriteFuture<'c, T> = Pin<Box<dyn Future<Output = Result<T, AppError>> + Send + 'c>>;

/// Answers a caller once the batch's commit has succeeded or failed.
type Settle = Box<dyn FnOnce(Result<(), AppError>) + Send>;

/// A queued write, its result type erased: whether it stands, and how to answer.
type Job = Box<
    dyn for<'c> FnOnce(
            &'c mut SqliteConnection,
        ) -> Pin<Box<dyn Future<Output = (bool, Settle)> + Send + 'c>>
        + Send,
>;

/// The queue to the one writer task. Cheap to clone.
#[derive(Clone)]
pub struct GroupCommit {
    jobs: mpsc::Sender<Job>,
}

impl std::fmt::Debug for GroupCommit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupCommit").finish_non_exhaustive()
    }
}

impl GroupCommit {
    /// Starts the writer task on `writer` (a pool of one connection, shared with
    /// the store's other, ungrouped, write transactions).
    pub fn start(writer: SqlitePool) -> GroupCommit {
        let (jobs, queue) = mpsc::channel(QUEUE);
        tokio::spawn(run(writer, queue));
        GroupCommit { jobs }
    }

    /// Runs `work` in a write transaction and answers once it is committed to
    /// disk. An `Err` from `work` undoes everything it wrote, and nothing else.
    pub async fn write<T, F>(&self, work: F) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut SqliteConnection) -> WriteFuture<'c, T> + Send + 'static,
    {
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move |conn| {
            Box::pin(async move {
                let result = work(conn).await;
                let stands = result.is_ok();
                let settle: Settle = Box::new(move |committed| {
                    // The write's own refusal comes first: it wrote nothing either way.
                    let _ = answer.send(result.and_then(|value| committed.map(|()| value)));
                });
                (stands, settle)
            })
        });
        if self.jobs.send(job).await.is_err() {
            tracing::error!("the group-commit writer has stopped");
            return Err(AppError::Internal);
        }
        // A dropped answer means the batch failed before this write was settled.
        answered.await.map_err(|_| AppError::Internal)?
    }
}

async fn run(writer: SqlitePool, mut queue: mpsc::Receiver<Job>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while queue.recv_many(&mut batch, MAX_BATCH).await > 0 {
        commit(&writer, std::mem::take(&mut batch)).await;
    }
}

/// One transaction for the whole batch, one savepoint per write.
async fn commit(writer: &SqlitePool, batch: Vec<Job>) {
    let mut settled: Vec<Settle> = Vec::with_capacity(batch.len());
    let outcome: Result<(), sqlx::Error> = async {
        let mut tx = writer.begin_with("BEGIN IMMEDIATE").await?;
        for job in batch {
            let mut savepoint = Connection::begin(&mut *tx).await?;
            match AssertUnwindSafe(job(&mut savepoint)).catch_unwind().await {
                Ok((true, settle)) => {
                    savepoint.commit().await?;
                    settled.push(settle);
                }
                Ok((false, settle)) => {
                    savepoint.rollback().await?;
                    settled.push(settle);
                }
                // The caller's answer went with the panic; it hears "internal error".
                Err(_) => {
                    tracing::error!("a write panicked; its savepoint is rolled back");
                    savepoint.rollback().await?;
                }
            }
        }
        tx.commit().await
    }
    .await;
    let committed = outcome.map_err(|error| {
        // Writes not yet run when this happened are dropped with the batch, and
        // their callers hear "internal error" too; nothing of the batch is stored.
        tracing::error!(%error, "a group commit failed; every write in it is refused");
        AppError::Internal
    });
    for settle in settled {
        settle(committed.clone());
    }
}
