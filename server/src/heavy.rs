//! Work that keeps a core busy for a while — a report or permit PDF, a summons,
//! a dashboard table, the court's export — runs off the request threads, a few at
//! a time (issue #39).
//!
//! On the request threads such work held every other request behind it: an
//! officer's submission waited for a clerk's export. On tokio's blocking pool
//! alone it would not wait, but fifty PDFs at once would take fifty threads on two
//! cores, and a sign-in's password hash (which also runs there, deliberately
//! slow) would wait behind them. So documents go through one gate: at most
//! [`Heavy::permits`] at a time, one per core, the rest queue; password hashing
//! does not pass the gate. And each person runs at most [`EXPORTS_PER_USER`]
//! exports at once: a clerk who presses "Export" five times gets the first two
//! and is told to wait for them (409: it conflicts with their own running
//! exports).

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Mutex, OnceLock};

use app::error::AppError;
use tokio::sync::Semaphore;
use uuid::Uuid;

/// Exports and documents one person may have running at once.
pub const EXPORTS_PER_USER: usize = 2;

/// The gate, sized once per process (one permit per core).
pub struct Heavy {
    gate: Semaphore,
    permits: usize,
    running: Mutex<HashMap<Uuid, usize>>,
}

impl Heavy {
    /// The process's gate, sized by the cores available.
    pub fn get() -> &'static Heavy {
        static HEAVY: OnceLock<Heavy> = OnceLock::new();
        HEAVY.get_or_init(|| {
            let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
            Heavy::new(cores)
        })
    }

    pub fn new(permits: usize) -> Heavy {
        Heavy {
            gate: Semaphore::new(permits.max(1)),
            permits: permits.max(1),
            running: Mutex::new(HashMap::new()),
        }
    }

    /// How many heavy jobs run at once.
    pub fn permits(&self) -> usize {
        self.permits
    }

    /// Runs `work` (synchronous, CPU-bound) on the blocking pool once a permit is
    /// free.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AppError> {
        let _permit = self.gate.acquire().await.map_err(|_| AppError::Internal)?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|_| AppError::Internal)
    }

    /// Runs `work` (asynchronous: it reads the database as it writes) on a task of
    /// its own once a permit is free, counted against `user`'s exports.
    pub async fn export<T: Send + 'static>(
        &'static self,
        user: Uuid,
        work: impl Future<Output = Result<T, AppError>> + Send + 'static,
    ) -> Result<T, AppError> {
        let _turn = self.turn_of(user)?;
        let _permit = self.gate.acquire().await.map_err(|_| AppError::Internal)?;
        tokio::spawn(work).await.map_err(|_| AppError::Internal)?
    }

    /// `user`'s turn, refused while they already run [`EXPORTS_PER_USER`].
    fn turn_of(&self, user: Uuid) -> Result<Turn<'_>, AppError> {
        let mut running = self.running.lock().map_err(|_| AppError::Internal)?;
        let mine = running.entry(user).or_insert(0);
        if *mine >= EXPORTS_PER_USER {
            return Err(AppError::Conflict {
                message: format!(
                    "{EXPORTS_PER_USER} of your exports are still being made: wait for them to \
                     finish, then ask again."
                ),
            });
        }
        *mine += 1;
        Ok(Turn { heavy: self, user })
    }
}

/// One running export of a person; ends their turn when dropped, whatever
/// became of the export.
struct Turn<'a> {
    heavy: &'a Heavy,
    user: Uuid,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        if let Ok(mut running) = self.heavy.running.lock() {
            if let Some(mine) = running.get_mut(&self.user) {
                *mine -= 1;
                if *mine == 0 {
                    running.remove(&self.user);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_more_than_the_permits_run_at_once() {
        let heavy = Arc::new(Heavy::new(2));
        let now = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let jobs: Vec<_> = (0..8)
            .map(|_| {
                let (heavy, now, most) = (heavy.clone(), now.clone(), most.clone());
                tokio::spawn(async move {
                    heavy
                        .run(move || {
                            let running = now.fetch_add(1, Ordering::SeqCst) + 1;
                            most.fetch_max(running, Ordering::SeqCst);
                            std::thread::sleep(Duration::from_millis(30));
                            now.fetch_sub(1, Ordering::SeqCst);
                        })
                        .await
                })
            })
            .collect();
        for job in jobs {
            job.await.expect("joined").expect("ran");
        }
        assert_eq!(most.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_person_runs_two_exports_at_once_and_is_told_to_wait_for_a_third() {
        let heavy: &'static Heavy = Box::leak(Box::new(Heavy::new(4)));
        let clerk = Uuid::now_v7();
        let (release, hold) = tokio::sync::watch::channel(false);
        let slow = |mut hold: tokio::sync::watch::Receiver<bool>| async move {
            let _ = hold.wait_for(|go| *go).await;
            Ok::<_, AppError>(())
        };
        let first = tokio::spawn(heavy.export(clerk, slow(hold.clone())));
        let second = tokio::spawn(heavy.export(clerk, slow(hold.clone())));
        tokio::time::sleep(Duration::from_millis(50)).await;
        let third = heavy.export(clerk, slow(hold.clone())).await;
        assert!(
            matches!(&third, Err(AppError::Conflict { message }) if message.contains("wait")),
            "{third:?}"
        );
        // Another person is not held up by the first one's exports.
        let other = heavy.export(Uuid::now_v7(), async { Ok(7) }).await;
        assert_eq!(other.ok(), Some(7));
        release.send(true).expect("release");
        first.await.expect("joined").expect("first");
        second.await.expect("joined").expect("second");
        // Once they are done, the clerk may export again.
        assert!(heavy.export(clerk, async { Ok(()) }).await.is_ok());
    }
}
