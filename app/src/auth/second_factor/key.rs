//! The key that seals authenticator secrets at rest (issue #18). A TOTP secret
//! must be readable by the server to check a code, so it cannot be hashed like a
//! password; it is encrypted (AES-256-GCM) with a key kept outside the database:
//! a copied database file, or a backup, gives away no one's authenticator.

use std::io::Write;
use std::path::Path;

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes256Gcm, Key, Nonce};
use rand::rngs::OsRng;
use rand::RngCore;

/// A sealed secret: the nonce and the ciphertext with its tag, in the shape the
/// store keeps.
pub use crate::store::second_factor::Sealed;

/// 256 bits from the server's configuration.
#[derive(Clone)]
pub struct SealingKey(Key<Aes256Gcm>);

impl std::fmt::Debug for SealingKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SealingKey(..)")
    }
}

impl SealingKey {
    /// A fresh random key (tests, and the first start of an embedded install).
    pub fn random() -> SealingKey {
        let mut bytes = [0u8; 32];
        OsRng.fill_bytes(&mut bytes);
        SealingKey(*Key::<Aes256Gcm>::from_slice(&bytes))
    }

    /// Reads the key file (64 hex digits), or on first start creates it with
    /// permissions 0600 (owner read and write only). A file that exists but does
    /// not hold a key stops the server: generating a new one would make every
    /// enrolled authenticator unreadable.
    pub fn load_or_create(path: &Path) -> Result<SealingKey, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                let bytes = hex::decode(text.trim())
                    .ok()
                    .filter(|b| b.len() == 32)
                    .ok_or_else(|| {
                        format!(
                            "{}: not a second-factor key (expected 64 hex digits)",
                            path.display()
                        )
                    })?;
                Ok(SealingKey(*Key::<Aes256Gcm>::from_slice(&bytes)))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let key = SealingKey::random();
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                }
                let mut options = std::fs::OpenOptions::new();
                options.write(true).create_new(true);
                #[cfg(unix)]
                std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
                let mut file = options
                    .open(path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                writeln!(file, "{}", hex::encode(key.0))
                    .and_then(|_| file.sync_all())
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                Ok(key)
            }
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    pub fn seal(&self, plain: &[u8]) -> Sealed {
        let mut nonce = [0u8; 12];
        OsRng.fill_bytes(&mut nonce);
        let sealed = Aes256Gcm::new(&self.0)
            .encrypt(Nonce::from_slice(&nonce), plain)
            // Encryption fails only for inputs of gigabytes.
            .unwrap_or_default();
        Sealed {
            nonce: nonce.to_vec(),
            sealed,
        }
    }

    /// `None` when the data was sealed with another key or altered.
    pub fn open(&self, sealed: &Sealed) -> Option<Vec<u8>> {
        if sealed.nonce.len() != 12 {
            return None;
        }
        Aes256Gcm::new(&self.0)
            .decrypt(Nonce::from_slice(&sealed.nonce), sealed.sealed.as_slice())
            .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_secret_opens_only_with_its_key() {
        let key = SealingKey::random();
        let sealed = key.seal(b"12345678901234567890");
        assert_ne!(sealed.sealed, b"12345678901234567890".to_vec());
        assert_eq!(
            key.open(&sealed).as_deref(),
            Some(&b"12345678901234567890"[..])
        );
        assert_eq!(SealingKey::random().open(&sealed), None);
        let mut altered = sealed.clone();
        altered.sealed[0] ^= 1;
        assert_eq!(key.open(&altered), None);
    }

    #[test]
    fn the_key_file_is_created_once_owner_only_and_read_back() {
        let dir = std::env::temp_dir().join(format!("wells-key-{}", uuid::Uuid::now_v7()));
        let path = dir.join("wells.db.second-factor-key");
        let first = SealingKey::load_or_create(&path).expect("create");
        let sealed = first.seal(b"secret");
        let again = SealingKey::load_or_create(&path).expect("read");
        assert_eq!(again.open(&sealed).as_deref(), Some(&b"secret"[..]));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::write(&path, "not a key").expect("write");
        assert!(SealingKey::load_or_create(&path).is_err());
        let _ = std::fs::remove_dir_all(dir);
    }
}
