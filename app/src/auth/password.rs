//! Passwords: the policy (OWASP ASVS 2.1, NIST SP 800-63B) and argon2id hashing.

use std::collections::HashSet;
use std::sync::OnceLock;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

use crate::error::AppError;

pub const MIN_CHARS: usize = 12;
/// Accepted whole: a long passphrase is never silently cut short (ASVS 2.1.3).
pub const MAX_CHARS: usize = 128;

const COMMON: &str = include_str!("common-passwords.txt");

fn common() -> &'static HashSet<String> {
    static SET: OnceLock<HashSet<String>> = OnceLock::new();
    SET.get_or_init(|| {
        COMMON
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(str::to_lowercase)
            .collect()
    })
}

/// Why a password is refused, as the form shows it; `None` when it is acceptable.
pub fn policy_problem(password: &str, username: &str) -> Option<String> {
    let chars = password.chars().count();
    if chars < MIN_CHARS {
        return Some(format!(
            "Use at least {MIN_CHARS} characters (a short phrase is easiest to remember)."
        ));
    }
    if chars > MAX_CHARS {
        return Some(format!("Use at most {MAX_CHARS} characters."));
    }
    let lower = password.to_lowercase();
    let username = username.trim().to_lowercase();
    if !username.is_empty() && lower.contains(&username) {
        return Some("The password must not contain the username.".into());
    }
    if common().contains(&lower) {
        return Some("That password is on the list of commonly used passwords.".into());
    }
    // "Password1234!" is "password" with decoration: strip digits and symbols at
    // both ends and look again.
    let core = lower.trim_matches(|c: char| !c.is_alphabetic());
    if core.chars().count() < 4 || common().contains(core) {
        return Some(
            "That is a common password with numbers or symbols added; choose something less predictable."
                .into(),
        );
    }
    let distinct: HashSet<char> = lower.chars().collect();
    if distinct.len() < 4 {
        return Some("Use more than three different characters.".into());
    }
    None
}

/// Hashes with argon2id (the crate's defaults: 19 MiB, 2 passes). Slow on purpose;
/// call from a blocking task.
pub fn hash(password: &str) -> Result<String, AppError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| {
            tracing::error!(error = %e, "password hashing failed");
            AppError::Internal
        })
}

/// Whether `password` matches the stored PHC string.
pub fn verify(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// A hash of a random password, verified against when the username does not
/// exist, so the answer takes as long either way and reveals nothing.
pub fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| hash("decoy password that nobody has").unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_accepts_a_passphrase_and_refuses_the_weak() {
        assert_eq!(policy_problem("correct horse battery staple", "jdoe"), None);
        assert!(policy_problem("short1!", "jdoe").is_some());
        assert!(policy_problem(&"x".repeat(129), "jdoe").is_some());
        assert!(policy_problem("jdoe-is-my-password", "jdoe").is_some());
        assert!(
            policy_problem("JDOE-is-my-password", "jdoe").is_some(),
            "case-insensitive"
        );
        assert!(
            policy_problem("Password1234!", "jdoe").is_some(),
            "decorated common word"
        );
        assert!(policy_problem("123456789012", "jdoe").is_some());
        assert!(policy_problem("aaaaaaaaaaaaaaa", "jdoe").is_some());
        assert!(
            policy_problem("masturbation", "jdoe").is_some(),
            "on the list itself"
        );
    }

    #[test]
    fn exactly_128_characters_are_accepted_and_all_of_them_count() {
        let long: String = "Wells beach patrol at dawn; ".repeat(5)[..128].to_owned();
        assert_eq!(long.chars().count(), 128);
        assert_eq!(policy_problem(&long, "jdoe"), None);
        let stored = hash(&long).expect("hash");
        assert!(verify(&long, &stored));
        let mut changed_last = long.clone();
        changed_last.pop();
        changed_last.push('!');
        assert!(
            !verify(&changed_last, &stored),
            "the 128th character matters"
        );
    }

    #[test]
    fn length_counts_characters_not_bytes() {
        // 12 accented characters are 24 bytes; they meet the 12-character minimum.
        assert_eq!(policy_problem("éàüöçñøåæßœì", "jdoe"), None);
    }

    #[test]
    fn verify_rejects_a_wrong_password_and_a_garbled_hash() {
        let stored = hash("correct horse battery staple").expect("hash");
        assert!(stored.starts_with("$argon2id$"));
        assert!(verify("correct horse battery staple", &stored));
        assert!(!verify("correct horse battery stapler", &stored));
        assert!(!verify("correct horse battery staple", "not a hash"));
    }
}
