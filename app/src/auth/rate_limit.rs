//! Sign-in attempts per client address (OWASP ASVS 2.2.1), on top of the
//! per-account lockout: stops one address from trying many accounts.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::ordinance::Moment;

/// A fixed-window counter per key: at most `per_minute` attempts in any one
/// calendar minute of the server clock.
#[derive(Debug)]
pub struct RateLimiter {
    per_minute: u32,
    windows: Mutex<HashMap<String, (i64, u32)>>,
}

impl RateLimiter {
    pub fn per_minute(per_minute: u32) -> RateLimiter {
        RateLimiter {
            per_minute,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Counts an attempt by `key`; `false` when it is over the limit.
    pub fn allow(&self, key: &str, now: Moment) -> bool {
        let minute = now.0.div_euclid(60_000);
        let Ok(mut windows) = self.windows.lock() else {
            return false;
        };
        // Forget old windows so the map cannot grow without bound.
        if windows.len() > 10_000 {
            windows.retain(|_, (m, _)| *m == minute);
        }
        let entry = windows.entry(key.to_owned()).or_insert((minute, 0));
        if entry.0 != minute {
            *entry = (minute, 0);
        }
        entry.1 += 1;
        entry.1 <= self.per_minute
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_over_its_limit_is_refused_until_the_next_minute() {
        let limiter = RateLimiter::per_minute(3);
        // The start of a minute, so all four calls fall in one window.
        let t = Moment(1_780_000_020_000);
        assert!(limiter.allow("10.0.0.1", t));
        assert!(limiter.allow("10.0.0.1", t));
        assert!(limiter.allow("10.0.0.1", t));
        assert!(!limiter.allow("10.0.0.1", t));
        assert!(
            limiter.allow("10.0.0.2", t),
            "other addresses are not affected"
        );
        assert!(limiter.allow("10.0.0.1", Moment(t.0 + 60_000)));
    }
}
