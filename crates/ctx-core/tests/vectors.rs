//! The vector channel of `ctx search` and hybrid fusion, through
//! `Workspace`: the built-in embedder, one a caller brings, fallbacks.

use std::cell::Cell;
use std::collections::HashMap;

use ctxkeep_core::{
    EmbedError, Embedder, EmbedderFailure, NewRecord, SearchMode, SearchOptions, SearchScope, Workspace,
};

fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let (ws, _) = Workspace::init(dir.path()).unwrap();
    (dir, ws)
}

fn note(ws: &mut Workspace, text: &str, session: Option<&str>) -> String {
    let new = NewRecord {
        record_type: "note".into(),
        text: text.into(),
        session_id: session.map(str::to_string),
        ..Default::default()
    };
    ws.add_record(&new).unwrap().id
}

fn options(query: &str, mode: SearchMode) -> SearchOptions {
    SearchOptions { query: query.into(), mode, ..Default::default() }
}

struct Labelled {
    /// label → record id
    ids: HashMap<String, String>,
    queries: Vec<(String, String)>,
}

fn labelled(ws: &mut Workspace) -> Labelled {
    let set: serde_json::Value = serde_json::from_str(include_str!("fixtures/paraphrases.json")).unwrap();
    let mut ids = HashMap::new();
    for pair in set["records"].as_array().unwrap() {
        let (label, text) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
        ids.insert(label.to_string(), note(ws, text, None));
    }
    let queries = set["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| (pair[0].as_str().unwrap().to_string(), pair[1].as_str().unwrap().to_string()))
        .collect();
    Labelled { ids, queries }
}

/// Mean reciprocal rank of the labelled record in the top 10, and how
/// many queries found it first.
fn score(ws: &Workspace, set: &Labelled, mode: SearchMode) -> (f64, usize) {
    let (mut rr, mut first) = (0.0, 0);
    for (query, label) in &set.queries {
        let response = ws.search(&options(query, mode)).unwrap();
        assert_eq!(response.retrieval.mode, mode, "{query}: {:?}", response.retrieval);
        let want = &set.ids[label];
        if let Some(rank) = response.results.iter().position(|row| &row.id == want) {
            rr += 1.0 / (rank as f64 + 1.0);
            first += usize::from(rank == 0);
        }
    }
    (rr / set.queries.len() as f64, first)
}

#[test]
fn hybrid_beats_lexical_on_paraphrased_queries() {
    let (_dir, mut ws) = workspace();
    let set = labelled(&mut ws);
    let (lexical_mrr, lexical_first) = score(&ws, &set, SearchMode::Lexical);
    let (hybrid_mrr, hybrid_first) = score(&ws, &set, SearchMode::Hybrid);
    let (vector_mrr, _) = score(&ws, &set, SearchMode::Vector);
    eprintln!(
        "MRR@10 lexical {lexical_mrr:.3} ({lexical_first} first), hybrid {hybrid_mrr:.3} ({hybrid_first} first), vector {vector_mrr:.3}"
    );
    // Measured when written: lexical 0.850 (14 of 20 first), hybrid 0.900
    // (16), vector alone 0.975. Fusion gains where the vector channel is
    // sure and lexical ranks a distractor first; it must never do worse.
    assert!(hybrid_mrr >= lexical_mrr + 0.04, "hybrid {hybrid_mrr:.3} vs lexical {lexical_mrr:.3}");
    assert!(hybrid_first > lexical_first, "{hybrid_first} vs {lexical_first}");
    assert!(vector_mrr > lexical_mrr);
}

#[test]
fn hybrid_rows_carry_both_scores_and_the_retrieval_says_how() {
    let (_dir, mut ws) = workspace();
    let id = note(&mut ws, "The websocket reconnect loop backs off exponentially", None);
    note(&mut ws, "Unrelated: the build cache lives in target/", None);
    let response = ws.search(&options("websocket reconnection", SearchMode::Hybrid)).unwrap();
    let r = &response.retrieval;
    assert_eq!((r.requested_mode, r.mode), (SearchMode::Hybrid, SearchMode::Hybrid));
    assert_eq!(r.vector_engine, Some(ctxkeep_core::VECTOR_ENGINE));
    assert_eq!(r.embedder.as_deref(), Some(ctxkeep_core::HashedNgrams::NAME));
    assert!(r.vector_hits >= 1 && r.lexical_hits >= 1 && r.fused_hits >= 1, "{r:?}");
    assert!(r.fallback_reason.is_none() && r.vector_fallback_reason.is_none(), "{r:?}");
    let top = &response.results[0];
    assert_eq!(top.id, id);
    assert!(top.score_lex.is_some() && top.score_vec.unwrap() > 0.2, "{top:?}");
    // Fused: reciprocal ranks of first place in both channels.
    let both_first = 2.0 / 61.0;
    assert!((top.score_final.unwrap() - both_first).abs() < 1e-9, "{top:?}");
    assert_eq!(top.score, top.score_final);
}

#[test]
fn vector_mode_finds_what_no_word_matches() {
    let (_dir, mut ws) = workspace();
    let id = note(&mut ws, "refreshToken rotation happens before expiry", None);
    note(&mut ws, "docker images are built in two stages", None);
    // No word of the query is a word of the record, even stemmed:
    // `refreshToken` is one word to the lexical index, `tokn` a typo.
    let lexical = ws.search(&options("refresh tokn", SearchMode::Lexical)).unwrap();
    assert!(lexical.results.is_empty(), "{:?}", lexical.results);
    let vector = ws.search(&options("refresh tokn", SearchMode::Vector)).unwrap();
    assert_eq!(vector.retrieval.mode, SearchMode::Vector);
    assert_eq!(vector.results[0].id, id);
    assert!(vector.results[0].score_lex.is_none());
}

#[test]
fn with_vectors_off_vector_and_hybrid_fall_back_to_lexical_and_say_why() {
    let (dir, _ws) = workspace();
    std::fs::write(dir.path().join(".ctx/config.toml"), "[memory]\nembedder = \"none\"\n").unwrap();
    let mut ws2 = Workspace::open(dir.path()).unwrap();
    note(&mut ws2, "token refresh fixed", None);
    for mode in [SearchMode::Vector, SearchMode::Hybrid] {
        let response = ws2.search(&options("token refresh", mode)).unwrap();
        let r = &response.retrieval;
        assert_eq!((r.requested_mode, r.mode), (mode, SearchMode::Lexical));
        assert!(r.vector_fallback_reason.as_deref().unwrap().contains("embedder = \"none\""), "{r:?}");
        assert!(r.fallback_reason.is_some() && r.vector_engine.is_none());
        assert_eq!(response.hits, 1);
    }
    // Nothing was embedded while vectors were off; turning them on catches up.
    std::fs::write(dir.path().join(".ctx/config.toml"), "").unwrap();
    let ws = Workspace::open(dir.path()).unwrap();
    let response = ws.search(&options("refreshing tokens", SearchMode::Vector)).unwrap();
    assert_eq!(response.retrieval.mode, SearchMode::Vector);
    assert_eq!(response.hits, 1);
}

#[test]
fn a_query_with_nothing_to_embed_is_served_lexically() {
    let (_dir, mut ws) = workspace();
    note(&mut ws, "the one about it", None);
    let response = ws.search(&options("the", SearchMode::Hybrid)).unwrap();
    let r = &response.retrieval;
    assert_eq!(r.mode, SearchMode::Lexical);
    assert!(r.vector_fallback_reason.as_deref().unwrap().contains("nothing"), "{r:?}");
    assert_eq!(response.hits, 1);
    // And punctuation alone: nothing for either channel, and no error.
    let response = ws.search(&options("?!", SearchMode::Hybrid)).unwrap();
    assert_eq!(response.hits, 0);
    assert!(response.retrieval.lexical_fallback_reason.is_some());
}

/// A caller's embedder that knows synonyms no letters share: one
/// dimension a concept.
struct Concepts {
    calls: Cell<usize>,
    fail: bool,
}

const CONCEPTS: [&[&str]; 4] =
    [&["car", "automobile", "vehicle"], &["fast", "quick", "speedy"], &["bug", "defect"], &["cat", "kitten"]];

impl Embedder for Concepts {
    fn name(&self) -> &str {
        "test:concepts"
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.calls.set(self.calls.get() + texts.len());
        if self.fail {
            return Err(EmbedError("model server unreachable".into()));
        }
        Ok(texts
            .iter()
            .map(|text| {
                let lower = text.to_lowercase();
                CONCEPTS
                    .iter()
                    .map(|words| words.iter().filter(|w| lower.contains(**w)).count() as f32)
                    .collect()
            })
            .collect())
    }
}

#[test]
fn a_callers_embedder_serves_the_vector_channel_and_embeds_each_record_once() {
    let (_dir, mut ws) = workspace();
    let automobile = note(&mut ws, "the automobile would not start", None);
    note(&mut ws, "a kitten sat on the keyboard", None);
    let concepts = Concepts { calls: Cell::new(0), fail: false };
    let response = ws.search_with(&options("car", SearchMode::Vector), &concepts).unwrap();
    assert_eq!(response.retrieval.embedder.as_deref(), Some("test:concepts"));
    assert_eq!(response.results[0].id, automobile);
    assert!((response.results[0].score_vec.unwrap() - 1.0).abs() < 0.01);
    // Two records and the query.
    assert_eq!(concepts.calls.get(), 3);
    ws.search_with(&options("vehicle", SearchMode::Vector), &concepts).unwrap();
    assert_eq!(concepts.calls.get(), 4, "records already embedded are not embedded again");
    note(&mut ws, "a speedy fix for the defect", None);
    assert_eq!(ws.embed_records(&concepts).unwrap(), 1);
    let response = ws.search_with(&options("quick bug", SearchMode::Hybrid), &concepts).unwrap();
    assert_eq!(response.retrieval.mode, SearchMode::Hybrid);
    assert!(response.results[0].summary.contains("speedy"), "{:?}", response.results);
}

#[test]
fn a_failing_embedder_falls_back_and_a_malformed_one_is_an_error() {
    let (_dir, mut ws) = workspace();
    note(&mut ws, "the automobile would not start", None);
    let broken = Concepts { calls: Cell::new(0), fail: true };
    let response = ws.search_with(&options("automobile", SearchMode::Hybrid), &broken).unwrap();
    let r = &response.retrieval;
    assert_eq!(r.mode, SearchMode::Lexical);
    assert!(r.vector_fallback_reason.as_deref().unwrap().contains("model server unreachable"), "{r:?}");
    assert_eq!(response.hits, 1);
    let err = ws.embed_records(&broken).unwrap_err();
    assert_eq!(err.code(), "EMBEDDER_ERROR");

    struct Ragged;
    impl Embedder for Ragged {
        fn name(&self) -> &str {
            "test:ragged"
        }
        fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
            Ok(texts.iter().map(|t| vec![1.0; t.len() % 3 + 1]).collect())
        }
    }
    note(&mut ws, "ab", None);
    let err = ws.embed_records(&Ragged).unwrap_err();
    assert!(err.to_string().contains("dimensions"), "{err}");
    // Nothing of the failed sync was kept: the next one starts over.
    let err = ws.embed_records(&Ragged).unwrap_err();
    assert!(err.to_string().contains("dimensions"), "{err}");
}

/// Embeds the records, then fails on every later call (the query).
struct FailsAfterRecords {
    calls: Cell<usize>,
}

impl Embedder for FailsAfterRecords {
    fn name(&self) -> &str {
        "test:flaky"
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.calls.set(self.calls.get() + 1);
        if self.calls.get() > 1 {
            return Err(EmbedError("the model timed out".into()));
        }
        Ok(texts.iter().map(|t| vec![1.0, t.len() as f32]).collect())
    }
}

#[test]
fn a_search_told_to_fail_on_embedder_errors_fails_instead_of_falling_back() {
    let (_dir, mut ws) = workspace();
    note(&mut ws, "the automobile would not start", None);
    let strict = |query: &str, mode| SearchOptions {
        on_embedder_error: EmbedderFailure::Error,
        ..options(query, mode)
    };
    // The records cannot be embedded.
    let broken = Concepts { calls: Cell::new(0), fail: true };
    let err = ws.search_with(&strict("automobile", SearchMode::Hybrid), &broken).unwrap_err();
    assert_eq!(err.code(), "EMBEDDER_ERROR");
    assert!(err.to_string().contains("model server unreachable"), "{err}");
    // The records are, the query is not.
    let flaky = FailsAfterRecords { calls: Cell::new(0) };
    let err = ws.search_with(&strict("automobile", SearchMode::Vector), &flaky).unwrap_err();
    assert_eq!(err.code(), "EMBEDDER_ERROR");
    assert!(err.to_string().contains("the model timed out"), "{err}");
    // The default falls back, as before.
    let response = ws.search_with(&options("automobile", SearchMode::Vector), &flaky).unwrap();
    assert_eq!(response.retrieval.mode, SearchMode::Lexical);
    // Not failures: a lexical search, a query the embedder cannot place, vectors turned off.
    assert_eq!(ws.search_with(&strict("automobile", SearchMode::Lexical), &broken).unwrap().hits, 1);
    let quiet = ws.search(&strict("the", SearchMode::Hybrid)).unwrap();
    assert_eq!(quiet.retrieval.mode, SearchMode::Lexical);
    std::fs::write(ws.root().join(".ctx/config.toml"), "[memory]\nembedder = \"none\"\n").unwrap();
    let ws = Workspace::open(ws.root()).unwrap();
    assert_eq!(ws.search(&strict("automobile", SearchMode::Vector)).unwrap().hits, 1);
}

#[test]
fn vector_search_honours_scope_and_session() {
    let (_dir, mut ws) = workspace();
    let a = note(&mut ws, "token refresh in session a", Some("a"));
    let b = note(&mut ws, "token refresh in session b", Some("b"));
    let only = |session: Option<&str>, scope: SearchScope| {
        let options = SearchOptions {
            query: "refreshing tokens".into(),
            mode: SearchMode::Vector,
            session: session.map(str::to_string),
            scope,
            ..Default::default()
        };
        ws.search(&options).unwrap().results.into_iter().map(|r| r.id).collect::<Vec<_>>()
    };
    assert_eq!(only(Some("a"), SearchScope::All), [a]);
    assert_eq!(only(Some("b"), SearchScope::Hot), [b]);
    assert!(only(None, SearchScope::Archive).is_empty());
    assert_eq!(only(None, SearchScope::All).len(), 2);
}

#[test]
fn a_deleted_record_leaves_the_vector_index_consistent() {
    let (_dir, mut ws) = workspace();
    note(&mut ws, "keep this note about caching", None);
    let pin = ws.pin("caching pinned reminder").unwrap();
    ws.unpin(&pin.id).unwrap();
    // The pin's id may be given again; the new record must still be embedded.
    let next = note(&mut ws, "caches are flushed on exit", None);
    let ids: Vec<String> = ws
        .search(&options("cached", SearchMode::Vector))
        .unwrap()
        .results
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert!(ids.contains(&next), "{ids:?}");
    assert!(!ids.contains(&pin.id), "{ids:?}");
    assert_eq!(ids.len(), 2);
}

#[test]
fn chunks_fill_and_roll_over_without_losing_records() {
    let (_dir, mut ws) = workspace();
    // More than one chunk (4,096 records) through ingest, then one more by add.
    let lines: String = (0..4200)
        .map(|i| format!("{{\"type\":\"note\",\"text\":\"entry number {i} about topic{}\"}}\n", i % 7))
        .collect();
    let report = ws.ingest(&mut lines.as_bytes(), "bulk.jsonl").unwrap();
    assert_eq!(report.added, 4200);
    let last = note(&mut ws, "zebra crossing finale", None);
    let response = ws.search(&options("zebras crossings", SearchMode::Vector)).unwrap();
    assert_eq!(response.results[0].id, last);
    let response = ws.search(&options("entry number 4199 topic6", SearchMode::Vector)).unwrap();
    assert!(response.results[0].summary.contains("4199"), "{:?}", response.results[0]);
}

#[test]
fn vectors_made_during_ingest_equal_those_made_later() {
    let lines: String = (0..300)
        .map(|i| {
            format!(
                "{{\"type\":\"note\",\"text\":\"note {i}: refreshToken rotation, cache{} and parser{}\"}}\n",
                i % 13,
                i % 7
            )
        })
        .collect();
    // During ingest (sign bits computed beside the inserts).
    let (_a, mut during) = workspace();
    during.ingest(&mut lines.as_bytes(), "notes.jsonl").unwrap();
    // Later: ingested with vectors off, embedded by the first vector search.
    let (b, _) = workspace();
    std::fs::write(b.path().join(".ctx/config.toml"), "[memory]\nembedder = \"none\"\n").unwrap();
    Workspace::open(b.path()).unwrap().ingest(&mut lines.as_bytes(), "notes.jsonl").unwrap();
    std::fs::write(b.path().join(".ctx/config.toml"), "").unwrap();
    let later = Workspace::open(b.path()).unwrap();
    for query in ["refresh token", "cache 3 parser", "rotations of note 42"] {
        let rows = |ws: &Workspace| -> Vec<(String, String)> {
            let options =
                SearchOptions { query: query.into(), k: 20, mode: SearchMode::Vector, ..Default::default() };
            ws.search(&options)
                .unwrap()
                .results
                .into_iter()
                .map(|r| (r.summary, format!("{:.6}", r.score_vec.unwrap())))
                .collect()
        };
        let expected = rows(&later);
        assert_eq!(expected.len(), 20);
        assert_eq!(rows(&during), expected, "{query}");
    }
}

/// The Hamming stage is approximate: measure what it loses. Over 20,000
/// records, the top 10 of `vector` search are compared with the exact top
/// 10 by cosine over every record.
#[test]
fn the_vector_index_finds_nearly_all_of_the_exact_nearest() {
    use ctxkeep_core::HashedNgrams;
    const WORDS: [&str; 40] = [
        "token",
        "refresh",
        "cache",
        "parser",
        "socket",
        "timeout",
        "retry",
        "index",
        "schema",
        "migration",
        "docker",
        "image",
        "build",
        "test",
        "flaky",
        "upload",
        "search",
        "query",
        "cursor",
        "page",
        "worker",
        "queue",
        "message",
        "broker",
        "password",
        "hash",
        "salt",
        "config",
        "typo",
        "field",
        "logging",
        "request",
        "memory",
        "watcher",
        "event",
        "debounce",
        "render",
        "template",
        "budget",
        "frame",
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut text = |words: usize| (0..words).map(|_| WORDS[next(WORDS.len())]).collect::<Vec<_>>().join(" ");
    let texts: Vec<String> = (0..20_000).map(|_| text(6)).collect();
    let (_dir, mut ws) = workspace();
    let lines: String = texts.iter().map(|t| format!("{{\"type\":\"note\",\"text\":\"{t}\"}}\n")).collect();
    ws.ingest(&mut lines.as_bytes(), "recall.jsonl").unwrap();
    let vectors: Vec<Vec<f32>> = texts.iter().map(|t| HashedNgrams::embed_one(t)).collect();
    let (mut found, mut wanted) = (0, 0);
    for _ in 0..20 {
        let query = text(3);
        let q = HashedNgrams::embed_one(&query);
        let mut exact: Vec<(f32, &str)> = vectors
            .iter()
            .zip(&texts)
            .map(|(v, t)| (v.iter().zip(&q).map(|(a, b)| a * b).sum(), t.as_str()))
            .collect();
        exact.sort_by(|a, b| b.0.total_cmp(&a.0));
        // Texts repeat, and ties at the tenth place are arbitrary: what must
        // come back is every text scoring above the tenth best.
        let tenth = exact[9].0;
        let must: std::collections::HashSet<&str> =
            exact.iter().take_while(|(score, _)| *score > tenth + 1e-5).map(|(_, t)| *t).collect();
        let options =
            SearchOptions { query: query.clone(), k: 10, mode: SearchMode::Vector, ..Default::default() };
        let got: std::collections::HashSet<String> =
            ws.search(&options).unwrap().results.into_iter().map(|r| r.summary).collect();
        wanted += must.len();
        found += must.iter().filter(|t| got.contains(**t)).count();
    }
    let recall = found as f64 / wanted.max(1) as f64;
    eprintln!("recall of the exact top 10: {recall:.3} ({found} of {wanted})");
    assert!(wanted > 50, "the check compared too little: {wanted}");
    assert!(recall >= 0.9, "recall {recall:.3}");
}
