//! One module per screen.
//!
//! Screens share their parts one way: the field form's draft, inputs and form
//! parts (`field::{draft, inputs, form}`) are used by the desk's amend and report
//! pages and the permit pages, the permit application's fields (`permits::form`)
//! by the public, desk and record pages (`permits::{public, desk, view}`); no
//! screen names one that names it back (`server/tests/layers.rs`).

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
pub mod transparency;
