-- The register finds any part of a name, a place or a citation number (issue
-- #16: "Goodwin", "Marketplace" and "000083" found nothing, because only the
-- start of a name or place was searched). One full-text row per person (name,
-- or the description of one not identified), per incident (its location) and
-- per citation (its number), with the trigram tokenizer: a search is for any run
-- of three or more characters, case folded. The rowid says what a row is: the
-- source row's rowid times four, plus 1 (person), 2 (incident) or 3 (citation).
-- Each row also carries its incident's time, so a search's matches come out in
-- the register's order without looking each incident up.
CREATE VIRTUAL TABLE register_text USING fts5(
    text,
    incident_id UNINDEXED,
    occurred_at UNINDEXED,
    tokenize = 'trigram'
);

INSERT INTO register_text (rowid, text, incident_id, occurred_at)
    SELECT s.rowid * 4 + 1, COALESCE(s.full_name, s.description, ''), s.incident_id, i.occurred_at
    FROM subject s JOIN incident i ON i.incident_id = s.incident_id
    WHERE s.withdrawn_at IS NULL;
INSERT INTO register_text (rowid, text, incident_id, occurred_at)
    SELECT rowid * 4 + 2, location_text, incident_id, occurred_at FROM incident;
INSERT INTO register_text (rowid, text, incident_id, occurred_at)
    SELECT c.rowid * 4 + 3, c.number, c.incident_id, i.occurred_at
    FROM citation c JOIN incident i ON i.incident_id = c.incident_id;

-- Kept in step with the records in the same transaction as every change.
CREATE TRIGGER subject_register_text_insert AFTER INSERT ON subject
WHEN NEW.withdrawn_at IS NULL
BEGIN
    INSERT INTO register_text (rowid, text, incident_id, occurred_at)
        SELECT NEW.rowid * 4 + 1, COALESCE(NEW.full_name, NEW.description, ''), NEW.incident_id,
               occurred_at
        FROM incident WHERE incident_id = NEW.incident_id;
END;
CREATE TRIGGER subject_register_text_update AFTER UPDATE OF full_name, description, withdrawn_at ON subject
BEGIN
    DELETE FROM register_text WHERE rowid = OLD.rowid * 4 + 1;
    INSERT INTO register_text (rowid, text, incident_id, occurred_at)
        SELECT NEW.rowid * 4 + 1, COALESCE(NEW.full_name, NEW.description, ''), NEW.incident_id,
               occurred_at
        FROM incident WHERE incident_id = NEW.incident_id AND NEW.withdrawn_at IS NULL;
END;
CREATE TRIGGER incident_register_text_insert AFTER INSERT ON incident
BEGIN
    INSERT INTO register_text (rowid, text, incident_id, occurred_at)
        VALUES (NEW.rowid * 4 + 2, NEW.location_text, NEW.incident_id, NEW.occurred_at);
END;
-- A corrected place or time: the incident's own row, and its time on the rows
-- of its persons and citations (each found by rowid, never by scanning).
CREATE TRIGGER incident_register_text_update AFTER UPDATE OF location_text, occurred_at ON incident
WHEN NEW.location_text IS NOT OLD.location_text OR NEW.occurred_at IS NOT OLD.occurred_at
BEGIN
    DELETE FROM register_text WHERE rowid = OLD.rowid * 4 + 2;
    INSERT INTO register_text (rowid, text, incident_id, occurred_at)
        VALUES (NEW.rowid * 4 + 2, NEW.location_text, NEW.incident_id, NEW.occurred_at);
    UPDATE register_text SET occurred_at = NEW.occurred_at
        WHERE NEW.occurred_at IS NOT OLD.occurred_at
          AND rowid IN (SELECT rowid * 4 + 1 FROM subject WHERE incident_id = NEW.incident_id
                        UNION ALL
                        SELECT rowid * 4 + 3 FROM citation WHERE incident_id = NEW.incident_id);
END;
CREATE TRIGGER citation_register_text_insert AFTER INSERT ON citation
BEGIN
    INSERT INTO register_text (rowid, text, incident_id, occurred_at)
        SELECT NEW.rowid * 4 + 3, NEW.number, NEW.incident_id, occurred_at
        FROM incident WHERE incident_id = NEW.incident_id;
END;

-- The dashboard's hot spots are named by a place typed in them (the counts kept
-- none before): every day is counted again at the next read.
INSERT OR IGNORE INTO dashboard_stale (local_date) SELECT DISTINCT local_date FROM incident;
