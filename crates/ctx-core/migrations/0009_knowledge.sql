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
CREATE INDEX knowledge_files_item ON knowledge_files(item);

-- The items whose files may be out of date: set by these triggers on every
-- change to what an item's file holds, whoever makes it (a command, a load,
-- the scan removing a folder, the secrets scrub), cleared when the files
-- are written. A write renders only these, not every item.
CREATE TABLE knowledge_dirty (item TEXT PRIMARY KEY) WITHOUT ROWID;

CREATE TRIGGER knowledge_folder_update AFTER UPDATE OF description, content_md, is_scope ON nodes
WHEN new.kind = 'folder' BEGIN
    INSERT OR IGNORE INTO knowledge_dirty VALUES ('folder:' || new.path);
END;
CREATE TRIGGER knowledge_frame_insert AFTER INSERT ON nodes WHEN new.kind = 'frame' AND new.uid IS NOT NULL BEGIN
    INSERT OR IGNORE INTO knowledge_dirty VALUES ('frame:' || new.uid);
END;
CREATE TRIGGER knowledge_frame_update AFTER UPDATE OF uid, seq, parent_id, frame_type, title, description, status,
    summary, criteria, created_at, activated_at, ended_at, activation ON nodes
WHEN new.kind = 'frame' AND new.uid IS NOT NULL BEGIN
    INSERT OR IGNORE INTO knowledge_dirty VALUES ('frame:' || new.uid);
END;
CREATE TRIGGER knowledge_node_delete AFTER DELETE ON nodes
WHEN old.kind = 'folder' OR (old.kind = 'frame' AND old.uid IS NOT NULL) BEGIN
    INSERT OR IGNORE INTO knowledge_dirty
    VALUES (CASE old.kind WHEN 'folder' THEN 'folder:' || old.path ELSE 'frame:' || old.uid END);
END;

CREATE TRIGGER knowledge_link_insert AFTER INSERT ON links WHEN new.kind = 'related' BEGIN
    INSERT OR IGNORE INTO knowledge_dirty SELECT 'folder:' || path FROM nodes WHERE id = new.from_id AND kind = 'folder';
END;
CREATE TRIGGER knowledge_link_update AFTER UPDATE ON links WHEN new.kind = 'related' BEGIN
    INSERT OR IGNORE INTO knowledge_dirty SELECT 'folder:' || path FROM nodes WHERE id = new.from_id AND kind = 'folder';
END;
CREATE TRIGGER knowledge_link_delete AFTER DELETE ON links WHEN old.kind = 'related' BEGIN
    INSERT OR IGNORE INTO knowledge_dirty SELECT 'folder:' || path FROM nodes WHERE id = old.from_id AND kind = 'folder';
END;

CREATE TRIGGER knowledge_record_insert AFTER INSERT ON records WHEN new.type IN ('decision', 'pin', 'attempt') BEGIN
    INSERT OR IGNORE INTO knowledge_dirty
    SELECT item FROM (SELECT CASE new.type WHEN 'attempt' THEN (SELECT 'frame:' || uid FROM nodes WHERE id = new.node_id)
                                          ELSE new.type || ':' || new.uid END AS item) WHERE item IS NOT NULL;
END;
CREATE TRIGGER knowledge_record_update AFTER UPDATE OF uid, node_id, title, body, tags, ts, meta ON records
WHEN new.type IN ('decision', 'pin', 'attempt') BEGIN
    INSERT OR IGNORE INTO knowledge_dirty
    SELECT item FROM (SELECT CASE new.type WHEN 'attempt' THEN (SELECT 'frame:' || uid FROM nodes WHERE id = new.node_id)
                                          ELSE new.type || ':' || new.uid END AS item) WHERE item IS NOT NULL;
END;
CREATE TRIGGER knowledge_record_delete AFTER DELETE ON records WHEN old.type IN ('decision', 'pin', 'attempt') BEGIN
    INSERT OR IGNORE INTO knowledge_dirty
    SELECT item FROM (SELECT CASE old.type WHEN 'attempt' THEN (SELECT 'frame:' || uid FROM nodes WHERE id = old.node_id)
                                          ELSE old.type || ':' || old.uid END AS item) WHERE item IS NOT NULL;
END;

CREATE TRIGGER knowledge_artifact_insert AFTER INSERT ON frame_artifacts BEGIN
    INSERT OR IGNORE INTO knowledge_dirty SELECT 'frame:' || uid FROM nodes WHERE id = new.node_id AND uid IS NOT NULL;
END;
CREATE TRIGGER knowledge_artifact_delete AFTER DELETE ON frame_artifacts BEGIN
    INSERT OR IGNORE INTO knowledge_dirty SELECT 'frame:' || uid FROM nodes WHERE id = old.node_id AND uid IS NOT NULL;
END;

-- What a store from before this migration holds is written out at the next sync.
INSERT OR IGNORE INTO knowledge_dirty SELECT 'folder:' || path FROM nodes WHERE kind = 'folder'
    AND (description <> '' OR content_md <> '' OR is_scope = 1 OR id IN (SELECT from_id FROM links WHERE kind = 'related'));
INSERT OR IGNORE INTO knowledge_dirty SELECT 'frame:' || uid FROM nodes WHERE kind = 'frame';
INSERT OR IGNORE INTO knowledge_dirty SELECT type || ':' || uid FROM records WHERE type IN ('decision', 'pin');
