//! HTTPS (issue #38): the Town's own certificate files, re-read when they
//! change, or certificates obtained and renewed over ACME; a plain-HTTP
//! listener that only redirects. rustls with ring: no OpenSSL.
//!
//! Every setting is checked before the server listens: a file that is not a
//! certificate, a key that does not match it, an ACME directory that does not
//! answer, a domain that is an IP address — each stops the start with a message
//! naming the setting, so the server never runs half-configured.

pub mod acme;
pub mod files;
pub mod redirect;

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use rustls::crypto::CryptoProvider;

use crate::config::Serve;

/// The cryptography every TLS configuration of the process uses: ring, which
/// builds with the C compiler alone (aws-lc-rs, which rustls now prefers for
/// its post-quantum key exchange, needs CMake and minutes more per build; no
/// phone the Town uses asks for it yet).
#[allow(deprecated)]
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The served certificate's end of validity (Unix seconds; 0 while there is
/// none), for `/readyz` and `/metrics`.
#[derive(Debug, Default)]
pub struct Expiry(AtomicI64);

impl Expiry {
    pub fn set(&self, not_after: i64) {
        self.0.store(not_after, Ordering::Relaxed);
    }

    /// `None` while no certificate is served.
    pub fn get(&self) -> Option<i64> {
        match self.0.load(Ordering::Relaxed) {
            0 => None,
            seconds => Some(seconds),
        }
    }
}

/// How the server gets its certificate.
pub enum Https {
    Files(Arc<files::CertificateFiles>),
    Acme(Box<acme::Acme>),
}

impl Https {
    pub fn expiry(&self) -> Arc<Expiry> {
        match self {
            Https::Files(files) => files.expiry(),
            Https::Acme(acme) => acme.expiry(),
        }
    }
}

/// Checks the HTTPS settings and loads what they name. With certificate files
/// and no `--public-origin`, the origin becomes `https://<the certificate's
/// first name>` (with the port unless 443).
pub async fn prepare(
    serve: &mut Serve,
    data_dir: &std::path::Path,
) -> Result<Option<Https>, String> {
    let tls = serve.tls.clone();
    if tls.acme_challenge == "http-01" && tls.acme_domain.is_some() && tls.redirect_listen.is_none()
    {
        return Err(
            "--acme-challenge http-01 needs --redirect-listen (WELLS_REDIRECT_LISTEN) \
                    on port 80, where the certificate authority asks"
                .to_owned(),
        );
    }
    if tls.redirect_listen.is_some() && !tls.enabled() {
        return Err(
            "--redirect-listen (WELLS_REDIRECT_LISTEN) redirects to HTTPS: give \
                    --tls-cert and --tls-key, or --acme-domain"
                .to_owned(),
        );
    }
    if let (Some(cert), Some(key)) = (&tls.tls_cert, &tls.tls_key) {
        let files = files::CertificateFiles::load(cert, key)?;
        if serve.public_origin.is_none() {
            if let Some(name) = files.first_name() {
                serve.public_origin = Some(crate::config::https_origin(&name, serve.listen.port()));
            }
        }
        return Ok(Some(Https::Files(Arc::new(files))));
    }
    if let Some(domain) = &tls.acme_domain {
        let cache = tls
            .acme_cache
            .clone()
            .unwrap_or_else(|| data_dir.join("acme"));
        return acme::Acme::prepare(domain, &tls, cache)
            .await
            .map(|a| Some(Https::Acme(Box::new(a))));
    }
    Ok(None)
}

/// The TLS settings both ways share: HTTP/2 and HTTP/1.1 by ALPN.
pub fn server_config(
    resolver: Arc<dyn rustls::server::ResolvesServerCert>,
) -> Result<Arc<rustls::ServerConfig>, String> {
    let mut config = rustls::ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS set-up: {e}"))?
        .with_no_client_auth()
        .with_cert_resolver(resolver);
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// A certificate's end of validity (Unix seconds) and its DNS names.
pub fn describe(der: &[u8]) -> Result<(i64, Vec<String>), String> {
    let (_, cert) = x509_parser::parse_x509_certificate(der).map_err(|e| e.to_string())?;
    let names = cert
        .subject_alternative_name()
        .ok()
        .flatten()
        .map(|san| {
            san.value
                .general_names
                .iter()
                .filter_map(|name| match name {
                    x509_parser::extensions::GeneralName::DNSName(dns) => Some((*dns).to_owned()),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    Ok((cert.validity().not_after.timestamp(), names))
}

/// Now, in Unix seconds.
pub fn now_seconds() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}
