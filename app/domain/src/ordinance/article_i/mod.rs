//! Article I of Chapter 52: loitering (§52-1), obstructing streets and sidewalks
//! (§52-2), disturbing the peace (§52-3), and their penalty (§52-4).
//!
//! | Section | What it says | Where it is enforced |
//! |---|---|---|
//! | §52-1 A (intro) | unlawful to loiter in a public place, or in or about a building or dwelling or adjacent to it, *so as to* do (1), (2) or (3) | [`PlaceType`] (every place type is covered); [`decide`] |
//! | §52-1 A(1) | obstruct a *public* street or public place by hindering or impeding (or tending to) passage of pedestrians or vehicles | [`Offence::LoiteringObstruction`]; [`PassageObstruction`], whose `place` is the place obstructed, not where the person stood ([`Element::ObstructedPlaceIsPublic`]) |
//! | §52-1 A(2) | in or upon a public street or place, obstruct or interfere with use of property, a lawful business, or ingress and egress | [`Offence::LoiteringInterference`]; [`Interference`] |
//! | §52-1 A(3) | create a disturbance or annoyance to the discomfort or alarm of a person lawfully going in, to or from a building, dwelling or public place | [`Offence::LoiteringDisturbance`]; [`Disturbance`] (three elements) |
//! | §52-1 B | "loitering" = remaining in essentially one location, alone or with others | [`Conduct::remained_in_one_location`], required by every §52-1 offence |
//! | §52-1 C | "public place" defined (incl. front of businesses, public grounds, beaches, parks) | [`PlaceType::is_public_place`] |
//! | §52-1 D | the officer orders the person to stop (and may order move on); failing or refusing to obey *is* the violation | [`DispersalOrder`], [`Response`]; [`timing`]: the order within its incident, the chance to obey, the order's lapse |
//! | §52-1 E | peaceful picketing, public speaking, other lawful expression: the section does not apply | [`ProtectedActivity`], answered *per person*; [`Verdict::Excluded`]; [`Offence::offered`] |
//! | §52-2 | two or more persons obstructing free passage of a street or sidewalk; order to move on; if not obeyed, arrest and District Court | [`Offence::GroupObstruction`]; [`GroupStanding`] (who the person stood with); the arrest is a fact ([`PersonFacts::arrested`]), a summons without arrest the default |
//! | §52-3 | in a street or public place: loud or unusual noise, improper or boisterous songs, obscene and indecent and profane songs or words, or an unruly or boisterous manner, disturbing the quiet and good order | [`Offence::DisturbingThePeace`]; [`PeaceDisturbance`], one fact per word of the section |
//! | §52-4 | $100.00 plus costs for any Article I provision | [`crate::ordinance::Penalty::ARTICLE_I`]; [`Offence::penalty`] |
//!
//! Each person answers for their own conduct: [`decide`] reads the incident's
//! [`Scene`] and one person's [`PersonFacts`], and nothing of anyone else's.
//!
//! ## The department's readings, where the text is silent
//!
//! 1. **Each person's own facts.** The conduct, the §52-1 E answer, the order
//!    received and the response are recorded per person; one person's expression
//!    shields that person only, and a bystander's verdict never reads another
//!    person's noise or obstruction.
//! 2. **An order counts within its incident.** An order timed before the incident
//!    began is an error, and a response more than
//!    [`timing::ORDER_LAPSES_AFTER_MINUTES`] minutes after the time to comply
//!    ended needs a new order.
//! 3. **The chance to obey.** "Fails … to obey" needs the time the officer allowed
//!    to have passed; "refuses" can be at once: an outright refusal (saying no,
//!    acting against the order, coming back) counts from the moment of the order
//!    ([`RefusalManner::is_outright`]).
//! 4. **§52-1 A(1)'s public place** is the street or place obstructed; the person
//!    may stand in or about a building or dwelling (§52-1 A's opening words).
//! 5. **§52-3's last clause** — "disturb the quiet and good order of the Town" —
//!    is read as needed by every prong, not only the unruly manner: noise, songs
//!    and words are punished for what they disturb (a narrow reading, the one a
//!    court is likeliest to uphold: Grayned v. City of Rockford, 408 U.S. 104
//!    (1972)). "Obscene and indecent and profane" needs all three. Songs and words
//!    always carry a caution to the chief ([`Caution::SpeechBasis`]).
//! 6. **Arrest.** §52-2 directs an arrest of a person who does not obey; the
//!    product records whether one was made, and allows it only with a §52-2
//!    citation. A summons without arrest is the default.
//! 7. **Charges.** A person may carry one citation per offence violated, each
//!    decided on its own elements.
//! 8. **Status is never a ground** ([`crate::ordinance::status`]): status words in
//!    the narrative or in a person's description are a caution, never a block.
//! 9. **Times cannot be in the future** beyond
//!    [`crate::ordinance::time::CLOCK_TOLERANCE_MS`] (phone clocks drift).

pub mod caution;
pub mod decision;
pub mod facts;
pub mod offence;
pub mod outcome;
pub mod timing;

pub use decision::{decide, suggested_offences, Caution, Decision, Finding, Verdict};
pub use facts::{
    Conduct, DispersalOrder, Disturbance, GroupStanding, Interference, PassageObstruction,
    PeaceDisturbance, PeaceProng, PersonFacts, PlaceType, ProtectedActivity, RefusalManner,
    Response, Scene,
};
pub use offence::{Element, Offence};
pub use outcome::{outcome, person_cautions, Charge, Outcome};
pub use timing::{TimeField, TimeProblem};

#[cfg(test)]
mod property_tests;
#[cfg(test)]
mod table_tests;
