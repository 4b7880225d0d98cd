//! Types that cross the wire between browser and server. Nothing here holds a
//! secret: password hashes, session tokens and database rows stay on the server.

pub mod account;
pub mod audit;
pub mod citation;
pub mod civil;
pub mod converted;
pub mod court;
pub mod court_calendar;
pub mod dashboard;
pub mod first_version;
pub mod incident;
pub mod licence;
pub mod numbers;
pub mod permit;
pub mod photo;
pub mod review;
pub mod settings;
pub mod signature;
pub mod wording;
