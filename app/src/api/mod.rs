//! Server functions: the app's JSON API, each at an explicit endpoint under `/api/`
//! (listed with curl examples in `docs/api.md`).
//!
//! Every function is thin: authorize → validate through the rules → one store call
//! → map the error. Bodies compile only on the server; the browser gets a typed
//! client for each.

pub mod account;
pub mod admin;
pub mod court;
pub mod dashboard;
pub mod incidents;
pub mod numbers;
pub mod permits;
pub mod review;
pub mod second_factor;
pub mod signatures;
pub mod transparency;
