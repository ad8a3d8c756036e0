//! Session memory through `Workspace`: records, ingest of ctx's JSONL and
//! of a real-format Claude Code transcript, and lexical search (L0 rows).

use ctxkeep_core::{NewRecord, SearchMode, SearchOptions, SearchScope, Workspace};

const TRANSCRIPT: &str = include_str!("fixtures/claude_code_session.jsonl");
const SESSION: &str = "7f3e2a10-5c1b-4d2e-9a0f-1b2c3d4e5f60";

fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let (ws, _) = Workspace::init(dir.path()).unwrap();
    (dir, ws)
}

fn search(ws: &Workspace, query: &str) -> Vec<String> {
    let options = SearchOptions { query: query.into(), ..Default::default() };
    ws.search(&options).unwrap().results.into_iter().map(|r| r.id).collect()
}

#[test]
fn a_claude_code_transcript_is_ingested_once() {
    let (_dir, mut ws) = workspace();
    let report = ws.ingest(&mut TRANSCRIPT.as_bytes(), "session.jsonl").unwrap();
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!((report.lines, report.claude_code_lines, report.ctx_lines), (8, 8, 0));
    // summary, query, response + tool call, tool output, (snapshot: nothing), tool call, tool output, response
    assert_eq!(report.added, 8, "{report:?}");
    assert_eq!(report.empty, 1);

    let again = ws.ingest(&mut TRANSCRIPT.as_bytes(), "session.jsonl").unwrap();
    assert_eq!((again.added, again.duplicates), (0, 8), "{again:?}");

    // A tool's output names its call, and the call says what ran.
    let options = SearchOptions { query: "old_string not found".into(), ..Default::default() };
    let hit = ws.search(&options).unwrap().results.remove(0);
    let output = ws.record(&hit.id).unwrap();
    assert_eq!((output.record_type.as_str(), output.role.as_str()), ("tool_output", "tool"));
    assert_eq!(output.tags, ["error"]);
    assert_eq!(output.session_id.as_deref(), Some(SESSION));
    assert_eq!(output.ts, "2026-11-20T09:15:10.002Z");
    let call = ws.record(&output.refs[0]).unwrap();
    assert_eq!(call.record_type, "tool_call");
    assert!(call.text.starts_with("Edit {") && call.text.contains("config.pool_timeout"), "{}", call.text);

    let query = ws.record(&search(&ws, "times out under load")[0]).unwrap();
    assert_eq!((query.record_type.as_str(), query.role.as_str()), ("query", "user"));
    // Thinking is not recorded.
    assert!(search(&ws, "\"Find where the pool is built\"").is_empty());
    // The session's summary line is a note.
    let summary = ws.record(&search(&ws, "\"Pool timeout made configurable\"")[0]).unwrap();
    assert_eq!((summary.record_type.as_str(), summary.tags.clone()), ("note", vec!["summary".to_string()]));
    assert_eq!(summary.ts, "n/a", "a summary line has no time");
}

#[test]
fn malformed_lines_are_reported_and_the_good_ones_kept() {
    let (_dir, mut ws) = workspace();
    let input = concat!(
        "{\"type\":\"note\",\"text\":\"first good line\",\"role\":\"user\"}\n",
        "{not json\n",
        "\n",
        "[1, 2]\n",
        "{\"type\":\"note\"}\n",
        "{\"type\":\"Bad Type\",\"text\":\"x\"}\n",
        "{\"type\":\"query\",\"text\":\"second good line\",\"id\":\"ext-42\",\"tags\":[\"perf\"],\"session_id\":\"s1\",\"ts\":\"2026-01-02T03:04:05Z\"}\n",
    );
    let report = ws.ingest(&mut input.as_bytes(), "-").unwrap();
    assert_eq!(report.added, 2, "{report:?}");
    let lines: Vec<usize> = report.errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, [2, 4, 5, 6], "{:?}", report.errors);
    assert!(report.errors[0].message.starts_with("not JSON"), "{:?}", report.errors);
    // The source's own id keys a line: the same id again is the same record.
    let again = "{\"type\":\"query\",\"text\":\"changed text, same id\",\"id\":\"ext-42\"}\n";
    assert_eq!(ws.ingest(&mut again.as_bytes(), "-").unwrap().duplicates, 1);
    let record = ws.record(&search(&ws, "second good line")[0]).unwrap();
    assert_eq!((record.tags.clone(), record.session_id.as_deref()), (vec!["perf".to_string()], Some("s1")));
}

#[test]
fn search_finds_words_phrases_and_prefixes_and_never_fails_on_user_text() {
    let (_dir, mut ws) = workspace();
    for (text, session) in [
        ("The connection pool timeout is configurable now", "s1"),
        ("Refresh tokens rotate on every use", "s1"),
        ("Pool sizes: min 2, max 20; the timeout stays at 30 seconds", "s2"),
        ("Authentication middleware rejects expired tokens", "s2"),
    ] {
        let new = NewRecord {
            record_type: "note".into(),
            text: text.into(),
            session_id: Some(session.into()),
            ..Default::default()
        };
        ws.add_record(&new).unwrap();
    }
    assert_eq!(search(&ws, "pool timeout").len(), 2);
    assert_eq!(search(&ws, "\"pool timeout\"").len(), 1, "a phrase");
    assert_eq!(search(&ws, "authent*").len(), 1, "a prefix");
    assert_eq!(search(&ws, "tokens").len(), 2, "stemmed: token(s)");
    // No record has both words: any may match, and the response says so.
    let options = SearchOptions { query: "rotate middleware".into(), ..Default::default() };
    let response = ws.search(&options).unwrap();
    assert_eq!(response.hits, 2);
    assert!(!response.retrieval.all_terms);

    for hostile in [
        "\"",
        "\"\"",
        "*",
        "pool AND",
        "OR OR",
        "NOT",
        "(pool",
        "pool)",
        "col:pool",
        "pool^2",
        "NEAR(pool timeout)",
        "'; DROP TABLE records; --",
        "\u{0}",
        "🚀",
        "a\"b\"c",
        "-pool",
        "pool -timeout",
        "{pool}",
        "",
    ] {
        let options = SearchOptions { query: hostile.into(), ..Default::default() };
        let response = ws.search(&options).unwrap_or_else(|err| panic!("{hostile:?}: {err}"));
        assert!(response.results.iter().all(|r| !r.summary.contains('\n')));
    }

    // Scope and session filter.
    let options = SearchOptions { query: "pool".into(), session: Some("s2".into()), ..Default::default() };
    assert_eq!(ws.search(&options).unwrap().hits, 1);
    let options = SearchOptions { query: "pool".into(), scope: SearchScope::Archive, ..Default::default() };
    assert_eq!(ws.search(&options).unwrap().hits, 0);
}

#[test]
fn search_responses_have_the_contract_s_shape() {
    let (_dir, mut ws) = workspace();
    let text = format!("Pool timeout notes. {}", "More detail about the pool. ".repeat(40));
    ws.add_record(&NewRecord { record_type: "note".into(), text, ..Default::default() }).unwrap();
    let options =
        SearchOptions { query: "pool".into(), k: 5, mode: SearchMode::Hybrid, ..Default::default() };
    let json = serde_json::to_value(ws.search(&options).unwrap()).unwrap();
    assert_eq!(json["layer"], "L0");
    assert_eq!(
        (json["k"].as_u64(), json["scope"].as_str(), json["session"].as_str()),
        (Some(5), Some("all"), Some("all"))
    );
    assert_eq!(json["hits"], 1);
    let row = &json["results"][0];
    for key in [
        "layer",
        "id",
        "ts",
        "type",
        "summary",
        "source",
        "score",
        "score_lex",
        "score_vec",
        "score_final",
        "expand",
    ] {
        assert!(row.get(key).is_some(), "{key} in {row}");
    }
    assert_eq!((row["layer"].as_str(), row["source"].as_str()), (Some("L0"), Some("hot")));
    let summary = row["summary"].as_str().unwrap();
    assert!(!summary.contains('\n') && summary.chars().count() <= 160, "{summary}");
    assert!(row["id"].as_str().unwrap().starts_with("H-"));
    for key in ["before", "after", "window", "tokens_est", "size"] {
        assert!(row["expand"]["timeline"].get(key).is_some(), "{key}");
    }
    for key in ["head", "tokens_est", "size", "confidence"] {
        assert!(row["expand"]["get"].get(key).is_some(), "{key}");
    }
    // Hybrid was asked for and served, with both channels' figures.
    let retrieval = &json["retrieval"];
    assert_eq!(
        (retrieval["requested_mode"].as_str(), retrieval["mode"].as_str()),
        (Some("hybrid"), Some("hybrid"))
    );
    assert_eq!(retrieval["lexical_engine"], "sqlite_fts5");
    assert_eq!(retrieval["vector_engine"], ctxkeep_core::VECTOR_ENGINE);
    for key in ["lexical_hits", "vector_hits", "fused_hits"] {
        assert!(retrieval[key].as_u64().is_some_and(|n| n >= 1), "{key} in {retrieval}");
    }
    assert!(retrieval.get("vector_fallback_reason").is_none(), "{retrieval}");
    assert!(retrieval["latency_ms"]["total"].as_f64().is_some());
}

/// Records of two sessions, ten minutes apart: `s1` at minutes 0, 2, 4, ...
fn timeline_workspace() -> (tempfile::TempDir, Workspace) {
    let (dir, mut ws) = workspace();
    let mut lines = String::new();
    for minute in 0..10 {
        let session = if minute % 2 == 0 { "s1" } else { "s2" };
        lines.push_str(&format!(
            "{{\"type\":\"note\",\"text\":\"turn {minute} of {session}\",\"session_id\":\"{session}\",\"ts\":\"2026-11-20T10:{minute:02}:00Z\"}}\n"
        ));
    }
    let report = ws.ingest(&mut lines.as_bytes(), "-").unwrap();
    assert_eq!(report.added, 10);
    (dir, ws)
}

fn id_of(ws: &Workspace, text: &str) -> String {
    search(ws, &format!("\"{text}\""))[0].clone()
}

#[test]
fn a_timeline_is_the_anchor_s_neighbours_in_time() {
    use ctxkeep_core::TimelineSession;
    let (_dir, ws) = timeline_workspace();
    let anchor = id_of(&ws, "turn 4 of s1");
    let timeline = ws.timeline(&anchor, 1, 2, &TimelineSession::Anchor).unwrap();
    let texts: Vec<&str> = timeline.results.iter().map(|r| r.summary.as_str()).collect();
    assert_eq!(texts, ["turn 2 of s1", "turn 4 of s1", "turn 6 of s1", "turn 8 of s1"]);
    assert_eq!(
        (timeline.session.as_str(), timeline.source.as_str(), timeline.anchor.as_str()),
        ("s1", "hot", anchor.as_str())
    );
    let all = ws.timeline(&anchor, 2, 0, &TimelineSession::All).unwrap();
    let texts: Vec<&str> = all.results.iter().map(|r| r.summary.as_str()).collect();
    assert_eq!(texts, ["turn 2 of s1", "turn 3 of s2", "turn 4 of s1"]);
    assert_eq!(all.session, "all");
    let json = serde_json::to_value(&all).unwrap();
    for key in ["layer", "anchor", "before", "after", "source", "session", "results"] {
        assert!(json.get(key).is_some(), "{key}");
    }
    assert_eq!(
        ws.timeline("H-000000000000", 1, 1, &TimelineSession::All).unwrap_err().code(),
        "UNKNOWN_RECORD"
    );
}

#[test]
fn get_is_valid_json_within_every_head() {
    let (_dir, mut ws) = workspace();
    let text = format!("Quotes \" and \\ backslashes, ünïcödé 🚀, {}", "a long tail of words ".repeat(30));
    let new = NewRecord {
        record_type: "tool_output".into(),
        role: Some("tool".into()),
        text: text.clone(),
        refs: vec!["H-0123456789ab".into(), "src/db/pool.rs".into()],
        tags: vec!["error".into()],
        session_id: Some("s1".into()),
        ..Default::default()
    };
    let id = ws.add_record(&new).unwrap().id;
    let full: serde_json::Value = serde_json::from_str(&ws.record_json(&id, None).unwrap()).unwrap();
    assert_eq!((full["layer"].as_str(), full["truncated"].as_bool()), (Some("L2"), Some(false)));
    assert_eq!(full["record"]["text"], text.as_str());
    assert_eq!(full["original_text_len"], text.chars().count());
    let full_len = ws.record_json(&id, None).unwrap().chars().count();

    let tiny_len =
        serde_json::json!({"id": "", "truncated": true, "effective_head": 0, "note": "budget_too_small"})
            .to_string()
            .len();
    let mut kinds = std::collections::BTreeSet::new();
    for head in 0..=full_len + 5 {
        // Below the tiny fallback's length (a digit more: two digits of head in it), nothing fits: an error.
        if head < tiny_len + 1 {
            let err = ws.record_json(&id, Some(head)).unwrap_err();
            assert_eq!(err.code(), "INVALID_INPUT", "{head}: {err}");
            continue;
        }
        let out = ws.record_json(&id, Some(head)).unwrap();
        let value: serde_json::Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{head}: {e}: {out}"));
        assert!(out.chars().count() <= head, "{head}: {} chars", out.chars().count());
        if value.get("note").is_some() {
            assert_eq!(
                (value["note"].as_str(), value["truncated"].as_bool()),
                (Some("budget_too_small"), Some(true))
            );
            assert_eq!(value["effective_head"], head);
            kinds.insert("tiny");
        } else if value["truncated"] == true {
            let fields: Vec<&str> =
                value["truncated_fields"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
            assert_eq!(fields[0], "text");
            assert!(text.starts_with(value["record"]["text"].as_str().unwrap()));
            assert_eq!(value["original_sizes"]["text"], text.chars().count());
            kinds.insert("cut");
        } else {
            assert!(head >= full_len);
            kinds.insert("whole");
        }
    }
    assert_eq!(kinds.len(), 3, "{kinds:?}");
}

#[test]
fn old_records_are_archived_and_still_found() {
    let (_dir, mut ws) = timeline_workspace();
    ws.add_record(&NewRecord {
        record_type: "note".into(),
        text: "turn of today".into(),
        ..Default::default()
    })
    .unwrap();
    let moved = ws.archive(std::time::Duration::from_secs(24 * 3600)).unwrap();
    assert_eq!(moved, 10);
    let options =
        SearchOptions { query: "turn".into(), k: 20, scope: SearchScope::Archive, ..Default::default() };
    let archived = ws.search(&options).unwrap();
    assert_eq!(archived.hits, 10);
    assert!(archived.results.iter().all(|r| r.source == "archive"));
    let options =
        SearchOptions { query: "turn".into(), k: 20, scope: SearchScope::Hot, ..Default::default() };
    assert_eq!(ws.search(&options).unwrap().hits, 1);
    assert_eq!(ws.archive(std::time::Duration::from_secs(24 * 3600)).unwrap(), 0);
}

/// The headings of a pack, in order.
fn headings(text: &str) -> Vec<&str> {
    text.lines().filter_map(|l| l.strip_prefix("### ")).collect()
}

#[test]
fn the_pack_has_the_contract_s_delimiters_and_order_and_holds_its_threshold() {
    let (dir, mut ws) = workspace();
    ws.ingest(&mut TRANSCRIPT.as_bytes(), "session.jsonl").unwrap();
    let pin = ws.pin("Never log card numbers").unwrap();
    search(&ws, "pool timeout");
    let pack = ws.pack(Some(100_000)).unwrap();
    assert_eq!(pack.mode, "full");
    let lines: Vec<&str> = pack.text.lines().collect();
    assert_eq!((lines[0], *lines.last().unwrap()), ("<<<CONTEXTFS:BEGIN>>>", "<<<CONTEXTFS:END>>>"));
    assert_eq!(
        headings(&pack.text),
        ["PINS", "SUMMARY", "MANIFEST", "RETRIEVAL_INDEX", "WORKSET_RECENT_TURNS"]
    );
    assert!(pack.text.contains(&format!("- {}: Never log card numbers", pin.id)), "{}", pack.text);
    assert!(pack.text.contains("Pool timeout made configurable"), "the summary: {}", pack.text);
    assert!(pack.text.contains("- last search: \"pool timeout\""), "{}", pack.text);
    // 8 session records: 2 responses, 2 tool calls, 2 tool outputs, 1 query, 1 note (the pin is not counted).
    assert!(pack.text.contains("- records: hot 8 (response 2, tool_call 2, tool_output 2,"), "{}", pack.text);
    let turns = &pack.text[pack.text.find("### WORKSET_RECENT_TURNS").unwrap()..];
    assert!(
        turns.lines().nth(1).unwrap().contains("user: The database pool times out"),
        "oldest first: {turns}"
    );
    assert_eq!(std::fs::read_to_string(dir.path().join(".ctx/packs/last.md")).unwrap(), pack.text);
    assert_eq!(pack.stored.as_deref(), Some(".ctx/packs/last.md"));

    let tok = ctxkeep_core::tokens::TokenizerKind::O200k.get();
    let mut modes = std::collections::BTreeSet::new();
    assert_eq!(ws.pack(Some(0)).unwrap_err().code(), "INVALID_INPUT");
    for threshold in (1..=pack.tokens + 10).step_by(3) {
        let small = ws.pack(Some(threshold)).unwrap();
        assert_eq!(
            headings(&small.text),
            ["PINS", "SUMMARY", "MANIFEST", "RETRIEVAL_INDEX", "WORKSET_RECENT_TURNS"]
        );
        assert_eq!(small.tokens, tok.count(&small.text));
        if small.mode != "emergency" {
            assert!(small.tokens <= threshold, "{threshold}: {} tokens, {}", small.tokens, small.mode);
        } else {
            assert!(small.sections.iter().all(|s| s.items == 0), "{threshold}");
        }
        if small.mode != "full" {
            assert!(small.text.contains("(trimmed)"), "{threshold}: {}", small.text);
        }
        modes.insert(small.mode);
    }
    assert_eq!(modes.into_iter().collect::<Vec<_>>(), ["emergency", "full", "minimal", "trimmed"]);

    ws.unpin(&pin.id).unwrap();
    assert!(ws.pins().unwrap().is_empty());
    assert_eq!(ws.unpin(&pin.id).unwrap_err().code(), "UNKNOWN_RECORD");
}

#[test]
fn lexical_search_ranks_the_newest_matches_when_too_many_match() {
    let (_dir, mut ws) = workspace();
    let window = ctxkeep_core::LEXICAL_WINDOW;
    // The oldest 50 say "alpha" most; the newer `window` say it once, among other words.
    let mut lines = String::new();
    for i in 0..50 {
        lines.push_str(&format!("{{\"type\":\"note\",\"text\":\"alpha alpha alpha {i}\"}}\n"));
    }
    for i in 0..window {
        lines.push_str(&format!(
            "{{\"type\":\"note\",\"text\":\"alpha and some other words here, number {i}\"}}\n"
        ));
    }
    ws.ingest(&mut lines.as_bytes(), "many.jsonl").unwrap();
    let response = ws.search(&SearchOptions { query: "alpha".into(), ..Default::default() }).unwrap();
    let r = &response.retrieval;
    assert!(r.lexical_windowed && r.lexical_ranked == window, "{r:?}");
    assert_eq!(response.hits, 10);
    assert!(response.results.iter().all(|row| row.summary.contains("number")), "{:?}", response.results);
    // A rarer query is ranked over all its matches: the oldest, best ones win.
    let response =
        ws.search(&SearchOptions { query: "\"alpha alpha\"".into(), ..Default::default() }).unwrap();
    assert!(!response.retrieval.lexical_windowed);
    assert_eq!(response.retrieval.lexical_ranked, 50);
    assert!(response.results[0].summary.starts_with("alpha alpha alpha"));
}
