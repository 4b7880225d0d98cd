//! Passkeys (WebAuthn): the phone's fingerprint or face unlock, bound to this
//! site's name, so a look-alike site cannot collect it (phishing-resistant).

use webauthn_rs::prelude::Url;
use webauthn_rs::{Webauthn, WebauthnBuilder};

/// Why passkeys are off for this server, in words an administrator can act on.
pub const NEEDS_HOST_NAME: &str = "Passkeys need the app to be reached by a host name \
     (for example https://log.wellspd.example or http://localhost:3000), not an IP address: \
     set WELLS_PUBLIC_ORIGIN. Authenticator codes work either way.";

/// The relying party for `public_origin`: its host name is the passkeys' scope.
pub fn relying_party(public_origin: &str) -> Result<Webauthn, String> {
    let url = Url::parse(public_origin).map_err(|e| format!("{public_origin}: {e}"))?;
    let host = url.host_str().unwrap_or_default().to_owned();
    let is_address = host
        .trim_matches(['[', ']'])
        .parse::<std::net::IpAddr>()
        .is_ok();
    if host.is_empty() || is_address {
        return Err(NEEDS_HOST_NAME.to_owned());
    }
    WebauthnBuilder::new(&host, &url)
        .and_then(|b| b.rp_name("Wells Police Department log").build())
        .map_err(|e| format!("passkeys: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passkeys_need_a_host_name() {
        assert!(relying_party("http://localhost:3000").is_ok());
        assert!(relying_party("https://log.wellspd.example").is_ok());
        assert_eq!(
            relying_party("http://127.0.0.1:3000").err().as_deref(),
            Some(NEEDS_HOST_NAME)
        );
    }
}
