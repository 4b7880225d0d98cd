//! The administrator's screens.

pub mod audit;
pub mod users;
