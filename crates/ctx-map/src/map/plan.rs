//! What a map shows, before any budget: the definitions in the order they are
//! given room, for the whole repository (the overview) or for one task.

use ctxkeep_core::paths::PathRole;
use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::graph::{self, Focus, Graph, Ranking};
use crate::index::{Indexed, IndexedFile};
use crate::rank::{self, RankOptions};
use crate::signature::WRAP;
use crate::tags::Kind;

/// What a map shows: definitions in the order they are given room, and each file's rank.
#[derive(Debug, Clone)]
pub struct Plan {
    /// (file, definition, score), best first.
    pub order: Vec<(usize, usize, f64)>,
    /// Each file's rank, as the map's JSON reports it.
    pub file_rank: Vec<f64>,
    /// What the order follows, for the heading.
    pub heading: &'static str,
    /// A map for a task: its files say where; the tree and key files of the
    /// repository, the same for every task, give their room to them.
    pub task: bool,
    /// (file, definition) → the signature shown instead of the definition's
    /// own: a long one with the parameters its cut left out that the task
    /// names brought back (`widened`).
    pub widened: HashMap<(usize, usize), String>,
}

impl Plan {
    /// The signature the map shows for `file`'s definition `d` (of index `f`).
    pub(super) fn signature<'a>(&'a self, file: &'a IndexedFile, f: usize, d: usize) -> &'a str {
        self.widened.get(&(f, d)).map_or(file.tags.defs[d].signature.as_str(), String::as_str)
    }
}

/// In a plan's order, a file shown by its path alone: it defines nothing to show
/// (re-exports, module declarations), yet the task points there.
pub(super) const PATH_ONLY: usize = usize::MAX;

/// Weight of a file that only surrounds the code (tests, examples, fixtures,
/// benches, docs, vendored code) when the task does not point there: in the
/// overview, and in a task map (where rank has already weighed the task's words).
const AUXILIARY: f64 = 0.1;
pub(crate) const TASK_AUXILIARY: f64 = 0.4;
/// Share of the graph (the task's neighbours) in a task map's file order, next to rank's score.
const NEIGHBOURS: f64 = 0.1;
/// How many of rank's best files seed the graph of a task map.
const SEEDS: usize = 20;
/// How many files of a task map each get a line before any gets a second.
const LEAD_FILES: usize = 10;
/// How many of a task map's first files have their functions' code read
/// ([`says_in_code`]): five found the changed definitions as ten did, at half the reading.
const CODE_FILES: usize = 5;
/// How many files of a task map are read at once, in parallel (see [`plan_task`]).
const BATCH: usize = 32;

/// The map without a task: definitions by how much of the repository refers to them.
pub(super) fn plan_overview(
    files: &[IndexedFile],
    ranking: Ranking,
    focus: &Focus,
    entries: &[String],
    limit: usize,
) -> Plan {
    let weight = demotion(files, focus, AUXILIARY);
    // A `pub` item of a module the crate keeps to itself is no more public than the
    // module, unless the crate passes it on (`pub use util::basic_auth;`).
    let private_module = super::visibility::in_private_module(files);
    let passed_on = super::visibility::passed_on(files, &private_module);
    let (private_module, passed_on) = (&private_module, &passed_on);
    let boilerplate = boilerplate(files);
    let boilerplate = &boilerplate;
    let mut order: Vec<(usize, usize, f64)> = files
        .iter()
        .enumerate()
        .flat_map(|(f, file)| {
            let (score, weight) = (&ranking.def_rank[f], weight[f]);
            let (defs, rust) = (&file.tags.defs, file.lang == "rust");
            let js = crate::exports::JsModule::of(file);
            let aside = move |d: usize| {
                let def = &defs[d];
                // A Rust item without `pub` (or `pub(crate)`) is its crate's own business,
                // as a `_name` is a Python module's (http's `pub(crate) struct ByteStr`).
                let crate_private = || {
                    rust && !def.is_rust_public() && def.kind != Kind::Impl && {
                        let parent = def.parent(defs);
                        !parent.is_some_and(|p| p.kind == Kind::Trait || p.signature.contains(" for "))
                    }
                };
                // So is a `pub` one in a private module (reqwest's `mod util;`'s `basic_auth`),
                // but what the crate passes on, and its members (`pub use async_impl::Response`
                // and `Response::text`).
                let module_private = || {
                    if !(rust
                        && (private_module[f] || super::visibility::in_private_inline_module(def, defs)))
                    {
                        return false;
                    }
                    // A generic's name without its parameters (`Response<T>`).
                    !std::iter::successors(Some(def), |d| d.parent(defs)).any(|d| {
                        let name = d.name.split('<').next().unwrap_or(&d.name).trim();
                        passed_on.passes_on(name, &file.path)
                    })
                };
                // `#[doc(hidden)]` keeps an item and all it holds out of the crate's docs.
                let doc_hidden = || {
                    rust && std::iter::successors(Some(def), |d| d.parent(defs)).any(|d| d.is_doc_hidden())
                };
                // And what a JavaScript module keeps to itself, with its members (got's
                // `const wrapQuickLruIfNeeded` and the `get`/`set` of the object it returns).
                let unexported = || {
                    let top = std::iter::successors(Some(def), |d| d.parent(defs)).last().unwrap_or(def);
                    js.as_ref().is_some_and(|module| module.hides(top))
                };
                // An alias (`Str = String`) is read where what it names is.
                let second_name = || def.alias_of(defs).is_some();
                let hidden = crate::tags::private_by_name(&def.name)
                    || crate_private()
                    || unexported()
                    || module_private()
                    || doc_hidden()
                    || second_name();
                let private = if hidden { PRIVATE } else { 1.0 };
                private * if def.deprecated { DEPRECATED } else { 1.0 }
            };
            let mut repeats = overrides(file, score);
            // A setter beside its getter (koa's `set status (code)`) adds one word to
            // what the getter's line says.
            for (d, def) in defs.iter().enumerate().filter(|(_, def)| def.is_setter()) {
                let getter =
                    |o: &crate::tags::Def| o.name == def.name && o.parent == def.parent && !o.is_setter();
                if defs.iter().any(getter) {
                    repeats[d] *= OVERRIDE;
                }
            }
            shown_defs(file, weight < 1.0, focus, boilerplate)
                .map(move |d| (f, d, score[d] * weight * aside(d) * repeats[d]))
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
    Plan {
        order,
        file_rank: ranking.file_rank,
        heading: "public surface, then most referenced",
        task: false,
        widened: HashMap::default(),
    }
}

/// Per definition of `file`, its weight in the overview as one of the file's
/// members of the same name in other classes (jinja's `as_const` in twelve
/// node classes of `nodes.py`): the best scored counts, the others [`OVERRIDE`].
fn overrides(file: &IndexedFile, score: &[f64]) -> Vec<f64> {
    let defs = &file.tags.defs;
    let mut weights = vec![1.0; defs.len()];
    // Sorted by name (stably: in the file's order within a name), runs of one name.
    // A task map asks this of every file it reaches: no hashing.
    let mut methods: Vec<usize> =
        (0..defs.len()).filter(|&d| defs[d].kind == Kind::Method && defs[d].parent.is_some()).collect();
    if methods.len() < 2 {
        return weights;
    }
    // (A setter is no override of its getter.)
    let key = |d: usize| (defs[d].name.as_str(), defs[d].is_setter());
    methods.sort_by(|&a, &b| key(a).cmp(&key(b)));
    for run in methods.chunk_by(|&a, &b| key(a) == key(b)).filter(|run| run.len() > 1) {
        let mut kept = run[0];
        for &d in &run[1..] {
            if score.get(d) > score.get(kept) {
                kept = d;
            }
        }
        for &d in run.iter().filter(|&&d| d != kept) {
            weights[d] = OVERRIDE;
        }
    }
    weights
}

/// Weight in the overview of a method another class of its file defines too,
/// and scores higher: a reader learns the name once.
const OVERRIDE: f64 = 0.2;

/// Weight in the overview of a name its language's convention keeps private
/// (`_findOption`, `#state`): however often the file's own code calls it, the
/// public surface is what the overview is for. A task that needs it names it.
const PRIVATE: f64 = 0.3;

/// Weight in the overview of a deprecated definition (`@deprecated`,
/// `#[deprecated]`): what the package is taking away is not its surface,
/// however much of its own code still calls it.
const DEPRECATED: f64 = 0.3;

/// How a task map orders a file's definitions, before their scores: named by
/// the task, then not deprecated, then by how telling the task's words its
/// name says are (0 for none) and, in the first [`CODE_FILES`] files, a function's code
/// ([`says_in_code`]), then by what its code says alone, then public by its name (not `_metavar_from_type`,
/// however often the file calls it), then not a constant; the greater first.
type Told = (bool, bool, f64, f64, bool, bool);

/// The map for a task: files in `ctx rank`'s order (focus files first), then
/// their neighbours in the graph personalized by rank's scores; the first
/// [`LEAD_FILES`] files get a line each before any gets a second; within a
/// file, the definitions the task names first, then the most referenced,
/// constants last.
pub(super) fn plan_task(
    graph: &Graph,
    indexed: &Indexed,
    focus: &Focus,
    query: Option<&str>,
    limit: usize,
    root: &std::path::Path,
) -> Plan {
    let files = &indexed.files;
    let n = files.len();
    let mut task = vec![0.0; n];
    if let Some(query) = query {
        // `ctx rank`'s order, without the graph: the map's own PageRank below follows it.
        let history = indexed.history.as_ref();
        let ranked = rank::rank_counted(files, &indexed.terms, query, history, RankOptions::default());
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
    // The counts leave out terms too long to be kept (never a name's in practice).
    let terms_counted = task_terms.keys().all(|t| t.len() <= crate::terms::MAX_TERM_LEN);
    // How much `name` says of the task, where it can only say `terms` of it.
    let says_of = |name: &str, terms: &[&str]| -> f64 {
        // Each term of a name is a piece of it, lowercased (a stem only drops an
        // ending): a name holding none of the task's terms is not split at all.
        let may = |t: &&str| name.as_bytes().windows(t.len()).any(|w| w.eq_ignore_ascii_case(t.as_bytes()));
        if terms.is_empty() || (name.is_ascii() && !terms.iter().any(may)) {
            return 0.0;
        }
        let mut said = crate::terms::terms(name);
        said.sort_unstable();
        said.dedup();
        // (A sum of nothing is -0.0, which `total_cmp` puts below a 0.0.)
        said.iter().filter_map(|t| task_terms.get(t.as_str())).fold(0.0, |sum, w| sum + w)
    };
    let all_terms: Vec<&str> = task_terms.keys().copied().collect();
    let says_the_task = |name: &str| says_of(name, &all_terms);
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
    let boilerplate = boilerplate(files);

    // A file's definitions, best first, as many as can score above `cut` (its `k`th
    // entry scores key / (k + 1)): ((named by the task, not deprecated, saying its
    // words by name, in its code, public, not a constant), definition): named first,
    // then what is not deprecated, then those saying its words, then public names,
    // then the file's code before its constants (40 `STYLE_* = "dim"` its functions
    // all use took a focus map), then by score; a total order. A method other
    // classes of the file define too says the task's words once, where it scores
    // best (marshmallow's six `_bind_to_schema` took a map's room).
    let ranked_defs = |position: usize, f: usize, cut: f64| -> Vec<usize> {
        let file = &files[f];
        let score = &ranking.def_rank[f];
        let repeats = overrides(file, score);
        // The terms the names the file defines say, from the task's counts: few, or none.
        let said_in_names: Vec<&str> = match terms_counted {
            true => all_terms.iter().copied().filter(|t| indexed.terms.count(f, t).names > 0).collect(),
            false => all_terms.clone(),
        };
        let mut defs: Vec<(Told, usize)> = shown_defs(file, weight[f] < 1.0, focus, &boilerplate)
            .map(|d| {
                let def = &file.tags.defs[d];
                let named = names_outright(focus, &def.name);
                let public = !crate::tags::private_by_name(&def.name);
                // A constructor is its class's call: it says what the class's name does
                // ("add a max_width option to Panel" is about `Panel.__init__`'s parameters).
                let said_by = match def.is_constructor() {
                    true => def.parent(&file.tags.defs).unwrap_or(def),
                    false => def,
                };
                // A name the file defines says only the terms its names say.
                let says = match (repeats[d] < 1.0, said_by.kind.defines_name()) {
                    (true, _) => 0.0,
                    (false, true) => says_of(&said_by.name, &said_in_names),
                    (false, false) => says_the_task(&said_by.name),
                };
                ((named, !def.deprecated, says, 0.0, public, def.kind != Kind::Constant), d)
            })
            .collect();
        if position < CODE_FILES {
            says_in_code(root, file, &task_terms, &repeats, &mut defs);
        }
        let by_rank = |&(told_a, a): &(Told, usize), &(told_b, b): &(Told, usize)| {
            (told_b.0.cmp(&told_a.0))
                .then(told_b.1.cmp(&told_a.1))
                .then(told_b.2.total_cmp(&told_a.2))
                .then(told_b.3.total_cmp(&told_a.3))
                .then(told_b.4.cmp(&told_a.4))
                .then(told_b.5.cmp(&told_a.5))
                .then((score[b] * repeats[b]).total_cmp(&(score[a] * repeats[a])))
                .then(a.cmp(&b))
        };
        // Those under the cut cannot make it: only the best of the others need their places.
        let lead = usize::from(position < LEAD_FILES);
        let keep = (lead..defs.len()).find(|&k| key[f] / ((k + 1) as f64) < cut).unwrap_or(defs.len());
        if keep < defs.len() {
            if keep > 0 {
                defs.select_nth_unstable_by(keep - 1, by_rank);
            }
            defs.truncate(keep);
        }
        defs.sort_unstable_by(by_rank);
        defs.into_iter().map(|(_, d)| d).collect()
    };

    let (mut order, mut rest) = (Vec::new(), Vec::new());
    // A file's entries score at most its key, and keys only fall from here:
    // once `limit` entries score above a file's key, none of its or a later
    // file's can make the cut `sort_best_first` makes, and the rest is skipped.
    // Files are read a batch at a time, in parallel, under the cut the batch
    // starts with: a lower cut only keeps entries that `sort_best_first` drops,
    // so the plan is the one reading file by file gives.
    let (mut cut, mut next_check) = (f64::NEG_INFINITY, limit.max(1));
    'files: for (batch, files_of_batch) in by_key.chunks(BATCH).enumerate() {
        let start = batch * BATCH;
        let batch_cut = cut;
        let ranked: Vec<Vec<usize>> = files_of_batch
            .par_iter()
            .enumerate()
            .map(|(j, &f)| match start + j >= LEAD_FILES && batch_cut > key[f] {
                true => Vec::new(),
                false => ranked_defs(start + j, f, batch_cut),
            })
            .collect();
        for ((j, &f), defs) in files_of_batch.iter().enumerate().zip(ranked) {
            let position = start + j;
            if position >= LEAD_FILES && cut > key[f] {
                break 'files;
            }
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
    }
    sort_best_first(&mut rest, limit);
    order.extend(rest);
    let widened = order
        .iter()
        .filter(|&&(f, d, _)| d != PATH_ONLY && !files[f].tags.defs[d].left_out.is_empty())
        .filter_map(|&(f, d, _)| {
            let def = &files[f].tags.defs[d];
            let named = |item: &str| match names_outright(focus, item) {
                true => f64::INFINITY,
                false => says_the_task(item),
            };
            Some(((f, d), widened(def, named)?))
        })
        .collect();
    Plan { order, file_rank: key, heading: "most relevant to the task first", task: true, widened }
}

/// Most parameters a task brings back into a cut signature.
const BROUGHT_BACK: usize = 3;

/// `def`'s signature with the parameters its cut left out (`… (+N)`) that the
/// task names brought back on a last line, the [`BROUGHT_BACK`] it names
/// most (`named`: how much a parameter's name says the task), in their order,
/// each run of others between them as `… (+N)`: jinja's `def overlay(self, …
/// (+20), enable_async: bool = missing)` for "add enable_async to overlay".
/// `None` when it names none.
fn widened(def: &crate::tags::Def, named: impl Fn(&str) -> f64) -> Option<String> {
    let mark = format!(" … (+{})", def.left_out.len());
    let at = def.signature.rfind(&mark)?;
    let mut told: Vec<(usize, f64)> = (def.left_out.iter().enumerate())
        .filter_map(|(k, item)| Some((k, named(parameter_name(item)?))).filter(|&(_, said)| said > 0.0))
        .collect();
    if told.is_empty() {
        return None;
    }
    told.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    told.truncate(BROUGHT_BACK);
    // The items brought back, and for each run of others between them, `… (+N)`.
    let mut pieces: Vec<String> = Vec::new();
    let mut run = 0;
    for (k, item) in def.left_out.iter().enumerate() {
        if told.iter().any(|&(t, _)| t == k) {
            if run > 0 {
                pieces.push(format!("… (+{run})"));
                run = 0;
            }
            pieces.push(crate::signature::cut(item, WRAP));
        } else {
            run += 1;
        }
    }
    if run > 0 {
        pieces.push(format!("… (+{run})"));
    }
    let (shown, after) = (&def.signature[..at], &def.signature[at + mark.len()..]);
    let last = shown.lines().last().unwrap_or("");
    let indent = match last.len() - last.trim_start().len() {
        // The list's first line is the definition's own: its items go one level in.
        0 => "    ",
        width => &last[..width],
    };
    // On as few lines as fit the signature's width, as its shown lines are.
    let (mut lines, mut line) = (Vec::new(), String::new());
    for (k, piece) in pieces.iter().enumerate() {
        let comma = if k + 1 < pieces.len() { "," } else { "" };
        if !line.is_empty() && indent.len() + line.chars().count() + piece.chars().count() + 2 > WRAP {
            lines.push(format!("{indent}{}", std::mem::take(&mut line)));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(piece);
        line.push_str(comma);
    }
    lines.push(format!("{indent}{line}"));
    Some(format!("{shown}\n{}{after}", lines.join("\n")))
}

/// The name a parameter `item` binds (`enable_async` of `enable_async: bool =
/// False`, `args` of `*args`, `x` of `mut x: u8` or `readonly x?: T`), if it
/// binds one name.
fn parameter_name(item: &str) -> Option<&str> {
    let head = item.split([':', '=', '?']).next()?.trim();
    let name = head.rsplit(' ').next()?.trim_start_matches(['*', '.', '&']);
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$')).then_some(name)
}

/// How much a function's code, against its file's other functions', says the
/// task ([`crate::said::code_says`], with the terms' weights). It counts [`CODE`] as much as its name's words
/// towards [`Told`]'s third part, and alone breaks ties in the fourth; a method
/// other classes of the file define too, and which scores less there
/// (`repeats`, [`overrides`]), is no more told apart by its code than by its name.
/// axios's `generateString`, whose body calls `getRandomValues`, leads
/// `utils.js` for "replace getRandomValues with crypto module"; serde_json's
/// `serialize_f64`, which writes NaN as null, leads `serialize_i64` for
/// "serialize NaN as null". Measured with `ctx eval` on the definitions
/// commits changed (docs/benchmarks.md).
fn says_in_code(
    root: &std::path::Path,
    file: &IndexedFile,
    task_terms: &HashMap<&str, f64>,
    repeats: &[f64],
    defs: &mut [(Told, usize)],
) {
    let function = |d: usize| matches!(file.tags.defs[d].kind, Kind::Function | Kind::Method);
    if task_terms.is_empty() || !defs.iter().any(|&(_, d)| function(d)) {
        return;
    }
    let Ok(bytes) = ctxkeep_core::read_within(root, &file.path) else { return };
    let terms: Vec<(&str, f64)> = task_terms.iter().map(|(&term, &w)| (term, w)).collect();
    let says = crate::said::code_says(&String::from_utf8_lossy(&bytes), &file.tags.defs, &terms);
    for (told, d) in defs.iter_mut() {
        if repeats[*d] >= 1.0 {
            told.2 += CODE * says[*d];
            told.3 = says[*d];
        }
    }
}

/// The weight of what a function's code says of the task against what its name says.
const CODE: f64 = 1.0;

/// Each file's weight: [`PathRole::is_auxiliary`] files get `factor` unless the
/// task points there: a focus or named file of the same role under the same
/// top folder, or a word of the query that names the role (`tests`, `example`;
/// `types` for type declarations). A file a tool wrote
/// ([`FileTags::generated`](crate::tags::FileTags::generated)) is weighed as a
/// build's output unless the task focuses on it or names it.
pub(crate) fn demotion(files: &[IndexedFile], focus: &Focus, factor: f64) -> Vec<f64> {
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
    let about_types = crate::exports::about_types(focus.names.iter().map(String::as_str));
    let chosen: HashSet<usize> = focus.files.iter().chain(&focus.named_files).copied().collect();
    files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let role = PathRole::of(&f.path);
            let pointed = named_roles.contains(&role) || pointed.contains(&(role, top(&f.path)));
            match role {
                // A file a tool wrote, as a build's output, unless the task points at it.
                _ if f.tags.generated.is_some() && !chosen.contains(&i) => factor.min(AUXILIARY),
                // Type declarations (`index.d.ts`, and again as `index.d.cts`; a Python
                // stub) repeat what the code defines: after it, like a test, unless the
                // task is about them ("fix(types): export CJS types").
                PathRole::Source
                    if crate::exports::declares_types_of_code(files, &f.path) && !pointed && !about_types =>
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

/// Whether an associated type's value is a type of its own name (`type Error =
/// crate::Error;`, `type Response = http::Response<Body>;`).
fn rebinds_its_name(def: &crate::tags::Def) -> bool {
    let Some((_, value)) = def.signature.split_once('=') else { return false };
    let value = value.trim().trim_end_matches(';').trim();
    let path = value.split('<').next().unwrap_or(value).trim();
    path.rsplit("::").next() == Some(def.name.as_str())
}

/// The definitions of `file` a map may show: those that define a name, less
/// a fixture's (test data: black's formatter cases), tests (`test…` functions of test files when the file is `demoted`;
/// anywhere, anything in a Rust `mod tests` and a `#[test]` function), a trait
/// impl's associated types and constants, an interface's members its line shows, a
/// function's inner functions, and a second definition of a name in the same
/// scope (a Rust `#[cfg]` variant, a property's setter), unless the task
/// names them.
fn shown_defs<'a>(
    file: &'a IndexedFile,
    demoted: bool,
    focus: &'a Focus,
    boilerplate: &'a HashSet<&str>,
) -> impl Iterator<Item = usize> + 'a {
    let defs = &file.tags.defs;
    let mut seen: HashSet<(Option<u32>, &str, bool)> =
        HashSet::with_capacity_and_hasher(defs.len(), Default::default());
    let repeated: Vec<bool> = defs
        .iter()
        .map(|d| d.kind != Kind::Impl && !seen.insert((d.parent, d.name.as_str(), d.is_setter())))
        .collect();
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
        // A trait impl's associated types and constants (`type SerializeMap = Compound<'a, W>;`)
        // are its interface's: what the trait says, repeated in every impl.
        let associated = matches!(def.kind, Kind::Type | Kind::Constant) && def.implements_trait(defs);
        // One that only binds its name to a type of that name is never what a task naming it
        // means: "add `Error::is_dns()`" is about `struct Error`, not reqwest's thirteen
        // `type Error = crate::Error;`.
        let rebinding = associated && rebinds_its_name(def);
        // A module's metadata (`__version__ = "0.0.39"`) is no code of it.
        let metadata = def.kind == Kind::Constant && crate::outline::is_dunder(&def.name);
        // A member its interface's line already shows (`interface Pool { run<T>(fn: () => T): Promise<T> }`).
        let inlined = def.parent(defs).is_some_and(|p| {
            matches!(p.kind, Kind::Interface | Kind::Type) && p.signature.contains(def.signature.trim())
        });
        let aside = (demoted && test_function)
            || (def.parent.is_none() && boilerplate.contains(def.signature.as_str()))
            || test
            || associated
            || metadata
            || inlined
            || def.is_local(defs)
            || repeated[d];
        def.kind.defines_name() && !data && !rebinding && (names_outright(focus, &def.name) || !aside)
    })
}

/// The top-level constants written alike in several tests or examples
/// (commander's 28 examples' `const program = new Command();`, its tests'
/// `const execFileAsync = util.promisify(childProcess.execFile);`): each
/// file's boilerplate, which says nothing of any of them.
fn boilerplate(files: &[IndexedFile]) -> HashSet<&str> {
    let mut written: HashMap<&str, usize> = HashMap::default();
    for file in files.iter().filter(|f| PathRole::of(&f.path).is_auxiliary()) {
        let constants = file.tags.defs.iter().filter(|d| d.parent.is_none() && d.kind == Kind::Constant);
        let mut seen: HashSet<&str> = HashSet::default();
        for signature in constants.map(|d| d.signature.as_str()).filter(|s| seen.insert(s)) {
            *written.entry(signature).or_default() += 1;
        }
    }
    written.into_iter().filter(|&(_, n)| n >= BOILERPLATE_FILES).map(|(signature, _)| signature).collect()
}

/// In how many tests or examples a constant written alike is their boilerplate.
const BOILERPLATE_FILES: usize = 3;

/// Whether the task names `name` as an identifier: a word of it written as
/// code is (`verify_app`, `Command`, `hideDefault`), a plain word is not (a
/// task to "hide the default value in the help output" names no `fn
/// default`, `type Output` or `#[test] fn setting`).
fn names_outright(focus: &Focus, name: &str) -> bool {
    // Most tasks write no code: no name is hashed for them.
    !focus.code.is_empty() && focus.code.contains(name)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::python_file as indexed;

    #[test]
    fn a_parameter_s_name_is_the_one_name_it_binds() {
        let name = |item| parameter_name(item);
        assert_eq!(name("enable_async: bool = False"), Some("enable_async"));
        assert_eq!(name("**kwargs: t.Any"), Some("kwargs"));
        assert_eq!(name("...handlers: H[]"), Some("handlers"));
        assert_eq!(name("mut writer: W"), Some("writer"));
        assert_eq!(name("private readonly options?: Options"), Some("options"));
        assert_eq!(name("&self"), Some("self"));
        assert_eq!(name("sa_column=None"), Some("sa_column"));
        // A pattern binds several, or none by name.
        assert_eq!(name("{ a, b }: Options"), None);
        assert_eq!(name("*"), None);
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
}
