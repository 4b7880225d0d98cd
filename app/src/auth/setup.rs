//! First-run setup tokens and generated temporary passwords.

use rand::distributions::{Distribution, Uniform};
use rand::rngs::OsRng;

// The tokens are made where they are kept (first-run setup, permit status links).
pub use crate::store::tokens::{hash_token, new_token};

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
