//! Build: deploy one ready-to-read context file per folder and tier into
//! `.ctx/context/`, from the store (the source of truth).
//!
//! 1. Read the whole tree once (`model::Tree`), in one read transaction,
//!    and parse the templates. No lock is held after that.
//! 2. For each folder, hash every input its files can show (the deep doc,
//!    the templates, the tokenizer): the **source hash**.
//! 3. A file is (re)written when its source hash differs from the one it was
//!    built from, when it is missing or was edited by hand, or with `--force`.
//!    Folders render in parallel, each file to a temp file first; only when
//!    every render succeeded are they renamed into place, so a broken
//!    template leaves the previous files as they were.
//! 4. One build at a time (`record`): rename the files into place, then,
//!    briefly under the database's write lock, record them (`builds`), clear
//!    the stale flags of the folders nothing marked stale since step 1, and
//!    remove the files of folders that no longer exist.

mod code_below;
mod describe;
mod fit;
pub use code_below::CodeBelow;
pub mod model;
pub mod names;
mod render;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rusqlite::{Connection, TransactionBehavior, params};
use rustc_hash::FxHashMap as HashMap;
use serde::Serialize;

use crate::config::{BuildConfig, ScanConfig};
use crate::error::{Error, Result};
use crate::paths::PathRole;
use crate::secrets::Detector;
use crate::tokens::Tokenizer;
use crate::{fsutil, structure, time};
use model::{ContextDoc, Project, Tree, assemble};
pub use names::Tier;
use render::Templates;

/// Bumped when what a context file holds changes shape, or how a tier is cut
/// to its cap (which the deep doc hashed below does not show): rebuilds everything.
const FORMAT_VERSION: u32 = 11;

/// The folder that holds the context files, inside `.ctx/`.
pub const CONTEXT_DIR: &str = "context";

/// `.ctx/boot.md`: how an agent gets context in this repository.
pub const BOOT_MD: &str = include_str!("../../defaults/boot.md");

/// What a build rewrites, of the folders it considers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BuildMode {
    /// The stale files: those whose source hash changed, and missing or
    /// hand-edited ones. The default. (The folders' stale flags, which scans
    /// and edits set, are not consulted: a hash cannot drift.)
    #[default]
    Stale,
    /// Every file.
    Force,
}

/// What to build.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// Folder keys; empty: the whole tree.
    pub folders: Vec<String>,
    pub mode: BuildMode,
    /// Tiers to write; empty: all four.
    pub tiers: Vec<Tier>,
}

/// What a build did. Stable JSON.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BuildReport {
    /// Folders whose files were written, with the tiers written, sorted by path.
    pub built: Vec<BuiltFolder>,
    pub files_written: usize,
    /// Files that were current and left alone.
    pub files_unchanged: usize,
    /// Context files removed because their folder is gone, sorted.
    pub files_removed: Vec<String>,
    /// Whether `.ctx/boot.md` was missing and written.
    pub boot_written: bool,
    pub tokenizer: String,
    pub elapsed_ms: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct BuiltFolder {
    pub path: String,
    pub tiers: Vec<Tier>,
    /// Why: `new`, `changed`, `missing`, `edited` or `forced`.
    pub reason: String,
}

/// One context file rendered from the database (nothing written).
#[derive(Debug, Clone, Serialize)]
pub struct RenderedContext {
    pub path: String,
    pub tier: Tier,
    /// The file name it has (or would have) in `.ctx/context/`.
    pub file: String,
    pub tokens: usize,
    pub text: String,
    pub doc: ContextDoc,
}

/// A stored `builds` row.
struct BuildRow {
    folder: String,
    tier: Tier,
    file_name: String,
    source_hash: String,
    file_hash: String,
}

/// Where a build reads from besides the store: the repository (its
/// manifests: the root's stack and commands), `.ctx/` (template overrides),
/// the build's configuration, and the detector that redacts commands.
#[derive(Clone, Copy)]
pub(crate) struct Site<'a> {
    pub root: &'a Path,
    pub ctx_dir: &'a Path,
    pub config: &'a BuildConfig,
    /// The files ctx writes its section into (`agents.files`), repository-relative.
    pub agent_files: &'a [String],
    pub detector: &'a Detector,
}

/// Everything a build or a render needs, read once.
pub(crate) struct Inputs {
    tree: Tree,
    templates: Templates,
    tokenizer: &'static dyn Tokenizer,
}

/// The agent files (`agents`, repository-relative) that hold ctx's section and
/// nothing else but blank lines: ctx wrote them, and the agent reads them
/// already. A few small files, read from the disk: the scan keeps no more
/// of their text than a summary, which a list of rules has none of.
fn ctx_only_files(root: &Path, agents: &[String]) -> rustc_hash::FxHashSet<String> {
    let only_ctx_s = |bytes: &[u8]| {
        crate::agents::section::outside_section(bytes)
            .is_some_and(|rest| rest.iter().all(u8::is_ascii_whitespace))
    };
    agents.iter().filter(|rel| crate::read_within(root, rel).is_ok_and(|b| only_ctx_s(&b))).cloned().collect()
}

impl Inputs {
    /// Read the inputs; `conn` is in a transaction, so the tree is one moment's.
    pub fn load(conn: &Connection, site: Site) -> Result<Inputs> {
        Inputs::load_for(conn, site, None)
    }

    /// The inputs of the context files of the folder `only` alone, when given:
    /// the code of the files outside it is not read.
    pub fn load_for(conn: &Connection, site: Site, only: Option<&str>) -> Result<Inputs> {
        let templates = Templates::load(&site.ctx_dir.join(crate::workspace::TEMPLATES_DIR))?;
        let mut tree = Tree::load(conn, only)?;
        // No tree below: the stack and commands are the context's, not the map's.
        let found = structure::detect(site.root, &tree.readable_paths(), 0, site.detector);
        tree.project = Project { stack: found.stack, commands: found.commands };
        tree.ctx_only_files = ctx_only_files(site.root, site.agent_files);
        Ok(Inputs { tree, templates, tokenizer: site.config.tokenizer.get() })
    }

    /// The hash of every input of folder `i`'s context files.
    fn source_hash(&self, i: usize) -> String {
        let doc = assemble(&self.tree, i, Tier::Deep);
        let mut hasher = blake3::Hasher::new();
        hasher.update(&FORMAT_VERSION.to_le_bytes());
        hasher.update(self.templates.digest().as_bytes());
        hasher.update(self.tokenizer.name().as_bytes());
        // serde_json of plain structs cannot fail; an empty hash input would only force a rebuild.
        hasher.update(&serde_json::to_vec(&doc).unwrap_or_default());
        hasher.finalize().to_hex()[..16].to_string()
    }

    /// Folder `i` at `tier`, fitted and rendered.
    fn render(&self, i: usize, tier: Tier, source_hash: &str) -> Result<fit::Fitted> {
        let mut doc = assemble(&self.tree, i, tier);
        doc.generated_at = time::now_iso();
        doc.source_hash = source_hash.to_string();
        doc.tokenizer = self.tokenizer.name().to_string();
        fit::fit(doc, &self.templates, self.tokenizer)
    }

    fn folder_index(&self, key: &str) -> Result<usize> {
        self.tree.get(key).ok_or_else(|| Error::UnknownFolder { path: key.to_string() })
    }

    /// Render one folder's context without writing anything.
    pub fn context(&self, key: &str, tier: Tier) -> Result<RenderedContext> {
        let i = self.folder_index(key)?;
        let fitted = self.render(i, tier, &self.source_hash(i))?;
        Ok(RenderedContext {
            path: key.to_string(),
            tier,
            file: names::file_name(key, tier),
            tokens: fitted.tokens,
            text: fitted.text,
            doc: fitted.doc,
        })
    }
}

/// The text of folder `key`'s context file at `tier`: the file as the last
/// build wrote it when that is current (built from today's inputs, bytes
/// unedited), which needs no rendering; otherwise rendered now.
pub(crate) fn context_text(conn: &Connection, site: Site, key: &str, tier: Tier) -> Result<String> {
    // One read transaction: the tree and the builds rows are of the same moment.
    let tx = conn.unchecked_transaction()?;
    let conn = &*tx;
    let inputs = Inputs::load_for(conn, site, Some(key))?;
    let i = inputs.folder_index(key)?;
    let source_hash = inputs.source_hash(i);
    let row = load_builds_where(conn, "WHERE folder_path = ?1 AND tier = ?2", &[&key, &tier.as_str()])?;
    if let Some(row) = row.first().filter(|row| row.source_hash == source_hash) {
        let path = site.ctx_dir.join(CONTEXT_DIR).join(&row.file_name);
        if let Ok(bytes) = std::fs::read(&path)
            && blake3::hash(&bytes).to_hex().as_str() == row.file_hash
            && let Ok(text) = String::from_utf8(bytes)
        {
            return Ok(text);
        }
    }
    Ok(inputs.render(i, tier, &source_hash)?.text)
}

/// A file to (re)write.
struct Job {
    folder: usize,
    tier: Tier,
    file_name: String,
    source_hash: String,
    reason: &'static str,
    /// The file this one replaces under another name (the naming changed).
    replaces: Option<String>,
}

/// A job rendered into its temp file.
struct Written {
    job: Job,
    temp: PathBuf,
    file_hash: String,
    tokens: usize,
}

pub(crate) fn build(conn: &mut Connection, site: Site, options: &BuildOptions) -> Result<BuildReport> {
    let ctx_dir = site.ctx_dir;
    let started = Instant::now();
    // Read the inputs and the `builds` rows in one read transaction: one
    // moment's snapshot. No lock is held while rendering: other writers go on,
    // and `record` below only marks current what did not change meanwhile.
    let (inputs, rows) = {
        let tx = conn.transaction()?;
        (Inputs::load(&tx, site)?, load_builds(&tx)?)
    };
    let tree = &inputs.tree;
    if tree.folders.is_empty() {
        return Err(Error::InvalidInput(
            "nothing scanned yet: run `ctx scan` first (or `ctx build --scan`)".into(),
        ));
    }
    let context_dir = ctx_dir.join(CONTEXT_DIR);
    std::fs::create_dir_all(&context_dir).map_err(|err| Error::io(&context_dir, err))?;
    remove_leftover_temps(&context_dir)?;
    let mut tiers = if options.tiers.is_empty() { Tier::ALL.to_vec() } else { options.tiers.clone() };
    tiers.sort();
    tiers.dedup();
    let row_of: HashMap<(&str, Tier), &BuildRow> =
        rows.iter().map(|row| ((row.folder.as_str(), row.tier), row)).collect();

    let selected: Vec<usize> = if options.folders.is_empty() {
        (0..tree.folders.len()).collect()
    } else {
        options.folders.iter().map(|key| inputs.folder_index(key)).collect::<Result<_>>()?
    };

    // Decide, in parallel, what to write: the hash decides, not the stale flag.
    let jobs: Vec<Job> = selected
        .par_iter()
        .flat_map_iter(|&i| {
            let folder = &tree.folders[i].path;
            let source_hash = inputs.source_hash(i);
            let mut jobs = Vec::new();
            for &tier in &tiers {
                let file_name = names::file_name(folder, tier);
                let reason = match row_of.get(&(folder.as_str(), tier)) {
                    _ if options.mode == BuildMode::Force => Some("forced"),
                    None => Some("new"),
                    Some(row) => match file_hash(&context_dir.join(&row.file_name)) {
                        None => Some("missing"),
                        Some(hash) if hash != row.file_hash => Some("edited"),
                        Some(_) if row.source_hash != source_hash || row.file_name != file_name => {
                            Some("changed")
                        }
                        Some(_) => None,
                    },
                };
                if let Some(reason) = reason {
                    let replaces = row_of
                        .get(&(folder.as_str(), tier))
                        .map(|row| row.file_name.clone())
                        .filter(|old| *old != file_name);
                    jobs.push(Job {
                        folder: i,
                        tier,
                        file_name,
                        source_hash: source_hash.clone(),
                        reason,
                        replaces,
                    });
                }
            }
            jobs
        })
        .collect();
    let files_unchanged = selected.len() * tiers.len() - jobs.len();

    // Render everything to temp files; any failure removes them all and stops.
    let rendered: Vec<Result<Written>> = jobs
        .into_par_iter()
        .map(|job| {
            let fitted = inputs.render(job.folder, job.tier, &job.source_hash)?;
            let temp = temp_path(&context_dir, &job.file_name);
            std::fs::write(&temp, &fitted.text).map_err(|err| Error::io(&temp, err))?;
            let file_hash = blake3::hash(fitted.text.as_bytes()).to_hex().to_string();
            Ok(Written { job, temp, file_hash, tokens: fitted.tokens })
        })
        .collect();
    let mut written = Vec::with_capacity(rendered.len());
    let mut failure = None;
    for result in rendered {
        match result {
            Ok(w) => written.push(w),
            Err(err) => failure = failure.or(Some(err)),
        }
    }
    let recorded = match failure {
        Some(err) => Err(err),
        None => record(conn, ctx_dir, tree, options, &tiers, &selected, &written),
    };
    let files_removed = match recorded {
        Ok(files_removed) => files_removed,
        Err(err) => {
            // Whatever was not renamed into place (or all of it, when a render failed).
            for w in &written {
                let _ = std::fs::remove_file(&w.temp);
            }
            return Err(err);
        }
    };

    let boot_written = ensure_boot(ctx_dir)?;
    let mut by_folder: BTreeMap<&str, BuiltFolder> = BTreeMap::new();
    for w in &written {
        let path = tree.folders[w.job.folder].path.as_str();
        let entry = by_folder.entry(path).or_insert_with(|| BuiltFolder {
            path: path.to_string(),
            tiers: Vec::new(),
            reason: w.job.reason.to_string(),
        });
        entry.tiers.push(w.job.tier);
    }
    let mut built: Vec<BuiltFolder> = by_folder.into_values().collect();
    for folder in &mut built {
        folder.tiers.sort();
    }
    Ok(BuildReport {
        built,
        files_written: written.len(),
        files_unchanged,
        files_removed,
        boot_written,
        tokenizer: inputs.tokenizer.name().to_string(),
        elapsed_ms: started.elapsed().as_millis() as u64,
    })
}

/// The end of a build: put the rendered files in place, record them, clear
/// the stale flags of what did not change since the snapshot, and remove the
/// files of vanished folders. Returns those.
///
/// Builds do this one at a time, under the build lock ([`BUILD_LOCK`]): the
/// files are renamed into place, then recorded, and the next build starts
/// its renames only after that. So with builds running at once, the last to
/// take the lock leaves both its files and its rows, and every `builds` row
/// describes the bytes on disk. (Without it, A renames, B renames, B
/// records, A records would leave A's rows over B's files.) The database's
/// write lock is only taken for the rows: renaming tens of thousands of
/// files takes seconds on a busy disk, and other writers must not wait for
/// that. A crash between renaming and committing leaves rows older than
/// their files; the next build sees the difference and rewrites them.
fn record(
    conn: &mut Connection,
    ctx_dir: &Path,
    tree: &Tree,
    options: &BuildOptions,
    tiers: &[Tier],
    selected: &[usize],
    written: &[Written],
) -> Result<Vec<String>> {
    let context_dir = ctx_dir.join(CONTEXT_DIR);
    let _one_at_a_time = lock_builds(ctx_dir)?;
    for w in written {
        let target = context_dir.join(&w.job.file_name);
        std::fs::rename(&w.temp, &target).map_err(|err| Error::io(&target, err))?;
        if let Some(old) = &w.job.replaces {
            fsutil::remove_if_exists(&context_dir.join(old))?;
        }
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let now = time::now_iso();
    let mut upsert = tx.prepare_cached(
        "INSERT INTO builds (folder_path, tier, file_name, source_hash, file_hash, tokens, built_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (folder_path, tier) DO UPDATE SET file_name = excluded.file_name,
           source_hash = excluded.source_hash, file_hash = excluded.file_hash,
           tokens = excluded.tokens, built_at = excluded.built_at",
    )?;
    for w in written {
        let folder = &tree.folders[w.job.folder].path;
        upsert.execute(params![
            folder,
            w.job.tier.as_str(),
            w.job.file_name,
            w.job.source_hash,
            w.file_hash,
            w.tokens as i64,
            now
        ])?;
    }
    drop(upsert);
    // The folders as they are now, which may differ from the snapshot's.
    let live: HashMap<String, (i64, i64)> = tx
        .prepare("SELECT path, id, rev FROM nodes WHERE kind = 'folder'")?
        .query_map([], |row| Ok((row.get(0)?, (row.get(1)?, row.get(2)?))))?
        .collect::<rusqlite::Result<_>>()?;
    // A folder is current once all of its tiers are, and only if nothing
    // marked it stale since the snapshot: its revision has not moved (a
    // folder described meanwhile keeps its flag; the next build renders it).
    if tiers.len() == Tier::ALL.len() {
        let mut clear = tx.prepare_cached("UPDATE nodes SET stale = 0 WHERE id = ?1 AND rev = ?2")?;
        for &i in selected {
            let folder = &tree.folders[i];
            if live.get(&folder.path) == Some(&(folder.id, folder.rev)) {
                clear.execute([folder.id, folder.rev])?;
            }
        }
    }
    // A folder removed since the snapshot loses the files just written too.
    let files_removed = if options.folders.is_empty() {
        remove_orphans(&tx, &context_dir, &|key| live.contains_key(key))?
    } else {
        Vec::new()
    };
    tx.commit()?;
    Ok(files_removed)
}

/// The build lock, in `.ctx/` (`ctx.db*` is git-ignored already).
const BUILD_LOCK: &str = "ctx.db-build.lock";

/// Wait for the build lock: the file lock on [`BUILD_LOCK`], held until the
/// returned file is dropped (or the process ends, however it ends).
fn lock_builds(ctx_dir: &Path) -> Result<std::fs::File> {
    let path = ctx_dir.join(BUILD_LOCK);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|err| Error::io(&path, err))?;
    file.lock().map_err(|err| Error::io(&path, err))?;
    Ok(file)
}

/// Write `.ctx/boot.md` unless it exists (it is the user's to edit). Returns whether it was written.
pub(crate) fn ensure_boot(ctx_dir: &Path) -> Result<bool> {
    let path = ctx_dir.join("boot.md");
    if path.exists() {
        return Ok(false);
    }
    fsutil::write_atomic(&path, BOOT_MD.as_bytes())?;
    Ok(true)
}

/// The prefix of a context file being written; see [`temp_path`]. No
/// context file's name starts with a `.` (see [`names`]), so nothing else
/// in the context folder has it.
const TEMP_PREFIX: &str = ".tmp-";

/// How old a temp file must be to be taken for an interrupted build's when
/// it cannot be told whether its writer still runs: builds render outside
/// any lock, so a younger one may be another build's, still running, which
/// renames it into place when it is done.
const LEFTOVER_AGE: Duration = Duration::from_secs(60 * 60);

/// Whether the process that wrote temp file `name` (`.tmp-<pid>-…`, see
/// [`temp_path`]) is gone. Known where `/proc` tells (Linux); elsewhere, never.
fn writer_is_gone(name: &str) -> bool {
    let pid = name.strip_prefix(TEMP_PREFIX).and_then(|rest| rest.split('-').next());
    pid.and_then(|pid| pid.parse::<u32>().ok()).is_none_or(fsutil::process_is_gone)
}

/// The temp files interrupted builds left in the context folder (their
/// writer is gone, or they are older than [`LEFTOVER_AGE`]), sorted by name.
fn leftover_temps(context_dir: &Path) -> Result<Vec<String>> {
    let entries = match std::fs::read_dir(context_dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(Error::io(context_dir, err)),
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|entry| Some((entry.file_name().into_string().ok()?, entry)))
        .filter(|(name, _)| name.starts_with(TEMP_PREFIX))
        .filter(|(name, entry)| {
            let age = entry.metadata().ok().and_then(|m| m.modified().ok()).and_then(|t| t.elapsed().ok());
            writer_is_gone(name) || age.is_some_and(|age| age >= LEFTOVER_AGE)
        })
        .map(|(name, _)| name)
        .collect();
    names.sort_unstable();
    Ok(names)
}

/// Remove the temp files interrupted builds left.
fn remove_leftover_temps(context_dir: &Path) -> Result<()> {
    for name in leftover_temps(context_dir)? {
        fsutil::remove_if_exists(&context_dir.join(name))?;
    }
    Ok(())
}

fn temp_path(dir: &Path, name: &str) -> PathBuf {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    // Short: the context file's own name may already be near the 255-byte limit.
    dir.join(format!(
        "{TEMP_PREFIX}{}-{n}-{}",
        std::process::id(),
        &blake3::hash(name.as_bytes()).to_hex()[..8]
    ))
}

/// blake3 of a file's bytes, `None` when it cannot be read.
fn file_hash(path: &Path) -> Option<String> {
    std::fs::read(path).ok().map(|bytes| blake3::hash(&bytes).to_hex().to_string())
}

fn load_builds(conn: &Connection) -> Result<Vec<BuildRow>> {
    load_builds_where(conn, "", &[])
}

/// `builds` rows matching `filter` (an SQL `WHERE` clause, or empty), by file name.
fn load_builds_where(
    conn: &Connection,
    filter: &str,
    params: &[&dyn rusqlite::ToSql],
) -> Result<Vec<BuildRow>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT folder_path, tier, file_name, source_hash, file_hash FROM builds {filter} ORDER BY file_name"
    ))?;
    let rows = stmt.query_map(params, |row| {
        Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?, row.get(2)?, row.get(3)?, row.get(4)?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (folder, tier, file_name, source_hash, file_hash) = row?;
        if let Some(tier) = Tier::parse(&tier) {
            out.push(BuildRow { folder, tier, file_name, source_hash, file_hash });
        }
    }
    Ok(out)
}

/// A test of whether a folder key is in the tree.
type IsLive<'a> = &'a dyn Fn(&str) -> bool;

/// Context files (and `builds` rows) of folders that are no longer in the
/// tree. Files ctx did not write and cannot place are left alone.
fn orphans(conn: &Connection, context_dir: &Path, is_live: IsLive) -> Result<(Vec<String>, Vec<String>)> {
    let rows = load_builds(conn)?;
    let live_names: HashMap<&str, bool> =
        rows.iter().map(|r| (r.file_name.as_str(), is_live(&r.folder))).collect();
    let dead_rows: Vec<String> =
        rows.iter().filter(|r| !is_live(&r.folder)).map(|r| r.file_name.clone()).collect();
    let mut files = Vec::new();
    let entries = match std::fs::read_dir(context_dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok((files, dead_rows)),
        Err(err) => return Err(Error::io(context_dir, err)),
    };
    for entry in entries.filter_map(|e| e.ok()) {
        let Some(name) = entry.file_name().to_str().map(str::to_string) else { continue };
        if name.starts_with(TEMP_PREFIX) {
            continue; // a leftover temp file, not a context file: see `temp_files`
        }
        let orphan = match (live_names.get(name.as_str()), names::parse_file_name(&name)) {
            (Some(&live), _) => !live,
            (None, Some((Some(key), _))) => !is_live(&key),
            // A shortened name no build row knows: its folder cannot be told.
            _ => false,
        };
        if orphan {
            files.push(name);
        }
    }
    files.sort();
    Ok((files, dead_rows))
}

fn remove_orphans(tx: &Connection, context_dir: &Path, is_live: IsLive) -> Result<Vec<String>> {
    let (files, dead_rows) = orphans(tx, context_dir, is_live)?;
    for name in &files {
        fsutil::remove_if_exists(&context_dir.join(name))?;
    }
    let mut delete = tx.prepare_cached("DELETE FROM builds WHERE file_name = ?1")?;
    for name in &dead_rows {
        delete.execute([name])?;
    }
    Ok(files)
}

/// The result of comparing `.ctx/context/` with the database. Stable JSON.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ValidateReport {
    /// No problems of any kind.
    pub ok: bool,
    /// Context files that should exist (folders × tiers).
    pub expected: usize,
    pub current: usize,
    /// Files that should exist and do not.
    pub missing: Vec<FileProblem>,
    /// Files built from inputs that have changed since.
    pub stale: Vec<FileProblem>,
    /// Files whose bytes are not what the build wrote (or that no build wrote).
    pub edited: Vec<FileProblem>,
    /// Files of folders that no longer exist.
    pub orphaned: Vec<String>,
    /// Repository files on disk that the store does not hold (a scan would
    /// add them), sorted.
    pub unscanned_files: Vec<String>,
    /// Files the store holds that are no longer on disk (a scan would remove
    /// them), sorted.
    pub vanished_files: Vec<String>,
    /// Temp files an interrupted build left in `.ctx/context/` (the next
    /// build removes them), sorted.
    pub temp_files: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FileProblem {
    pub path: String,
    pub tier: Tier,
    pub file: String,
}

/// Compare `.ctx/context/` with the database, and the database's files with
/// the disk at `root` (walked with the `scan` rules).
pub(crate) fn validate(conn: &Connection, site: Site, scan: &ScanConfig) -> Result<ValidateReport> {
    let tx = conn.unchecked_transaction()?;
    let conn = &*tx;
    let inputs = Inputs::load(conn, site)?;
    let ctx_dir = site.ctx_dir;
    let tree = &inputs.tree;
    let context_dir = ctx_dir.join(CONTEXT_DIR);
    let rows = load_builds(conn)?;
    let all: Vec<usize> = (0..tree.folders.len()).collect();
    let verdicts = file_states(&inputs, &rows, &context_dir, &all);
    let mut report = ValidateReport { expected: verdicts.len(), ..ValidateReport::default() };
    for (i, tier, file, state) in verdicts {
        let problem = FileProblem { path: tree.folders[i].path.clone(), tier, file };
        match state {
            FileState::Current => report.current += 1,
            FileState::Missing => report.missing.push(problem),
            FileState::Stale => report.stale.push(problem),
            FileState::Edited => report.edited.push(problem),
        }
    }
    report.orphaned = orphans(conn, &context_dir, &|key| tree.get(key).is_some())?.0;
    report.temp_files = leftover_temps(&context_dir)?;
    let drift = crate::scan::drift(conn, site.root, scan, site.detector)?;
    report.unscanned_files = drift.unscanned;
    report.vanished_files = drift.vanished;
    report.ok = report.missing.is_empty()
        && report.stale.is_empty()
        && report.edited.is_empty()
        && report.orphaned.is_empty()
        && report.temp_files.is_empty()
        && report.unscanned_files.is_empty()
        && report.vanished_files.is_empty();
    Ok(report)
}

/// A context file against what a build would write now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FileState {
    Current,
    /// Not on disk.
    Missing,
    /// Built from inputs that have changed since (its source hash differs).
    Stale,
    /// Its bytes are not what the build wrote (or no build wrote it).
    Edited,
}

/// The context files of `folders` (indices into the tree), every tier, each
/// with its name and state: the one judgement of staleness, which
/// `validate`, `status` and a folder's `stale` share.
fn file_states(
    inputs: &Inputs,
    rows: &[BuildRow],
    context_dir: &Path,
    folders: &[usize],
) -> Vec<(usize, Tier, String, FileState)> {
    let tree = &inputs.tree;
    let row_of: HashMap<(&str, Tier), &BuildRow> =
        rows.iter().map(|row| ((row.folder.as_str(), row.tier), row)).collect();
    let row_of = &row_of;
    folders
        .par_iter()
        .flat_map_iter(|&i| {
            let folder = &tree.folders[i].path;
            let source_hash = inputs.source_hash(i);
            Tier::ALL.into_iter().map(move |tier| {
                let row = row_of.get(&(folder.as_str(), tier));
                let file_name = row.map_or_else(|| names::file_name(folder, tier), |r| r.file_name.clone());
                let state = match (file_hash(&context_dir.join(&file_name)), row) {
                    (None, _) => FileState::Missing,
                    (Some(_), None) => FileState::Edited,
                    (Some(hash), Some(row)) if hash != row.file_hash => FileState::Edited,
                    (Some(_), Some(row)) if row.source_hash != source_hash => FileState::Stale,
                    _ => FileState::Current,
                };
                (i, tier, file_name, state)
            })
        })
        .collect()
}

/// The folders (all, or the one at `only`) whose context files are not all
/// current — missing, stale or edited: what `ctx build` would rewrite —,
/// sorted. `conn` is in a read transaction.
pub(crate) fn stale_folders(conn: &Connection, site: Site, only: Option<&str>) -> Result<Vec<String>> {
    let inputs = Inputs::load_for(conn, site, only)?;
    let folders = match only {
        Some(key) => vec![inputs.folder_index(key)?],
        None => (0..inputs.tree.folders.len()).collect(),
    };
    let rows = match only {
        Some(key) => load_builds_where(conn, "WHERE folder_path = ?1", &[&key])?,
        None => load_builds(conn)?,
    };
    let context_dir = site.ctx_dir.join(CONTEXT_DIR);
    let mut stale: Vec<String> = file_states(&inputs, &rows, &context_dir, &folders)
        .into_iter()
        .filter(|(.., state)| *state != FileState::Current)
        .map(|(i, ..)| inputs.tree.folders[i].path.clone())
        .collect();
    stale.sort();
    stale.dedup();
    Ok(stale)
}

/// A folder whose description and content nobody has written yet.
#[derive(Debug, Clone, Serialize)]
pub struct TodoFolder {
    pub path: String,
    /// What the context files say for now, and where it came from.
    pub derived_description: String,
    pub derived_from: String,
    pub files: usize,
    pub subfolders: Vec<String>,
    /// How much of the repository depends on the folder's own files: the
    /// share of the reference graph's rank they hold (0 to 1; 0 when the
    /// map never indexed them).
    pub importance: f64,
    /// What the folder is for, from its path (`source`, `test`, `fixture`, …).
    pub role: PathRole,
}

/// Folders nobody has described, the most important first: the code (then
/// docs, examples, benches, folders of no code such as `.github/` or
/// `screenshots/`, vendored code and folders whose code a tool wrote;
/// tests and fixtures last), by how much of
/// the repository depends on it; deepest first among equals (a parent's
/// describer can read its children's descriptions), then by path.
pub(crate) fn todo(conn: &Connection) -> Result<Vec<TodoFolder>> {
    let tx = conn.unchecked_transaction()?;
    let tree = Tree::load(&tx, None)?;
    // Folders whose own files hold code the map reads (it outlines those), and the
    // root, which is the whole project's.
    let coded: rustc_hash::FxHashSet<&str> = tree
        .folders
        .iter()
        .filter(|f| f.path == crate::paths::ROOT || f.files.iter().any(|file| file.outline.is_some()))
        .map(|f| f.path.as_str())
        .collect();
    // Folders whose every file of code says a tool wrote it (date-fns' `src/fp/*/`,
    // regex's `unicode_tables/`): their notices describe them, and nobody edits them.
    let generated: rustc_hash::FxHashSet<&str> = tree
        .folders
        .iter()
        .filter(|f| {
            let mut code = f.files.iter().filter(|file| file.outline.is_some()).peekable();
            code.peek().is_some()
                && code.all(|file| file.summary.as_deref().is_some_and(crate::scan::says_generated))
        })
        .map(|f| f.path.as_str())
        .collect();
    let mut todo: Vec<TodoFolder> = tree
        .folders
        .iter()
        .filter(|f| !f.described)
        .map(|f| TodoFolder {
            path: f.path.clone(),
            derived_description: f.shown_description.clone(),
            derived_from: f.description_source.clone(),
            files: f.files.len(),
            subfolders: f.children.iter().map(|&c| tree.folders[c].path.clone()).collect(),
            importance: f.files.iter().filter_map(|file| file.outline.as_ref()).map(|o| o.rank).sum(),
            role: PathRole::of(&f.path),
        })
        .collect();
    let last = |folder: &TodoFolder| match folder.role {
        PathRole::Source | PathRole::Example if generated.contains(folder.path.as_str()) => 5,
        PathRole::Source if coded.contains(folder.path.as_str()) => 0,
        PathRole::Docs => 1,
        PathRole::Example => 2,
        PathRole::Bench => 3,
        PathRole::Source => 4,
        PathRole::Vendored => 5,
        PathRole::Test => 6,
        PathRole::Fixture => 7,
    };
    todo.sort_by(|a, b| {
        (last(a).cmp(&last(b)))
            .then(b.importance.total_cmp(&a.importance))
            .then(crate::paths::depth(&b.path).cmp(&crate::paths::depth(&a.path)))
            .then_with(|| a.path.cmp(&b.path))
    });
    Ok(todo)
}
