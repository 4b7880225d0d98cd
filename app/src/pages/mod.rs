//! One module per screen.

pub mod account;
pub mod admin;
pub mod citation;
pub mod court;
pub mod desk;
pub mod field;
pub mod home;
pub mod not_found;
pub mod permits;
pub mod security;
pub mod setup;
pub mod sign_in;
pub mod signature;
