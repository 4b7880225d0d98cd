//! Time as the rules see it: a moment in UTC.

use serde::{Deserialize, Serialize};

/// A moment in time: milliseconds since the Unix epoch, UTC. Stored and sent as a
/// number; shown in the Town's time zone by the screens and documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Moment(pub i64);

impl Moment {
    pub const fn millis(self) -> i64 {
        self.0
    }

    pub const fn plus_minutes(self, minutes: u32) -> Moment {
        Moment(self.0 + minutes as i64 * 60_000)
    }

    /// Whole minutes from `earlier` to `self` (negative when `self` is earlier).
    pub const fn minutes_since(self, earlier: Moment) -> i64 {
        (self.0 - earlier.0).div_euclid(60_000)
    }
}

/// How far ahead of the server's clock a recorded time may be before it counts as
/// "in the future": phone clocks drift, and a time typed to the minute rounds up.
pub const CLOCK_TOLERANCE_MS: i64 = 5 * 60_000;

/// Whether `at` is in the future as the rules count it (beyond the tolerance).
pub const fn is_future(at: Moment, now: Moment) -> bool {
    at.0 > now.0 + CLOCK_TOLERANCE_MS
}
