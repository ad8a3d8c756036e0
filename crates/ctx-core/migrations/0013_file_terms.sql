-- 0013: the words of each source file, for ranking files against a task
-- (ctxkeep-map's encoding: every term the file's text holds and how often),
-- keyed by the file's content hash and the tokenizer's version, so a warm
-- `ctx rank` looks up a task's words instead of reading and tokenizing every
-- file again. Rows whose hash no file has are pruned.
CREATE TABLE file_terms (
    hash    BLOB NOT NULL,
    version INTEGER NOT NULL,
    data    BLOB NOT NULL,
    PRIMARY KEY (hash, version)
) WITHOUT ROWID;
