//! Issue #20: photos of an incident — uploaded one by one under the phone's id,
//! stored without their metadata (EXIF and its GPS position above all), audited
//! with their SHA-256, shown to the chief and printed in the report.

mod support;

use app::model::account::Role;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use serde_json::json;
use support::{refusal_report, Reply, TestApp, ORIGIN};

fn segment(marker: u8, data: &[u8]) -> Vec<u8> {
    let mut s = vec![0xFF, marker];
    s.extend_from_slice(&u16::try_from(data.len() + 2).expect("short").to_be_bytes());
    s.extend_from_slice(data);
    s
}

/// A JPEG's structure as a phone camera writes it: JFIF, EXIF with a GPS
/// position, a frame of `width` × `height`, a scan and its data.
fn camera_jpeg(width: u16, height: u16) -> Vec<u8> {
    let mut j = vec![0xFF, 0xD8];
    j.extend(segment(0xE0, b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0"));
    j.extend(segment(
        0xE1,
        b"Exif\0\0MM\0*GPSLatitude 43.3221 GPSLongitude -70.5806",
    ));
    let mut frame = vec![8];
    frame.extend(height.to_be_bytes());
    frame.extend(width.to_be_bytes());
    frame.extend([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
    j.extend(segment(0xC0, &frame));
    j.extend(segment(0xDA, &[3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0]));
    j.extend([0x12, 0x34, 0x56, 0xFF, 0xD9]);
    j
}

async fn put(
    app: &TestApp,
    cookie: Option<&str>,
    path: &str,
    body: Vec<u8>,
    origin: Option<&str>,
) -> Reply {
    let mut request = Request::put(path).header(header::CONTENT_TYPE, "image/jpeg");
    if let Some(origin) = origin {
        request = request.header(header::ORIGIN, origin);
    }
    if let Some(cookie) = cookie {
        request = request.header(header::COOKIE, cookie);
    }
    app.send(request.body(Body::from(body)).expect("request"))
        .await
}

/// Who sends (a session cookie), the body, the Origin header, and the answer
/// expected: its status and a word of its body.
type Refusal<'a> = (
    Option<&'a str>,
    Vec<u8>,
    Option<&'a str>,
    StatusCode,
    &'a str,
);

async fn reported(app: &TestApp, cookie: &str) -> uuid::Uuid {
    let report = refusal_report(app.clock_now());
    let reply = app.submit(cookie, &report).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    report.incident_id
}

#[tokio::test]
async fn a_photo_is_stored_once_without_its_metadata_audited_shown_and_printed() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    app.user("carla", &[Role::Chief]).await;
    let oscar = app.session("oscar").await;
    let incident = reported(&app, &oscar).await;
    let photo = uuid::Uuid::now_v7();
    let path = format!("/incidents/{incident}/photos/{photo}");
    let original = camera_jpeg(1600, 1200);

    let stored = put(&app, Some(&oscar), &path, original.clone(), Some(ORIGIN)).await;
    assert_eq!(stored.status, StatusCode::OK, "{}", stored.body);
    let stored = stored.json();
    assert_eq!(
        (stored["width"].as_u64(), stored["height"].as_u64()),
        (Some(1600), Some(1200))
    );
    assert!(
        stored["bytes"].as_u64() < Some(original.len() as u64),
        "the EXIF block is gone"
    );
    let again = put(&app, Some(&oscar), &path, original.clone(), Some(ORIGIN)).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.json(), stored, "a retried upload is the same photo");
    assert_eq!(app.count("incident_photo").await, 1);

    let audited = app.audit_actions("incident.photo").await;
    assert_eq!(audited.len(), 1);
    let after: serde_json::Value =
        serde_json::from_str(audited[0].1.as_deref().unwrap_or("{}")).expect("after");
    assert_eq!(after["sha256"], stored["sha256"]);

    let carla = app.session("carla").await;
    let served = app.get(&path, Some(&carla)).await;
    assert_eq!(served.status, StatusCode::OK);
    assert_eq!(served.headers["content-type"], "image/jpeg");
    assert!(served.body.contains("JFIF"));
    assert!(
        !served.body.contains("Exif") && !served.body.contains("GPS"),
        "no metadata is served"
    );

    let view = app
        .post(
            "/api/reports/get",
            json!({ "incident_id": incident }),
            Some(&carla),
        )
        .await;
    assert_eq!(view.json()["photos"][0]["photo_id"], photo.to_string());
    let pdf = app
        .get(&format!("/reports/{incident}/pdf"), Some(&carla))
        .await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert!(
        pdf.body.contains("/Im0 Do") && pdf.body.contains("/DCTDecode"),
        "the photo is drawn"
    );
    assert!(pdf.body.contains(stored["sha256"].as_str().expect("sha")));
}

#[tokio::test]
async fn photos_that_are_not_wanted_are_refused_by_name_and_change_nothing() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    app.user("olga", &[Role::Officer]).await;
    let oscar = app.session("oscar").await;
    let olga = app.session("olga").await;
    let incident = reported(&app, &oscar).await;
    let path = |id: uuid::Uuid| format!("/incidents/{incident}/photos/{id}");
    let fresh = || uuid::Uuid::now_v7();

    // Who sends what, and the answer: each refused, nothing stored.
    let refused: [Refusal; 5] = [
        (
            Some(&oscar),
            b"GIF89a..........".to_vec(),
            Some(ORIGIN),
            StatusCode::BAD_REQUEST,
            "not a JPEG",
        ),
        (
            Some(&oscar),
            camera_jpeg(1601, 900),
            Some(ORIGIN),
            StatusCode::BAD_REQUEST,
            "1600 pixels",
        ),
        // Another officer's incident.
        (
            Some(&olga),
            camera_jpeg(800, 600),
            Some(ORIGIN),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        // No origin: refused as cross-site.
        (
            Some(&oscar),
            camera_jpeg(800, 600),
            None,
            StatusCode::FORBIDDEN,
            "forbidden",
        ),
        // Signed out: a 401 the phone acts on, not a redirect to the sign-in page.
        (
            None,
            camera_jpeg(800, 600),
            Some(ORIGIN),
            StatusCode::UNAUTHORIZED,
            "unauthenticated",
        ),
    ];
    for (who, body, origin, status, says) in refused {
        let reply = put(&app, who, &path(fresh()), body, origin).await;
        assert_eq!(reply.status, status, "{}", reply.body);
        assert!(reply.body.contains(says), "{}", reply.body);
    }
    assert_eq!(app.count("incident_photo").await, 0);

    for n in 1..=11 {
        let reply = put(
            &app,
            Some(&oscar),
            &path(fresh()),
            camera_jpeg(800, 600),
            Some(ORIGIN),
        )
        .await;
        if n <= 10 {
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        } else {
            assert_eq!(reply.status, StatusCode::BAD_REQUEST);
            assert!(reply.body.contains("At most 10 photos"), "{}", reply.body);
        }
    }
    assert_eq!(app.count("incident_photo").await, 10);
    let first: String = sqlx::query_scalar("SELECT photo_id FROM incident_photo LIMIT 1")
        .fetch_one(&app.state.store.reader)
        .await
        .expect("photo");
    let seen_by_other = app
        .get(
            &format!("/incidents/{incident}/photos/{first}"),
            Some(&olga),
        )
        .await;
    assert_eq!(seen_by_other.status, StatusCode::NOT_FOUND);
    let refused = app.audit_actions("access.denied").await;
    assert_eq!(refused.len(), 1, "the refused read is audited");
    assert!(refused[0].1.as_deref().unwrap_or("").contains("/photos/"));
    let deleted = sqlx::query("DELETE FROM incident_photo")
        .execute(&app.state.store.writer)
        .await;
    assert!(deleted.is_err(), "photos are append-only");
}
