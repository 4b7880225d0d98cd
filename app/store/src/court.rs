//! The court clerk's records (issue #7): the filing queue, export batches, filing
//! (after which a citation is frozen: only a chief's amendment changes it, see
//! `store::review`) and dispositions. Every change is one write transaction with
//! its audit entry.

use crate::db::{Backend, Conn, Pool, Sql};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::audit::{self, Event};
use crate::court_sql::{AMENDED_SINCE_EXPORT, AT_COURT, HELD_UNIDENTIFIED};
use crate::incidents::{citation_documents, court_lines, court_lines_issued, subject_label};
use crate::register::officer_label;
use crate::withdrawals::Which;
use crate::Store;
use domain::actor::Actor;
use domain::error::AppError;
use domain::model::audit::AuditOutcome;
use domain::model::citation::CitationDocument;
use domain::model::court::{
    dollars, CourtCitation, CourtEventView, CourtFilter, CourtRow, Disposition, DispositionKind,
    ExportFormat, ExportSelection, ExportedCitation, Filing, FilingBacklog, FilingRow, FILING_DAYS,
    MAX_BATCH,
};
use domain::model::dashboard::day_number;
use domain::model::incident::CitationStatus;
use domain::ordinance::{Moment, Offence, Penalty};
use domain::town_time::TownZone;

/// Who acts, from where, when.
#[derive(Clone, Copy)]
pub struct Clerk<'a> {
    pub actor: &'a Actor,
    pub source: Option<&'a str>,
    pub now: Moment,
}

/// The filing queue's rows: approved citations of identified persons, oldest
/// first, one batch's worth (binds: the limit). The page is chosen from
/// `citation` by its status index (each citation's person looked up by key for
/// `HELD_UNIDENTIFIED`), then each citation's person and officer are looked up
/// by key, whatever SQLite's statistics say (issue #22).
pub fn filing_queue_sql(backend: Backend) -> String {
    let (status, join) = (
        backend.indexed_by("citation_status"),
        backend.join_in_order(),
    );
    format!(
        "SELECT c.number, c.offence, c.issued_at, s.identified, s.full_name, s.description, \
         u.full_name, u.badge_number, {AMENDED_SINCE_EXPORT}, c.replaces \
         FROM (SELECT c.citation_id FROM citation c{status} \
               WHERE c.status = 'approved' AND NOT {HELD_UNIDENTIFIED} \
               ORDER BY c.issued_at, c.number LIMIT $1) AS page \
         {join} citation c ON c.citation_id = page.citation_id \
         {join} subject s ON s.subject_id = c.subject_id \
         {join} app_user u ON u.user_id = c.issued_by \
         ORDER BY c.issued_at, c.number"
    )
}

/// Approved citations not yet filed, oldest (most urgent) first: one batch's
/// worth, and the count of all that wait; how many are held until their person
/// is identified; and the withdrawals still to be taken to the court.
pub async fn filing_queue(
    pool: &Pool,
    zone: &TownZone,
    now: Moment,
) -> Result<FilingBacklog, AppError> {
    type Row = (
        String,
        String,
        i64,
        i64,
        Option<String>,
        Option<String>,
        String,
        Option<String>,
        i64,
        Option<String>,
    );
    let rows: Vec<Row> = sqlx::query_as(&filing_queue_sql(Backend::of_pool(pool)))
        .bind(MAX_BATCH as i64)
        .fetch_all(pool)
        .await?;
    let (waiting, held): (i64, i64) = sqlx::query_as(&format!(
        "SELECT COUNT(*) - COALESCE(SUM(CASE WHEN {HELD_UNIDENTIFIED} THEN 1 ELSE 0 END), 0), \
         COALESCE(SUM(CASE WHEN {HELD_UNIDENTIFIED} THEN 1 ELSE 0 END), 0) \
         FROM citation c WHERE c.status = 'approved'"
    ))
    .fetch_one(pool)
    .await?;
    let withdrawals = crate::withdrawals::list(pool, zone, Which::Unsent).await?;
    let today_text = zone.date(now);
    let today = day_number(&today_text).ok_or(AppError::Internal)?;
    rows.into_iter()
        .map(
            |(
                number,
                offence,
                issued,
                identified,
                name,
                description,
                officer,
                badge,
                amended,
                replaces,
            )| {
                let deadline = zone.date_after(Moment(issued), FILING_DAYS);
                let days_left = day_number(&deadline).ok_or(AppError::Internal)? - today;
                Ok(FilingRow {
                    number,
                    subject: subject_label(identified, name, description),
                    offence: Offence::from_code(&offence).ok_or(AppError::Internal)?,
                    officer: officer_label(&officer, badge.as_deref()),
                    issued_text: zone.date_time(Moment(issued)),
                    deadline,
                    days_left,
                    amended: amended == 1,
                    replaces,
                })
            },
        )
        .collect::<Result<_, AppError>>()
        .map(|rows| FilingBacklog {
            waiting: waiting as u64,
            rows,
            today: today_text,
            held_unidentified: held as u64,
            withdrawals,
        })
}

/// A citation whose person is not identified cannot be filed: a summons needs
/// the person's name and address (issue #33). Refused with what to do.
fn unidentified(number: &str) -> AppError {
    AppError::invalid(
        "numbers",
        format!(
            "{number} names no identified person: a summons needs the person's name and address. \
             It is held out of the filing queue until the chief amends the report with the identity."
        ),
    )
}

/// A finished export: the file and the batch that records it.
pub struct Exported {
    pub batch_id: Uuid,
    pub format: ExportFormat,
    pub bytes: Vec<u8>,
    pub sha256: String,
    /// `wells-court-2026-07-10-3.csv`: the Town's date and the batch's number
    /// that day, so a folder of exports sorts and reads in order.
    pub filename: String,
}

/// A byte-order mark, for spreadsheets that read a CSV as their own code page
/// unless told it is UTF-8 (Excel garbles "§" and "—" without it).
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The numbers a selection names, each checked to be the court's, once each.
async fn selected_numbers(pool: &Pool, numbers: &[String]) -> Result<Vec<String>, AppError> {
    let mut out: Vec<String> = Vec::new();
    for number in numbers {
        let status: Option<(String, String, i64)> = sqlx::query_as(&format!(
            "SELECT c.number, c.status, CASE WHEN {HELD_UNIDENTIFIED} THEN 1 ELSE 0 END \
             FROM citation c WHERE c.number = $1"
        ))
        .bind(number)
        .fetch_optional(pool)
        .await?;
        match status {
            None => {
                return Err(AppError::invalid(
                    "numbers",
                    format!("{number}: no such citation."),
                ))
            }
            Some((_, status, _)) if !court_status(&status) => {
                return Err(AppError::invalid(
                    "numbers",
                    format!("{number}: not approved by the chief, so not the court's yet."),
                ))
            }
            Some((n, status, 1)) if status == "approved" => return Err(unidentified(&n)),
            Some((n, _, _)) if !out.contains(&n) => out.push(n),
            Some(_) => {}
        }
    }
    Ok(out)
}

/// The court's lines of a selection, each handed to `each` as it is read: the
/// numbers named, in their order, or every citation at court issued on the
/// Town's dates `from` to `to`.
async fn selected_lines(
    pool: &Pool,
    zone: &TownZone,
    viewer: &Actor,
    selection: &ExportSelection,
    each: impl FnMut(ExportedCitation) -> Result<(), AppError>,
) -> Result<(), AppError> {
    if !selection.numbers.is_empty() {
        let numbers = selected_numbers(pool, &selection.numbers).await?;
        return court_lines(pool, &numbers, viewer, zone)
            .await?
            .into_iter()
            .try_for_each(each);
    }
    // The rules checked both dates (`ExportSelection::problems`).
    let from = selection.from.as_deref().unwrap_or_default();
    let to = selection.to.as_deref().unwrap_or_default();
    let start = zone.start_of_day(from).ok_or(AppError::Internal)?;
    let end = zone.start_of_next_day(to).ok_or(AppError::Internal)?;
    court_lines_issued(pool, (start, end), viewer, zone, each).await
}

fn court_status(code: &str) -> bool {
    matches!(code, "approved" | "filed" | "disposed")
}

/// Builds the export file and records its batch: who, when, which citations
/// (each marked amended or not), the file's SHA-256, in the audit log too.
pub async fn export(
    store: &Store,
    clerk: Clerk<'_>,
    zone: &TownZone,
    selection: &ExportSelection,
    format: ExportFormat,
    excel_bom: bool,
) -> Result<Exported, AppError> {
    let batch_id = Uuid::now_v7();
    let batch = batch_id.to_string();
    // What the batch records: each citation it carries, marked amended or not.
    let mut chosen: Vec<(String, bool)> = Vec::new();
    // A CSV is written as the lines are read; a JSON file needs them all.
    let mut csv = match format {
        ExportFormat::Csv => {
            Some(documents::export::CourtCsv::new(&batch).map_err(|_| AppError::Internal)?)
        }
        _ => None,
    };
    let mut lines = Vec::new();
    selected_lines(&store.reader, zone, clerk.actor, selection, |line| {
        chosen.push((line.number.clone(), line.amended));
        match &mut csv {
            Some(file) => file.push(&line).map_err(|_| AppError::Internal)?,
            None if format == ExportFormat::Json => lines.push(line),
            None => {}
        }
        Ok(())
    })
    .await?;
    if chosen.is_empty() {
        return Err(AppError::invalid(
            "numbers",
            "No approved citation was issued in that range.",
        ));
    }
    // The day's export number names the batch on the docket and the file
    // (read before the file is made, outside the write transaction; two
    // exports in the same instant may share it, and keep their own ids).
    let today = zone.date(clerk.now);
    let that_day: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM export_batch WHERE created_at >= $1 AND created_at <= $2",
    )
    .bind(zone.start_of_day(&today).map_or(clerk.now.0, |m| m.0))
    .bind(clerk.now.0)
    .fetch_one(&store.reader)
    .await?;
    let day_number = that_day + 1;
    let generated_at = jiff::Timestamp::from_millisecond(clerk.now.0)
        .map(|t| t.to_string())
        .map_err(|_| AppError::Internal)?;
    let bytes = match format {
        ExportFormat::Csv => {
            let file = csv
                .ok_or(AppError::Internal)?
                .finish()
                .map_err(|_| AppError::Internal)?;
            if excel_bom {
                [UTF8_BOM, file.as_slice()].concat()
            } else {
                file
            }
        }
        ExportFormat::Json => {
            serde_json::to_vec(&documents::export::json(lines, &batch, &generated_at))
                .map_err(|_| AppError::Internal)?
        }
        // The summonses print the stored reports (narrative, violation, order).
        ExportFormat::Pdf => {
            let numbers: Vec<String> = chosen.iter().map(|(n, _)| n.clone()).collect();
            let docs: Vec<(CitationDocument, bool)> =
                citation_documents(&store.reader, &numbers, clerk.actor, zone)
                    .await?
                    .into_iter()
                    .zip(chosen.iter().map(|(_, amended)| *amended))
                    .collect();
            documents::export::pdf(
                &docs,
                &format!("No. {day_number} of {today}"),
                &zone.date_time(clerk.now),
            )
        }
    };
    let sha256 = hex::encode(Sha256::digest(&bytes));
    let mut tx = store.begin_write().await?;
    let filename = format!("wells-court-{today}-{day_number}.{}", format.code());
    sqlx::query(
        "INSERT INTO export_batch (batch_id, format, created_at, created_by, citations, sha256, criteria) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(batch_id.to_string())
    .bind(format.code())
    .bind(clerk.now.0)
    .bind(clerk.actor.user_id.to_string())
    .bind(chosen.len() as i64)
    .bind(&sha256)
    .bind(serde_json::to_string(selection).map_err(|_| AppError::Internal)?)
    .execute(&mut *tx)
    .await?;
    // Statements over the whole list, not per citation: an export of 100 000
    // citations spent seconds on single-row statements. (`WHERE 1` lets
    // SQLite parse the upsert after a SELECT.)
    let numbers: Vec<&str> = chosen.iter().map(|(n, _)| n.as_str()).collect();
    let amended: Vec<&str> = chosen
        .iter()
        .filter(|(_, a)| *a)
        .map(|(n, _)| n.as_str())
        .collect();
    let json = |list: &[&str]| serde_json::to_string(list).map_err(|_| AppError::Internal);
    let numbers_json = json(&numbers)?;
    let backend = store.backend;
    let insert = format!(
        "INSERT INTO export_item (batch_id, number, amended) \
         SELECT $1, value, CASE WHEN value IN (SELECT value FROM {}) THEN 1 ELSE 0 END FROM {}",
        backend.json_rows("$3"),
        backend.json_rows("$2")
    );
    sqlx::query(&insert)
        .bind(batch_id.to_string())
        .bind(&numbers_json)
        .bind(json(&amended)?)
        .execute(&mut *tx)
        .await?;
    let upsert = format!(
        "INSERT INTO citation_export (number, last_exported_at) SELECT value, $1 FROM {} WHERE 1 = 1 \
         ON CONFLICT (number) DO UPDATE SET last_exported_at = excluded.last_exported_at",
        backend.json_rows("$2")
    );
    sqlx::query(&upsert)
        .bind(clerk.now.0)
        .bind(&numbers_json)
        .execute(&mut *tx)
        .await?;
    let event = Event::new("court.export", AuditOutcome::Success)
        .by(Some(clerk.actor), clerk.source)
        .on("export_batch", batch_id)
        .after(serde_json::json!({
            "format": format.code(),
            "file": filename,
            "sha256": sha256,
            "citations": numbers,
            "amended": amended,
        }));
    audit::append(&mut tx, clerk.now, &event).await?;
    tx.commit().await?;
    Ok(Exported {
        batch_id,
        format,
        bytes,
        sha256,
        filename,
    })
}

/// The last exports, newest first, for the court page to confirm what was sent.
pub async fn recent_exports(
    pool: &Pool,
    zone: &TownZone,
) -> Result<Vec<domain::model::court::ExportBatchView>, AppError> {
    #[derive(sqlx::FromRow)]
    struct Row {
        batch_id: String,
        format: String,
        created_at: i64,
        full_name: String,
        citations: i64,
        sha256: String,
        file: Option<String>,
    }
    let sql = format!(
        "SELECT b.batch_id, b.format, b.created_at, u.full_name, b.citations, b.sha256, \
         (SELECT {} FROM audit_entry a \
          WHERE a.action = 'court.export' AND a.entity_id = b.batch_id) AS file \
         FROM export_batch b JOIN app_user u ON u.user_id = b.created_by \
         ORDER BY b.created_at DESC, b.batch_id DESC LIMIT 10",
        Backend::of_pool(pool).json_member("a.after_json", "file")
    );
    let rows: Vec<Row> = sqlx::query_as(&sql).fetch_all(pool).await?;
    Ok(rows
        .into_iter()
        .map(|r| domain::model::court::ExportBatchView {
            file: r
                .file
                .unwrap_or_else(|| format!("wells-court-{}.{}", r.batch_id, r.format)),
            batch_id: r.batch_id,
            at_text: zone.date_time(Moment(r.created_at)),
            by: r.full_name,
            citations: r.citations,
            sha256: r.sha256,
        })
        .collect())
}

fn event_id() -> String {
    Uuid::now_v7().to_string()
}

/// Marks approved citations filed with the court. Filing the same citations
/// again with the same date and reference is harmless; anything else about a
/// filed citation is refused (it is frozen).
pub async fn file(
    store: &Store,
    clerk: Clerk<'_>,
    filing: &Filing,
) -> Result<Vec<CitationStatus>, AppError> {
    let mut tx = store.begin_write().await?;
    let mut out = Vec::new();
    for number in &filing.numbers {
        let row: Option<(String, Option<String>, Option<String>, i64)> =
            sqlx::query_as(&format!(
                "SELECT c.status, c.filed_on, c.filing_reference, \
                 CASE WHEN {HELD_UNIDENTIFIED} THEN 1 ELSE 0 END FROM citation c WHERE c.number = $1"
            ))
            .bind(number)
            .fetch_optional(&mut *tx)
            .await?;
        let reference = filing.reference.trim();
        match row {
            None => {
                return Err(AppError::invalid(
                    "numbers",
                    format!("{number}: no such citation."),
                ))
            }
            Some((status, on, r, _))
                if status == "filed"
                    && on.as_deref() == Some(&filing.filed_on)
                    && r.as_deref() == Some(reference) =>
            {
                out.push(CitationStatus::Filed);
                continue;
            }
            Some((status, _, _, _)) if status != "approved" => {
                let label =
                    CitationStatus::from_code(&status).map_or("not approved", |s| s.label());
                return Err(AppError::conflict(format!(
                    "{number} is {label}: only a citation the chief approved, not yet filed, can be marked filed."
                )));
            }
            Some((_, _, _, 1)) => return Err(unidentified(number)),
            Some(_) => {}
        }
        sqlx::query(
            "UPDATE citation SET status = 'filed', filed_on = $1, filing_reference = $2, filed_by = $3, \
             filed_at = $4, updated_at = $5 WHERE number = $6",
        )
        .bind(&filing.filed_on)
        .bind(reference)
        .bind(clerk.actor.user_id.to_string())
        .bind(clerk.now.0)
        .bind(clerk.now.0)
        .bind(number)
        .execute(&mut *tx)
        .await?;
        let details = serde_json::json!({ "filed_on": filing.filed_on, "reference": reference });
        court_event(&mut tx, number, "filed", &details, clerk).await?;
        let event = Event::new("citation.file", AuditOutcome::Success)
            .by(Some(clerk.actor), clerk.source)
            .on("citation", number)
            .after(details);
        audit::append(&mut tx, clerk.now, &event).await?;
        out.push(CitationStatus::Filed);
    }
    tx.commit().await?;
    Ok(out)
}

async fn court_event(
    tx: &mut Conn,
    number: &str,
    kind: &str,
    details: &serde_json::Value,
    clerk: Clerk<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO court_event (event_id, number, kind, details, actor_id, at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(event_id())
    .bind(number)
    .bind(kind)
    .bind(details.to_string())
    .bind(clerk.actor.user_id.to_string())
    .bind(clerk.now.0)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Records what the court decided. The citation must be filed; a final
/// disposition makes it disposed, a contest keeps it filed with its hearing
/// date. Recording the same disposition again changes nothing.
pub async fn dispose(
    store: &Store,
    clerk: Clerk<'_>,
    number: &str,
    d: &Disposition,
) -> Result<CitationStatus, AppError> {
    let mut tx = store.begin_write().await?;
    type Row = (
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<i64>,
        Option<i64>,
        Option<i64>,
        String,
        i64,
        Option<String>,
    );
    let row: Row = sqlx::query_as(
        "SELECT status, disposition, disposition_on, hearing_on, paid_cents, fine_assessed_cents, \
         costs_assessed_cents, offence, fine_cents, fine_departure FROM citation WHERE number = $1",
    )
    .bind(number)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(AppError::NotFound)?;
    let (status, kind, on, hearing, paid, fine, costs, offence, fine_cents, departure) = row;
    // A hearing on a day the court does not sit, by the court's own calendar.
    let closed = crate::settings::court_in(&mut tx).await?.closed_days;
    if let Some(problem) = d.hearing_problem(closed.as_deref()) {
        return Err(AppError::Invalid {
            errors: vec![problem],
        });
    }
    // The fine is the one the citation states — its stored fine, under its own
    // offence's section — unless the court's words say it assessed another.
    let charged = charged_penalty(&offence, fine_cents)?;
    if let Some(problem) = d.fine_problem(charged) {
        return Err(AppError::Invalid {
            errors: vec![problem],
        });
    }
    let new_departure = d
        .departs(charged)
        .then(|| d.words().map(str::to_owned))
        .flatten();
    if !matches!(status.as_str(), "filed" | "disposed") {
        let label = CitationStatus::from_code(&status).map_or("not filed", |s| s.label());
        return Err(AppError::conflict(format!(
            "{number} is {label}: mark it filed before recording what the court decided."
        )));
    }
    let new_status = if d.kind.is_final() {
        CitationStatus::Disposed
    } else {
        CitationStatus::Filed
    };
    // A hearing date stays once set: a payment recorded after a contest does not
    // wipe the court date (issue #16).
    let hearing_on = d.hearing_on.clone().or(hearing.clone());
    let same = kind.as_deref() == Some(d.kind.code())
        && on.as_deref() == Some(d.on.as_str())
        && hearing == hearing_on
        && paid == d.paid_cents
        && fine == d.fine_cents
        && costs == d.costs_cents
        && departure == new_departure;
    if same {
        return Ok(new_status);
    }
    // Changing what the court decided, once recorded as final, needs a reason.
    let closed = kind
        .as_deref()
        .and_then(DispositionKind::from_code)
        .filter(|k| k.is_final());
    let reason = d.reason.as_deref().map(str::trim).filter(|r| !r.is_empty());
    if let (Some(was), None) = (closed, reason) {
        return Err(AppError::invalid(
            "reason",
            format!(
                "Reason: required — {number} is already recorded as “{}” on {}; say why it changes.",
                was.label(),
                on.as_deref().unwrap_or("?")
            ),
        ));
    }
    sqlx::query(
        "UPDATE citation SET status = $1, disposition = $2, disposition_on = $3, hearing_on = $4, paid_cents = $5, \
         fine_assessed_cents = $6, costs_assessed_cents = $7, updated_at = $8, fine_departure = $9 \
         WHERE number = $10",
    )
    .bind(new_status.code())
    .bind(d.kind.code())
    .bind(&d.on)
    .bind(&hearing_on)
    .bind(d.paid_cents)
    .bind(d.fine_cents)
    .bind(d.costs_cents)
    .bind(clerk.now.0)
    .bind(&new_departure)
    .bind(number)
    .execute(&mut *tx)
    .await?;
    let details = serde_json::to_value(d).map_err(|_| AppError::Internal)?;
    court_event(&mut tx, number, d.kind.code(), &details, clerk).await?;
    let event = Event::new("citation.dispose", AuditOutcome::Success)
        .by(Some(clerk.actor), clerk.source)
        .on("citation", number)
        .before(serde_json::json!({
            "disposition": kind, "on": on, "hearing_on": hearing,
            "paid_cents": paid, "fine_cents": fine, "costs_cents": costs,
            "fine_departure": departure,
        }))
        .after(details);
    audit::append(&mut tx, clerk.now, &event).await?;
    tx.commit().await?;
    Ok(new_status)
}

/// The penalty a citation states: its stored fine, under its offence's section.
fn charged_penalty(offence: &str, fine_cents: i64) -> Result<Penalty, AppError> {
    let offence = Offence::from_code(offence).ok_or(AppError::Internal)?;
    Ok(Penalty {
        fine_cents: u32::try_from(fine_cents).map_err(|_| AppError::Internal)?,
        ..offence.penalty()
    })
}

#[derive(sqlx::FromRow)]
struct CourtRowSql {
    number: String,
    offence: String,
    status: String,
    issued_at: i64,
    identified: i64,
    full_name: Option<String>,
    description: Option<String>,
    filed_on: Option<String>,
    filing_reference: Option<String>,
    court_date: String,
    disposition: Option<String>,
    fine_departure: Option<String>,
    withdrawal_reason: Option<String>,
    replaces: Option<String>,
    replaced_by: Option<String>,
}

const COURT_ROW: &str = "SELECT c.number, c.offence, c.status, c.issued_at, s.identified, s.full_name, \
     s.description, c.filed_on, c.filing_reference, COALESCE(c.hearing_on, c.appearance_date) AS court_date, \
     c.disposition, c.fine_departure, w.reason AS withdrawal_reason, c.replaces, \
     (SELECT n.number FROM citation n WHERE n.replaces = c.number) AS replaced_by \
     FROM citation c JOIN subject s ON s.subject_id = c.subject_id \
     LEFT JOIN citation_withdrawal w ON w.number = c.number";

fn court_row(r: CourtRowSql, zone: &TownZone) -> Result<CourtRow, AppError> {
    Ok(CourtRow {
        offence: Offence::from_code(&r.offence).ok_or(AppError::Internal)?,
        status: CitationStatus::from_code(&r.status).ok_or(AppError::Internal)?,
        issued_text: zone.date_time(Moment(r.issued_at)),
        subject: subject_label(r.identified, r.full_name, r.description),
        number: r.number,
        filed_on: r.filed_on,
        filing_reference: r.filing_reference,
        court_date: r.court_date,
        disposition: r
            .disposition
            .as_deref()
            .and_then(DispositionKind::from_code),
        fine_departure: r.fine_departure,
        withdrawn: r.withdrawal_reason,
        replaces: r.replaces,
        replaced_by: r.replaced_by,
    })
}

/// The clerk's register: the court's citations, newest first (at most 200).
pub async fn register(
    pool: &Pool,
    zone: &TownZone,
    filter: &CourtFilter,
) -> Result<Vec<CourtRow>, AppError> {
    let mut q = Sql::new(Backend::of_pool(pool), COURT_ROW);
    q.push(" WHERE ");
    q.push(AT_COURT);
    if let Some(status) = filter.status {
        q.push(" AND c.status = ").push_bind(status.code());
    }
    if let Some(number) = filter
        .number
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        q.push(" AND c.number = ")
            .push_bind(number.to_ascii_uppercase());
    }
    let dates = [
        (" AND c.filed_on >= ", &filter.filed_from),
        (" AND c.filed_on <= ", &filter.filed_to),
        (
            " AND COALESCE(c.hearing_on, c.appearance_date) >= ",
            &filter.court_from,
        ),
        (
            " AND COALESCE(c.hearing_on, c.appearance_date) <= ",
            &filter.court_to,
        ),
    ];
    for (clause, value) in dates {
        if let Some(v) = value.clone().filter(|v| !v.is_empty()) {
            q.push(clause).push_bind(v);
        }
    }
    q.push(" ORDER BY c.issued_at DESC, c.number DESC LIMIT 200");
    let rows: Vec<CourtRowSql> = q.build_query_as()?.fetch_all(pool).await?;
    rows.into_iter().map(|r| court_row(r, zone)).collect()
}

/// The court clerk's calendar: hearings set for today or later, by day, then
/// by number (issue #37, finding 18). Only a case still before the court has a
/// hearing to attend: a withdrawn, voided or finally disposed one (paid,
/// dismissed or decided, which keeps the hearing date it once had) does not.
pub async fn hearings(
    pool: &Pool,
    zone: &TownZone,
    now: Moment,
) -> Result<domain::model::court::HearingCalendar, AppError> {
    let today = zone.date(now);
    let mut q = Sql::new(Backend::of_pool(pool), COURT_ROW);
    q.push(" WHERE c.hearing_on IS NOT NULL AND c.hearing_on >= ")
        .push_bind(today.clone())
        .push(" AND w.number IS NULL AND c.status = 'filed'")
        .push(" ORDER BY c.hearing_on, c.number LIMIT ")
        .push(domain::model::court::CALENDAR_LIMIT.to_string());
    let rows: Vec<CourtRowSql> = q.build_query_as()?.fetch_all(pool).await?;
    let rows = rows
        .into_iter()
        .map(|r| court_row(r, zone))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(domain::model::court::HearingCalendar::by_day(today, rows))
}

/// One citation with its court history, for the clerk.
pub async fn citation(
    pool: &Pool,
    zone: &TownZone,
    number: &str,
    now: Moment,
) -> Result<CourtCitation, AppError> {
    let row: CourtRowSql =
        sqlx::query_as(&format!("{COURT_ROW} WHERE c.number = $1 AND {AT_COURT}"))
            .bind(number.trim())
            .fetch_optional(pool)
            .await?
            .ok_or(AppError::NotFound)?;
    #[derive(sqlx::FromRow)]
    struct Money {
        disposition_on: Option<String>,
        hearing_on: Option<String>,
        fine_assessed_cents: Option<i64>,
        costs_assessed_cents: Option<i64>,
        paid_cents: Option<i64>,
        offence: String,
        fine_cents: i64,
    }
    let money: Money = sqlx::query_as(
        "SELECT disposition_on, hearing_on, fine_assessed_cents, costs_assessed_cents, paid_cents, \
         offence, fine_cents FROM citation WHERE number = $1",
    )
    .bind(number.trim())
    .fetch_one(pool)
    .await?;
    let events: Vec<(i64, String, String, String)> = sqlx::query_as(
        "SELECT e.at, u.full_name, e.kind, e.details FROM court_event e JOIN app_user u ON u.user_id = e.actor_id \
         WHERE e.number = $1 ORDER BY e.at, e.event_id",
    )
    .bind(number.trim())
    .fetch_all(pool)
    .await?;
    // A decision recorded over a final one carries the decision it replaced
    // and the reason, as the record (issue #37: only "Dismissed on …" showed).
    let mut last_final: Option<(DispositionKind, String)> = None;
    let history = events
        .into_iter()
        .map(|(at, actor, kind, details)| {
            let disposition = DispositionKind::from_code(&kind);
            let mut words = describe(&details);
            if let Some(now) = disposition {
                if let Some((was, on)) = &last_final {
                    words = [
                        words,
                        format!("replacing “{}” of {on}", was.label()),
                        reason_of(&details)
                            .map(|r| format!("reason: {r}"))
                            .unwrap_or_default(),
                    ]
                    .into_iter()
                    .filter(|w| !w.is_empty())
                    .collect::<Vec<_>>()
                    .join("; ");
                }
                if now.is_final() {
                    last_final = Some((now, decided_on(&details)));
                }
            }
            CourtEventView {
                at_text: zone.date_time(Moment(at)),
                actor,
                kind: disposition.map_or_else(
                    || "Filed with the court".to_owned(),
                    |k| k.label().to_owned(),
                ),
                details: words,
            }
        })
        .collect();
    Ok(CourtCitation {
        row: court_row(row, zone)?,
        disposition_on: money.disposition_on,
        hearing_on: money.hearing_on,
        fine_cents: money.fine_assessed_cents,
        costs_cents: money.costs_assessed_cents,
        paid_cents: money.paid_cents,
        history,
        today: zone.date(now),
        charged: charged_penalty(&money.offence, money.fine_cents)?,
    })
}

/// The reason a disposition's details give, if any.
fn reason_of(details: &str) -> Option<String> {
    serde_json::from_str::<serde_json::Value>(details)
        .ok()?
        .get("reason")?
        .as_str()
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_owned)
}

/// The date of the decision a disposition's details record.
fn decided_on(details: &str) -> String {
    serde_json::from_str::<serde_json::Value>(details)
        .ok()
        .and_then(|v| v.get("on")?.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// A court event's details in words.
fn describe(details: &str) -> String {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(details) else {
        return String::new();
    };
    let text = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_owned);
    let money = |k: &str| v.get(k).and_then(serde_json::Value::as_i64).map(dollars);
    [
        text("filed_on").map(|d| format!("filed {d}")),
        text("reference").map(|r| format!("reference {r}")),
        text("on").map(|d| format!("on {d}")),
        text("hearing_on").map(|d| format!("hearing {d}")),
        money("paid_cents").map(|m| format!("paid {m}")),
        money("fine_cents").map(|m| format!("fine {m}")),
        money("costs_cents").map(|m| format!("costs {m}")),
        text("court_words").map(|w| format!("the court: “{w}”")),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ")
}
