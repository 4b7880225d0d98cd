-- Issue #37, finding 4: two cautions the chief's filter found nothing for.
-- "Expression involved" (code `expression`) now also marks every report in
-- which a person's §52-1 E answer is expression — the reports the dashboard's
-- §52-1 E figure counts — and "Refused before the time allowed"
-- (`early_refusal`) every report with a refusal recorded before the time
-- allowed to comply had passed (an outright refusal, counted at once). Reports
-- submitted or corrected from now on carry them (model::review::record_cautions);
-- these statements add them to the reports stored before, once.
UPDATE incident SET cautions = trim(cautions || ' expression')
WHERE protected_activity <> 'none'
  AND ' ' || cautions || ' ' NOT LIKE '% expression %'
  -- A report whose current revision is still in the first version's shape
  -- prints the cautions that version stored (store::register, StoredReport::First):
  -- it is left as it was printed.
  AND NOT EXISTS (
    SELECT 1 FROM incident_revision r
    WHERE r.incident_id = incident.incident_id AND r.revision = incident.revision
      AND (json_type(r.report_json, '$.protected_activity') IS NOT NULL
           OR json_type(r.report_json, '$.conduct') IS NOT NULL));

-- The order a person received is `subjects[i].order` of the stored report, the
-- time allowed `orders[k].minutes_to_comply` (at least the order's own minute:
-- ordinance::DispersalOrder::failure_counts_from).
UPDATE incident SET cautions = trim(cautions || ' early_refusal')
WHERE ' ' || cautions || ' ' NOT LIKE '% early_refusal %'
  -- (Not a first-version report either: see above.)
  AND NOT EXISTS (
    SELECT 1 FROM incident_revision r
    WHERE r.incident_id = incident.incident_id AND r.revision = incident.revision
      AND (json_type(r.report_json, '$.protected_activity') IS NOT NULL
           OR json_type(r.report_json, '$.conduct') IS NOT NULL))
  AND EXISTS (
    SELECT 1 FROM json_each(incident.report_json, '$.subjects') AS s
    WHERE json_extract(s.value, '$.response.kind') = 'refused'
      AND json_type(s.value, '$.order') = 'integer'
      AND json_extract(s.value, '$.response.at') <
          json_extract(incident.report_json,
                       '$.orders[' || json_extract(s.value, '$.order') || '].given_at')
          + 60000 * max(1, coalesce(json_extract(incident.report_json,
                       '$.orders[' || json_extract(s.value, '$.order') || '].minutes_to_comply'), 0))
  );
