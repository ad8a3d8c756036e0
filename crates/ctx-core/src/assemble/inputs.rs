//! What one assembly reads from the store: the focus frame with its
//! decisions, attempts and artifacts, its ancestors, its siblings and its
//! finished children, in a handful of queries however deep the chain.

use rusqlite::Connection;

use crate::error::Result;
use crate::frames::{self, Attempt, FrameRow, FrameStatus};

/// One frame as assembly sees it.
#[derive(Debug, Clone, Default)]
pub(crate) struct FrameInput {
    pub id: String,
    pub seq: i64,
    pub frame_type: String,
    pub title: String,
    pub goal: String,
    pub status: FrameStatus,
    pub summary: String,
    pub artifacts: Vec<String>,
    pub criteria: Vec<String>,
    /// When it ended, or else last changed: milliseconds since the epoch.
    pub changed_ms: i64,
}

impl FrameInput {
    fn from_row(row: FrameRow, artifacts: Vec<String>) -> FrameInput {
        let changed = row.ended_at.as_deref().unwrap_or(&row.updated_at);
        FrameInput {
            id: row.id(),
            seq: row.seq,
            changed_ms: parse_ms(changed),
            frame_type: row.frame_type,
            title: row.title,
            goal: row.goal,
            status: row.status,
            summary: row.summary,
            artifacts,
            criteria: row.criteria,
        }
    }
}

fn parse_ms(iso: &str) -> i64 {
    humantime::parse_rfc3339_weak(iso.trim_end_matches('Z'))
        .map(|t| crate::time::unix_nanos(t) / 1_000_000)
        .unwrap_or(0)
}

/// Everything one assembly reads.
#[derive(Debug, Clone, Default)]
pub(crate) struct Inputs {
    pub focus: FrameInput,
    /// Titles of the focus frame's decisions, newest first.
    pub decisions: Vec<String>,
    /// Oldest first.
    pub attempts: Vec<Attempt>,
    /// Root first, parent last.
    pub ancestors: Vec<FrameInput>,
    /// The other children of the parent (of the top level, for a top-level frame), oldest first.
    pub siblings: Vec<FrameInput>,
    /// The focus frame's completed and failed children, most recent first.
    pub children: Vec<FrameInput>,
    pub now_ms: i64,
}

impl Inputs {
    /// Read the inputs of frame `focus` (inside the caller's read transaction).
    pub fn load(conn: &Connection, focus: &FrameRow, now_ms: i64) -> Result<Inputs> {
        // The chain's artifacts and its frames: two queries, however deep.
        let sql = format!(
            "{} SELECT a.node_id, a.path FROM frame_artifacts a JOIN chain ON chain.id = a.node_id
             ORDER BY a.added_at, a.path",
            frames::ANCESTOR_CHAIN
        );
        let mut artifacts = frames::artifacts_by_node(conn, &sql, [focus.node_id])?;
        let ancestors = frames::ancestors(conn, focus)?
            .into_iter()
            .map(|row| {
                let artifacts = artifacts.remove(&row.node_id).unwrap_or_default();
                FrameInput::from_row(row, artifacts)
            })
            .collect();

        artifacts.extend(frames::artifacts_by_node(
            conn,
            "SELECT a.node_id, a.path FROM frame_artifacts a JOIN nodes n ON n.id = a.node_id
             WHERE n.parent_id IS ?1 AND n.kind = 'frame' AND n.id <> ?2 ORDER BY a.added_at, a.path",
            rusqlite::params![focus.parent_id, focus.node_id],
        )?);
        let sql = format!(
            "SELECT {} FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id
             WHERE n.parent_id IS ?1 AND n.kind = 'frame' AND n.id <> ?2 ORDER BY n.seq",
            frames::FRAME_COLUMNS
        );
        let siblings = conn
            .prepare_cached(&sql)?
            .query_map(rusqlite::params![focus.parent_id, focus.node_id], FrameRow::read)?
            .map(|row| {
                let row = row?;
                let artifacts = artifacts.remove(&row.node_id).unwrap_or_default();
                Ok(FrameInput::from_row(row, artifacts))
            })
            .collect::<Result<Vec<_>>>()?;

        let sql = format!(
            "SELECT {} FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id
             WHERE n.parent_id = ?1 AND n.kind = 'frame' AND n.status IN ('completed', 'failed')",
            frames::FRAME_COLUMNS
        );
        let mut children = conn
            .prepare_cached(&sql)?
            .query_map([focus.node_id], FrameRow::read)?
            .map(|row| Ok(FrameInput::from_row(row?, Vec::new())))
            .collect::<Result<Vec<_>>>()?;
        children.sort_by(|a, b| b.changed_ms.cmp(&a.changed_ms).then(b.seq.cmp(&a.seq)));

        let decisions =
            crate::records::decisions_of(conn, Some(focus.node_id))?.into_iter().map(|d| d.title).collect();
        let attempts = frames::attempts(conn, focus.node_id)?;
        let focus = FrameInput::from_row(focus.clone(), frames::artifacts(conn, focus.node_id)?);
        Ok(Inputs { focus, decisions, attempts, ancestors, siblings, children, now_ms })
    }
}
