//! Random tokens and the hash the database keeps of them: first-run setup links
//! and a permit applicant's status link. Only the hash is stored, so a copy of the
//! database opens nothing.

use rand::rngs::OsRng;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A new random token (256 bits, hex) and the hash the database keeps of it.
pub fn new_token() -> (String, String) {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    let token = hex::encode(bytes);
    let hash = hash_token(&token);
    (token, hash)
}

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.trim().as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_only_their_hash_is_kept() {
        let (a, hash_a) = new_token();
        let (b, _) = new_token();
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_eq!(hash_token(&a), hash_a);
        assert_ne!(hash_a, a);
    }
}
