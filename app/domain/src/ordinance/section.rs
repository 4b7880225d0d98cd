//! The sections and subsections of Chapter 52 that a decision on a person can cite.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A citable part of Article I. `Display` gives the form a court clerk reads:
/// `§52-1 A(1)`, `§52-1 D`, `§52-4`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Section {
    /// §52-1 A: the places where loitering is unlawful, and the three prongs.
    #[serde(rename = "52-1(A)")]
    S52_1A,
    #[serde(rename = "52-1(A)(1)")]
    S52_1A1,
    #[serde(rename = "52-1(A)(2)")]
    S52_1A2,
    #[serde(rename = "52-1(A)(3)")]
    S52_1A3,
    /// §52-1 B: "loitering" defined.
    #[serde(rename = "52-1(B)")]
    S52_1B,
    /// §52-1 C: "public place" defined.
    #[serde(rename = "52-1(C)")]
    S52_1C,
    /// §52-1 D: the order, and the refusal that is the violation.
    #[serde(rename = "52-1(D)")]
    S52_1D,
    /// §52-1 E: protected expression excluded.
    #[serde(rename = "52-1(E)")]
    S52_1E,
    #[serde(rename = "52-2")]
    S52_2,
    #[serde(rename = "52-3")]
    S52_3,
    #[serde(rename = "52-4")]
    S52_4,
    /// §52-6(2): a permanent place of assembly is not a mass gathering area.
    #[serde(rename = "52-6(2)")]
    S52_6_2,
    /// §52-7: no mass outdoor gathering without a permit.
    #[serde(rename = "52-7")]
    S52_7,
    /// §52-12: Article II's penalty.
    #[serde(rename = "52-12")]
    S52_12,
}

impl Section {
    pub const fn label(self) -> &'static str {
        match self {
            Section::S52_1A => "§52-1 A",
            Section::S52_1A1 => "§52-1 A(1)",
            Section::S52_1A2 => "§52-1 A(2)",
            Section::S52_1A3 => "§52-1 A(3)",
            Section::S52_1B => "§52-1 B",
            Section::S52_1C => "§52-1 C",
            Section::S52_1D => "§52-1 D",
            Section::S52_1E => "§52-1 E",
            Section::S52_2 => "§52-2",
            Section::S52_3 => "§52-3",
            Section::S52_4 => "§52-4",
            Section::S52_6_2 => "§52-6(2)",
            Section::S52_7 => "§52-7",
            Section::S52_12 => "§52-12",
        }
    }
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}
