//! Session memory: the turns of agent sessions (queries, responses, tool
//! calls and outputs, notes) as records, added one by one or ingested from
//! transcripts, and found again with progressive retrieval (the ContextFS
//! L0/L1/L2 contract): a search ([`Workspace::search`](crate::Workspace::search)) returns cheap single-line L0 rows.
//!
//! Session records have stable ids `H-` and 12 hex digits. An ingested turn's
//! id is derived from where it came from (the transcript's session and
//! message ids), so the same transcript gives the same ids on every machine,
//! and ingesting it again adds nothing.

pub mod discover;
pub(crate) mod embed;
pub(crate) mod expand;
mod fts_query;
pub(crate) mod ingest;
pub(crate) mod pack;
pub(crate) mod rank;
pub(crate) mod search;
pub(crate) mod transcript;
pub(crate) mod vectors;

use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::records::new_id;
use crate::time;
pub use embed::{EmbedError, Embedder, HashedNgrams};
pub use expand::{Timeline, TimelineSession, TimelineThread};
pub use ingest::{IngestError, IngestReport};
pub use pack::{Pack, PackSection};
pub use search::{
    EmbedderFailure, Expand, L0Row, LEXICAL_WINDOW, Retrieval, SearchMode, SearchOptions, SearchResponse,
    SearchScope, VECTOR_ENGINE,
};
pub use transcript::{TranscriptIngestReport, TranscriptRead};

/// A record as L2 returns it: the contract's normalized record. Stable JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Record {
    pub id: String,
    /// ISO-8601, or `n/a` when the source had no usable time.
    pub ts: String,
    /// `user`, `assistant`, `tool` or `unknown`.
    pub role: String,
    #[serde(rename = "type")]
    pub record_type: String,
    pub refs: Vec<String>,
    pub text: String,
    pub tags: Vec<String>,
    /// The session it belongs to; absent from the JSON when none (the
    /// contract's optional field: a present field is always a string).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Where the record came from, as its source said (transcripts: `harness`,
    /// `version`, `model`, `cwd`, `git_branch`, `usage`, `agent_id`, ...;
    /// docs/records.md lists them); `{}` when nothing was said.
    pub meta: Meta,
}

/// A record's metadata: a JSON object.
pub type Meta = serde_json::Map<String, serde_json::Value>;

/// A record to add.
#[derive(Debug, Clone, Default)]
pub struct NewRecord {
    /// `query`, `response`, `artifact`, `tool_output`, `note` (or another
    /// lower-case word: the contract allows future types).
    pub record_type: String,
    /// Default: `unknown`.
    pub role: Option<String>,
    pub text: String,
    pub refs: Vec<String>,
    pub tags: Vec<String>,
    pub session_id: Option<String>,
    /// ISO-8601; default: now.
    pub ts: Option<String>,
    pub meta: Meta,
}

/// The record types `ctx record add` documents; others must at least be a lower-case word.
pub const RECORD_TYPES: [&str; 5] = ["query", "response", "artifact", "tool_output", "note"];

/// The roles a record may have.
pub const ROLES: [&str; 4] = ["user", "assistant", "tool", "unknown"];

/// A record checked and ready to insert.
pub(crate) struct Prepared {
    pub id: String,
    pub dedup_key: Option<String>,
    pub record: Record,
}

/// Check `new`; `dedup_key` (ingest) also derives the id.
pub(crate) fn prepare(new: &NewRecord, dedup_key: Option<String>) -> Result<Prepared> {
    let record_type = new.record_type.trim().to_ascii_lowercase();
    let valid_type = !record_type.is_empty()
        && record_type.len() <= 40
        && record_type.chars().all(|c| c.is_ascii_lowercase() || c == '_');
    if !valid_type {
        return Err(Error::InvalidInput(format!(
            "{:?}: a record type is a lower-case word ({})",
            new.record_type,
            RECORD_TYPES.join(", ")
        )));
    }
    let role = new.role.as_deref().map(|r| r.trim().to_ascii_lowercase()).unwrap_or_else(|| "unknown".into());
    if !ROLES.contains(&role.as_str()) {
        return Err(Error::InvalidInput(format!("{role:?}: the roles are {}", ROLES.join(", "))));
    }
    if new.text.trim().is_empty() {
        return Err(Error::InvalidInput("a record needs text".into()));
    }
    let ts = match &new.ts {
        Some(ts) => normalize_ts(ts),
        None => time::now_iso(),
    };
    let clean = |items: &[String]| -> Vec<String> {
        items.iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
    };
    let tags: Vec<String> = clean(&new.tags).into_iter().map(|t| t.to_lowercase()).collect();
    if let Some(tag) = tags.iter().find(|t| t.contains(char::is_whitespace)) {
        return Err(Error::InvalidInput(format!("{tag:?}: a tag is one word")));
    }
    let session_id = new.session_id.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
    let id = match &dedup_key {
        Some(key) => id_of(key),
        None => new_id("H", &[&ts, &record_type, &new.text]),
    };
    let record = Record {
        id: id.clone(),
        ts,
        role,
        record_type,
        refs: clean(&new.refs),
        text: new.text.clone(),
        tags,
        session_id,
        meta: new.meta.clone(),
    };
    Ok(Prepared { id, dedup_key, record })
}

/// The id of the record with dedup key `key`.
pub(crate) fn id_of(key: &str) -> String {
    format!("H-{}", &blake3::hash(key.as_bytes()).to_hex()[..12])
}

/// `ts` as stored: RFC 3339 times as they are, anything else `n/a` (the
/// contract's mark for a bad timestamp).
fn normalize_ts(ts: &str) -> String {
    let ts = ts.trim();
    match humantime::parse_rfc3339_weak(ts.trim_end_matches('Z')) {
        Ok(_) => ts.to_string(),
        Err(_) => "n/a".to_string(),
    }
}

/// Insert a prepared record; `false` when its dedup key is already there.
pub(crate) fn insert(conn: &Connection, prepared: &Prepared) -> Result<bool> {
    Ok(insert_many(conn, std::slice::from_ref(prepared))? > 0)
}

/// Rows a multi-row insert writes at once (10 parameters a row; SQLite allows 32,766).
const INSERT_BATCH: usize = 3000;

/// Insert `records`, skipping those already there (by id or dedup key);
/// how many were added. Rows go [`INSERT_BATCH`] to a statement: each
/// statement that fires the full-text trigger makes FTS5 flush its pending
/// terms to a new segment, so one statement a row spent most of an ingest
/// writing and merging tiny segments.
pub(crate) fn insert_many(conn: &Connection, records: &[Prepared]) -> Result<usize> {
    let mut added = 0;
    for batch in records.chunks(INSERT_BATCH) {
        let rows = vec!["(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"; batch.len()].join(", ");
        let sql = format!(
            "INSERT OR IGNORE INTO records (uid, type, session_id, role, body, tags, refs, ts, dedup_key, meta) VALUES {rows}"
        );
        let mut stmt = conn.prepare_cached(&sql)?;
        let mut index = 0;
        for prepared in batch {
            let r = &prepared.record;
            let refs = serde_json::to_string(&r.refs).unwrap_or_else(|_| "[]".into());
            let meta = serde_json::to_string(&r.meta).unwrap_or_else(|_| "{}".into());
            let values: [&dyn rusqlite::ToSql; 10] = [
                &prepared.id,
                &r.record_type,
                &r.session_id,
                &r.role,
                &r.text,
                &r.tags.join(" "),
                &refs,
                &r.ts,
                &prepared.dedup_key,
                &meta,
            ];
            for value in values {
                index += 1;
                stmt.raw_bind_parameter(index, value)?;
            }
        }
        added += stmt.raw_execute()?;
    }
    Ok(added)
}

/// The columns [`read_record`] reads.
const RECORD_COLUMNS: &str =
    "uid, ts, coalesce(role, 'unknown'), type, refs, title, body, tags, session_id, pool, meta";

/// A row of [`RECORD_COLUMNS`]: the record and the pool it is in.
fn read_record(row: &rusqlite::Row<'_>) -> rusqlite::Result<(Record, String)> {
    let refs: String = row.get(4)?;
    let (title, body): (String, String) = (row.get(5)?, row.get(6)?);
    let tags: String = row.get(7)?;
    let meta: String = row.get(10)?;
    Ok((
        Record {
            id: row.get(0)?,
            ts: row.get(1)?,
            role: row.get(2)?,
            record_type: row.get(3)?,
            refs: serde_json::from_str(&refs).unwrap_or_default(),
            text: record_text(&title, &body),
            tags: tags.split_whitespace().map(str::to_string).collect(),
            session_id: row.get(8)?,
            meta: serde_json::from_str(&meta).unwrap_or_default(),
        },
        row.get(9)?,
    ))
}

/// The record with id `id` and the pool it is in.
pub(crate) fn get(conn: &Connection, id: &str) -> Result<(Record, String)> {
    conn.prepare_cached(&format!("SELECT {RECORD_COLUMNS} FROM records WHERE uid = ?1"))?
        .query_row([id.trim()], read_record)
        .optional()?
        .ok_or_else(|| Error::UnknownRecord { id: id.trim().to_string() })
}

/// The pins, newest first.
pub(crate) fn pins(conn: &Connection) -> Result<Vec<Record>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {RECORD_COLUMNS} FROM records WHERE type = 'pin' ORDER BY ts DESC, id DESC"
    ))?;
    let rows = stmt.query_map([], read_record)?;
    Ok(rows.map(|r| r.map(|(record, _)| record)).collect::<rusqlite::Result<Vec<_>>>()?)
}

/// A record's text: its body, under its title when it has one (a decision's
/// title and rationale, an attempt's reason and observations).
pub(crate) fn record_text(title: &str, body: &str) -> String {
    match (title.is_empty(), body.is_empty()) {
        (true, _) => body.to_string(),
        (false, true) => title.to_string(),
        (false, false) => format!("{title}\n{body}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_checked() {
        let ok = NewRecord { record_type: "note".into(), text: "hello".into(), ..Default::default() };
        assert!(prepare(&ok, None).is_ok());
        for bad in [
            NewRecord { record_type: "Two Words".into(), ..ok.clone() },
            NewRecord { role: Some("robot".into()), ..ok.clone() },
            NewRecord { text: "  ".into(), ..ok.clone() },
            NewRecord { tags: vec!["a b".into()], ..ok.clone() },
        ] {
            assert_eq!(prepare(&bad, None).map(|_| ()).unwrap_err().code(), "INVALID_INPUT", "{bad:?}");
        }
        let dated = NewRecord { ts: Some("yesterday".into()), ..ok.clone() };
        assert_eq!(prepare(&dated, None).unwrap().record.ts, "n/a");
        // An ingested record's id comes from its key, the same every time.
        let a = prepare(&ok, Some("cc:s:u:0".into())).unwrap().id;
        assert_eq!(a, prepare(&ok, Some("cc:s:u:0".into())).unwrap().id);
        assert!(a.starts_with("H-") && a.len() == 14, "{a}");
    }
}
