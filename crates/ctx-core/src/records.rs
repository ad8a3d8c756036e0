//! Records: the stream of things said and decided. Decisions logged on
//! folders and frames, attempts at frames (see `frames.rs`); session turns
//! and operations share the table later.

use std::sync::atomic::{AtomicU64, Ordering};

use rusqlite::{Connection, params};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::folders::{folder_id, mark_stale_with_ancestors, one_line};
use crate::time;

/// A decision logged on a folder or a frame. Stable JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Decision {
    /// Stable id, `D-` followed by 12 hex digits.
    pub id: String,
    /// The folder it was logged on; `None` for a frame's, or once that folder is gone.
    pub folder: Option<String>,
    /// The frame it was logged on (`F12`); `None` for a folder's.
    pub frame: Option<String>,
    pub title: String,
    pub rationale: String,
    /// Lower-case tags such as `architectural` or `breaking`.
    pub tags: Vec<String>,
    /// ISO-8601 UTC.
    pub ts: String,
}

/// A decision to log.
#[derive(Debug, Clone, Default)]
pub struct NewDecision {
    pub title: String,
    pub rationale: String,
    pub tags: Vec<String>,
}

/// Log a decision on the folder at `key`; marks it and its ancestors stale.
pub(crate) fn log_decision(conn: &Connection, key: &str, new: &NewDecision) -> Result<Decision> {
    let node_id = folder_id(conn, key)?;
    let mut decision = insert_decision(conn, node_id, key, new)?;
    mark_stale_with_ancestors(conn, [key])?;
    decision.folder = Some(key.to_string());
    Ok(decision)
}

/// Insert a decision on node `node_id` (`name` is the node's path or id, for
/// the record's id); the caller says whose it is.
pub(crate) fn insert_decision(
    conn: &Connection,
    node_id: i64,
    name: &str,
    new: &NewDecision,
) -> Result<Decision> {
    let title = one_line(&new.title)?;
    if title.is_empty() {
        return Err(Error::InvalidInput("a decision needs a title".into()));
    }
    let tags = normalize_tags(&new.tags)?;
    let ts = time::now_iso();
    let id = new_id("D", &[&ts, name, &title]);
    // `meta` names the node too, so that the committed decision keeps saying
    // where it belongs after its folder vanishes from the scan (see knowledge/).
    conn.execute(
        "INSERT INTO records (uid, type, node_id, title, body, tags, ts, meta)
         VALUES (?1, 'decision', ?2, ?3, ?4, ?5, ?6, (SELECT CASE kind WHEN 'folder' THEN json_object('folder', path)
             WHEN 'frame' THEN json_object('frame', uid) ELSE '{}' END FROM nodes WHERE id = ?2))",
        params![id, node_id, title, new.rationale.trim(), tags.join(" "), ts],
    )?;
    Ok(Decision {
        id,
        folder: None,
        frame: None,
        title,
        rationale: new.rationale.trim().to_string(),
        tags,
        ts,
    })
}

/// Decisions on folder `key` (all decisions, of folders and frames, when `None`), newest first.
pub(crate) fn decisions(conn: &Connection, key: Option<&str>) -> Result<Vec<Decision>> {
    let node_id = key.map(|k| folder_id(conn, k)).transpose()?;
    decisions_of(conn, node_id)
}

/// Decisions on node `node_id` (all decisions when `None`), newest first.
pub(crate) fn decisions_of(conn: &Connection, node_id: Option<i64>) -> Result<Vec<Decision>> {
    // Two statements, not `?1 IS NULL OR node_id = ?1`: with that, SQLite
    // reads every decision of the workspace to find one node's.
    const COLUMNS: &str = "SELECT r.uid, n.path, CASE WHEN n.kind = 'frame' THEN 'F' || n.seq END,
         r.title, r.body, r.tags, r.ts FROM records r LEFT JOIN nodes n ON n.id = r.node_id";
    let mut stmt = match node_id {
        Some(_) => conn.prepare_cached(&format!(
            "{COLUMNS} WHERE r.node_id = ?1 AND r.type = 'decision' ORDER BY r.ts DESC, r.id DESC"
        ))?,
        None => conn
            .prepare_cached(&format!("{COLUMNS} WHERE r.type = 'decision' ORDER BY r.ts DESC, r.id DESC"))?,
    };
    let read = |row: &rusqlite::Row<'_>| {
        let tags: String = row.get(5)?;
        Ok(Decision {
            id: row.get(0)?,
            folder: row.get(1)?,
            frame: row.get(2)?,
            title: row.get(3)?,
            rationale: row.get(4)?,
            tags: tags.split_whitespace().map(str::to_string).collect(),
            ts: row.get(6)?,
        })
    };
    let rows = match node_id {
        Some(id) => stmt.query_map([id], read)?.collect::<rusqlite::Result<Vec<_>>>()?,
        None => stmt.query_map([], read)?.collect::<rusqlite::Result<Vec<_>>>()?,
    };
    Ok(rows)
}

/// Tags are lower-cased; each is 1–40 characters of letters, digits, `-` and `_`.
pub(crate) fn normalize_tags(tags: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for tag in tags {
        let tag = tag.trim().to_lowercase();
        let valid = !tag.is_empty()
            && tag.chars().count() <= 40
            && tag.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_');
        if !valid {
            return Err(Error::InvalidInput(format!(
                "{tag:?}: a tag is 1-40 letters, digits, '-' or '_' (e.g. architectural, breaking)"
            )));
        }
        if !out.contains(&tag) {
            out.push(tag);
        }
    }
    Ok(out)
}

/// A new stable id: `prefix-` and 12 hex digits, unique across processes.
pub(crate) fn new_id(prefix: &str, parts: &[&str]) -> String {
    format!("{prefix}-{}", new_uid(parts))
}

/// 12 hex digits, unique across processes and machines (time, process,
/// counter and `parts` hashed).
pub(crate) fn new_uid(parts: &[&str]) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = blake3::Hasher::new();
    for part in parts {
        hasher.update(part.as_bytes()).update(&[0]);
    }
    hasher.update(&time::unix_nanos(std::time::SystemTime::now()).to_le_bytes());
    hasher.update(&std::process::id().to_le_bytes());
    hasher.update(&COUNTER.fetch_add(1, Ordering::Relaxed).to_le_bytes());
    hasher.finalize().to_hex()[..12].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_normalized_and_checked() {
        let tags =
            normalize_tags(&["Architectural".into(), " breaking ".into(), "architectural".into()]).unwrap();
        assert_eq!(tags, ["architectural", "breaking"]);
        for bad in ["", "two words", "a,b", &"x".repeat(41)] {
            assert_eq!(normalize_tags(&[bad.to_string()]).unwrap_err().code(), "INVALID_INPUT", "{bad:?}");
        }
    }

    #[test]
    fn ids_are_unique_and_shaped() {
        let a = new_id("D", &["same"]);
        let b = new_id("D", &["same"]);
        assert_ne!(a, b);
        assert!(a.starts_with("D-") && a.len() == 14, "{a}");
    }
}
