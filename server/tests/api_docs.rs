//! Runs every `sh` example of `docs/api.md`, in order, against the real server
//! binary on a free loopback port: the documentation integrators rely on cannot
//! drift from the API.

use std::io::Write;
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const PASSWORD: &str = "correct horse battery staple";
const TOTP_SECRET: &str = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The fenced `sh` blocks of a Markdown text, in order.
/// Days from today to the next day the Town's offices are open, and that day
/// (`YYYY-MM-DD`), on the Town's calendar.
fn next_meeting_day() -> (i64, String) {
    let zone = app::town_time::TownZone::named("America/New_York").expect("the Town's zone");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970");
    let today = app::model::civil::day_number(&zone.date(app::ordinance::Moment(
        i64::try_from(now.as_millis()).expect("a time"),
    )))
    .expect("a date");
    let open = (0..10)
        .find(|d| app::model::court_calendar::town_closed(today + d).is_none())
        .expect("the Town's offices open within ten days");
    (open, app::model::civil::date_text(today + open))
}

fn sh_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```sh") => current = Some(String::new()),
            (Some(block), "```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), text) => {
                block.push_str(text);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn every_curl_example_in_docs_api_md_works() {
    let bin = env!("CARGO_BIN_EXE_server");
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("api.db");
    let base_env = |cmd: &mut Command| {
        cmd.env("WELLS_DATABASE", &db)
            .env("WELLS_LOG", "warn")
            .current_dir(dir.path());
    };
    for (user, role, badge) in [
        ("admin", "admin", None),
        ("officer", "officer", Some("117")),
        ("chief", "chief", None),
        ("clerk", "clerk", None),
        ("townclerk", "town_clerk", None),
        ("selectman", "selectman", None),
    ] {
        let mut cmd = Command::new(bin);
        base_env(&mut cmd);
        cmd.args(["user", "add", user, "--role", role, "--name", "API Example"]);
        // A new install requires a second factor (#18): each account has an
        // authenticator, and the examples compute its codes.
        cmd.args(["--totp-secret", TOTP_SECRET]);
        if let Some(b) = badge {
            cmd.args(["--badge", b]);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .expect("server user add");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(format!("{PASSWORD}\n").as_bytes())
            .expect("password");
        assert!(
            child.wait().expect("user add ends").success(),
            "user add {user}"
        );
    }

    // The permits example records a decision of the Board at a meeting held
    // today; the Board meets on the days the Town's offices are open (issue
    // #37), so on a weekend or a holiday the server's clock is moved on to
    // the next such day (a debug build's `--test-clock-offset-days`).
    let (offset_days, meeting) = next_meeting_day();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut cmd = Command::new(bin);
    base_env(&mut cmd);
    cmd.env("WELLS_TEST_CLOCK_OFFSET_DAYS", offset_days.to_string());
    let server = Server(
        cmd.args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .env("WELLS_PUBLIC_ORIGIN", &base)
            .stdout(Stdio::null())
            .spawn()
            .expect("server starts"),
    );
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "server did not listen"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    let markdown = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/api.md"))
        .expect("docs/api.md");
    let blocks = sh_blocks(&markdown);
    assert!(blocks.len() >= 12, "only {} examples found", blocks.len());
    let mut script = String::from("set -euo pipefail\n");
    for (i, block) in blocks.iter().enumerate() {
        script.push_str(&format!("echo '--- example {}' >&2\n{block}\n", i + 1));
    }
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .env("BASE", &base)
        .env("MEETING", &meeting)
        .env("PASSWORD", PASSWORD)
        .env("TOTP_SECRET", TOTP_SECRET)
        .current_dir(dir.path())
        .output()
        .expect("bash runs");
    drop(server);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "an example failed.\nstdout:\n{stdout}\nstderr (the last marker is the failing example):\n{stderr}"
    );
    // The walk ends with the citation void and the register finding the report.
    assert!(stdout.contains("\"void\""), "{stdout}");
    assert!(
        stdout.contains("Post Road (Route 1) at Mile Road"),
        "{stdout}"
    );
}
