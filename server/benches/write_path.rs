//! `cargo bench -p server --bench write_path` (part of `make bench`): incident
//! submissions per second through the whole server — HTTP on loopback, session,
//! CSRF check, the rules, one transaction with the citation number and the audit
//! entry — beside the raw limit of the same disk: single-row SQLite commits per
//! second with the store's pragmas (WAL, synchronous=FULL). A benchmark that
//! reports figures, not a test.
//!
//! The disk's commit rate drifts by a factor of two from minute to minute here,
//! so the two are measured in alternation, WELLS_BENCH_ROUNDS (default 4) rounds
//! of WELLS_BENCH_SECONDS (default 5) each, and the ratio is of their totals.
//! WELLS_BENCH_CLIENTS (default "8,32") lists the numbers of concurrent clients
//! measured: each client waits for its answer before it sends again, so a few
//! clients measure the latency of one submission, many the server's capacity.
//! The Markdown goes to stdout and to target/bench/write-path.md.

#[path = "../tests/support/mod.rs"]
mod support;
#[path = "../tests/wire/mod.rs"]
mod wire;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::Connection;

/// Single-row commits per second of the database the server runs on, through
/// the same driver (sqlx's `Any`): on PostgreSQL, one transaction per row as the
/// server's are (synchronous_commit as the server has it); on SQLite, `dir`'s
/// disk with the store's pragmas (WAL, synchronous=FULL).
async fn raw_commits(postgres: Option<&str>, dir: &std::path::Path, seconds: u64) -> f64 {
    sqlx::any::install_default_drivers();
    let (url, setup, begin) = match postgres {
        Some(url) => (
            url.to_owned(),
            "CREATE TABLE IF NOT EXISTS raw_row (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL)",
            "BEGIN",
        ),
        None => (
            format!("sqlite://{}?mode=rwc", dir.join("raw.db").display()),
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; \
             CREATE TABLE IF NOT EXISTS raw_row (id INTEGER PRIMARY KEY, body TEXT NOT NULL)",
            "BEGIN IMMEDIATE",
        ),
    };
    let mut db = sqlx::AnyConnection::connect(&url).await.expect("raw db");
    sqlx::Executor::execute(&mut db, setup)
        .await
        .expect("table");
    // About the size of a stored report.
    let body = "x".repeat(2_000);
    let started = Instant::now();
    let mut commits = 0u64;
    while started.elapsed() < Duration::from_secs(seconds) {
        let mut tx = db.begin_with(begin).await.expect("begin");
        sqlx::query("INSERT INTO raw_row (body) VALUES ($1)")
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

/// The numbers of concurrent clients to measure with.
fn client_counts() -> Vec<u64> {
    let listed = std::env::var("WELLS_BENCH_CLIENTS").unwrap_or_else(|_| "8,32".into());
    let counts: Vec<u64> = listed
        .split(',')
        .filter_map(|n| n.trim().parse().ok())
        .filter(|&n| n > 0)
        .collect();
    if counts.is_empty() {
        vec![8, 32]
    } else {
        counts
    }
}

#[tokio::main]
async fn main() {
    let counts = client_counts();
    let seconds = wire::env_u64("WELLS_BENCH_SECONDS", 5);
    let rounds = wire::env_u64("WELLS_BENCH_ROUNDS", 4).max(1);
    // The same disk as the workspace's target/ (not a tmpfs /tmp).
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
    std::fs::create_dir_all(&base).expect("target/bench");
    let dir = tempfile::tempdir_in(&base).expect("bench dir");

    // WELLS_BENCH_POSTGRES: the address of an empty PostgreSQL database to
    // measure on instead of a SQLite file (issue #21; `make bench` passes one).
    let postgres = std::env::var("WELLS_BENCH_POSTGRES").ok();
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_server"));
    let mut server = match &postgres {
        Some(url) => wire::Server::on(binary, url, Some(dir.path().join("second-factor-key"))),
        None => wire::Server::new(binary, dir.path()),
    };
    for i in 0..counts.iter().copied().max().unwrap_or(8) {
        server.add_officer(&format!("load-{i}"));
    }
    server.start().await;
    let mut rows = String::new();
    let mut means = String::new();
    let (mut ok, mut failed) = (0, 0);
    for &clients in &counts {
        // A short warm-up so the connections and statement caches are made.
        let _ = submissions(&server, clients, 1).await;
        let (mut raw_total, mut load_total) = (0.0, 0.0);
        for round in 1..=rounds {
            let raw = raw_commits(postgres.as_deref(), dir.path(), seconds).await;
            let load = submissions(&server, clients, seconds).await;
            eprintln!(
                "{clients} clients, round {round}: raw {raw:.0} commits/s, {:.0} submissions/s",
                load.per_second
            );
            rows.push_str(&format!(
                "| {clients} | {round} | {raw:.0} | {:.0} | {:.2} | {:.1} / {:.1} |\n",
                load.per_second,
                load.per_second / raw,
                load.p50_ms,
                load.p99_ms
            ));
            raw_total += raw;
            load_total += load.per_second;
            ok += load.ok;
            failed += load.failed;
        }
        means.push_str(&format!(
            "| {clients} | {:.0} | {:.0} | **{:.2}** |\n",
            raw_total / rounds as f64,
            load_total / rounds as f64,
            load_total / raw_total,
        ));
    }
    server.stop();

    let (engine, raw_kind, file) = match &postgres {
        Some(_) => (
            "on PostgreSQL",
            "single-row PostgreSQL commits (a transaction each, over loopback, the same server: the raw limit)",
            "write-path-postgres.md",
        ),
        None => (
            "on SQLite",
            "single-row SQLite commits (WAL, synchronous=FULL, same disk: the raw limit)",
            "write-path.md",
        ),
    };
    let report = format!(
        "## Write path {engine}\n\n\
         `cargo bench -p server --bench write_path` (over loopback; for each number of clients, {rounds} \
         rounds of {seconds} s of {raw_kind} then {seconds} s of incident submissions through the server \
         (session, CSRF check, rules, citation number, audit entry); each client sends its next \
         submission when the last is answered; {})\n\n\
         | clients | raw commits/s | submissions/s | ratio (target ≥ 0.5) |\n|---:|---:|---:|---:|\n\
         {means}\n\
         | clients | round | raw commits/s | submissions/s | ratio | submit p50 / p99 ms |\n\
         |---:|---:|---:|---:|---:|---|\n\
         {rows}\n\
         Acknowledged / failed: {ok} / {failed}.\n",
        machine(),
    );
    println!("{report}");
    std::fs::write(base.join(file), report).expect("write report");
}
