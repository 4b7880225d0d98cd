//! Crash durability (issue #8): the real server process takes concurrent
//! submissions and is killed with SIGKILL at a random moment, again and again.
//! After every kill the database must hold every submission that was
//! acknowledged, byte for byte, with its citation numbers, and nothing else may
//! be broken: `PRAGMA integrity_check`, citation numbers without gaps or
//! duplicates, and `server audit verify`.
//!
//! `make test` runs 10 cycles; `make crash-test` runs 200 (WELLS_CRASH_CYCLES)
//! and writes its report to target/crash-test.md. WELLS_CRASH_SEED replays a run.

mod support;
mod wire;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use app::model::incident::{Identity, IncidentReport};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};

/// Phones sending at once.
const CLIENTS: usize = 4;
const OFFICER: &str = "crash-officer";

/// What the server acknowledged: the report as sent and the numbers it gave.
#[derive(Clone)]
struct Acknowledged {
    report: IncidentReport,
    citations: Vec<String>,
}

#[derive(Default, Clone)]
struct Ledger {
    acknowledged: HashMap<uuid::Uuid, Acknowledged>,
    /// Sent, but the connection died before an answer: the phone will retry.
    unanswered: Vec<IncidentReport>,
    /// Answered with something other than success (would be a bug here).
    refused: Vec<String>,
}

/// Deterministic pauses from a seed, so a failing run can be replayed.
struct Pauses(u64);
impl Pauses {
    fn next_ms(&mut self, from: u64, to: u64) -> u64 {
        // xorshift64*: enough spread for kill moments.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        from + self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % (to - from)
    }
}

fn report(n: usize) -> IncidentReport {
    let mut r = support::refusal_report(wire::now());
    if let Identity::Identified { full_name, .. } = &mut r.subjects[0].identity {
        *full_name = format!("Crash Subject {n}");
    }
    r.narrative = format!("{} (crash test submission {n})", r.narrative);
    r
}

/// Sends one report; books the answer in the ledger. False when no answer came.
async fn submit(
    server: &wire::Client,
    cookie: &str,
    report: IncidentReport,
    ledger: &Mutex<Ledger>,
) -> bool {
    let body = serde_json::json!({ "report": report }).to_string();
    match server
        .post("/api/incidents/submit", Some(cookie), &body)
        .await
    {
        Ok(reply) if reply.status == 200 => {
            let receipt: serde_json::Value = serde_json::from_str(&reply.body).expect("receipt");
            let citations = receipt["citations"]
                .as_array()
                .expect("citations")
                .iter()
                .map(|c| c["number"].as_str().expect("number").to_owned())
                .collect();
            let mut l = ledger.lock().expect("ledger");
            let id = report.incident_id;
            if let Some(before) = l.acknowledged.get(&id) {
                assert_eq!(
                    before.citations, citations,
                    "a retry changed the numbers of {id}"
                );
            }
            l.acknowledged
                .insert(id, Acknowledged { report, citations });
            true
        }
        Ok(reply) => {
            let refusal = format!("{}: {}", reply.status, reply.body);
            ledger.lock().expect("ledger").refused.push(refusal);
            true
        }
        Err(_) => {
            ledger.lock().expect("ledger").unanswered.push(report);
            false
        }
    }
}

/// Everything that must hold after a kill, read straight from the file.
async fn check(server: &wire::Server, ledger: &Ledger) -> Result<(), String> {
    let mut db = SqliteConnectOptions::new()
        .filename(&server.database)
        .connect()
        .await
        .map_err(|e| format!("open: {e}"))?;
    let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut db)
        .await
        .map_err(|e| e.to_string())?;
    if integrity != "ok" {
        return Err(format!("integrity_check: {integrity}"));
    }
    let stored: Vec<(String, String)> =
        sqlx::query_as("SELECT incident_id, report_json FROM incident")
            .fetch_all(&mut db)
            .await
            .map_err(|e| e.to_string())?;
    let stored: HashMap<String, String> = stored.into_iter().collect();
    let numbers: Vec<(String, String)> =
        sqlx::query_as("SELECT incident_id, number FROM citation ORDER BY number")
            .fetch_all(&mut db)
            .await
            .map_err(|e| e.to_string())?;
    db.close().await.map_err(|e| e.to_string())?;
    let mut by_incident: HashMap<&str, Vec<String>> = HashMap::new();
    for (incident, number) in &numbers {
        by_incident
            .entry(incident)
            .or_default()
            .push(number.clone());
    }
    for (id, ack) in &ledger.acknowledged {
        let key = id.to_string();
        let json = stored
            .get(&key)
            .ok_or(format!("acknowledged {id} is missing"))?;
        let back: IncidentReport = serde_json::from_str(json).map_err(|e| format!("{id}: {e}"))?;
        if back != ack.report {
            return Err(format!("acknowledged {id} was stored differently"));
        }
        let mut have = by_incident.get(key.as_str()).cloned().unwrap_or_default();
        have.sort();
        let mut want = ack.citations.clone();
        want.sort();
        if have != want {
            return Err(format!("{id}: citations {have:?}, acknowledged {want:?}"));
        }
    }
    // WPD-YYYY-NNNNNN: per year 1, 2, 3… with nothing skipped or repeated.
    let mut per_year: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for (_, number) in &numbers {
        let (year, seq) = number
            .rsplit_once('-')
            .ok_or(format!("odd number {number}"))?;
        per_year
            .entry(year.to_owned())
            .or_default()
            .push(seq.parse().map_err(|_| format!("odd number {number}"))?);
    }
    for (year, mut seqs) in per_year {
        seqs.sort_unstable();
        if seqs.iter().enumerate().any(|(i, s)| *s != i as u64 + 1) {
            return Err(format!(
                "{year}: numbers have a gap or a duplicate: {seqs:?}"
            ));
        }
    }
    let audit = server.cli(&["audit", "verify"], "");
    if !audit.status.success() {
        return Err(format!(
            "audit verify: {}{}",
            String::from_utf8_lossy(&audit.stdout),
            String::from_utf8_lossy(&audit.stderr)
        ));
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_submissions_survive_kill_9() {
    let cycles = wire::env_u64("WELLS_CRASH_CYCLES", 10);
    let seed = wire::env_u64("WELLS_CRASH_SEED", wire::now().0 as u64 | 1);
    let dir = tempfile::tempdir().expect("tempdir");
    let mut server = wire::Server::new(
        std::path::Path::new(env!("CARGO_BIN_EXE_server")),
        dir.path(),
    );
    server.add_officer(OFFICER);
    let ledger = Arc::new(Mutex::new(Ledger::default()));
    let mut pauses = Pauses(seed);
    let mut sent = 0usize;
    let mut retried = 0usize;
    let started = Instant::now();
    for cycle in 1..=cycles {
        server.start().await;
        let client = server.client();
        let cookie = client.sign_in(OFFICER).await;
        // The phone's outbox: what got no answer goes again, same id, same content.
        let again = std::mem::take(&mut ledger.lock().expect("ledger").unanswered);
        retried += again.len();
        for r in again {
            let _answered = submit(&client, &cookie, r, &ledger).await;
        }
        assert!(
            ledger.lock().expect("ledger").unanswered.is_empty(),
            "cycle {cycle}: a retry after restart got no answer"
        );
        let stop = Arc::new(AtomicBool::new(false));
        let mut tasks = Vec::new();
        for phone in 0..CLIENTS {
            let (c, stop, ledger, cookie) =
                (client.clone(), stop.clone(), ledger.clone(), cookie.clone());
            let base = sent + phone * 1_000_000;
            tasks.push(tokio::spawn(async move {
                let mut n = 0;
                // A phone whose request got no answer stops; its outbox sends
                // that report again after the restart.
                while !stop.load(Ordering::Relaxed) {
                    n += 1;
                    if !submit(&c, &cookie, report(base + n), &ledger).await {
                        break;
                    }
                }
                n
            }));
        }
        tokio::time::sleep(Duration::from_millis(pauses.next_ms(50, 800))).await;
        // Kill first, then stop the clients: requests are in flight at the kill.
        server.kill9();
        stop.store(true, Ordering::Relaxed);
        for t in tasks {
            sent += t.await.expect("client");
        }
        // A copy: the lock is not held across the checks' awaits.
        let l = ledger.lock().expect("ledger").clone();
        assert!(
            l.refused.is_empty(),
            "cycle {cycle}: refused: {:?}",
            l.refused
        );
        if let Err(problem) = check(&server, &l).await {
            panic!("cycle {cycle} (WELLS_CRASH_SEED={seed}): {problem}");
        }
    }
    let l = ledger.lock().expect("ledger");
    let report = format!(
        "# Crash durability\n\n\
         `WELLS_CRASH_CYCLES={cycles} WELLS_CRASH_SEED={seed} cargo test -p server --test crash`\n\n\
         | figure | value |\n|---|---|\n\
         | kill -9 cycles | {cycles} |\n\
         | clients | {CLIENTS} |\n\
         | submissions sent | {sent} |\n\
         | acknowledged | {} |\n\
         | in flight at a kill (no answer), sent again after the restart | {retried} |\n\
         | acknowledged but lost or changed | 0 |\n\
         | integrity_check / numbering / audit verify | ok after every cycle |\n\
         | time | {:.1} s |\n",
        l.acknowledged.len(),
        started.elapsed().as_secs_f64()
    );
    println!("{report}");
    if let Ok(path) = std::env::var("WELLS_CRASH_REPORT") {
        std::fs::write(path, &report).expect("write report");
    }
}
