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
//!   lower unless the task speaks of tests; vendored and built code, and
//!   files whose top says a tool wrote them, much lower.
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
use crate::terms::{FileTerms, TaskTerms, task_terms, visit_terms};

mod task;

use self::task::{FilesByName, defines_named, named_in_query, shared};
pub(crate) use self::task::{GENERIC_STEMS, in_task_area, named_by_path};

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
/// first line speaks of tests, then a little higher; vendored, built and generated code much lower.
const TEST_FACTOR: f64 = 0.9;
const TEST_TASK_FACTOR: f64 = 1.2;
const VENDORED_FACTOR: f64 = 0.5;
/// Type declarations (`index.d.ts`) repeat what the code defines, in many words:
/// after it, unless the task is about them.
const DECLARATION_FACTOR: f64 = 0.8;

/// What to rank with.
#[derive(Debug, Clone, Copy)]
pub struct RankOptions {
    /// Also weigh the reference graph: each file's PageRank toward the best
    /// lexical matches, 0.05 of the fused score. Default: false.
    /// On the 760 history cases of docs/benchmarks.md it moved R@5 and MRR
    /// by under 0.01 either way, and it costs the graph (a quarter of a warm
    /// `ctx rank` on 2,000 files). A task map starts from the ranking without
    /// it, then runs a PageRank of its own toward that ranking's best files.
    pub graph: bool,
    /// Use the version history when there is one. Default: true.
    pub history: bool,
    /// Only the first this many files (1 to [`ctxkeep_core::limits::MAX_K`]).
    /// Default: all.
    pub top: Option<usize>,
}

impl Default for RankOptions {
    fn default() -> Self {
        RankOptions { graph: false, history: true, top: None }
    }
}

/// One ranked file. Stable JSON.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RankedFile {
    pub path: String,
    pub score: f64,
    pub lexical: f64,
    /// Its PageRank toward the best lexical matches (0 unless ranked with [`RankOptions::graph`]).
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
    if options.graph && max_lexical > 0.0 {
        // Seeds: the best lexical matches, in a fixed order.
        let mut order: Vec<usize> = (0..files.len()).filter(|&i| lexical[i] > 0.0).collect();
        order.sort_by(|&a, &b| lexical[b].total_cmp(&lexical[a]).then(a.cmp(&b)));
        let focus = Focus {
            seeds: order.into_iter().take(SEEDS).map(|i| (i, lexical[i] / max_lexical)).collect(),
            names: graph::query_names(query),
            ..Focus::default()
        };
        let file_rank = match graph {
            Some(graph) => graph.file_rank(&focus),
            None => Graph::new(files, &focus.names).file_rank(&focus),
        };
        let max_rank = file_rank.iter().copied().fold(0.0, f64::max);
        if max_rank > 0.0 {
            structural = file_rank.iter().map(|r| r / max_rank).collect();
        }
    }

    let named = named_in_query(files, query);
    let area = in_task_area(files, query);
    let mentioned = shared(files.len(), named_by_path(files, query));
    let defines = defines_named(files, query);
    let history = history.filter(|_| options.history);
    let zeros = || vec![0.0; files.len()];
    // A release's files are where a task that releases goes (`Bump version to 6.0.0`).
    let releasing = crate::history::is_release(query);
    let (recency, similar, authored, latest) = match history {
        Some(h) => (
            recency(files, h, releasing),
            similar_commits(files, h, &query_terms),
            authored(files, h, releasing),
            latest(files, h, releasing),
        ),
        None => (zeros(), zeros(), zeros(), zeros()),
    };
    let about_tests = query.lines().next().is_some_and(|first| {
        first.split(|c: char| !c.is_alphanumeric()).any(|w| w.to_lowercase().starts_with("test"))
    });
    let about_types = crate::exports::about_types(query.split(|c: char| !c.is_alphanumeric()));
    let outright: Vec<f64> =
        (0..files.len()).map(|i| MENTIONED_WEIGHT * mentioned[i] + DEFINES_WEIGHT * defines[i]).collect();
    let lex = |i: usize| if max_lexical > 0.0 { lexical[i] / max_lexical } else { 0.0 };
    let fused: Vec<f64> = (0..files.len())
        .map(|i| {
            lex(i)
                + GRAPH_WEIGHT * structural[i]
                + NAMED_WEIGHT * named[i]
                + AREA_WEIGHT * area[i]
                + outright[i]
                + RECENCY_WEIGHT * recency[i]
                + SIMILAR_WEIGHT * similar[i]
                + AUTHORED_WEIGHT * authored[i]
                + LATEST_WEIGHT * latest[i]
        })
        .collect();
    let mut ranked: Vec<RankedFile> = files
        .iter()
        .enumerate()
        .map(|(i, file)| {
            let asked = named[i] > 0.0 || mentioned[i] > 0.0 || defines[i] > 0.0;
            let factor = match PathRole::of(&file.path) {
                // A tool wrote it: a change goes to what generates it (below), unless
                // the task asks for this file.
                _ if file.tags.generated.is_some() && !asked => VENDORED_FACTOR,
                PathRole::Test | PathRole::Fixture if about_tests => TEST_TASK_FACTOR,
                PathRole::Test | PathRole::Fixture => TEST_FACTOR,
                PathRole::Vendored => VENDORED_FACTOR,
                _ if !about_types && crate::exports::declares_types_of_code(files, &file.path) => {
                    DECLARATION_FACTOR
                }
                _ => 1.0,
            };
            RankedFile {
                path: file.path.clone(),
                score: fused[i] * factor,
                lexical: lex(i),
                graph: structural[i],
                recency: recency[i],
                similar: similar[i],
                authored: authored[i],
                latest: latest[i],
                named: named[i],
                area: area[i],
                mentioned: mentioned[i],
                defines: defines[i],
                outright: outright[i] * factor,
            }
        })
        .collect();
    // What generates a file ranks as high as the file would: that is where its change
    // goes. A script that writes many (date-fns' `fp.ts`, one wrapper per function) is
    // not what each of them is about: it gets a share, 1 / √(how many).
    let generated = generators(files);
    let mut written: HashMap<usize, f64> = HashMap::default();
    for generator in generated.iter().flat_map(|(_, generators)| generators) {
        *written.entry(*generator).or_default() += 1.0;
    }
    for (file, generators) in generated {
        for generator in generators {
            let share = fused[file] / written[&generator].sqrt();
            let ranked = &mut ranked[generator];
            ranked.score = ranked.score.max(share);
        }
    }
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.path.cmp(&b.path)));
    ranked
}

/// Per file a tool wrote, the files of this repository its notice names
/// (fastify's `lib/config-validator.js`, "autogenerated by
/// build/build-validation.js": that script). A tool from elsewhere
/// (`ucd-generate`) names none.
fn generators(files: &[IndexedFile]) -> Vec<(usize, Vec<usize>)> {
    let mut by_name = None;
    files
        .iter()
        .enumerate()
        .filter_map(|(i, file)| {
            let notice = file.tags.generated.as_deref()?;
            let by_name = by_name.get_or_insert_with(|| FilesByName::new(files));
            let named: Vec<usize> =
                by_name.named_by_path(files, notice).into_iter().flatten().filter(|&g| g != i).collect();
            (!named.is_empty()).then_some((i, named))
        })
        .collect()
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

/// Per file, how much and how lately it changed, from 0 to 1: each commit
/// that changed it counts half as much as one [`RECENCY_HALF_LIFE`] commits newer.
fn recency(files: &[IndexedFile], history: &History, releasing: bool) -> Vec<f64> {
    let by_file = history.commits_by_file();
    let raw: Vec<f64> = files
        .iter()
        .map(|f| {
            let commits = by_file.get(f.path.as_str()).map(Vec::as_slice).unwrap_or_default();
            commits
                .iter()
                .filter(|&&c| history.is_work(c, releasing))
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
fn authored(files: &[IndexedFile], history: &History, releasing: bool) -> Vec<f64> {
    let Some(me) = history.me.as_deref() else { return vec![0.0; files.len()] };
    let mut weight: HashMap<&str, f64> = HashMap::default();
    let mine = history.commits.iter().enumerate().filter(|(_, c)| c.author == me);
    for (k, (i, commit)) in mine.enumerate() {
        if history.is_work(i, releasing) {
            let w = 0.5f64.powf(k as f64 / AUTHORED_HALF_LIFE);
            for path in &commit.files {
                *weight.entry(path.as_str()).or_default() += w;
            }
        }
    }
    normalized(files.iter().map(|f| weight.get(f.path.as_str()).copied().unwrap_or(0.0)).collect())
}

/// Per file, 1 if the newest commit changed it (and was no sweep or release), else 0.
fn latest(files: &[IndexedFile], history: &History, releasing: bool) -> Vec<f64> {
    let changed: HashSet<&str> = match history.commits.first() {
        Some(commit) if history.is_work(0, releasing) => commit.files.iter().map(String::as_str).collect(),
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
    let mut ranked = match options.graph {
        true => {
            // Built for the query's names: the definers of what it names lead its PageRank.
            let graph = Graph::cached(ws, &files, &graph::query_names(query));
            rank_with(&files, Some(&graph), &terms, query, history.as_ref(), options)
        }
        false => rank_with(&files, None, &terms, query, history.as_ref(), options),
    };
    crate::index::drop_in_background((files, terms, history));
    ranked.truncate(options.top.unwrap_or(usize::MAX));
    Ok((ranked, stats))
}

#[cfg(test)]
mod tests {
    use super::task::task_area;
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
                    name: (*n).into(),
                    kind: crate::tags::Kind::Function,
                    line: 1,
                    end_line: 1,
                    signature: format!("function {n}()"),
                    left_out: Vec::new(),
                    parent: None,
                    deprecated: false,
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
    fn a_file_a_tool_wrote_yields_to_what_writes_it_unless_the_task_names_it() {
        use crate::lang::Lang;
        // fastify's shape: a validator written by a build script, beside hand-written code.
        let generated = "// This file is autogenerated by build/build-validation.js, do not edit\n\
                         function validate10 (data) { return checkKeepAliveTimeout(data) }\n";
        let files = vec![
            IndexedFile::parsed("lib/config-validator.js", Lang::JavaScript, generated),
            IndexedFile::parsed("build/build-validation.js", Lang::JavaScript, "const schema = {}\n"),
            IndexedFile::parsed("lib/route.js", Lang::JavaScript, "function route () {}\n"),
        ];
        assert!(files[0].tags.generated.as_deref().is_some_and(|n| n.contains("build/build-validation.js")));
        let tables = vec![
            FileTerms::of("validate keep alive timeout check keep alive timeout", []),
            FileTerms::of("schema", []),
            FileTerms::of("validate keep alive timeout", []),
        ];
        let order = |task: &str| -> Vec<String> {
            rank(&files, &tables, task, None, RankOptions::default()).into_iter().map(|r| r.path).collect()
        };
        // Its words matched best, yet the hand-written file leads it, and its script
        // ranks as high as it would have.
        let ranked = order("validate the keep alive timeout");
        assert_eq!(ranked, ["build/build-validation.js", "lib/route.js", "lib/config-validator.js"]);
        // Named by the task, it is not held back: it and its script lead.
        let ranked = order("config validator: validate the keep alive timeout");
        assert_eq!(ranked[2], "lib/route.js", "{ranked:?}");
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
    fn type_declarations_come_after_the_code_unless_the_task_is_about_types() {
        // commander's `typings/index.d.ts` repeats `lib/command.js` in more words.
        let files = files(&["lib/command.js", "typings/index.d.ts"]);
        let tables = vec![
            FileTerms::of("suggest a subcommand", []),
            FileTerms::of("suggest a subcommand when the subcommand is mistyped", []),
        ];
        let top = |task: &str| rank(&files, &tables, task, None, RankOptions::default())[0].path.clone();
        assert_eq!(top("suggest the subcommand"), "lib/command.js");
        assert_eq!(top("fix(types): suggest the subcommand"), "typings/index.d.ts");
        // loguru's `__init__.pyi` repeats, with types, what its modules define; a stub
        // of a compiled module (no `.py` beside it) is all Python says of that code.
        let files = super::tests::files(&[
            "pkg/__init__.py",
            "pkg/__init__.pyi",
            "pkg/_core.py",
            "pkg/_speedups.pyi",
        ]);
        let tables = vec![
            FileTerms::of("logger", []),
            FileTerms::of("bind the logger", []),
            FileTerms::of("bind the logger", []),
            FileTerms::of("quote bind quote", []),
        ];
        let order = |task: &str| -> Vec<String> {
            rank(&files, &tables, task, None, RankOptions::default()).into_iter().map(|r| r.path).collect()
        };
        let at = |order: &[String], path: &str| order.iter().position(|p| p == path).unwrap();
        let bind = order("bind the logger");
        assert!(at(&bind, "pkg/_core.py") < at(&bind, "pkg/__init__.pyi"), "{bind:?}");
        assert_eq!(order("quote")[0], "pkg/_speedups.pyi");
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

    #[test]
    fn a_release_says_where_releases_go_not_where_work_goes() {
        let files = files(&["src/version.rs", "src/pager.rs"]);
        let tables = vec![FileTerms::of("fn run() {}", []); 2];
        let history = History {
            commits: vec![
                authored_commit("bob@example.org", "Version 0.47.3 (#2985)", &["src/version.rs"]),
                authored_commit("bob@example.org", "Wrap long lines", &["src/pager.rs"]),
                authored_commit("bob@example.org", "Release v0.47.2", &["src/version.rs"]),
            ],
            me: Some("bob@example.org".into()),
        };
        let ranked = |task: &str| -> HashMap<String, RankedFile> {
            let ranked = rank(&files, &tables, task, Some(&history), RankOptions::default());
            ranked.into_iter().map(|r| (r.path.clone(), r)).collect()
        };
        let work = ranked("make paging faster");
        let version = &work["src/version.rs"];
        assert_eq!((version.latest, version.recency, version.authored), (0.0, 0.0, 0.0), "{version:?}");
        assert!(work["src/pager.rs"].score > version.score);
        let release = ranked("Bump version to 0.48.0");
        assert_eq!((release["src/version.rs"].latest, release["src/version.rs"].recency), (1.0, 1.0));
    }
}
