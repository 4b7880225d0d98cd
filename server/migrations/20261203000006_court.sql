-- The court clerk (issue #7): filing with the District Court, export batches and
-- the court's dispositions. Times are UTC milliseconds; dates are YYYY-MM-DD.

-- Filing: once filed a citation is frozen (store::court); only a chief's
-- amendment with a reason changes it, and the next export marks it amended.
ALTER TABLE citation ADD COLUMN filed_on TEXT;            -- date the court received it
ALTER TABLE citation ADD COLUMN filing_reference TEXT;    -- the court's docket or receipt number
ALTER TABLE citation ADD COLUMN filed_by TEXT REFERENCES app_user (user_id);
ALTER TABLE citation ADD COLUMN filed_at INTEGER;
-- The court's latest word: paid, admitted, contested, dismissed, guilty,
-- not_guilty, defaulted (model::court::DispositionKind). Earlier ones are kept in
-- court_event.
ALTER TABLE citation ADD COLUMN disposition TEXT;
ALTER TABLE citation ADD COLUMN disposition_on TEXT;
ALTER TABLE citation ADD COLUMN hearing_on TEXT;
-- §52-4: $100 plus costs — what the court assessed, and what was paid.
ALTER TABLE citation ADD COLUMN fine_assessed_cents INTEGER;
ALTER TABLE citation ADD COLUMN costs_assessed_cents INTEGER;
ALTER TABLE citation ADD COLUMN paid_cents INTEGER;
-- The export that last carried the citation, so an amendment after it shows on
-- the next export as an amended filing.
ALTER TABLE citation ADD COLUMN last_exported_at INTEGER;

CREATE INDEX citation_filed ON citation (status, filed_on);
CREATE INDEX citation_hearing ON citation (hearing_on);

-- Every export: who, when, which citations, the file's SHA-256. Append-only.
CREATE TABLE export_batch (
    batch_id     TEXT PRIMARY KEY NOT NULL,
    format       TEXT NOT NULL CHECK (format IN ('csv', 'pdf', 'json')),
    created_at   INTEGER NOT NULL,
    created_by   TEXT NOT NULL REFERENCES app_user (user_id),
    citations    INTEGER NOT NULL,
    sha256       TEXT NOT NULL,
    criteria     TEXT NOT NULL                -- JSON: the numbers or the date range asked for
) STRICT;

CREATE TABLE export_item (
    batch_id TEXT NOT NULL REFERENCES export_batch (batch_id),
    number   TEXT NOT NULL REFERENCES citation (number),
    amended  INTEGER NOT NULL CHECK (amended IN (0, 1)),
    PRIMARY KEY (batch_id, number)
) STRICT;

-- Filing and dispositions as they happened, for the citation's history.
CREATE TABLE court_event (
    event_id TEXT PRIMARY KEY NOT NULL,
    number   TEXT NOT NULL REFERENCES citation (number),
    kind     TEXT NOT NULL,                   -- 'filed' or a disposition kind
    details  TEXT NOT NULL,                   -- JSON
    actor_id TEXT NOT NULL REFERENCES app_user (user_id),
    at       INTEGER NOT NULL
) STRICT;

CREATE INDEX court_event_number ON court_event (number, at);

CREATE TRIGGER export_batch_no_update BEFORE UPDATE ON export_batch
BEGIN SELECT RAISE(ABORT, 'export batches are append-only'); END;
CREATE TRIGGER export_batch_no_delete BEFORE DELETE ON export_batch
BEGIN SELECT RAISE(ABORT, 'export batches are append-only'); END;
CREATE TRIGGER export_item_no_update BEFORE UPDATE ON export_item
BEGIN SELECT RAISE(ABORT, 'export batches are append-only'); END;
CREATE TRIGGER export_item_no_delete BEFORE DELETE ON export_item
BEGIN SELECT RAISE(ABORT, 'export batches are append-only'); END;
CREATE TRIGGER court_event_no_update BEFORE UPDATE ON court_event
BEGIN SELECT RAISE(ABORT, 'court events are append-only'); END;
CREATE TRIGGER court_event_no_delete BEFORE DELETE ON court_event
BEGIN SELECT RAISE(ABORT, 'court events are append-only'); END;
