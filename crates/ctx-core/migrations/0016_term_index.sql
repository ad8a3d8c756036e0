-- 0016: the files' words inverted: for each term, the contents that hold it
-- and how often (ctxkeep-map's encoding), so that ranking for a task reads
-- the postings of the task's few terms, not every file's whole term table
-- (`file_terms`, dropped: these tables hold the same words). Postings come in
-- segments, one per batch of new contents, each cut into buckets by a hash of
-- the term; `term_docs` says which segment holds a content's postings, under
-- which number, and how many terms its text and its names hold. A segment no
-- content uses any more is dropped; many, or mostly dead, are merged into one.
DROP TABLE file_terms;
CREATE TABLE term_segments (
    id      INTEGER PRIMARY KEY,
    version INTEGER NOT NULL,
    buckets INTEGER NOT NULL,
    docs    INTEGER NOT NULL
);
CREATE TABLE term_postings (
    segment INTEGER NOT NULL REFERENCES term_segments (id) ON DELETE CASCADE,
    bucket  INTEGER NOT NULL,
    data    BLOB NOT NULL,
    PRIMARY KEY (segment, bucket)
);
CREATE TABLE term_docs (
    hash    BLOB PRIMARY KEY,
    version INTEGER NOT NULL,
    segment INTEGER NOT NULL,
    doc     INTEGER NOT NULL,
    body    INTEGER NOT NULL,
    names   INTEGER NOT NULL
) WITHOUT ROWID;
