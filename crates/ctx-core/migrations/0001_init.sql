-- 0001: the initial schema. One tree of nodes (folders now; frames, artifacts and
-- sections later share the table), one stream of records (decisions now; session
-- turns, attempts and operations later), the files a scan saw, and a small
-- key/value table for workspace facts such as the last scan time.

CREATE TABLE nodes (
    id           INTEGER PRIMARY KEY,
    kind         TEXT NOT NULL CHECK (kind IN ('folder', 'frame', 'artifact', 'section')),
    parent_id    INTEGER REFERENCES nodes(id) ON DELETE CASCADE,
    -- folders only: the repository-relative path, '.' for the root
    path         TEXT CHECK ((kind = 'folder') = (path IS NOT NULL)),
    title        TEXT NOT NULL DEFAULT '',
    description  TEXT NOT NULL DEFAULT '',
    content_md   TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL DEFAULT '',
    is_scope     INTEGER NOT NULL DEFAULT 0,
    -- set when an input of the node's context changed; cleared by a build
    stale        INTEGER NOT NULL DEFAULT 1,
    -- when a person or an agent last wrote description or content (NULL: never)
    described_at TEXT,
    meta         TEXT NOT NULL DEFAULT '{}',
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE UNIQUE INDEX nodes_folder_path ON nodes(path) WHERE path IS NOT NULL;
CREATE INDEX nodes_parent ON nodes(parent_id);
CREATE INDEX nodes_stale ON nodes(kind) WHERE stale = 1;

-- Directed relations between nodes ('related' scopes of a folder, for now).
CREATE TABLE links (
    from_id    INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    to_id      INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    note       TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    PRIMARY KEY (from_id, to_id, kind)
) WITHOUT ROWID;
CREATE INDEX links_to ON links(to_id);

CREATE TABLE files (
    id        INTEGER PRIMARY KEY,
    path      TEXT NOT NULL UNIQUE,
    folder_id INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    size      INTEGER NOT NULL,
    mtime_ns  INTEGER NOT NULL,
    -- blake3 of the content; NULL when the file was not read (binary, oversized)
    hash      BLOB,
    kind      TEXT NOT NULL CHECK (kind IN ('text', 'binary', 'oversized')),
    lang      TEXT,
    -- why the file looks like a secret (NULL: it does not); such content is never output
    secret    TEXT
);
CREATE INDEX files_folder ON files(folder_id);

CREATE TABLE records (
    id         INTEGER PRIMARY KEY,
    uid        TEXT NOT NULL UNIQUE,
    type       TEXT NOT NULL,
    node_id    INTEGER REFERENCES nodes(id) ON DELETE SET NULL,
    session_id TEXT,
    role       TEXT,
    title      TEXT NOT NULL DEFAULT '',
    body       TEXT NOT NULL DEFAULT '',
    -- space-separated lowercase tags, so FTS can match them
    tags       TEXT NOT NULL DEFAULT '',
    refs       TEXT NOT NULL DEFAULT '[]',
    pool       TEXT NOT NULL DEFAULT 'hot' CHECK (pool IN ('hot', 'archive')),
    ts         TEXT NOT NULL,
    meta       TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX records_node ON records(node_id, ts);
CREATE INDEX records_type ON records(type, ts);
CREATE INDEX records_session ON records(session_id, ts);

CREATE VIRTUAL TABLE records_fts USING fts5(
    title, body, tags,
    content = 'records', content_rowid = 'id',
    tokenize = 'porter unicode61'
);
CREATE TRIGGER records_fts_insert AFTER INSERT ON records BEGIN
    INSERT INTO records_fts(rowid, title, body, tags)
    VALUES (new.id, new.title, new.body, new.tags);
END;
CREATE TRIGGER records_fts_delete AFTER DELETE ON records BEGIN
    INSERT INTO records_fts(records_fts, rowid, title, body, tags)
    VALUES ('delete', old.id, old.title, old.body, old.tags);
END;
CREATE TRIGGER records_fts_update AFTER UPDATE OF title, body, tags ON records BEGIN
    INSERT INTO records_fts(records_fts, rowid, title, body, tags)
    VALUES ('delete', old.id, old.title, old.body, old.tags);
    INSERT INTO records_fts(rowid, title, body, tags)
    VALUES (new.id, new.title, new.body, new.tags);
END;

CREATE TABLE kv (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
