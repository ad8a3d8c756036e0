//! Where to resume reading a transcript that grows a line at a time (the
//! cursors of `transcript_cursors`, migration 0010).
//!
//! A cursor remembers the end of the last complete line read, the file's
//! size and mtime, and two fingerprints: blake3 of the file's first
//! [`PROBE`] bytes and of the [`PROBE`] bytes before the cursor. Then:
//! - size and mtime unchanged: nothing to read, and nothing is read;
//! - the file still starts and still holds at the cursor what was read:
//!   read on from the cursor (an append);
//! - anything else (shorter than the cursor, other bytes): read again from
//!   the start (a rewrite; ingest's dedup keys make that idempotent).
//!
//! Only complete lines are read: a half-written last line waits for its `\n`.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;

use super::IngestReport;

/// Bytes hashed at the start of the file and before the cursor.
pub(crate) const PROBE: u64 = 4096;

/// What was read of a transcript last time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cursor {
    pub read_to: u64,
    pub size: u64,
    pub mtime_ns: i64,
    pub head: [u8; 32],
    pub tail: [u8; 32],
}

/// How a transcript was read. Stable JSON (lowercase).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TranscriptRead {
    /// Never read before: from the start.
    New,
    /// Grown since: from where the last read ended.
    Appended,
    /// Shorter, or other bytes than were read: from the start again.
    Rewritten,
    /// Same size and mtime: nothing read.
    Unchanged,
}

/// What `Workspace::ingest_transcript` did. Stable JSON.
#[derive(Debug, Clone, Serialize)]
pub struct TranscriptIngestReport {
    /// The transcript, canonical.
    pub path: String,
    pub read: TranscriptRead,
    /// The byte range of complete lines read (`from == to`: none).
    pub from: u64,
    pub to: u64,
    /// Bytes after `to`: a last line not yet complete, read next time.
    pub pending: u64,
    /// The ingest of the lines read (line numbers count from `from`).
    pub ingest: IngestReport,
}

/// Where to start reading `file` (`size` and `mtime_ns` from its metadata)
/// given the cursor of its last read; `None`: unchanged, nothing to read.
pub(crate) fn start(
    file: &mut File,
    size: u64,
    mtime_ns: i64,
    stored: Option<&Cursor>,
) -> std::io::Result<Option<(u64, TranscriptRead)>> {
    let Some(cursor) = stored else { return Ok(Some((0, TranscriptRead::New))) };
    if cursor.size == size && cursor.mtime_ns == mtime_ns {
        return Ok(None);
    }
    if size >= cursor.read_to {
        let (head, tail) = fingerprints(file, cursor.read_to)?;
        if (head, tail) == (cursor.head, cursor.tail) {
            return Ok(Some((cursor.read_to, TranscriptRead::Appended)));
        }
    }
    Ok(Some((0, TranscriptRead::Rewritten)))
}

/// The end of the last complete line in `[from, size)` of `file` (`from` when none).
pub(crate) fn complete_end(file: &mut File, from: u64, size: u64) -> std::io::Result<u64> {
    const BLOCK: u64 = 64 * 1024;
    let mut end = size;
    let mut buf = vec![0u8; BLOCK as usize];
    while end > from {
        let start = end.saturating_sub(BLOCK).max(from);
        let block = &mut buf[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(block)?;
        if let Some(i) = block.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(from)
}

/// blake3 of the first `min(read_to, PROBE)` bytes and of the `PROBE` bytes before `read_to`.
pub(crate) fn fingerprints(file: &mut File, read_to: u64) -> std::io::Result<([u8; 32], [u8; 32])> {
    let mut hash = |from: u64, to: u64| -> std::io::Result<[u8; 32]> {
        let mut bytes = vec![0u8; (to - from) as usize];
        file.seek(SeekFrom::Start(from))?;
        file.read_exact(&mut bytes)?;
        Ok(*blake3::hash(&bytes).as_bytes())
    };
    Ok((hash(0, read_to.min(PROBE))?, hash(read_to.saturating_sub(PROBE), read_to)?))
}

pub(crate) fn load(conn: &Connection, path: &str) -> rusqlite::Result<Option<Cursor>> {
    conn.query_row(
        "SELECT read_to, size, mtime_ns, head_hash, tail_hash FROM transcript_cursors WHERE path = ?1",
        [path],
        |row| {
            let hash = |i: usize| -> rusqlite::Result<[u8; 32]> {
                let bytes: Vec<u8> = row.get(i)?;
                // A hash of another length matches nothing: the file is read again.
                Ok(bytes.try_into().unwrap_or([0; 32]))
            };
            Ok(Cursor {
                read_to: row.get::<_, i64>(0)?.max(0) as u64,
                size: row.get::<_, i64>(1)?.max(0) as u64,
                mtime_ns: row.get(2)?,
                head: hash(3)?,
                tail: hash(4)?,
            })
        },
    )
    .optional()
}

/// The transcripts read before under the folder `dir` (a canonical path):
/// each path with the size and mtime it had, most recently read first, at most `limit`.
pub(crate) fn known_under(
    conn: &Connection,
    dir: &str,
    limit: usize,
) -> rusqlite::Result<Vec<(String, u64, i64)>> {
    // Paths under `dir/`: from `dir/` up to `dir0` ('0' follows '/').
    let (from, to) = (format!("{dir}/"), format!("{dir}0"));
    let mut statement = conn.prepare(
        "SELECT path, size, mtime_ns FROM transcript_cursors WHERE path >= ?1 AND path < ?2
         ORDER BY read_at DESC LIMIT ?3",
    )?;
    let rows = statement.query_map(rusqlite::params![from, to, limit as i64], |row| {
        Ok((row.get(0)?, row.get::<_, i64>(1)?.max(0) as u64, row.get(2)?))
    })?;
    rows.collect()
}

pub(crate) fn save(conn: &Connection, path: &str, cursor: &Cursor) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO transcript_cursors (path, read_to, size, mtime_ns, head_hash, tail_hash, read_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (path) DO UPDATE SET read_to = excluded.read_to, size = excluded.size,
           mtime_ns = excluded.mtime_ns, head_hash = excluded.head_hash,
           tail_hash = excluded.tail_hash, read_at = excluded.read_at",
        rusqlite::params![
            path,
            cursor.read_to as i64,
            cursor.size as i64,
            cursor.mtime_ns,
            &cursor.head[..],
            &cursor.tail[..],
            crate::time::now_iso(),
        ],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file_with(bytes: &[u8]) -> (tempfile::NamedTempFile, File) {
        let mut tmp = tempfile::NamedTempFile::new().unwrap();
        tmp.write_all(bytes).unwrap();
        let file = File::open(tmp.path()).unwrap();
        (tmp, file)
    }

    fn cursor_at(file: &mut File, read_to: u64, size: u64) -> Cursor {
        let (head, tail) = fingerprints(file, read_to).unwrap();
        Cursor { read_to, size, mtime_ns: 7, head, tail }
    }

    #[test]
    fn only_complete_lines_are_read() {
        let (_tmp, mut file) = file_with(b"one\ntwo\nthr");
        assert_eq!(complete_end(&mut file, 0, 11).unwrap(), 8);
        assert_eq!(complete_end(&mut file, 8, 11).unwrap(), 8, "a half line waits");
        assert_eq!(complete_end(&mut file, 0, 8).unwrap(), 8);
        assert_eq!(complete_end(&mut file, 0, 0).unwrap(), 0);
        // A newline far before the end: found across blocks.
        let mut long = b"first\n".to_vec();
        long.extend(std::iter::repeat_n(b'x', 200_000));
        let (_tmp, mut file) = file_with(&long);
        assert_eq!(complete_end(&mut file, 0, long.len() as u64).unwrap(), 6);
        assert_eq!(complete_end(&mut file, 6, long.len() as u64).unwrap(), 6);
    }

    #[test]
    fn a_grown_file_is_read_on_and_a_rewritten_one_from_the_start() {
        let text = b"line one\nline two\n";
        let (_tmp, mut file) = file_with(text);
        assert_eq!(start(&mut file, 18, 1, None).unwrap(), Some((0, TranscriptRead::New)));
        let cursor = cursor_at(&mut file, 18, 18);
        assert_eq!(start(&mut file, 18, 7, Some(&cursor)).unwrap(), None, "same size and mtime");
        // Grown: the same bytes up to the cursor.
        let (_tmp, mut grown) = file_with(b"line one\nline two\nline three\n");
        assert_eq!(start(&mut grown, 29, 8, Some(&cursor)).unwrap(), Some((18, TranscriptRead::Appended)));
        // Same length, other bytes before the cursor; and a shorter file.
        let (_tmp, mut other) = file_with(b"line one\nline 2!!\nline three\n");
        assert_eq!(start(&mut other, 29, 8, Some(&cursor)).unwrap(), Some((0, TranscriptRead::Rewritten)));
        let (_tmp, mut short) = file_with(b"line one\n");
        assert_eq!(start(&mut short, 9, 8, Some(&cursor)).unwrap(), Some((0, TranscriptRead::Rewritten)));
    }

    #[test]
    fn the_fingerprints_cover_the_start_and_the_bytes_before_the_cursor() {
        let mut big: Vec<u8> = (0..20_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        let (_tmp, mut file) = file_with(&big);
        let cursor = cursor_at(&mut file, 15_000, 20_000);
        // A byte changed in the middle (neither probed): still an append, by design.
        big[8_000] = b'!';
        let (_tmp, mut middle) = file_with(&big);
        assert_eq!(
            start(&mut middle, 20_001, 1, Some(&cursor)).unwrap().unwrap().1,
            TranscriptRead::Appended
        );
        // Changed at the start, or just before the cursor: a rewrite.
        for at in [10, 14_999] {
            let mut changed = big.clone();
            changed[at] = b'#';
            let (_tmp, mut file) = file_with(&changed);
            assert_eq!(
                start(&mut file, 20_001, 1, Some(&cursor)).unwrap().unwrap().1,
                TranscriptRead::Rewritten
            );
        }
    }
}
