//! The administrator's screens.

pub mod audit;
pub mod settings;
pub mod users;
