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
mod crates;
pub(crate) mod imports;
mod kept;
mod surface;

use ctxkeep_core::Workspace;
use ctxkeep_core::paths::PathRole;
use petgraph::Directed;
use petgraph::csr::Csr;
use rayon::prelude::*;
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

/// [`digest`], from the store when the files' contents are those it was last made from.
pub fn digest_cached(ws: &mut Workspace, files: &[IndexedFile]) -> [u8; 32] {
    base::digest_cached(ws, files)
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
        let digest = digest_cached(ws, files);
        Graph::cached_with_digest(ws, files, mentioned, digest)
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
                if let Some(name) = names.get(def.name.as_str()) {
                    let list = definers.entry(name.as_str()).or_default();
                    if list.last() != Some(&(i as u32)) {
                        list.push(i as u32);
                    }
                }
            }
        }
        definers
    }

    /// Rank the files toward `focus` (its names were the graph's to weigh), and their definitions.
    pub fn rank(&self, focus: &Focus) -> Ranking {
        let (rank, overview) = self.page_rank(focus);
        self.rank_definitions(rank, overview)
    }

    /// Rank the files toward `focus`, not their definitions (what `ctx rank` reads).
    pub fn file_rank(&self, focus: &Focus) -> Vec<f64> {
        self.page_rank(focus).0
    }

    /// Each file's PageRank toward `focus`, and whether that is the overview's (nothing to focus on).
    fn page_rank(&self, focus: &Focus) -> (Vec<f64>, bool) {
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
        (rank, overview)
    }

    /// Each definition's score from its files' `rank`: what flows to its name
    /// (and, in the overview, what the public surface lifts).
    fn rank_definitions(&self, rank: Vec<f64>, overview: bool) -> Ranking {
        let files = self.files;
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
        // Each file's (scores, of the surface), the files in parallel.
        let (def_rank, surface): (Vec<Vec<f64>>, Vec<Vec<bool>>) = files
            .par_iter()
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
                let mut surface = Vec::new();
                if overview {
                    // What the lift reached, but a trait impl's items (their score is the unlifted one).
                    let trait_item =
                        |d: usize| rust && defs.get(d).is_some_and(|def| def.implements_trait(defs));
                    let private = |d: usize| defs.get(d).is_some_and(|def| private_member(file, def, defs));
                    let of_surface = (0..defs.len())
                        .map(|d| !trait_item(d) && !private(d) && (lifted(slots[d]) || lifted(owned[d])));
                    surface = of_surface.collect();
                }
                // An entry file's own public definitions (rich's `print` and `inspect`
                // in `rich/__init__.py`) are the package's too: after what it imports.
                if own_lift.of(i) {
                    let module = JsModule::of(file);
                    for (d, def) in defs.iter().enumerate() {
                        if own_lift.shows(i, file, def, module.as_ref()) {
                            scores[d] += own_lift.lift;
                            surface[d] = true;
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
                (scores, surface)
            })
            .unzip();
        let surface = if overview { surface } else { Vec::new() };
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
            named[id as usize] = names.contains(def.name.as_str());
        }
    }
    named
}

/// Rank `files` toward `focus`: [`Graph::new`] then [`Graph::rank`].
pub fn rank(files: &[IndexedFile], focus: &Focus) -> Ranking {
    Graph::new(files, &focus.names).rank(focus)
}

#[cfg(test)]
mod tests;
