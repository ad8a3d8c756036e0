//! Committed knowledge: everything people and agents author — folder
//! descriptions, content, scope flags and relations; decisions; frames
//! (epics, tasks, pushed frames) with their criteria, artifacts and
//! attempts; pins — is also kept in text files under `.ctx/knowledge/`,
//! which the repository commits. The database is a cache of them: a fresh
//! clone, or a deleted `ctx.db`, gets everything back from the files at the
//! next scan. docs/knowledge.md is the user's description.
//!
//! One file an item (`folders/src--auth.md`, `decisions/D-….md`,
//! `frames/F3-<uid>.md`, `pins/H-….md`; see [`format`]): two branches that
//! add or change different items change different files, and git merges
//! them without a conflict.
//!
//! Both directions run in the same write transaction as the change they
//! go with (`sync`):
//! - **in**: files that changed on disk since ctx last read or wrote them
//!   (a pull, a merge, a hand edit) are read, all of them checked before any
//!   is applied, and their items put into the store (staleness flows as for
//!   any edit); an item whose file was deleted is taken out of the store;
//! - **out**: every item is rendered; a file is written only when its
//!   item renders differently from when ctx last read or wrote it, so a
//!   hand-formatted file is left alone until its item changes.
//!
//! Files are written before the transaction commits: if the commit fails,
//! the file is ahead of the store, and the next sync reads it back in.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use rusqlite::{Connection, params};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::fsutil::{remove_if_exists, write_atomic};
use crate::secrets::{Detector, Redacted};

pub(crate) mod format;
pub(crate) mod items;

use items::{Applied, Item, KINDS};

/// The folder of `.ctx/` that holds the knowledge files.
pub const KNOWLEDGE_DIR: &str = "knowledge";

/// What a sync of the knowledge files did. Paths are relative to the
/// repository root. Stable JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct KnowledgeReport {
    /// Files read into the store because they changed since ctx last read
    /// or wrote them (a pull, a merge, a hand edit).
    pub loaded: Vec<String>,
    /// Files deleted from disk whose items were taken out of the store.
    pub removed: Vec<String>,
    /// Files written because their item changed in the store.
    pub written: Vec<String>,
    /// Files ctx deleted because their item is no longer in the store.
    pub deleted: Vec<String>,
    /// Files of folders the scan does not have (a deleted or excluded
    /// folder): kept as they are, and applied when the folder is back.
    pub waiting: Vec<String>,
    /// Files that held a secret: the store has it redacted, and the file
    /// was rewritten without it.
    pub redacted: Vec<String>,
    /// What was read but could not be applied in full.
    pub warnings: Vec<String>,
}

/// A row of `knowledge_files`.
#[derive(Debug, Clone)]
struct Recorded {
    item: String,
    size: u64,
    mtime_ns: i64,
    disk_hash: String,
    applied: bool,
}

/// A file's size and modification time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stat {
    size: u64,
    mtime_ns: i64,
}

/// A changed file, read and parsed.
struct Read {
    path: String,
    item: Item,
    stat: Stat,
    disk_hash: String,
    /// The hash of the file as ctx renders the item it holds (before redaction).
    rendered_hash: String,
}

/// Bring the store and `.ctx/knowledge/` (in `ctx_dir`) in line: files
/// changed on disk in, then items changed in the store out. Run it inside
/// the write transaction of the change it goes with.
pub(crate) fn sync(conn: &Connection, ctx_dir: &Path, detector: &Detector) -> Result<KnowledgeReport> {
    let mut report = KnowledgeReport::default();
    sync_in(conn, ctx_dir, detector, &mut report)?;
    sync_out(conn, ctx_dir, &mut report)?;
    Ok(report)
}

/// `.ctx/knowledge/<path>` as the report names it.
fn shown(path: &str) -> String {
    format!("{}/{KNOWLEDGE_DIR}/{path}", crate::CTX_DIR)
}

fn hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// Read the files that changed on disk into the store (see the module docs).
pub(crate) fn sync_in(
    conn: &Connection,
    ctx_dir: &Path,
    detector: &Detector,
    report: &mut KnowledgeReport,
) -> Result<()> {
    let dir = ctx_dir.join(KNOWLEDGE_DIR);
    let on_disk = list(&dir, &mut report.warnings)?;
    let recorded = recorded(conn)?;

    // Read and check every changed file before anything is applied.
    let mut read: Vec<Read> = Vec::new();
    for (path, stat) in &on_disk {
        let known = recorded.get(path);
        if known.is_some_and(|r| (r.size, r.mtime_ns) == (stat.size, stat.mtime_ns)) {
            continue;
        }
        let full = dir.join(path);
        let bytes = std::fs::read(&full).map_err(|err| Error::io(&full, err))?;
        let disk_hash = hash(&bytes);
        if known.is_some_and(|r| r.disk_hash == disk_hash) {
            // Touched, not changed.
            conn.execute(
                "UPDATE knowledge_files SET size = ?2, mtime_ns = ?3 WHERE path = ?1",
                params![path, stat.size as i64, stat.mtime_ns],
            )?;
            continue;
        }
        let invalid =
            |line: Option<usize>, message: String| Error::Knowledge { path: full.clone(), line, message };
        let text = String::from_utf8(bytes).map_err(|_| invalid(None, "not UTF-8 text".into()))?;
        let item = Item::parse(path, &text).map_err(|err| invalid(err.line, err.message))?;
        let rendered_hash = hash(item.render()?.as_bytes());
        read.push(Read { path: path.clone(), item, stat: *stat, disk_hash, rendered_hash });
    }

    // Folders first (decisions attach to them), frames in number order (the
    // first to claim a number keeps it), their parents once they are all
    // in, then decisions (which attach to frames) and pins.
    read.sort_by(|a, b| order(&a.item).cmp(&order(&b.item)).then_with(|| a.path.cmp(&b.path)));

    // Which file holds which item, now: two files for one item is an error.
    let mut holder: HashMap<String, &str> = HashMap::new();
    let changed: HashMap<&str, &Read> = read.iter().map(|r| (r.path.as_str(), r)).collect();
    for path in on_disk.keys() {
        let key = match (changed.get(path.as_str()), recorded.get(path)) {
            (Some(read), _) => read.item.key(path),
            (None, Some(known)) => known.item.clone(),
            (None, None) => continue,
        };
        if let Some(other) = holder.insert(key.clone(), path) {
            return Err(Error::Knowledge {
                path: dir.join(path),
                line: None,
                message: format!("{} holds the same item ({key}); keep one of the two", shown(other)),
            });
        }
    }

    // Deleted files: their items go, unless another file holds them now (a rename).
    for (path, known) in &recorded {
        if on_disk.contains_key(path) {
            continue;
        }
        if known.applied && !holder.contains_key(&known.item) {
            items::remove(conn, &known.item)?;
            report.removed.push(shown(path));
        }
        conn.execute("DELETE FROM knowledge_files WHERE path = ?1", [path])?;
    }

    // Changed files, in that order; frames' parents (uid, parent's uid)
    // are linked once every frame is in.
    let mut parents: Vec<(String, Option<String>)> = Vec::new();
    for file in &read {
        let item = file.item.redacted(detector);
        if item != file.item {
            report.redacted.push(shown(&file.path));
        }
        // A value the store refuses (a tag with a space, a two-line title) is the file's error.
        let (applied, key) = items::apply(conn, &item, &mut report.warnings).map_err(|err| match err {
            Error::InvalidInput(message) => {
                Error::Knowledge { path: dir.join(&file.path), line: None, message }
            }
            other => other,
        })?;
        if applied == Applied::Waiting {
            report.waiting.push(shown(&file.path));
        }
        conn.execute(
            "INSERT OR REPLACE INTO knowledge_files (path, item, size, mtime_ns, disk_hash, rendered_hash, applied)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                file.path,
                key,
                file.stat.size as i64,
                file.stat.mtime_ns,
                file.disk_hash,
                file.rendered_hash,
                applied == Applied::Done
            ],
        )?;
        report.loaded.push(shown(&file.path));
        if let (Item::Frame(front, _), Some(uid)) = (&file.item, key.strip_prefix("frame:")) {
            parents.push((uid.to_string(), front.parent.clone()));
        }
    }
    for (uid, parent) in &parents {
        items::link_parent(conn, uid, parent.as_deref(), &mut report.warnings)?;
    }
    retry_waiting(conn, &dir, &changed, report)?;
    items::relink_decisions(conn)
}

/// The order in which changed items are applied (see [`sync_in`]).
fn order(item: &Item) -> (u8, i64, String) {
    match item {
        Item::Folder(..) => (0, 0, String::new()),
        Item::Frame(front, _) => (1, front.number.unwrap_or(i64::MAX), front.created.clone()),
        Item::Decision(..) => (2, 0, String::new()),
        Item::Pin(..) => (3, 0, String::new()),
        Item::Artifact(..) => (4, 0, String::new()),
    }
}

/// Apply the folder files that waited for their folder (see
/// [`KnowledgeReport::waiting`]) whose folder is back.
fn retry_waiting(
    conn: &Connection,
    dir: &Path,
    changed: &HashMap<&str, &Read>,
    report: &mut KnowledgeReport,
) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "SELECT k.path FROM knowledge_files k JOIN nodes n ON n.kind = 'folder' AND n.path = substr(k.item, 8)
         WHERE k.applied = 0 AND k.item LIKE 'folder:%' ORDER BY k.path",
    )?;
    let back = stmt.query_map([], |row| row.get::<_, String>(0))?.collect::<rusqlite::Result<Vec<_>>>()?;
    for path in back {
        if changed.contains_key(path.as_str()) {
            continue;
        }
        let full = dir.join(&path);
        let text = std::fs::read_to_string(&full).map_err(|err| Error::io(&full, err))?;
        let item = Item::parse(&path, &text).map_err(|err| Error::Knowledge {
            path: full.clone(),
            line: err.line,
            message: err.message,
        })?;
        items::apply(conn, &item, &mut report.warnings)?;
        conn.execute("UPDATE knowledge_files SET applied = 1 WHERE path = ?1", [&path])?;
        report.loaded.push(shown(&path));
    }
    Ok(())
}

/// Write the files of the items that changed in the store since the last
/// sync (`knowledge_dirty`, kept by triggers), and delete those of items
/// that left it (see the module docs).
pub(crate) fn sync_out(conn: &Connection, ctx_dir: &Path, report: &mut KnowledgeReport) -> Result<()> {
    let dir = ctx_dir.join(KNOWLEDGE_DIR);
    let dirty = conn
        .prepare_cached("SELECT item FROM knowledge_dirty ORDER BY item")?
        .query_map([], |row| row.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    for key in &dirty {
        // The files that hold the item now (more than one after a rename).
        let held = conn
            .prepare_cached("SELECT path, rendered_hash, applied FROM knowledge_files WHERE item = ?1")?
            .query_map([key], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?, row.get::<_, bool>(2)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let keep = match items::read(conn, key)? {
            Some(item) => {
                let path = item.file_name();
                let text = item.render()?;
                let text_hash = hash(text.as_bytes());
                let current = held
                    .iter()
                    .any(|(p, rendered, applied)| *p == path && *applied && *rendered == text_hash);
                if !current {
                    let full = dir.join(&path);
                    if let Some(parent) = full.parent() {
                        std::fs::create_dir_all(parent).map_err(|err| Error::io(parent, err))?;
                    }
                    write_atomic(&full, text.as_bytes())?;
                    let stat = stat_of(&full)?;
                    conn.execute(
                        "INSERT OR REPLACE INTO knowledge_files (path, item, size, mtime_ns, disk_hash, rendered_hash, applied)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?5, 1)",
                        params![path, key, stat.size as i64, stat.mtime_ns, text_hash],
                    )?;
                    report.written.push(shown(&path));
                }
                Some(path)
            }
            None => None,
        };
        for (path, _, applied) in &held {
            if Some(path) == keep.as_ref() || !applied {
                continue;
            }
            if let Some(folder) = key.strip_prefix("folder:")
                && items::existing_folder(conn, folder)?.is_none()
            {
                // Not the store's to delete: the scan no longer has the folder to hold it.
                conn.execute("UPDATE knowledge_files SET applied = 0 WHERE path = ?1", [path])?;
                report.waiting.push(shown(path));
                continue;
            }
            remove_if_exists(&dir.join(path))?;
            conn.execute("DELETE FROM knowledge_files WHERE path = ?1", [path])?;
            report.deleted.push(shown(path));
        }
    }
    conn.execute("DELETE FROM knowledge_dirty", [])?;
    Ok(())
}

fn recorded(conn: &Connection) -> Result<BTreeMap<String, Recorded>> {
    let mut stmt =
        conn.prepare_cached("SELECT path, item, size, mtime_ns, disk_hash, applied FROM knowledge_files")?;
    let rows = stmt.query_map([], |row| {
        Ok((
            row.get::<_, String>(0)?,
            Recorded {
                item: row.get(1)?,
                size: row.get::<_, i64>(2)? as u64,
                mtime_ns: row.get(3)?,
                disk_hash: row.get(4)?,
                applied: row.get(5)?,
            },
        ))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The knowledge files on disk (`<kind>/<name>.md`), with their stats.
/// Anything else in the folder is not ctx's and is left alone; links are
/// skipped with a warning (a knowledge file is never read through one).
fn list(dir: &Path, warnings: &mut Vec<String>) -> Result<BTreeMap<String, Stat>> {
    let mut files = BTreeMap::new();
    for kind in KINDS {
        let sub = dir.join(kind);
        let entries = match std::fs::read_dir(&sub) {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
            Err(err) => return Err(Error::io(&sub, err)),
        };
        for entry in entries {
            let entry = entry.map_err(|err| Error::io(&sub, err))?;
            let Some(name) = entry.file_name().to_str().map(str::to_string) else { continue };
            if name.starts_with('.') || !name.ends_with(".md") {
                continue;
            }
            let file_type = entry.file_type().map_err(|err| Error::io(entry.path(), err))?;
            if file_type.is_symlink() {
                warnings.push(format!("{}: a link, not read", shown(&format!("{kind}/{name}"))));
                continue;
            }
            if file_type.is_file() {
                files.insert(format!("{kind}/{name}"), stat_of(&entry.path())?);
            }
        }
    }
    Ok(files)
}

fn stat_of(path: &Path) -> Result<Stat> {
    let meta = std::fs::symlink_metadata(path).map_err(|err| Error::io(path, err))?;
    let mtime_ns = meta.modified().map(crate::time::unix_nanos).unwrap_or(0);
    Ok(Stat { size: meta.len(), mtime_ns })
}
