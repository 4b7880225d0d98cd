//! Article II's screens (issue #19): the operator's public application and
//! status link, the Town's permit register and each application's record.

pub mod desk;
pub mod form;
pub mod public;
pub mod view;
