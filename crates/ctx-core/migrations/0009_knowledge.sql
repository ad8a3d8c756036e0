-- 0009: committed knowledge. What people and agents author is also kept in
-- text files under `.ctx/knowledge/` (see knowledge/); this table is what ctx
-- last read from or wrote to each of them, so that a scan loads only the
-- files that changed since, and a write rewrites only the items that changed.
--
-- Frames get a `uid`: their `F<seq>` numbers are given one after the other,
-- so two branches can both make an `F5`; the uid tells them apart after a
-- merge, and references between files use it.

ALTER TABLE nodes ADD COLUMN uid TEXT;
UPDATE nodes SET uid = lower(hex(randomblob(6))) WHERE kind = 'frame';
CREATE UNIQUE INDEX nodes_uid ON nodes(uid) WHERE uid IS NOT NULL;

CREATE TABLE knowledge_files (
    -- relative to .ctx/knowledge, with '/'
    path          TEXT PRIMARY KEY,
    -- what the file holds: 'folder:src/auth', 'decision:D-…', 'frame:<uid>', 'pin:H-…'
    item          TEXT NOT NULL,
    size          INTEGER NOT NULL,
    mtime_ns      INTEGER NOT NULL,
    -- blake3 of the bytes last read or written
    disk_hash     TEXT NOT NULL,
    -- blake3 of the file ctx renders for the item as it was last read or written:
    -- a write leaves the file alone while the item still renders to this
    rendered_hash TEXT NOT NULL,
    -- 0: the item could not be put in the database (a folder the scan does not
    -- have); the file is kept as it is and tried again at every sync
    applied       INTEGER NOT NULL DEFAULT 1
) WITHOUT ROWID;
