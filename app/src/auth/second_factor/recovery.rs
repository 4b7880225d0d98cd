//! Recovery codes: ten one-time codes for the day the phone is lost. Shown once,
//! kept only as SHA-256 (each holds 40 random bits and the lockout allows five
//! tries, so a fast hash is enough; there is nothing to stretch).

use rand::distributions::{Distribution, Uniform};
use rand::rngs::OsRng;
use sha2::{Digest, Sha256};

pub const COUNT: usize = 10;

/// No look-alikes (0/o, 1/l/i): the codes are copied by hand from paper.
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// Ten new codes, each `xxxx-xxxx`.
pub fn new_codes() -> Vec<String> {
    let pick = Uniform::from(0..ALPHABET.len());
    (0..COUNT)
        .map(|_| {
            let chars: String = (0..8)
                .map(|_| ALPHABET[pick.sample(&mut OsRng)] as char)
                .collect();
            format!("{}-{}", &chars[..4], &chars[4..])
        })
        .collect()
}

/// What is stored for a code: case, spaces and the dash do not matter.
pub fn hash(code: &str) -> String {
    let normalized: String = code
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    hex::encode(Sha256::digest(normalized.as_bytes()))
}

/// Whether `text` has the shape of a recovery code (eight letters and digits)
/// rather than an authenticator code (six digits). By length, not by letters: a
/// recovery code may happen to hold digits only.
pub fn looks_like_code(text: &str) -> bool {
    text.chars().filter(|c| c.is_ascii_alphanumeric()).count() == 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_distinct_codes_and_their_hash_ignores_case_and_dashes() {
        let codes = new_codes();
        assert_eq!(codes.len(), 10);
        let mut unique = codes.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 10);
        let code = &codes[0];
        assert_eq!(code.len(), 9);
        assert_eq!(hash(code), hash(&code.to_uppercase().replace('-', " ")));
        assert_ne!(hash(code), hash(&codes[1]));
        assert!(codes.iter().all(|c| looks_like_code(c)));
        assert!(
            looks_like_code("2345-6789"),
            "digits only is still a recovery code"
        );
        assert!(!looks_like_code("123 456"));
    }
}
