//! The work tree: frames, the units of agent work (flame frames, cub epics
//! and tasks), as nodes of kind `frame`.
//!
//! A frame has a goal, a status (planned, in_progress, completed, failed,
//! blocked), a summary once it ends, acceptance criteria, artifacts (paths),
//! decisions and attempts (records). An epic is a frame with children.
//! Frames are named `F<seq>` (`F12`); `12` and `f12` name it too.
//!
//! The **current frame** is the in-progress frame pushed or started last
//! (by an activation counter, not the clock):
//! push a frame and it is current, pop it and the one before is current
//! again, with no stack to keep beside the tree.
//!
//! Every change to a frame moves its `rev`, and its parent's `children_rev`
//! (for root frames, a counter in `kv`): the context cache keys on them.

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::folders::one_line;
use crate::records::{self, Decision, NewDecision, new_id};
use crate::store::{kv_get, kv_set};
use crate::time;

/// Where a frame is in its life. Stable JSON (snake_case).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FrameStatus {
    /// Added (a task), not started.
    #[default]
    Planned,
    InProgress,
    Completed,
    Failed,
    Blocked,
}

impl FrameStatus {
    pub const ALL: [FrameStatus; 5] = [
        FrameStatus::Planned,
        FrameStatus::InProgress,
        FrameStatus::Completed,
        FrameStatus::Failed,
        FrameStatus::Blocked,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FrameStatus::Planned => "planned",
            FrameStatus::InProgress => "in_progress",
            FrameStatus::Completed => "completed",
            FrameStatus::Failed => "failed",
            FrameStatus::Blocked => "blocked",
        }
    }

    /// `in_progress` (or `in-progress`) and the other names of [`FrameStatus::as_str`].
    pub fn parse(text: &str) -> Option<FrameStatus> {
        let text = text.trim().to_ascii_lowercase().replace('-', "_");
        FrameStatus::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// How a stored status reads; an unknown one (a newer ctx) reads as planned.
    fn from_db(text: &str) -> FrameStatus {
        FrameStatus::parse(text).unwrap_or(FrameStatus::Planned)
    }
}

impl std::fmt::Display for FrameStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A frame. Stable JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Frame {
    /// `F` and its number.
    pub id: String,
    /// The parent frame (for a task, its epic); `None` at the top.
    pub parent: Option<String>,
    /// `frame` (pushed), `task`, `epic`, or what the task was added as (`bug`, `feature`, ...).
    #[serde(rename = "type")]
    pub frame_type: String,
    /// One line.
    pub title: String,
    /// What the frame is to achieve (a task's description; its title when it has none).
    pub goal: String,
    pub status: FrameStatus,
    /// What was achieved; empty until somebody writes it.
    pub summary: String,
    pub criteria: Vec<String>,
    /// Repository-relative paths or globs, in the order they were added.
    pub artifacts: Vec<String>,
    /// How many child frames it has.
    pub children: usize,
    /// ISO-8601 UTC.
    pub created_at: String,
    pub updated_at: String,
    /// When it was last pushed or started.
    pub activated_at: Option<String>,
    /// When it was last popped, done or failed.
    pub ended_at: Option<String>,
}

/// A frame with everything attached to it. Stable JSON: the frame's fields, and these.
#[derive(Debug, Clone, Serialize)]
pub struct FrameDetail {
    #[serde(flatten)]
    pub frame: Frame,
    pub is_current: bool,
    /// Root first, parent last.
    pub ancestors: Vec<FrameLine>,
    /// In the order they were made.
    pub subframes: Vec<FrameLine>,
    /// Newest first.
    pub decisions: Vec<Decision>,
    /// Oldest first.
    pub attempts: Vec<Attempt>,
}

/// A frame in one line. Stable JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FrameLine {
    pub id: String,
    #[serde(rename = "type")]
    pub frame_type: String,
    pub title: String,
    pub status: FrameStatus,
}

/// A frame and its descendants, as `ctx frame tree` shows them. Stable JSON.
#[derive(Debug, Clone, Serialize)]
pub struct FrameTree {
    #[serde(flatten)]
    pub frame: FrameLine,
    pub is_current: bool,
    pub children: Vec<FrameTree>,
    /// Children left out below the depth limit.
    pub children_not_shown: usize,
}

/// A failed try at a frame: why, and what was learned. Stable JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Attempt {
    /// Stable id, `A-` and 12 hex digits.
    pub id: String,
    /// 1 for the first attempt.
    pub number: usize,
    pub reason: String,
    pub observations: Vec<String>,
    /// Mistakes the next attempt should not repeat.
    pub avoid: Vec<String>,
    pub ts: String,
}

/// A frame to push: it starts in progress and becomes the current frame.
#[derive(Debug, Clone, Default)]
pub struct NewFrame {
    pub goal: String,
    /// One line; default: the goal's first line, shortened.
    pub title: Option<String>,
    /// The parent's id; default (`None`): the current frame, or a top-level
    /// frame when there is none; `"none"` (any case): a top-level frame.
    pub parent: Option<String>,
    /// Default: `frame`.
    pub frame_type: Option<String>,
}

/// The [`NewFrame::parent`] that makes a top-level frame, whatever is current.
const TOP_LEVEL: &str = "none";

/// A task to add: it starts planned.
#[derive(Debug, Clone, Default)]
pub struct NewTask {
    pub title: String,
    /// The epic (any frame) it belongs to; `None`: a top-level task or epic.
    pub epic: Option<String>,
    pub description: Option<String>,
    pub criteria: Vec<String>,
    /// Default: `task`; `epic` for an epic.
    pub task_type: Option<String>,
}

/// Why a try failed.
#[derive(Debug, Clone, Default)]
pub struct NewAttempt {
    pub reason: String,
    pub observations: Vec<String>,
    pub avoid: Vec<String>,
}

/// Which frames `ctx task list` shows.
#[derive(Debug, Clone, Default)]
pub struct TaskFilter {
    /// Only the children of this frame; `None`: every task and epic.
    pub epic: Option<String>,
    pub status: Option<FrameStatus>,
}

/// Longest title made from a goal, in characters.
const MAX_DERIVED_TITLE: usize = 80;

/// The columns [`FrameRow::read`] reads, of `nodes n` joined with its parent `p`.
pub(crate) const FRAME_COLUMNS: &str = "n.id, n.seq, n.parent_id, p.seq, n.frame_type, n.title, n.description, \
     n.status, n.summary, n.criteria, n.created_at, n.updated_at, n.activated_at, n.ended_at";

/// A frame's row, as the store holds it.
#[derive(Debug, Clone)]
pub(crate) struct FrameRow {
    pub node_id: i64,
    pub seq: i64,
    pub parent_id: Option<i64>,
    pub parent_seq: Option<i64>,
    pub frame_type: String,
    pub title: String,
    pub goal: String,
    pub status: FrameStatus,
    pub summary: String,
    pub criteria: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
    pub activated_at: Option<String>,
    pub ended_at: Option<String>,
}

impl FrameRow {
    /// A row of [`FRAME_COLUMNS`].
    pub fn read(row: &rusqlite::Row<'_>) -> rusqlite::Result<FrameRow> {
        let status: String = row.get(7)?;
        let criteria: String = row.get(9)?;
        Ok(FrameRow {
            node_id: row.get(0)?,
            seq: row.get(1)?,
            parent_id: row.get(2)?,
            parent_seq: row.get(3)?,
            frame_type: row.get::<_, Option<String>>(4)?.unwrap_or_else(|| "frame".into()),
            title: row.get(5)?,
            goal: row.get(6)?,
            status: FrameStatus::from_db(&status),
            summary: row.get(8)?,
            criteria: serde_json::from_str(&criteria).unwrap_or_default(),
            created_at: row.get(10)?,
            updated_at: row.get(11)?,
            activated_at: row.get(12)?,
            ended_at: row.get(13)?,
        })
    }

    pub fn id(&self) -> String {
        frame_id(self.seq)
    }

    fn line(&self) -> FrameLine {
        FrameLine {
            id: self.id(),
            frame_type: self.frame_type.clone(),
            title: self.title.clone(),
            status: self.status,
        }
    }
}

/// `F12` for sequence number 12.
pub(crate) fn frame_id(seq: i64) -> String {
    format!("F{seq}")
}

/// The sequence number `F12`, `f12` or `12` names.
fn parse_id(text: &str) -> Result<i64> {
    let trimmed = text.trim();
    let digits = trimmed.strip_prefix(['F', 'f']).unwrap_or(trimmed);
    match digits.parse::<i64>() {
        Ok(seq) if seq > 0 && digits.bytes().all(|b| b.is_ascii_digit()) => Ok(seq),
        _ => Err(Error::InvalidInput(format!("{text:?}: a frame id is F and a number, like F12"))),
    }
}

/// The frame called `id`.
pub(crate) fn by_id(conn: &Connection, id: &str) -> Result<FrameRow> {
    let seq = parse_id(id)?;
    let sql = format!(
        "SELECT {FRAME_COLUMNS} FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id WHERE n.seq = ?1 AND n.kind = 'frame'"
    );
    conn.prepare_cached(&sql)?
        .query_row([seq], FrameRow::read)
        .optional()?
        .ok_or_else(|| Error::UnknownFrame { id: frame_id(seq) })
}

/// The frame with node id `node_id`.
pub(crate) fn by_node(conn: &Connection, node_id: i64) -> Result<FrameRow> {
    let sql = format!(
        "SELECT {FRAME_COLUMNS} FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id WHERE n.id = ?1 AND n.kind = 'frame'"
    );
    conn.prepare_cached(&sql)?
        .query_row([node_id], FrameRow::read)
        .optional()?
        .ok_or_else(|| Error::UnknownFrame { id: format!("node {node_id}") })
}

/// The node id of the current frame: the in-progress frame activated last.
pub(crate) fn current(conn: &Connection) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached(
            "SELECT id FROM nodes WHERE kind = 'frame' AND status = 'in_progress' AND activation IS NOT NULL
             ORDER BY activation DESC LIMIT 1",
        )?
        .query_row([], |row| row.get(0))
        .optional()?)
}

/// The frame called `id`, or the current frame when `id` is `None`.
pub(crate) fn target(conn: &Connection, id: Option<&str>) -> Result<FrameRow> {
    match id {
        Some(id) => by_id(conn, id),
        None => by_node(conn, current(conn)?.ok_or(Error::NoCurrentFrame)?),
    }
}

/// Artifacts of frame `node_id`, in the order they were added.
pub(crate) fn artifacts(conn: &Connection, node_id: i64) -> Result<Vec<String>> {
    let mut stmt =
        conn.prepare_cached("SELECT path FROM frame_artifacts WHERE node_id = ?1 ORDER BY added_at, path")?;
    let rows = stmt.query_map([node_id], |row| row.get(0))?;
    Ok(rows.collect::<rusqlite::Result<Vec<String>>>()?)
}

/// Attempts at frame `node_id`, oldest first.
pub(crate) fn attempts(conn: &Connection, node_id: i64) -> Result<Vec<Attempt>> {
    let mut stmt = conn.prepare_cached(
        "SELECT uid, title, meta, ts FROM records WHERE type = 'attempt' AND node_id = ?1 ORDER BY ts, id",
    )?;
    let rows = stmt.query_map([node_id], |row| {
        Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?, row.get::<_, String>(2)?, row.get(3)?))
    })?;
    let mut attempts = Vec::new();
    for (number, row) in rows.enumerate() {
        let (id, reason, meta, ts) = row?;
        let meta: AttemptMeta = serde_json::from_str(&meta).unwrap_or_default();
        attempts.push(Attempt {
            id,
            number: number + 1,
            reason,
            observations: meta.observations,
            avoid: meta.avoid,
            ts,
        });
    }
    Ok(attempts)
}

/// What an attempt record keeps in `meta`.
#[derive(Debug, Default, Serialize, serde::Deserialize)]
pub(crate) struct AttemptMeta {
    #[serde(default)]
    pub observations: Vec<String>,
    #[serde(default)]
    pub avoid: Vec<String>,
}

/// The public view of a frame row.
pub(crate) fn frame(conn: &Connection, row: &FrameRow) -> Result<Frame> {
    let children: i64 = conn
        .prepare_cached("SELECT count(*) FROM nodes WHERE parent_id = ?1 AND kind = 'frame'")?
        .query_row([row.node_id], |r| r.get(0))?;
    Ok(frame_with(row, artifacts(conn, row.node_id)?, children as usize))
}

/// The public view of a frame row whose artifacts and children are known.
fn frame_with(row: &FrameRow, artifacts: Vec<String>, children: usize) -> Frame {
    Frame {
        id: row.id(),
        parent: row.parent_seq.map(frame_id),
        frame_type: row.frame_type.clone(),
        title: row.title.clone(),
        goal: row.goal.clone(),
        status: row.status,
        summary: row.summary.clone(),
        criteria: row.criteria.clone(),
        artifacts,
        children,
        created_at: row.created_at.clone(),
        updated_at: row.updated_at.clone(),
        activated_at: row.activated_at.clone(),
        ended_at: row.ended_at.clone(),
    }
}

/// `(node id, path)` rows of `sql` as each node's artifacts, in row order.
pub(crate) fn artifacts_by_node(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<rustc_hash::FxHashMap<i64, Vec<String>>> {
    let mut artifacts: rustc_hash::FxHashMap<i64, Vec<String>> = Default::default();
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query(params)?;
    while let Some(row) = rows.next()? {
        artifacts.entry(row.get(0)?).or_default().push(row.get(1)?);
    }
    Ok(artifacts)
}

/// Everything attached to frame `row`.
pub(crate) fn detail(conn: &Connection, row: &FrameRow) -> Result<FrameDetail> {
    let sql = format!(
        "SELECT {FRAME_COLUMNS} FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id
         WHERE n.parent_id = ?1 AND n.kind = 'frame' ORDER BY n.seq"
    );
    let subframes = conn
        .prepare_cached(&sql)?
        .query_map([row.node_id], FrameRow::read)?
        .map(|r| r.map(|r| r.line()))
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(FrameDetail {
        frame: frame(conn, row)?,
        is_current: current(conn)? == Some(row.node_id),
        ancestors: ancestors(conn, row)?.iter().map(FrameRow::line).collect(),
        subframes,
        decisions: records::decisions_of(conn, Some(row.node_id))?,
        attempts: attempts(conn, row.node_id)?,
    })
}

/// A recursive CTE `chain(id, depth)` of the ancestors of node `?1`
/// (the parent at depth 1), for one query over a whole chain.
pub(crate) const ANCESTOR_CHAIN: &str = "WITH RECURSIVE chain(id, depth) AS (
         SELECT parent_id, 1 FROM nodes WHERE id = ?1 AND parent_id IS NOT NULL
         UNION ALL
         SELECT n.parent_id, c.depth + 1 FROM nodes n JOIN chain c ON n.id = c.id WHERE n.parent_id IS NOT NULL
     )";

/// The ancestors of `row`, root first, in one query.
pub(crate) fn ancestors(conn: &Connection, row: &FrameRow) -> Result<Vec<FrameRow>> {
    let sql = format!(
        "{ANCESTOR_CHAIN} SELECT {FRAME_COLUMNS} FROM chain JOIN nodes n ON n.id = chain.id
         LEFT JOIN nodes p ON p.id = n.parent_id WHERE n.kind = 'frame' ORDER BY chain.depth DESC"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([row.node_id], FrameRow::read)?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Push a frame under `new.parent` (default: the current frame) and make it current.
pub(crate) fn push(conn: &Connection, new: &NewFrame) -> Result<FrameRow> {
    let goal = new.goal.trim();
    if goal.is_empty() {
        return Err(Error::InvalidInput("a frame needs a goal".into()));
    }
    let title = match &new.title {
        Some(title) => required_line(title, "a frame's title")?,
        None => derive_title(goal),
    };
    let parent = match new.parent.as_deref().map(str::trim) {
        Some(id) if id.eq_ignore_ascii_case(TOP_LEVEL) => None,
        Some(id) => Some(by_id(conn, id)?.node_id),
        None => current(conn)?,
    };
    let frame_type = frame_type(new.frame_type.as_deref(), "frame")?;
    insert(conn, parent, &frame_type, &title, goal, FrameStatus::InProgress, &[])
}

/// Add a planned task (or epic) under `new.epic`.
pub(crate) fn add_task(conn: &Connection, new: &NewTask) -> Result<FrameRow> {
    let title = required_line(&new.title, "a task's title")?;
    let goal =
        new.description.as_deref().map(str::trim).filter(|d| !d.is_empty()).unwrap_or(&title).to_string();
    let parent = new.epic.as_deref().map(|id| by_id(conn, id)).transpose()?.map(|row| row.node_id);
    let frame_type = frame_type(new.task_type.as_deref(), "task")?;
    let criteria = new
        .criteria
        .iter()
        .map(|c| required_line(c, "an acceptance criterion"))
        .collect::<Result<Vec<_>>>()?;
    insert(conn, parent, &frame_type, &title, &goal, FrameStatus::Planned, &criteria)
}

fn insert(
    conn: &Connection,
    parent: Option<i64>,
    frame_type: &str,
    title: &str,
    goal: &str,
    status: FrameStatus,
    criteria: &[String],
) -> Result<FrameRow> {
    let now = time::now_iso();
    let seq: i64 =
        conn.query_row("SELECT coalesce(max(seq), 0) + 1 FROM nodes WHERE seq IS NOT NULL", [], |r| {
            r.get(0)
        })?;
    let activation = (status == FrameStatus::InProgress).then(|| next_activation(conn)).transpose()?;
    let activated_at = activation.map(|_| &now);
    let criteria = serde_json::to_string(criteria).unwrap_or_else(|_| "[]".into());
    let uid = records::new_uid(&[title, &now]);
    conn.prepare_cached(
        "INSERT INTO nodes (kind, parent_id, title, description, status, stale, seq, frame_type, criteria,
                            activated_at, activation, created_at, updated_at, uid)
         VALUES ('frame', ?1, ?2, ?3, ?4, 0, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11)",
    )?
    .execute(params![
        parent,
        title,
        goal,
        status.as_str(),
        seq,
        frame_type,
        criteria,
        activated_at,
        activation,
        now,
        uid
    ])?;
    let node_id = conn.last_insert_rowid();
    bump_children(conn, parent)?;
    by_node(conn, node_id)
}

/// End work in progress on the frame: `completed`, `failed` (recorded as an
/// attempt, the summary its reason) or `blocked`.
pub(crate) fn pop(
    conn: &Connection,
    row: &FrameRow,
    status: FrameStatus,
    summary: Option<&str>,
) -> Result<()> {
    if !matches!(status, FrameStatus::Completed | FrameStatus::Failed | FrameStatus::Blocked) {
        return Err(Error::InvalidInput(format!(
            "{status}: a frame is popped as completed, failed or blocked"
        )));
    }
    if row.status != FrameStatus::InProgress {
        return Err(Error::FrameState(format!(
            "{} is {}, not in progress: only work in progress is popped",
            row.id(),
            row.status
        )));
    }
    if status == FrameStatus::Failed {
        let reason = summary.map(str::trim).filter(|s| !s.is_empty()).unwrap_or("popped as failed");
        let attempt = NewAttempt { reason: reason.to_string(), ..Default::default() };
        return fail(conn, row, &attempt, summary);
    }
    end(conn, row, status, summary)
}

/// Start (or restart) work on the frame: it is in progress and current.
pub(crate) fn start(conn: &Connection, row: &FrameRow) -> Result<()> {
    if row.status == FrameStatus::Completed {
        return Err(Error::FrameState(format!("{} is completed; add a new task for more work", row.id())));
    }
    // Started, it would be current above work still in progress below it,
    // which then is nobody's current frame (and it could not be popped).
    let open = open_children(conn, row.node_id)?;
    if let Some(first) = open.first() {
        return Err(Error::FrameState(format!(
            "{} has frames in progress ({}): end them first (`ctx task done {first}` or `ctx frame pop {first}`)",
            row.id(),
            open.join(", ")
        )));
    }
    conn.prepare_cached(
        "UPDATE nodes SET status = 'in_progress', activated_at = ?2, activation = ?3, ended_at = NULL WHERE id = ?1",
    )?
    .execute(params![row.node_id, time::now_iso(), next_activation(conn)?])?;
    touch(conn, row)
}

/// The activation number of a frame activated now: one more than any before.
fn next_activation(conn: &Connection) -> Result<i64> {
    Ok(conn
        .prepare_cached("SELECT coalesce(max(activation), 0) + 1 FROM nodes WHERE activation IS NOT NULL")?
        .query_row([], |row| row.get(0))?)
}

/// Mark the frame completed (again: only the summary changes).
pub(crate) fn done(conn: &Connection, row: &FrameRow, summary: Option<&str>) -> Result<()> {
    if row.status == FrameStatus::Completed {
        if let Some(summary) = summary {
            conn.prepare_cached("UPDATE nodes SET summary = ?2 WHERE id = ?1")?
                .execute(params![row.node_id, summary.trim()])?;
            touch(conn, row)?;
        }
        return Ok(());
    }
    end(conn, row, FrameStatus::Completed, summary)
}

/// Record a failed attempt at the frame and mark it failed.
pub(crate) fn fail(
    conn: &Connection,
    row: &FrameRow,
    attempt: &NewAttempt,
    summary: Option<&str>,
) -> Result<()> {
    let reason = attempt.reason.trim();
    if reason.is_empty() {
        return Err(Error::InvalidInput("a failure needs a reason".into()));
    }
    if row.status == FrameStatus::Completed {
        return Err(Error::FrameState(format!("{} is completed; it cannot fail now", row.id())));
    }
    let clean = |items: &[String]| -> Vec<String> {
        items.iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
    };
    let meta = AttemptMeta { observations: clean(&attempt.observations), avoid: clean(&attempt.avoid) };
    let ts = time::now_iso();
    let id = new_id("A", &[&ts, &row.id(), reason]);
    conn.prepare_cached(
        "INSERT INTO records (uid, type, node_id, title, body, ts, meta) VALUES (?1, 'attempt', ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        id,
        row.node_id,
        reason,
        meta.observations.join("\n"),
        ts,
        serde_json::to_string(&meta).unwrap_or_else(|_| "{}".into())
    ])?;
    end(conn, row, FrameStatus::Failed, summary)
}

fn end(conn: &Connection, row: &FrameRow, status: FrameStatus, summary: Option<&str>) -> Result<()> {
    let open = open_children(conn, row.node_id)?;
    if !open.is_empty() {
        return Err(Error::FrameState(format!(
            "{} has frames in progress ({}): pop them first",
            row.id(),
            open.join(", ")
        )));
    }
    conn.prepare_cached(
        "UPDATE nodes SET status = ?2, summary = coalesce(?3, summary), ended_at = ?4 WHERE id = ?1",
    )?
    .execute(params![row.node_id, status.as_str(), summary.map(str::trim), time::now_iso()])?;
    touch(conn, row)
}

fn open_children(conn: &Connection, node_id: i64) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT seq FROM nodes WHERE parent_id = ?1 AND kind = 'frame' AND status = 'in_progress' ORDER BY seq",
    )?;
    let rows = stmt.query_map([node_id], |row| row.get::<_, i64>(0))?;
    Ok(rows.map(|r| r.map(frame_id)).collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Replace the frame's goal.
pub(crate) fn set_goal(conn: &Connection, row: &FrameRow, goal: &str) -> Result<()> {
    let goal = goal.trim();
    if goal.is_empty() {
        return Err(Error::InvalidInput("a frame needs a goal".into()));
    }
    conn.prepare_cached("UPDATE nodes SET description = ?2 WHERE id = ?1")?
        .execute(params![row.node_id, goal])?;
    touch(conn, row)
}

/// Add repository-relative `paths` (already normalized) to the frame's
/// artifacts; ones it has are left as they are. Returns how many were new.
pub(crate) fn add_artifacts(conn: &Connection, row: &FrameRow, paths: &[String]) -> Result<usize> {
    if paths.is_empty() {
        return Err(Error::InvalidInput("name at least one artifact path".into()));
    }
    let now = time::now_iso();
    let mut insert = conn.prepare_cached(
        "INSERT OR IGNORE INTO frame_artifacts (node_id, path, added_at) VALUES (?1, ?2, ?3)",
    )?;
    let mut added = 0;
    for path in paths {
        added += insert.execute(params![row.node_id, path, now])?;
    }
    if added > 0 {
        touch(conn, row)?;
    }
    Ok(added)
}

/// Log a decision on the frame.
pub(crate) fn add_decision(conn: &Connection, row: &FrameRow, new: &NewDecision) -> Result<Decision> {
    let mut decision = records::insert_decision(conn, row.node_id, &row.id(), new)?;
    decision.frame = Some(row.id());
    touch(conn, row)?;
    Ok(decision)
}

/// Tasks and epics (frames of any type but `frame`), or the children of one
/// frame, in the order they were made.
pub(crate) fn list(conn: &Connection, filter: &TaskFilter) -> Result<Vec<Frame>> {
    let parent = filter.epic.as_deref().map(|id| by_id(conn, id)).transpose()?.map(|row| row.node_id);
    // One statement each, so that an epic's tasks are found by the parent index.
    let which = match parent {
        Some(_) => "n.parent_id = ?1",
        None => "n.frame_type <> 'frame' AND ?1 IS NULL",
    };
    let selected = format!("{which} AND n.kind = 'frame' AND (?2 IS NULL OR n.status = ?2)");
    let params = params![parent, filter.status.map(FrameStatus::as_str)];
    let sql = format!(
        "SELECT {FRAME_COLUMNS} FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id WHERE {selected} ORDER BY n.seq"
    );
    let rows = conn
        .prepare_cached(&sql)?
        .query_map(params, FrameRow::read)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    // Their artifacts and children counts: one query each, not two a frame.
    let mut artifacts = artifacts_by_node(
        conn,
        &format!(
            "SELECT a.node_id, a.path FROM frame_artifacts a
             WHERE a.node_id IN (SELECT n.id FROM nodes n WHERE {selected}) ORDER BY a.added_at, a.path"
        ),
        params,
    )?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT c.parent_id, count(*) FROM nodes c
         WHERE c.kind = 'frame' AND c.parent_id IN (SELECT n.id FROM nodes n WHERE {selected}) GROUP BY c.parent_id"
    ))?;
    let children: rustc_hash::FxHashMap<i64, i64> =
        stmt.query_map(params, |row| Ok((row.get(0)?, row.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
    Ok(rows
        .iter()
        .map(|row| {
            let count = children.get(&row.node_id).copied().unwrap_or(0) as usize;
            frame_with(row, artifacts.remove(&row.node_id).unwrap_or_default(), count)
        })
        .collect())
}

/// The frames under `root` (every top-level frame when `None`), `depth`
/// levels deep at most (`None`: all).
pub(crate) fn tree(conn: &Connection, root: Option<&str>, depth: Option<usize>) -> Result<Vec<FrameTree>> {
    let root = root.map(|id| by_id(conn, id)).transpose()?;
    let mut stmt = conn.prepare_cached(
        "SELECT id, parent_id, seq, frame_type, title, status FROM nodes WHERE kind = 'frame' ORDER BY seq",
    )?;
    let mut children: rustc_hash::FxHashMap<Option<i64>, Vec<(i64, FrameLine)>> = Default::default();
    let rows = stmt.query_map([], |row| {
        let status: String = row.get(5)?;
        let line = FrameLine {
            id: frame_id(row.get(2)?),
            frame_type: row.get::<_, Option<String>>(3)?.unwrap_or_else(|| "frame".into()),
            title: row.get(4)?,
            status: FrameStatus::from_db(&status),
        };
        Ok((row.get::<_, Option<i64>>(1)?, row.get::<_, i64>(0)?, line))
    })?;
    for row in rows {
        let (parent, id, line) = row?;
        children.entry(parent).or_default().push((id, line));
    }
    let current = current(conn)?;
    fn build(
        node: (i64, FrameLine),
        level: usize,
        depth: Option<usize>,
        children: &rustc_hash::FxHashMap<Option<i64>, Vec<(i64, FrameLine)>>,
        current: Option<i64>,
    ) -> FrameTree {
        let (id, frame) = node;
        let below = children.get(&Some(id)).map_or(&[][..], Vec::as_slice);
        let (shown, not_shown) =
            if depth.is_some_and(|d| level >= d) { (&[][..], below.len()) } else { (below, 0) };
        FrameTree {
            frame,
            is_current: current == Some(id),
            children: shown.iter().map(|c| build(c.clone(), level + 1, depth, children, current)).collect(),
            children_not_shown: not_shown,
        }
    }
    let tops: Vec<(i64, FrameLine)> = match root {
        Some(row) => vec![(row.node_id, row.line())],
        None => children.get(&None).cloned().unwrap_or_default(),
    };
    Ok(tops.into_iter().map(|top| build(top, 0, depth, &children, current)).collect())
}

/// Record a change to the frame: its revision moves, and its parent's
/// children revision (the root frames' counter for a top-level frame).
pub(crate) fn touch(conn: &Connection, row: &FrameRow) -> Result<()> {
    conn.prepare_cached("UPDATE nodes SET rev = rev + 1, updated_at = ?2 WHERE id = ?1")?
        .execute(params![row.node_id, time::now_iso()])?;
    bump_children(conn, row.parent_id)
}

/// The key in `kv` of the top-level frames' children revision.
const ROOT_CHILDREN_REV: &str = "frames.root_children_rev";

pub(crate) fn bump_children(conn: &Connection, parent: Option<i64>) -> Result<()> {
    match parent {
        Some(parent) => {
            conn.prepare_cached("UPDATE nodes SET children_rev = children_rev + 1 WHERE id = ?1")?
                .execute([parent])?;
        }
        None => {
            let rev = root_children_rev(conn)? + 1;
            kv_set(conn, ROOT_CHILDREN_REV, &rev.to_string())?;
        }
    }
    Ok(())
}

/// The children revision of the (virtual) parent of top-level frames.
pub(crate) fn root_children_rev(conn: &Connection) -> Result<i64> {
    Ok(kv_get(conn, ROOT_CHILDREN_REV)?.and_then(|v| v.parse().ok()).unwrap_or(0))
}

fn required_line(text: &str, what: &str) -> Result<String> {
    let line = one_line(text)?;
    if line.is_empty() {
        return Err(Error::InvalidInput(format!("{what} cannot be empty")));
    }
    Ok(line)
}

/// A title from a goal: its first line, cut at a word to [`MAX_DERIVED_TITLE`] characters.
fn derive_title(goal: &str) -> String {
    let first = goal.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or_default();
    if first.chars().count() <= MAX_DERIVED_TITLE {
        return first.to_string();
    }
    let cut: String = first.chars().take(MAX_DERIVED_TITLE).collect();
    let cut = match cut.rfind(' ') {
        Some(space) if space > MAX_DERIVED_TITLE / 2 => &cut[..space],
        _ => &cut[..],
    };
    format!("{}…", cut.trim_end())
}

/// A frame type: lower case letters, digits, `-` and `_`.
fn frame_type(given: Option<&str>, default: &str) -> Result<String> {
    frame_type_of(given.unwrap_or(default))
}

/// A frame type, checked: lower case letters, digits, `-` and `_`.
pub(crate) fn frame_type_of(given: &str) -> Result<String> {
    let text = given.trim().to_lowercase();
    let valid = !text.is_empty()
        && text.len() <= 40
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !valid {
        return Err(Error::InvalidInput(format!(
            "{text:?}: a type is 1-40 letters, digits, '-' or '_' (task, epic, bug, feature, ...)"
        )));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_parse_in_three_spellings() {
        assert_eq!(parse_id("F12").unwrap(), 12);
        assert_eq!(parse_id("f12").unwrap(), 12);
        assert_eq!(parse_id(" 12 ").unwrap(), 12);
        for bad in ["", "F", "F-1", "F0", "G12", "F1x", "+3"] {
            assert_eq!(parse_id(bad).unwrap_err().code(), "INVALID_INPUT", "{bad:?}");
        }
    }

    #[test]
    fn titles_are_derived_from_the_first_line() {
        assert_eq!(derive_title("\n  Build the API\nwith routes"), "Build the API");
        let long = "word ".repeat(40);
        let title = derive_title(&long);
        assert!(title.ends_with('…') && title.chars().count() <= MAX_DERIVED_TITLE + 1, "{title}");
    }

    #[test]
    fn the_frame_activated_last_is_current_even_within_one_millisecond() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::Store::open(&dir.path().join("ctx.db")).unwrap();
        let conn = &store.conn;
        let task = add_task(conn, &NewTask { title: "Older task".into(), ..Default::default() }).unwrap();
        let frame = push(conn, &NewFrame { goal: "Newer frame".into(), ..Default::default() }).unwrap();
        // As if the push were in the same millisecond as the start below, or the clock went back.
        let late = "2999-01-01T00:00:00.000Z";
        conn.execute("UPDATE nodes SET activated_at = ?2 WHERE id = ?1", params![frame.node_id, late])
            .unwrap();
        start(conn, &task).unwrap();
        assert_eq!(current(conn).unwrap(), Some(task.node_id));
        // A frame pushed now is current after both; popping it brings the task back.
        let pushed = push(conn, &NewFrame { goal: "Newest".into(), ..Default::default() }).unwrap();
        assert_eq!(current(conn).unwrap(), Some(pushed.node_id));
        assert_eq!(pushed.parent_id, Some(task.node_id));
        pop(conn, &pushed, FrameStatus::Completed, None).unwrap();
        assert_eq!(current(conn).unwrap(), Some(task.node_id));
    }

    #[test]
    fn statuses_parse() {
        assert_eq!(FrameStatus::parse("in-progress"), Some(FrameStatus::InProgress));
        assert_eq!(FrameStatus::parse("Completed"), Some(FrameStatus::Completed));
        assert_eq!(FrameStatus::parse("done"), None);
    }
}
