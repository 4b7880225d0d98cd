-- The dashboard's one-screen summary (issue #37) reads new counts from
-- dashboard_count: persons by named area and outcome, by named area, offence
-- and outcome, and by each perception with the §52-1 D response and the
-- outcome (store::dashboard::rollup). The triggers of migration 0008 already
-- mark the days these change; every day with a record is counted again at the
-- next read, the new counts with it.
INSERT INTO dashboard_stale (local_date)
    SELECT DISTINCT local_date FROM incident
    ON CONFLICT (local_date) DO NOTHING;
