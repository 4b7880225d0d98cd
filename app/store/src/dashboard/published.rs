//! The counts behind the Town's published tables (issue #40), added up ahead
//! per day, month and year with the dashboard's (`rollup`, so the triggers that
//! keep those fresh keep these): persons by a table's row and by what happened
//! to them (`model::transparency::Class`), each with the officer who reported
//! them — the chief's per-officer tables read that, the public's tables add
//! the officers up. Keys are `officer|row|class`.
//!
//! The rows and classes are the domain's; the SQL below is written from them
//! (the named areas' boxes, the time bands, which outcomes carry a citation),
//! so the store never holds a copy of a rule.

use domain::model::transparency::area::{NamedArea, NEAR_DEGREES};
use domain::model::transparency::{Class, Dimension, TimeBand, NO_OFFENCE, ORGANISATION};
use domain::ordinance::{Moment, Outcome, RefusalManner, Response};

use crate::db::Backend;

/// The measure of each table.
pub const fn measure(table: Dimension) -> &'static str {
    match table {
        Dimension::Section => "pub_section",
        Dimension::Area => "pub_area",
        Dimension::TimeOfDay => "pub_time_of_day",
        Dimension::Weekday => "pub_weekday",
        Dimension::Age => "pub_perceived_age",
        Dimension::Sex => "pub_perceived_sex",
        Dimension::Race => "pub_perceived_race",
    }
}

/// Every measure, in the tables' order.
pub fn measures() -> Vec<&'static str> {
    Dimension::ALL.into_iter().map(measure).collect()
}

fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// A real constant both engines read as a double.
fn real(x: f64) -> String {
    format!("CAST({x:?} AS DOUBLE PRECISION)")
}

/// The person's column: cited (after refusing an order, or needing none),
/// §52-1 E protected, else their response to an order.
fn class_sql() -> String {
    let cited: Vec<String> = Outcome::ALL
        .into_iter()
        .filter(|o| o.is_citation())
        .map(|o| quoted(o.code()))
        .collect();
    let refused = quoted(
        Response::Refused {
            at: Moment(0),
            manner: RefusalManner::Other,
        }
        .code(),
    );
    let complied = quoted(Response::Complied { at: Moment(0) }.code());
    let class = |c: Class| quoted(c.code());
    format!(
        "CASE WHEN s.outcome IN ({cited}) THEN \
           CASE WHEN s.response = {refused} THEN {refused_cited} ELSE {without} END \
         WHEN s.outcome = {protected_outcome} THEN {protected} \
         WHEN s.response = {complied} THEN {complied_class} \
         WHEN s.response = {refused} THEN {refused_not_cited} \
         ELSE {no_order} END",
        cited = cited.join(", "),
        refused_cited = class(Class::RefusedCited),
        without = class(Class::CitedWithoutRefusal),
        protected_outcome = quoted(Outcome::ProtectedActivity.code()),
        protected = class(Class::Protected),
        complied_class = class(Class::Complied),
        refused_not_cited = class(Class::RefusedNotCited),
        no_order = class(Class::NoOrder),
    )
}

/// The incident's named area, as `NamedArea::of` finds it: the first box
/// holding the fix, else the nearest within `NEAR_DEGREES` (the earlier on a
/// tie), else elsewhere; the same arithmetic, operation for operation.
pub fn area_sql(backend: Backend) -> String {
    let g = backend.greatest();
    let boxed: Vec<(NamedArea, String, String)> = NamedArea::BOXED
        .into_iter()
        .filter_map(|a| {
            let b = a.bounds()?;
            let inside = format!(
                "(i.gps_lat >= {s} AND i.gps_lat <= {n} AND i.gps_lon >= {w} AND i.gps_lon <= {e})",
                s = real(b.south),
                n = real(b.north),
                w = real(b.west),
                e = real(b.east),
            );
            let distance = format!(
                "{g}({g}({s} - i.gps_lat, i.gps_lat - {n}, {zero}), {g}({w} - i.gps_lon, i.gps_lon - {e}, {zero}))",
                s = real(b.south),
                n = real(b.north),
                w = real(b.west),
                e = real(b.east),
                zero = real(0.0),
            );
            Some((a, inside, distance))
        })
        .collect();
    let mut sql = format!(
        "CASE WHEN i.gps_lat IS NULL OR i.gps_lon IS NULL THEN {}",
        quoted(NamedArea::NotGiven.code())
    );
    for (area, inside, _) in &boxed {
        sql.push_str(&format!(" WHEN {inside} THEN {}", quoted(area.code())));
    }
    for (k, (area, _, distance)) in boxed.iter().enumerate() {
        let mut condition = format!("{distance} <= {}", real(NEAR_DEGREES));
        for (j, (_, _, other)) in boxed.iter().enumerate() {
            if j != k {
                let op = if j < k { "<" } else { "<=" };
                condition.push_str(&format!(" AND {distance} {op} {other}"));
            }
        }
        sql.push_str(&format!(" WHEN {condition} THEN {}", quoted(area.code())));
    }
    sql.push_str(&format!(
        " ELSE {} END",
        quoted(NamedArea::Elsewhere.code())
    ));
    sql
}

/// The person's row of `table`.
fn row_sql(table: Dimension, backend: Backend) -> String {
    let perception = |column: &str| {
        format!(
            "CASE WHEN s.organisation = 1 THEN {} ELSE s.{column} END",
            quoted(ORGANISATION)
        )
    };
    match table {
        // Offence codes sort in the ordinance's order: the least is the
        // lowest-numbered section.
        Dimension::Section => format!(
            "COALESCE((SELECT MIN(ch.offence) FROM charge ch WHERE ch.subject_id = s.subject_id), {})",
            quoted(NO_OFFENCE)
        ),
        Dimension::Area => area_sql(backend),
        Dimension::TimeOfDay => {
            let mut sql = String::from("CASE");
            for band in TimeBand::ALL.into_iter().rev() {
                sql.push_str(&format!(
                    " WHEN i.local_hour >= {} THEN {}",
                    band.first_hour(),
                    quoted(band.code())
                ));
            }
            sql.push_str(" END");
            sql
        }
        Dimension::Weekday => "CAST(i.local_weekday AS TEXT)".to_owned(),
        Dimension::Age => perception("perceived_age"),
        Dimension::Sex => perception("perceived_sex"),
        Dimension::Race => perception("perceived_race"),
    }
}

/// Each measure's count of the stale days (`{STALE}` for `rollup` to fill):
/// persons still in their report.
pub fn day_counts(backend: Backend) -> Vec<(&'static str, String)> {
    let class = class_sql();
    Dimension::ALL
        .into_iter()
        .map(|table| {
            (
                measure(table),
                format!(
                    "SELECT i.local_date, {m}, i.officer_id || '|' || {row} || '|' || {class}, NULL, COUNT(*) \
                     FROM incident i JOIN subject s ON s.incident_id = i.incident_id \
                     WHERE {{STALE}} AND s.withdrawn_at IS NULL GROUP BY 1, 3",
                    m = quoted(measure(table)),
                    row = row_sql(table, backend),
                ),
            )
        })
        .collect()
}

/// A key of these measures taken apart: (officer, row, class).
pub fn split(key: &str) -> Option<(&str, &str, &str)> {
    let (officer, rest) = key.split_once('|')?;
    let (row, class) = rest.rsplit_once('|')?;
    Some((officer, row, class))
}
