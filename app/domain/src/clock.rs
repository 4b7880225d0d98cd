//! The server's clock, behind a trait so tests can move time (lockout windows,
//! session timeouts) without sleeping.

use std::fmt::Debug;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::ordinance::Moment;

pub trait Clock: Send + Sync + Debug {
    fn now(&self) -> Moment;
}

#[derive(Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Moment {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        Moment(ms)
    }
}

/// The system's time moved by a fixed amount: the Playwright story that watches
/// an undecided permit application turn "deemed denied" (§52-9 B(3)) runs a
/// server ten days ahead. Only debug builds can make one (`server serve
/// --test-clock-offset-days`); a release build always keeps the real time.
#[derive(Debug)]
pub struct OffsetClock {
    pub offset_ms: i64,
}

impl Clock for OffsetClock {
    fn now(&self) -> Moment {
        Moment(SystemClock.now().0 + self.offset_ms)
    }
}

/// A clock that only moves when told to.
#[derive(Debug)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn at(moment: Moment) -> ManualClock {
        ManualClock(AtomicI64::new(moment.0))
    }

    pub fn advance_minutes(&self, minutes: i64) {
        self.0.fetch_add(minutes * 60_000, Ordering::SeqCst);
    }

    pub fn advance_ms(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Moment {
        Moment(self.0.load(Ordering::SeqCst))
    }
}
