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
/// "in the future". A phone's clock is set by the network, so it is off by seconds,
/// not minutes: one minute covers that and a time typed to the minute. Anything
/// later records a moment that had not yet come (issue #35: a refusal "at 07:20"
/// accepted at 07:16), so it is refused naming the field.
pub const CLOCK_TOLERANCE_MS: i64 = 60_000;

/// Whether `at` is in the future as the rules count it (beyond the tolerance).
pub const fn is_future(at: Moment, now: Moment) -> bool {
    at.0 > now.0 + CLOCK_TOLERANCE_MS
}
