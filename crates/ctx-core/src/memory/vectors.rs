//! The vector channel's index, in SQLite (migration 0006).
//!
//! Each record's vector's sign bits are packed, 4,096 records a row, into
//! chunks, and the vector itself is stored int8-quantized for rescoring,
//! unless the embedder is [`Embedder::cheap`] (the built-in one: embedding
//! a thousand candidates again takes a few milliseconds, storing a million
//! vectors took a third of an ingest). A search scans every chunk
//! once, ranks all records by the Hamming distance of their sign bits to
//! the query's (a few machine instructions a record), and rescores the
//! best thousand or so by cosine similarity (30 for each row asked for;
//! 256 in all kept 88% of the exact top 10, 1,000 keep 99%: see the recall
//! test in tests/vectors.rs). sqlite-vec's exact KNN took 120 ms a query
//! over 1,000,000 records here even on bit vectors; this takes a fraction
//! of that, at the price of being approximate (a record whose sign bits
//! are far from the query's but whose cosine is high can be missed).
//!
//! Vectors are derived: [`sync`] embeds whatever records have none yet, in
//! id order, so a space is always complete up to its watermark.

use std::collections::{BinaryHeap, HashMap};

use rusqlite::{Connection, OptionalExtension, params};

use super::embed::{EmbedError, Embedder, normalize};
use super::search::RecordFilter;
use crate::error::{Error, Result};

/// Records a chunk row holds.
const CHUNK: usize = 4096;
/// Records embedded a batch.
const BATCH: usize = 1024;

/// One embedder's vectors.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Space {
    id: i64,
    dim: usize,
}

impl Space {
    /// u64 words of one record's sign bits.
    fn words(self) -> usize {
        self.dim.div_ceil(64)
    }
}

/// The space of the embedder named `name`, if it has one yet.
pub(crate) fn space(conn: &Connection, name: &str) -> Result<Option<Space>> {
    let row = conn
        .query_row("SELECT id, dim FROM vector_spaces WHERE embedder = ?1", [name], |row| {
            Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?))
        })
        .optional()?;
    Ok(row.map(|(id, dim)| Space { id, dim: usize::try_from(dim).unwrap_or(0) }))
}

/// Embed every record that has no vector in `embedder`'s space yet
/// (inside the caller's write transaction); how many were embedded. An
/// embedder that fails or breaks its contract is an [`Error::Embedder`].
pub(crate) fn sync(conn: &Connection, embedder: &dyn Embedder) -> Result<usize> {
    let name = embedder.name();
    let existing = space(conn, name)?;
    let mut watermark: i64 = match existing {
        Some(space) => {
            conn.query_row("SELECT watermark FROM vector_spaces WHERE id = ?1", [space.id], |row| row.get(0))?
        }
        None => 0,
    };
    let mut space = existing;
    let mut open: Option<OpenChunk> = None;
    let mut embedded = 0;
    let mut read =
        conn.prepare_cached("SELECT id, title, body FROM records WHERE id > ?1 ORDER BY id LIMIT ?2")?;
    loop {
        let batch: Vec<(i64, String)> = read
            .query_map(params![watermark, BATCH as i64], |row| {
                let (title, body): (String, String) = (row.get(1)?, row.get(2)?);
                Ok((row.get(0)?, super::record_text(&title, &body)))
            })?
            .collect::<rusqlite::Result<_>>()?;
        let Some(&(last, _)) = batch.last() else { break };
        let texts: Vec<&str> = batch.iter().map(|(_, text)| text.as_str()).collect();
        let vectors = embedder.embed(&texts).map_err(|err| embedder_error(name, err))?;
        if vectors.len() != texts.len() {
            return Err(Error::Embedder(format!(
                "embedder {name:?} returned {} vectors for {} texts",
                vectors.len(),
                texts.len()
            )));
        }
        let space = match space {
            Some(space) => space,
            None => {
                let dim = vectors.first().map_or(0, Vec::len);
                conn.execute(
                    "INSERT INTO vector_spaces (embedder, dim) VALUES (?1, ?2)",
                    params![name, dim as i64],
                )?;
                *space.insert(Space { id: conn.last_insert_rowid(), dim })
            }
        };
        let chunk = match &mut open {
            Some(chunk) => chunk,
            None => open.insert(OpenChunk::last(conn, space)?),
        };
        // A cheap embedder's vectors are made again to rescore: only
        // their sign bits are kept.
        let keep = !embedder.cheap();
        let mut quantized = Vec::with_capacity(if keep { batch.len() } else { 0 });
        for ((id, _), mut vector) in batch.iter().zip(vectors) {
            check_dim(name, space, &vector).map_err(|err| embedder_error(name, err))?;
            normalize(&mut vector);
            if keep {
                quantized.push((*id, quantize(&vector)));
            }
            chunk.push(conn, *id, &sign_bits(&vector))?;
        }
        store_vectors(conn, space, &quantized)?;
        embedded += batch.len();
        watermark = last;
    }
    if let (Some(space), Some(chunk)) = (space, open) {
        chunk.write(conn)?;
        conn.execute("UPDATE vector_spaces SET watermark = ?1 WHERE id = ?2", params![watermark, space.id])?;
    }
    Ok(embedded)
}

/// [`sync`] for a [`Embedder::cheap`] embedder whose records' sign bits
/// are already known (computed while the records were inserted): `codes`
/// by record uid. Records it lacks are left to [`sync`].
pub(crate) fn sync_codes(
    conn: &Connection,
    embedder: &dyn Embedder,
    dim: usize,
    codes: &HashMap<&str, &[u64]>,
) -> Result<usize> {
    let name = embedder.name();
    if !embedder.cheap() {
        return sync(conn, embedder);
    }
    let space = match space(conn, name)? {
        Some(space) => space,
        None => {
            conn.execute(
                "INSERT INTO vector_spaces (embedder, dim) VALUES (?1, ?2)",
                params![name, dim as i64],
            )?;
            Space { id: conn.last_insert_rowid(), dim }
        }
    };
    if space.dim != dim {
        return sync(conn, embedder);
    }
    let mut watermark: i64 =
        conn.query_row("SELECT watermark FROM vector_spaces WHERE id = ?1", [space.id], |row| row.get(0))?;
    let mut chunk = OpenChunk::last(conn, space)?;
    let mut embedded = 0;
    let mut read = conn.prepare_cached("SELECT id, uid FROM records WHERE id > ?1 ORDER BY id")?;
    let mut rows = read.query([watermark])?;
    while let Some(row) = rows.next()? {
        let id: i64 = row.get(0)?;
        let uid = row.get_ref(1)?.as_str().map_err(rusqlite::Error::from)?;
        let Some(code) = codes.get(uid) else { break };
        chunk.push(conn, id, code)?;
        watermark = id;
        embedded += 1;
    }
    drop(rows);
    chunk.write(conn)?;
    conn.execute("UPDATE vector_spaces SET watermark = ?1 WHERE id = ?2", params![watermark, space.id])?;
    Ok(embedded + sync(conn, embedder)?)
}

/// Write `(record id, quantized vector)` rows, many a statement.
fn store_vectors(conn: &Connection, space: Space, rows: &[(i64, Vec<u8>)]) -> Result<()> {
    for batch in rows.chunks(256) {
        let values = vec!["(?, ?, ?)"; batch.len()].join(", ");
        let sql =
            format!("INSERT OR REPLACE INTO record_vectors (record_id, space_id, vector) VALUES {values}");
        let mut stmt = conn.prepare_cached(&sql)?;
        for (i, (id, vector)) in batch.iter().enumerate() {
            stmt.raw_bind_parameter(3 * i + 1, id)?;
            stmt.raw_bind_parameter(3 * i + 2, space.id)?;
            stmt.raw_bind_parameter(3 * i + 3, vector)?;
        }
        stmt.raw_execute()?;
    }
    Ok(())
}

/// Whether `embedder`'s space lacks some record's vector.
pub(crate) fn behind(conn: &Connection, name: &str) -> Result<bool> {
    let behind = conn.query_row(
        "SELECT coalesce((SELECT max(id) FROM records), 0)
                > coalesce((SELECT watermark FROM vector_spaces WHERE embedder = ?1), 0)",
        [name],
        |row| row.get(0),
    )?;
    Ok(behind)
}

fn embedder_error(name: &str, err: EmbedError) -> Error {
    if err.0.starts_with("embedder ") {
        Error::Embedder(err.0)
    } else {
        Error::Embedder(format!("embedder {name:?} failed: {err}"))
    }
}

fn check_dim(name: &str, space: Space, vector: &[f32]) -> std::result::Result<(), EmbedError> {
    if vector.len() != space.dim || space.dim == 0 {
        return Err(EmbedError(format!(
            "embedder {name:?} returned a vector of {} dimensions; its space has {}",
            vector.len(),
            space.dim
        )));
    }
    if vector.iter().any(|x| !x.is_finite()) {
        return Err(EmbedError(format!("embedder {name:?} returned a vector with NaN or infinity")));
    }
    Ok(())
}

/// The chunk being filled while syncing.
struct OpenChunk {
    space: Space,
    chunk: i64,
    ids: Vec<u8>,
    codes: Vec<u8>,
}

impl OpenChunk {
    /// The space's last chunk if it has room, else a new one.
    fn last(conn: &Connection, space: Space) -> Result<OpenChunk> {
        let last = conn
            .query_row(
                "SELECT chunk, ids, codes FROM vector_chunks WHERE space_id = ?1 ORDER BY chunk DESC LIMIT 1",
                [space.id],
                |row| Ok((row.get::<_, i64>(0)?, row.get::<_, Vec<u8>>(1)?, row.get::<_, Vec<u8>>(2)?)),
            )
            .optional()?;
        Ok(match last {
            Some((chunk, ids, codes)) if ids.len() / 8 < CHUNK => OpenChunk { space, chunk, ids, codes },
            Some((chunk, ..)) => OpenChunk::new(space, chunk + 1),
            None => OpenChunk::new(space, 0),
        })
    }

    fn new(space: Space, chunk: i64) -> OpenChunk {
        OpenChunk {
            space,
            chunk,
            ids: Vec::with_capacity(CHUNK * 8),
            codes: Vec::with_capacity(CHUNK * 8 * space.words()),
        }
    }

    fn push(&mut self, conn: &Connection, id: i64, code: &[u64]) -> Result<()> {
        self.ids.extend_from_slice(&id.to_le_bytes());
        for word in code {
            self.codes.extend_from_slice(&word.to_le_bytes());
        }
        if self.ids.len() / 8 == CHUNK {
            self.write(conn)?;
            *self = OpenChunk::new(self.space, self.chunk + 1);
        }
        Ok(())
    }

    fn write(&self, conn: &Connection) -> Result<()> {
        if self.ids.is_empty() {
            return Ok(());
        }
        conn.prepare_cached(
            "INSERT OR REPLACE INTO vector_chunks (space_id, chunk, ids, codes) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![self.space.id, self.chunk, self.ids, self.codes])?;
        Ok(())
    }
}

/// `vector`'s sign bits, 64 a word (bit i of word w: component 64w + i > 0).
pub(crate) fn sign_bits(vector: &[f32]) -> Vec<u64> {
    vector
        .chunks(64)
        .map(|part| part.iter().enumerate().fold(0u64, |word, (i, x)| word | (u64::from(*x > 0.0) << i)))
        .collect()
}

/// `vector` scaled so its largest component is ±127, as bytes.
fn quantize(vector: &[f32]) -> Vec<u8> {
    let max = vector.iter().fold(0f32, |max, x| max.max(x.abs()));
    let scale = if max > 0.0 { 127.0 / max } else { 0.0 };
    vector.iter().map(|x| (x * scale).round().clamp(-127.0, 127.0) as i8 as u8).collect()
}

/// Cosine of the unit vector `query` with a quantized vector.
fn cosine(query: &[f32], quantized: &[u8]) -> f32 {
    let (mut dot, mut norm) = (0f32, 0f32);
    for (q, byte) in query.iter().zip(quantized) {
        let x = f32::from(*byte as i8);
        dot += q * x;
        norm += x * x;
    }
    if norm > 0.0 { dot / norm.sqrt() } else { 0.0 }
}

/// Where the vector channel may look.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Filter<'a> {
    /// `hot` or `archive`.
    pub pool: Option<&'a str>,
    pub session: Option<&'a str>,
    /// Types, tags, times (`ctx search --type ...`).
    pub records: Option<&'a RecordFilter>,
}

/// The `k` records most similar to `query` (a unit vector), best first,
/// with their cosine similarity.
pub(crate) fn nearest(
    conn: &Connection,
    space: Space,
    embedder: &dyn Embedder,
    query: &[f32],
    k: usize,
    filter: Filter<'_>,
) -> Result<Vec<(i64, f32)>> {
    if query.len() != space.dim {
        return Err(Error::InvalidInput(format!(
            "the query vector has {} dimensions; the space has {}",
            query.len(),
            space.dim
        )));
    }
    // Enough candidates to keep 99% of the exact top k (the recall test
    // in tests/vectors.rs); a pool filter drops some after the scan.
    let candidates = if filter.pool.is_some() { (k * 40).max(2000) } else { (k * 30).max(1000) };
    let ids: Vec<i64> = if filter.session.is_some() || filter.records.is_some() {
        // The records the filters allow: all scored when few (a session is
        // small next to the history), else the scan keeps only them.
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT r.id FROM records r WHERE (?1 IS NULL OR r.session_id = ?1) AND (?2 IS NULL OR r.pool = ?2)
               AND {} ORDER BY r.id",
            RecordFilter::sql(3)
        ))?;
        let [types, tags, without, since, until] = RecordFilter::params(filter.records);
        let allowed: Vec<i64> = stmt
            .query_map(params![filter.session, filter.pool, types, tags, without, since, until], |row| {
                row.get(0)
            })?
            .collect::<rusqlite::Result<_>>()?;
        if filter.session.is_some() || allowed.len() <= candidates {
            allowed
        } else {
            let allowed: std::collections::HashSet<i64> = allowed.into_iter().collect();
            hamming_candidates(conn, space, &sign_bits(query), candidates, Some(&allowed))?
        }
    } else {
        hamming_candidates(conn, space, &sign_bits(query), candidates, None)?
    };
    let ids = serde_json::to_string(&ids).map_err(|err| Error::InvalidInput(err.to_string()))?;
    let mut scored: Vec<(i64, f32)> = if embedder.cheap() {
        // Embedding again costs less than a stored vector (see `sync`).
        let mut stmt = conn.prepare_cached(
            "SELECT id, title, body FROM records
             WHERE id IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR pool = ?2)",
        )?;
        let rows: Vec<(i64, String)> = stmt
            .query_map(params![ids, filter.pool], |row| {
                let (title, body): (String, String) = (row.get(1)?, row.get(2)?);
                Ok((row.get(0)?, super::record_text(&title, &body)))
            })?
            .collect::<rusqlite::Result<_>>()?;
        let texts: Vec<&str> = rows.iter().map(|(_, text)| text.as_str()).collect();
        let vectors = embedder.embed(&texts).map_err(|err| embedder_error(embedder.name(), err))?;
        rows.iter()
            .zip(vectors)
            .map(|((id, _), mut vector)| {
                normalize(&mut vector);
                (*id, vector.iter().zip(query).map(|(a, b)| a * b).sum())
            })
            .collect()
    } else {
        let mut stmt = conn.prepare_cached(
            "SELECT v.record_id, v.vector FROM record_vectors v JOIN records r ON r.id = v.record_id
             WHERE v.space_id = ?1 AND v.record_id IN (SELECT value FROM json_each(?2))
               AND (?3 IS NULL OR r.pool = ?3)",
        )?;
        let rows = stmt.query_map(params![space.id, ids, filter.pool], |row| {
            Ok((row.get::<_, i64>(0)?, cosine(query, row.get_ref(1)?.as_blob()?)))
        })?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    scored.truncate(k);
    Ok(scored)
}

/// The ids of the `n` records whose sign bits are nearest `code` (among `allowed`, when given).
fn hamming_candidates(
    conn: &Connection,
    space: Space,
    code: &[u64],
    n: usize,
    allowed: Option<&std::collections::HashSet<i64>>,
) -> Result<Vec<i64>> {
    let words = space.words();
    // A max-heap of the best n so far: its top is the worst kept.
    let mut best: BinaryHeap<(u32, i64)> = BinaryHeap::with_capacity(n + 1);
    let mut stmt = conn.prepare_cached("SELECT ids, codes FROM vector_chunks WHERE space_id = ?1")?;
    let mut rows = stmt.query([space.id])?;
    while let Some(row) = rows.next()? {
        let ids = row.get_ref(0)?.as_blob().map_err(rusqlite::Error::from)?;
        let codes = row.get_ref(1)?.as_blob().map_err(rusqlite::Error::from)?;
        for (id, record) in ids.chunks_exact(8).zip(codes.chunks_exact(8 * words)) {
            if allowed.is_some_and(|allowed| !allowed.contains(&read_i64(id))) {
                continue;
            }
            let distance: u32 = record
                .chunks_exact(8)
                .zip(code)
                .map(|(bytes, word)| {
                    (u64::from_le_bytes(bytes.try_into().unwrap_or([0; 8])) ^ word).count_ones()
                })
                .sum();
            if best.len() < n {
                best.push((distance, read_i64(id)));
            } else if best.peek().is_some_and(|worst| distance < worst.0) {
                best.pop();
                best.push((distance, read_i64(id)));
            }
        }
    }
    let mut ids: Vec<i64> = best.into_iter().map(|(_, id)| id).collect();
    ids.sort_unstable();
    ids.dedup();
    Ok(ids)
}

fn read_i64(bytes: &[u8]) -> i64 {
    i64::from_le_bytes(bytes.try_into().unwrap_or([0; 8]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_bits_pack_components_in_order() {
        let mut vector = vec![-1.0f32; 70];
        vector[0] = 0.5;
        vector[63] = 0.1;
        vector[65] = 2.0;
        assert_eq!(sign_bits(&vector), [1 | (1 << 63), 1 << 1]);
    }

    #[test]
    fn quantized_cosine_is_close_to_the_exact_one() {
        let mut a: Vec<f32> = (0..256).map(|i| ((i * 37 % 101) as f32 - 50.0) / 50.0).collect();
        let mut b: Vec<f32> = (0..256).map(|i| ((i * 53 % 97) as f32 - 48.0) / 48.0).collect();
        normalize(&mut a);
        normalize(&mut b);
        let exact: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((cosine(&a, &quantize(&b)) - exact).abs() < 0.01);
        assert!((cosine(&a, &quantize(&a)) - 1.0).abs() < 0.01);
        assert_eq!(cosine(&a, &quantize(&[0.0; 256])), 0.0);
    }
}
