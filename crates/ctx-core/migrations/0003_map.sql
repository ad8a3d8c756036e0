-- 0003: the repository map's cache. What a file defines and references
-- (ctxkeep-map's encoding), keyed by the file's content hash, the language it
-- was parsed as and the extractor's version: an unchanged file is never
-- parsed again, by any process. Rows whose hash no file has are pruned.

CREATE TABLE file_tags (
    hash    BLOB NOT NULL,
    lang    TEXT NOT NULL,
    version INTEGER NOT NULL,
    data    BLOB NOT NULL,
    PRIMARY KEY (hash, lang, version)
) WITHOUT ROWID;
