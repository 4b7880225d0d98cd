//! Read-path benchmark (issues #6 and #8): the chief's register and dashboard on a
//! large seeded database, through the real router (session, role check, JSON),
//! in-process so the figures are the server's and not the network's.
//!
//!   cargo bench -p server --bench read_path
//!
//! Settings (environment): `WELLS_BENCH_DB` (default `target/bench/wells-1m.db`),
//! `WELLS_BENCH_INCIDENTS` (default 1 000 000; the database is seeded with seed 1
//! up to that many the first time, which takes minutes), `WELLS_BENCH_RUNS` (per
//! register filter, default 200), `WELLS_BENCH_ONLY=export` (only the export,
//! for profiling it; the report file is left as it was). Also the officer's "My reports" and the clerk's
//! CSV export of 100 000 citations beside `sqlite3 -csv` (issue #8). Prints a
//! Markdown report and writes it to `target/bench/read-path.md`.
//!
//! `WELLS_BENCH_DB` may be a PostgreSQL database's address (issue #21): the
//! same figures on it (the export's limit is then `psql --csv`), and the report
//! goes to `target/bench/read-path-<WELLS_BENCH_NAME>.md` (`make bench` names
//! its runs).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use app::auth::By;
use app::model::account::{NewUser, Role};
use app::store::accounts;
use app::store::Store;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

const PASSWORD: &str = "benchmark pass phrase 2026";

/// Said in the report: what runs untimed before it is timed, and why.
const WARM_FIRST: &str = "A sequence that reads many different rows (paging deep, the export) \
    runs once untimed before it is timed: this machine pages out memory left unused for a few \
    minutes (Linux DAMON `pageout`), and a 9 GB file read cold times the disk, not the server, \
    whose working set stays in memory while it serves. A register filter's 200 runs include \
    their first.";

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

struct Bench {
    router: Router,
    origin: String,
    cookie: String,
}

impl Bench {
    async fn post(&self, path: &str, body: &Value) -> (StatusCode, Value, Duration) {
        let request = Request::post(path)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ORIGIN, &self.origin)
            .header(header::COOKIE, &self.cookie)
            .body(Body::from(body.to_string()))
            .expect("request");
        let started = Instant::now();
        let response = self
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("response");
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        let took = started.elapsed();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
            took,
        )
    }
}

impl Bench {
    /// The real router, and a session of `username` (password `PASSWORD`).
    async fn signed_in(
        state: &app::state::AppState,
        serve: &server::config::Serve,
        username: &str,
    ) -> Bench {
        let router = server::router(state.clone());
        let origin = serve.public_origin();
        let sign_in = Request::post("/api/session/sign-in")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ORIGIN, &origin)
            .body(Body::from(
                json!({ "username": username, "password": PASSWORD }).to_string(),
            ))
            .expect("request");
        let reply = router.clone().oneshot(sign_in).await.expect("sign in");
        assert_eq!(reply.status(), StatusCode::OK, "{username} signs in");
        let cookie = reply
            .headers()
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|c| c.starts_with("wells_session="))
            .and_then(|c| c.split(';').next())
            .expect("cookie")
            .to_owned();
        Bench {
            router,
            origin,
            cookie,
        }
    }
}

/// A bench account with `role`, made once.
async fn account(state: &app::state::AppState, username: &str, role: Role) {
    if accounts::find_by_username(&state.store.reader, username)
        .await
        .expect("find")
        .is_some()
    {
        return;
    }
    let new = NewUser {
        username: username.into(),
        full_name: format!("Bench {}", role.code()),
        badge_number: (role == Role::Officer).then(|| "990".to_owned()),
        roles: vec![role],
        password: PASSWORD.into(),
    };
    let hash = app::auth::password::hash(PASSWORD).expect("hash");
    let now = app::auth::clock::Clock::now(&app::auth::clock::SystemClock);
    let by = By {
        actor: None,
        source: Some("bench"),
        now,
    };
    accounts::create_user(&state.store, by, &new, &hash)
        .await
        .expect("account");
}

/// The officer's "My reports" for the seed officer with the most reports: the
/// bench takes over that (disabled, password-less) seed account, on the bench's
/// own database only.
async fn my_reports(
    state: &app::state::AppState,
    serve: &server::config::Serve,
    report: &mut String,
    runs: usize,
) {
    let hash = app::auth::password::hash(PASSWORD).expect("hash");
    let (username, reports): (String, i64) = sqlx::query_as(
        "SELECT u.username, COUNT(*) FROM incident i JOIN app_user u ON u.user_id = i.officer_id \
         WHERE substr(u.username, 1, 13) = 'seed-officer-' GROUP BY u.username ORDER BY 2 DESC LIMIT 1",
    )
    .fetch_one(&state.store.reader)
    .await
    .expect("busiest officer");
    sqlx::query("UPDATE app_user SET active = 1, password_hash = $1 WHERE username = $2")
        .bind(&hash)
        .bind(&username)
        .execute(&state.store.writer)
        .await
        .expect("take over the seed officer");
    let bench = Bench::signed_in(state, serve, &username).await;
    let mut first = Vec::new();
    for _ in 0..runs {
        let (status, page, took) = bench
            .post("/api/incidents/mine", &json!({ "before": null }))
            .await;
        assert_eq!(status, StatusCode::OK, "{page}");
        first.push(took);
    }
    first.sort();
    // Paging back: 20 pages through the officer's history (once untimed first:
    // see `WARM_FIRST`).
    let mut deep = Vec::new();
    for timed in [false, true] {
        let mut before = Value::Null;
        for _ in 0..20 {
            let (status, page, took) = bench
                .post("/api/incidents/mine", &json!({ "before": before }))
                .await;
            assert_eq!(status, StatusCode::OK, "{page}");
            if timed {
                deep.push(took);
            }
            match page.as_array().and_then(|rows| rows.last()) {
                Some(last) => before = last["occurred_at"].clone(),
                None => break,
            }
        }
    }
    deep.sort();
    let line = format!(
        "\n## Officer's \"My reports\" (50 rows), `POST /api/incidents/mine`\n\n\
         An officer with {reports} reports.\n\n| page | runs | p50 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|\n\
         | first page | {} | {} | {} | {} |\n| pages 1–20 going back | {} | {} | {} | {} |\n",
        first.len(),
        ms(quantile(&first, 0.5)),
        ms(quantile(&first, 0.99)),
        ms(*first.last().expect("runs")),
        deep.len(),
        ms(quantile(&deep, 0.5)),
        ms(quantile(&deep, 0.99)),
        ms(*deep.last().expect("pages")),
    );
    eprint!("{line}");
    report.push_str(&line);
}

/// The clerk's CSV export of 100 000 citations (`POST /court/export`, a date
/// range of issuance) beside `sqlite3 -csv` of the same rows on the same file.
async fn export(
    state: &app::state::AppState,
    serve: &server::config::Serve,
    path: &std::path::Path,
    report: &mut String,
) {
    const WANTED: i64 = 100_000;
    account(state, "bench-clerk", Role::Clerk).await;
    let bench = Bench::signed_in(state, serve, "bench-clerk").await;
    let court = "c.status IN ('approved', 'filed', 'disposed')";
    let bounds: Option<(i64, i64)> = sqlx::query_as(&format!(
        "SELECT MIN(issued_at), MAX(issued_at) FROM (SELECT c.issued_at FROM citation c WHERE {court} \
         ORDER BY c.issued_at LIMIT {WANTED}) AS page"
    ))
    .fetch_optional(&state.store.reader)
    .await
    .expect("range");
    let Some((first, last)) = bounds else {
        report.push_str("\n## Export\n\nNo citation at court in this database.\n");
        return;
    };
    let zone = &state.settings.town_zone;
    let (from, to) = (
        zone.date(app::ordinance::Moment(first)),
        zone.date(app::ordinance::Moment(last)),
    );
    // The limit: the rows each line is made from (citation, officer, incident,
    // person), straight out of SQLite's own shell, written as CSV.
    let (start, end) = (
        zone.end_of_day(&from).expect("from").0 - 86_400_000,
        zone.end_of_day(&to).expect("to").0,
    );
    let select = format!(
        "SELECT c.number, c.status, c.issued_at, c.issued_by, c.offence, c.arrest, c.court_name, \
         c.court_address, c.appearance_date, u.full_name, u.badge_number, s.identified, s.full_name, \
         s.date_of_birth, s.address, s.id_type, s.id_number, s.description, i.occurred_at, \
         i.location_text, i.place_type \
         FROM citation c JOIN app_user u ON u.user_id = c.issued_by JOIN incident i USING (incident_id) \
         JOIN subject s ON s.subject_id = c.subject_id \
         WHERE {court} AND c.issued_at BETWEEN {start} AND {end} ORDER BY c.year, c.seq"
    );
    let address = path.to_string_lossy();
    let shell_run = |out: &std::path::Path| {
        let mut shell = if app::store::is_postgres(&address) {
            let mut psql = std::process::Command::new("psql");
            psql.arg("--csv")
                .arg(format!("--dbname={address}"))
                .arg("-c")
                .arg(&select);
            psql
        } else {
            let mut sqlite = std::process::Command::new("sqlite3");
            sqlite.arg("-csv").arg("-readonly").arg(path).arg(&select);
            sqlite
        };
        shell
            .stdout(std::fs::File::create(out).expect("csv file"))
            .status()
    };
    // Both read the same 100 000 citations' rows scattered over a 9 GB file: one
    // untimed pass of the limit first (see `WARM_FIRST`), then the limit timed.
    let _ = shell_run(std::path::Path::new("/dev/null"));
    // The limit first: the export then records its batch (100 000 rows written),
    // which the limit would otherwise read past in the WAL.
    let out =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench/sqlite3-export.csv");
    // The fastest of three: a limit is the best this machine does (a run here
    // sometimes takes ten times as long as the next).
    let mut limit = Duration::MAX;
    let mut shell = Err(std::io::Error::other("not run"));
    for _ in 0..3 {
        let started = Instant::now();
        shell = shell_run(&out);
        limit = limit.min(started.elapsed());
    }
    let request = Request::post("/court/export")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ORIGIN, &bench.origin)
        .header(header::COOKIE, &bench.cookie)
        .body(Body::from(format!(
            "format=csv&numbers=&from={from}&to={to}"
        )))
        .expect("request");
    let started = Instant::now();
    let response = bench.router.clone().oneshot(request).await.expect("export");
    let status = response.status();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    let took = started.elapsed();
    assert_eq!(
        status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&bytes[..bytes.len().min(300)])
    );
    let rows = csv::Reader::from_reader(&bytes[..]).records().count();

    let line = match shell {
        Ok(s) if s.success() => format!(
            "\n## Export: CSV of {rows} citations\n\n| | seconds | MB |\n|---|---:|---:|\n\
             | `POST /court/export` (format=csv, {from} to {to}; each citation's line from its rows, the batch recorded) | {:.2} | {:.1} |\n\
             | `{}` of the same rows (the limit; fastest of 3) | {:.2} | {:.1} |\n\
             | **ratio** (target ≤ 2) | **{:.2}** | |\n",
            took.as_secs_f64(),
            bytes.len() as f64 / 1e6,
            if app::store::is_postgres(&address) { "psql --csv" } else { "sqlite3 -csv" },
            limit.as_secs_f64(),
            std::fs::metadata(&out).map_or(0, |m| m.len()) as f64 / 1e6,
            took.as_secs_f64() / limit.as_secs_f64(),
        ),
        _ => format!(
            "\n## Export: CSV of {rows} citations\n\n`POST /court/export`: {:.2} s; `sqlite3` is not installed here, so no limit was measured.\n",
            took.as_secs_f64()
        ),
    };
    eprint!("{line}");
    report.push_str(&line);
}

fn quantile(sorted: &[Duration], q: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

#[tokio::main]
async fn main() {
    // cargo runs a bench in its package folder; the files go to the workspace's target/.
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
    let path: PathBuf = env("WELLS_BENCH_DB", out.join("wells-1m.db"));
    let address = path.to_string_lossy().into_owned();
    let postgres = app::store::is_postgres(&address);
    let wanted: u64 = env("WELLS_BENCH_INCIDENTS", 1_000_000);
    let runs: usize = env("WELLS_BENCH_RUNS", 200);
    if let Some(dir) = path.parent().filter(|_| !postgres) {
        std::fs::create_dir_all(dir).expect("bench folder");
    }
    let store = Store::connect(&address).await.expect("open");
    let serve = server::config::Serve {
        sign_in_per_minute: 10_000,
        ..server::config::Serve::default()
    };
    let state = server::app_state(
        store,
        &serve,
        app::auth::second_factor::SealingKey::random(),
    )
    .expect("state");
    // The bench measures reads, not the sign-in: password sign-in, as on an
    // upgraded install (#18).
    sqlx::query("UPDATE setting SET value = '0' WHERE key = 'auth.second_factor_required'")
        .execute(&state.store.writer)
        .await
        .expect("policy");
    let have: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM incident")
        .fetch_one(&state.store.reader)
        .await
        .expect("count");
    let mut seeding = None;
    if (have as u64) < wanted {
        let started = Instant::now();
        let plan = app::store::seed::SeedPlan {
            incidents: wanted - have as u64,
            seed: 1 + have as u64,
            force: false,
        };
        let now = app::auth::clock::Clock::now(&app::auth::clock::SystemClock);
        app::store::seed::seed(&state.store, &state.settings.town_zone, plan, now)
            .await
            .expect("seed");
        // The statistics a long-running server has (SQLite's optimize, PostgreSQL's
        // autovacuum analyse, which would otherwise run in the middle of the timing).
        sqlx::query(if postgres {
            "ANALYZE"
        } else {
            "PRAGMA optimize"
        })
        .execute(&state.store.writer)
        .await
        .expect("optimize");
        seeding = Some(started.elapsed());
    }
    let incidents: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM incident")
        .fetch_one(&state.store.reader)
        .await
        .expect("count");
    let bytes = if postgres {
        sqlx::query_scalar::<_, i64>("SELECT pg_database_size(current_database())")
            .fetch_one(&state.store.reader)
            .await
            .map_or(0, |b| b as u64)
    } else {
        std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0)
    };
    let engine = if postgres { "PostgreSQL" } else { "SQLite" };

    if std::env::var("WELLS_BENCH_ONLY").as_deref() == Ok("export") {
        let mut report = String::new();
        export(&state, &serve, &path, &mut report).await;
        return;
    }
    account(&state, "bench-chief", Role::Chief).await;
    let bench = Bench::signed_in(&state, &serve, "bench-chief").await;

    // Values to filter on, taken from the data.
    let pool = &state.store.reader;
    let officer: String = sqlx::query_scalar("SELECT officer_id FROM incident LIMIT 1")
        .fetch_one(pool)
        .await
        .expect("officer");
    let number: String =
        sqlx::query_scalar("SELECT number FROM citation ORDER BY seq DESC LIMIT 1 OFFSET 5000")
            .fetch_one(pool)
            .await
            .expect("number");
    let person: String = sqlx::query_scalar(
        "SELECT full_name FROM subject WHERE full_name IS NOT NULL LIMIT 1 OFFSET 123456",
    )
    .fetch_one(pool)
    .await
    .expect("a person");
    let today = state
        .settings
        .town_zone
        .date(app::auth::clock::Clock::now(&app::auth::clock::SystemClock));
    let year_ago = state.settings.town_zone.date(app::ordinance::Moment(
        app::auth::clock::Clock::now(&app::auth::clock::SystemClock).0 - 364 * 86_400_000,
    ));
    let month_from = format!("{}-07-01", &year_ago[..4]);
    let month_to = format!("{}-07-31", &year_ago[..4]);
    let filters: Vec<(&str, Value)> = vec![
        ("no filter, page 1", json!({})),
        ("one officer", json!({ "officer": officer })),
        ("offence §52-2", json!({ "offence": "52-2" })),
        ("outcome cited", json!({ "outcome": "cited" })),
        ("caution: GPS far", json!({ "caution": "gps_far" })),
        ("one July", json!({ "from": month_from, "to": month_to })),
        (
            "July + officer + cited",
            json!({ "from": month_from, "to": month_to, "officer": officer, "outcome": "cited" }),
        ),
        ("citation number", json!({ "text": number })),
        ("location prefix", json!({ "text": "Mile Road" })),
        ("person's full name", json!({ "text": person })),
        // Any part of a name, place or number (issue #16): a common surname is
        // walked in date order, a rare text found in the trigram index.
        ("a surname (common)", json!({ "text": "Thibodeau" })),
        ("a word inside a place", json!({ "text": "Shopping" })),
        (
            "a number's last digits",
            json!({ "text": &number[number.len() - 6..] }),
        ),
        ("a name no one has", json!({ "text": "Featherstonehaugh" })),
        ("weekday + hour", json!({ "weekday": 5, "hour": 15 })),
    ];

    let mut report = String::new();
    report.push_str(&format!(
        "# Read path on {engine} at {incidents} incidents\n\n{} · database {:.2} GB · {} runs per register filter{}\n\n{WARM_FIRST}\n\n",
        std::env::consts::ARCH,
        bytes as f64 / 1e9,
        runs,
        seeding.map(|d| format!(" · seeded in {:.0} s", d.as_secs_f64())).unwrap_or_default()
    ));
    report.push_str("## Register page (50 rows), `POST /api/register/search`\n\n| filter | rows | p50 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|\n");
    let mut all = Vec::new();
    for (name, filter) in &filters {
        let mut times = Vec::with_capacity(runs);
        let mut rows = 0;
        // Each filter gets `runs` requests or 20 s, whichever ends first (a slow
        // filter is reported with the runs it managed, not left to run for an hour).
        let budget = Instant::now();
        for _ in 0..runs {
            if budget.elapsed() > Duration::from_secs(20) && times.len() >= 5 {
                break;
            }
            let (status, page, took) = bench
                .post(
                    "/api/register/search",
                    &json!({ "filter": filter, "after": null }),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{name}: {page}");
            rows = page["rows"].as_array().map_or(0, Vec::len);
            times.push(took);
        }
        times.sort();
        all.extend_from_slice(&times);
        let line = format!(
            "| {name} ({} runs) | {rows} | {} | {} | {} |\n",
            times.len(),
            ms(quantile(&times, 0.5)),
            ms(quantile(&times, 0.99)),
            ms(*times.last().expect("runs"))
        );
        eprint!("{line}");
        report.push_str(&line);
    }
    // Deep paging: follow the cursor 100 pages into the unfiltered register
    // (once untimed first: see `WARM_FIRST`).
    let mut deep = Vec::new();
    for timed in [false, true] {
        let mut after = Value::Null;
        for _ in 0..100 {
            let (status, page, took) = bench
                .post(
                    "/api/register/search",
                    &json!({ "filter": {}, "after": after }),
                )
                .await;
            assert_eq!(status, StatusCode::OK);
            after = page["next"].clone();
            if timed {
                deep.push(took);
            }
        }
    }
    deep.sort();
    all.extend_from_slice(&deep);
    report.push_str(&format!(
        "| pages 1–100 by cursor | 50 | {} | {} | {} |\n",
        ms(quantile(&deep, 0.5)),
        ms(quantile(&deep, 0.99)),
        ms(*deep.last().expect("pages"))
    ));
    all.sort();
    report.push_str(&format!(
        "| **all of the above** | | {} | **{}** | {} |\n\n",
        ms(quantile(&all, 0.5)),
        ms(quantile(&all, 0.99)),
        ms(*all.last().expect("all"))
    ));

    report.push_str("## Dashboard, `POST /api/dashboard` (every figure)\n\n| period | incidents in it | runs | median ms | max ms |\n|---|---:|---:|---:|---:|\n");
    let first: String = sqlx::query_scalar("SELECT MIN(local_date) FROM incident")
        .fetch_one(pool)
        .await
        .expect("first");
    for (name, from, to) in [
        ("one July", month_from.clone(), month_to.clone()),
        ("last 365 days", year_ago.clone(), today.clone()),
        ("everything", first.clone(), today.clone()),
    ] {
        let mut times = Vec::new();
        let mut n = String::new();
        for _ in 0..5 {
            let (status, d, took) = bench
                .post(
                    "/api/dashboard",
                    &json!({ "period": { "from": from, "to": to } }),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{name}: {d}");
            n = d["totals"][0]["value"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            times.push(took);
        }
        times.sort();
        let line = format!(
            "| {name} | {n} | 5 | {} | {} |\n",
            ms(times[2]),
            ms(times[4])
        );
        eprint!("{line}");
        report.push_str(&line);
    }
    my_reports(&state, &serve, &mut report, runs).await;
    export(&state, &serve, &path, &mut report).await;
    println!("{report}");
    std::fs::create_dir_all(&out).ok();
    let file = match std::env::var("WELLS_BENCH_NAME") {
        Ok(name) => format!("read-path-{name}.md"),
        Err(_) => "read-path.md".to_owned(),
    };
    std::fs::write(out.join(file), &report).expect("write report");
}
