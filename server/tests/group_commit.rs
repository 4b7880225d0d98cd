//! The group commit (`app/store/src/group_commit.rs`) on its own: many writes
//! share one commit, each answered with its own outcome. Runs on the engine of
//! the pass (`WELLS_TEST_BACKEND`): on SQLite the one write connection is what
//! writes wait for, on PostgreSQL the write lock every server takes first.

mod support;

use std::future::Future;
use std::time::Duration;

use app::error::AppError;
use app::store::db::Tx;
use app::store::Store;

use support::postgres;

/// A store on the pass's engine with a table of its own to write to. The
/// database (or folder) goes with the returned guard.
async fn scratch() -> (Store, Option<postgres::Database>, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("tempdir");
    let (store, database) = support::open_store(dir.path(), postgres::wanted()).await;
    sqlx::query("CREATE TABLE scratch (n BIGINT NOT NULL)")
        .execute(&store.writer)
        .await
        .expect("table");
    (store, database, dir)
}

/// A write that inserts `n`, then fails if `fail` (after writing).
fn insert(store: &Store, n: i64, fail: bool) -> impl Future<Output = Result<i64, AppError>> {
    let group = store.group.clone();
    async move {
        group
            .write(move |batch| {
                Box::pin(async move {
                    sqlx::query("INSERT INTO scratch (n) VALUES ($1)")
                        .bind(n)
                        .execute(&mut *batch.conn)
                        .await?;
                    if fail {
                        return Err(AppError::conflict("refused after writing"));
                    }
                    Ok(n)
                })
            })
            .await
    }
}

async fn stored(store: &Store) -> Vec<i64> {
    sqlx::query_scalar("SELECT n FROM scratch ORDER BY n")
        .fetch_all(&store.reader)
        .await
        .expect("rows")
}

/// Queues `writes` while another write transaction holds the store's write lock,
/// so they all wait and go into one batch once it is let go (after the one write
/// the writer had already taken).
async fn one_batch<T: Send + 'static>(
    store: &Store,
    writes: Vec<tokio::task::JoinHandle<T>>,
    held: Tx,
) -> Vec<T> {
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = store.group.tally();
    held.rollback().await.expect("let go");
    let mut out = Vec::new();
    for w in writes {
        out.push(w.await.expect("task"));
    }
    let after = store.group.tally();
    assert!(after.0 - before.0 <= 2, "the queued writes shared a commit");
    out
}

#[tokio::test]
async fn a_refused_write_is_rolled_back_alone_and_the_rest_of_its_batch_commits() {
    let (store, _database, _dir) = scratch().await;
    let held = store.begin_write().await.expect("hold the write lock");
    let writes = (1..=5)
        .map(|n| tokio::spawn(insert(&store, n, n == 3)))
        .collect();
    let answers = one_batch(&store, writes, held).await;
    assert_eq!(answers[0], Ok(1));
    assert_eq!(answers[1], Ok(2));
    assert_eq!(answers[2], Err(AppError::conflict("refused after writing")));
    assert_eq!(answers[4], Ok(5));
    assert_eq!(stored(&store).await, vec![1, 2, 4, 5]);
}

#[tokio::test]
async fn a_write_that_panics_is_refused_and_the_writer_goes_on() {
    let (store, _database, _dir) = scratch().await;
    let held = store.begin_write().await.expect("hold the write lock");
    let group = store.group.clone();
    let panicking = tokio::spawn(async move {
        group
            .write(|batch| {
                Box::pin(async move {
                    sqlx::query("INSERT INTO scratch (n) VALUES (99)")
                        .execute(&mut *batch.conn)
                        .await?;
                    panic!("a bug in a write");
                    #[allow(unreachable_code)]
                    Ok(())
                })
            })
            .await
    });
    let after = tokio::spawn(insert(&store, 7, false));
    tokio::time::sleep(Duration::from_millis(200)).await;
    held.rollback().await.expect("let go");
    assert_eq!(panicking.await.expect("task"), Err(AppError::Internal));
    assert_eq!(after.await.expect("task"), Ok(7));
    assert_eq!(insert(&store, 8, false).await, Ok(8));
    assert_eq!(stored(&store).await, vec![7, 8]);
}

#[tokio::test]
async fn concurrent_writes_are_each_answered_and_share_commits() {
    let (store, _database, _dir) = scratch().await;
    let writes: Vec<_> = (0..200)
        .map(|n| tokio::spawn(insert(&store, n, false)))
        .collect();
    for (n, w) in writes.into_iter().enumerate() {
        assert_eq!(w.await.expect("task"), Ok(n as i64));
    }
    assert_eq!(stored(&store).await, (0..200).collect::<Vec<_>>());
    let (commits, writes) = store.group.tally();
    assert_eq!(writes, 200);
    assert!(commits < writes, "{commits} commits for {writes} writes");
}
