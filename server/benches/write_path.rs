//! `cargo bench -p server --bench write_path` (part of `make bench`): incident
//! submissions per second through the whole server — HTTP on loopback, session,
//! CSRF check, the rules, one transaction with the citation number and the audit
//! entry — beside the raw limit of the same disk: single-row SQLite commits per
//! second with the store's pragmas (WAL, synchronous=FULL). A benchmark that
//! reports figures, not a test.
//!
//! WELLS_BENCH_CLIENTS (default 8) concurrent clients, WELLS_BENCH_SECONDS
//! (default 10) of load; the Markdown goes to stdout and to
//! target/bench/write-path.md.

#[path = "../tests/support/mod.rs"]
mod support;
#[path = "../tests/wire/mod.rs"]
mod wire;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous};
use sqlx::{ConnectOptions, Connection};

/// Single-row commits per second on `dir`'s disk with the store's pragmas.
async fn raw_commits(dir: &std::path::Path, seconds: u64) -> f64 {
    let mut db = SqliteConnectOptions::new()
        .filename(dir.join("raw.db"))
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .foreign_keys(true)
        .connect()
        .await
        .expect("raw db");
    sqlx::query("CREATE TABLE row (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        .execute(&mut db)
        .await
        .expect("table");
    // About the size of a stored report.
    let body = "x".repeat(2_000);
    let started = Instant::now();
    let mut commits = 0u64;
    while started.elapsed() < Duration::from_secs(seconds) {
        let mut tx = db.begin_with("BEGIN IMMEDIATE").await.expect("begin");
        sqlx::query("INSERT INTO row (body) VALUES (?)")
            .bind(&body)
            .execute(&mut *tx)
            .await
            .expect("insert");
        tx.commit().await.expect("commit");
        commits += 1;
    }
    commits as f64 / started.elapsed().as_secs_f64()
}

struct Load {
    per_second: f64,
    ok: u64,
    failed: u64,
    p50_ms: f64,
    p99_ms: f64,
}

async fn submissions(server: &wire::Server, clients: u64, seconds: u64) -> Load {
    let stop = Arc::new(AtomicBool::new(false));
    let failed = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for i in 0..clients {
        let client = server.client();
        let cookie = client.sign_in(&format!("load-{i}")).await;
        let (stop, failed) = (stop.clone(), failed.clone());
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let body = serde_json::json!({ "report": support::refusal_report(wire::now()) })
                    .to_string();
                let sent = Instant::now();
                match client
                    .post("/api/incidents/submit", Some(&cookie), &body)
                    .await
                {
                    Ok(r) if r.status == 200 => latencies.push(sent.elapsed()),
                    _ => {
                        failed.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            latencies
        }));
    }
    let started = Instant::now();
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    stop.store(true, Ordering::Relaxed);
    let mut latencies = Vec::new();
    for t in tasks {
        latencies.extend(t.await.expect("client"));
    }
    let elapsed = started.elapsed().as_secs_f64();
    latencies.sort();
    let at = |q: f64| {
        latencies
            .get(((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    Load {
        per_second: latencies.len() as f64 / elapsed,
        ok: latencies.len() as u64,
        failed: failed.load(Ordering::Relaxed),
        p50_ms: at(0.50),
        p99_ms: at(0.99),
    }
}

fn machine() -> String {
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    format!("{cpus} × {model}")
}

#[tokio::main]
async fn main() {
    let clients = wire::env_u64("WELLS_BENCH_CLIENTS", 8);
    let seconds = wire::env_u64("WELLS_BENCH_SECONDS", 10);
    // The same disk as the workspace's target/ (not a tmpfs /tmp).
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
    std::fs::create_dir_all(&base).expect("target/bench");
    let dir = tempfile::tempdir_in(&base).expect("bench dir");

    let raw = raw_commits(dir.path(), seconds).await;
    eprintln!("raw single-row commits: {raw:.0}/s");

    let mut server = wire::Server::new(
        std::path::Path::new(env!("CARGO_BIN_EXE_server")),
        dir.path(),
    );
    for i in 0..clients {
        server.add_officer(&format!("load-{i}"));
    }
    server.start().await;
    // A short warm-up so the first connections and statement caches are made.
    let _ = submissions(&server, clients, 1).await;
    let load = submissions(&server, clients, seconds).await;
    server.stop();
    eprintln!("submissions: {:.0}/s", load.per_second);

    let report = format!(
        "## Write path\n\n\
         `cargo bench -p server --bench write_path` ({clients} clients over loopback, {seconds} s each; {})\n\n\
         | figure | value |\n|---|---|\n\
         | raw limit: single-row SQLite commits/s (WAL, synchronous=FULL, same disk) | {raw:.0} |\n\
         | incident submissions/s through the server (session, rules, citation number, audit) | {:.0} |\n\
         | ratio (target ≥ 0.5) | {:.2} |\n\
         | submit latency p50 / p99 | {:.1} ms / {:.1} ms |\n\
         | acknowledged / failed | {} / {} |\n",
        machine(),
        load.per_second,
        load.per_second / raw,
        load.p50_ms,
        load.p99_ms,
        load.ok,
        load.failed,
    );
    println!("{report}");
    std::fs::write(base.join("write-path.md"), report).expect("write report");
}
