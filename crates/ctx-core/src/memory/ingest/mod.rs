//! Ingest: records from JSON lines, in three formats, told apart line by line.
//!
//! 1. **ctx records**: `{"type": "query", "role": "user", "text": "...",
//!    "ts": "...", "session_id": "...", "refs": [...], "tags": [...],
//!    "meta": {...}, "id": "..."}`; `type` and `text` are required. A
//!    line's `id` (any string: the source's own id) keys it; without one,
//!    its content does.
//! 2. **Claude Code transcripts** (`~/.claude/projects/<project>/<session>.jsonl`
//!    and, since 2.x, `<session>/subagents/agent-<id>.jsonl`): see `claude.rs`.
//! 3. **Codex CLI rollouts** (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`):
//!    see `codex.rs`.
//!
//! A transcript's turns are told apart by who wrote them (docs/records.md):
//! only what a person typed is a `query`; a slash command a person ran is a
//! `command`; text the harness put in the user's turn (system reminders,
//! hook output, command expansions, task notifications, the compaction
//! prompt, a subagent's prompt, injected instructions) is `system`, tagged
//! with its kind; the assistant's text a `response`; tool calls and results
//! `tool_call` and `tool_output`; summaries (summary lines, compaction
//! summaries) a `note` tagged `summary`. A subagent's records are tagged
//! `subagent`. Where a turn came from (harness, version, model, cwd, branch,
//! token usage, agent id) goes in the record's `meta`.
//!
//! A byte order mark before the first line is skipped.
//!
//! Every record has a dedup key (the source's ids, or a hash of the content),
//! so ingesting a file again adds nothing. Good lines are added in one
//! transaction; a line that is not JSON or not a record is reported with its
//! number and skipped, as is a line over [`MAX_LINE_BYTES`] (never held in
//! memory whole). Input that is not JSON lines at all is an error: binary
//! content, no line that could be read, or over-long lines that add up to
//! more than [`MAX_SKIPPED_BYTES`] (a line that never ends).

mod claude;
mod codex;

use std::io::{BufRead, Read};

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::{Meta, NewRecord, Prepared, prepare};
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
    pub codex_lines: usize,
    /// The records read (added or already there), by type.
    pub types: BTreeMap<String, usize>,
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
    /// `state` carries what earlier lines of the same input said (a Codex
    /// rollout names its session and model once).
    pub(crate) fn parse(&self, state: &mut State) -> (Vec<Prepared>, IngestReport) {
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
            // A file saved with a byte order mark: the mark is no part of its first line.
            let line = if number == 1 { line.strip_prefix('\u{FEFF}').unwrap_or(&line) } else { &line };
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            report.lines += 1;
            match parse_line(line, &mut report, state, &mut records) {
                Ok(0) => report.empty += 1,
                Ok(_) => {}
                Err(message) => report.errors.push(IngestError { line: number, message }),
            }
        }
        for prepared in &records {
            *report.types.entry(prepared.record.record_type.clone()).or_default() += 1;
        }
        state.codex.last_response = None;
        (records, report)
    }
}

impl IngestReport {
    /// The report of several inputs (`source`: what they were): every
    /// count summed, each error's message prefixed by its input's name.
    pub fn total(source: &str, parts: &[IngestReport]) -> IngestReport {
        let mut total = IngestReport { source: source.to_string(), ..Default::default() };
        for part in parts {
            let mut part = part.clone();
            for error in &mut part.errors {
                error.message = format!("{}: {}", part.source, error.message);
            }
            total.absorb(part);
        }
        total
    }

    /// Add the counts of a later part of the same input.
    pub(crate) fn absorb(&mut self, part: IngestReport) {
        self.lines += part.lines;
        self.added += part.added;
        self.duplicates += part.duplicates;
        self.empty += part.empty;
        self.ctx_lines += part.ctx_lines;
        self.claude_code_lines += part.claude_code_lines;
        self.codex_lines += part.codex_lines;
        for (kind, n) in part.types {
            *self.types.entry(kind).or_default() += n;
        }
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

/// What earlier lines of one input said that later lines need.
#[derive(Debug, Default)]
pub(crate) struct State {
    codex: codex::Context,
}

impl State {
    /// The state at the start of the input named `source` (a file name helps
    /// a Codex rollout read from an offset, past its session line, know its session).
    pub(crate) fn new(source: &str) -> State {
        State { codex: codex::Context::new(source) }
    }
}

/// Add the records of one line to `records`; how many.
fn parse_line(
    line: &str,
    report: &mut IngestReport,
    state: &mut State,
    records: &mut Vec<Prepared>,
) -> std::result::Result<usize, String> {
    let value: Value = serde_json::from_str(line).map_err(|err| format!("not JSON: {err}"))?;
    let object = value.as_object().ok_or("not a JSON object")?;
    let before = records.len();
    if codex::is_codex(object) {
        report.codex_lines += 1;
        codex::line(object, line, &mut state.codex, records)?;
    } else if claude::is_claude_code(object) {
        report.claude_code_lines += 1;
        claude::line(object, records)?;
    } else {
        report.ctx_lines += 1;
        records.push(ctx_record(object)?);
    }
    Ok(records.len() - before)
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
    let meta = match object.get("meta") {
        None | Some(Value::Null) => Meta::new(),
        Some(Value::Object(meta)) => meta.clone(),
        Some(_) => return Err("meta: an object".into()),
    };
    let new = NewRecord {
        record_type: string("type").ok_or("no \"type\"")?,
        role: string("role"),
        text: string("text").ok_or("no \"text\"")?,
        refs: list("refs")?,
        tags: list("tags")?,
        session_id: string("session_id"),
        ts: string("ts"),
        meta,
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

/// What a piece of text in a user's turn is (Claude Code and Codex alike).
#[derive(Debug, Clone, PartialEq, Eq)]
enum UserText {
    /// A person typed it.
    Query,
    /// A person ran a slash command (or a shell command): the command line.
    Command(String),
    /// The harness put it there; the tag says what it is.
    System(&'static str),
    /// A summary of the conversation so far (a compaction's).
    Summary,
}

/// How a harness marks text nobody typed: a prefix and what it is.
const INJECTED: [(&str, UserText); 18] = [
    ("<system-reminder>", UserText::System("system-reminder")),
    // Claude Code 1.0.x writes what hooks add as user turns in these wrappers.
    ("<user-prompt-submit-hook>", UserText::System("hook")),
    ("<session-start-hook>", UserText::System("hook")),
    ("<post-tool-use-hook>", UserText::System("hook")),
    ("<task-notification>", UserText::System("task-notification")),
    ("<local-command-", UserText::System("command")),
    (
        "Caveat: The messages below were generated by the user while running local commands",
        UserText::System("command"),
    ),
    ("<bash-stdout>", UserText::System("command")),
    ("<bash-stderr>", UserText::System("command")),
    ("Your task is to create a detailed summary of the conversation so far", UserText::System("compaction")),
    ("This session is being continued from a previous conversation", UserText::Summary),
    ("[Request interrupted by user", UserText::System("interrupt")),
    ("<turn_aborted>", UserText::System("interrupt")),
    ("<environment_context>", UserText::System("environment")),
    ("<user_instructions>", UserText::System("instructions")),
    ("# AGENTS.md instructions for", UserText::System("instructions")),
    ("<INSTRUCTIONS>", UserText::System("instructions")),
    ("<user_shell_command>", UserText::System("command")),
];

/// What `text`, in a user's turn, is, judged by how harnesses mark what they inject.
fn classify(text: &str) -> UserText {
    let text = text.trim_start();
    if text.starts_with("<command-name>") || text.starts_with("<command-message>") {
        let name = between(text, "<command-name>", "</command-name>")
            .or_else(|| between(text, "<command-message>", "</command-message>"))
            .unwrap_or_default();
        let args = between(text, "<command-args>", "</command-args>").unwrap_or_default();
        let slash = if name.starts_with('/') { "" } else { "/" };
        return UserText::Command(format!("{slash}{name} {args}").trim().to_string());
    }
    if let Some(command) = between(text, "<bash-input>", "</bash-input>") {
        return UserText::Command(format!("!{command}"));
    }
    INJECTED
        .iter()
        .find(|(prefix, _)| text.starts_with(prefix))
        .map_or(UserText::Query, |(_, kind)| kind.clone())
}

/// The trimmed text between the first `open` and the `close` after it.
fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(close)? + start;
    Some(text[start..end].trim())
}

/// A record of user-turn `text`: its type, role and tags (`extra` added).
fn user_record(kind: &UserText, text: &str, base: &NewRecord, extra: &[&str]) -> NewRecord {
    let (record_type, text, mut tags) = match kind {
        UserText::Query => ("query", text.to_string(), vec![]),
        UserText::Command(line) => ("command", line.clone(), vec![]),
        UserText::System(tag) => ("system", text.to_string(), vec![tag.to_string()]),
        UserText::Summary => ("note", text.to_string(), vec!["summary".into(), "compaction".into()]),
    };
    tags.extend(extra.iter().map(|t| t.to_string()));
    NewRecord { record_type: record_type.into(), role: Some("user".into()), text, tags, ..base.clone() }
}

/// Prepare `new` under `key` into `records`, unless its text is blank.
fn push(records: &mut Vec<Prepared>, key: String, new: NewRecord) -> std::result::Result<(), String> {
    if new.text.trim().is_empty() {
        return Ok(());
    }
    records.push(prepare(&new, Some(key)).map_err(|err| err.to_string())?);
    Ok(())
}

/// A tool call's record: `name input`, tagged with the tool's name.
fn tool_call(name: &str, input: &str, base: &NewRecord) -> NewRecord {
    NewRecord {
        record_type: "tool_call".into(),
        role: Some("assistant".into()),
        text: format!("{name} {input}"),
        tags: vec![tag(name)],
        ..base.clone()
    }
}

/// A tool result's record, naming its call (by dedup key) when it can.
fn tool_output(text: String, call_key: Option<String>, error: bool, base: &NewRecord) -> NewRecord {
    NewRecord {
        record_type: "tool_output".into(),
        role: Some("tool".into()),
        text,
        refs: call_key.map(|key| super::id_of(&key)).into_iter().collect(),
        tags: if error { vec!["error".into()] } else { vec![] },
        ..base.clone()
    }
}

/// A tool's name as a tag: lower case, letters, digits, `-` and `_`.
fn tag(name: &str) -> String {
    let tag: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c.to_ascii_lowercase() } else { '_' })
        .collect();
    if tag.is_empty() { "tool".into() } else { tag }
}

/// The text of content: a string, or its blocks' `text` joined by lines.
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => {
            blocks.iter().filter_map(|b| b.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("\n")
        }
        _ => String::new(),
    }
}

/// `object[key]` as a non-empty string.
fn string<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// Set `meta[key]` to `value` when there is one.
fn set(meta: &mut Meta, key: &str, value: Option<&str>) {
    if let Some(value) = value {
        meta.insert(key.into(), Value::String(value.into()));
    }
}

/// The token counts of a usage object (Claude's `usage`, Codex's `last_token_usage`): numbers only.
fn usage(value: Option<&Value>) -> Option<Value> {
    let counts: Map<String, Value> = value?
        .as_object()?
        .iter()
        .filter(|(key, value)| key.ends_with("tokens") && value.is_u64())
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    (!counts.is_empty()).then_some(Value::Object(counts))
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
            report.absorb(chunk.parse(&mut State::default()).1);
        }
    }

    fn note_of_length(bytes: usize) -> Vec<u8> {
        let mut line = br#"{"type":"note","text":""#.to_vec();
        line.resize(bytes - 2, b'x');
        line.extend_from_slice(b"\"}");
        line
    }

    #[test]
    fn what_hooks_added_is_no_persons_prompt() {
        // Claude Code 1.0.98 writes a SessionStart hook's context as a user turn (seen in a real session).
        for text in [
            "<session-start-hook>## ctx: how to get context here\n</session-start-hook>",
            "<user-prompt-submit-hook>files</user-prompt-submit-hook>",
            "<system-reminder>\nSessionStart hook additional context: …</system-reminder>",
        ] {
            assert!(matches!(classify(text), UserText::System(_)), "{text}");
        }
        assert_eq!(classify("fix the invoice total"), UserText::Query);
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
