//! The reference graph and its ranking.
//!
//! Nodes are files; an edge runs from a file that references a name to each
//! file that defines what the use can mean (a bare `f()` or `flask.f()` a
//! function, `x.f()` in Rust, `self.f()` or `T::f()` a method, Python's `app.f()`
//! either: `tags::qualified`, `base.rs`), weighted so that specific names count more than
//! common ones: long `snake_case`/`camelCase` names ×10, names the query
//! mentions ×10, private `_names` ×0.1, names defined in more than five files
//! ×0.1, and the square root of the number of references. A name defined in
//! several files is split among them by affinity (`base.rs`): the package's own
//! definition over a look-alike in tests or examples, a near definer over a
//! far one. A method use naming its type (`ProgressBar::new()`, Python's
//! `Path.home()`) goes to that type's method, however many files define the name. Files are ranked by PageRank personalized toward
//! the focus files, the files the query names and the files that define
//! names the query mentions (without any, toward every file, tests and
//! examples less); each file's rank then flows along its edges to
//! the definitions it references. Without a task, the definitions a
//! package's entry files re-export, or define as their own public names,
//! come first (`lift_public_surface`).
//! Everything is computed in a fixed order, so the ranking is the same on
//! every run and for any number of threads.

mod base;
pub(crate) mod imports;
mod kept;
mod surface;

use ctxkeep_core::Workspace;
use ctxkeep_core::paths::PathRole;
use petgraph::Directed;
use petgraph::csr::Csr;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use self::base::{Base, NONE};
pub(crate) use self::surface::is_own_public;
use self::surface::{lift_public_surface, private_member};
use crate::exports::JsModule;
use crate::index::IndexedFile;

/// What to rank toward.
#[derive(Debug, Clone, Default)]
pub struct Focus {
    /// Indices of focus files (being edited, or named by the user).
    pub files: Vec<usize>,
    /// Identifiers the query mentions.
    pub names: HashSet<String>,
    /// Of those, the ones it writes as code ([`code_names`]).
    pub code: HashSet<String>,
    /// Indices of files the query names.
    pub named_files: Vec<usize>,
    /// Files to rank toward with a weight of their own (e.g. their lexical score).
    pub seeds: Vec<(usize, f64)>,
}

/// The ranking of a repository's files and definitions.
#[derive(Debug, Clone)]
pub struct Ranking {
    /// PageRank of each file (sums to 1).
    pub file_rank: Vec<f64>,
    /// Score of each definition: `def_rank[file][index into its defs]`.
    pub def_rank: Vec<Vec<f64>>,
    /// Without a focus, whether each definition is of the package's public surface,
    /// as `def_rank`: what the overview lifts (a re-exported name, a public member of
    /// a re-exported type, an entry file's own public definition). Empty with a focus.
    pub surface: Vec<Vec<bool>>,
}

impl Ranking {
    /// Whether `file`'s definition `d` is of the package's public surface ([`Ranking::surface`]).
    pub fn is_surface(&self, file: usize, d: usize) -> bool {
        self.surface.get(file).and_then(|defs| defs.get(d)).copied().unwrap_or(false)
    }
}

/// The share of its name's rank an item of a trait impl takes
/// ([`crate::tags::Def::implements_trait`]): the uses of `fmt`, `call` or
/// `Response` reach every type implementing them, and the types say more.
const TRAIT_ITEM: f64 = 0.1;

/// The share of its class's rank a constructor takes in a task's ranking
/// (Python's `__init__`, JavaScript's `constructor`): a use of `Panel(…)`
/// runs it, and its parameters are the options a task about the class adds
/// to or reads.
const CONSTRUCTOR: f64 = 0.5;

const DAMPING: f64 = 0.85;
const MAX_ITERATIONS: usize = 100;
const TOLERANCE: f64 = 1e-8;
/// A name defined in more files than this links nothing (`new`, `get`, `run`):
/// split that many ways, its edges would weigh next to nothing and cost the most.
const MAX_DEFINERS: usize = 40;

/// How much a reference to `name` says about the relation of two files,
/// before the task: see [`MENTIONED`].
fn name_weight(name: &str, definers: usize) -> f64 {
    let mut weight = 1.0;
    let specific = name.chars().count() >= 8
        && (name.contains('_')
            || (name.chars().any(char::is_uppercase) && name.chars().any(char::is_lowercase)));
    if specific {
        weight *= 10.0;
    }
    if name.starts_with('_') {
        weight *= 0.1;
    }
    if definers > 5 {
        weight *= 0.1;
    }
    weight
}

/// How much more a reference weighs when the task mentions its name.
const MENTIONED: f64 = 10.0;

/// Share of the personalization of a file that surrounds the code (tests,
/// examples, ...) when nothing else personalizes: the map's overview.
const AUXILIARY_PERSONAL: f64 = 0.1;

/// Share of its rank a constant keeps in the overview unless the package
/// exports it: a value says less of the code than its functions and types.
const OVERVIEW_CONSTANT: f64 = 0.5;

/// What the graph of `files` follows from, as a digest: the same for two
/// sets of files whose graph (and so ranking toward any focus) is the same.
pub fn digest(files: &[IndexedFile]) -> [u8; 32] {
    base::digest(files)
}

/// The identifiers a task mentions: its words of three characters or more,
/// as written (`url_for`, `Session`).
pub fn query_names(query: &str) -> HashSet<String> {
    query
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 3)
        .map(str::to_string)
        .collect()
}

/// Whether a word of a task is spelled as code (`url_for`, `Session`,
/// `mergeRouters`), where a plain word (`default`, `output`) may be only English.
pub fn written_as_code(word: &str) -> bool {
    word.contains('_') || word.chars().any(char::is_uppercase)
}

/// The identifiers a task writes as code, and so names definitions outright:
/// its words spelled as code ([`written_as_code`]), and any word it puts in
/// backticks (`` `edit` ``), qualifies (`click.prompt`, `validators.disabled()`,
/// `Key::derive_from`) or calls (`select()`), of three characters or more. A file name (`app.py`)
/// is no qualified name.
pub fn code_names(query: &str) -> HashSet<String> {
    let mut out: HashSet<String> = query_names(query).into_iter().filter(|w| written_as_code(w)).collect();
    // Outside backticks the even pieces, inside the odd ones but an unclosed last.
    let pieces: Vec<&str> = query.split('`').collect();
    for (k, piece) in pieces.iter().enumerate() {
        if k % 2 == 1 && k + 1 < pieces.len() {
            out.extend(
                piece
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .filter(|w| is_identifier(w))
                    .map(str::to_string),
            );
        }
    }
    for chain in qualified_chains(query) {
        out.extend(chain.into_iter().filter(|p| is_identifier(p)).map(str::to_string));
    }
    // A name called (`select()`, `Field(default_factory=...)`): prose puts a space before `(`.
    for (at, _) in query.match_indices('(') {
        let head = &query[..at];
        let start = head.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
        let name = &head[start..];
        if is_identifier(name) {
            out.insert(name.to_string());
        }
    }
    out
}

/// The names a task qualifies, each with the name before it: `app.render`
/// gives (`app`, `render`), `Captures::get_match` (`Captures`, `get_match`),
/// `a.b.c` (`a`, `b`) and (`b`, `c`): which of the definitions of `render`
/// the task means.
pub fn qualified_names(query: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for chain in qualified_chains(query) {
        for pair in chain.windows(2) {
            if is_identifier(pair[1]) {
                out.push((pair[0].to_string(), pair[1].to_string()));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The `a.b` and `A::b` chains a task writes, split at their separators; a
/// file name (`app.py`) is none.
fn qualified_chains(query: &str) -> Vec<Vec<&str>> {
    query
        .split(|c: char| c.is_whitespace() || "()[]{},;'\"<>!?`".contains(c))
        .map(|token| token.trim_end_matches(['.', ':']))
        .filter(|token| {
            (token.contains('.') || token.contains("::")) && ctxkeep_core::language(token).is_none()
        })
        .map(|chain| chain.split(['.', ':']).filter(|p| !p.is_empty()).collect::<Vec<&str>>())
        .filter(|parts| {
            parts.len() >= 2 && parts.iter().all(|p| p.chars().all(|c| c.is_alphanumeric() || c == '_'))
        })
        .collect()
}

/// A word that can be an identifier worth matching: three characters or
/// more, a letter or `_` first.
fn is_identifier(word: &str) -> bool {
    word.len() >= 3
        && word.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && word.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// The reference graph of a repository, weighted for the names a task
/// mentions: built once, ranked toward as many personalizations as needed.
pub struct Graph<'a> {
    files: &'a [IndexedFile],
    /// Its edges' weights include the task's names.
    base: Base,
    /// Where each file's definitions start in the base's per-definition arrays.
    def_starts: Vec<usize>,
    out_weight: Vec<f64>,
    /// One edge per pair of files, weighted by its share of the source's out-weight.
    links: Csr<(), f64, Directed, u32>,
    /// The names the graph weighed, and per name id whether it is one of them.
    mentioned: HashSet<String>,
    named: Vec<bool>,
    /// The digest of what the base follows from, once computed.
    digest: Option<[u8; 32]>,
}

impl<'a> Graph<'a> {
    /// The graph of `files`, references to the `mentioned` names weighing more.
    pub fn new(files: &'a [IndexedFile], mentioned: &HashSet<String>) -> Graph<'a> {
        Graph::with_base(files, Base::build(files), mentioned)
    }

    /// [`Graph::new`], its task-independent part read from `ws`'s store when
    /// it was made from these files (and kept there when it was not).
    pub fn cached(ws: &mut Workspace, files: &'a [IndexedFile], mentioned: &HashSet<String>) -> Graph<'a> {
        Graph::cached_with_digest(ws, files, mentioned, digest(files))
    }

    /// [`Graph::cached`] for files whose [`digest`] is known.
    pub fn cached_with_digest(
        ws: &mut Workspace,
        files: &'a [IndexedFile],
        mentioned: &HashSet<String>,
        digest: [u8; 32],
    ) -> Graph<'a> {
        Graph { digest: Some(digest), ..Graph::with_base(files, Base::cached(ws, files, &digest), mentioned) }
    }

    /// The [`digest`] of its files.
    pub fn digest(&self) -> [u8; 32] {
        self.digest.unwrap_or_else(|| digest(self.files))
    }

    fn with_base(files: &'a [IndexedFile], mut base: Base, mentioned: &HashSet<String>) -> Graph<'a> {
        let n = files.len();
        let mut def_starts = Vec::with_capacity(n + 1);
        let mut at = 0;
        for file in files {
            def_starts.push(at);
            at += file.tags.defs.len();
        }
        def_starts.push(at);
        let named = name_ids(files, &base, mentioned);
        if named.contains(&true) {
            for edge in &mut base.edges {
                if named.get(base.slot_names[edge.slot as usize] as usize) == Some(&true) {
                    edge.weight *= MENTIONED;
                }
            }
        }
        // What the library answers counts in a file's out-weight: its rank leaks that way.
        let mut out_weight = base.outside.clone();
        out_weight.resize(n, 0.0);
        for edge in &base.edges {
            out_weight[edge.from as usize] += edge.weight;
        }
        // The iteration needs one edge per pair of files: names between the same two merge
        // (edges come sorted by pair). petgraph's `page_rank` ignores weights and
        // personalization, so the power iteration is ours, over its compressed rows.
        // At most one per edge: made room for once (a growing vector is copied, and faulted in, again).
        let mut pairs: Vec<(u32, u32, f64)> = Vec::with_capacity(base.edges.len());
        pairs.extend(base.edges.chunk_by(|a, b| (a.from, a.to) == (b.from, b.to)).map(|pair| {
            let from = pair[0].from;
            let share: f64 = pair.iter().map(|e| e.weight / out_weight[from as usize]).sum();
            (from, pair[0].to, share)
        }));
        // Sorted by (from, to) by construction; were it not, no edges is a graph still.
        let links = Csr::from_sorted_edges(&pairs).unwrap_or_else(|_| Csr::with_nodes(0));
        Graph {
            files,
            base,
            def_starts,
            out_weight,
            links,
            mentioned: mentioned.clone(),
            named,
            digest: None,
        }
    }

    /// The files defining each of `names` (that some file defines), in file order.
    fn definers<'n>(&self, names: &'n HashSet<String>) -> HashMap<&'n str, Vec<u32>> {
        let mut definers: HashMap<&str, Vec<u32>> = HashMap::default();
        if names.is_empty() {
            return definers;
        }
        // The graph's own names: told by their ids, not by hashing every definition's name.
        let by_id = *names == self.mentioned;
        let mut at = 0;
        for (i, file) in self.files.iter().enumerate() {
            for def in &file.tags.defs {
                let id = self.base.def_names.get(at).copied().unwrap_or(NONE);
                at += 1;
                if !def.kind.defines_name() || (by_id && self.named.get(id as usize) != Some(&true)) {
                    continue;
                }
                if let Some(name) = names.get(&def.name) {
                    let list = definers.entry(name.as_str()).or_default();
                    if list.last() != Some(&(i as u32)) {
                        list.push(i as u32);
                    }
                }
            }
        }
        definers
    }

    /// Rank the files toward `focus` (its names were the graph's to weigh).
    pub fn rank(&self, focus: &Focus) -> Ranking {
        let (files, n) = (self.files, self.files.len());
        // Personalization: focus files, named files, definers of mentioned names; else uniform.
        let mut personal = vec![0.0; n];
        for &i in focus.files.iter().chain(&focus.named_files) {
            if i < n {
                personal[i] += 1.0;
            }
        }
        for &(i, weight) in &focus.seeds {
            if i < n {
                personal[i] += weight;
            }
        }
        let mut mentioned: Vec<(&str, Vec<u32>)> = self.definers(&focus.names).into_iter().collect();
        mentioned.sort_unstable_by_key(|&(name, _)| name);
        for (_, targets) in mentioned {
            for &i in &targets {
                personal[i as usize] += 1.0 / targets.len() as f64;
            }
        }
        let total: f64 = personal.iter().sum();
        let overview = total == 0.0;
        if total > 0.0 {
            personal.iter_mut().for_each(|p| *p /= total);
        } else if n > 0 {
            for (p, file) in personal.iter_mut().zip(files) {
                *p = if PathRole::of(&file.path).is_auxiliary() { AUXILIARY_PERSONAL } else { 1.0 };
            }
            let total: f64 = personal.iter().sum();
            personal.iter_mut().for_each(|p| *p /= total);
        }

        // Power iteration; a file without outgoing edges gives its rank back to the
        // personalization, and so does every file the share of it that leads out of the
        // repository (its uses the standard library answers).
        let mut rank = personal.clone();
        let mut next = vec![0.0; n];
        let leaks: Vec<(usize, f64)> = (0..n)
            .filter_map(|i| match self.out_weight[i] {
                0.0 => Some((i, 1.0)),
                all => {
                    let outside = self.base.outside.get(i).copied().unwrap_or(0.0);
                    (outside > 0.0).then(|| (i, outside / all))
                }
            })
            .collect();
        for _ in 0..MAX_ITERATIONS {
            let dangling: f64 = leaks.iter().map(|&(i, share)| rank[i] * share).sum();
            for (next, p) in next.iter_mut().zip(&personal) {
                *next = (1.0 - DAMPING + DAMPING * dangling) * p;
            }
            // Files past the last with edges have none.
            for (from, &from_rank) in rank.iter().enumerate().take(self.links.node_count()) {
                let node = from as u32;
                let weights = self.links.edges_slice(node);
                for (&to, &weight) in self.links.neighbors_slice(node).iter().zip(weights) {
                    next[to as usize] += DAMPING * from_rank * weight;
                }
            }
            let change: f64 = next.iter().zip(&rank).map(|(a, b)| (a - b).abs()).sum();
            std::mem::swap(&mut rank, &mut next);
            if change < TOLERANCE {
                break;
            }
        }

        // Definitions: each file's rank flows along its edges to the names it references.
        let mut slot_rank = vec![0.0; self.base.slot_names.len()];
        for edge in &self.base.edges {
            let from = edge.from as usize;
            slot_rank[edge.slot as usize] += rank[from] * edge.weight / self.out_weight[from];
        }
        // What reaches a trait impl's items, before the public surface is lifted:
        // a package exporting `Response` exports no impl's `type Response`.
        let (mut unlifted, mut own_lift) = (None, surface::OwnLift { lift: 0.0, files: Vec::new() });
        if overview {
            unlifted = Some(slot_rank.clone());
            own_lift = lift_public_surface(files, &self.base, &mut slot_rank);
        }
        let unlifted = unlifted.as_ref().unwrap_or(&slot_rank);
        let lifted = |slot: u32| slot != NONE && slot_rank[slot as usize] > unlifted[slot as usize];
        let mut surface: Vec<Vec<bool>> = Vec::new();
        let def_rank = files
            .iter()
            .enumerate()
            .map(|(i, file)| {
                let defs = &file.tags.defs;
                let sliver = rank[i] * 1e-3 / defs.len().max(1) as f64;
                let range = self.def_starts[i]..self.def_starts[i + 1];
                let (slots, owned) = (&self.base.def_slots[range.clone()], &self.base.owned_slots[range]);
                // Only Rust has trait impls: other files' definitions are not even read.
                let rust = file.lang == "rust";
                // What the uses naming its type (`ProgressBar::new()`) give a method, besides its name's.
                let by_type = |d: usize| match owned.get(d).copied().unwrap_or(NONE) {
                    NONE => 0.0,
                    slot => slot_rank[slot as usize],
                };
                // Unreferenced definitions keep a sliver of their file's rank: after the referenced ones.
                let mut scores: Vec<f64> = slots
                    .iter()
                    .enumerate()
                    .map(|(d, &slot)| match slot {
                        NONE => by_type(d) + sliver,
                        _ if rust && defs.get(d).is_some_and(|def| def.implements_trait(defs)) => {
                            (unlifted[slot as usize] + by_type(d)) * TRAIT_ITEM + sliver
                        }
                        // A member its users cannot call takes no lift from a public namesake of
                        // its file (reqwest's `pub(super) fn new` of `RequestBuilder`, `Request::new`'s).
                        _ if overview && defs.get(d).is_some_and(|def| private_member(file, def, defs)) => {
                            unlifted[slot as usize] + by_type(d) + sliver
                        }
                        // Without a task, a constant the package does not export tells less
                        // than the code around it, however often it is used (black's
                        // `DEFAULT_LINE_LENGTH = 88`, a tokenizer's `NL: Final = 54`).
                        _ if overview
                            && slot_rank[slot as usize] <= unlifted[slot as usize]
                            && defs.get(d).is_some_and(|def| def.kind == crate::tags::Kind::Constant) =>
                        {
                            slot_rank[slot as usize] * OVERVIEW_CONSTANT + sliver
                        }
                        _ => slot_rank[slot as usize] + by_type(d) + sliver,
                    })
                    .collect();
                if overview {
                    // What the lift reached, but a trait impl's items (their score is the unlifted one).
                    let trait_item =
                        |d: usize| rust && defs.get(d).is_some_and(|def| def.implements_trait(defs));
                    let private = |d: usize| defs.get(d).is_some_and(|def| private_member(file, def, defs));
                    let of_surface = (0..defs.len())
                        .map(|d| !trait_item(d) && !private(d) && (lifted(slots[d]) || lifted(owned[d])));
                    surface.push(of_surface.collect());
                }
                // An entry file's own public definitions (rich's `print` and `inspect`
                // in `rich/__init__.py`) are the package's too: after what it imports.
                if own_lift.of(i) {
                    let module = JsModule::of(file);
                    for (d, def) in defs.iter().enumerate() {
                        if is_own_public(file, def, module.as_ref()) {
                            scores[d] += own_lift.lift;
                            surface[i][d] = true;
                        }
                    }
                }
                // Only for a task: an overview has no room for every class's parameters.
                for (d, def) in defs.iter().enumerate().filter(|(_, def)| !overview && def.is_constructor()) {
                    let class = def.parent.map(|p| p as usize).filter(|&p| {
                        defs.get(p).is_some_and(|parent| parent.kind == crate::tags::Kind::Class)
                    });
                    if let (Some(&class_score), Some(score)) =
                        (class.and_then(|c| scores.get(c)), scores.get(d))
                    {
                        scores[d] = score.max(class_score * CONSTRUCTOR);
                    }
                }
                scores
            })
            .collect();
        Ranking { file_rank: rank, def_rank, surface }
    }

    /// The files the graph was built from.
    pub fn files(&self) -> &'a [IndexedFile] {
        self.files
    }
}

/// Languages that import from one another count as one.
pub(super) fn language_family(lang: &str) -> &str {
    match lang {
        "typescript" | "tsx" | "javascript" | "jsx" => "javascript",
        other => other,
    }
}

/// Per name id, whether it is one of `names` (that some file of `files` defines).
fn name_ids(files: &[IndexedFile], base: &Base, names: &HashSet<String>) -> Vec<bool> {
    let ids = base.slot_names.iter().chain(&base.def_names).filter(|&&id| id != NONE);
    let mut named = vec![false; ids.max().map_or(0, |&id| id as usize + 1)];
    if names.is_empty() {
        return named;
    }
    // Each name once: a name many files define is hashed once.
    let mut seen = vec![false; named.len()];
    let defs = files.iter().flat_map(|f| &f.tags.defs);
    for (def, &id) in defs.zip(&base.def_names).filter(|&(_, &id)| id != NONE) {
        if !std::mem::replace(&mut seen[id as usize], true) {
            named[id as usize] = names.contains(&def.name);
        }
    }
    named
}

/// Rank `files` toward `focus`: [`Graph::new`] then [`Graph::rank`].
pub fn rank(files: &[IndexedFile], focus: &Focus) -> Ranking {
    Graph::new(files, &focus.names).rank(focus)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::python_file as indexed;

    #[test]
    fn the_surface_is_what_an_entry_file_imports_from_the_package_itself() {
        let files = [
            indexed(
                "pkg/__init__.py",
                "from .helpers import url_for\nfrom .app import App\ncurrent_app.json.dumps(1)\n",
            ),
            indexed("pkg/helpers.py", "def url_for(endpoint):\n    return App()\n"),
            indexed("pkg/app.py", "class App:\n    def run(self):\n        return dumps(url_for('x'))\n"),
            indexed("pkg/tag.py", "def dumps(value):\n    return value\n"),
            indexed("tests/test_helpers.py", "def url_for(endpoint):\n    return App()\n"),
        ];
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let score = |file: usize| ranking.def_rank[file][0];
        let lifted = score(1).min(score(2));
        // The function and the class it imports lead; not what it calls on an object
        // (`dumps`), nor a test's look-alike.
        assert!(score(3) < lifted / 2.0, "{:?}", ranking.def_rank);
        assert!(score(4) < lifted / 2.0, "{:?}", ranking.def_rank);
    }

    #[test]
    fn a_private_package_s_entry_file_is_no_public_surface() {
        // rich's shape: `rich/_unicode_data/__init__.py` imports its tables for itself.
        let files = [
            indexed("pkg/__init__.py", "from .cells import cell_len\n"),
            indexed("pkg/cells.py", "def cell_len(text):\n    return load(text)\n"),
            indexed(
                "pkg/_data/__init__.py",
                "from ._versions import VERSIONS\ndef load(v):\n    return VERSIONS\n",
            ),
            indexed("pkg/_data/_versions.py", "VERSIONS = (1, 2)\n"),
        ];
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let (cell_len, versions) = (ranking.def_rank[1][0], ranking.def_rank[3][0]);
        assert!(versions < cell_len / 2.0, "{:?}", ranking.def_rank);
    }

    #[test]
    fn an_entry_file_s_own_public_functions_are_the_package_s_surface() {
        // rich's shape: `rich/__init__.py` defines `print` and `inspect` next to
        // private state and imports `Console` from `rich.console`, whose module name
        // a tool script outside the package defines as a global.
        let files = [
            indexed(
                "rich/__init__.py",
                "from rich.console import Console\n_console = None\n__all__ = ['print']\n\
                 def get_console():\n    return Console()\n\
                 def print(*objects, console=None):\n    return console or get_console()\n\
                 def _private():\n    pass\n",
            ),
            indexed(
                "rich/console.py",
                "class Console:\n    def render(self):\n        return measure(self)\n",
            ),
            indexed("rich/measure.py", "def measure(value):\n    return value\n"),
            indexed("tools/profile.py", "from rich.console import Console\nconsole = Console()\n"),
        ];
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let score = |file: usize, name: &str| {
            let d = files[file].tags.defs.iter().position(|d| d.name == name).unwrap();
            ranking.def_rank[file][d]
        };
        let measure = score(2, "measure");
        for name in ["get_console", "print"] {
            assert!(score(0, name) > measure, "{name}: {:?}", ranking.def_rank);
        }
        assert!(score(0, "_private") < measure, "{:?}", ranking.def_rank);
        assert!(score(1, "Console") > score(0, "print"), "{:?}", ranking.def_rank);
        assert!(score(3, "console") < measure, "{:?}", ranking.def_rank);
    }

    fn rust(path: &str, source: &str) -> IndexedFile {
        IndexedFile::parsed(path, crate::lang::Lang::Rust, source)
    }

    #[test]
    fn what_the_standard_library_answers_makes_no_file_of_the_repository_central() {
        // casey/just's shape: every file pushes onto vectors, subtracts (indicatif's
        // `VisualLines::saturating_sub`), returns `Result`s and
        // builds a `Recipe`; the repository defines a `push` method of its own, and a
        // dev tool in another folder a `type Result` alias.
        let user = "fn run(v: &mut Vec<u8>) -> Result<Recipe, ()> {\n    v.push(1);\n    v.push(2);\n    \
                    if v.is_empty() { return Err(()); }\n    let n = v.len().saturating_sub(1);\n    Ok(Recipe::new())\n}\n";
        let mut files = vec![
            rust(
                "src/value.rs",
                "pub struct Value;\nimpl Value {\n    pub fn push(&mut self, e: &str) {}\n    \
                 pub fn saturating_sub(self, n: usize) -> Self { self }\n}\n",
            ),
            rust("src/recipe.rs", "pub struct Recipe;\nimpl Recipe {\n    pub fn build() {}\n}\n"),
            rust("tools/gen/src/main.rs", "type Result<T> = std::result::Result<T, ()>;\n"),
        ];
        files.extend((0..6).map(|i| rust(&format!("src/user_{i}.rs"), user)));
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let score = |file: usize, name: &str| {
            let d = files[file].tags.defs.iter().position(|d| d.name == name).unwrap();
            ranking.def_rank[file][d]
        };
        let recipe = score(1, "Recipe");
        assert!(score(0, "push") < recipe / 5.0, "{:?}", ranking.def_rank);
        assert!(score(0, "saturating_sub") < recipe, "{:?}", ranking.def_rank);
        assert!(score(2, "Result") < recipe / 5.0, "{:?}", ranking.def_rank);
        // The rank those uses would have given leaves the repository: the alias's
        // file is no more central for being the only definer of `Result`.
        assert!(ranking.file_rank[2] < ranking.file_rank[1], "{:?}", ranking.file_rank);
    }

    #[test]
    fn a_standard_module_s_name_makes_no_variable_of_the_repository_central() {
        // httpie's `cli/definition.py`: `ssl = options.add_group('SSL')`, outranking its
        // `parser`, took every `import ssl` and `ssl.CERT_REQUIRED` of the package.
        let mut files = vec![
            indexed("pkg/definition.py", "ssl = group('SSL')\nparser = make(ssl)\n"),
            indexed("pkg/core.py", "from .definition import parser\n\ndef main():\n    parser.parse()\n"),
        ];
        let user = "import ssl\n\ndef context():\n    return ssl.create_default_context(ssl.CERT_REQUIRED)\n";
        files.extend((0..6).map(|i| indexed(&format!("pkg/ssl_{i}.py"), user)));
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let score = |name: &str| {
            let d = files[0].tags.defs.iter().position(|d| d.name == name).unwrap();
            ranking.def_rank[0][d]
        };
        assert!(score("ssl") < score("parser"), "{:?}", ranking.def_rank);
    }

    #[test]
    fn a_call_naming_the_type_reaches_that_type_s_method_not_its_namesakes() {
        // indicatif's shape: the examples build bars by `ProgressBar::new(…)`; the
        // crate defines more `new`s than are worth linking by name alone.
        let mut files = vec![
            rust(
                "src/progress_bar.rs",
                "pub struct ProgressBar;
impl ProgressBar {
    pub fn new(len: u64) -> Self { ProgressBar }
}
",
            ),
            rust(
                "src/state.rs",
                "pub struct ProgressState;
impl<T> ProgressState<T> {
    pub fn new() -> Self { ProgressState }
}
",
            ),
        ];
        let example = "fn main() {
    let a = ProgressBar::new(1);
    let b = indicatif::ProgressBar::new(2);
}
";
        files.extend((0..3).map(|i| rust(&format!("src/bin/demo_{i}.rs"), example)));
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let new_at = |files: &[IndexedFile], file: usize| {
            files[file].tags.defs.iter().position(|d| d.name == "new").unwrap()
        };
        let (bar, state) = (new_at(&files, 0), new_at(&files, 1));
        let before = ranking.def_rank[1][state];
        assert!(ranking.def_rank[0][bar] > before * 10.0, "{:?}", ranking.def_rank);
        // The state's `new`, called as `ProgressState::new()`, takes those uses in turn.
        files.push(rust(
            "src/bin/other.rs",
            "fn main() {
    ProgressState::new();
    ProgressState::<u8>::new();
}
",
        ));
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        assert!(ranking.def_rank[1][state] > before * 10.0, "{:?}", ranking.def_rank);
    }

    #[test]
    fn a_bare_name_is_never_a_type_s_member() {
        // serde_json's shape: forty visitors' `type Value = …;` beside `enum Value`.
        let visitor = |i: usize| {
            let source = format!("struct V{i};\nimpl Visitor for V{i} {{\n    type Value = u8;\n}}\n");
            rust(&format!("src/de_{i}.rs"), &source)
        };
        let mut files: Vec<IndexedFile> = (0..4).map(visitor).collect();
        files.push(rust("src/types.rs", "pub enum Value { Null }\n"));
        files.extend((0..2).map(|i| rust(&format!("src/user_{i}.rs"), "fn user(v: Value) -> Value { v }\n")));
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let member = ranking.def_rank[0][2];
        assert_eq!(files[0].tags.defs[2].name, "Value");
        assert!(ranking.def_rank[4][0] > member * 10.0, "{:?}", ranking.def_rank);
    }

    #[test]
    fn what_a_module_with_code_of_its_own_passes_on_is_surface_too() {
        // `response/mod.rs` holds code (more than an entry file's handful of
        // definitions) and passes `IntoResponse` on; `SealedResponse` it shares only
        // within the crate, `ResponseParts` not at all; and an example's `pub use` is
        // none of the package's.
        let own: String = (0..8).map(|i| format!("pub fn helper_{i}() {{}}\n")).collect();
        let files = [
            rust(
                "src/response/mod.rs",
                &format!(
                    "pub use self::into_response::IntoResponse;\n\
                     pub(crate) use self::sealed::SealedResponse;\n\
                     use self::parts::ResponseParts;\n{own}"
                ),
            ),
            rust("src/response/into_response.rs", "pub trait IntoResponse {}\n"),
            rust("src/response/sealed.rs", "pub trait SealedResponse {}\n"),
            rust("src/response/parts.rs", "pub struct ResponseParts;\n"),
            rust("examples/demo.rs", "pub use app::DemoResponse;\n"),
            rust("src/demo.rs", "pub struct DemoResponse;\n"),
        ];
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let score = |file: usize| ranking.def_rank[file][0];
        // Equal uses otherwise: the lift alone sets it apart.
        for other in [2, 3, 5] {
            assert!(score(1) > score(other) * 2.0, "{other}: {:?}", ranking.def_rank);
        }
    }

    fn js(path: &str, source: &str) -> IndexedFile {
        IndexedFile::parsed(path, crate::lang::Lang::JavaScript, source)
    }

    #[test]
    fn a_package_s_default_export_is_what_its_users_call_by_their_own_name() {
        // express's shape: `index.js` exports `lib/express.js`'s default export,
        // `createApplication`, which every test requires whole and calls `express()`.
        let test = "var express = require('../');\nvar app = express();\napp.set('x', express());\n";
        let files = [
            js("index.js", "'use strict';\nmodule.exports = require('./lib/express');\n"),
            js(
                "lib/express.js",
                "var proto = require('./application');\nexports = module.exports = createApplication;\n\
                 function createApplication() {\n  return mixin({}, proto)\n}\n",
            ),
            js(
                "lib/application.js",
                "var app = exports = module.exports = {};\napp.set = function set(k, v) {\n  return mixin(k, v)\n}\n",
            ),
            js("lib/utils.js", "function mixin(a, b) {\n  return a\n}\nmodule.exports = { mixin }\n"),
            js("test/app.js", test),
            js("test/app.set.js", test),
        ];
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let at = |file: usize, name: &str| files[file].tags.defs.iter().position(|d| d.name == name).unwrap();
        let create = at(1, "createApplication");
        assert!(ranking.is_surface(1, create), "{:?}", ranking.surface);
        // The tests' `express()` reach it: it ranks over the helper the package calls.
        let mixin = ranking.def_rank[3][at(3, "mixin")];
        assert!(ranking.def_rank[1][create] > mixin, "{:?}", ranking.def_rank);
    }

    #[test]
    fn what_an_entry_file_re_exports_whole_is_the_package_s_surface() {
        // zustand's shape: `src/index.ts` is `export * from './vanilla.ts'` and
        // `export * from './react'`, which exports one `export * from` further on.
        let ts = |path: &str, source: &str| IndexedFile::parsed(path, crate::lang::Lang::TypeScript, source);
        let files = [
            ts("src/index.ts", "export * from './vanilla.ts'\nexport * from './react'\n"),
            ts(
                "src/vanilla.ts",
                "type CreateStore = { (): number }\nconst createStoreImpl = () => helper()\n\
                 export const createStore = ((s) => createStoreImpl()) as CreateStore\n\
                 export interface StoreApi { get: () => number }\n",
            ),
            ts("src/react.ts", "export * from './react/hooks'\n"),
            ts(
                "src/react/hooks.ts",
                "import { createStore } from '../vanilla'\nexport function useStore() { return createStore() }\n",
            ),
            ts("src/helper.ts", "export function helper() { return 1 }\n"),
        ];
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let surface = |file: usize, name: &str| {
            let d = files[file].tags.defs.iter().position(|d| d.name == name).unwrap();
            ranking.is_surface(file, d)
        };
        for (file, name) in [(1, "createStore"), (1, "StoreApi"), (3, "useStore")] {
            assert!(surface(file, name), "{name}: {:?}", ranking.surface);
        }
        // What the module keeps to itself, and what no entry passes on, are not.
        for (file, name) in [(1, "createStoreImpl"), (1, "CreateStore"), (4, "helper")] {
            assert!(!surface(file, name), "{name}: {:?}", ranking.surface);
        }
    }

    #[test]
    fn a_file_s_use_of_a_name_it_defines_is_no_other_module_s_private_namesake() {
        // zustand's middleware each define and use a private `type Write<T, U>`.
        let ts = |path: &str, source: &str| IndexedFile::parsed(path, crate::lang::Lang::TypeScript, source);
        let middleware = |name: &str| {
            format!(
                "type Write<T, U> = Omit<T, keyof U> & U\nexport function {name}(s: Write<A, B>): Write<A, B> {{ return s }}\n"
            )
        };
        let files = [
            ts("src/persist.ts", &middleware("persist")),
            ts("src/devtools.ts", &middleware("devtools")),
            ts("src/redux.ts", &middleware("redux")),
        ];
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let ranked = |file: usize, name: &str| {
            let d = files[file].tags.defs.iter().position(|d| d.name == name).unwrap();
            ranking.def_rank[file][d]
        };
        // No file's uses reach another's `Write`: it ranks as the unused.
        for (file, name) in [(0, "persist"), (1, "devtools"), (2, "redux")] {
            assert!(ranked(file, "Write") <= ranked(file, name), "{:?}", ranking.def_rank);
        }
    }

    #[test]
    fn what_a_module_exports_of_its_own_lifts_no_look_alike_elsewhere() {
        // fastify's shape: `lib/validation.js` defines and exports `validate`;
        // `lib/hooks.js` has a `Hooks.prototype.validate` method, which a bare
        // `validate(opts)` never calls, and `lib/schema.js` a function of that name.
        let files = [
            js(
                "lib/validation.js",
                "function validate (context, request) {\n  return check(request)\n}\nmodule.exports = { validate }\n",
            ),
            js(
                "lib/hooks.js",
                "function Hooks () {}\nHooks.prototype.validate = function (hook, fn) {\n  return hook\n}\n\
                 Hooks.prototype.add = function (hook, fn) {\n  this.validate(hook, fn)\n}\nmodule.exports = { Hooks }\n",
            ),
            js(
                "lib/schema.js",
                "function validate (schema) {\n  return schema\n}\nfunction compile (s) {\n  return validate(s)\n}\n",
            ),
            js(
                "lib/check.js",
                "function check (request) {\n  return request\n}\nmodule.exports = { check }\n",
            ),
        ];
        let method = files[1].tags.defs.iter().find(|d| d.name == "validate").map(|d| d.kind);
        assert_eq!(method, Some(crate::tags::Kind::Method));
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let score = |file: usize, name: &str| {
            let d = files[file].tags.defs.iter().position(|d| d.name == name).unwrap();
            ranking.def_rank[file][d]
        };
        // Neither look-alike takes a lift from validation.js's export of its own: both
        // rank below `check`, which only validation.js uses.
        let check = score(3, "check");
        assert!(score(1, "validate") < check / 5.0, "{:?}", ranking.def_rank);
        assert!(score(2, "validate") < check, "{:?}", ranking.def_rank);
    }

    #[test]
    fn an_unexported_constant_used_as_much_as_a_function_comes_after_it_in_the_overview() {
        // black's shape: `DEFAULT_LINE_LENGTH` and `parse_source` are used by the same files.
        let user = "from pkg.const import DEFAULT_LINE_LENGTH\nfrom pkg.parse import parse_source\n";
        let mut files = vec![
            indexed("pkg/const.py", "DEFAULT_LINE_LENGTH = 88\n"),
            indexed("pkg/parse.py", "def parse_source(text):\n    return text\n"),
        ];
        files.extend((0..4).map(|i| indexed(&format!("pkg/user_{i}.py"), user)));
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let (constant, function) = (ranking.def_rank[0][0], ranking.def_rank[1][0]);
        assert!(constant < function * 0.75, "{:?}", ranking.def_rank);
    }

    #[test]
    fn type_declarations_take_no_lift_over_the_code_they_describe() {
        // fastify's shape: `index.d.ts` re-exports `types/instance.d.ts`, which describes
        // the JavaScript the package is made of.
        let ts = |path: &str, source: &str| IndexedFile::parsed(path, crate::lang::Lang::TypeScript, source);
        let user = "const { buildReply } = require('./reply')\nfunction route (r) {\n  return buildReply(r)\n}\nmodule.exports = { route }\n";
        let mut files = vec![
            ts("index.d.ts", "export { FastifyInstance } from './types/instance'\n"),
            ts("types/instance.d.ts", "export interface FastifyInstance { listen(): void }\n"),
            js("lib/reply.js", "function buildReply (r) {\n  return r\n}\nmodule.exports = { buildReply }\n"),
        ];
        files.extend((0..3).map(|i| js(&format!("lib/route{i}.js"), user)));
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let (declared, code) = (ranking.def_rank[1][0], ranking.def_rank[2][0]);
        assert!(declared < code, "{:?}", ranking.def_rank);
    }

    #[test]
    fn a_crate_re_exports_only_what_is_pub() {
        // This repository's shape: `lib.rs` re-exports `records::Decision`; a private
        // `enum Decision` of another module is a look-alike, not the surface.
        let files = [
            rust("src/lib.rs", "pub use records::Decision;\n"),
            rust("src/records.rs", "pub struct Decision;\n"),
            rust("src/score/mod.rs", "pub(super) enum Decision { Clear }\n"),
            rust("src/plan.rs", "pub fn plan() -> Plan {\n    Plan\n}\npub struct Plan;\n"),
        ];
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let (exported, private) = (ranking.def_rank[1][0], ranking.def_rank[2][0]);
        assert!(private < exported / 2.0, "{:?}", ranking.def_rank);
    }

    #[test]
    fn a_trait_impl_s_items_take_neither_the_export_nor_the_uses_of_their_names() {
        let files = [
            rust("src/lib.rs", "pub use response::Response;\npub use routing::Router;\n"),
            rust("src/response.rs", "pub struct Response;\n"),
            rust(
                "src/routing.rs",
                "pub struct Router;\nimpl Service for Router {\n    type Response = Response;\n    fn call(&self) {}\n}\n",
            ),
            rust("src/app.rs", "pub fn app(r: Router) -> Response {\n    r.call();\n    Response\n}\n"),
        ];
        let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
        let routing = &ranking.def_rank[2];
        let (router, associated, call) = (routing[0], routing[2], routing[3]);
        // Without a task, the exported struct leads; the impl's `type Response`, lifted
        // with the export's name before, now comes after the file's own type.
        assert!(router > associated * 5.0, "{routing:?}");
        assert!(ranking.def_rank[1][0] > associated * 5.0, "{:?}", ranking.def_rank);
        // A task naming `call` still reaches the method, at a tenth of its name's rank.
        let mentioned: HashSet<String> = ["call".to_string()].into_iter().collect();
        let task = Graph::new(&files, &mentioned).rank(&Focus::default());
        assert!(task.def_rank[2][3] > 0.0 && call > 0.0);
    }

    #[test]
    fn the_graphs_own_names_find_the_definers_any_names_find() {
        let files = [
            indexed("pkg/app.py", "class App:\n    def run(self):\n        helper()\n"),
            indexed("pkg/util.py", "def helper():\n    return App()\n\ndef run():\n    pass\n"),
            indexed("pkg/other.py", "def helper():\n    run()\n"),
        ];
        let names: HashSet<String> =
            ["helper", "App", "run", "absent"].into_iter().map(String::from).collect();
        let graph = Graph::new(&files, &names);
        let sorted = |found: HashMap<&str, Vec<u32>>| {
            let mut found: Vec<(String, Vec<u32>)> =
                found.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            found.sort();
            found
        };
        // Another set of names is looked up by name, the graph's own by id.
        let mut others = names.clone();
        others.insert("elsewhere".into());
        let by_id = sorted(graph.definers(&names));
        assert_eq!(by_id, sorted(graph.definers(&others)));
        assert_eq!(by_id.len(), 3, "{by_id:?}");
    }

    #[test]
    fn a_task_writes_code_by_its_spelling_in_backticks_or_qualified() {
        let code = |query: &str| {
            let mut names: Vec<String> = code_names(query).into_iter().collect();
            names.sort();
            names
        };
        assert_eq!(code("Fix url_for and Session in the app"), ["Fix", "Session", "url_for"]);
        assert_eq!(code("Add support of `pathlib.Path` to `edit`"), ["Add", "Path", "edit", "pathlib"]);
        assert_eq!(
            code("fix validators.disabled() on nesting; click.prompt typing"),
            ["click", "disabled", "prompt", "validators"]
        );
        assert_eq!(code("clarify Key::derive_from (fixes #2646)"), ["Key", "derive_from"]);
        // A call is code; a parenthesis after a space is prose.
        assert_eq!(code("add a new overload to select() for 5 entities (or more)"), ["select"]);
        assert_eq!(code("support default_factory=...) in field(x)"), ["default_factory", "field"]);
        // File names, versions and sentences' ends are no qualified names.
        assert_eq!(code("update setup.py and src/app.py to v1.2.3. then done."), [""; 0]);
        assert_eq!(code("a lone ` backtick, and the end."), [""; 0]);
    }
}
