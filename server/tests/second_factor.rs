//! Second factors over HTTP (issue #18): the sign-in's second step, one use per
//! code, recovery codes, the lockout, the policy's enrol-only session, and the
//! administrator's reset.

mod support;

use app::auth::second_factor::{recovery, totp};
use app::auth::By;
use app::model::account::Role;
use app::store::second_factor::{self, NewFactor};
use axum::http::StatusCode;
use serde_json::json;
use support::{TestApp, PASSWORD};

const SECRET: &[u8] = b"wells-second-factor!";

/// An officer with an authenticator (secret `SECRET`) and these recovery codes.
async fn enrolled(app: &TestApp, username: &str) -> (uuid::Uuid, Vec<String>) {
    let id = app.user(username, &[Role::Officer]).await;
    let codes = recovery::new_codes();
    let hashes: Vec<String> = codes.iter().map(|c| recovery::hash(c)).collect();
    let by = By {
        actor: None,
        source: Some("test"),
        now: app.clock_now(),
    };
    let factor = NewFactor::Totp {
        sealed: app.state.second_factor.key.seal(SECRET),
        confirmed_step: 0,
    };
    let first = second_factor::enrol(&app.state.store, by, id, factor, &hashes)
        .await
        .expect("enrol");
    assert!(first);
    (id, codes)
}

/// The password step: the pending sign-in's cookie.
async fn password_step(app: &TestApp, username: &str) -> String {
    let reply = app.sign_in_as(username, PASSWORD).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.json()["step"], "second_factor", "{}", reply.body);
    reply.cookie().expect("a pending sign-in has a cookie")
}

async fn send_code(app: &TestApp, cookie: &str, code: &str) -> support::Reply {
    app.post(
        "/api/session/second-factor",
        json!({ "code": code }),
        Some(cookie),
    )
    .await
}

/// The officer's own reports: the call this file uses to see what a session may do.
async fn own_reports(app: &TestApp, cookie: &str) -> support::Reply {
    app.post(
        "/api/incidents/mine",
        json!({ "before": null }),
        Some(cookie),
    )
    .await
}

fn code_now(app: &TestApp) -> String {
    totp::code_at(SECRET, app.clock_now())
}

#[tokio::test]
async fn a_right_password_alone_opens_nothing_the_code_completes_the_sign_in() {
    let app = TestApp::new().await;
    enrolled(&app, "officer").await;
    let reply = app.sign_in_as("officer", PASSWORD).await;
    assert_eq!(
        reply.json()["methods"],
        json!(["totp", "recovery_code"]),
        "{}",
        reply.body
    );
    let cookie = reply.cookie().expect("cookie");
    assert_eq!(app.whoami(&cookie).await, serde_json::Value::Null);
    let mine = own_reports(&app, &cookie).await;
    assert_eq!(mine.status, StatusCode::UNAUTHORIZED);

    let signed_in = send_code(&app, &cookie, &code_now(&app)).await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.body);
    // The id was made fresh at the password step (no fixation) and is kept.
    let session = signed_in.cookie().unwrap_or(cookie.clone());
    assert_eq!(app.whoami(&session).await["username"], "officer");
    let audited = app.audit_actions("session.sign_in").await;
    let last = audited.last().expect("sign-in audited");
    assert_eq!(last.0, "success");
    assert!(last.1.as_deref().unwrap_or_default().contains("totp"));
    assert_eq!(app.audit_actions("second_factor.use").await.len(), 1);
}

#[tokio::test]
async fn the_password_step_gives_a_new_session_id() {
    let app = TestApp::new().await;
    enrolled(&app, "officer").await;
    app.user("chief", &[Role::Chief]).await;
    let earlier = app.session("chief").await;
    let reply = app
        .post(
            "/api/session/sign-in",
            json!({ "username": "officer", "password": PASSWORD }),
            Some(&earlier),
        )
        .await;
    let pending = reply.cookie().expect("a new id");
    assert_ne!(pending, earlier);
    // The chief's session ended with it: a browser holds one session.
    assert_eq!(app.whoami(&earlier).await, serde_json::Value::Null);
    let signed_in = send_code(&app, &pending, &code_now(&app)).await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.body);
    assert_eq!(app.whoami(&pending).await["username"], "officer");
}

#[tokio::test]
async fn a_replayed_code_is_refused_and_the_next_steps_code_works() {
    let app = TestApp::new().await;
    enrolled(&app, "officer").await;
    let code = code_now(&app);
    let first = password_step(&app, "officer").await;
    assert_eq!(send_code(&app, &first, &code).await.status, StatusCode::OK);

    // Someone who saw the code over the officer's shoulder, in the same 30 seconds.
    let second = password_step(&app, "officer").await;
    let replay = send_code(&app, &second, &code).await;
    assert_eq!(replay.status, StatusCode::BAD_REQUEST, "{}", replay.body);
    assert!(replay.body.contains("used already"), "{}", replay.body);
    let failures = app.audit_actions("session.sign_in").await;
    assert!(failures
        .iter()
        .any(|(o, a)| o == "failure" && a.as_deref().unwrap_or_default().contains("replayed")));

    app.clock.advance_ms(30_000);
    let next = send_code(&app, &second, &code_now(&app)).await;
    assert_eq!(next.status, StatusCode::OK, "{}", next.body);
}

#[tokio::test]
async fn a_code_from_two_steps_ago_is_refused_one_step_is_drift() {
    let app = TestApp::new().await;
    enrolled(&app, "officer").await;
    let old = code_now(&app);
    app.clock.advance_ms(60_000);
    let cookie = password_step(&app, "officer").await;
    let refused = send_code(&app, &cookie, &old).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);

    // A phone 30 seconds slow is still fine.
    let one_step_old = totp::code_at(SECRET, app::ordinance::Moment(app.clock_now().0 - 30_000));
    let accepted = send_code(&app, &cookie, &one_step_old).await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.body);
}

#[tokio::test]
async fn a_recovery_code_signs_in_once() {
    let app = TestApp::new().await;
    let (_, codes) = enrolled(&app, "officer").await;
    let cookie = password_step(&app, "officer").await;
    let used = send_code(&app, &cookie, &codes[3].to_uppercase()).await;
    assert_eq!(used.status, StatusCode::OK, "{}", used.body);
    assert_eq!(
        app.audit_actions("second_factor.recovery_code_used")
            .await
            .len(),
        1
    );

    let cookie = password_step(&app, "officer").await;
    let again = send_code(&app, &cookie, &codes[3]).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST, "{}", again.body);
    let other = send_code(&app, &cookie, &codes[4]).await;
    assert_eq!(other.status, StatusCode::OK, "{}", other.body);

    let status = app
        .post(
            "/api/account/second-factor",
            json!({}),
            other.cookie().as_deref(),
        )
        .await;
    assert_eq!(status.json()["recovery_codes_left"], 8, "{}", status.body);
}

#[tokio::test]
async fn wrong_codes_count_toward_the_lockout_and_a_right_password_does_not_reset_it() {
    let app = TestApp::new().await;
    enrolled(&app, "officer").await;
    let cookie = password_step(&app, "officer").await;
    for _ in 0..3 {
        let wrong = send_code(&app, &cookie, "000000").await;
        assert_eq!(wrong.status, StatusCode::BAD_REQUEST, "{}", wrong.body);
    }
    // The right password again must not clear the run of wrong codes.
    let cookie = password_step(&app, "officer").await;
    assert_eq!(
        send_code(&app, &cookie, "111111").await.status,
        StatusCode::BAD_REQUEST
    );
    let fifth = send_code(&app, &cookie, "222222").await;
    assert_eq!(fifth.status, StatusCode::UNAUTHORIZED, "{}", fifth.body);
    assert_eq!(fifth.kind(), "sign_in_refused");
    assert_eq!(app.audit_actions("account.locked").await.len(), 1);

    // Locked: the right password and the right code are refused too.
    let refused = app.sign_in_as("officer", PASSWORD).await;
    assert_eq!(refused.kind(), "sign_in_refused");
    assert_eq!(
        send_code(&app, &cookie, &code_now(&app)).await.status,
        StatusCode::CONFLICT,
        "the pending sign-in ended with the lockout"
    );
}

#[tokio::test]
async fn the_second_step_waits_five_minutes() {
    let app = TestApp::new().await;
    enrolled(&app, "officer").await;
    let cookie = password_step(&app, "officer").await;
    app.clock.advance_minutes(5);
    let late = send_code(&app, &cookie, &code_now(&app)).await;
    assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.body);
    assert!(late.body.contains("five minutes"), "{}", late.body);
}

#[tokio::test]
async fn authenticator_secrets_are_stored_sealed() {
    let app = TestApp::new().await;
    enrolled(&app, "officer").await;
    let (sealed,): (Vec<u8>,) = sqlx::query_as("SELECT sealed FROM totp_factor")
        .fetch_one(&app.state.store.reader)
        .await
        .expect("row");
    assert!(!sealed.windows(SECRET.len()).any(|w| w == SECRET));
    let audit: Vec<(String,)> = sqlx::query_as("SELECT coalesce(after_json, '') FROM audit_entry")
        .fetch_all(&app.state.store.reader)
        .await
        .expect("audit");
    let base32 = totp::secret_text(SECRET);
    assert!(audit.iter().all(|(a,)| !a.contains(&base32)));
}

async fn require_second_factor(app: &TestApp) {
    sqlx::query("UPDATE setting SET value = '1' WHERE key = 'auth.second_factor_required'")
        .execute(&app.state.store.writer)
        .await
        .expect("policy");
}

#[tokio::test]
async fn with_the_policy_on_an_account_without_a_factor_can_only_enrol() {
    let app = TestApp::new().await;
    require_second_factor(&app).await;
    app.user("officer", &[Role::Officer]).await;
    let reply = app.sign_in_as("officer", PASSWORD).await;
    assert_eq!(reply.json()["step"], "signed_in", "{}", reply.body);
    assert_eq!(reply.json()["me"]["needs_second_factor"], true);
    let cookie = reply.cookie().expect("cookie");

    let mine = own_reports(&app, &cookie).await;
    assert_eq!(mine.status, StatusCode::FORBIDDEN);
    assert_eq!(mine.kind(), "second_factor_required");

    let begin = app
        .post("/api/account/totp/begin", json!({}), Some(&cookie))
        .await;
    assert_eq!(begin.status, StatusCode::OK, "{}", begin.body);
    let enrolment = begin.json();
    assert!(enrolment["qr_svg"]
        .as_str()
        .unwrap_or_default()
        .starts_with("<svg"));
    let secret = totp::secret_from_text(enrolment["secret"].as_str().unwrap_or_default())
        .expect("base32 secret");
    let wrong = app
        .post(
            "/api/account/totp/confirm",
            json!({ "code": "000000" }),
            Some(&cookie),
        )
        .await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
    let code = totp::code_at(&secret, app.clock_now());
    let confirmed = app
        .post(
            "/api/account/totp/confirm",
            json!({ "code": code }),
            Some(&cookie),
        )
        .await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.body);
    let codes = confirmed.json()["recovery_codes"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(codes.len(), 10);

    let mine = own_reports(&app, &cookie).await;
    assert_eq!(mine.status, StatusCode::OK, "{}", mine.body);
    assert_eq!(app.whoami(&cookie).await["needs_second_factor"], false);

    // The code that confirmed enrolment cannot sign in again.
    let pending = password_step(&app, "officer").await;
    assert_eq!(
        send_code(&app, &pending, &code).await.status,
        StatusCode::BAD_REQUEST
    );
    // The last factor stays while the policy requires one.
    let remove = app
        .post("/api/account/totp/remove", json!({}), Some(&cookie))
        .await;
    assert_eq!(remove.status, StatusCode::CONFLICT, "{}", remove.body);
}

#[tokio::test]
async fn a_passkey_role_needs_a_passkey_and_an_authenticator_alone_leaves_it_enrol_only() {
    let app = TestApp::new().await;
    require_second_factor(&app).await;
    sqlx::query(
        "INSERT INTO setting (key, value, updated_at) VALUES ('auth.passkey_roles', 'officer', 0)",
    )
    .execute(&app.state.store.writer)
    .await
    .expect("policy");
    enrolled(&app, "officer").await;
    let cookie = password_step(&app, "officer").await;
    let signed_in = send_code(&app, &cookie, &code_now(&app)).await;
    assert_eq!(
        signed_in.json()["needs_second_factor"],
        true,
        "{}",
        signed_in.body
    );
    let session = signed_in.cookie().expect("cookie");
    let mine = own_reports(&app, &session).await;
    assert_eq!(mine.kind(), "second_factor_required");
    // Passkeys need a host name; the test server's origin is an address.
    let begin = app
        .post(
            "/api/account/passkey/begin",
            json!({ "name": "work phone" }),
            Some(&session),
        )
        .await;
    assert_eq!(begin.status, StatusCode::CONFLICT, "{}", begin.body);
    assert!(begin.body.contains("host name"), "{}", begin.body);
}

#[tokio::test]
async fn an_administrators_reset_removes_every_factor_and_ends_the_sessions() {
    let app = TestApp::new().await;
    let (officer, _) = enrolled(&app, "officer").await;
    app.user("admin", &[Role::Admin]).await;
    let pending = password_step(&app, "officer").await;
    let session = send_code(&app, &pending, &code_now(&app))
        .await
        .cookie()
        .expect("signed in");
    let admin = app.session("admin").await;
    let reset = app
        .post(
            "/api/admin/users/reset-second-factor",
            json!({ "user_id": officer }),
            Some(&admin),
        )
        .await;
    assert_eq!(reset.status, StatusCode::OK, "{}", reset.body);
    assert_eq!(reset.json()["second_factors"], json!([]));
    assert_eq!(app.whoami(&session).await, serde_json::Value::Null);
    assert_eq!(app.audit_actions("second_factor.reset").await.len(), 1);

    // Signs in with the password alone now; the old recovery codes are gone.
    let reply = app.sign_in_as("officer", PASSWORD).await;
    assert_eq!(reply.json()["step"], "signed_in", "{}", reply.body);
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM recovery_code")
        .fetch_one(&app.state.store.reader)
        .await
        .expect("count");
    assert_eq!(left, 0);
    // An administrator does not reset their own (another must, or the CLI).
    let own = app
        .post(
            "/api/admin/users/reset-second-factor",
            json!({ "user_id": app.whoami(&admin).await["user_id"] }),
            Some(&admin),
        )
        .await;
    assert_eq!(own.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn the_setup_link_signs_the_first_administrator_in_to_enrol_a_factor() {
    let app = TestApp::new().await;
    require_second_factor(&app).await;
    let (token, hash) = app::auth::setup::new_token();
    app::store::accounts::issue_setup_token(&app.state.store, &hash, app.clock_now())
        .await
        .expect("token");
    let created = app
        .post(
            "/api/setup/create-admin",
            json!({ "token": token, "username": "first", "full_name": "First Admin",
                    "badge_number": null, "password": PASSWORD }),
            None,
        )
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let cookie = created.cookie().expect("signed in");
    let me = app.whoami(&cookie).await;
    assert_eq!(me["username"], "first");
    assert_eq!(me["needs_second_factor"], true);
    let users = app
        .post("/api/admin/users/list", json!({}), Some(&cookie))
        .await;
    assert_eq!(users.kind(), "second_factor_required");
    let status = app
        .post("/api/account/second-factor", json!({}), Some(&cookie))
        .await;
    assert_eq!(status.json()["required"], true, "{}", status.body);
}

/// #35: the sign-in page's plain form post (before the app starts) answers
/// with where to go, as the app would: on, to where the user was headed (never
/// another site); to the second step naming the account's factors; or back to
/// the sign-in page with the reason.
#[tokio::test]
async fn the_plain_sign_in_form_answers_with_where_to_go() {
    use axum::body::Body;
    use axum::http::{header, Request};

    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    enrolled(&app, "tess").await;
    let post = |form: String| {
        Request::post("/api/session/sign-in-form")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ACCEPT, "text/html")
            .header(header::ORIGIN, support::ORIGIN)
            .header(header::REFERER, format!("{}/sign-in", support::ORIGIN))
            .body(Body::from(form))
            .expect("request")
    };
    let form = |user: &str, password: &str, next: &str| {
        format!(
            "username={user}&password={}&next={next}",
            password.replace(' ', "+")
        )
    };
    let location = |reply: &support::Reply| {
        reply
            .headers
            .get(header::LOCATION)
            .and_then(|l| l.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };

    let on = app
        .send(post(form("oscar", PASSWORD, "%2Ffield%2Freports")))
        .await;
    assert_eq!(on.status, StatusCode::FOUND, "{}", on.body);
    assert_eq!(location(&on), "/field/reports");
    assert!(on.cookie().is_some(), "signed in");

    let elsewhere = app
        .send(post(form("oscar", PASSWORD, "%2F%2Fother.example%2F")))
        .await;
    assert_eq!(location(&elsewhere), "/");

    let second = app.send(post(form("tess", PASSWORD, "%2Freview"))).await;
    assert_eq!(
        location(&second),
        "/sign-in?second=totp,recovery_code&next=/review"
    );

    let refused = app
        .send(post(form("oscar", "not the password", "%2Freview")))
        .await;
    assert_eq!(location(&refused), "/sign-in?refused=refused&next=/review");
}
