//! Automatic certificates (`--acme-domain`): rustls-acme orders a certificate
//! from the ACME directory, answers the authority's tls-alpn-01 challenge on the
//! HTTPS port (or http-01 on the redirect listener), keeps the account key and
//! certificate in the cache folder (owner-only files) and renews a third of the
//! validity before the end. After a restart the cached certificate is served
//! with no new order.
//!
//! Why rustls-acme and not instant-acme (measured for issue #38): instant-acme
//! 0.8 brings fewer crates (24 new against 31, and no second async reactor), but
//! it is a protocol client only — the tls-alpn-01 answer (a certificate with the
//! acmeIdentifier extension behind the `acme-tls/1` protocol), the renewal
//! schedule and the cache would be ours to write and keep; rustls-acme does all
//! three, its `axum` acceptor serves the challenge on the same port, and it
//! answers Pebble's tls-alpn-01 in the test (tests/acme.rs).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use futures_util::StreamExt;
use rustls::RootCertStore;
use rustls_acme::acme::Directory;
use rustls_acme::{AccountCache, AcmeConfig, AcmeState, CertCache, EventOk, UseChallenge};
use sha2::{Digest, Sha256};

use super::Expiry;
use crate::config::TlsArgs;

/// How long the directory has to answer at start.
const DIRECTORY_TIMEOUT: Duration = Duration::from_secs(30);

/// The checked set-up; [`Acme::run`] then orders and renews.
pub struct Acme {
    state: AcmeState<std::io::Error>,
    cache: FileCache,
    domain: String,
    directory: String,
    expiry: Arc<Expiry>,
}

/// The name a certificate is asked for: a DNS name, never an IP address (no
/// public authority certifies an address, and a phone reaches the Town's
/// server by name).
pub fn domain(value: &str) -> Result<String, String> {
    let name = value.trim().trim_end_matches('.').to_ascii_lowercase();
    let setting = "--acme-domain (WELLS_ACME_DOMAIN)";
    if name
        .trim_matches(['[', ']'])
        .parse::<std::net::IpAddr>()
        .is_ok()
    {
        return Err(format!(
            "{setting} {value} is an IP address: certificates are issued for names; give the \
             server's DNS name, or use --tls-cert/--tls-key for a certificate made for an address"
        ));
    }
    let label_ok = |label: &str| {
        !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    if name.len() > 253 || !name.contains('.') || !name.split('.').all(label_ok) {
        return Err(format!(
            "{setting} {value:?} is not a DNS name (letters, digits and hyphens in dot-separated \
             labels, e.g. wells.example.gov)"
        ));
    }
    Ok(name)
}

impl Acme {
    /// Checks the settings; unless a certificate for this domain and directory is
    /// cached, the directory must answer now.
    pub async fn prepare(
        domain_setting: &str,
        tls: &TlsArgs,
        cache: PathBuf,
    ) -> Result<Acme, String> {
        let domain = domain(domain_setting)?;
        let directory = tls.acme_directory.trim().to_owned();
        if !directory.starts_with("https://") {
            return Err(format!(
                "--acme-directory (WELLS_ACME_DIRECTORY) {directory:?} must be an https:// URL"
            ));
        }
        let client = Arc::new(client_config(tls.acme_directory_ca.as_deref())?);
        let contact: Vec<String> = tls
            .acme_contact
            .iter()
            .map(|c| {
                if c.contains(':') {
                    c.clone()
                } else {
                    format!("mailto:{c}")
                }
            })
            .collect();
        let cache = FileCache::new(&cache);
        let expiry = Arc::new(Expiry::default());
        let domains = [domain.clone()];
        match cache.load_cert(&domains, &directory).await {
            Ok(Some(pem)) => record_expiry(&pem, &expiry),
            Ok(None) => reach(&client, &directory).await?,
            Err(e) => {
                return Err(format!(
                    "--acme-cache (WELLS_ACME_CACHE) {}: cannot read: {e}",
                    cache.dir.display()
                ))
            }
        }
        cache.create()?;
        let challenge = match tls.acme_challenge.as_str() {
            "http-01" => UseChallenge::Http01,
            _ => UseChallenge::TlsAlpn01,
        };
        let state = AcmeConfig::new_with_client_config(domains, client)
            .directory(&directory)
            .contact(contact)
            .cache(cache.clone())
            .challenge_type(challenge)
            .state();
        Ok(Acme {
            state,
            cache,
            domain,
            directory,
            expiry,
        })
    }

    pub fn expiry(&self) -> Arc<Expiry> {
        self.expiry.clone()
    }

    pub fn domain(&self) -> &str {
        &self.domain
    }

    /// The acceptor of the HTTPS port: the authority's tls-alpn-01 handshakes
    /// are answered there, every other connection gets the certificate.
    pub fn acceptor(&self) -> Result<rustls_acme::axum::AxumAcceptor, String> {
        let config = super::server_config(self.state.resolver())?;
        Ok(self.state.axum_acceptor(config))
    }

    /// The http-01 answers, for the redirect listener.
    pub fn http01(&self) -> rustls_acme::tower::TowerHttp01ChallengeService {
        self.state.http01_challenge_tower_service()
    }

    /// Orders and renews for as long as the server runs; `ready` is sent once
    /// a certificate is served (cached or new).
    pub fn run(self, ready: tokio::sync::oneshot::Sender<()>) {
        let Acme {
            mut state,
            cache,
            domain,
            directory,
            expiry,
        } = self;
        let mut ready = Some(ready);
        tokio::spawn(async move {
            let domains = [domain.clone()];
            while let Some(event) = state.next().await {
                match event {
                    Ok(ok) => {
                        tracing::info!(domain, event = ?ok, "ACME");
                        if matches!(ok, EventOk::DeployedCachedCert | EventOk::CertCacheStore) {
                            if let Ok(Some(pem)) = cache.load_cert(&domains, &directory).await {
                                record_expiry(&pem, &expiry);
                            }
                        }
                        if matches!(ok, EventOk::DeployedCachedCert | EventOk::DeployedNewCert) {
                            if let Some(ready) = ready.take() {
                                let _ = ready.send(());
                            }
                        }
                    }
                    Err(error) => tracing::error!(
                        domain,
                        directory,
                        %error,
                        "ACME: no certificate this time; trying again with back-off"
                    ),
                }
            }
        });
    }
}

/// Public roots, and the one `--acme-directory-ca` names.
fn client_config(extra_root: Option<&Path>) -> Result<rustls::ClientConfig, String> {
    let mut roots = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(path) = extra_root {
        let setting = "--acme-directory-ca (WELLS_ACME_DIRECTORY_CA)";
        let pem = std::fs::read(path)
            .map_err(|e| format!("{setting} {}: cannot read: {e}", path.display()))?;
        let certs: Vec<_> = rustls::pki_types::pem::PemObject::pem_slice_iter(&pem)
            .collect::<Result<Vec<rustls::pki_types::CertificateDer<'static>>, _>>()
            .map_err(|e| format!("{setting} {}: not a PEM certificate: {e}", path.display()))?;
        if certs.is_empty() {
            return Err(format!(
                "{setting} {}: no certificate in the file",
                path.display()
            ));
        }
        for cert in certs {
            roots
                .add(cert)
                .map_err(|e| format!("{setting} {}: not a usable root: {e}", path.display()))?;
        }
    }
    Ok(
        rustls::ClientConfig::builder_with_provider(super::provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS set-up: {e}"))?
            .with_root_certificates(roots)
            .with_no_client_auth(),
    )
}

/// The directory must answer before the server starts with nothing to serve.
async fn reach(client: &Arc<rustls::ClientConfig>, directory: &str) -> Result<(), String> {
    let unreachable = |why: String| {
        format!(
            "--acme-directory (WELLS_ACME_DIRECTORY) {directory}: the ACME directory did not \
             answer ({why}); check the address and that this server reaches it, or use \
             --tls-cert/--tls-key"
        )
    };
    match tokio::time::timeout(DIRECTORY_TIMEOUT, Directory::discover(client, directory)).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(error)) => Err(unreachable(error.to_string())),
        Err(_) => Err(unreachable(format!(
            "no answer in {} s",
            DIRECTORY_TIMEOUT.as_secs()
        ))),
    }
}

fn record_expiry(pem: &[u8], expiry: &Expiry) {
    // rustls-acme's cached form: the key, then the chain.
    let leaf = rustls::pki_types::pem::PemObject::pem_slice_iter(pem)
        .filter_map(Result::ok)
        .next()
        .map(|cert: rustls::pki_types::CertificateDer<'static>| cert);
    if let Some(Ok((not_after, _))) = leaf.map(|der| super::describe(&der)) {
        expiry.set(not_after);
    }
}

/// The account key and certificates, one owner-only file each, written whole
/// (a new file renamed over the old).
/// Cloned for rustls-acme, which holds its own: the same folder, read again.
#[derive(Debug, Clone)]
pub struct FileCache {
    dir: PathBuf,
}

impl FileCache {
    /// The cache in `dir`, which is made only once the settings are known good.
    fn new(dir: &Path) -> FileCache {
        FileCache {
            dir: dir.to_owned(),
        }
    }

    fn create(&self) -> Result<(), String> {
        std::fs::create_dir_all(&self.dir).map_err(|e| {
            format!(
                "--acme-cache (WELLS_ACME_CACHE) {}: cannot create: {e}",
                self.dir.display()
            )
        })
    }

    fn name(kind: &str, parts: &[String], directory: &str) -> String {
        let mut hash = Sha256::new();
        for part in parts {
            hash.update(part.as_bytes());
            hash.update([0]);
        }
        hash.update(directory.as_bytes());
        format!("{kind}-{}.pem", hex::encode(&hash.finalize()[..12]))
    }

    fn read(&self, name: &str) -> std::io::Result<Option<Vec<u8>>> {
        match std::fs::read(self.dir.join(name)) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn write(&self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        let partial = self.dir.join(format!(".{name}.new"));
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&partial)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&partial, self.dir.join(name))
    }
}

#[async_trait]
impl CertCache for FileCache {
    type EC = std::io::Error;
    async fn load_cert(
        &self,
        domains: &[String],
        directory: &str,
    ) -> Result<Option<Vec<u8>>, Self::EC> {
        self.read(&Self::name("certificate", domains, directory))
    }
    async fn store_cert(
        &self,
        domains: &[String],
        directory: &str,
        cert: &[u8],
    ) -> Result<(), Self::EC> {
        self.write(&Self::name("certificate", domains, directory), cert)
    }
}

#[async_trait]
impl AccountCache for FileCache {
    type EA = std::io::Error;
    async fn load_account(
        &self,
        contact: &[String],
        directory: &str,
    ) -> Result<Option<Vec<u8>>, Self::EA> {
        self.read(&Self::name("account", contact, directory))
    }
    async fn store_account(
        &self,
        contact: &[String],
        directory: &str,
        key: &[u8],
    ) -> Result<(), Self::EA> {
        self.write(&Self::name("account", contact, directory), key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ip_address_is_refused_as_a_domain_naming_the_setting() {
        for address in ["192.0.2.7", "::1", "[2001:db8::1]"] {
            let error = domain(address).expect_err(address);
            assert!(
                error.contains("--acme-domain") && error.contains("IP address"),
                "{error}"
            );
        }
    }

    #[test]
    fn a_dns_name_is_taken_in_lower_case() {
        assert_eq!(domain("Wells.Test.").as_deref(), Ok("wells.test"));
        for bad in ["", "wells", "-a.test", "a b.test", "a..test"] {
            assert!(domain(bad).is_err(), "{bad:?}");
        }
    }
}
