//! The files' words as the store keeps them, inverted: per term, the
//! contents holding it and how often, so that ranking for a task reads the
//! postings of the task's few terms (a few rows), not every file's table.
//!
//! Each batch of new contents adds a segment (a cold index one for all, an
//! edited file one for itself), its terms spread over buckets of about
//! [`BUCKET_BYTES`] by a hash of the term. A content's postings are in one
//! segment (`term_docs` says which); a segment no content uses is dropped,
//! and when a write would leave more than [`MAX_SEGMENTS`], or more dead
//! contents than live ones, it merges them all into one.
//!
//! A bucket holds its terms in order, each `len: u8, term, size: varint` and
//! `size` bytes of postings, docs ascending, each `doc − previous doc, body
//! count, names count` as LEB128 varints.

use ctxkeep_core::{DocTerms, TermIndex, TermSegment, Workspace};
use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::error::Result;
use crate::index::IndexedFile;
use crate::tags::TAGS_VERSION;
use crate::terms::{FileTerms, TERMS_VERSION, TaskTerms, TermCount};

/// The version stored postings are made with: they hold the defined names
/// too, which come from the tags.
const VERSION: u32 = TERMS_VERSION << 16 | TAGS_VERSION;
/// About how large a bucket grows: a task's term reads one per segment.
const BUCKET_BYTES: usize = 8 * 1024;
/// More segments than this are merged by the next write.
const MAX_SEGMENTS: usize = 8;

/// The counts of the task's `terms` in each of `files`: postings from the
/// store for contents it has, the rest read, tokenized (secrets redacted, as
/// in the tags) with the defined names, and stored as a new segment.
pub(crate) fn task_counts(
    ws: &mut Workspace,
    files: &[IndexedFile],
    terms: Vec<String>,
) -> Result<TaskTerms> {
    task_counts_reading(ws, files, terms, usize::MAX)
}

/// [`task_counts`], reading at most `max_reads` of the contents the store has
/// no words of (in path order); the others count as holding none of the terms
/// (a hook has milliseconds: its next call, or `ctx rank`, `ctx map`, reads them).
pub(crate) fn task_counts_reading(
    ws: &mut Workspace,
    files: &[IndexedFile],
    terms: Vec<String>,
    max_reads: usize,
) -> Result<TaskTerms> {
    let mut by_hash: HashMap<[u8; 32], Vec<usize>> = HashMap::default();
    for (i, file) in files.iter().enumerate() {
        by_hash.entry(file.hash).or_default().push(i);
    }
    let term_hashes: Vec<u64> = terms.iter().map(|t| bucket_hash(t.as_bytes())).collect();
    let mut plan = Plan::default();
    let mut fetched: Vec<(i64, u32, Vec<u8>)> = Vec::new();
    let index = ws.read_term_index(
        VERSION,
        |index| {
            plan = Plan::of(index, &by_hash, &term_hashes);
            plan.reads.clone()
        },
        |segment, bucket, data| fetched.push((segment, bucket, data.to_vec())),
    )?;
    let segments: HashMap<i64, TermSegment> = index.segments.iter().map(|s| (s.id, *s)).collect();
    // The stored contents some file has, by (segment, doc).
    let live: HashMap<(i64, u32), DocTerms> = index
        .docs
        .iter()
        .filter(|d| by_hash.contains_key(&d.terms.hash) && segments.contains_key(&d.segment))
        .map(|d| ((d.segment, d.doc), d.terms))
        .collect();
    let stored: HashSet<[u8; 32]> = live.values().map(|d| d.hash).collect();

    // A content two files share is read once.
    let mut seen = HashSet::default();
    let missing: Vec<usize> = (0..files.len())
        .filter(|&i| !stored.contains(&files[i].hash) && seen.insert(files[i].hash))
        .collect();
    let made = make_tables(ws, files, &missing[..missing.len().min(max_reads)]);
    if !made.is_empty() || plan.unused > 0 {
        let mut segment = SegmentBuilder::default();
        let mut docs: Vec<DocTerms> = Vec::new();
        if plan.merge {
            // Renumbered in (segment, doc) order, so each term's postings stay ascending.
            let mut old: Vec<(&(i64, u32), &DocTerms)> = live.iter().collect();
            old.sort_unstable_by_key(|(key, _)| **key);
            let mut renumbered: HashMap<(i64, u32), u32> = HashMap::default();
            for (key, terms) in old {
                renumbered.insert(*key, docs.len() as u32);
                docs.push(*terms);
            }
            for (id, _, data) in &fetched {
                for (term, postings) in entries(data) {
                    for (doc, count) in postings_of(postings) {
                        if let Some(&new) = renumbered.get(&(*id, doc)) {
                            segment.add(term, new, count);
                        }
                    }
                }
            }
        }
        for (_, hash, table) in &made {
            let doc = docs.len() as u32;
            for (term, count) in table.entries() {
                segment.add(term, doc, count);
            }
            let totals = table.totals();
            docs.push(DocTerms { hash: *hash, body: totals.body, names: totals.names });
        }
        ws.save_term_segment(VERSION, &docs, &segment.finish(), plan.merge)?;
    }

    let mut counts = TaskTerms::new(terms, files.len());
    for doc in live.values() {
        for &i in by_hash.get(&doc.hash).map(Vec::as_slice).unwrap_or_default() {
            counts.set_totals(i, TermCount { body: doc.body, names: doc.names });
        }
    }
    for (id, bucket, data) in &fetched {
        let Some(segment) = segments.get(id) else { continue };
        for (t, &hash) in term_hashes.iter().enumerate() {
            if hash % u64::from(segment.buckets.max(1)) != u64::from(*bucket) {
                continue;
            }
            let Some(postings) = find(data, counts.terms()[t].as_bytes()) else { continue };
            for (doc, count) in postings_of(postings) {
                let Some(stored) = live.get(&(*id, doc)) else { continue };
                for &i in by_hash.get(&stored.hash).map(Vec::as_slice).unwrap_or_default() {
                    counts.set_count(i, t, count);
                }
            }
        }
    }
    // Made this run: counted from the tables, under the hash the scan saw.
    for (first, _, table) in &made {
        for &i in by_hash.get(&files[*first].hash).map(Vec::as_slice).unwrap_or_default() {
            counts.set_table(i, table);
        }
    }
    Ok(counts)
}

/// The term tables of `files[i]` for each `i` of `missing`, each with the
/// hash of the content read (it may be newer than the scan's).
fn make_tables(
    ws: &Workspace,
    files: &[IndexedFile],
    missing: &[usize],
) -> Vec<(usize, [u8; 32], FileTerms)> {
    let root = ws.root().to_path_buf();
    let detector = ws.detector();
    missing
        .par_iter()
        .filter_map(|&i| {
            let path = &files[i].path;
            // Never through a link out of the workspace the file may have become since the scan.
            let bytes = ctxkeep_core::read_within(&root, path).ok()?;
            let text = String::from_utf8_lossy(&bytes);
            let text = if crate::lang::looks_minified(&text) { "".into() } else { text };
            let table = FileTerms::of(&detector.redact_in(path, &text), files[i].defined_names());
            Some((i, *blake3::hash(&bytes).as_bytes(), table))
        })
        .collect()
}

/// What to read of the stored index, decided from its contents and segments.
#[derive(Debug, Default)]
struct Plan {
    /// (segment, bucket) pairs.
    reads: Vec<(i64, u32)>,
    /// Stored contents no file has.
    unused: usize,
    /// Whether the next write merges every segment (so all their buckets are read).
    merge: bool,
}

impl Plan {
    fn of(index: &TermIndex, by_hash: &HashMap<[u8; 32], Vec<usize>>, term_hashes: &[u64]) -> Plan {
        let ids: HashSet<i64> = index.segments.iter().map(|s| s.id).collect();
        let mut live: HashMap<i64, usize> = HashMap::default();
        let mut stored = HashSet::default();
        let mut unused = 0;
        for doc in &index.docs {
            if !by_hash.contains_key(&doc.terms.hash) {
                unused += 1;
            } else if ids.contains(&doc.segment) {
                *live.entry(doc.segment).or_default() += 1;
                stored.insert(doc.terms.hash);
            }
        }
        let missing = by_hash.keys().any(|hash| !stored.contains(hash));
        let segments: Vec<(&TermSegment, usize)> =
            index.segments.iter().filter_map(|s| Some((s, *live.get(&s.id)?))).collect();
        let n_live: usize = segments.iter().map(|(_, live)| live).sum();
        let n_all: usize = segments.iter().map(|(s, _)| s.docs as usize).sum();
        let writes = missing || unused > 0;
        let merge = writes
            && (segments.len() + usize::from(missing) > MAX_SEGMENTS
                || n_all.saturating_sub(n_live) > n_live);
        let mut reads = Vec::new();
        for (segment, _) in segments {
            let buckets = segment.buckets.max(1);
            if merge {
                reads.extend((0..buckets).map(|b| (segment.id, b)));
            } else {
                let mut wanted: Vec<u32> =
                    term_hashes.iter().map(|h| (h % u64::from(buckets)) as u32).collect();
                wanted.sort_unstable();
                wanted.dedup();
                reads.extend(wanted.into_iter().map(|b| (segment.id, b)));
            }
        }
        Plan { reads, unused, merge }
    }
}

/// Postings by term, then cut into buckets.
#[derive(Default)]
struct SegmentBuilder {
    terms: HashMap<Vec<u8>, Postings>,
}

#[derive(Default)]
struct Postings {
    last: u32,
    bytes: Vec<u8>,
}

impl SegmentBuilder {
    /// `doc` holds `term` `count` times; docs come ascending for each term.
    fn add(&mut self, term: &[u8], doc: u32, count: TermCount) {
        let postings = match self.terms.get_mut(term) {
            Some(postings) => postings,
            None => self.terms.entry(term.to_vec()).or_default(),
        };
        put_varint(&mut postings.bytes, doc.saturating_sub(postings.last));
        put_varint(&mut postings.bytes, count.body);
        put_varint(&mut postings.bytes, count.names);
        postings.last = doc;
    }

    fn finish(self) -> Vec<Vec<u8>> {
        let size: usize = self.terms.iter().map(|(term, p)| 1 + term.len() + 3 + p.bytes.len()).sum();
        let n = size.div_ceil(BUCKET_BYTES).max(1);
        let mut terms: Vec<(Vec<u8>, Postings)> =
            self.terms.into_iter().filter(|(term, _)| term.len() <= usize::from(u8::MAX)).collect();
        terms.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut buckets = vec![Vec::new(); n];
        for (term, postings) in terms {
            let bucket = &mut buckets[(bucket_hash(&term) % n as u64) as usize];
            bucket.push(term.len() as u8);
            bucket.extend_from_slice(&term);
            put_varint(bucket, postings.bytes.len() as u32);
            bucket.extend_from_slice(&postings.bytes);
        }
        buckets
    }
}

/// FNV-1a: a term's bucket must not change with a hasher's version.
fn bucket_hash(term: &[u8]) -> u64 {
    term.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The postings of `term` in `bucket`, if it has them.
fn find<'a>(bucket: &'a [u8], term: &[u8]) -> Option<&'a [u8]> {
    entries(bucket).find(|(t, _)| *t == term).map(|(_, postings)| postings)
}

/// Each term of a bucket with its postings' bytes; damaged bytes end it.
fn entries(bucket: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let len = usize::from(*bucket.get(at)?);
        let term = bucket.get(at + 1..at + 1 + len)?;
        at += 1 + len;
        let size = read_varint(bucket, &mut at)? as usize;
        let postings = bucket.get(at..at.checked_add(size)?)?;
        at += size;
        Some((term, postings))
    })
}

/// Each (doc, counts) of a term's postings; damaged bytes end them.
fn postings_of(bytes: &[u8]) -> impl Iterator<Item = (u32, TermCount)> {
    let (mut at, mut doc) = (0, 0u32);
    std::iter::from_fn(move || {
        if at >= bytes.len() {
            return None;
        }
        doc = doc.checked_add(read_varint(bytes, &mut at)?)?;
        let body = read_varint(bytes, &mut at)?;
        let names = read_varint(bytes, &mut at)?;
        Some((doc, TermCount { body, names }))
    })
}

fn put_varint(out: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn read_varint(data: &[u8], at: &mut usize) -> Option<u32> {
    let mut value = 0u32;
    for shift in (0..35).step_by(7) {
        let byte = *data.get(*at)?;
        *at += 1;
        value |= u32::from(byte & 0x7f).checked_shl(shift)?;
        if byte < 0x80 {
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_segment_finds_every_term_of_every_doc() {
        let tables = [
            FileTerms::of("parse the config file; parse it twice", ["parse_config"]),
            FileTerms::of("render a template with its context", ["Template"]),
            FileTerms::of("", []),
        ];
        let mut segment = SegmentBuilder::default();
        for (doc, table) in tables.iter().enumerate() {
            for (term, count) in table.entries() {
                segment.add(term, doc as u32, count);
            }
        }
        let buckets = segment.finish();
        for (doc, table) in tables.iter().enumerate() {
            for (term, count) in table.entries() {
                let bucket = &buckets[(bucket_hash(term) % buckets.len() as u64) as usize];
                let postings: Vec<_> = postings_of(find(bucket, term).unwrap()).collect();
                assert!(postings.contains(&(doc as u32, count)), "{}", String::from_utf8_lossy(term));
            }
        }
        assert!(buckets.iter().all(|b| find(b, b"absent").is_none()));
    }

    #[test]
    fn large_numbers_round_trip_and_damage_ends_the_reading() {
        let mut bytes = Vec::new();
        for value in [0, 1, 127, 128, 300, u32::MAX] {
            put_varint(&mut bytes, value);
        }
        let mut at = 0;
        let read: Vec<u32> = std::iter::from_fn(|| read_varint(&bytes, &mut at)).collect();
        assert_eq!(read, [0, 1, 127, 128, 300, u32::MAX]);
        let mut segment = SegmentBuilder::default();
        segment.add(b"alpha", 3, TermCount { body: 2, names: 1 });
        segment.add(b"alpha", 900, TermCount { body: 1, names: 0 });
        let bucket = segment.finish().concat();
        for cut in 0..bucket.len() {
            for (_, postings) in entries(&bucket[..cut]) {
                let _ = postings_of(postings).count();
            }
        }
        assert!(postings_of(&[0xff; 8]).next().is_none());
    }

    #[test]
    fn edits_add_segments_until_a_write_merges_them_and_counts_stay_right() {
        let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let write = |i: usize, round: usize| {
            let text = format!("def alpha_{i}():\n    return 'beta' * {round}\n");
            std::fs::write(dir.path().join(format!("m{i}.py")), text.repeat(i % 3 + 1)).unwrap();
        };
        (0..12).for_each(|i| write(i, 0));
        let mut ws = Workspace::open_in_cache(dir.path(), cache.path()).unwrap();
        let mut sizes = Vec::new();
        for round in 0..20 {
            write(round % 12, round + 1);
            let (files, _) = crate::index::index(&mut ws, None).unwrap();
            let counts =
                task_counts(&mut ws, &files, vec!["alpha".into(), "beta".into(), "m7".into()]).unwrap();
            let read = |f: &IndexedFile| std::fs::read_to_string(dir.path().join(&f.path)).unwrap();
            let tables: Vec<FileTerms> =
                files.iter().map(|f| FileTerms::of(&read(f), f.defined_names())).collect();
            let fresh = TaskTerms::of_tables(&tables, "alpha beta m7");
            for i in 0..files.len() {
                assert_eq!(counts.totals(i), fresh.totals(i));
                for term in ["alpha", "beta", "m7"] {
                    assert_eq!(counts.count(i, term), fresh.count(i, term), "{round} {i} {term}");
                }
            }
            let index = ws.read_term_index(VERSION, |_| Vec::new(), |_, _, _| {}).unwrap();
            assert_eq!(index.docs.len(), 12);
            sizes.push(index.segments.len());
        }
        // A segment per edit, up to the most allowed; then one again.
        assert_eq!(sizes.iter().max(), Some(&MAX_SEGMENTS), "{sizes:?}");
        assert!(sizes.windows(2).any(|w| w[0] == MAX_SEGMENTS && w[1] == 1), "{sizes:?}");
    }

    #[test]
    fn a_caller_in_a_hurry_reads_no_more_than_it_may() {
        let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        for i in 0..3 {
            let text = format!("def alpha_{i}():\n    return 'beta'\n");
            std::fs::write(dir.path().join(format!("m{i}.py")), text).unwrap();
        }
        let mut ws = Workspace::open_in_cache(dir.path(), cache.path()).unwrap();
        let (files, _) = crate::index::index(&mut ws, None).unwrap();
        let stored =
            |ws: &Workspace| ws.read_term_index(VERSION, |_| Vec::new(), |_, _, _| {}).unwrap().docs.len();
        // Three contents the store has no words of, two reads allowed: the first two
        // read, counted and stored; the third holds none of the terms this time.
        let counts = task_counts_reading(&mut ws, &files, vec!["beta".into()], 2).unwrap();
        let found: Vec<u32> = (0..3).map(|i| counts.count(i, "beta").body).collect();
        assert_eq!(found, [1, 1, 0]);
        assert_eq!(stored(&ws), 2);
        // The next caller in a hurry goes on where it stopped: all three are known.
        let counts = task_counts_reading(&mut ws, &files, vec!["beta".into()], 2).unwrap();
        assert!((0..3).all(|i| counts.count(i, "beta").body == 1));
        assert_eq!(stored(&ws), 3);
    }
}
