//! `ctxkeep._ctx`: the native half of the `ctxkeep` Python package.
//!
//! A thin wrapper over ctxkeep-core: arguments are converted, the GIL is released
//! while the engine works, and results come back as plain dicts and lists
//! (the same JSON shapes the CLI prints with `--json`). Errors are mapped to
//! Python exceptions in one place, `to_py_err`, in Python's words
//! (`words`). A `Workspace` lives as `state` says: opened on first use,
//! closed by `close()` or the end of a `with` block.

mod artifact;
mod convert;
mod embedder;
mod functions;
mod state;
mod words;

use std::path::PathBuf;
use std::sync::Mutex;

use convert::{
    count, invalid, json_text_to_py, map_err, optional_count, parse_build_mode, parse_choice,
    parse_embedder_failure, parse_rendering, parse_status, parse_tier, seconds, to_py, to_py_err,
};
use ctxkeep_core::{
    BuildOptions, FolderEdit, HashedNgrams, NewArtifact, NewAttempt, NewDecision, NewFrame, NewRecord,
    NewTask, SearchMode, SearchOptions, SearchScope, TaskFilter, TimelineSession, TimelineThread,
    ViewOptions, Workspace as CoreWorkspace,
};
use embedder::PyEmbedder;
use pyo3::prelude::*;

/// A ctx workspace: a repository root with a `.ctx/` folder.
///
/// `Workspace(path)` never touches the disk; `init()` creates `.ctx/` in
/// `path`, and every other method opens the workspace whose `.ctx/` is in
/// `path` or its nearest ancestor. `Workspace.open(path)` opens it at once.
/// `close()` (or the end of a `with` block) closes its database; every
/// method after raises `WorkspaceClosedError`.
#[pyclass(module = "ctxkeep._ctx")]
struct Workspace {
    path: PathBuf,
    state: Mutex<state::State>,
}

#[pymethods]
impl Workspace {
    #[new]
    fn new(path: PathBuf) -> Self {
        Workspace::with_state(path, state::State::Unopened)
    }

    /// The workspace whose `.ctx/` is in `path` or its nearest ancestor,
    /// opened now: `NotAWorkspaceError` at once when there is none.
    #[classmethod]
    #[pyo3(signature = (path=PathBuf::from(".")), text_signature = "(path='.')")]
    fn open(_class: &Bound<'_, pyo3::types::PyType>, py: Python<'_>, path: PathBuf) -> PyResult<Workspace> {
        let ws = py.detach(|| CoreWorkspace::discover(&path)).map_err(to_py_err)?;
        Ok(Workspace::with_state(path, state::State::Open(Box::new(ws))))
    }

    /// Close the workspace's database (after a call running on it ends);
    /// closing again does nothing.
    fn close(&self, py: Python<'_>) {
        self.close_now(py);
    }

    /// Whether `close()` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.is_closed()
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Close; exceptions of the block go on.
    fn __exit__(
        &self,
        py: Python<'_>,
        exc_type: Option<Bound<'_, PyAny>>,
        exc_value: Option<Bound<'_, PyAny>>,
        traceback: Option<Bound<'_, PyAny>>,
    ) {
        let _ = (exc_type, exc_value, traceback);
        self.close_now(py);
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
        let report = self.init_open(py, || CoreWorkspace::init(&self.path))?;
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
            if self.is_closed() {
                return Err(state::closed());
            }
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
        self.json(py, |ws| ws.scan())
    }

    /// Counts, stale folders and the last scan time.
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.status())
    }

    /// Everything known about a folder (a repository-relative path, `.` for the root).
    fn folder<'py>(&self, py: Python<'py>, path: &str) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.folder(path))
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
        self.json(py, |ws| ws.describe_folder(path, &edit))
    }

    /// Mark a folder as a scope (its description heads its descendants' context), or unmark it.
    fn set_scope<'py>(&self, py: Python<'py>, path: &str, is_scope: bool) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.set_scope(path, is_scope))
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
        self.json(py, |ws| ws.relate(path, other, note))
    }

    /// Remove the relation from `path` to `other`.
    fn unrelate<'py>(&self, py: Python<'py>, path: &str, other: &str) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.unrelate(path, other))
    }

    /// Log a decision on a folder.
    #[pyo3(signature = (path, title, *, rationale="", tags=None))]
    fn log_decision<'py>(
        &self,
        py: Python<'py>,
        path: &str,
        title: String,
        rationale: &str,
        tags: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let new = NewDecision { title, rationale: rationale.into(), tags: tags.unwrap_or_default() };
        self.json(py, |ws| ws.log_decision(path, &new))
    }

    /// Decisions on one folder, or all of them, newest first.
    #[pyo3(signature = (path=None))]
    fn decisions<'py>(&self, py: Python<'py>, path: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.decisions(path))
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
        let mode = parse_build_mode(mode)?;
        let tiers = tiers.unwrap_or_default().iter().map(|t| parse_tier(t)).collect::<PyResult<_>>()?;
        let options = BuildOptions { folders: paths.unwrap_or_default(), mode, tiers };
        let report = self.with(py, |ws| Ok(ctxkeep_map::outline::build(ws, &options)))?.map_err(map_err)?;
        to_py(py, &report)
    }

    /// A folder's context file as the build would write it (`text`, `tokens`,
    /// `doc`), rendered from the database; nothing is written. `path` may be
    /// titled as context files title folders (`/src/auth`) or name a file
    /// (its folder's, and `from_file` says which file).
    #[pyo3(signature = (path=".", tier="standard"))]
    fn context<'py>(&self, py: Python<'py>, path: &str, tier: &str) -> PyResult<Bound<'py, PyAny>> {
        let tier = parse_tier(tier)?;
        let (context, file) = self.with(py, |ws| {
            let folder = ws.resolve_folder(ws.root(), path)?;
            Ok((ws.context(&folder.key, tier)?, folder.file))
        })?;
        let context = to_py(py, &context)?;
        if let Some(file) = file {
            context.set_item("from_file", file)?;
        }
        Ok(context)
    }

    /// Compare `.ctx/context/` with the database: `ok`, and the missing,
    /// stale, edited and orphaned files.
    fn validate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.validate())
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
        self.json(py, |ws| ws.todo())
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
        self.json(py, |ws| ws.push_frame(&new))
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
        self.json(py, |ws| ws.pop_frame(id, status, summary))
    }

    /// Replace the goal of `frame` (default: the current frame).
    #[pyo3(signature = (goal, *, frame=None))]
    fn set_frame_goal<'py>(
        &self,
        py: Python<'py>,
        goal: &str,
        frame: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.set_frame_goal(frame, goal))
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
        self.json(py, |ws| ws.add_frame_artifacts(frame, &paths))
    }

    /// Log a decision on `frame` (default: the current frame).
    #[pyo3(signature = (title, *, frame=None, rationale="", tags=None))]
    fn add_frame_decision<'py>(
        &self,
        py: Python<'py>,
        title: String,
        frame: Option<&str>,
        rationale: &str,
        tags: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let new = NewDecision { title, rationale: rationale.into(), tags: tags.unwrap_or_default() };
        self.json(py, |ws| ws.add_frame_decision(frame, &new))
    }

    /// Frame `id` (default: the current frame) with its ancestors (root
    /// first), subframes, decisions and attempts.
    #[pyo3(signature = (id=None))]
    fn frame<'py>(&self, py: Python<'py>, id: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.frame(id))
    }

    /// The current frame (the in-progress frame pushed or started last), or `None`.
    fn current_frame<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.current_frame())
    }

    /// The frames under `root` (every top-level frame when `None`), `depth` levels deep at most.
    #[pyo3(signature = (root=None, *, depth=None))]
    fn frame_tree<'py>(
        &self,
        py: Python<'py>,
        root: Option<&str>,
        #[pyo3(from_py_with = optional_count::depth)] depth: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.frame_tree(root, depth))
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
        self.json(py, |ws| ws.add_task(&new))
    }

    /// Start (or retry) task `id`: it is in progress and the current frame.
    fn start_task<'py>(&self, py: Python<'py>, id: &str) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.start_task(id))
    }

    /// Mark task `id` completed, with what was done.
    #[pyo3(signature = (id, *, summary=None))]
    fn finish_task<'py>(
        &self,
        py: Python<'py>,
        id: &str,
        summary: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.finish_task(id, summary))
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
        self.json(py, |ws| ws.fail_task(id, &attempt))
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
        self.json(py, |ws| ws.tasks(&filter))
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
        self.json(py, |ws| ws.frame_context(id, rendering))
    }

    /// The task prompt of task `id`: `frame_context(id, format="prompt")`.
    fn task_prompt<'py>(&self, py: Python<'py>, id: &str) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.task_prompt(id))
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
        self.json(py, |ws| ws.add_record(&new))
    }

    /// Add the records of a JSONL file (ctx records, a Claude Code
    /// transcript or a Codex CLI rollout), or of a folder's `*.jsonl` files
    /// (the report sums them); records already there are not added again.
    fn ingest<'py>(&self, py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyAny>> {
        let report = self.with(py, |ws| functions::ingest_path(ws, &path))?;
        to_py(py, &report)
    }

    /// Ingest the lines of the transcript at `path` added since the last
    /// call for it (a cursor per transcript, kept in the store): only
    /// complete lines; a rewritten or truncated file is read again from the
    /// start, adding nothing twice; an unchanged one costs a `stat`. What
    /// `ctx hook Stop` does; for a harness of your own.
    fn ingest_transcript<'py>(&self, py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.ingest_transcript(&path, None))
    }

    /// The record with id `id` (`{id, ts, role, type, refs, text, tags, session_id}`).
    fn record<'py>(&self, py: Python<'py>, id: &str) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.record(id))
    }

    /// The L0 rows around record `id` in time order (`session`: an id or
    /// `"all"`; default the anchor's session; `thread`: `anchor` (the
    /// anchor's: the main thread or its subagent), `main`, `subagents`, `all`).
    #[pyo3(signature = (id, *, before=3, after=3, session=None, thread="anchor"))]
    fn timeline<'py>(
        &self,
        py: Python<'py>,
        id: &str,
        #[pyo3(from_py_with = count::before)] before: usize,
        #[pyo3(from_py_with = count::after)] after: usize,
        session: Option<String>,
        thread: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let thread =
            parse_choice(thread, TimelineThread::parse, "thread", "threads", "anchor, main, subagents, all")?;
        let session = match session.as_deref() {
            None => TimelineSession::Anchor,
            Some("all") => TimelineSession::All,
            Some(id) => TimelineSession::Id(id.to_string()),
        };
        self.json(py, |ws| ws.timeline_in(id, before, after, &session, &thread))
    }

    /// Record `id` as the contract's L2 object, its JSON within `head` characters when
    /// given, 72 at least (the tiny `budget_too_small` object when nothing else fits).
    #[pyo3(signature = (id, *, head=None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        id: &str,
        #[pyo3(from_py_with = optional_count::head)] head: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let text = self.with(py, |ws| ws.record_json(id, head))?;
        json_text_to_py(py, &text)
    }

    /// Move session records older than `older_than_seconds` to the archive pool; how many moved.
    fn archive(&self, py: Python<'_>, older_than_seconds: f64) -> PyResult<usize> {
        let older_than = seconds("older_than_seconds", older_than_seconds)?;
        self.with(py, |ws| ws.archive(older_than))
    }

    /// The L1 pack (`{layer, text, tokens, threshold, mode, sections, stored}`)
    /// within `tokens` (default `[pack] tokens`).
    #[pyo3(signature = (tokens=None))]
    fn pack<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = optional_count::tokens)] tokens: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.pack(tokens))
    }

    /// Pin a text: every pack shows it first. Returns the pin's record.
    fn pin<'py>(&self, py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.pin(text))
    }

    /// Remove the pin `id`.
    fn unpin(&self, py: Python<'_>, id: &str) -> PyResult<()> {
        self.with(py, |ws| ws.unpin(id))
    }

    /// The pins, newest first.
    fn pins<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.pins())
    }

    /// L0 rows of the records matching `query` (words, "phrases", prefix*), best first.
    /// `embedder` (an object with a `name` and an `embed(texts)` method)
    /// serves the vector channel instead of the configured one. `types`
    /// (any of), `tags` (all of; `!tag`: without it), `since` and `until`
    /// (RFC 3339 in UTC, `YYYY-MM-DD`, or a duration ago such as `7d`)
    /// filter the records inside the search. An embedder that fails (raises,
    /// or returns vectors of the wrong number or size) leaves the search to
    /// the lexical channel (`retrieval.vector_fallback_reason` says why);
    /// `on_embedder_error="raise"` raises `EmbedderError` instead.
    #[pyo3(signature = (query, *, k=10, scope="all", session=None, mode="lexical", embedder=None, types=None, tags=None, since=None, until=None, on_embedder_error="fallback"))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments
    fn search<'py>(
        &self,
        py: Python<'py>,
        query: String,
        #[pyo3(from_py_with = count::k)] k: usize,
        scope: &str,
        session: Option<String>,
        mode: &str,
        embedder: Option<Bound<'py, PyAny>>,
        types: Option<Vec<String>>,
        tags: Option<Vec<String>>,
        since: Option<String>,
        until: Option<String>,
        on_embedder_error: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let options = SearchOptions {
            query,
            k,
            scope: parse_choice(scope, SearchScope::parse, "scope", "scopes", "all, hot, archive")?,
            session,
            mode: parse_choice(mode, SearchMode::parse, "mode", "modes", "lexical, vector, hybrid")?,
            types: types.unwrap_or_default(),
            tags: tags.unwrap_or_default(),
            since,
            until,
            on_embedder_error: parse_embedder_failure(on_embedder_error)?,
        };
        match embedder.map(PyEmbedder::new).transpose()? {
            Some(embedder) => {
                let response = self.with(py, |ws| ws.search_with(&options, &embedder));
                to_py(py, &response.map_err(|err| embedder.cause_of(py, err))?)
            }
            None => self.json(py, |ws| ws.search(&options)),
        }
    }

    /// Embed every record that has no vector of `embedder`'s yet (the
    /// built-in embedder when None); how many were embedded.
    #[pyo3(signature = (embedder=None))]
    fn embed_records(&self, py: Python<'_>, embedder: Option<Bound<'_, PyAny>>) -> PyResult<usize> {
        match embedder.map(PyEmbedder::new).transpose()? {
            Some(embedder) => {
                self.with(py, |ws| ws.embed_records(&embedder)).map_err(|err| embedder.cause_of(py, err))
            }
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
        self.json(py, |ws| ws.add_artifact(&new))
    }

    /// Every artifact (summaries), by slug.
    fn artifacts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.artifacts())
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
        self.json(py, |ws| ws.artifact(slug, &options))
    }

    /// The project: name, description, current stage and the progress of each stage.
    fn artifact_project<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.artifact_project())
    }

    /// Mark artifact `slug` finalized: operations on it are refused unless they override it.
    fn finalize_artifact<'py>(&self, py: Python<'py>, slug: &str) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.finalize_artifact(slug, true))
    }

    /// Make artifact `slug` a draft again.
    fn unfinalize_artifact<'py>(&self, py: Python<'py>, slug: &str) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.finalize_artifact(slug, false))
    }

    /// Move artifact `slug` to `stage`.
    fn set_artifact_stage<'py>(
        &self,
        py: Python<'py>,
        slug: &str,
        stage: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.set_artifact_stage(slug, stage))
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
        self.json(py, |ws| ws.set_section_collapsed(slug, section, collapsed))
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
        self.json(py, |ws| ws.apply_operation(&operation))
    }

    /// The suggested edits on artifact `slug` (pending and decided), oldest first.
    fn artifact_suggestions<'py>(&self, py: Python<'py>, slug: &str) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.artifact_suggestions(slug))
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
        self.json(py, |ws| ws.accept_suggestion(id, override_finalized))
    }

    /// Reject suggestion `id` (nothing is applied), with why.
    #[pyo3(signature = (id, reason=None))]
    fn reject_suggestion<'py>(
        &self,
        py: Python<'py>,
        id: &str,
        reason: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.reject_suggestion(id, reason))
    }

    /// Artifact `slug`'s snapshots and operations, newest first.
    fn artifact_history<'py>(&self, py: Python<'py>, slug: &str) -> PyResult<Bound<'py, PyAny>> {
        self.json(py, |ws| ws.artifact_history(slug))
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
        self.json(py, |ws| ws.restore_artifact(slug, snapshot, override_finalized))
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
        self.json(py, |ws| ws.check_artifact(slug, state_hash, at, max_age))
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
        #[pyo3(from_py_with = optional_count::tokens)] tokens: Option<usize>,
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
        self.json(py, |ws| ws.artifact_prompt(&request))
    }

    fn __repr__(&self) -> String {
        let closed = if self.is_closed() { " (closed)" } else { "" };
        format!("Workspace({:?}){closed}", self.path.display().to_string())
    }
}

#[pymodule]
fn _ctx(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Workspace>()?;
    m.add_function(wrap_pyfunction!(functions::repo_map, m)?)?;
    m.add_function(wrap_pyfunction!(functions::rank, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("SCHEMA_VERSION", ctxkeep_core::SCHEMA_VERSION)?;
    Ok(())
}
