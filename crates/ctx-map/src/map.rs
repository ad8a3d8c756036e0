//! The map: the structural layer, then the highest-ranked definitions that
//! fit a token budget, grouped by file in rank order, each under its file's
//! path with the signatures of what encloses it.

use std::fmt::Write;

use ctxkeep_core::paths::{PathRole, display_name};
use ctxkeep_core::tokens::Tokenizer;
use ctxkeep_core::{FileRole, FileUpdate, UpdateOptions, UpdateReport, UpdateStatus, Workspace};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::graph::{self, Focus, Graph, Ranking};
use crate::index::{self, IndexStats, Indexed, IndexedFile, Progress};
use crate::rank::{self, RankOptions};
use crate::structure::{self, Structure};
use crate::tags::Kind;

/// The default budget, in tokens.
pub const DEFAULT_TOKENS: usize = 1500;
/// How deep the structural layer's tree goes.
const TREE_DEPTH: usize = 2;
/// Most folders the tree lists.
const MAX_TREE_ENTRIES: usize = 40;

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
#[derive(Debug, Clone, Serialize)]
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

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MapFile {
    pub path: String,
    pub rank: f64,
    pub definitions: Vec<MapDef>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MapDef {
    pub name: String,
    pub kind: crate::tags::Kind,
    pub line: u32,
    pub signature: String,
    pub score: f64,
}

/// Index `ws` and render its map.
pub fn map(ws: &mut Workspace, options: &MapOptions, progress: Option<Progress>) -> Result<RepoMap> {
    ctxkeep_core::limits::positive("--tokens", options.tokens)?;
    let query = options.query.as_deref().filter(|q| !q.trim().is_empty());
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
    // One graph for rank's ranking and the map's: both weigh the query's names.
    let graph = Graph::cached(ws, &indexed.files, &focus.names);
    let paths: Vec<String> = ws.source_files()?.into_iter().map(|f| f.path).collect();
    let plan = if query.is_some() || !focus.files.is_empty() {
        plan_task(&graph, &indexed, &focus, query, options.tokens)
    } else {
        let ranking = graph.rank(&focus);
        // The whole repository ranked with no focus: what the folder context files show.
        crate::outline::save(ws, &graph, &ranking)?;
        let entries = structure::declared_entry_points(ws.root(), &paths);
        plan_overview(&indexed.files, ranking, &focus, &entries, options.tokens)
    };
    let structure = structure::detect(ws.root(), &paths, TREE_DEPTH, ws.detector());
    let tok = ws.config().build.tokenizer.get();
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

/// What a map shows: definitions in the order they are given room, and each file's rank.
#[derive(Debug, Clone)]
pub struct Plan {
    /// (file, definition, score), best first.
    pub order: Vec<(usize, usize, f64)>,
    /// Each file's rank, as the map's JSON reports it.
    pub file_rank: Vec<f64>,
    /// What the order follows, for the heading.
    pub heading: &'static str,
}

/// In a plan's order, a file shown by its path alone: it defines nothing to show
/// (re-exports, module declarations), yet the task points there.
const PATH_ONLY: usize = usize::MAX;

/// Weight of a file that only surrounds the code (tests, examples, fixtures,
/// benches, docs, vendored code) when the task does not point there: in the
/// overview, and in a task map (where rank has already weighed the task's words).
const AUXILIARY: f64 = 0.1;
const TASK_AUXILIARY: f64 = 0.4;
/// Share of the graph (the task's neighbours) in a task map's file order, next to rank's score.
const NEIGHBOURS: f64 = 0.1;
/// How many of rank's best files seed the graph of a task map.
const SEEDS: usize = 20;
/// How many files of a task map each get a line before any gets a second.
const LEAD_FILES: usize = 10;

/// The map without a task: definitions by how much of the repository refers to them.
fn plan_overview(
    files: &[IndexedFile],
    ranking: Ranking,
    focus: &Focus,
    entries: &[String],
    limit: usize,
) -> Plan {
    let weight = demotion(files, focus, AUXILIARY);
    let mut order: Vec<(usize, usize, f64)> = files
        .iter()
        .enumerate()
        .flat_map(|(f, file)| {
            let (score, weight) = (&ranking.def_rank[f], weight[f]);
            let private =
                |d: usize| if crate::tags::private_by_name(&file.tags.defs[d].name) { PRIVATE } else { 1.0 };
            shown_defs(file, weight < 1.0, focus).map(move |d| (f, d, score[d] * weight * private(d)))
        })
        .collect();
    // What the package's declared entry exports of its own leads (fastify's `"main":
    // "fastify.js"` and its `function fastify`): the front door, though no file of the
    // package uses it. Python's are left out: a script's module defines whatever it runs.
    let best = order.iter().map(|o| o.2).fold(0.0, f64::max);
    for (f, d, score) in &mut order {
        let file = &files[*f];
        let exported = file.lang != "python"
            && entries.contains(&file.path)
            && graph::is_own_public(file, &file.tags.defs[*d], crate::exports::JsModule::of(file).as_ref());
        if exported {
            *score += best;
        }
    }
    sort_best_first(&mut order, limit);
    Plan { order, file_rank: ranking.file_rank, heading: "public surface, then most referenced" }
}

/// Weight in the overview of a name its language's convention keeps private
/// (`_findOption`, `#state`): however often the file's own code calls it, the
/// public surface is what the overview is for. A task that needs it names it.
const PRIVATE: f64 = 0.3;

/// How a task map orders a file's definitions, before their scores: named by
/// the task, then by how telling the task's words its name says are (0 for
/// none), then not a constant; the greater first.
type Told = (bool, f64, bool);

/// The map for a task: files in `ctx rank`'s order (focus files first), then
/// their neighbours in the graph personalized by rank's scores; the first
/// [`LEAD_FILES`] files get a line each before any gets a second; within a
/// file, the definitions the task names first, then the most referenced,
/// constants last.
fn plan_task(graph: &Graph, indexed: &Indexed, focus: &Focus, query: Option<&str>, limit: usize) -> Plan {
    let files = &indexed.files;
    let n = files.len();
    let mut task = vec![0.0; n];
    if let Some(query) = query {
        let ranked =
            rank::rank_on(graph, &indexed.terms, query, indexed.history.as_ref(), RankOptions::default());
        for r in ranked {
            if let Ok(i) = files.binary_search_by(|f| f.path.as_str().cmp(&r.path)) {
                task[i] = r.score;
            }
        }
    }
    // A definition whose name says words of the task (`generate_enum_convertor`
    // for "Enum choices ignore case") is shown before its file's others, the
    // one saying the most telling words first (`struct Search` before `Config`
    // for "skip chapters in the search config": `config` is said everywhere).
    let task_terms: HashMap<&str, f64> = match query {
        Some(_) => indexed.terms.terms().iter().map(String::as_str).zip(indexed.terms.weights()).collect(),
        None => HashMap::default(),
    };
    let says_the_task = |name: &str| -> f64 {
        // Each term of a name is a piece of it, lowercased (a stem only drops an
        // ending): a name holding none of the task's terms is not split at all.
        let may = |t: &&str| name.as_bytes().windows(t.len()).any(|w| w.eq_ignore_ascii_case(t.as_bytes()));
        if task_terms.is_empty() || (name.is_ascii() && !task_terms.keys().any(may)) {
            return 0.0;
        }
        let mut said = crate::terms::terms(name);
        said.sort_unstable();
        said.dedup();
        said.iter().filter_map(|t| task_terms.get(t.as_str())).sum()
    };
    let max_task = task.iter().copied().fold(0.0, f64::max);
    let mut best: Vec<usize> = (0..n).filter(|&i| task[i] > 0.0).collect();
    best.sort_by(|&a, &b| task[b].total_cmp(&task[a]).then(a.cmp(&b)));
    let seeds = best.iter().take(SEEDS).map(|&i| (i, task[i] / max_task)).collect();
    let ranking = graph.rank(&Focus { seeds, ..focus.clone() });
    let max_rank = ranking.file_rank.iter().copied().fold(0.0, f64::max);
    let weight = demotion(files, focus, TASK_AUXILIARY);
    let mut key: Vec<f64> = (0..n)
        .map(|i| {
            let task = if max_task > 0.0 { task[i] / max_task } else { 0.0 };
            let graph = if max_rank > 0.0 { ranking.file_rank[i] / max_rank } else { 0.0 };
            (task + NEIGHBOURS * graph) * weight[i]
        })
        .collect();
    // Focus files lead, in the order given (every other key is at most 1 + NEIGHBOURS).
    for (k, &i) in focus.files.iter().enumerate() {
        key[i] = 2.0 - k as f64 * 1e-6;
    }
    let mut by_key: Vec<usize> = (0..n).collect();
    by_key.sort_by(|&a, &b| key[b].total_cmp(&key[a]).then(a.cmp(&b)));

    let (mut order, mut rest) = (Vec::new(), Vec::new());
    // A file's entries score at most its key, and keys only fall from here:
    // once `limit` entries score above a file's key, none of its or a later
    // file's can make the cut `sort_best_first` makes, and the rest is skipped.
    let (mut cut, mut next_check) = (f64::NEG_INFINITY, limit.max(1));
    for (position, &f) in by_key.iter().enumerate() {
        if position >= LEAD_FILES && cut > key[f] {
            break;
        }
        let file = &files[f];
        let score = &ranking.def_rank[f];
        // ((named by the task, saying one of its words, not a constant), definition): named
        // first, then those saying its words, then the file's code before its constants (40
        // `STYLE_* = "dim"` its functions all use took a focus map), then by score; a total order.
        let mut defs: Vec<(Told, usize)> = shown_defs(file, weight[f] < 1.0, focus)
            .map(|d| {
                let def = &file.tags.defs[d];
                ((names_outright(focus, &def.name), says_the_task(&def.name), def.kind != Kind::Constant), d)
            })
            .collect();
        let by_rank = |&(told_a, a): &(Told, usize), &(told_b, b): &(Told, usize)| {
            (told_b.0.cmp(&told_a.0))
                .then(told_b.1.total_cmp(&told_a.1))
                .then(told_b.2.cmp(&told_a.2))
                .then(score[b].total_cmp(&score[a]))
                .then(a.cmp(&b))
        };
        // Its `k`th entry scores key / (k + 1): those under the cut cannot make
        // it either, so only the best of the others need their places.
        let lead = usize::from(position < LEAD_FILES);
        let keep = (lead..defs.len()).find(|&k| key[f] / ((k + 1) as f64) < cut).unwrap_or(defs.len());
        if keep < defs.len() {
            if keep > 0 {
                defs.select_nth_unstable_by(keep - 1, by_rank);
            }
            defs.truncate(keep);
        }
        defs.sort_unstable_by(by_rank);
        let defs: Vec<usize> = defs.into_iter().map(|(_, d)| d).collect();
        if position < LEAD_FILES {
            order.push((f, defs.first().copied().unwrap_or(PATH_ONLY), key[f]));
        }
        for (k, d) in defs.into_iter().enumerate().skip(usize::from(position < LEAD_FILES)) {
            rest.push((f, d, key[f] / (k + 1) as f64));
        }
        if rest.len() >= next_check {
            cut = nth_best_score(&rest, limit);
            next_check = rest.len() * 2;
        }
    }
    sort_best_first(&mut rest, limit);
    order.extend(rest);
    Plan { order, file_rank: key, heading: "most relevant to the task first" }
}

/// Each file's weight: [`PathRole::is_auxiliary`] files get `factor` unless the
/// task points there: a focus or named file of the same role under the same
/// top folder, or a word of the query that names the role (`tests`, `example`;
/// `types` for type declarations).
fn demotion(files: &[IndexedFile], focus: &Focus, factor: f64) -> Vec<f64> {
    let top = |path: &str| path.split('/').next().unwrap_or(path).to_string();
    let named_roles: HashSet<PathRole> =
        // Only a role of its own: every other word names the code (`Option`),
        // which would make type declarations the code's equals.
        focus.names.iter().map(|w| PathRole::of(&w.to_lowercase())).filter(|r| r.is_auxiliary()).collect();
    let pointed: HashSet<(PathRole, String)> = focus
        .files
        .iter()
        .chain(&focus.named_files)
        .filter_map(|&i| files.get(i))
        .map(|f| (PathRole::of(&f.path), top(&f.path)))
        .collect();
    let about_types = ["types", "typings", "typescript", "declaration", "declarations", "dts"]
        .iter()
        .any(|word| focus.names.iter().any(|name| name.eq_ignore_ascii_case(word)));
    files
        .iter()
        .map(|f| {
            let role = PathRole::of(&f.path);
            let pointed = named_roles.contains(&role) || pointed.contains(&(role, top(&f.path)));
            match role {
                // Type declarations (`index.d.ts`, and again as `index.d.cts`) repeat
                // what the code defines: after it, like a test, unless the task
                // is about them ("fix(types): export CJS types").
                PathRole::Source
                    if crate::exports::is_declaration_file(&f.path) && !pointed && !about_types =>
                {
                    factor
                }
                _ if !role.is_auxiliary() || pointed => 1.0,
                // A build's output repeats the code it was built from: never its neighbour.
                PathRole::Vendored => factor.min(AUXILIARY),
                _ => factor,
            }
        })
        .collect()
}

/// The definitions of `file` a map may show: those that define a name, less
/// a fixture's (test data: black's formatter cases), tests (`test…` functions of test files when the file is `demoted`;
/// anywhere, anything in a Rust `mod tests` and a `#[test]` function), a
/// function's inner functions, and a second definition of a name in the same
/// scope (a Rust `#[cfg]` variant, a property's setter), unless the task
/// names them.
fn shown_defs<'a>(
    file: &'a IndexedFile,
    demoted: bool,
    focus: &'a Focus,
) -> impl Iterator<Item = usize> + 'a {
    let defs = &file.tags.defs;
    let mut seen: HashSet<(Option<u32>, &str)> = HashSet::default();
    let repeated: Vec<bool> =
        defs.iter().map(|d| d.kind != Kind::Impl && !seen.insert((d.parent, d.name.as_str()))).collect();
    let role = PathRole::of(&file.path);
    let test_file = role == PathRole::Test;
    // What tests read (black's formatter cases, `print(((1)))`) defines nothing of the
    // project's, whatever the task names: the file may be what it is about, its names are not.
    let data = role == PathRole::Fixture;
    let in_test_module = move |d: usize| {
        std::iter::successors(Some(d), |&i| defs[i].parent.map(|p| p as usize))
            .any(|i| defs[i].kind == Kind::Module && matches!(defs[i].name.as_str(), "tests" | "test"))
    };
    (0..defs.len()).filter(move |&d| {
        let def = &defs[d];
        let test_function = test_file
            && matches!(def.kind, Kind::Function | Kind::Method)
            && def.name.get(..4).is_some_and(|head| head.eq_ignore_ascii_case("test"));
        let test = in_test_module(d) || def.is_test_by_attribute();
        let aside = (demoted && test_function) || test || def.is_local(defs) || repeated[d];
        def.kind.defines_name() && !data && (names_outright(focus, &def.name) || !aside)
    })
}

/// Whether the task names `name` as an identifier: a word of it written as
/// code is (`verify_app`, `Command`, `hideDefault`), a plain word is not (a
/// task to "hide the default value in the help output" names no `fn
/// default`, `type Output` or `#[test] fn setting`).
fn names_outright(focus: &Focus, name: &str) -> bool {
    focus.code.contains(name)
}

/// The `n`th best score of `entries` (of at least `n` > 0).
fn nth_best_score(entries: &[(usize, usize, f64)], n: usize) -> f64 {
    let mut scores: Vec<f64> = entries.iter().map(|e| e.2).collect();
    let (_, nth, _) = scores.select_nth_unstable_by(n - 1, |a, b| b.total_cmp(a));
    *nth
}

/// Sort `order` best first (ties by path and line: a fixed order), keeping at
/// most `limit`: each definition costs at least a token, so no more than the
/// budget can fit. The files are sorted by path, so a file's index is its
/// place in path order.
fn sort_best_first(order: &mut Vec<(usize, usize, f64)>, limit: usize) {
    let best_first = |a: &(usize, usize, f64), b: &(usize, usize, f64)| {
        b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1))
    };
    if order.len() > limit {
        order.select_nth_unstable_by(limit, best_first);
        order.truncate(limit);
    }
    order.sort_by(best_first);
}

/// The map of `files` within `budget` tokens: the structural layer, then as
/// many of the plan's definitions as fit, in its order.
pub fn render(
    files: &[IndexedFile],
    plan: &Plan,
    mut structure: Structure,
    budget: usize,
    tok: &dyn Tokenizer,
    index: IndexStats,
) -> RepoMap {
    let hidden = trim_tree(&mut structure.tree, MAX_TREE_ENTRIES);
    let render_structure = |s: &Structure| render_structure(s, &hidden);
    // The structure, shallower or without its tree if that is what fits a small budget.
    let mut head = render_structure(&structure);
    while tok.count(&head) > budget / 2 && !structure.tree.is_empty() {
        let deepest = structure.tree.iter().map(|t| t.depth).max().unwrap_or(0);
        if deepest > 1 {
            structure.tree.retain(|t| t.depth < deepest);
        } else {
            structure.tree.clear();
        }
        head = render_structure(&structure);
    }
    // Still over the whole budget: the structure's other parts go, the least
    // telling first, then the title itself (nothing fits: the map is empty).
    while tok.count(&head) > budget {
        if !structure.key_files.is_empty() {
            structure.key_files.clear();
        } else if !structure.commands.is_empty() {
            structure.commands.clear();
        } else if !structure.stack.is_empty() {
            structure.stack.clear();
        } else {
            head.clear();
            break;
        }
        head = render_structure(&structure);
    }

    let order = &plan.order;
    // The longest prefix of that order that fits, then any later ones that still fit.
    let mut parts = PartCounts::new(tok, files, &head, plan);
    let mut fits = |chosen: &[(usize, usize, f64)]| {
        let tokens = match parts.as_mut().and_then(|parts| parts.count(chosen)) {
            Some(tokens) => tokens,
            None => tok.count(&compose(&head, files, plan, chosen).0),
        };
        tokens <= budget
    };
    // Galloping first: every probe renders and counts its text, so stay near the answer.
    let (mut lo, mut hi) = (0, order.len());
    let mut step = 16;
    while step < hi {
        if fits(&order[..step]) {
            lo = step;
            step *= 2;
        } else {
            hi = step - 1;
            break;
        }
    }
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(&order[..mid]) { lo = mid } else { hi = mid - 1 }
    }
    let mut chosen: Vec<(usize, usize, f64)> = order[..lo].to_vec();
    for &candidate in order[lo..].iter().take(200) {
        chosen.push(candidate);
        if !fits(&chosen) {
            chosen.pop();
        }
    }
    let (text, shown) = compose(&head, files, plan, &chosen);
    let tokens = tok.count(&text);
    let left_out = order.len().saturating_sub(chosen.len());
    RepoMap {
        text,
        tokens,
        budget,
        tokenizer: tok.name().to_string(),
        structure,
        files: shown,
        left_out,
        index,
    }
}

/// Cut `tree` to at most `max` folders: every top folder, and as many of
/// each one's subfolders (the ones holding the most files) as leave room
/// for as many of every other's. Returns, per top folder, how many of its
/// subfolders were left out, for the map to say so.
fn trim_tree(tree: &mut Vec<ctxkeep_core::structure::TreeEntry>, max: usize) -> HashMap<String, usize> {
    let mut hidden = HashMap::default();
    if tree.len() <= max {
        return hidden;
    }
    let parent = |path: &str| path.split('/').next().unwrap_or(path).to_string();
    // Each top folder's subfolders, most files first.
    let mut children: HashMap<String, Vec<(usize, usize)>> = HashMap::default();
    for (i, entry) in tree.iter().enumerate().filter(|(_, e)| e.depth > 1) {
        children.entry(parent(&entry.path)).or_default().push((entry.files, i));
    }
    let tops = tree.iter().filter(|e| e.depth == 1).count();
    let shown = |k: usize| tops + children.values().map(|c| c.len().min(k)).sum::<usize>();
    let widest = children.values().map(Vec::len).max().unwrap_or(0);
    let per_top = (0..=widest).take_while(|&k| shown(k) <= max).last().unwrap_or(0);
    let mut keep = vec![false; tree.len()];
    for (top, list) in &mut children {
        list.sort_by_key(|&(files, i)| (std::cmp::Reverse(files), i));
        for &(_, i) in list.iter().take(per_top) {
            keep[i] = true;
        }
        if list.len() > per_top && per_top > 0 {
            hidden.insert(top.clone(), list.len() - per_top);
        }
    }
    let mut at = 0;
    tree.retain(|entry| {
        at += 1;
        entry.depth == 1 || keep[at - 1]
    });
    // Past `max` top folders, the tree is cut where it is (and says nothing of subfolders).
    if tree.len() > max {
        tree.truncate(max);
        hidden.clear();
    }
    hidden
}

fn render_structure(s: &Structure, hidden: &HashMap<String, usize>) -> String {
    let mut out = String::from("# Repository map\n\n");
    if !s.stack.is_empty() {
        let _ = writeln!(out, "Stack: {}\n", shown_list(&s.stack));
    }
    if !s.commands.is_empty() {
        out.push_str("Commands:\n");
        for c in &s.commands {
            let _ = writeln!(out, "- {}: `{}`", display_name(&c.purpose), display_name(&c.command));
        }
        out.push('\n');
    }
    if !s.key_files.is_empty() {
        let _ = writeln!(out, "Key files: {}\n", shown_list(&s.key_files));
    }
    if !s.tree.is_empty() {
        out.push_str("Tree:\n");
        // After a top folder's last subfolder shown, how many more it has.
        let more = |out: &mut String, top: Option<&str>| {
            if let Some(n) = top.and_then(|top| hidden.get(top)) {
                let _ = writeln!(out, "    … {}", ctxkeep_core::wording::count(*n, "more folder"));
            }
        };
        let mut open: Option<&str> = None;
        for t in &s.tree {
            if t.depth == 1 {
                more(&mut out, open.take());
            } else {
                open = t.path.split('/').next();
            }
            let name = t.path.rsplit('/').next().unwrap_or(&t.path);
            let _ = writeln!(out, "{}{}/ ({})", "  ".repeat(t.depth), display_name(name), t.files);
        }
        more(&mut out, open);
        out.push('\n');
    }
    out
}

/// The map's text: the structure, then the chosen definitions under their
/// heading (no heading when there are none); and the files shown.
fn compose(
    head: &str,
    files: &[IndexedFile],
    plan: &Plan,
    chosen: &[(usize, usize, f64)],
) -> (String, Vec<MapFile>) {
    if chosen.is_empty() {
        return (head.to_string(), Vec::new());
    }
    let (symbols, shown) = render_symbols(files, &plan.file_rank, chosen);
    (format!("{head}## Symbols ({})\n\n{symbols}", plan.heading), shown)
}

/// Names (paths, manifest entries) on one line, as [`display_name`] shows them.
fn shown_list(names: &[String]) -> String {
    names.iter().map(|n| display_name(n)).collect::<Vec<_>>().join(", ")
}

/// The chosen definitions grouped by file (files by their best definition),
/// each under its path, with the definitions that enclose them.
fn render_symbols(
    files: &[IndexedFile],
    file_rank: &[f64],
    chosen: &[(usize, usize, f64)],
) -> (String, Vec<MapFile>) {
    // Files in the order of their best definition.
    let mut by_file: Vec<(usize, Vec<(usize, f64)>)> = Vec::new();
    let mut slot_of: rustc_hash::FxHashMap<usize, usize> = rustc_hash::FxHashMap::default();
    for &(f, d, score) in chosen {
        let slot = *slot_of.entry(f).or_insert_with(|| {
            by_file.push((f, Vec::new()));
            by_file.len() - 1
        });
        by_file[slot].1.push((d, score));
    }
    let mut out = String::new();
    let mut shown = Vec::with_capacity(by_file.len());
    for (f, mut defs) in by_file {
        let file = &files[f];
        let tags = &file.tags;
        defs.retain(|&(d, _)| d != PATH_ONLY);
        write_block(&mut out, file, &defs.iter().map(|&(d, _)| d).collect::<Vec<_>>());
        defs.sort_by_key(|&(d, _)| tags.defs[d].line);
        shown.push(MapFile {
            path: file.path.clone(),
            rank: file_rank[f],
            definitions: defs
                .into_iter()
                .map(|(d, score)| {
                    let def = &tags.defs[d];
                    MapDef {
                        name: def.name.clone(),
                        kind: def.kind,
                        line: def.line,
                        signature: def.signature.clone(),
                        score,
                    }
                })
                .collect(),
        });
    }
    (out, shown)
}

/// One file's part of the map's text: its path, then its definitions `defs`
/// (none [`PATH_ONLY`]) with the ones enclosing them, in line order, once;
/// then a blank line.
fn write_block(out: &mut String, file: &IndexedFile, defs: &[usize]) {
    let tags = &file.tags;
    let mut lines: Vec<usize> = Vec::new();
    for &d in defs {
        let mut at = Some(d);
        while let Some(i) = at {
            lines.push(i);
            at = tags.defs[i].parent.map(|p| p as usize);
        }
    }
    lines.sort_by_key(|&i| (tags.defs[i].line, i));
    lines.dedup();
    // A test file whose tests are set aside says it holds them, and a fixture that it
    // is test data, not that they hold nothing.
    let none = match defs.is_empty() {
        true if PathRole::of(&file.path) == PathRole::Fixture => " (test data)".to_string(),
        true => match tags.defs.iter().filter(|d| d.is_test(&tags.defs) && !d.is_local(&tags.defs)).count() {
            0 => " (no definitions)".to_string(),
            tests => format!(" ({})", ctxkeep_core::wording::count(tests, "test")),
        },
        false => String::new(),
    };
    let _ = writeln!(out, "{}:{none}", display_name(&file.path));
    for i in lines {
        let def = &tags.defs[i];
        let depth = std::iter::successors(def.parent, |&p| tags.defs[p as usize].parent).count();
        let indent = "    ".repeat(depth);
        // Lines start with their number (or `│`), never a space: the token
        // counter memoizes line by line where no token spans a line start.
        for (k, line) in def.signature.lines().enumerate() {
            if k == 0 {
                let _ = writeln!(out, "{}│ {indent}{line}", def.line);
            } else {
                let _ = writeln!(out, "│ {indent}{line}");
            }
        }
    }
    out.push('\n');
}

/// The tokens of [`compose`]'s text counted by parts, where the tokenizer's
/// counts add up at a line start ([`Tokenizer::adds_up_at_line_starts`]):
/// the title with the heading, then each file's block, each block counted
/// once however many probes of the budget show it.
struct PartCounts<'a> {
    tok: &'a dyn Tokenizer,
    files: &'a [IndexedFile],
    /// The title alone, and with the symbols' heading.
    head: usize,
    headed: usize,
    /// (file, its definitions sorted) → its block's tokens; `None` when the
    /// block does not start where a count can be cut (a path opening with a space).
    blocks: rustc_hash::FxHashMap<(usize, Vec<usize>), Option<usize>>,
}

impl<'a> PartCounts<'a> {
    fn new(
        tok: &'a dyn Tokenizer,
        files: &'a [IndexedFile],
        head: &str,
        plan: &Plan,
    ) -> Option<PartCounts<'a>> {
        tok.adds_up_at_line_starts().then(|| PartCounts {
            tok,
            files,
            head: tok.count(head),
            headed: tok.count(&format!("{head}## Symbols ({})\n\n", plan.heading)),
            blocks: Default::default(),
        })
    }

    /// The tokens of `compose(head, files, plan, chosen)`'s text, unless a block's start forbids the sum.
    fn count(&mut self, chosen: &[(usize, usize, f64)]) -> Option<usize> {
        if chosen.is_empty() {
            return Some(self.head);
        }
        let mut by_file: rustc_hash::FxHashMap<usize, Vec<usize>> = Default::default();
        for &(f, d, _) in chosen {
            let defs = by_file.entry(f).or_default();
            if d != PATH_ONLY {
                defs.push(d);
            }
        }
        let mut total = self.headed;
        for (f, mut defs) in by_file {
            defs.sort_unstable();
            defs.dedup();
            let (tok, files) = (self.tok, self.files);
            let tokens = *self.blocks.entry((f, defs)).or_insert_with_key(|(f, defs)| {
                let mut block = String::new();
                write_block(&mut block, &files[*f], defs);
                block.starts_with(|c: char| !c.is_whitespace() && c != '/').then(|| tok.count(&block))
            });
            total += tokens?;
        }
        Some(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::python_file as indexed;
    use ctxkeep_core::tokens::O200k;

    #[test]
    fn a_cut_tree_keeps_every_top_folder_and_says_what_it_left_out() {
        use ctxkeep_core::structure::TreeEntry;
        let entry =
            |path: &str, files: usize| TreeEntry { path: path.into(), depth: path.split('/').count(), files };
        let mut tree = vec![entry("docs", 3), entry("examples", 60)];
        tree.extend((0..30).map(|i| entry(&format!("examples/e{i:02}"), if i == 17 { 9 } else { 2 })));
        tree.extend([entry("src", 40), entry("src/a", 30), entry("src/b", 10)]);
        let hidden = trim_tree(&mut tree, 12);
        let paths: Vec<&str> = tree.iter().map(|t| t.path.as_str()).collect();
        // Three tops, then as many subfolders of each as fit: seven (src has two),
        // the largest first, shown in path order.
        let examples = ["e00", "e01", "e02", "e03", "e04", "e05", "e17"].map(|e| format!("examples/{e}"));
        let mut expected = vec!["docs", "examples"];
        expected.extend(examples.iter().map(String::as_str));
        expected.extend(["src", "src/a", "src/b"]);
        assert_eq!(paths, expected);
        assert_eq!(hidden.get("examples"), Some(&23));
        assert_eq!(hidden.get("src"), None);
        let structure = Structure { tree, ..Default::default() };
        let text = render_structure(&structure, &hidden);
        assert!(text.contains("    e17/ (9)\n    … 23 more folders\n  src/ (40)\n"), "{text}");
        assert_eq!(text.matches("more folder").count(), 1, "{text}");
        // A tree within the limit is left whole.
        let mut small = vec![entry("a", 1), entry("a/b", 1)];
        assert!(trim_tree(&mut small, 12).is_empty() && small.len() == 2);
    }

    #[test]
    fn what_surrounds_the_code_weighs_less_a_build_s_output_and_declarations_too() {
        let paths = [
            "lib/core/Axios.js",
            "test/unit/axios.js",
            "dist/axios.js",
            "lib/axios.min.js",
            "index.d.ts",
            "index.d.cts",
        ];
        let files: Vec<IndexedFile> = paths.iter().map(|p| indexed(p, "x = 1\n")).collect();
        let weights = demotion(&files, &Focus::default(), TASK_AUXILIARY);
        assert_eq!(weights, [1.0, TASK_AUXILIARY, AUXILIARY, AUXILIARY, TASK_AUXILIARY, TASK_AUXILIARY]);
        // Unless the task points there.
        let focus = Focus { files: vec![4], ..Focus::default() };
        assert_eq!(demotion(&files, &focus, TASK_AUXILIARY)[4], 1.0);
        let tests = Focus { names: ["tests".to_string()].into_iter().collect(), ..Focus::default() };
        assert_eq!(demotion(&files, &tests, TASK_AUXILIARY)[1], 1.0);
        // A name of the code's (`Option.env()`) points at the code, not its declarations.
        let code = Focus {
            names: ["Option".to_string(), "env".to_string()].into_iter().collect(),
            ..Focus::default()
        };
        assert_eq!(demotion(&files, &code, TASK_AUXILIARY), weights);
    }

    #[test]
    fn counts_by_parts_are_the_whole_texts_counts() {
        let files = vec![
            indexed(
                "pkg/app.py",
                "class App:\n    def run(self):\n        pass\n\n    def stop(self, now=True):\n        pass\n",
            ),
            indexed("pkg/util.py", "def helper(\n    a,\n    b,\n):\n    return a\n\nX = 1\n"),
            indexed("pkg/__init__.py", "from .app import App\n"),
            indexed(" odd/start.py", "def spaced():\n    pass\n"),
        ];
        let mut order = vec![(2, PATH_ONLY, 1.0)];
        for (f, file) in files.iter().enumerate() {
            order.extend((0..file.tags.defs.len()).map(|d| (f, d, 0.5)));
        }
        let plan = Plan { order, file_rank: vec![0.25; 4], heading: "most relevant to the task first" };
        let head = "# Repository map\n\nStack: Python\n\n";
        let mut parts = PartCounts::new(&O200k, &files, head, &plan).unwrap();
        for end in 0..=plan.order.len() {
            let chosen = &plan.order[..end];
            let whole = O200k.count(&compose(head, &files, &plan, chosen).0);
            let odd = chosen.iter().any(|&(f, _, _)| f == 3);
            assert_eq!(parts.count(chosen), (!odd).then_some(whole), "{end}");
        }
        // Any subset, in any order.
        let some: Vec<_> = plan.order.iter().rev().step_by(2).copied().filter(|&(f, _, _)| f != 3).collect();
        assert_eq!(parts.count(&some), Some(O200k.count(&compose(head, &files, &plan, &some).0)));
        assert!(PartCounts::new(&ctxkeep_core::tokens::CharEstimate, &files, head, &plan).is_none());
    }
}
