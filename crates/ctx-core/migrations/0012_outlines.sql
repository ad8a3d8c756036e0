-- 0012: each source file's outline, for the folder context files: its most
-- important definitions (most important first, one-line signatures) and how
-- much of the repository depends on it. The repository map writes it (it
-- parses and ranks); the build reads it. Keyed by path, with the content hash
-- it was made from: the build shows an outline only while the file still has
-- that content. Replaced whole each time the map ranks the whole repository.
CREATE TABLE file_outlines (
    path          TEXT PRIMARY KEY,
    hash          BLOB NOT NULL,
    -- PageRank over the reference graph (the files' ranks sum to 1)
    rank          REAL NOT NULL,
    -- how many other files use a name it defines
    referenced_by INTEGER NOT NULL,
    -- JSON array of {kind, name, signature, line, parent}
    defs          TEXT NOT NULL
) WITHOUT ROWID;
