//! First-run setup tokens and generated temporary passwords.

use rand::distributions::{Distribution, Uniform};
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

/// A temporary password for an administrator's reset: 16 characters from an
/// alphabet without look-alikes (no 0/O, 1/l/I), in groups of four.
pub fn temporary_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let pick = Uniform::from(0..ALPHABET.len());
    let chars: Vec<char> = (0..16)
        .map(|_| ALPHABET[pick.sample(&mut OsRng)] as char)
        .collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
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

    #[test]
    fn temporary_passwords_meet_the_password_policy() {
        for _ in 0..50 {
            let p = temporary_password();
            assert_eq!(p.chars().count(), 19);
            assert_eq!(
                crate::auth::password::policy_problem(&p, "someone"),
                None,
                "{p}"
            );
        }
    }
}
