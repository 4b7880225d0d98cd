//! The Board of Selectmen acts at its meeting (§52-7, §52-8, §52-9 B): a
//! decision is the Board's, made at or after the meeting at which the Town
//! Clerk put the application before it, on a motion the Board carried — never
//! one Selectman's click (issue #37).
//!
//! The department's readings (listed in the module doc of `article_ii`):
//! a motion carries when more members vote for it than against it — "a
//! majority of those voting", abstentions counted neither way; the ordinance
//! names no quorum, so none is checked. The decision's date is the meeting's,
//! which is not before the consideration the Town Clerk scheduled ("within
//! seven (7) days after consideration", §52-9 B).

use serde::{Deserialize, Serialize};

use super::Provision;

/// More members voting than any Board of Selectmen has: a count beyond it is
/// a mistype (Wells's Board has five).
pub const MAX_VOTES: u32 = 25;

/// How the Board voted on the motion.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Vote {
    pub in_favour: u32,
    pub against: u32,
    pub abstaining: u32,
}

impl Vote {
    /// A majority of those voting: more for than against.
    pub const fn carried(&self) -> bool {
        self.in_favour > self.against
    }

    /// `3 for, 1 against, 1 abstaining`.
    pub fn text(&self) -> String {
        format!(
            "{} for, {} against, {} abstaining",
            self.in_favour, self.against, self.abstaining
        )
    }
}

/// Why the Board's vote cannot be recorded as a decision, if it cannot: none
/// cast, more than a Board has, or the motion lost.
pub fn vote_problem(vote: &Vote) -> Option<(Provision, String)> {
    let cast = vote.in_favour + vote.against + vote.abstaining;
    if cast == 0 {
        return Some((
            Provision::S52_8,
            "the Board decides by its vote: give the votes for, against and abstaining".to_owned(),
        ));
    }
    if cast > MAX_VOTES {
        return Some((
            Provision::S52_8,
            format!("{cast} votes is more than the Board has members: check the count"),
        ));
    }
    (!vote.carried()).then(|| {
        (
            Provision::S52_8,
            format!(
                "the motion did not carry ({}): a majority of those voting decides, so the Board \
                 has not decided; record the motion the Board carried",
                vote.text()
            ),
        )
    })
}

/// Why a meeting cannot be the one at which the Board decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeetingProblem {
    /// The meeting is later than today: a decision not yet made.
    NotHeld,
    /// Before the consideration the Town Clerk scheduled (§52-9 B: the Board
    /// acts "within seven (7) days after consideration").
    BeforeConsideration,
}

impl MeetingProblem {
    pub const fn provision(self) -> Provision {
        Provision::S52_9B
    }
}

/// Whether a decision dated `meeting_day` can be the Board's action on an
/// application considered on `consideration_day`, on `today` (Town day numbers).
pub fn meeting_problem(
    meeting_day: i64,
    consideration_day: i64,
    today: i64,
) -> Option<MeetingProblem> {
    if meeting_day > today {
        Some(MeetingProblem::NotHeld)
    } else if meeting_day < consideration_day {
        Some(MeetingProblem::BeforeConsideration)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_majority_of_those_voting_carries_and_abstentions_count_neither_way() {
        let v = |f, a, x| Vote {
            in_favour: f,
            against: a,
            abstaining: x,
        };
        assert!(v(3, 2, 0).carried());
        assert!(v(2, 1, 2).carried());
        assert!(!v(2, 2, 1).carried());
        assert!(!v(0, 0, 5).carried());
        assert!(vote_problem(&v(2, 1, 2)).is_none());
        let (provision, why) = vote_problem(&v(2, 3, 0)).expect("lost");
        assert_eq!(provision, Provision::S52_8);
        assert!(
            why.contains("did not carry (2 for, 3 against, 0 abstaining)"),
            "{why}"
        );
        assert!(vote_problem(&v(0, 0, 0)).is_some());
        assert!(vote_problem(&v(30, 0, 0)).is_some());
    }

    #[test]
    fn a_decision_is_dated_at_or_after_the_consideration_and_not_in_the_future() {
        let considered = 20_813;
        assert_eq!(
            meeting_problem(considered - 19, considered, considered - 19),
            Some(MeetingProblem::BeforeConsideration)
        );
        assert_eq!(
            MeetingProblem::BeforeConsideration.provision(),
            Provision::S52_9B
        );
        assert!(meeting_problem(considered, considered, considered).is_none());
        assert!(meeting_problem(considered + 2, considered, considered + 3).is_none());
        assert_eq!(
            meeting_problem(considered + 1, considered, considered),
            Some(MeetingProblem::NotHeld)
        );
    }
}
