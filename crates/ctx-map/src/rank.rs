//! `ctx rank`: the repository's files, most relevant to a task first.
//!
//! Signals, fused into one score (weights below):
//! - **lexical**: BM25 of the task's terms over each file's words, with its
//!   path and the names it defines counted as extra, heavier fields (a file
//!   named for the task, or defining what the task names, is likely the one);
//! - **structural**: PageRank over the reference graph, personalized toward
//!   the best lexical matches and the definers of identifiers the task names,
//!   so the files those depend on, or that depend on them, rise too;
//! - **named**: a file whose name the task says (`reload` → `reload.rs`,
//!   `observable map` → `observablemap.ts`, `res.type()` → `res.type.js`) is
//!   likely the one;
//! - **area**: a file in the folder a commit message's scope or leading word
//!   names (`fix(axum-core):`, `automata:` → `regex-automata/`) is where the
//!   task says it is;
//! - **mentioned**: a file the task gives by its path (`src/db/pool.rs`) or
//!   its file name (`pool.rs`) is the one it means;
//! - **defines**: a file that defines an identifier the task writes as code
//!   (`createInnerProxy`, `Input::haystack`, `or_`) holds it, where a word of
//!   that identifier may be in every file's text; of the files defining a
//!   name the task qualifies (`app.render`), the ones its qualifier holds;
//! - from the version history, when there is one ([`crate::history`]):
//!   **similar** — the past commits whose messages read most like the task
//!   (BM25 over messages) vote for the files they changed, the strongest
//!   history signal; **recency** — files changed lately; **authored** —
//!   files the person asking (git's `user.email`) changed in their latest
//!   commits: people go on where they worked; **latest** — files the newest
//!   commit changed: work comes in series;
//! - what a file is for ([`PathRole`]): tests and their data rank a little
//!   lower unless the task speaks of tests, vendored and built code much lower.
//!
//! Tried on real histories and left out, because they did not help on
//! held-out repositories: past messages as one more field of a file's words,
//! lower ranks for examples, docs and fixtures, files that changed together
//! with the best matches (co-change), more or fewer similar commits, past
//! commits of the task's area voting for their files.
//!
//! Terms are [`crate::terms`]': split identifiers, lowercased, stemmed, the
//! same for the task and the files; the counts of the task's terms in each
//! file's text and names come from the store's postings, so a warm ranking
//! reads no file.

use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::Serialize;

use ctxkeep_core::paths::PathRole;

use crate::graph::{self, Focus, Graph};
use crate::history::History;
use crate::index::IndexedFile;
pub use crate::terms::terms;
use crate::terms::{FileTerms, TaskTerms, stem, task_terms, visit_terms};

/// BM25 parameters.
const K1: f64 = 1.2;
const B: f64 = 0.75;
/// Weight of a term in a file's path and in the names it defines, against its body.
const PATH_WEIGHT: f64 = 4.0;
const NAME_WEIGHT: f64 = 2.0;
/// How many of the best lexical matches seed the PageRank.
const SEEDS: usize = 20;
/// Weights of the signals in the fused score, against the lexical one
/// (1). Fitted on the commit histories of eight open-source repositories
/// in Python, Rust and TypeScript (`ctx eval`; docs/benchmarks.md), and
/// checked on six others never tuned on.
const GRAPH_WEIGHT: f64 = 0.05;
/// "The task names this file", "gives its path", "names as code what it defines".
const NAMED_WEIGHT: f64 = 0.5;
const AREA_WEIGHT: f64 = 0.8;
const MENTIONED_WEIGHT: f64 = 2.0;
const DEFINES_WEIGHT: f64 = 0.4;
/// Recent change, and its half-life in commits.
const RECENCY_WEIGHT: f64 = 0.15;
const RECENCY_HALF_LIFE: f64 = 10.0;
/// "Past commits described like the task changed this file", and how many
/// of the most similar past commits vote.
const SIMILAR_WEIGHT: f64 = 0.5;
const SIMILAR_COMMITS: usize = 20;
/// "The person asking changed this lately", and the half-life of that, in
/// their own commits.
const AUTHORED_WEIGHT: f64 = 0.4;
const AUTHORED_HALF_LIFE: f64 = 5.0;
/// "The newest commit changed this".
const LATEST_WEIGHT: f64 = 0.3;
/// A test, and the data tests read, rank a little lower unless the task's
/// first line speaks of tests, then a little higher; vendored and built code much lower.
const TEST_FACTOR: f64 = 0.9;
const TEST_TASK_FACTOR: f64 = 1.2;
const VENDORED_FACTOR: f64 = 0.5;

/// What to rank with.
#[derive(Debug, Clone, Copy)]
pub struct RankOptions {
    /// Leave out the reference graph (a baseline to measure against). Default: false.
    pub lexical_only: bool,
    /// Use the version history when there is one. Default: true.
    pub history: bool,
    /// Only the first this many files (1 to [`ctxkeep_core::limits::MAX_K`]).
    /// Default: all.
    pub top: Option<usize>,
}

impl Default for RankOptions {
    fn default() -> Self {
        RankOptions { lexical_only: false, history: true, top: None }
    }
}

/// One ranked file. Stable JSON.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RankedFile {
    pub path: String,
    pub score: f64,
    pub lexical: f64,
    pub graph: f64,
    /// How much and how lately the file changed (0 without a history).
    pub recency: f64,
    /// How much past commits whose messages resemble the task changed it (0 without a history).
    pub similar: f64,
    /// How much and how lately the person asking (git's `user.email`) changed it (0 without one).
    pub authored: f64,
    /// Whether the newest commit changed it (0 or 1; 0 without a history).
    pub latest: f64,
    /// Whether the task names the file (its name, or words run together into it).
    pub named: f64,
    /// Whether the area the task says it is about (`fix(axum-core):`,
    /// `automata:`) names one of the file's folders.
    pub area: f64,
    /// Whether the task gives its path or file name (`src/db/pool.rs`, `pool.rs`); shared by the files that fit.
    pub mentioned: f64,
    /// How much of what the task writes as code (`acquire_connection`, `Pool`) it defines.
    pub defines: f64,
    /// The part of `score` that [`mentioned`](Self::mentioned) and [`defines`](Self::defines) give.
    #[serde(skip)]
    outright: f64,
}

impl RankedFile {
    /// Its score without what the task names outright (its path, what it
    /// defines): a caller keeping the files near the best one measures them
    /// against this, so that a file the task names does not push out the
    /// others it points to.
    pub fn score_besides_outright(&self) -> f64 {
        self.score - self.outright
    }
}

/// Rank `files` for `query`; `tables[i]` is the term table of file `i`'s
/// text and names (empty if unreadable), `history` the repository's recent
/// commits, if known.
pub fn rank(
    files: &[IndexedFile],
    tables: &[FileTerms],
    query: &str,
    history: Option<&History>,
    options: RankOptions,
) -> Vec<RankedFile> {
    rank_with(files, None, &TaskTerms::of_tables(tables, query), query, history, options)
}

/// [`rank`] with the counts of the query's terms in `files` already read
/// (from the store's postings of the words of each content).
pub fn rank_counted(
    files: &[IndexedFile],
    counts: &TaskTerms,
    query: &str,
    history: Option<&History>,
    options: RankOptions,
) -> Vec<RankedFile> {
    rank_with(files, None, counts, query, history, options)
}

/// [`rank`] on the reference graph of the files, built for the query's
/// names ([`graph::query_names`]): a caller that ranks on the graph again
/// builds it once. `counts` are those of the query's terms in the graph's files.
pub fn rank_on(
    graph: &Graph,
    counts: &TaskTerms,
    query: &str,
    history: Option<&History>,
    options: RankOptions,
) -> Vec<RankedFile> {
    rank_with(graph.files(), Some(graph), counts, query, history, options)
}

fn rank_with(
    files: &[IndexedFile],
    graph: Option<&Graph>,
    counts: &TaskTerms,
    query: &str,
    history: Option<&History>,
    options: RankOptions,
) -> Vec<RankedFile> {
    let query_terms: Vec<String> = task_terms(query);
    let wanted: HashSet<&str> = query_terms.iter().map(String::as_str).collect();
    // Frequencies of the query's terms only, per file: in its text and the
    // names it defines (`counts`), and in its path (tokenized here: short).
    let stats: Vec<(HashMap<String, f64>, f64)> = files
        .par_iter()
        .enumerate()
        .map(|(i, file)| {
            let mut tf: HashMap<String, f64> = HashMap::default();
            for term in &query_terms {
                let count = counts.count(i, term);
                let weighted = f64::from(count.body) + NAME_WEIGHT * f64::from(count.names);
                if weighted > 0.0 {
                    tf.insert(term.clone(), weighted);
                }
            }
            let totals = counts.totals(i);
            let mut length = f64::from(totals.body) + NAME_WEIGHT * f64::from(totals.names);
            visit_terms(&file.path, |term| {
                length += PATH_WEIGHT;
                if wanted.contains(term) {
                    *tf.entry(term.to_string()).or_default() += PATH_WEIGHT;
                }
            });
            (tf, length)
        })
        .collect();
    let lexical = bm25(&stats, &query_terms);
    let max_lexical = lexical.iter().copied().fold(0.0, f64::max);

    let mut structural = vec![0.0; files.len()];
    if !options.lexical_only && max_lexical > 0.0 {
        // Seeds: the best lexical matches, in a fixed order.
        let mut order: Vec<usize> = (0..files.len()).filter(|&i| lexical[i] > 0.0).collect();
        order.sort_by(|&a, &b| lexical[b].total_cmp(&lexical[a]).then(a.cmp(&b)));
        let focus = Focus {
            seeds: order.into_iter().take(SEEDS).map(|i| (i, lexical[i] / max_lexical)).collect(),
            names: graph::query_names(query),
            ..Focus::default()
        };
        let ranking = match graph {
            Some(graph) => graph.rank(&focus),
            None => graph::rank(files, &focus),
        };
        let max_rank = ranking.file_rank.iter().copied().fold(0.0, f64::max);
        if max_rank > 0.0 {
            structural = ranking.file_rank.iter().map(|r| r / max_rank).collect();
        }
    }

    let named = named_in_query(files, query);
    let area = in_task_area(files, query);
    let mentioned = shared(files.len(), named_by_path(files, query));
    let defines = defines_named(files, query);
    let history = history.filter(|_| options.history);
    let zeros = || vec![0.0; files.len()];
    let (recency, similar, authored, latest) = match history {
        Some(h) => {
            (recency(files, h), similar_commits(files, h, &query_terms), authored(files, h), latest(files, h))
        }
        None => (zeros(), zeros(), zeros(), zeros()),
    };
    let about_tests = query.lines().next().is_some_and(|first| {
        first.split(|c: char| !c.is_alphanumeric()).any(|w| w.to_lowercase().starts_with("test"))
    });
    let mut ranked: Vec<RankedFile> = files
        .iter()
        .enumerate()
        .map(|(i, file)| {
            let lex = if max_lexical > 0.0 { lexical[i] / max_lexical } else { 0.0 };
            let outright = MENTIONED_WEIGHT * mentioned[i] + DEFINES_WEIGHT * defines[i];
            let fused = lex
                + GRAPH_WEIGHT * structural[i]
                + NAMED_WEIGHT * named[i]
                + AREA_WEIGHT * area[i]
                + outright
                + RECENCY_WEIGHT * recency[i]
                + SIMILAR_WEIGHT * similar[i]
                + AUTHORED_WEIGHT * authored[i]
                + LATEST_WEIGHT * latest[i];
            let factor = match PathRole::of(&file.path) {
                PathRole::Test | PathRole::Fixture if about_tests => TEST_TASK_FACTOR,
                PathRole::Test | PathRole::Fixture => TEST_FACTOR,
                PathRole::Vendored => VENDORED_FACTOR,
                _ => 1.0,
            };
            RankedFile {
                path: file.path.clone(),
                score: fused * factor,
                lexical: lex,
                graph: structural[i],
                recency: recency[i],
                similar: similar[i],
                authored: authored[i],
                latest: latest[i],
                named: named[i],
                area: area[i],
                mentioned: mentioned[i],
                defines: defines[i],
                outright: outright * factor,
            }
        })
        .collect();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.path.cmp(&b.path)));
    ranked
}

/// How telling a term is that `df` of `n` documents hold: BM25's inverse
/// document frequency (never negative).
pub(crate) fn idf(n: f64, df: f64) -> f64 {
    ((n - df + 0.5) / (df + 0.5) + 1.0).ln()
}

/// Okapi BM25 of `query_terms` over documents given as (term frequencies of
/// the query's terms, length).
fn bm25(docs: &[(HashMap<String, f64>, f64)], query_terms: &[String]) -> Vec<f64> {
    let n = docs.len().max(1) as f64;
    let average = docs.iter().map(|s| s.1).sum::<f64>() / n;
    let mut scores = vec![0.0; docs.len()];
    for term in query_terms {
        let df = docs.iter().filter(|s| s.0.contains_key(term)).count() as f64;
        if df == 0.0 {
            continue;
        }
        let idf = idf(n, df);
        for (i, (tf, length)) in docs.iter().enumerate() {
            if let Some(&f) = tf.get(term) {
                scores[i] += idf * f * (K1 + 1.0) / (f + K1 * (1.0 - B + B * length / average.max(1.0)));
            }
        }
    }
    scores
}

/// Per file, from 0 to 1, how much the past commits whose messages best
/// match the task changed it: the [`SIMILAR_COMMITS`] best by BM25 each
/// give their score to the files they changed, shared among them.
fn similar_commits(files: &[IndexedFile], history: &History, query_terms: &[String]) -> Vec<f64> {
    let wanted: HashSet<&str> = query_terms.iter().map(String::as_str).collect();
    let docs: Vec<(HashMap<String, f64>, f64)> = history
        .commits
        .iter()
        .map(|commit| {
            let mut tf: HashMap<String, f64> = HashMap::default();
            let words = terms(&commit.message);
            let length = words.len() as f64;
            for term in words.into_iter().filter(|t| wanted.contains(t.as_str())) {
                *tf.entry(term).or_default() += 1.0;
            }
            (tf, length)
        })
        .collect();
    let scores = bm25(&docs, query_terms);
    let mut best: Vec<usize> =
        (0..scores.len()).filter(|&c| scores[c] > 0.0 && history.is_specific(c)).collect();
    best.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    best.truncate(SIMILAR_COMMITS);
    let index: HashMap<&str, usize> = files.iter().enumerate().map(|(i, f)| (f.path.as_str(), i)).collect();
    let mut raw = vec![0.0; files.len()];
    for c in best {
        let changed = &history.commits[c].files;
        let share = scores[c] / (changed.len().max(1) as f64).sqrt();
        for path in changed {
            if let Some(&i) = index.get(path.as_str()) {
                raw[i] += share;
            }
        }
    }
    normalized(raw)
}

/// `raw` scaled so that its largest value is 1 (all zeros stay zeros).
fn normalized(raw: Vec<f64>) -> Vec<f64> {
    let max = raw.iter().copied().fold(0.0, f64::max);
    if max > 0.0 { raw.iter().map(|r| r / max).collect() } else { raw }
}

/// File names too common to say which file a task means.
pub(crate) const GENERIC_STEMS: &[&str] = &[
    "mod",
    "lib",
    "main",
    "index",
    "init",
    "__init__",
    "util",
    "utils",
    "types",
    "type",
    "common",
    "core",
    "base",
    "test",
    "tests",
    "setup",
    "conftest",
    "helpers",
    "helper",
    "misc",
    "config",
    "constants",
    "errors",
    "error",
    "src",
    "source",
];

/// Per file, whether the task names it: its file name without extension (its
/// folder's name for an `index.ts`, `mod.rs`, `__init__.py`) is a word of the
/// query, or two or three consecutive words run together (`observable map`
/// names `observablemap.ts`, `reload` names `reload.rs` and `reload/mod.rs`).
/// Files sharing a name share the credit.
fn named_in_query(files: &[IndexedFile], query: &str) -> Vec<f64> {
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let mut names: HashSet<String> = HashSet::default();
    for (i, word) in words.iter().enumerate() {
        names.insert(word.clone());
        names.insert(stem(word));
        for n in 2..=3 {
            if let Some(run) = words.get(i..i + n) {
                names.insert(run.concat());
            }
        }
    }
    let key = |bare: &str| -> String {
        bare.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase()
    };
    let named = |key: &str| names.contains(key) || names.contains(&stem(key));
    // A name with dots is named whole first (`res.type` names `res.type.js`), and
    // then its first part names no other file (every `res.*.js`); else by its first
    // part (`validation` names `validation.test.js`).
    let whole_name = |f: &IndexedFile| -> Option<(String, String)> {
        let name = f.path.rsplit('/').next().unwrap_or(&f.path);
        let whole = name.rsplit_once('.').map_or(name, |(whole, _)| whole);
        let first = whole.split('.').next().unwrap_or(whole);
        (whole.contains('.') && f.size > 0 && named(&key(whole))).then(|| (key(whole), key(first)))
    };
    let wholes: Vec<Option<(String, String)>> = files.iter().map(whole_name).collect();
    let taken: HashSet<&str> = wholes.iter().flatten().map(|(_, first)| first.as_str()).collect();
    let stems: Vec<Option<String>> = files
        .iter()
        .zip(&wholes)
        .map(|(f, whole)| {
            if let Some((whole, _)) = whole {
                return Some(whole.clone());
            }
            let mut parts = f.path.rsplit('/');
            let name = parts.next().unwrap_or(&f.path);
            let mut bare = name.split('.').next().unwrap_or(name);
            // `format/index.ts`, `pager/mod.rs`, `json/__init__.py` are named by their folder.
            if GENERIC_STEMS.contains(&bare.to_lowercase().as_str()) {
                bare = parts.next().unwrap_or(bare);
            }
            // An empty file (a bare `__init__.py`) holds nothing the task could be about.
            if bare.len() < 3 || GENERIC_STEMS.contains(&bare.to_lowercase().as_str()) || f.size == 0 {
                return None;
            }
            let key = key(bare);
            (named(&key) && !taken.contains(key.as_str())).then_some(key)
        })
        .collect();
    let mut sharing: HashMap<&str, f64> = HashMap::default();
    for key in stems.iter().flatten() {
        *sharing.entry(key.as_str()).or_default() += 1.0;
    }
    stems.iter().map(|k| k.as_deref().map_or(0.0, |k| 1.0 / sharing[k].sqrt())).collect()
}

/// What a commit message's first line says it is about before its colon: a
/// conventional commit's scope (`fix(axum-core):`, `feat(client, server)!:`)
/// or a leading area (`automata: DRY up …`), lowercased; not a kind of
/// change (`fix:`, `docs:`).
fn task_area(query: &str) -> Vec<String> {
    const KINDS: &[&str] = &[
        "fix", "feat", "feature", "chore", "docs", "doc", "test", "tests", "refactor", "perf", "ci", "build",
        "style", "revert", "release", "deps", "bump", "security", "sec", "wip", "update", "add", "remove",
        "breaking", "note", "todo", "warning",
    ];
    let line = query.trim_start().lines().next().unwrap_or("");
    let Some((head, _)) = line.split_once(": ") else { return Vec::new() };
    let head = head.trim_end_matches('!');
    let area = match head.split_once('(') {
        Some((kind, scope)) if kind.chars().all(|c| c.is_ascii_alphabetic()) => scope.strip_suffix(')'),
        Some(_) => None,
        // One word: "Fix the bug: details" has no area.
        None if !head.contains(char::is_whitespace) && !KINDS.contains(&head.to_lowercase().as_str()) => {
            Some(head)
        }
        None => None,
    };
    let valid = |w: &&str| !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || "-_.".contains(c));
    area.map(|a| a.split([',', '/', ' ']).filter(valid).map(str::to_lowercase).collect()).unwrap_or_default()
}

/// Per file, whether [`task_area`] names one of its folders: the folder's
/// name (`axum-core/`, `clap_mangen/`) or a part of it (`mangen`,
/// `automata` of `regex-automata/`).
pub(crate) fn in_task_area(files: &[IndexedFile], query: &str) -> Vec<f64> {
    let area = task_area(query);
    if area.is_empty() {
        return vec![0.0; files.len()];
    }
    let names = |folder: &str| {
        let folder = folder.to_lowercase();
        area.iter().any(|a| *a == folder || folder.split(['-', '_', '.']).any(|part| part == a))
    };
    files
        .iter()
        .map(|f| {
            let folders = f.path.rsplit_once('/').map_or("", |(folders, _)| folders);
            if folders.split('/').any(names) { 1.0 } else { 0.0 }
        })
        .collect()
}

/// Per word of `query` that gives a path (`src/db/pool.rs`, `./pool.rs`), a
/// file name with its extension (`pool.rs`), a place in a file as compilers
/// and tracebacks write it (`src/main.rs:10:5`,
/// `/venv/lib/python3.12/site-packages/pkg/db/pool.py`) or a link to it
/// (`https://github.com/o/r/blob/main/src/db/pool.rs#L12`), the files it fits:
/// those whose path ends with the longest tail of it that any path ends with
/// (at a folder's boundary; a file name alone only when the word is one).
pub(crate) fn named_by_path(files: &[IndexedFile], query: &str) -> Vec<Vec<usize>> {
    let ends_with = |long: &str, short: &str| {
        long.strip_suffix(short).is_some_and(|head| head.is_empty() || head.ends_with('/'))
    };
    let fits = |word: &str| -> Vec<usize> {
        let mut tail = word;
        loop {
            let fit: Vec<usize> = (0..files.len()).filter(|&i| ends_with(&files[i].path, tail)).collect();
            match tail.split_once('/') {
                _ if !fit.is_empty() => return fit,
                Some((_, rest)) if rest.contains('/') => tail = rest,
                _ => return fit,
            }
        }
    };
    query
        .split(|c: char| c.is_whitespace() || "`'\"()[]{},;<>".contains(c))
        .map(place_in_file)
        .filter(|w| w.len() >= 4 && w.contains(['/', '.']))
        .map(fits)
        .filter(|fit| !fit.is_empty())
        .collect()
}

/// The file a word names, without what may come around it: `./`, a link's
/// anchor (`#L12`), a line and column (`:10:5`), a sentence's end.
fn place_in_file(word: &str) -> &str {
    let word = word.split('#').next().unwrap_or(word).trim_start_matches("./");
    let mut word = word.trim_end_matches(['.', ':']);
    // `path:10:5`: up to two numbers after colons.
    for _ in 0..2 {
        match word.rsplit_once(':') {
            Some((head, number)) if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) => {
                word = head
            }
            _ => break,
        }
    }
    word
}

/// Per file, from 0 to 1, how much of what the task writes as code
/// ([`graph::code_names`]: `url_for`, `Session`, `click.prompt`) it defines. A name
/// several files define is shared among them; tests define it only when
/// nothing else does (a test's `class Flask(flask.Flask)` is not where
/// `Flask` is). A name the task qualifies (`app.render`, `Input::haystack`)
/// is defined where that qualifier holds it, when some file's does
/// ([`qualified_by`]): `app.render` is express's `application.js`, not
/// `res.render` in `response.js`.
fn defines_named(files: &[IndexedFile], query: &str) -> Vec<f64> {
    let code = graph::code_names(query);
    if code.is_empty() {
        return vec![0.0; files.len()];
    }
    let mut qualifiers: HashMap<String, Vec<String>> = HashMap::default();
    for (qualifier, name) in graph::qualified_names(query) {
        qualifiers.entry(name).or_default().push(qualifier);
    }
    // Per name, its definers: code, then tests, each as qualified or not.
    let mut definers: HashMap<&str, [Vec<usize>; 4]> = HashMap::default();
    for (i, file) in files.iter().enumerate() {
        let test = matches!(PathRole::of(&file.path), PathRole::Test | PathRole::Fixture);
        let mut defined: Vec<(&str, bool)> = Vec::new();
        for def in file.tags.defs.iter().filter(|d| d.kind.defines_name() && code.contains(&d.name)) {
            let qualified =
                qualifiers.get(&def.name).is_some_and(|qs| qs.iter().any(|q| qualified_by(file, def, q)));
            defined.push((def.name.as_str(), qualified));
        }
        // A file defining a name both ways counts as qualified.
        defined.sort_unstable_by(|a, b| a.0.cmp(b.0).then(b.1.cmp(&a.1)));
        defined.dedup_by(|a, b| a.0 == b.0);
        for (name, qualified) in defined {
            let groups = definers.entry(name).or_default();
            groups[usize::from(test) * 2 + usize::from(!qualified)].push(i);
        }
    }
    shared(
        files.len(),
        definers.into_values().map(|[code, code_unqualified, tests, tests_unqualified]| {
            match (code.is_empty(), code_unqualified.is_empty(), tests.is_empty()) {
                (false, _, _) => code,
                (true, false, _) => code_unqualified,
                (true, true, false) => tests,
                (true, true, true) => tests_unqualified,
            }
        }),
    )
}

/// Whether `def` of `file` is the one `qualifier.name` means: it sits in a
/// definition so named (`class Session`, `impl Input`), its signature
/// writes it so (`app.render = function render`, `Reply.prototype.send =`),
/// or it is at the top of a module so named (`dense::DFA` in `dense.rs`,
/// `flask.url_for` in `src/flask/helpers.py`).
fn qualified_by(file: &IndexedFile, def: &crate::tags::Def, qualifier: &str) -> bool {
    match def.parent(&file.tags.defs) {
        Some(parent) => parent.name == qualifier,
        None => {
            let written = |sep: &str| def.signature.contains(&format!("{qualifier}{sep}{}", def.name));
            written(".") || written(".prototype.") || {
                let mut components = file.path.split('/');
                let stem = components.next_back().map(|name| name.split('.').next().unwrap_or(name));
                stem == Some(qualifier) || components.any(|folder| folder == qualifier)
            }
        }
    }
}

/// Per file, from 0 to 1, the credit of the groups it is in: each group gives
/// its files 1 / √(its size), so the one file a task can mean has 1, one of
/// two 0.71 and one of the thirty `index.ts` a task says 0.18.
fn shared(n: usize, groups: impl IntoIterator<Item = Vec<usize>>) -> Vec<f64> {
    let mut raw = vec![0.0; n];
    for group in groups {
        let share = 1.0 / (group.len() as f64).sqrt();
        for i in group {
            raw[i] += share;
        }
    }
    raw.iter().map(|r| r.min(1.0)).collect()
}

/// Per file, how much and how lately it changed, from 0 to 1: each commit
/// that changed it counts half as much as one [`RECENCY_HALF_LIFE`] commits newer.
fn recency(files: &[IndexedFile], history: &History) -> Vec<f64> {
    let by_file = history.commits_by_file();
    let raw: Vec<f64> = files
        .iter()
        .map(|f| {
            let commits = by_file.get(f.path.as_str()).map(Vec::as_slice).unwrap_or_default();
            commits
                .iter()
                .filter(|&&c| history.is_specific(c))
                .map(|&c| 0.5f64.powf(c as f64 / RECENCY_HALF_LIFE))
                .sum()
        })
        .collect();
    normalized(raw)
}

/// Per file, from 0 to 1, how much and how lately the person asking changed
/// it: each of their commits counts half as much as the one
/// [`AUTHORED_HALF_LIFE`] of theirs newer. All zeros when nobody is known
/// or they made none of the commits read.
fn authored(files: &[IndexedFile], history: &History) -> Vec<f64> {
    let Some(me) = history.me.as_deref() else { return vec![0.0; files.len()] };
    let mut weight: HashMap<&str, f64> = HashMap::default();
    let mine = history.commits.iter().enumerate().filter(|(_, c)| c.author == me);
    for (k, (i, commit)) in mine.enumerate() {
        if history.is_specific(i) {
            let w = 0.5f64.powf(k as f64 / AUTHORED_HALF_LIFE);
            for path in &commit.files {
                *weight.entry(path.as_str()).or_default() += w;
            }
        }
    }
    normalized(files.iter().map(|f| weight.get(f.path.as_str()).copied().unwrap_or(0.0)).collect())
}

/// Per file, 1 if the newest commit changed it (and was no sweep), else 0.
fn latest(files: &[IndexedFile], history: &History) -> Vec<f64> {
    let changed: HashSet<&str> = match history.commits.first() {
        Some(commit) if history.is_specific(0) => commit.files.iter().map(String::as_str).collect(),
        _ => HashSet::default(),
    };
    files.iter().map(|f| if changed.contains(f.path.as_str()) { 1.0 } else { 0.0 }).collect()
}

/// Index `ws` and rank its source files for `query`.
pub fn rank_workspace(
    ws: &mut ctxkeep_core::Workspace,
    query: &str,
    options: RankOptions,
    progress: Option<crate::index::Progress>,
) -> crate::Result<(Vec<RankedFile>, crate::index::IndexStats)> {
    if query.trim().is_empty() {
        return Err(crate::Error::InvalidInput("the query is empty: say what the task is".into()));
    }
    if let Some(top) = options.top {
        ctxkeep_core::limits::count("-k", top, ctxkeep_core::limits::MAX_K)?;
    }
    let indexed = crate::index::index_for_task(ws, progress, query, options.history)?;
    let crate::index::Indexed { files, stats, terms, history } = indexed;
    let mut ranked = if options.lexical_only {
        rank_with(&files, None, &terms, query, history.as_ref(), options)
    } else {
        let graph = Graph::cached(ws, &files, &graph::query_names(query));
        rank_on(&graph, &terms, query, history.as_ref(), options)
    };
    crate::index::drop_in_background((files, terms, history));
    ranked.truncate(options.top.unwrap_or(usize::MAX));
    Ok((ranked, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(paths: &[&str]) -> Vec<IndexedFile> {
        paths
            .iter()
            .map(|p| IndexedFile {
                path: p.to_string(),
                lang: "rust".into(),
                size: 100,
                hash: [0; 32],
                tags: Default::default(),
            })
            .collect()
    }

    #[test]
    fn a_task_names_files_by_word_or_by_words_run_together() {
        let files = files(&[
            "src/types/observablemap.ts",
            "src/reload.rs",
            "tests/reload.rs",
            "src/mod.rs",
            "src/x.rs",
            "src/format/index.ts",
        ]);
        let named = named_in_query(&files, "fix: observable map init in the `reload` layer; mod x");
        // Two files named `reload` share the credit; generic and very short names get none.
        let half = 1.0 / 2f64.sqrt();
        assert_eq!(named, [1.0, half, half, 0.0, 0.0, 0.0]);
        assert_eq!(named_in_query(&files, "Reloading observables"), [0.0, half, half, 0.0, 0.0, 0.0]);
        // An index file is named by its folder.
        assert_eq!(named_in_query(&files, "format drops the sign"), [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        // An empty one is named by nothing: no task is about what it does not hold.
        let mut empty = files.clone();
        empty[5].size = 0;
        assert_eq!(named_in_query(&empty, "format drops the sign"), [0.0; 6]);
    }

    #[test]
    fn a_name_with_dots_is_named_whole_before_its_first_part() {
        // express's shape: `test/res.type.js` beside every other `res.*.js`.
        let files =
            files(&["test/res.type.js", "test/res.send.js", "test/res.json.js", "lib/validation.test.js"]);
        // `res.type()` names one file, not all three `res` tests.
        assert_eq!(named_in_query(&files, "edge case tests for `res.type()`"), [1.0, 0.0, 0.0, 0.0]);
        // A word alone names every file it begins, sharing the credit.
        let third = 1.0 / 3f64.sqrt();
        assert_eq!(named_in_query(&files, "res helpers"), [third, third, third, 0.0]);
        assert_eq!(named_in_query(&files, "fix(validation): keep coerced values"), [0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn the_area_a_commit_message_names_before_its_colon() {
        assert_eq!(task_area("fix(axum-core): skip non-data frames"), ["axum-core"]);
        assert_eq!(task_area("feat(client, server)!: stream"), ["client", "server"]);
        assert_eq!(task_area("automata: DRY up Thompson configuration\n\nbody: text"), ["automata"]);
        for none in ["fix: a typo", "Docs: spelling", "Fix the bug: details", "no colon here", "x(y: z"] {
            assert!(task_area(none).is_empty(), "{none}: {:?}", task_area(none));
        }
        let files = files(&[
            "axum-core/src/body.rs",
            "axum/src/body.rs",
            "regex-automata/src/dfa.rs",
            "clap_mangen/tests/roff.rs",
            "src/automata.rs",
        ]);
        assert_eq!(in_task_area(&files, "fix(axum-core): skip frames"), [1.0, 0.0, 0.0, 0.0, 0.0]);
        // A part of a folder's name, not a file's.
        assert_eq!(in_task_area(&files, "automata: lifetimes"), [0.0, 0.0, 1.0, 0.0, 0.0]);
        assert_eq!(in_task_area(&files, "test(mangen): synopsis"), [0.0, 0.0, 0.0, 1.0, 0.0]);
        assert_eq!(in_task_area(&files, "Skip frames in axum-core"), [0.0; 5]);
    }

    #[test]
    fn a_task_gives_a_file_by_its_path_or_its_file_name() {
        let files = files(&[
            "packages/server/src/core.ts",
            "packages/client/src/core.ts",
            "src/app.py",
            "src/myapp.py",
        ]);
        let by_path = |query: &str| named_by_path(&files, query);
        assert_eq!(by_path("Removes a typo in `packages/server/src/core.ts` (comment only)."), [vec![0]]);
        assert_eq!(by_path("see ./src/app.py: and core.ts"), [vec![2], vec![0, 1]]);
        // A name ends at a folder's boundary (`app.py` is not `myapp.py`); no path, no file.
        assert_eq!(by_path("app.py"), [vec![2]]);
        assert!(by_path("v1.2 of the app, e.g. the server/client split").is_empty());
        // Where compilers, tracebacks and links put a file: the longest path that fits.
        assert_eq!(by_path("panicked at packages/server/src/core.ts:10:5:"), [vec![0]]);
        assert_eq!(by_path(r#"File "/home/me/work/src/app.py", line 3"#), [vec![2]]);
        assert_eq!(by_path("/venv/lib/site-packages/server/src/core.ts"), [vec![0]]);
        // A folder and a file name at least: `lib/app.py` names no `src/app.py`.
        assert!(by_path("lib/app.py").is_empty());
        assert_eq!(
            by_path("see https://github.com/o/r/blob/main/packages/client/src/core.ts#L12"),
            [vec![1]]
        );
        let mentioned = shared(files.len(), by_path("server/src/core.ts and src/core.ts"));
        // The server's file fits both words (at most 1); the client's only the second, shared.
        assert_eq!(mentioned, [1.0, 1.0 / 2f64.sqrt(), 0.0, 0.0]);
    }

    #[test]
    fn the_files_defining_what_the_task_writes_as_code_and_not_its_tests_copies() {
        let mut files =
            files(&["src/proxy.ts", "src/router.ts", "tests/proxy.test.ts", "tests/only.test.ts"]);
        let define = |file: &mut IndexedFile, names: &[&str]| {
            file.tags.defs = names
                .iter()
                .map(|n| crate::tags::Def {
                    name: n.to_string(),
                    kind: crate::tags::Kind::Function,
                    line: 1,
                    end_line: 1,
                    signature: format!("function {n}()"),
                    parent: None,
                })
                .collect();
        };
        define(&mut files[0], &["createInnerProxy", "proxy"]);
        define(&mut files[1], &["mergeRouters", "router"]);
        define(&mut files[2], &["createInnerProxy", "fixture_only"]);
        define(&mut files[3], &["fixture_only"]);
        let defines = |query: &str| defines_named(&files, query);
        assert_eq!(defines("handle proxy coercion in createInnerProxy"), [1.0, 0.0, 0.0, 0.0]);
        // A plain word is maybe only English: `router` names no definition.
        assert_eq!(defines("proxy the router"), [0.0; 4]);
        assert_eq!(defines("mergeRouters drops createInnerProxy's options"), [1.0, 1.0, 0.0, 0.0]);
        // What only tests define, tests hold, sharing it.
        let half = 1.0 / 2f64.sqrt();
        assert_eq!(defines("fixture_only breaks"), [0.0, 0.0, half, half]);
    }

    #[test]
    fn a_qualified_name_means_the_definition_its_qualifier_holds() {
        use crate::lang::Lang;
        let parsed = IndexedFile::parsed;
        let files = vec![
            parsed(
                "lib/application.js",
                Lang::JavaScript,
                "var app = exports = module.exports = {};\napp.render = function render(name, options) {};\n",
            ),
            parsed(
                "lib/response.js",
                Lang::JavaScript,
                "var res = Object.create(http.ServerResponse.prototype);\nres.render = function render(view) {};\n",
            ),
            parsed(
                "src/search.rs",
                Lang::Rust,
                "pub struct Input;\nimpl Input {\n    pub fn haystack(&self) -> &[u8] { &[] }\n}\n",
            ),
            parsed("src/util.rs", Lang::Rust, "pub fn haystack() {}\n"),
            parsed("src/dfa/dense.rs", Lang::Rust, "pub struct DFA;\n"),
            parsed("src/dfa/sparse.rs", Lang::Rust, "pub struct DFA;\n"),
        ];
        let defines = |query: &str| defines_named(&files, query);
        let half = 1.0 / 2f64.sqrt();
        // Unqualified, the name is shared by every file defining it.
        assert_eq!(defines("options in `render`")[..2], [half, half]);
        // Qualified, by what it is assigned to (JavaScript), by its impl (Rust), by its module.
        assert_eq!(defines("options in app.render")[..2], [1.0, 0.0]);
        assert_eq!(defines("return with original lifetime from `Input::haystack`")[2..4], [1.0, 0.0]);
        assert_eq!(defines("speed up dense::DFA")[4..], [1.0, 0.0]);
        // A qualifier nothing here holds the name in leaves it shared.
        assert_eq!(defines("this.render is slow")[..2], [half, half]);
    }

    fn commit(message: &str, files: &[&str]) -> crate::history::Commit {
        authored_commit("someone@example.org", message, files)
    }

    fn authored_commit(author: &str, message: &str, files: &[&str]) -> crate::history::Commit {
        crate::history::Commit {
            author: author.into(),
            message: message.into(),
            files: files.iter().map(|f| f.to_string()).collect(),
        }
    }

    #[test]
    fn past_commits_described_like_the_task_vote_for_their_files() {
        let files = files(&["src/pager.rs", "src/printer.rs", "src/theme.rs", "tests/integration.rs"]);
        // Nothing in the files' words tells them apart; only the history does.
        let tables = vec![FileTerms::of("fn run() {}", []); 4];
        let history = History {
            commits: vec![
                // Newest first: recency alone would put the theme's files first.
                commit("Fix theme colors", &["src/theme.rs", "tests/integration.rs"]),
                commit("Bump version", &["Cargo.toml"]),
                commit("Respect the LESS environment variable", &["src/pager.rs"]),
            ],
            me: None,
        };
        let task = "LESS variable ignored";
        let ranked = rank(&files, &tables, task, Some(&history), RankOptions::default());
        assert_eq!(ranked[0].path, "src/pager.rs", "{ranked:?}");
        assert_eq!(ranked[0].similar, 1.0);
        assert!(ranked.iter().filter(|r| r.path != "src/pager.rs").all(|r| r.similar == 0.0), "{ranked:?}");
        // Without the history, nothing says which: every file scores the same.
        let flat =
            rank(&files, &tables, task, Some(&history), RankOptions { history: false, ..Default::default() });
        assert!(flat.iter().all(|r| r.score == flat[0].score && r.similar == 0.0), "{flat:?}");
    }

    #[test]
    fn tests_rise_only_when_the_task_speaks_of_tests() {
        let files = files(&["src/parser.rs", "tests/parser.rs"]);
        let tables = vec![FileTerms::of("fn parse_value() {}", []); 2];
        let top = |task: &str| rank(&files, &tables, task, None, RankOptions::default())[0].path.clone();
        assert_eq!(top("parse_value drops the sign"), "src/parser.rs");
        assert_eq!(top("test(parser): parse_value drops the sign"), "tests/parser.rs");
    }

    #[test]
    fn the_asker_s_own_latest_work_and_the_newest_commit_rise() {
        let files = files(&["src/pager.rs", "src/printer.rs", "src/theme.rs", "src/input.rs"]);
        let tables = vec![FileTerms::of("fn run() {}", []); 4];
        let sweep: Vec<String> = (0..61).map(|i| format!("src/f{i}.rs")).collect();
        let sweep: Vec<&str> = sweep.iter().map(String::as_str).collect();
        let mut history = History {
            commits: vec![
                authored_commit("ann@example.org", "Tidy", &["src/printer.rs"]),
                authored_commit("bob@example.org", "Wrap long lines", &["src/pager.rs"]),
                authored_commit("bob@example.org", "Paging", &["src/pager.rs", "src/input.rs"]),
                authored_commit("ann@example.org", "Colors", &["src/theme.rs"]),
            ],
            me: Some("bob@example.org".into()),
        };
        let by_path = |history: &History| -> HashMap<String, RankedFile> {
            let ranked = rank(&files, &tables, "make it faster", Some(history), RankOptions::default());
            ranked.into_iter().map(|r| (r.path.clone(), r)).collect()
        };
        let ranked = by_path(&history);
        // Bob's files, his newest first; Ann's none.
        assert_eq!(ranked["src/pager.rs"].authored, 1.0);
        let input = ranked["src/input.rs"].authored;
        assert!(0.0 < input && input < 1.0, "{input}");
        assert_eq!(ranked["src/theme.rs"].authored + ranked["src/printer.rs"].authored, 0.0);
        // The newest commit's file, whoever made it.
        assert_eq!(ranked["src/printer.rs"].latest, 1.0);
        assert_eq!(ranked["src/pager.rs"].latest, 0.0);
        assert!(ranked["src/pager.rs"].score > ranked["src/theme.rs"].score);
        // Nobody known, or a stranger: no one's work is theirs.
        for me in [None, Some("carol@example.org".to_string())] {
            history.me = me;
            assert!(by_path(&history).values().all(|r| r.authored == 0.0));
        }
        // A sweep says nothing of each file it touched.
        history.commits.insert(0, authored_commit("ann@example.org", "Reformat", &sweep));
        assert!(by_path(&history).values().all(|r| r.latest == 0.0));
    }
}
