//! Which cells of the published tables are withheld, so that no count of 1 to
//! 10 persons is published or can be worked out (issue #40).
//!
//! The public sees every published view of a year: each revision of each month
//! and each year to date, stored as published. A count is sensitive when it is
//! 1 to `THRESHOLD - 1` (zero is published as zero). The rules, all checked by
//! [`audit`] and kept by [`protect`]:
//!
//! 1. **Small**: no published cell is sensitive (primary suppression).
//! 2. **Difference**: no two published cells of views sharing a month differ
//!    by a sensitive amount, where one counts persons the other also counts —
//!    the same cell in a month and its year to date, in two revisions, in two
//!    years to date; a cell and its row's total, its column's total or
//!    everyone, in one view or across views.
//! 3. **Remainder**: where a total is known (published, or worked out), the
//!    parts withheld from it do not add up to a sensitive amount, nor to so
//!    few that each must be 1 (every withheld cell is at least 1, since zero is
//!    shown) — for every row, column and total of every table, and every year
//!    to date against the months it adds up.
//! 4. **Determined**: no sensitive withheld cell can be worked out exactly from
//!    the published numbers by any combination of those sums (exact linear
//!    algebra, modulo a large prime, over every withheld cell of the year).
//!
//! Views already published are fixed: only the new ones (a month's new
//! revision and the year to date it makes) withhold more. Withholding every
//! non-zero cell of the new views always satisfies the rules (they then add no
//! equation over the earlier cells that the earlier months did not give), so
//! the search below — withhold one more cell for each rule broken, the smallest
//! that mends it, preferring the year to date over the month — always ends, in
//! the worst case there.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{Key, MonthRevision, Tally, THRESHOLD};

/// One view of the year as the rules see it.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    /// The months (and revisions) it counts: one for a month's view.
    pub months: &'a [MonthRevision],
    /// A year to date: each of its cells is the sum of that cell in the month
    /// views of its months (which must be among the views given).
    pub year: bool,
    pub counts: &'a Tally,
    /// Already published with these cells withheld; `None`: to be decided.
    pub fixed: Option<&'a BTreeSet<Key>>,
}

/// A way a count of 1 to 10 could be read from the published views.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Disclosure {
    Small {
        view: usize,
        key: Key,
        count: u32,
    },
    Difference {
        a: (usize, Key),
        b: (usize, Key),
        difference: u32,
    },
    Remainder {
        total: (usize, Key),
        remainder: u32,
        withheld_parts: usize,
    },
    Determined {
        view: usize,
        key: Key,
        count: u32,
    },
}

fn sensitive(n: u32) -> bool {
    (1..THRESHOLD).contains(&n)
}

/// Decides the withheld cells of every view not yet fixed; a fixed view's are
/// returned as they are. The result is deterministic: the same views give the
/// same cells.
pub fn protect(views: &[View]) -> Vec<BTreeSet<Key>> {
    let mut grid = Grid::new(views);
    for i in 0..grid.value.len() {
        if grid.free[i] && sensitive(grid.value[i]) {
            grid.withheld[i] = true;
        }
    }
    loop {
        if grid.mend_differences() | grid.mend_remainders(None) {
            continue;
        }
        let determined = grid.determined();
        if grid.mend_determined(&determined) || grid.mend_remainders(Some(&determined)) {
            continue;
        }
        break;
    }
    grid.patterns(views)
}

/// Every disclosure the published `views` (all fixed) allow, by the rules above.
pub fn audit(views: &[View]) -> Vec<Disclosure> {
    let grid = Grid::new(views);
    let mut found = Vec::new();
    for i in 0..grid.value.len() {
        if !grid.withheld[i] && sensitive(grid.value[i]) {
            found.push(Disclosure::Small {
                view: grid.view[i],
                key: grid.key[i].clone(),
                count: grid.value[i],
            });
        }
    }
    for &(a, b) in &grid.pairs {
        if let Some(difference) = grid.difference(a, b) {
            found.push(Disclosure::Difference {
                a: (grid.view[a], grid.key[a].clone()),
                b: (grid.view[b], grid.key[b].clone()),
                difference,
            });
        }
    }
    let determined = grid.determined();
    for (i, &worked_out) in determined.iter().enumerate() {
        if grid.withheld[i] && worked_out && sensitive(grid.value[i]) {
            found.push(Disclosure::Determined {
                view: grid.view[i],
                key: grid.key[i].clone(),
                count: grid.value[i],
            });
        }
    }
    for line in &grid.lines {
        if let Some((remainder, withheld_parts)) = grid.remainder(line, &determined) {
            found.push(Disclosure::Remainder {
                total: (grid.view[line.total], grid.key[line.total].clone()),
                remainder,
                withheld_parts,
            });
        }
    }
    found
}

/// A sum the public can check: `total` = the sum of `parts`.
#[derive(Debug, Clone)]
struct Line {
    total: usize,
    parts: Vec<usize>,
}

/// Every cell of every view, with the sums and pairs that tie them.
struct Grid {
    value: Vec<u32>,
    view: Vec<usize>,
    key: Vec<Key>,
    /// In a view still to be decided.
    free: Vec<bool>,
    withheld: Vec<bool>,
    /// In a year to date (where withholding costs the public less).
    in_year: Vec<bool>,
    lines: Vec<Line>,
    lines_of: Vec<Vec<usize>>,
    /// (a, b): b counts everyone a counts, or both count one cell of one month
    /// in two revisions.
    pairs: Vec<(usize, usize)>,
}

impl Grid {
    fn new(views: &[View]) -> Grid {
        let mut grid = Grid {
            value: Vec::new(),
            view: Vec::new(),
            key: Vec::new(),
            free: Vec::new(),
            withheld: Vec::new(),
            in_year: Vec::new(),
            lines: Vec::new(),
            lines_of: Vec::new(),
            pairs: Vec::new(),
        };
        let mut index: Vec<HashMap<&Key, usize>> = Vec::with_capacity(views.len());
        for (v, view) in views.iter().enumerate() {
            let mut of_view = HashMap::new();
            for (key, n) in &view.counts.0 {
                of_view.insert(key, grid.value.len());
                grid.value.push(*n);
                grid.view.push(v);
                grid.key.push(key.clone());
                grid.free.push(view.fixed.is_none());
                grid.withheld
                    .push(view.fixed.is_some_and(|fixed| fixed.contains(key)));
                grid.in_year.push(view.year);
            }
            index.push(of_view);
        }
        for (v, view) in views.iter().enumerate() {
            grid.add_view_lines(view, &index[v]);
        }
        for (v, view) in views.iter().enumerate().filter(|(_, view)| view.year) {
            let parts: Vec<usize> = views
                .iter()
                .enumerate()
                .filter(|(_, m)| {
                    !m.year && m.months.len() == 1 && view.months.contains(&m.months[0])
                })
                .map(|(m, _)| m)
                .collect();
            for (key, &total) in &index[v] {
                let parts = parts
                    .iter()
                    .filter_map(|m| index[*m].get(key).copied())
                    .collect();
                grid.lines.push(Line { total, parts });
            }
        }
        grid.lines_of = vec![Vec::new(); grid.value.len()];
        for (l, line) in grid.lines.iter().enumerate() {
            for &cell in std::iter::once(&line.total).chain(&line.parts) {
                grid.lines_of[cell].push(l);
            }
        }
        grid.add_pairs(views, &index);
        grid
    }

    /// A view's own sums: each row's total, each column's total in each table,
    /// and everyone as the sum of the total row and of each table's row totals.
    fn add_view_lines(&mut self, view: &View, index: &HashMap<&Key, usize>) {
        let all = super::ALL;
        let mut sums: BTreeMap<Key, Vec<usize>> = BTreeMap::new();
        for key in view.counts.0.keys() {
            let cell = index[key];
            if key.row != all {
                // A cell of a table's row: in its row's total (unless it is the
                // row's total) and in its column's total.
                if key.column != all {
                    sums.entry(Key::new(&key.table, &key.row, all))
                        .or_default()
                        .push(cell);
                }
                sums.entry(Key {
                    table: key.table.clone(),
                    ..Key::total(&key.column)
                })
                .or_default()
                .push(cell);
            } else if key.column != all {
                sums.entry(Key::total("")).or_default().push(cell);
            }
        }
        for (total, parts) in sums {
            // Per-table column sums were keyed by their table; every table's
            // total is the one total row.
            let total_key = if total.row == all && total.column.is_empty() {
                Key::total(all)
            } else if total.row == all {
                Key::total(&total.column)
            } else {
                total
            };
            if let Some(&total) = index.get(&total_key) {
                self.lines.push(Line { total, parts });
            }
        }
    }

    /// Views sharing months, where one's months are among the other's: a cell
    /// and each cell counting everyone it counts.
    fn add_pairs(&mut self, views: &[View], index: &[HashMap<&Key, usize>]) {
        let months: Vec<BTreeSet<&str>> = views
            .iter()
            .map(|v| v.months.iter().map(|m| m.month.as_str()).collect())
            .collect();
        for a in 0..views.len() {
            for b in 0..views.len() {
                if !months[a].is_subset(&months[b]) {
                    continue;
                }
                for (key, &x) in &index[a] {
                    let same = (a != b).then(|| (*key).clone());
                    for wider in same.into_iter().chain(key.wider()) {
                        if let Some(&y) = index[b].get(&wider) {
                            if self.free[x] || self.free[y] {
                                self.pairs.push((x, y));
                            }
                        }
                    }
                }
            }
        }
        self.pairs.sort_unstable();
        self.pairs.dedup();
    }

    fn published(&self, i: usize) -> bool {
        !self.withheld[i]
    }

    /// The sensitive difference of a published pair, if any.
    fn difference(&self, a: usize, b: usize) -> Option<u32> {
        let d = self.value[a].abs_diff(self.value[b]);
        (self.published(a) && self.published(b) && sensitive(d)).then_some(d)
    }

    /// Withholds the best of `candidates`: published, not zero, in a view
    /// still to be decided; a year to date's first, then the smallest.
    fn withhold_one(&mut self, candidates: impl IntoIterator<Item = usize>) -> bool {
        let best = candidates
            .into_iter()
            .filter(|&i| self.free[i] && self.published(i) && self.value[i] > 0)
            .min_by_key(|&i| (!self.in_year[i], self.value[i], i));
        match best {
            Some(i) => {
                self.withheld[i] = true;
                true
            }
            None => false,
        }
    }

    /// `candidates`' best, or when none can be withheld, the safe state: every
    /// non-zero cell of the new years to date, then of every new view. False
    /// when nothing is left to withhold.
    fn mend(&mut self, candidates: impl IntoIterator<Item = usize>) -> bool {
        self.withhold_one(candidates) || self.withhold_wholesale()
    }

    fn withhold_wholesale(&mut self) -> bool {
        let year: Vec<usize> = (0..self.value.len())
            .filter(|&i| self.free[i] && self.in_year[i] && self.published(i) && self.value[i] > 0)
            .collect();
        let chosen = if year.is_empty() {
            (0..self.value.len())
                .filter(|&i| self.free[i] && self.published(i) && self.value[i] > 0)
                .collect()
        } else {
            year
        };
        let any = !chosen.is_empty();
        for i in chosen {
            self.withheld[i] = true;
        }
        any
    }

    fn mend_differences(&mut self) -> bool {
        let mut changed = false;
        for p in 0..self.pairs.len() {
            let (a, b) = self.pairs[p];
            if self.difference(a, b).is_some() {
                changed |= self.mend([a, b]);
            }
        }
        changed
    }

    /// Cells the public knows: published, or the one unknown of a sum whose
    /// other members it knows, and so on.
    fn propagated(&self) -> Vec<bool> {
        let mut known: Vec<bool> = self.withheld.iter().map(|w| !w).collect();
        let mut unknown: Vec<usize> = self
            .lines
            .iter()
            .map(|l| {
                std::iter::once(&l.total)
                    .chain(&l.parts)
                    .filter(|&&c| !known[c])
                    .count()
            })
            .collect();
        let mut queue: Vec<usize> = (0..self.lines.len()).filter(|&l| unknown[l] == 1).collect();
        while let Some(l) = queue.pop() {
            let line = &self.lines[l];
            let Some(&cell) = std::iter::once(&line.total)
                .chain(&line.parts)
                .find(|&&c| !known[c])
            else {
                continue;
            };
            known[cell] = true;
            for &other in &self.lines_of[cell] {
                unknown[other] -= 1;
                if unknown[other] == 1 {
                    queue.push(other);
                }
            }
        }
        known
    }

    /// What the public can work out of `line` when its total is known: the
    /// sum of its parts it does not know, when sensitive or so few that each
    /// withheld part must be 1 (every withheld cell is at least 1).
    fn remainder(&self, line: &Line, known: &[bool]) -> Option<(u32, usize)> {
        if !known[line.total] {
            return None;
        }
        let unknown: Vec<usize> = line.parts.iter().copied().filter(|&p| !known[p]).collect();
        let remainder: u32 = unknown.iter().map(|&p| self.value[p]).sum();
        let few = remainder as usize <= unknown.len();
        (!unknown.is_empty() && remainder > 0 && (sensitive(remainder) || few))
            .then_some((remainder, unknown.len()))
    }

    /// Mends remainders, with `known` given (worked out exactly) or else
    /// propagated afresh after each cell withheld.
    fn mend_remainders(&mut self, determined: Option<&[bool]>) -> bool {
        let mut changed = false;
        let mut known = match determined {
            Some(known) => known.to_vec(),
            None => self.propagated(),
        };
        for l in 0..self.lines.len() {
            if self.remainder(&self.lines[l], &known).is_none() {
                continue;
            }
            let line = &self.lines[l];
            let members: Vec<usize> = std::iter::once(line.total)
                .chain(line.parts.iter().copied())
                .collect();
            if !self.mend(members) {
                continue;
            }
            changed = true;
            if determined.is_some() {
                // Exact knowledge is worked out again by the caller.
                return true;
            }
            known = self.propagated();
        }
        changed
    }

    /// Sensitive withheld cells worked out exactly: withhold a published cell
    /// of one of their sums.
    fn mend_determined(&mut self, determined: &[bool]) -> bool {
        let mut changed = false;
        for (i, &worked_out) in determined.iter().enumerate() {
            if !(self.withheld[i] && worked_out && sensitive(self.value[i])) {
                continue;
            }
            let near: Vec<usize> = self.lines_of[i]
                .iter()
                .flat_map(|&l| {
                    std::iter::once(self.lines[l].total).chain(self.lines[l].parts.iter().copied())
                })
                .collect();
            changed |= self.mend(near);
        }
        changed
    }

    /// Which cells the public can work out exactly from the published ones
    /// and the sums (published cells included): the withheld cells left after
    /// propagation, solved as a linear system.
    fn determined(&self) -> Vec<bool> {
        let mut known = self.propagated();
        let unknowns: Vec<usize> = (0..self.value.len()).filter(|&i| !known[i]).collect();
        let column: HashMap<usize, u32> = unknowns
            .iter()
            .enumerate()
            .map(|(c, &i)| (i, c as u32))
            .collect();
        let mut system = Echelon::default();
        for line in &self.lines {
            let mut row: Vec<(u32, u64)> = Vec::new();
            if let Some(&c) = column.get(&line.total) {
                row.push((c, 1));
            }
            for part in &line.parts {
                if let Some(&c) = column.get(part) {
                    row.push((c, field::P - 1));
                }
            }
            if row.len() >= 2 {
                row.sort_unstable();
                system.add(row);
            }
        }
        for c in system.determined() {
            known[unknowns[c as usize]] = true;
        }
        known
    }

    fn patterns(&self, views: &[View]) -> Vec<BTreeSet<Key>> {
        let mut out = vec![BTreeSet::new(); views.len()];
        for i in 0..self.value.len() {
            if self.withheld[i] {
                out[self.view[i]].insert(self.key[i].clone());
            }
        }
        out
    }
}

/// Arithmetic modulo the Mersenne prime 2^61 − 1: exact for the question
/// asked (is a cell a combination of the sums?) but for a chance of the order
/// of n/2^61, and with no rounding.
mod field {
    pub const P: u64 = (1 << 61) - 1;

    pub fn mul(a: u64, b: u64) -> u64 {
        ((u128::from(a) * u128::from(b)) % u128::from(P)) as u64
    }

    pub fn sub(a: u64, b: u64) -> u64 {
        if a >= b {
            a - b
        } else {
            a + P - b
        }
    }

    pub fn inverse(a: u64) -> u64 {
        let (mut base, mut exp, mut out) = (a, P - 2, 1u64);
        while exp > 0 {
            if exp & 1 == 1 {
                out = mul(out, base);
            }
            base = mul(base, base);
            exp >>= 1;
        }
        out
    }
}

/// Rows of a linear system in echelon form by columns: each stored row has a
/// leading 1 at its pivot, every other entry in a later column.
#[derive(Default)]
struct Echelon {
    rows: BTreeMap<u32, Vec<(u32, u64)>>,
}

impl Echelon {
    /// `row` reduced by the stored rows: none of its columns is a pivot.
    fn reduce(&self, row: &[(u32, u64)]) -> BTreeMap<u32, u64> {
        let mut work: BTreeMap<u32, u64> = row.iter().copied().collect();
        let mut from = 0u32;
        loop {
            let next = work
                .range(from..)
                .find(|(c, _)| self.rows.contains_key(c))
                .map(|(c, v)| (*c, *v));
            let Some((pivot, factor)) = next else {
                return work;
            };
            for &(c, v) in &self.rows[&pivot] {
                let entry = work.entry(c).or_insert(0);
                *entry = field::sub(*entry, field::mul(factor, v));
                if *entry == 0 {
                    work.remove(&c);
                }
            }
            from = pivot + 1;
        }
    }

    fn add(&mut self, row: Vec<(u32, u64)>) {
        let work = self.reduce(&row);
        let Some((&pivot, &lead)) = work.iter().next() else {
            return;
        };
        let scale = field::inverse(lead);
        let stored = work
            .into_iter()
            .map(|(c, v)| (c, field::mul(v, scale)))
            .collect();
        self.rows.insert(pivot, stored);
    }

    /// The columns whose value the system fixes: after reducing each row by
    /// the later pivots, those whose row is their pivot alone.
    fn determined(mut self) -> Vec<u32> {
        let pivots: Vec<u32> = self.rows.keys().rev().copied().collect();
        let mut out = Vec::new();
        for pivot in pivots {
            let Some(row) = self.rows.remove(&pivot) else {
                continue;
            };
            let reduced = self.reduce_later(&row);
            if reduced.len() == 1 {
                out.push(pivot);
            }
            self.rows.insert(pivot, reduced.into_iter().collect());
        }
        out
    }

    /// `row` with every later pivot's column eliminated (those rows are already
    /// fully reduced, being processed from the last pivot back).
    fn reduce_later(&self, row: &[(u32, u64)]) -> BTreeMap<u32, u64> {
        let mut work: BTreeMap<u32, u64> = row.iter().copied().collect();
        let first = row.first().map_or(0, |(c, _)| *c);
        let later: Vec<(u32, u64)> = work
            .range(first + 1..)
            .filter(|(c, _)| self.rows.contains_key(c))
            .map(|(c, v)| (*c, *v))
            .collect();
        for (pivot, factor) in later {
            for &(c, v) in &self.rows[&pivot] {
                let entry = work.entry(c).or_insert(0);
                *entry = field::sub(*entry, field::mul(factor, v));
                if *entry == 0 {
                    work.remove(&c);
                }
            }
        }
        work
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::transparency::ALL;

    fn key(table: &str, row: &str, column: &str) -> Key {
        Key::new(table, row, column)
    }

    /// A one-table view: rows × columns with their totals.
    fn table(rows: &[&[u32]]) -> Tally {
        let mut cells = BTreeMap::new();
        let mut column_totals = vec![0; rows[0].len()];
        for (r, counts) in rows.iter().enumerate() {
            let row = format!("r{r}");
            for (c, n) in counts.iter().enumerate() {
                cells.insert(key("t", &row, &format!("c{c}")), *n);
                column_totals[c] += n;
            }
            cells.insert(key("t", &row, ALL), counts.iter().sum());
        }
        for (c, n) in column_totals.iter().enumerate() {
            cells.insert(Key::total(&format!("c{c}")), *n);
        }
        cells.insert(Key::total(ALL), column_totals.iter().sum());
        Tally(cells)
    }

    fn month(m: &str) -> Vec<MonthRevision> {
        vec![MonthRevision {
            month: m.into(),
            revision: 1,
        }]
    }

    #[test]
    fn a_lone_small_cell_takes_another_of_its_row_and_column_with_it() {
        let counts = table(&[&[20, 3, 40], &[30, 25, 50], &[15, 12, 60]]);
        let months = month("2026-11");
        let views = [View {
            months: &months,
            year: false,
            counts: &counts,
            fixed: None,
        }];
        let withheld = protect(&views);
        assert!(withheld[0].contains(&key("t", "r0", "c1")));
        assert!(withheld[0].len() >= 4, "{:?}", withheld[0]);
        let fixed = [View {
            fixed: Some(&withheld[0]),
            ..views[0]
        }];
        assert_eq!(audit(&fixed), Vec::new());
    }

    #[test]
    fn the_audit_finds_a_cell_given_back_by_its_row() {
        let counts = table(&[&[20, 3, 40], &[30, 25, 50]]);
        let months = month("2026-11");
        let only_primary: BTreeSet<Key> = [key("t", "r0", "c1")].into();
        let views = [View {
            months: &months,
            year: false,
            counts: &counts,
            fixed: Some(&only_primary),
        }];
        let found = audit(&views);
        assert!(
            found
                .iter()
                .any(|d| matches!(d, Disclosure::Determined { count: 3, .. })),
            "{found:?}"
        );
    }

    #[test]
    fn a_year_to_date_does_not_give_back_a_month_withheld() {
        // January published 25 in a cell, February withholds 4 there: a year
        // to date of 29 would tell February's 4.
        let jan = table(&[&[25, 30], &[40, 50]]);
        let feb = table(&[&[4, 30], &[40, 50]]);
        let (mj, mf) = (month("2026-01"), month("2026-02"));
        let both: Vec<MonthRevision> = mj.iter().chain(&mf).cloned().collect();
        let year = Tally::sum([&jan, &feb]);
        let jan_withheld = BTreeSet::new();
        let views = [
            View {
                months: &mj,
                year: false,
                counts: &jan,
                fixed: Some(&jan_withheld),
            },
            View {
                months: &mf,
                year: false,
                counts: &feb,
                fixed: None,
            },
            View {
                months: &both,
                year: true,
                counts: &year,
                fixed: None,
            },
        ];
        let decided = protect(&views);
        assert!(decided[1].contains(&key("t", "r0", "c0")));
        assert!(
            decided[2].contains(&key("t", "r0", "c0")),
            "{:?}",
            decided[2]
        );
        let fixed: Vec<View> = views
            .iter()
            .zip(&decided)
            .map(|(v, w)| View {
                fixed: Some(w),
                ..*v
            })
            .collect();
        assert_eq!(audit(&fixed), Vec::new());
    }

    #[test]
    fn a_revision_does_not_publish_a_small_change_of_a_cell() {
        let r1 = table(&[&[25, 30], &[40, 50]]);
        let r2 = table(&[&[26, 30], &[40, 50]]);
        let m1 = month("2026-11");
        let m2 = vec![MonthRevision {
            month: "2026-11".into(),
            revision: 2,
        }];
        let none = BTreeSet::new();
        let views = [
            View {
                months: &m1,
                year: false,
                counts: &r1,
                fixed: Some(&none),
            },
            View {
                months: &m2,
                year: false,
                counts: &r2,
                fixed: None,
            },
        ];
        let decided = protect(&views);
        assert!(decided[1].contains(&key("t", "r0", "c0")));
        let fixed: Vec<View> = views
            .iter()
            .zip(&decided)
            .map(|(v, w)| View {
                fixed: Some(w),
                ..*v
            })
            .collect();
        assert_eq!(audit(&fixed), Vec::new());
    }

    #[test]
    fn the_linear_algebra_sees_a_cell_fixed_by_several_sums_together() {
        // x + y = 5 and x − y = 1 (two sums, each with two unknowns): x = 3.
        let mut system = Echelon::default();
        system.add(vec![(0, 1), (1, 1)]);
        system.add(vec![(0, 1), (1, field::P - 1)]);
        assert_eq!(system.determined().len(), 2);
        let mut open = Echelon::default();
        open.add(vec![(0, 1), (1, 1), (2, 1)]);
        open.add(vec![(1, 1), (2, field::P - 1)]);
        assert_eq!(open.determined(), Vec::<u32>::new());
    }
}
