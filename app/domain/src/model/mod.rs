//! Types that cross the wire between browser and server. Nothing here holds a
//! secret: password hashes, session tokens and database rows stay on the server.
//!
//! Layers, lowest first; a module names only modules of the layers below it
//! (`server/tests/layers.rs` fails on a circle): dates and free text (`civil`,
//! `text`), the Town's calendar and settings (`court_calendar`, `settings`), drawn
//! signatures and photos (`signature`, `photo`) → citation numbers (`numbers`) and
//! a gathering's facts (`gathering`) → the report (`incident`) → reports of the
//! first version's shape, an adapter above the report (`first_version`) → the
//! words a citation prints (`wording`) → the citation (`citation`) → the court
//! (`court`); beside them, on the report: review, dashboard; above the
//! dashboard, what the Town publishes of it (`transparency`); apart: accounts,
//! audit, licences, permits.

pub mod account;
pub mod audit;
pub mod citation;
pub mod civil;
pub mod converted;
pub mod court;
pub mod court_calendar;
pub mod dashboard;
pub mod first_version;
pub mod gathering;
pub mod incident;
pub mod licence;
pub mod numbers;
pub mod permit;
pub mod photo;
pub mod review;
pub mod settings;
pub mod signature;
pub mod text;
pub mod transparency;
pub mod wording;
