//! Folder nodes: what a person or agent says about a folder (description,
//! long-form content, scope flag, related scopes), and staleness.

use std::collections::BTreeSet;

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::paths;
use crate::records::{self, Decision};
use crate::scan::FileKind;
use crate::time;

/// Everything the store knows about one folder. Stable JSON.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Folder {
    /// Repository-relative path, `.` for the root.
    pub path: String,
    /// One line; empty until somebody writes it.
    pub description: String,
    /// Long-form context in markdown; empty until somebody writes it.
    pub content_md: String,
    pub is_scope: bool,
    /// Its context files are not all current (missing, built from inputs
    /// that changed since, or edited): `ctx build` would rewrite them.
    pub stale: bool,
    /// When a person or agent last wrote the description or content; `None`: never.
    pub described_at: Option<String>,
    pub updated_at: String,
    pub parent: Option<String>,
    /// Subfolders, by path, sorted.
    pub children: Vec<String>,
    /// Files directly in this folder, sorted by name.
    pub files: Vec<FileEntry>,
    /// Folders this one is related to, sorted by path.
    pub related: Vec<Relation>,
    /// Decisions logged on this folder, newest first.
    pub decisions: Vec<Decision>,
}

/// A file as a folder lists it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FileEntry {
    pub name: String,
    pub size: u64,
    pub kind: FileKind,
    pub lang: Option<String>,
    /// The file looks like a secret: its content never appears in any output.
    pub secret: bool,
    /// Why it looks like one (`private key`, `environment file`, …); `None` when it does not.
    pub secret_reason: Option<String>,
}

/// A directed "related scope" link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Relation {
    pub path: String,
    pub note: String,
}

/// A change to a folder's written context. `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct FolderEdit {
    pub description: Option<String>,
    pub content_md: Option<String>,
}

/// The id of the folder at `key`, or [`Error::UnknownFolder`].
pub(crate) fn folder_id(conn: &Connection, key: &str) -> Result<i64> {
    conn.prepare_cached("SELECT id FROM nodes WHERE kind = 'folder' AND path = ?1")?
        .query_row([key], |row| row.get(0))
        .optional()?
        .ok_or_else(|| Error::UnknownFolder { path: key.to_string() })
}

/// The folder at `key`; `stale` as the caller judged it (see
/// `build::stale_folders`: the source hash, not the flag edits set).
pub(crate) fn load(conn: &Connection, key: &str, stale: bool) -> Result<Folder> {
    let id = folder_id(conn, key)?;
    let (description, content_md, is_scope, described_at, updated_at) = conn.query_row(
        "SELECT description, content_md, is_scope, described_at, updated_at FROM nodes WHERE id = ?1",
        [id],
        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?)),
    )?;
    let children = conn
        .prepare_cached("SELECT path FROM nodes WHERE kind = 'folder' AND parent_id = ?1 ORDER BY path")?
        .query_map([id], |row| row.get(0))?
        .collect::<rusqlite::Result<Vec<String>>>()?;
    let files = conn
        .prepare_cached(
            "SELECT path, size, kind, lang, secret FROM files WHERE folder_id = ?1 ORDER BY path",
        )?
        .query_map([id], |row| {
            let path: String = row.get(0)?;
            let kind: String = row.get(2)?;
            let secret_reason: Option<String> = row.get(4)?;
            Ok(FileEntry {
                name: paths::name(&path).to_string(),
                size: row.get::<_, i64>(1)? as u64,
                kind: FileKind::parse(&kind),
                lang: row.get(3)?,
                secret: secret_reason.is_some(),
                secret_reason,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let related = conn
        .prepare_cached(
            "SELECT n.path, l.note FROM links l JOIN nodes n ON n.id = l.to_id
             WHERE l.from_id = ?1 AND l.kind = 'related' ORDER BY n.path",
        )?
        .query_map([id], |row| Ok(Relation { path: row.get(0)?, note: row.get(1)? }))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(Folder {
        path: key.to_string(),
        description,
        content_md,
        is_scope,
        stale,
        described_at,
        updated_at,
        parent: paths::parent(key).map(str::to_string),
        children,
        files,
        related,
        decisions: records::decisions(conn, Some(key))?,
    })
}

pub(crate) fn describe(conn: &Connection, key: &str, edit: &FolderEdit) -> Result<()> {
    if edit.description.is_none() && edit.content_md.is_none() {
        return Err(Error::InvalidInput("nothing to change: give a description or content".into()));
    }
    let description = edit.description.as_deref().map(one_line).transpose()?;
    // Trimmed: the knowledge file keeps the text between its front matter and its end.
    let content_md = edit.content_md.as_deref().map(str::trim);
    let id = folder_id(conn, key)?;
    let now = time::now_iso();
    conn.execute(
        "UPDATE nodes SET description = coalesce(?2, description), content_md = coalesce(?3, content_md),
                          described_at = ?4, updated_at = ?4
         WHERE id = ?1",
        params![id, description, content_md, now],
    )?;
    mark_stale_with_ancestors(conn, [key])?;
    Ok(())
}

pub(crate) fn set_scope(conn: &Connection, key: &str, is_scope: bool) -> Result<()> {
    let id = folder_id(conn, key)?;
    conn.execute(
        "UPDATE nodes SET is_scope = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, is_scope, time::now_iso()],
    )?;
    mark_stale_with_ancestors(conn, [key])?;
    Ok(())
}

pub(crate) fn relate(conn: &Connection, key: &str, other: &str, note: Option<&str>) -> Result<()> {
    if key == other {
        return Err(Error::InvalidInput(format!("{key}: a folder cannot be related to itself")));
    }
    let from = folder_id(conn, key)?;
    let to = folder_id(conn, other)?;
    let note = note.map(one_line).transpose()?.unwrap_or_default();
    conn.execute(
        "INSERT INTO links (from_id, to_id, kind, note, created_at) VALUES (?1, ?2, 'related', ?3, ?4)
         ON CONFLICT (from_id, to_id, kind) DO UPDATE SET note = excluded.note",
        params![from, to, note, time::now_iso()],
    )?;
    mark_stale_with_ancestors(conn, [key])?;
    Ok(())
}

pub(crate) fn unrelate(conn: &Connection, key: &str, other: &str) -> Result<()> {
    let from = folder_id(conn, key)?;
    let to = folder_id(conn, other)?;
    let removed =
        conn.execute("DELETE FROM links WHERE from_id = ?1 AND to_id = ?2 AND kind = 'related'", [from, to])?;
    if removed == 0 {
        return Err(Error::InvalidInput(format!("{key} is not related to {other}")));
    }
    mark_stale_with_ancestors(conn, [key])?;
    Ok(())
}

/// Mark the folders `keys` and all their ancestors stale. Keys that are not
/// folders in the store are ignored. Returns the folders marked, sorted.
pub(crate) fn mark_stale_with_ancestors<'k>(
    conn: &Connection,
    keys: impl IntoIterator<Item = &'k str>,
) -> Result<Vec<String>> {
    let mut all: BTreeSet<&str> = BTreeSet::new();
    for key in keys {
        // Once a key is in the set, its ancestors are too.
        if all.insert(key) {
            for ancestor in paths::ancestors(key) {
                if !all.insert(ancestor) {
                    break;
                }
            }
        }
    }
    // `rev` moves too: a build clears the flag only if it has not moved since the build read the tree.
    let mut mark =
        conn.prepare_cached("UPDATE nodes SET stale = 1, rev = rev + 1 WHERE kind = 'folder' AND path = ?1")?;
    let mut marked = Vec::with_capacity(all.len());
    for key in all {
        if mark.execute([key])? > 0 {
            marked.push(key.to_string());
        }
    }
    Ok(marked)
}

/// Trim `text` and insist that it is a single line.
pub(crate) fn one_line(text: &str) -> Result<String> {
    let text = text.trim();
    if text.contains(['\n', '\r']) {
        return Err(Error::InvalidInput(format!("{:?}: must be a single line", truncate(text, 40))));
    }
    Ok(text.to_string())
}

fn truncate(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}
