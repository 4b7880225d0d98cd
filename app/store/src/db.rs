//! The store's seam to the database engine (issue #21).
//!
//! Every query goes through sqlx's `Any` driver, so one store serves the embedded
//! SQLite file and a PostgreSQL server alike. The SQL is written once, in the part
//! of SQL both engines read the same way: placeholders are numbered (`$1`, which
//! sqlx's SQLite driver also reads), integers are `BIGINT`-sized, flags are 0/1
//! integers (SQLite has no boolean), `ON CONFLICT … DO NOTHING` rather than
//! `INSERT OR IGNORE`. What one engine says differently lives in [`Backend`], and
//! nowhere else.
//!
//! Values cross the seam as `i64`, `f64`, `String` and bytes only: `Any` carries
//! no other types, which is also what both schemas store (ids and times are text
//! and integers, as the first version chose for SQLite).

use std::fmt::Display;

use sqlx::any::{AnyArguments, AnyTypeInfo};
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::query::{Query, QueryAs};
use sqlx::{Arguments, Encode, Type};

/// Whether `address` names a PostgreSQL server (`postgres://…`) rather than a
/// SQLite file.
pub fn is_postgres(address: &str) -> bool {
    address.starts_with("postgres://") || address.starts_with("postgresql://")
}

/// The database, as the store's queries see it.
pub type Db = sqlx::Any;
/// A pool of connections to it.
pub type Pool = sqlx::AnyPool;
/// One connection (or transaction, through `&mut *tx`).
pub type Conn = sqlx::AnyConnection;
/// A write transaction.
pub type Tx = sqlx::Transaction<'static, Db>;

/// Which engine a store runs on: chosen by the database address at start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// One file, one machine: the embedded default of `make run`.
    Sqlite,
    /// A server, several app servers, a standby (issue #21).
    Postgres,
}

impl Backend {
    /// The engine a connection talks to (sqlx names it).
    pub fn of(conn: &Conn) -> Backend {
        if conn.backend_name() == "PostgreSQL" {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }

    /// The engine a pool's connections talk to.
    pub fn of_pool(pool: &Pool) -> Backend {
        if is_postgres(pool.connect_options().database_url.as_str()) {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }

    /// The rows of a JSON array of text bound at `param` (`$1`), as a table with
    /// one column, `value`.
    pub fn json_rows(self, param: &str) -> String {
        match self {
            Backend::Sqlite => format!("json_each({param})"),
            Backend::Postgres => {
                format!("json_array_elements_text(CAST({param} AS json)) AS j(value)")
            }
        }
    }

    /// `LIKE` as SQLite reads it: ASCII letters in either case.
    pub fn like(self) -> &'static str {
        match self {
            Backend::Sqlite => "LIKE",
            Backend::Postgres => "ILIKE",
        }
    }

    /// A join SQLite's planner takes in the order written (its `CROSS JOIN`
    /// hint, issue #22); PostgreSQL plans an inner join itself.
    pub fn join_in_order(self) -> &'static str {
        match self {
            Backend::Sqlite => "CROSS JOIN",
            Backend::Postgres => "JOIN",
        }
    }

    /// SQLite's `INDEXED BY index` (the plan the hot queries need whatever the
    /// statistics say, issue #22); PostgreSQL has no such hint.
    pub fn indexed_by(self, index: &str) -> String {
        match self {
            Backend::Sqlite => format!(" INDEXED BY {index}"),
            Backend::Postgres => String::new(),
        }
    }

    /// `expr`, kept from SQLite's choice of index by its unary `+`.
    pub fn unindexed(self, expr: &str) -> String {
        match self {
            Backend::Sqlite => format!("+{expr}"),
            Backend::Postgres => expr.to_owned(),
        }
    }

    /// The larger of two values (SQLite's two-argument `max`).
    pub fn greatest(self) -> &'static str {
        match self {
            Backend::Sqlite => "MAX",
            Backend::Postgres => "GREATEST",
        }
    }

    /// A non-negative real `expr` truncated to an integer (SQLite's CAST
    /// truncates; PostgreSQL's rounds).
    pub fn truncated(self, expr: &str) -> String {
        match self {
            Backend::Sqlite => format!("CAST({expr} AS INTEGER)"),
            Backend::Postgres => format!("CAST(trunc({expr}) AS BIGINT)"),
        }
    }

    /// `exprs` joined by `separator` (a literal), over a group.
    pub fn joined(self, expr: &str, separator: &str) -> String {
        match self {
            Backend::Sqlite => format!("group_concat({expr}, '{separator}')"),
            Backend::Postgres => format!("string_agg({expr}, '{separator}')"),
        }
    }

    /// A JSON array of `exprs`, as text.
    pub fn json_array(self, exprs: &str) -> String {
        match self {
            Backend::Sqlite => format!("json_array({exprs})"),
            Backend::Postgres => format!("CAST(json_build_array({exprs}) AS text)"),
        }
    }

    /// Member `key` of the JSON object in the text column `expr`, as text.
    pub fn json_member(self, expr: &str, key: &str) -> String {
        match self {
            Backend::Sqlite => format!("json_extract({expr}, '$.{key}')"),
            Backend::Postgres => format!("(CAST({expr} AS json) ->> '{key}')"),
        }
    }

    /// `n` in decimal, at least `width` digits with leading zeros (never cut).
    pub fn zero_padded(self, n: &str, width: usize) -> String {
        match self {
            Backend::Sqlite => format!("printf('%0{width}d', {n})"),
            Backend::Postgres => format!(
                "lpad(CAST({n} AS text), GREATEST({width}, length(CAST({n} AS text))), '0')"
            ),
        }
    }
}

/// A real number that may be absent (a GPS fix), bound as a double on both
/// engines. sqlx 0.8.6's `Any` sends an absent `f64` to PostgreSQL as an absent
/// `real` (float4) — the arms for its two float nulls are swapped — and the
/// statement, prepared and cached with that type, then refuses a present
/// double ("incorrect binary data format").
pub struct OptionalReal(pub Option<f64>);

impl Type<Db> for OptionalReal {
    fn type_info() -> AnyTypeInfo {
        <f64 as Type<Db>>::type_info()
    }
}

impl<'q> Encode<'q, Db> for OptionalReal {
    fn encode_by_ref(
        &self,
        buf: &mut <Db as sqlx::Database>::ArgumentBuffer<'q>,
    ) -> Result<IsNull, BoxDynError> {
        match self.0 {
            Some(value) => <f64 as Encode<'q, Db>>::encode_by_ref(&value, buf),
            // The absent `f32` is the null sqlx 0.8.6 sends to PostgreSQL as a
            // float8 (and to SQLite as NULL). The PostgreSQL run of the tests
            // stores incidents with and without a fix, so a sqlx that mends
            // the swap shows here.
            None => <Option<f32> as Encode<'q, Db>>::encode_by_ref(&None, buf),
        }
    }
}

/// The key of PostgreSQL's advisory lock every write transaction takes: "W52"
/// and the chapter, an arbitrary number no other program on the database uses.
const WRITE_LOCK: i64 = 0x5735_3200_0000_0052;

/// A write transaction holding the store's one write lock from its first
/// statement. The audit chain and the gapless citation numbers (§52-4, DESIGN
/// §3) are appended by one writer at a time, whichever server it runs in:
///
/// * SQLite: `BEGIN IMMEDIATE` takes the database's write lock at once, so a
///   transaction that reads before it writes cannot fail half-way because
///   another process (the CLI, a backup) wrote in between;
/// * PostgreSQL: a transaction-scoped advisory lock, the same for every app
///   server on the database, released by the commit or rollback (or when a
///   server dies and its connection goes). Reads within the transaction then see
///   every write committed before it (READ COMMITTED reads as of each statement).
pub async fn begin_write(pool: &Pool, backend: Backend) -> Result<Tx, sqlx::Error> {
    match backend {
        Backend::Sqlite => pool.begin_with("BEGIN IMMEDIATE").await,
        Backend::Postgres => {
            let mut tx = pool.begin().await?;
            // In FROM: the function returns `void`, a type `Any` cannot carry.
            sqlx::query("SELECT 1 FROM pg_advisory_xact_lock($1)")
                .bind(WRITE_LOCK)
                .execute(&mut *tx)
                .await?;
            Ok(tx)
        }
    }
}

/// A statement built piece by piece (a register filter, a multi-row insert),
/// numbering its placeholders `$1, $2, …` as it goes — the form both engines
/// read. (sqlx's own `QueryBuilder` writes `?` for `Any`, which PostgreSQL
/// does not.)
pub struct Sql<'q> {
    backend: Backend,
    text: String,
    args: AnyArguments<'q>,
    /// The first value that could not be encoded, reported when the statement runs.
    failed: Option<BoxDynError>,
}

impl<'q> Sql<'q> {
    /// A statement for `backend`, starting with `start`.
    pub fn new(backend: Backend, start: impl Display) -> Sql<'q> {
        Sql {
            backend,
            text: start.to_string(),
            args: AnyArguments::default(),
            failed: None,
        }
    }

    /// The engine the statement is written for.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// `json_rows` of the JSON array `json`, bound.
    pub fn push_json_rows(&mut self, json: String) -> &mut Self {
        let n = self.args.len() + 1;
        let rows = self.backend.json_rows(&format!("${n}"));
        if let Err(error) = self.args.add(json) {
            self.failed.get_or_insert(error);
        }
        self.push(rows)
    }

    /// Appends SQL text (never a value: values go through [`Sql::push_bind`]).
    pub fn push(&mut self, sql: impl Display) -> &mut Self {
        use std::fmt::Write;
        let _ = write!(self.text, "{sql}");
        self
    }

    /// Appends a placeholder and binds `value` to it.
    pub fn push_bind<T>(&mut self, value: T) -> &mut Self
    where
        T: 'q + Encode<'q, Db> + Type<Db>,
    {
        if let Err(error) = self.args.add(value) {
            self.failed.get_or_insert(error);
        }
        let n = self.args.len();
        self.push(format_args!("${n}"))
    }

    /// `VALUES (…), (…)`: one parenthesised row per item, its values bound by `row`.
    pub fn push_values<I, F>(&mut self, items: I, mut row: F) -> &mut Self
    where
        I: IntoIterator,
        F: FnMut(Values<'_, 'q>, I::Item),
    {
        self.push("VALUES ");
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            self.push("(");
            row(
                Values {
                    sql: self,
                    first: true,
                },
                item,
            );
            self.push(")");
        }
        self
    }

    /// The bound values, or the first that could not be encoded.
    fn arguments(&mut self) -> Result<AnyArguments<'q>, sqlx::Error> {
        match self.failed.take() {
            Some(error) => Err(sqlx::Error::Encode(error)),
            None => Ok(std::mem::take(&mut self.args)),
        }
    }

    pub fn build(&mut self) -> Result<Query<'_, Db, AnyArguments<'_>>, sqlx::Error> {
        let args = self.arguments()?;
        Ok(sqlx::query_with(&self.text, args))
    }

    pub fn build_query_as<O>(&mut self) -> Result<QueryAs<'_, Db, O, AnyArguments<'_>>, sqlx::Error>
    where
        O: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow>,
    {
        let args = self.arguments()?;
        Ok(sqlx::query_as_with(&self.text, args))
    }
}

/// One row of [`Sql::push_values`]: its values, comma-separated.
pub struct Values<'b, 'q> {
    sql: &'b mut Sql<'q>,
    first: bool,
}

impl<'q> Values<'_, 'q> {
    pub fn push_bind<T>(&mut self, value: T) -> &mut Self
    where
        T: 'q + Encode<'q, Db> + Type<Db>,
    {
        if !self.first {
            self.sql.push(", ");
        }
        self.first = false;
        self.sql.push_bind(value);
        self
    }
}
