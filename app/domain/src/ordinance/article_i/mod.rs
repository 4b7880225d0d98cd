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
//! | §52-1 D | the officer orders the person to stop (and may order move on); failing or refusing to obey *is* the violation | [`DispersalOrder`], [`Response`]; [`timing`]: the order within its incident, the chance to obey ([`DispersalOrder::failure_counts_from`]), the order's lapse; one §52-1 citation per refusal ([`outcome`]) |
//! | §52-1 E | peaceful picketing, public speaking, other lawful expression "not in contravention of other Town Ordinances or State and Federal Laws": the section does not apply | [`ProtectedActivity`], answered *per person*; [`Verdict::Excluded`]; [`Offence::offered`]; the proviso: [`ProtectedActivity::UnlawfulExpression`] with the law named ([`PersonFacts::contravenes`]) |
//! | §52-2 | two or more persons obstructing free passage of a street or sidewalk; order to move on; if not obeyed, arrest and District Court | [`Offence::GroupObstruction`]; [`GroupStanding`] (who the person stood with); the arrest is a fact ([`PersonFacts::arrested`]), a summons without arrest the default |
//! | §52-3 | in a street or public place: loud or unusual noise, improper or boisterous songs, obscene and indecent and profane songs or words, or an unruly or boisterous manner, disturbing the quiet and good order | [`Offence::DisturbingThePeace`]; [`PeaceDisturbance`], one fact per word of the section |
//! | §52-4 | $100.00 plus costs for any Article I provision | [`crate::ordinance::Penalty::ARTICLE_I`]; [`Offence::penalty`] |
//!
//! Each person answers for their own conduct: [`decide`] reads the incident's
//! [`Scene`] and one person's [`PersonFacts`], and nothing of anyone else's.
//! What must reach the chief without stopping a citation is a [`Caution`]: a
//! decision's ([`decide`]) or a person's own ([`person_cautions`]).
//!
//! ## The department's readings, where the text is silent
//!
//! 1. **Each person's own facts.** The conduct, the §52-1 E answer, the order
//!    received and the response are recorded per person; one person's expression
//!    shields that person only, and a bystander's verdict never reads another
//!    person's noise or obstruction.
//! 2. **An order counts within its incident.** An order timed before the incident
//!    began is an error, and a refusal more than
//!    [`timing::ORDER_LAPSES_AFTER_MINUTES`] minutes after the time to comply
//!    ended needs a new order. A compliance is no violation whenever it came: the
//!    lapse concerns refusals only, and a late "complied" is recorded, not refused
//!    (issue #33, finding 11).
//! 3. **The chance to obey (§52-1 D "fails or refuses").** "Refuses" can be at
//!    once: an outright refusal — saying no, doing the opposite, coming back to the
//!    conduct the order stopped — counts from the moment of the order
//!    ([`RefusalManner::is_outright`]). "Fails" needs a chance to obey: any other
//!    failure counts only once the time the officer allowed has passed *and* at
//!    least the order's own minute has passed
//!    ([`DispersalOrder::failure_counts_from`], [`facts::MIN_CHANCE_MINUTES`]).
//!    Times are recorded to the minute, so a person still in place in the minute
//!    the order was given had no chance to obey it, even when the order was "at
//!    once". "At once" stays a lawful order; only an outright refusal counts in
//!    its minute. The officer must choose the time allowed: nothing is assumed.
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
//!    citation. A summons without arrest is the default. Every arrest carries a
//!    caution ([`Caution::ArrestFineOnly`]): the offence is punishable by a fine
//!    only (§52-4), so the chief confirms the authority for the arrest.
//! 7. **Charges: one §52-1 violation per refusal.** §52-1 D makes the person who
//!    "fails or refuses to obey any such order … guilty of a violation of this
//!    section": one refusal of one order is one §52-1 violation, whatever prongs
//!    (A(1), A(2), A(3)) the conduct met. A person receives one order, so at most
//!    one §52-1 citation per person; the other prongs may stay charged, without a
//!    citation. §52-2 and §52-3 are sections of their own, each decided on its own
//!    elements, and may be cited beside it. Whether a §52-2 and a §52-1 citation
//!    may rest on the same refusal the text does not settle (§52-2 has its own
//!    prohibition and its own order): allowed, with a caution to the chief
//!    ([`Caution::TwoSectionsOneRefusal`]).
//! 8. **Status is never a ground** ([`crate::ordinance::status`]): status words in
//!    any free text of the report — the narrative, a person's description, the
//!    words of an order, the location, the law named under §52-1 E — are a
//!    caution, never a block. "Minor" is among them, so "minor injury" is flagged
//!    too: a caution only.
//! 9. **Times cannot be in the future** beyond
//!    [`crate::ordinance::time::CLOCK_TOLERANCE_MS`] (phone clocks drift).
//! 10. **Coming back is not refusing.** A person who left and came back has
//!     obeyed and then acted anew; only coming back *and resuming the conduct the
//!     order stopped* is acting against the order, an outright refusal
//!     ([`RefusalManner::ReturnedAndResumed`]). Reports stored with "Left, then
//!     came back" keep their words; that answer is no longer offered and never
//!     citable ([`RefusalManner::Returned`]).
//! 11. **Each person's place.** Each person is judged where they were: §52-1 A(2)
//!     ("in or upon any public street or public place"), §52-2 ("in any street or
//!     on any sidewalk") and §52-3 ("in any street or public place") read the
//!     person's own place ([`PersonFacts::place`]); absent, it is the incident's,
//!     as every report stored before it was asked reads. (§52-1 A(1) reads the
//!     place obstructed; A(3) reaches buildings and dwellings.)
//! 12. **§52-1 E's proviso.** The exclusion covers expression "not in
//!     contravention of other Town Ordinances or State and Federal Laws". Expression
//!     that contravenes one is recorded as such, with that law named (a Town
//!     ordinance or a State or Federal statute, with its section); without a law
//!     named the exclusion stands. It loses the exclusion for §52-1 only, and
//!     always carries a caution to the chief naming the law
//!     ([`Caution::ExpressionContravening`]).
//! 13. **"Annoyance" (§52-1 A(3)).** Coates v. Cincinnati, 402 U.S. 611 (1971)
//!     held "annoying" too vague to punish: every A(3) decision carries a caution
//!     ([`Caution::AnnoyanceBasis`]), so the record shows a disturbance — what the
//!     person did — and not only that someone was annoyed.
//! 14. **Minors and persons not identified** ([`crate::ordinance::persons`]). The
//!     ordinance is silent on age. A person under 18 — by their date of birth at
//!     the incident, or as the officer perceived them — draws a caution
//!     ([`Caution::Minor`]), and an arrest of a minor another
//!     ([`Caution::MinorArrested`]): cautions, not blocks, since the ordinance gives
//!     no juvenile rule and blocking would be the product making law. A date of
//!     birth making the person younger than
//!     [`crate::ordinance::persons::MIN_AGE_YEARS`] at the incident is refused as a
//!     mistyped date (a plausibility floor, the department's number). Age is
//!     counted on the Town's calendar day at UTC−5 (the rules share no time zone
//!     between phone and server; in summer the hour after midnight counts as the
//!     day before, making a person a day younger at most). A summons needs an
//!     identified person: a citation asked for a person only described is kept
//!     with the incident but held out of the filing queue until the report is
//!     amended with the identity ([`Caution::Unidentified`]).
//! 15. **Old reports.** The check that an incident is not more than 366 days old
//!     is a check of the date typed on a *new* report, not a limit on correcting
//!     records: a correction or amendment, which carries its reason, may concern
//!     an incident of any age.

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
