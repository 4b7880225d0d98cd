//! Authenticator codes (RFC 6238): six digits from a shared secret and the time,
//! a new code every 30 seconds. Any authenticator app reads the enrolment QR code.

use rand::rngs::OsRng;
use rand::RngCore;
use totp_rs::{Algorithm, Builder, Secret, Totp};

use crate::ordinance::Moment;

/// Seconds per code: what every authenticator app assumes.
pub const STEP_SECONDS: u64 = 30;
/// Steps of clock drift accepted either side (a phone a little fast or slow, or
/// a code typed as it changed): ±1, so a code two steps old is refused.
pub const SKEW_STEPS: u16 = 1;
/// The name authenticator apps list the account under.
pub const ISSUER: &str = "Wells PD log";

/// A new secret: 160 bits, the length RFC 4226 recommends.
pub fn new_secret() -> Vec<u8> {
    let mut bytes = vec![0u8; 20];
    OsRng.fill_bytes(&mut bytes);
    bytes
}

/// The secret as people type it into an app by hand (RFC 4648 base32).
pub fn secret_text(secret: &[u8]) -> String {
    Secret::from(secret).to_base32()
}

/// A base32 secret back to bytes (the CLI's `--totp-secret`, for tests).
pub fn secret_from_text(text: &str) -> Option<Vec<u8>> {
    let cleaned: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase();
    Secret::try_from_base32(cleaned.trim_end_matches('='))
        .ok()
        .map(|s| s.as_bytes().to_vec())
        .filter(|b| b.len() >= 16)
}

fn totp(secret: &[u8], account: &str) -> Option<Totp> {
    Builder::new()
        .with_algorithm(Algorithm::SHA1)
        .with_digits(6)
        .with_skew(SKEW_STEPS)
        .with_step_duration(STEP_SECONDS)
        .with_secret(secret)
        .with_issuer(Some(ISSUER))
        .with_account_name(account)
        .build()
        .ok()
}

/// The time step `now` falls in.
pub fn step_at(now: Moment) -> i64 {
    now.0.div_euclid(1000) / STEP_SECONDS as i64
}

/// Why a code was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Not six digits.
    Malformed,
    /// Not the code for now, the step before or the step after.
    Wrong,
    /// Right, but for a step a code was already accepted for (RFC 6238 §5.2:
    /// a code is accepted once).
    Replayed,
}

/// Digits only: an app shows "123 456", people type "123-456".
pub fn normalize(code: &str) -> String {
    code.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect()
}

/// Checks `code` at `now`; accepted only for a step later than `last_step`.
/// Returns the step it matched, which the caller stores as the new `last_step`.
pub fn accept(secret: &[u8], code: &str, now: Moment, last_step: i64) -> Result<i64, Refused> {
    let code = normalize(code);
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Refused::Malformed);
    }
    let totp = totp(secret, "check").ok_or(Refused::Wrong)?;
    let seconds = u64::try_from(now.0.div_euclid(1000)).map_err(|_| Refused::Wrong)?;
    let step = totp.check(&code, seconds).ok_or(Refused::Wrong)?;
    let step = i64::try_from(step).map_err(|_| Refused::Wrong)?;
    if step <= last_step {
        Err(Refused::Replayed)
    } else {
        Ok(step)
    }
}

/// The code for `now` (tests and the CLI's check).
pub fn code_at(secret: &[u8], now: Moment) -> String {
    totp(secret, "code")
        .map(|t| {
            t.generate(u64::try_from(now.0.div_euclid(1000)).unwrap_or(0))
                .to_string()
        })
        .unwrap_or_default()
}

/// What enrolment shows: the `otpauth://` link an app reads from the QR code.
pub fn enrolment_uri(secret: &[u8], username: &str) -> Option<String> {
    totp(secret, username)?.to_url().ok()
}

/// The QR code of `uri` as an SVG element (inline: no image request, nothing the
/// content security policy has to allow). Black on white, whatever the theme.
pub fn qr_svg(uri: &str) -> Option<String> {
    let code = qrcode::QrCode::new(uri.as_bytes()).ok()?;
    let svg = code
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(220, 220)
        .quiet_zone(true)
        .build();
    // The renderer writes an XML declaration, which is not allowed inside HTML.
    let start = svg.find("<svg")?;
    Some(svg[start..].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6238 Appendix B: the SHA-1 seed, 8 digits, at each listed time.
    #[test]
    fn rfc_6238_appendix_b_vectors() {
        let vectors: [(u64, &str, &str, &str); 6] = [
            (59, "94287082", "46119246", "90693936"),
            (1111111109, "07081804", "68084774", "25091201"),
            (1111111111, "14050471", "67062674", "99943326"),
            (1234567890, "89005924", "91819424", "93441116"),
            (2000000000, "69279037", "90698825", "38618901"),
            (20000000000, "65353130", "77737706", "47863826"),
        ];
        let seeds: [(Algorithm, &[u8]); 3] = [
            (Algorithm::SHA1, b"12345678901234567890"),
            (Algorithm::SHA256, b"12345678901234567890123456789012"),
            (
                Algorithm::SHA512,
                b"1234567890123456789012345678901234567890123456789012345678901234",
            ),
        ];
        for (time, sha1, sha256, sha512) in vectors {
            for ((algorithm, seed), expected) in seeds.iter().zip([sha1, sha256, sha512]) {
                let totp = Builder::new()
                    .with_algorithm(*algorithm)
                    .with_digits(8)
                    .with_step_duration(30)
                    .with_secret(*seed)
                    .build()
                    .expect("rfc parameters");
                assert_eq!(
                    totp.generate(time).to_string(),
                    expected,
                    "{algorithm:?} at {time}"
                );
            }
        }
    }

    const SECRET: &[u8] = b"12345678901234567890";

    fn at(seconds: i64) -> Moment {
        Moment(seconds * 1000)
    }

    #[test]
    fn a_code_is_accepted_once_for_its_step() {
        let now = at(1_111_111_109);
        let code = code_at(SECRET, now);
        let step = accept(SECRET, &code, now, 0).expect("fresh code");
        assert_eq!(step, step_at(now));
        assert_eq!(accept(SECRET, &code, now, step), Err(Refused::Replayed));
        // An earlier step's code is refused too once a later one was used.
        let earlier = code_at(SECRET, at(1_111_111_109 - 30));
        assert_eq!(accept(SECRET, &earlier, now, step), Err(Refused::Replayed));
    }

    #[test]
    fn one_step_of_drift_either_side_is_accepted_two_are_not() {
        let now = at(1_111_111_109);
        let s = step_at(now);
        for (offset, expected) in [
            (-60, None),
            (-30, Some(s - 1)),
            (30, Some(s + 1)),
            (60, None),
        ] {
            let code = code_at(SECRET, at(1_111_111_109 + offset));
            let got = accept(SECRET, &code, now, 0).ok();
            assert_eq!(got, expected, "code from {offset} s");
        }
        let two_steps_ago = code_at(SECRET, at(1_111_111_109 - 60));
        assert_eq!(accept(SECRET, &two_steps_ago, now, 0), Err(Refused::Wrong));
    }

    #[test]
    fn codes_are_six_digits_spaces_and_dashes_allowed() {
        let now = at(59);
        let code = code_at(SECRET, now);
        assert_eq!(code.len(), 6);
        let spaced = format!("{} {}", &code[..3], &code[3..]);
        assert!(accept(SECRET, &spaced, now, 0).is_ok());
        assert_eq!(accept(SECRET, "12345", now, 0), Err(Refused::Malformed));
        assert_eq!(accept(SECRET, "12345a", now, 0), Err(Refused::Malformed));
    }

    #[test]
    fn secrets_round_trip_through_base32_and_the_qr_code_is_svg() {
        let secret = new_secret();
        assert_eq!(
            secret_from_text(&secret_text(&secret)),
            Some(secret.clone())
        );
        assert_eq!(secret_from_text("not base32!"), None);
        let uri = enrolment_uri(&secret, "officer").expect("uri");
        assert!(uri.starts_with("otpauth://totp/"), "{uri}");
        assert!(uri.contains(&secret_text(&secret)));
        let svg = qr_svg(&uri).expect("svg");
        assert!(svg.starts_with("<svg"));
        assert!(!svg.contains("<script"));
    }
}
