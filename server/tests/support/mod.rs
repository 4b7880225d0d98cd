//! A real router on a fresh database (a SQLite file, or with
//! `WELLS_TEST_BACKEND=postgres` a PostgreSQL database of its own), a clock the
//! test moves, and helpers to call it the way a browser does.
#![allow(dead_code)]

pub mod postgres;

use std::sync::Arc;

use app::auth::clock::ManualClock;
use app::auth::By;
use app::model::account::{NewUser, Role};
use app::ordinance::Moment;
use app::state::AppState;
use app::store::accounts;
use app::store::Store;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::Value;
use server::config::Serve;
use tower::ServiceExt;

pub const ORIGIN: &str = "http://127.0.0.1:3000";
pub const PASSWORD: &str = "correct horse battery staple";
/// 2026-07-04 16:00 UTC.
pub const START: Moment = Moment(1_783_180_800_000);

/// A store on a database of its own: a new PostgreSQL database when
/// `on_postgres` (dropped with the returned guard), else `dir/wells.db`.
pub async fn open_store(
    dir: &std::path::Path,
    on_postgres: bool,
) -> (Store, Option<postgres::Database>) {
    let database = if on_postgres {
        Some(postgres::Database::create().await)
    } else {
        None
    };
    let store = match &database {
        Some(database) => Store::open_postgres(&database.url).await,
        None => Store::open(&dir.join("wells.db")).await,
    }
    .expect("open");
    (store, database)
}

/// How long a test waits for one reply (a debug build renders a page in well under a second).
const REPLY_LIMIT: std::time::Duration = std::time::Duration::from_secs(120);

pub struct TestApp {
    pub state: AppState,
    pub router: Router,
    pub clock: Arc<ManualClock>,
    pub dir: tempfile::TempDir,
    /// The test's own PostgreSQL database, when the run is on PostgreSQL.
    pub postgres: Option<postgres::Database>,
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    /// The `kind` of an `AppError` answer.
    pub fn kind(&self) -> String {
        self.json()["kind"].as_str().unwrap_or_default().to_owned()
    }

    /// The session cookie this reply sets, as `name=value`.
    pub fn cookie(&self) -> Option<String> {
        self.headers
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|c| c.starts_with("wells_session="))
            .map(|c| c.split(';').next().unwrap_or_default().to_owned())
    }

    pub fn set_cookie_header(&self) -> Option<String> {
        self.headers
            .get(header::SET_COOKIE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    }
}

impl TestApp {
    pub async fn new() -> TestApp {
        Self::with(Serve {
            sign_in_per_minute: 10_000,
            ..Serve::default()
        })
        .await
    }

    pub async fn with(serve: Serve) -> TestApp {
        Self::in_dir(tempfile::tempdir().expect("tempdir"), serve).await
    }

    /// The app on the database `dir/wells.db` holds already (or a new one); on
    /// a PostgreSQL run, on a new database of its own.
    pub async fn in_dir(dir: tempfile::TempDir, serve: Serve) -> TestApp {
        Self::built(dir, serve, postgres::wanted()).await
    }

    /// The app on a new PostgreSQL database of its own, whatever the run.
    pub async fn on_postgres() -> TestApp {
        let serve = Serve {
            sign_in_per_minute: 10_000,
            ..Serve::default()
        };
        Self::built(tempfile::tempdir().expect("tempdir"), serve, true).await
    }

    async fn built(dir: tempfile::TempDir, serve: Serve, on_postgres: bool) -> TestApp {
        // The server's errors (a database error behind an "internal" answer)
        // are shown with a failing test's output.
        let _ = tracing_subscriber::fmt().with_test_writer().try_init();
        let (store, postgres) = open_store(dir.path(), on_postgres).await;
        let clock = Arc::new(ManualClock::at(START));
        let state = server::app_state_with_clock(
            store,
            &serve,
            app::auth::second_factor::SealingKey::random(),
            clock.clone(),
        )
        .expect("state");
        // A fresh database requires a second factor of every account (#18); the
        // suites about other things sign in with the password alone, as an
        // upgraded install does. `second_factor.rs` turns the policy on.
        sqlx::query("UPDATE setting SET value = '0' WHERE key = 'auth.second_factor_required'")
            .execute(&state.store.writer)
            .await
            .expect("policy");
        let router = server::router(state.clone());
        TestApp {
            state,
            router,
            clock,
            dir,
            postgres,
        }
    }

    pub fn db_path(&self) -> std::path::PathBuf {
        self.dir.path().join("wells.db")
    }

    /// A reply that has not come in two minutes fails the test, naming the request,
    /// instead of holding the whole run until CI's limit.
    pub async fn send(&self, request: Request<Body>) -> Reply {
        let asked = format!("{} {}", request.method(), request.uri());
        tokio::time::timeout(REPLY_LIMIT, self.exchange(request))
            .await
            .unwrap_or_else(|_| panic!("no reply to {asked} within {REPLY_LIMIT:?}"))
    }

    async fn exchange(&self, request: Request<Body>) -> Reply {
        let response = self
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("response");
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        Reply {
            status,
            headers,
            body: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    /// POSTs JSON as the app's own pages do (same origin).
    pub async fn post(&self, path: &str, body: Value, cookie: Option<&str>) -> Reply {
        self.post_from(path, body, cookie, Some(ORIGIN)).await
    }

    pub async fn post_from(
        &self,
        path: &str,
        body: Value,
        cookie: Option<&str>,
        origin: Option<&str>,
    ) -> Reply {
        let mut request = Request::post(path).header(header::CONTENT_TYPE, "application/json");
        if let Some(origin) = origin {
            request = request.header(header::ORIGIN, origin);
        }
        if let Some(cookie) = cookie {
            request = request.header(header::COOKIE, cookie);
        }
        self.send(request.body(Body::from(body.to_string())).expect("request"))
            .await
    }

    pub async fn get(&self, path: &str, cookie: Option<&str>) -> Reply {
        let mut request = Request::get(path);
        if let Some(cookie) = cookie {
            request = request.header(header::COOKIE, cookie);
        }
        self.send(request.body(Body::empty()).expect("request"))
            .await
    }

    /// Creates an account directly in the store.
    pub async fn user(&self, username: &str, roles: &[Role]) -> uuid::Uuid {
        let new = NewUser {
            username: username.into(),
            full_name: format!("{username} tester"),
            badge_number: roles.contains(&Role::Officer).then(|| "101".to_owned()),
            roles: roles.to_vec(),
            password: PASSWORD.into(),
        };
        let hash = app::auth::password::hash(PASSWORD).expect("hash");
        let by = By {
            actor: None,
            source: Some("test"),
            now: self.clock_now(),
        };
        accounts::create_user(&self.state.store, by, &new, &hash)
            .await
            .expect("create user")
            .user_id
    }

    pub fn clock_now(&self) -> Moment {
        use app::auth::clock::Clock;
        self.clock.now()
    }

    pub async fn sign_in_as(&self, username: &str, password: &str) -> Reply {
        self.post(
            "/api/session/sign-in",
            serde_json::json!({ "username": username, "password": password }),
            None,
        )
        .await
    }

    /// Signs in and returns the session cookie.
    pub async fn session(&self, username: &str) -> String {
        let reply = self.sign_in_as(username, PASSWORD).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "sign in {username}: {}",
            reply.body
        );
        reply.cookie().expect("session cookie")
    }

    pub async fn whoami(&self, cookie: &str) -> Value {
        self.post("/api/session/me", serde_json::json!({}), Some(cookie))
            .await
            .json()
    }

    /// Audit entries with this action, oldest first.
    pub async fn audit_actions(&self, action: &str) -> Vec<(String, Option<String>)> {
        sqlx::query_as("SELECT outcome, after_json FROM audit_entry WHERE action = $1 ORDER BY seq")
            .bind(action)
            .fetch_all(&self.state.store.reader)
            .await
            .expect("audit query")
    }
}

/// A complete §52-1(A)(1) report: one identified person who refused, to be cited.
/// Times are relative to `now`.
pub fn refusal_report(now: Moment) -> app::model::incident::IncidentReport {
    use app::model::incident::*;
    use app::ordinance::*;
    let minutes = |m: i64| Moment(now.0 - m * 60_000);
    IncidentReport {
        incident_id: uuid::Uuid::now_v7(),
        occurred_at: minutes(30),
        location: Location {
            text: "Post Road at Mile Road".into(),
            place: PlaceType::Sidewalk,
            gps: Some(GpsFix {
                latitude: 43.3221,
                longitude: -70.5806,
                accuracy_m: 8.0,
            }),
        },
        orders: vec![DispersalOrder {
            words: "Stop blocking the way and move on.".into(),
            given_at: minutes(20),
            move_on: true,
            minutes_to_comply: 2,
        }],
        narrative:
            "Stood across the sidewalk for twenty minutes; pedestrians stepped into the road."
                .into(),
        subjects: vec![SubjectEntry {
            subject_id: uuid::Uuid::now_v7(),
            identity: Identity::Identified {
                full_name: "Alex Morgan".into(),
                date_of_birth: "1990-02-03".into(),
                address: "12 Main Street, Wells, ME".into(),
                id_type: Some(IdType::DriverLicense),
                id_number: Some("1234567".into()),
            },
            perceived: Perceived {
                age_range: AgeRange::From35To49,
                sex: PerceivedSex::Male,
                race: PerceivedRace::White,
            },
            facts: PersonFacts {
                protected_activity: ProtectedActivity::None,
                conduct: Conduct {
                    remained_in_one_location: true,
                    passage: PassageObstruction {
                        pedestrians: true,
                        vehicles: false,
                        place: Some(PlaceType::Sidewalk),
                    },
                    ..Conduct::default()
                },
                order: Some(0),
                response: Response::Refused {
                    at: minutes(15),
                    manner: RefusalManner::StayedInPlace,
                },
                arrested: false,
                place: None,
                contravenes: None,
            },
            charges: vec![Charge {
                offence: Offence::LoiteringObstruction,
                issue_citation: true,
            }],
            signature: None,
            not_recorded: Vec::new(),
        }],
        numbers: Vec::new(),
        gathering: None,
    }
}

impl TestApp {
    pub async fn submit(
        &self,
        cookie: &str,
        report: &app::model::incident::IncidentReport,
    ) -> Reply {
        self.post(
            "/api/incidents/submit",
            serde_json::json!({ "report": report }),
            Some(cookie),
        )
        .await
    }

    /// A citation's stored status code.
    pub async fn citation_status(&self, number: &str) -> String {
        sqlx::query_scalar("SELECT status FROM citation WHERE number = $1")
            .bind(number)
            .fetch_one(&self.state.store.reader)
            .await
            .expect("citation")
    }

    pub async fn count(&self, table: &str) -> i64 {
        sqlx::query_scalar(&format!("SELECT count(*) FROM {table}"))
            .fetch_one(&self.state.store.reader)
            .await
            .expect("count")
    }
}

/// The desk's three: an officer, the chief and the clerk, each signed in
/// (oscar, carla, dana), on a fresh app.
pub struct Desk {
    pub app: TestApp,
    pub officer: String,
    pub chief: String,
    pub clerk: String,
}

pub async fn desk() -> Desk {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    app.user("carla", &[Role::Chief]).await;
    app.user("dana", &[Role::Clerk]).await;
    let officer = app.session("oscar").await;
    let chief = app.session("carla").await;
    let clerk = app.session("dana").await;
    Desk {
        app,
        officer,
        chief,
        clerk,
    }
}
