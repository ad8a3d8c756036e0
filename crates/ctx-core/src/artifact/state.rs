//! What the store holds of an artifact: its node, its authored state
//! (stage, finalized, section flags: the committed knowledge, see
//! knowledge/) and the file hash it was last read at.

use std::collections::BTreeMap;

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::{Error, Result};
use crate::knowledge::format::{ArtifactFront, SectionFlagsFront};
use crate::time;

/// A row of `artifacts`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ArtifactRow {
    pub node_id: i64,
    pub slug: String,
    pub path: String,
    /// Empty: the configured default stage.
    pub stage: String,
    pub finalized: bool,
    pub file_hash: String,
    pub created_at: String,
    pub updated_at: String,
}

/// A section's flags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Flags {
    pub done: bool,
    pub collapsed: bool,
}

const SELECT: &str =
    "SELECT a.node_id, a.slug, a.path, a.stage, a.finalized, a.file_hash, n.created_at, n.updated_at
                      FROM artifacts a JOIN nodes n ON n.id = a.node_id";

fn read_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<ArtifactRow> {
    Ok(ArtifactRow {
        node_id: row.get(0)?,
        slug: row.get(1)?,
        path: row.get(2)?,
        stage: row.get(3)?,
        finalized: row.get(4)?,
        file_hash: row.get(5)?,
        created_at: row.get(6)?,
        updated_at: row.get(7)?,
    })
}

pub(crate) fn by_slug(conn: &Connection, slug: &str) -> Result<Option<ArtifactRow>> {
    Ok(conn.prepare_cached(&format!("{SELECT} WHERE a.slug = ?1"))?.query_row([slug], read_row).optional()?)
}

pub(crate) fn by_path(conn: &Connection, path: &str) -> Result<Option<ArtifactRow>> {
    Ok(conn.prepare_cached(&format!("{SELECT} WHERE a.path = ?1"))?.query_row([path], read_row).optional()?)
}

/// Every artifact, by slug.
pub(crate) fn all(conn: &Connection) -> Result<Vec<ArtifactRow>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} ORDER BY a.slug"))?;
    Ok(stmt.query_map([], read_row)?.collect::<rusqlite::Result<_>>()?)
}

/// A new artifact (its node and its row).
pub(crate) fn insert(conn: &Connection, slug: &str, path: &str, stage: &str) -> Result<ArtifactRow> {
    let now = time::now_iso();
    conn.execute(
        "INSERT INTO nodes (kind, title, description, stale, created_at, updated_at) VALUES ('artifact', ?1, ?2, 0, ?3, ?3)",
        params![slug, path, now],
    )?;
    let node_id = conn.last_insert_rowid();
    conn.execute(
        "INSERT INTO artifacts (node_id, slug, path, stage) VALUES (?1, ?2, ?3, ?4)",
        params![node_id, slug, path, stage],
    )?;
    by_slug(conn, slug)?.ok_or_else(|| Error::InvalidInput(format!("{slug}: not inserted")))
}

/// The flags of every section of the artifact that has one, by slug.
pub(crate) fn flags(conn: &Connection, node_id: i64) -> Result<BTreeMap<String, Flags>> {
    let mut stmt =
        conn.prepare_cached("SELECT section, done, collapsed FROM artifact_flags WHERE artifact_id = ?1")?;
    let rows = stmt.query_map([node_id], |row| {
        Ok((row.get::<_, String>(0)?, Flags { done: row.get(1)?, collapsed: row.get(2)? }))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Set a section's flags (a section with none set has no row).
pub(crate) fn set_flags(conn: &Connection, node_id: i64, section: &str, flags: Flags) -> Result<()> {
    if flags == Flags::default() {
        conn.execute(
            "DELETE FROM artifact_flags WHERE artifact_id = ?1 AND section = ?2",
            params![node_id, section],
        )?;
    } else {
        conn.execute(
            "INSERT INTO artifact_flags (artifact_id, section, done, collapsed) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (artifact_id, section) DO UPDATE SET done = excluded.done, collapsed = excluded.collapsed
             WHERE done <> excluded.done OR collapsed <> excluded.collapsed",
            params![node_id, section, flags.done, flags.collapsed],
        )?;
    }
    Ok(())
}

/// Replace every flag of the artifact.
pub(crate) fn replace_flags(conn: &Connection, node_id: i64, all: &BTreeMap<String, Flags>) -> Result<()> {
    let before = flags(conn, node_id)?;
    for slug in before.keys().filter(|slug| !all.contains_key(*slug)) {
        set_flags(conn, node_id, slug, Flags::default())?;
    }
    for (slug, flags) in all {
        if before.get(slug) != Some(flags) {
            set_flags(conn, node_id, slug, *flags)?;
        }
    }
    Ok(())
}

pub(crate) fn set_finalized(conn: &Connection, node_id: i64, finalized: bool) -> Result<()> {
    conn.execute(
        "UPDATE artifacts SET finalized = ?2 WHERE node_id = ?1 AND finalized <> ?2",
        params![node_id, finalized],
    )?;
    Ok(())
}

pub(crate) fn set_stage(conn: &Connection, node_id: i64, stage: &str) -> Result<()> {
    conn.execute(
        "UPDATE artifacts SET stage = ?2 WHERE node_id = ?1 AND stage <> ?2",
        params![node_id, stage],
    )?;
    Ok(())
}

pub(crate) fn set_file_hash(conn: &Connection, node_id: i64, hash: &str) -> Result<()> {
    conn.execute("UPDATE artifacts SET file_hash = ?2 WHERE node_id = ?1", params![node_id, hash])?;
    Ok(())
}

/// Record a change to the artifact: its revision moves and the context
/// cached from it is dropped, so the next assembly misses. Returns the
/// time it stored.
pub(crate) fn touch(conn: &Connection, node_id: i64) -> Result<String> {
    let now = time::now_iso();
    conn.prepare_cached("UPDATE nodes SET rev = rev + 1, updated_at = ?2 WHERE id = ?1")?
        .execute(params![node_id, now])?;
    conn.prepare_cached("DELETE FROM context_cache WHERE node_id = ?1")?.execute([node_id])?;
    Ok(now)
}

/// Take the artifact out of the store (its file stays where it is).
pub(crate) fn remove(conn: &Connection, slug: &str) -> Result<()> {
    if let Some(row) = by_slug(conn, slug)? {
        conn.execute("DELETE FROM artifacts WHERE node_id = ?1", [row.node_id])?;
        conn.execute("DELETE FROM nodes WHERE id = ?1", [row.node_id])?;
    }
    Ok(())
}

/// The knowledge file's front matter of artifact `slug`.
pub(crate) fn read_front(conn: &Connection, slug: &str) -> Result<Option<ArtifactFront>> {
    let Some(row) = by_slug(conn, slug)? else { return Ok(None) };
    let sections = flags(conn, row.node_id)?
        .into_iter()
        .map(|(slug, flags)| SectionFlagsFront { slug, done: flags.done, collapsed: flags.collapsed })
        .collect();
    Ok(Some(ArtifactFront {
        slug: row.slug,
        path: row.path,
        stage: row.stage,
        status: if row.finalized { "finalized" } else { "draft" }.into(),
        sections,
    }))
}

/// Put a knowledge file's artifact into the store, replacing what it had of it.
pub(crate) fn apply_front(conn: &Connection, front: &ArtifactFront) -> Result<()> {
    if let Some(other) = by_path(conn, &front.path)?.filter(|other| other.slug != front.slug) {
        return Err(Error::InvalidInput(format!(
            "{}: already the file of artifact {}; one file, one artifact",
            front.path, other.slug
        )));
    }
    let row = match by_slug(conn, &front.slug)? {
        Some(row) => {
            if row.path != front.path {
                conn.execute(
                    "UPDATE artifacts SET path = ?2, file_hash = '' WHERE node_id = ?1",
                    params![row.node_id, front.path],
                )?;
            }
            row
        }
        None => insert(conn, &front.slug, &front.path, &front.stage)?,
    };
    set_stage(conn, row.node_id, &front.stage)?;
    set_finalized(conn, row.node_id, front.status == "finalized")?;
    let flags = front
        .sections
        .iter()
        .map(|s| (s.slug.clone(), Flags { done: s.done, collapsed: s.collapsed }))
        .filter(|(_, flags)| *flags != Flags::default())
        .collect();
    replace_flags(conn, row.node_id, &flags)?;
    touch(conn, row.node_id).map(drop)
}
