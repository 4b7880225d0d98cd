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

use sqlx::any::AnyArguments;
use sqlx::query::{Query, QueryAs};
use sqlx::{Arguments, Encode, Type};

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
}

/// A statement built piece by piece (a register filter, a multi-row insert),
/// numbering its placeholders `$1, $2, …` as it goes — the form both engines
/// read. (sqlx's own `QueryBuilder` writes `?` for `Any`, which PostgreSQL
/// does not.)
#[derive(Default)]
pub struct Sql<'q> {
    text: String,
    args: AnyArguments<'q>,
    /// The first value that could not be encoded, reported when the statement runs.
    failed: Option<sqlx::error::BoxDynError>,
}

impl<'q> Sql<'q> {
    pub fn new(start: impl Display) -> Sql<'q> {
        Sql {
            text: start.to_string(),
            ..Sql::default()
        }
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

    /// The SQL as written so far.
    pub fn sql(&self) -> &str {
        &self.text
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
