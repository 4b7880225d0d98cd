//! The law of Town of Wells Code Chapter 52, as pure code.
//!
//! No I/O, no Leptos, no database: compiled into the server and into the browser,
//! so the phone shows the officer exactly the verdict the server will enforce.
//! Everything here can be tested with plain values. Nothing of Chapter 52 — an
//! amount, a section's rule, a day count — is written anywhere else; every other
//! module asks this one.
//!
//! Laid out by article: [`article_i`] (loitering, obstruction, disturbing the
//! peace; §52-1 to §52-4) and [`article_ii`] (mass outdoor gatherings: the
//! permit, its standards and calendar; §52-5 to §52-12). What the articles share sits here: the [`Section`]s a
//! decision cites, the [`Penalty`] of each offence, [`Moment`]s, the status-word
//! screen ([`status`]), the persons the law treats differently ([`persons`]) and
//! the days to file with the court ([`filing`]).
//!
//! Article I's items are also exported at this level, so that `ordinance::Offence`
//! reads as the code uses it today.

pub mod article_i;
pub mod article_ii;
pub mod filing;
pub mod penalty;
pub mod persons;
pub mod section;
pub mod status;
pub mod time;

pub use article_i::{
    decide, outcome, person_cautions, suggested_offences, Caution, Charge, Conduct, Decision,
    DispersalOrder, Disturbance, Element, Finding, GroupStanding, Interference, Offence, Outcome,
    PassageObstruction, PeaceDisturbance, PeaceProng, PersonFacts, PlaceType, ProtectedActivity,
    RefusalManner, Response, Scene, TimeField, TimeProblem, Verdict,
};
pub use filing::FILING_DAYS;
pub use penalty::Penalty;
pub use section::Section;
pub use time::Moment;
