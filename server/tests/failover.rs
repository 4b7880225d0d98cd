//! Issue #21: a primary and a synchronous standby on loopback; officers submit
//! through the app server while the primary is killed with SIGKILL; the
//! standby is promoted and the app server pointed at it. Every submission the
//! server acknowledged must be there, with its citation numbers; the numbers
//! have no gap; the phones' unanswered submissions, sent again, are taken once;
//! the audit chain verifies. The figures are printed (like the crash test's).
//!
//! Needs PostgreSQL's server programs (`make test` installs Debian's
//! `postgresql`); as root, the clusters run as the `postgres` user.

mod support;
mod wire;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use app::store::db::Pool;

/// Phones sending at once.
const PHONES: usize = 4;

/// PostgreSQL's server programs: `pg_config --bindir`, else Debian's newest.
fn bindir() -> Option<PathBuf> {
    let configured = Command::new("pg_config").arg("--bindir").output().ok();
    if let Some(out) = configured.filter(|o| o.status.success()) {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if dir.join("initdb").exists() {
            return Some(dir);
        }
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|bin| bin.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop()
}

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A cluster in a folder of its own, listening on a loopback port.
struct Cluster {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
    root: bool,
}

impl Cluster {
    /// A cluster in `data`, on a free loopback port; not made yet.
    fn new(bin: &Path, data: PathBuf, root: bool) -> Cluster {
        Cluster {
            bin: bin.to_owned(),
            data,
            port: free_port(),
            root,
        }
    }

    /// `pg_ctl -D <data> <args>`, waited for.
    fn pg_ctl(&self, args: &[&str], what: &str) {
        let mut pg_ctl = self.program("pg_ctl");
        pg_ctl.arg("-D").arg(&self.data).args(args);
        self.run(pg_ctl, what);
    }
    /// A PostgreSQL program, as the `postgres` user when we are root (the
    /// server refuses to run as root).
    fn program(&self, name: &str) -> Command {
        let path = self.bin.join(name);
        if self.root {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(path);
            command
        } else {
            Command::new(path)
        }
    }

    fn run(&self, mut command: Command, what: &str) {
        let out = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(
            out.status.success(),
            "{what}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn configure(&self, lines: &str) {
        use std::io::Write;
        let mut conf = std::fs::OpenOptions::new()
            .append(true)
            .open(self.data.join("postgresql.conf"))
            .expect("postgresql.conf");
        conf.write_all(lines.as_bytes()).expect("configure");
    }

    fn start(&self) {
        let log = self.data.with_extension("log");
        self.pg_ctl(
            &["-l", &log.to_string_lossy(), "-w", "start"],
            "pg_ctl start",
        );
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// `kill -9` of the postmaster and every process it started, at once: the
    /// machine is gone, nothing shuts down.
    fn kill9(&self) {
        let pid = std::fs::read_to_string(self.data.join("postmaster.pid"))
            .expect("postmaster.pid")
            .lines()
            .next()
            .expect("pid")
            .trim()
            .to_owned();
        let mut all = vec![pid.clone()];
        for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            // pid (comm) state ppid …; comm may hold spaces, so read after ')'.
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1));
            if ppid == Some(pid.as_str()) {
                all.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
        let status = Command::new("kill").arg("-9").args(&all).status();
        assert!(status.is_ok_and(|s| s.success()), "kill -9 {all:?}");
    }

    fn stop(&self) {
        let mut stop = self.program("pg_ctl");
        stop.arg("-D")
            .arg(&self.data)
            .args(["-m", "immediate", "-w", "stop"]);
        let _ = stop.output();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port()
}

/// A primary whose commits wait for the standby (`synchronous_commit = on`,
/// any standby synchronous), and that standby, streaming, made with
/// `pg_basebackup -R`.
fn primary_and_standby(bin: &Path, dir: &Path, root: bool) -> (Cluster, Cluster) {
    if root {
        let status = Command::new("chown").arg("postgres").arg(dir).status();
        assert!(status.is_ok_and(|s| s.success()), "chown the folder");
    }
    let primary = Cluster::new(bin, dir.join("primary"), root);
    let mut initdb = primary.program("initdb");
    initdb
        .arg("-D")
        .arg(&primary.data)
        .args(["-U", "postgres", "-A", "trust", "--no-sync"]);
    primary.run(initdb, "initdb");
    primary.configure(&format!(
        "\nlisten_addresses = '127.0.0.1'\nport = {}\nunix_socket_directories = '{}'\n\
         wal_level = replica\nmax_wal_senders = 4\n\
         synchronous_standby_names = '*'\nsynchronous_commit = on\n",
        primary.port,
        dir.display()
    ));
    primary.start();
    let standby = Cluster::new(bin, dir.join("standby"), root);
    let mut copy = standby.program("pg_basebackup");
    copy.args([
        "-h",
        "127.0.0.1",
        "-p",
        &primary.port.to_string(),
        "-U",
        "postgres",
    ])
    .arg("-D")
    .arg(&standby.data)
    .args(["-R", "-X", "stream"]);
    standby.run(copy, "pg_basebackup");
    standby.configure(&format!("\nport = {}\n", standby.port));
    standby.start();
    (primary, standby)
}

/// Waits until the primary reports its standby synchronous.
async fn synchronous(primary: &Pool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let state: Option<String> =
            sqlx::query_scalar("SELECT sync_state::text FROM pg_stat_replication LIMIT 1")
                .fetch_optional(primary)
                .await
                .expect("replication state");
        if state.as_deref() == Some("sync") {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "standby not synchronous: {state:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// What the server acknowledged, by incident, and what got no answer.
#[derive(Default)]
struct Ledger {
    acknowledged: HashMap<uuid::Uuid, Vec<String>>,
    /// With the session of the phone that sent it: its outbox sends it again.
    unanswered: Vec<(String, app::model::incident::IncidentReport)>,
}

/// Sends one report; books the answer. False when no answer came.
async fn submit(
    server: &wire::Client,
    cookie: &str,
    report: app::model::incident::IncidentReport,
    ledger: &Mutex<Ledger>,
) -> bool {
    match server.submit(cookie, &report).await {
        wire::Submitted::Numbers(numbers) => {
            let mut ledger = ledger.lock().expect("ledger");
            let before = ledger.acknowledged.insert(report.incident_id, numbers);
            if let Some(before) = before {
                assert_eq!(
                    Some(&before),
                    ledger.acknowledged.get(&report.incident_id),
                    "a retry changed the numbers"
                );
            }
            true
        }
        // The database went away under the server: no acknowledgement, so
        // the phone keeps the report and sends it again.
        wire::Submitted::Refused(status, _) if status >= 500 => {
            ledger
                .lock()
                .expect("ledger")
                .unanswered
                .push((cookie.to_owned(), report));
            false
        }
        wire::Submitted::Refused(status, body) => panic!("refused: {status} {body}"),
        wire::Submitted::NoAnswer => {
            ledger
                .lock()
                .expect("ledger")
                .unanswered
                .push((cookie.to_owned(), report));
            false
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_promoted_synchronous_standby_holds_every_acknowledged_submission() {
    let Some(bin) = bindir() else {
        assert!(
            std::env::var_os("WELLS_REQUIRE_POSTGRES").is_none(),
            "WELLS_REQUIRE_POSTGRES is set but PostgreSQL's server programs are missing"
        );
        eprintln!("PostgreSQL's server programs are missing: not run");
        return;
    };
    sqlx::any::install_default_drivers();
    let dir = tempfile::tempdir().expect("dir");
    let root = running_as_root();
    let (primary, standby) = primary_and_standby(&bin, dir.path(), root);
    let watch = Pool::connect(&primary.url()).await.expect("primary");
    synchronous(&watch).await;
    watch.close().await;

    let key = dir.path().join("second-factor-key");
    let binary = Path::new(env!("CARGO_BIN_EXE_server"));
    let mut server = wire::Server::on(binary, primary.url(), Some(key.clone()));
    let officers: Vec<String> = (0..PHONES).map(|n| format!("officer-{n}")).collect();
    for officer in &officers {
        server.add_officer(officer);
    }
    server.start().await;
    let client = server.client();
    let mut cookies = Vec::new();
    for officer in &officers {
        cookies.push(client.sign_in(officer).await);
    }

    let ledger = Arc::new(Mutex::new(Ledger::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let phones: Vec<_> = cookies
        .iter()
        .map(|cookie| {
            let (client, cookie, ledger, stop) =
                (client.clone(), cookie.clone(), ledger.clone(), stop.clone());
            tokio::spawn(async move {
                let mut sent = 0usize;
                while !stop.load(Ordering::Relaxed) {
                    sent += 1;
                    let report = support::refusal_report(wire::now());
                    if !submit(&client, &cookie, report, &ledger).await {
                        break;
                    }
                }
                sent
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // The primary's machine dies with requests in flight; the standby is
    // promoted at once, as a watchdog (or the person on call) would.
    primary.kill9();
    let killed = Instant::now();
    standby.pg_ctl(&["-w", "promote"], "pg_ctl promote");
    let promoted = killed.elapsed();
    // Alone now: until a new standby is attached, its commits must not wait
    // for one (the setting came with the copy of the primary).
    let db = Pool::connect(&standby.url()).await.expect("standby");
    for sql in [
        "ALTER SYSTEM SET synchronous_standby_names = ''",
        "SELECT pg_reload_conf()",
    ] {
        sqlx::query(sql).execute(&db).await.expect(sql);
    }
    stop.store(true, Ordering::Relaxed);
    let mut sent = 0;
    for phone in phones {
        sent += phone.await.expect("phone");
    }
    server.kill9();
    let mut server = wire::Server::on(binary, standby.url(), Some(key));
    server.start().await;
    let client = server.client();

    // The phones' outboxes send what got no answer, under the same ids.
    let (acknowledged_before, unanswered) = {
        let mut l = ledger.lock().expect("ledger");
        (l.acknowledged.len(), std::mem::take(&mut l.unanswered))
    };
    let in_flight = unanswered.len();
    for (cookie, report) in unanswered {
        // The sessions were in the database: they carry over to the standby.
        assert!(
            submit(&client, &cookie, report, &ledger).await,
            "a retry after the failover got no answer"
        );
    }

    let stored: Vec<(String, String, i64)> =
        sqlx::query_as("SELECT incident_id, number, seq FROM citation ORDER BY seq")
            .fetch_all(&db)
            .await
            .expect("citations");
    let mut by_incident: HashMap<String, Vec<String>> = HashMap::new();
    for (incident, number, _) in &stored {
        by_incident
            .entry(incident.clone())
            .or_default()
            .push(number.clone());
    }
    let acknowledged = std::mem::take(&mut ledger.lock().expect("ledger").acknowledged);
    for (incident, numbers) in &acknowledged {
        assert_eq!(
            by_incident.get(&incident.to_string()),
            Some(numbers),
            "acknowledged {incident} with its numbers"
        );
    }
    let seqs: Vec<i64> = stored.iter().map(|(_, _, seq)| *seq).collect();
    let expected: Vec<i64> = (1..=stored.len() as i64).collect();
    assert_eq!(seqs, expected, "the numbers have no gap");
    let audit = server.audit_verify().expect("the audit chain verifies");
    println!(
        "# Failover\n\n| figure | value |\n|---|---|\n\
         | phones | {PHONES} |\n\
         | submissions sent | {sent} |\n\
         | acknowledged before the kill | {acknowledged_before} |\n\
         | in flight at the kill (no answer), sent again to the promoted standby | {in_flight} |\n\
         | acknowledged but lost | 0 |\n\
         | citations on the standby | {} (1…{} without a gap) |\n\
         | kill -9 to standby promoted (pg_ctl promote -w) | {:.2} s |\n\
         | audit verify on the standby | {} |\n",
        stored.len(),
        stored.len(),
        promoted.as_secs_f64(),
        audit
    );
    db.close().await;
    server.kill9();
    standby.stop();
}
