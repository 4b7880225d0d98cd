//! The hang harness (issue #39): many pages rendered at once by the real server on
//! a multi-threaded runtime, each with a deadline; a page not answered by its
//! deadline is a hang, and the harness says so instead of waiting for ever.
//!
//! Every page of the app has two Suspense boundaries over the signed-in user's
//! resource (the header's menu and the page's guard), and the desk's pages add
//! their own resources inside them: the shape that deadlocked inside
//! reactive_graph 0.2 when one render's tasks ran on two threads at once
//! (`server::render`). The server renders on render threads of its own; this
//! test must find no hang.
//!
//! Bounded in time and count: `WELLS_HANG_SECONDS` (default 20) of renders by
//! `WELLS_HANG_CLIENTS` (default 12) clients, each page given
//! `WELLS_HANG_DEADLINE_SECONDS` (default 20). `make bench` runs it for ten
//! minutes. `WELLS_HANG_UNCONFINED=1` renders on the request threads instead (a
//! debug build's test option): the arrangement that hung, for the record.

mod wire;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use wire::{env_u64, Server};

/// Pages that combine Suspense boundaries and shared resources: the start page,
/// the officer's, the chief's, the permit register.
const PAGES: &[&str] = &[
    "/",
    "/field/new",
    "/field/reports",
    "/review",
    "/register",
    "/register?page=2",
    "/dashboard",
    "/permits",
    "/account/signature",
];

#[derive(Default)]
struct Tally {
    answered: AtomicU64,
    hangs: AtomicU64,
    failed: AtomicU64,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_renders_on_every_core_never_hang() {
    let seconds = env_u64("WELLS_HANG_SECONDS", 20);
    let clients = env_u64("WELLS_HANG_CLIENTS", 12);
    let deadline = Duration::from_secs(env_u64("WELLS_HANG_DEADLINE_SECONDS", 20));
    let unconfined = std::env::var("WELLS_HANG_UNCONFINED").is_ok_and(|v| v == "1");

    let dir = tempfile::tempdir().expect("temp dir");
    let mut server = Server::new(
        std::path::Path::new(env!("CARGO_BIN_EXE_server")),
        dir.path(),
    );
    // The chief's pages have something to show: a year of incidents.
    let seeded = server.cli(&["seed", "--incidents", "300", "--seed", "39"], "");
    assert!(
        seeded.status.success(),
        "seed: {}",
        String::from_utf8_lossy(&seeded.stderr)
    );
    server.add_user("deskofficer", &["officer", "chief"]);
    let mut settings = vec![("WELLS_WORKER_THREADS", "4"), ("WELLS_RENDER_THREADS", "2")];
    if unconfined {
        settings.push(("WELLS_TEST_UNCONFINED_RENDERS", "true"));
    }
    server.start_with(&settings).await;
    let client = server.client();
    let cookie = client.sign_in("deskofficer").await;

    let tally = Arc::new(Tally::default());
    let started = Instant::now();
    let until = started + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..clients)
        .map(|n| {
            let (client, cookie, tally) = (client.clone(), cookie.clone(), tally.clone());
            tokio::spawn(async move {
                let mut page = n as usize;
                while Instant::now() < until {
                    let path = PAGES[page % PAGES.len()];
                    page += 1;
                    match tokio::time::timeout(deadline, client.get_as(path, &cookie)).await {
                        Ok(Ok(reply)) if reply.status == 200 => {
                            tally.answered.fetch_add(1, Ordering::Relaxed)
                        }
                        Ok(_) => tally.failed.fetch_add(1, Ordering::Relaxed),
                        Err(_) => {
                            // A hung render keeps its worker: stop this client
                            // rather than pile more onto it.
                            tally.hangs.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                    };
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("client");
    }
    let elapsed = started.elapsed().as_secs_f64();
    let answered = tally.answered.load(Ordering::Relaxed);
    let hangs = tally.hangs.load(Ordering::Relaxed);
    let failed = tally.failed.load(Ordering::Relaxed);
    println!(
        "render hang harness ({}): {answered} pages in {elapsed:.0} s ({:.1}/s) by {clients} clients, \
         {hangs} hangs (no answer in {} s), {failed} other failures",
        if unconfined {
            "renders on the request threads"
        } else {
            "render threads"
        },
        answered as f64 / elapsed,
        deadline.as_secs()
    );
    assert_eq!(hangs, 0, "pages not answered within {deadline:?}");
    assert_eq!(failed, 0, "pages answered with another status");
    assert!(answered >= clients, "every client had pages answered");
}
