//! Incremental transcript ingest: what the PreCompact, Stop and SessionEnd
//! hooks run (see `memory/transcript.rs` for the cursor).

use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;
use std::time::Instant;

use super::Workspace;
use crate::error::{Error, Result};
use crate::memory::IngestReport;
use crate::memory::transcript::{self, Cursor, TranscriptIngestReport, TranscriptRead};

/// Bytes ingested (and remembered) at a time, so a first read of a long
/// transcript can stop at a deadline and go on next time.
const SLICE: u64 = 1024 * 1024;

impl Workspace {
    /// Ingest the lines of the transcript at `path` added since the last
    /// call for it: only complete lines (a half-written last line waits for
    /// the next call); a file that was rewritten or truncated is read again
    /// from the start (records already there are not added again). An
    /// unchanged file costs one `stat` and one row read. Lines are ingested
    /// a slice at a time, and where the last slice ended is remembered: past
    /// `until`, no new slice starts (`pending` says what is left for the
    /// next call).
    pub fn ingest_transcript(
        &mut self,
        path: &Path,
        until: Option<Instant>,
    ) -> Result<TranscriptIngestReport> {
        let path = std::fs::canonicalize(path).map_err(|err| Error::io(path, err))?;
        let key = path.to_string_lossy().into_owned();
        let io = |err| Error::io(&path, err);
        let mut file = std::fs::File::open(&path).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(Error::InvalidInput(format!("{key}: not a file")));
        }
        let (size, mtime_ns) = (meta.len(), meta.modified().map(crate::time::unix_nanos).unwrap_or(0));
        let stored = transcript::load(&self.store.conn, &key)?;
        let mut ingest = IngestReport { source: key.clone(), ..Default::default() };
        let Some((from, read)) = transcript::start(&mut file, size, mtime_ns, stored.as_ref()).map_err(io)?
        else {
            let to = stored.map_or(0, |c| c.read_to);
            let pending = size.saturating_sub(to);
            return Ok(TranscriptIngestReport {
                path: key,
                read: TranscriptRead::Unchanged,
                from: to,
                to,
                pending,
                ingest,
            });
        };
        let end = transcript::complete_end(&mut file, from, size).map_err(io)?;
        let mut to = from;
        loop {
            // A slice ends at a line's end (a line longer than a slice is one slice).
            let mut next = transcript::complete_end(&mut file, to, (to + SLICE).min(end)).map_err(io)?;
            if next == to {
                next = end;
            }
            if next > to {
                file.seek(SeekFrom::Start(to)).map_err(io)?;
                let mut reader = BufReader::with_capacity(256 * 1024, (&mut file).take(next - to));
                ingest.absorb(self.ingest(&mut reader, &key)?);
                to = next;
            }
            let stop = to >= end || until.is_some_and(|until| Instant::now() >= until);
            // Remembered even when nothing was read: an unchanged file is then
            // one stat. A read stopped early records the size it read to, so
            // the next call sees a file that grew, and goes on.
            let (head, tail) = transcript::fingerprints(&mut file, to).map_err(io)?;
            let seen = if to >= end { size } else { to };
            let cursor = Cursor { read_to: to, size: seen, mtime_ns, head, tail };
            self.write(|conn| Ok(transcript::save(conn, &key, &cursor)?))?;
            if stop {
                break;
            }
        }
        Ok(TranscriptIngestReport { path: key, read, from, to, pending: size - to, ingest })
    }

    /// Ingest what was added, since their last read, to the transcripts
    /// under `dir` that were read before (at most 50, the
    /// most recently read first): the lines a harness wrote after its last
    /// hook ran. Claude Code can end a session before the last turn reaches
    /// its transcript; the next session start (a transcript in the same
    /// folder) picks it up. Then the `*.jsonl` files directly in `dir` that
    /// no hook ever read, changed in the last day (the newest first): a
    /// session whose Stop and SessionEnd hooks never ran (`claude -p` can
    /// exit before they do) is read at the next start, and a transcript
    /// older than ctx's hooks is not imported. Files unchanged since are one
    /// `stat` each; files gone are skipped. The reports of the files read.
    pub fn catch_up_transcripts(
        &mut self,
        dir: &Path,
        until: Option<Instant>,
    ) -> Result<Vec<TranscriptIngestReport>> {
        let dir = std::fs::canonicalize(dir).map_err(|err| Error::io(dir, err))?;
        let known = transcript::known_under(&self.store.conn, &dir.to_string_lossy(), CATCH_UP_FILES)?;
        let mut reports = Vec::new();
        for (path, size, mtime_ns) in known.iter().cloned() {
            if until.is_some_and(|until| Instant::now() >= until) {
                break;
            }
            let Ok(meta) = std::fs::metadata(&path) else { continue };
            if meta.len() == size && meta.modified().map(crate::time::unix_nanos).unwrap_or(0) == mtime_ns {
                continue;
            }
            reports.push(self.ingest_transcript(Path::new(&path), until)?);
        }
        let seen: std::collections::HashSet<String> = known.into_iter().map(|(path, ..)| path).collect();
        for path in unread_transcripts(&dir, &seen) {
            if until.is_some_and(|until| Instant::now() >= until) {
                break;
            }
            reports.push(self.ingest_transcript(&path, until)?);
        }
        Ok(reports)
    }
}

/// How recently a transcript no hook read must have changed for a catch-up to read it.
const UNREAD_WITHIN: std::time::Duration = std::time::Duration::from_secs(24 * 60 * 60);

/// The `*.jsonl` files directly in `dir` not in `seen`, changed within
/// [`UNREAD_WITHIN`], the newest first, at most [`CATCH_UP_FILES`].
fn unread_transcripts(dir: &Path, seen: &std::collections::HashSet<String>) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let now = std::time::SystemTime::now();
    let mut found: Vec<(std::time::SystemTime, std::path::PathBuf)> = entries
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let path = entry.path();
            let meta = entry.metadata().ok().filter(|m| m.is_file())?;
            let modified = meta.modified().ok()?;
            let recent = now.duration_since(modified).map_or(true, |age| age <= UNREAD_WITHIN);
            let unread = !seen.contains(path.to_string_lossy().as_ref());
            (path.extension().is_some_and(|e| e == "jsonl") && recent && unread).then_some((modified, path))
        })
        .collect();
    found.sort_by_key(|(modified, _)| std::cmp::Reverse(*modified));
    found.into_iter().take(CATCH_UP_FILES).map(|(_, path)| path).collect()
}

/// How many of a folder's transcripts a catch-up looks at.
pub const CATCH_UP_FILES: usize = 50;

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn line(uuid: &str, text: &str) -> String {
        format!(
            "{{\"type\":\"user\",\"message\":{{\"role\":\"user\",\"content\":\"{text}\"}},\"uuid\":\"{uuid}\",\"sessionId\":\"s1\",\"timestamp\":\"2026-01-01T00:00:00Z\"}}\n"
        )
    }

    #[test]
    fn appended_lines_are_read_once_and_a_rewrite_from_the_start() {
        let dir = tempfile::tempdir().unwrap();
        let (mut ws, _) = Workspace::init(dir.path()).unwrap();
        let path = dir.path().join("t.jsonl");
        std::fs::write(&path, line("u1", "first question") + &line("u2", "second question")).unwrap();
        let r = ws.ingest_transcript(&path, None).unwrap();
        assert_eq!((r.read, r.from, r.ingest.added, r.pending), (TranscriptRead::New, 0, 2, 0));
        let r = ws.ingest_transcript(&path, None).unwrap();
        assert_eq!((r.read, r.ingest.lines), (TranscriptRead::Unchanged, 0));

        // An appended line and half of the next: the half waits.
        let third = line("u3", "third question");
        let fourth = line("u4", "fourth question");
        let mut file = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(third.as_bytes()).unwrap();
        file.write_all(&fourth.as_bytes()[..20]).unwrap();
        let r = ws.ingest_transcript(&path, None).unwrap();
        assert_eq!((r.read, r.ingest.lines, r.ingest.added, r.pending), (TranscriptRead::Appended, 1, 1, 20));
        file.write_all(&fourth.as_bytes()[20..]).unwrap();
        let r = ws.ingest_transcript(&path, None).unwrap();
        assert_eq!((r.read, r.ingest.lines, r.ingest.added, r.pending), (TranscriptRead::Appended, 1, 1, 0));
        assert_eq!(ws.status().unwrap().records, 4);

        // Rewritten shorter: read again from the start; only the new line is new.
        std::fs::write(&path, line("u1", "first question") + &line("u5", "a fresh start")).unwrap();
        let r = ws.ingest_transcript(&path, None).unwrap();
        assert_eq!((r.read, r.from, r.ingest.lines, r.ingest.added), (TranscriptRead::Rewritten, 0, 2, 1));
        assert_eq!(ws.status().unwrap().records, 5);
    }

    #[test]
    fn a_catch_up_reads_the_known_transcripts_of_a_folder_that_grew() {
        let dir = tempfile::tempdir().unwrap();
        let (mut ws, _) = Workspace::init(dir.path()).unwrap();
        let projects = dir.path().join("projects");
        let other = dir.path().join("projects-other");
        std::fs::create_dir_all(&projects).unwrap();
        std::fs::create_dir_all(&other).unwrap();
        let (grew, same, unknown, elsewhere) = (
            projects.join("a.jsonl"),
            projects.join("b.jsonl"),
            projects.join("c.jsonl"),
            other.join("d.jsonl"),
        );
        for (path, uuid) in [(&grew, "a1"), (&same, "b1"), (&elsewhere, "d1")] {
            std::fs::write(path, line(uuid, "a question")).unwrap();
            ws.ingest_transcript(path, None).unwrap();
        }
        // A session no hook ever read (`claude -p` exited before its Stop hook ran),
        // and one from before the hooks, two days old.
        std::fs::write(&unknown, line("c1", "never read")).unwrap();
        let old = projects.join("e.jsonl");
        std::fs::write(&old, line("e1", "before ctx")).unwrap();
        let two_days = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 24 * 60 * 60);
        std::fs::File::options().write(true).open(&old).unwrap().set_modified(two_days).unwrap();
        // The last turns, written after the session's last hook.
        for path in [&grew, &elsewhere] {
            let mut file = std::fs::OpenOptions::new().append(true).open(path).unwrap();
            file.write_all(line(&format!("{}2", path.display()), "the last turn").as_bytes()).unwrap();
        }
        let reports = ws.catch_up_transcripts(&projects, None).unwrap();
        let read: Vec<_> = reports.iter().map(|r| (r.path.clone(), r.ingest.added)).collect();
        let canonical = |path: &Path| std::fs::canonicalize(path).unwrap().display().to_string();
        assert_eq!(
            read,
            [(canonical(&grew), 1), (canonical(&unknown), 1)],
            "the known transcript of this folder that grew, then the recent one never read"
        );
        assert!(ws.catch_up_transcripts(&projects, None).unwrap().is_empty(), "nothing new the second time");
        assert_eq!(ws.status().unwrap().records, 5);
    }

    #[test]
    fn a_read_stopped_at_its_deadline_goes_on_next_time() {
        let dir = tempfile::tempdir().unwrap();
        let (mut ws, _) = Workspace::init(dir.path()).unwrap();
        let path = dir.path().join("t.jsonl");
        let filler = "x".repeat(1000);
        let text: String =
            (0..3000).map(|i| line(&format!("u{i}"), &format!("question {i} {filler}"))).collect();
        std::fs::write(&path, &text).unwrap();
        let r = ws.ingest_transcript(&path, Some(Instant::now())).unwrap();
        assert!(r.to > 0 && r.pending > 0 && r.to <= SLICE, "one slice: {r:?}");
        let first = r.ingest.added;
        let r = ws.ingest_transcript(&path, None).unwrap();
        assert_eq!((r.read, r.pending), (TranscriptRead::Appended, 0));
        assert_eq!(first + r.ingest.added, 3000);
        assert_eq!(ws.ingest_transcript(&path, None).unwrap().read, TranscriptRead::Unchanged);
    }

    #[test]
    fn a_missing_transcript_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let (mut ws, _) = Workspace::init(dir.path()).unwrap();
        let err = ws.ingest_transcript(&dir.path().join("nope.jsonl"), None).unwrap_err();
        assert_eq!(err.code(), "IO_ERROR", "{err}");
    }
}
