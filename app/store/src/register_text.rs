//! The register's full-text index (migrations 0014 and 0015): rows for each person's name
//! or description, each incident's place and each citation's number, in the
//! register's order. Triggers number each new row and leave it in
//! `register_pending`; [`flush`] moves a transaction's rows into the index in
//! one statement before it commits. (FTS5 writes its pending rows to disk at
//! the start of every statement of a transaction: rows added by triggers one
//! statement at a time became one segment each, and merging them made seeding a
//! million incidents take hours instead of minutes.)

use crate::db::Conn;

/// Moves the rows waiting in `register_pending` into the index, in rowid order
/// (FTS5 keeps rows arriving in ascending order in memory until the commit).
/// Every transaction that writes incidents, persons or citations calls it last;
/// a search also reads what waits, so a row is found either way.
pub async fn flush(conn: &mut Conn) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO register_text (rowid, text, incident_id) \
         SELECT entry, text, incident_id FROM register_pending ORDER BY entry",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query("DELETE FROM register_pending")
        .execute(&mut *conn)
        .await?;
    Ok(())
}
