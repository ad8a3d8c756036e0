//! The map: the structural layer, then the highest-ranked definitions that
//! fit a token budget, grouped by file in rank order, each under its file's
//! path with the signatures of what encloses it.

use ctxkeep_core::{FileRole, FileUpdate, UpdateOptions, UpdateReport, UpdateStatus, Workspace};
use rustc_hash::FxHashSet as HashSet;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::graph::{self, Focus, Graph};
use crate::index::{self, IndexStats, Indexed, IndexedFile, Progress};
use crate::rank;
use crate::structure::{self, Structure};

/// The default budget, in tokens.
pub const DEFAULT_TOKENS: usize = 1500;
/// How deep the structural layer's tree goes.
const TREE_DEPTH: usize = 2;

/// What to map.
#[derive(Debug, Clone)]
pub struct MapOptions {
    /// The budget for the whole map, in tokens.
    pub tokens: usize,
    /// Files being worked on (repository-relative, or absolute inside the root).
    pub focus: Vec<String>,
    /// A task description: the files and identifiers it names rank higher.
    pub query: Option<String>,
}

impl Default for MapOptions {
    fn default() -> Self {
        MapOptions { tokens: DEFAULT_TOKENS, focus: Vec::new(), query: None }
    }
}

/// A rendered map. Stable JSON.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RepoMap {
    pub text: String,
    pub tokens: usize,
    pub budget: usize,
    pub tokenizer: String,
    pub structure: Structure,
    /// The files shown, in rank order, with their definitions.
    pub files: Vec<MapFile>,
    /// How many of the definitions (and files shown by path alone) it ranked
    /// the budget left out: 0 when everything fit, or nothing was there to show.
    pub left_out: usize,
    pub index: IndexStats,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MapFile {
    pub path: String,
    pub rank: f64,
    pub definitions: Vec<MapDef>,
    /// Its top says a tool wrote it: a change goes to what generates it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub generated: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MapDef {
    pub name: String,
    pub kind: crate::tags::Kind,
    pub line: u32,
    pub signature: String,
    /// Marked deprecated in its language (`@deprecated`, `#[deprecated]`, ...).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deprecated: bool,
    pub score: f64,
}

/// Index `ws` and render its map.
pub fn map(ws: &mut Workspace, options: &MapOptions, progress: Option<Progress>) -> Result<RepoMap> {
    ctxkeep_core::limits::positive("--tokens", options.tokens)?;
    match options.query.as_deref().filter(|q| !q.trim().is_empty()) {
        None if options.focus.is_empty() => overview(ws, options.tokens, progress),
        query => task_map(ws, options, query, progress),
    }
}

/// The map with no task: what the store keeps for these inputs
/// ([`kept`]), else ranked with no focus and kept.
fn overview(ws: &mut Workspace, tokens: usize, progress: Option<Progress>) -> Result<RepoMap> {
    let started = std::time::Instant::now();
    ws.scan_files()?;
    let scan_ms = started.elapsed().as_millis() as u64;
    let sources = ws.source_files()?;
    let paths: Vec<String> = sources.iter().map(|f| f.path.clone()).collect();
    let structure = structure::detect(ws.root(), &paths, TREE_DEPTH, ws.detector());
    let entries = structure::declared_entry_points(ws.root(), &paths);
    let tok = ws.config().build.tokenizer.get();
    let inputs = kept::Inputs::of(&sources, &structure, &entries, tokens, tok.name());
    if let Some(map) = kept::map(ws, &inputs, scan_ms) {
        // The contents are those it was made from, but HEAD may have moved.
        index::keep_history_for_hooks(ws);
        return Ok(map);
    }
    let (files, stats) = index::index_scanned(ws, progress)?;
    index::keep_for_hooks(ws, &files);
    // The whole repository ranked with no focus: what the folder context files show.
    let (digest, ranking) = crate::outline::overview_ranking(ws, &files);
    crate::outline::save(ws, &files, &digest, &ranking)?;
    let plan = plan_overview(&files, ranking, &Focus::default(), &entries, tokens);
    let map = render(&files, &plan, structure, tokens, tok, IndexStats { scan_ms, ..stats });
    kept::keep(ws, &inputs, &map);
    index::drop_in_background((files, plan));
    Ok(map)
}

/// The map for a task (`query`) or for files being worked on (`options.focus`).
fn task_map(
    ws: &mut Workspace,
    options: &MapOptions,
    query: Option<&str>,
    progress: Option<Progress>,
) -> Result<RepoMap> {
    // The render counts tokens: the tokenizer gets ready on the pool meanwhile.
    let tok = ws.config().build.tokenizer.get();
    rayon::spawn(|| tok.prepare());
    // Ranking for a query reads what `ctx rank` reads: the counts of its terms and the history.
    let indexed = match query {
        Some(query) => index::index_for_task(ws, progress, query, true)?,
        None => {
            let (files, stats) = index::index(ws, progress)?;
            index::keep_for_hooks(ws, &files);
            Indexed { files, stats, terms: Default::default(), history: None }
        }
    };
    let focus = focus(ws, &indexed.files, &options.focus, query)?;
    // The graph weighs the query's names: the definers of what the task names lead its PageRank.
    let graph = Graph::cached(ws, &indexed.files, &focus.names);
    let paths: Vec<String> = ws.source_files()?.into_iter().map(|f| f.path).collect();
    // The structure reads a few files while the plan's PageRank holds one core. A
    // task's map shows no tree ([`render`]): none is made.
    let (root, detector) = (ws.root(), ws.detector());
    let (plan, structure) = rayon::join(
        || plan_task(&graph, &indexed, &focus, query, options.tokens, root),
        || structure::detect(root, &paths, 0, detector),
    );
    let map = render(&indexed.files, &plan, structure, options.tokens, tok, indexed.stats.clone());
    index::drop_in_background((indexed, plan));
    Ok(map)
}

/// Where `ctx init`, `ctx update` and `ctx map --write` keep the map, in `.ctx/`.
pub const MAP_FILE: &str = "map.md";

/// Write `map` to `.ctx/map.md` unless that already holds exactly its text.
pub fn write_map(ws: &Workspace, map: &RepoMap) -> Result<FileUpdate> {
    let dir = ws.ctx_dir();
    let path = dir.join(MAP_FILE);
    let status = match ctxkeep_core::read_within(ws.root(), &path) {
        Ok(old) if old == map.text.as_bytes() => UpdateStatus::Unchanged,
        Ok(_) => UpdateStatus::Replaced,
        Err(_) if path.exists() => UpdateStatus::Replaced,
        Err(_) => UpdateStatus::Created,
    };
    if status != UpdateStatus::Unchanged {
        std::fs::create_dir_all(&dir)
            .map_err(|err| ctxkeep_core::Error::Io { path: dir.clone(), source: err })?;
        ctxkeep_core::write_atomic(&path, map.text.as_bytes())?;
    }
    Ok(FileUpdate::new(format!("{}/{MAP_FILE}", ctxkeep_core::CTX_DIR), FileRole::Map, status))
}

/// `ctx update`: the agent files and prompts ([`ctxkeep_core::agents::update`]),
/// then (unless checking, which never opens the database) a scan with its
/// knowledge sync, and `.ctx/map.md`
/// with the default budget, mapped after the sections are written so its
/// scan sees them.
pub fn update(ws: &mut Workspace, options: &UpdateOptions) -> Result<UpdateReport> {
    let mut report = ctxkeep_core::agents::update(ws.root(), options)?;
    if !options.check {
        report.knowledge = Some(ws.scan()?.knowledge);
        let map = map(ws, &MapOptions::default(), None)?;
        report.push(write_map(ws, &map)?);
    }
    Ok(report)
}

/// Resolve focus paths and read the query: the files it names, the identifiers it mentions.
pub fn focus(
    ws: &Workspace,
    files: &[IndexedFile],
    focus_paths: &[String],
    query: Option<&str>,
) -> Result<Focus> {
    let index_of = |path: &str| files.binary_search_by(|f| f.path.as_str().cmp(path)).ok();
    let mut out = Focus::default();
    for path in focus_paths {
        let key = ws.resolve_path(ws.root(), path)?;
        match index_of(&key) {
            Some(i) => out.files.push(i),
            None => return Err(Error::InvalidInput(format!("{path}: not a source file of this repository"))),
        }
    }
    if let Some(query) = query {
        out.names = graph::query_names(query);
        out.code = graph::code_names(query);
        // Files named by path (`src/db/pool.rs`, `pool.rs`) or by a distinctive stem (`base_events`).
        let by_path: HashSet<usize> = rank::named_by_path(files, query).into_iter().flatten().collect();
        let words: HashSet<&str> = query.split(|c: char| !(c.is_alphanumeric() || c == '_')).collect();
        for (i, file) in files.iter().enumerate() {
            let name = file.path.rsplit('/').next().unwrap_or(&file.path);
            let stem = name.split('.').next().unwrap_or(name);
            let distinctive = stem.len() >= 5 && (stem.contains('_') || stem.len() >= 8);
            if by_path.contains(&i) || (distinctive && words.contains(stem)) {
                out.named_files.push(i);
            }
        }
    }
    Ok(out)
}

mod kept;
mod plan;
mod render;
pub(crate) mod visibility;

pub use plan::Plan;
pub(crate) use plan::{TASK_AUXILIARY, demotion};
use plan::{plan_overview, plan_task};
pub use render::render;
