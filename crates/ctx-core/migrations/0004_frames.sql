-- 0004: the work tree. Frames (units of agent work: flame frames, cub epics
-- and tasks) are nodes of kind 'frame' in the same tree table as folders;
-- these columns are theirs (NULL or default on folders). Decisions and
-- attempts on a frame are records with its node_id. Assembled context is
-- cached here so that a second process within the TTL reuses it.

-- The number in the frame's id: F<seq>. Unique, never reused.
ALTER TABLE nodes ADD COLUMN seq INTEGER;
-- frame, epic, task, bug, feature, ...: what the frame is (free text, lower case)
ALTER TABLE nodes ADD COLUMN frame_type TEXT;
-- What was achieved, written when the frame ends (or later)
ALTER TABLE nodes ADD COLUMN summary TEXT NOT NULL DEFAULT '';
-- Acceptance criteria: a JSON array of strings
ALTER TABLE nodes ADD COLUMN criteria TEXT NOT NULL DEFAULT '[]';
-- When the frame was last pushed or started, and in which order: the
-- current frame is the in-progress frame with the highest activation (a
-- counter, because two activations can share a millisecond)
ALTER TABLE nodes ADD COLUMN activated_at TEXT;
ALTER TABLE nodes ADD COLUMN activation INTEGER;
ALTER TABLE nodes ADD COLUMN ended_at TEXT;
-- Revisions, for the context cache: `rev` moves on every change to the frame
-- (its fields, artifacts, decisions, attempts), `children_rev` on every
-- change to one of its children or their set.
ALTER TABLE nodes ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
ALTER TABLE nodes ADD COLUMN children_rev INTEGER NOT NULL DEFAULT 0;

CREATE UNIQUE INDEX nodes_frame_seq ON nodes(seq) WHERE seq IS NOT NULL;
CREATE INDEX nodes_frame_activation ON nodes(activation) WHERE activation IS NOT NULL;

-- Paths (or globs) a frame produced or touched, repository-relative.
CREATE TABLE frame_artifacts (
    node_id  INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    path     TEXT NOT NULL,
    added_at TEXT NOT NULL,
    PRIMARY KEY (node_id, path)
) WITHOUT ROWID;

-- Assembled context, one entry per frame and rendering (xml, md, json,
-- prompt), valid while `state_hash` (every input it was made from) matches
-- and it is younger than the TTL; least recently used entries are evicted.
CREATE TABLE context_cache (
    node_id    INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    rendering  TEXT NOT NULL,
    state_hash TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    used_ms    INTEGER NOT NULL,
    text       TEXT NOT NULL,
    -- the assembly's report (tokens per section, selection counts), JSON
    report     TEXT NOT NULL,
    PRIMARY KEY (node_id, rendering)
) WITHOUT ROWID;
CREATE INDEX context_cache_used ON context_cache(used_ms);
