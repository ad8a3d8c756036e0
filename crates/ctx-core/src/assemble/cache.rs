//! The cache of assembled context, in the store, so that every process (a
//! CLI call, Python, the MCP server) shares it.
//!
//! An entry is kept per frame and rendering and served while
//! 1. its **state hash** matches: a hash of exactly what the text was made
//!    from: the frame's revision and its finished children's (its
//!    subframes), each ancestor's revision, the parent's children revision
//!    (every sibling), the budget and where it came from, the
//!    minimum sibling score, the templates and the tokenizer; and
//! 2. it is younger than the TTL: recency scores move with the clock, and
//!    the TTL bounds how old they may be.
//!
//! Past `max_entries` the least recently used entries go, down to
//! `evict_to`. A cache that cannot be written (a read-only store, a busy
//! writer) is no error: the context is returned all the same.

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use super::{AssemblyReport, Rendering};
use crate::config::CacheConfig;
use crate::error::Result;
use crate::frames::{self, FrameRow};
use crate::store::briefly;

/// Bumped when what an assembly makes of the same inputs changes (the
/// crate's version is hashed too, so another release never reads this one's entries).
const ASSEMBLY_VERSION: u32 = 1;

/// How the cache served one request. Stable JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CacheReport {
    /// Served from the cache.
    pub hit: bool,
    /// Age of the entry served, in milliseconds.
    pub age_ms: Option<u64>,
    /// Assembled and written to the cache.
    pub stored: bool,
    /// Entries in the cache now.
    pub entries: usize,
    pub ttl_seconds: u64,
    pub max_entries: usize,
}

/// The state hash of `focus` in `rendering`; `settings` is a digest of
/// everything else the text depends on (budget, templates, tokenizer).
pub(crate) fn state_hash(
    conn: &Connection,
    focus: &FrameRow,
    rendering: Rendering,
    settings: &str,
) -> Result<String> {
    let mut hasher = blake3::Hasher::new();
    hasher
        .update(&ASSEMBLY_VERSION.to_le_bytes())
        .update(env!("CARGO_PKG_VERSION").as_bytes())
        .update(rendering.as_str().as_bytes())
        .update(settings.as_bytes());
    let mut stmt = conn.prepare_cached(
        "WITH RECURSIVE chain(id, parent_id, rev, children_rev, depth) AS (
             SELECT id, parent_id, rev, children_rev, 0 FROM nodes WHERE id = ?1
             UNION ALL
             SELECT n.id, n.parent_id, n.rev, n.children_rev, c.depth + 1 FROM nodes n JOIN chain c ON n.id = c.parent_id
         )
         SELECT id, rev, children_rev, depth FROM chain ORDER BY depth",
    )?;
    let mut rows = stmt.query([focus.node_id])?;
    while let Some(row) = rows.next()? {
        let (id, rev, children_rev, depth): (i64, i64, i64, i64) =
            (row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?);
        hasher.update(&id.to_le_bytes()).update(&rev.to_le_bytes());
        // The parent's children revision covers every sibling.
        if depth == 1 {
            hasher.update(&children_rev.to_le_bytes());
        }
    }
    // The finished subframes, which the current frame shows (not those in progress).
    let mut stmt = conn.prepare_cached(
        "SELECT id, rev FROM nodes WHERE parent_id = ?1 AND kind = 'frame' AND status IN ('completed', 'failed')
         ORDER BY id",
    )?;
    let mut rows = stmt.query([focus.node_id])?;
    while let Some(row) = rows.next()? {
        let (id, rev): (i64, i64) = (row.get(0)?, row.get(1)?);
        hasher.update(b"subframe").update(&id.to_le_bytes()).update(&rev.to_le_bytes());
    }
    if focus.parent_id.is_none() {
        hasher.update(&frames::root_children_rev(conn)?.to_le_bytes());
    }
    Ok(hasher.finalize().to_hex().to_string())
}

/// Which entry: a frame's rendering made from a state.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Key<'a> {
    pub node_id: i64,
    pub rendering: Rendering,
    /// From [`state_hash`].
    pub hash: &'a str,
}

/// The entry `key` names if it was made at most `ttl_ms` ago. The caller
/// marks it used ([`mark_used`]) once its read transaction is over.
pub(crate) fn lookup(conn: &Connection, key: &Key<'_>, now_ms: i64, ttl_ms: i64) -> Result<Option<Hit>> {
    let Key { node_id, rendering, hash } = *key;
    let entry: Option<(String, String, String, i64, i64)> = conn
        .prepare_cached(
            "SELECT state_hash, text, report, created_ms, used_ms FROM context_cache
             WHERE node_id = ?1 AND rendering = ?2",
        )?
        .query_row(params![node_id, rendering.as_str()], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?))
        })
        .optional()?;
    let Some((stored_hash, text, report, created_ms, used_ms)) = entry else { return Ok(None) };
    let age = now_ms - created_ms;
    if stored_hash != hash || !(0..ttl_ms).contains(&age) {
        return Ok(None);
    }
    let Ok(report) = serde_json::from_str::<AssemblyReport>(&report) else { return Ok(None) };
    Ok(Some(Hit { text, report, age_ms: age as u64, used_ms }))
}

/// An entry the cache served.
pub(crate) struct Hit {
    pub text: String,
    pub report: AssemblyReport,
    pub age_ms: u64,
    /// When it was last marked used.
    pub used_ms: i64,
}

/// Record that the entry `key` names, last marked at `used_ms`, was used
/// now, for LRU eviction; to the second: a hit within a second of the last
/// mark writes nothing (a write costs a hit most of its time). A store that
/// cannot be written right now is not worth failing a read over.
pub(crate) fn mark_used(conn: &Connection, key: &Key<'_>, used_ms: i64, now_ms: i64) {
    /// Marks closer together than this are one.
    const RESOLUTION_MS: i64 = 1000;
    if (used_ms..used_ms + RESOLUTION_MS).contains(&now_ms) {
        return;
    }
    let _ = briefly(conn, || {
        conn.prepare_cached("UPDATE context_cache SET used_ms = ?3 WHERE node_id = ?1 AND rendering = ?2")?
            .execute(params![key.node_id, key.rendering.as_str(), now_ms])?;
        Ok(())
    });
}

/// Store an entry and evict the least recently used past the limit, in one
/// transaction. Whether it was stored.
pub(crate) fn store(
    conn: &Connection,
    key: &Key<'_>,
    text: &str,
    report: &AssemblyReport,
    now_ms: i64,
    config: &CacheConfig,
) -> bool {
    let Key { node_id, rendering, hash } = *key;
    let stored = briefly(conn, || {
        let report = serde_json::to_string(report).unwrap_or_default();
        let tx = conn.unchecked_transaction()?;
        tx.prepare_cached(
            "INSERT OR REPLACE INTO context_cache (node_id, rendering, state_hash, created_ms, used_ms, text, report)
             VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6)",
        )?
        .execute(params![node_id, rendering.as_str(), hash, now_ms, text, report])?;
        if entries(&tx)? > config.max_entries {
            tx.prepare_cached(
                "DELETE FROM context_cache WHERE (node_id, rendering) NOT IN
                 (SELECT node_id, rendering FROM context_cache ORDER BY used_ms DESC LIMIT ?1)",
            )?
            .execute([config.evict_to as i64])?;
        }
        tx.commit()?;
        Ok(())
    });
    stored.is_ok()
}

/// How many entries the cache holds.
pub(crate) fn entries(conn: &Connection) -> Result<usize> {
    Ok(conn.query_row("SELECT count(*) FROM context_cache", [], |row| row.get::<_, i64>(0))? as usize)
}

/// Remove the entries of node `node_id` (every entry when `None`); how many went.
pub(crate) fn clear(conn: &Connection, node_id: Option<i64>) -> Result<usize> {
    Ok(conn.execute("DELETE FROM context_cache WHERE ?1 IS NULL OR node_id = ?1", [node_id])?)
}
