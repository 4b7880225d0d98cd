//! Issue #40's property: over generated months published one after another
//! (months, corrections, years to date), no published number — in any table,
//! in the JSON or the CSV, of any month or year to date — counts 1 to 10
//! persons, alone or by differencing published numbers.
//!
//! The checks here are written apart from the algorithm (`suppression`): the
//! public's knowledge is modelled as linear forms over each month revision's
//! persons by row and column (not as the algorithm's sums over cells), and a
//! withheld cell is read back when its form lies in the span of the published
//! forms — Gaussian elimination modulo another prime than the algorithm's.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;

use super::suppression::{audit, protect, View};
use super::{
    Class, Dimension, Key, MonthRevision, PublishedView, Tally, ViewHeader, ViewKind, ALL,
    THRESHOLD,
};

/// A person of a generated month: their row in each table and their column.
#[derive(Debug, Clone)]
struct Person {
    rows: Vec<usize>,
    column: usize,
}

/// A layout of small tables (rows per table, columns shared).
#[derive(Debug, Clone)]
struct Layout {
    rows: Vec<usize>,
    columns: usize,
}

/// Something the chief publishes: a month (index) with its persons; a month
/// published before is a correction.
#[derive(Debug, Clone)]
struct Event {
    month: usize,
    persons: Vec<Person>,
}

fn tally_of(layout: &Layout, persons: &[Person]) -> Tally {
    let mut atoms = BTreeMap::new();
    for (t, rows) in layout.rows.iter().enumerate() {
        for r in 0..*rows {
            for c in 0..layout.columns {
                atoms.insert(
                    Key::new(&format!("t{t}"), &format!("r{r}"), &format!("c{c}")),
                    0,
                );
            }
        }
    }
    for p in persons {
        for (t, r) in p.rows.iter().enumerate() {
            *atoms
                .entry(Key::new(
                    &format!("t{t}"),
                    &format!("r{r}"),
                    &format!("c{}", p.column),
                ))
                .or_default() += 1;
        }
    }
    Tally::with_totals(atoms).expect("every table counts the same persons")
}

fn layout() -> impl Strategy<Value = Layout> {
    (prop::collection::vec(2usize..=4, 1..=2), 2usize..=3)
        .prop_map(|(rows, columns)| Layout { rows, columns })
}

/// Persons of one month: few enough that many cells are small, skewed so some
/// rows and columns are large.
fn persons(layout: &Layout) -> impl Strategy<Value = Vec<Person>> {
    let rows = layout.rows.clone();
    let columns = layout.columns;
    let person = (
        rows.iter()
            .map(|n| prop_oneof![3 => Just(0usize), 2 => 0..*n])
            .collect::<Vec<_>>(),
        prop_oneof![3 => Just(0usize), 2 => 0..columns],
    )
        .prop_map(|(rows, column)| Person { rows, column });
    prop::collection::vec(person, 0..70)
}

/// Events: each month published, some corrected later (persons added or
/// taken away).
fn history() -> impl Strategy<Value = (Layout, Vec<Event>)> {
    layout().prop_flat_map(|layout| {
        let months = prop::collection::vec(persons(&layout), 1..=3);
        let corrections = prop::collection::vec((0usize..3, persons(&layout), 0usize..4), 0..=2);
        (Just(layout), months, corrections).prop_map(|(layout, months, corrections)| {
            let mut events: Vec<Event> = months
                .iter()
                .enumerate()
                .map(|(month, persons)| Event {
                    month,
                    persons: persons.clone(),
                })
                .collect();
            for (month, extra, dropped) in corrections {
                let month = month % months.len();
                let mut persons = months[month].clone();
                persons.truncate(persons.len().saturating_sub(dropped));
                persons.extend(extra.into_iter().take(3));
                // After the month it corrects and maybe after a later month.
                events.push(Event { month, persons });
            }
            (layout, events)
        })
    })
}

/// A published view, as stored: its months, counts and withheld cells.
#[derive(Debug, Clone)]
struct Stored {
    months: Vec<MonthRevision>,
    year: bool,
    counts: Tally,
    withheld: BTreeSet<Key>,
}

fn month_name(m: usize) -> String {
    format!("2026-{:02}", m + 1)
}

/// Publishes every event as the store does: the new month revision and the
/// year to date it makes, decided against everything published before.
fn publish_all(layout: &Layout, events: &[Event]) -> Vec<Stored> {
    let mut stored: Vec<Stored> = Vec::new();
    let mut latest: BTreeMap<usize, (u32, Tally)> = BTreeMap::new();
    for event in events {
        let revision = latest.get(&event.month).map_or(1, |(r, _)| r + 1);
        let counts = tally_of(layout, &event.persons);
        latest.insert(event.month, (revision, counts.clone()));
        let month = vec![MonthRevision {
            month: month_name(event.month),
            revision,
        }];
        let year_months: Vec<MonthRevision> = latest
            .iter()
            .map(|(m, (r, _))| MonthRevision {
                month: month_name(*m),
                revision: *r,
            })
            .collect();
        let year_counts = Tally::sum(latest.values().map(|(_, t)| t));
        let mut views: Vec<View> = stored
            .iter()
            .map(|s| View {
                months: &s.months,
                year: s.year,
                counts: &s.counts,
                fixed: Some(&s.withheld),
            })
            .collect();
        views.push(View {
            months: &month,
            year: false,
            counts: &counts,
            fixed: None,
        });
        views.push(View {
            months: &year_months,
            year: true,
            counts: &year_counts,
            fixed: None,
        });
        let decided = protect(&views);
        let n = decided.len();
        stored.push(Stored {
            months: month.clone(),
            year: false,
            counts: counts.clone(),
            withheld: decided[n - 2].clone(),
        });
        stored.push(Stored {
            months: year_months,
            year: true,
            counts: year_counts,
            withheld: decided[n - 1].clone(),
        });
    }
    stored
}

const Q: u64 = 1_000_000_007;

fn q_mul(a: u64, b: u64) -> u64 {
    a * b % Q
}

fn q_inv(a: u64) -> u64 {
    let (mut base, mut exp, mut out) = (a, Q - 2, 1);
    while exp > 0 {
        if exp & 1 == 1 {
            out = q_mul(out, base);
        }
        base = q_mul(base, base);
        exp >>= 1;
    }
    out
}

/// A span of vectors modulo Q, kept reduced (Gauss–Jordan).
struct Span {
    basis: Vec<(usize, Vec<u64>)>,
}

impl Span {
    fn reduce(&self, mut v: Vec<u64>) -> Vec<u64> {
        for (pivot, row) in &self.basis {
            let f = v[*pivot];
            if f != 0 {
                for (x, r) in v.iter_mut().zip(row) {
                    *x = (*x + Q - q_mul(f, *r)) % Q;
                }
            }
        }
        v
    }

    fn add(&mut self, v: Vec<u64>) {
        let v = self.reduce(v);
        let Some(pivot) = v.iter().position(|x| *x != 0) else {
            return;
        };
        let inv = q_inv(v[pivot]);
        let v: Vec<u64> = v.iter().map(|x| q_mul(*x, inv)).collect();
        for (_, row) in &mut self.basis {
            let f = row[pivot];
            if f != 0 {
                for (x, r) in row.iter_mut().zip(&v) {
                    *x = (*x + Q - q_mul(f, *r)) % Q;
                }
            }
        }
        self.basis.push((pivot, v));
    }

    fn contains(&self, v: Vec<u64>) -> bool {
        self.reduce(v).iter().all(|x| *x == 0)
    }
}

/// The public's view of everything published: each cell as a linear form over
/// the persons of each month revision by (table, row, column).
struct Public<'a> {
    layout: &'a Layout,
    revisions: Vec<MonthRevision>,
}

impl Public<'_> {
    fn atoms_per_revision(&self) -> usize {
        self.layout.rows.iter().sum::<usize>() * self.layout.columns
    }

    fn atom(&self, revision: usize, table: usize, row: usize, column: usize) -> usize {
        let before: usize = self.layout.rows[..table].iter().sum();
        revision * self.atoms_per_revision() + (before + row) * self.layout.columns + column
    }

    /// The form of `key` in a view of `months`; the total row is read
    /// through the first table (the others equal it, below).
    fn form(&self, months: &[MonthRevision], key: &Key) -> Vec<u64> {
        let mut v = vec![0; self.revisions.len() * self.atoms_per_revision()];
        let index = |code: &str| code[1..].parse::<usize>().ok();
        for m in months {
            let rev = self
                .revisions
                .iter()
                .position(|r| r == m)
                .expect("a revision");
            let table = if key.table == ALL {
                0
            } else {
                index(&key.table).expect("table")
            };
            for row in 0..self.layout.rows[table] {
                if key.row != ALL && index(&key.row) != Some(row) {
                    continue;
                }
                for column in 0..self.layout.columns {
                    if key.column != ALL && index(&key.column) != Some(column) {
                        continue;
                    }
                    v[self.atom(rev, table, row, column)] += 1;
                }
            }
        }
        v
    }

    /// What the public knows without any number: each table of a revision
    /// counts the same persons in each column.
    fn structure(&self) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for rev in 0..self.revisions.len() {
            for table in 1..self.layout.rows.len() {
                for column in 0..self.layout.columns {
                    let mut v = vec![0; self.revisions.len() * self.atoms_per_revision()];
                    for row in 0..self.layout.rows[0] {
                        v[self.atom(rev, 0, row, column)] += 1;
                    }
                    for row in 0..self.layout.rows[table] {
                        v[self.atom(rev, table, row, column)] += Q - 1;
                    }
                    out.push(v);
                }
            }
        }
        out
    }
}

fn sensitive(n: u32) -> bool {
    (1..THRESHOLD).contains(&n)
}

/// Every way the stored views disclose a count of 1 to 10, by the issue's
/// words, found independently of the algorithm.
fn disclosures(layout: &Layout, stored: &[Stored]) -> Vec<String> {
    let mut found = Vec::new();
    // Alone.
    for (v, s) in stored.iter().enumerate() {
        for (key, n) in &s.counts.0 {
            if !s.withheld.contains(key) && sensitive(*n) {
                found.push(format!("view {v}: {key:?} = {n} published"));
            }
        }
    }
    // Differencing two published numbers where one counts everyone the other
    // does (or the same cell of one month in two revisions).
    let months =
        |s: &Stored| -> BTreeSet<String> { s.months.iter().map(|m| m.month.clone()).collect() };
    for (a, sa) in stored.iter().enumerate() {
        for (b, sb) in stored.iter().enumerate() {
            if !months(sa).is_subset(&months(sb)) {
                continue;
            }
            for (key, x) in &sa.counts.0 {
                if sa.withheld.contains(key) {
                    continue;
                }
                let wider = key.wider();
                let candidates = wider.iter().chain((a != b).then_some(key));
                for other in candidates {
                    if let Some(y) = sb
                        .counts
                        .0
                        .get(other)
                        .filter(|_| !sb.withheld.contains(other))
                    {
                        if sensitive(x.abs_diff(*y)) {
                            found.push(format!("views {a}/{b}: {key:?}={x} and {other:?}={y}"));
                        }
                    }
                }
            }
        }
    }
    // Any combination of published numbers (rows, columns, totals, years to
    // date, revisions) that gives back a withheld count, or the sum of the
    // withheld parts of a row, column or total whose total is published.
    let mut revisions: Vec<MonthRevision> = stored
        .iter()
        .filter(|s| !s.year)
        .map(|s| s.months[0].clone())
        .collect();
    revisions.sort();
    revisions.dedup();
    let public = Public { layout, revisions };
    let mut span = Span { basis: Vec::new() };
    for v in public.structure() {
        span.add(v);
    }
    for s in stored {
        for key in s.counts.0.keys().filter(|k| !s.withheld.contains(*k)) {
            span.add(public.form(&s.months, key));
        }
    }
    for (v, s) in stored.iter().enumerate() {
        for key in &s.withheld {
            let n = s.counts.get(key);
            if sensitive(n) && span.contains(public.form(&s.months, key)) {
                found.push(format!(
                    "view {v}: withheld {key:?} = {n} can be worked out"
                ));
            }
        }
        // Rows and columns of each table with a published total.
        for (t, rows) in layout.rows.iter().enumerate() {
            let table = format!("t{t}");
            let mut lines: Vec<(Key, Vec<Key>)> = Vec::new();
            for r in 0..*rows {
                let row = format!("r{r}");
                lines.push((
                    Key::new(&table, &row, ALL),
                    (0..layout.columns)
                        .map(|c| Key::new(&table, &row, &format!("c{c}")))
                        .collect(),
                ));
            }
            for c in (0..layout.columns)
                .map(|c| format!("c{c}"))
                .chain([ALL.to_owned()])
            {
                lines.push((
                    Key::total(&c),
                    (0..*rows)
                        .map(|r| Key::new(&table, &format!("r{r}"), &c))
                        .collect(),
                ));
            }
            for (total, parts) in lines {
                if s.withheld.contains(&total) {
                    continue;
                }
                let hidden: u32 = parts
                    .iter()
                    .filter(|k| s.withheld.contains(*k))
                    .map(|k| s.counts.get(k))
                    .sum();
                if sensitive(hidden) {
                    found.push(format!(
                        "view {v}: {total:?} less its published parts = {hidden}"
                    ));
                }
            }
        }
    }
    found
}

fn fixed_views(stored: &[Stored]) -> Vec<View<'_>> {
    stored
        .iter()
        .map(|s| View {
            months: &s.months,
            year: s.year,
            counts: &s.counts,
            fixed: Some(&s.withheld),
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn no_published_number_alone_or_by_differencing_counts_one_to_ten((layout, events) in history()) {
        let stored = publish_all(&layout, &events);
        let found = disclosures(&layout, &stored);
        prop_assert!(found.is_empty(), "{found:#?}");
        prop_assert_eq!(audit(&fixed_views(&stored)), Vec::new());
    }
}

/// The real tables of a month: persons with every attribute drawn, few of
/// each, some of them organisations.
fn real_persons() -> impl Strategy<Value = Vec<Vec<(String, String)>>> {
    let person = Dimension::ALL
        .into_iter()
        .map(|d| {
            let rows = d.rows();
            // Skewed towards the first rows, as a town's are.
            (0..rows.len(), 0..rows.len().min(3)).prop_map(move |(any, near)| {
                (d.code().to_owned(), rows[any.min(near * 3)].0.clone())
            })
        })
        .collect::<Vec<_>>();
    let class = prop_oneof![
        4 => Just(Class::Complied),
        2 => Just(Class::RefusedCited),
        1 => Just(Class::RefusedNotCited),
        1 => Just(Class::CitedWithoutRefusal),
        1 => Just(Class::Protected),
        2 => Just(Class::NoOrder),
    ];
    prop::collection::vec(
        (person, class).prop_map(|(rows, class)| {
            let mut out = rows;
            out.push(("class".to_owned(), class.code().to_owned()));
            out
        }),
        0..160,
    )
}

fn real_tally(persons: &[Vec<(String, String)>]) -> Tally {
    let mut atoms: Vec<(String, String, String, u32)> = Vec::new();
    for p in persons {
        let class = &p.last().expect("a class").1;
        for (table, row) in &p[..p.len() - 1] {
            atoms.push((table.clone(), row.clone(), class.clone(), 1));
        }
    }
    Tally::of(&atoms).expect("the real layout")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The real tables, three months and a correction: the audit finds
    /// nothing, and neither the JSON nor the CSV holds a count of 1 to 10.
    #[test]
    fn the_real_tables_json_and_csv_publish_no_count_of_one_to_ten(
        months in prop::collection::vec(real_persons(), 1..=3),
        extra in real_persons(),
    ) {
        let mut stored: Vec<Stored> = Vec::new();
        let mut latest: BTreeMap<usize, (u32, Tally)> = BTreeMap::new();
        let mut events: Vec<(usize, Tally)> = months.iter().enumerate().map(|(m, p)| (m, real_tally(p))).collect();
        let mut corrected = months[0].clone();
        corrected.extend(extra.into_iter().take(4));
        events.push((0, real_tally(&corrected)));
        let mut published: Vec<PublishedView> = Vec::new();
        for (m, counts) in events {
            let revision = latest.get(&m).map_or(1, |(r, _)| r + 1);
            latest.insert(m, (revision, counts.clone()));
            let month = vec![MonthRevision { month: month_name(m), revision }];
            let year_months: Vec<MonthRevision> = latest
                .iter()
                .map(|(m, (r, _))| MonthRevision { month: month_name(*m), revision: *r })
                .collect();
            let year = Tally::sum(latest.values().map(|(_, t)| t));
            let mut views = fixed_views(&stored);
            views.push(View { months: &month, year: false, counts: &counts, fixed: None });
            views.push(View { months: &year_months, year: true, counts: &year, fixed: None });
            let decided = protect(&views);
            let n = decided.len();
            for (kind, period, revision, months, counts, withheld) in [
                (ViewKind::Month, month_name(m), Some(revision), month.clone(), counts, decided[n - 2].clone()),
                (ViewKind::YearToDate, "2026".to_owned(), None, year_months, year, decided[n - 1].clone()),
            ] {
                let view = PublishedView::of(
                    ViewHeader { kind, period, revision, published_on: "2027-01-02".into(), months: months.clone(), correction: None },
                    &counts,
                    &withheld,
                );
                prop_assert_eq!(view.withheld(), withheld.clone());
                published.push(view);
                stored.push(Stored { year: kind == ViewKind::YearToDate, months, counts, withheld });
            }
        }
        prop_assert_eq!(audit(&fixed_views(&stored)), Vec::new());
        for view in &published {
            let json: serde_json::Value = serde_json::from_str(&view.canonical_json()).expect("json");
            let mut numbers = Vec::new();
            collect_counts(&json["tables"], &mut numbers);
            prop_assert!(numbers.iter().all(|n| !sensitive(*n)), "{numbers:?}");
            prop_assert!(!numbers.is_empty());
            let records = view.records();
            for record in &records[1..] {
                let count = &record[8];
                prop_assert!(count == "withheld" || count.parse::<u32>().is_ok_and(|n| !sensitive(n)), "{record:?}");
            }
        }
    }
}

/// Every count in the JSON's tables (a cell or a row's persons).
fn collect_counts(value: &serde_json::Value, out: &mut Vec<u32>) {
    match value {
        serde_json::Value::Number(n) => out.extend(n.as_u64().map(|n| n as u32)),
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect_counts(v, out)),
        serde_json::Value::Object(fields) => {
            for (name, v) in fields {
                if name == "cells" || name == "persons" || name == "rows" || name == "total" {
                    collect_counts(v, out);
                }
            }
        }
        _ => {}
    }
}

#[test]
fn a_month_of_a_large_town_withholds_only_its_rare_cells() {
    // 3 000 persons: most cells are large; the rare groups are withheld.
    let mut persons = Vec::new();
    for i in 0..3_000usize {
        let mut p = Vec::new();
        for d in Dimension::ALL {
            let rows = d.rows();
            let row = if i % 997 == 0 {
                rows.len() - 1
            } else {
                i % rows.len().min(3)
            };
            p.push((d.code().to_owned(), rows[row].0.clone()));
        }
        p.push(("class".to_owned(), Class::ALL[i % 4].code().to_owned()));
        persons.push(p);
    }
    let counts = real_tally(&persons);
    let months = vec![MonthRevision {
        month: "2026-11".into(),
        revision: 1,
    }];
    let decided = protect(&[View {
        months: &months,
        year: false,
        counts: &counts,
        fixed: None,
    }]);
    let withheld = &decided[0];
    assert!(!withheld.is_empty());
    assert!(!withheld.contains(&Key::total(ALL)));
    let views = [View {
        months: &months,
        year: false,
        counts: &counts,
        fixed: Some(withheld),
    }];
    assert_eq!(audit(&views), Vec::new());
}
