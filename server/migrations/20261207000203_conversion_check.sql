-- Reports converted from the first version's shape (issue #33, finding 8). The
-- first version recorded the conduct, the §52-1 E answer and the order once for
-- the whole incident, and never asked about an arrest; the conversion
-- (model::first_version::to_current) marks what it could not know as "not
-- recorded — converted". Each citation of such a report is put in front of the
-- chief once, while it stands, to be checked.

-- The citations of every report that has a revision in the first version's
-- shape: those revisions are never rewritten, so this is known here, once. A
-- report in that shape cannot be stored any more (the server refuses it), so
-- no citation joins the list later.
CREATE TABLE converted_citation (
    number TEXT PRIMARY KEY NOT NULL REFERENCES citation (number)
) STRICT, WITHOUT ROWID;

INSERT INTO converted_citation (number)
    SELECT c.number FROM citation c
    WHERE EXISTS (SELECT 1 FROM incident_revision r WHERE r.incident_id = c.incident_id
                  AND json_type(r.report_json, '$.protected_activity') IS NOT NULL);

-- The chief's check of a converted citation: who, when, and a note.
CREATE TABLE conversion_check (
    number   TEXT PRIMARY KEY NOT NULL REFERENCES converted_citation (number),
    note     TEXT NOT NULL,
    actor_id TEXT NOT NULL REFERENCES app_user (user_id),
    at       INTEGER NOT NULL
) STRICT;

CREATE TRIGGER converted_citation_no_update BEFORE UPDATE ON converted_citation
BEGIN SELECT RAISE(ABORT, 'converted citations are append-only'); END;
CREATE TRIGGER converted_citation_no_delete BEFORE DELETE ON converted_citation
BEGIN SELECT RAISE(ABORT, 'converted citations are append-only'); END;
CREATE TRIGGER conversion_check_no_update BEFORE UPDATE ON conversion_check
BEGIN SELECT RAISE(ABORT, 'conversion checks are append-only'); END;
CREATE TRIGGER conversion_check_no_delete BEFORE DELETE ON conversion_check
BEGIN SELECT RAISE(ABORT, 'conversion checks are append-only'); END;
