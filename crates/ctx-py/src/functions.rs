//! The module's functions: the map and the ranking of any folder, with or
//! without a workspace; and what `Workspace.ingest` does with a path.

use std::path::PathBuf;

use ctxkeep_core::Workspace as CoreWorkspace;
use pyo3::prelude::*;

use crate::convert::{count, map_err, optional_count, to_py};

/// The repository map of the folder `path` (a workspace, or any folder: then
/// the cache lives in the user's cache directory): stack, commands, key
/// files, tree and the most referenced definitions within `tokens`.
/// (`ctxkeep.map` is the same function by its first name, which
/// `from ctxkeep import *` leaves out so as not to hide the builtin.)
#[pyfunction]
#[pyo3(
    signature = (path=PathBuf::from("."), *, tokens=ctxkeep_map::map::DEFAULT_TOKENS, focus=None, query=None),
    text_signature = "(path='.', *, tokens=1500, focus=None, query=None)"
)]
pub(crate) fn repo_map<'py>(
    py: Python<'py>,
    path: PathBuf,
    #[pyo3(from_py_with = count::tokens)] tokens: usize,
    focus: Option<Vec<String>>,
    query: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let options = ctxkeep_map::map::MapOptions { tokens, focus: focus.unwrap_or_default(), query };
    let map = py
        .detach(|| {
            let mut ws = CoreWorkspace::discover_or_cache(&path).map_err(ctxkeep_map::Error::from)?;
            ctxkeep_map::map::map(&mut ws, &options, None)
        })
        .map_err(map_err)?;
    to_py(py, &map)
}

/// The source files of the folder `path`, most relevant to `query` first
/// (`k`: only the first k), each `{path, score, lexical, graph, recency, similar, authored, latest, named, area, mentioned, defines}`;
/// `history=False` leaves the git history out.
#[pyfunction]
#[pyo3(
    signature = (query, path=PathBuf::from("."), *, k=None, history=true),
    text_signature = "(query, path='.', *, k=None, history=True)"
)]
pub(crate) fn rank<'py>(
    py: Python<'py>,
    query: String,
    path: PathBuf,
    #[pyo3(from_py_with = optional_count::k)] k: Option<usize>,
    history: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let options = ctxkeep_map::rank::RankOptions { history, top: k, ..Default::default() };
    let (ranked, _) = py
        .detach(|| {
            let mut ws = CoreWorkspace::discover_or_cache(&path).map_err(ctxkeep_map::Error::from)?;
            ctxkeep_map::rank::rank_workspace(&mut ws, &query, options, None)
        })
        .map_err(map_err)?;
    to_py(py, &ranked)
}

/// `Workspace.ingest`: a file, or a folder's `*.jsonl` files at any depth
/// (as `ctx ingest DIR` reads it), whose reports are summed.
pub(crate) fn ingest_path(
    ws: &mut ctxkeep_core::Workspace,
    path: &std::path::Path,
) -> ctxkeep_core::Result<ctxkeep_core::IngestReport> {
    let files = match path.is_dir() {
        true => ctxkeep_core::memory::discover::expand_inputs(&[path.to_path_buf()])?,
        false => vec![path.to_path_buf()],
    };
    let mut reports = Vec::new();
    for file in &files {
        let open = std::fs::File::open(file)
            .map_err(|err| ctxkeep_core::Error::Io { path: file.clone(), source: err })?;
        reports.push(ws.ingest(&mut std::io::BufReader::new(open), &file.display().to_string())?);
    }
    match path.is_dir() {
        true => Ok(ctxkeep_core::IngestReport::total(&path.display().to_string(), &reports)),
        false => Ok(reports.remove(0)),
    }
}
