-- Each person answers for their own conduct (issue #14). The report's facts move
-- from the incident to each person (the JSON in incident.report_json is moved to
-- the new shape by the server at start-up, store::first_version; each revision
-- keeps the shape it was stored in). Here, the tables:
--
-- 1. A person may carry one citation per offence violated: the citation's
--    uniqueness moves from the person to (person, offence). The fine is the
--    offence's penalty (app/src/ordinance), no longer a literal checked here.
-- 2. Every offence charged to a person is a row of `charge`; subject.offence
--    keeps the first of them, for the lists that show one.
-- 3. A new caution: a §52-3 case resting on songs or words.

-- SQLite cannot drop a UNIQUE or CHECK constraint: the citation table is built
-- again, inside this migration's transaction, where foreign keys cannot be turned
-- off. They are deferred to the commit instead: dropping the old table leaves the
-- rows that reference a citation (review_decision, export_item, court_event,
-- citation_export) without one for a moment, and each row copied into the new
-- table gives them theirs back, so the commit finds every reference whole (it
-- fails, and nothing changes, if one is not).
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE citation_first_version AS SELECT * FROM citation;
DROP TABLE citation;

CREATE TABLE citation (
    citation_id     TEXT PRIMARY KEY NOT NULL,
    number          TEXT NOT NULL UNIQUE,                 -- WPD-YYYY-NNNNNN
    year            INTEGER NOT NULL,
    seq             INTEGER NOT NULL,
    incident_id     TEXT NOT NULL REFERENCES incident (incident_id),
    subject_id      TEXT NOT NULL REFERENCES subject (subject_id),
    -- 52-1(A)(1) … 52-3 (ordinance::Offence codes)
    offence         TEXT NOT NULL,
    -- The offence's fine when issued (§52-4 for Article I), in cents; the court
    -- adds costs at disposition.
    fine_cents      INTEGER NOT NULL CHECK (fine_cents > 0),
    -- §52-2: an arrest was in fact made, to bring the person before the District
    -- Court. Citations stored before issue #14 recorded every §52-2 citation so.
    arrest          INTEGER NOT NULL CHECK (arrest IN (0, 1)),
    court_name      TEXT NOT NULL,
    court_address   TEXT NOT NULL,
    appearance_date TEXT NOT NULL,                        -- YYYY-MM-DD
    issued_at       INTEGER NOT NULL,
    issued_by       TEXT NOT NULL REFERENCES app_user (user_id),
    status          TEXT NOT NULL CHECK (status IN ('issued', 'returned', 'approved', 'filed', 'disposed', 'void')),
    void_reason     TEXT,
    voided_by       TEXT REFERENCES app_user (user_id),
    voided_at       INTEGER,
    reviewed_by     TEXT REFERENCES app_user (user_id),
    reviewed_at     INTEGER,
    amended_at      INTEGER,
    updated_at      INTEGER NOT NULL,
    filed_on             TEXT,
    filing_reference     TEXT,
    filed_by             TEXT REFERENCES app_user (user_id),
    filed_at             INTEGER,
    disposition          TEXT,
    disposition_on       TEXT,
    hearing_on           TEXT,
    fine_assessed_cents  INTEGER,
    costs_assessed_cents INTEGER,
    paid_cents           INTEGER,
    UNIQUE (year, seq),
    -- One citation per person per offence.
    UNIQUE (subject_id, offence)
) STRICT;

INSERT INTO citation (citation_id, number, year, seq, incident_id, subject_id, offence, fine_cents,
    arrest, court_name, court_address, appearance_date, issued_at, issued_by, status, void_reason,
    voided_by, voided_at, reviewed_by, reviewed_at, amended_at, updated_at, filed_on, filing_reference,
    filed_by, filed_at, disposition, disposition_on, hearing_on, fine_assessed_cents,
    costs_assessed_cents, paid_cents)
SELECT citation_id, number, year, seq, incident_id, subject_id, offence, fine_cents,
    arrest, court_name, court_address, appearance_date, issued_at, issued_by, status, void_reason,
    voided_by, voided_at, reviewed_by, reviewed_at, amended_at, updated_at, filed_on, filing_reference,
    filed_by, filed_at, disposition, disposition_on, hearing_on, fine_assessed_cents,
    costs_assessed_cents, paid_cents
FROM temp.citation_first_version ORDER BY rowid;

DROP TABLE temp.citation_first_version;

CREATE INDEX citation_status ON citation (status, issued_at);
CREATE INDEX citation_incident ON citation (incident_id);
CREATE INDEX citation_subject ON citation (subject_id);
CREATE INDEX citation_filed ON citation (status, filed_on);
CREATE INDEX citation_hearing ON citation (hearing_on);
CREATE INDEX citation_incident_status ON citation (incident_id, status);

-- The dashboard's triggers on citation (migration 0008), again on the new table.
CREATE TRIGGER citation_dashboard_insert AFTER INSERT ON citation
BEGIN
    INSERT INTO dashboard_stale (local_date)
        SELECT local_date FROM incident WHERE incident_id = NEW.incident_id
        AND local_date NOT IN (SELECT local_date FROM dashboard_stale);
END;
CREATE TRIGGER citation_dashboard_update AFTER UPDATE OF
    incident_id, status, disposition, fine_assessed_cents, costs_assessed_cents,
    paid_cents ON citation
BEGIN
    INSERT INTO dashboard_stale (local_date)
        SELECT DISTINCT local_date FROM incident WHERE incident_id IN (OLD.incident_id, NEW.incident_id)
        AND local_date NOT IN (SELECT local_date FROM dashboard_stale);
END;

-- Every offence charged to a person (the current revision's; earlier ones are in
-- incident_revision). Rewritten with the person's row at each correction.
CREATE TABLE charge (
    subject_id TEXT NOT NULL REFERENCES subject (subject_id),
    offence    TEXT NOT NULL,            -- 52-1(A)(1) … 52-3
    PRIMARY KEY (subject_id, offence)
) STRICT, WITHOUT ROWID;

CREATE INDEX charge_offence ON charge (offence, subject_id);

INSERT INTO charge (subject_id, offence)
    SELECT subject_id, offence FROM subject WHERE offence IS NOT NULL;

-- The dashboard counts persons by the offences charged to them.
CREATE TRIGGER charge_dashboard_insert AFTER INSERT ON charge
BEGIN
    INSERT INTO dashboard_stale (local_date)
        SELECT i.local_date FROM subject s JOIN incident i USING (incident_id)
        WHERE s.subject_id = NEW.subject_id
        AND i.local_date NOT IN (SELECT local_date FROM dashboard_stale);
END;
CREATE TRIGGER charge_dashboard_delete AFTER DELETE ON charge
BEGIN
    INSERT INTO dashboard_stale (local_date)
        SELECT i.local_date FROM subject s JOIN incident i USING (incident_id)
        WHERE s.subject_id = OLD.subject_id
        AND i.local_date NOT IN (SELECT local_date FROM dashboard_stale);
END;

-- §52-3 cases resting on songs or words, for the chief's queue filter (as 0009).
CREATE INDEX incident_caution_speech ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% speech %';

-- Every day is counted again at the next read: persons are now counted by charge.
INSERT OR IGNORE INTO dashboard_stale (local_date) SELECT DISTINCT local_date FROM incident;
