//! The law of Town of Wells Code Chapter 52, Article I, as pure code.
//!
//! No I/O, no Leptos, no database: compiled into the server and into the browser,
//! so the phone shows the officer exactly the verdict the server will enforce.
//! Everything here can be tested with plain values.
//!
//! | Section | What it says | Where it is enforced |
//! |---|---|---|
//! | §52-1 A (intro) | unlawful to loiter in a public place, or in or about a building or dwelling or adjacent to it, *so as to* do (1), (2) or (3) | [`PlaceType`] (every place type is covered); [`decision::decide`] |
//! | §52-1 A(1) | obstruct a public street or public place by hindering or impeding (or tending to) passage of pedestrians or vehicles | [`Offence::LoiteringObstruction`]; [`PassageObstruction`]; the place must be public ([`PlaceType::is_public_place`]) |
//! | §52-1 A(2) | in or upon a public street or place, obstruct or interfere with use of property, a lawful business, or ingress and egress | [`Offence::LoiteringInterference`]; [`Interference`] |
//! | §52-1 A(3) | create a disturbance or annoyance to the discomfort or alarm of a person lawfully going in, to or from a building, dwelling or public place | [`Offence::LoiteringDisturbance`]; [`Disturbance`] (three elements) |
//! | §52-1 B | "loitering" = remaining in essentially one location, alone or with others | [`Conduct::remained_in_one_location`], required by every §52-1 offence |
//! | §52-1 C | "public place" defined (incl. front of businesses, public grounds, beaches, parks) | [`PlaceType`] and [`PlaceType::is_public_place`] |
//! | §52-1 D | officer orders the person to stop (and may order move on); failing or refusing to obey *is* the violation | [`DispersalOrder`], [`Response`]; `order_and_refusal` in [`decision`]: no order, complied, left, or a refusal before the order → not citable |
//! | §52-1 E | peaceful picketing, public speaking, other lawful expression: section does not apply | [`ProtectedActivity`]; [`Verdict::Excluded`]; [`Offence::offered`] hides §52-1 offences |
//! | §52-2 | two or more persons obstructing free passage of a street or sidewalk; order to move on; if not obeyed, arrest and District Court | [`Offence::GroupObstruction`]; [`GroupObstruction`]; [`Outcome::Arrested`] |
//! | §52-3 | in a street or public place: loud or unusual noise, improper or boisterous songs, obscene and indecent and profane songs or words, or an unruly or boisterous manner disturbing the quiet and good order | [`Offence::DisturbingThePeace`]; [`PeaceDisturbance`]; no order element |
//! | §52-4 | $100.00 plus costs for any Article I provision | [`Penalty::ARTICLE_I`]; [`Offence::penalty`] |
//!
//! Not law but required by it in practice (DESIGN §2): recorded times cannot be in
//! the future ([`time::CLOCK_TOLERANCE_MS`]); a refusal before the time allowed to
//! comply, expression in a §52-2/§52-3 case, and status words in the narrative
//! ([`narrative`]) are [`Caution`]s for the chief, never silent.
//!
//! Readings of the text where it is not plain are written down beside the code
//! that makes them: see [`PeaceDisturbance`] and the README's "Reading the
//! ordinance" section.

pub mod decision;
pub mod facts;
pub mod narrative;
pub mod offence;
pub mod outcome;
pub mod penalty;
pub mod section;
pub mod time;

pub use decision::{decide, suggested_offences, Caution, Decision, Finding, Verdict};
pub use facts::{
    Conduct, DispersalOrder, Disturbance, Facts, GroupObstruction, Interference,
    PassageObstruction, PeaceDisturbance, PlaceType, ProtectedActivity, RefusalManner, Response,
};
pub use offence::{Element, Offence};
pub use outcome::{outcome, Outcome};
pub use penalty::Penalty;
pub use section::Section;
pub use time::Moment;

#[cfg(test)]
mod property_tests;
#[cfg(test)]
mod table_tests;
