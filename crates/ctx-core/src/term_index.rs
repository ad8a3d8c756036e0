//! The files' words, inverted (0016_term_index.sql): what ranking reads so
//! that a task's few terms cost a few rows, not every file's term table.
//! ctxkeep-map makes the buckets' bytes and reads them; the store keeps them
//! by segment and bucket, and says which segment holds each content.

use rusqlite::{TransactionBehavior, params};

use crate::error::Result;
use crate::workspace::Workspace;

/// How many terms a content holds, in its text and in the names it defines
/// (ranking's document lengths).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocTerms {
    /// blake3 of the content.
    pub hash: [u8; 32],
    pub body: u32,
    pub names: u32,
}

/// A content of the stored index: where its postings are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TermDoc {
    pub terms: DocTerms,
    /// The segment holding its postings, and its number there.
    pub segment: i64,
    pub doc: u32,
}

/// A batch of postings, spread over buckets by term.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TermSegment {
    pub id: i64,
    pub buckets: u32,
    /// How many contents it was made with (later segments or pruning may have taken some).
    pub docs: u32,
}

/// The stored index of one tokenizer version.
#[derive(Debug, Clone, Default)]
pub struct TermIndex {
    pub docs: Vec<TermDoc>,
    /// In the order they were made.
    pub segments: Vec<TermSegment>,
}

impl Workspace {
    /// The stored index of tokenizer `version` and, from the same snapshot,
    /// the (segment, bucket) pairs `choose` asks for, handed to `on_bucket`
    /// with their bytes straight from the row (a bucket never stored is skipped).
    pub fn read_term_index(
        &self,
        version: u32,
        choose: impl FnOnce(&TermIndex) -> Vec<(i64, u32)>,
        mut on_bucket: impl FnMut(i64, u32, &[u8]),
    ) -> Result<TermIndex> {
        // One read transaction: a merge by another process must not drop buckets between reads.
        let tx = self.store().conn.unchecked_transaction()?;
        let mut index = TermIndex::default();
        {
            let mut stmt = tx.prepare_cached(
                "SELECT id, buckets, docs FROM term_segments WHERE version = ?1 ORDER BY id",
            )?;
            let mut rows = stmt.query([version])?;
            while let Some(row) = rows.next()? {
                let (id, buckets, docs) = (row.get(0)?, row.get::<_, i64>(1)?, row.get::<_, i64>(2)?);
                let (Ok(buckets), Ok(docs)) = (u32::try_from(buckets), u32::try_from(docs)) else { continue };
                index.segments.push(TermSegment { id, buckets, docs });
            }
        }
        {
            let mut stmt = tx
                .prepare_cached("SELECT hash, segment, doc, body, names FROM term_docs WHERE version = ?1")?;
            let mut rows = stmt.query([version])?;
            while let Some(row) = rows.next()? {
                // A row of the wrong types is no entry: its content is indexed again.
                let Ok(Ok(hash)) = row.get_ref(0)?.as_blob().map(<[u8; 32]>::try_from) else { continue };
                let numbers = (row.get::<_, i64>(2)?, row.get::<_, i64>(3)?, row.get::<_, i64>(4)?);
                let (Ok(doc), Ok(body), Ok(names)) =
                    (u32::try_from(numbers.0), u32::try_from(numbers.1), u32::try_from(numbers.2))
                else {
                    continue;
                };
                let terms = DocTerms { hash, body, names };
                index.docs.push(TermDoc { terms, segment: row.get(1)?, doc });
            }
        }
        let wanted = choose(&index);
        let mut stmt =
            tx.prepare_cached("SELECT data FROM term_postings WHERE segment = ?1 AND bucket = ?2")?;
        for (segment, bucket) in wanted {
            let mut rows = stmt.query(params![segment, bucket])?;
            if let Some(row) = rows.next()?
                && let Ok(data) = row.get_ref(0)?.as_blob()
            {
                on_bucket(segment, bucket, data);
            }
        }
        Ok(index)
    }

    /// Store a segment for new contents (`docs[i]` is its doc number `i`,
    /// `buckets[b]` its bucket `b`; an empty one is not stored), after
    /// dropping the whole index when `replace` (the segment merges all), and
    /// drop what no file's content has any more and other versions', in one
    /// transaction. Returns the new segment's id.
    pub fn save_term_segment(
        &mut self,
        version: u32,
        docs: &[DocTerms],
        buckets: &[Vec<u8>],
        replace: bool,
    ) -> Result<Option<i64>> {
        let tx = self.store_mut().conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        if replace {
            tx.execute_batch("DELETE FROM term_postings; DELETE FROM term_docs; DELETE FROM term_segments;")?;
        }
        let mut segment = None;
        if !docs.is_empty() {
            tx.execute(
                "INSERT INTO term_segments (version, buckets, docs) VALUES (?1, ?2, ?3)",
                params![version, buckets.len() as i64, docs.len() as i64],
            )?;
            let id = tx.last_insert_rowid();
            segment = Some(id);
            let mut insert =
                tx.prepare_cached("INSERT INTO term_postings (segment, bucket, data) VALUES (?1, ?2, ?3)")?;
            for (bucket, data) in buckets.iter().enumerate().filter(|(_, data)| !data.is_empty()) {
                insert.execute(params![id, bucket as i64, data])?;
            }
            let mut insert = tx.prepare_cached(
                "INSERT OR REPLACE INTO term_docs (hash, version, segment, doc, body, names)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for (doc, terms) in docs.iter().enumerate() {
                insert.execute(params![&terms.hash[..], version, id, doc as i64, terms.body, terms.names])?;
            }
        }
        tx.execute(
            "DELETE FROM term_docs WHERE version != ?1
               OR hash NOT IN (SELECT hash FROM files WHERE hash IS NOT NULL)",
            [version],
        )?;
        // Their postings go with them (ON DELETE CASCADE).
        tx.execute(
            "DELETE FROM term_segments WHERE version != ?1 OR id NOT IN (SELECT segment FROM term_docs)",
            [version],
        )?;
        tx.commit()?;
        Ok(segment)
    }
}
