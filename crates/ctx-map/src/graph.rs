//! The reference graph and its ranking.
//!
//! Nodes are files; an edge runs from a file that references a name to each
//! file that defines it, weighted so that specific names count more than
//! common ones: long `snake_case`/`camelCase` names ×10, names the query
//! mentions ×10, private `_names` ×0.1, names defined in more than five files
//! ×0.1, and the square root of the number of references. A name defined in
//! several files is split among them by [`affinity`]: the package's own
//! definition over a look-alike in tests or examples, a near definer over a
//! far one. Files are ranked by PageRank personalized toward
//! the focus files, the files the query names and the files that define
//! names the query mentions (without any, toward every file, tests and
//! examples less); each file's rank then flows along its edges to
//! the definitions it references. Everything is computed in a fixed order,
//! so the ranking is the same on every run and for any number of threads.

use ctxkeep_core::paths::PathRole;
use petgraph::Directed;
use petgraph::csr::Csr;
use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::index::IndexedFile;

/// What to rank toward.
#[derive(Debug, Clone, Default)]
pub struct Focus {
    /// Indices of focus files (being edited, or named by the user).
    pub files: Vec<usize>,
    /// Identifiers the query mentions.
    pub names: HashSet<String>,
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
}

const DAMPING: f64 = 0.85;
const MAX_ITERATIONS: usize = 100;
const TOLERANCE: f64 = 1e-8;
/// A name defined in more files than this links nothing (`new`, `get`, `run`):
/// split that many ways, its edges would weigh next to nothing and cost the most.
const MAX_DEFINERS: usize = 40;

/// How much a reference to `name` says about the relation of two files.
fn name_weight(name: &str, definers: usize, mentioned: &HashSet<String>) -> f64 {
    let mut weight = 1.0;
    let specific = name.chars().count() >= 8
        && (name.contains('_')
            || (name.chars().any(char::is_uppercase) && name.chars().any(char::is_lowercase)));
    if specific {
        weight *= 10.0;
    }
    if mentioned.contains(name) {
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

/// Share of the personalization of a file that surrounds the code (tests,
/// examples, ...) when nothing else personalizes: the map's overview.
const AUXILIARY_PERSONAL: f64 = 0.1;

/// Where a file sits, for [`affinity`].
struct Place<'a> {
    role: PathRole,
    /// Ids of the file's first three folders, each with the folders above
    /// it (`a`, `a/b`, `a/b/c`); 0 past the last. Equal ids, equal paths.
    folders: [u32; 3],
    /// The first component of the path.
    top: &'a str,
    /// A test module (`test_app.py`, `app.test.ts`): nothing outside imports it.
    test_module: bool,
}

impl<'a> Place<'a> {
    fn of(path: &'a str, folder_ids: &mut HashMap<&'a str, u32>) -> Place<'a> {
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        // A bare file name's role is that of its name alone (`test_x.py`, `x.spec.ts`).
        let test_module = PathRole::of(name) == PathRole::Test;
        let mut folders = [0; 3];
        // The root is a folder of its own: two files there share it.
        let ends = dir.match_indices('/').map(|(i, _)| i).chain(std::iter::once(dir.len()));
        for (slot, end) in folders.iter_mut().zip(ends) {
            let next = folder_ids.len() as u32 + 1;
            *slot = *folder_ids.entry(&dir[..end]).or_insert(next);
        }
        Place { role: PathRole::of(path), folders, top: path.split('/').next().unwrap_or(path), test_module }
    }
}

/// How likely a reference in `from` means the definition in `to`, relative
/// to the name's other definers: a test module's names are its own; tests,
/// examples and the like are not imported from outside their tree; a definer
/// in the same package or folder is likelier than a far one (×4 for each
/// leading folder in common, up to three).
fn affinity(from: &Place, to: &Place, same_file: bool) -> f64 {
    let common = from.folders.iter().zip(&to.folders).take_while(|(a, b)| a == b && **a != 0).count();
    let mut affinity = f64::from(1u32 << (2 * common));
    if !same_file {
        if to.test_module {
            affinity *= 0.01;
        } else if to.role.is_auxiliary() && (from.role != to.role || from.top != to.top) {
            affinity *= 0.02;
        }
    }
    affinity
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

/// The reference graph of a repository, weighted for the names a task
/// mentions: built once, ranked toward as many personalizations as needed.
pub struct Graph<'a> {
    files: &'a [IndexedFile],
    /// Each defined name's id: the index of its definers.
    name_ids: HashMap<&'a str, u32>,
    /// Per name id, the files defining it, in file order.
    definers: Vec<Vec<u32>>,
    places: Vec<Place<'a>>,
    /// (from, to, name id, weight), grouped by `from`; indices as u32 to
    /// keep the largest vector here small.
    edges: Vec<(u32, u32, u32, f64)>,
    out_weight: Vec<f64>,
    /// One edge per pair of files, weighted by its share of the source's out-weight.
    links: Csr<(), f64, Directed, u32>,
}

impl<'a> Graph<'a> {
    /// The graph of `files`, references to the `mentioned` names weighing more.
    pub fn new(files: &'a [IndexedFile], mentioned: &HashSet<String>) -> Graph<'a> {
        let n = files.len();
        let mut name_ids: HashMap<&str, u32> = HashMap::default();
        let mut definers: Vec<Vec<u32>> = Vec::new();
        for (i, file) in files.iter().enumerate() {
            for name in file.defined_names() {
                let id = *name_ids.entry(name).or_insert_with(|| {
                    definers.push(Vec::new());
                    definers.len() as u32 - 1
                });
                let list = &mut definers[id as usize];
                if list.last() != Some(&(i as u32)) {
                    list.push(i as u32);
                }
            }
        }
        let mut folder_ids = HashMap::default();
        let places: Vec<Place> = files.iter().map(|f| Place::of(&f.path, &mut folder_ids)).collect();

        // Edges (from, to, name, weight), in a fixed order: each file's in parallel, then in file order.
        let per_file: Vec<Vec<(u32, u32, u32, f64)>> = files
            .par_iter()
            .enumerate()
            .map(|(from, file)| {
                let from_id = from as u32;
                let (mut edges, mut shares) = (Vec::new(), Vec::new());
                for (name, count) in &file.tags.refs {
                    let Some(&id) = name_ids.get(name.as_str()) else { continue };
                    let targets = &definers[id as usize];
                    if targets.len() > MAX_DEFINERS {
                        continue;
                    }
                    let weight = name_weight(name, targets.len(), mentioned) * f64::from(*count).sqrt();
                    // A name defined in several files: each definer gets its share (a use
                    // of a name the file defines itself is mostly of its own).
                    shares.clear();
                    shares.extend(
                        targets
                            .iter()
                            .map(|&to| affinity(&places[from], &places[to as usize], to == from_id)),
                    );
                    let total: f64 = shares.iter().sum();
                    for (&to, share) in targets.iter().zip(&shares).filter(|&(&to, _)| to != from_id) {
                        edges.push((from_id, to, id, weight * share / total));
                    }
                }
                edges
            })
            .collect();
        let edges: Vec<(u32, u32, u32, f64)> = per_file.concat();
        let mut out_weight = vec![0.0; n];
        for &(from, _, _, weight) in &edges {
            out_weight[from as usize] += weight;
        }
        // The iteration needs one edge per pair of files: names between the same two merge.
        // Edges come grouped by `from` (the loop above), so only each group is sorted.
        // petgraph's `page_rank` ignores weights and personalization, so the power
        // iteration is ours, over petgraph's compressed rows (each file's edges together).
        let mut sorted: Vec<(u32, u32, f64)> = Vec::with_capacity(edges.len());
        let mut group: Vec<(usize, f64)> = Vec::new();
        for chunk in edges.chunk_by(|a, b| a.0 == b.0) {
            let from = chunk[0].0 as usize;
            group.clear();
            group.extend(chunk.iter().map(|&(_, to, _, weight)| (to as usize, weight)));
            group.sort_unstable_by_key(|&(to, _)| to);
            for same_target in group.chunk_by(|a, b| a.0 == b.0) {
                let share: f64 = same_target.iter().map(|&(_, weight)| weight / out_weight[from]).sum();
                sorted.push((from as u32, same_target[0].0 as u32, share));
            }
        }
        // Sorted by (from, to) by construction; were it not, no edges is a graph still.
        let links = Csr::from_sorted_edges(&sorted).unwrap_or_else(|_| Csr::with_nodes(0));
        Graph { files, name_ids, definers, places, edges, out_weight, links }
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
        let mut mentioned: Vec<&String> = focus.names.iter().collect();
        mentioned.sort();
        for name in mentioned {
            if let Some(&id) = self.name_ids.get(name.as_str()) {
                let targets = &self.definers[id as usize];
                for &i in targets {
                    personal[i as usize] += 1.0 / targets.len() as f64;
                }
            }
        }
        let total: f64 = personal.iter().sum();
        if total > 0.0 {
            personal.iter_mut().for_each(|p| *p /= total);
        } else if n > 0 {
            for (p, place) in personal.iter_mut().zip(&self.places) {
                *p = if place.role.is_auxiliary() { AUXILIARY_PERSONAL } else { 1.0 };
            }
            let total: f64 = personal.iter().sum();
            personal.iter_mut().for_each(|p| *p /= total);
        }

        // Power iteration; a file without outgoing edges gives its rank back to the personalization.
        let mut rank = personal.clone();
        let mut next = vec![0.0; n];
        for _ in 0..MAX_ITERATIONS {
            let dangling: f64 = (0..n).filter(|&i| self.out_weight[i] == 0.0).map(|i| rank[i]).sum();
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
        let mut name_rank: HashMap<(u32, u32), f64> = HashMap::default();
        for &(from, to, name, weight) in &self.edges {
            let from = from as usize;
            *name_rank.entry((to, name)).or_default() += rank[from] * weight / self.out_weight[from];
        }
        let def_rank = files
            .iter()
            .enumerate()
            .map(|(i, file)| {
                let defs = file.tags.defs.len().max(1) as f64;
                let score = |def: &crate::tags::Def| {
                    // Unreferenced definitions keep a sliver of their file's rank: after the referenced ones.
                    let id = self.name_ids.get(def.name.as_str());
                    let referenced = id.and_then(|&id| name_rank.get(&(i as u32, id)));
                    referenced.copied().unwrap_or(0.0) + rank[i] * 1e-3 / defs
                };
                file.tags.defs.iter().map(score).collect()
            })
            .collect();
        Ranking { file_rank: rank, def_rank }
    }

    /// The files the graph was built from.
    pub fn files(&self) -> &'a [IndexedFile] {
        self.files
    }
}

/// Rank `files` toward `focus`: [`Graph::new`] then [`Graph::rank`].
pub fn rank(files: &[IndexedFile], focus: &Focus) -> Ranking {
    Graph::new(files, &focus.names).rank(focus)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearness_counts_the_leading_folders_two_paths_share() {
        let paths = [
            "a.rs",
            "b.rs",
            "src/a.rs",
            "src/x/a.rs",
            "src/x/y/z/a.rs",
            "src/x/y/w/a.rs",
            "srcx/a.rs",
            "x/a.rs",
        ];
        let mut ids = HashMap::default();
        let places: Vec<Place> = paths.iter().map(|p| Place::of(p, &mut ids)).collect();
        for (i, from) in paths.iter().enumerate() {
            for (j, to) in paths.iter().enumerate() {
                // As the folders' names compare: the root shares itself, at most three count.
                let dir = |p: &str| p.rsplit_once('/').map_or("", |(d, _)| d).to_string();
                let (a, b) = (dir(from), dir(to));
                let common = a.split('/').zip(b.split('/')).take_while(|(x, y)| x == y).count().min(3);
                let expected = f64::from(1u32 << (2 * common));
                assert_eq!(affinity(&places[i], &places[j], true), expected, "{from} {to}");
            }
        }
    }
}
