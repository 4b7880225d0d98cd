//! Printed documents (ssr only): PDFs the court and the subject receive.

pub mod export;
pub mod history;
pub mod pdf;
pub mod permit;
pub mod record;
pub mod report;
pub mod summons;
