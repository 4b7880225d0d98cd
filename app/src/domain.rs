//! The domain of the Wells loitering enforcement log, below everything else.
//!
//! The law of Chapter 52 ([`ordinance`]), the records it governs ([`model`]), the
//! error every call answers with ([`error`]) and who acts ([`actor`]). Pure and
//! compiled twice, for the browser and the server, so the phone shows the verdict
//! the server will enforce. The store, the printed documents and the app are
//! crates above this one; nothing here knows how a record is kept.

pub mod actor;
pub mod clock;
pub mod error;
pub mod lockout;
pub mod model;
pub mod ordinance;
#[cfg(feature = "ssr")]
pub mod town_time;
