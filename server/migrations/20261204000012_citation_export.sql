-- When each citation last went to the court, in a narrow table of its own. It
-- was a column on the citation, so an export of 100 000 citations rewrote
-- 100 000 wide citation rows (some 7 000 pages) to stamp one time on each;
-- here the same stamp is ~30 bytes a citation (issue #8). The export batch
-- items stay the record of what went out; this says only when it last did,
-- for "amended since" (store::court::AMENDED_SINCE_EXPORT).
CREATE TABLE citation_export (
    number           TEXT PRIMARY KEY NOT NULL REFERENCES citation (number),
    last_exported_at INTEGER NOT NULL            -- UTC ms, the batch's created_at
) STRICT, WITHOUT ROWID;

INSERT INTO citation_export (number, last_exported_at)
    SELECT number, last_exported_at FROM citation WHERE last_exported_at IS NOT NULL;

ALTER TABLE citation DROP COLUMN last_exported_at;
