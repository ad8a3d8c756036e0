//! `ctx rank`: the repository's files, most relevant to a task first.
//!
//! Two signals, fused:
//! - **lexical**: BM25 of the task's terms over each file's words, with its
//!   path and the names it defines counted as extra, heavier fields (a file
//!   named for the task, or defining what the task names, is likely the one);
//! - **structural**: PageRank over the reference graph, personalized toward
//!   the best lexical matches and the definers of identifiers the task names,
//!   so the files those depend on, or that depend on them, rise too.
//!
//! Terms are lowercased, identifiers split at `_` and case changes (and kept
//! whole), a light suffix stemmer applied, and stop words dropped, the same
//! way for the task and the files.

use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::Serialize;

use crate::graph::{self, Focus};
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

/// One ranked file. Stable JSON.
#[derive(Debug, Clone, Serialize)]
pub struct RankedFile {
    pub path: String,
    pub score: f64,
    pub lexical: f64,
    pub graph: f64,
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

/// Rank `files` for `query`; `contents[i]` is file `i`'s text (or empty if unreadable).
/// With `lexical_only`, the graph is left out (a baseline to measure against).
pub fn rank(files: &[IndexedFile], contents: &[String], query: &str, lexical_only: bool) -> Vec<RankedFile> {
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
    if !lexical_only && max_lexical > 0.0 {
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

    let mut ranked: Vec<RankedFile> = files
        .iter()
        .enumerate()
        .map(|(i, file)| {
            let lex = if max_lexical > 0.0 { lexical[i] / max_lexical } else { 0.0 };
            RankedFile {
                path: file.path.clone(),
                score: (1.0 - GRAPH_SHARE) * lex + GRAPH_SHARE * structural[i],
                lexical: lex,
                graph: structural[i],
            }
        })
        .collect();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.path.cmp(&b.path)));
    ranked
}

/// Index `ws` and rank its source files for `query`.
pub fn rank_workspace(
    ws: &mut ctx_core::Workspace,
    query: &str,
    lexical_only: bool,
    progress: Option<crate::index::Progress>,
) -> crate::Result<(Vec<RankedFile>, crate::index::IndexStats)> {
    if query.trim().is_empty() {
        return Err(crate::Error::InvalidInput("the query is empty: say what the task is".into()));
    }
    let (files, stats) = crate::index::index(ws, progress)?;
    let root = ws.root().to_path_buf();
    let contents: Vec<String> = files
        .par_iter()
        .map(|f| {
            std::fs::read(root.join(&f.path))
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default()
        })
        .collect();
    Ok((rank(&files, &contents, query, lexical_only), stats))
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
}
