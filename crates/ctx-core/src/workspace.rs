//! The workspace: a repository root with a `.ctx/` folder, its configuration
//! and its store. Every operation of ctx starts here.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rusqlite::TransactionBehavior;
use serde::Serialize;

use crate::assemble::{self, AssembledContext, CacheReport, Inputs, Rendering, Settings, cache};
use crate::budget::Budget;
use crate::build::{self, BuildOptions, BuildReport, RenderedContext, Tier, TodoFolder, ValidateReport};
use crate::config::{Config, DEFAULT_CONFIG_TOML};
use crate::error::{Error, Result};
use crate::folders::{self, Folder, FolderEdit};
use crate::frames::{
    self, Frame, FrameDetail, FrameRow, FrameStatus, FrameTree, NewAttempt, NewFrame, NewTask, TaskFilter,
};
use crate::fsutil::write_atomic;
use crate::knowledge::{self, KnowledgeReport};
use crate::paths;
use crate::records::{self, Decision, NewDecision};
use crate::scan::{self, ScanReport};
use crate::secrets::{self, Detector, Redacted, SecretsConfig};
use crate::store::{Store, kv_get};
use crate::templates::Sources;

mod session;
mod transcript;

/// The name of the workspace folder at the repository root.
pub const CTX_DIR: &str = ".ctx";
/// In `.ctx/`: the database, the configuration, the template overrides.
pub(crate) const DB_FILE: &str = "ctx.db";
pub const CONFIG_FILE: &str = "config.toml";
pub(crate) const TEMPLATES_DIR: &str = "templates";

/// What `.ctx/.gitignore` holds: the database and generated files stay local.
/// Everything else in `.ctx/` is committed: the knowledge files above all.
const CTX_GITIGNORE: &str = "# Local state and generated files: rebuilt from the repository by `ctx scan` / `ctx build`.\nctx.db*\ncontext/\npacks/\n";

/// An open workspace.
#[derive(Debug)]
pub struct Workspace {
    root: PathBuf,
    config: Config,
    store: Store,
    /// The database is in the user's cache directory, not in `.ctx/`.
    cached: bool,
    /// The secret detector of `config.secrets`, made on first use.
    detector: OnceLock<Detector>,
}

/// A folder argument resolved by [`Workspace::resolve_folder`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FolderPath {
    /// The folder's key (`.` for the root).
    pub key: String,
    /// The file the input named, when it named one: `key` is its folder.
    pub file: Option<String>,
}

/// What `init` did. Stable JSON.
#[derive(Debug, Clone, Serialize)]
pub struct InitReport {
    pub root: String,
    /// Files `init` created, relative to the root; empty when all existed.
    pub created: Vec<String>,
    /// Whether `.ctx/` was already there.
    pub already_initialized: bool,
}

/// Counts and freshness of the store. Stable JSON.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    pub root: String,
    pub schema_version: u32,
    pub folders: usize,
    pub files: usize,
    pub text_files: usize,
    pub binary_files: usize,
    pub oversized_files: usize,
    pub secret_files: usize,
    pub decisions: usize,
    pub records: usize,
    /// Folders whose context files are not all current (missing, built from
    /// inputs that changed since, or edited): what `ctx build` would rewrite
    /// and `ctx validate` reports, by the same judgement; sorted.
    pub stale_folders: Vec<String>,
    /// ISO-8601 time of the last scan that changed what the store knows (a
    /// scan that finds the tree as stored writes nothing); `None` before the first.
    pub last_scan_at: Option<String>,
    pub last_scan_ms: Option<u64>,
    pub db_bytes: u64,
}

impl Workspace {
    /// Create `.ctx/` in `root` (a config with commented defaults, a
    /// `.gitignore` for local state, the prompts boot.md, constitution.md
    /// and runloop.md, the database) and open it. The agent files
    /// (AGENTS.md, ...) are [`crate::agents::update`]'s. Idempotent:
    /// existing files are left as they are.
    pub fn init(root: &Path) -> Result<(Workspace, InitReport)> {
        let root = canonical_dir(root)?;
        let ctx_dir = root.join(CTX_DIR);
        let already_initialized = ctx_dir.is_dir();
        if ctx_dir.exists() && !already_initialized {
            return Err(Error::io(&ctx_dir, std::io::ErrorKind::NotADirectory.into()));
        }
        std::fs::create_dir_all(&ctx_dir).map_err(|err| Error::io(&ctx_dir, err))?;
        let mut created = Vec::new();
        for (name, text) in [(CONFIG_FILE, DEFAULT_CONFIG_TOML), (".gitignore", CTX_GITIGNORE)] {
            let path = ctx_dir.join(name);
            if !path.exists() {
                write_atomic(&path, text.as_bytes())?;
                created.push(format!("{CTX_DIR}/{name}"));
            }
        }
        created.extend(crate::agents::write_missing_prompts(&ctx_dir)?);
        let db_existed = ctx_dir.join(DB_FILE).exists();
        let workspace = Workspace::open(&root)?;
        if !db_existed {
            created.push(format!("{CTX_DIR}/{DB_FILE}"));
        }
        let report = InitReport { root: root.display().to_string(), created, already_initialized };
        Ok((workspace, report))
    }

    /// Open the workspace whose `.ctx/` is in `start` or its nearest ancestor.
    pub fn discover(start: &Path) -> Result<Workspace> {
        let root = Workspace::find_root(start)?;
        Workspace::open(&root)
    }

    /// The root [`Workspace::discover`] opens: `start` (canonical) or its
    /// nearest ancestor holding `.ctx/`.
    pub fn find_root(start: &Path) -> Result<PathBuf> {
        let start = canonical_dir(start)?;
        match start.ancestors().find(|dir| dir.join(CTX_DIR).is_dir()) {
            Some(root) => Ok(root.to_path_buf()),
            None => Err(Error::NotAWorkspace { start }),
        }
    }

    /// Open the workspace at `root`, which must hold a `.ctx/` folder. The
    /// database is created if it is missing (a fresh clone has the config but
    /// not the local database).
    pub fn open(root: &Path) -> Result<Workspace> {
        let root = canonical_dir(root)?;
        let ctx_dir = root.join(CTX_DIR);
        if !ctx_dir.is_dir() {
            return Err(Error::NotAWorkspace { start: root });
        }
        let config = Config::load(&ctx_dir.join(CONFIG_FILE))?;
        let store = Store::open(&ctx_dir.join(DB_FILE))?;
        Workspace { root, config, store, cached: false, detector: OnceLock::new() }.scrubbed()
    }

    /// A workspace rooted at `root` (canonical) whose database is in `state_dir`,
    /// with the default configuration.
    pub(crate) fn open_with_store(root: &Path, state_dir: &Path) -> Result<Workspace> {
        let store = Store::open(&state_dir.join(DB_FILE))?;
        let config = Config::default();
        Workspace { root: root.to_path_buf(), config, store, cached: true, detector: OnceLock::new() }
            .scrubbed()
    }

    /// This workspace, its store scrubbed (see [`Workspace::scrub`]).
    fn scrubbed(mut self) -> Result<Workspace> {
        self.scrub()?;
        Ok(self)
    }

    /// Redact the store again if the detector changed since it last wrote
    /// (see `secrets::scrub`); the store then remembers this detector. A
    /// store that cannot be written now (read-only, busy) is scrubbed later.
    fn scrub(&mut self) -> Result<()> {
        let detector = detector_of(&self.config.secrets, &self.detector);
        match secrets::scrub::scrub_if_needed(&mut self.store.conn, detector) {
            Err(Error::ReadOnly { .. }) => {}
            Err(Error::Database(err))
                if matches!(
                    err.sqlite_error_code(),
                    Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
                ) => {}
            other => {
                other?;
            }
        }
        Ok(())
    }

    /// The secret detector: the built-in rules and `[secrets]` of the
    /// configuration. Everything this workspace stores or shows went through it.
    pub fn detector(&self) -> &Detector {
        detector_of(&self.config.secrets, &self.detector)
    }

    /// Whether the database lives in the user's cache directory (no `.ctx/` here).
    pub fn is_cached(&self) -> bool {
        self.cached
    }

    /// The repository root (canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The `.ctx/` folder.
    pub fn ctx_dir(&self) -> PathBuf {
        self.root.join(CTX_DIR)
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Read `.ctx/config.toml` again; on an error the configuration in use stays.
    pub fn reload_config(&mut self) -> Result<()> {
        self.config = Config::load(&self.ctx_dir().join(CONFIG_FILE))?;
        self.detector = OnceLock::new();
        self.scrub()
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub(crate) fn store_mut(&mut self) -> &mut Store {
        &mut self.store
    }

    /// Turn user input into a repository-relative key: absolute, or relative
    /// to `cwd` when `cwd` is inside the workspace, else relative to the root
    /// (see [`paths::resolve`]). An absolute path that is not inside the root
    /// is read from the root, as context files title folders (`/src/auth`),
    /// unless it names something outside the root and nothing inside it.
    pub fn resolve_path(&self, cwd: &Path, input: &str) -> Result<String> {
        let cwd = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
        self.resolve_from(&cwd, input)
    }

    /// Turn user input that names a folder into its key, as
    /// [`Workspace::resolve_path`] does; an input that names a file means
    /// the file's folder, and [`FolderPath::file`] says which file it was.
    /// Every folder argument of the CLI and the MCP server goes through here.
    pub fn resolve_folder(&self, cwd: &Path, input: &str) -> Result<FolderPath> {
        let key = self.resolve_path(cwd, input)?;
        if key != paths::ROOT && self.root.join(&key).is_file() {
            let folder = paths::parent(&key).unwrap_or(paths::ROOT).to_string();
            return Ok(FolderPath { key: folder, file: Some(key) });
        }
        Ok(FolderPath { key, file: None })
    }

    /// A repository-relative path (or an absolute one inside the root) as a folder key.
    pub(crate) fn key(&self, path: &str) -> Result<String> {
        self.resolve_from(&self.root, path)
    }

    /// [`paths::resolve`]; for an absolute path outside the root, once more
    /// with its existing part resolved (it may be outside only as spelled,
    /// through a symlink to the checkout), then from the root (`/src/auth`)
    /// unless it names something that exists outside the root and not inside.
    fn resolve_from(&self, cwd: &Path, input: &str) -> Result<String> {
        let given = Path::new(input);
        match paths::resolve(&self.root, cwd, input) {
            Err(err @ Error::OutsideRoot { .. }) if given.is_absolute() => {
                let real = canonicalize_existing_prefix(given);
                if let Some(key) = real
                    .to_str()
                    .filter(|real| *real != input)
                    .and_then(|real| paths::resolve(&self.root, cwd, real).ok())
                {
                    return Ok(key);
                }
                let rooted = input.trim_start_matches('/');
                if given.exists() && !self.root.join(rooted).exists() {
                    return Err(err);
                }
                if rooted.is_empty() {
                    return Ok(paths::ROOT.to_string());
                }
                paths::resolve(&self.root, &self.root, rooted).map_err(|_| err)
            }
            other => other,
        }
    }

    /// Bring the store up to date with the files on disk: the repository's,
    /// then the knowledge files of `.ctx/knowledge/` (see [`Workspace::sync_knowledge`]).
    /// The report is meant to be shown: it also holds what the silent scans
    /// since the last one like it applied ([`ScanReport::earlier`]).
    pub fn scan(&mut self) -> Result<ScanReport> {
        let mut report = self.scan_with(scan::Reporting::Reported)?;
        report.knowledge = self.sync_knowledge()?;
        Ok(report)
    }

    /// Bring the store up to date with the repository's files alone (what
    /// the map and `rank` need: a knowledge file left mid-merge does not
    /// stop them). A silent scan: its changes are kept for the next
    /// [`Workspace::scan`] to report.
    pub fn scan_files(&mut self) -> Result<ScanReport> {
        self.scan_with(scan::Reporting::Silent)
    }

    fn scan_with(&mut self, reporting: scan::Reporting) -> Result<ScanReport> {
        let detector = detector_of(&self.config.secrets, &self.detector);
        scan::scan(&mut self.store, &self.root, &self.config.scan, detector, reporting)
    }

    pub fn status(&self) -> Result<Status> {
        // One read transaction: every count comes from the same moment.
        let tx = self.store.conn.unchecked_transaction()?;
        let conn = &*tx;
        let count = |sql: &str| -> Result<usize> {
            Ok(conn.query_row(sql, [], |row| row.get::<_, i64>(0))? as usize)
        };
        let ctx_dir = self.ctx_dir();
        // What validate finds stale, by the same judgement (not the flag edits and scans set).
        let stale_folders = build::stale_folders(conn, self.build_site(&ctx_dir), None)?;
        let db_path = self.store.path();
        let db_bytes = ["", "-wal"]
            .iter()
            .filter_map(|suffix| std::fs::metadata(format!("{}{suffix}", db_path.display())).ok())
            .map(|m| m.len())
            .sum();
        Ok(Status {
            root: self.root.display().to_string(),
            schema_version: self.store.schema_version()?,
            folders: count("SELECT count(*) FROM nodes WHERE kind = 'folder'")?,
            files: count("SELECT count(*) FROM files")?,
            text_files: count("SELECT count(*) FROM files WHERE kind = 'text'")?,
            binary_files: count("SELECT count(*) FROM files WHERE kind = 'binary'")?,
            oversized_files: count("SELECT count(*) FROM files WHERE kind = 'oversized'")?,
            secret_files: count("SELECT count(*) FROM files WHERE secret IS NOT NULL")?,
            decisions: count("SELECT count(*) FROM records WHERE type = 'decision'")?,
            records: count("SELECT count(*) FROM records")?,
            stale_folders,
            last_scan_at: kv_get(conn, "scan.last_at")?,
            last_scan_ms: kv_get(conn, "scan.last_elapsed_ms")?.and_then(|v| v.parse().ok()),
            db_bytes,
        })
    }

    /// Everything known about the folder at `path`.
    pub fn folder(&self, path: &str) -> Result<Folder> {
        let key = self.key(path)?;
        // One read transaction: the folder, its files and its decisions agree.
        let tx = self.store.conn.unchecked_transaction()?;
        let ctx_dir = self.ctx_dir();
        let stale = !build::stale_folders(&tx, self.build_site(&ctx_dir), Some(&key))?.is_empty();
        folders::load(&tx, &key, stale)
    }

    /// Write a folder's description and/or long-form content; marks it and
    /// its ancestors stale.
    pub fn describe_folder(&mut self, path: &str, edit: &FolderEdit) -> Result<Folder> {
        let key = self.key(path)?;
        let edit = edit.redacted(self.detector());
        self.author(|conn| folders::describe(conn, &key, &edit))?;
        self.folder(&key)
    }

    /// Mark a folder as a scope (or not); marks it and its ancestors stale.
    pub fn set_scope(&mut self, path: &str, is_scope: bool) -> Result<Folder> {
        let key = self.key(path)?;
        self.author(|conn| folders::set_scope(conn, &key, is_scope))?;
        self.folder(&key)
    }

    /// Relate folder `path` to `other` (a "related scope" shown in `path`'s
    /// context), replacing the note of an existing relation.
    pub fn relate(&mut self, path: &str, other: &str, note: Option<&str>) -> Result<Folder> {
        let (key, other) = (self.key(path)?, self.key(other)?);
        let note = note.map(|note| self.detector().redacted(note));
        self.author(|conn| folders::relate(conn, &key, &other, note.as_deref()))?;
        self.folder(&key)
    }

    /// Remove the relation from `path` to `other`.
    pub fn unrelate(&mut self, path: &str, other: &str) -> Result<Folder> {
        let (key, other) = (self.key(path)?, self.key(other)?);
        self.author(|conn| folders::unrelate(conn, &key, &other))?;
        self.folder(&key)
    }

    /// Log a decision on the folder at `path`; marks it and its ancestors stale.
    pub fn log_decision(&mut self, path: &str, decision: &NewDecision) -> Result<Decision> {
        let key = self.key(path)?;
        let decision = decision.redacted(self.detector());
        self.author(|conn| records::log_decision(conn, &key, &decision))
    }

    /// Decisions on the folder at `path` (every decision when `None`), newest first.
    pub fn decisions(&self, path: Option<&str>) -> Result<Vec<Decision>> {
        let key = path.map(|p| self.key(p)).transpose()?;
        records::decisions(&self.store.conn, key.as_deref())
    }

    /// Write the context files of `.ctx/context/` that are missing, stale or
    /// edited (see [`BuildOptions`]), and remove those of vanished folders.
    pub fn build(&mut self, options: &BuildOptions) -> Result<BuildReport> {
        let options = BuildOptions {
            folders: options.folders.iter().map(|f| self.key(f)).collect::<Result<_>>()?,
            ..options.clone()
        };
        let ctx_dir = self.ctx_dir();
        let detector = detector_of(&self.config.secrets, &self.detector);
        let site = build::Site {
            root: &self.root,
            ctx_dir: &ctx_dir,
            config: &self.config.build,
            agent_files: &self.config.agents.files,
            detector,
        };
        build::build(&mut self.store.conn, site, &options)
    }

    /// The context file of the folder at `path` at `tier`, rendered from the
    /// database; nothing is written.
    pub fn context(&self, path: &str, tier: Tier) -> Result<RenderedContext> {
        let key = self.key(path)?;
        let tx = self.store.conn.unchecked_transaction()?;
        build::Inputs::load_for(&tx, self.build_site(&self.ctx_dir()), Some(&key))?.context(&key, tier)
    }

    /// The text of the context file of the folder at `path` at `tier`: the
    /// file in `.ctx/context/` when it is current, else rendered from the
    /// database like [`Workspace::context`]. Nothing is written.
    pub fn context_text(&self, path: &str, tier: Tier) -> Result<String> {
        let key = self.key(path)?;
        build::context_text(&self.store.conn, self.build_site(&self.ctx_dir()), &key, tier)
    }

    /// Compare `.ctx/context/` with the database (missing, stale, edited and
    /// orphaned files), and the database's files with the disk.
    pub fn validate(&self) -> Result<ValidateReport> {
        build::validate(&self.store.conn, self.build_site(&self.ctx_dir()), &self.config.scan)
    }

    /// Where a build of this workspace reads from, `.ctx/` being `ctx_dir`.
    fn build_site<'a>(&'a self, ctx_dir: &'a Path) -> build::Site<'a> {
        build::Site {
            root: &self.root,
            ctx_dir,
            config: &self.config.build,
            agent_files: &self.config.agents.files,
            detector: self.detector(),
        }
    }

    /// Folders whose description and content nobody has written, the most important first.
    pub fn todo(&self) -> Result<Vec<TodoFolder>> {
        build::todo(&self.store.conn)
    }

    /// Push a frame (under `new.parent`, default the current frame) and make it current.
    pub fn push_frame(&mut self, new: &NewFrame) -> Result<Frame> {
        let new = new.redacted(self.detector());
        self.author(|conn| frames::push(conn, &new).and_then(|row| frames::frame(conn, &row)))
    }

    /// End work on frame `id` (default: the current frame) as `completed`,
    /// `failed` (recorded as an attempt, the summary its reason) or
    /// `blocked`; its parent is current again if it is still in progress.
    pub fn pop_frame(
        &mut self,
        id: Option<&str>,
        status: FrameStatus,
        summary: Option<&str>,
    ) -> Result<Frame> {
        let summary = summary.map(|summary| self.detector().redacted(summary));
        self.change_frame(id, |conn, row| frames::pop(conn, row, status, summary.as_deref()))
    }

    /// Replace the goal of frame `id` (default: the current frame).
    pub fn set_frame_goal(&mut self, id: Option<&str>, goal: &str) -> Result<Frame> {
        let goal = self.detector().redacted(goal);
        self.change_frame(id, |conn, row| frames::set_goal(conn, row, &goal))
    }

    /// Add artifacts (paths or globs, relative to the root or absolute
    /// inside it) to frame `id` (default: the current frame).
    pub fn add_frame_artifacts(&mut self, id: Option<&str>, paths: &[String]) -> Result<Frame> {
        let paths =
            paths.iter().map(|p| Ok(self.detector().redacted(&self.key(p)?))).collect::<Result<Vec<_>>>()?;
        self.change_frame(id, |conn, row| frames::add_artifacts(conn, row, &paths).map(|_| ()))
    }

    /// Log a decision on frame `id` (default: the current frame).
    pub fn add_frame_decision(&mut self, id: Option<&str>, decision: &NewDecision) -> Result<Decision> {
        let decision = decision.redacted(self.detector());
        self.author(|conn| {
            let row = frames::target(conn, id)?;
            frames::add_decision(conn, &row, &decision)
        })
    }

    /// Frame `id` (default: the current frame) with its ancestors,
    /// subframes, decisions and attempts.
    pub fn frame(&self, id: Option<&str>) -> Result<FrameDetail> {
        let tx = self.store.conn.unchecked_transaction()?;
        let row = frames::target(&tx, id)?;
        frames::detail(&tx, &row)
    }

    /// The current frame: the in-progress frame pushed or started last.
    pub fn current_frame(&self) -> Result<Option<Frame>> {
        let tx = self.store.conn.unchecked_transaction()?;
        match frames::current(&tx)? {
            Some(node_id) => Ok(Some(frames::frame(&tx, &frames::by_node(&tx, node_id)?)?)),
            None => Ok(None),
        }
    }

    /// The frames under `root` (every top-level frame when `None`), `depth` levels deep at most.
    pub fn frame_tree(&self, root: Option<&str>, depth: Option<usize>) -> Result<Vec<FrameTree>> {
        let tx = self.store.conn.unchecked_transaction()?;
        frames::tree(&tx, root, depth)
    }

    /// Add a planned task (or, with type `epic`, an epic) under `new.epic`.
    pub fn add_task(&mut self, new: &NewTask) -> Result<Frame> {
        let new = new.redacted(self.detector());
        self.author(|conn| frames::add_task(conn, &new).and_then(|row| frames::frame(conn, &row)))
    }

    /// Start (or retry) task `id`: it is in progress and the current frame.
    pub fn start_task(&mut self, id: &str) -> Result<Frame> {
        self.change_frame(Some(id), frames::start)
    }

    /// Mark task `id` completed, with what was done.
    pub fn finish_task(&mut self, id: &str, summary: Option<&str>) -> Result<Frame> {
        let summary = summary.map(|summary| self.detector().redacted(summary));
        self.change_frame(Some(id), |conn, row| frames::done(conn, row, summary.as_deref()))
    }

    /// Record a failed attempt at task `id` and mark it failed; its next
    /// prompt carries the attempt.
    pub fn fail_task(&mut self, id: &str, attempt: &NewAttempt) -> Result<Frame> {
        let attempt = attempt.redacted(self.detector());
        self.change_frame(Some(id), |conn, row| frames::fail(conn, row, &attempt, None))
    }

    /// Tasks and epics, or the children of `filter.epic`, in the order they were added.
    pub fn tasks(&self, filter: &TaskFilter) -> Result<Vec<Frame>> {
        let tx = self.store.conn.unchecked_transaction()?;
        frames::list(&tx, filter)
    }

    /// The context of frame `id` (default: the current frame) in
    /// `rendering`, within the token budget; from the cache when nothing it
    /// depends on changed within the TTL. See [`crate::assemble`].
    pub fn frame_context(&self, id: Option<&str>, rendering: Rendering) -> Result<AssembledContext> {
        let now_ms = crate::time::unix_nanos(std::time::SystemTime::now()) / 1_000_000;
        self.frame_context_at(id, rendering, now_ms)
    }

    /// The cub task prompt of task `id`: [`Workspace::frame_context`] in [`Rendering::Prompt`].
    pub fn task_prompt(&self, id: &str) -> Result<AssembledContext> {
        self.frame_context(Some(id), Rendering::Prompt)
    }

    /// [`Workspace::frame_context`] as if it were `now_ms` (milliseconds since the epoch).
    pub fn frame_context_at(
        &self,
        id: Option<&str>,
        rendering: Rendering,
        now_ms: i64,
    ) -> Result<AssembledContext> {
        let (budget, budget_sources) = Budget::from_env(&self.config.budget)?;
        // Compiled only on a miss: a hit needs their digest alone.
        let templates =
            Sources::read(&self.ctx_dir().join(TEMPLATES_DIR), &assemble::templates_of(rendering))?;
        let tok = self.config.build.tokenizer.get();
        let min_sibling_score = self.config.selection.min_sibling_score;
        let settings_digest = format!(
            "{budget:?}|{budget_sources:?}|{min_sibling_score}|{}|{}",
            templates.digest(),
            tok.name()
        );
        let cache_config = &self.config.cache;
        let ttl_ms = i64::try_from(cache_config.ttl_seconds.saturating_mul(1000)).unwrap_or(i64::MAX);
        let mut cache_report = CacheReport {
            ttl_seconds: cache_config.ttl_seconds,
            max_entries: cache_config.max_entries,
            ..Default::default()
        };

        let conn = &self.store.conn;
        let tx = conn.unchecked_transaction()?;
        let focus = frames::target(&tx, id)?;
        let hash = cache::state_hash(&tx, &focus, rendering, &settings_digest)?;
        let key = cache::Key { node_id: focus.node_id, rendering, hash: &hash };
        let hit = if ttl_ms > 0 { cache::lookup(&tx, &key, now_ms, ttl_ms)? } else { None };
        let inputs = if hit.is_none() { Some(Inputs::load(&tx, &focus, now_ms)?) } else { None };
        cache_report.entries = cache::entries(&tx)?;
        tx.commit()?;

        let (text, report) = match (hit, inputs) {
            (Some(hit), _) => {
                cache::mark_used(conn, &key, hit.used_ms, now_ms);
                cache_report.hit = true;
                cache_report.age_ms = Some(hit.age_ms);
                (hit.text, hit.report)
            }
            (None, inputs) => {
                let inputs = inputs.unwrap_or_default();
                let templates = templates.compile()?;
                let settings =
                    Settings { budget, budget_sources, min_sibling_score, tok, templates: &templates };
                let (text, report) = assemble::assemble(&inputs, rendering, &settings)?;
                if ttl_ms > 0 && cache::store(conn, &key, &text, &report, now_ms, cache_config) {
                    cache_report.stored = true;
                    cache_report.entries = cache::entries(conn)?;
                }
                (text, report)
            }
        };
        Ok(AssembledContext { frame: focus.id(), rendering, text, report, cache: cache_report })
    }

    /// Remove the cached context of frame `id` (every entry when `None`); how many entries went.
    pub fn clear_context_cache(&self, id: Option<&str>) -> Result<usize> {
        let node_id = id.map(|id| frames::by_id(&self.store.conn, id)).transpose()?.map(|row| row.node_id);
        cache::clear(&self.store.conn, node_id)
    }

    /// Change frame `id` (default: the current frame) in one write transaction; the frame after.
    fn change_frame(
        &mut self,
        id: Option<&str>,
        change: impl FnOnce(&rusqlite::Connection, &FrameRow) -> Result<()>,
    ) -> Result<Frame> {
        let row = self.author(|conn| {
            let row = frames::target(conn, id)?;
            change(conn, &row)?;
            Ok(row)
        })?;
        self.frame_of(&row)
    }

    /// The frame `row` is, as it is now (after a change).
    fn frame_of(&self, row: &FrameRow) -> Result<Frame> {
        let tx = self.store.conn.unchecked_transaction()?;
        frames::frame(&tx, &frames::by_node(&tx, row.node_id)?)
    }

    /// Run `f` in a write transaction: all of it lands, or none of it.
    fn write<T>(&mut self, f: impl FnOnce(&rusqlite::Connection) -> Result<T>) -> Result<T> {
        write_in(&mut self.store.conn, f)
    }

    /// Run `f`, a change to what people and agents author, in a write
    /// transaction with the knowledge files synced around it: files changed
    /// on disk are read in first (so the change builds on them, and never
    /// overwrites a hand edit), and the files of what changed are written
    /// before the commit (see [`knowledge`]). A workspace in the cache
    /// directory has no knowledge files.
    fn author<T>(&mut self, f: impl FnOnce(&rusqlite::Connection) -> Result<T>) -> Result<T> {
        if self.cached {
            return self.write(f);
        }
        let ctx_dir = self.ctx_dir();
        let detector = detector_of(&self.config.secrets, &self.detector);
        write_in(&mut self.store.conn, |conn| {
            let mut report = KnowledgeReport::default();
            knowledge::sync_in(conn, &ctx_dir, detector, &mut report)?;
            let value = f(conn)?;
            knowledge::sync_out(conn, &ctx_dir, &mut report)?;
            Ok(value)
        })
    }

    /// [`Workspace::author`] for changes that also read the workspace (its
    /// root, configuration, secret detector): the artifacts' operations.
    pub(crate) fn author_in<T>(
        &mut self,
        f: impl FnOnce(&rusqlite::Connection, &Authoring<'_>) -> Result<T>,
    ) -> Result<T> {
        let ctx_dir = self.ctx_dir();
        let cached = self.cached;
        let detector = detector_of(&self.config.secrets, &self.detector);
        let site = Authoring { root: &self.root, config: &self.config, detector };
        write_in(&mut self.store.conn, |conn| {
            if cached {
                return f(conn, &site);
            }
            let mut report = KnowledgeReport::default();
            knowledge::sync_in(conn, &ctx_dir, site.detector, &mut report)?;
            let value = f(conn, &site)?;
            knowledge::sync_out(conn, &ctx_dir, &mut report)?;
            Ok(value)
        })
    }

    /// Bring the store and the knowledge files in line (see [`knowledge`]):
    /// what changed on disk is read in, what changed in the store is written out.
    pub fn sync_knowledge(&mut self) -> Result<KnowledgeReport> {
        if self.cached {
            return Ok(KnowledgeReport::default());
        }
        let ctx_dir = self.ctx_dir();
        let detector = detector_of(&self.config.secrets, &self.detector);
        write_in(&mut self.store.conn, |conn| knowledge::sync(conn, &ctx_dir, detector))
    }
}

/// What a change made through [`Workspace::author_in`] reads of the workspace.
pub(crate) struct Authoring<'a> {
    pub root: &'a Path,
    pub config: &'a Config,
    pub detector: &'a Detector,
}

/// Run `f` in a write transaction on `conn`: all of it lands, or none of it.
fn write_in<T>(
    conn: &mut rusqlite::Connection,
    f: impl FnOnce(&rusqlite::Connection) -> Result<T>,
) -> Result<T> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let before = tx.total_changes();
    let value = f(&tx)?;
    // A commit of nothing still makes SQLite write and sync its log (and
    // fold it back on close): what changed nothing is rolled back instead.
    if tx.total_changes() != before {
        tx.commit()?;
    }
    Ok(value)
}

/// The detector for `config`: the shared built-in one when the
/// configuration adds nothing, else made once in `cell`.
fn detector_of<'a>(config: &SecretsConfig, cell: &'a OnceLock<Detector>) -> &'a Detector {
    if config == &SecretsConfig::default() {
        return Detector::builtin();
    }
    cell.get_or_init(|| Detector::new(config))
}

/// `path` with its longest existing ancestor canonicalized and the rest
/// (which does not exist, or cannot be resolved) appended as it is.
fn canonicalize_existing_prefix(path: &Path) -> PathBuf {
    path.ancestors()
        .find_map(|ancestor| {
            let real = std::fs::canonicalize(ancestor).ok()?;
            Some(real.join(path.strip_prefix(ancestor).ok()?))
        })
        .unwrap_or_else(|| path.to_path_buf())
}

fn canonical_dir(path: &Path) -> Result<PathBuf> {
    let canonical = std::fs::canonicalize(path).map_err(|err| Error::io(path, err))?;
    if !canonical.is_dir() {
        return Err(Error::InvalidInput(format!("{}: not a directory", path.display())));
    }
    Ok(canonical)
}
