-- The fine the court actually assessed, when it differs from the one the
-- ordinance sets (§52-4 for Article I, §52-12 for Article II) and the citation
-- states (issue #33, finding 10). The court's judgment is the record: the clerk
-- records the amount (fine_assessed_cents) and here the court's own words for
-- it, which flag the citation wherever it is shown. NULL: the fine assessed is
-- the citation's.
ALTER TABLE citation ADD COLUMN fine_departure TEXT;
