//! Reading reports for the chief: the review queue, the register (filtered,
//! keyset-paginated so page 1 000 is as fast as page 1) and the full report with
//! its history.

use crate::db::{Backend, Conn, Pool, Sql};
use uuid::Uuid;

use crate::incidents::{citations_of, gps_far, parse_uuid, subject_label, usual_fix};
use domain::actor::Actor;
use domain::error::AppError;
use domain::model::first_version::StoredReport;
use domain::model::incident::{CitationBrief, IdType};
use domain::model::incident::{CitationStatus, IncidentReport, ReportStatus};
use domain::model::review::{
    changes, CautionKind, Counted, DecisionView, OfficerOption, PreviousPage, RegisterCursor,
    RegisterPage, ReportFilter, ReportRow, ReportView, RevisionView, SubjectLine, CELLS_PER_DEGREE,
    REGISTER_COUNT_LIMIT,
};
use domain::ordinance::{Moment, Offence, Outcome};
use domain::town_time::TownZone;

/// The GPS grid cell of an incident's fix, in SQL: the same arithmetic as
/// `GpsCell::of` (the offsets keep both indexes positive, so the cast truncates
/// like `floor`, as Rust's `as` does).
pub fn cell_sql(backend: Backend) -> (String, String) {
    (
        backend.truncated(&format!("(i.gps_lat + 90.0) * {CELLS_PER_DEGREE:?}")),
        backend.truncated(&format!("(i.gps_lon + 180.0) * {CELLS_PER_DEGREE:?}")),
    )
}

/// Rows a register page holds.
pub const PAGE_ROWS: i64 = domain::model::review::REGISTER_PAGE_ROWS as i64;

/// Which way a register walk goes from its cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Walk {
    /// Older rows, newest first: a page after its cursor.
    Older,
    /// Newer rows, oldest first: the page before one (`previous`), and the
    /// reports on the pages before it.
    Newer,
}

impl Walk {
    /// The SQL order of the walk, by occurrence time then id.
    const fn order(self) -> &'static str {
        match self {
            Walk::Older => "DESC",
            Walk::Newer => "ASC",
        }
    }
}

/// The upper end of a case-insensitive prefix range: every text starting with
/// `prefix` sorts before it.
fn prefix_end(prefix: &str) -> String {
    format!("{prefix}\u{10FFFF}")
}

/// How a text search finds its incidents (see [`text_search`]).
#[derive(Debug, Clone, PartialEq, Eq)]
enum TextSearch {
    /// No text to search (or its incidents are already the page's).
    None,
    /// A citation number: one incident, by the number's index.
    Number,
    /// Three characters or more: any part of a name, description, place or
    /// number, through the full-text index (`register_text`), which gives the
    /// matches newest first ([`page_of_matches`]). The review queue, whose few
    /// submitted reports are walked anyway, checks each row instead.
    Part,
    /// The incidents of a page, found by [`page_of_matches`].
    Page(Vec<String>),
    /// A shorter text with few matches: fetched through the name and location
    /// indexes by prefix, then sorted.
    Sparse,
    /// A shorter text with many matches: the register's date order meets 50 of
    /// them soon, each row checked as it passes.
    Dense,
}

impl TextSearch {
    /// Whether the search's matches, not the date order, pick the rows.
    fn drives(&self) -> bool {
        matches!(self, TextSearch::Number | TextSearch::Sparse)
    }
}

/// Adds the filter's conditions (each one an index can serve) to a query over
/// `incident i`, in the order the query plans were measured with
/// (`server/tests/query_plans.rs`): the report's own columns, then the persons,
/// then the text searched.
fn push_filter(q: &mut Sql<'_>, filter: &ReportFilter, zone: &TownZone, search: &TextSearch) {
    push_status_and_period(q, filter, zone);
    push_report_facts(q, filter);
    push_decisions(q, filter);
    push_person(q, filter);
    push_text(q, filter, search);
}

/// Whose reports, in what state, between which Town dates.
fn push_status_and_period(q: &mut Sql<'_>, filter: &ReportFilter, zone: &TownZone) {
    if let Some(status) = filter.status {
        q.push(" AND i.status = ").push_bind(status.code());
    }
    if let Some(officer) = filter.officer {
        q.push(" AND i.officer_id = ")
            .push_bind(officer.to_string());
    }
    // Town dates are also asked as a range of `occurred_at`, which the register's
    // own order (incident_occurred, incident_officer_occurred) walks straight to:
    // a month's first page is 51 index steps, not a sort of the whole month. `+`
    // keeps SQLite from choosing local_date's index, which would mean that sort.
    if let Some(from) = filter.from.clone().filter(|f| !f.is_empty()) {
        if let Some(start) = zone.start_of_day(&from) {
            q.push(" AND i.occurred_at >= ").push_bind(start.0);
        }
        q.push(format!(
            " AND {} >= ",
            q.backend().unindexed("i.local_date")
        ))
        .push_bind(from);
    }
    if let Some(to) = filter.to.clone().filter(|t| !t.is_empty()) {
        if let Some(end) = zone.start_of_next_day(&to) {
            q.push(" AND i.occurred_at < ").push_bind(end.0);
        }
        q.push(format!(
            " AND {} <= ",
            q.backend().unindexed("i.local_date")
        ))
        .push_bind(to);
    }
}

/// What the report records: cautions, §52-1 E, the Town hour and weekday, the
/// place.
fn push_report_facts(q: &mut Sql<'_>, filter: &ReportFilter) {
    if let Some(caution) = filter.caution {
        // The literal (a fixed code, never input) and this exact expression are
        // what SQLite matches to the caution's partial index (migration 0009).
        q.push(format!(
            " AND ' ' || i.cautions || ' ' LIKE '% {} %'",
            caution.code()
        ));
    }
    if let Some(p) = filter.protected {
        q.push(" AND i.protected_activity = ").push_bind(p.code());
    }
    if let Some(hour) = filter.hour {
        q.push(" AND i.local_hour = ").push_bind(i64::from(hour));
    }
    if let Some(day) = filter.weekday {
        q.push(" AND i.local_weekday = ").push_bind(i64::from(day));
    }
    if let Some(location) = filter.location.clone() {
        q.push(" AND i.location_text = ")
            .push_bind(location)
            .push(" COLLATE NOCASE");
    }
    if let Some(cell) = filter.cell {
        let (lat, lon) = cell_sql(q.backend());
        q.push(format!(" AND {lat} = "))
            .push_bind(cell.lat_index)
            .push(format!(" AND {lon} = "))
            .push_bind(cell.lon_index);
    }
}

/// Whether a citation stands, and what the chief decided.
fn push_decisions(q: &mut Sql<'_>, filter: &ReportFilter) {
    if let Some(cited) = filter.cited {
        q.push(if cited { " AND EXISTS" } else { " AND NOT EXISTS" }).push(
            " (SELECT 1 FROM citation c WHERE c.incident_id = i.incident_id AND c.status <> 'void')",
        );
    }
    if let Some(kind) = filter.decided {
        q.push(
            " AND EXISTS (SELECT 1 FROM review_decision d WHERE d.incident_id = i.incident_id \
             AND d.action = ",
        )
        .push_bind(kind.code())
        .push(")");
    }
}

/// Conditions one person of the report must meet together.
fn push_person(q: &mut Sql<'_>, filter: &ReportFilter) {
    // One person must match every person-level condition: "a person perceived as
    // 18–24 who was cited", not one of each.
    let person: Vec<(&str, &'static str)> = [
        ("outcome", filter.outcome.map(Outcome::code)),
        ("perceived_age", filter.age.map(|a| a.code())),
        ("perceived_sex", filter.sex.map(|a| a.code())),
        ("perceived_race", filter.race.map(|a| a.code())),
        ("response", filter.response.map(|r| r.code())),
    ]
    .into_iter()
    .filter_map(|(column, code)| code.map(|c| (column, c)))
    .collect();
    if !person.is_empty() || filter.offence.is_some() {
        q.push(
            " AND EXISTS (SELECT 1 FROM subject s WHERE s.incident_id = i.incident_id \
             AND s.withdrawn_at IS NULL",
        );
        // `column` is one of the fixed names above, never input.
        for (column, code) in person {
            q.push(format!(" AND s.{column} = ")).push_bind(code);
        }
        // Perception is a person's: an organisation (§52-12) has none, as the
        // dashboard's perception figures count persons only.
        if filter.age.is_some() || filter.sex.is_some() || filter.race.is_some() {
            q.push(" AND s.organisation = 0");
        }
        // Any of the offences charged to the person (`charge`), not only the first.
        if let Some(offence) = filter.offence {
            q.push(" AND EXISTS (SELECT 1 FROM charge ch WHERE ch.subject_id = s.subject_id AND ch.offence = ")
                .push_bind(offence.code())
                .push(")");
        }
        q.push(")");
    }
}

/// The text searched: a citation number, a name, a description or a place.
fn push_text(q: &mut Sql<'_>, filter: &ReportFilter, search: &TextSearch) {
    let text = filter.text.as_deref().map(str::trim).unwrap_or_default();
    // A number or a rare text names a candidate set of incidents by primary key,
    // which the register then sorts (see `text_search`): scanning all incidents
    // newest first for a rare name would read every row. A common text is
    // checked row by row instead: collecting its 100 000 matches first would
    // take a second for the 50 shown.
    match search {
        TextSearch::None => {}
        TextSearch::Number => {
            q.push(" AND i.incident_id = (SELECT incident_id FROM citation WHERE number = ")
                .push_bind(text.to_ascii_uppercase())
                .push(")");
        }
        TextSearch::Page(ids) => {
            q.push(" AND i.incident_id IN (SELECT value FROM ")
                .push_json_rows(ids_json(ids))
                .push(")");
        }
        TextSearch::Part => {
            // Any part of a name, a description, the place or a number, checked
            // as the rows pass (LIKE folds ASCII case, as the index does).
            let pattern = format!("%{}%", like_escaped(text));
            let like = q.backend().like();
            q.push(format!(" AND (i.location_text {like} "))
                .push_bind(pattern.clone())
                .push(format!(
                    " ESCAPE '\\' OR EXISTS (SELECT 1 FROM subject t WHERE t.incident_id = i.incident_id \
                     AND t.withdrawn_at IS NULL AND COALESCE(t.full_name, t.description) {like} "
                ))
                .push_bind(pattern.clone())
                .push(format!(
                    " ESCAPE '\\') OR EXISTS (SELECT 1 FROM citation n WHERE n.incident_id = i.incident_id \
                     AND n.number {like} "
                ))
                .push_bind(pattern)
                .push(" ESCAPE '\\'))");
        }
        TextSearch::Dense => {
            q.push(" AND (i.location_text COLLATE NOCASE >= ")
                .push_bind(text.to_owned())
                .push(" AND i.location_text COLLATE NOCASE < ")
                .push_bind(prefix_end(text))
                .push(
                    " OR EXISTS (SELECT 1 FROM subject t WHERE t.incident_id = i.incident_id \
                     AND t.full_name COLLATE NOCASE >= ",
                )
                .push_bind(text.to_owned())
                .push(" AND t.full_name COLLATE NOCASE < ")
                .push_bind(prefix_end(text))
                .push("))");
        }
        TextSearch::Sparse => {
            q.push(
                " AND i.incident_id IN (SELECT incident_id FROM subject \
                 WHERE full_name COLLATE NOCASE >= ",
            )
            .push_bind(text.to_owned())
            .push(" AND full_name COLLATE NOCASE < ")
            .push_bind(prefix_end(text))
            .push(" UNION SELECT incident_id FROM incident WHERE location_text COLLATE NOCASE >= ")
            .push_bind(text.to_owned())
            .push(" AND location_text COLLATE NOCASE < ")
            .push_bind(prefix_end(text))
            .push(")");
        }
    }
}

/// Incident ids as a JSON array, for `json_each`.
fn ids_json(ids: &[String]) -> String {
    serde_json::to_string(ids).unwrap_or_else(|_| "[]".to_owned())
}

#[derive(sqlx::FromRow)]
struct Row {
    incident_id: String,
    revision: i64,
    status: String,
    occurred_at: i64,
    submitted_at: i64,
    location_text: String,
    cautions: String,
    officer_name: String,
    officer_badge: Option<String>,
}

impl Row {
    /// The row as a cursor: pages go on from here.
    fn cursor(&self) -> Result<RegisterCursor, AppError> {
        Ok(RegisterCursor {
            occurred_at: self.occurred_at,
            incident_id: parse_uuid(&self.incident_id)?,
        })
    }
}

/// A page's rows: first the page's incident ids, chosen from `incident` alone by
/// walking the index `page_index` names (pushed between these two), then each
/// incident and its officer looked up by key. The plan cannot depend on what
/// SQLite's statistics say (issue #22): `INDEXED BY` names the index the page
/// walks, and `CROSS JOIN` keeps the lookups in that order. Left to itself, with
/// statistics saying a dozen officers file two thousand incidents each, SQLite
/// started from the officers and sorted every incident for a page of 50.
const PAGE_COLUMNS: &str =
    "SELECT i.incident_id, i.revision, i.status, i.occurred_at, i.submitted_at, \
     i.location_text, i.cautions, u.full_name AS officer_name, u.badge_number AS officer_badge \
     FROM (";
fn page_rows_before(backend: Backend, index: &str) -> String {
    format!(
        "SELECT i.incident_id FROM incident i{}",
        backend.indexed_by(index)
    )
}

fn page_rows_after(backend: Backend) -> String {
    let join = backend.join_in_order();
    format!(
        ") AS page {join} incident i ON i.incident_id = page.incident_id \
         {join} app_user u ON u.user_id = i.officer_id"
    )
}

/// The index a register page walks, newest first: the narrowest one whose order
/// is the register's (occurrence time, then id) under the filter's equalities.
/// Every other condition is checked on the rows as they pass.
fn date_order_index(filter: &ReportFilter) -> &'static str {
    if filter.officer.is_some() {
        "incident_officer_occurred"
    } else if let Some(caution) = filter.caution {
        caution_index(caution)
    } else if filter.weekday.is_some() && filter.hour.is_some() {
        "incident_weekday_hour"
    } else {
        "incident_occurred"
    }
}

/// Each caution's partial index (migrations 0009, 0013 and 0031), in date order.
const fn caution_index(caution: CautionKind) -> &'static str {
    match caution {
        CautionKind::Expression => "incident_caution_expression",
        CautionKind::Speech => "incident_caution_speech",
        CautionKind::StatusWords => "incident_caution_status_words",
        CautionKind::EarlyRefusal => "incident_caution_early_refusal",
        CautionKind::GpsFar => "incident_caution_gps_far",
        CautionKind::Annoyance => "incident_caution_annoyance",
        CautionKind::ArrestAuthority => "incident_caution_arrest_authority",
        CautionKind::Contravening => "incident_caution_contravening",
        CautionKind::TwoSections => "incident_caution_two_sections",
        CautionKind::Minor => "incident_caution_minor",
        CautionKind::Unidentified => "incident_caution_unidentified",
    }
}

pub fn officer_label(name: &str, badge: Option<&str>) -> String {
    match badge {
        Some(b) if !b.is_empty() => format!("{name} (badge {b})"),
        _ => name.to_owned(),
    }
}

/// The current persons of a report, each with the offences charged, their
/// citations (one per offence cited) and their details; and when the report's
/// first citation still standing was issued.
async fn subject_lines(
    conn: &mut Conn,
    incident_id: &str,
) -> Result<(Vec<SubjectLine>, Option<i64>), AppError> {
    type LineRow = (
        String,
        i64,
        Option<String>,
        Option<String>,
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    let sql = format!(
        "SELECT s.subject_id, s.identified, s.full_name, s.description, s.outcome, \
         (SELECT {} FROM charge ch WHERE ch.subject_id = s.subject_id), \
         s.date_of_birth, s.address, s.id_type, s.id_number \
         FROM subject s WHERE s.incident_id = $1 AND s.withdrawn_at IS NULL ORDER BY s.position",
        Backend::of(conn).joined("ch.offence", " ")
    );
    let rows: Vec<LineRow> = sqlx::query_as(&sql)
        .bind(incident_id)
        .fetch_all(&mut *conn)
        .await?;
    let citations: Vec<(String, String, String, String, i64, i64)> = sqlx::query_as(
        "SELECT subject_id, number, offence, status, arrest, issued_at FROM citation \
         WHERE incident_id = $1 ORDER BY seq",
    )
    .bind(incident_id)
    .fetch_all(&mut *conn)
    .await?;
    let first_issued = citations
        .iter()
        .filter(|c| c.3 != CitationStatus::Void.code())
        .map(|c| c.5)
        .min();
    let lines = rows
        .into_iter()
        .map(
            |(
                subject_id,
                identified,
                name,
                description,
                outcome,
                offences,
                dob,
                address,
                id_type,
                id_number,
            )| {
                let label = subject_label(identified, name, description);
                let citations = citations
                    .iter()
                    .filter(|c| c.0 == subject_id)
                    .map(|(_, number, offence, status, arrest, _)| {
                        Ok(CitationBrief {
                            number: number.clone(),
                            subject: label.clone(),
                            offence: Offence::from_code(offence).ok_or(AppError::Internal)?,
                            status: CitationStatus::from_code(status).ok_or(AppError::Internal)?,
                            arrest: *arrest == 1,
                        })
                    })
                    .collect::<Result<_, AppError>>()?;
                let id_document = id_number.filter(|n| !n.trim().is_empty()).map(|n| {
                    let kind = id_type
                        .as_deref()
                        .and_then(IdType::from_code)
                        .map_or("ID", IdType::label);
                    format!("{kind} {n}")
                });
                let details: Vec<String> = [dob.map(|d| format!("Born {d}")), address, id_document]
                    .into_iter()
                    .flatten()
                    .collect();
                Ok(SubjectLine {
                    label,
                    outcome: Outcome::from_code(&outcome).ok_or(AppError::Internal)?,
                    offences: offences
                        .unwrap_or_default()
                        .split_whitespace()
                        .filter_map(Offence::from_code)
                        .collect(),
                    citations,
                    details: (!details.is_empty()).then(|| details.join(" · ")),
                })
            },
        )
        .collect::<Result<_, AppError>>()?;
    Ok((lines, first_issued))
}

async fn report_rows(
    conn: &mut Conn,
    rows: Vec<Row>,
    zone: &TownZone,
) -> Result<Vec<ReportRow>, AppError> {
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let (subjects, first_issued) = subject_lines(conn, &r.incident_id).await?;
        out.push(ReportRow {
            incident_id: parse_uuid(&r.incident_id)?,
            revision: r.revision,
            status: ReportStatus::from_code(&r.status).ok_or(AppError::Internal)?,
            officer: officer_label(&r.officer_name, r.officer_badge.as_deref()),
            occurred_text: zone.date_time(Moment(r.occurred_at)),
            submitted_text: zone.date_time(Moment(r.submitted_at)),
            location: r.location_text,
            subjects,
            cautions: r
                .cautions
                .split_whitespace()
                .filter_map(CautionKind::from_code)
                .collect(),
            filing_deadline: first_issued
                .map(|at| zone.date_after(Moment(at), domain::ordinance::FILING_DAYS)),
        });
    }
    Ok(out)
}

/// How many reports wait for the chief, counted up to the queue's limit (the
/// queue lists no more): the start page says "200 or more" as the queue does.
/// Counted in the status index, stopping at the limit.
pub async fn waiting(pool: &Pool) -> Result<usize, AppError> {
    let (n,): (i64,) = sqlx::query_as(&format!(
        "SELECT COUNT(*) FROM (SELECT 1 FROM incident WHERE status = 'submitted' LIMIT {}) AS w",
        domain::model::review::QUEUE_LIMIT
    ))
    .fetch_one(pool)
    .await?;
    Ok(n.max(0) as usize)
}

/// Submitted reports waiting for the chief, oldest first (at most 200: a queue
/// longer than that is a staffing problem, and the filters narrow it).
pub async fn queue(
    pool: &Pool,
    filter: &ReportFilter,
    zone: &TownZone,
) -> Result<Vec<ReportRow>, AppError> {
    let mut conn = pool.acquire().await?;
    let filter = ReportFilter {
        status: Some(ReportStatus::Submitted),
        ..filter.clone()
    };
    let search = text_search(&mut conn, &filter).await?;
    let mut q = Sql::new(Backend::of(&conn), "");
    push_queue(&mut q, &filter, zone, search);
    let rows: Vec<Row> = q.build_query_as()?.fetch_all(&mut *conn).await?;
    report_rows(&mut conn, rows, zone).await
}

/// The queue's query: submitted reports in the order they came (`incident_status`).
fn push_queue(q: &mut Sql<'_>, filter: &ReportFilter, zone: &TownZone, search: TextSearch) {
    let backend = q.backend();
    q.push(PAGE_COLUMNS)
        .push(page_rows_before(backend, "incident_status"))
        .push(" WHERE 1 = 1");
    push_filter(q, filter, zone, &search);
    q.push(" ORDER BY i.submitted_at, i.incident_id LIMIT ")
        .push(domain::model::review::QUEUE_LIMIT.to_string())
        .push(page_rows_after(backend))
        .push(" ORDER BY i.submitted_at, i.incident_id");
}

/// Matches from which a text search is "common": walking the register in date
/// order meets 50 of them sooner than fetching and sorting them all. Walking
/// costs about 50 × incidents ⁄ matches rows, fetching about `matches` lookups;
/// they cross near √(50 × incidents) (7 000 at 1 000 000 incidents). Never below
/// 500, where either way is a few milliseconds.
pub fn dense_from(incidents: i64) -> i64 {
    ((50.0 * incidents.max(0) as f64).sqrt() as i64).max(500)
}

/// A whole citation number: found by its own index.
fn is_citation_number(text: &str) -> bool {
    domain::model::court::is_citation_number(&text.to_ascii_uppercase())
}

/// Whether a text is long enough to be found anywhere in a name, place or
/// number: the trigram index (`register_text`, migration 0014) needs three
/// characters; a shorter one finds the start of a name or place.
fn by_part(text: &str) -> bool {
    text.chars().count() >= 3
}

/// `text` as one FTS5 phrase: every character literal.
fn phrase(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// `text` for a LIKE pattern with `\` as the escape.
fn like_escaped(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

/// How the filter's text search, if any, should find its rows.
async fn text_search(conn: &mut Conn, filter: &ReportFilter) -> Result<TextSearch, AppError> {
    let Some(text) = filter
        .text
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
    else {
        return Ok(TextSearch::None);
    };
    if is_citation_number(text) {
        return Ok(TextSearch::Number);
    }
    if by_part(text) {
        return Ok(TextSearch::Part);
    }
    // SQLite: the largest rowid counts incidents (none is ever deleted) in one
    // step. PostgreSQL: its statistics' estimate, which is all a threshold needs.
    let incidents: i64 = sqlx::query_scalar(match Backend::of(conn) {
        Backend::Sqlite => "SELECT COALESCE(MAX(rowid), 0) FROM incident",
        Backend::Postgres => {
            "SELECT CAST(GREATEST(reltuples, 0) AS BIGINT) FROM pg_class WHERE oid = 'incident'::regclass"
        }
    })
    .fetch_one(&mut *conn)
    .await?;
    let dense = dense_from(incidents);
    // Counted in the indexes alone, and no further than the threshold.
    let matches: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM subject WHERE full_name COLLATE NOCASE >= $1 \
                 AND full_name COLLATE NOCASE < $2 LIMIT $3) AS names) \
              + (SELECT COUNT(*) FROM (SELECT 1 FROM incident WHERE location_text COLLATE NOCASE >= $1 \
                 AND location_text COLLATE NOCASE < $2 LIMIT $3) AS places)",
    )
    .bind(text)
    .bind(prefix_end(text))
    .bind(dense)
    .fetch_one(&mut *conn)
    .await?;
    Ok(if matches < dense {
        TextSearch::Sparse
    } else {
        TextSearch::Dense
    })
}

/// One page of the register, newest occurrence first.
pub async fn register(
    pool: &Pool,
    filter: &ReportFilter,
    after: Option<RegisterCursor>,
    zone: &TownZone,
) -> Result<RegisterPage, AppError> {
    let mut conn = pool.acquire().await?;
    let search = text_search(&mut conn, filter).await?;
    let mut rows = walk(&mut conn, filter, after, zone, &search, Walk::Older).await?;
    let next = if rows.len() as i64 > PAGE_ROWS {
        rows.truncate(PAGE_ROWS as usize);
        rows.last().map(Row::cursor).transpose()?
    } else {
        None
    };
    // The way back and the page's place start from its first row; on a page
    // emptied since its link was made, from its cursor, which was the last
    // row of the page before and belongs on it again.
    let emptied = rows.is_empty();
    let (previous, before) = match rows.first().map(Row::cursor).transpose()?.or(after) {
        Some(first) if after.is_some() => {
            let newer = walk(&mut conn, filter, Some(first), zone, &search, Walk::Newer).await?;
            let reach = PAGE_ROWS as usize - usize::from(emptied);
            let previous = match newer.get(reach) {
                Some(row) => Some(PreviousPage::After(row.cursor()?)),
                None if newer.is_empty() && !emptied => None,
                None => Some(PreviousPage::First),
            };
            // The rows just walked are a count already when they are all.
            let before = if newer.len() <= reach {
                Counted::Exactly(newer.len() as u64)
            } else {
                count(&mut conn, filter, Some(first), zone, &search)
                    .await?
                    .at_least(newer.len() as u64)
            };
            (previous, before)
        }
        _ => (None, Counted::Exactly(0)),
    };
    let shown = before.n() + rows.len() as u64;
    Ok(RegisterPage {
        rows: report_rows(&mut conn, rows, zone).await?,
        next,
        previous,
        before,
        total: count(&mut conn, filter, None, zone, &search)
            .await?
            .at_least(shown),
    })
}

/// A register page's rows (`PAGE_ROWS` + 1, to know whether another page
/// exists) from `from`, either way: older ones newest first, or newer ones
/// oldest first.
async fn walk(
    conn: &mut Conn,
    filter: &ReportFilter,
    from: Option<RegisterCursor>,
    zone: &TownZone,
    search: &TextSearch,
    walk: Walk,
) -> Result<Vec<Row>, AppError> {
    let search = match search {
        TextSearch::Part => {
            TextSearch::Page(page_of_matches(conn, filter, from, zone, walk).await?)
        }
        other => other.clone(),
    };
    let mut q = Sql::new(Backend::of(conn), "");
    push_register(&mut q, filter, from, zone, search, walk);
    Ok(q.build_query_as()?.fetch_all(&mut *conn).await?)
}

/// Incidents a count reads at most where the walk's index does not answer the
/// filter alone: a rare condition (a §52-2 person, say) would otherwise read
/// every incident in the period for every page shown. Past it the count is a
/// floor.
const COUNT_WALK: i64 = 20_000;

/// The reports the filter finds (newer than `newer_than`, if given), counted
/// along the same index as the page, up to one past `REGISTER_COUNT_LIMIT`
/// and, where each row must be read to be counted, in the `COUNT_WALK`
/// incidents nearest the cursor (or the newest).
async fn count(
    conn: &mut Conn,
    filter: &ReportFilter,
    newer_than: Option<RegisterCursor>,
    zone: &TownZone,
    search: &TextSearch,
) -> Result<Counted, AppError> {
    let bound = if index_counts(filter, search) {
        None
    } else {
        walk_bound(conn, filter, newer_than, zone).await?
    };
    let mut q = Sql::new(Backend::of(conn), "");
    push_count(&mut q, filter, newer_than, zone, search, bound);
    let (n,): (i64,) = q.build_query_as()?.fetch_one(&mut *conn).await?;
    let n = n.max(0) as u64;
    Ok(if n > REGISTER_COUNT_LIMIT || bound.is_some() {
        Counted::AtLeast(n)
    } else {
        Counted::Exactly(n)
    })
}

/// Whether a count reads no more rows than it counts, or few in all: the
/// walk's own index answers every condition but the period (whose rows are
/// the period's), or the search names its few incidents.
fn index_counts(filter: &ReportFilter, search: &TextSearch) -> bool {
    // The text is the search's (a blank one is none).
    let mut rest = ReportFilter {
        from: None,
        to: None,
        text: None,
        ..filter.clone()
    };
    match search {
        TextSearch::Number | TextSearch::Sparse => return true,
        // Any part of a text: its matches are walked in the full-text index,
        // each checked against the other filters, if there are any.
        TextSearch::Part => return rest == ReportFilter::default(),
        TextSearch::Dense | TextSearch::Page(_) => return false,
        TextSearch::None => {}
    }
    match date_order_index(filter) {
        "incident_officer_occurred" => rest.officer = None,
        "incident_weekday_hour" => (rest.weekday, rest.hour) = (None, None),
        "incident_occurred" => {}
        _ => rest.caution = None,
    }
    rest == ReportFilter::default()
}

/// The time of the `COUNT_WALK`th incident from the cursor (newer ones,
/// oldest first) or from the newest, within the period: a count goes no
/// further. `None` when there are fewer.
async fn walk_bound(
    conn: &mut Conn,
    filter: &ReportFilter,
    newer_than: Option<RegisterCursor>,
    zone: &TownZone,
) -> Result<Option<i64>, AppError> {
    let backend = Backend::of(conn);
    let mut q = Sql::new(
        backend,
        format!(
            "SELECT i.occurred_at FROM incident i{} WHERE 1 = 1",
            backend.indexed_by("incident_occurred")
        ),
    );
    if let Some(start) = filter.from.as_deref().and_then(|f| zone.start_of_day(f)) {
        q.push(" AND i.occurred_at >= ").push_bind(start.0);
    }
    if let Some(end) = filter.to.as_deref().and_then(|t| zone.start_of_next_day(t)) {
        q.push(" AND i.occurred_at < ").push_bind(end.0);
    }
    let walk = if newer_than.is_some() {
        Walk::Newer
    } else {
        Walk::Older
    };
    push_beyond(&mut q, newer_than, walk);
    q.push(order_by(walk))
        .push(" LIMIT 1 OFFSET ")
        .push_bind(COUNT_WALK);
    let at: Option<(i64,)> = q.build_query_as()?.fetch_optional(&mut *conn).await?;
    Ok(at.map(|(at,)| at))
}

/// [`count`]'s query; `bound` ends the walk at that time.
fn push_count(
    q: &mut Sql<'_>,
    filter: &ReportFilter,
    newer_than: Option<RegisterCursor>,
    zone: &TownZone,
    search: &TextSearch,
    bound: Option<i64>,
) {
    let backend = q.backend();
    q.push("SELECT COUNT(*) FROM (");
    // Where the bound ends the walk: no newer than it going up from a
    // cursor, no older going down from the newest.
    let side = if newer_than.is_some() { "<=" } else { ">=" };
    if *search == TextSearch::Part {
        // Each incident once, whether it matches by several entries or is still
        // waiting to enter the index. DISTINCT over UNION ALL, not UNION:
        // SQLite then stops at the limit instead of first collecting every
        // match of a common text.
        q.push("SELECT DISTINCT incident_id FROM (");
        push_match_rows(q, filter, newer_than, zone, Walk::Newer);
        if let Some(at) = bound {
            // The bound on the index's own order, so its walk stops there.
            let (side, at) = if newer_than.is_some() {
                ("<", (at + 1) * ENTRIES_PER_MS)
            } else {
                (">=", at * ENTRIES_PER_MS)
            };
            q.push(format!(" AND m.rowid {side} ")).push_bind(at);
        }
        q.push(" UNION ALL ");
        push_pending_rows(q, filter, newer_than, zone, Walk::Newer);
        if let Some(at) = bound {
            q.push(format!(" AND i.occurred_at {side} ")).push_bind(at);
        }
        q.push(") AS matched");
    } else {
        let index = register_index(filter, search);
        q.push(page_rows_before(backend, index))
            .push(" WHERE 1 = 1");
        push_filter(q, filter, zone, search);
        push_beyond(q, newer_than, Walk::Newer);
        if let Some(at) = bound {
            q.push(format!(" AND i.occurred_at {side} ")).push_bind(at);
        }
    }
    q.push(" LIMIT ")
        .push_bind(REGISTER_COUNT_LIMIT as i64 + 1)
        .push(") AS found");
}

/// A register page's query (`PAGE_ROWS` + 1 rows, to know whether another
/// page exists), walking `walk` from the cursor `from`.
fn push_register(
    q: &mut Sql<'_>,
    filter: &ReportFilter,
    from: Option<RegisterCursor>,
    zone: &TownZone,
    search: TextSearch,
    walk: Walk,
) {
    // A number or a rare text names its few incidents: they are sorted by date
    // in the index (incident_id, occurred_at) alone and only the page's rows are
    // read (migration 0011). Otherwise the page walks a date-order index.
    if search == TextSearch::Part {
        // Only `plan` gets here: a page's matches are walked first.
        push_matches(q, filter, from, zone, walk, FIRST_MATCHES);
        return;
    }
    q.push(PAGE_COLUMNS);
    if let TextSearch::Page(ids) = &search {
        // The page's incidents, already chosen: each looked up by key.
        let backend = q.backend();
        q.push("SELECT i.incident_id FROM ")
            .push_json_rows(ids_json(ids))
            .push(format!(
                " {} incident i ON i.incident_id = value",
                backend.join_in_order()
            ))
            .push(page_rows_after(backend))
            .push(order_by(walk));
        return;
    }
    let backend = q.backend();
    q.push(page_rows_before(backend, register_index(filter, &search)))
        .push(" WHERE 1 = 1");
    push_filter(q, filter, zone, &search);
    push_beyond(q, from, walk);
    q.push(order_by(walk))
        .push(" LIMIT ")
        .push_bind(PAGE_ROWS + 1)
        .push(page_rows_after(backend))
        .push(order_by(walk));
}

/// The register's order (occurrence time, then id), either way.
fn order_by(walk: Walk) -> String {
    let order = walk.order();
    format!(" ORDER BY i.occurred_at {order}, i.incident_id {order}")
}

/// The index a register walk takes: a number or a rare text names its few
/// incidents, found by key and sorted in (incident_id, occurred_at); otherwise
/// the date order.
fn register_index(filter: &ReportFilter, search: &TextSearch) -> &'static str {
    if search.drives() {
        "incident_id_occurred"
    } else {
        date_order_index(filter)
    }
}

/// Rows beyond the cursor the way the walk goes: older, or newer.
fn push_beyond(q: &mut Sql<'_>, from: Option<RegisterCursor>, walk: Walk) {
    if let Some(c) = from {
        let beyond = match walk {
            Walk::Older => "<",
            Walk::Newer => ">",
        };
        q.push(format!(" AND (i.occurred_at, i.incident_id) {beyond} ("))
            .push_bind(c.occurred_at)
            .push(", ")
            .push_bind(c.incident_id.to_string())
            .push(")");
    }
}

/// Full-text rows per millisecond: a `register_text` rowid is the incident's
/// time in milliseconds times this, plus the row's number (migration 0014).
const ENTRIES_PER_MS: i64 = 2_097_152;

/// How many matches a text search's walk asks for first: the page, the rest of
/// its last millisecond, and room for incidents that match more than once (a
/// place and a name). The LIMIT is what makes PostgreSQL walk its rowid index
/// newest first and stop (1.9 ms for a place in a fifth of 100 000 incidents)
/// rather than sort every trigram match (55 ms); FTS5 walks in rowid order anyway.
const FIRST_MATCHES: i64 = 4 * (PAGE_ROWS + 1);

/// A text's matches newest first, straight from the full-text index (its rowid
/// order is the register's, migration 0014), each incident looked up by key and
/// checked against the other filters. Date filters and the cursor bound the
/// walk itself.
fn push_matches(
    q: &mut Sql<'_>,
    filter: &ReportFilter,
    from: Option<RegisterCursor>,
    zone: &TownZone,
    walk: Walk,
    limit: i64,
) {
    push_match_rows(q, filter, from, zone, walk);
    q.push(format!(" ORDER BY m.rowid {} LIMIT ", walk.order()))
        .push_bind(limit);
}

/// A text's matches in the full-text index beyond the cursor, each incident
/// checked against the other filters, in no order.
fn push_match_rows(
    q: &mut Sql<'_>,
    filter: &ReportFilter,
    from: Option<RegisterCursor>,
    zone: &TownZone,
    walk: Walk,
) {
    let text = filter.text.as_deref().map(str::trim).unwrap_or_default();
    let backend = q.backend();
    q.push(format!(
        "SELECT i.occurred_at, i.incident_id FROM register_text m \
         {} incident i ON i.incident_id = m.incident_id WHERE ",
        backend.join_in_order()
    ));
    match backend {
        Backend::Sqlite => q.push("m.register_text MATCH ").push_bind(phrase(text)),
        // A trigram (GIN) index answers "contains", folding case as FTS5's
        // trigram tokenizer does.
        Backend::Postgres => q
            .push("m.text ILIKE ")
            .push_bind(format!("%{}%", like_escaped(text)))
            .push(" ESCAPE '\\'"),
    };
    let first_day = filter.from.as_deref().filter(|f| !f.is_empty());
    if let Some(start) = first_day.and_then(|f| zone.start_of_day(f)) {
        q.push(" AND m.rowid >= ")
            .push_bind(start.0 * ENTRIES_PER_MS);
    }
    let to = filter.to.as_deref().filter(|t| !t.is_empty());
    if let Some(end) = to.and_then(|t| zone.start_of_next_day(t)) {
        q.push(" AND m.rowid < ").push_bind(end.0 * ENTRIES_PER_MS);
    }
    match (from, walk) {
        (Some(c), Walk::Older) => {
            q.push(" AND m.rowid < ")
                .push_bind((c.occurred_at + 1) * ENTRIES_PER_MS);
        }
        (Some(c), Walk::Newer) => {
            q.push(" AND m.rowid >= ")
                .push_bind(c.occurred_at * ENTRIES_PER_MS);
        }
        (None, _) => {}
    }
    push_filter(q, filter, zone, &TextSearch::None);
    push_beyond(q, from, walk);
}

/// One walk of a text's matches the way `walk` goes (newest first, or oldest
/// first), at most `limit` of them: the page's incidents (each once) and the
/// rest of its last millisecond, or `None` when the limit cut the walk short (a
/// person with many entries, many matches in one millisecond) and it must go
/// further.
async fn walk_matches(
    conn: &mut Conn,
    filter: &ReportFilter,
    from: Option<RegisterCursor>,
    zone: &TownZone,
    walk: Walk,
    limit: i64,
) -> Result<Option<Vec<(i64, String)>>, AppError> {
    use futures_util::TryStreamExt;
    let want = (PAGE_ROWS + 1) as usize;
    let backend = Backend::of(conn);
    let mut q = Sql::new(backend, "");
    push_matches(&mut q, filter, from, zone, walk, limit);
    // On PostgreSQL each text is planned for its own pattern (an unnamed
    // statement): a prepared statement's generic plan cannot know how many
    // rows a pattern matches, and with the LIMIT it walked every entry for
    // a rare text (250 ms) where the trigram index finds it at once.
    let mut matches = q
        .build_query_as::<(i64, String)>()?
        .persistent(backend == Backend::Sqlite)
        .fetch(&mut *conn);
    let mut page: Vec<(i64, String)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut read = 0;
    while let Some((at, id)) = matches.try_next().await? {
        read += 1;
        // Past the millisecond of the page's last row: the page is complete.
        let past = |last: i64| match walk {
            Walk::Older => at < last,
            Walk::Newer => at > last,
        };
        if page.len() >= want && past(page[want - 1].0) {
            return Ok(Some(page));
        }
        if seen.insert(id.clone()) {
            page.push((at, id));
        }
    }
    // All the matches there are, unless the limit stopped them.
    Ok((read < limit).then_some(page))
}

/// The incidents of one register page for a text search: the matches come
/// newest first by the millisecond (within one, in no set order), so once the
/// page is full only the rest of its last millisecond can still belong on it,
/// and the walk stops there. The page is the first of those together with any
/// match still waiting to enter the index.
async fn page_of_matches(
    conn: &mut Conn,
    filter: &ReportFilter,
    from: Option<RegisterCursor>,
    zone: &TownZone,
    walk: Walk,
) -> Result<Vec<String>, AppError> {
    let want = (PAGE_ROWS + 1) as usize;
    let mut limit = FIRST_MATCHES;
    let mut page = loop {
        if let Some(page) = walk_matches(conn, filter, from, zone, walk, limit).await? {
            break page;
        }
        limit *= 4;
    };
    let mut seen: std::collections::HashSet<String> =
        page.iter().map(|(_, id)| id.clone()).collect();
    let mut q = Sql::new(Backend::of(conn), "");
    push_pending_rows(&mut q, filter, from, zone, walk);
    let waiting: Vec<(i64, String)> = q.build_query_as()?.fetch_all(&mut *conn).await?;
    page.extend(
        waiting
            .into_iter()
            .filter(|(_, id)| seen.insert(id.clone())),
    );
    match walk {
        Walk::Older => page.sort_unstable_by(|a, b| b.cmp(a)),
        Walk::Newer => page.sort_unstable(),
    }
    page.truncate(want);
    Ok(page.into_iter().map(|(_, id)| id).collect())
}

/// A text's matches among the rows a transaction has not yet moved into the
/// index (none, once every writer has flushed; see `register_text`), matched
/// the slow way, beyond the cursor.
fn push_pending_rows(
    q: &mut Sql<'_>,
    filter: &ReportFilter,
    from: Option<RegisterCursor>,
    zone: &TownZone,
    walk: Walk,
) {
    let text = filter.text.as_deref().map(str::trim).unwrap_or_default();
    let backend = q.backend();
    q.push(format!(
        "SELECT i.occurred_at, i.incident_id FROM register_pending p \
         {} incident i ON i.incident_id = p.incident_id WHERE p.text {} ",
        backend.join_in_order(),
        backend.like()
    ))
    .push_bind(format!("%{}%", like_escaped(text)))
    .push(" ESCAPE '\\'");
    push_filter(q, filter, zone, &TextSearch::None);
    push_beyond(q, from, walk);
}

/// Which hot query's plan to show (`plan`).
#[derive(Debug, Clone, Copy)]
pub enum HotQuery<'a> {
    /// A register page under this filter (the first page, or after a cursor).
    Register(&'a ReportFilter, Option<RegisterCursor>),
    /// The walk back from a register page's first row to the page before.
    RegisterBack(&'a ReportFilter, RegisterCursor),
    /// The count of a filter's reports (newer than a cursor, if given).
    RegisterCount(&'a ReportFilter, Option<RegisterCursor>),
    /// The chief's review queue under this filter.
    Queue(&'a ReportFilter),
}

/// SQLite's plan for a hot query, one line per step (`EXPLAIN QUERY PLAN`, its
/// `detail` column, indented by depth): what the plan tests hold to walking an
/// index, never scanning or sorting a table.
pub async fn plan(
    pool: &Pool,
    query: HotQuery<'_>,
    zone: &TownZone,
) -> Result<Vec<String>, AppError> {
    let mut conn = pool.acquire().await?;
    let mut q = Sql::new(Backend::Sqlite, "EXPLAIN QUERY PLAN ");
    match query {
        HotQuery::Register(filter, after) => {
            let search = text_search(&mut conn, filter).await?;
            push_register(&mut q, filter, after, zone, search, Walk::Older);
        }
        HotQuery::RegisterBack(filter, from) => {
            let search = text_search(&mut conn, filter).await?;
            push_register(&mut q, filter, Some(from), zone, search, Walk::Newer);
        }
        HotQuery::RegisterCount(filter, newer_than) => {
            let search = text_search(&mut conn, filter).await?;
            push_count(&mut q, filter, newer_than, zone, &search, None);
        }
        HotQuery::Queue(filter) => {
            let filter = ReportFilter {
                status: Some(ReportStatus::Submitted),
                ..filter.clone()
            };
            let search = text_search(&mut conn, &filter).await?;
            push_queue(&mut q, &filter, zone, search);
        }
    }
    let rows: Vec<(i64, i64, i64, String)> = q.build_query_as()?.fetch_all(&mut *conn).await?;
    Ok(indented(rows))
}

/// `EXPLAIN QUERY PLAN` rows (id, parent, _, detail) as lines indented by depth.
pub(crate) fn indented(rows: Vec<(i64, i64, i64, String)>) -> Vec<String> {
    let mut depth: std::collections::HashMap<i64, usize> = std::collections::HashMap::new();
    rows.into_iter()
        .map(|(id, parent, _, detail)| {
            let d = depth.get(&parent).map_or(0, |d| d + 1);
            depth.insert(id, d);
            format!("{}{detail}", "  ".repeat(d))
        })
        .collect()
}

/// Everyone who holds the officer role or has ever filed a report, by name.
pub async fn officers(pool: &Pool) -> Result<Vec<OfficerOption>, AppError> {
    let rows: Vec<(String, String, Option<String>)> = sqlx::query_as(
        "SELECT u.user_id, u.full_name, u.badge_number FROM app_user u \
         WHERE EXISTS (SELECT 1 FROM user_role r WHERE r.user_id = u.user_id AND r.role = 'officer') \
            OR EXISTS (SELECT 1 FROM incident i WHERE i.officer_id = u.user_id) \
         ORDER BY u.full_name COLLATE NOCASE",
    )
    .fetch_all(pool)
    .await?;
    rows.into_iter()
        .map(|(id, name, badge)| {
            Ok(OfficerOption {
                user_id: parse_uuid(&id)?,
                label: officer_label(&name, badge.as_deref()),
            })
        })
        .collect()
}

/// The full report with its revisions and the chief's decisions. The chief reads
/// any; an officer only their own (others are told it does not exist).
pub async fn report(
    pool: &Pool,
    incident_id: Uuid,
    viewer: &Actor,
    zone: &TownZone,
) -> Result<ReportView, AppError> {
    let mut conn = pool.acquire().await?;
    let id = incident_id.to_string();
    type Head = (
        String,
        String,
        i64,
        i64,
        i64,
        Option<String>,
        String,
        String,
        Option<String>,
        String,
    );
    let head: Head = sqlx::query_as(
        "SELECT i.officer_id, i.status, i.revision, i.occurred_at, i.submitted_at, i.return_reason, \
         i.report_json, u.full_name, u.badge_number, i.cautions FROM incident i \
         JOIN app_user u ON u.user_id = i.officer_id WHERE i.incident_id = $1",
    )
    .bind(&id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or(AppError::NotFound)?;
    let (
        officer_id,
        status,
        revision,
        occurred_at,
        submitted_at,
        return_reason,
        json,
        name,
        badge,
        stored_cautions,
    ) = head;
    if !viewer.may_read_report(&officer_id) {
        return Err(AppError::NotFound);
    }
    let report: IncidentReport = serde_json::from_str(&json).map_err(|_| AppError::Internal)?;
    type RevRow = (i64, i64, String, Option<String>, String, String);
    let revisions: Vec<RevRow> = sqlx::query_as(
        "SELECT r.revision, r.at, r.kind, r.reason, r.report_json, u.full_name FROM incident_revision r \
         JOIN app_user u ON u.user_id = r.actor_id WHERE r.incident_id = $1 ORDER BY r.revision",
    )
    .bind(&id)
    .fetch_all(&mut *conn)
    .await?;
    // The current revision as stored: a report still in the first version's shape
    // reads and prints as it did.
    let stored = revisions
        .iter()
        .find(|r| r.0 == revision)
        .map(|r| StoredReport::parse(&r.4))
        .transpose()
        .map_err(|_| AppError::Internal)?
        .unwrap_or_else(|| StoredReport::Current(report.clone()));
    let mut cautions: Vec<String> = match &stored {
        // The first version's cautions, as the record stored them when decided.
        StoredReport::First(_) => stored_cautions
            .split_whitespace()
            .filter_map(CautionKind::from_code)
            .filter(|k| *k != CautionKind::GpsFar)
            .map(|k| k.label().to_owned())
            .collect(),
        StoredReport::Current(current) => {
            let verdicts = domain::model::incident::verdicts(current, Moment(submitted_at));
            domain::model::incident::cautions(current, &verdicts)
                .iter()
                .map(domain::ordinance::Caution::message)
                .chain(
                    domain::model::review::record_cautions(current)
                        .into_iter()
                        .map(|(_, words)| words),
                )
                .collect()
        }
    };
    if let Some(metres) = gps_far(&mut conn, &report).await? {
        let usual = usual_fix(&mut conn, &report.location.text, &id).await?;
        cautions.push(format!(
            "The GPS fix is {:.1} km from where earlier reports at “{}” were made{} — check the typed location.",
            metres / 1000.0,
            report.location.text.trim(),
            usual
                .map(|(lat, lon)| format!(" ({lat:.4}, {lon:.4})"))
                .unwrap_or_default()
        ));
    }

    let mut history = Vec::with_capacity(revisions.len());
    let mut previous: Option<(IncidentReport, serde_json::Value)> = None;
    for (rev, at, kind, reason, rjson, actor) in revisions {
        // Each revision in the current shape, so a change across the move to
        // per-person facts shows as what changed, not as everything moved.
        let version = StoredReport::parse(&rjson)
            .map_err(|_| AppError::Internal)?
            .current();
        let value = serde_json::to_value(&version).map_err(|_| AppError::Internal)?;
        history.push(RevisionView {
            revision: rev,
            at_text: zone.date_time(Moment(at)),
            actor,
            kind,
            reason,
            changes: previous
                .as_ref()
                .map(|(before, p)| {
                    documents::history::describe(changes(p, &value), before, &version, zone)
                })
                .unwrap_or_default(),
        });
        previous = Some((version, value));
    }
    type DecRow = (i64, String, i64, Option<String>, Option<String>, String);
    let decisions: Vec<DecRow> = sqlx::query_as(
        "SELECT d.at, d.action, d.revision, d.citation, d.reason, u.full_name FROM review_decision d \
         JOIN app_user u ON u.user_id = d.actor_id WHERE d.incident_id = $1 ORDER BY d.at, d.decision_id",
    )
    .bind(&id)
    .fetch_all(&mut *conn)
    .await?;

    Ok(ReportView {
        incident_id,
        revision,
        status: ReportStatus::from_code(&status).ok_or(AppError::Internal)?,
        officer: officer_label(&name, badge.as_deref()),
        occurred_text: zone.date_time(Moment(occurred_at)),
        submitted_text: zone.date_time(Moment(submitted_at)),
        return_reason,
        subjects: subject_lines(&mut conn, &id).await?.0,
        citations: citations_of(&mut conn, &id).await?,
        photos: crate::photos::list(&mut *conn, &id).await?,
        withdrawals: crate::withdrawals::list(pool, zone, crate::withdrawals::Which::Of(&id))
            .await?,
        record: documents::record::record_lines(&stored, zone),
        report,
        cautions,
        history,
        decisions: decisions
            .into_iter()
            .map(
                |(at, action, revision, citation, reason, actor)| DecisionView {
                    at_text: zone.date_time(Moment(at)),
                    actor,
                    action,
                    revision,
                    citation,
                    reason,
                },
            )
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #37, finding 18: a count reads past what it counts only where the
    /// walk's index cannot answer the filter, and only there is it bounded.
    #[test]
    fn only_a_count_the_index_cannot_answer_is_bounded() {
        let f = ReportFilter::default;
        let officer = Some(Uuid::nil());
        let answered = [
            f(),
            ReportFilter { officer, ..f() },
            ReportFilter {
                caution: Some(CautionKind::Expression),
                ..f()
            },
            ReportFilter {
                weekday: Some(5),
                hour: Some(22),
                ..f()
            },
            ReportFilter {
                from: Some("2026-07-01".into()),
                to: Some("2026-07-31".into()),
                ..f()
            },
        ];
        for filter in answered {
            assert!(index_counts(&filter, &TextSearch::None), "{filter:?}");
        }
        let read = [
            ReportFilter {
                offence: Some(Offence::LoiteringObstruction),
                ..f()
            },
            ReportFilter {
                officer,
                caution: Some(CautionKind::Expression),
                ..f()
            },
            ReportFilter {
                hour: Some(22),
                ..f()
            },
            ReportFilter {
                status: Some(ReportStatus::Submitted),
                ..f()
            },
        ];
        for filter in read {
            assert!(!index_counts(&filter, &TextSearch::None), "{filter:?}");
        }
        assert!(!index_counts(&f(), &TextSearch::Dense));
        let text = |t: &str| ReportFilter {
            text: Some(t.into()),
            ..f()
        };
        assert!(index_counts(&text("street"), &TextSearch::Part));
        let rare = ReportFilter {
            offence: Some(Offence::LoiteringObstruction),
            ..text("street")
        };
        assert!(!index_counts(&rare, &TextSearch::Part));
        // A blank text is no search, and no condition.
        assert!(index_counts(&text("  "), &TextSearch::None));
    }
}
