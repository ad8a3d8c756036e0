//! `ctx search`: L0 rows (the ContextFS contract's cheap, single-line
//! summaries) of the records that match a query, best first.
//!
//! The lexical channel is SQLite FTS5 with bm25 over every record (session
//! turns, decisions, attempts). User text never reaches FTS5's query
//! language as it is: words become quoted terms, `"…"` a phrase, `word*` a
//! prefix, so quotes, operators and punctuation can never make a query
//! fail. A term said twice counts once, and only the first
//! [`MAX_QUERY_TERMS`] distinct terms are kept (FTS5's work per matching
//! row grows with the square of the terms: 5,000 words took minutes; the
//! `retrieval` counts the dropped ones). All terms must match; when that
//! finds nothing, any term may (the `retrieval` says so).
//!
//! The vector channel ranks records by the cosine similarity of their
//! vectors (`vectors.rs`) from an [`Embedder`]. `hybrid` fuses both
//! rankings by reciprocal rank. A channel that cannot serve (no embedder,
//! an embedder error, a query with nothing to embed or no words to match)
//! leaves the other to serve alone, and the `retrieval` says why.

use std::time::Instant;

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use super::Record;
use super::embed::{Embedder, normalize};
use super::fts_query::Terms;
use super::vectors::{self, Space};
use crate::error::{Error, Result};
use crate::limits::{self, MAX_K, MAX_QUERY_TERMS};

/// Longest L0 summary, in characters (the contract: single-line, bounded).
pub const SUMMARY_CHARS: usize = 160;

/// Which pool a search reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

    pub fn as_str(self) -> &'static str {
        match self {
            SearchMode::Lexical => "lexical",
            SearchMode::Vector => "vector",
            SearchMode::Hybrid => "hybrid",
        }
    }
}

/// What a search does when its embedder fails: raises, or returns vectors
/// of the wrong number or size. A query the embedder cannot place (no words
/// it weighs) and vectors turned off in the config are not failures.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EmbedderFailure {
    /// The lexical channel serves; `retrieval.vector_fallback_reason` says why.
    #[default]
    Fallback,
    /// The search fails with [`Error::Embedder`].
    Error,
}

/// What to search for. Every field but `query` has a default (JSON too).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchOptions {
    pub query: String,
    /// How many rows at most. Default: 10.
    pub k: usize,
    pub scope: SearchScope,
    /// Only this session's records; `None`: all.
    pub session: Option<String>,
    pub mode: SearchMode,
    /// Only records of these types (any of them); empty: every type.
    pub types: Vec<String>,
    /// Only records with every one of these tags; `!tag`: without it.
    pub tags: Vec<String>,
    /// Only records at or after this time: RFC 3339 (UTC), `YYYY-MM-DD`
    /// (its start), or a duration ago (`7d`, `12h`, `2weeks`).
    pub since: Option<String>,
    /// Only records at or before this time: as `since` (a date: its end).
    pub until: Option<String>,
    /// What a failing embedder does to the search. Default: fall back.
    pub on_embedder_error: EmbedderFailure,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            query: String::new(),
            k: 10,
            scope: SearchScope::All,
            session: None,
            mode: SearchMode::Lexical,
            types: Vec::new(),
            tags: Vec::new(),
            since: None,
            until: None,
            on_embedder_error: EmbedderFailure::Fallback,
        }
    }
}

/// What a search's records must be beyond matching it (types, tags, times),
/// checked inside each channel, before its ranking is cut.
#[derive(Debug, Clone, Default)]
pub(crate) struct RecordFilter {
    /// JSON arrays of strings, or `None`: no condition.
    types: Option<String>,
    tags: Option<String>,
    without: Option<String>,
    /// `YYYY-MM-DDTHH:MM:SS` (UTC), compared with the first 19 characters of `ts`.
    since: Option<String>,
    until: Option<String>,
}

impl RecordFilter {
    /// The filter of `options`; `None` when it asks for none.
    pub(crate) fn of(options: &SearchOptions) -> Result<Option<RecordFilter>> {
        let words = |items: &[String], what: &str| -> Result<Vec<String>> {
            items
                .iter()
                .map(|item| item.trim().to_lowercase())
                .filter(|item| !item.is_empty())
                .map(|item| match item.contains(char::is_whitespace) {
                    true => Err(Error::InvalidInput(format!("{item:?}: a {what} is one word"))),
                    false => Ok(item),
                })
                .collect()
        };
        let json = |items: Vec<String>| (!items.is_empty()).then(|| serde_json::json!(items).to_string());
        let (without, with): (Vec<String>, Vec<String>) =
            words(&options.tags, "tag")?.into_iter().partition(|t| t.starts_with('!'));
        let without = without.into_iter().map(|t| t[1..].to_string()).filter(|t| !t.is_empty()).collect();
        let filter = RecordFilter {
            types: json(words(&options.types, "type")?),
            tags: json(with),
            without: json(without),
            since: options.since.as_deref().map(|t| time_bound("--since", t, false)).transpose()?,
            until: options.until.as_deref().map(|t| time_bound("--until", t, true)).transpose()?,
        };
        let any = filter.types.is_some()
            || filter.tags.is_some()
            || filter.without.is_some()
            || filter.since.is_some()
            || filter.until.is_some();
        Ok(any.then_some(filter))
    }

    /// The condition over `records r`, its parameters numbered from `first`
    /// (bind [`RecordFilter::params`] there).
    pub(crate) fn sql(first: usize) -> String {
        let [types, tags, without, since, until] = [0, 1, 2, 3, 4].map(|i| format!("?{}", first + i));
        format!(
            "({types} IS NULL OR r.type IN (SELECT value FROM json_each({types})))
             AND ({tags} IS NULL OR NOT EXISTS (SELECT 1 FROM json_each({tags})
                  WHERE instr(' ' || r.tags || ' ', ' ' || value || ' ') = 0))
             AND ({without} IS NULL OR NOT EXISTS (SELECT 1 FROM json_each({without})
                  WHERE instr(' ' || r.tags || ' ', ' ' || value || ' ') > 0))
             AND ({since} IS NULL OR (r.ts <> 'n/a' AND substr(r.ts, 1, 19) >= {since}))
             AND ({until} IS NULL OR (r.ts <> 'n/a' AND substr(r.ts, 1, 19) <= {until}))"
        )
    }

    pub(crate) fn params(filter: Option<&RecordFilter>) -> [Option<&str>; 5] {
        match filter {
            None => [None; 5],
            Some(f) => [&f.types, &f.tags, &f.without, &f.since, &f.until].map(|v| v.as_deref()),
        }
    }
}

/// A time a search is bounded by, as `YYYY-MM-DDTHH:MM:SS` (UTC): an RFC
/// 3339 time, a date (its start, or with `end` its last second), or a
/// duration before now.
fn time_bound(flag: &str, text: &str, end: bool) -> Result<String> {
    let text = text.trim();
    let is_date =
        text.len() == 10 && text.as_bytes().get(4) == Some(&b'-') && text.as_bytes().get(7) == Some(&b'-');
    let time = if is_date {
        humantime::parse_rfc3339_weak(&format!("{text}T00:00:00"))
            .map(|t| if end { t + std::time::Duration::from_secs(86_399) } else { t })
    } else if let Ok(ago) = humantime::parse_duration(text) {
        Ok(std::time::SystemTime::now().checked_sub(ago).unwrap_or(std::time::UNIX_EPOCH))
    } else {
        humantime::parse_rfc3339_weak(text.trim_end_matches(['Z', 'z']))
    };
    let time = time.map_err(|_| {
        Error::InvalidInput(format!(
            "{flag} {text:?}: a time is RFC 3339 in UTC (2026-02-10T14:00:00Z), a date (2026-02-10) or a duration ago (7d, 12h)"
        ))
    })?;
    // A duration reaching back before 1970 means since the beginning (`iso` clamps it).
    Ok(crate::time::iso(time)[..19].to_string())
}

/// `ctx search --json`: the contract's response. Stable JSON.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct L0Row {
    /// `"L0"`.
    pub layer: &'static str,
    pub id: String,
    pub ts: String,
    #[serde(rename = "type")]
    pub record_type: String,
    /// One line, at most 160 characters.
    pub summary: String,
    /// `hot` or `archive`.
    pub source: String,
    /// The ranking score (search only, as are the others below).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_lex: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_vec: Option<f64>,
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
            score_vec: None,
            score_final: None,
            expand: None,
        }
    }
}

/// Hints for expanding a row with `ctx timeline` or `ctx get`. Stable JSON.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Expand {
    pub timeline: ExpandTimeline,
    pub get: ExpandGet,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExpandTimeline {
    pub before: usize,
    pub after: usize,
    pub window: usize,
    pub tokens_est: usize,
    /// `small`, `medium` or `large`.
    pub size: &'static str,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExpandGet {
    /// The head for `get` (characters of its JSON answer) that returns the
    /// whole record, or a text longer than 2,000 characters cut there.
    pub head: usize,
    /// About what the answer costs: `head` / 4.
    pub tokens_est: usize,
    pub size: &'static str,
    /// `low`, `medium` or `high`: how this row's score compares with the best.
    pub confidence: &'static str,
}

/// How a search was served. Stable JSON (the contract's additive metadata).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Retrieval {
    pub requested_mode: SearchMode,
    pub mode: SearchMode,
    pub lexical_engine: &'static str,
    /// `None`: no vector channel served. See [`VECTOR_ENGINE`].
    pub vector_engine: Option<&'static str>,
    /// The embedder whose vectors served (`builtin:hashed-ngrams-v1` is
    /// ctx's own, no model: see `HashedNgrams`); `None` when none did.
    pub embedder: Option<String>,
    pub lexical_hits: usize,
    pub vector_hits: usize,
    pub fused_hits: usize,
    /// Every term had to match (`false`: none matched all, so any term could).
    pub all_terms: bool,
    /// The distinct terms of the query the lexical channel used.
    pub query_terms: usize,
    /// Distinct terms after the first [`MAX_QUERY_TERMS`], not used.
    pub terms_dropped: usize,
    /// Matches the lexical channel ranked.
    pub lexical_ranked: usize,
    /// More records matched than the lexical channel ranks
    /// ([`LEXICAL_WINDOW`]): the newest of them were ranked.
    pub lexical_windowed: bool,
    pub latency_ms: Latency,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vector_fallback_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lexical_fallback_reason: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Latency {
    pub lexical: f64,
    pub vector: f64,
    pub fusion: f64,
    pub total: f64,
}

/// Rows per side a timeline expansion shows by default.
const TIMELINE_SIDE: usize = 3;
/// Characters of a record's text the `get` hint of a search row makes room for.
const GET_HEAD: usize = 2000;

/// What the vector channel can do for a search.
pub(crate) enum VectorChannel<'a> {
    /// Vectors of every record are in `space` (`None`: there are no records yet).
    Ready { embedder: &'a dyn Embedder, space: Option<Space> },
    /// It cannot serve; the reason says why.
    Unavailable(String),
}

/// How the vector channel's index is searched (see `vectors.rs`): the
/// vectors live in SQLite, their sign bits are scanned linearly by Hamming
/// distance, and the best candidates are rescored exactly.
pub const VECTOR_ENGINE: &str = "sqlite_hamming_rescore";

/// Reciprocal-rank fusion's constant: a row's fused score is the sum over
/// channels of 1 / (RRF_K + its rank there).
const RRF_K: f64 = 60.0;

/// Search the records (inside the caller's read transaction).
pub(crate) fn search(
    conn: &Connection,
    options: &SearchOptions,
    vector: VectorChannel<'_>,
) -> Result<SearchResponse> {
    let started = Instant::now();
    limits::count("-k", options.k, MAX_K)?;
    let filter = RecordFilter::of(options)?;
    let wants_lexical = options.mode != SearchMode::Vector;
    let wants_vector = options.mode != SearchMode::Lexical;
    // Fusion needs more than k from each channel to rank by agreement.
    let depth = if options.mode == SearchMode::Hybrid { (options.k * 3).max(30) } else { options.k };
    let mut reasons = Reasons::default();

    let mut vector_hits: Option<Vec<(i64, f64)>> = None;
    let mut embedder_name = None;
    if wants_vector {
        match vector {
            VectorChannel::Unavailable(reason) => reasons.vector = Some(reason),
            VectorChannel::Ready { embedder, space } => {
                embedder_name = Some(embedder.name().to_string());
                match nearest(conn, embedder, space, options, filter.as_ref(), depth)? {
                    Ok(hits) => vector_hits = Some(hits),
                    Err(reason) => reasons.vector = Some(reason),
                }
            }
        }
    }
    let vector_ms = millis(started);

    let lexical_started = Instant::now();
    let terms = Terms::parse(&options.query, MAX_QUERY_TERMS);
    let mut lexical_hits: Option<Vec<(i64, f64)>> = None;
    let mut all_terms = true;
    let (mut lexical_ranked, mut lexical_windowed) = (0, false);
    // Lexical serves a vector request whose channel cannot.
    if wants_lexical || vector_hits.is_none() {
        match terms.all() {
            Some(all) => {
                let idfs = idfs(conn, &terms)?;
                let mut found = lexical(conn, &all, &idfs, options, filter.as_ref(), depth)?;
                if found.hits.is_empty() && terms.len() > 1 {
                    all_terms = false;
                    found =
                        lexical(conn, &terms.any().unwrap_or(all), &idfs, options, filter.as_ref(), depth)?;
                }
                (lexical_ranked, lexical_windowed) = (found.ranked, found.windowed);
                lexical_hits = Some(found.hits);
            }
            None => reasons.lexical = Some("the query has no words to match".into()),
        }
    }
    let lexical_ms = millis(lexical_started);

    let fusion_started = Instant::now();
    let mode = match (&lexical_hits, &vector_hits) {
        (Some(_), Some(_)) => SearchMode::Hybrid,
        (None, Some(_)) => SearchMode::Vector,
        _ => SearchMode::Lexical,
    };
    let ranked = fuse(lexical_hits.as_deref(), vector_hits.as_deref(), options.k);
    let results = hydrate(conn, &ranked)?;
    let fusion_ms = millis(fusion_started);
    if mode != options.mode && reasons.vector.is_some() {
        reasons.fallback = Some(format!("the vector channel could not serve; served {}", mode.as_str()));
    } else if mode != options.mode {
        reasons.fallback = Some(format!("the lexical channel could not serve; served {}", mode.as_str()));
    }
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
            vector_engine: vector_hits.is_some().then_some(VECTOR_ENGINE),
            embedder: if vector_hits.is_some() { embedder_name } else { None },
            lexical_hits: lexical_hits.as_ref().map_or(0, Vec::len),
            vector_hits: vector_hits.as_ref().map_or(0, Vec::len),
            fused_hits: if mode == SearchMode::Hybrid { hits } else { 0 },
            all_terms,
            query_terms: terms.len(),
            terms_dropped: terms.dropped,
            lexical_ranked,
            lexical_windowed,
            latency_ms: Latency {
                lexical: lexical_ms,
                vector: vector_ms,
                fusion: fusion_ms,
                total: millis(started),
            },
            fallback_reason: reasons.fallback,
            vector_fallback_reason: reasons.vector,
            lexical_fallback_reason: reasons.lexical,
        },
    })
}

#[derive(Default)]
struct Reasons {
    fallback: Option<String>,
    vector: Option<String>,
    lexical: Option<String>,
}

/// The vector channel's best `depth` records, or why it cannot serve.
fn nearest(
    conn: &Connection,
    embedder: &dyn Embedder,
    space: Option<Space>,
    options: &SearchOptions,
    records: Option<&RecordFilter>,
    depth: usize,
) -> Result<std::result::Result<Vec<(i64, f64)>, String>> {
    let name = embedder.name();
    // The embedder failed: the reason, or the error when the search must fail.
    let failed = |reason: String| match options.on_embedder_error {
        EmbedderFailure::Fallback => Ok(Err(reason)),
        EmbedderFailure::Error => Err(Error::Embedder(reason)),
    };
    let mut query = match embedder.embed(&[options.query.as_str()]) {
        Ok(mut vectors) if vectors.len() == 1 => vectors.remove(0),
        Ok(vectors) => {
            return failed(format!("embedder {name:?} returned {} vectors for 1 text", vectors.len()));
        }
        Err(err) => return failed(format!("embedder {name:?} failed on the query: {err}")),
    };
    if query.iter().any(|x| !x.is_finite()) {
        return failed(format!("embedder {name:?} returned a vector that is not finite for the query"));
    }
    if query.iter().all(|x| *x == 0.0) {
        return Ok(Err(format!("the query has nothing embedder {name:?} can place (no words it weighs)")));
    }
    let Some(space) = space else { return Ok(Ok(Vec::new())) };
    normalize(&mut query);
    let filter = vectors::Filter { pool: options.scope.pool(), session: options.session.as_deref(), records };
    match vectors::nearest(conn, space, embedder, &query, depth, filter) {
        Ok(hits) => Ok(Ok(hits.into_iter().map(|(id, cosine)| (id, f64::from(cosine))).collect())),
        Err(Error::InvalidInput(reason)) => failed(format!("embedder {name:?}: {reason}")),
        Err(Error::Embedder(reason)) => failed(reason),
        Err(err) => Err(err),
    }
}

fn millis(since: Instant) -> f64 {
    (since.elapsed().as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0
}

/// A record's place in the final ranking.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Ranked {
    id: i64,
    score_final: f64,
    score_lex: Option<f64>,
    score_vec: Option<f64>,
}

/// The best `k` of one channel's hits or both: one channel's ranking as it
/// is, two fused by reciprocal rank.
fn fuse(lexical: Option<&[(i64, f64)]>, vector: Option<&[(i64, f64)]>, k: usize) -> Vec<Ranked> {
    let mut ranked: Vec<Ranked> = match (lexical, vector) {
        (Some(lexical), Some(vector)) => {
            let mut by_id: std::collections::HashMap<i64, Ranked> = std::collections::HashMap::new();
            for (channel, hits) in [(0, lexical), (1, vector)] {
                for (rank, &(id, score)) in hits.iter().enumerate() {
                    let entry = by_id.entry(id).or_insert(Ranked {
                        id,
                        score_final: 0.0,
                        score_lex: None,
                        score_vec: None,
                    });
                    entry.score_final += 1.0 / (RRF_K + rank as f64 + 1.0);
                    if channel == 0 {
                        entry.score_lex = Some(score);
                    } else {
                        entry.score_vec = Some(score);
                    }
                }
            }
            // Equal sums are common (first in one channel and second in
            // the other, or the reverse): the tie goes to the row closer
            // to each channel's best score, then to the newer record.
            let best = |hits: &[(i64, f64)]| hits.first().map_or(0.0, |hit| hit.1);
            let (best_lex, best_vec) = (best(lexical), best(vector));
            let closeness = |r: &Ranked| {
                let part = |score: Option<f64>, best: f64| match score {
                    Some(score) if best > 0.0 => score / best,
                    _ => 0.0,
                };
                part(r.score_lex, best_lex) + part(r.score_vec, best_vec)
            };
            // Sums are compared to 1e-9 (far below the smallest step between
            // ranks), so float noise cannot split a tie.
            let key = |r: &Ranked| ((r.score_final * 1e9).round() as i64, closeness(r), r.id);
            let mut fused: Vec<(i64, f64, i64, Ranked)> = by_id
                .into_values()
                .map(|r| {
                    let (sum, close, id) = key(&r);
                    (sum, close, id, r)
                })
                .collect();
            fused.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)).then(b.2.cmp(&a.2)));
            let fused: Vec<Ranked> = fused.into_iter().map(|(.., r)| r).collect();
            fused
        }
        (Some(hits), None) => hits
            .iter()
            .map(|&(id, score)| Ranked { id, score_final: score, score_lex: Some(score), score_vec: None })
            .collect(),
        (None, Some(hits)) => hits
            .iter()
            .map(|&(id, score)| Ranked { id, score_final: score, score_lex: None, score_vec: Some(score) })
            .collect(),
        (None, None) => Vec::new(),
    };
    ranked.truncate(k);
    ranked
}

/// The L0 rows of `ranked`, in its order (one query).
fn hydrate(conn: &Connection, ranked: &[Ranked]) -> Result<Vec<L0Row>> {
    if ranked.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<i64> = ranked.iter().map(|r| r.id).collect();
    let ids = serde_json::to_string(&ids).map_err(|err| Error::InvalidInput(err.to_string()))?;
    // The whole records: a row's `get` hint is the head their answers need.
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {}, id FROM records WHERE id IN (SELECT value FROM json_each(?1))",
        super::RECORD_COLUMNS
    ))?;
    let mut found: std::collections::HashMap<i64, (Record, String)> = stmt
        .query_map([ids], |row| Ok((row.get::<_, i64>("id")?, super::read_record(row)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let best = ranked.first().map_or(0.0, |r| r.score_final);
    Ok(ranked
        .iter()
        .filter_map(|rank| found.remove(&rank.id).map(|(record, pool)| found_row(record, pool, rank, best)))
        .collect())
}

/// A matching record as its row: scores and expansion hints.
fn found_row(record: Record, pool: String, rank: &Ranked, best: f64) -> L0Row {
    let head = super::expand::head_hint(&record, &pool, GET_HEAD);
    let get_tokens = head.div_ceil(4);
    let window = 2 * TIMELINE_SIDE + 1;
    // A timeline row is a summary: about 40 tokens with its JSON.
    let timeline_tokens = window * 40;
    let ratio = if best > 0.0 { rank.score_final / best } else { 0.0 };
    L0Row {
        layer: "L0",
        summary: summarize(&record.text),
        id: record.id,
        ts: record.ts,
        record_type: record.record_type,
        source: pool,
        score: Some(rank.score_final),
        score_lex: rank.score_lex,
        score_vec: rank.score_vec,
        score_final: Some(rank.score_final),
        expand: Some(Expand {
            timeline: ExpandTimeline {
                before: TIMELINE_SIDE,
                after: TIMELINE_SIDE,
                window,
                tokens_est: timeline_tokens,
                size: size(timeline_tokens),
            },
            get: ExpandGet {
                head,
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

/// The newest matches the lexical channel ranks, at most (see `rank.rs`).
pub const LEXICAL_WINDOW: usize = 1000;
/// How many of a phrase's newest matches its document frequency is read from.
const DF_WINDOW: usize = 500;

/// What the lexical channel found.
struct Lexical {
    /// (record id, score), best first.
    hits: Vec<(i64, f64)>,
    /// Matches ranked.
    ranked: usize,
    /// More matched than [`LEXICAL_WINDOW`]: the newest were ranked.
    windowed: bool,
}

/// Each term's bm25 IDF, from its document frequency: exact when it is in
/// fewer than [`DF_WINDOW`] records, else estimated from how many record
/// ids its newest [`DF_WINDOW`] matches span (ids are given in order, so
/// that is its density). The record count is the highest id.
fn idfs(conn: &Connection, terms: &Terms) -> Result<Vec<f64>> {
    let rows: i64 = conn.query_row("SELECT coalesce(max(id), 0) FROM records", [], |row| row.get(0))?;
    let mut stmt = conn.prepare_cached(
        "SELECT count(*), coalesce(min(rowid), 0) FROM
           (SELECT rowid FROM records_fts WHERE records_fts MATCH ?1 ORDER BY rowid DESC LIMIT ?2)",
    )?;
    let mut idfs = Vec::with_capacity(terms.len());
    for term in &terms.terms {
        let (found, oldest): (i64, i64) =
            stmt.query_row(rusqlite::params![term, DF_WINDOW as i64], |row| Ok((row.get(0)?, row.get(1)?)))?;
        let df = if (found as usize) < DF_WINDOW {
            found as f64
        } else {
            let span = (rows - oldest + 1).max(1) as f64;
            (found as f64 * rows as f64 / span).min(rows as f64)
        };
        idfs.push(super::rank::idf(rows as f64, df));
    }
    Ok(idfs)
}

/// The lexical channel's best `limit` records among the newest
/// [`LEXICAL_WINDOW`] that match `fts_query`, ranked by bm25 (`ctx_rank`).
fn lexical(
    conn: &Connection,
    fts_query: &str,
    idfs: &[f64],
    options: &SearchOptions,
    filter: Option<&RecordFilter>,
    limit: usize,
) -> Result<Lexical> {
    // The filters apply before the window: the newest matches that pass them are ranked.
    let sql = if options.scope.pool().is_none() && options.session.is_none() && filter.is_none() {
        "SELECT rowid, ctx_rank(records_fts, ?2) FROM records_fts
         WHERE records_fts MATCH ?1 AND coalesce(?4, ?5, ?6, ?7, ?8, ?9, ?10) IS NULL
         ORDER BY rowid DESC LIMIT ?3"
            .to_string()
    } else {
        format!(
            "SELECT r.id, ctx_rank(records_fts, ?2)
             FROM records_fts JOIN records r ON r.id = records_fts.rowid
             WHERE records_fts MATCH ?1 AND (?4 IS NULL OR r.pool = ?4) AND (?5 IS NULL OR r.session_id = ?5)
               AND {}
             ORDER BY records_fts.rowid DESC LIMIT ?3",
            RecordFilter::sql(6)
        )
    };
    let blob: Vec<u8> = idfs.iter().flat_map(|idf| idf.to_le_bytes()).collect();
    let mut stmt = conn.prepare_cached(&sql)?;
    let [types, tags, without, since, until] = RecordFilter::params(filter);
    let params = rusqlite::params![
        fts_query,
        blob,
        LEXICAL_WINDOW as i64,
        options.scope.pool(),
        options.session,
        types,
        tags,
        without,
        since,
        until
    ];
    let mut hits: Vec<(i64, f64)> =
        stmt.query_map(params, |row| Ok((row.get(0)?, row.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
    let ranked = hits.len();
    // Best first; equal scores: the newer record.
    hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    hits.truncate(limit);
    Ok(Lexical { hits, ranked, windowed: ranked == LEXICAL_WINDOW })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_are_one_bounded_line() {
        assert_eq!(summarize("a\n\n b\tc\u{7}"), "a b c");
        let long = "word ".repeat(100);
        let summary = summarize(&long);
        assert!(summary.chars().count() <= SUMMARY_CHARS && summary.ends_with('…'), "{summary}");
    }
}
