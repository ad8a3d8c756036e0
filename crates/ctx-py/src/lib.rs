//! `ctxkeep._ctx`: the native half of the `ctxkeep` Python package.
//!
//! A thin wrapper over ctxkeep-core: arguments are converted, the GIL is released
//! while the engine works, and results come back as plain dicts and lists
//! (the same JSON shapes the CLI prints with `--json`). Errors are mapped to
//! Python exceptions in one place, [`to_py_err`].

mod artifact;
mod convert;
mod embedder;
mod functions;

use std::path::PathBuf;
use std::sync::Mutex;

use convert::{
    invalid, json_to_py, map_err, parse_choice, parse_rendering, parse_status, parse_tier, to_py, to_py_err,
};
use ctxkeep_core::{
    BuildMode, BuildOptions, FolderEdit, HashedNgrams, NewArtifact, NewAttempt, NewDecision, NewFrame,
    NewRecord, NewTask, SearchMode, SearchOptions, SearchScope, TaskFilter, TimelineSession, TimelineThread,
    ViewOptions, Workspace as CoreWorkspace,
};
use embedder::PyEmbedder;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// A ctx workspace: a repository root with a `.ctx/` folder.
///
/// `Workspace(path)` never touches the disk; `init()` creates `.ctx/` in
/// `path`, and every other method opens the workspace whose `.ctx/` is in
/// `path` or its nearest ancestor.
#[pyclass(module = "ctxkeep._ctx")]
struct Workspace {
    path: PathBuf,
    /// Opened on first use, then kept for the object's life.
    inner: Mutex<Option<CoreWorkspace>>,
}

#[pymethods]
impl Workspace {
    #[new]
    fn new(path: PathBuf) -> Self {
        Workspace { path, inner: Mutex::new(None) }
    }

    /// The path this workspace was created with.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// The repository root (canonical), opening the workspace if needed.
    #[getter]
    fn root(&self, py: Python<'_>) -> PyResult<PathBuf> {
        self.with(py, |ws| Ok(ws.root().to_path_buf()))
    }

    /// Create `.ctx/` in `path` (idempotent) and return what was created.
    fn init<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let path = self.path.clone();
        let (ws, report) = py.detach(|| CoreWorkspace::init(&path)).map_err(to_py_err)?;
        *self.lock() = Some(ws);
        to_py(py, &report)
    }

    /// ctx's section in AGENTS.md, CLAUDE.md (`[agents] files`), the prompts
    /// of `.ctx/` and `.ctx/map.md`, as `ctx update --json` reports them.
    /// `check=True` writes nothing and never opens the database (see
    /// `up_to_date`); `repair=True` fixes broken markers.
    #[pyo3(signature = (*, check=false, repair=false))]
    fn update<'py>(&self, py: Python<'py>, check: bool, repair: bool) -> PyResult<Bound<'py, PyAny>> {
        if check && repair {
            return Err(invalid("check and repair cannot go together".into()));
        }
        let options = ctxkeep_core::UpdateOptions { check, repair };
        let report = if check {
            let path = self.path.clone();
            py.detach(|| {
                ctxkeep_core::agents::update(&ctxkeep_core::agents::workspace_root(&path, true)?, &options)
            })
            .map_err(to_py_err)?
        } else {
            self.with(py, |ws| Ok(ctxkeep_map::update(ws, &options)))?.map_err(map_err)?
        };
        to_py(py, &report)
    }

    /// Bring the store up to date with the files on disk.
    fn scan<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let report = self.with(py, |ws| ws.scan())?;
        to_py(py, &report)
    }

    /// Counts, stale folders and the last scan time.
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let status = self.with(py, |ws| ws.status())?;
        to_py(py, &status)
    }

    /// Everything known about a folder (a repository-relative path, `.` for the root).
    fn folder<'py>(&self, py: Python<'py>, path: &str) -> PyResult<Bound<'py, PyAny>> {
        let folder = self.with(py, |ws| ws.folder(path))?;
        to_py(py, &folder)
    }

    /// Write a folder's one-line description and/or long-form markdown content.
    #[pyo3(signature = (path, *, description=None, content=None))]
    fn describe<'py>(
        &self,
        py: Python<'py>,
        path: &str,
        description: Option<String>,
        content: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let edit = FolderEdit { description, content_md: content };
        let folder = self.with(py, |ws| ws.describe_folder(path, &edit))?;
        to_py(py, &folder)
    }

    /// Mark a folder as a scope (its description heads its descendants' context), or unmark it.
    fn set_scope<'py>(&self, py: Python<'py>, path: &str, is_scope: bool) -> PyResult<Bound<'py, PyAny>> {
        let folder = self.with(py, |ws| ws.set_scope(path, is_scope))?;
        to_py(py, &folder)
    }

    /// Relate a folder to another one (a related scope in its context); replaces the note.
    #[pyo3(signature = (path, other, *, note=None))]
    fn relate<'py>(
        &self,
        py: Python<'py>,
        path: &str,
        other: &str,
        note: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let folder = self.with(py, |ws| ws.relate(path, other, note))?;
        to_py(py, &folder)
    }

    /// Remove the relation from `path` to `other`.
    fn unrelate<'py>(&self, py: Python<'py>, path: &str, other: &str) -> PyResult<Bound<'py, PyAny>> {
        let folder = self.with(py, |ws| ws.unrelate(path, other))?;
        to_py(py, &folder)
    }

    /// Log a decision on a folder.
    #[pyo3(signature = (path, title, *, rationale=String::new(), tags=Vec::new()))]
    fn log_decision<'py>(
        &self,
        py: Python<'py>,
        path: &str,
        title: String,
        rationale: String,
        tags: Vec<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let new = NewDecision { title, rationale, tags };
        let decision = self.with(py, |ws| ws.log_decision(path, &new))?;
        to_py(py, &decision)
    }

    /// Decisions on one folder, or all of them, newest first.
    #[pyo3(signature = (path=None))]
    fn decisions<'py>(&self, py: Python<'py>, path: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        let decisions = self.with(py, |ws| ws.decisions(path))?;
        to_py(py, &decisions)
    }

    /// Write the stale context files (inputs changed, missing or edited;
    /// `mode="force"`: every file). `paths` limits the folders, `tiers` the tiers.
    #[pyo3(signature = (paths=None, *, mode="stale", tiers=None))]
    fn build<'py>(
        &self,
        py: Python<'py>,
        paths: Option<Vec<String>>,
        mode: &str,
        tiers: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mode = match mode {
            // "changed" was the default's name before 0.1's release; kept as an alias.
            "stale" | "changed" => BuildMode::Stale,
            "force" => BuildMode::Force,
            other => return Err(invalid(format!("{other:?}: the modes are stale, force"))),
        };
        let tiers = tiers.unwrap_or_default().iter().map(|t| parse_tier(t)).collect::<PyResult<_>>()?;
        let options = BuildOptions { folders: paths.unwrap_or_default(), mode, tiers };
        let report = self.with(py, |ws| Ok(ctxkeep_map::outline::build(ws, &options)))?.map_err(map_err)?;
        to_py(py, &report)
    }

    /// A folder's context file as the build would write it (`text`, `tokens`,
    /// `doc`), rendered from the database; nothing is written.
    #[pyo3(signature = (path=".", tier="standard"))]
    fn context<'py>(&self, py: Python<'py>, path: &str, tier: &str) -> PyResult<Bound<'py, PyAny>> {
        let tier = parse_tier(tier)?;
        let rendered = self.with(py, |ws| ws.context(path, tier))?;
        to_py(py, &rendered)
    }

    /// Compare `.ctx/context/` with the database: `ok`, and the missing,
    /// stale, edited and orphaned files.
    fn validate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let report = self.with(py, |ws| ws.validate())?;
        to_py(py, &report)
    }

    /// Scan, then list the secrets in the files at or below folder `path`
    /// (every file when `None`): path, line, column, rule and fingerprint,
    /// never the value; and the files hidden whole.
    #[pyo3(signature = (path=None))]
    fn secrets_scan<'py>(&self, py: Python<'py>, path: Option<String>) -> PyResult<Bound<'py, PyAny>> {
        let report = self.with(py, |ws| {
            ws.scan()?;
            ws.secrets_scan(path.as_deref())
        })?;
        to_py(py, &report)
    }

    /// `text` with every secret the workspace's detector finds replaced by
    /// `[REDACTED:<rule>]` (what ctx does to everything it stores).
    fn redact(&self, py: Python<'_>, text: String) -> PyResult<String> {
        self.with(py, |ws| Ok(ws.detector().redacted(&text)))
    }

    /// Folders nobody has described yet, deepest first, with what their files say.
    fn todo<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let todo = self.with(py, |ws| ws.todo())?;
        to_py(py, &todo)
    }

    /// Push a frame (under `parent`: default the current frame, `"none"` the top) and make
    /// it current. `title` defaults to the goal's first line, `type` to `frame`.
    #[pyo3(signature = (goal, *, title=None, parent=None, r#type=None))]
    fn push_frame<'py>(
        &self,
        py: Python<'py>,
        goal: String,
        title: Option<String>,
        parent: Option<String>,
        r#type: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let new = NewFrame { goal, title, parent, frame_type: r#type };
        let frame = self.with(py, |ws| ws.push_frame(&new))?;
        to_py(py, &frame)
    }

    /// End work on frame `id` (default: the current frame) as `completed`,
    /// `failed` (recorded as an attempt, the summary its reason) or `blocked`;
    /// its parent is current again if it is still in progress.
    #[pyo3(signature = (id=None, *, status="completed", summary=None))]
    fn pop_frame<'py>(
        &self,
        py: Python<'py>,
        id: Option<&str>,
        status: &str,
        summary: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let status = parse_status(status)?;
        let frame = self.with(py, |ws| ws.pop_frame(id, status, summary))?;
        to_py(py, &frame)
    }

    /// Replace the goal of `frame` (default: the current frame).
    #[pyo3(signature = (goal, *, frame=None))]
    fn set_frame_goal<'py>(
        &self,
        py: Python<'py>,
        goal: &str,
        frame: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let frame = self.with(py, |ws| ws.set_frame_goal(frame, goal))?;
        to_py(py, &frame)
    }

    /// Add artifacts (repository-relative paths or globs, or absolute paths
    /// inside the root) to `frame` (default: the current frame).
    #[pyo3(signature = (paths, *, frame=None))]
    fn add_artifacts<'py>(
        &self,
        py: Python<'py>,
        paths: Vec<String>,
        frame: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let frame = self.with(py, |ws| ws.add_frame_artifacts(frame, &paths))?;
        to_py(py, &frame)
    }

    /// Log a decision on `frame` (default: the current frame).
    #[pyo3(signature = (title, *, frame=None, rationale=String::new(), tags=Vec::new()))]
    fn add_frame_decision<'py>(
        &self,
        py: Python<'py>,
        title: String,
        frame: Option<&str>,
        rationale: String,
        tags: Vec<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let new = NewDecision { title, rationale, tags };
        let decision = self.with(py, |ws| ws.add_frame_decision(frame, &new))?;
        to_py(py, &decision)
    }

    /// Frame `id` (default: the current frame) with its ancestors (root
    /// first), subframes, decisions and attempts.
    #[pyo3(signature = (id=None))]
    fn frame<'py>(&self, py: Python<'py>, id: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        let detail = self.with(py, |ws| ws.frame(id))?;
        to_py(py, &detail)
    }

    /// The current frame (the in-progress frame pushed or started last), or `None`.
    fn current_frame<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let frame = self.with(py, |ws| ws.current_frame())?;
        to_py(py, &frame)
    }

    /// The frames under `root` (every top-level frame when `None`), `depth` levels deep at most.
    #[pyo3(signature = (root=None, *, depth=None))]
    fn frame_tree<'py>(
        &self,
        py: Python<'py>,
        root: Option<&str>,
        depth: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let tree = self.with(py, |ws| ws.frame_tree(root, depth))?;
        to_py(py, &tree)
    }

    /// Add a planned task under `epic` (`type="epic"`: an epic). Its goal is
    /// the description, or the title when there is none.
    #[pyo3(signature = (title, *, epic=None, description=None, criteria=None, r#type=None))]
    fn add_task<'py>(
        &self,
        py: Python<'py>,
        title: String,
        epic: Option<String>,
        description: Option<String>,
        criteria: Option<Vec<String>>,
        r#type: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let new =
            NewTask { title, epic, description, criteria: criteria.unwrap_or_default(), task_type: r#type };
        let task = self.with(py, |ws| ws.add_task(&new))?;
        to_py(py, &task)
    }

    /// Start (or retry) task `id`: it is in progress and the current frame.
    fn start_task<'py>(&self, py: Python<'py>, id: &str) -> PyResult<Bound<'py, PyAny>> {
        let task = self.with(py, |ws| ws.start_task(id))?;
        to_py(py, &task)
    }

    /// Mark task `id` completed, with what was done.
    #[pyo3(signature = (id, *, summary=None))]
    fn finish_task<'py>(
        &self,
        py: Python<'py>,
        id: &str,
        summary: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let task = self.with(py, |ws| ws.finish_task(id, summary))?;
        to_py(py, &task)
    }

    /// Record a failed attempt at task `id` and mark it failed; its next
    /// prompt carries the reason, the observations and what to avoid.
    #[pyo3(signature = (id, *, reason, observations=None, avoid=None))]
    fn fail_task<'py>(
        &self,
        py: Python<'py>,
        id: &str,
        reason: String,
        observations: Option<Vec<String>>,
        avoid: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let attempt = NewAttempt {
            reason,
            observations: observations.unwrap_or_default(),
            avoid: avoid.unwrap_or_default(),
        };
        let task = self.with(py, |ws| ws.fail_task(id, &attempt))?;
        to_py(py, &task)
    }

    /// Tasks and epics (or the children of `epic`), in the order they were
    /// added; `status` keeps only those in that status.
    #[pyo3(signature = (*, epic=None, status=None))]
    fn tasks<'py>(
        &self,
        py: Python<'py>,
        epic: Option<String>,
        status: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let filter = TaskFilter { epic, status: status.map(parse_status).transpose()? };
        let tasks = self.with(py, |ws| ws.tasks(&filter))?;
        to_py(py, &tasks)
    }

    /// The context of frame `id` (default: the current frame) within the
    /// token budget, as `format` (xml, md, json or prompt): `text`, `report`,
    /// `cache`, `frame`, `rendering`. Served from the cache while nothing it
    /// was made from changed.
    #[pyo3(signature = (id=None, *, format="xml"))]
    fn frame_context<'py>(
        &self,
        py: Python<'py>,
        id: Option<&str>,
        format: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let rendering = parse_rendering(format)?;
        let context = self.with(py, |ws| ws.frame_context(id, rendering))?;
        to_py(py, &context)
    }

    /// The task prompt of task `id`: `frame_context(id, format="prompt")`.
    fn task_prompt<'py>(&self, py: Python<'py>, id: &str) -> PyResult<Bound<'py, PyAny>> {
        let context = self.with(py, |ws| ws.task_prompt(id))?;
        to_py(py, &context)
    }

    /// Remove the cached context of frame `id` (every entry when `None`);
    /// returns how many entries went.
    #[pyo3(signature = (id=None))]
    fn clear_cache(&self, py: Python<'_>, id: Option<&str>) -> PyResult<usize> {
        self.with(py, |ws| ws.clear_context_cache(id))
    }

    /// Add a session record (`type`: query, response, artifact, tool_output,
    /// note; `role`: user, assistant, tool, unknown); returns it with its `H-` id.
    #[pyo3(signature = (r#type, text, *, role=None, refs=None, tags=None, session=None))]
    #[allow(clippy::too_many_arguments)]
    fn add_record<'py>(
        &self,
        py: Python<'py>,
        r#type: String,
        text: String,
        role: Option<String>,
        refs: Option<Vec<String>>,
        tags: Option<Vec<String>>,
        session: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let new = NewRecord {
            record_type: r#type,
            role,
            text,
            refs: refs.unwrap_or_default(),
            tags: tags.unwrap_or_default(),
            session_id: session,
            ..Default::default()
        };
        let record = self.with(py, |ws| ws.add_record(&new))?;
        to_py(py, &record)
    }

    /// Add the records of a JSONL file (ctx records, a Claude Code
    /// transcript or a Codex CLI rollout); records already there are not added again.
    fn ingest<'py>(&self, py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyAny>> {
        let report = self.with(py, |ws| {
            let file = std::fs::File::open(&path)
                .map_err(|err| ctxkeep_core::Error::Io { path: path.clone(), source: err })?;
            ws.ingest(&mut std::io::BufReader::new(file), &path.display().to_string())
        })?;
        to_py(py, &report)
    }

    /// Ingest the lines of the transcript at `path` added since the last
    /// call for it (a cursor per transcript, kept in the store): only
    /// complete lines; a rewritten or truncated file is read again from the
    /// start, adding nothing twice; an unchanged one costs a `stat`. What
    /// `ctx hook Stop` does; for a harness of your own.
    fn ingest_transcript<'py>(&self, py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyAny>> {
        let report = self.with(py, |ws| ws.ingest_transcript(&path, None))?;
        to_py(py, &report)
    }

    /// The record with id `id` (`{id, ts, role, type, refs, text, tags, session_id}`).
    fn record<'py>(&self, py: Python<'py>, id: &str) -> PyResult<Bound<'py, PyAny>> {
        let record = self.with(py, |ws| ws.record(id))?;
        to_py(py, &record)
    }

    /// The L0 rows around record `id` in time order (`session`: an id or
    /// `"all"`; default the anchor's session; `thread`: `anchor` (the
    /// anchor's: the main thread or its subagent), `main`, `subagents`, `all`).
    #[pyo3(signature = (id, *, before=3, after=3, session=None, thread="anchor"))]
    fn timeline<'py>(
        &self,
        py: Python<'py>,
        id: &str,
        before: usize,
        after: usize,
        session: Option<String>,
        thread: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let thread = parse_choice(thread, TimelineThread::parse, "threads", "anchor, main, subagents, all")?;
        let session = match session.as_deref() {
            None => TimelineSession::Anchor,
            Some("all") => TimelineSession::All,
            Some(id) => TimelineSession::Id(id.to_string()),
        };
        let timeline = self.with(py, |ws| ws.timeline_in(id, before, after, &session, &thread))?;
        to_py(py, &timeline)
    }

    /// Record `id` as the contract's L2 object, its JSON within `head` characters when
    /// given, 72 at least (the tiny `budget_too_small` object when nothing else fits).
    #[pyo3(signature = (id, *, head=None))]
    fn get<'py>(&self, py: Python<'py>, id: &str, head: Option<usize>) -> PyResult<Bound<'py, PyAny>> {
        let text = self.with(py, |ws| ws.record_json(id, head))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|err| PyRuntimeError::new_err(err.to_string()))?;
        json_to_py(py, &value)
    }

    /// Move session records older than `older_than_seconds` to the archive pool; how many moved.
    fn archive(&self, py: Python<'_>, older_than_seconds: f64) -> PyResult<usize> {
        if !(older_than_seconds.is_finite() && older_than_seconds >= 0.0) {
            return Err(invalid(format!("{older_than_seconds}: a number of seconds, 0 or more")));
        }
        let older_than = std::time::Duration::from_secs_f64(older_than_seconds);
        self.with(py, |ws| ws.archive(older_than))
    }

    /// The L1 pack (`{layer, text, tokens, threshold, mode, sections, stored}`)
    /// within `tokens` (default `[pack] tokens`).
    #[pyo3(signature = (tokens=None))]
    fn pack<'py>(&self, py: Python<'py>, tokens: Option<usize>) -> PyResult<Bound<'py, PyAny>> {
        let pack = self.with(py, |ws| ws.pack(tokens))?;
        to_py(py, &pack)
    }

    /// Pin a text: every pack shows it first. Returns the pin's record.
    fn pin<'py>(&self, py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
        let record = self.with(py, |ws| ws.pin(text))?;
        to_py(py, &record)
    }

    /// Remove the pin `id`.
    fn unpin(&self, py: Python<'_>, id: &str) -> PyResult<()> {
        self.with(py, |ws| ws.unpin(id))
    }

    /// The pins, newest first.
    fn pins<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pins = self.with(py, |ws| ws.pins())?;
        to_py(py, &pins)
    }

    /// L0 rows of the records matching `query` (words, "phrases", prefix*), best first.
    /// `embedder` (an object with a `name` and an `embed(texts)` method)
    /// serves the vector channel instead of the configured one. `types`
    /// (any of), `tags` (all of; `!tag`: without it), `since` and `until`
    /// (RFC 3339 in UTC, `YYYY-MM-DD`, or a duration ago such as `7d`)
    /// filter the records inside the search.
    #[pyo3(signature = (query, *, k=10, scope="all", session=None, mode="lexical", embedder=None, types=None, tags=None, since=None, until=None))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments
    fn search<'py>(
        &self,
        py: Python<'py>,
        query: String,
        k: usize,
        scope: &str,
        session: Option<String>,
        mode: &str,
        embedder: Option<Bound<'py, PyAny>>,
        types: Option<Vec<String>>,
        tags: Option<Vec<String>>,
        since: Option<String>,
        until: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let options = SearchOptions {
            query,
            k,
            scope: parse_choice(scope, SearchScope::parse, "scopes", "all, hot, archive")?,
            session,
            mode: parse_choice(mode, SearchMode::parse, "modes", "lexical, vector, hybrid")?,
            types: types.unwrap_or_default(),
            tags: tags.unwrap_or_default(),
            since,
            until,
        };
        let response = match embedder.map(PyEmbedder::new).transpose()? {
            Some(embedder) => self.with(py, |ws| ws.search_with(&options, &embedder))?,
            None => self.with(py, |ws| ws.search(&options))?,
        };
        to_py(py, &response)
    }

    /// Embed every record that has no vector of `embedder`'s yet (the
    /// built-in embedder when None); how many were embedded.
    #[pyo3(signature = (embedder=None))]
    fn embed_records(&self, py: Python<'_>, embedder: Option<Bound<'_, PyAny>>) -> PyResult<usize> {
        match embedder.map(PyEmbedder::new).transpose()? {
            Some(embedder) => self.with(py, |ws| ws.embed_records(&embedder)),
            None => self.with(py, |ws| ws.embed_records(&HashedNgrams)),
        }
    }

    /// Add the Markdown file `path` (repository-relative, or absolute inside
    /// the root) as an artifact; its view. `slug` defaults to the file's
    /// name without `.md`, `stage` to `[artifacts] default_stage`.
    #[pyo3(signature = (path, *, stage=None, slug=None))]
    fn add_artifact<'py>(
        &self,
        py: Python<'py>,
        path: PathBuf,
        stage: Option<String>,
        slug: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let path =
            path.to_str().ok_or_else(|| invalid(format!("{}: not UTF-8", path.display())))?.to_string();
        let new = NewArtifact { path, slug, stage };
        let view = self.with(py, |ws| ws.add_artifact(&new))?;
        to_py(py, &view)
    }

    /// Every artifact (summaries), by slug.
    fn artifacts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let list = self.with(py, |ws| ws.artifacts())?;
        to_py(py, &list)
    }

    /// Artifact `slug`: its sections' metadata; `content=True` adds the whole
    /// file, `sections` the content of those sections (slugs).
    #[pyo3(signature = (slug, *, content=false, sections=None))]
    fn artifact<'py>(
        &self,
        py: Python<'py>,
        slug: &str,
        content: bool,
        sections: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let options = ViewOptions { content, sections: sections.unwrap_or_default() };
        let view = self.with(py, |ws| ws.artifact(slug, &options))?;
        to_py(py, &view)
    }

    /// The project: name, description, current stage and the progress of each stage.
    fn artifact_project<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let project = self.with(py, |ws| ws.artifact_project())?;
        to_py(py, &project)
    }

    /// Mark artifact `slug` finalized: operations on it are refused unless they override it.
    fn finalize_artifact<'py>(&self, py: Python<'py>, slug: &str) -> PyResult<Bound<'py, PyAny>> {
        let view = self.with(py, |ws| ws.finalize_artifact(slug, true))?;
        to_py(py, &view)
    }

    /// Make artifact `slug` a draft again.
    fn unfinalize_artifact<'py>(&self, py: Python<'py>, slug: &str) -> PyResult<Bound<'py, PyAny>> {
        let view = self.with(py, |ws| ws.finalize_artifact(slug, false))?;
        to_py(py, &view)
    }

    /// Move artifact `slug` to `stage`.
    fn set_artifact_stage<'py>(
        &self,
        py: Python<'py>,
        slug: &str,
        stage: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let view = self.with(py, |ws| ws.set_artifact_stage(slug, stage))?;
        to_py(py, &view)
    }

    /// Collapse section `section` of artifact `slug` (`collapsed=False`:
    /// expand it): a flag for views, the file is unchanged.
    #[pyo3(signature = (slug, section, *, collapsed=true))]
    fn collapse_section<'py>(
        &self,
        py: Python<'py>,
        slug: &str,
        section: &str,
        collapsed: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let view = self.with(py, |ws| ws.set_section_collapsed(slug, section, collapsed))?;
        to_py(py, &view)
    }

    /// Stop tracking artifact `slug` (its state, snapshots and suggestions go; the file stays).
    fn remove_artifact(&self, py: Python<'_>, slug: &str) -> PyResult<()> {
        self.with(py, |ws| ws.remove_artifact(slug))
    }

    /// Apply an operation (`update_section`, `mark_section_done`,
    /// `create_section`, `suggest_edit`), given as a dict or a JSON string
    /// in the shape of docs/schemas/artifact-operation.json.
    /// `override_finalized=True` applies it to a finalized artifact.
    #[pyo3(signature = (op, *, override_finalized=false))]
    fn apply_artifact_operation<'py>(
        &self,
        py: Python<'py>,
        op: &Bound<'py, PyAny>,
        override_finalized: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let json = artifact::operation_json(op)?;
        let mut operation = ctxkeep_core::parse_operation(&json).map_err(to_py_err)?;
        if override_finalized {
            operation.set_override_finalized(true);
        }
        let result = self.with(py, |ws| ws.apply_operation(&operation))?;
        to_py(py, &result)
    }

    /// The suggested edits on artifact `slug` (pending and decided), oldest first.
    fn artifact_suggestions<'py>(&self, py: Python<'py>, slug: &str) -> PyResult<Bound<'py, PyAny>> {
        let suggestions = self.with(py, |ws| ws.artifact_suggestions(slug))?;
        to_py(py, &suggestions)
    }

    /// Accept suggestion `id`: its content, if any, is applied as an
    /// `update_section` with every check of one. The suggestion after.
    #[pyo3(signature = (id, *, override_finalized=false))]
    fn accept_suggestion<'py>(
        &self,
        py: Python<'py>,
        id: &str,
        override_finalized: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let suggestion = self.with(py, |ws| ws.accept_suggestion(id, override_finalized))?;
        to_py(py, &suggestion)
    }

    /// Reject suggestion `id` (nothing is applied), with why.
    #[pyo3(signature = (id, reason=None))]
    fn reject_suggestion<'py>(
        &self,
        py: Python<'py>,
        id: &str,
        reason: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let suggestion = self.with(py, |ws| ws.reject_suggestion(id, reason))?;
        to_py(py, &suggestion)
    }

    /// Artifact `slug`'s snapshots and operations, newest first.
    fn artifact_history<'py>(&self, py: Python<'py>, slug: &str) -> PyResult<Bound<'py, PyAny>> {
        let history = self.with(py, |ws| ws.artifact_history(slug))?;
        to_py(py, &history)
    }

    /// Put artifact `slug` back as snapshot `snapshot` (`S-…`) left it: the
    /// file and the sections' flags. The present is snapshotted first.
    #[pyo3(signature = (slug, snapshot, *, override_finalized=false))]
    fn restore_artifact<'py>(
        &self,
        py: Python<'py>,
        slug: &str,
        snapshot: &str,
        override_finalized: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let result = self.with(py, |ws| ws.restore_artifact(slug, snapshot, override_finalized))?;
        to_py(py, &result)
    }

    /// Whether a view of artifact `slug` an agent holds (its `state_hash`)
    /// still holds: the same state, younger than `max_age` (a timedelta or
    /// seconds; default `[artifacts] max_age_seconds`). `at` (a datetime, an
    /// ISO-8601 string or epoch seconds) is when the view was made; default:
    /// when ctx first showed that state.
    #[pyo3(signature = (slug, state_hash, *, at=None, max_age=None))]
    fn check_artifact<'py>(
        &self,
        py: Python<'py>,
        slug: &str,
        state_hash: &str,
        at: Option<&Bound<'py, PyAny>>,
        max_age: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let at = at.map(artifact::system_time).transpose()?;
        let max_age = max_age.map(artifact::duration).transpose()?;
        let report = self.with(py, |ws| ws.check_artifact(slug, state_hash, at, max_age))?;
        to_py(py, &report)
    }

    /// What the message `text` targets among the artifacts (`@concept#what-is-it …`,
    /// `/research competitive-analysis …`, `#section`, plain words), with
    /// `current` the slug of the artifact `#section` refers to (default: the
    /// one `use_artifact` set): a dict with
    /// `outcome` `resolved` (artifact, section, rest, confidence),
    /// `ambiguous` (candidates) or `not_found` (suggestions). `strict=True`
    /// returns only a resolved target and raises the others
    /// (AmbiguousTargetError, ArtifactNotFoundError, SectionNotFoundError).
    #[pyo3(signature = (text, *, current=None, strict=false))]
    fn resolve_artifact_target<'py>(
        &self,
        py: Python<'py>,
        text: &str,
        current: Option<&str>,
        strict: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let resolution = self.with(py, |ws| ws.resolve_artifact_target(text, current))?;
        if strict && let Some(err) = ctxkeep_core::artifact::resolution_error(text, &resolution) {
            return Err(artifact::to_py_err(&err));
        }
        to_py(py, &resolution)
    }

    /// Make `slug` the current artifact (`None`: none), the one `#section`
    /// and the context and prompts default to; returns the slug set.
    #[pyo3(signature = (slug))]
    fn use_artifact(&self, py: Python<'_>, slug: Option<&str>) -> PyResult<Option<String>> {
        self.with(py, |ws| ws.use_artifact(slug))
    }

    /// The current artifact's slug (see `use_artifact`), or None.
    fn current_artifact(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.with(py, |ws| ws.current_artifact())
    }

    /// The agent context of artifact `slug` (default: the current one) at
    /// `level` (minimal, standard or full): the seed's AgentContext as a
    /// dict, or its Markdown with `format="markdown"`. `sections` are
    /// included whole; `message` is resolved to a section to include;
    /// `tokens` scales the default token allocation; `session` picks the
    /// chat history's session (default: the latest).
    #[pyo3(signature = (slug=None, *, level="standard", sections=None, message=None, tokens=None, session=None, format="json"))]
    #[allow(clippy::too_many_arguments)]
    fn artifact_context<'py>(
        &self,
        py: Python<'py>,
        slug: Option<String>,
        level: &str,
        sections: Option<Vec<String>>,
        message: Option<String>,
        tokens: Option<usize>,
        session: Option<String>,
        format: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let markdown = artifact::markdown_format(format)?;
        let level = artifact::context_level(level)?;
        let sections = sections.unwrap_or_default();
        let request =
            ctxkeep_core::artifact::ContextRequest { slug, level, sections, message, tokens, session };
        let (context, text) = self.with(py, |ws| {
            let context = ws.artifact_context(&request)?;
            let text = if markdown { Some(ws.render_artifact_context(&context)?) } else { None };
            Ok((context, text))
        })?;
        match text {
            Some(text) => Ok(text.into_pyobject(py)?.into_any()),
            None => to_py(py, &context),
        }
    }

    /// A prompt for an agent: `kind="chat"` with the user's message as
    /// `text`, or `kind="research"` with the research query as `text` and
    /// the section to update (default: the one the query targets).
    #[pyo3(signature = (kind, text, *, slug=None, section=None))]
    fn artifact_prompt<'py>(
        &self,
        py: Python<'py>,
        kind: &str,
        text: String,
        slug: Option<String>,
        section: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let request =
            ctxkeep_core::artifact::PromptRequest { kind: artifact::prompt_kind(kind)?, slug, text, section };
        let prompt = self.with(py, |ws| ws.artifact_prompt(&request))?;
        to_py(py, &prompt)
    }

    fn __repr__(&self) -> String {
        format!("Workspace({:?})", self.path.display().to_string())
    }
}

impl Workspace {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<CoreWorkspace>> {
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Run `f` on the open workspace (opening it first), without the GIL.
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut CoreWorkspace) -> ctxkeep_core::Result<T> + Send,
    ) -> PyResult<T> {
        py.detach(|| {
            let mut guard = self.lock();
            let ws = match guard.as_mut() {
                Some(ws) => ws,
                None => guard.insert(CoreWorkspace::discover(&self.path)?),
            };
            f(ws)
        })
        .map_err(to_py_err)
    }
}

#[pymodule]
fn _ctx(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Workspace>()?;
    m.add_function(wrap_pyfunction!(functions::map, m)?)?;
    m.add_function(wrap_pyfunction!(functions::rank, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("SCHEMA_VERSION", ctxkeep_core::SCHEMA_VERSION)?;
    Ok(())
}
