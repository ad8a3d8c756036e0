-- 0010: how far each transcript was ingested (`Workspace::ingest_transcript`,
-- run by the PreCompact, Stop and SessionEnd hooks). A transcript grows a
-- line at a time; the cursor lets a hook read only the new lines, and tell a
-- file that grew from one that was rewritten (then it is read again from the
-- start: ingest's dedup keys make that idempotent).

CREATE TABLE transcript_cursors (
    -- the transcript's canonical absolute path
    path       TEXT PRIMARY KEY,
    -- bytes read: the end of the last complete line ingested
    read_to    INTEGER NOT NULL,
    -- the file's size and mtime when last read: both unchanged, nothing to do
    -- (a read stopped at its deadline records the size it read to instead)
    size       INTEGER NOT NULL,
    mtime_ns   INTEGER NOT NULL,
    -- blake3 of the first min(read_to, 4096) bytes and of the 4096 bytes
    -- before `read_to` (fewer when the file is short): the file still begins,
    -- and still holds at `read_to`, what was read
    head_hash  BLOB NOT NULL,
    tail_hash  BLOB NOT NULL,
    read_at    TEXT NOT NULL
) WITHOUT ROWID;

-- The pack's manifest counts records by pool and type at every session
-- start: from this index alone, not from the records' pages (on a memory
-- of 25 MB of transcripts, 60 ms → 15 ms).
CREATE INDEX records_pool_type ON records(pool, type);
