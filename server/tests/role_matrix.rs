//! Every server function × every role (and anonymous), against the table of who
//! may call what. A new server function without a row here fails this test.

mod support;

use std::collections::BTreeMap;

use app::model::account::Role;
use serde_json::{json, Value};
use support::TestApp;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Who {
    Anonymous,
    Officer,
    Chief,
    Clerk,
    Admin,
    TownClerk,
    Selectman,
    Advisor,
}

const EVERYONE: &[Who] = &[
    Who::Anonymous,
    Who::Officer,
    Who::Chief,
    Who::Clerk,
    Who::Admin,
    Who::TownClerk,
    Who::Selectman,
    Who::Advisor,
];
/// Everyone but the anonymous caller.
const SIGNED_IN: &[Who] = match EVERYONE.split_first() {
    Some((_, signed_in)) => signed_in,
    None => &[],
};
/// Article II (#19): who reads the permit register, and each part of a permit.
const PERMIT_READERS: &[Who] = &[
    Who::Officer,
    Who::Chief,
    Who::TownClerk,
    Who::Selectman,
    Who::Advisor,
];
const TOWN_CLERK: &[Who] = &[Who::TownClerk];
/// The Board's decisions are recorded by a Selectman or the Town Clerk (issue #37).
const BOARD_RECORDERS: &[Who] = &[Who::Selectman, Who::TownClerk];
const ADVISORS: &[Who] = &[Who::Chief, Who::Advisor];
const ADMIN: &[Who] = &[Who::Admin];
const OFFICER: &[Who] = &[Who::Officer];
const READERS: &[Who] = &[Who::Officer, Who::Chief, Who::Clerk];
const CHIEF: &[Who] = &[Who::Chief];
const CLERK: &[Who] = &[Who::Clerk];
const OFFICER_OR_CHIEF: &[Who] = &[Who::Officer, Who::Chief];
const CHIEF_OR_CLERK: &[Who] = &[Who::Chief, Who::Clerk];

/// Fixture ids a request body can refer to.
struct Fixture {
    target_user: String,
    /// A complete, citable report: arguments must decode before a server
    /// function can authorize, so a malformed body would test the decoder.
    report: Value,
    /// A permit application that decodes (and is refused as incomplete).
    application: Value,
}

/// Builds a request body from the fixture.
type Body = fn(&Fixture) -> Value;

/// (path, who may call it, a request body).
fn expectations() -> Vec<(&'static str, &'static [Who], Body)> {
    vec![
        ("/api/session/me", EVERYONE, |_| json!({})),
        (
            "/api/session/sign-in",
            EVERYONE,
            |_| json!({ "username": "nobody", "password": "x" }),
        ),
        // The same sign-in as a plain form post, before the app starts (#35).
        (
            "/api/session/sign-in-form",
            EVERYONE,
            |_| json!({ "username": "nobody", "password": "x" }),
        ),
        ("/api/session/sign-out", SIGNED_IN, |_| json!({})),
        (
            "/api/account/password",
            SIGNED_IN,
            |_| json!({ "current_password": "wrong", "new_password": "a new long phrase" }),
        ),
        ("/api/setup/create-admin", EVERYONE, |_| {
            json!({ "token": "x", "username": "eve", "full_name": "Eve", "badge_number": null,
                    "password": "correct horse battery staple" })
        }),
        // The second step of signing in: anyone may try (nothing is pending here).
        (
            "/api/session/second-factor",
            EVERYONE,
            |_| json!({ "code": "123456" }),
        ),
        ("/api/session/passkey/begin", EVERYONE, |_| json!({})),
        (
            "/api/session/passkey/finish",
            EVERYONE,
            |_| json!({ "credential": "{}" }),
        ),
        // One's own second factors: open to every signed-in account, and to one
        // the policy holds at enrolment.
        ("/api/account/second-factor", SIGNED_IN, |_| json!({})),
        ("/api/account/totp/begin", SIGNED_IN, |_| json!({})),
        (
            "/api/account/totp/confirm",
            SIGNED_IN,
            |_| json!({ "code": "000000" }),
        ),
        ("/api/account/totp/remove", SIGNED_IN, |_| json!({})),
        (
            "/api/account/passkey/begin",
            SIGNED_IN,
            |_| json!({ "name": "work phone" }),
        ),
        (
            "/api/account/passkey/finish",
            SIGNED_IN,
            |_| json!({ "credential": "{}" }),
        ),
        (
            "/api/account/passkey/remove",
            SIGNED_IN,
            |_| json!({ "credential_id": "00" }),
        ),
        ("/api/account/recovery-codes", SIGNED_IN, |_| json!({})),
        ("/api/admin/users/list", ADMIN, |_| json!({})),
        (
            "/api/admin/users/reset-second-factor",
            ADMIN,
            |f| json!({ "user_id": f.target_user }),
        ),
        ("/api/admin/settings/sign-in", ADMIN, |_| json!({})),
        (
            "/api/admin/settings/sign-in/save",
            ADMIN,
            |_| json!({ "policy": { "second_factor_required": false, "passkey_roles": [] } }),
        ),
        (
            "/api/admin/users/create",
            ADMIN,
            |_| json!({ "user": { "username": "x", "full_name": "", "badge_number": null, "roles": [], "password": "" } }),
        ),
        (
            "/api/admin/users/roles",
            ADMIN,
            |f| json!({ "user_id": f.target_user, "roles": ["officer"] }),
        ),
        (
            "/api/admin/users/active",
            ADMIN,
            |f| json!({ "user_id": f.target_user, "active": true }),
        ),
        (
            "/api/admin/users/unlock",
            ADMIN,
            |f| json!({ "user_id": f.target_user }),
        ),
        (
            "/api/admin/users/reset-password",
            ADMIN,
            |f| json!({ "user_id": f.target_user }),
        ),
        ("/api/admin/audit", ADMIN, |_| json!({ "query": {} })),
        ("/api/admin/settings/court", ADMIN, |_| json!({})),
        (
            "/api/admin/settings/court/save",
            ADMIN,
            |_| json!({ "settings": { "court_name": "", "court_address": "", "answer_days": 0 } }),
        ),
        (
            "/api/incidents/submit",
            OFFICER,
            |f| json!({ "report": f.report }),
        ),
        (
            "/api/incidents/mine",
            OFFICER,
            |_| json!({ "before": null }),
        ),
        (
            "/api/incidents/resubmit",
            OFFICER,
            |f| json!({ "report": f.report }),
        ),
        ("/api/numbers/reserve", OFFICER, |_| json!({})),
        ("/api/account/signature", OFFICER, |_| json!({})),
        (
            "/api/account/signature/save",
            OFFICER,
            |_| json!({ "signature": { "strokes": [[[10, 10], [400, 200]]] } }),
        ),
        (
            "/api/numbers/give-back",
            OFFICER,
            |_| json!({ "block_id": "00000000-0000-0000-0000-000000000000", "keep": [] }),
        ),
        (
            "/api/numbers/account",
            CHIEF_OR_CLERK,
            |_| json!({ "year": null }),
        ),
        ("/api/review/queue", CHIEF, |_| json!({ "filter": {} })),
        ("/api/review/waiting", CHIEF, |_| json!({})),
        ("/api/court/calendar", CLERK, |_| json!({})),
        (
            "/api/review/decide",
            CHIEF,
            |f| json!({ "incident_id": f.target_user, "revision": 1, "action": { "action": "approve" } }),
        ),
        (
            "/api/review/void",
            CHIEF,
            |_| json!({ "number": "WPD-1999-000001", "reason": "Entered in error" }),
        ),
        (
            "/api/review/amend",
            CHIEF,
            |f| json!({ "report": f.report, "reason": "Correct the time" }),
        ),
        ("/api/review/converted", CHIEF, |_| json!({})),
        (
            "/api/review/conversion-checked",
            CHIEF,
            |_| json!({ "number": "WPD-1999-000001", "note": "" }),
        ),
        (
            "/api/register/search",
            CHIEF,
            |_| json!({ "filter": {}, "after": null }),
        ),
        ("/api/register/officers", CHIEF, |_| json!({})),
        ("/api/dashboard", CHIEF, |_| json!({ "period": null })),
        ("/api/transparency/months", CHIEF, |_| json!({})),
        (
            "/api/transparency/preview",
            CHIEF,
            |_| json!({ "month": "1999-01" }),
        ),
        (
            "/api/transparency/publish",
            CHIEF,
            |_| json!({ "month": "1999-01", "revision": 99, "reason": null }),
        ),
        (
            "/api/transparency/desk/officers",
            CHIEF,
            |_| json!({ "from": "1999-01", "to": "1999-12", "officer": null }),
        ),
        (
            "/api/transparency/desk/disparity",
            CHIEF,
            |_| json!({ "from": "1999-01", "to": "1999-12" }),
        ),
        ("/api/transparency/index", EVERYONE, |_| json!({})),
        (
            "/api/transparency/view",
            EVERYONE,
            |_| json!({ "period": "1999-01", "revision": null }),
        ),
        ("/api/court/queue", CLERK, |_| json!({})),
        ("/api/court/exports", CLERK, |_| json!({})),
        (
            "/api/court/export",
            CLERK,
            |_| json!({ "selection": { "numbers": ["WPD-1999-000001"] } }),
        ),
        (
            "/api/court/file",
            CLERK,
            |_| json!({ "filing": { "numbers": ["WPD-1999-000001"], "filed_on": "2026-01-02", "reference": "R-1" } }),
        ),
        (
            "/api/court/dispose",
            CLERK,
            |_| json!({ "number": "WPD-1999-000001", "disposition": { "kind": "dismissed", "on": "2026-01-02" } }),
        ),
        ("/api/court/register", CLERK, |_| json!({ "filter": {} })),
        (
            "/api/court/citation",
            CLERK,
            |_| json!({ "number": "WPD-1999-000001" }),
        ),
        (
            "/api/reports/get",
            OFFICER_OR_CHIEF,
            |f| json!({ "incident_id": f.target_user }),
        ),
        (
            "/api/citations/get",
            READERS,
            |_| json!({ "number": "WPD-1999-000001" }),
        ),
        (
            "/api/citations/copy",
            READERS,
            |_| json!({ "number": "WPD-1999-000001" }),
        ),
        (
            "/api/permits/apply",
            EVERYONE,
            |f| json!({ "application": f.application }),
        ),
        ("/api/permits/sound-limit", EVERYONE, |_| json!({})),
        (
            "/api/permits/status",
            EVERYONE,
            |_| json!({ "token": "ab".repeat(32) }),
        ),
        (
            "/api/admin/settings/sound-limit/save",
            ADMIN,
            |_| json!({ "limit_dba": 70 }),
        ),
        (
            "/api/permits/amend",
            EVERYONE,
            |f| json!({ "token": "ab".repeat(32), "application": f.application }),
        ),
        (
            "/api/permits/file-paper",
            TOWN_CLERK,
            |f| json!({ "application": f.application }),
        ),
        (
            "/api/permits/register",
            PERMIT_READERS,
            |_| json!({ "day": null }),
        ),
        (
            "/api/permits/get",
            PERMIT_READERS,
            |f| json!({ "application_id": f.target_user }),
        ),
        (
            "/api/permits/clerk",
            TOWN_CLERK,
            |f| json!({ "application_id": f.target_user, "action": { "entry": "fee", "receipt": "R-1" } }),
        ),
        ("/api/permits/decide", BOARD_RECORDERS, |f| {
            json!({ "application_id": f.target_user, "revision": 1, "decision": { "decision": "issue" },
                        "vote": { "meeting_day": "2026-07-01", "moved_by": "A", "in_favour": 3, "against": 0, "abstaining": 0 } })
        }),
        ("/api/permits/finding-met", BOARD_RECORDERS, |f| {
            json!({ "application_id": f.target_user, "finding_id": f.target_user,
                        "meeting_day": "2026-07-01", "note": "Met." })
        }),
        (
            "/api/permits/answer-finding",
            EVERYONE,
            |f| json!({ "token": "ab".repeat(32), "finding_id": f.target_user, "answer": "A second gate." }),
        ),
        (
            "/api/permits/opinion",
            ADVISORS,
            |f| json!({ "application_id": f.target_user, "capacity": "Fire Chief", "opinion": "Two engines." }),
        ),
    ]
}

fn denied(kind: &str) -> bool {
    matches!(kind, "unauthenticated" | "forbidden")
}

#[tokio::test]
async fn every_server_function_allows_exactly_the_roles_in_the_table() {
    let app = TestApp::new().await;
    let target = app.user("target", &[Role::Officer]).await;
    for (who, username, roles) in [
        (Who::Officer, "officer", &[Role::Officer][..]),
        (Who::Chief, "chief", &[Role::Chief][..]),
        (Who::Clerk, "clerk", &[Role::Clerk][..]),
        (Who::Admin, "admin", &[Role::Admin][..]),
        (Who::TownClerk, "townclerk", &[Role::TownClerk][..]),
        (Who::Selectman, "selectman", &[Role::Selectman][..]),
        (Who::Advisor, "advisor", &[Role::Advisor][..]),
    ] {
        let _ = who;
        app.user(username, roles).await;
    }
    let fixture = Fixture {
        target_user: target.to_string(),
        report: serde_json::to_value(support::refusal_report(app.clock_now()))
            .expect("a report serializes"),
        application: serde_json::to_value(app::pages::permits::form::blank())
            .expect("an application serializes"),
    };
    let table: BTreeMap<&str, (&[Who], Body)> = expectations()
        .into_iter()
        .map(|(path, who, body)| (path, (who, body)))
        .collect();

    let registered: Vec<String> = leptos::server_fn::axum::server_fn_paths()
        .map(|(path, _)| path.to_owned())
        .collect();
    let missing: Vec<&String> = registered
        .iter()
        .filter(|p| !table.contains_key(p.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "server functions with no row in the role matrix: {missing:?}"
    );
    let stale: Vec<&&str> = table
        .keys()
        .filter(|p| !registered.iter().any(|r| r == *p))
        .collect();
    assert!(
        stale.is_empty(),
        "rows for server functions that no longer exist: {stale:?}"
    );

    let mut checked = 0;
    for (path, (allowed, body)) in &table {
        for who in EVERYONE {
            // Fresh sessions per call: sign-out and password changes must not
            // leak into the next row.
            let cookie = match who {
                Who::Anonymous => None,
                Who::Officer => Some(app.session("officer").await),
                Who::Chief => Some(app.session("chief").await),
                Who::Clerk => Some(app.session("clerk").await),
                Who::Admin => Some(app.session("admin").await),
                Who::TownClerk => Some(app.session("townclerk").await),
                Who::Selectman => Some(app.session("selectman").await),
                Who::Advisor => Some(app.session("advisor").await),
            };
            let reply = app.post(path, body(&fixture), cookie.as_deref()).await;
            let was_denied = denied(&reply.kind());
            assert_eq!(
                was_denied,
                !allowed.contains(who),
                "{path} as {who:?}: got {} {}",
                reply.status,
                reply.body
            );
            if was_denied {
                let expected = if *who == Who::Anonymous { 401 } else { 403 };
                assert_eq!(reply.status.as_u16(), expected, "{path} as {who:?}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, table.len() * EVERYONE.len());
}

/// CJIS IA-2 (#18): with the policy on, an account without a second factor may
/// call its own account's functions (enrolment, password, sign-out) and the
/// public ones; every other function answers 403 `second_factor_required`.
#[tokio::test]
async fn an_account_the_policy_holds_at_enrolment_can_call_nothing_else() {
    let app = TestApp::new().await;
    let target = app.user("target", &[Role::Officer]).await;
    let every_role = Role::ALL;
    app.user("everything", &every_role).await;
    sqlx::query("UPDATE setting SET value = '1' WHERE key = 'auth.second_factor_required'")
        .execute(&app.state.store.writer)
        .await
        .expect("policy");
    let fixture = Fixture {
        target_user: target.to_string(),
        report: serde_json::to_value(support::refusal_report(app.clock_now()))
            .expect("a report serializes"),
        application: serde_json::to_value(app::pages::permits::form::blank())
            .expect("an application serializes"),
    };
    let mut held = 0;
    for (path, allowed, body) in expectations() {
        let cookie = app.session("everything").await;
        let reply = app.post(path, body(&fixture), Some(&cookie)).await;
        if allowed == EVERYONE || allowed == SIGNED_IN {
            assert!(
                !denied(&reply.kind()) && reply.kind() != "second_factor_required",
                "{path}: got {} {}",
                reply.status,
                reply.body
            );
        } else {
            assert_eq!(reply.status.as_u16(), 403, "{path}: {}", reply.body);
            assert_eq!(reply.kind(), "second_factor_required", "{path}");
            held += 1;
        }
    }
    assert!(held > 30, "only {held} functions checked");
}
