-- The twin of SQLite's 20261207000204_dashboard_by_article.sql (issue #33).
CREATE TRIGGER citation_withdrawal_dashboard_insert AFTER INSERT ON citation_withdrawal
    FOR EACH ROW EXECUTE FUNCTION dashboard_stale_of_incident();

INSERT INTO dashboard_stale (local_date)
    SELECT DISTINCT i.local_date FROM incident i
    WHERE EXISTS (SELECT 1 FROM citation c WHERE c.incident_id = i.incident_id)
    ON CONFLICT (local_date) DO NOTHING;
