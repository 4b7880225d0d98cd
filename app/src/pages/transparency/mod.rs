//! What the Town publishes of its enforcement (issue #40): the public pages
//! (`public`: `/transparency`, each month, revision and year to date, no
//! sign-in), the chief's publication of a month (`desk`) and the chief's own
//! per-officer and disparity tables (`chief`, never public). The first two show
//! a published view with `tables`.

pub mod chief;
pub mod desk;
pub mod public;
pub mod tables;
