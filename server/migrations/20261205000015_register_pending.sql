-- The register's full-text index takes a transaction's new rows in one
-- statement (`store::register_text::flush`). FTS5 writes its pending rows to
-- disk at the start of every statement of a transaction, so the rows migration
-- 0014's triggers added one statement at a time each became a segment to
-- merge: seeding a million incidents took hours instead of minutes. New rows
-- now wait in `register_pending` until the transaction's flush, which searches
-- also read. (0014 is left as it was applied: a changed migration would stop
-- every database that has it from starting.)
CREATE TABLE register_pending (
    entry INTEGER PRIMARY KEY,
    text TEXT NOT NULL,
    incident_id TEXT NOT NULL
);

-- The view lists every numbered row, waiting or indexed, so a correction in
-- the same transaction as the row's insert still finds and removes it. Its
-- INSTEAD OF triggers go with it and are made again.
DROP VIEW register_source;
CREATE VIEW register_source (source, incident_id, text) AS
    SELECT source, incident_id, NULL FROM register_entry;

CREATE TRIGGER register_source_insert INSTEAD OF INSERT ON register_source
BEGIN
    INSERT INTO register_entry (entry, source, incident_id)
        SELECT COALESCE(
                   (SELECT MAX(entry) + 1 FROM register_entry
                    WHERE entry BETWEEN base AND base + 2097151),
                   base),
               NEW.source, NEW.incident_id
        FROM (SELECT occurred_at * 2097152 AS base FROM incident
              WHERE incident_id = NEW.incident_id);
    INSERT INTO register_pending (entry, text, incident_id)
        SELECT entry, NEW.text, NEW.incident_id FROM register_entry WHERE source = NEW.source;
END;

CREATE TRIGGER register_source_delete INSTEAD OF DELETE ON register_source
BEGIN
    DELETE FROM register_pending
        WHERE entry = (SELECT entry FROM register_entry WHERE source = OLD.source);
    DELETE FROM register_text
        WHERE rowid = (SELECT entry FROM register_entry WHERE source = OLD.source);
    DELETE FROM register_entry WHERE source = OLD.source;
END;
