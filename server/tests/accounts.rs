//! Sign-in, lockout, sessions and timeouts against the real router.

mod support;

use app::model::account::Role;
use axum::http::StatusCode;
use serde_json::json;
use support::{TestApp, PASSWORD};

#[tokio::test]
async fn five_wrong_passwords_lock_the_account_and_the_sixth_try_fails_even_when_right() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    for _ in 0..5 {
        let reply = app.sign_in_as("oscar", "not the password at all").await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
        app.clock.advance_minutes(2);
    }
    let sixth = app.sign_in_as("oscar", PASSWORD).await;
    assert_eq!(sixth.status, StatusCode::UNAUTHORIZED);
    assert_eq!(sixth.kind(), "sign_in_refused");
    assert!(sixth.cookie().is_none());
    assert_eq!(app.audit_actions("account.locked").await.len(), 1);

    // An hour later it is still locked: only an administrator unlocks.
    app.clock.advance_minutes(60);
    assert_eq!(
        app.sign_in_as("oscar", PASSWORD).await.status,
        StatusCode::UNAUTHORIZED
    );

    app.user("ada", &[Role::Admin]).await;
    let admin = app.session("ada").await;
    let id = app.state.store.reader.clone();
    let oscar: String = sqlx::query_scalar("SELECT user_id FROM app_user WHERE username = 'oscar'")
        .fetch_one(&id)
        .await
        .expect("id");
    let unlocked = app
        .post(
            "/api/admin/users/unlock",
            json!({ "user_id": oscar }),
            Some(&admin),
        )
        .await;
    assert_eq!(unlocked.status, StatusCode::OK, "{}", unlocked.body);
    assert_eq!(
        app.sign_in_as("oscar", PASSWORD).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn failures_spread_over_more_than_fifteen_minutes_do_not_lock() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    for _ in 0..5 {
        app.sign_in_as("oscar", "wrong wrong wrong").await;
        app.clock.advance_minutes(4);
    }
    assert_eq!(
        app.sign_in_as("oscar", PASSWORD).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn an_unknown_username_gets_the_same_answer_as_a_wrong_password() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let unknown = app.sign_in_as("nobody", PASSWORD).await;
    let wrong = app.sign_in_as("oscar", "wrong wrong wrong").await;
    assert_eq!(unknown.status, wrong.status);
    assert_eq!(unknown.body, wrong.body);
}

#[tokio::test]
async fn sign_in_is_rate_limited_per_client_address() {
    let app = TestApp::with(server::config::Serve {
        sign_in_per_minute: 3,
        ..Default::default()
    })
    .await;
    app.user("oscar", &[Role::Officer]).await;
    for _ in 0..3 {
        app.sign_in_as("oscar", "wrong wrong wrong").await;
    }
    let fourth = app.sign_in_as("oscar", PASSWORD).await;
    assert_eq!(fourth.status, StatusCode::TOO_MANY_REQUESTS);
    app.clock.advance_minutes(1);
    assert_eq!(
        app.sign_in_as("oscar", PASSWORD).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_session_cookie_is_http_only_strict_and_has_no_lifetime() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let reply = app.sign_in_as("oscar", PASSWORD).await;
    let header = reply.set_cookie_header().expect("set-cookie");
    assert!(header.contains("HttpOnly"), "{header}");
    assert!(header.contains("SameSite=Strict"), "{header}");
    assert!(!header.to_lowercase().contains("max-age"), "{header}");
    assert!(!header.to_lowercase().contains("expires"), "{header}");
    // 128 random bits, base64: 22 characters.
    let id = reply.cookie().expect("cookie");
    assert!(id.trim_start_matches("wells_session=").len() >= 22, "{id}");
}

#[tokio::test]
async fn the_cookie_is_secure_when_the_public_origin_is_https() {
    let app = TestApp::with(server::config::Serve {
        public_origin: Some("https://log.wellspd.example".into()),
        sign_in_per_minute: 100,
        ..Default::default()
    })
    .await;
    app.user("oscar", &[Role::Officer]).await;
    let reply = app
        .post_from(
            "/api/session/sign-in",
            json!({ "username": "oscar", "password": PASSWORD }),
            None,
            Some("https://log.wellspd.example"),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert!(reply
        .set_cookie_header()
        .unwrap_or_default()
        .contains("Secure"));
    assert!(reply.headers.contains_key("strict-transport-security"));
}

#[tokio::test]
async fn signing_in_again_rotates_the_session_id_and_the_old_one_stops_working() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let first = app.session("oscar").await;
    let again = app
        .post(
            "/api/session/sign-in",
            json!({ "username": "oscar", "password": PASSWORD }),
            Some(&first),
        )
        .await;
    let second = again.cookie().expect("new cookie");
    assert_ne!(first, second);
    assert_eq!(app.whoami(&second).await["username"], "oscar");
    assert_eq!(app.whoami(&first).await, serde_json::Value::Null);
}

#[tokio::test]
async fn sign_out_deletes_the_session_on_the_server() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let cookie = app.session("oscar").await;
    let out = app
        .post("/api/session/sign-out", json!({}), Some(&cookie))
        .await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.body);
    // Replaying the old cookie (as a thief would) finds nothing.
    assert_eq!(app.whoami(&cookie).await, serde_json::Value::Null);
    let sessions: i64 = sqlx::query_scalar("SELECT count(*) FROM tower_sessions")
        .fetch_one(&app.state.store.reader)
        .await
        .expect("count");
    assert_eq!(sessions, 0);
}

#[tokio::test]
async fn a_session_idle_for_thirty_minutes_ends() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let cookie = app.session("oscar").await;
    app.clock.advance_minutes(29);
    assert_eq!(app.whoami(&cookie).await["username"], "oscar");
    // Activity at 29 minutes keeps it alive for another 30.
    app.clock.advance_minutes(29);
    assert_eq!(app.whoami(&cookie).await["username"], "oscar");
    app.clock.advance_minutes(30);
    assert_eq!(app.whoami(&cookie).await, serde_json::Value::Null);
    let expired = app.audit_actions("session.expired").await;
    assert_eq!(expired.len(), 1);
    assert!(expired[0].1.as_deref().unwrap_or_default().contains("idle"));
}

#[tokio::test]
async fn a_busy_session_ends_twelve_hours_after_sign_in() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let cookie = app.session("oscar").await;
    for _ in 0..23 {
        app.clock.advance_minutes(30);
        app.clock.advance_ms(-1);
        assert_eq!(app.whoami(&cookie).await["username"], "oscar");
    }
    app.clock.advance_minutes(31);
    assert_eq!(app.whoami(&cookie).await, serde_json::Value::Null);
    let expired = app.audit_actions("session.expired").await;
    assert!(expired[0]
        .1
        .as_deref()
        .unwrap_or_default()
        .contains("absolute"));
}

#[tokio::test]
async fn disabling_a_user_ends_their_live_session() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    app.user("ada", &[Role::Admin]).await;
    let oscar = app.session("oscar").await;
    let admin = app.session("ada").await;
    let id = app.whoami(&oscar).await["user_id"].clone();
    let reply = app
        .post(
            "/api/admin/users/active",
            json!({ "user_id": id, "active": false }),
            Some(&admin),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(app.whoami(&oscar).await, serde_json::Value::Null);
    assert_eq!(
        app.sign_in_as("oscar", PASSWORD).await.status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn a_reset_password_must_be_changed_before_anything_else() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    app.user("ada", &[Role::Admin]).await;
    let admin = app.session("ada").await;
    let old = app.session("oscar").await;
    let id = app.whoami(&old).await["user_id"].clone();
    let reset = app
        .post(
            "/api/admin/users/reset-password",
            json!({ "user_id": id }),
            Some(&admin),
        )
        .await;
    assert_eq!(reset.status, StatusCode::OK);
    let temporary = reset.json().as_str().unwrap_or_default().to_owned();
    assert_eq!(
        app.whoami(&old).await,
        serde_json::Value::Null,
        "old sessions end"
    );

    let cookie = app
        .sign_in_as("oscar", &temporary)
        .await
        .cookie()
        .expect("cookie");
    assert_eq!(app.whoami(&cookie).await["must_change_password"], true);
    let blocked = app
        .post("/api/admin/users/list", json!({}), Some(&cookie))
        .await;
    assert_eq!(blocked.status, StatusCode::FORBIDDEN);
    let weak = app
        .post(
            "/api/account/password",
            json!({ "current_password": temporary, "new_password": "password1234" }),
            Some(&cookie),
        )
        .await;
    assert_eq!(weak.status, StatusCode::BAD_REQUEST);
    assert!(weak.body.contains("new_password"), "{}", weak.body);
    let changed = app
        .post(
            "/api/account/password",
            json!({ "current_password": temporary, "new_password": "a new phrase for the beach" }),
            Some(&cookie),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.body);
    let cookie = changed.cookie().unwrap_or(cookie);
    assert_eq!(app.whoami(&cookie).await["must_change_password"], false);
}

#[tokio::test]
async fn weak_passwords_are_refused_with_the_field_named() {
    let app = TestApp::new().await;
    app.user("ada", &[Role::Admin]).await;
    let admin = app.session("ada").await;
    for (password, reason) in [
        ("short", "12 characters"),
        ("password1234", "common"),
        ("bobby-the-officer", "username"),
    ] {
        let reply = app
            .post(
                "/api/admin/users/create",
                json!({ "user": { "username": "bobby", "full_name": "Bob By", "badge_number": "12",
                                   "roles": ["officer"], "password": password } }),
                Some(&admin),
            )
            .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{password}");
        let errors = reply.json()["errors"].clone();
        assert_eq!(errors[0]["field"], "password", "{password}: {errors}");
        assert!(
            errors[0]["message"]
                .as_str()
                .unwrap_or_default()
                .contains(reason),
            "{password}: {errors}"
        );
    }
    let users: i64 = sqlx::query_scalar("SELECT count(*) FROM app_user")
        .fetch_one(&app.state.store.reader)
        .await
        .expect("count");
    assert_eq!(users, 1, "nothing was stored");
}

#[tokio::test]
async fn first_run_setup_creates_one_administrator_once() {
    let app = TestApp::new().await;
    let (token, hash) = app::auth::setup::new_token();
    app::store::accounts::issue_setup_token(&app.state.store, &hash, app.clock_now())
        .await
        .expect("token");
    let body = |username: &str, token: &str| {
        json!({ "token": token, "username": username, "full_name": "Ada Admin",
                "badge_number": null, "password": PASSWORD })
    };
    let wrong = app
        .post("/api/setup/create-admin", body("ada", "0000"), None)
        .await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
    let ok = app
        .post("/api/setup/create-admin", body("ada", &token), None)
        .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    let again = app
        .post("/api/setup/create-admin", body("eve", &token), None)
        .await;
    assert_eq!(
        again.status,
        StatusCode::BAD_REQUEST,
        "the token died with its first use"
    );
    let cookie = app.session("ada").await;
    assert_eq!(app.whoami(&cookie).await["roles"], json!(["admin"]));
}

#[tokio::test]
async fn an_administrator_cannot_lock_themselves_out() {
    let app = TestApp::new().await;
    app.user("ada", &[Role::Admin]).await;
    let admin = app.session("ada").await;
    let id = app.whoami(&admin).await["user_id"].clone();
    let disable = app
        .post(
            "/api/admin/users/active",
            json!({ "user_id": id, "active": false }),
            Some(&admin),
        )
        .await;
    assert_eq!(disable.status, StatusCode::CONFLICT);
    let demote = app
        .post(
            "/api/admin/users/roles",
            json!({ "user_id": id, "roles": ["officer"] }),
            Some(&admin),
        )
        .await;
    assert_eq!(demote.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn the_audit_log_reads_in_words_usernames_and_town_time() {
    let app = TestApp::new().await;
    let admin = app.user("ada", &[Role::Admin]).await;
    let _ = admin;
    let ada = app.session("ada").await;
    let created = app
        .post(
            "/api/admin/users/create",
            json!({ "user": {
                "username": "jdoe", "full_name": "Jane Doe", "badge_number": "117",
                "roles": ["officer"], "password": "a long pass phrase here"
            } }),
            Some(&ada),
        )
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let page = app
        .post(
            "/api/admin/audit",
            json!({ "query": { "action": "user.create" } }),
            Some(&ada),
        )
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let entry = page.json()["entries"][0].clone();
    assert_eq!(entry["action_text"], "Account created");
    assert_eq!(
        entry["record_text"], "user jdoe",
        "the username, not the id: {entry}"
    );
    let after: Vec<String> = entry["after_lines"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| l.as_str().map(str::to_owned))
        .collect();
    assert!(after.iter().any(|l| l == "username: jdoe"), "{after:?}");
    assert!(
        after.iter().all(|l| !l.contains('{')),
        "no raw JSON: {after:?}"
    );
    // A sign-in's time reads in the Town's zone.
    let signs = app
        .post(
            "/api/admin/audit",
            json!({ "query": { "action": "session.sign_in" } }),
            Some(&ada),
        )
        .await;
    let at = signs.json()["entries"][0]["at_text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(at.ends_with("EDT"), "{at}");
}

/// Issue #37, finding 18: the audit log by the Town's days, each end checked
/// and named when wrong.
#[tokio::test]
async fn the_audit_log_reads_by_date_range_and_names_the_field_at_fault() {
    let app = TestApp::new().await;
    app.user("ada", &[Role::Admin]).await;
    let create = |username: &'static str| {
        let app = &app;
        async move {
            // A new session each time: two days idle end one.
            let ada = app.session("ada").await;
            let reply = app
                .post(
                    "/api/admin/users/create",
                    json!({ "user": {
                        "username": username, "full_name": "Range Person", "badge_number": "1",
                        "roles": ["officer"], "password": "a long pass phrase here"
                    } }),
                    Some(&ada),
                )
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        }
    };
    // 2026-07-04 (the test clock's day), then two days later.
    create("early").await;
    app.clock.advance_minutes(2 * 24 * 60);
    create("later").await;
    let ada = app.session("ada").await;
    let records = |from: &'static str, to: &'static str| {
        let (app, ada) = (&app, ada.clone());
        async move {
            let reply = app
                .post(
                    "/api/admin/audit",
                    json!({ "query": { "action": "user.create", "from_date": from, "to_date": to } }),
                    Some(&ada),
                )
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
            reply.json()["entries"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|e| e["record_text"].as_str().unwrap_or_default().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(records("2026-07-06", "2026-07-06").await, ["user later"]);
    let first_days = records("2026-07-04", "2026-07-05").await;
    assert!(
        first_days.contains(&"user early".to_owned()),
        "{first_days:?}"
    );
    assert!(
        !first_days.contains(&"user later".to_owned()),
        "{first_days:?}"
    );
    let all_days = records("2026-07-04", "2026-07-06").await;
    assert!(
        all_days.contains(&"user early".to_owned()) && all_days.contains(&"user later".to_owned())
    );

    let backwards = app
        .post(
            "/api/admin/audit",
            json!({ "query": { "from_date": "2026-07-06", "to_date": "2026-07-04" } }),
            Some(&ada),
        )
        .await;
    assert_eq!(
        backwards.status,
        StatusCode::BAD_REQUEST,
        "{}",
        backwards.body
    );
    assert_eq!(backwards.json()["errors"][0]["field"], "to_date");
    let not_a_date = app
        .post(
            "/api/admin/audit",
            json!({ "query": { "from_date": "July 4" } }),
            Some(&ada),
        )
        .await;
    assert_eq!(not_a_date.status, StatusCode::BAD_REQUEST);
    assert_eq!(not_a_date.json()["errors"][0]["field"], "from_date");
}

/// Issue #37, finding 18: a change entry lists what changed, not every field.
#[tokio::test]
async fn a_change_in_the_audit_log_shows_only_what_changed() {
    let app = TestApp::new().await;
    app.user("ada", &[Role::Admin]).await;
    let ada = app.session("ada").await;
    for days in [21, 65] {
        let saved = app
            .post(
                "/api/admin/settings/court/save",
                json!({ "settings": {
                    "court_name": "Maine District Court",
                    "court_address": "York District Court, 11 Chases Pond Road, York, ME 03909",
                    "answer_days": days,
                } }),
                Some(&ada),
            )
            .await;
        assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    }
    let page = app
        .post(
            "/api/admin/audit",
            json!({ "query": { "action": "settings.court" } }),
            Some(&ada),
        )
        .await;
    let entry = page.json()["entries"][0].clone();
    let lines = |side: &str| -> Vec<String> {
        entry[side]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|l| l.as_str().map(str::to_owned))
            .collect()
    };
    assert_eq!(lines("before_lines"), ["answer days: 21"], "{entry}");
    assert_eq!(lines("after_lines"), ["answer days: 65"], "{entry}");
}

/// Issue #37, finding 18: every action the code audits has a name in words
/// (the page shows the words, and its filter lists them).
#[test]
fn every_audited_action_has_a_name_in_words() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../app");
    let mut codes = Vec::new();
    let mut folders = vec![root];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)
            .expect("a source folder")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                for line in text.lines() {
                    // `Event::new("x.y", …)`, and the permit desk's kind → action table.
                    let quoted = |rest: &str| rest.split('"').next().unwrap_or_default().to_owned();
                    let code = if let Some((_, rest)) = line.split_once("Event::new(\"") {
                        Some(quoted(rest))
                    } else {
                        line.split_once("=> \"permit.")
                            .map(|(_, rest)| format!("permit.{}", quoted(rest)))
                    };
                    codes.extend(code.filter(|c| c.contains('.')));
                }
            }
        }
    }
    assert!(codes.iter().any(|c| c == "citation.issue"), "{codes:?}");
    assert!(codes.iter().any(|c| c == "permit.finding_met"), "{codes:?}");
    let unnamed: Vec<_> = codes
        .iter()
        .filter(|c| !app::model::audit::ACTIONS.iter().any(|(code, _)| code == c))
        .collect();
    assert!(
        unnamed.is_empty(),
        "audited actions without words: {unnamed:?}"
    );
}
