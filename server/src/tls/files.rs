//! Certificate files (`--tls-cert`, `--tls-key`): the Town's own certificate,
//! or one an outside client renews (certbot or lego, for DNS-01). Both files are
//! read again on `SIGHUP` and when either changes; a pair that does not load is
//! refused and the served certificate stays.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;

use super::Expiry;

/// How often the files are looked at for a change (SIGHUP is at once).
pub const WATCH_EVERY: Duration = Duration::from_secs(10);

/// A checked certificate and key.
#[derive(Debug)]
pub struct Loaded {
    pub key: Arc<CertifiedKey>,
    pub not_after: i64,
    pub names: Vec<String>,
}

/// Reads and checks the pair: each file what its setting says it is, the key
/// the certificate's, the certificate still valid.
pub fn load(cert_path: &Path, key_path: &Path) -> Result<Loaded, String> {
    let cert_pem = std::fs::read(cert_path).map_err(|e| {
        format!(
            "--tls-cert (WELLS_TLS_CERT) {}: cannot read: {e}",
            cert_path.display()
        )
    })?;
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<_, _>>()
        .map_err(|e| {
            format!(
                "--tls-cert (WELLS_TLS_CERT) {}: not a PEM certificate: {e}",
                cert_path.display()
            )
        })?;
    let Some(leaf) = chain.first() else {
        return Err(format!(
            "--tls-cert (WELLS_TLS_CERT) {}: no certificate in the file (expected PEM \
             `-----BEGIN CERTIFICATE-----`, the server's certificate first)",
            cert_path.display()
        ));
    };
    let (not_after, names) = super::describe(leaf).map_err(|e| {
        format!(
            "--tls-cert (WELLS_TLS_CERT) {}: not a certificate: {e}",
            cert_path.display()
        )
    })?;
    if not_after <= super::now_seconds() {
        return Err(format!(
            "--tls-cert (WELLS_TLS_CERT) {}: the certificate expired ({})",
            cert_path.display(),
            shown_time(not_after)
        ));
    }
    let key_pem = std::fs::read(key_path).map_err(|e| {
        format!(
            "--tls-key (WELLS_TLS_KEY) {}: cannot read: {e}",
            key_path.display()
        )
    })?;
    let key = PrivateKeyDer::from_pem_slice(&key_pem).map_err(|e| {
        format!(
            "--tls-key (WELLS_TLS_KEY) {}: no private key in the file (expected PEM \
             `-----BEGIN PRIVATE KEY-----`): {e}",
            key_path.display()
        )
    })?;
    let signing = super::provider()
        .key_provider
        .load_private_key(key)
        .map_err(|e| {
            format!(
                "--tls-key (WELLS_TLS_KEY) {}: unusable key: {e}",
                key_path.display()
            )
        })?;
    let certified = CertifiedKey::new(chain, signing);
    certified.keys_match().map_err(|_| {
        format!(
            "--tls-key (WELLS_TLS_KEY) {} is not the key of the certificate in --tls-cert \
             (WELLS_TLS_CERT) {}",
            key_path.display(),
            cert_path.display()
        )
    })?;
    Ok(Loaded {
        key: Arc::new(certified),
        not_after,
        names,
    })
}

/// A Unix time as UTC, for messages.
pub fn shown_time(seconds: i64) -> String {
    jiff::Timestamp::from_second(seconds).map_or_else(|_| seconds.to_string(), |t| t.to_string())
}

/// The served pair, swapped whole when the files change.
#[derive(Debug)]
pub struct CertificateFiles {
    cert: PathBuf,
    key: PathBuf,
    current: RwLock<Arc<CertifiedKey>>,
    names: Vec<String>,
    seen: Mutex<Stamp>,
    expiry: Arc<Expiry>,
}

/// What the files looked like when last read.
type Stamp = [Option<(SystemTime, u64)>; 2];

fn stamp(cert: &Path, key: &Path) -> Stamp {
    [cert, key].map(|path| {
        std::fs::metadata(path)
            .ok()
            .and_then(|m| Some((m.modified().ok()?, m.len())))
    })
}

impl CertificateFiles {
    pub fn load(cert: &Path, key: &Path) -> Result<CertificateFiles, String> {
        let seen = stamp(cert, key);
        let loaded = load(cert, key)?;
        let expiry = Arc::new(Expiry::default());
        expiry.set(loaded.not_after);
        Ok(CertificateFiles {
            cert: cert.to_owned(),
            key: key.to_owned(),
            current: RwLock::new(loaded.key),
            names: loaded.names,
            seen: Mutex::new(seen),
            expiry,
        })
    }

    pub fn expiry(&self) -> Arc<Expiry> {
        self.expiry.clone()
    }

    /// The certificate's first DNS name, for the default public origin.
    pub fn first_name(&self) -> Option<String> {
        self.names.iter().find(|n| !n.starts_with('*')).cloned()
    }

    /// Reads the files again; a pair that does not load leaves the served one.
    pub fn reload(&self, why: &str) {
        let seen = stamp(&self.cert, &self.key);
        if let Ok(mut last) = self.seen.lock() {
            *last = seen;
        }
        match load(&self.cert, &self.key) {
            Ok(loaded) => {
                if let Ok(mut current) = self.current.write() {
                    *current = loaded.key;
                }
                self.expiry.set(loaded.not_after);
                tracing::info!(
                    why,
                    valid_until = %shown_time(loaded.not_after),
                    "certificate files read again"
                );
            }
            Err(error) => {
                tracing::error!(why, %error, "certificate files not taken; the served certificate stays")
            }
        }
    }

    /// Whether either file differs from when it was last read.
    fn changed(&self) -> bool {
        let now = stamp(&self.cert, &self.key);
        self.seen.lock().map(|last| *last != now).unwrap_or(false)
    }

    /// Reads the files again on SIGHUP and when they change.
    pub fn watch(self: &Arc<Self>) {
        let files = self.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(WATCH_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut hangup =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()).ok();
            loop {
                let signalled = async {
                    match hangup.as_mut() {
                        Some(signal) => signal.recv().await,
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    _ = signalled => files.reload("SIGHUP"),
                    _ = every.tick() => if files.changed() { files.reload("the files changed") },
                }
            }
        });
    }
}

impl ResolvesServerCert for CertificateFiles {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        self.current.read().ok().map(|key| key.clone())
    }
}
