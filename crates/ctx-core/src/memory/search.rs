//! `ctx search`: L0 rows (the ContextFS contract's cheap, single-line
//! summaries) of the records that match a query, best first.
//!
//! The lexical channel is SQLite FTS5 with bm25 over every record (session
//! turns, decisions, attempts). User text never reaches FTS5's query
//! language as it is: words become quoted terms, `"…"` a phrase, `word*` a
//! prefix, so quotes, operators and punctuation can never make a query
//! fail. All terms must match; when that finds nothing, any term may (the
//! `retrieval` says so). The vector channel is not built yet: asking for
//! `vector` or `hybrid` falls back to lexical, and the response says why.

use std::time::Instant;

use rusqlite::Connection;
use serde::Serialize;

use crate::error::{Error, Result};

/// Longest L0 summary, in characters (the contract: single-line, bounded).
pub const SUMMARY_CHARS: usize = 160;

/// Which pool a search reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchScope {
    #[default]
    All,
    Hot,
    Archive,
}

impl SearchScope {
    pub fn parse(text: &str) -> Option<SearchScope> {
        match text.trim().to_ascii_lowercase().as_str() {
            "all" => Some(SearchScope::All),
            "hot" => Some(SearchScope::Hot),
            "archive" => Some(SearchScope::Archive),
            _ => None,
        }
    }

    fn pool(self) -> Option<&'static str> {
        match self {
            SearchScope::All => None,
            SearchScope::Hot => Some("hot"),
            SearchScope::Archive => Some("archive"),
        }
    }
}

/// Which channels a search asks for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchMode {
    #[default]
    Lexical,
    Vector,
    Hybrid,
}

impl SearchMode {
    pub fn parse(text: &str) -> Option<SearchMode> {
        match text.trim().to_ascii_lowercase().as_str() {
            "lexical" => Some(SearchMode::Lexical),
            "vector" => Some(SearchMode::Vector),
            "hybrid" => Some(SearchMode::Hybrid),
            _ => None,
        }
    }
}

/// What to search for.
#[derive(Debug, Clone)]
pub struct SearchOptions {
    pub query: String,
    /// How many rows at most. Default: 10.
    pub k: usize,
    pub scope: SearchScope,
    /// Only this session's records; `None`: all.
    pub session: Option<String>,
    pub mode: SearchMode,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            query: String::new(),
            k: 10,
            scope: SearchScope::All,
            session: None,
            mode: SearchMode::Lexical,
        }
    }
}

/// `ctx search --json`: the contract's response. Stable JSON.
#[derive(Debug, Clone, Serialize)]
pub struct SearchResponse {
    /// `"L0"`.
    pub layer: &'static str,
    pub query: String,
    pub k: usize,
    pub scope: SearchScope,
    /// `"all"` or the session id.
    pub session: String,
    pub hits: usize,
    pub results: Vec<L0Row>,
    pub retrieval: Retrieval,
}

/// One L0 row: the contract's required fields, and its optional ones that
/// `search` fills in (scores, expansion hints). Stable JSON.
#[derive(Debug, Clone, Serialize)]
pub struct L0Row {
    /// `"L0"`.
    pub layer: &'static str,
    pub id: String,
    pub ts: String,
    #[serde(rename = "type")]
    pub record_type: String,
    /// One line, at most [`SUMMARY_CHARS`] characters.
    pub summary: String,
    /// `hot` or `archive`.
    pub source: String,
    /// The ranking score (search only, as are the others below).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_lex: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_final: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expand: Option<Expand>,
}

impl L0Row {
    /// A row without the search-only fields.
    pub(crate) fn plain(id: String, ts: String, record_type: String, text: &str, source: String) -> L0Row {
        L0Row {
            layer: "L0",
            id,
            ts,
            record_type,
            summary: summarize(text),
            source,
            score: None,
            score_lex: None,
            score_final: None,
            expand: None,
        }
    }
}

/// Hints for expanding a row with `ctx timeline` or `ctx get`. Stable JSON.
#[derive(Debug, Clone, Serialize)]
pub struct Expand {
    pub timeline: ExpandTimeline,
    pub get: ExpandGet,
}

#[derive(Debug, Clone, Serialize)]
pub struct ExpandTimeline {
    pub before: usize,
    pub after: usize,
    pub window: usize,
    pub tokens_est: usize,
    /// `small`, `medium` or `large`.
    pub size: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct ExpandGet {
    pub head: usize,
    pub tokens_est: usize,
    pub size: &'static str,
    /// `low`, `medium` or `high`: how this row's score compares with the best.
    pub confidence: &'static str,
}

/// How a search was served. Stable JSON (the contract's additive metadata).
#[derive(Debug, Clone, Serialize)]
pub struct Retrieval {
    pub requested_mode: SearchMode,
    pub mode: SearchMode,
    pub lexical_engine: &'static str,
    /// `None`: no vector channel served.
    pub vector_engine: Option<&'static str>,
    pub lexical_hits: usize,
    pub vector_hits: usize,
    pub fused_hits: usize,
    /// Every term had to match (`false`: none matched all, so any term could).
    pub all_terms: bool,
    pub latency_ms: Latency,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vector_fallback_reason: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Latency {
    pub lexical: f64,
    pub vector: f64,
    pub fusion: f64,
    pub total: f64,
}

/// Rows per side a timeline expansion shows by default.
const TIMELINE_SIDE: usize = 3;
/// Characters `ctx get` shows by default.
const GET_HEAD: usize = 2000;

/// Search the records (inside the caller's read transaction).
pub(crate) fn search(conn: &Connection, options: &SearchOptions) -> Result<SearchResponse> {
    let started = Instant::now();
    if options.k == 0 {
        return Err(Error::InvalidInput("-k must be at least 1".into()));
    }
    let (vector_fallback_reason, mode) = match options.mode {
        SearchMode::Lexical => (None, SearchMode::Lexical),
        _ => (
            Some("no vector channel: no embedder is configured in this version".to_string()),
            SearchMode::Lexical,
        ),
    };
    let terms = Terms::parse(&options.query);
    let mut rows = Vec::new();
    let mut all_terms = true;
    if let Some(all) = terms.all() {
        rows = lexical(conn, &all, options)?;
        if rows.is_empty() && terms.len() > 1 {
            all_terms = false;
            rows = lexical(conn, &terms.any().unwrap_or(all), options)?;
        }
    }
    let lexical_ms = millis(started);
    let best = rows.first().map(|r| r.score).unwrap_or(0.0);
    let results: Vec<L0Row> = rows.into_iter().map(|row| row.into_l0(best)).collect();
    let hits = results.len();
    Ok(SearchResponse {
        layer: "L0",
        query: options.query.clone(),
        k: options.k,
        scope: options.scope,
        session: options.session.clone().unwrap_or_else(|| "all".into()),
        hits,
        results,
        retrieval: Retrieval {
            requested_mode: options.mode,
            mode,
            lexical_engine: "sqlite_fts5",
            vector_engine: None,
            lexical_hits: hits,
            vector_hits: 0,
            fused_hits: 0,
            all_terms,
            latency_ms: Latency { lexical: lexical_ms, vector: 0.0, fusion: 0.0, total: millis(started) },
            fallback_reason: vector_fallback_reason
                .as_ref()
                .map(|_| "vector channel unavailable; served lexical".to_string()),
            vector_fallback_reason,
        },
    })
}

fn millis(since: Instant) -> f64 {
    (since.elapsed().as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0
}

/// A matching record before it becomes a row.
struct Hit {
    id: String,
    ts: String,
    record_type: String,
    text: String,
    pool: String,
    score: f64,
}

impl Hit {
    fn into_l0(self, best: f64) -> L0Row {
        let summary = summarize(&self.text);
        let chars = self.text.chars().count();
        let get_tokens = chars.min(GET_HEAD).div_ceil(4);
        let window = 2 * TIMELINE_SIDE + 1;
        // A timeline row is a summary: about 40 tokens with its JSON.
        let timeline_tokens = window * 40;
        let ratio = if best > 0.0 { self.score / best } else { 0.0 };
        L0Row {
            layer: "L0",
            id: self.id,
            ts: self.ts,
            record_type: self.record_type,
            summary,
            source: self.pool,
            score: Some(self.score),
            score_lex: Some(self.score),
            score_final: Some(self.score),
            expand: Some(Expand {
                timeline: ExpandTimeline {
                    before: TIMELINE_SIDE,
                    after: TIMELINE_SIDE,
                    window,
                    tokens_est: timeline_tokens,
                    size: size(timeline_tokens),
                },
                get: ExpandGet {
                    head: chars.min(GET_HEAD),
                    tokens_est: get_tokens,
                    size: size(get_tokens),
                    confidence: if ratio >= 0.8 {
                        "high"
                    } else if ratio >= 0.5 {
                        "medium"
                    } else {
                        "low"
                    },
                },
            }),
        }
    }
}

fn size(tokens: usize) -> &'static str {
    match tokens {
        0..=200 => "small",
        201..=800 => "medium",
        _ => "large",
    }
}

/// One line of at most [`SUMMARY_CHARS`] characters: white space folded,
/// control characters dropped, `…` where it was cut.
pub(crate) fn summarize(text: &str) -> String {
    let folded: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let clean: String = folded.chars().filter(|c| !c.is_control()).collect();
    if clean.chars().count() <= SUMMARY_CHARS {
        return clean;
    }
    let cut: String = clean.chars().take(SUMMARY_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}

fn lexical(conn: &Connection, fts_query: &str, options: &SearchOptions) -> Result<Vec<Hit>> {
    // bm25 ranks ascending (lower is better); the row's score is its negation.
    // Columns: title (a decision's, an attempt's reason) weighs 2, body 1, tags 1.5.
    // Without filters, the index ranks alone and only the best k are joined
    // to their records (a common word matches a third of a large history).
    let sql = if options.scope.pool().is_none() && options.session.is_none() {
        "SELECT r.uid, r.ts, r.type, r.title, r.body, r.pool, -f.score
         FROM (SELECT rowid, bm25(records_fts, 2.0, 1.0, 1.5) AS score FROM records_fts
               WHERE records_fts MATCH ?1 AND ?2 IS NULL AND ?3 IS NULL ORDER BY score LIMIT ?4) f
         JOIN records r ON r.id = f.rowid ORDER BY f.score"
    } else {
        "SELECT r.uid, r.ts, r.type, r.title, r.body, r.pool, -bm25(records_fts, 2.0, 1.0, 1.5)
         FROM records_fts JOIN records r ON r.id = records_fts.rowid
         WHERE records_fts MATCH ?1 AND (?2 IS NULL OR r.pool = ?2) AND (?3 IS NULL OR r.session_id = ?3)
         ORDER BY bm25(records_fts, 2.0, 1.0, 1.5) LIMIT ?4"
    };
    let mut stmt = conn.prepare_cached(sql)?;
    let k = i64::try_from(options.k).unwrap_or(i64::MAX);
    let rows =
        stmt.query_map(rusqlite::params![fts_query, options.scope.pool(), options.session, k], |row| {
            let (title, body): (String, String) = (row.get(3)?, row.get(4)?);
            Ok(Hit {
                id: row.get(0)?,
                ts: row.get(1)?,
                record_type: row.get(2)?,
                text: super::record_text(&title, &body),
                pool: row.get(5)?,
                score: row.get(6)?,
            })
        })?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// A query's terms, each already in FTS5's syntax.
struct Terms(Vec<String>);

impl Terms {
    /// `"a phrase"` stays a phrase; `pre*` is a prefix; every other run of
    /// letters and digits is a word (`foo-bar` is the phrase `foo bar`, as
    /// the index splits it). Everything else is dropped.
    fn parse(query: &str) -> Terms {
        let mut terms = Vec::new();
        let mut rest = query;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('"') {
                let (inside, next) = after.split_once('"').unwrap_or((after, ""));
                push_phrase(&mut terms, inside, false);
                rest = next;
                continue;
            }
            let end = rest.find(|c: char| c.is_whitespace() || c == '"').unwrap_or(rest.len());
            let chunk = &rest[..end];
            push_phrase(&mut terms, chunk.trim_end_matches('*'), chunk.ends_with('*'));
            rest = rest[end..].trim_start();
        }
        Terms(terms)
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    /// Every term must match; `None` without terms.
    fn all(&self) -> Option<String> {
        (!self.0.is_empty()).then(|| self.0.join(" AND "))
    }

    /// Any term may match.
    fn any(&self) -> Option<String> {
        (!self.0.is_empty()).then(|| self.0.join(" OR "))
    }
}

/// The words of `text` as one FTS5 string (a phrase when several), a prefix if asked.
fn push_phrase(terms: &mut Vec<String>, text: &str, prefix: bool) {
    let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return;
    }
    // Only letters and digits inside: nothing to escape.
    let term = format!("\"{}\"{}", words.join(" "), if prefix { "*" } else { "" });
    terms.push(term);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_text_becomes_safe_fts_terms() {
        let parse = |q: &str| Terms::parse(q).0;
        assert_eq!(parse("jwt refresh"), ["\"jwt\"", "\"refresh\""]);
        assert_eq!(parse("\"token refresh\" auth*"), ["\"token refresh\"", "\"auth\"*"]);
        assert_eq!(parse("foo-bar AND (NOT x) OR"), ["\"foo bar\"", "\"AND\"", "\"NOT\"", "\"x\"", "\"OR\""]);
        assert_eq!(parse("\"unclosed phrase"), ["\"unclosed phrase\""]);
        assert!(parse("\"\" * ( ) ; -- ' ").is_empty());
        assert_eq!(parse("ünïcödé 名前"), ["\"ünïcödé\"", "\"名前\""]);
    }

    #[test]
    fn summaries_are_one_bounded_line() {
        assert_eq!(summarize("a\n\n b\tc\u{7}"), "a b c");
        let long = "word ".repeat(100);
        let summary = summarize(&long);
        assert!(summary.chars().count() <= SUMMARY_CHARS && summary.ends_with('…'), "{summary}");
    }
}
