//! What the Town publishes of its enforcement (issue #40): the chief's
//! publication of a month that has ended, its corrections, and what anyone may
//! read of them; and the chief's own per-officer and disparity tables (true
//! counts, read at the desk only, never part of a publication).
//!
//! Everything is built from the counts the dashboard adds up ahead
//! (`dashboard::published`): publishing a month reads a few thousand rows of
//! counts and the year's earlier publications, never the incidents. A
//! publication is one row of `published_month`, written once, with its
//! SHA-256 and an audit entry; which cells it withholds is decided by
//! `model::transparency::suppression` against every view of the year the
//! public already has.

use std::collections::{BTreeMap, BTreeSet};

use sha2::{Digest, Sha256};

use crate::audit::{self, Event};
use crate::dashboard::{published, rollup};
use crate::db::Conn;
use crate::register::officer_label;
use crate::Store;
use domain::actor::Actor;
use domain::error::AppError;
use domain::model::audit::AuditOutcome;
use domain::model::transparency::desk::{self, DeskRow, OfficerDetail, OfficerTables};
use domain::model::transparency::disparity::{self, Disparity};
use domain::model::transparency::suppression::{self, View};
use domain::model::transparency::{
    reason_problems, Class, Correction, DeskMonth, Dimension, Key, Month, MonthRevision, Preview,
    PublicIndex, PublicView, Published, PublishedMonth, PublishedView, RevisionRef, Tally,
    ViewHeader, ViewKind, ALL,
};
use domain::ordinance::Moment;
use domain::town_time::TownZone;

/// Who publishes, from where, and when.
pub struct Chief<'a> {
    pub actor: &'a Actor,
    pub source: Option<&'a str>,
    pub now: Moment,
}

/// How many months back the chief's page lists.
const MONTHS_LISTED: usize = 12;

fn sha256(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// Persons of the months `from..=to` by table, row and column: every officer's
/// added up (the rollup keeps them by officer), or one officer's (the desk's).
async fn tally(
    conn: &mut Conn,
    from: Month,
    to: Month,
    officer: Option<&str>,
) -> Result<Tally, AppError> {
    let counts = rollup::counts_of(
        conn,
        rollup::date(&from.first_day())?,
        rollup::date(&to.last_day())?,
        published::measures(),
    )
    .await?;
    let mut atoms = Vec::new();
    for table in Dimension::ALL {
        for (key, n, _) in counts.of(published::measure(table)) {
            let Some((who, row, class)) = published::split(key) else {
                continue;
            };
            if officer.is_some_and(|o| o != who) {
                continue;
            }
            let n = u32::try_from(n).map_err(|_| AppError::Internal)?;
            atoms.push((table.code().to_owned(), row.to_owned(), class.to_owned(), n));
        }
    }
    Tally::of(&atoms).map_err(|e| {
        tracing::error!(error = e.0, "the published tables' counts do not add up");
        AppError::Internal
    })
}

/// One stored revision.
struct Stored {
    month: String,
    revision: u32,
    published_on: String,
    reason: Option<String>,
    month_json: String,
    month_sha256: String,
    year_json: String,
    counts_json: String,
}

type StoredRow = (
    String,
    i64,
    String,
    Option<String>,
    String,
    String,
    String,
    String,
);

fn stored(row: StoredRow) -> Result<Stored, AppError> {
    let (month, revision, published_on, reason, month_json, month_sha256, year_json, counts_json) =
        row;
    Ok(Stored {
        month,
        revision: u32::try_from(revision).map_err(|_| AppError::Internal)?,
        published_on,
        reason,
        month_json,
        month_sha256,
        year_json,
        counts_json,
    })
}

const STORED_COLUMNS: &str =
    "month, revision, published_on, reason, month_json, month_sha256, year_json, counts_json";

/// Every revision published of `year`'s months, in the order published.
async fn year_rows(conn: &mut Conn, year: i32) -> Result<Vec<Stored>, AppError> {
    let rows: Vec<StoredRow> = sqlx::query_as(&format!(
        "SELECT {STORED_COLUMNS} FROM published_month WHERE month >= $1 AND month <= $2 ORDER BY seq"
    ))
    .bind(format!("{year:04}-01"))
    .bind(format!("{year:04}-12"))
    .fetch_all(&mut *conn)
    .await?;
    rows.into_iter().map(stored).collect()
}

fn parse_view(json: &str) -> Result<PublishedView, AppError> {
    serde_json::from_str(json).map_err(|error| {
        tracing::error!(%error, "a published view does not read back");
        AppError::Internal
    })
}

fn parse_counts(json: &str) -> Result<Tally, AppError> {
    let atoms: Vec<(String, String, String, u32)> =
        serde_json::from_str(json).map_err(|error| {
            tracing::error!(%error, "a published month's counts do not read back");
            AppError::Internal
        })?;
    Tally::of_stored(&atoms).map_err(|e| {
        tracing::error!(error = e.0, "a published month's counts do not add up");
        AppError::Internal
    })
}

/// A view published before: fixed, as the public has it.
struct Earlier {
    months: Vec<MonthRevision>,
    year: bool,
    counts: Tally,
    withheld: BTreeSet<Key>,
}

/// What publishing `month` now would publish.
struct Decision {
    revision: u32,
    view: PublishedView,
    year: PublishedView,
    counts: Tally,
    changes: Vec<String>,
    unchanged: bool,
}

/// Decides the month's new revision and the year to date it makes, against
/// every view of the year already published.
async fn decide(
    conn: &mut Conn,
    zone: &TownZone,
    now: Moment,
    month: Month,
    reason: Option<&str>,
) -> Result<Decision, AppError> {
    let rows = year_rows(conn, month.year).await?;
    let counts = tally(conn, month, month, None).await?;
    let mut month_counts: BTreeMap<MonthRevision, Tally> = BTreeMap::new();
    let mut latest: BTreeMap<String, (u32, PublishedView)> = BTreeMap::new();
    let mut earlier: Vec<Earlier> = Vec::new();
    for row in &rows {
        let revision = MonthRevision {
            month: row.month.clone(),
            revision: row.revision,
        };
        let view = parse_view(&row.month_json)?;
        let counted = parse_counts(&row.counts_json)?;
        earlier.push(Earlier {
            months: vec![revision.clone()],
            year: false,
            counts: counted.clone(),
            withheld: view.withheld(),
        });
        month_counts.insert(revision, counted);
        latest.insert(row.month.clone(), (row.revision, view));
    }
    for row in &rows {
        let view = parse_view(&row.year_json)?;
        let parts: Option<Vec<&Tally>> = view.months.iter().map(|m| month_counts.get(m)).collect();
        let Some(parts) = parts else {
            tracing::error!(
                month = row.month,
                "a year to date counts a revision not stored"
            );
            return Err(AppError::Internal);
        };
        earlier.push(Earlier {
            months: view.months.clone(),
            year: true,
            counts: Tally::sum(parts),
            withheld: view.withheld(),
        });
    }
    let previous = latest.get(&month.code()).map(|(_, view)| view);
    let revision = latest.get(&month.code()).map_or(1, |(r, _)| r + 1);
    let this = MonthRevision {
        month: month.code(),
        revision,
    };
    let mut year_months: Vec<MonthRevision> = latest
        .iter()
        .filter(|(m, _)| **m != this.month)
        .map(|(m, (r, _))| MonthRevision {
            month: m.clone(),
            revision: *r,
        })
        .chain([this.clone()])
        .collect();
    year_months.sort();
    let year_counts = Tally::sum(year_months.iter().map(|m| {
        if *m == this {
            &counts
        } else {
            &month_counts[m]
        }
    }));
    let month_months = [this.clone()];
    let mut views: Vec<View> = earlier
        .iter()
        .map(|e| View {
            months: &e.months,
            year: e.year,
            counts: &e.counts,
            fixed: Some(&e.withheld),
        })
        .collect();
    views.push(View {
        months: &month_months,
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
    let decided = suppression::protect(&views);
    let n = decided.len();
    let checked: Vec<View> = views
        .iter()
        .zip(&decided)
        .map(|(v, withheld)| View {
            fixed: Some(withheld),
            ..*v
        })
        .collect();
    let disclosed = suppression::audit(&checked);
    if !disclosed.is_empty() {
        // Never published: the rules would have been broken.
        tracing::error!(
            ?disclosed,
            month = this.month,
            "publication refused by its own audit"
        );
        return Err(AppError::Internal);
    }
    let published_on = zone.date(now);
    let mut view = PublishedView::of(
        ViewHeader {
            kind: ViewKind::Month,
            period: month.code(),
            revision: Some(revision),
            published_on: published_on.clone(),
            months: vec![this],
            correction: None,
        },
        &counts,
        &decided[n - 2],
    );
    let changes = previous.map(|p| view.changes_from(p)).unwrap_or_default();
    let unchanged = previous.is_some_and(|p| p.tables == view.tables);
    view.correction = previous.map(|_| Correction {
        replaces_revision: revision - 1,
        reason: reason.unwrap_or_default().trim().to_owned(),
        changes: changes.clone(),
    });
    let year = PublishedView::of(
        ViewHeader {
            kind: ViewKind::YearToDate,
            period: format!("{:04}", month.year),
            revision: None,
            published_on,
            months: year_months,
            correction: None,
        },
        &year_counts,
        &decided[n - 1],
    );
    Ok(Decision {
        revision,
        view,
        year,
        counts,
        changes,
        unchanged,
    })
}

/// A month may be published once it has ended in the Town's time.
fn closed(zone: &TownZone, now: Moment, month: Month) -> Result<(), AppError> {
    if month.is_closed(&zone.date(now)) {
        Ok(())
    } else {
        Err(AppError::invalid(
            "month",
            format!(
                "Month: {} has not ended — a month is published once it has ended (Town time).",
                month.label()
            ),
        ))
    }
}

/// The month's reports not yet approved.
async fn awaiting_review(conn: &mut Conn, month: Month) -> Result<i64, AppError> {
    Ok(sqlx::query_scalar(
        "SELECT COUNT(*) FROM incident WHERE local_date >= $1 AND local_date <= $2 AND status <> 'approved'",
    )
    .bind(month.first_day())
    .bind(month.last_day())
    .fetch_one(&mut *conn)
    .await?)
}

/// What publishing `month` would publish now, for the chief to read first.
pub async fn preview(
    store: &Store,
    zone: &TownZone,
    now: Moment,
    month: Month,
) -> Result<Preview, AppError> {
    closed(zone, now, month)?;
    rollup::fresh(store).await?;
    let mut tx = store.reader.begin().await?;
    let decision = decide(&mut tx, zone, now, month, None).await?;
    let awaiting_review = awaiting_review(&mut tx, month).await?;
    Ok(Preview {
        month: month.code(),
        label: month.label(),
        revision: decision.revision,
        view: decision.view,
        year: decision.year,
        changes: decision.changes,
        unchanged: decision.unchanged,
        awaiting_review,
    })
}

/// Publishes `month` as `revision` (the one the chief previewed): its first
/// publication, or a correction with its reason. One write transaction: the
/// decision, the row and its audit entry.
pub async fn publish(
    store: &Store,
    chief: Chief<'_>,
    zone: &TownZone,
    month: Month,
    revision: u32,
    reason: Option<&str>,
) -> Result<Published, AppError> {
    closed(zone, chief.now, month)?;
    AppError::unless_any(reason_problems(revision, reason))?;
    rollup::fresh(store).await?;
    let mut tx = store.begin_write().await?;
    let decision = decide(&mut tx, zone, chief.now, month, reason).await?;
    if decision.revision != revision {
        return Err(AppError::conflict(format!(
            "{} was published as revision {} meanwhile: read the page again before publishing.",
            month.label(),
            decision.revision - 1
        )));
    }
    if decision.unchanged {
        return Err(AppError::conflict(format!(
            "Nothing published for {} would change: revision {} stands, and there is no correction to publish.",
            month.label(),
            revision - 1
        )));
    }
    let month_json = decision.view.canonical_json();
    let year_json = decision.year.canonical_json();
    let (month_sha256, year_sha256) = (sha256(&month_json), sha256(&year_json));
    let counts_json =
        serde_json::to_string(&decision.counts.atoms()).map_err(|_| AppError::Internal)?;
    let seq: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) + 1 FROM published_month")
        .fetch_one(&mut *tx)
        .await?;
    let reason = (revision > 1).then(|| reason.unwrap_or_default().trim().to_owned());
    sqlx::query(
        "INSERT INTO published_month (seq, month, revision, published_at, published_on, published_by, \
         reason, month_json, month_sha256, year_json, year_sha256, counts_json) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(seq)
    .bind(month.code())
    .bind(i64::from(revision))
    .bind(chief.now.0)
    .bind(&decision.view.published_on)
    .bind(chief.actor.user_id.to_string())
    .bind(&reason)
    .bind(&month_json)
    .bind(&month_sha256)
    .bind(&year_json)
    .bind(&year_sha256)
    .bind(&counts_json)
    .execute(&mut *tx)
    .await?;
    let event = Event::new("transparency.publish", AuditOutcome::Success)
        .by(Some(chief.actor), chief.source)
        .on("published_month", format!("{}/r{revision}", month.code()))
        .after(serde_json::json!({
            "month": month.code(),
            "revision": revision,
            "month_sha256": month_sha256,
            "year_sha256": year_sha256,
            "reason": reason,
            "changes": decision.changes,
        }));
    audit::append(&mut tx, chief.now, &event).await?;
    tx.commit().await?;
    Ok(Published {
        month: month.code(),
        revision,
        sha256: month_sha256,
    })
}

/// Every published month, newest first, each with its revisions; and the
/// years with a year to date.
pub async fn index(store: &Store) -> Result<PublicIndex, AppError> {
    let rows: Vec<(String, i64, String, String, Option<String>)> = sqlx::query_as(
        "SELECT month, revision, published_on, month_sha256, reason FROM published_month \
         ORDER BY month DESC, revision",
    )
    .fetch_all(&store.reader)
    .await?;
    let mut index = PublicIndex::default();
    for (month, revision, published_on, sha256, reason) in rows {
        let revision = RevisionRef {
            revision: u32::try_from(revision).map_err(|_| AppError::Internal)?,
            published_on,
            sha256,
            reason,
        };
        match index.months.last_mut() {
            Some(last) if last.month == month => last.revisions.push(revision),
            _ => {
                let label = Month::parse(&month).ok_or(AppError::Internal)?.label();
                index.months.push(PublishedMonth {
                    month,
                    label,
                    revisions: vec![revision],
                });
            }
        }
    }
    index.years = index
        .months
        .iter()
        .filter_map(|m| Month::parse(&m.month).map(|m| m.year))
        .collect();
    index.years.dedup();
    Ok(index)
}

fn revision_ref(row: &Stored) -> RevisionRef {
    RevisionRef {
        revision: row.revision,
        published_on: row.published_on.clone(),
        sha256: row.month_sha256.clone(),
        reason: row.reason.clone(),
    }
}

/// A published month (its newest revision, or `revision`) as the public reads
/// it, with its JSON as stored. A month not published, or a revision not made,
/// is not found — the same answer as a month that never was.
pub async fn month_view(
    store: &Store,
    month: Month,
    revision: Option<u32>,
) -> Result<(PublicView, String), AppError> {
    let rows: Vec<StoredRow> = sqlx::query_as(&format!(
        "SELECT {STORED_COLUMNS} FROM published_month WHERE month = $1 ORDER BY revision"
    ))
    .bind(month.code())
    .fetch_all(&store.reader)
    .await?;
    let rows: Vec<Stored> = rows.into_iter().map(stored).collect::<Result<_, _>>()?;
    let latest = rows.last().map(|r| r.revision).ok_or(AppError::NotFound)?;
    let wanted = revision.unwrap_or(latest);
    let row = rows
        .iter()
        .find(|r| r.revision == wanted)
        .ok_or(AppError::NotFound)?;
    let view = PublicView {
        view: parse_view(&row.month_json)?,
        sha256: row.month_sha256.clone(),
        revisions: rows.iter().map(revision_ref).collect(),
        latest: Some(latest),
    };
    Ok((view, row.month_json.clone()))
}

/// The year to date of `year` as its last publication made it.
pub async fn year_view(store: &Store, year: i32) -> Result<(PublicView, String), AppError> {
    let row: Option<(String, String)> = sqlx::query_as(
        "SELECT year_json, year_sha256 FROM published_month WHERE month >= $1 AND month <= $2 \
         ORDER BY seq DESC LIMIT 1",
    )
    .bind(format!("{year:04}-01"))
    .bind(format!("{year:04}-12"))
    .fetch_optional(&store.reader)
    .await?;
    let (json, sha256) = row.ok_or(AppError::NotFound)?;
    let view = PublicView {
        view: parse_view(&json)?,
        sha256,
        revisions: Vec::new(),
        latest: None,
    };
    Ok((view, json))
}

/// The chief's list: the last closed months and every month published, newest
/// first, with their revisions.
pub async fn desk_months(
    store: &Store,
    zone: &TownZone,
    now: Moment,
) -> Result<Vec<DeskMonth>, AppError> {
    let index = index(store).await?;
    let mut months: BTreeMap<Month, Vec<RevisionRef>> = BTreeMap::new();
    if let Some(current) = Month::of_date(&zone.date(now)) {
        let mut month = current;
        for _ in 0..MONTHS_LISTED {
            month = month.previous();
            months.insert(month, Vec::new());
        }
    }
    for published in index.months {
        if let Some(month) = Month::parse(&published.month) {
            months.insert(month, published.revisions);
        }
    }
    Ok(months
        .into_iter()
        .rev()
        .map(|(month, revisions)| DeskMonth {
            month: month.code(),
            label: month.label(),
            revisions,
        })
        .collect())
}

/// The chief's tables by officer for `from..=to` (true counts, never public):
/// a row per officer who recorded anyone, the Town's row, and the chosen
/// officer's seven tables. Read from the counts added up ahead, as publishing is.
pub async fn officers(
    store: &Store,
    from: Month,
    to: Month,
    officer: Option<&str>,
) -> Result<OfficerTables, AppError> {
    rollup::fresh(store).await?;
    let mut tx = store.reader.begin().await?;
    let counts = rollup::counts_of(
        &mut tx,
        rollup::date(&from.first_day())?,
        rollup::date(&to.last_day())?,
        [published::measure(Dimension::Section)],
    )
    .await?;
    // Every person is in one section row: by officer and class, summed over rows.
    let mut by_officer: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    for (key, n, _) in counts.of(published::measure(Dimension::Section)) {
        let Some((who, _, class)) = published::split(key) else {
            continue;
        };
        let Some(c) = Class::ALL.iter().position(|x| x.code() == class) else {
            continue;
        };
        by_officer
            .entry(who)
            .or_insert_with(|| vec![0; Class::ALL.len()])[c] +=
            u32::try_from(n).map_err(|_| AppError::Internal)?;
    }
    let names: BTreeMap<String, (String, Option<String>)> =
        sqlx::query_as::<_, (String, String, Option<String>)>(
            "SELECT user_id, full_name, badge_number FROM app_user",
        )
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(|(id, name, badge)| (id, (name, badge)))
        .collect();
    let label = |id: &str| {
        names.get(id).map_or_else(
            || id.to_owned(),
            |(name, badge)| officer_label(name, badge.as_deref()),
        )
    };
    let mut rows: Vec<DeskRow> = by_officer
        .into_iter()
        .map(|(id, counts)| DeskRow {
            code: id.to_owned(),
            label: label(id),
            persons: counts.iter().sum(),
            counts,
        })
        .collect();
    rows.sort_by(|a, b| {
        b.persons
            .cmp(&a.persons)
            .then_with(|| a.label.cmp(&b.label))
    });
    let mut town = DeskRow {
        code: ALL.to_owned(),
        label: "The Town (every officer)".to_owned(),
        counts: vec![0; Class::ALL.len()],
        persons: 0,
    };
    for row in &rows {
        for (sum, n) in town.counts.iter_mut().zip(&row.counts) {
            *sum += n;
        }
        town.persons += row.persons;
    }
    let chosen = match officer {
        Some(id) if rows.iter().any(|r| r.code == id) => Some(OfficerDetail {
            officer: id.to_owned(),
            label: label(id),
            tables: desk::desk_tables(&tally(&mut tx, from, to, Some(id)).await?),
        }),
        Some(_) => return Err(AppError::NotFound),
        None => None,
    };
    Ok(OfficerTables {
        from: from.code(),
        to: to.code(),
        columns: desk::columns(),
        officers: rows,
        town,
        chosen,
    })
}

/// The chief's disparity view of `from..=to` (true counts, never public).
pub async fn disparity(store: &Store, from: Month, to: Month) -> Result<Disparity, AppError> {
    rollup::fresh(store).await?;
    let mut tx = store.reader.begin().await?;
    let tally = tally(&mut tx, from, to, None).await?;
    Ok(disparity::disparity(&from.code(), &to.code(), &tally))
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::model::transparency::area::NamedArea;

    /// The store's SQL finds each fix's area as `NamedArea::of` does.
    #[tokio::test]
    async fn the_sql_finds_the_same_area_as_the_domain() {
        let dir = std::env::temp_dir().join(format!("wells-areas-{}", uuid::Uuid::now_v7()));
        let store = Store::open(&dir.join("wells.db")).await.expect("open");
        let sql = published::area_sql(store.backend);
        let mut points = Vec::new();
        for i in 0..400u32 {
            let lat = 43.25 + f64::from(i % 20) * 0.0052 + f64::from(i / 20) * 0.00013;
            let lon = -70.63 + f64::from(i / 20) * 0.0052 + f64::from(i % 20) * 0.00011;
            points.push((lat, lon));
        }
        // Edges and just past them.
        for a in NamedArea::BOXED {
            let b = a.bounds().expect("a box");
            points.push((b.south, b.west));
            points.push((b.north, b.east));
            points.push((b.south - 0.003, b.west));
            points.push((b.north + 0.0031, b.east));
        }
        for (lat, lon) in points {
            let found: String = sqlx::query_scalar(&format!(
                "SELECT {sql} FROM (SELECT CAST($1 AS DOUBLE PRECISION) AS gps_lat, CAST($2 AS DOUBLE PRECISION) AS gps_lon) i"
            ))
            .bind(lat)
            .bind(lon)
            .fetch_one(&store.reader)
            .await
            .expect("area");
            assert_eq!(
                found,
                NamedArea::of(Some((lat, lon))).code(),
                "{lat}, {lon}"
            );
        }
        let none: String = sqlx::query_scalar(&format!(
            "SELECT {sql} FROM (SELECT NULL AS gps_lat, NULL AS gps_lon) i"
        ))
        .fetch_one(&store.reader)
        .await
        .expect("area");
        assert_eq!(none, "not_given");
        store.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }
}
