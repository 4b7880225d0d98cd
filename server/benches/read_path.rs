//! Read-path benchmark (issues #6 and #8): the chief's register and dashboard on a
//! large seeded database, through the real router (session, role check, JSON),
//! in-process so the figures are the server's and not the network's.
//!
//!   cargo bench -p server --bench read_path
//!
//! Settings (environment): `WELLS_BENCH_DB` (default `target/bench/wells-1m.db`),
//! `WELLS_BENCH_INCIDENTS` (default 1 000 000; the database is seeded with seed 1
//! up to that many the first time, which takes minutes), `WELLS_BENCH_RUNS` (per
//! register filter, default 200). Prints a Markdown report and writes it to
//! `target/bench/read-path.md`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use app::model::account::{NewUser, Role};
use app::store::accounts::{self, By};
use app::store::Store;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

const PASSWORD: &str = "benchmark pass phrase 2026";

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
    let wanted: u64 = env("WELLS_BENCH_INCIDENTS", 1_000_000);
    let runs: usize = env("WELLS_BENCH_RUNS", 200);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("bench folder");
    }
    let store = Store::open(&path).await.expect("open");
    let serve = server::config::Serve {
        sign_in_per_minute: 10_000,
        ..server::config::Serve::default()
    };
    let state = server::app_state(store, &serve).expect("state");
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
        sqlx::query("PRAGMA optimize")
            .execute(&state.store.writer)
            .await
            .expect("optimize");
        seeding = Some(started.elapsed());
    }
    let incidents: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM incident")
        .fetch_one(&state.store.reader)
        .await
        .expect("count");
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);

    // A chief to read as.
    if accounts::find_by_username(&state.store.reader, "bench-chief")
        .await
        .expect("find")
        .is_none()
    {
        let new = NewUser {
            username: "bench-chief".into(),
            full_name: "Bench Chief".into(),
            badge_number: None,
            roles: vec![Role::Chief],
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
            .expect("chief");
    }
    let router = server::router(state.clone());
    let origin = serve.public_origin();
    let sign_in = Request::post("/api/session/sign-in")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ORIGIN, &origin)
        .body(Body::from(
            json!({ "username": "bench-chief", "password": PASSWORD }).to_string(),
        ))
        .expect("request");
    let reply = router.clone().oneshot(sign_in).await.expect("sign in");
    assert_eq!(reply.status(), StatusCode::OK, "bench chief signs in");
    let cookie = reply
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("wells_session="))
        .and_then(|c| c.split(';').next())
        .expect("cookie")
        .to_owned();
    let bench = Bench {
        router,
        origin,
        cookie,
    };

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
        ("person name prefix", json!({ "text": "Thibodeau" })),
        ("weekday + hour", json!({ "weekday": 5, "hour": 15 })),
    ];

    let mut report = String::new();
    report.push_str(&format!(
        "# Read path at {incidents} incidents\n\n{} · database {:.2} GB · {} runs per register filter{}\n\n",
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
    // Deep paging: follow the cursor 100 pages into the unfiltered register.
    let mut after = Value::Null;
    let mut deep = Vec::new();
    for _ in 0..100 {
        let (status, page, took) = bench
            .post(
                "/api/register/search",
                &json!({ "filter": {}, "after": after }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        after = page["next"].clone();
        deep.push(took);
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
    println!("{report}");
    std::fs::create_dir_all(&out).ok();
    std::fs::write(out.join("read-path.md"), &report).expect("write report");
}
