//! Publishing a month at 1 000 000-incident scale (issue #40): a benchmark that
//! reports figures, not a test.
//!
//!   cargo bench -p server --bench transparency
//!
//! Publishing never reads the incidents: it reads the counts the rollup keeps
//! per day, month and year (`dashboard_count`, measures `pub_*`, keys
//! `officer|row|class`, `store::dashboard::published`), the year's earlier
//! publications, and decides what to withhold against them. So the bench fills
//! those counts directly, as the rollup would have them after a month of
//! `WELLS_BENCH_INCIDENTS` incidents (default 1 000 000) with 1.5 persons each
//! (the seed's mix: one to three persons a report, groups of two to four):
//!
//! - for each of `WELLS_BENCH_MONTHS` months (default 3: January on of last
//!   year), every day, every one of `WELLS_BENCH_OFFICERS` officers (default 40)
//!   and every class (what happened to the person), a number of persons — the
//!   month's persons spread unevenly over officers and classes;
//! - each such number split over the rows of each of the seven tables (so every
//!   table counts the same persons, as the rollup's do), unevenly;
//! - every key present every day: at a million incidents a month (some 32 000 a
//!   day) every combination occurs, so these are the most rows such a month can
//!   have — the rollup's rows grow with officers × rows × classes × days, not
//!   with incidents; the counts' size does not change the work;
//! - the months' and the year's rows as the sums of the days', as
//!   `rollup::refresh` adds them up.
//!
//! Then, through the real router as the chief (session, role check, JSON): the
//! preview and the publication of each month in turn (each later month decided
//! against every view of the year already published), a correction of the
//! last (120 persons more; revision 2, decided against revision 1 too), and
//! the public page, JSON and CSV of it, the year to date, and the chief's own
//! tables. Not measured: the preview's count of the month's reports awaiting
//! review (an index range of `incident.local_date`; there are no incidents here).
//!
//! The database is a new SQLite file, `target/bench/transparency.db`, removed
//! at the end. The Markdown goes to stdout and to `target/bench/transparency.md`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use app::auth::By;
use app::model::account::{NewUser, Role};
use app::model::transparency::{Class, Dimension, Month};
use app::store::accounts;
use app::store::dashboard::published;
use app::store::Store;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

const PASSWORD: &str = "benchmark pass phrase 2026";
/// Persons a report, on average (the seed's mix).
const PERSONS_PER_INCIDENT: f64 = 1.5;

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A small deterministic generator (the figures must not depend on a crate's
/// random numbers).
struct Weights(u64);

impl Weights {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A weight of 1 to 9.
    fn weight(&mut self) -> u64 {
        1 + self.next() % 9
    }
}

/// `total` split over `weights`, every part its share rounded down and the
/// rest to the first parts: the parts add up to `total` exactly.
fn split(total: u64, weights: &[u64]) -> Vec<u64> {
    let sum: u64 = weights.iter().sum();
    let mut parts: Vec<u64> = weights.iter().map(|w| total * w / sum).collect();
    // Fewer left over than there are parts: each of the first gets one more.
    let rest = (total - parts.iter().sum::<u64>()) as usize;
    for p in parts.iter_mut().take(rest) {
        *p += 1;
    }
    parts
}

/// The rollup's rows: (grain, bucket, measure, key) → n.
type Rows = BTreeMap<(&'static str, String, &'static str, String), u64>;

/// Every day of `month`, as `YYYY-MM-DD`.
fn days(month: Month) -> Vec<String> {
    let last: u32 = month.last_day()[8..].parse().expect("a day");
    (1..=last)
        .map(|d| format!("{}-{d:02}", month.code()))
        .collect()
}

/// The counts of `month`'s days at `persons` persons, with their month's and
/// year's sums added to `rows`.
fn fill_month(rows: &mut Rows, month: Month, persons: u64, officers: &[String], seed: u64) {
    let mut w = Weights(seed);
    let officer_weights: Vec<u64> = officers.iter().map(|_| w.weight()).collect();
    // Most persons comply; few are protected or cited without an order.
    let class_weights = [50, 12, 8, 4, 6, 20];
    let days = days(month);
    let per_day = split(persons, &vec![1; days.len()]);
    for (day, n) in days.iter().zip(per_day) {
        let by_officer = split(n, &officer_weights);
        for (officer, n) in officers.iter().zip(by_officer) {
            let by_class = split(n, &class_weights);
            for (class, n) in Class::ALL.into_iter().zip(by_class) {
                for table in Dimension::ALL {
                    let table_rows = table.rows();
                    let weights: Vec<u64> = table_rows.iter().map(|_| w.weight()).collect();
                    // At least one person in every key when there are enough
                    // (at a million incidents there are): one each, the rest spread.
                    let each = u64::from(n >= table_rows.len() as u64);
                    let spread = split(n - each * table_rows.len() as u64, &weights);
                    for ((row, _), k) in table_rows.iter().zip(spread) {
                        let k = k + each;
                        if k == 0 {
                            continue;
                        }
                        let key = format!("{officer}|{row}|{}", class.code());
                        let measure = published::measure(table);
                        for (grain, bucket) in [
                            ("day", day.clone()),
                            ("month", month.code()),
                            ("year", month.year.to_string()),
                        ] {
                            *rows
                                .entry((grain, bucket, measure, key.clone()))
                                .or_insert(0) += k;
                        }
                    }
                }
            }
        }
    }
}

/// Writes `rows` in one transaction, a thousand rows a statement.
async fn write(store: &Store, rows: &Rows) {
    let mut tx = store.begin_write().await.expect("write");
    let all: Vec<_> = rows.iter().collect();
    for chunk in all.chunks(1000) {
        let mut sql = String::from(
            "INSERT INTO dashboard_count (grain, bucket, measure, key, label, n) VALUES ",
        );
        for (i, ((grain, bucket, measure, key), n)) in chunk.iter().enumerate() {
            if i > 0 {
                sql.push(',');
            }
            write!(
                sql,
                "('{grain}', '{bucket}', '{measure}', '{key}', NULL, {n})"
            )
            .expect("sql");
        }
        sqlx::query(&sql).execute(&mut *tx).await.expect("insert");
    }
    tx.commit().await.expect("commit");
}

struct Bench {
    router: Router,
    origin: String,
    cookie: String,
}

struct Reply {
    status: StatusCode,
    body: Vec<u8>,
    took: Duration,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

impl Bench {
    async fn send(&self, request: Request<Body>) -> Reply {
        let started = Instant::now();
        let response = self
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("response");
        let status = response.status();
        let body = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes()
            .to_vec();
        Reply {
            status,
            body,
            took: started.elapsed(),
        }
    }

    async fn post(&self, path: &str, body: &Value) -> Reply {
        let request = Request::post(path)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ORIGIN, &self.origin)
            .header(header::COOKIE, &self.cookie)
            .body(Body::from(body.to_string()))
            .expect("request");
        let reply = self.send(request).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{path}: {}",
            String::from_utf8_lossy(&reply.body)
        );
        reply
    }

    /// A public address, not signed in.
    async fn get(&self, path: &str) -> Reply {
        let request = Request::get(path).body(Body::empty()).expect("request");
        let reply = self.send(request).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        reply
    }
}

async fn chief(state: &app::state::AppState, serve: &server::config::Serve) -> Bench {
    let new = NewUser {
        username: "bench-chief".into(),
        full_name: "Bench chief".into(),
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
        .expect("account");
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
    assert_eq!(reply.status(), StatusCode::OK, "the chief signs in");
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

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

/// The median and the slowest of `runs` requests.
async fn timed<F, Fut>(runs: usize, mut call: F) -> (Duration, Duration, usize)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Reply>,
{
    let mut times = Vec::with_capacity(runs);
    let mut bytes = 0;
    for _ in 0..runs {
        let reply = call().await;
        bytes = reply.body.len();
        times.push(reply.took);
    }
    times.sort();
    (times[times.len() / 2], times[times.len() - 1], bytes)
}

/// A row of the report, also printed as it is measured.
fn line(report: &mut String, step: String, took: String, bytes: usize) {
    let row = format!("| {step} | {took} | {bytes} |\n");
    eprint!("{row}");
    report.push_str(&row);
}

fn remove(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut file = path.as_os_str().to_owned();
        file.push(suffix);
        let _ = std::fs::remove_file(file);
    }
}

#[tokio::main]
async fn main() {
    // cargo runs a bench in its package folder; the files go to the workspace's target/.
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
    std::fs::create_dir_all(&out).expect("bench folder");
    let incidents: u64 = env("WELLS_BENCH_INCIDENTS", 1_000_000);
    let months_wanted: u32 = env("WELLS_BENCH_MONTHS", 3).clamp(1, 11);
    let officer_count: usize = env("WELLS_BENCH_OFFICERS", 40);
    let runs: usize = env("WELLS_BENCH_RUNS", 5).max(1);
    let path = out.join("transparency.db");
    remove(&path);
    let store = Store::open(&path).await.expect("open");
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
    sqlx::query("UPDATE setting SET value = '0' WHERE key = 'auth.second_factor_required'")
        .execute(&state.store.writer)
        .await
        .expect("policy");

    // The counts.
    let today = state
        .settings
        .town_zone
        .date(app::auth::clock::Clock::now(&app::auth::clock::SystemClock));
    let year: i32 = today[..4].parse::<i32>().expect("a year") - 1;
    let months: Vec<Month> = (1..=months_wanted)
        .map(|month| Month { year, month })
        .collect();
    let officers: Vec<String> = (0..officer_count)
        .map(|i| format!("00000000-0000-7000-8000-{i:012}"))
        .collect();
    let persons = (incidents as f64 * PERSONS_PER_INCIDENT) as u64;
    let started = Instant::now();
    let mut rows = Rows::new();
    for (i, month) in months.iter().enumerate() {
        fill_month(
            &mut rows,
            *month,
            persons,
            &officers,
            0x9E37_79B9 + i as u64,
        );
    }
    let per_grain = |grain: &str| rows.keys().filter(|k| k.0 == grain).count();
    let (day_rows, month_rows, year_rows) =
        (per_grain("day"), per_grain("month"), per_grain("year"));
    write(&state.store, &rows).await;
    let filled = started.elapsed();
    drop(rows);

    let bench = chief(&state, &serve).await;
    let mut report = String::new();
    let _ = write!(
        report,
        "# Transparency: publishing a month at {incidents} incidents (issue #40)\n\n\
         {} · SQLite · `cargo bench -p server --bench transparency`{}\n\n\
         The rollup's counts filled directly (publishing reads only those, never the incidents): \
         {} month(s) of {year}, each of {incidents} incidents × {PERSONS_PER_INCIDENT} persons = {persons} persons, \
         {officer_count} officers, every officer × row × class key present every day — \
         {day_rows} day rows, {month_rows} month rows, {year_rows} year rows, written in {:.1} s. \
         Through the real router as the chief; reads are the median and the slowest of {runs}.\n\n\
         | step | ms | bytes |\n|---|---:|---:|\n",
        std::env::consts::ARCH,
        if cfg!(debug_assertions) { " (debug profile)" } else { " (release profile)" },
        months.len(),
        filled.as_secs_f64(),
    );
    for month in &months {
        let code = month.code();
        let preview = bench
            .post("/api/transparency/preview", &json!({ "month": code }))
            .await;
        assert_eq!(preview.json()["revision"], 1, "{code} unpublished");
        line(
            &mut report,
            format!("preview {code} (revision 1)"),
            ms(preview.took),
            preview.body.len(),
        );
        let published = bench
            .post(
                "/api/transparency/publish",
                &json!({ "month": code, "revision": 1, "reason": null }),
            )
            .await;
        line(
            &mut report,
            format!("**publish {code}** (revision 1)"),
            format!("**{}**", ms(published.took)),
            published.body.len(),
        );
    }

    // A correction of the last month: 120 persons more, cited after refusing,
    // reported by the first officer, in every table's first row (a change of
    // a few persons may change nothing published, and then there is no
    // correction to make).
    let last = *months.last().expect("a month");
    let key_class = Class::RefusedCited.code();
    let mut tx = state.store.begin_write().await.expect("write");
    for table in Dimension::ALL {
        let (row, _) = table.rows().into_iter().next().expect("a row");
        let key = format!("{}|{row}|{key_class}", officers[0]);
        sqlx::query(
            "UPDATE dashboard_count SET n = n + 120 WHERE measure = $1 AND key = $2 \
             AND ((grain = 'day' AND bucket = $3) OR (grain = 'month' AND bucket = $4) \
             OR (grain = 'year' AND bucket = $5))",
        )
        .bind(published::measure(table))
        .bind(&key)
        .bind(last.first_day())
        .bind(last.code())
        .bind(last.year.to_string())
        .execute(&mut *tx)
        .await
        .expect("correct");
    }
    tx.commit().await.expect("commit");
    let code = last.code();
    let preview = bench
        .post("/api/transparency/preview", &json!({ "month": code }))
        .await;
    let correction = preview.json();
    assert_eq!(correction["revision"], 2, "a correction");
    assert_eq!(
        correction["unchanged"], false,
        "the correction changes what is published: {}",
        correction["changes"]
    );
    line(
        &mut report,
        format!("preview {code} (revision 2)"),
        ms(preview.took),
        preview.body.len(),
    );
    let corrected = bench
        .post(
            "/api/transparency/publish",
            &json!({ "month": code, "revision": 2, "reason": "120 reports of the month were entered late." }),
        )
        .await;
    line(
        &mut report,
        format!("**publish {code} revision 2** (a correction)"),
        format!("**{}**", ms(corrected.took)),
        corrected.body.len(),
    );

    // What the public reads of it.
    let reads = [
        format!("/transparency/{code}"),
        format!("/transparency/{code}/r1"),
        format!("/transparency/{code}/data.json"),
        format!("/transparency/{code}/data.csv"),
        format!("/transparency/{year}"),
        format!("/transparency/{year}/data.json"),
        "/transparency".to_owned(),
    ];
    for address in &reads {
        let (median, slowest, bytes) = timed(runs, || bench.get(address)).await;
        line(
            &mut report,
            format!("GET {address} (median; slowest {})", ms(slowest)),
            ms(median),
            bytes,
        );
    }
    let view = json!({ "period": code, "revision": null });
    let (median, slowest, bytes) =
        timed(runs, || bench.post("/api/transparency/view", &view)).await;
    line(
        &mut report,
        format!(
            "POST /api/transparency/view {code} (median; slowest {})",
            ms(slowest)
        ),
        ms(median),
        bytes,
    );

    // The chief's own tables of the whole period, and of one officer.
    let (from, to) = (months[0].code(), code.clone());
    for (what, path, body) in [
        (
            "the chief's tables by officer",
            "/api/transparency/desk/officers",
            json!({ "from": from, "to": to, "officer": null }),
        ),
        (
            "one officer's seven tables",
            "/api/transparency/desk/officers",
            json!({ "from": from, "to": to, "officer": officers[0] }),
        ),
        (
            "the disparity view",
            "/api/transparency/desk/disparity",
            json!({ "from": from, "to": to }),
        ),
    ] {
        let (median, slowest, bytes) = timed(runs, || bench.post(path, &body)).await;
        line(
            &mut report,
            format!("{what}, {from} to {to} (median; slowest {})", ms(slowest)),
            ms(median),
            bytes,
        );
    }

    println!("{report}");
    std::fs::write(out.join("transparency.md"), &report).expect("write report");
    state.store.close().await;
    remove(&path);
}
