-- The register finds any part of a name, a place or a citation number (issue
-- #16: "Goodwin", "Marketplace" and "000083" found nothing, because only the
-- start of a name or place was searched). One full-text row per person (name,
-- or the description of one not identified), per incident (its location) and
-- per citation (its number), with the trigram tokenizer: a search is for any run
-- of three or more characters, case folded. The rowid says what a row is: the
-- source row's rowid times four, plus 1 (person), 2 (incident) or 3 (citation).
CREATE VIRTUAL TABLE register_text USING fts5(
    text,
    incident_id UNINDEXED,
    tokenize = 'trigram'
);

INSERT INTO register_text (rowid, text, incident_id)
    SELECT rowid * 4 + 1, COALESCE(full_name, description, ''), incident_id FROM subject
    WHERE withdrawn_at IS NULL;
INSERT INTO register_text (rowid, text, incident_id)
    SELECT rowid * 4 + 2, location_text, incident_id FROM incident;
INSERT INTO register_text (rowid, text, incident_id)
    SELECT rowid * 4 + 3, number, incident_id FROM citation;

-- Kept in step with the records in the same transaction as every change.
CREATE TRIGGER subject_register_text_insert AFTER INSERT ON subject
WHEN NEW.withdrawn_at IS NULL
BEGIN
    INSERT INTO register_text (rowid, text, incident_id)
        VALUES (NEW.rowid * 4 + 1, COALESCE(NEW.full_name, NEW.description, ''), NEW.incident_id);
END;
CREATE TRIGGER subject_register_text_update AFTER UPDATE OF full_name, description, withdrawn_at ON subject
BEGIN
    DELETE FROM register_text WHERE rowid = OLD.rowid * 4 + 1;
    INSERT INTO register_text (rowid, text, incident_id)
        SELECT NEW.rowid * 4 + 1, COALESCE(NEW.full_name, NEW.description, ''), NEW.incident_id
        WHERE NEW.withdrawn_at IS NULL;
END;
CREATE TRIGGER incident_register_text_insert AFTER INSERT ON incident
BEGIN
    INSERT INTO register_text (rowid, text, incident_id)
        VALUES (NEW.rowid * 4 + 2, NEW.location_text, NEW.incident_id);
END;
CREATE TRIGGER incident_register_text_update AFTER UPDATE OF location_text ON incident
BEGIN
    DELETE FROM register_text WHERE rowid = OLD.rowid * 4 + 2;
    INSERT INTO register_text (rowid, text, incident_id)
        VALUES (NEW.rowid * 4 + 2, NEW.location_text, NEW.incident_id);
END;
CREATE TRIGGER citation_register_text_insert AFTER INSERT ON citation
BEGIN
    INSERT INTO register_text (rowid, text, incident_id)
        VALUES (NEW.rowid * 4 + 3, NEW.number, NEW.incident_id);
END;

-- The dashboard's hot spots are named by a place typed in them (the counts kept
-- none before): every day is counted again at the next read.
INSERT OR IGNORE INTO dashboard_stale (local_date) SELECT DISTINCT local_date FROM incident;
