//! `cargo bench -p server --bench tls_handshake` (issue #38, part of `make
//! bench`): what HTTPS costs a phone that connects afresh. The release server
//! is started twice on loopback, with `--tls-cert` (an ECDSA P-256
//! certificate, as Let's Encrypt and the test authority issue) and in plain
//! HTTP; clients open a new connection for every request to `/healthz` — a full
//! TLS 1.3 handshake each time, no resumption — for `WELLS_TLS_SECONDS` (10) per
//! arrangement, `WELLS_TLS_CLIENTS` (4) at once. Reported: connections per
//! second and the p50/p99 of connect + handshake + answer, in
//! target/bench/tls.md. A benchmark that reports figures, not a test.

#[path = "../tests/tls_support/mod.rs"]
mod tls_support;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One request on a new connection; its time.
async fn once(port: u16, tls: Option<&Arc<rustls::ClientConfig>>) -> Result<Duration, String> {
    let started = Instant::now();
    let reply = match tls {
        Some(config) => tls_support::get(config, "wells.test", port, "/healthz")
            .await?
            .status(),
        None => {
            let mut tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .map_err(|e| e.to_string())?;
            tcp.write_all(
                b"GET /healthz HTTP/1.1\r\nHost: wells.test\r\nConnection: close\r\n\r\n",
            )
            .await
            .map_err(|e| e.to_string())?;
            let mut text = Vec::new();
            let _ = tcp.read_to_end(&mut text).await;
            if text.starts_with(b"HTTP/1.1 200") {
                200
            } else {
                0
            }
        }
    };
    if reply != 200 {
        return Err(format!("answer {reply}"));
    }
    Ok(started.elapsed())
}

struct Figures {
    per_second: f64,
    p50_ms: f64,
    p99_ms: f64,
    errors: u64,
}

async fn load(
    port: u16,
    tls: Option<Arc<rustls::ClientConfig>>,
    seconds: u64,
    clients: u64,
) -> Figures {
    let until = Instant::now() + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let tls = tls.clone();
        tasks.push(tokio::spawn(async move {
            let (mut times, mut errors) = (Vec::new(), 0u64);
            while Instant::now() < until {
                match once(port, tls.as_ref()).await {
                    Ok(t) => times.push(t),
                    Err(_) => errors += 1,
                }
            }
            (times, errors)
        }));
    }
    let (mut times, mut errors) = (Vec::new(), 0);
    for task in tasks {
        let (t, e) = task.await.expect("client");
        times.extend(t);
        errors += e;
    }
    times.sort();
    let at = |q: f64| {
        times
            .get(((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    Figures {
        per_second: times.len() as f64 / seconds as f64,
        p50_ms: at(0.5),
        p99_ms: at(0.99),
        errors,
    }
}

async fn up(port: u16, tls: Option<&Arc<rustls::ClientConfig>>) {
    let started = Instant::now();
    while once(port, tls).await.is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the server did not start"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::main]
async fn main() {
    let seconds = env_u64("WELLS_TLS_SECONDS", 10);
    let clients = env_u64("WELLS_TLS_CLIENTS", 4);
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
    std::fs::create_dir_all(&base).expect("target/bench");
    let dir = tempfile::tempdir_in(&base).expect("bench dir");
    let ca = tls_support::Authority::new();
    let (cert, key) = ca.issue(&["wells.test"], 30);
    let cert = tls_support::write(dir.path(), "cert.pem", &cert);
    let key = tls_support::write(dir.path(), "key.pem", &key);
    let client = tls_support::client(&ca.pem());
    let mut rows = String::new();
    let mut plain_rate = None;
    for https in [false, true] {
        let port = tls_support::free_port();
        let listen = format!("127.0.0.1:{port}");
        let db = dir.path().join(format!("wells-{https}.db"));
        let mut args = vec![
            "--database",
            db.to_str().expect("UTF-8 path"),
            "serve",
            "--listen",
            &listen,
        ];
        if https {
            args.extend([
                "--tls-cert",
                cert.to_str().expect("UTF-8 path"),
                "--tls-key",
                key.to_str().expect("UTF-8 path"),
            ]);
        }
        let server = tls_support::Running::start(&args, &[("WELLS_LOG", "warn")]);
        let tls = https.then(|| client.clone());
        up(port, tls.as_ref()).await;
        let f = load(port, tls, seconds, clients).await;
        drop(server);
        let name = if https {
            "HTTPS, `--tls-cert`: a full TLS 1.3 handshake per request"
        } else {
            "plain HTTP: a new connection per request"
        };
        let ratio = match plain_rate {
            None => {
                plain_rate = Some(f.per_second);
                String::new()
            }
            Some(plain) => format!(" ({:.2} × plain)", f.per_second / plain),
        };
        eprintln!(
            "{name}: {:.0}/s, p50 {:.2} ms, p99 {:.2} ms, {} errors",
            f.per_second, f.p50_ms, f.p99_ms, f.errors
        );
        rows.push_str(&format!(
            "| {name} | {:.0}{ratio} | {:.2} | {:.2} | {} |\n",
            f.per_second, f.p50_ms, f.p99_ms, f.errors
        ));
    }
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    // `cargo bench --profile dev` measures the debug server (and an
    // unoptimised ring on both sides): the report says which it was.
    let build = if cfg!(debug_assertions) {
        "the debug server (`--profile dev`: unoptimised ring, far slower than release)"
    } else {
        "the release server"
    };
    let report = format!(
        "## HTTPS: the handshake's cost (issue #38)\n\n\
         `cargo bench -p server --bench tls_handshake`: {build} on {cpus} cores over loopback, \
         {clients} clients each opening a new connection for every `GET /healthz` for {seconds} s \
         (ECDSA P-256 certificate, rustls with ring, no session resumption); the clients run on the same \
         cores as the server.\n\n\
         | arrangement | connections/s | p50 ms | p99 ms | errors |\n|---|---:|---:|---:|---:|\n{rows}"
    );
    println!("{report}");
    std::fs::write(base.join("tls.md"), report).expect("tls.md");
}
