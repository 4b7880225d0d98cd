-- The twin of SQLite's 20261207000202_fine_departure.sql (issue #33, finding 10).
ALTER TABLE citation ADD COLUMN fine_departure TEXT COLLATE "C";
