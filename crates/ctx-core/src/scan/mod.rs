//! Scan: bring the store's picture of the repository's files and folders up
//! to date, and mark stale the folders whose inputs changed.
//!
//! 1. Read the store's file table once (a snapshot) — no per-file queries.
//! 2. Walk the tree in parallel with the `ignore` crate. A file whose size and
//!    mtime match the snapshot is unchanged and not opened; any other file is
//!    read, hashed (blake3) and classified on the walker's threads.
//! 3. Take the write lock, compare against the store (re-reading it if another
//!    process wrote meanwhile), and apply every change in one transaction.
//! 4. Mark the folders that gained, lost or changed a file or a subfolder
//!    stale, and every ancestor with them (staleness bubbles up, never sideways).
//!
//! One bad entry never stops a scan: it becomes a [`ScanIssue`] and is skipped.
//! What the store knows about a path the walk could not read (a folder without
//! read permission, a file that cannot be stat'ed) is kept as it is: a folder
//! that is unreadable for a moment must not lose its description and decisions.

mod inspect;
mod summary;
mod unreported;
mod walk;

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use rusqlite::{Connection, TransactionBehavior, params};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::Serialize;

pub use inspect::{FileKind, language, secret_by_content, secret_by_name};
use inspect::{Inspection, inspect};
pub use summary::generated_notice;
pub(crate) use summary::says_generated;
pub(crate) use unreported::Reporting;
use unreported::SAMPLE;
pub use unreported::{ChangedFiles, EarlierScans};

use crate::config::ScanConfig;
use crate::error::Result;
use crate::folders::mark_stale_with_ancestors;
use crate::paths::{self, ROOT};
use crate::secrets::Detector;
use crate::store::{Store, kv_get, kv_set};
use crate::{fsutil, time};

/// A file whose mtime is this close to (or after) the start of the scan that
/// recorded it is "racily clean": a write in the same timestamp tick would not
/// change its mtime, so the next scan re-reads it instead of trusting the stat.
const RACY_WINDOW_NS: i64 = 1_000_000_000;

/// Bumped when classification or summary rules change, so stored rows get re-inspected.
const SCAN_RULES_VERSION: u32 = 42;

/// What a scan did. Stable JSON (fields are only ever added).
#[derive(Debug, Clone, Default, Serialize)]
pub struct ScanReport {
    pub files_added: usize,
    pub files_changed: usize,
    pub files_removed: usize,
    pub files_unchanged: usize,
    pub folders_added: usize,
    pub folders_removed: usize,
    /// Folders this scan marked stale (changed ones and their ancestors), sorted.
    pub stale_folders: Vec<String>,
    /// Added or changed files that look like secrets, sorted.
    pub secret_files: Vec<String>,
    /// Entries that could not be scanned and were skipped.
    pub issues: Vec<ScanIssue>,
    pub elapsed_ms: u64,
    /// Where the time went.
    pub phases: ScanPhases,
    /// What the sync of `.ctx/knowledge/` after the scan did.
    pub knowledge: crate::KnowledgeReport,
    /// Which files were added, changed and removed (the first 50 of each, sorted).
    #[serde(flatten)]
    pub changed_files: ChangedFiles,
    /// What scans that reported nothing (the map's, `rank`'s) applied since
    /// the last reported scan; only in a reported scan's report, and only
    /// when there was any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub earlier: Option<EarlierScans>,
}

/// Milliseconds spent in each phase of a scan.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ScanPhases {
    /// Reading the store's file table.
    pub load_ms: u64,
    /// Walking the tree, reading and hashing changed files.
    pub walk_ms: u64,
    /// Comparing and writing, under the write lock.
    pub apply_ms: u64,
}

/// One entry a scan skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScanIssue {
    /// The path as well as it can be shown (lossy for non-UTF-8 names).
    pub path: String,
    pub message: String,
}

/// A stored file row, as the snapshot holds it. Named by its path alone:
/// see [`apply`] for why the scan never writes a file row by its id.
#[derive(Debug, Clone)]
struct StoredFile {
    size: u64,
    mtime_ns: i64,
    hash: Option<[u8; 32]>,
    kind: FileKind,
    secret: Option<Box<str>>,
}

/// The store's view of the tree at one moment.
struct Snapshot {
    files: HashMap<String, StoredFile>,
    folders: HashMap<String, i64>,
    /// Rows with an mtime at or after this were recorded racily: re-read them.
    trusted_before_ns: i64,
    /// `PRAGMA data_version` when read: tells whether another process wrote since.
    data_version: i64,
    /// The classification rules changed since the rows were written: every
    /// file read is written again, even when its content did not change.
    rules_changed: bool,
}

/// What the walk saw of one file.
#[derive(Debug)]
struct SeenFile {
    key: String,
    size: u64,
    mtime_ns: i64,
    state: FileState,
}

#[derive(Debug)]
enum FileState {
    /// Size and mtime match a trusted stored row: not opened.
    Unchanged,
    Read(Inspection),
    /// Could not be read this time (reported); a stored row is kept as it is.
    Unreadable,
}

#[derive(Default)]
struct Walked {
    folders: Vec<String>,
    files: Vec<SeenFile>,
    issues: Vec<ScanIssue>,
    /// Keys of entries the walk could not read: what is stored at or below them stands.
    unreadable: Vec<String>,
}

impl Walked {
    /// Whether `key` is, or lies below, an entry the walk could not read.
    fn is_unreadable(&self, key: &str) -> bool {
        self.unreadable.iter().any(|prefix| paths::is_within(key, prefix))
    }
}

pub(crate) fn scan(
    store: &mut Store,
    root: &Path,
    config: &ScanConfig,
    detector: &Detector,
    reporting: Reporting,
) -> Result<ScanReport> {
    scan_adjusted(store, root, config, detector, reporting, |_| {})
}

/// [`scan`], with a hook between walk and apply: tests use it to make the
/// walk see what a file system cannot be made to show (root reads everything).
fn scan_adjusted(
    store: &mut Store,
    root: &Path,
    config: &ScanConfig,
    detector: &Detector,
    reporting: Reporting,
    adjust_walk: impl FnOnce(&mut Walked),
) -> Result<ScanReport> {
    let started = Instant::now();
    let started_ns = time::unix_nanos(SystemTime::now());
    let rules = rules_fingerprint(config, detector);
    let root = &canonical(root);

    let snapshot = load_snapshot(&store.conn, &rules)?;
    let loaded = Instant::now();
    let mut walked = walk::walk(root, config, detector, Some(&snapshot))?;
    adjust_walk(&mut walked);
    drop_empty_folders(&mut walked, &snapshot);
    walked.folders.sort_by(|a, b| (paths::depth(a), a).cmp(&(paths::depth(b), b)));
    walked.files.sort_unstable_by(|a, b| a.key.cmp(&b.key));

    let walked_at = Instant::now();
    let tx = store.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let snapshot = if data_version(&tx)? == snapshot.data_version {
        snapshot
    } else {
        // Another process committed between our snapshot and the lock: diff
        // against what is there now, re-reading files the old snapshot misjudged.
        let fresh = load_snapshot(&tx, &rules)?;
        for file in &mut walked.files {
            if matches!(file.state, FileState::Unchanged) && !fresh.trusts(file) {
                let open = || fsutil::open_within(root, &file.key);
                file.state = read_file(open, file.size, config, detector, &mut walked.issues, &file.key);
            }
        }
        fresh
    };

    let mut report = ScanReport::default();
    let changes_before = tx.total_changes();
    let stale = apply(&tx, snapshot, &walked, &mut report)?;
    report.stale_folders = mark_stale_with_ancestors(&tx, stale.iter().map(String::as_str))?;
    report.changed_files.settle();
    report.earlier = unreported::settle(&tx, &report, reporting)?;

    report.elapsed_ms = started.elapsed().as_millis() as u64;
    report.phases = ScanPhases {
        load_ms: (loaded - started).as_millis() as u64,
        walk_ms: (walked_at - loaded).as_millis() as u64,
        apply_ms: walked_at.elapsed().as_millis() as u64,
    };
    // A scan that finds the tree as the store knows it writes nothing: no
    // commit, so no write-ahead log to make, sync and fold back in on close
    // (5 of a warm map's 100 ms on rust-crates). Its start is not kept either,
    // which only leaves fewer files trusted by their stat alone next time.
    let found_news =
        tx.total_changes() != changes_before || kv_get(&tx, "scan.rules")?.as_deref() != Some(rules.as_str());
    if found_news {
        kv_set(&tx, "scan.rules", &rules)?;
        kv_set(&tx, "scan.last_started_ns", &started_ns.to_string())?;
        kv_set(&tx, "scan.last_at", &time::now_iso())?;
        kv_set(&tx, "scan.last_elapsed_ms", &report.elapsed_ms.to_string())?;
        tx.commit()?;
    }

    report.issues = walked.issues;
    for issue in &mut report.issues {
        // An issue names its path as the walk saw it: a secret in it is redacted too.
        issue.path = walk::stored_key(detector, std::mem::take(&mut issue.path));
    }
    report.issues.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(report)
}

/// Keep only folders with a scanned file somewhere below them: a folder whose
/// every file is ignored (or that is empty) holds no context, as git sees it.
/// A stored folder that could not be read this time counts as occupied.
fn drop_empty_folders(walked: &mut Walked, snapshot: &Snapshot) {
    /// Once a folder is in, so are all of its ancestors.
    fn occupy<'a>(occupied: &mut HashSet<&'a str>, folders: impl Iterator<Item = &'a str>) {
        for folder in folders {
            if !occupied.insert(folder) {
                break;
            }
        }
    }
    let mut occupied: HashSet<&str> = HashSet::default();
    for file in &walked.files {
        occupy(&mut occupied, paths::ancestors(&file.key));
    }
    for folder in walked.unreadable.iter().filter(|key| snapshot.folders.contains_key(key.as_str())) {
        occupy(&mut occupied, std::iter::once(folder.as_str()).chain(paths::ancestors(folder)));
    }
    walked.folders.retain(|folder| occupied.contains(folder.as_str()));
}

/// Everything that decides how a file is classified and what of it is
/// stored; when it changes, every stored row is re-inspected.
fn rules_fingerprint(config: &ScanConfig, detector: &Detector) -> String {
    format!("v{SCAN_RULES_VERSION} max_file_bytes={} detector={}", config.max_file_bytes, detector.digest())
}

fn data_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA data_version", [], |row| row.get(0))
}

fn load_snapshot(conn: &Connection, rules: &str) -> Result<Snapshot> {
    let data_version = data_version(conn)?;
    let same_rules = kv_get(conn, "scan.rules")?.as_deref() == Some(rules);
    let rules_changed =
        !same_rules && conn.query_row("SELECT count(*) > 0 FROM files", [], |row| row.get(0))?;
    let trusted_before_ns = match kv_get(conn, "scan.last_started_ns")?.and_then(|v| v.parse::<i64>().ok()) {
        Some(last) if same_rules => last.saturating_sub(RACY_WINDOW_NS),
        _ => i64::MIN,
    };

    let n_files: i64 = conn.query_row("SELECT count(*) FROM files", [], |row| row.get(0))?;
    let mut files = HashMap::with_capacity_and_hasher(n_files as usize, Default::default());
    let mut stmt = conn.prepare("SELECT path, size, mtime_ns, hash, kind, secret FROM files")?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        // Borrow blobs and text from SQLite: this loop runs once per file of the repository.
        // A malformed value only costs a re-read of that file.
        let hash =
            row.get_ref(3)?.as_blob_or_null().ok().flatten().and_then(|h| <[u8; 32]>::try_from(h).ok());
        let kind = FileKind::parse(row.get_ref(4)?.as_str().unwrap_or_default());
        let secret = row.get_ref(5)?.as_str_or_null().ok().flatten().map(Box::from);
        files.insert(
            row.get::<_, String>(0)?,
            StoredFile { size: row.get::<_, i64>(1)? as u64, mtime_ns: row.get(2)?, hash, kind, secret },
        );
    }
    let mut folders = HashMap::default();
    let mut stmt = conn.prepare("SELECT path, id FROM nodes WHERE kind = 'folder'")?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        folders.insert(row.get::<_, String>(0)?, row.get::<_, i64>(1)?);
    }
    Ok(Snapshot { files, folders, trusted_before_ns, data_version, rules_changed })
}

impl StoredFile {
    /// Whether a file read now (`size` bytes, `inspection`, flagged as
    /// `secret`) is what this row already says: then it was only touched.
    /// An oversized file is never read, so its size is all there is to compare.
    fn is_same_content(&self, size: u64, inspection: &Inspection, secret: Option<&str>) -> bool {
        self.kind == inspection.kind
            && self.secret.as_deref() == secret
            && match inspection.hash {
                Some(hash) => self.hash == Some(hash),
                None => self.hash.is_none() && self.size == size,
            }
    }
}

impl Snapshot {
    /// Whether the stored row for `file` can be trusted without reading it.
    fn trusts(&self, file: &SeenFile) -> bool {
        self.files.get(&file.key).is_some_and(|row| {
            row.size == file.size && row.mtime_ns == file.mtime_ns && row.mtime_ns < self.trusted_before_ns
        })
    }
}

fn read_file(
    open: impl FnOnce() -> std::io::Result<File>,
    size: u64,
    config: &ScanConfig,
    detector: &Detector,
    issues: &mut Vec<ScanIssue>,
    key: &str,
) -> FileState {
    match inspect(open, paths::name(key), size, config.max_file_bytes) {
        Ok(mut inspection) => {
            // What a file says of itself is stored and shown: never its secrets.
            if let Some(summary) = &mut inspection.summary
                && let Cow::Owned(redacted) = detector.redact_in(key, summary)
            {
                *summary = redacted;
            }
            if detector.allows_path(key) {
                inspection.secret = None;
            }
            FileState::Read(inspection)
        }
        Err(err) => {
            issues.push(ScanIssue { path: key.to_string(), message: format!("cannot read: {err}") });
            FileState::Unreadable
        }
    }
}

/// The files on disk and in the store that the other does not have: what a
/// scan would add and remove. Walks with the scan's rules, stat only:
/// nothing is read or written. `conn` should be in a read transaction.
#[derive(Debug, Default)]
pub(crate) struct FileDrift {
    /// On disk, not in the store; sorted.
    pub unscanned: Vec<String>,
    /// In the store, not on disk; sorted.
    pub vanished: Vec<String>,
}

pub(crate) fn drift(
    conn: &Connection,
    root: &Path,
    config: &ScanConfig,
    detector: &Detector,
) -> Result<FileDrift> {
    let root = &canonical(root);
    let snapshot = load_snapshot(conn, &rules_fingerprint(config, detector))?;
    let walked = walk::walk(root, config, detector, None)?;
    let seen: HashSet<&str> = walked.files.iter().map(|file| file.key.as_str()).collect();
    let mut unscanned: Vec<String> = walked
        .files
        .iter()
        .filter(|file| !snapshot.files.contains_key(&file.key))
        .map(|file| file.key.clone())
        .collect();
    // What the walk could not read is not known to be gone (a scan keeps it too).
    let mut vanished: Vec<String> = snapshot
        .files
        .into_keys()
        .filter(|key| !seen.contains(key.as_str()) && !walked.is_unreadable(key))
        .collect();
    unscanned.sort_unstable();
    vanished.sort_unstable();
    Ok(FileDrift { unscanned, vanished })
}

/// `root` with every link resolved: what a followed link must stay under.
/// (A workspace's root is canonical already.)
fn canonical(root: &Path) -> PathBuf {
    std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf())
}

/// Write the difference between `snapshot` and `walked` into the store.
/// Returns the folders whose own inputs changed (not yet their ancestors).
///
/// Rows are deleted and updated by path (the natural key, `UNIQUE` for
/// files and folders alike), never by a row id the snapshot remembers:
/// deleting a folder cascades to its files, SQLite hands their freed ids to
/// the next inserts, and a later delete "by id" would remove those new rows
/// (a renamed folder lost every file). Ordering the deletes first or
/// AUTOINCREMENT would only narrow that to whatever else frees an id
/// mid-transaction; a path names one row whatever was written before it.
/// Folder ids are used only for folders seen on disk now, which this
/// transaction never deletes.
fn apply(
    tx: &Connection,
    snapshot: Snapshot,
    walked: &Walked,
    report: &mut ScanReport,
) -> Result<BTreeSet<String>> {
    let Snapshot { files: mut stored_files, folders: mut folder_ids, rules_changed, .. } = snapshot;
    let mut stale: BTreeSet<String> = BTreeSet::new();
    let now = time::now_iso();

    // Folders: the root always exists; new ones are inserted parents first.
    if !folder_ids.contains_key(ROOT) {
        let id = insert_folder(tx, ROOT, None, &now)?;
        folder_ids.insert(ROOT.to_string(), id);
        stale.insert(ROOT.to_string());
    }
    let seen_folders: BTreeSet<&str> = walked.folders.iter().map(String::as_str).collect();
    for key in &walked.folders {
        if folder_ids.contains_key(key) {
            continue;
        }
        let parent = paths::parent(key).unwrap_or(ROOT);
        let parent_id = folder_ids.get(parent).copied();
        let id = insert_folder(tx, key, parent_id, &now)?;
        folder_ids.insert(key.clone(), id);
        report.folders_added += 1;
        stale.insert(key.clone());
        stale.insert(parent.to_string());
    }
    let vanished: Vec<String> = folder_ids
        .keys()
        .filter(|key| {
            key.as_str() != ROOT && !seen_folders.contains(key.as_str()) && !walked.is_unreadable(key)
        })
        .cloned()
        .collect();
    {
        let mut delete = tx.prepare_cached("DELETE FROM nodes WHERE kind = 'folder' AND path = ?1")?;
        for key in &vanished {
            delete.execute([key])?;
            folder_ids.remove(key);
            report.folders_removed += 1;
        }
    }
    for key in &vanished {
        stale.remove(key);
        if let Some(parent) = paths::parent(key).filter(|p| folder_ids.contains_key(*p)) {
            stale.insert(parent.to_string());
        }
    }

    // Files.
    let mut insert = tx.prepare_cached(
        "INSERT INTO files (path, folder_id, size, mtime_ns, hash, kind, lang, secret, summary)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    let mut update = tx.prepare_cached(
        "UPDATE files SET size = ?2, mtime_ns = ?3, hash = ?4, kind = ?5, secret = ?6, summary = ?7, lang = ?8
         WHERE path = ?1",
    )?;
    let mut touch = tx.prepare_cached("UPDATE files SET size = ?2, mtime_ns = ?3 WHERE path = ?1")?;
    for file in &walked.files {
        let folder = paths::parent(&file.key).unwrap_or(ROOT);
        let Some(&folder_id) = folder_ids.get(folder) else {
            continue;
        };
        let stored = stored_files.remove(&file.key);
        let inspection = match (&file.state, &stored) {
            (FileState::Read(inspection), _) => inspection,
            // Unchanged, or unreadable this time: the stored row stands.
            (_, Some(_)) => {
                report.files_unchanged += 1;
                continue;
            }
            (_, None) => continue,
        };
        let name = paths::name(&file.key);
        let secret = secret_by_name(name).or(inspection.secret);
        let summary = if secret.is_some() { None } else { inspection.summary.as_deref() };
        let hash = inspection.hash.as_ref().map(|h| &h[..]);
        let size = file.size as i64;
        match stored {
            None => {
                insert.execute(params![
                    file.key,
                    folder_id,
                    size,
                    file.mtime_ns,
                    hash,
                    inspection.kind.as_str(),
                    language(name),
                    secret,
                    summary
                ])?;
                report.files_added += 1;
                // The walk is sorted: the first paths are the sample.
                if report.changed_files.added.len() < SAMPLE {
                    report.changed_files.added.push(file.key.clone());
                }
            }
            Some(row) if !rules_changed && row.is_same_content(file.size, inspection, secret) => {
                // Touched, not changed: remember the new stat so the next scan skips it.
                touch.execute(params![file.key, size, file.mtime_ns])?;
                report.files_unchanged += 1;
                continue;
            }
            Some(_) => {
                update.execute(params![
                    file.key,
                    size,
                    file.mtime_ns,
                    hash,
                    inspection.kind.as_str(),
                    secret,
                    summary,
                    // A language the rules learned since (`.pyx`) is the file's now.
                    language(name)
                ])?;
                report.files_changed += 1;
                if report.changed_files.changed.len() < SAMPLE {
                    report.changed_files.changed.push(file.key.clone());
                }
            }
        }
        if secret.is_some() {
            report.secret_files.push(file.key.clone());
        }
        stale.insert(folder.to_string());
    }

    // Files that vanished (their folder may have vanished with them).
    let mut delete = tx.prepare_cached("DELETE FROM files WHERE path = ?1")?;
    for key in stored_files.into_keys() {
        if walked.is_unreadable(&key) {
            report.files_unchanged += 1;
            continue;
        }
        let removed = delete.execute([&key])?;
        report.files_removed += 1;
        let folder = paths::parent(&key).unwrap_or(ROOT);
        if removed > 0 && folder_ids.contains_key(folder) {
            stale.insert(folder.to_string());
        }
        // In no order: `ChangedFiles::settle` sorts them and keeps the sample.
        report.changed_files.removed.push(key);
    }
    Ok(stale)
}

fn insert_folder(tx: &Connection, key: &str, parent_id: Option<i64>, now: &str) -> rusqlite::Result<i64> {
    tx.prepare_cached(
        "INSERT INTO nodes (kind, parent_id, path, stale, created_at, updated_at)
         VALUES ('folder', ?1, ?2, 1, ?3, ?3)",
    )?
    .execute(params![parent_id, key, now])?;
    Ok(tx.last_insert_rowid())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::folders::{self, FolderEdit};

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// A store in `root/.ctx`, which scans skip.
    fn open_store(root: &Path) -> Store {
        std::fs::create_dir(root.join(".ctx")).unwrap();
        Store::open(&root.join(".ctx/ctx.db")).unwrap()
    }

    #[test]
    fn what_the_walk_could_not_read_is_kept_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "src/db/pool.rs", "fn pool() {}");
        write(root, "src/db/sql/query.sql", "select 1;");
        write(root, "src/lib.rs", "mod db;");
        let mut store = open_store(root);
        let config = ScanConfig::default();
        scan(&mut store, root, &config, Detector::builtin(), Reporting::Reported).unwrap();
        let edit = FolderEdit { description: Some("Connection pool".into()), content_md: None };
        folders::describe(&store.conn, "src/db", &edit).unwrap();

        // What the walker hands over when `src/db` cannot be listed: the
        // folder itself, an error for it, and nothing below it.
        let report =
            scan_adjusted(&mut store, root, &config, Detector::builtin(), Reporting::Reported, |walked| {
                walked.files.retain(|f| !paths::is_within(&f.key, "src/db"));
                walked.folders.retain(|f| f == "src/db" || !paths::is_within(f, "src/db"));
                walked.unreadable.push("src/db".into());
            })
            .unwrap();

        assert_eq!((report.files_removed, report.folders_removed), (0, 0), "{report:?}");
        assert_eq!(report.files_unchanged, 3);
        let db = folders::load(&store.conn, "src/db", false).unwrap();
        assert_eq!(db.description, "Connection pool");
        assert_eq!(db.files.len(), 1);
        assert_eq!(db.children, ["src/db/sql"]);

        // Readable again and gone for real: now it goes.
        std::fs::remove_dir_all(root.join("src/db")).unwrap();
        let report = scan(&mut store, root, &config, Detector::builtin(), Reporting::Reported).unwrap();
        assert_eq!((report.files_removed, report.folders_removed), (2, 2), "{report:?}");
    }

    #[test]
    fn a_language_the_rules_learned_since_the_last_scan_is_the_file_s() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "yarl/_quoting_c.pyx", "cdef class _Quoter:\n    pass\n");
        let mut store = open_store(root);
        let config = ScanConfig::default();
        scan(&mut store, root, &config, Detector::builtin(), Reporting::Reported).unwrap();
        let lang = |store: &Store| -> Option<String> {
            store.conn.query_row("SELECT lang FROM files", [], |row| row.get(0)).unwrap()
        };
        assert_eq!(lang(&store).as_deref(), Some("cython"));
        // As an older version of the rules, which knew no Cython, left it.
        store.conn.execute("UPDATE files SET lang = NULL", []).unwrap();
        store.conn.execute("UPDATE kv SET value = 'v0' WHERE key = 'scan.rules'", []).unwrap();
        scan(&mut store, root, &config, Detector::builtin(), Reporting::Reported).unwrap();
        assert_eq!(lang(&store).as_deref(), Some("cython"));
    }

    #[test]
    fn touched_binary_and_oversized_files_are_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("blob.bin"), b"\0\x01\x02binary").unwrap();
        std::fs::write(root.join("big.txt"), "x".repeat(64)).unwrap();
        let mut store = open_store(root);
        let config = ScanConfig { max_file_bytes: 32, ..ScanConfig::default() };
        scan(&mut store, root, &config, Detector::builtin(), Reporting::Reported).unwrap();

        let later = SystemTime::now() + std::time::Duration::from_secs(5);
        for name in ["blob.bin", "big.txt"] {
            std::fs::File::options().write(true).open(root.join(name)).unwrap().set_modified(later).unwrap();
        }
        let report = scan(&mut store, root, &config, Detector::builtin(), Reporting::Reported).unwrap();
        assert_eq!((report.files_changed, report.files_unchanged), (0, 2), "{report:?}");
        assert!(report.stale_folders.is_empty());

        std::fs::write(root.join("blob.bin"), b"\0\x01\x02BINARY").unwrap();
        std::fs::write(root.join("big.txt"), "x".repeat(65)).unwrap();
        let report = scan(&mut store, root, &config, Detector::builtin(), Reporting::Reported).unwrap();
        assert_eq!(report.files_changed, 2, "{report:?}");
    }
}
