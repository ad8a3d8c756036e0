-- 0006: the vector channel of `ctx search`. Vectors are derived data:
-- rebuildable from the records at any time.
--
-- A vector space is one embedder's vectors (its name says which model).
-- Every record up to `watermark` (a records.id) has its vector.
CREATE TABLE vector_spaces (
    id INTEGER PRIMARY KEY,
    embedder TEXT NOT NULL UNIQUE,
    dim INTEGER NOT NULL,
    watermark INTEGER NOT NULL DEFAULT 0
);

-- Each record's vector, int8 quantized (scaled by its largest component:
-- cosines are unchanged by the scale), for exact rescoring.
CREATE TABLE record_vectors (
    record_id INTEGER NOT NULL,
    space_id INTEGER NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (record_id, space_id)
) WITHOUT ROWID;

-- The sign bits of the vectors, 4,096 records a row, scanned in one pass
-- to find candidates by Hamming distance: ids are little-endian i64s,
-- codes dim/64 little-endian u64s a record.
CREATE TABLE vector_chunks (
    space_id INTEGER NOT NULL,
    chunk INTEGER NOT NULL,
    ids BLOB NOT NULL,
    codes BLOB NOT NULL,
    PRIMARY KEY (space_id, chunk)
);

-- A deleted record's vector goes with it; its code stays in its chunk and
-- is skipped (it has no vector to rescore). When the newest record is
-- deleted its id can be given again, so the watermark steps back.
CREATE TRIGGER records_vectors_delete AFTER DELETE ON records BEGIN
    DELETE FROM record_vectors WHERE record_id = old.id;
    UPDATE vector_spaces SET watermark = old.id - 1
    WHERE watermark >= old.id AND old.id > (SELECT coalesce(max(id), 0) FROM records);
END;
