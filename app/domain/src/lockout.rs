//! CJIS AC-7: five consecutive failed sign-ins within fifteen minutes lock the
//! account until an administrator unlocks it. Pure: the store keeps the counters,
//! this decides what they become.

use crate::ordinance::Moment;

pub const MAX_CONSECUTIVE_FAILURES: i64 = 5;
pub const FAILURE_WINDOW_MS: i64 = 15 * 60_000;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Failures {
    pub count: i64,
    pub first_at: Option<Moment>,
    pub locked_at: Option<Moment>,
}

impl Failures {
    pub const fn is_locked(self) -> bool {
        self.locked_at.is_some()
    }

    /// The counters after one more failure at `now`. A failure more than fifteen
    /// minutes after the first of the run starts a new run.
    pub fn after_failure(self, now: Moment) -> Failures {
        let in_window = self
            .first_at
            .is_some_and(|first| now.0 - first.0 <= FAILURE_WINDOW_MS);
        let (count, first_at) = if in_window {
            (self.count + 1, self.first_at)
        } else {
            (1, Some(now))
        };
        let locked_at = self
            .locked_at
            .or_else(|| (count >= MAX_CONSECUTIVE_FAILURES).then_some(now));
        Failures {
            count,
            first_at,
            locked_at,
        }
    }

    /// A successful sign-in (only possible when not locked) clears the run.
    pub fn after_success() -> Failures {
        Failures::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: Moment = Moment(1_780_000_000_000);

    fn fail_times(minutes: &[i64]) -> Failures {
        minutes.iter().fold(Failures::default(), |f, m| {
            f.after_failure(Moment(T0.0 + m * 60_000))
        })
    }

    #[test]
    fn five_failures_within_fifteen_minutes_lock_the_account() {
        assert!(!fail_times(&[0, 1, 2, 3]).is_locked());
        let locked = fail_times(&[0, 1, 2, 3, 14]);
        assert!(locked.is_locked());
        assert_eq!(locked.locked_at, Some(Moment(T0.0 + 14 * 60_000)));
    }

    #[test]
    fn failures_spread_over_more_than_fifteen_minutes_do_not_lock() {
        let f = fail_times(&[0, 1, 2, 3, 16]);
        assert!(!f.is_locked());
        assert_eq!(f.count, 1, "the fifth failure started a new run");
    }

    #[test]
    fn a_success_before_the_fifth_failure_resets_the_run() {
        let f = fail_times(&[0, 1, 2, 3]);
        assert_eq!(f.count, 4);
        let after = Failures::after_success().after_failure(Moment(T0.0 + 5 * 60_000));
        assert_eq!(after.count, 1);
        assert!(!after.is_locked());
    }

    #[test]
    fn a_locked_account_stays_locked_however_much_time_passes() {
        let locked = fail_times(&[0, 1, 2, 3, 4]);
        let later = locked.after_failure(Moment(T0.0 + 10 * 24 * 3_600_000));
        assert!(later.is_locked());
        assert_eq!(later.locked_at, locked.locked_at);
    }
}
