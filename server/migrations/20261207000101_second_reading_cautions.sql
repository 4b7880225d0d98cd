-- Issue #33 ("the law, second reading"), Article I: six new cautions for the
-- chief (model::review::CautionKind), each with its partial index in date order
-- as 0009 and 0013 gave the others, so the chief's queue and the register filter
-- on them without walking every incident. Only indexes are added: the codes are
-- written into incident.cautions by reports submitted or corrected from now on.
--   annoyance         §52-1 A(3)'s "annoyance" (Coates v. Cincinnati, 402 U.S. 611 (1971))
--   arrest_authority  an arrest for an offence punishable by a fine only (§52-2, §52-4)
--   contravening      expression set outside §52-1 E because it contravened a law named
--   two_sections      §52-1 and §52-2 cited on the same refusal of the same order
--   minor             a person under 18 (date of birth or perception), or their arrest
--   unidentified      a citation asked for a person not identified: held from filing
CREATE INDEX incident_caution_annoyance ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% annoyance %';
CREATE INDEX incident_caution_arrest_authority ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% arrest_authority %';
CREATE INDEX incident_caution_contravening ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% contravening %';
CREATE INDEX incident_caution_two_sections ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% two_sections %';
CREATE INDEX incident_caution_minor ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% minor %';
CREATE INDEX incident_caution_unidentified ON incident (occurred_at, incident_id)
    WHERE ' ' || cautions || ' ' LIKE '% unidentified %';
