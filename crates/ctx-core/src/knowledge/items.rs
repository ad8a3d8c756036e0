//! The authored items and their files: what the store holds of each kind,
//! the file it is written to, and how a file's item goes back into the store.

use rusqlite::{Connection, OptionalExtension, params};

use super::format::{
    self, ArtifactFront, AttemptFront, DecisionFront, FileError, FolderFront, FrameFront, PinFront,
    RelatedFront,
};
use crate::build::names;
use crate::error::{Error, Result};
use crate::folders::{self, mark_stale_with_ancestors, one_line};
use crate::frames::{self, FrameStatus};
use crate::records::{self, new_id, new_uid};
use crate::time;

/// One authored item: its front matter and its body (content, rationale, goal, text).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Item {
    Folder(FolderFront, String),
    Decision(DecisionFront, String),
    Frame(FrameFront, String),
    Pin(PinFront, String),
    Artifact(ArtifactFront, String),
}

/// The folders of `.ctx/knowledge/`, one a kind.
pub(crate) const KINDS: [&str; 5] = ["folders", "decisions", "frames", "pins", "artifacts"];

/// What became of an item put into the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Applied {
    Done,
    /// A folder the scan does not have: nothing to attach it to, yet.
    Waiting,
}

impl Item {
    /// What the item is, whichever file holds it: `folder:src/auth`,
    /// `decision:D-…`, `frame:<uid>`, `pin:H-…`. An item a hand-written file
    /// gave no id is known by its file (`path`) until ctx gives it one.
    pub fn key(&self, path: &str) -> String {
        let id = |kind: &str, id: &str| {
            if id.is_empty() { format!("{kind}:?{path}") } else { format!("{kind}:{id}") }
        };
        match self {
            Item::Folder(front, _) => format!("folder:{}", front.path),
            Item::Decision(front, _) => id("decision", &front.id),
            Item::Frame(front, _) => id("frame", &front.uid),
            Item::Pin(front, _) => id("pin", &front.id),
            Item::Artifact(front, _) => format!("artifact:{}", front.slug),
        }
    }

    /// The file ctx writes the item to, relative to `.ctx/knowledge/`.
    pub fn file_name(&self) -> String {
        match self {
            Item::Folder(front, _) => format!("folders/{}", names::name_with_suffix(&front.path, ".md")),
            Item::Decision(front, _) => format!("decisions/{}.md", front.id),
            Item::Frame(front, _) => format!("frames/F{}-{}.md", front.number.unwrap_or(0), front.uid),
            Item::Pin(front, _) => format!("pins/{}.md", front.id),
            Item::Artifact(front, _) => format!("artifacts/{}.md", front.slug),
        }
    }

    pub fn render(&self) -> Result<String> {
        match self {
            Item::Folder(front, body) => format::render(front, body),
            Item::Decision(front, body) => format::render(front, body),
            Item::Frame(front, body) => format::render(front, body),
            Item::Pin(front, body) => format::render(front, body),
            Item::Artifact(front, body) => format::render(front, body),
        }
    }

    /// The item of the file at `path` (relative to `.ctx/knowledge/`; its
    /// folder says the kind) holding `text`, checked as far as it can be
    /// without the store.
    pub fn parse(path: &str, text: &str) -> Result<Item, FileError> {
        let invalid = |message: String| FileError { line: None, message };
        let item = match path.split_once('/').map(|(kind, _)| kind) {
            Some("folders") => {
                let (front, body): (FolderFront, String) = format::parse(text)?;
                if !is_folder_key(&front.path) || front.related.iter().any(|r| !is_folder_key(&r.path)) {
                    return Err(invalid(
                        "a folder path is relative to the repository root, `.` for the root, with `/` between names"
                            .into(),
                    ));
                }
                Item::Folder(front, body)
            }
            Some("decisions") => {
                let (front, body): (DecisionFront, String) = format::parse(text)?;
                Item::Decision(front, body)
            }
            Some("frames") => {
                let (front, body): (FrameFront, String) = format::parse(text)?;
                if FrameStatus::parse(&front.status).is_none() {
                    return Err(invalid(format!(
                        "status {:?}: one of planned, in_progress, completed, failed, blocked",
                        front.status
                    )));
                }
                Item::Frame(front, body)
            }
            Some("pins") => {
                let (front, body): (PinFront, String) = format::parse(text)?;
                Item::Pin(front, body)
            }
            Some("artifacts") => {
                let (front, body): (ArtifactFront, String) = format::parse(text)?;
                if !is_file_safe_id(&front.slug) {
                    return Err(invalid(format!(
                        "{:?}: an artifact slug is 1-64 letters, digits, '-', '_' or '.'",
                        front.slug
                    )));
                }
                if front.path == "." || !is_folder_key(&front.path) {
                    return Err(invalid(
                        "an artifact's path is relative to the repository root, with `/` between names"
                            .into(),
                    ));
                }
                if !matches!(front.status.as_str(), "draft" | "finalized") {
                    return Err(invalid(format!("status {:?}: one of draft, finalized", front.status)));
                }
                Item::Artifact(front, body)
            }
            _ => return Err(invalid(format!("not in one of {}", KINDS.join(", ")))),
        };
        for id in item.ids() {
            if !is_file_safe_id(id) {
                return Err(invalid(format!("{id:?}: an id is 1-64 letters, digits, '-', '_' or '.'")));
            }
        }
        Ok(item)
    }

    /// The ids the item gives (ones left out are not checked).
    fn ids(&self) -> Vec<&str> {
        let ids = match self {
            Item::Folder(..) => vec![],
            Item::Decision(front, _) => vec![front.id.as_str()],
            Item::Frame(front, _) => {
                let mut ids = vec![front.uid.as_str()];
                ids.extend(front.attempts.iter().map(|a| a.id.as_str()));
                ids
            }
            Item::Pin(front, _) => vec![front.id.as_str()],
            Item::Artifact(..) => vec![],
        };
        ids.into_iter().filter(|id| !id.is_empty()).collect()
    }
}

/// `.`, or names joined by `/` with none empty, `.` or `..`.
fn is_folder_key(key: &str) -> bool {
    key == "." || key.split('/').all(|name| !matches!(name, "" | "." | ".."))
}

/// Ids name files: nothing that could leave the folder or hide the file.
fn is_file_safe_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && !id.starts_with('.')
        && id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The item `key` (see [`Item::key`]) as the store holds it now; `None`
/// when it has none (a folder with nothing authored, a deleted decision).
pub(crate) fn read(conn: &Connection, key: &str) -> Result<Option<Item>> {
    let Some((kind, id)) = key.split_once(':') else { return Ok(None) };
    match kind {
        "folder" => read_folder(conn, id),
        "decision" => read_decision(conn, id),
        "frame" => read_frame(conn, id),
        "pin" => read_pin(conn, id),
        "artifact" => {
            Ok(crate::artifact::state::read_front(conn, id)?
                .map(|front| Item::Artifact(front, String::new())))
        }
        _ => Ok(None),
    }
}

fn read_folder(conn: &Connection, path: &str) -> Result<Option<Item>> {
    let row: Option<(i64, String, String, bool)> = conn
        .prepare_cached(
            "SELECT id, description, content_md, is_scope FROM nodes WHERE kind = 'folder' AND path = ?1",
        )?
        .query_row([path], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))
        .optional()?;
    let Some((id, description, content, scope)) = row else { return Ok(None) };
    let related = conn
        .prepare_cached(
            "SELECT t.path, l.note FROM links l JOIN nodes t ON t.id = l.to_id
             WHERE l.from_id = ?1 AND l.kind = 'related' AND t.kind = 'folder' ORDER BY t.path",
        )?
        .query_map([id], |row| Ok(RelatedFront { path: row.get(0)?, note: row.get(1)? }))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    if description.is_empty() && content.is_empty() && !scope && related.is_empty() {
        return Ok(None);
    }
    Ok(Some(Item::Folder(FolderFront { path: path.to_string(), description, scope, related }, content)))
}

fn read_decision(conn: &Connection, id: &str) -> Result<Option<Item>> {
    let mut stmt = conn.prepare_cached(
        "SELECT r.title, r.body, r.tags, r.ts,
                CASE WHEN n.kind = 'folder' THEN n.path ELSE json_extract(r.meta, '$.folder') END,
                CASE WHEN n.kind = 'frame' THEN n.uid ELSE json_extract(r.meta, '$.frame') END
         FROM records r LEFT JOIN nodes n ON n.id = r.node_id WHERE r.uid = ?1 AND r.type = 'decision'",
    )?;
    let item = stmt
        .query_row([id], |row| {
            let tags: String = row.get(2)?;
            let front = DecisionFront {
                id: id.to_string(),
                title: row.get(0)?,
                folder: row.get(4)?,
                frame: row.get(5)?,
                tags: tags.split_whitespace().map(str::to_string).collect(),
                date: row.get(3)?,
            };
            Ok(Item::Decision(front, row.get(1)?))
        })
        .optional()?;
    Ok(item)
}

fn read_frame(conn: &Connection, uid: &str) -> Result<Option<Item>> {
    let mut stmt = conn.prepare_cached(
        "SELECT n.id, n.seq, p.uid, n.frame_type, n.title, n.description, n.status, n.summary,
                n.criteria, n.created_at, n.activated_at, n.ended_at, n.activation
         FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id WHERE n.kind = 'frame' AND n.uid = ?1",
    )?;
    let row = stmt
        .query_row([uid], |row| {
            let criteria: String = row.get(8)?;
            let status: String = row.get(6)?;
            let in_progress = status == FrameStatus::InProgress.as_str();
            let front = FrameFront {
                uid: uid.to_string(),
                number: Some(row.get(1)?),
                frame_type: row.get::<_, Option<String>>(3)?.unwrap_or_else(|| "frame".into()),
                title: row.get(4)?,
                status,
                parent: row.get(2)?,
                criteria: serde_json::from_str(&criteria).unwrap_or_default(),
                artifacts: Vec::new(),
                summary: row.get(7)?,
                created: row.get(9)?,
                started: row.get(10)?,
                ended: row.get(11)?,
                activation: if in_progress { row.get(12)? } else { None },
                attempts: Vec::new(),
            };
            Ok((row.get::<_, i64>(0)?, front, row.get::<_, String>(5)?))
        })
        .optional()?;
    let Some((node_id, mut front, goal)) = row else { return Ok(None) };
    front.artifacts = frames::artifacts(conn, node_id)?;
    front.artifacts.sort();
    front.attempts = frames::attempts(conn, node_id)?
        .into_iter()
        .map(|a| AttemptFront {
            id: a.id,
            date: a.ts,
            reason: a.reason,
            observations: a.observations,
            avoid: a.avoid,
        })
        .collect();
    // A goal that only repeats the title is no body (and reads back as the title).
    let goal = if goal == front.title { String::new() } else { goal };
    Ok(Some(Item::Frame(front, goal)))
}

fn read_pin(conn: &Connection, id: &str) -> Result<Option<Item>> {
    let item = conn
        .prepare_cached("SELECT ts, body FROM records WHERE uid = ?1 AND type = 'pin'")?
        .query_row([id], |row| Ok(Item::Pin(PinFront { id: id.to_string(), date: row.get(0)? }, row.get(1)?)))
        .optional()?;
    Ok(item)
}

/// Put `item` into the store, replacing what it had of it; what became of
/// it, and its key (an item a file gave no id has one now). Frames are
/// put without their parent: [`link_parent`] does that once every frame is in.
pub(crate) fn apply(conn: &Connection, item: &Item, warnings: &mut Vec<String>) -> Result<(Applied, String)> {
    match item {
        Item::Folder(front, content) => {
            Ok((apply_folder(conn, front, content, warnings)?, format!("folder:{}", front.path)))
        }
        Item::Decision(front, rationale) => {
            Ok((Applied::Done, format!("decision:{}", apply_decision(conn, front, rationale, warnings)?)))
        }
        Item::Frame(front, goal) => Ok((Applied::Done, format!("frame:{}", apply_frame(conn, front, goal)?))),
        Item::Pin(front, text) => Ok((Applied::Done, format!("pin:{}", apply_pin(conn, front, text)?))),
        Item::Artifact(front, _) => {
            crate::artifact::state::apply_front(conn, front)?;
            Ok((Applied::Done, format!("artifact:{}", front.slug)))
        }
    }
}

fn apply_folder(
    conn: &Connection,
    front: &FolderFront,
    content: &str,
    warnings: &mut Vec<String>,
) -> Result<Applied> {
    let Some(id) = existing_folder(conn, &front.path)? else {
        return Ok(Applied::Waiting);
    };
    let description = one_line(&front.description)?;
    let (old_description, old_content): (String, String) =
        conn.query_row("SELECT description, content_md FROM nodes WHERE id = ?1", [id], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })?;
    let now = time::now_iso();
    let described = (old_description != description || old_content != content).then_some(&now);
    conn.execute(
        "UPDATE nodes SET description = ?2, content_md = ?3, is_scope = ?4,
                          described_at = coalesce(?5, described_at), updated_at = ?6 WHERE id = ?1",
        params![id, description, content, front.scope, described, now],
    )?;
    conn.execute("DELETE FROM links WHERE from_id = ?1 AND kind = 'related'", [id])?;
    for related in &front.related {
        match existing_folder(conn, &related.path)? {
            Some(to) if to != id => {
                conn.execute(
                    "INSERT OR REPLACE INTO links (from_id, to_id, kind, note, created_at) VALUES (?1, ?2, 'related', ?3, ?4)",
                    params![id, to, one_line(&related.note)?, now],
                )?;
            }
            _ => warnings.push(format!(
                "{}: related folder {} is not in the scan; the relation is dropped",
                front.path, related.path
            )),
        }
    }
    mark_stale_with_ancestors(conn, [front.path.as_str()])?;
    Ok(Applied::Done)
}

/// The id of the folder at `key`, `None` when the scan does not have it.
pub(crate) fn existing_folder(conn: &Connection, key: &str) -> Result<Option<i64>> {
    match folders::folder_id(conn, key) {
        Ok(id) => Ok(Some(id)),
        Err(Error::UnknownFolder { .. }) => Ok(None),
        Err(err) => Err(err),
    }
}

fn apply_decision(
    conn: &Connection,
    front: &DecisionFront,
    rationale: &str,
    warnings: &mut Vec<String>,
) -> Result<String> {
    let title = one_line(&front.title)?;
    if title.is_empty() {
        return Err(Error::InvalidInput("a decision needs a title".into()));
    }
    let tags = records::normalize_tags(&front.tags)?;
    let id = if front.id.is_empty() { new_id("D", &[&title]) } else { front.id.clone() };
    check_type(conn, &id, "decision")?;
    let folder = match &front.folder {
        Some(path) => existing_folder(conn, path)?,
        None => None,
    };
    let frame = match &front.frame {
        Some(uid) => frame_node(conn, uid)?,
        None => None,
    };
    if front.frame.is_some() && frame.is_none() {
        warnings.push(format!("decision {id}: frame {} is not known", front.frame.as_deref().unwrap_or("")));
    }
    let before = remove_record(conn, &id)?;
    let meta = serde_json::json!({ "folder": front.folder, "frame": front.frame });
    let date = if front.date.is_empty() { time::now_iso() } else { front.date.clone() };
    conn.execute(
        "INSERT INTO records (uid, type, node_id, title, body, tags, ts, meta) VALUES (?1, 'decision', ?2, ?3, ?4, ?5, ?6, ?7)",
        params![id, frame.or(folder), title, rationale, tags.join(" "), date, meta.to_string()],
    )?;
    for node in before.into_iter().chain(frame.or(folder)) {
        node_changed(conn, node)?;
    }
    Ok(id)
}

/// Attach the decisions that lost their folder or frame (it left the scan,
/// or its file came later than theirs) to it again, where it now is.
pub(crate) fn relink_decisions(conn: &Connection) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "SELECT r.id, n.id FROM records r JOIN nodes n
           ON (n.kind = 'folder' AND n.path = json_extract(r.meta, '$.folder'))
           OR (n.kind = 'frame' AND n.uid = json_extract(r.meta, '$.frame'))
         WHERE r.type = 'decision' AND r.node_id IS NULL",
    )?;
    let found = stmt.query_map([], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?)))?;
    for pair in found.collect::<rusqlite::Result<Vec<_>>>()? {
        let (record, node) = pair;
        conn.execute("UPDATE records SET node_id = ?2 WHERE id = ?1", [record, node])?;
        node_changed(conn, node)?;
    }
    Ok(())
}

/// The node id of the frame with `uid`.
fn frame_node(conn: &Connection, uid: &str) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT id FROM nodes WHERE kind = 'frame' AND uid = ?1")?
        .query_row([uid], |row| row.get(0))
        .optional()?)
}

/// An id a file gives must not be another kind of record's (a session turn's).
fn check_type(conn: &Connection, id: &str, kind: &str) -> Result<()> {
    let found: Option<String> = conn
        .prepare_cached("SELECT type FROM records WHERE uid = ?1")?
        .query_row([id], |row| row.get(0))
        .optional()?;
    match found {
        Some(found) if found != kind => {
            Err(Error::InvalidInput(format!("{id}: already the id of a {found} record, not a {kind}")))
        }
        _ => Ok(()),
    }
}

/// Delete the record `id`; the node it was on, if any.
fn remove_record(conn: &Connection, id: &str) -> Result<Option<i64>> {
    let node: Option<Option<i64>> = conn
        .prepare_cached("SELECT node_id FROM records WHERE uid = ?1")?
        .query_row([id], |row| row.get(0))
        .optional()?;
    conn.execute("DELETE FROM records WHERE uid = ?1", [id])?;
    Ok(node.flatten())
}

/// What a change on node `node_id` makes stale: a folder and its
/// ancestors; a frame's revision (its context cache).
fn node_changed(conn: &Connection, node_id: i64) -> Result<()> {
    let (kind, path): (String, Option<String>) =
        conn.query_row("SELECT kind, path FROM nodes WHERE id = ?1", [node_id], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })?;
    match (kind.as_str(), path) {
        ("folder", Some(path)) => {
            mark_stale_with_ancestors(conn, [path.as_str()])?;
        }
        ("frame", _) => frames::touch(conn, &frames::by_node(conn, node_id)?)?,
        _ => {}
    }
    Ok(())
}

/// Insert or update the frame; its uid.
fn apply_frame(conn: &Connection, front: &FrameFront, goal: &str) -> Result<String> {
    let title = one_line(&front.title)?;
    if title.is_empty() {
        return Err(Error::InvalidInput("a frame needs a title".into()));
    }
    let status = FrameStatus::parse(&front.status).unwrap_or_default();
    let uid = if front.uid.is_empty() { new_uid(&[&title]) } else { front.uid.clone() };
    let existing: Option<(i64, i64)> = conn
        .prepare_cached("SELECT id, seq FROM nodes WHERE kind = 'frame' AND uid = ?1")?
        .query_row([&uid], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    let free = |seq: i64| -> Result<bool> {
        let holder: Option<String> = conn
            .prepare_cached("SELECT uid FROM nodes WHERE seq = ?1")?
            .query_row([seq], |row| row.get(0))
            .optional()?;
        Ok(holder.is_none_or(|holder| holder == uid))
    };
    let seq = match (front.number.filter(|n| *n > 0), existing) {
        (Some(number), _) if free(number)? => number,
        (_, Some((_, seq))) => seq,
        _ => {
            conn.query_row("SELECT coalesce(max(seq), 0) + 1 FROM nodes WHERE seq IS NOT NULL", [], |r| {
                r.get(0)
            })?
        }
    };
    let criteria = front.criteria.iter().map(|c| one_line(c)).collect::<Result<Vec<_>>>()?;
    let criteria = serde_json::to_string(&criteria).unwrap_or_else(|_| "[]".into());
    let now = time::now_iso();
    let created = if front.created.is_empty() { now.clone() } else { front.created.clone() };
    let activation = front.activation.filter(|_| status == FrameStatus::InProgress);
    let goal = if goal.is_empty() { title.as_str() } else { goal };
    let values = params![
        uid,
        seq,
        frames::frame_type_of(&front.frame_type)?,
        title,
        goal,
        status.as_str(),
        front.summary.trim(),
        criteria,
        created,
        front.started,
        front.ended,
        activation,
        now
    ];
    let node_id = match existing {
        Some((node_id, _)) => {
            conn.prepare_cached(
                "UPDATE nodes SET seq = ?2, frame_type = ?3, title = ?4, description = ?5, status = ?6, summary = ?7,
                        criteria = ?8, created_at = ?9, activated_at = ?10, ended_at = ?11, activation = ?12,
                        updated_at = ?13
                 WHERE uid = ?1",
            )?
            .execute(values)?;
            node_id
        }
        None => {
            conn.prepare_cached(
                "INSERT INTO nodes (kind, uid, seq, frame_type, title, description, status, summary, criteria,
                                    created_at, activated_at, ended_at, activation, updated_at, stale)
                 VALUES ('frame', ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 0)",
            )?
            .execute(values)?;
            conn.last_insert_rowid()
        }
    };
    conn.execute("DELETE FROM frame_artifacts WHERE node_id = ?1", [node_id])?;
    for path in &front.artifacts {
        conn.execute(
            "INSERT OR IGNORE INTO frame_artifacts (node_id, path, added_at) VALUES (?1, ?2, ?3)",
            params![node_id, path, created],
        )?;
    }
    conn.execute("DELETE FROM records WHERE type = 'attempt' AND node_id = ?1", [node_id])?;
    for attempt in &front.attempts {
        check_type(conn, &attempt.id, "attempt")?;
        remove_record(conn, &attempt.id)?;
        let meta =
            frames::AttemptMeta { observations: attempt.observations.clone(), avoid: attempt.avoid.clone() };
        conn.execute(
            "INSERT INTO records (uid, type, node_id, title, body, ts, meta) VALUES (?1, 'attempt', ?2, ?3, ?4, ?5, ?6)",
            params![
                attempt.id,
                node_id,
                attempt.reason.trim(),
                meta.observations.join("\n"),
                attempt.date,
                serde_json::to_string(&meta).unwrap_or_else(|_| "{}".into())
            ],
        )?;
    }
    frames::touch(conn, &frames::by_node(conn, node_id)?)?;
    Ok(uid)
}

/// Set the parent of the frame `uid` (none when `parent` is `None` or no frame).
pub(crate) fn link_parent(
    conn: &Connection,
    uid: &str,
    parent: Option<&str>,
    warnings: &mut Vec<String>,
) -> Result<()> {
    let Some(node_id) = frame_node(conn, uid)? else { return Ok(()) };
    let parent_id = match parent {
        Some(parent) => {
            let found = frame_node(conn, parent)?;
            if found.is_none() || found == Some(node_id) || is_below(conn, found, node_id)? {
                warnings.push(format!(
                    "frame {uid}: parent {parent} is not a frame above it; it is a top-level frame"
                ));
                None
            } else {
                found
            }
        }
        None => None,
    };
    let old: Option<i64> =
        conn.query_row("SELECT parent_id FROM nodes WHERE id = ?1", [node_id], |r| r.get(0))?;
    if old != parent_id {
        conn.execute("UPDATE nodes SET parent_id = ?2 WHERE id = ?1", params![node_id, parent_id])?;
        frames::bump_children(conn, old)?;
        frames::bump_children(conn, parent_id)?;
    }
    Ok(())
}

/// Whether `node` is `ancestor` or below it (a parent there would make a cycle).
fn is_below(conn: &Connection, node: Option<i64>, ancestor: i64) -> Result<bool> {
    let mut current = node;
    let mut steps = 0;
    while let Some(id) = current {
        if id == ancestor {
            return Ok(true);
        }
        steps += 1;
        if steps > 100_000 {
            return Ok(true);
        }
        current = conn.query_row("SELECT parent_id FROM nodes WHERE id = ?1", [id], |r| r.get(0))?;
    }
    Ok(false)
}

fn apply_pin(conn: &Connection, front: &PinFront, text: &str) -> Result<String> {
    let id = if front.id.is_empty() { new_id("H", &[text]) } else { front.id.clone() };
    check_type(conn, &id, "pin")?;
    let date = if front.date.is_empty() { time::now_iso() } else { front.date.clone() };
    remove_record(conn, &id)?;
    conn.execute(
        "INSERT INTO records (uid, type, role, body, ts) VALUES (?1, 'pin', 'user', ?2, ?3)",
        params![id, text, date],
    )?;
    Ok(id)
}

/// Take the item `key` (see [`Item::key`]) out of the store: its file was deleted.
pub(crate) fn remove(conn: &Connection, key: &str) -> Result<()> {
    let Some((kind, id)) = key.split_once(':') else { return Ok(()) };
    match kind {
        "folder" => {
            if let Some(node) = existing_folder(conn, id)? {
                conn.execute(
                    "UPDATE nodes SET description = '', content_md = '', is_scope = 0, described_at = NULL,
                                      updated_at = ?2 WHERE id = ?1",
                    params![node, time::now_iso()],
                )?;
                conn.execute("DELETE FROM links WHERE from_id = ?1 AND kind = 'related'", [node])?;
                mark_stale_with_ancestors(conn, [id])?;
            }
        }
        "decision" | "pin" => {
            if let Some(node) = remove_record(conn, id)? {
                node_changed(conn, node)?;
            }
        }
        "artifact" => crate::artifact::state::remove(conn, id)?,
        "frame" => {
            if let Some(node) = frame_node(conn, id)? {
                // Its subframes stay, at the top; its decisions stay, on no frame.
                let parent: Option<i64> =
                    conn.query_row("SELECT parent_id FROM nodes WHERE id = ?1", [node], |r| r.get(0))?;
                conn.execute(
                    "UPDATE nodes SET parent_id = NULL WHERE parent_id = ?1 AND kind = 'frame'",
                    [node],
                )?;
                conn.execute("DELETE FROM records WHERE type = 'attempt' AND node_id = ?1", [node])?;
                conn.execute("DELETE FROM nodes WHERE id = ?1", [node])?;
                frames::bump_children(conn, parent)?;
                frames::bump_children(conn, None)?;
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_follow_the_kind() {
        let folder = Item::Folder(
            FolderFront {
                path: "src/auth".into(),
                description: String::new(),
                scope: false,
                related: vec![],
            },
            String::new(),
        );
        assert_eq!(folder.file_name(), "folders/src--auth.md");
        assert_eq!(folder.key("whatever"), "folder:src/auth");
        let pin = Item::Pin(PinFront { id: String::new(), date: String::new() }, "x".into());
        assert_eq!(pin.key("pins/mine.md"), "pin:?pins/mine.md");
    }

    #[test]
    fn parse_checks_paths_ids_and_status() {
        let err = |path: &str, text: &str| Item::parse(path, text).unwrap_err().message;
        assert!(err("folders/x.md", "+++\npath = \"../up\"\n+++\n").contains("relative"));
        assert!(err("decisions/x.md", "+++\nid = \"../../etc\"\ntitle = \"t\"\n+++\n").contains("an id is"));
        assert!(err("frames/x.md", "+++\ntitle = \"t\"\nstatus = \"done\"\n+++\n").contains("status"));
        assert!(err("other/x.md", "+++\n+++\n").contains("not in one of"));
        let Item::Frame(front, goal) =
            Item::parse("frames/new.md", "+++\ntitle = \"Write docs\"\n+++\n").unwrap()
        else {
            panic!("a frame")
        };
        assert_eq!(
            (front.frame_type.as_str(), front.status.as_str(), goal.as_str()),
            ("task", "planned", "")
        );
    }
}
