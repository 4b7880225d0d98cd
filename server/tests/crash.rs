//! Crash durability (issue #8): the real server process takes concurrent
//! submissions and is killed with SIGKILL at a random moment, again and again.
//! After every kill the database must hold every submission that was
//! acknowledged, byte for byte, with its citation numbers, and nothing else may
//! be broken: `PRAGMA integrity_check`, citation numbers without gaps or
//! duplicates, and `server audit verify`.
//!
//! One of the phones works as it does without signal (issue #17): it reserves
//! a block of numbers, hands them out, sends the numbered reports, and gives a
//! used-up block back. A block the server acknowledged must be there after
//! the kill, each number it handed out must be its citation's, and every
//! number of the year must be exactly one of: a citation, void, returned, or
//! still reserved in a block.
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
use app::model::numbers::{HandedNumber, NumberBlock};
use app::ordinance::Offence;
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
    /// The block phone: blocks the server acknowledged, the one in use and the
    /// next number of it to hand out, and blocks given back (acknowledged).
    blocks: Vec<NumberBlock>,
    in_use: Option<(NumberBlock, i64)>,
    given_back: Vec<uuid::Uuid>,
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

/// The phone without signal (issue #17): hands out the next number of its
/// block for each report, takes a new block when the old one is used up
/// (giving the old one back first), and stops when a request gets no answer.
async fn block_phone(
    server: wire::Client,
    cookie: String,
    stop: Arc<AtomicBool>,
    ledger: Arc<Mutex<Ledger>>,
    base: usize,
) -> usize {
    let mut n = 0;
    while !stop.load(Ordering::Relaxed) {
        let in_use = ledger.lock().expect("ledger").in_use.clone();
        let (block, next) = match in_use {
            Some((block, next)) if next <= block.last_seq => (block, next),
            used_up => {
                if let Some((old, _)) = used_up {
                    let body = serde_json::json!({ "block_id": old.block_id, "keep": [] });
                    match server
                        .post("/api/numbers/give-back", Some(&cookie), &body.to_string())
                        .await
                    {
                        Ok(reply) if reply.status == 200 => {
                            // A repeat (the answer to the first was lost) returns none.
                            let mut l = ledger.lock().expect("ledger");
                            if !l.given_back.contains(&old.block_id) {
                                l.given_back.push(old.block_id);
                            }
                        }
                        Ok(reply) => panic!("give back refused: {} {}", reply.status, reply.body),
                        Err(_) => return n,
                    }
                }
                match server
                    .post("/api/numbers/reserve", Some(&cookie), "{}")
                    .await
                {
                    Ok(reply) if reply.status == 200 => {
                        // None: blocks whose answers were lost at kills count
                        // as held until they expire; the phone goes on without.
                        let Some(block): Option<NumberBlock> =
                            serde_json::from_str(&reply.body).expect("block")
                        else {
                            ledger.lock().expect("ledger").in_use = None;
                            n += 1;
                            if !submit(&server, &cookie, report(base + n), &ledger).await {
                                break;
                            }
                            continue;
                        };
                        let mut l = ledger.lock().expect("ledger");
                        l.blocks.push(block.clone());
                        l.in_use = Some((block.clone(), block.first_seq));
                        (block.clone(), block.first_seq)
                    }
                    Ok(reply) => panic!("reserve refused: {} {}", reply.status, reply.body),
                    Err(_) => return n,
                }
            }
        };
        n += 1;
        let mut r = report(base + n);
        r.numbers = vec![HandedNumber {
            subject_id: r.subjects[0].subject_id,
            offence: Offence::LoiteringObstruction,
            number: block.number(next),
        }];
        // Handed out: the number is the subject's now, answer or not.
        if let Some((_, next_seq)) = &mut ledger.lock().expect("ledger").in_use {
            *next_seq = next + 1;
        }
        if !submit(&server, &cookie, r, &ledger).await {
            break;
        }
    }
    n
}

/// Sends one report; books the answer in the ledger. False when no answer came.
async fn submit(
    server: &wire::Client,
    cookie: &str,
    report: IncidentReport,
    ledger: &Mutex<Ledger>,
) -> bool {
    match server.submit(cookie, &report).await {
        wire::Submitted::Numbers(citations) => {
            let handed: Vec<&str> = report.numbers.iter().map(|h| h.number.as_str()).collect();
            if !handed.is_empty() {
                assert_eq!(
                    handed, citations,
                    "the citation takes the number handed out"
                );
            }
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
        wire::Submitted::Refused(status, body) => {
            let refusal = format!("{status}: {body}");
            ledger.lock().expect("ledger").refused.push(refusal);
            true
        }
        wire::Submitted::NoAnswer => {
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
    // Every number the year's sequence gave out, and what it is now.
    let accounted: Vec<(i64, i64, String)> = sqlx::query_as(
        "WITH RECURSIVE n(year, seq, last) AS ( \
           SELECT year, first_seq, last_seq FROM number_block WHERE settled_at IS NULL \
           UNION ALL SELECT year, seq + 1, last FROM n WHERE seq < last) \
         SELECT year, seq, 'citation' FROM citation \
         UNION ALL SELECT year, seq, state FROM number_spent \
         UNION ALL SELECT year, seq, 'reserved' FROM n \
           WHERE NOT EXISTS (SELECT 1 FROM citation c WHERE c.year = n.year AND c.seq = n.seq) \
             AND NOT EXISTS (SELECT 1 FROM number_spent s WHERE s.year = n.year AND s.seq = n.seq)",
    )
    .fetch_all(&mut db)
    .await
    .map_err(|e| e.to_string())?;
    let blocks: Vec<(String, i64, i64, Option<i64>)> =
        sqlx::query_as("SELECT block_id, first_seq, last_seq, returned_at FROM number_block")
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
    // WPD-YYYY-NNNNNN: per year 1, 2, 3…, each number exactly one of a
    // citation, a spent number (void or returned) or one still reserved in an
    // unsettled block — nothing skipped, nothing two things.
    let mut per_year: BTreeMap<i64, BTreeMap<i64, Vec<&str>>> = BTreeMap::new();
    for (year, seq, what) in &accounted {
        per_year
            .entry(*year)
            .or_default()
            .entry(*seq)
            .or_default()
            .push(what.as_str());
    }
    for (year, seqs) in &per_year {
        for (i, (seq, what)) in seqs.iter().enumerate() {
            if *seq != i as i64 + 1 || what.len() != 1 {
                return Err(format!(
                    "{year}: number {seq} is {what:?} (position {})",
                    i + 1
                ));
            }
        }
    }
    for block in &ledger.blocks {
        let held = blocks
            .iter()
            .find(|b| b.0 == block.block_id.to_string())
            .ok_or(format!("acknowledged block {} is missing", block.block_id))?;
        if (held.1, held.2) != (block.first_seq, block.last_seq) {
            return Err(format!("block {} stored as {held:?}", block.block_id));
        }
        if ledger.given_back.contains(&block.block_id) && held.3.is_none() {
            return Err(format!(
                "block {} was given back, but is not marked so",
                block.block_id
            ));
        }
    }
    server.audit_verify().map(|_| ())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_submissions_survive_kill_9() {
    if support::postgres::sqlite_only("file under kill -9") {
        return;
    }
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
            if phone == 0 {
                tasks.push(tokio::spawn(block_phone(c, cookie, stop, ledger, base)));
                continue;
            }
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
         | number blocks reserved by the phone without signal (acknowledged) | {} |\n\
         | blocks given back (acknowledged) | {} |\n\
         | acknowledged but lost or changed | 0 |\n\
         | integrity_check / every number accounted once / audit verify | ok after every cycle |\n\
         | time | {:.1} s |\n",
        l.acknowledged.len(),
        l.blocks.len(),
        l.given_back.len(),
        started.elapsed().as_secs_f64()
    );
    println!("{report}");
    if let Ok(path) = std::env::var("WELLS_CRASH_REPORT") {
        std::fs::write(path, &report).expect("write report");
    }
}
