-- Citation numbers (§52-4; DESIGN §3: gapless within the year) are now taken by
-- the statement that stores the citation, as MAX(seq) + 1 of its year under the
-- UNIQUE (year, seq) index (store::incidents::issue_citation): the same gapless
-- sequence, one statement instead of two on the write path (issue #8). Numbers
-- already given are the citations themselves, so the counter holds nothing the
-- citation table does not; it is dropped so nothing reads a stale copy.
DROP TABLE citation_counter;
