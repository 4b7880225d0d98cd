//! The tamper-evident audit log (CJIS AU-2, AU-3, AU-9).
//!
//! Entries are appended inside the same transaction as the change they record, so
//! a change and its audit entry commit or fail together. Each entry's hash is
//! SHA-256 over the previous entry's hash and this entry's canonical form; the
//! database triggers refuse UPDATE and DELETE, and [`verify`] detects any edit made
//! around them (a byte changed in the file, a row removed).

use crate::db::{Backend, Conn, Pool, Sql};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use sqlx::FromRow;

use crate::Store;
use domain::actor::Actor;
use domain::error::AppError;
use domain::model::audit::{AuditEntryView, AuditOutcome, AuditPage, AuditQuery};
use domain::ordinance::Moment;

/// The `prev_hash` of the first entry.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Rows a page of the audit log shows.
pub const PAGE_SIZE: i64 = 100;

/// What happened, for one entry.
#[derive(Debug, Clone)]
pub struct Event {
    pub actor: Option<Actor>,
    /// Client address, or `cli` for the command line.
    pub source: Option<String>,
    pub action: &'static str,
    pub entity_type: Option<&'static str>,
    pub entity_id: Option<String>,
    pub outcome: AuditOutcome,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

impl Event {
    pub fn new(action: &'static str, outcome: AuditOutcome) -> Event {
        Event {
            actor: None,
            source: None,
            action,
            entity_type: None,
            entity_id: None,
            outcome,
            before: None,
            after: None,
        }
    }

    pub fn by(mut self, actor: Option<&Actor>, source: Option<&str>) -> Event {
        self.actor = actor.cloned();
        self.source = source.map(str::to_owned);
        self
    }

    pub fn on(mut self, entity_type: &'static str, entity_id: impl ToString) -> Event {
        self.entity_type = Some(entity_type);
        self.entity_id = Some(entity_id.to_string());
        self
    }

    pub fn before(mut self, value: impl Serialize) -> Event {
        self.before = serde_json::to_value(value).ok();
        self
    }

    pub fn after(mut self, value: impl Serialize) -> Event {
        self.after = serde_json::to_value(value).ok();
        self
    }
}

/// The fields the hash covers, in a fixed order. Changing this struct changes every
/// hash: it is part of the on-disk format.
#[derive(Serialize)]
struct Canonical<'a> {
    seq: i64,
    at: i64,
    actor_id: Option<&'a str>,
    actor_name: Option<&'a str>,
    actor_roles: &'a str,
    source: Option<&'a str>,
    action: &'a str,
    entity_type: Option<&'a str>,
    entity_id: Option<&'a str>,
    outcome: &'a str,
    before_json: Option<&'a str>,
    after_json: Option<&'a str>,
}

#[derive(Debug, Clone, FromRow)]
struct Row {
    seq: i64,
    at: i64,
    actor_id: Option<String>,
    actor_name: Option<String>,
    actor_roles: String,
    source: Option<String>,
    action: String,
    entity_type: Option<String>,
    entity_id: Option<String>,
    outcome: String,
    before_json: Option<String>,
    after_json: Option<String>,
    prev_hash: String,
    hash: String,
}

impl Row {
    fn canonical(&self) -> Canonical<'_> {
        Canonical {
            seq: self.seq,
            at: self.at,
            actor_id: self.actor_id.as_deref(),
            actor_name: self.actor_name.as_deref(),
            actor_roles: &self.actor_roles,
            source: self.source.as_deref(),
            action: &self.action,
            entity_type: self.entity_type.as_deref(),
            entity_id: self.entity_id.as_deref(),
            outcome: &self.outcome,
            before_json: self.before_json.as_deref(),
            after_json: self.after_json.as_deref(),
        }
    }

    fn view(self) -> AuditEntryView {
        AuditEntryView {
            action_text: domain::model::audit::action_text(&self.action),
            seq: self.seq,
            at: Moment(self.at),
            at_text: String::new(),
            actor: self.actor_name,
            actor_roles: self.actor_roles,
            source: self.source,
            action: self.action,
            entity_type: self.entity_type,
            entity_id: self.entity_id,
            outcome: AuditOutcome::from_code(&self.outcome).unwrap_or(AuditOutcome::Failure),
            before: self.before_json,
            after: self.after_json,
            hash: self.hash,
            record_text: None,
            before_lines: Vec::new(),
            after_lines: Vec::new(),
        }
    }
}

/// Fills a page's words for people (issue #16: the log showed record ids and raw
/// JSON): times in the Town's zone, each record by the name a person knows it
/// by, before and after as lines.
pub async fn readable(
    pool: &Pool,
    page: &mut AuditPage,
    zone: &domain::town_time::TownZone,
) -> Result<(), AppError> {
    let mut conn = pool.acquire().await?;
    for entry in &mut page.entries {
        entry.at_text = zone.date_time(entry.at);
        let time = |ms: i64| zone.date_time(Moment(ms));
        entry.before_lines = entry
            .before
            .as_deref()
            .map(|j| domain::model::audit::json_lines(j, &time))
            .unwrap_or_default();
        entry.after_lines = entry
            .after
            .as_deref()
            .map(|j| domain::model::audit::json_lines(j, &time))
            .unwrap_or_default();
        // A change shows what changed, not every field twice (the JSON stays whole).
        (entry.before_lines, entry.after_lines) = domain::model::audit::changed_lines(
            std::mem::take(&mut entry.before_lines),
            std::mem::take(&mut entry.after_lines),
        );
        let id = entry.entity_id.clone().unwrap_or_default();
        entry.record_text = match entry.entity_type.as_deref() {
            None => None,
            Some("user") => Some(
                sqlx::query_scalar::<_, String>("SELECT username FROM app_user WHERE user_id = $1")
                    .bind(&id)
                    .fetch_optional(&mut *conn)
                    .await?
                    .map_or_else(|| format!("user {id}"), |name| format!("user {name}")),
            ),
            Some("incident") => Some(
                sqlx::query_as::<_, (String, i64)>(
                    "SELECT location_text, occurred_at FROM incident WHERE incident_id = $1",
                )
                .bind(&id)
                .fetch_optional(&mut *conn)
                .await?
                .map_or_else(
                    || format!("incident {id}"),
                    |(place, at)| format!("incident at {place}, {}", zone.date_time(Moment(at))),
                ),
            ),
            Some("citation") => Some(format!("citation {id}")),
            Some("export_batch") => Some(
                entry
                    .after_lines
                    .iter()
                    .find_map(|l| l.strip_prefix("file: ").map(|f| format!("export {f}")))
                    .unwrap_or_else(|| format!("export batch {id}")),
            ),
            Some("permission") => Some(format!("permission to {}", id.replace('_', " "))),
            Some("setting") => Some(format!("{id} settings")),
            Some(other) => Some(format!("{} {id}", other.replace('_', " "))),
        };
    }
    Ok(())
}

fn chain_hash(prev_hash: &str, canonical: &Canonical<'_>) -> String {
    let mut hasher = Sha256::new();
    hasher.update(prev_hash.as_bytes());
    // serde_json writes struct fields in declaration order with no whitespace.
    hasher.update(serde_json::to_vec(canonical).unwrap_or_default());
    hex::encode(hasher.finalize())
}

/// Appends one entry inside the caller's write transaction; returns its sequence
/// number. The caller holds the write lock (`BEGIN IMMEDIATE`), so reading the last
/// hash and inserting the next entry cannot interleave with another writer.
pub async fn append(conn: &mut Conn, at: Moment, event: &Event) -> Result<i64, sqlx::Error> {
    append_all(conn, &mut None, at, std::slice::from_ref(event)).await
}

/// The newest entry of the chain: what the next entry follows.
#[derive(Debug, Clone)]
pub struct Head {
    seq: i64,
    hash: String,
}

impl Row {
    /// The entry `event` makes at `seq` after `prev_hash`, hashed.
    fn follow(seq: i64, prev_hash: String, at: Moment, event: &Event) -> Row {
        let mut row = Row {
            seq,
            at: at.0,
            actor_id: event.actor.as_ref().map(|a| a.user_id.to_string()),
            actor_name: event.actor.as_ref().map(|a| a.username.clone()),
            actor_roles: event
                .actor
                .as_ref()
                .map(|a| a.roles_text())
                .unwrap_or_default(),
            source: event.source.clone(),
            action: event.action.to_owned(),
            entity_type: event.entity_type.map(str::to_owned),
            entity_id: event.entity_id.clone(),
            outcome: event.outcome.code().to_owned(),
            before_json: event.before.as_ref().map(Value::to_string),
            after_json: event.after.as_ref().map(Value::to_string),
            prev_hash,
            hash: String::new(),
        };
        row.hash = chain_hash(&row.prev_hash, &row.canonical());
        row
    }
}

/// Appends `events` in order, chained, in one statement (one round trip however
/// many). When the caller holds `head` — the entry it appended last in this same
/// write transaction — the chain follows it instead of reading the newest entry
/// back (a round trip on the write path); `head` is then the last of `events`. Returns the
/// last one's sequence number (0 when `events` is empty).
pub async fn append_all(
    conn: &mut Conn,
    head: &mut Option<Head>,
    at: Moment,
    events: &[Event],
) -> Result<i64, sqlx::Error> {
    if events.is_empty() {
        return Ok(head.as_ref().map_or(0, |h| h.seq));
    }
    let last = match head.take() {
        Some(h) => Some((h.seq, h.hash)),
        None => {
            sqlx::query_as("SELECT seq, hash FROM audit_entry ORDER BY seq DESC LIMIT 1")
                .fetch_optional(&mut *conn)
                .await?
        }
    };
    let (mut seq, mut prev_hash) = match last {
        Some((seq, hash)) => (seq + 1, hash),
        None => (1, GENESIS.to_owned()),
    };
    let mut entries = Vec::with_capacity(events.len());
    for event in events {
        let entry = Row::follow(seq, prev_hash, at, event);
        prev_hash = entry.hash.clone();
        seq += 1;
        entries.push(entry);
    }
    let mut insert = Sql::new(
        Backend::of(conn),
        "INSERT INTO audit_entry (seq, at, actor_id, actor_name, actor_roles, source, action, \
         entity_type, entity_id, outcome, before_json, after_json, prev_hash, hash) ",
    );
    insert.push_values(&entries, |mut row, e| {
        row.push_bind(e.seq)
            .push_bind(e.at)
            .push_bind(&e.actor_id)
            .push_bind(&e.actor_name)
            .push_bind(&e.actor_roles)
            .push_bind(&e.source)
            .push_bind(&e.action)
            .push_bind(&e.entity_type)
            .push_bind(&e.entity_id)
            .push_bind(&e.outcome)
            .push_bind(&e.before_json)
            .push_bind(&e.after_json)
            .push_bind(&e.prev_hash)
            .push_bind(&e.hash);
    });
    insert.build()?.execute(&mut *conn).await?;
    let newest = entries.pop().map(|e| Head {
        seq: e.seq,
        hash: e.hash,
    });
    let seq = newest.as_ref().map_or(0, |h| h.seq);
    *head = newest;
    Ok(seq)
}

/// Records a refused read of one record (`entity`: its type and id): "not found"
/// to the caller, whether it does not exist or is not theirs to see.
pub async fn refused_read(
    store: &Store,
    at: Moment,
    actor: &Actor,
    source: Option<&str>,
    path: &str,
    (entity_type, id): (&'static str, &str),
) -> Result<(), AppError> {
    let event = Event::new("access.denied", AuditOutcome::Denied)
        .by(Some(actor), source)
        .on(entity_type, id)
        .after(serde_json::json!({ "path": path, "status": 404 }));
    record(store, at, &event).await
}

/// Records an event that changes nothing else (a denied request, a failed
/// sign-in), in a transaction of its own.
pub async fn record(store: &Store, at: Moment, event: &Event) -> Result<(), AppError> {
    let mut tx = store.begin_write().await?;
    append(&mut tx, at, event).await?;
    tx.commit().await?;
    Ok(())
}

/// The first entry whose chain does not hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("audit entry {seq}: {problem}")]
pub struct ChainBreak {
    pub seq: i64,
    pub problem: String,
}

/// What a successful verification saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub entries: i64,
    pub last_hash: String,
}

/// Walks the whole chain in order. `Ok(Err(break))` names the first entry that was
/// altered, removed or reordered.
pub async fn verify<'e>(
    db: impl sqlx::Executor<'e, Database = crate::db::Db>,
) -> Result<Result<Verified, ChainBreak>, sqlx::Error> {
    use futures_util::TryStreamExt;
    let mut rows = sqlx::query_as::<_, Row>(
        "SELECT seq, at, actor_id, actor_name, actor_roles, source, action, entity_type, \
         entity_id, outcome, before_json, after_json, prev_hash, hash \
         FROM audit_entry ORDER BY seq",
    )
    .fetch(db);
    let mut expected_seq = 1;
    let mut prev_hash = GENESIS.to_owned();
    while let Some(row) = rows.try_next().await? {
        let broken = |problem: String| {
            Ok(Err(ChainBreak {
                seq: row.seq,
                problem,
            }))
        };
        if row.seq != expected_seq {
            return broken(format!(
                "expected entry {expected_seq} next: entries are missing"
            ));
        }
        if row.prev_hash != prev_hash {
            return broken("does not follow the entry before it (prev_hash differs)".into());
        }
        if chain_hash(&prev_hash, &row.canonical()) != row.hash {
            return broken("its content was changed after it was written (hash differs)".into());
        }
        prev_hash = row.hash.clone();
        expected_seq += 1;
    }
    Ok(Ok(Verified {
        entries: expected_seq - 1,
        last_hash: prev_hash,
    }))
}

/// One page of the log, newest first, filtered.
pub async fn list(pool: &Pool, query: &AuditQuery) -> Result<AuditPage, AppError> {
    let mut q = Sql::new(
        Backend::of_pool(pool),
        "SELECT seq, at, actor_id, actor_name, actor_roles, source, action, entity_type, \
         entity_id, outcome, before_json, after_json, prev_hash, hash FROM audit_entry WHERE 1 = 1",
    );
    if let Some(actor) = &query.actor {
        q.push(" AND actor_name = ")
            .push_bind(actor.trim().to_owned())
            .push(" COLLATE NOCASE");
    }
    if let Some(action) = &query.action {
        let escaped = action
            .trim()
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        q.push(format!(" AND action {} ", q.backend().like()))
            .push_bind(format!("{escaped}%"))
            .push(" ESCAPE '\\'");
    }
    if let Some(outcome) = query.outcome {
        q.push(" AND outcome = ").push_bind(outcome.code());
    }
    if let Some(from) = query.from {
        q.push(" AND at >= ").push_bind(from.0);
    }
    if let Some(to) = query.to {
        q.push(" AND at < ").push_bind(to.0);
    }
    if let Some(before) = query.before_seq {
        q.push(" AND seq < ").push_bind(before);
    }
    q.push(" ORDER BY seq DESC LIMIT ").push_bind(PAGE_SIZE + 1);
    let rows: Vec<Row> = q.build_query_as()?.fetch_all(pool).await?;
    let more = rows.len() as i64 > PAGE_SIZE;
    let entries: Vec<AuditEntryView> = rows
        .into_iter()
        .take(PAGE_SIZE as usize)
        .map(Row::view)
        .collect();
    let next_before_seq = if more {
        entries.last().map(|e| e.seq)
    } else {
        None
    };
    Ok(AuditPage {
        entries,
        next_before_seq,
    })
}
