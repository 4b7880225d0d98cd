-- The dashboard counts each article's citations under its own penalty section
-- (issue #33: §52-7 citations were counted under "Citations issued (§52-4)"),
-- from a new count of standing citations by offence; and a citation the Town
-- withdrew from the court is no longer owed (store::dashboard::rollup).

-- A withdrawal changes what is owed on its incident's day.
CREATE TRIGGER citation_withdrawal_dashboard_insert AFTER INSERT ON citation_withdrawal
BEGIN
    INSERT INTO dashboard_stale (local_date)
        SELECT local_date FROM incident WHERE incident_id = NEW.incident_id
        AND local_date NOT IN (SELECT local_date FROM dashboard_stale);
END;

-- Every day with a citation is counted again at the next read, the new count
-- with it.
INSERT OR IGNORE INTO dashboard_stale (local_date)
    SELECT DISTINCT i.local_date FROM incident i
    WHERE EXISTS (SELECT 1 FROM citation c WHERE c.incident_id = i.incident_id);
