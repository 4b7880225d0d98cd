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
    /// §52-10(2)(a): the area well drained, with space for persons, vehicles, sanitary facilities and equipment.
    S52_10_2A,
    /// §52-10(2)(b): trees, underbrush, rocks and natural cover left intact.
    S52_10_2B,
    /// §52-10(2)(c): grounds kept free of refuse and hazards.
    S52_10_2C,
    /// §52-10(3)(b): transported water from an approved source.
    S52_10_3B,
    /// §52-10(4)(c): equivalent facilities where there is no water under pressure.
    S52_10_4C,
    /// §52-10(4)(e): urinals, Sanistands or Porta Johns in place of toilets.
    S52_10_4E,
    /// §52-10(4)(f): sanitary facilities conveniently accessible and well defined.
    S52_10_4F,
    /// §52-10(4)(g): toilet paper at each toilet.
    S52_10_4G,
    /// §52-10(4)(h): service buildings cleanable and kept clean and in repair.
    S52_10_4H,
    /// §52-10(4)(i): separate, marked facilities for each sex, with privacy.
    S52_10_4I,
    /// §52-10(4)(j): wastewater discharged as the State requires.
    S52_10_4J,
    /// §52-10(4)(k): excretion and liquid waste disposed of as the State requires.
    S52_10_4K,
    /// §52-10(5)(a): refuse collected, stored and transported without nuisance.
    S52_10_5A,
    /// §52-10(5)(f): vermin controlled.
    S52_10_5F,
    /// §52-10(7)(a): an electrical system to State standards.
    S52_10_7A,
    /// §52-10(7)(b): fire prevention, under the local regulations.
    S52_10_7B,
    /// §52-10(7)(c): traffic and security control to State and local requirements.
    S52_10_7C,
    /// §52-10(8)(f): the E.M.T.s and ambulances the Fire Chief determines.
    S52_10_8F,
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
            Provision::S52_10_2A => "§52-10(2)(a)",
            Provision::S52_10_2B => "§52-10(2)(b)",
            Provision::S52_10_2C => "§52-10(2)(c)",
            Provision::S52_10_3B => "§52-10(3)(b)",
            Provision::S52_10_4C => "§52-10(4)(c)",
            Provision::S52_10_4E => "§52-10(4)(e)",
            Provision::S52_10_4F => "§52-10(4)(f)",
            Provision::S52_10_4G => "§52-10(4)(g)",
            Provision::S52_10_4H => "§52-10(4)(h)",
            Provision::S52_10_4I => "§52-10(4)(i)",
            Provision::S52_10_4J => "§52-10(4)(j)",
            Provision::S52_10_4K => "§52-10(4)(k)",
            Provision::S52_10_5A => "§52-10(5)(a)",
            Provision::S52_10_5F => "§52-10(5)(f)",
            Provision::S52_10_7A => "§52-10(7)(a)",
            Provision::S52_10_7B => "§52-10(7)(b)",
            Provision::S52_10_7C => "§52-10(7)(c)",
            Provision::S52_10_8F => "§52-10(8)(f)",
            Provision::S52_11 => "§52-11",
            Provision::S52_12 => "§52-12",
        }
    }
}

impl Provision {
    /// The standards a Board finding may name (§52-8 B: "one or more of the
    /// standards set forth in this ordinance"), in the ordinance's order: every
    /// paragraph of §52-10, §52-11 and §52-9 D. A finding of another kind names
    /// §52-8 itself.
    pub const BOARD_STANDARDS: [Provision; 40] = [
        Provision::S52_10_1,
        Provision::S52_10_2A,
        Provision::S52_10_2B,
        Provision::S52_10_2C,
        Provision::S52_10_2D,
        Provision::S52_10_2E,
        Provision::S52_10_2F,
        Provision::S52_10_3,
        Provision::S52_10_3B,
        Provision::S52_10_4A,
        Provision::S52_10_4B,
        Provision::S52_10_4C,
        Provision::S52_10_4D,
        Provision::S52_10_4E,
        Provision::S52_10_4F,
        Provision::S52_10_4G,
        Provision::S52_10_4H,
        Provision::S52_10_4I,
        Provision::S52_10_4J,
        Provision::S52_10_4K,
        Provision::S52_10_5A,
        Provision::S52_10_5B,
        Provision::S52_10_5C,
        Provision::S52_10_5D,
        Provision::S52_10_5E,
        Provision::S52_10_5F,
        Provision::S52_10_7A,
        Provision::S52_10_7B,
        Provision::S52_10_7C,
        Provision::S52_10_7D,
        Provision::S52_10_7E,
        Provision::S52_10_8A,
        Provision::S52_10_8B,
        Provision::S52_10_8C,
        Provision::S52_10_8D,
        Provision::S52_10_8E,
        Provision::S52_10_8F,
        Provision::S52_10_9,
        Provision::S52_11,
        Provision::S52_9D,
    ];

    /// What a standard of [`Provision::BOARD_STANDARDS`] asks, in a few words,
    /// for the Board's list; the provision's label for any other.
    pub const fn title(self) -> &'static str {
        match self {
            Provision::S52_10_1 => {
                "convenient and safe access; traffic control on the roads nearby"
            }
            Provision::S52_10_2A => {
                "the area well drained, with room for persons, vehicles and facilities"
            }
            Provision::S52_10_2B => "natural features and cover left intact",
            Provision::S52_10_2C => "grounds kept free of refuse and hazards",
            Provision::S52_10_2D => "illumination at night",
            Provision::S52_10_2E => "parking and service roads",
            Provision::S52_10_2F => "ten square feet a person; no overnight assemblage",
            Provision::S52_10_3 => "potable water",
            Provision::S52_10_3B => "transported water from an approved source",
            Provision::S52_10_4A => "water under pressure for flush toilets",
            Provision::S52_10_4B => "water without pressure",
            Provision::S52_10_4C => "equivalent facilities without water under pressure",
            Provision::S52_10_4D => "toilets for each sex",
            Provision::S52_10_4E => "substitutes for toilets",
            Provision::S52_10_4F => "sanitary facilities accessible and well defined",
            Provision::S52_10_4G => "toilet paper at each toilet",
            Provision::S52_10_4H => "service buildings clean and in repair",
            Provision::S52_10_4I => "separate, marked facilities for each sex",
            Provision::S52_10_4J => "wastewater discharged as the State requires",
            Provision::S52_10_4K => "liquid waste disposed of as the State requires",
            Provision::S52_10_5A => "refuse handled without nuisance",
            Provision::S52_10_5B => "refuse containers for the persons",
            Provision::S52_10_5C => "refuse containers where vehicles park",
            Provision::S52_10_5D => "refuse collections",
            Provision::S52_10_5E => "grounds cleared within 24 hours",
            Provision::S52_10_5F => "vermin controlled",
            Provision::S52_10_7A => "electrical system to State standards",
            Provision::S52_10_7B => "fire prevention under local regulations",
            Provision::S52_10_7C => "traffic and security control",
            Provision::S52_10_7D => "the Fire Department informed; fire equipment",
            Provision::S52_10_7E => "law enforcement officers on site",
            Provision::S52_10_8A => "emergency medical services under a physician",
            Provision::S52_10_8B => "a first aid building or tent",
            Provision::S52_10_8C => "ambulances on site",
            Provision::S52_10_8D => "telephone and radio",
            Provision::S52_10_8E => "area hospitals told",
            Provision::S52_10_8F => "E.M.T.s and ambulances the Fire Chief determines",
            Provision::S52_10_9 => "sound at the perimeter",
            Provision::S52_11 => "public liability insurance",
            Provision::S52_9D => "bond and deposit",
            other => other.label(),
        }
    }
}

impl fmt::Display for Provision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}
