//! Public accountability (issue #40): what the Town publishes of its enforcement
//! of Chapter 52, month by month, with nobody identifiable.
//!
//! The rules decide nothing here; this counts what they decided — the order of
//! §52-1 D (and §52-2) and each person's response to it, the exclusion of
//! §52-1 E, the citations of §52-4 and §52-12 — by the section charged, the
//! Town's named area ([`area`]), the time of day, the weekday, and the officer's
//! perception of age range, sex and race.
//!
//! What is published, and how:
//! - **A month is published by the chief, once it has ended** (Town time), as a
//!   fixed snapshot: its tables ([`PublishedView`]) as canonical JSON with its
//!   SHA-256. A correction is a new revision saying what changed and why; every
//!   revision stays readable. The year to date is the sum of the published
//!   revisions only, stored with each publication.
//! - **Each person is counted once per table**: in one row (the lowest section
//!   charged, the area of the incident's GPS fix, …) and one column ([`Class`]:
//!   what the order, the response and the outcome were). Organisations cited
//!   under §52-12 are counted as parties; the perception tables give them a row
//!   of their own, since perception is a person's.
//! - **Nobody identifiable**: a cell of 1 to 10 persons is withheld, and so are
//!   enough others that no row, column, total, year to date or earlier revision
//!   gives it back by subtraction ([`suppression`]). Zero is shown as zero.
//! - Never published: names, dates of birth, addresses, coordinates, exact times,
//!   citation numbers, officers, narratives, any free text of a report. The
//!   published types below have no field that could carry one.

pub mod area;
pub mod desk;
pub mod disparity;
pub mod suppression;

#[cfg(test)]
mod property_tests;

/// A tally of persons who differ only in perceived race, each row `(race,
/// class, persons)` counted once in every table (the desk's and the disparity
/// tests' month).
#[cfg(test)]
pub(crate) fn tally_by_race(persons: &[(&str, Class, u32)]) -> Tally {
    let mut atoms = Vec::new();
    for &(race, class, n) in persons {
        for (table, row) in [
            ("section", "none"),
            ("area", "wells_beach"),
            ("time_of_day", "night"),
            ("weekday", "0"),
            ("perceived_age", "25_34"),
            ("perceived_sex", "male"),
            ("perceived_race", race),
        ] {
            atoms.push((table.to_owned(), row.to_owned(), class.code().to_owned(), n));
        }
    }
    Tally::of(&atoms).expect("consistent")
}

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::model::civil;
use crate::model::dashboard::WEEKDAYS;
use crate::model::incident::{AgeRange, PerceivedRace, PerceivedSex};
use crate::ordinance::{Offence, Section};
use area::NamedArea;

/// The least count published: a cell of 1 to `THRESHOLD - 1` persons is withheld.
pub const THRESHOLD: u32 = 11;

/// The row and column code of a total.
pub const ALL: &str = "all";

/// What a withheld cell says, in the CSV and the JSON.
pub const WITHHELD: &str = "withheld";

/// A calendar month of the Town, `YYYY-MM`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Month {
    pub year: i32,
    pub month: u32,
}

impl Month {
    /// `2026-11`; nothing else (no day, no spaces).
    pub fn parse(text: &str) -> Option<Month> {
        let (y, m) = text.split_once('-')?;
        let ok = y.len() == 4
            && m.len() == 2
            && (y.bytes().chain(m.bytes())).all(|b| b.is_ascii_digit());
        let (year, month): (i32, u32) = (y.parse().ok()?, m.parse().ok()?);
        (ok && year >= 1970 && (1..=12).contains(&month)).then_some(Month { year, month })
    }

    /// The month a `YYYY-MM-DD` date falls in.
    pub fn of_date(date: &str) -> Option<Month> {
        let (year, month, _) = civil::parse_date(date)?;
        Some(Month { year, month })
    }

    pub fn code(self) -> String {
        format!("{:04}-{:02}", self.year, self.month)
    }

    /// "November 2026".
    pub fn label(self) -> String {
        format!(
            "{} {}",
            civil::MONTH_NAMES[(self.month - 1) as usize],
            self.year
        )
    }

    pub fn first_day(self) -> String {
        format!("{:04}-{:02}-01", self.year, self.month)
    }

    pub fn last_day(self) -> String {
        civil::date_text(civil::days_from_civil(self.next().year, self.next().month, 1) - 1)
    }

    pub fn next(self) -> Month {
        if self.month == 12 {
            Month {
                year: self.year + 1,
                month: 1,
            }
        } else {
            Month {
                year: self.year,
                month: self.month + 1,
            }
        }
    }

    pub fn previous(self) -> Month {
        if self.month == 1 {
            Month {
                year: self.year - 1,
                month: 12,
            }
        } else {
            Month {
                year: self.year,
                month: self.month - 1,
            }
        }
    }

    /// Whether the month has ended on the Town's date `today` (`YYYY-MM-DD`):
    /// only such a month is published, so nothing of a month still running can
    /// be worked out from two of its publications.
    pub fn is_closed(self, today: &str) -> bool {
        Month::of_date(today).is_some_and(|now| self < now)
    }
}

/// What a public address names: a month, or a year (its year to date).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PublicPeriod {
    Month(Month),
    Year(i32),
}

impl PublicPeriod {
    pub fn parse(text: &str) -> Option<PublicPeriod> {
        if text.len() == 4 && text.bytes().all(|b| b.is_ascii_digit()) {
            let year: i32 = text.parse().ok()?;
            return (year >= 1970).then_some(PublicPeriod::Year(year));
        }
        Month::parse(text).map(PublicPeriod::Month)
    }
}

/// A revision in an address: `r2`.
pub fn parse_revision(text: &str) -> Option<u32> {
    let digits = text.strip_prefix('r')?;
    let ok = !digits.is_empty()
        && !digits.starts_with('0')
        && digits.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| digits.parse().ok()).flatten()
}

/// A band of the day, in Town time: hours are never published one by one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeBand {
    Night,
    Morning,
    Afternoon,
    Evening,
}

impl TimeBand {
    pub const ALL: [TimeBand; 4] = [
        TimeBand::Night,
        TimeBand::Morning,
        TimeBand::Afternoon,
        TimeBand::Evening,
    ];

    /// The first hour of the band (0–23); a band runs to the next one's first.
    pub const fn first_hour(self) -> u8 {
        match self {
            TimeBand::Night => 0,
            TimeBand::Morning => 6,
            TimeBand::Afternoon => 12,
            TimeBand::Evening => 18,
        }
    }

    pub fn of_hour(hour: u8) -> TimeBand {
        TimeBand::ALL
            .into_iter()
            .rev()
            .find(|b| hour >= b.first_hour())
            .unwrap_or(TimeBand::Night)
    }

    pub const fn code(self) -> &'static str {
        match self {
            TimeBand::Night => "night",
            TimeBand::Morning => "morning",
            TimeBand::Afternoon => "afternoon",
            TimeBand::Evening => "evening",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            TimeBand::Night => "Night (midnight to 5:59 a.m.)",
            TimeBand::Morning => "Morning (6 a.m. to 11:59 a.m.)",
            TimeBand::Afternoon => "Afternoon (noon to 5:59 p.m.)",
            TimeBand::Evening => "Evening (6 p.m. to 11:59 p.m.)",
        }
    }
}

/// The columns of every table: what happened to each person, once each. A
/// person cited is counted as cited whatever else happened; one whose activity
/// §52-1 E protected (and who was not cited) as protected; everyone else by
/// their response to an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Given an order (§52-1 D, §52-2) and complied: no action.
    Complied,
    /// Given an order, failed or refused to obey it, and cited.
    RefusedCited,
    /// Given an order, failed or refused to obey it, and not cited (warned).
    RefusedNotCited,
    /// Cited with no refusal of an order: §52-3 and §52-7 need none.
    CitedWithoutRefusal,
    /// §52-1 E: protected activity recorded, no action.
    Protected,
    /// No order given (left before one, or spoken to) and no action.
    NoOrder,
}

impl Class {
    pub const ALL: [Class; 6] = [
        Class::Complied,
        Class::RefusedCited,
        Class::RefusedNotCited,
        Class::CitedWithoutRefusal,
        Class::Protected,
        Class::NoOrder,
    ];

    pub const fn code(self) -> &'static str {
        match self {
            Class::Complied => "complied",
            Class::RefusedCited => "refused_cited",
            Class::RefusedNotCited => "refused_not_cited",
            Class::CitedWithoutRefusal => "cited_without_refusal",
            Class::Protected => "protected_activity",
            Class::NoOrder => "no_order",
        }
    }

    pub fn from_code(code: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.code() == code)
    }

    pub fn label(self) -> String {
        match self {
            Class::Complied => format!("Given an order ({}): complied, no action", Section::S52_1D),
            Class::RefusedCited => "Given an order: refused, cited".to_owned(),
            Class::RefusedNotCited => "Given an order: refused, not cited".to_owned(),
            Class::CitedWithoutRefusal => {
                let none: Vec<&str> = Offence::ALL
                    .into_iter()
                    .filter(|o| !o.needs_order())
                    .map(|o| o.prong_section().label())
                    .collect();
                format!("Cited, no order needed ({})", none.join(", "))
            }
            Class::Protected => format!("Protected activity ({}): no action", Section::S52_1E),
            Class::NoOrder => "No order given: no action".to_owned(),
        }
    }

    /// Whether the person was given an order (the rate's denominator).
    pub const fn ordered(self) -> bool {
        matches!(
            self,
            Class::Complied | Class::RefusedCited | Class::RefusedNotCited
        )
    }

    /// Whether the person refused an order given (cited or not).
    pub const fn refused(self) -> bool {
        matches!(self, Class::RefusedCited | Class::RefusedNotCited)
    }

    /// Whether the person was cited.
    pub const fn cited(self) -> bool {
        matches!(self, Class::RefusedCited | Class::CitedWithoutRefusal)
    }
}

/// The tables published for each month and year to date, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dimension {
    Section,
    Area,
    TimeOfDay,
    Weekday,
    Age,
    Sex,
    Race,
}

/// The row of a party that is not a person (§52-12's "party") in the
/// perception tables.
pub const ORGANISATION: &str = "organisation";

/// The row of a person charged with nothing.
pub const NO_OFFENCE: &str = "none";

impl Dimension {
    pub const ALL: [Dimension; 7] = [
        Dimension::Section,
        Dimension::Area,
        Dimension::TimeOfDay,
        Dimension::Weekday,
        Dimension::Age,
        Dimension::Sex,
        Dimension::Race,
    ];

    pub const fn code(self) -> &'static str {
        match self {
            Dimension::Section => "section",
            Dimension::Area => "area",
            Dimension::TimeOfDay => "time_of_day",
            Dimension::Weekday => "weekday",
            Dimension::Age => "perceived_age",
            Dimension::Sex => "perceived_sex",
            Dimension::Race => "perceived_race",
        }
    }

    pub fn from_code(code: &str) -> Option<Dimension> {
        Dimension::ALL.into_iter().find(|d| d.code() == code)
    }

    pub const fn title(self) -> &'static str {
        match self {
            Dimension::Section => "By section charged",
            Dimension::Area => "By area of the Town",
            Dimension::TimeOfDay => "By time of day",
            Dimension::Weekday => "By day of the week",
            Dimension::Age => "By perceived age range",
            Dimension::Sex => "By perceived sex",
            Dimension::Race => "By perceived race",
        }
    }

    /// Heading of the row labels.
    pub const fn row_heading(self) -> &'static str {
        match self {
            Dimension::Section => "Section",
            Dimension::Area => "Area",
            Dimension::TimeOfDay => "Time of day",
            Dimension::Weekday => "Day",
            Dimension::Age => "Perceived age",
            Dimension::Sex => "Perceived sex",
            Dimension::Race => "Perceived race",
        }
    }

    /// What a row means, when the title does not say it.
    pub fn note(self) -> Option<String> {
        match self {
            Dimension::Section => Some(
                "Each person once, under the lowest-numbered section charged to them; \"No offence charged\" \
                 when none was (most persons who complied)."
                    .to_owned(),
            ),
            Dimension::Area => Some(
                "The named area of the incident's GPS fix (the nearest area within about 300 m); never an \
                 address or coordinates."
                    .to_owned(),
            ),
            Dimension::TimeOfDay => Some("When the incident began, in the Town's time.".to_owned()),
            Dimension::Weekday => None,
            Dimension::Age | Dimension::Sex | Dimension::Race => Some(
                "The officer's perception, recorded apart from identity and never asked of the person. \
                 Organisations (cited under Article II) have no perception and a row of their own."
                    .to_owned(),
            ),
        }
    }

    /// The rows, in order: (code, label). Every person falls in exactly one.
    pub fn rows(self) -> Vec<(String, String)> {
        let own = |code: &str, label: &str| (code.to_owned(), label.to_owned());
        let organisation = || own(ORGANISATION, "An organisation (not a person)");
        match self {
            Dimension::Section => Offence::ALL
                .into_iter()
                .map(|o| {
                    (
                        o.code().to_owned(),
                        format!("{} {}", o.reference(), o.title()),
                    )
                })
                .chain([own(NO_OFFENCE, "No offence charged")])
                .collect(),
            Dimension::Area => NamedArea::ALL
                .into_iter()
                .map(|a| own(a.code(), a.label()))
                .collect(),
            Dimension::TimeOfDay => TimeBand::ALL
                .into_iter()
                .map(|b| own(b.code(), b.label()))
                .collect(),
            Dimension::Weekday => WEEKDAYS
                .iter()
                .enumerate()
                .map(|(n, day)| (n.to_string(), (*day).to_owned()))
                .collect(),
            Dimension::Age => AgeRange::ALL
                .iter()
                .map(|a| own(a.code(), a.label()))
                .chain([organisation()])
                .collect(),
            Dimension::Sex => PerceivedSex::ALL
                .iter()
                .map(|a| own(a.code(), a.label()))
                .chain([organisation()])
                .collect(),
            Dimension::Race => PerceivedRace::ALL
                .iter()
                .map(|a| own(a.code(), a.label()))
                .chain([organisation()])
                .collect(),
        }
    }
}

/// One cell of a view: a table, its row and its column (`ALL` for a total).
/// The total row is the same in every table, so it is kept once, under table
/// `ALL` ([`Key::total`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Key {
    pub table: String,
    pub row: String,
    pub column: String,
}

impl Key {
    pub fn new(table: &str, row: &str, column: &str) -> Key {
        if row == ALL {
            return Key::total(column);
        }
        Key {
            table: table.to_owned(),
            row: row.to_owned(),
            column: column.to_owned(),
        }
    }

    /// A cell of the total row (`column` may be `ALL`: everyone).
    pub fn total(column: &str) -> Key {
        Key {
            table: ALL.to_owned(),
            row: ALL.to_owned(),
            column: column.to_owned(),
        }
    }

    /// The cells that count every person this one counts, and more: its row's
    /// total, its column's total, everyone.
    pub fn wider(&self) -> Vec<Key> {
        let mut out = Vec::new();
        if self.row != ALL && self.column != ALL {
            out.push(Key::new(&self.table, &self.row, ALL));
        }
        if self.row != ALL {
            out.push(Key::total(&self.column));
        }
        if self.column != ALL {
            out.push(Key::total(ALL));
        }
        out.dedup();
        out
    }
}

/// The true counts of a period: every cell of every table, zeros and totals
/// included. Kept by the store for each published revision (never published),
/// so that later publications can be checked against it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tally(pub BTreeMap<Key, u32>);

/// A count that does not add up: the tables would disagree with each other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inconsistent(pub String);

impl Tally {
    /// The tables of `atoms`: persons by (table, row, column) of the current
    /// layout; rows or columns not in the layout are refused. Every table
    /// counts the same persons, so every table's column totals must agree.
    pub fn of(atoms: &[(String, String, String, u32)]) -> Result<Tally, Inconsistent> {
        let mut cells = Tally::layout();
        for (table, row, column, n) in atoms {
            match cells.get_mut(&Key::new(table, row, column)) {
                Some(cell) if row != ALL && column != ALL => *cell += n,
                _ => {
                    return Err(Inconsistent(format!(
                        "no cell {table}/{row}/{column} in the published layout"
                    )))
                }
            }
        }
        Tally::with_totals(cells)
    }

    /// The counts kept with a published revision: the current layout, with
    /// any row an earlier layout had kept as it was.
    pub fn of_stored(atoms: &[(String, String, String, u32)]) -> Result<Tally, Inconsistent> {
        let mut cells = Tally::layout();
        for (table, row, column, n) in atoms {
            if row == ALL || column == ALL {
                return Err(Inconsistent(format!(
                    "a total stored as a cell: {table}/{row}/{column}"
                )));
            }
            *cells.entry(Key::new(table, row, column)).or_default() += n;
        }
        Tally::with_totals(cells)
    }

    /// Every cell of rows by columns of the current tables, at zero.
    fn layout() -> BTreeMap<Key, u32> {
        let mut cells = BTreeMap::new();
        for d in Dimension::ALL {
            for (row, _) in d.rows() {
                for class in Class::ALL {
                    cells.insert(Key::new(d.code(), &row, class.code()), 0u32);
                }
            }
        }
        cells
    }

    /// The counts of several periods added up (the year to date).
    pub fn sum<'a>(parts: impl IntoIterator<Item = &'a Tally>) -> Tally {
        let mut out: BTreeMap<Key, u32> = BTreeMap::new();
        for part in parts {
            for (key, n) in &part.0 {
                *out.entry(key.clone()).or_default() += n;
            }
        }
        Tally(out)
    }

    /// Adds the row totals, the total row and everyone to the cells of rows by
    /// columns, checking that every table counts the same persons.
    pub(crate) fn with_totals(atoms: BTreeMap<Key, u32>) -> Result<Tally, Inconsistent> {
        let mut cells = atoms.clone();
        let mut columns: BTreeMap<&str, BTreeMap<&str, u32>> = BTreeMap::new();
        for (key, n) in &atoms {
            *cells
                .entry(Key::new(&key.table, &key.row, ALL))
                .or_default() += n;
            *columns
                .entry(key.table.as_str())
                .or_default()
                .entry(key.column.as_str())
                .or_default() += n;
        }
        let mut tables = columns.into_values();
        let first = tables.next().unwrap_or_default();
        if let Some(other) = tables.find(|t| *t != first) {
            return Err(Inconsistent(format!(
                "the tables count different persons: {first:?} and {other:?}"
            )));
        }
        for (column, n) in &first {
            cells.insert(Key::total(column), *n);
        }
        cells.insert(Key::total(ALL), first.values().sum());
        Ok(Tally(cells))
    }

    pub fn get(&self, key: &Key) -> u32 {
        self.0.get(key).copied().unwrap_or(0)
    }

    /// Everyone counted.
    pub fn persons(&self) -> u32 {
        self.get(&Key::total(ALL))
    }

    /// The cells of rows by columns that are not zero, as the store keeps them.
    pub fn atoms(&self) -> Vec<(String, String, String, u32)> {
        self.0
            .iter()
            .filter(|(k, n)| k.row != ALL && k.column != ALL && **n > 0)
            .map(|(k, n)| (k.table.clone(), k.row.clone(), k.column.clone(), *n))
            .collect()
    }
}

/// One published number: a count, or withheld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Cell {
    Count(u32),
    Withheld(Withheld),
}

/// The mark of a withheld cell: the string `"withheld"` in the JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Withheld;

impl Serialize for Withheld {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(WITHHELD)
    }
}

impl<'de> Deserialize<'de> for Withheld {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Withheld, D::Error> {
        let text = String::deserialize(d)?;
        if text == WITHHELD {
            Ok(Withheld)
        } else {
            Err(serde::de::Error::custom(format!(
                "a count or \"{WITHHELD}\", not {text:?}"
            )))
        }
    }
}

impl Cell {
    pub const fn count(self) -> Option<u32> {
        match self {
            Cell::Count(n) => Some(n),
            Cell::Withheld(_) => None,
        }
    }

    /// As the CSV and the page write it.
    pub fn text(self) -> String {
        match self {
            Cell::Count(n) => n.to_string(),
            Cell::Withheld(_) => WITHHELD.to_owned(),
        }
    }
}

/// A month's view, or a year's to date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViewKind {
    Month,
    YearToDate,
}

/// A month and the revision of it a view counts.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct MonthRevision {
    pub month: String,
    pub revision: u32,
}

/// What a correction changed, and why (the chief's words, published as written).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Correction {
    pub replaces_revision: u32,
    pub reason: String,
    /// The rows whose published numbers changed, as "By area: Wells Beach".
    pub changes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heading {
    pub code: String,
    pub label: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublishedRow {
    pub code: String,
    pub label: String,
    /// One per column, in the view's column order.
    pub cells: Vec<Cell>,
    /// Everyone in the row.
    pub persons: Cell,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublishedTable {
    pub code: String,
    pub title: String,
    pub row_heading: String,
    pub note: Option<String>,
    pub rows: Vec<PublishedRow>,
    /// The total row: the same in every table.
    pub total: PublishedRow,
}

/// A published view as the public reads it: the JSON whose SHA-256 is kept is
/// this, serialised as it is (field order fixed by the declaration). It has no
/// field for anything that could identify a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublishedView {
    pub kind: ViewKind,
    /// `2026-11`, or `2026` for a year to date.
    pub period: String,
    /// A month's revision (1, then each correction); none for a year to date.
    pub revision: Option<u32>,
    /// The Town's date it was published.
    pub published_on: String,
    /// The months (and revisions) counted: a month's own, or every month of the
    /// year published so far.
    pub months: Vec<MonthRevision>,
    pub correction: Option<Correction>,
    /// Cells of 1 to `threshold - 1` persons are withheld.
    pub threshold: u32,
    pub columns: Vec<Heading>,
    pub tables: Vec<PublishedTable>,
}

/// Facts of a view that are not its counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewHeader {
    pub kind: ViewKind,
    pub period: String,
    pub revision: Option<u32>,
    pub published_on: String,
    pub months: Vec<MonthRevision>,
    pub correction: Option<Correction>,
}

impl PublishedView {
    /// The view of `counts` with the cells in `withheld` withheld.
    pub fn of(header: ViewHeader, counts: &Tally, withheld: &BTreeSet<Key>) -> PublishedView {
        let cell = |key: Key| {
            if withheld.contains(&key) {
                Cell::Withheld(Withheld)
            } else {
                Cell::Count(counts.get(&key))
            }
        };
        let row = |table: &str, code: &str, label: &str| PublishedRow {
            code: code.to_owned(),
            label: label.to_owned(),
            cells: Class::ALL
                .into_iter()
                .map(|c| cell(Key::new(table, code, c.code())))
                .collect(),
            persons: cell(Key::new(table, code, ALL)),
        };
        PublishedView {
            kind: header.kind,
            period: header.period,
            revision: header.revision,
            published_on: header.published_on,
            months: header.months,
            correction: header.correction,
            threshold: THRESHOLD,
            columns: Class::ALL
                .into_iter()
                .map(|c| Heading {
                    code: c.code().to_owned(),
                    label: c.label(),
                })
                .collect(),
            tables: Dimension::ALL
                .into_iter()
                .map(|d| PublishedTable {
                    code: d.code().to_owned(),
                    title: d.title().to_owned(),
                    row_heading: d.row_heading().to_owned(),
                    note: d.note(),
                    rows: d
                        .rows()
                        .iter()
                        .map(|(code, label)| row(d.code(), code, label))
                        .collect(),
                    total: row(d.code(), ALL, "All persons"),
                })
                .collect(),
        }
    }

    /// The canonical JSON whose SHA-256 is published with it.
    pub fn canonical_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Every number published, by its cell.
    pub fn cells(&self) -> Vec<(Key, Cell)> {
        let mut out = Vec::new();
        for table in &self.tables {
            for row in table.rows.iter().chain([&table.total]) {
                for (heading, cell) in self.columns.iter().zip(&row.cells) {
                    out.push((Key::new(&table.code, &row.code, &heading.code), *cell));
                }
                out.push((Key::new(&table.code, &row.code, ALL), row.persons));
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out.dedup_by(|a, b| a.0 == b.0);
        out
    }

    /// The withheld cells.
    pub fn withheld(&self) -> BTreeSet<Key> {
        self.cells()
            .into_iter()
            .filter(|(_, c)| c.count().is_none())
            .map(|(k, _)| k)
            .collect()
    }

    /// What changed from `before`, row by row, in words: the rows of each
    /// table whose published numbers (or marks) differ.
    pub fn changes_from(&self, before: &PublishedView) -> Vec<String> {
        let mut out = Vec::new();
        for table in &self.tables {
            let old = before.tables.iter().find(|t| t.code == table.code);
            for row in table.rows.iter() {
                let was = old.and_then(|t| t.rows.iter().find(|r| r.code == row.code));
                if was.is_none_or(|w| w.cells != row.cells || w.persons != row.persons) {
                    out.push(format!("{}: {}", table.title, row.label));
                }
            }
        }
        let total_changed = match (self.tables.first(), before.tables.first()) {
            (Some(a), Some(b)) => {
                a.total.cells != b.total.cells || a.total.persons != b.total.persons
            }
            _ => true,
        };
        if total_changed {
            out.insert(0, "All persons (the totals)".to_owned());
        }
        out
    }

    /// The view as CSV records (`documents::export::csv_of` writes them): the
    /// data dictionary's columns, then one record per cell.
    pub fn records(&self) -> Vec<Vec<String>> {
        let mut out = vec![CSV_COLUMNS.iter().map(|(c, _)| (*c).to_owned()).collect()];
        let revision = self.revision.map(|r| r.to_string()).unwrap_or_default();
        let kind = match self.kind {
            ViewKind::Month => "month",
            ViewKind::YearToDate => "year_to_date",
        };
        for table in &self.tables {
            for row in table.rows.iter().chain([&table.total]) {
                let columns = self
                    .columns
                    .iter()
                    .map(|h| (h.code.as_str(), h.label.as_str()))
                    .chain([(ALL, "All persons")]);
                let cells = row.cells.iter().chain([&row.persons]);
                for ((code, label), cell) in columns.zip(cells) {
                    out.push(vec![
                        kind.to_owned(),
                        self.period.clone(),
                        revision.clone(),
                        table.code.clone(),
                        row.code.clone(),
                        row.label.clone(),
                        code.to_owned(),
                        label.to_owned(),
                        cell.text(),
                    ]);
                }
            }
        }
        out
    }

    /// The derived figures of a row: orders given, refused, cited, no action
    /// and the share of persons given an order who were cited — each only when
    /// every number it is made of is published (so it tells nothing the
    /// published numbers do not).
    pub fn derived(&self, row: &PublishedRow) -> Derived {
        let sum = |pick: fn(Class) -> bool| -> Option<u32> {
            Class::ALL
                .into_iter()
                .zip(&row.cells)
                .filter(|(c, _)| pick(*c))
                .map(|(_, cell)| cell.count())
                .sum()
        };
        let ordered = sum(Class::ordered);
        let cited_after_order = sum(|c| c == Class::RefusedCited);
        Derived {
            ordered,
            refused: sum(Class::refused),
            cited: sum(Class::cited),
            no_action: sum(|c| {
                matches!(c, Class::Complied | Class::RefusedNotCited | Class::NoOrder)
            }),
            cited_per_order: match (cited_after_order, ordered) {
                (Some(cited), Some(ordered)) if ordered > 0 => {
                    Some(f64::from(cited) * 100.0 / f64::from(ordered))
                }
                _ => None,
            },
        }
    }
}

/// Figures made of a row's published numbers ([`PublishedView::derived`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Derived {
    pub ordered: Option<u32>,
    pub refused: Option<u32>,
    pub cited: Option<u32>,
    pub no_action: Option<u32>,
    /// Percent of persons given an order who were cited after refusing it.
    pub cited_per_order: Option<f64>,
}

/// The CSV's columns, with what each holds: the data dictionary.
pub const CSV_COLUMNS: [(&str, &str); 9] = [
    ("view", "`month` (one month, one revision) or `year_to_date` (every published month of the year so far)"),
    ("period", "The month (`YYYY-MM`) or the year (`YYYY`)"),
    ("revision", "The month's revision: 1, then each correction; empty for a year to date"),
    ("table", "Which table: `section`, `area`, `time_of_day`, `weekday`, `perceived_age`, `perceived_sex`, `perceived_race`"),
    ("row", "The row's code within its table; `all` for the total row (the same in every table)"),
    ("row_label", "The row in words"),
    ("column", "What happened to the persons counted (the codes below); `all` for everyone in the row"),
    ("column_label", "The column in words"),
    ("count", "Persons (and organisations), a whole number; or `withheld`: fewer than 11, or withheld so that a count of fewer than 11 cannot be worked out by subtraction"),
];

/// How one published month stood: its revisions, oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublishedMonth {
    pub month: String,
    pub label: String,
    pub revisions: Vec<RevisionRef>,
}

/// One revision of a published month, for lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevisionRef {
    pub revision: u32,
    pub published_on: String,
    pub sha256: String,
    /// A correction's reason.
    pub reason: Option<String>,
}

/// What the public index lists: every published month, newest first, and the
/// years with a year to date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct PublicIndex {
    pub months: Vec<PublishedMonth>,
    pub years: Vec<i32>,
}

/// A published view with what the page needs around it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicView {
    pub view: PublishedView,
    /// SHA-256 of the view's canonical JSON (`data.json`).
    pub sha256: String,
    /// The month's revisions (a year to date: none).
    pub revisions: Vec<RevisionRef>,
    /// The newest revision of the month (a year to date: none).
    pub latest: Option<u32>,
}

/// The chief's page: the months that may be published and how each stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeskMonth {
    pub month: String,
    pub label: String,
    /// Revisions published so far, oldest first.
    pub revisions: Vec<RevisionRef>,
}

/// What publishing a month would publish now, for the chief to read first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preview {
    pub month: String,
    pub label: String,
    /// The revision publishing makes: 1, or the next correction.
    pub revision: u32,
    pub view: PublishedView,
    pub year: PublishedView,
    /// Rows that differ from the latest revision (a correction's "what changed").
    pub changes: Vec<String>,
    /// Nothing published would change: no correction to make.
    pub unchanged: bool,
    /// The month's reports not yet approved (they are counted as they stand).
    pub awaiting_review: i64,
}

/// A publication made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Published {
    pub month: String,
    pub revision: u32,
    pub sha256: String,
}

/// The longest reason a correction gives.
pub const MAX_REASON_CHARS: usize = 1_000;

/// A correction's reason: required, published as written, so it must not name
/// anyone. The first publication has none.
pub fn reason_problems(revision: u32, reason: Option<&str>) -> Vec<crate::error::FieldError> {
    use crate::error::FieldError;
    let text = reason.map(str::trim).unwrap_or_default();
    if revision == 1 {
        return Vec::new();
    }
    if text.chars().count() < 10 {
        vec![FieldError::new(
            "reason",
            "Reason: say what was corrected and why (at least 10 characters); it is published with the revision.",
        )]
    } else if text.chars().count() > MAX_REASON_CHARS {
        vec![FieldError::new(
            "reason",
            format!("Reason: at most {MAX_REASON_CHARS} characters."),
        )]
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_month_is_written_one_way_and_closes_when_it_ends() {
        let nov = Month::parse("2026-11").expect("a month");
        assert_eq!(nov.code(), "2026-11");
        assert_eq!(nov.label(), "November 2026");
        assert_eq!(nov.last_day(), "2026-11-30");
        assert_eq!(
            Month::parse("2024-02").map(|m| m.last_day()).as_deref(),
            Some("2024-02-29")
        );
        for bad in [
            "2026-13",
            "2026-1",
            "26-11",
            "2026-11-01",
            "2026–11",
            " 2026-11",
            "2026-00",
        ] {
            assert_eq!(Month::parse(bad), None, "{bad}");
        }
        assert!(!nov.is_closed("2026-11-30"), "the month's last day");
        assert!(nov.is_closed("2026-12-01"));
        assert!(!nov.is_closed("2026-10-15"));
        assert_eq!(nov.next().code(), "2026-12");
        assert_eq!(
            Month::parse("2026-12").map(|m| m.next().code()).as_deref(),
            Some("2027-01")
        );
        assert_eq!(
            Month::parse("2026-01")
                .map(|m| m.previous().code())
                .as_deref(),
            Some("2025-12")
        );
    }

    #[test]
    fn a_public_address_names_a_month_or_a_year_and_a_revision_is_r_then_a_number() {
        assert_eq!(PublicPeriod::parse("2026"), Some(PublicPeriod::Year(2026)));
        assert!(matches!(
            PublicPeriod::parse("2026-11"),
            Some(PublicPeriod::Month(_))
        ));
        assert_eq!(PublicPeriod::parse("data.csv"), None);
        assert_eq!(parse_revision("r2"), Some(2));
        for bad in ["r0", "r", "2", "r02", "rr2", "r2a"] {
            assert_eq!(parse_revision(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_hour_falls_in_one_band() {
        assert_eq!(TimeBand::of_hour(0), TimeBand::Night);
        assert_eq!(TimeBand::of_hour(5), TimeBand::Night);
        assert_eq!(TimeBand::of_hour(6), TimeBand::Morning);
        assert_eq!(TimeBand::of_hour(12), TimeBand::Afternoon);
        assert_eq!(TimeBand::of_hour(23), TimeBand::Evening);
    }

    #[test]
    fn every_table_counts_the_same_persons_or_the_tally_is_refused() {
        let atoms = |area: &str| {
            let mut rows = Vec::new();
            for (table, row) in [
                ("section", "52-1(A)(1)"),
                ("area", area),
                ("time_of_day", "night"),
                ("weekday", "5"),
                ("perceived_age", "18_24"),
                ("perceived_sex", "male"),
                ("perceived_race", "white"),
            ] {
                rows.push((
                    table.to_owned(),
                    row.to_owned(),
                    "refused_cited".to_owned(),
                    3,
                ));
            }
            rows
        };
        let tally = Tally::of(&atoms("wells_beach")).expect("consistent");
        assert_eq!(tally.persons(), 3);
        assert_eq!(tally.get(&Key::new("area", "wells_beach", ALL)), 3);
        assert_eq!(tally.get(&Key::total("refused_cited")), 3);
        assert_eq!(
            tally.get(&Key::new("area", ALL, "refused_cited")),
            3,
            "the total row is shared"
        );
        let mut short = atoms("wells_beach");
        short.pop();
        assert!(Tally::of(&short).is_err(), "a table missing its persons");
        assert!(
            Tally::of(&atoms("atlantis")).is_err(),
            "a row not in the layout"
        );
    }

    #[test]
    fn a_derived_figure_is_shown_only_when_every_part_is_published() {
        let published = PublishedRow {
            code: "x".into(),
            label: "x".into(),
            cells: vec![
                Cell::Count(30),
                Cell::Count(12),
                Cell::Count(0),
                Cell::Count(0),
                Cell::Count(0),
                Cell::Count(20),
            ],
            persons: Cell::Count(62),
        };
        let view = PublishedView::of(
            ViewHeader {
                kind: ViewKind::Month,
                period: "2026-11".into(),
                revision: Some(1),
                published_on: "2026-12-07".into(),
                months: Vec::new(),
                correction: None,
            },
            &Tally::default(),
            &BTreeSet::new(),
        );
        let d = view.derived(&published);
        assert_eq!(d.ordered, Some(42));
        assert_eq!(d.cited, Some(12));
        assert_eq!(d.no_action, Some(50));
        assert_eq!(d.cited_per_order.map(|r| (r * 10.0).round()), Some(286.0));
        let mut withheld = published.clone();
        withheld.cells[2] = Cell::Withheld(Withheld);
        let d = view.derived(&withheld);
        assert_eq!(
            (d.ordered, d.refused, d.cited_per_order),
            (None, None, None)
        );
        assert_eq!(d.cited, Some(12), "made of published numbers only");
    }

    #[test]
    fn a_cell_is_a_number_or_the_word_withheld_in_the_json() {
        let cells = vec![Cell::Count(0), Cell::Count(23), Cell::Withheld(Withheld)];
        let json = serde_json::to_string(&cells).unwrap_or_default();
        assert_eq!(json, r#"[0,23,"withheld"]"#);
        let back: Vec<Cell> = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back, cells);
        assert!(serde_json::from_str::<Cell>(r#""fewer""#).is_err());
    }

    #[test]
    fn a_correction_needs_a_reason_and_a_first_publication_none() {
        assert!(reason_problems(1, None).is_empty());
        assert_eq!(reason_problems(2, None)[0].field, "reason");
        assert_eq!(reason_problems(2, Some("  typo  ")).len(), 1);
        assert!(reason_problems(2, Some("A report amended after review")).is_empty());
    }
}
