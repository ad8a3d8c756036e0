//! An artifact's local history: snapshots taken before each operation, the
//! operations applied (records of type `operation`), and suggested edits
//! (records of type `suggestion`) until someone accepts or rejects them.

use std::collections::BTreeMap;

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::state::Flags;
use super::view::Loaded;
use super::{ArtifactError, OperationEntry, SnapshotInfo, Suggestion};
use crate::error::Result;
use crate::records::{new_id, new_uid};
use crate::time;

/// The state a snapshot keeps besides the file's bytes.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct SnapshotState {
    pub stage: String,
    pub finalized: bool,
    /// (section, done, collapsed)
    pub flags: Vec<(String, bool, bool)>,
}

/// A snapshot's content and state, for a restore.
pub(crate) struct Snapshot {
    pub content: Vec<u8>,
    pub state: SnapshotState,
}

/// Take a snapshot of `loaded` with its `flags`; its id.
pub(crate) fn snapshot(
    conn: &Connection,
    loaded: &Loaded,
    flags: &BTreeMap<String, Flags>,
    reason: &str,
) -> Result<String> {
    let id = format!("S-{}", new_uid(&[&loaded.row.slug, &loaded.hash]));
    let state = SnapshotState {
        stage: loaded.row.stage.clone(),
        finalized: loaded.row.finalized,
        flags: flags.iter().map(|(slug, f)| (slug.clone(), f.done, f.collapsed)).collect(),
    };
    let ts = snapshot_time(conn, loaded.row.node_id, &time::now_iso())?;
    conn.execute(
        "INSERT INTO artifact_snapshots (uid, artifact_id, ts, file_hash, content, state, reason)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            id,
            loaded.row.node_id,
            ts,
            loaded.hash,
            loaded.text.as_bytes(),
            serde_json::to_string(&state).unwrap_or_else(|_| "{}".into()),
            reason
        ],
    )?;
    Ok(id)
}

/// The time to give a new snapshot of artifact `node_id` taken at `now`.
/// Snapshots are listed newest first by time, and two operations can land
/// in the same millisecond: a snapshot's time is kept later than every
/// earlier one of its artifact, so the list is in the order taken.
fn snapshot_time(conn: &Connection, node_id: i64, now: &str) -> Result<String> {
    Ok(conn.query_row(
        "SELECT CASE WHEN max(ts) >= ?2 THEN strftime('%Y-%m-%dT%H:%M:%fZ', max(ts), '+0.001 seconds')
                     ELSE ?2 END
         FROM artifact_snapshots WHERE artifact_id = ?1",
        params![node_id, now],
        |row| row.get(0),
    )?)
}

/// The snapshot `id` of artifact `node_id`, or SNAPSHOT_NOT_FOUND naming the latest ones.
pub(crate) fn read_snapshot(conn: &Connection, node_id: i64, slug: &str, id: &str) -> Result<Snapshot> {
    let found: Option<(Vec<u8>, String)> = conn
        .prepare_cached("SELECT content, state FROM artifact_snapshots WHERE uid = ?1 AND artifact_id = ?2")?
        .query_row(params![id, node_id], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    match found {
        Some((content, state)) => {
            Ok(Snapshot { content, state: serde_json::from_str(&state).unwrap_or_default() })
        }
        None => {
            let known: Vec<String> = snapshots(conn, node_id)?.into_iter().map(|s| s.id).collect();
            Err(ArtifactError::snapshot_not_found(slug, id, &known).into())
        }
    }
}

/// The artifact's snapshots, newest first.
pub(crate) fn snapshots(conn: &Connection, node_id: i64) -> Result<Vec<SnapshotInfo>> {
    let mut stmt = conn.prepare_cached(
        "SELECT uid, ts, file_hash, length(content), reason FROM artifact_snapshots
         WHERE artifact_id = ?1 ORDER BY ts DESC, uid DESC",
    )?;
    let rows = stmt.query_map([node_id], |row| {
        Ok(SnapshotInfo {
            id: row.get(0)?,
            ts: row.get(1)?,
            file_hash: row.get(2)?,
            bytes: row.get::<_, i64>(3)? as usize,
            reason: row.get(4)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// What an operation record holds.
pub(crate) struct Logged<'a> {
    pub operation: &'a str,
    pub section: Option<&'a str>,
    pub reason: &'a str,
    pub snapshot: &'a str,
    pub before_hash: &'a str,
    pub after_hash: &'a str,
    /// The operation's own fields (content redacted).
    pub detail: serde_json::Value,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct OperationMeta {
    operation: String,
    section: Option<String>,
    snapshot: Option<String>,
    before_hash: String,
    after_hash: String,
    #[serde(default)]
    detail: serde_json::Value,
}

/// Log an applied operation as a record of type `operation` on the artifact's node; its id.
pub(crate) fn log(conn: &Connection, node_id: i64, logged: &Logged<'_>) -> Result<String> {
    let id = new_id("O", &[logged.operation, logged.after_hash]);
    let title = match logged.section {
        Some(section) => format!("{} #{section}", logged.operation),
        None => logged.operation.to_string(),
    };
    let meta = OperationMeta {
        operation: logged.operation.to_string(),
        section: logged.section.map(str::to_string),
        snapshot: Some(logged.snapshot.to_string()),
        before_hash: logged.before_hash.to_string(),
        after_hash: logged.after_hash.to_string(),
        detail: logged.detail.clone(),
    };
    conn.execute(
        "INSERT INTO records (uid, type, node_id, role, title, body, tags, ts, meta)
         VALUES (?1, 'operation', ?2, 'agent', ?3, ?4, ?5, ?6, ?7)",
        params![
            id,
            node_id,
            title,
            logged.reason,
            logged.operation.replace('_', "-"),
            time::now_iso(),
            serde_json::to_string(&meta).unwrap_or_else(|_| "{}".into())
        ],
    )?;
    Ok(id)
}

/// The artifact's operations, newest first.
pub(crate) fn operations(conn: &Connection, node_id: i64) -> Result<Vec<OperationEntry>> {
    let mut stmt = conn.prepare_cached(
        "SELECT uid, ts, body, meta FROM records WHERE node_id = ?1 AND type = 'operation' ORDER BY ts DESC, id DESC",
    )?;
    let rows = stmt.query_map([node_id], |row| {
        let meta: String = row.get(3)?;
        let meta: OperationMeta = serde_json::from_str(&meta).unwrap_or_default();
        Ok(OperationEntry {
            id: row.get(0)?,
            ts: row.get(1)?,
            operation: meta.operation,
            section_slug: meta.section,
            reason: row.get(2)?,
            snapshot_id: meta.snapshot,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct SuggestionMeta {
    section: String,
    status: String,
    #[serde(default)]
    rationale: Option<String>,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    decided_at: Option<String>,
    #[serde(default)]
    decision_reason: Option<String>,
    #[serde(default)]
    operation: Option<String>,
}

/// Store a suggestion on a section; its id.
pub(crate) fn suggest(
    conn: &Connection,
    node_id: i64,
    section: &str,
    suggestion: &str,
    rationale: &str,
    content: Option<&str>,
) -> Result<String> {
    let id = new_id("E", &[section, suggestion]);
    let meta = SuggestionMeta {
        section: section.to_string(),
        status: "pending".into(),
        rationale: Some(rationale.to_string()).filter(|r| !r.is_empty()),
        content: content.map(str::to_string),
        ..Default::default()
    };
    conn.execute(
        "INSERT INTO records (uid, type, node_id, role, title, body, ts, meta)
         VALUES (?1, 'suggestion', ?2, 'agent', ?3, ?4, ?5, ?6)",
        params![
            id,
            node_id,
            suggestion.lines().next().unwrap_or_default().chars().take(120).collect::<String>(),
            suggestion,
            time::now_iso(),
            serde_json::to_string(&meta).unwrap_or_else(|_| "{}".into())
        ],
    )?;
    Ok(id)
}

/// How many suggestions on the artifact wait for a decision.
pub(crate) fn pending_count(conn: &Connection, node_id: i64) -> Result<usize> {
    let count: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM records WHERE node_id = ?1 AND type = 'suggestion'
             AND json_extract(meta, '$.status') = 'pending'",
        )?
        .query_row([node_id], |row| row.get(0))?;
    Ok(count as usize)
}

const SUGGESTION_SELECT: &str = "SELECT r.uid, a.slug, r.body, r.ts, r.meta FROM records r
     JOIN artifacts a ON a.node_id = r.node_id WHERE r.type = 'suggestion'";

fn read_suggestion(row: &rusqlite::Row<'_>) -> rusqlite::Result<Suggestion> {
    let meta: String = row.get(4)?;
    let meta: SuggestionMeta = serde_json::from_str(&meta).unwrap_or_default();
    Ok(Suggestion {
        id: row.get(0)?,
        artifact_slug: row.get(1)?,
        section_slug: meta.section,
        suggestion: row.get(2)?,
        rationale: meta.rationale,
        content: meta.content,
        status: meta.status,
        ts: row.get(3)?,
        decided_at: meta.decided_at,
        decision_reason: meta.decision_reason,
        operation_id: meta.operation,
    })
}

/// The suggestions on the artifact, oldest first.
pub(crate) fn suggestions(conn: &Connection, node_id: i64) -> Result<Vec<Suggestion>> {
    let mut stmt =
        conn.prepare_cached(&format!("{SUGGESTION_SELECT} AND r.node_id = ?1 ORDER BY r.ts, r.id"))?;
    Ok(stmt.query_map([node_id], read_suggestion)?.collect::<rusqlite::Result<_>>()?)
}

/// Suggestion `id`, or SUGGESTION_NOT_FOUND.
pub(crate) fn suggestion(conn: &Connection, id: &str) -> Result<Suggestion> {
    conn.prepare_cached(&format!("{SUGGESTION_SELECT} AND r.uid = ?1"))?
        .query_row([id], read_suggestion)
        .optional()?
        .ok_or_else(|| ArtifactError::suggestion_not_found(id).into())
}

/// Record the decision on a pending suggestion (INVALID_OPERATION when it was decided already).
pub(crate) fn decide(
    conn: &Connection,
    id: &str,
    status: &str,
    reason: Option<&str>,
    operation: Option<&str>,
) -> Result<()> {
    let current = suggestion(conn, id)?;
    if current.status != "pending" {
        return Err(ArtifactError::invalid(format!("suggestion {id} was {} already", current.status)).into());
    }
    let meta: String = conn.query_row("SELECT meta FROM records WHERE uid = ?1", [id], |row| row.get(0))?;
    let mut meta: SuggestionMeta = serde_json::from_str(&meta).unwrap_or_default();
    meta.status = status.to_string();
    meta.decided_at = Some(time::now_iso());
    meta.decision_reason = reason.map(str::to_string).filter(|r| !r.is_empty());
    meta.operation = operation.map(str::to_string);
    conn.execute(
        "UPDATE records SET meta = ?2 WHERE uid = ?1",
        params![id, serde_json::to_string(&meta).unwrap_or_else(|_| "{}".into())],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_s_time_is_later_than_every_earlier_one() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE artifact_snapshots (uid TEXT PRIMARY KEY, artifact_id INTEGER, ts TEXT);
             INSERT INTO artifact_snapshots VALUES ('a', 1, '2026-11-24T10:00:59.999Z'), ('b', 2, '2030-01-01T00:00:00.000Z');",
        )
        .unwrap();
        // The same millisecond, or a clock gone back: one millisecond after the latest.
        assert_eq!(snapshot_time(&conn, 1, "2026-11-24T10:00:59.999Z").unwrap(), "2026-11-24T10:01:00.000Z");
        assert_eq!(snapshot_time(&conn, 1, "2026-11-24T09:00:00.000Z").unwrap(), "2026-11-24T10:01:00.000Z");
        // Later: the time itself; another artifact's snapshots do not count.
        assert_eq!(snapshot_time(&conn, 1, "2026-11-24T10:01:00.005Z").unwrap(), "2026-11-24T10:01:00.005Z");
        assert_eq!(snapshot_time(&conn, 3, "2026-11-24T09:00:00.000Z").unwrap(), "2026-11-24T09:00:00.000Z");
    }
}
