//! The real server binary on loopback, driven over HTTP/1.1 the way a phone
//! would: for the crash test (`tests/crash.rs`) and the write-path benchmark
//! (`benches/write_path.rs`), which must exercise the process, its sockets and
//! its file — not a router inside the test.
//!
//! The client is a few dozen lines over `TcpStream` (one request per connection,
//! `Connection: close`) so the tests add no HTTP client crate, whose features
//! would otherwise change hyper's and rebuild the whole server a second time.
#![allow(dead_code)]

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub const PASSWORD: &str = "correct horse battery staple";

/// The server's own clock, so reports are timed as the server will judge them.
pub fn now() -> app::ordinance::Moment {
    app::auth::clock::Clock::now(&app::auth::clock::SystemClock)
}

/// A setting from the environment, or its default.
pub fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A server process on its own database (a SQLite file, or a PostgreSQL
/// address with the key file every server on it shares).
pub struct Server {
    pub binary: PathBuf,
    pub database: PathBuf,
    pub key: Option<PathBuf>,
    pub addr: SocketAddr,
    child: Option<Child>,
}

impl Server {
    /// A free loopback port, a database in `dir`; not started yet.
    pub fn new(binary: &Path, dir: &Path) -> Server {
        Server::on(binary, dir.join("wells.db"), None)
    }

    /// A free loopback port, the database `database` (a file or an address).
    pub fn on(binary: &Path, database: impl Into<PathBuf>, key: Option<PathBuf>) -> Server {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("free port")
            .port();
        Server {
            binary: binary.to_owned(),
            database: database.into(),
            key,
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            child: None,
        }
    }

    /// The database and key options of every command.
    fn command(&self) -> Command {
        let mut command = Command::new(&self.binary);
        command.env("WELLS_DATABASE", &self.database);
        if let Some(key) = &self.key {
            command.env("WELLS_SECOND_FACTOR_KEY", key);
        }
        command
    }

    pub fn origin(&self) -> String {
        self.client().origin()
    }

    /// Runs a CLI subcommand on the same database; stdin is `input`.
    pub fn cli(&self, args: &[&str], input: &str) -> std::process::Output {
        use std::io::Write;
        let mut child = self
            .command()
            .args(args)
            .env("WELLS_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run server CLI");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write stdin");
        child.wait_with_output().expect("CLI output")
    }

    /// `server audit verify`: what it says of an intact chain, or why not.
    pub fn audit_verify(&self) -> Result<String, String> {
        let out = self.cli(&["audit", "verify"], "");
        let said = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if out.status.success() {
            Ok(said)
        } else {
            Err(format!(
                "audit verify: {said}{}",
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    }

    /// An officer account made with `server user add`.
    pub fn add_officer(&self, username: &str) {
        self.add_user(username, &["officer"]);
    }

    /// An account with `roles`, made with `server user add`; it signs in with
    /// the password alone.
    pub fn add_user(&self, username: &str, roles: &[&str]) {
        let mut args = vec!["user", "add", username];
        for role in roles {
            args.extend(["--role", role]);
        }
        args.extend(["--name", "Load Tester", "--badge", "901"]);
        let out = self.cli(&args, &format!("{PASSWORD}\n"));
        assert!(
            out.status.success(),
            "user add: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // These harnesses measure the write path, not the sign-in: the officers
        // sign in with the password alone, as on an upgraded install (#18).
        let out = self.cli(&["sign-in-policy", "--second-factor", "optional"], "");
        assert!(
            out.status.success(),
            "sign-in-policy: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Starts `server serve` and waits until `/healthz` answers.
    pub async fn start(&mut self) {
        self.start_with(&[]).await;
    }

    /// Starts `server serve` with these settings (`WELLS_…` variables) too.
    pub async fn start_with(&mut self, settings: &[(&str, &str)]) {
        assert!(self.child.is_none(), "already running");
        let child = self
            .command()
            .arg("serve")
            .envs(settings.iter().copied())
            .env("WELLS_LISTEN", self.addr.to_string())
            .env("WELLS_PUBLIC_ORIGIN", self.origin())
            .env("WELLS_SIGN_IN_PER_MINUTE", "100000")
            .env("WELLS_LOG", "error")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start server");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(r) = self.client().get("/healthz").await {
                if r.status == 200 {
                    return;
                }
            }
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                panic!("server exited while starting: {status}");
            }
            assert!(Instant::now() < deadline, "server not ready in 60 s");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// `kill -9`: no shutdown, no flush, as when the plug is pulled.
    pub fn kill9(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().expect("SIGKILL");
            child.wait().expect("reap");
        }
    }

    /// SIGTERM and wait: the orderly stop.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = Command::new("kill").arg(child.id().to_string()).status();
            child.wait().expect("reap");
        }
    }

    /// A handle that sends requests to this server (cheap to clone).
    pub fn client(&self) -> Client {
        Client { addr: self.addr }
    }
}

/// Sends requests to one server; clones go to concurrent tasks.
#[derive(Clone)]
pub struct Client {
    pub addr: SocketAddr,
}

impl Client {
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub async fn get(&self, path: &str) -> std::io::Result<Reply> {
        send(self.addr, "GET", path, None, None, None).await
    }

    /// GETs as the holder of the session `cookie`.
    pub async fn get_as(&self, path: &str, cookie: &str) -> std::io::Result<Reply> {
        send(self.addr, "GET", path, None, Some(cookie), None).await
    }

    /// POSTs JSON from the app's own origin (the CSRF check wants it).
    pub async fn post(
        &self,
        path: &str,
        cookie: Option<&str>,
        body: &str,
    ) -> std::io::Result<Reply> {
        send(
            self.addr,
            "POST",
            path,
            Some(&self.origin()),
            cookie,
            Some(body),
        )
        .await
    }

    /// POSTs a form (`application/x-www-form-urlencoded`) from the app's own
    /// origin, as a page's plain form does.
    pub async fn post_form(&self, path: &str, cookie: &str, form: &str) -> std::io::Result<Reply> {
        send_as(
            self.addr,
            "POST",
            path,
            Some(&self.origin()),
            Some(cookie),
            Some(form),
            "application/x-www-form-urlencoded",
        )
        .await
    }

    /// Submits a report as the phone's outbox does.
    pub async fn submit(
        &self,
        cookie: &str,
        report: &app::model::incident::IncidentReport,
    ) -> Submitted {
        let body = serde_json::json!({ "report": report }).to_string();
        match self
            .post("/api/incidents/submit", Some(cookie), &body)
            .await
        {
            Ok(reply) if reply.status == 200 => {
                let receipt: serde_json::Value =
                    serde_json::from_str(&reply.body).expect("receipt");
                Submitted::Numbers(
                    receipt["citations"]
                        .as_array()
                        .expect("citations")
                        .iter()
                        .map(|c| c["number"].as_str().expect("number").to_owned())
                        .collect(),
                )
            }
            Ok(reply) => Submitted::Refused(reply.status, reply.body),
            Err(_) => Submitted::NoAnswer,
        }
    }

    /// Signs in; the session cookie.
    pub async fn sign_in(&self, username: &str) -> String {
        let body = serde_json::json!({ "username": username, "password": PASSWORD }).to_string();
        let reply = self
            .post("/api/session/sign-in", None, &body)
            .await
            .expect("sign in");
        assert_eq!(reply.status, 200, "sign in: {}", reply.body);
        reply.cookie.expect("session cookie")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill9();
    }
}

/// What became of a submission.
pub enum Submitted {
    /// Stored: the citation numbers it was given.
    Numbers(Vec<String>),
    /// Answered with another status (and body).
    Refused(u16, String),
    /// The connection ended without an answer.
    NoAnswer,
}

pub struct Reply {
    pub status: u16,
    /// The `name=value` of a `Set-Cookie`, if any.
    pub cookie: Option<String>,
    pub body: String,
}

async fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    origin: Option<&str>,
    cookie: Option<&str>,
    body: Option<&str>,
) -> std::io::Result<Reply> {
    send_as(addr, method, path, origin, cookie, body, "application/json").await
}

async fn send_as(
    addr: SocketAddr,
    method: &str,
    path: &str,
    origin: Option<&str>,
    cookie: Option<&str>,
    body: Option<&str>,
    content_type: &str,
) -> std::io::Result<Reply> {
    let mut stream = TcpStream::connect(addr).await?;
    let body = body.unwrap_or("");
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: application/json\r\n\
         Content-Type: {content_type}\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(origin) = origin {
        head.push_str(&format!("Origin: {origin}\r\n"));
    }
    if let Some(cookie) = cookie {
        head.push_str(&format!("Cookie: {cookie}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    parse(&raw)
}

fn parse(raw: &[u8]) -> std::io::Result<Reply> {
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_owned());
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| bad("no end of headers (connection cut)"))?;
    let head = std::str::from_utf8(&raw[..split]).map_err(|_| bad("headers not UTF-8"))?;
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("no status line"))?;
    let mut cookie = None;
    let mut chunked = false;
    let mut length = None;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match name.to_ascii_lowercase().as_str() {
            "set-cookie" => cookie = value.split(';').next().map(str::to_owned),
            "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
            "content-length" => length = value.parse::<usize>().ok(),
            _ => {}
        }
    }
    let rest = &raw[split + 4..];
    let body = if chunked {
        dechunk(rest).ok_or_else(|| bad("chunked body cut short"))?
    } else {
        if length.is_some_and(|n| rest.len() < n) {
            return Err(bad("body cut short"));
        }
        rest.to_vec()
    };
    Ok(Reply {
        status,
        cookie,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

fn dechunk(mut rest: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = rest.windows(2).position(|w| w == b"\r\n")?;
        let size = std::str::from_utf8(&rest[..line_end]).ok()?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        rest = &rest[line_end + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(rest.get(..size)?);
        rest = rest.get(size + 2..)?;
    }
}
