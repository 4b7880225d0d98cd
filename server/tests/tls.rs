//! HTTPS with certificate files (issue #38), through the real binary: the
//! Town's own certificate served with HSTS and an https origin, read again on
//! SIGHUP and when the files change, a bad pair refused at start (naming the
//! setting) and on reload (keeping the served one), the plain-HTTP listener
//! that only redirects, `/readyz` with the certificate's expiry.

mod tls_support;

use std::time::Duration;

use tls_support::{free_port, get_when_up, run, write, Authority, Running};

fn serve_args<'a>(db: &'a str, listen: &'a str, cert: &'a str, key: &'a str) -> Vec<&'a str> {
    vec![
        "--database",
        db,
        "serve",
        "--listen",
        listen,
        "--tls-cert",
        cert,
        "--tls-key",
        key,
        "--worker-threads",
        "1",
    ]
}

#[tokio::test]
async fn the_certificate_files_are_served_with_hsts_secure_cookies_and_an_https_origin_named_after_them(
) {
    if tls_support::postgres_run() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let ca = Authority::new();
    let (cert, key) = ca.issue(&["wells.test"], 30);
    let cert = write(dir.path(), "cert.pem", &cert);
    let key = write(dir.path(), "key.pem", &key);
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let db = dir.path().join("wells.db");
    let (db, cert, key) = (
        db.to_str().expect("UTF-8 path"),
        cert.to_str().expect("UTF-8 path"),
        key.to_str().expect("UTF-8 path"),
    );
    // An officer, for the session cookie.
    let mut add = std::process::Command::new(tls_support::SERVER)
        .args([
            "--database",
            db,
            "user",
            "add",
            "ann",
            "--role",
            "officer",
            "--name",
            "Ann Lee",
        ])
        .args(["--badge", "7"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("user add");
    use std::io::Write;
    add.stdin
        .take()
        .expect("stdin")
        .write_all(b"a long enough password 1\n")
        .expect("password");
    assert!(add.wait().expect("user add").success());
    assert!(
        tls_support::run(&[
            "--database",
            db,
            "sign-in-policy",
            "--second-factor",
            "optional"
        ])
        .0
    );
    let server = Running::start(&serve_args(db, &listen, cert, key), &[]);
    let client = tls_support::client(&ca.pem());
    let health = get_when_up(
        &client,
        "wells.test",
        port,
        "/healthz",
        Duration::from_secs(30),
    )
    .await
    .expect("HTTPS answers");
    assert_eq!(health.status(), 200, "{}", server.log());
    let page = tls_support::get(&client, "wells.test", port, "/sign-in")
        .await
        .expect("page");
    assert_eq!(
        page.header("strict-transport-security").as_deref(),
        Some("max-age=31536000; includeSubDomains")
    );
    // No --public-origin: the first-run link is on the certificate's own name.
    assert!(
        server.wait_for_line(
            &format!("https://wells.test:{port}/setup?token="),
            Duration::from_secs(5)
        ),
        "{}",
        server.log()
    );
    // The session cookie is Secure: sent back over HTTPS only.
    let signed_in = tls_support::post_json(
        &client,
        "wells.test",
        port,
        "/api/session/sign-in",
        r#"{"username":"ann","password":"a long enough password 1"}"#,
    )
    .await
    .expect("sign in");
    assert_eq!(signed_in.status(), 200, "{}", signed_in.body);
    let cookie = signed_in.header("set-cookie").expect("a session cookie");
    assert!(
        cookie.contains("wells_session=") && cookie.contains("Secure"),
        "{cookie}"
    );
    // A client that does not trust the authority refuses the handshake.
    let stranger = tls_support::client(&Authority::new().pem());
    assert!(tls_support::get(&stranger, "wells.test", port, "/healthz")
        .await
        .is_err());
}

#[tokio::test]
async fn the_certificate_files_are_read_again_on_sighup_and_when_they_change_and_a_bad_pair_is_not_taken(
) {
    if tls_support::postgres_run() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let ca = Authority::new();
    let first = ca.issue(&["wells.test"], 30);
    let cert = write(dir.path(), "cert.pem", &first.0);
    let key = write(dir.path(), "key.pem", &first.1);
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let db = dir.path().join("wells.db");
    let (db_s, cert_s, key_s) = (
        db.to_str().expect("UTF-8 path"),
        cert.to_str().expect("UTF-8 path"),
        key.to_str().expect("UTF-8 path"),
    );
    let server = Running::start(&serve_args(db_s, &listen, cert_s, key_s), &[]);
    let client = tls_support::client(&ca.pem());
    let served = |answer: tls_support::Answer| answer.certificate;
    let up = get_when_up(
        &client,
        "wells.test",
        port,
        "/healthz",
        Duration::from_secs(30),
    )
    .await;
    assert_eq!(served(up.expect("up")), tls_support::der(&first.0));

    // SIGHUP: the renewed pair at once.
    let second = ca.issue(&["wells.test"], 60);
    write(dir.path(), "cert.pem", &second.0);
    write(dir.path(), "key.pem", &second.1);
    server.signal("HUP");
    assert!(
        server.wait_for_line("SIGHUP", Duration::from_secs(5)),
        "{}",
        server.log()
    );
    let now = tls_support::get(&client, "wells.test", port, "/healthz")
        .await
        .expect("after HUP");
    assert_eq!(now.certificate, tls_support::der(&second.0));

    // A certificate with the wrong key: refused, the served one stays.
    let third = ca.issue(&["wells.test"], 90);
    write(dir.path(), "cert.pem", &third.0);
    server.signal("HUP");
    assert!(
        server.wait_for_line("not taken", Duration::from_secs(5)),
        "{}",
        server.log()
    );
    let kept = tls_support::get(&client, "wells.test", port, "/healthz")
        .await
        .expect("kept");
    assert_eq!(kept.certificate, tls_support::der(&second.0));

    // No signal: a change of the files is seen within the watch period.
    write(dir.path(), "key.pem", &third.1);
    let started = std::time::Instant::now();
    loop {
        let answer = tls_support::get(&client, "wells.test", port, "/healthz")
            .await
            .expect("answer");
        if answer.certificate == tls_support::der(&third.0) {
            break;
        }
        assert!(
            started.elapsed() < server::tls::files::WATCH_EVERY + Duration::from_secs(5),
            "the changed files were not read again: {}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[test]
fn bad_https_settings_stop_the_start_naming_the_setting_and_touch_nothing() {
    if tls_support::postgres_run() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let ca = Authority::new();
    let (cert, key) = ca.issue(&["wells.test"], 30);
    let (_, other_key) = ca.issue(&["wells.test"], 30);
    let cert = write(dir.path(), "cert.pem", &cert);
    let key = write(dir.path(), "key.pem", &key);
    let other_key = write(dir.path(), "other-key.pem", &other_key);
    let not_cert = write(dir.path(), "not-a-cert.pem", "this is not a certificate\n");
    let (expired_cert, expired_key) = ca.issue(&["wells.test"], -1);
    let expired_cert = write(dir.path(), "expired.pem", &expired_cert);
    let expired_key = write(dir.path(), "expired-key.pem", &expired_key);
    let db = dir.path().join("wells.db");
    let unreachable = format!("https://127.0.0.1:{}/dir", free_port());
    let p = |path: &std::path::Path| path.to_str().expect("UTF-8 path").to_owned();
    let cases: Vec<(Vec<String>, &[&str])> = vec![
        (
            vec![
                "--tls-cert".into(),
                p(&not_cert),
                "--tls-key".into(),
                p(&key),
            ],
            &["--tls-cert", "no certificate"],
        ),
        (
            vec!["--tls-cert".into(), p(&key), "--tls-key".into(), p(&key)],
            &["--tls-cert", "no certificate"],
        ),
        (
            vec![
                "--tls-cert".into(),
                p(&cert),
                "--tls-key".into(),
                p(&other_key),
            ],
            &["--tls-key", "is not the key of the certificate"],
        ),
        (
            vec![
                "--tls-cert".into(),
                p(&cert),
                "--tls-key".into(),
                p(&not_cert),
            ],
            &["--tls-key", "no private key"],
        ),
        (
            vec![
                "--tls-cert".into(),
                p(&expired_cert),
                "--tls-key".into(),
                p(&expired_key),
            ],
            &["--tls-cert", "expired"],
        ),
        (
            vec!["--acme-domain".into(), "192.0.2.7".into()],
            &["--acme-domain", "IP address"],
        ),
        (
            vec![
                "--acme-domain".into(),
                "wells.test".into(),
                "--acme-directory".into(),
                unreachable.clone(),
                "--acme-cache".into(),
                p(&dir.path().join("acme")),
            ],
            &["--acme-directory", "did not answer"],
        ),
        (
            vec![
                "--acme-domain".into(),
                "wells.test".into(),
                "--acme-challenge".into(),
                "http-01".into(),
            ],
            &["--redirect-listen"],
        ),
    ];
    for (flags, expected) in cases {
        let mut args = vec![
            "--database".to_owned(),
            p(&db),
            "serve".into(),
            "--listen".into(),
        ];
        args.push(format!("127.0.0.1:{}", free_port()));
        args.extend(flags.iter().cloned());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (ok, output) = run(&args);
        assert!(!ok, "{flags:?} must stop the start: {output}");
        for words in expected {
            assert!(
                output.contains(words),
                "{flags:?}: {words:?} not in {output}"
            );
        }
        assert!(
            !db.exists(),
            "{flags:?}: the database was created before the settings were checked"
        );
        assert!(
            !dir.path().join("acme").exists(),
            "{flags:?}: the ACME cache was created"
        );
    }
}

#[tokio::test]
async fn the_plain_http_listener_only_redirects_to_the_https_origin() {
    if tls_support::postgres_run() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let ca = Authority::new();
    let (cert, key) = ca.issue(&["wells.test"], 30);
    let cert = write(dir.path(), "cert.pem", &cert);
    let key = write(dir.path(), "key.pem", &key);
    let (port, plain) = (free_port(), free_port());
    let listen = format!("127.0.0.1:{port}");
    let redirect = format!("127.0.0.1:{plain}");
    let db = dir.path().join("wells.db");
    let mut args = serve_args(
        db.to_str().expect("UTF-8 path"),
        &listen,
        cert.to_str().expect("UTF-8 path"),
        key.to_str().expect("UTF-8 path"),
    );
    args.extend(["--redirect-listen", &redirect]);
    let server = Running::start(&args, &[]);
    let client = tls_support::client(&ca.pem());
    get_when_up(
        &client,
        "wells.test",
        port,
        "/healthz",
        Duration::from_secs(30),
    )
    .await
    .expect("up");
    for (method, path) in [
        ("GET", "/incidents/new?draft=1"),
        ("POST", "/api/session/sign-in"),
    ] {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", plain))
            .await
            .expect("plain");
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: wells.test\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.expect("send");
        let mut reply = String::new();
        let _ = stream.read_to_string(&mut reply).await;
        assert!(
            reply.starts_with("HTTP/1.1 308"),
            "{reply}\n{}",
            server.log()
        );
        let location = format!("location: https://wells.test:{port}{path}");
        assert!(reply.to_ascii_lowercase().contains(&location), "{reply}");
    }
}

#[tokio::test]
async fn readyz_fails_within_seven_days_of_the_certificates_end_and_metrics_show_it() {
    if tls_support::postgres_run() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let ca = Authority::new();
    let (cert, key) = ca.issue(&["wells.test"], 3);
    let cert = write(dir.path(), "cert.pem", &cert);
    let key = write(dir.path(), "key.pem", &key);
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let db = dir.path().join("wells.db");
    let _server = Running::start(
        &serve_args(
            db.to_str().expect("UTF-8 path"),
            &listen,
            cert.to_str().expect("UTF-8 path"),
            key.to_str().expect("UTF-8 path"),
        ),
        &[],
    );
    let client = tls_support::client(&ca.pem());
    let ready = get_when_up(
        &client,
        "wells.test",
        port,
        "/readyz",
        Duration::from_secs(30),
    )
    .await
    .expect("readyz");
    assert_eq!(ready.status(), 503, "{}", ready.body);
    assert!(ready.body.contains("within 7 days"), "{}", ready.body);
    let metrics = tls_support::get(&client, "wells.test", port, "/metrics")
        .await
        .expect("metrics");
    assert_eq!(metrics.status(), 200);
    let left: i64 = metrics
        .body
        .lines()
        .find_map(|l| l.strip_prefix("wells_certificate_expires_in_seconds "))
        .and_then(|v| v.trim().parse().ok())
        .expect("expiry gauge");
    assert!((2 * 86_400..=3 * 86_400).contains(&left), "{left}");
}
