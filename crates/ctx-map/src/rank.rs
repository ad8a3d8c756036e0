//! `ctx rank`: the repository's files, most relevant to a task first.
//!
//! Two signals, fused:
//! - **lexical**: BM25 of the task's terms over each file's words, with its
//!   path and the names it defines counted as extra, heavier fields (a file
//!   named for the task, or defining what the task names, is likely the one);
//! - **structural**: PageRank over the reference graph, personalized toward
//!   the best lexical matches and the definers of identifiers the task names,
//!   so the files those depend on, or that depend on them, rise too;
//! - **named**: a file whose name the task says (`reload` → `reload.rs`,
//!   `observable map` → `observablemap.ts`) is likely the one;
//! - **recency** (in a git repository): files changed lately rank a little
//!   higher ([`crate::history`]).
//!
//! Terms are lowercased, identifiers split at `_` and case changes (and kept
//! whole), a light suffix stemmer applied, and stop words dropped, the same
//! way for the task and the files.

use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::Serialize;

use crate::graph::{self, Focus};
use crate::history::History;
use crate::index::IndexedFile;

/// BM25 parameters.
const K1: f64 = 1.2;
const B: f64 = 0.75;
/// Weight of a term in a file's path and in the names it defines, against its body.
const PATH_WEIGHT: f64 = 4.0;
const NAME_WEIGHT: f64 = 2.0;
/// How many of the best lexical matches seed the PageRank.
const SEEDS: usize = 20;
/// Share of the structural signal in the fused score.
const GRAPH_SHARE: f64 = 0.15;
/// Share of "the task names this file" in the fused score.
const NAMED_SHARE: f64 = 0.25;
/// Share of recent change in the fused score, and its half-life in commits.
const RECENCY_SHARE: f64 = 0.1;
const RECENCY_HALF_LIFE: f64 = 10.0;

/// What to rank with.
#[derive(Debug, Clone, Copy)]
pub struct RankOptions {
    /// Leave out the reference graph (a baseline to measure against). Default: false.
    pub lexical_only: bool,
    /// Use the version history when there is one. Default: true.
    pub history: bool,
    /// Only the first this many files (1 to [`ctx_core::limits::MAX_K`]).
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
}

const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "do", "for", "from", "has", "have", "if", "in", "into",
    "is", "it", "its", "not", "of", "on", "or", "so", "that", "the", "this", "to", "was", "we", "when",
    "with", "add", "fix", "use", "make", "new", "update", "change", "remove", "support", "allow", "instead",
    "should", "can", "now", "also", "more", "some", "all", "but", "then", "than", "which", "will", "been",
    "no",
];

/// The terms of `text`: words and identifiers, split, lowercased, stemmed, without stop words.
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        if word.is_empty() || word.len() > 64 {
            continue;
        }
        let parts = split_identifier(word);
        if parts.len() > 1 {
            push_term(&mut out, &word.to_lowercase());
        }
        for part in parts {
            push_term(&mut out, &part);
        }
    }
    out
}

fn push_term(out: &mut Vec<String>, word: &str) {
    if word.len() < 2 || word.chars().all(|c| c.is_ascii_digit()) || STOP_WORDS.contains(&word) {
        return;
    }
    out.push(stem(word));
}

/// `parseHTTPHeader_value` → `parse`, `http`, `header`, `value` (lowercase).
fn split_identifier(word: &str) -> Vec<String> {
    let mut parts = Vec::new();
    for piece in word.split('_').filter(|p| !p.is_empty()) {
        let chars: Vec<char> = piece.chars().collect();
        let mut start = 0;
        for i in 1..chars.len() {
            let (prev, cur) = (chars[i - 1], chars[i]);
            let next_lower = chars.get(i + 1).is_some_and(|c| c.is_lowercase());
            let boundary = (prev.is_lowercase() && cur.is_uppercase())
                || (prev.is_uppercase() && cur.is_uppercase() && next_lower)
                || (prev.is_alphabetic() != cur.is_alphabetic());
            if boundary {
                parts.push(chars[start..i].iter().collect::<String>().to_lowercase());
                start = i;
            }
        }
        parts.push(chars[start..].iter().collect::<String>().to_lowercase());
    }
    parts
}

/// A light suffix stemmer: `channels` → `channel`; `parse`, `parsed`, `parsing` → `pars`.
fn stem(word: &str) -> String {
    for suffix in ["ing", "ed", "es", "s", "e"] {
        if word.len() > suffix.len() + 3 && word.ends_with(suffix) && !word.ends_with("ss") {
            return word[..word.len() - suffix.len()].to_string();
        }
    }
    word.to_string()
}

/// Rank `files` for `query`; `contents[i]` is file `i`'s text (or empty if
/// unreadable), `history` the repository's recent commits, if known.
pub fn rank(
    files: &[IndexedFile],
    contents: &[String],
    query: &str,
    history: Option<&History>,
    options: RankOptions,
) -> Vec<RankedFile> {
    let query_terms: Vec<String> = {
        let mut seen = HashSet::default();
        terms(query).into_iter().filter(|t| seen.insert(t.clone())).collect()
    };
    // Term frequencies of the query's terms only: per file, body / path / defined names.
    let wanted: HashSet<&str> = query_terms.iter().map(String::as_str).collect();
    let stats: Vec<(HashMap<String, f64>, f64)> = files
        .par_iter()
        .zip(contents.par_iter())
        .map(|(file, text)| {
            let mut tf: HashMap<String, f64> = HashMap::default();
            let mut length = 0.0;
            let mut count = |text: &str, weight: f64, length: &mut f64| {
                for term in terms(text) {
                    *length += weight;
                    if wanted.contains(term.as_str()) {
                        *tf.entry(term).or_default() += weight;
                    }
                }
            };
            count(text, 1.0, &mut length);
            count(&file.path, PATH_WEIGHT, &mut length);
            for def in file.tags.defs.iter().filter(|d| d.kind.defines_name()) {
                count(&def.name, NAME_WEIGHT, &mut length);
            }
            (tf, length)
        })
        .collect();
    let n = files.len().max(1) as f64;
    let average = stats.iter().map(|s| s.1).sum::<f64>() / n;
    let mut lexical = vec![0.0; files.len()];
    for term in &query_terms {
        let df = stats.iter().filter(|s| s.0.contains_key(term)).count() as f64;
        if df == 0.0 {
            continue;
        }
        let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
        for (i, (tf, length)) in stats.iter().enumerate() {
            if let Some(&f) = tf.get(term) {
                lexical[i] += idf * f * (K1 + 1.0) / (f + K1 * (1.0 - B + B * length / average.max(1.0)));
            }
        }
    }
    let max_lexical = lexical.iter().copied().fold(0.0, f64::max);

    let mut structural = vec![0.0; files.len()];
    if !options.lexical_only && max_lexical > 0.0 {
        // Seeds: the best lexical matches, in a fixed order.
        let mut order: Vec<usize> = (0..files.len()).filter(|&i| lexical[i] > 0.0).collect();
        order.sort_by(|&a, &b| lexical[b].total_cmp(&lexical[a]).then(a.cmp(&b)));
        let focus = Focus {
            seeds: order.into_iter().take(SEEDS).map(|i| (i, lexical[i] / max_lexical)).collect(),
            names: query
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| w.len() >= 3)
                .map(str::to_string)
                .collect(),
            ..Focus::default()
        };
        let ranking = graph::rank(files, &focus);
        let max_rank = ranking.file_rank.iter().copied().fold(0.0, f64::max);
        if max_rank > 0.0 {
            structural = ranking.file_rank.iter().map(|r| r / max_rank).collect();
        }
    }

    let history = history.filter(|_| options.history);
    let recency = history.map_or_else(|| vec![0.0; files.len()], |h| recency(files, h));
    let recency_share = if history.is_some() { RECENCY_SHARE } else { 0.0 };
    let named = named_in_query(files, query);
    let mut ranked: Vec<RankedFile> = files
        .iter()
        .enumerate()
        .map(|(i, file)| {
            let lex = if max_lexical > 0.0 { lexical[i] / max_lexical } else { 0.0 };
            RankedFile {
                path: file.path.clone(),
                score: (1.0 - GRAPH_SHARE - recency_share) * lex
                    + GRAPH_SHARE * structural[i]
                    + recency_share * recency[i]
                    + NAMED_SHARE * named[i],
                lexical: lex,
                graph: structural[i],
                recency: recency[i],
            }
        })
        .collect();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.path.cmp(&b.path)));
    ranked
}

/// File names too common to say which file a task means.
const GENERIC_STEMS: &[&str] = &[
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
];

/// Per file, whether the task names it: its file name without extension is a
/// word of the query, or two or three consecutive words run together
/// (`observable map` names `observablemap.ts`, `reload` names `reload.rs`).
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
    let stems: Vec<Option<String>> = files
        .iter()
        .map(|f| {
            let name = f.path.rsplit('/').next().unwrap_or(&f.path);
            let bare = name.split('.').next().unwrap_or(name);
            if bare.len() < 3 || GENERIC_STEMS.contains(&bare.to_lowercase().as_str()) {
                return None;
            }
            let key: String = bare.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase();
            (names.contains(&key) || names.contains(&stem(&key))).then_some(key)
        })
        .collect();
    let mut sharing: HashMap<&str, f64> = HashMap::default();
    for key in stems.iter().flatten() {
        *sharing.entry(key.as_str()).or_default() += 1.0;
    }
    stems.iter().map(|k| k.as_deref().map_or(0.0, |k| 1.0 / sharing[k].sqrt())).collect()
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
    let max = raw.iter().copied().fold(0.0, f64::max);
    if max > 0.0 { raw.iter().map(|r| r / max).collect() } else { raw }
}

/// Index `ws` and rank its source files for `query`.
pub fn rank_workspace(
    ws: &mut ctx_core::Workspace,
    query: &str,
    options: RankOptions,
    progress: Option<crate::index::Progress>,
) -> crate::Result<(Vec<RankedFile>, crate::index::IndexStats)> {
    if query.trim().is_empty() {
        return Err(crate::Error::InvalidInput("the query is empty: say what the task is".into()));
    }
    if let Some(top) = options.top {
        ctx_core::limits::count("-k", top, ctx_core::limits::MAX_K)?;
    }
    let indexed = crate::index::index_with_contents(ws, progress, options.history)?;
    let crate::index::Indexed { files, stats, contents, history } = indexed;
    let mut ranked = rank(&files, &contents, query, history.as_ref(), options);
    ranked.truncate(options.top.unwrap_or(usize::MAX));
    Ok((ranked, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_split_identifiers_and_drop_noise() {
        assert_eq!(
            terms("Fix parseHTTPHeader in the mpsc_channel"),
            ["parsehttpheader", "pars", "http", "header", "mpsc_channel", "mpsc", "channel"]
        );
        assert_eq!(stem("channels"), "channel");
        assert_eq!([stem("parse"), stem("parsed"), stem("parsing"), stem("parses")], ["pars"; 4]);
        assert_eq!(stem("class"), "class");
    }

    fn files(paths: &[&str]) -> Vec<IndexedFile> {
        paths
            .iter()
            .map(|p| IndexedFile {
                path: p.to_string(),
                lang: "rust".into(),
                size: 0,
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
        ]);
        let named = named_in_query(&files, "fix: observable map init in the `reload` layer; mod x");
        // Two files named `reload` share the credit; generic and very short names get none.
        let half = 1.0 / 2f64.sqrt();
        assert_eq!(named, [1.0, half, half, 0.0, 0.0]);
        assert_eq!(named_in_query(&files, "Reloading observables"), [0.0, half, half, 0.0, 0.0]);
    }
}
