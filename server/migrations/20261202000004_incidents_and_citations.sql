-- Article I incidents, the persons in them, and citations (issue #5).
-- Times are UTC milliseconds since the Unix epoch.

CREATE TABLE incident (
    -- Made on the officer's phone (UUID v7) before the first send: a retried
    -- submit finds its first copy instead of storing a second.
    incident_id        TEXT PRIMARY KEY NOT NULL,
    officer_id         TEXT NOT NULL REFERENCES app_user (user_id),
    -- submitted → approved, or returned → (corrected) submitted (DESIGN §3).
    status             TEXT NOT NULL CHECK (status IN ('submitted', 'returned', 'approved')),
    occurred_at        INTEGER NOT NULL,
    location_text      TEXT NOT NULL,
    -- §52-1 C place types (app/src/ordinance/facts.rs PlaceType codes)
    place_type         TEXT NOT NULL,
    gps_lat            REAL,
    gps_lon            REAL,
    gps_accuracy_m     REAL,
    -- §52-1 E answer: none, peaceful_picketing, public_speaking, other_lawful_expression
    protected_activity TEXT NOT NULL,
    narrative          TEXT NOT NULL,
    -- The whole current report as JSON (model::incident::IncidentReport); earlier
    -- versions are kept in incident_revision.
    report_json        TEXT NOT NULL,
    -- SHA-256 of the report as first submitted: a retry with the same id and the
    -- same content is harmless; the same id with other content is refused.
    content_hash       TEXT NOT NULL,
    revision           INTEGER NOT NULL DEFAULT 1,
    submitted_at       INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    -- The chief's reason when returned (DESIGN §3: a reason is required).
    return_reason      TEXT,
    reviewed_by        TEXT REFERENCES app_user (user_id),
    reviewed_at        INTEGER,
    -- What the chief should look at, as space-separated codes
    -- (model::review::CautionKind), worked out when the report is stored.
    cautions           TEXT NOT NULL DEFAULT '',
    -- occurred_at in the Town's time zone, for the dashboard's by-day, by-hour
    -- and by-weekday figures (SQLite has no time zones).
    local_date         TEXT NOT NULL,           -- YYYY-MM-DD
    local_hour         INTEGER NOT NULL CHECK (local_hour BETWEEN 0 AND 23),
    local_weekday      INTEGER NOT NULL CHECK (local_weekday BETWEEN 0 AND 6) -- 0 = Monday
) STRICT;

CREATE INDEX incident_officer ON incident (officer_id, submitted_at DESC);
CREATE INDEX incident_status ON incident (status, submitted_at);
CREATE INDEX incident_occurred ON incident (occurred_at, incident_id);
CREATE INDEX incident_local_date ON incident (local_date);
CREATE INDEX incident_location ON incident (location_text COLLATE NOCASE);

-- Every version of every report, with who changed it and why: nothing is ever
-- overwritten without its old value kept (DESIGN §3).
CREATE TABLE incident_revision (
    incident_id TEXT NOT NULL REFERENCES incident (incident_id),
    revision    INTEGER NOT NULL,
    at          INTEGER NOT NULL,
    actor_id    TEXT NOT NULL REFERENCES app_user (user_id),
    -- 'submitted', 'resubmitted' (officer's correction), 'amended' (chief)
    kind        TEXT NOT NULL,
    reason      TEXT,
    report_json TEXT NOT NULL,
    PRIMARY KEY (incident_id, revision)
) STRICT;

CREATE TABLE subject (
    -- Made on the phone; stable across corrections.
    subject_id     TEXT PRIMARY KEY NOT NULL,
    incident_id    TEXT NOT NULL REFERENCES incident (incident_id),
    position       INTEGER NOT NULL,
    identified     INTEGER NOT NULL CHECK (identified IN (0, 1)),
    full_name      TEXT,
    date_of_birth  TEXT,            -- YYYY-MM-DD
    address        TEXT,
    id_type        TEXT,
    id_number      TEXT,
    description    TEXT,            -- for a person not identified
    -- The officer's perception, kept apart from identity, for bias audits.
    perceived_age  TEXT NOT NULL,
    perceived_sex  TEXT NOT NULL,
    perceived_race TEXT NOT NULL,
    -- §52-1 D response: no_order, left_before_order, complied, refused
    response       TEXT NOT NULL,
    response_at    INTEGER,
    refusal_manner TEXT,
    offence        TEXT,            -- 52-1(A)(1) … 52-3, or NULL when none charged
    -- complied, departed, warned, protected_activity, cited, arrested
    outcome        TEXT NOT NULL,
    -- Set when a correction or amendment took this person out of the report; the
    -- row stays, because a citation may name it (nothing is deleted).
    withdrawn_at   INTEGER
) STRICT;

CREATE INDEX subject_incident ON subject (incident_id, position);
CREATE INDEX subject_name ON subject (full_name COLLATE NOCASE);

-- Gapless per calendar year (in the Town's zone): the next number is taken in the
-- same transaction that stores the citation, so a rolled-back issue leaves no gap.
CREATE TABLE citation_counter (
    year     INTEGER PRIMARY KEY NOT NULL,
    last_seq INTEGER NOT NULL
) STRICT;

CREATE TABLE citation (
    citation_id     TEXT PRIMARY KEY NOT NULL,
    number          TEXT NOT NULL UNIQUE,                 -- WPD-YYYY-NNNNNN
    year            INTEGER NOT NULL,
    seq             INTEGER NOT NULL,
    incident_id     TEXT NOT NULL REFERENCES incident (incident_id),
    -- One citation per person per incident: the charge is per person.
    subject_id      TEXT NOT NULL UNIQUE REFERENCES subject (subject_id),
    offence         TEXT NOT NULL,
    -- §52-4: one hundred dollars, plus costs the court assesses.
    fine_cents      INTEGER NOT NULL CHECK (fine_cents = 10000),
    -- §52-2: arrested to be brought before the District Court.
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
    -- The last chief's amendment after the citation went to court: the next
    -- export shows it as an amended filing (issue #7).
    amended_at      INTEGER,
    updated_at      INTEGER NOT NULL,
    UNIQUE (year, seq)
) STRICT;

CREATE INDEX citation_status ON citation (status, issued_at);
CREATE INDEX citation_incident ON citation (incident_id);

-- The chief's decisions (DESIGN §3): approve, return (reason required) and void
-- (reason required). Append-only, like the audit log; the dashboard counts
-- returns and voids from here.
CREATE TABLE review_decision (
    decision_id TEXT PRIMARY KEY NOT NULL,
    incident_id TEXT NOT NULL REFERENCES incident (incident_id),
    -- The revision the chief was looking at.
    revision    INTEGER NOT NULL,
    action      TEXT NOT NULL CHECK (action IN ('approve', 'return', 'void')),
    citation    TEXT REFERENCES citation (number),   -- for 'void'
    reason      TEXT CHECK (action = 'approve' OR length(trim(reason)) > 0),
    actor_id    TEXT NOT NULL REFERENCES app_user (user_id),
    at          INTEGER NOT NULL
) STRICT;

CREATE INDEX review_decision_incident ON review_decision (incident_id, at);
CREATE INDEX review_decision_at ON review_decision (at);

CREATE TRIGGER review_decision_no_update BEFORE UPDATE ON review_decision
BEGIN SELECT RAISE(ABORT, 'review decisions are append-only'); END;
CREATE TRIGGER review_decision_no_delete BEFORE DELETE ON review_decision
BEGIN SELECT RAISE(ABORT, 'review decisions are append-only'); END;

CREATE TRIGGER incident_revision_no_update BEFORE UPDATE ON incident_revision
BEGIN SELECT RAISE(ABORT, 'report revisions are append-only'); END;
CREATE TRIGGER incident_revision_no_delete BEFORE DELETE ON incident_revision
BEGIN SELECT RAISE(ABORT, 'report revisions are append-only'); END;
