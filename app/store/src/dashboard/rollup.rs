//! The dashboard's counts, added up ahead per day, month and year (migration
//! 0008), so that a period of ten years reads a few hundred rows, not a million
//! incidents (issue #8: ≤ 150 ms at 1 000 000).
//!
//! Triggers mark a day stale whenever a record the dashboard counts changes;
//! [`refresh`] recounts the stale days from the records themselves, with the same
//! aggregates the dashboard used to run over the whole period, and then adds the
//! days up into their months and the months into their years. A period is read
//! as the fewest whole years, months and days that tile it ([`spans`]).

use crate::db::{Backend, Conn};
use std::collections::{BTreeMap, BTreeSet, HashMap};

use jiff::civil::Date;

use crate::Store;
use domain::error::AppError;

/// How long a bucket is; buckets are `2026-07-04`, `2026-07` and `2026`, so a
/// run of them is a range of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Grain {
    Day,
    Month,
    Year,
}

impl Grain {
    fn code(self) -> &'static str {
        match self {
            Grain::Day => "day",
            Grain::Month => "month",
            Grain::Year => "year",
        }
    }

    fn bucket(self, date: Date) -> String {
        match self {
            Grain::Day => date.to_string(),
            Grain::Month => format!("{:04}-{:02}", date.year(), date.month()),
            Grain::Year => format!("{:04}", date.year()),
        }
    }

    /// The last day of the bucket `date` starts, if `date` starts one.
    fn starting(self, date: Date) -> Option<Date> {
        match self {
            Grain::Day => Some(date),
            Grain::Month => (date.day() == 1).then(|| date.last_of_month()),
            Grain::Year => (date.day() == 1 && date.month() == 1).then(|| date.last_of_year()),
        }
    }
}

/// A run of whole buckets of one grain, both ends included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub grain: Grain,
    pub first: String,
    pub last: String,
}

/// The fewest whole buckets, none coarser than `coarsest`, that tile `from..=to`
/// (both included), as runs of one grain. Empty when `to` is before `from`.
pub fn spans(from: Date, to: Date, coarsest: Grain) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    let mut day = from;
    while day <= to {
        let (grain, end) = [Grain::Year, Grain::Month, Grain::Day]
            .into_iter()
            .filter(|g| *g <= coarsest)
            .find_map(|g| g.starting(day).filter(|end| *end <= to).map(|end| (g, end)))
            .unwrap_or((Grain::Day, day));
        let bucket = grain.bucket(day);
        match out.last_mut() {
            Some(run) if run.grain == grain => run.last = bucket,
            _ => out.push(Span {
                grain,
                first: bucket.clone(),
                last: bucket,
            }),
        }
        match end.tomorrow() {
            Ok(next) => day = next,
            Err(_) => break,
        }
    }
    out
}

/// Every measure: what the dashboard counts, per day, as (measure, key, label, n)
/// of the stale days' records. Persons are counted only while in their report
/// (not withdrawn by a correction); "issued" citations are those not void.
const DAY_COUNTS: &[(&str, &str)] = &[
    (
        "incidents",
        "SELECT i.local_date, 'incidents', '', NULL, COUNT(*) FROM incident i WHERE {STALE} GROUP BY 1",
    ),
    (
        "protected",
        "SELECT i.local_date, 'protected', i.protected_activity, NULL, COUNT(*) FROM incident i \
         WHERE {STALE} GROUP BY 1, 3",
    ),
    (
        "officer",
        "SELECT i.local_date, 'officer', i.officer_id, NULL, COUNT(*) FROM incident i WHERE {STALE} GROUP BY 1, 3",
    ),
    (
        "hour",
        "SELECT i.local_date, 'hour', CAST(i.local_hour AS TEXT), NULL, COUNT(*) FROM incident i \
         WHERE {STALE} GROUP BY 1, 3",
    ),
    (
        "weekday",
        "SELECT i.local_date, 'weekday', CAST(i.local_weekday AS TEXT), NULL, COUNT(*) FROM incident i \
         WHERE {STALE} GROUP BY 1, 3",
    ),
    // lower() folds ASCII only, as COLLATE NOCASE does: the same groups the
    // register's location filter finds.
    (
        "location",
        "SELECT i.local_date, 'location', lower(i.location_text), MIN(i.location_text), COUNT(*) \
         FROM incident i WHERE {STALE} GROUP BY 1, 3",
    ),
    (
        "gps_cell",
        "SELECT i.local_date, 'gps_cell', {LAT} || ' ' || {LON}, MIN(i.location_text), COUNT(*) FROM incident i \
         WHERE {STALE} AND i.gps_lat IS NOT NULL AND i.gps_lon IS NOT NULL GROUP BY 1, 3",
    ),
    (
        "citations",
        "SELECT i.local_date, 'citations', CASE c.status WHEN 'void' THEN 'void' ELSE 'issued' END, NULL, \
         COUNT(*) FROM incident i JOIN citation c ON c.incident_id = i.incident_id WHERE {STALE} GROUP BY 1, 3",
    ),
    // Standing citations by offence, so each article's are counted under its
    // own penalty section (issue #33).
    (
        "citation_offence",
        "SELECT i.local_date, 'citation_offence', c.offence, NULL, COUNT(*) FROM incident i \
         JOIN citation c ON c.incident_id = i.incident_id WHERE {STALE} AND c.status <> 'void' GROUP BY 1, 3",
    ),
    (
        "officer_citations",
        "SELECT i.local_date, 'officer_citations', i.officer_id, NULL, COUNT(*) FROM incident i \
         JOIN citation c ON c.incident_id = i.incident_id WHERE {STALE} AND c.status <> 'void' GROUP BY 1, 3",
    ),
    // A person counts once under each offence charged to them (offence empty
    // when none was), and once by outcome alone.
    (
        "person_offence_outcome",
        "SELECT i.local_date, 'person_offence_outcome', COALESCE(ch.offence, '') || '|' || s.outcome, NULL, \
         COUNT(*) FROM incident i JOIN subject s ON s.incident_id = i.incident_id \
         LEFT JOIN charge ch ON ch.subject_id = s.subject_id \
         WHERE {STALE} AND s.withdrawn_at IS NULL GROUP BY 1, 3",
    ),
    (
        "person_outcome",
        "SELECT i.local_date, 'person_outcome', s.outcome, NULL, COUNT(*) FROM incident i \
         JOIN subject s ON s.incident_id = i.incident_id WHERE {STALE} AND s.withdrawn_at IS NULL GROUP BY 1, 3",
    ),
    (
        "person_response",
        "SELECT i.local_date, 'person_response', s.response, NULL, COUNT(*) FROM incident i \
         JOIN subject s ON s.incident_id = i.incident_id WHERE {STALE} AND s.withdrawn_at IS NULL GROUP BY 1, 3",
    ),
    // Perception is a person's: organisations (§52-12) are left out.
    (
        "person_age_outcome",
        "SELECT i.local_date, 'person_age_outcome', s.perceived_age || '|' || s.outcome, NULL, COUNT(*) \
         FROM incident i JOIN subject s ON s.incident_id = i.incident_id \
         WHERE {STALE} AND s.withdrawn_at IS NULL AND s.organisation = 0 GROUP BY 1, 3",
    ),
    (
        "person_sex_outcome",
        "SELECT i.local_date, 'person_sex_outcome', s.perceived_sex || '|' || s.outcome, NULL, COUNT(*) \
         FROM incident i JOIN subject s ON s.incident_id = i.incident_id \
         WHERE {STALE} AND s.withdrawn_at IS NULL AND s.organisation = 0 GROUP BY 1, 3",
    ),
    (
        "person_race_outcome",
        "SELECT i.local_date, 'person_race_outcome', s.perceived_race || '|' || s.outcome, NULL, COUNT(*) \
         FROM incident i JOIN subject s ON s.incident_id = i.incident_id \
         WHERE {STALE} AND s.withdrawn_at IS NULL AND s.organisation = 0 GROUP BY 1, 3",
    ),
    // The summary's (issue #37): persons by the incident's named area (as the
    // published tables find it from the GPS fix), once by outcome and once
    // under each offence charged; and by each perception with the §52-1 D
    // response and the outcome, for the order's rates by group.
    (
        "area_outcome",
        "SELECT i.local_date, 'area_outcome', {AREA} || '|' || s.outcome, NULL, COUNT(*) \
         FROM incident i JOIN subject s ON s.incident_id = i.incident_id \
         WHERE {STALE} AND s.withdrawn_at IS NULL GROUP BY 1, 3",
    ),
    (
        "area_offence_outcome",
        "SELECT i.local_date, 'area_offence_outcome', \
         {AREA} || '|' || COALESCE(ch.offence, '') || '|' || s.outcome, NULL, COUNT(*) \
         FROM incident i JOIN subject s ON s.incident_id = i.incident_id \
         LEFT JOIN charge ch ON ch.subject_id = s.subject_id \
         WHERE {STALE} AND s.withdrawn_at IS NULL GROUP BY 1, 3",
    ),
    (
        "person_age_response",
        "SELECT i.local_date, 'person_age_response', s.perceived_age || '|' || s.response || '|' || s.outcome, \
         NULL, COUNT(*) FROM incident i JOIN subject s ON s.incident_id = i.incident_id \
         WHERE {STALE} AND s.withdrawn_at IS NULL AND s.organisation = 0 GROUP BY 1, 3",
    ),
    (
        "person_sex_response",
        "SELECT i.local_date, 'person_sex_response', s.perceived_sex || '|' || s.response || '|' || s.outcome, \
         NULL, COUNT(*) FROM incident i JOIN subject s ON s.incident_id = i.incident_id \
         WHERE {STALE} AND s.withdrawn_at IS NULL AND s.organisation = 0 GROUP BY 1, 3",
    ),
    (
        "person_race_response",
        "SELECT i.local_date, 'person_race_response', s.perceived_race || '|' || s.response || '|' || s.outcome, \
         NULL, COUNT(*) FROM incident i JOIN subject s ON s.incident_id = i.incident_id \
         WHERE {STALE} AND s.withdrawn_at IS NULL AND s.organisation = 0 GROUP BY 1, 3",
    ),
    (
        "decision",
        "SELECT i.local_date, 'decision', d.action, NULL, COUNT(*) FROM incident i \
         JOIN review_decision d ON d.incident_id = i.incident_id \
         WHERE {STALE} AND d.action IN ('return', 'void') GROUP BY 1, 3",
    ),
    // Money at court, in cents (the fine of each citation, plus costs): what was
    // paid, and what is owed — assessed and unpaid, or the fine of a filed
    // citation not decided and not withdrawn by the Town (issue #33).
    (
        "collected",
        "SELECT i.local_date, 'collected', '', NULL, SUM(COALESCE(c.paid_cents, 0)) FROM incident i \
         JOIN citation c ON c.incident_id = i.incident_id WHERE {STALE} GROUP BY 1",
    ),
    (
        "outstanding",
        "SELECT i.local_date, 'outstanding', '', NULL, SUM(CASE \
           WHEN c.disposition IN ('admitted', 'guilty', 'defaulted') \
             THEN {GREATEST}(COALESCE(c.fine_assessed_cents, 0) + COALESCE(c.costs_assessed_cents, 0) - COALESCE(c.paid_cents, 0), 0) \
           WHEN c.status = 'filed' AND NOT EXISTS (SELECT 1 FROM citation_withdrawal w \
             WHERE w.number = c.number) THEN c.fine_cents ELSE 0 END) \
         FROM incident i JOIN citation c ON c.incident_id = i.incident_id WHERE {STALE} GROUP BY 1",
    ),
];

/// Each measure's count of the stale days, as run: (measure, SELECT) — the
/// dashboard's, then those of the published tables (`published`, issue #40).
pub fn day_counts(backend: Backend) -> Vec<(&'static str, String)> {
    let (lat, lon) = crate::register::cell_sql(backend);
    let area = format!("({})", super::published::area_sql(backend));
    DAY_COUNTS
        .iter()
        .map(|(measure, select)| (*measure, (*select).to_owned()))
        .chain(super::published::day_counts(backend))
        .map(|(measure, select)| {
            let select = select
                .replace(
                    "{STALE}",
                    "i.local_date IN (SELECT local_date FROM dashboard_stale)",
                )
                .replace("{AREA}", &area)
                .replace("{LAT}", &lat)
                .replace("{LON}", &lon)
                .replace("{GREATEST}", backend.greatest());
            (measure, select)
        })
        .collect()
}

/// `measure IN (…)` of `measures`, so a read or an addition walks the primary
/// key measure by measure instead of every row of the grain.
fn measure_in<'a>(measures: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<String> = measures.into_iter().map(|m| format!("'{m}'")).collect();
    format!("measure IN ({})", names.join(", "))
}

/// The dashboard's own measures (what its figures read).
fn dashboard_measures() -> impl Iterator<Item = &'static str> {
    DAY_COUNTS.iter().map(|(m, _)| *m)
}

/// Every measure added up: the dashboard's and the published tables'.
fn every_measure() -> String {
    measure_in(dashboard_measures().chain(super::published::measures()))
}

/// Recounts the stale days and the months and years they fall in; one write
/// transaction, so a reader sees the counts before or after, never half.
/// Returns how many days were recounted.
pub async fn refresh(store: &Store) -> Result<usize, AppError> {
    let mut tx = store.begin_write().await?;
    let days: Vec<String> = sqlx::query_scalar("SELECT local_date FROM dashboard_stale ORDER BY 1")
        .fetch_all(&mut *tx)
        .await?;
    if days.is_empty() {
        return Ok(0);
    }
    sqlx::query(
        "DELETE FROM dashboard_count WHERE grain = 'day' \
         AND bucket IN (SELECT local_date FROM dashboard_stale)",
    )
    .execute(&mut *tx)
    .await?;
    for (_, select) in day_counts(store.backend) {
        sqlx::query(&format!(
            "INSERT INTO dashboard_count (grain, bucket, measure, key, label, n) \
             SELECT 'day', * FROM ({select}) AS counts"
        ))
        .execute(&mut *tx)
        .await?;
    }
    let months: BTreeSet<&str> = days.iter().map(|d| &d[..7]).collect();
    for month in &months {
        add_up(&mut tx, Grain::Month, month, Grain::Day).await?;
    }
    let years: BTreeSet<&str> = months.iter().map(|m| &m[..4]).collect();
    for year in years {
        add_up(&mut tx, Grain::Year, year, Grain::Month).await?;
    }
    sqlx::query("DELETE FROM dashboard_stale")
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(days.len())
}

/// Rewrites one month or year as the sum of its days or months.
async fn add_up(conn: &mut Conn, grain: Grain, bucket: &str, parts: Grain) -> Result<(), AppError> {
    sqlx::query("DELETE FROM dashboard_count WHERE grain = $1 AND bucket = $2")
        .bind(grain.code())
        .bind(bucket)
        .execute(&mut *conn)
        .await?;
    // Every part of `2026-07` sorts between `2026-07-` and `2026-07.`.
    sqlx::query(&format!(
        "INSERT INTO dashboard_count (grain, bucket, measure, key, label, n) \
         SELECT $1, $2, measure, key, MIN(label), SUM(n) FROM dashboard_count \
         WHERE grain = $3 AND {} AND bucket > $2 || '-' AND bucket < $2 || '.' \
         GROUP BY measure, key",
        every_measure()
    ))
    .bind(grain.code())
    .bind(bucket)
    .bind(parts.code())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Recounts the days whose records changed since the counts were added up, so
/// what is read next is current (the dashboard and the months published).
pub async fn fresh(store: &Store) -> Result<(), AppError> {
    if is_stale(&mut *store.reader.acquire().await?).await? {
        refresh(store).await?;
    }
    Ok(())
}

/// A stored `YYYY-MM-DD` the counts are keyed by (always well formed: written
/// by the Town's zone).
pub fn date(text: &str) -> Result<Date, AppError> {
    text.parse().map_err(|_| AppError::Internal)
}

/// Whether any day awaits a recount.
pub async fn is_stale(conn: &mut Conn) -> Result<bool, AppError> {
    Ok(sqlx::query_scalar::<_, i64>(
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM dashboard_stale) THEN 1 ELSE 0 END",
    )
    .fetch_one(conn)
    .await?
        == 1)
}

/// The counts of a period: (measure, key) → (n, label).
#[derive(Debug, Default)]
pub struct Counts(HashMap<(String, String), (i64, Option<String>)>);

impl Counts {
    pub fn get(&self, measure: &str, key: &str) -> i64 {
        self.0
            .get(&(measure.to_owned(), key.to_owned()))
            .map_or(0, |(n, _)| *n)
    }

    /// Every key of `measure` with its count and label, in key order.
    pub fn of(&self, measure: &str) -> Vec<(&str, i64, Option<&str>)> {
        let mut rows: Vec<_> = self
            .0
            .iter()
            .filter(|((m, _), _)| m == measure)
            .map(|((_, k), (n, label))| (k.as_str(), *n, label.as_deref()))
            .collect();
        rows.sort_unstable_by(|a, b| a.0.cmp(b.0));
        rows
    }

    /// The sum of `measure` over the keys `pick` accepts.
    pub fn sum(&self, measure: &str, pick: impl Fn(&str) -> bool) -> i64 {
        self.of(measure)
            .into_iter()
            .filter(|(k, _, _)| pick(k))
            .map(|(_, n, _)| n)
            .sum()
    }
}

/// Every measure of the dashboard in `from..=to`, added up over its spans.
pub async fn counts(conn: &mut Conn, from: Date, to: Date) -> Result<Counts, AppError> {
    counts_of(conn, from, to, dashboard_measures()).await
}

/// `measures` in `from..=to`, added up over its spans.
pub async fn counts_of<'a>(
    conn: &mut Conn,
    from: Date,
    to: Date,
    measures: impl IntoIterator<Item = &'a str>,
) -> Result<Counts, AppError> {
    let measures = measure_in(measures);
    let mut counts = Counts::default();
    for span in spans(from, to, Grain::Year) {
        let rows: Vec<(String, String, Option<String>, i64)> = sqlx::query_as(&format!(
            "SELECT measure, key, MIN(label), CAST(SUM(n) AS BIGINT) FROM dashboard_count \
             WHERE grain = $1 AND {measures} AND bucket BETWEEN $2 AND $3 GROUP BY measure, key"
        ))
        .bind(span.grain.code())
        .bind(&span.first)
        .bind(&span.last)
        .fetch_all(&mut *conn)
        .await?;
        for (measure, key, label, n) in rows {
            let entry = counts.0.entry((measure, key)).or_insert((0, None));
            entry.0 += n;
            // The least spelling, as MIN over the whole period would give.
            entry.1 = match (entry.1.take(), label) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
    }
    Ok(counts)
}

/// `measure`/`key` per day of `from..=to` (`by_month` false) or per month, keyed
/// `2026-07-04` or `2026-07`.
pub async fn series(
    conn: &mut Conn,
    from: Date,
    to: Date,
    by_month: bool,
    measure: &str,
    key: &str,
) -> Result<BTreeMap<String, i64>, AppError> {
    let (coarsest, width) = if by_month {
        (Grain::Month, 7)
    } else {
        (Grain::Day, 10)
    };
    let mut out = BTreeMap::new();
    for span in spans(from, to, coarsest) {
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT substr(bucket, 1, CAST($1 AS INTEGER)), CAST(SUM(n) AS BIGINT) FROM dashboard_count \
             WHERE grain = $2 AND measure = $3 AND bucket BETWEEN $4 AND $5 AND key = $6 GROUP BY 1",
        )
        .bind(width)
        .bind(span.grain.code())
        .bind(measure)
        .bind(&span.first)
        .bind(&span.last)
        .bind(key)
        .fetch_all(&mut *conn)
        .await?;
        for (bucket, n) in rows {
            *out.entry(bucket).or_insert(0) += n;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Date {
        text.parse().expect("date")
    }

    fn span(grain: Grain, first: &str, last: &str) -> Span {
        Span {
            grain,
            first: first.into(),
            last: last.into(),
        }
    }

    #[test]
    fn a_period_is_tiled_by_whole_years_then_months_then_days() {
        assert_eq!(
            spans(d("2024-11-29"), d("2027-02-02"), Grain::Year),
            vec![
                span(Grain::Day, "2024-11-29", "2024-11-30"),
                span(Grain::Month, "2024-12", "2024-12"),
                span(Grain::Year, "2025", "2026"),
                span(Grain::Month, "2027-01", "2027-01"),
                span(Grain::Day, "2027-02-01", "2027-02-02"),
            ]
        );
    }

    #[test]
    fn a_period_inside_one_month_is_days_and_a_whole_month_is_one_bucket() {
        assert_eq!(
            spans(d("2026-07-04"), d("2026-07-04"), Grain::Year),
            vec![span(Grain::Day, "2026-07-04", "2026-07-04")]
        );
        assert_eq!(
            spans(d("2024-02-01"), d("2024-02-29"), Grain::Year),
            vec![span(Grain::Month, "2024-02", "2024-02")]
        );
        assert_eq!(
            spans(d("2026-01-01"), d("2026-12-31"), Grain::Year),
            vec![span(Grain::Year, "2026", "2026")]
        );
    }

    #[test]
    fn the_coarsest_grain_bounds_the_tiling() {
        assert_eq!(
            spans(d("2025-12-30"), d("2027-01-01"), Grain::Month),
            vec![
                span(Grain::Day, "2025-12-30", "2025-12-31"),
                span(Grain::Month, "2026-01", "2026-12"),
                span(Grain::Day, "2027-01-01", "2027-01-01"),
            ]
        );
        assert_eq!(
            spans(d("2026-01-01"), d("2026-01-31"), Grain::Day),
            vec![span(Grain::Day, "2026-01-01", "2026-01-31")]
        );
    }

    #[test]
    fn every_day_of_a_period_is_in_exactly_one_span() {
        let (from, to) = (d("2023-03-17"), d("2026-10-09"));
        let mut covered = Vec::new();
        for s in spans(from, to, Grain::Year) {
            let mut day = from;
            while day <= to {
                let bucket = s.grain.bucket(day);
                if bucket >= s.first && bucket <= s.last {
                    covered.push(day);
                }
                day = day.tomorrow().expect("tomorrow");
            }
        }
        let mut expected = Vec::new();
        let mut day = from;
        while day <= to {
            expected.push(day);
            day = day.tomorrow().expect("tomorrow");
        }
        covered.sort();
        assert_eq!(covered, expected);
    }

    #[test]
    fn a_backwards_period_has_no_spans() {
        assert!(spans(d("2026-02-02"), d("2026-02-01"), Grain::Year).is_empty());
    }
}
