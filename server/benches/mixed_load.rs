//! `cargo bench -p server --bench mixed_load` (part of `make bench`, issue #39):
//! how the server schedules requests, measured on the one-thread arrangement the
//! server had before (`--worker-threads 1`) and on today's (a worker per core,
//! pages on render threads, documents behind the heavy-work gate), in one run on
//! the same seeded database. A benchmark that reports figures, not a test.
//!
//! For each arrangement:
//! - **pages**: `WELLS_MIXED_CLIENTS` (default 8) clients render the officer's and
//!   the chief's pages for `WELLS_MIXED_SECONDS` (default 20): pages per second;
//! - **submissions**: 8 officers submit reports for as long: submissions per second;
//! - **mixed**: the 8 officers submit while a clerk exports every approved
//!   citation as CSV (100 000 at the default size) again and again and the chief
//!   opens 20 report PDFs, and `/healthz` is asked every 50 ms: the submissions'
//!   p50 / p99 and `/healthz`'s p99.
//!
//! The seeded database (`WELLS_MIXED_INCIDENTS`, default 400 000 incidents) is kept
//! in target/bench/ between runs (seeding takes minutes); each arrangement runs on
//! a copy of it. The Markdown goes to stdout and to target/bench/mixed-load.md.

#[path = "../tests/support/mod.rs"]
mod support;
#[path = "../tests/wire/mod.rs"]
mod wire;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const PAGES: &[&str] = &[
    "/",
    "/field/new",
    "/review",
    "/register",
    "/dashboard",
    "/permits",
];

/// Latencies in milliseconds, sorted.
struct Latencies(Vec<f64>);

impl Latencies {
    fn of(mut ms: Vec<f64>) -> Latencies {
        ms.sort_by(f64::total_cmp);
        Latencies(ms)
    }
    fn at(&self, q: f64) -> f64 {
        let n = self.0.len();
        if n == 0 {
            return f64::NAN;
        }
        self.0[((n as f64 * q) as usize).min(n - 1)]
    }
}

/// The seeded database, made once and kept.
async fn seeded(base: &Path, incidents: u64) -> PathBuf {
    let file = base.join(format!("mixed-{incidents}.db"));
    if file.exists() {
        return file;
    }
    let partial = base.join(format!("mixed-{incidents}.partial.db"));
    let _ = std::fs::remove_file(&partial);
    let store = app::store::Store::open(&partial).await.expect("open");
    let zone = app::town_time::TownZone::named("America/New_York").expect("zone");
    let started = Instant::now();
    let now = app::auth::clock::Clock::now(&app::auth::clock::SystemClock);
    let plan = app::store::seed::SeedPlan {
        incidents,
        seed: 39,
        force: false,
    };
    let done = app::store::seed::seed(&store, &zone, plan, now)
        .await
        .expect("seed");
    sqlx::query("PRAGMA optimize")
        .execute(&store.writer)
        .await
        .expect("optimize");
    eprintln!(
        "seeded {} incidents, {} citations in {:.0} s",
        done.incidents,
        done.citations,
        started.elapsed().as_secs_f64()
    );
    drop(store);
    std::fs::rename(&partial, &file).expect("keep the seeded file");
    file
}

/// Incidents to open as report PDFs.
async fn some_incidents(file: &Path, n: i64) -> Vec<String> {
    let store = app::store::Store::open(file).await.expect("open");
    sqlx::query_scalar("SELECT incident_id FROM incident ORDER BY occurred_at DESC LIMIT $1")
        .bind(n)
        .fetch_all(&store.reader)
        .await
        .expect("incidents")
}

struct Figures {
    pages_per_s: f64,
    page_p99: f64,
    submits_per_s: f64,
    mixed_submits: Latencies,
    mixed_health: Latencies,
    exports: usize,
    exported_lines: usize,
    pdfs: usize,
}

async fn arrangement(
    binary: &Path,
    seeded: &Path,
    dir: &Path,
    settings: &[(&str, &str)],
) -> Figures {
    let seconds = wire::env_u64("WELLS_MIXED_SECONDS", 20);
    let clients = wire::env_u64("WELLS_MIXED_CLIENTS", 8) as usize;
    let database = dir.join("wells.db");
    std::fs::copy(seeded, &database).expect("copy the seeded database");
    let mut server = wire::Server::new(binary, dir);
    server.add_user("mixed-desk", &["officer", "chief", "clerk"]);
    for i in 0..8 {
        server.add_officer(&format!("mixed-{i}"));
    }
    server.start_with(settings).await;
    let client = server.client();
    let desk = client.sign_in("mixed-desk").await;
    let mut officers = Vec::new();
    for i in 0..8 {
        officers.push(client.sign_in(&format!("mixed-{i}")).await);
    }
    let incidents = some_incidents(&database, 20).await;

    // Pages alone.
    let stop = Arc::new(AtomicBool::new(false));
    let page_tasks: Vec<_> = (0..clients)
        .map(|n| {
            let (client, desk, stop) = (client.clone(), desk.clone(), stop.clone());
            tokio::spawn(async move {
                let mut ms = Vec::new();
                let mut i = n;
                while !stop.load(Ordering::Relaxed) {
                    let sent = Instant::now();
                    if let Ok(r) = client.get_as(PAGES[i % PAGES.len()], &desk).await {
                        if r.status == 200 {
                            ms.push(sent.elapsed().as_secs_f64() * 1000.0);
                        }
                    }
                    i += 1;
                }
                ms
            })
        })
        .collect();
    let started = Instant::now();
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    stop.store(true, Ordering::Relaxed);
    let mut pages = Vec::new();
    for t in page_tasks {
        pages.extend(t.await.expect("pages"));
    }
    let pages_per_s = pages.len() as f64 / started.elapsed().as_secs_f64();
    let page_p99 = Latencies::of(pages).at(0.99);

    // Submissions alone, then with the clerk's exports and the chief's PDFs.
    let submit = |stop: Arc<AtomicBool>| {
        officers
            .iter()
            .map(|cookie| {
                let (client, cookie, stop) = (client.clone(), cookie.clone(), stop.clone());
                tokio::spawn(async move {
                    let mut ms = Vec::new();
                    while !stop.load(Ordering::Relaxed) {
                        let body =
                            serde_json::json!({ "report": support::refusal_report(wire::now()) })
                                .to_string();
                        let sent = Instant::now();
                        if let Ok(r) = client
                            .post("/api/incidents/submit", Some(&cookie), &body)
                            .await
                        {
                            if r.status == 200 {
                                ms.push(sent.elapsed().as_secs_f64() * 1000.0);
                            }
                        }
                    }
                    ms
                })
            })
            .collect::<Vec<_>>()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let tasks = submit(stop.clone());
    let started = Instant::now();
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    stop.store(true, Ordering::Relaxed);
    let mut alone = 0usize;
    for t in tasks {
        alone += t.await.expect("submit").len();
    }
    let submits_per_s = alone as f64 / started.elapsed().as_secs_f64();

    let stop = Arc::new(AtomicBool::new(false));
    let tasks = submit(stop.clone());
    let exporter = {
        let (client, desk, stop) = (client.clone(), desk.clone(), stop.clone());
        tokio::spawn(async move {
            let (mut exports, mut lines) = (0, 0);
            while !stop.load(Ordering::Relaxed) {
                let form = "format=csv&from=2000-01-01&to=2099-12-31";
                if let Ok(r) = client.post_form("/court/export", &desk, form).await {
                    if r.status == 200 {
                        exports += 1;
                        lines = r.body.lines().count().saturating_sub(1);
                    }
                }
            }
            (exports, lines)
        })
    };
    let chief = {
        let (client, desk) = (client.clone(), desk.clone());
        tokio::spawn(async move {
            let mut opened = 0;
            for id in incidents {
                if let Ok(r) = client.get_as(&format!("/reports/{id}/pdf"), &desk).await {
                    opened += usize::from(r.status == 200);
                }
            }
            opened
        })
    };
    let health = {
        let (client, stop) = (client.clone(), stop.clone());
        tokio::spawn(async move {
            let mut ms = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let sent = Instant::now();
                if let Ok(r) = client.get("/healthz").await {
                    if r.status == 200 {
                        ms.push(sent.elapsed().as_secs_f64() * 1000.0);
                    }
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            ms
        })
    };
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    stop.store(true, Ordering::Relaxed);
    let mut mixed = Vec::new();
    for t in tasks {
        mixed.extend(t.await.expect("submit"));
    }
    let (exports, exported_lines) = exporter.await.expect("exports");
    let pdfs = chief.await.expect("pdfs");
    let health = health.await.expect("health");
    server.stop();
    Figures {
        pages_per_s,
        page_p99,
        submits_per_s,
        mixed_submits: Latencies::of(mixed),
        mixed_health: Latencies::of(health),
        exports,
        exported_lines,
        pdfs,
    }
}

#[tokio::main]
async fn main() {
    let incidents = wire::env_u64("WELLS_MIXED_INCIDENTS", 400_000);
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
    std::fs::create_dir_all(&base).expect("target/bench");
    let binary = Path::new(env!("CARGO_BIN_EXE_server"));
    let seeded = seeded(&base, incidents).await;
    let arrangements: [(&str, Vec<(&str, &str)>); 2] = [
        (
            "one thread (before #39)",
            vec![("WELLS_WORKER_THREADS", "1")],
        ),
        ("every core, render threads", vec![]),
    ];
    let mut rows = String::new();
    let mut first: Option<(f64, f64)> = None;
    for (name, settings) in &arrangements {
        let dir = tempfile::tempdir_in(&base).expect("bench dir");
        let f = arrangement(binary, &seeded, dir.path(), settings).await;
        eprintln!(
            "{name}: {:.1} pages/s, {:.1} submissions/s",
            f.pages_per_s, f.submits_per_s
        );
        let (pages_x, submits_x) = match first {
            None => {
                first = Some((f.pages_per_s, f.submits_per_s));
                ("1.00".to_owned(), "1.00".to_owned())
            }
            Some((p, s)) => (
                format!("**{:.2}**", f.pages_per_s / p),
                format!("**{:.2}**", f.submits_per_s / s),
            ),
        };
        rows.push_str(&format!(
            "| {name} | {:.1} ({pages_x}) | {:.0} | {:.1} ({submits_x}) | {:.0} / {:.0} | {:.1} | {} × {} lines, {} PDFs |\n",
            f.pages_per_s,
            f.page_p99,
            f.submits_per_s,
            f.mixed_submits.at(0.5),
            f.mixed_submits.at(0.99),
            f.mixed_health.at(0.99),
            f.exports,
            f.exported_lines,
            f.pdfs,
        ));
    }
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let report = format!(
        "## Requests on every core (issue #39)\n\n\
         `cargo bench -p server --bench mixed_load`: the release server on {cpus} cores over loopback, \
         {incidents} seeded incidents, {} s per phase. *Pages*: 8 clients render the officer's and the \
         chief's pages. *Submissions*: 8 officers submit reports. *Mixed*: the 8 officers submit while a \
         clerk exports every approved citation as CSV, again and again, and the chief opens 20 report \
         PDFs; `/healthz` asked every 50 ms. Targets: mixed submission p99 ≤ 50 ms, `/healthz` p99 ≤ 20 ms, \
         pages/s and submissions/s ≥ 1.7 × the one-thread arrangement.\n\n\
         | arrangement | pages/s (× one thread) | page p99 ms | submissions/s (× one thread) | mixed: submission p50 / p99 ms | mixed: /healthz p99 ms | the clerk's exports, the chief's PDFs |\n\
         |---|---:|---:|---:|---:|---:|---|\n{rows}",
        wire::env_u64("WELLS_MIXED_SECONDS", 20),
    );
    println!("{report}");
    std::fs::write(base.join("mixed-load.md"), report).expect("write report");
}
