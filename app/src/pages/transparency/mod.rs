//! What the Town publishes of its enforcement (issue #40): the public pages
//! (`public`: `/transparency`, each month, revision and year to date, no
//! sign-in) and the chief's publication of a month (`desk`). Both show a
//! published view with `tables`.

pub mod desk;
pub mod public;
pub mod tables;
