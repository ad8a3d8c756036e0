-- 0014: artifacts (ACK planning documents). An artifact is a Markdown file of
-- the repository; it is a node of kind 'artifact' (its revision moves on
-- every change, for context caches), with its authored state here: stage,
-- draft or finalized, and per section slug the done and collapsed flags.
-- That state is committed knowledge (`.ctx/knowledge/artifacts/<slug>.md`);
-- the sections themselves are read from the Markdown, which stays the
-- source of the content. Snapshots (local history for restore) and the
-- states agents were shown (for staleness checks) stay local.

CREATE TABLE artifacts (
    node_id   INTEGER PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    slug      TEXT NOT NULL UNIQUE,
    -- repository-relative, with '/'
    path      TEXT NOT NULL UNIQUE,
    stage     TEXT NOT NULL,
    finalized INTEGER NOT NULL DEFAULT 0,
    -- blake3 of the Markdown as last read: a different hash on read re-indexes
    file_hash TEXT NOT NULL DEFAULT ''
);

-- Kept by slug, whether or not the heading is in the file right now (a
-- heading renamed back gets its flags back).
CREATE TABLE artifact_flags (
    artifact_id INTEGER NOT NULL REFERENCES artifacts(node_id) ON DELETE CASCADE,
    section     TEXT NOT NULL,
    done        INTEGER NOT NULL DEFAULT 0,
    collapsed   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (artifact_id, section)
) WITHOUT ROWID;

-- The artifact as it was before an operation: the file's bytes and its state.
CREATE TABLE artifact_snapshots (
    uid         TEXT PRIMARY KEY,
    artifact_id INTEGER NOT NULL REFERENCES artifacts(node_id) ON DELETE CASCADE,
    ts          TEXT NOT NULL,
    file_hash   TEXT NOT NULL,
    content     BLOB NOT NULL,
    -- JSON: {"stage", "finalized", "flags": [{"section", "done", "collapsed"}]}
    state       TEXT NOT NULL,
    reason      TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
CREATE INDEX artifact_snapshots_artifact ON artifact_snapshots(artifact_id, ts);

-- The views handed out (by state hash), so that a check can say what changed since.
CREATE TABLE artifact_states (
    state_hash   TEXT PRIMARY KEY,
    artifact_id  INTEGER NOT NULL REFERENCES artifacts(node_id) ON DELETE CASCADE,
    generated_ms INTEGER NOT NULL,
    -- JSON: the view's status, stage and sections (slug, done)
    summary      TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX artifact_states_artifact ON artifact_states(artifact_id, generated_ms);

CREATE TRIGGER knowledge_artifact_doc_insert AFTER INSERT ON artifacts BEGIN
    INSERT OR IGNORE INTO knowledge_dirty VALUES ('artifact:' || new.slug);
END;
CREATE TRIGGER knowledge_artifact_doc_update AFTER UPDATE OF slug, path, stage, finalized ON artifacts BEGIN
    INSERT OR IGNORE INTO knowledge_dirty VALUES ('artifact:' || old.slug);
    INSERT OR IGNORE INTO knowledge_dirty VALUES ('artifact:' || new.slug);
END;
CREATE TRIGGER knowledge_artifact_doc_delete AFTER DELETE ON artifacts BEGIN
    INSERT OR IGNORE INTO knowledge_dirty VALUES ('artifact:' || old.slug);
END;
CREATE TRIGGER knowledge_artifact_flags_insert AFTER INSERT ON artifact_flags BEGIN
    INSERT OR IGNORE INTO knowledge_dirty SELECT 'artifact:' || slug FROM artifacts WHERE node_id = new.artifact_id;
END;
CREATE TRIGGER knowledge_artifact_flags_update AFTER UPDATE ON artifact_flags BEGIN
    INSERT OR IGNORE INTO knowledge_dirty SELECT 'artifact:' || slug FROM artifacts WHERE node_id = new.artifact_id;
END;
CREATE TRIGGER knowledge_artifact_flags_delete AFTER DELETE ON artifact_flags BEGIN
    INSERT OR IGNORE INTO knowledge_dirty SELECT 'artifact:' || slug FROM artifacts WHERE node_id = old.artifact_id;
END;
