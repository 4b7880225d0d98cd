//! Printed documents: the PDFs the court and the subject receive, and the
//! court's CSV and JSON export.
//!
//! A crate of its own between the domain and the store (the server's only; the
//! browser never prints): it renders records it is handed and keeps none.

pub mod export;
pub mod history;
pub mod pdf;
pub mod permit;
pub mod record;
pub mod report;
pub mod summons;
