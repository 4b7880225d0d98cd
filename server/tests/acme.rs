//! Automatic certificates with no internet (issue #38): Debian's `pebble` (a
//! test ACME authority) and `pebble-challtestsrv` (its DNS, answering
//! 127.0.0.1 for every name) on loopback ports, started here. Pebble's own
//! listener certificate is made now; its issuing root is read from its
//! management port; its validation connects to the server's HTTPS port. The
//! server obtains a certificate for `wells.test` through a real tls-alpn-01
//! challenge, serves it, and after a restart — with the authority gone, so no
//! order could be placed — serves the cached one.
//!
//! Without `pebble` installed the test stands down, unless
//! `WELLS_REQUIRE_PEBBLE=1` (as `make test` sets, having installed it).

mod tls_support;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rcgen::{CertificateParams, DnType, KeyPair, SanType};
use tls_support::{free_port, get, write, Authority, Running};

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn pebble_installed() -> bool {
    let found = Command::new("pebble")
        .arg("-h")
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .is_ok();
    if !found {
        assert!(
            std::env::var("WELLS_REQUIRE_PEBBLE").as_deref() != Ok("1"),
            "WELLS_REQUIRE_PEBBLE=1 but pebble is not installed (apt-get install pebble)"
        );
        eprintln!("pebble is not installed: the ACME test stands down");
    }
    found
}

/// A certificate for 127.0.0.1 by `ca`: Pebble's listener.
fn listener_certificate(ca: &Authority) -> (String, String) {
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("params");
    params.subject_alt_names = vec![SanType::IpAddress(std::net::IpAddr::from([127, 0, 0, 1]))];
    params.distinguished_name.push(DnType::CommonName, "pebble");
    let key = KeyPair::generate().expect("key");
    let cert = params.signed_by(&key, &ca.cert, &ca.key).expect("signed");
    (cert.pem(), key.serialize_pem())
}

async fn until<T>(within: Duration, mut attempt: impl AsyncFnMut() -> Option<T>) -> Option<T> {
    let started = Instant::now();
    while started.elapsed() < within {
        if let Some(value) = attempt().await {
            return Some(value);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    None
}

#[tokio::test]
async fn a_certificate_for_wells_test_is_obtained_over_tls_alpn_01_and_reused_after_a_restart() {
    if tls_support::postgres_run() {
        return;
    }
    if !pebble_installed() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let ca = Authority::new();
    let (cert, key) = listener_certificate(&ca);
    let cert = write(dir.path(), "pebble-cert.pem", &cert);
    let key = write(dir.path(), "pebble-key.pem", &key);
    let ca_file = write(dir.path(), "pebble-listener-ca.pem", &ca.pem());
    let (acme, management, dns, dns_management, https) = (
        free_port(),
        free_port(),
        free_port(),
        free_port(),
        free_port(),
    );
    let config = serde_json::json!({
        "pebble": {
            "listenAddress": format!("127.0.0.1:{acme}"),
            "managementListenAddress": format!("127.0.0.1:{management}"),
            "certificate": cert,
            "privateKey": key,
            "httpPort": free_port(),
            "tlsPort": https,
            "ocspResponderURL": "",
            "externalAccountBindingRequired": false
        }
    });
    let config = write(dir.path(), "pebble.json", &config.to_string());
    let quiet = || Stdio::null();
    let _dns = Killed(
        Command::new("pebble-challtestsrv")
            .args([
                "-dns01",
                &format!("127.0.0.1:{dns}"),
                "-http01",
                "",
                "-https01",
                "",
                "-tlsalpn01",
                "",
            ])
            .args([
                "-management",
                &format!("127.0.0.1:{dns_management}"),
                "-defaultIPv6",
                "",
            ])
            .stdout(quiet())
            .stderr(quiet())
            .spawn()
            .expect("pebble-challtestsrv"),
    );
    let pebble_log = dir.path().join("pebble.log");
    let pebble = Killed(
        Command::new("pebble")
            .args([
                "-config",
                config.to_str().expect("UTF-8 path"),
                "-dnsserver",
                &format!("127.0.0.1:{dns}"),
            ])
            .env("PEBBLE_VA_NOSLEEP", "1")
            .env("PEBBLE_WFE_NONCEREJECT", "0")
            // A fresh authorisation, so a challenge is really answered.
            .env("PEBBLE_AUTHZREUSE", "0")
            .stdout(std::fs::File::create(&pebble_log).expect("log"))
            .stderr(Stdio::null())
            .spawn()
            .expect("pebble"),
    );
    let listener_client = tls_support::client(&ca.pem());
    // The issuing root, new each run.
    let root = until(Duration::from_secs(20), async || {
        let answer = get(&listener_client, "127.0.0.1", management, "/roots/0")
            .await
            .ok()?;
        (answer.status() == 200).then_some(answer.body)
    })
    .await
    .expect("pebble's management port answers with its root");
    let root = root.trim_start_matches(|c: char| c != '-').to_owned();
    let phone = tls_support::client(&root);

    let db = dir.path().join("wells.db");
    let cache = dir.path().join("acme");
    let listen = format!("127.0.0.1:{https}");
    let directory = format!("https://127.0.0.1:{acme}/dir");
    let args = [
        "--database",
        db.to_str().expect("UTF-8 path"),
        "serve",
        "--listen",
        &listen,
        "--worker-threads",
        "1",
        "--acme-domain",
        "wells.test",
        "--acme-directory",
        &directory,
        "--acme-directory-ca",
        ca_file.to_str().expect("UTF-8 path"),
        "--acme-contact",
        "it@wells.test",
        "--acme-cache",
        cache.to_str().expect("UTF-8 path"),
    ];
    let server = Running::start(&args, &[]);
    let first = until(Duration::from_secs(90), async || {
        let answer = get(&phone, "wells.test", https, "/healthz").await.ok()?;
        (answer.status() == 200).then_some(answer.certificate)
    })
    .await;
    let log = std::fs::read_to_string(&pebble_log).unwrap_or_default();
    let first = first.unwrap_or_else(|| {
        panic!(
            "no certificate served\nserver:\n{}\npebble:\n{log}",
            server.log()
        )
    });
    // Pebble's http-01 port has nothing listening: the challenge it completed
    // is the tls-alpn-01 answer on the server's HTTPS port.
    assert!(
        log.contains("set VALID by completed challenge"),
        "no challenge completed:\n{log}"
    );
    let cached: Vec<_> = std::fs::read_dir(&cache)
        .expect("cache")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        cached.iter().any(|n| n.starts_with("certificate-")),
        "{cached:?}"
    );
    drop(server);

    // No authority any more: only the cache can give the restarted server a certificate.
    drop(pebble);
    let again = Running::start(&args, &[]);
    let second = until(Duration::from_secs(30), async || {
        let answer = get(&phone, "wells.test", https, "/healthz").await.ok()?;
        (answer.status() == 200).then_some(answer.certificate)
    })
    .await
    .unwrap_or_else(|| panic!("the cached certificate was not served:\n{}", again.log()));
    assert_eq!(
        second, first,
        "the restart must serve the cached certificate"
    );
    assert!(
        again.log().contains("DeployedCachedCert"),
        "{}",
        again.log()
    );
}
