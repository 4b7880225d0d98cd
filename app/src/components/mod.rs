//! Widgets shared by several screens.

pub mod connection;
pub mod layout;
