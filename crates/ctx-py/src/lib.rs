//! `ctxkit._ctx`: the native half of the `ctxkit` Python package.
//!
//! A thin wrapper over ctx-core: arguments are converted, the GIL is released
//! while the engine works, and results come back as plain dicts and lists
//! (the same JSON shapes the CLI prints with `--json`). Errors are mapped to
//! Python exceptions in one place, [`to_py_err`].

use std::path::PathBuf;
use std::sync::Mutex;

use ctx_core::{BuildMode, BuildOptions, FolderEdit, NewDecision, Tier, Workspace as CoreWorkspace};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde::Serialize;

/// A ctx workspace: a repository root with a `.ctx/` folder.
///
/// `Workspace(path)` never touches the disk; `init()` creates `.ctx/` in
/// `path`, and every other method opens the workspace whose `.ctx/` is in
/// `path` or its nearest ancestor.
#[pyclass(module = "ctxkit._ctx")]
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
        let report = self.with(py, |ws| ws.build(&options))?;
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

    /// Folders nobody has described yet, deepest first, with what their files say.
    fn todo<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let todo = self.with(py, |ws| ws.todo())?;
        to_py(py, &todo)
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
        f: impl FnOnce(&mut CoreWorkspace) -> ctx_core::Result<T> + Send,
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

fn parse_tier(text: &str) -> PyResult<Tier> {
    Tier::parse(text).ok_or_else(|| invalid(format!("{text:?}: the tiers are minimal, standard, full, deep")))
}

/// Bad arguments raise what the engine's `INVALID_INPUT` raises.
fn invalid(message: String) -> PyErr {
    to_py_err(ctx_core::Error::InvalidInput(message))
}

/// The one place where engine errors become Python exceptions: the class
/// named for the error's code in `ctxkit.errors`, with `code` and `message`.
fn to_py_err(err: ctx_core::Error) -> PyErr {
    let class = match err.code() {
        "NOT_A_WORKSPACE" => "NotAWorkspaceError",
        "UNKNOWN_FOLDER" => "UnknownFolderError",
        "OUTSIDE_ROOT" => "OutsideRootError",
        "INVALID_INPUT" => "InvalidInputError",
        "CONFIG_ERROR" => "ConfigError",
        "IO_ERROR" => "CtxIOError",
        "TEMPLATE_ERROR" => "TemplateError",
        _ => "DatabaseError",
    };
    let (code, message) = (err.code(), err.to_string());
    Python::attach(|py| {
        let raised = py
            .import("ctxkit.errors")
            .and_then(|module| module.getattr(class))
            .and_then(|class| class.call1((message.clone(), code)));
        match raised {
            Ok(exception) => PyErr::from_value(exception),
            Err(_) => PyRuntimeError::new_err(format!("[{code}] {message}")),
        }
    })
}

/// Any serializable engine result as plain Python objects.
fn to_py<'py, T: Serialize>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    let json = serde_json::to_value(value).map_err(|err| PyRuntimeError::new_err(err.to_string()))?;
    json_to_py(py, &json)
}

fn json_to_py<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, json_to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// The repository map of the folder `path` (a workspace, or any folder: then
/// the cache lives in the user's cache directory): stack, commands, key
/// files, tree and the most referenced definitions within `tokens`.
#[pyfunction]
#[pyo3(signature = (path=PathBuf::from("."), *, tokens=ctx_map::map::DEFAULT_TOKENS, focus=None, query=None))]
fn map<'py>(
    py: Python<'py>,
    path: PathBuf,
    tokens: usize,
    focus: Option<Vec<String>>,
    query: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let options = ctx_map::map::MapOptions { tokens, focus: focus.unwrap_or_default(), query };
    let map = py
        .detach(|| {
            let mut ws = CoreWorkspace::discover_or_cache(&path).map_err(ctx_map::Error::from)?;
            ctx_map::map::map(&mut ws, &options, None)
        })
        .map_err(map_err)?;
    to_py(py, &map)
}

/// The source files of the folder `path`, most relevant to `query` first
/// (`k`: only the first k), each `{path, score, lexical, graph, recency}`;
/// `history=False` leaves the git history out.
#[pyfunction]
#[pyo3(signature = (query, path=PathBuf::from("."), *, k=None, history=true))]
fn rank<'py>(
    py: Python<'py>,
    query: String,
    path: PathBuf,
    k: Option<usize>,
    history: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let options = ctx_map::rank::RankOptions { history, ..Default::default() };
    let (mut ranked, _) = py
        .detach(|| {
            let mut ws = CoreWorkspace::discover_or_cache(&path).map_err(ctx_map::Error::from)?;
            ctx_map::rank::rank_workspace(&mut ws, &query, options, None)
        })
        .map_err(map_err)?;
    if let Some(k) = k {
        ranked.truncate(k);
    }
    to_py(py, &ranked)
}

/// Map errors raise what the engine's errors raise.
fn map_err(err: ctx_map::Error) -> PyErr {
    match err {
        ctx_map::Error::Core(err) => to_py_err(err),
        ctx_map::Error::InvalidInput(message) => invalid(message),
        ctx_map::Error::Tags(message) => PyRuntimeError::new_err(format!("[TAGS_ERROR] {message}")),
    }
}

#[pymodule]
fn _ctx(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Workspace>()?;
    m.add_function(wrap_pyfunction!(map, m)?)?;
    m.add_function(wrap_pyfunction!(rank, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("SCHEMA_VERSION", ctx_core::SCHEMA_VERSION)?;
    Ok(())
}
