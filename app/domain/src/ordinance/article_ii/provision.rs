//! The provisions of Article II a result names, in the ordinance's own
//! numbering: §52-10 goes from (5) to (7), there is no (6).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A provision of Chapter 52, Article II (§52-5 to §52-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Provision {
    /// §52-5: 500 or more persons, two or more hours, outdoors.
    S52_5,
    /// §52-6(2): a permanent place of assembly with sufficient sanitary facilities
    /// is not a "mass gathering area".
    S52_6_2,
    /// §52-6(3): "mass gathering" defined.
    S52_6_3,
    /// §52-6(4): the operator; failing one, the owner, then the lessee.
    S52_6_4,
    /// §52-7: no such gathering without a permit from the Board of Selectmen.
    S52_7,
    /// §52-8: the Selectmen issue unless a standard is not met.
    S52_8,
    /// §52-9 A: filed with the Town Clerk 20 days ahead, with a $100 fee.
    S52_9A,
    /// §52-9 B: the Selectmen's action within 7 days of consideration.
    S52_9B,
    /// §52-9 B(2): a denial in writing, with reasons and the steps to a permit.
    S52_9B2,
    /// §52-9 B(3): no action is a denial.
    S52_9B3,
    /// §52-9 C: appeal under Rule 80B.
    S52_9C,
    /// §52-9 D: the bond, and the deposit of 120 % of public costs.
    S52_9D,
    /// §52-10(1): access and traffic control.
    S52_10_1,
    /// §52-10(2)(d): lighting at night.
    S52_10_2D,
    /// §52-10(2)(e): parking and service roads.
    S52_10_2E,
    /// §52-10(2)(f): 10 square feet a person; no overnight assemblage.
    S52_10_2F,
    /// §52-10(3): potable water.
    S52_10_3,
    /// §52-10(4)(a): water under pressure with flush toilets.
    S52_10_4A,
    /// §52-10(4)(b): water where there is no pressure.
    S52_10_4B,
    /// §52-10(4)(d): toilets for each sex, one for each 350 persons.
    S52_10_4D,
    /// §52-10(5)(b): refuse containers for the persons anticipated.
    S52_10_5B,
    /// §52-10(5)(c): refuse containers where vehicles park.
    S52_10_5C,
    /// §52-10(5)(d): refuse collections.
    S52_10_5D,
    /// §52-10(5)(e): grounds cleared within 24 hours.
    S52_10_5E,
    /// §52-10(7)(d): the Wells Fire Department informed.
    S52_10_7D,
    /// §52-10(7)(e): at least 15 law enforcement officers on site.
    S52_10_7E,
    /// §52-10(8)(a): emergency medical services under a licensed physician.
    S52_10_8A,
    /// §52-10(8)(b): a first aid building or tent.
    S52_10_8B,
    /// §52-10(8)(c): licensed ambulances on site throughout.
    S52_10_8C,
    /// §52-10(8)(d): telephone and radio for emergencies.
    S52_10_8D,
    /// §52-10(8)(e): area hospitals told.
    S52_10_8E,
    /// §52-10(9): sound at the perimeter.
    S52_10_9,
    /// §52-11: public liability insurance.
    S52_11,
    /// §52-12: the fine.
    S52_12,
}

impl Provision {
    pub const fn label(self) -> &'static str {
        match self {
            Provision::S52_5 => "§52-5",
            Provision::S52_6_2 => "§52-6(2)",
            Provision::S52_6_3 => "§52-6(3)",
            Provision::S52_6_4 => "§52-6(4)",
            Provision::S52_7 => "§52-7",
            Provision::S52_8 => "§52-8",
            Provision::S52_9A => "§52-9 A",
            Provision::S52_9B => "§52-9 B",
            Provision::S52_9B2 => "§52-9 B(2)",
            Provision::S52_9B3 => "§52-9 B(3)",
            Provision::S52_9C => "§52-9 C",
            Provision::S52_9D => "§52-9 D",
            Provision::S52_10_1 => "§52-10(1)",
            Provision::S52_10_2D => "§52-10(2)(d)",
            Provision::S52_10_2E => "§52-10(2)(e)",
            Provision::S52_10_2F => "§52-10(2)(f)",
            Provision::S52_10_3 => "§52-10(3)",
            Provision::S52_10_4A => "§52-10(4)(a)",
            Provision::S52_10_4B => "§52-10(4)(b)",
            Provision::S52_10_4D => "§52-10(4)(d)",
            Provision::S52_10_5B => "§52-10(5)(b)",
            Provision::S52_10_5C => "§52-10(5)(c)",
            Provision::S52_10_5D => "§52-10(5)(d)",
            Provision::S52_10_5E => "§52-10(5)(e)",
            Provision::S52_10_7D => "§52-10(7)(d)",
            Provision::S52_10_7E => "§52-10(7)(e)",
            Provision::S52_10_8A => "§52-10(8)(a)",
            Provision::S52_10_8B => "§52-10(8)(b)",
            Provision::S52_10_8C => "§52-10(8)(c)",
            Provision::S52_10_8D => "§52-10(8)(d)",
            Provision::S52_10_8E => "§52-10(8)(e)",
            Provision::S52_10_9 => "§52-10(9)",
            Provision::S52_11 => "§52-11",
            Provision::S52_12 => "§52-12",
        }
    }
}

impl fmt::Display for Provision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}
