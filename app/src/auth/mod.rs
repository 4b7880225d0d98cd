//! Who is asking (ssr only): passwords, sessions, lockout, rate limits, and the
//! `authorize` call every server function starts with.

pub mod guard;
pub mod password;
pub mod rate_limit;
pub mod second_factor;
pub mod session;
pub mod setup;
pub mod sign_in;

// The clock, the lockout rule and the signed-in user live in the domain crate,
// below the store that records them.
pub use domain::actor::{Actor, By};
pub use domain::{clock, lockout};
