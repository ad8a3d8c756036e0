//! Ingest: records from JSON lines, in two formats, told apart line by line.
//!
//! 1. **ctx records**: `{"type": "query", "role": "user", "text": "...",
//!    "ts": "...", "session_id": "...", "refs": [...], "tags": [...],
//!    "id": "..."}`; `type` and `text` are required. A line's `id` (any
//!    string: the source's own id) keys it; without one, its content does.
//! 2. **Claude Code transcripts** (`~/.claude/projects/<project>/<session>.jsonl`):
//!    one line per message (`type` `user` or `assistant`, a `message` with
//!    `role` and `content`, `uuid`, `sessionId`, `timestamp`), and `summary`
//!    lines. A message's content blocks become records: user text a
//!    `query`, assistant text a `response`, a `tool_use` a `tool_call`, a
//!    `tool_result` a `tool_output` (role `tool`, its call in `refs`), a
//!    summary a `note`. Thinking blocks and empty messages are skipped.
//!
//! Every record has a dedup key (the source's ids, or a hash of the content),
//! so ingesting a file again adds nothing. Good lines are added in one
//! transaction; a line that is not JSON or not a record is reported with its
//! number and skipped, as is a line over [`MAX_LINE_BYTES`] (never held in
//! memory whole). Input that is not JSON lines at all is an error: binary
//! content, no line that could be read, or over-long lines that add up to
//! more than [`MAX_SKIPPED_BYTES`] (a line that never ends).

use std::io::{BufRead, Read};

use serde::Serialize;
use serde_json::Value;

use super::{NewRecord, Prepared, prepare};
use crate::error::{Error, Result};
use crate::limits::{MAX_LINE_BYTES, MAX_SKIPPED_BYTES};

/// Input with a NUL byte among its first this many bytes is binary (as git decides).
const BINARY_PROBE: u64 = 8000;

/// What an ingest did. Stable JSON.
#[derive(Debug, Clone, Default, Serialize)]
pub struct IngestReport {
    /// Where the lines came from (a file name, or `-`).
    pub source: String,
    /// Non-blank lines read.
    pub lines: usize,
    /// Records added.
    pub added: usize,
    /// Records already there (ingested before).
    pub duplicates: usize,
    /// Lines that held nothing to record (a thinking block, an empty message, a system line).
    pub empty: usize,
    /// Lines in each format.
    pub ctx_lines: usize,
    pub claude_code_lines: usize,
    /// Malformed lines, skipped.
    pub errors: Vec<IngestError>,
}

/// A line ingest could not use. Stable JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IngestError {
    /// 1-based.
    pub line: usize,
    pub message: String,
}

/// Reads JSON lines a chunk at a time, so an ingest holds one chunk in
/// memory, not the whole input. Reading is cheap and stays with the
/// caller; parsing a chunk ([`RawChunk::parse`]) can run on another thread.
pub(crate) struct Parser<'a> {
    reader: &'a mut dyn BufRead,
    /// The last line read (1-based).
    number: usize,
    /// Bytes read so far.
    offset: u64,
    /// Bytes of over-long lines skipped so far.
    skipped: u64,
}

/// Lines read and not parsed yet.
#[derive(Debug, Default)]
pub(crate) struct RawChunk {
    bytes: Vec<u8>,
    lines: Vec<RawLine>,
}

#[derive(Debug)]
struct RawLine {
    /// Where it ends in `bytes`.
    end: usize,
    number: usize,
    /// Its length when over [`MAX_LINE_BYTES`] (its bytes were not kept).
    too_long: Option<u64>,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(reader: &'a mut dyn BufRead) -> Parser<'a> {
        Parser { reader, number: 0, offset: 0, skipped: 0 }
    }

    /// The next `max` lines (fewer at the end of the input; none after it).
    pub(crate) fn read(&mut self, source: &str, max: usize) -> Result<RawChunk> {
        let mut chunk = RawChunk::default();
        while chunk.lines.len() < max {
            let start = chunk.bytes.len();
            let limit = MAX_LINE_BYTES as u64 + 1;
            let read = (&mut *self.reader)
                .take(limit)
                .read_until(b'\n', &mut chunk.bytes)
                .map_err(|err| Error::io(source, err))? as u64;
            if read == 0 {
                break;
            }
            self.number += 1;
            if self.offset < BINARY_PROBE {
                let probe = (BINARY_PROBE - self.offset).min(read) as usize;
                if chunk.bytes[start..start + probe].contains(&0) {
                    return Err(Error::InvalidInput(format!(
                        "{source}: binary content (a NUL byte in the first {BINARY_PROBE} bytes), not JSON lines"
                    )));
                }
            }
            self.offset += read;
            let too_long = (read == limit && chunk.bytes.last() != Some(&b'\n')).then_some(read);
            let too_long = match too_long {
                Some(read) => {
                    chunk.bytes.truncate(start);
                    Some(read + self.skip_line(source)?)
                }
                None => None,
            };
            chunk.lines.push(RawLine { end: chunk.bytes.len(), number: self.number, too_long });
        }
        Ok(chunk)
    }

    /// Read past the rest of an over-long line (its newline included),
    /// keeping none of it; how many bytes. More than [`MAX_SKIPPED_BYTES`]
    /// skipped in all is an error: input that never ends a line never ends.
    fn skip_line(&mut self, source: &str) -> Result<u64> {
        let mut scratch = Vec::with_capacity(64 << 10);
        let mut skipped = 0;
        loop {
            scratch.clear();
            let read = (&mut *self.reader)
                .take(64 << 10)
                .read_until(b'\n', &mut scratch)
                .map_err(|err| Error::io(source, err))? as u64;
            skipped += read;
            self.skipped += read;
            self.offset += read;
            if read == 0 || scratch.last() == Some(&b'\n') {
                return Ok(skipped);
            }
            if self.skipped > MAX_SKIPPED_BYTES {
                return Err(Error::InvalidInput(format!(
                    "{source}: line {}: lines over {} MiB add up to more than {} MiB, so this is not JSON lines; nothing was added",
                    self.number,
                    MAX_LINE_BYTES >> 20,
                    MAX_SKIPPED_BYTES >> 20
                )));
            }
        }
    }
}

impl RawChunk {
    pub(crate) fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The records of these lines, and what a report says of them (every
    /// count but `added` and `duplicates`; malformed lines by number).
    pub(crate) fn parse(&self) -> (Vec<Prepared>, IngestReport) {
        let mut report = IngestReport::default();
        let mut records = Vec::new();
        let mut start = 0;
        for &RawLine { end, number, too_long } in &self.lines {
            if let Some(length) = too_long {
                report.lines += 1;
                let message = format!("longer than {} MiB ({length} bytes)", MAX_LINE_BYTES >> 20);
                report.errors.push(IngestError { line: number, message });
                continue;
            }
            let line = String::from_utf8_lossy(&self.bytes[start..end]);
            start = end;
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            report.lines += 1;
            match parse_line(line, &mut report) {
                Ok(parsed) if parsed.is_empty() => report.empty += 1,
                Ok(mut parsed) => records.append(&mut parsed),
                Err(message) => report.errors.push(IngestError { line: number, message }),
            }
        }
        (records, report)
    }
}

impl IngestReport {
    /// Add the counts of a later part of the same input.
    pub(crate) fn absorb(&mut self, part: IngestReport) {
        self.lines += part.lines;
        self.added += part.added;
        self.duplicates += part.duplicates;
        self.empty += part.empty;
        self.ctx_lines += part.ctx_lines;
        self.claude_code_lines += part.claude_code_lines;
        self.errors.extend(part.errors);
    }

    /// The error of an input of which no line could be read (some lines, all malformed).
    pub(crate) fn nothing_read(&self) -> Option<Error> {
        let first = self.errors.first()?;
        (self.errors.len() == self.lines).then(|| {
            Error::InvalidInput(format!(
                "{}: no line could be read ({} malformed; line {}: {})",
                self.source, self.lines, first.line, first.message
            ))
        })
    }
}

fn parse_line(line: &str, report: &mut IngestReport) -> std::result::Result<Vec<Prepared>, String> {
    let value: Value = serde_json::from_str(line).map_err(|err| format!("not JSON: {err}"))?;
    let object = value.as_object().ok_or("not a JSON object")?;
    // Claude Code's lines carry its ids; ctx's have `text`.
    let is_claude_code =
        ["message", "sessionId", "uuid", "leafUuid", "messageId"].iter().any(|key| object.contains_key(*key));
    let records = if is_claude_code && !object.contains_key("text") {
        report.claude_code_lines += 1;
        claude_code(object)?
    } else {
        report.ctx_lines += 1;
        vec![ctx_record(object)?]
    };
    Ok(records)
}

/// A line of ctx's own record format.
fn ctx_record(object: &serde_json::Map<String, Value>) -> std::result::Result<Prepared, String> {
    let string = |key: &str| object.get(key).and_then(Value::as_str).map(str::to_string);
    let list = |key: &str| -> std::result::Result<Vec<String>, String> {
        match object.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(str::to_string).ok_or_else(|| format!("{key}: a list of strings")))
                .collect(),
            Some(_) => Err(format!("{key}: a list of strings")),
        }
    };
    let new = NewRecord {
        record_type: string("type").ok_or("no \"type\"")?,
        role: string("role"),
        text: string("text").ok_or("no \"text\"")?,
        refs: list("refs")?,
        tags: list("tags")?,
        session_id: string("session_id"),
        ts: string("ts"),
    };
    let key = match string("id") {
        Some(id) => format!("ctx-id:{id}"),
        None => format!(
            "ctx:{}",
            blake3::hash(
                serde_json::to_string(&(
                    &new.record_type,
                    &new.role,
                    &new.text,
                    &new.refs,
                    &new.tags,
                    &new.session_id,
                    &new.ts
                ))
                .unwrap_or_default()
                .as_bytes()
            )
            .to_hex()
        ),
    };
    prepare(&new, Some(key)).map_err(|err| err.to_string())
}

/// The records of one line of a Claude Code transcript.
fn claude_code(object: &serde_json::Map<String, Value>) -> std::result::Result<Vec<Prepared>, String> {
    let string = |key: &str| object.get(key).and_then(Value::as_str).map(str::to_string);
    let session = string("sessionId");
    // A turn without a time is not a turn of now: the contract's `n/a`.
    let ts = Some(string("timestamp").unwrap_or_else(|| "n/a".into()));
    if string("type").as_deref() == Some("summary") {
        let Some(summary) = string("summary").filter(|s| !s.trim().is_empty()) else { return Ok(Vec::new()) };
        let key = format!(
            "cc-summary:{}:{}",
            string("leafUuid").unwrap_or_default(),
            blake3::hash(summary.as_bytes()).to_hex()
        );
        let new = NewRecord {
            record_type: "note".into(),
            text: summary,
            tags: vec!["summary".into()],
            session_id: session,
            ts,
            ..Default::default()
        };
        return prepare(&new, Some(key)).map(|p| vec![p]).map_err(|err| err.to_string());
    }
    // Lines without a message (snapshots of edited files, system notices) hold no turn.
    let Some(message) = object.get("message") else { return Ok(Vec::new()) };
    let message = message.as_object().ok_or("\"message\" is not an object")?;
    let uuid = string("uuid").ok_or("no \"uuid\"")?;
    let role = message.get("role").and_then(Value::as_str).unwrap_or("unknown");
    let session_key = session.clone().unwrap_or_default();
    let base = NewRecord { session_id: session.clone(), ts: ts.clone(), ..Default::default() };
    let mut records = Vec::new();
    let mut add = |key: String, new: NewRecord| -> std::result::Result<(), String> {
        if new.text.trim().is_empty() {
            return Ok(());
        }
        records.push(prepare(&new, Some(key)).map_err(|err| err.to_string())?);
        Ok(())
    };
    let block_key = |index: usize| format!("cc:{session_key}:{uuid}:{index}");
    let text_type = if role == "assistant" { "response" } else { "query" };
    let text_role = if role == "assistant" { "assistant" } else { "user" };
    match message.get("content") {
        Some(Value::String(text)) => {
            let new = NewRecord {
                record_type: text_type.into(),
                role: Some(text_role.into()),
                text: text.clone(),
                ..base.clone()
            };
            add(block_key(0), new)?;
        }
        Some(Value::Array(blocks)) => {
            for (index, block) in blocks.iter().enumerate() {
                let kind = block.get("type").and_then(Value::as_str).unwrap_or_default();
                let (key, new) = match kind {
                    "text" => (
                        block_key(index),
                        NewRecord {
                            record_type: text_type.into(),
                            role: Some(text_role.into()),
                            text: block.get("text").and_then(Value::as_str).unwrap_or_default().to_string(),
                            ..base.clone()
                        },
                    ),
                    "tool_use" => {
                        let name = block.get("name").and_then(Value::as_str).unwrap_or("tool");
                        let input = block.get("input").map(Value::to_string).unwrap_or_default();
                        let call = block.get("id").and_then(Value::as_str).unwrap_or_default();
                        // Keyed by its call id, so that its result can name it.
                        let key = if call.is_empty() {
                            block_key(index)
                        } else {
                            tool_call_key(&session_key, call)
                        };
                        (
                            key,
                            NewRecord {
                                record_type: "tool_call".into(),
                                role: Some("assistant".into()),
                                text: format!("{name} {input}"),
                                tags: vec![tag(name)],
                                ..base.clone()
                            },
                        )
                    }
                    "tool_result" => {
                        let call = block.get("tool_use_id").and_then(Value::as_str).unwrap_or_default();
                        let mut tags = Vec::new();
                        if block.get("is_error").and_then(Value::as_bool) == Some(true) {
                            tags.push("error".to_string());
                        }
                        let refs = if call.is_empty() {
                            Vec::new()
                        } else {
                            vec![super::id_of(&tool_call_key(&session_key, call))]
                        };
                        (
                            block_key(index),
                            NewRecord {
                                record_type: "tool_output".into(),
                                role: Some("tool".into()),
                                text: content_text(block.get("content")),
                                refs,
                                tags,
                                ..base.clone()
                            },
                        )
                    }
                    // Thinking, images, anything else: nothing to record.
                    _ => continue,
                };
                add(key, new)?;
            }
        }
        _ => {}
    }
    Ok(records)
}

/// A tool's name as a tag: lower case, letters, digits, `-` and `_`.
fn tag(name: &str) -> String {
    let tag: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c.to_ascii_lowercase() } else { '_' })
        .collect();
    if tag.is_empty() { "tool".into() } else { tag }
}

/// The text of a tool result's content: a string, or its text blocks.
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => {
            blocks.iter().filter_map(|b| b.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("\n")
        }
        _ => String::new(),
    }
}

/// The dedup key of the tool call with `tool_use` id `call` in `session`.
fn tool_call_key(session: &str, call: &str) -> String {
    format!("cc-tool:{session}:{call}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of `input` as the parser reads them, in chunks of 2.
    fn read_all(input: &[u8]) -> Result<IngestReport> {
        let mut reader = input;
        let mut parser = Parser::new(&mut reader);
        let mut report = IngestReport::default();
        loop {
            let chunk = parser.read("-", 2)?;
            if chunk.is_empty() {
                return Ok(report);
            }
            report.absorb(chunk.parse().1);
        }
    }

    fn note_of_length(bytes: usize) -> Vec<u8> {
        let mut line = br#"{"type":"note","text":""#.to_vec();
        line.resize(bytes - 2, b'x');
        line.extend_from_slice(b"\"}");
        line
    }

    #[test]
    fn a_line_of_the_longest_length_is_read_and_a_longer_one_skipped() {
        let mut input = note_of_length(MAX_LINE_BYTES);
        input.push(b'\n');
        input.extend(note_of_length(MAX_LINE_BYTES + 1));
        input.extend_from_slice(b"\n{\"type\":\"note\",\"text\":\"after\"}");
        let report = read_all(&input).unwrap();
        assert_eq!((report.lines, report.ctx_lines), (3, 2));
        let skipped = format!("longer than 8 MiB ({} bytes)", MAX_LINE_BYTES + 2);
        assert_eq!(report.errors, [IngestError { line: 2, message: skipped }]);
    }

    #[test]
    fn a_nul_byte_near_the_start_is_binary_and_later_it_is_a_bad_line() {
        let err = read_all(b"{\"type\":\"note\",\"text\":\"x\"}\n\0ELF").unwrap_err();
        assert!(err.to_string().starts_with("-: binary content"), "{err}");
        let mut late = vec![b' '; BINARY_PROBE as usize];
        late.extend_from_slice(b"\n\0\n");
        assert_eq!(read_all(&late).unwrap().errors.len(), 1);
    }
}
