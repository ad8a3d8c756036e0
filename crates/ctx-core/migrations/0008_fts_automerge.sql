-- 0008: FTS5 merges segments once `automerge` of them (default 4) share
-- a level; at 8 a bulk ingest does less merging. Searches read one
-- segment more or less per term: they rank a bounded window anyway.
INSERT INTO records_fts (records_fts, rank) VALUES ('automerge', 8);
