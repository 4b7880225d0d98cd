//! One module per screen.

pub mod home;
pub mod not_found;
