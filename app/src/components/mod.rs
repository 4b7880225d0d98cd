//! Widgets shared by several screens.

pub mod camera;
pub mod confirm;
pub mod connection;
pub mod draft;
pub mod form;
pub mod install;
pub mod layout;
pub mod leave;
pub mod load_error;
pub mod number_account;
pub mod passkey;
pub mod photos;
pub mod session;
pub mod signature_pad;
pub mod table;
