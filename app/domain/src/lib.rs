//! The domain of the Wells loitering enforcement log, below everything else.
//!
//! The law of Chapter 52 ([`ordinance`]) and the records it governs ([`model`]),
//! pure and compiled twice, for the browser and the server, so the phone shows
//! the verdict the server will enforce; the error every call answers with
//! ([`error`]). With `ssr`, what only the server knows: who acts (`actor`), the
//! clock (`clock`), when an account locks (`lockout`) and the Town's time zone
//! (`town_time`). The store, the printed documents and the app are crates above
//! this one; nothing here knows how a record is kept.

#[cfg(feature = "ssr")]
pub mod actor;
#[cfg(feature = "ssr")]
pub mod clock;
pub mod error;
#[cfg(feature = "ssr")]
pub mod lockout;
pub mod model;
pub mod ordinance;
#[cfg(feature = "ssr")]
pub mod town_time;
