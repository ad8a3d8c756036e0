-- 0015: values derived from outside the store or from many of its rows (the
-- version history at one HEAD, ctxkeep-map's task-independent reference graph:
-- up to megabytes) move out of `kv`. A WITHOUT ROWID table keeps whole rows
-- in its b-tree, so every write of a small key there (each scan writes four)
-- read these large ones again on the way down. Here only the key index is
-- searched; a value is read when it is asked for.
CREATE TABLE derived (
    key   TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
INSERT INTO derived (key, value) SELECT substr(key, 9), value FROM kv WHERE key LIKE 'derived.%';
DELETE FROM kv WHERE key LIKE 'derived.%';
