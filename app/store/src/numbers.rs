//! Blocks of citation numbers for phones without signal, and the account of
//! every number of a year (issue #17; `model::numbers` says why).
//!
//! The year's sequence (§52-4 citations, DESIGN §3: gapless within the year)
//! now hands out numbers two ways: one at a time, to a citation stored online
//! (`incidents::issue_citation`), and ten at a time, to a phone's block. Both
//! take the next number after the highest citation and the highest block of
//! the year, in the transaction that stores them, so the year's numbers stay
//! 1…n. A number of a block ends as exactly one of: a citation, `void` (handed
//! out for a report the server refused), or `returned` (never handed out) —
//! the database refuses a number that would be two of these (migration 0016).

use crate::db::{Backend, Conn, Pool};
use std::time::Duration;

use sqlx::FromRow;
use uuid::Uuid;

use crate::audit::{self, Event};
use crate::Store;
use domain::actor::Actor;
use domain::clock::{Clock, SystemClock};
use domain::error::AppError;
use domain::model::audit::AuditOutcome;
use domain::model::incident::IncidentReport;
use domain::model::numbers::{
    citation_number, parse_number, HandedNumber, NumberAccount, NumberBlock, ReservedRun,
    SpentNumber, BLOCK_SIZE, EXPIRE_AFTER_MS, MAX_OPEN_BLOCKS, USE_FOR_MS,
};
use domain::ordinance::Moment;
use domain::town_time::TownZone;

/// The officer whose report this is, and the clock and court it is issued under.
#[derive(Debug, Clone, Copy)]
pub struct Issuing<'a> {
    pub officer: &'a Actor,
    pub source: Option<&'a str>,
    pub now: Moment,
    pub zone: &'a TownZone,
}

/// The next number of `year` in SQL: after every citation and every block of
/// the year. Bind: the year. Both maxima read the end of an index.
pub(crate) fn next_seq(backend: Backend) -> String {
    format!(
        "(SELECT {}(COALESCE((SELECT MAX(seq) FROM citation WHERE year = $2), 0), \
         COALESCE((SELECT MAX(last_seq) FROM number_block WHERE year = $2), 0)) + 1)",
        backend.greatest()
    )
}

/// Why no block was reserved.
#[derive(Debug)]
pub enum Reserve {
    /// The officer already holds `MAX_OPEN_BLOCKS` usable blocks.
    AllHeld,
    Failed(AppError),
}

impl<E: Into<AppError>> From<E> for Reserve {
    fn from(e: E) -> Reserve {
        Reserve::Failed(e.into())
    }
}

/// Reserves the next block of the year's numbers for the officer's phone.
pub async fn reserve(store: &Store, issuing: Issuing<'_>) -> Result<NumberBlock, Reserve> {
    let officer = issuing.officer;
    let now = issuing.now;
    let mut tx = store.begin_write().await?;
    let mut events = expire_in(&mut tx, now).await?;
    let held: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM number_block WHERE officer_id = $1 AND settled_at IS NULL AND use_until > $2",
    )
    .bind(officer.user_id.to_string())
    .bind(now.0)
    .fetch_one(&mut *tx)
    .await?;
    if held >= MAX_OPEN_BLOCKS {
        // The blocks just expired stay expired.
        audit::append_all(&mut tx, &mut None, now, &events).await?;
        tx.commit().await?;
        return Err(Reserve::AllHeld);
    }
    let year = issuing.zone.year(now);
    // A block never crosses into the next year: its numbers say the year.
    let year_end = issuing
        .zone
        .start_of_day(&format!("{:04}-01-01", year + 1))
        .unwrap_or(Moment(i64::MAX));
    let use_until = Moment((now.0 + USE_FOR_MS).min(year_end.0));
    let block_id = Uuid::now_v7();
    let (first_seq, last_seq): (i64, i64) = sqlx::query_as(&format!(
        "INSERT INTO number_block (block_id, year, first_seq, last_seq, officer_id, reserved_at, use_until, \
         officer_signature_id) \
         SELECT $1, $2, next.seq, next.seq + $3 - 1, $4, $5, $6, ({}) FROM (SELECT {} AS seq) AS next \
         RETURNING first_seq, last_seq",
        crate::signatures::in_force_id("$4", "$5"),
        next_seq(Backend::of(&tx))
    ))
    .bind(block_id.to_string())
    .bind(i64::from(year))
    .bind(BLOCK_SIZE)
    .bind(officer.user_id.to_string())
    .bind(now.0)
    .bind(use_until.0)
    .fetch_one(&mut *tx)
    .await?;
    let court = crate::settings::court_in(&mut tx).await?;
    let officer_signature =
        crate::signatures::in_force(&mut *tx, &officer.user_id.to_string(), now).await?;
    events.push(
        Event::new("numbers.reserve", AuditOutcome::Success)
            .by(Some(officer), issuing.source)
            .on("number_block", block_id)
            .after(serde_json::json!({
                "first": citation_number(year, first_seq),
                "last": citation_number(year, last_seq),
                "use_until": use_until.0,
            })),
    );
    audit::append_all(&mut tx, &mut None, now, &events).await?;
    tx.commit().await?;
    Ok(NumberBlock {
        block_id,
        year,
        first_seq,
        last_seq,
        use_until,
        court,
        officer_name: officer.full_name.clone(),
        officer_badge: officer.badge_number.clone().unwrap_or_default(),
        officer_signature,
        town_zone: issuing.zone.name().to_owned(),
    })
}

/// The phone gives back the numbers of a block it has not handed out (signing
/// out, or taking a new block). `keep` are numbers it handed out for reports
/// still on the phone: they stay reserved until those arrive. Returns how many
/// numbers came back; a second call returns none.
pub async fn give_back(
    store: &Store,
    issuing: Issuing<'_>,
    block_id: Uuid,
    keep: &[String],
) -> Result<i64, AppError> {
    let officer = issuing.officer;
    let mut tx = store.begin_write().await?;
    let block: Option<BlockRow> = sqlx::query_as(&format!(
        "{BLOCK_SELECT} WHERE block_id = $1 AND officer_id = $2"
    ))
    .bind(block_id.to_string())
    .bind(officer.user_id.to_string())
    .fetch_optional(&mut *tx)
    .await?;
    let block = block.ok_or(AppError::NotFound)?;
    if block.settled_at.is_some() {
        return Ok(0);
    }
    let keep: Vec<i64> = keep
        .iter()
        .filter_map(|n| parse_number(n))
        .filter(|&(year, seq)| block.contains(year, seq))
        .map(|(_, seq)| seq)
        .collect();
    let reason = "Not handed out: the phone gave the block back";
    let returned = return_rest(&mut tx, &block, &keep, reason, Some(officer), issuing.now).await?;
    let unsettled =
        i64::try_from(unaccounted(&mut tx, block.range()).await?.len()).unwrap_or(i64::MAX);
    sqlx::query(
        "UPDATE number_block SET returned_at = COALESCE(returned_at, $1), \
         settled_at = CASE WHEN $2 = 0 THEN $1 ELSE settled_at END WHERE block_id = $3",
    )
    .bind(issuing.now.0)
    .bind(unsettled)
    .bind(&block.block_id)
    .execute(&mut *tx)
    .await?;
    let event = Event::new("numbers.return", AuditOutcome::Success)
        .by(Some(officer), issuing.source)
        .on("number_block", &block.block_id)
        .after(serde_json::json!({ "returned": returned, "still_reserved": unsettled }));
    audit::append(&mut tx, issuing.now, &event).await?;
    tx.commit().await?;
    Ok(returned)
}

impl Store {
    /// Returns, every hour, the numbers of blocks phones never brought back
    /// (`expire`), so the year's account shows them returned without
    /// waiting for the next officer to reserve a block.
    pub fn expire_number_blocks(&self) {
        let store = self.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(3600));
            loop {
                every.tick().await;
                let now = SystemClock.now();
                if let Err(error) = expire(&store, now).await {
                    tracing::warn!(%error, "expiring number blocks failed");
                }
            }
        });
    }
}

/// Returns the numbers of every block `EXPIRE_AFTER_MS` past its last use that
/// no report brought back: the phone is lost, or its reports were never sent.
/// Run by `reserve`, by the server every hour, and by tests at a chosen clock.
pub async fn expire(store: &Store, now: Moment) -> Result<usize, AppError> {
    let mut tx = store.begin_write().await?;
    let events = expire_in(&mut tx, now).await?;
    audit::append_all(&mut tx, &mut None, now, &events).await?;
    tx.commit().await?;
    Ok(events.len())
}

async fn expire_in(conn: &mut Conn, now: Moment) -> Result<Vec<Event>, AppError> {
    let stale: Vec<BlockRow> = sqlx::query_as(&format!(
        "{BLOCK_SELECT}{} WHERE settled_at IS NULL AND use_until <= $1",
        Backend::of(conn).indexed_by("number_block_unsettled")
    ))
    .bind(now.0 - EXPIRE_AFTER_MS)
    .fetch_all(&mut *conn)
    .await?;
    let mut events = Vec::with_capacity(stale.len());
    for block in stale {
        let reason = "Not brought back: the block expired a week after its last day of use";
        let returned = return_rest(&mut *conn, &block, &[], reason, None, now).await?;
        sqlx::query("UPDATE number_block SET settled_at = $1 WHERE block_id = $2")
            .bind(now.0)
            .bind(&block.block_id)
            .execute(&mut *conn)
            .await?;
        events.push(
            Event::new("numbers.expire", AuditOutcome::Success)
                .on("number_block", &block.block_id)
                .after(serde_json::json!({ "returned": returned })),
        );
    }
    Ok(events)
}

const BLOCK_SELECT: &str =
    "SELECT block_id, year, first_seq, last_seq, officer_id, settled_at FROM number_block";

#[derive(FromRow)]
struct BlockRow {
    block_id: String,
    year: i64,
    first_seq: i64,
    last_seq: i64,
    officer_id: String,
    settled_at: Option<i64>,
}

impl BlockRow {
    fn contains(&self, year: i16, seq: i64) -> bool {
        i64::from(year) == self.year && (self.first_seq..=self.last_seq).contains(&seq)
    }
}

/// The numbers of `block` in neither `citation` nor `number_spent`, in SQL.
/// Binds: ?1 year, ?2 first, ?3 last.
const UNACCOUNTED: &str = "WITH RECURSIVE n(seq) AS (SELECT $2 UNION ALL SELECT seq + 1 FROM n WHERE seq < $3) \
     SELECT seq FROM n WHERE NOT EXISTS (SELECT 1 FROM citation c WHERE c.year = $1 AND c.seq = n.seq) \
     AND NOT EXISTS (SELECT 1 FROM number_spent s WHERE s.year = $1 AND s.seq = n.seq)";

/// The numbers `first..=last` of `year` not yet a citation, void or returned.
async fn unaccounted(
    conn: &mut Conn,
    (year, first, last): (i64, i64, i64),
) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(UNACCOUNTED)
        .bind(year)
        .bind(first)
        .bind(last)
        .fetch_all(&mut *conn)
        .await
}

impl BlockRow {
    fn range(&self) -> (i64, i64, i64) {
        (self.year, self.first_seq, self.last_seq)
    }
}

/// Records as returned every number of `block` not yet accounted for, except
/// `keep`. Returns how many.
async fn return_rest(
    conn: &mut Conn,
    block: &BlockRow,
    keep: &[i64],
    reason: &str,
    by: Option<&Actor>,
    now: Moment,
) -> Result<i64, sqlx::Error> {
    let year = i16::try_from(block.year).unwrap_or_default();
    let mut returned = 0;
    for seq in unaccounted(&mut *conn, block.range())
        .await?
        .into_iter()
        .filter(|s| !keep.contains(s))
    {
        spend(
            &mut *conn,
            Spent {
                year,
                seq,
                block_id: &block.block_id,
                state: "returned",
                reason,
                handed: None,
                by,
                now,
            },
        )
        .await?;
        returned += 1;
    }
    Ok(returned)
}

struct Spent<'a> {
    year: i16,
    seq: i64,
    block_id: &'a str,
    state: &'static str,
    reason: &'a str,
    /// For a void number: the report and the person it was handed to.
    handed: Option<(Uuid, Uuid)>,
    by: Option<&'a Actor>,
    now: Moment,
}

async fn spend(conn: &mut Conn, s: Spent<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO number_spent (year, seq, number, block_id, state, reason, incident_id, subject_id, at, actor_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(i64::from(s.year))
    .bind(s.seq)
    .bind(citation_number(s.year, s.seq))
    .bind(s.block_id)
    .bind(s.state)
    .bind(s.reason)
    .bind(s.handed.map(|(i, _)| i.to_string()))
    .bind(s.handed.map(|(_, p)| p.to_string()))
    .bind(s.now.0)
    .bind(s.by.map(|a| a.user_id.to_string()))
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// What became of a number a phone handed out, once its report is here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Handed {
    /// Free: the citation takes it.
    Take {
        year: i16,
        seq: i64,
        block_id: String,
    },
    /// Already void or returned (its block expired before the report came), or
    /// somehow a citation already: the citation gets a new number, and the
    /// audit says which number the subject's copy carries.
    Renumber { why: String },
}

/// Checks a number the report says the phone handed out: it must be one of the
/// officer's blocks (else the report is refused: a phone cannot make numbers
/// up).
pub(crate) async fn handed(
    conn: &mut Conn,
    officer: &Actor,
    handed: &HandedNumber,
) -> Result<Handed, AppError> {
    let refuse = |why: &str| {
        AppError::invalid(
            "numbers",
            format!(
                "Citation number {} {why}; the report is not stored. Send it again without the number.",
                handed.number.trim()
            ),
        )
    };
    let (year, seq) = parse_number(&handed.number).ok_or_else(|| refuse("is not a number"))?;
    let block: Option<BlockRow> = sqlx::query_as(&format!(
        "{BLOCK_SELECT} WHERE year = $1 AND first_seq <= $2 ORDER BY first_seq DESC LIMIT 1"
    ))
    .bind(i64::from(year))
    .bind(seq)
    .fetch_optional(&mut *conn)
    .await?;
    let block = block
        .filter(|b| b.contains(year, seq) && b.officer_id == officer.user_id.to_string())
        .ok_or_else(|| refuse("was not reserved for you"))?;
    let spent: Option<(String, String)> =
        sqlx::query_as("SELECT state, reason FROM number_spent WHERE year = $1 AND seq = $2")
            .bind(i64::from(year))
            .bind(seq)
            .fetch_optional(&mut *conn)
            .await?;
    if let Some((state, reason)) = spent {
        return Ok(Handed::Renumber {
            why: format!("{} was already {state} ({reason})", handed.number.trim()),
        });
    }
    let cited: Option<String> =
        sqlx::query_scalar("SELECT number FROM citation WHERE year = $1 AND seq = $2")
            .bind(i64::from(year))
            .bind(seq)
            .fetch_optional(&mut *conn)
            .await?;
    if cited.is_some() {
        return Ok(Handed::Renumber {
            why: format!("{} is already another citation", handed.number.trim()),
        });
    }
    Ok(Handed::Take {
        year,
        seq,
        block_id: block.block_id,
    })
}

/// Records `number` void: handed out on scene for a person the server did not
/// cite with it. Part of the submission's transaction.
pub(crate) async fn void_in(
    conn: &mut Conn,
    issuing: Issuing<'_>,
    report: &IncidentReport,
    handed: &HandedNumber,
    reason: &str,
) -> Result<Option<Event>, AppError> {
    let Handed::Take {
        year,
        seq,
        block_id,
    } = self::handed(&mut *conn, issuing.officer, handed).await?
    else {
        return Ok(None);
    };
    spend(
        &mut *conn,
        Spent {
            year,
            seq,
            block_id: &block_id,
            state: "void",
            reason,
            handed: Some((report.incident_id, handed.subject_id)),
            by: Some(issuing.officer),
            now: issuing.now,
        },
    )
    .await?;
    Ok(Some(
        Event::new("numbers.void", AuditOutcome::Success)
            .by(Some(issuing.officer), issuing.source)
            .on("citation_number", citation_number(year, seq))
            .after(serde_json::json!({
                "incident_id": report.incident_id,
                "subject_id": handed.subject_id,
                "offence": handed.offence.code(),
                "reason": reason,
            })),
    ))
}

/// The server refused a report whose citations the phone had already numbered
/// on scene: those numbers are void, with the refusal as the reason, and never
/// used again. Numbers not the officer's, or already accounted for, are left as
/// they are. Returns the numbers voided now.
pub async fn void_refused(
    store: &Store,
    issuing: Issuing<'_>,
    report: &IncidentReport,
    refusal: &AppError,
) -> Result<Vec<String>, AppError> {
    let reason = format!("Report refused by the server: {refusal}");
    let mut tx = store.begin_write().await?;
    let mut events = Vec::new();
    let mut voided = Vec::new();
    // No more than one per person and offence (a longer list is refused, and
    // is not worked through on the one writer).
    let most = report.subjects.len() * domain::ordinance::Offence::ALL.len();
    for handed in report.numbers.iter().take(most) {
        match void_in(&mut tx, issuing, report, handed, &reason).await {
            Ok(Some(event)) => {
                voided.push(handed.number.trim().to_owned());
                events.push(event);
            }
            Ok(None) | Err(AppError::Invalid { .. }) => {}
            Err(other) => return Err(other),
        }
    }
    audit::append_all(&mut tx, &mut None, issuing.now, &events).await?;
    tx.commit().await?;
    Ok(voided)
}

/// Every number of `year`, accounted for (the clerk's queue and the register
/// show it).
pub async fn account(pool: &Pool, year: i16, zone: &TownZone) -> Result<NumberAccount, AppError> {
    // One read transaction: one snapshot, so a citation committed between
    // two of these counts cannot make the account look unbalanced.
    let mut conn = pool.begin().await?;
    let y = i64::from(year);
    let (issued, last_cited): (i64, Option<i64>) =
        sqlx::query_as("SELECT COUNT(*), MAX(seq) FROM citation WHERE year = $1")
            .bind(y)
            .fetch_one(&mut *conn)
            .await?;
    let last_block: Option<i64> =
        sqlx::query_scalar("SELECT MAX(last_seq) FROM number_block WHERE year = $1")
            .bind(y)
            .fetch_one(&mut *conn)
            .await?;
    let spent: Vec<(String, i64)> =
        sqlx::query_as("SELECT state, COUNT(*) FROM number_spent WHERE year = $1 GROUP BY state")
            .bind(y)
            .fetch_all(&mut *conn)
            .await?;
    let count_of = |state: &str| {
        spent
            .iter()
            .find(|(s, _)| s == state)
            .map_or(0, |(_, n)| *n)
    };
    // Every void, whatever voided it (issue #37): a citation the chief voided
    // or a correction stopped citing, and a number voided on submission.
    let voided_citations: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM citation WHERE year = $1 AND status = 'void'")
            .bind(y)
            .fetch_one(&mut *conn)
            .await?;
    let voids: Vec<(String, String, i64, Option<String>, i64)> = sqlx::query_as(
        "SELECT v.number, v.reason, v.at, u.full_name, v.citation FROM ( \
           SELECT number, reason, at, actor_id, 0 AS citation FROM number_spent \
             WHERE year = $1 AND state = 'void' \
           UNION ALL \
           SELECT number, COALESCE(void_reason, ''), COALESCE(voided_at, updated_at), voided_by, 1 \
             FROM citation WHERE year = $1 AND status = 'void' \
         ) v LEFT JOIN app_user u ON u.user_id = v.actor_id \
         ORDER BY v.at DESC, v.number DESC LIMIT 50",
    )
    .bind(y)
    .fetch_all(&mut *conn)
    .await?;
    let open: Vec<(i64, i64, i64, String)> = sqlx::query_as(
        "SELECT b.first_seq, b.last_seq, b.use_until, u.full_name FROM number_block b \
         JOIN app_user u ON u.user_id = b.officer_id WHERE b.year = $1 AND b.settled_at IS NULL \
         ORDER BY b.first_seq",
    )
    .bind(y)
    .fetch_all(&mut *conn)
    .await?;
    let mut reserved_runs = Vec::new();
    let mut reserved = 0;
    for (first_seq, last_seq, use_until, officer) in open {
        let seqs = unaccounted(&mut conn, (y, first_seq, last_seq)).await?;
        if let (Some(first), Some(last)) = (seqs.first(), seqs.last()) {
            let count = i64::try_from(seqs.len()).unwrap_or(i64::MAX);
            reserved += count;
            reserved_runs.push(ReservedRun {
                officer,
                first: citation_number(year, *first),
                last: citation_number(year, *last),
                count,
                use_until_text: zone.date_time(Moment(use_until)),
            });
        }
    }
    let last = last_cited.unwrap_or(0).max(last_block.unwrap_or(0));
    // A number in no citation, no spent row and no block would be a gap. Only
    // looked for when the counts do not add up (the usual case reads no more).
    let (voided, returned) = (count_of("void"), count_of("returned"));
    let missing = if issued + voided + returned + reserved == last {
        Vec::new()
    } else {
        missing_numbers(&mut conn, year, last).await?
    };
    Ok(NumberAccount {
        year,
        last,
        issued,
        voided,
        returned,
        reserved,
        voided_citations,
        voids: voids
            .into_iter()
            .map(|(number, reason, at, by, citation)| SpentNumber {
                number,
                state: "void".to_owned(),
                reason,
                at_text: zone.date_time(Moment(at)),
                by: by.unwrap_or_default(),
                citation: citation == 1,
            })
            .collect(),
        reserved_runs,
        missing,
    })
}

async fn missing_numbers(
    conn: &mut Conn,
    year: i16,
    last: i64,
) -> Result<Vec<String>, sqlx::Error> {
    let seqs: Vec<i64> = sqlx::query_scalar(
        "WITH RECURSIVE n(seq) AS (SELECT 1 UNION ALL SELECT seq + 1 FROM n WHERE seq < $2) \
         SELECT seq FROM n WHERE NOT EXISTS (SELECT 1 FROM citation c WHERE c.year = $1 AND c.seq = n.seq) \
         AND NOT EXISTS (SELECT 1 FROM number_spent s WHERE s.year = $1 AND s.seq = n.seq) \
         AND NOT EXISTS (SELECT 1 FROM number_block b WHERE b.year = $1 AND n.seq BETWEEN b.first_seq AND b.last_seq \
                         AND b.settled_at IS NULL) LIMIT 100",
    )
    .bind(i64::from(year))
    .bind(last)
    .fetch_all(&mut *conn)
    .await?;
    Ok(seqs.into_iter().map(|s| citation_number(year, s)).collect())
}
