//! The workspace's session memory: records added one by one or ingested
//! from transcripts, search (lexical, vector, hybrid), pins, the pack, the
//! timeline, `get` and the archive. Every text is redacted before it is
//! stored (see `crate::secrets`).

use super::{CTX_DIR, Workspace, detector_of, write_in};
use rusqlite::TransactionBehavior;

use crate::config::EmbedderChoice;
use crate::error::{Error, Result};
use crate::frames;
use crate::fsutil::write_atomic;
use crate::memory::search::VectorChannel;
use crate::memory::{
    self, Embedder, HashedNgrams, IngestReport, NewRecord, Pack, Record, SearchOptions, SearchResponse,
    Timeline, TimelineSession, TimelineThread,
};
use crate::secrets::Redacted;

impl Workspace {
    /// Add a session record (a query, response, tool output, note, ...).
    pub fn add_record(&mut self, new: &NewRecord) -> Result<Record> {
        let prepared = memory::prepare(&new.redacted(self.detector()), None)?;
        let embedder = self.builtin_embedder();
        let insert = |conn: &rusqlite::Connection| {
            memory::insert(conn, &prepared)?;
            embed_new(conn, embedder)
        };
        // A pin is authored: it goes to the knowledge files too.
        if prepared.record.record_type == "pin" { self.author(insert) } else { self.write(insert) }?;
        Ok(prepared.record)
    }

    /// Add the records of JSON lines (ctx's record format, Claude Code
    /// transcripts or Codex CLI rollouts, told apart line by line; see
    /// `memory/ingest/`) in one
    /// transaction. Records already there are not added again; malformed
    /// lines are reported by number and skipped. `source` names the input
    /// in errors and the report. The input is read, parsed and inserted a
    /// chunk at a time (one thread parses the next chunk while SQLite
    /// inserts this one), so memory stays bounded.
    pub fn ingest(&mut self, reader: &mut dyn std::io::BufRead, source: &str) -> Result<IngestReport> {
        // Lines read, parsed, inserted and embedded at a time.
        self.ingest_in_chunks(reader, source, 25_000)
    }

    fn ingest_in_chunks(
        &mut self,
        reader: &mut dyn std::io::BufRead,
        source: &str,
        chunk: usize,
    ) -> Result<IngestReport> {
        let mut report = IngestReport { source: source.to_string(), ..Default::default() };
        let mut parser = memory::ingest::Parser::new(reader);
        // A bulk insert touches many pages: a larger page cache keeps them
        // in memory instead of spilling them to the WAL mid-transaction.
        let conn = &self.store.conn;
        let cache_size: i64 = conn.pragma_query_value(None, "cache_size", |row| row.get(0))?;
        conn.pragma_update(None, "cache_size", -256 * 1024)?;
        let embedder = self.builtin_embedder();
        let detector = detector_of(&self.config.secrets, &self.detector);
        let (mut read, mut added) = (0, 0);
        let written = write_in(&mut self.store.conn, |conn| {
            // A pipeline: while SQLite inserts one chunk, another thread
            // parses the next and computes its sign bits.
            std::thread::scope(|scope| {
                let embed = embedder.is_some();
                // Chunks are parsed one after the other: each hands the next what its lines said.
                let work = |raw: memory::ingest::RawChunk, mut state: memory::ingest::State| {
                    scope.spawn(move || {
                        let (mut records, part) = raw.parse(&mut state);
                        // Transcripts hold what people pasted and tools printed: no secret is stored.
                        for prepared in &mut records {
                            prepared.record = prepared.record.redacted(detector);
                        }
                        let codes = embed.then(|| builtin_codes(&records));
                        (records, part, codes, state)
                    })
                };
                let raw = parser.read(source, chunk)?;
                let mut pending = (!raw.is_empty()).then(|| work(raw, memory::ingest::State::new(source)));
                while let Some(handle) = pending.take() {
                    let (records, part, codes, state) =
                        handle.join().map_err(|_| Error::Embedder("the parsing thread failed".into()))?;
                    let raw = parser.read(source, chunk)?;
                    if !raw.is_empty() {
                        pending = Some(work(raw, state));
                    }
                    report.absorb(part);
                    // Not one good line in a whole chunk: this is not JSON lines.
                    if let Some(err) = report.nothing_read() {
                        return Err(err);
                    }
                    read += records.len();
                    added += memory::insert_many(conn, &records)?;
                    if let (Some(embedder), Some(codes)) = (embedder, codes) {
                        let codes = records
                            .iter()
                            .map(|r| r.id.as_str())
                            .zip(codes.iter().map(Vec::as_slice))
                            .collect();
                        memory::vectors::sync_codes(conn, embedder, HashedNgrams::DIM, &codes)?;
                    }
                }
                Ok(())
            })
        });
        self.store.conn.pragma_update(None, "cache_size", cache_size)?;
        written?;
        report.added = added;
        report.duplicates = read - added;
        Ok(report)
    }

    /// The record with id `id` (`H-…` for session records, `D-…`, `A-…`).
    pub fn record(&self, id: &str) -> Result<Record> {
        memory::get(&self.store.conn, id).map(|(record, _)| record)
    }

    /// L0 rows of the records matching `options.query`, best first. The rows
    /// are remembered for the next pack's RETRIEVAL_INDEX. The vector
    /// channel (`vector`, `hybrid`) uses the embedder `[memory] embedder`
    /// names; see [`Workspace::search_with`] for one of your own.
    pub fn search(&self, options: &SearchOptions) -> Result<SearchResponse> {
        let embedder = self.builtin_embedder().ok_or_else(|| {
            "vector search is off ([memory] embedder = \"none\" in .ctx/config.toml)".to_string()
        });
        self.search_using(options, embedder, Remember::Yes)
    }

    /// [`Workspace::search`] that leaves the pack's RETRIEVAL_INDEX ("last
    /// search") as it was: for searches nobody asked for, such as the
    /// prompt hook's, which must not pass for the agent's own. Lexical
    /// only: it embeds nothing and writes nothing.
    pub fn search_unrecorded(&self, options: &SearchOptions) -> Result<SearchResponse> {
        let lexical = SearchOptions { mode: memory::SearchMode::Lexical, ..options.clone() };
        self.search_using(&lexical, Err("not asked".into()), Remember::No)
    }

    /// [`Workspace::search`] with the vector channel served by `embedder`.
    /// Records without a vector of `embedder`'s are embedded first (all
    /// of them, the first time: see [`Workspace::embed_records`]). An
    /// embedder that fails does not fail the search: the lexical channel
    /// serves it, and the `retrieval` says why.
    pub fn search_with(&self, options: &SearchOptions, embedder: &dyn Embedder) -> Result<SearchResponse> {
        self.search_using(options, Ok(embedder), Remember::Yes)
    }

    /// Embed, with `embedder`, every record that has no vector of its yet;
    /// how many. Searching does this too; calling it ahead of time takes
    /// the wait out of the first search. Records added later are embedded
    /// by the built-in embedder as they are added, by others when next used.
    pub fn embed_records(&self, embedder: &dyn Embedder) -> Result<usize> {
        let conn = &self.store.conn;
        if !memory::vectors::behind(conn, embedder.name())? {
            return Ok(0);
        }
        let tx = rusqlite::Transaction::new_unchecked(conn, TransactionBehavior::Immediate)?;
        let embedded = memory::vectors::sync(&tx, embedder)?;
        tx.commit()?;
        Ok(embedded)
    }

    fn builtin_embedder(&self) -> Option<&'static dyn Embedder> {
        match self.config.memory.embedder {
            EmbedderChoice::Builtin => Some(&HashedNgrams),
            EmbedderChoice::None => None,
        }
    }

    fn search_using(
        &self,
        options: &SearchOptions,
        embedder: std::result::Result<&dyn Embedder, String>,
        remember: Remember,
    ) -> Result<SearchResponse> {
        let channel = match embedder {
            _ if options.mode == memory::SearchMode::Lexical => {
                VectorChannel::Unavailable("not asked".into())
            }
            Err(reason) => VectorChannel::Unavailable(reason),
            Ok(embedder) => match self.embed_records(embedder) {
                Ok(_) => VectorChannel::Ready {
                    embedder,
                    space: memory::vectors::space(&self.store.conn, embedder.name())?,
                },
                Err(Error::Embedder(reason)) => match options.on_embedder_error {
                    memory::EmbedderFailure::Fallback => VectorChannel::Unavailable(reason),
                    memory::EmbedderFailure::Error => return Err(Error::Embedder(reason)),
                },
                // Records without vectors, which a read-only database cannot take.
                Err(err @ Error::ReadOnly { .. }) => VectorChannel::Unavailable(err.to_string()),
                Err(err) => return Err(err),
            },
        };
        let tx = self.store.conn.unchecked_transaction()?;
        let response = memory::search::search(&tx, options, channel)?;
        tx.commit()?;
        if remember == Remember::No {
            return Ok(response);
        }
        let rows =
            response.results.iter().map(|r| format!("{}  {}  {}", r.id, r.record_type, r.summary)).collect();
        memory::pack::remember_search(
            &self.store.conn,
            // The query is kept for the next pack: a pasted key in it is not.
            &memory::pack::LastSearch { query: self.detector().redacted(&options.query), rows },
        );
        Ok(response)
    }

    /// Pin `text`: it heads every pack until unpinned.
    pub fn pin(&mut self, text: &str) -> Result<Record> {
        let new = NewRecord {
            record_type: "pin".into(),
            role: Some("user".into()),
            text: text.trim().into(),
            ..Default::default()
        };
        self.add_record(&new)
    }

    /// Remove the pin `id`.
    pub fn unpin(&mut self, id: &str) -> Result<()> {
        let removed = self.author(|conn| {
            Ok(conn.execute("DELETE FROM records WHERE uid = ?1 AND type = 'pin'", [id.trim()])?)
        })?;
        if removed == 0 {
            return Err(Error::UnknownRecord { id: id.trim().to_string() });
        }
        Ok(())
    }

    /// The pins, newest first.
    pub fn pins(&self) -> Result<Vec<Record>> {
        memory::pins(&self.store.conn)
    }

    /// The L1 pack within `tokens` (default `[pack] tokens`), also written to
    /// `.ctx/packs/last.md` for audit (not for a workspace in the cache directory).
    pub fn pack(&self, tokens: Option<usize>) -> Result<Pack> {
        let config = &self.config.pack;
        let threshold = crate::limits::positive("--tokens", tokens.unwrap_or(config.tokens))?;
        let delimiters = (
            memory::pack::sanitize_delimiter(&config.delimiter_start, memory::pack::DEFAULT_START),
            memory::pack::sanitize_delimiter(&config.delimiter_end, memory::pack::DEFAULT_END),
        );
        let tx = self.store.conn.unchecked_transaction()?;
        let current = match frames::current(&tx)? {
            Some(node) => {
                let row = frames::by_node(&tx, node)?;
                Some(format!("{} {} [{}]", row.id(), row.title, row.status))
            }
            None => None,
        };
        let tok = self.config.build.tokenizer.get();
        let mut pack = memory::pack::pack(&tx, tok, threshold, (&delimiters.0, &delimiters.1), current)?;
        tx.commit()?;
        if !self.cached {
            let dir = self.ctx_dir().join("packs");
            std::fs::create_dir_all(&dir).map_err(|err| Error::io(&dir, err))?;
            let ignore = dir.join(".gitignore");
            if !ignore.exists() {
                write_atomic(&ignore, b"# Packs are local, for audit: never committed.\n*\n")?;
            }
            write_atomic(&dir.join("last.md"), pack.text.as_bytes())?;
            pack.stored = Some(format!("{CTX_DIR}/packs/last.md"));
        }
        Ok(pack)
    }

    /// The L0 rows around record `id`: `before` earlier and `after` later
    /// records of `session`, in time order, the anchor between them, from
    /// the anchor's thread (the main thread, or the anchor's subagent).
    pub fn timeline(
        &self,
        id: &str,
        before: usize,
        after: usize,
        session: &TimelineSession,
    ) -> Result<Timeline> {
        self.timeline_in(id, before, after, session, &TimelineThread::Anchor)
    }

    /// [`Workspace::timeline`] from `thread`: the main thread's turns, the
    /// subagents', or all of them.
    pub fn timeline_in(
        &self,
        id: &str,
        before: usize,
        after: usize,
        session: &TimelineSession,
        thread: &TimelineThread,
    ) -> Result<Timeline> {
        let tx = self.store.conn.unchecked_transaction()?;
        memory::expand::timeline(&tx, id, before, after, session, thread)
    }

    /// The L2 JSON of record `id` (`{layer, record, source, head,
    /// original_text_len, truncated, ...}`), at most `head` characters when
    /// given (the contract's tiny fallback when not even the envelope fits;
    /// a `head` below 72, which not even that fits, is
    /// [`Error::InvalidInput`]).
    pub fn record_json(&self, id: &str, head: Option<usize>) -> Result<String> {
        memory::expand::get_json(&self.store.conn, id, head)
    }

    /// Move the hot session records (not decisions or attempts) older than
    /// `older_than` to the archive pool; how many moved.
    pub fn archive(&mut self, older_than: std::time::Duration) -> Result<usize> {
        let now = std::time::SystemTime::now();
        let cutoff = crate::time::iso(now.checked_sub(older_than).unwrap_or(std::time::UNIX_EPOCH));
        self.write(|conn| memory::expand::archive(conn, &cutoff))
    }
}

/// Whether a search is remembered as the pack's "last search".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Remember {
    Yes,
    No,
}

/// The built-in embedder's sign bits of each record: only they are kept
/// for it (it is cheap: see `Embedder::cheap`).
fn builtin_codes(records: &[memory::Prepared]) -> Vec<Vec<u64>> {
    records.iter().map(|r| memory::vectors::sign_bits(&HashedNgrams::embed_one(&r.record.text))).collect()
}

/// Embed the records just added with `embedder` (when vector search is on),
/// inside the caller's write transaction.
fn embed_new(conn: &rusqlite::Connection, embedder: Option<&dyn Embedder>) -> Result<()> {
    if let Some(embedder) = embedder {
        memory::vectors::sync(conn, embedder)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ingest_in_chunks_is_ingest_in_one() {
        let mut lines = String::new();
        for i in 0..25 {
            if i == 12 {
                lines.push_str("{not json\n");
            } else {
                lines.push_str(&format!(
                    "{{\"type\":\"note\",\"id\":\"n{}\",\"text\":\"entry {i} about topic{}\"}}\n",
                    i % 20,
                    i % 3
                ));
            }
        }
        let run = |chunk: usize| {
            let dir = tempfile::tempdir().unwrap();
            let (mut ws, _) = Workspace::init(dir.path()).unwrap();
            let report = ws.ingest_in_chunks(&mut lines.as_bytes(), "notes.jsonl", chunk).unwrap();
            assert!(
                !memory::vectors::behind(&ws.store.conn, HashedNgrams::NAME).unwrap(),
                "every chunk embedded"
            );
            let options = SearchOptions {
                query: "topic2 entry".into(),
                k: 30,
                mode: memory::SearchMode::Hybrid,
                ..Default::default()
            };
            let rows: Vec<String> =
                ws.search(&options).unwrap().results.into_iter().map(|r| r.summary).collect();
            (report.lines, report.added, report.duplicates, report.errors, rows)
        };
        let (lines_read, added, duplicates, errors, rows) = run(4);
        assert_eq!(
            (lines_read, added, duplicates),
            (25, 19, 5),
            "n0..n4 come twice; n12's line is malformed"
        );
        assert_eq!(errors.iter().map(|e| e.line).collect::<Vec<_>>(), [13]);
        assert_eq!((lines_read, added, duplicates, errors, rows), run(usize::MAX));
    }
}
