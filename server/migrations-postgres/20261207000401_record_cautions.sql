-- PostgreSQL twin of ../migrations/20261207000401_record_cautions.sql (issue
-- #37, finding 4): `expression` on every report where a person's §52-1 E answer
-- is expression, `early_refusal` on every report with a refusal recorded before
-- the time allowed to comply had passed, for the reports stored before.
UPDATE incident SET cautions = btrim(cautions || ' expression')
WHERE protected_activity <> 'none'
  AND ' ' || cautions || ' ' NOT LIKE '% expression %'
  -- A report whose current revision is still in the first version's shape
  -- prints the cautions that version stored (store::register, StoredReport::First):
  -- it is left as it was printed.
  AND NOT EXISTS (
    SELECT 1 FROM incident_revision r
    WHERE r.incident_id = incident.incident_id AND r.revision = incident.revision
      AND ((r.report_json::jsonb -> 'protected_activity') IS NOT NULL
           OR (r.report_json::jsonb -> 'conduct') IS NOT NULL));

UPDATE incident SET cautions = btrim(cautions || ' early_refusal')
WHERE ' ' || cautions || ' ' NOT LIKE '% early_refusal %'
  -- (Not a first-version report either: see above.)
  AND NOT EXISTS (
    SELECT 1 FROM incident_revision r
    WHERE r.incident_id = incident.incident_id AND r.revision = incident.revision
      AND ((r.report_json::jsonb -> 'protected_activity') IS NOT NULL
           OR (r.report_json::jsonb -> 'conduct') IS NOT NULL))
  AND EXISTS (
    -- A report of an older shape without a list of persons has none to look at.
    SELECT 1 FROM jsonb_array_elements(
        CASE WHEN jsonb_typeof(incident.report_json::jsonb -> 'subjects') = 'array'
             THEN incident.report_json::jsonb -> 'subjects' ELSE '[]'::jsonb END) AS s(value)
    WHERE s.value -> 'response' ->> 'kind' = 'refused'
      AND jsonb_typeof(s.value -> 'order') = 'number'
      AND (s.value -> 'response' ->> 'at')::bigint <
          (incident.report_json::jsonb -> 'orders' -> ((s.value ->> 'order')::int) ->> 'given_at')::bigint
          + 60000 * GREATEST(1, COALESCE((incident.report_json::jsonb -> 'orders'
                                          -> ((s.value ->> 'order')::int) ->> 'minutes_to_comply')::bigint, 0))
  );
