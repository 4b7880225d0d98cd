-- The register finds any part of a name, a place or a citation number (issue
-- #16: "Goodwin", "Marketplace" and "000083" found nothing, because only the
-- start of a name or place was searched). One full-text row per person (name,
-- or the description of one not identified), per incident (its location) and
-- per citation (its number), with the trigram tokenizer: a search is for any run
-- of three or more characters, case folded.
--
-- A row's rowid is its place in the register's order: the incident's time in
-- milliseconds times 2^21, plus the row's number among the rows of that
-- millisecond. The index then gives a text's matches newest first and stops at
-- a page, however many there are. (Times up to the year 2109 fit in 63 bits.)
CREATE VIRTUAL TABLE register_text USING fts5(
    text,
    incident_id UNINDEXED,
    tokenize = 'trigram'
);

-- Which record each row stands for: `source` is the record's rowid times four,
-- plus 1 (person), 2 (incident) or 3 (citation).
CREATE TABLE register_entry (
    entry INTEGER PRIMARY KEY,
    source INTEGER NOT NULL UNIQUE,
    incident_id TEXT NOT NULL
);
CREATE INDEX register_entry_incident ON register_entry (incident_id);

-- Rows go in and out through this view, so the numbering is in one place.
CREATE VIEW register_source (source, incident_id, text) AS
    SELECT e.source, e.incident_id, t.text
    FROM register_entry e JOIN register_text t ON t.rowid = e.entry;

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
    INSERT INTO register_text (rowid, text, incident_id)
        SELECT entry, NEW.text, NEW.incident_id FROM register_entry WHERE source = NEW.source;
END;

CREATE TRIGGER register_source_delete INSTEAD OF DELETE ON register_source
BEGIN
    DELETE FROM register_text
        WHERE rowid = (SELECT entry FROM register_entry WHERE source = OLD.source);
    DELETE FROM register_entry WHERE source = OLD.source;
END;

-- Every record there is now, numbered in one pass.
CREATE TEMP TABLE register_backfill AS
    SELECT rowid * 4 + 2 AS source, incident_id, location_text AS text FROM incident
    UNION ALL
    SELECT rowid * 4 + 1, incident_id, COALESCE(full_name, description, '') FROM subject
    WHERE withdrawn_at IS NULL
    UNION ALL
    SELECT rowid * 4 + 3, incident_id, number FROM citation;
INSERT INTO register_entry (entry, source, incident_id)
    SELECT i.occurred_at * 2097152
               + ROW_NUMBER() OVER (PARTITION BY i.occurred_at ORDER BY b.source) - 1,
           b.source, b.incident_id
    FROM register_backfill b JOIN incident i ON i.incident_id = b.incident_id;
INSERT INTO register_text (rowid, text, incident_id)
    SELECT e.entry, b.text, b.incident_id
    FROM register_backfill b JOIN register_entry e ON e.source = b.source;
DROP TABLE register_backfill;

-- Kept in step with the records in the same transaction as every change.
CREATE TRIGGER subject_register_text_insert AFTER INSERT ON subject
WHEN NEW.withdrawn_at IS NULL
BEGIN
    INSERT INTO register_source (source, incident_id, text)
        VALUES (NEW.rowid * 4 + 1, NEW.incident_id, COALESCE(NEW.full_name, NEW.description, ''));
END;
CREATE TRIGGER subject_register_text_update AFTER UPDATE OF full_name, description, withdrawn_at ON subject
BEGIN
    DELETE FROM register_source WHERE source = OLD.rowid * 4 + 1;
    INSERT INTO register_source (source, incident_id, text)
        SELECT NEW.rowid * 4 + 1, NEW.incident_id, COALESCE(NEW.full_name, NEW.description, '')
        WHERE NEW.withdrawn_at IS NULL;
END;
CREATE TRIGGER incident_register_text_insert AFTER INSERT ON incident
BEGIN
    INSERT INTO register_source (source, incident_id, text)
        VALUES (NEW.rowid * 4 + 2, NEW.incident_id, NEW.location_text);
END;
-- A corrected place or time: every row of the incident is numbered again (a
-- corrected time moves them all in the register's order).
CREATE TRIGGER incident_register_text_update AFTER UPDATE OF location_text, occurred_at ON incident
WHEN NEW.location_text IS NOT OLD.location_text OR NEW.occurred_at IS NOT OLD.occurred_at
BEGIN
    DELETE FROM register_source
        WHERE source IN (SELECT source FROM register_entry WHERE incident_id = NEW.incident_id);
    INSERT INTO register_source (source, incident_id, text)
        SELECT NEW.rowid * 4 + 2, NEW.incident_id, NEW.location_text
        UNION ALL
        SELECT rowid * 4 + 1, incident_id, COALESCE(full_name, description, '') FROM subject
        WHERE incident_id = NEW.incident_id AND withdrawn_at IS NULL
        UNION ALL
        SELECT rowid * 4 + 3, incident_id, number FROM citation WHERE incident_id = NEW.incident_id;
END;
CREATE TRIGGER citation_register_text_insert AFTER INSERT ON citation
BEGIN
    INSERT INTO register_source (source, incident_id, text)
        VALUES (NEW.rowid * 4 + 3, NEW.incident_id, NEW.number);
END;

-- The dashboard's hot spots are named by a place typed in them (the counts kept
-- none before): every day is counted again at the next read.
INSERT OR IGNORE INTO dashboard_stale (local_date) SELECT DISTINCT local_date FROM incident;
