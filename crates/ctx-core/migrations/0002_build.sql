-- 0002: what the build needs. A file's one-line summary (from its README
-- paragraph, docstring, doc comment or manifest description), and a record
-- of every context file the build wrote, so that the next build and
-- `ctx validate` can tell current, stale, missing, orphaned and hand-edited
-- files apart by hash rather than by a flag.

ALTER TABLE files ADD COLUMN summary TEXT;

CREATE TABLE builds (
    -- the folder key; not a foreign key: rows of deleted folders name their orphans
    folder_path TEXT NOT NULL,
    tier        TEXT NOT NULL CHECK (tier IN ('minimal', 'standard', 'full', 'deep')),
    -- the file's name inside .ctx/context/
    file_name   TEXT NOT NULL UNIQUE,
    -- hash of every input the file was rendered from
    source_hash TEXT NOT NULL,
    -- blake3 of the bytes written, to tell hand edits apart
    file_hash   TEXT NOT NULL,
    tokens      INTEGER NOT NULL,
    built_at    TEXT NOT NULL,
    PRIMARY KEY (folder_path, tier)
) WITHOUT ROWID;
