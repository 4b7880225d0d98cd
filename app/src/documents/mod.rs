//! Printed documents (ssr only): PDFs the court and the subject receive.
//!
//! A crate of its own between the domain and the store: it renders records it is
//! handed and keeps none.

// The domain's modules under the names the documents have always used.
use domain::{model, ordinance, town_time};

pub mod export;
pub mod history;
pub mod pdf;
pub mod permit;
pub mod record;
pub mod report;
pub mod summons;
