//! What the HTTPS tests share (issue #38): a test certificate authority and
//! its certificates (rcgen), the real server binary on free loopback ports, and
//! a rustls client that trusts only the test authority.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair};
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

pub const SERVER: &str = env!("CARGO_BIN_EXE_server");

/// Whether this is the PostgreSQL run of the server's suites (`make
/// test-rust`'s second): HTTPS does not depend on the engine, and these tests
/// run on the SQLite run only.
pub fn postgres_run() -> bool {
    let again = std::env::var("WELLS_TEST_BACKEND").is_ok_and(|b| b == "postgres");
    if again {
        eprintln!("HTTPS does not depend on the engine: run on the SQLite run only");
    }
    again
}

/// A test certificate authority.
pub struct Authority {
    pub cert: rcgen::Certificate,
    pub key: KeyPair,
}

impl Authority {
    pub fn new() -> Authority {
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("params");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params
            .distinguished_name
            .push(DnType::CommonName, "Wells test authority");
        let key = KeyPair::generate().expect("key");
        let cert = params.self_signed(&key).expect("self-signed");
        Authority { cert, key }
    }

    /// A certificate for `names`, valid `days` from now; (chain PEM, key PEM).
    pub fn issue(&self, names: &[&str], days: i64) -> (String, String) {
        let mut params =
            CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>())
                .expect("params");
        let now = time_now();
        params.not_before = now - time::Duration::days(2);
        params.not_after = now + time::Duration::days(days);
        params.distinguished_name.push(DnType::CommonName, names[0]);
        let key = KeyPair::generate().expect("key");
        let cert = params
            .signed_by(&key, &self.cert, &self.key)
            .expect("signed");
        (cert.pem(), key.serialize_pem())
    }

    pub fn pem(&self) -> String {
        self.cert.pem()
    }
}

fn time_now() -> time::OffsetDateTime {
    time::OffsetDateTime::now_utc()
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port()
}

/// Writes `text` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

/// The server binary, running; killed when dropped. Its stdout and stderr
/// lines are kept.
pub struct Running {
    pub child: Child,
    pub lines: Arc<std::sync::Mutex<Vec<String>>>,
}

impl Running {
    pub fn start(args: &[&str], envs: &[(&str, &str)]) -> Running {
        let mut command = Command::new(SERVER);
        command
            .args(args)
            .env("WELLS_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in envs {
            command.env(k, v);
        }
        let mut child = command.spawn().expect("server");
        let lines = Arc::new(std::sync::Mutex::new(Vec::new()));
        for stream in [
            child
                .stdout
                .take()
                .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
            child
                .stderr
                .take()
                .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
        ]
        .into_iter()
        .flatten()
        {
            let lines = lines.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    if let Ok(mut kept) = lines.lock() {
                        kept.push(line);
                    }
                }
            });
        }
        Running { child, lines }
    }

    pub fn log(&self) -> String {
        self.lines.lock().map(|l| l.join("\n")).unwrap_or_default()
    }

    /// Waits until a line contains `needle`.
    pub fn wait_for_line(&self, needle: &str, within: Duration) -> bool {
        let started = Instant::now();
        while started.elapsed() < within {
            if self.log().contains(needle) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .expect("kill");
        assert!(status.success());
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs the binary to its end: (success, stdout + stderr).
pub fn run(args: &[&str]) -> (bool, String) {
    let output = Command::new(SERVER)
        .args(args)
        .env("WELLS_LOG", "warn")
        .output()
        .expect("server");
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    (output.status.success(), text)
}

/// What an HTTPS request saw.
#[derive(Debug)]
pub struct Answer {
    pub head: String,
    pub body: String,
    /// The server's certificate (DER).
    pub certificate: Vec<u8>,
}

impl Answer {
    pub fn status(&self) -> u16 {
        self.head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0)
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|line| {
            let (k, v) = line.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
        })
    }
}

/// A client trusting only `roots` (PEM).
pub fn client(roots: &str) -> Arc<rustls::ClientConfig> {
    let mut store = rustls::RootCertStore::empty();
    for cert in rustls::pki_types::pem::PemObject::pem_slice_iter(roots.as_bytes()) {
        store.add(cert.expect("root")).expect("add root");
    }
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_root_certificates(store)
        .with_no_client_auth();
    // Every connection a full handshake: a resumed session shows the
    // certificate of the session it resumes, and the tests look at the served one.
    config.resumption = rustls::client::Resumption::disabled();
    Arc::new(config)
}

/// `GET path` over HTTPS to 127.0.0.1:`port` as `name` (SNI and Host).
pub async fn get(
    config: &Arc<rustls::ClientConfig>,
    name: &str,
    port: u16,
    path: &str,
) -> Result<Answer, String> {
    send(
        config,
        name,
        port,
        &format!("GET {path} HTTP/1.1\r\nHost: {name}:{port}\r\nConnection: close\r\n\r\n"),
    )
    .await
}

/// A JSON `POST` from the page of `https://name:port` (its Origin).
pub async fn post_json(
    config: &Arc<rustls::ClientConfig>,
    name: &str,
    port: u16,
    path: &str,
    body: &str,
) -> Result<Answer, String> {
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {name}:{port}\r\nOrigin: https://{name}:{port}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    send(config, name, port, &request).await
}

/// Sends `request` whole on a new connection and reads the answer to its end.
async fn send(
    config: &Arc<rustls::ClientConfig>,
    name: &str,
    port: u16,
    request: &str,
) -> Result<Answer, String> {
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| e.to_string())?;
    let connector = tokio_rustls::TlsConnector::from(config.clone());
    let server_name = ServerName::try_from(name.to_owned()).map_err(|e| e.to_string())?;
    let mut tls = connector
        .connect(server_name, tcp)
        .await
        .map_err(|e| e.to_string())?;
    let certificate = tls
        .get_ref()
        .1
        .peer_certificates()
        .and_then(|c| c.first())
        .map(|c: &CertificateDer| c.to_vec())
        .unwrap_or_default();
    tls.write_all(request.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut reply = Vec::new();
    let _ = tls.read_to_end(&mut reply).await;
    let text = String::from_utf8_lossy(&reply).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    Ok(Answer {
        head: head.to_owned(),
        body: body.to_owned(),
        certificate,
    })
}

/// Retries `get` until it answers (the server is starting) or `within` passes.
pub async fn get_when_up(
    config: &Arc<rustls::ClientConfig>,
    name: &str,
    port: u16,
    path: &str,
    within: Duration,
) -> Result<Answer, String> {
    let started = Instant::now();
    loop {
        match get(config, name, port, path).await {
            Ok(answer) if answer.status() != 0 => return Ok(answer),
            Ok(_) | Err(_) if started.elapsed() < within => {
                tokio::time::sleep(Duration::from_millis(100)).await
            }
            Ok(answer) => return Ok(answer),
            Err(error) => return Err(error),
        }
    }
}

/// The DER of the first certificate in a PEM chain.
pub fn der(pem: &str) -> Vec<u8> {
    rustls::pki_types::pem::PemObject::pem_slice_iter(pem.as_bytes())
        .next()
        .map(|c: Result<CertificateDer<'static>, _>| c.expect("pem").to_vec())
        .unwrap_or_default()
}
