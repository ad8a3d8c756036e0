//! Transcripts captured faithfully: Claude Code 1.0.98 and 2.1.39 and Codex
//! CLI fixtures (tests/fixtures/transcripts, written in their line shapes)
//! ingested into records told apart by who wrote them, with their metadata.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ctxkeep_core::{IngestReport, SearchMode, SearchOptions, TimelineSession, TimelineThread, Workspace};

const CC2_SESSION: &str = "7d2e9b14-6a3f-4c85-b1d0-2f9e8c7a6b02";
const CODEX_SESSION: &str = "0199b2c4-5b6d-7e8f-9a0b-1c2d3e4f5a03";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/transcripts")
}

fn cc1() -> PathBuf {
    fixtures().join("claude-code-1.0.98.jsonl")
}

fn cc2_main() -> PathBuf {
    fixtures().join(format!("claude-code-2.1.39/{CC2_SESSION}.jsonl"))
}

fn cc2_agent(agent: &str) -> PathBuf {
    fixtures().join(format!("claude-code-2.1.39/{CC2_SESSION}/subagents/agent-{agent}.jsonl"))
}

fn codex() -> PathBuf {
    fixtures().join(format!("codex/2025/10/05/rollout-2025-10-05T14-30-00-{CODEX_SESSION}.jsonl"))
}

fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let (ws, _) = Workspace::init(dir.path()).unwrap();
    (dir, ws)
}

fn ingest(ws: &mut Workspace, path: &Path) -> IngestReport {
    let file = std::fs::File::open(path).unwrap();
    let report = ws.ingest(&mut std::io::BufReader::new(file), &path.display().to_string()).unwrap();
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    report
}

fn types(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

#[test]
fn claude_code_1_0_98_turns_are_told_apart() {
    let (_dir, mut ws) = workspace();
    let report = ingest(&mut ws, &cc1());
    assert_eq!((report.lines, report.claude_code_lines, report.empty), (30, 30, 0));
    // 4 typed prompts; the reminders, the subagent's prompt, the command
    // expansion and caveat, the command output, the compaction prompt, the
    // task notification and the interruption are `system`.
    assert_eq!(
        report.types,
        types(&[
            ("command", 2),
            ("note", 3),
            ("query", 4),
            ("response", 7),
            ("system", 9),
            ("tool_call", 3),
            ("tool_output", 3)
        ])
    );
}

#[test]
fn claude_code_2_1_39_turns_are_told_apart_and_subagent_files_too() {
    let (_dir, mut ws) = workspace();
    let main = ingest(&mut ws, &cc2_main());
    assert_eq!((main.lines, main.claude_code_lines, main.empty), (24, 24, 4));
    assert_eq!(
        main.types,
        types(&[
            ("command", 2),
            ("note", 2),
            ("query", 3),
            ("response", 5),
            ("system", 4),
            ("tool_call", 2),
            ("tool_output", 2)
        ])
    );
    let agent = ingest(&mut ws, &cc2_agent("a1b2c3d"));
    assert_eq!(agent.types, types(&[("response", 1), ("system", 1), ("tool_call", 1), ("tool_output", 1)]));
    let compact = ingest(&mut ws, &cc2_agent("acompact-5e6f7a"));
    assert_eq!(compact.types, types(&[("response", 1), ("system", 1)]));
}

#[test]
fn codex_rollouts_are_a_format_of_their_own() {
    let (_dir, mut ws) = workspace();
    let report = ingest(&mut ws, &codex());
    assert_eq!((report.lines, report.codex_lines, report.ctx_lines, report.empty), (24, 24, 0, 12));
    // The instructions Codex gives the model (developer messages, AGENTS.md)
    // are not recorded, its environment is `system`, not a prompt; each
    // message is recorded once (from its response item, not its event).
    assert_eq!(
        report.types,
        types(&[
            ("note", 1),
            ("query", 2),
            ("response", 2),
            ("system", 1),
            ("tool_call", 3),
            ("tool_output", 3)
        ])
    );
    let again = ingest(&mut ws, &codex());
    assert_eq!((again.added, again.duplicates), (0, 12));
}

/// The line shapes of Codex 0.169 (checked against a rollout that version
/// wrote here): new line types (`world_state`, `additional_tools`,
/// `configuration_update`, `task_started`, `item_completed`, ...) are the
/// rollout's and carry nothing to record, not malformed ctx lines.
#[test]
fn codex_0_169_rollouts_and_their_new_line_types() {
    let (_dir, mut ws) = workspace();
    let path = fixtures().join(
        "codex-0.169/2026/11/20/rollout-2026-11-20T09-15-00-01a2b3c4-d5e6-7f80-9a1b-2c3d4e5f6a7b.jsonl",
    );
    let report = ingest(&mut ws, &path);
    assert_eq!((report.lines, report.codex_lines, report.ctx_lines, report.empty), (16, 16, 0, 13));
    assert_eq!(report.types, types(&[("query", 1), ("response", 1), ("system", 1)]));
    let hits = ws.search(&SearchOptions {
        query: "ledger".into(),
        types: vec!["response".into()],
        ..Default::default()
    });
    let answer = ws.record(&hits.unwrap().results[0].id).unwrap();
    assert_eq!(answer.meta["version"], "0.169.0");
    assert_eq!(answer.meta["model"], "gpt-6.1-sol");
    assert_eq!(answer.meta["usage"]["output_tokens"], 64);
}

/// Every fixture ingested (Claude Code 1.0.98, then 2.1.39 with its subagents, then Codex).
fn all_ingested() -> (tempfile::TempDir, Workspace) {
    let (dir, mut ws) = workspace();
    for path in [cc1(), cc2_main(), cc2_agent("a1b2c3d"), cc2_agent("acompact-5e6f7a"), codex()] {
        ingest(&mut ws, &path);
    }
    (dir, ws)
}

fn section<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let heading = format!("### {name}");
    text.lines()
        .skip_while(|l| *l != heading)
        .skip(1)
        .take_while(|l| !l.starts_with("###") && !l.starts_with("<<<"))
        .collect()
}

fn search(ws: &Workspace, options: SearchOptions) -> Vec<ctxkeep_core::Record> {
    let response = ws.search(&SearchOptions { k: 100, ..options }).unwrap();
    response.results.iter().map(|row| ws.record(&row.id).unwrap()).collect()
}

fn find(ws: &Workspace, query: &str) -> ctxkeep_core::Record {
    let hits = search(ws, SearchOptions { query: format!("\"{query}\""), ..Default::default() });
    hits.into_iter().find(|r| r.text.contains(query)).unwrap_or_else(|| panic!("no record says {query:?}"))
}

#[test]
fn the_pack_shows_people_and_answers_and_the_latest_session_s_compaction_summary() {
    let (_dir, mut ws) = workspace();
    for path in [cc1(), cc2_main(), cc2_agent("a1b2c3d"), cc2_agent("acompact-5e6f7a")] {
        ingest(&mut ws, &path);
    }
    let pack = ws.pack(Some(4000)).unwrap();
    let summary = section(&pack.text, "SUMMARY");
    assert!(summary[0].starts_with("This session is being continued"), "{summary:?}");
    assert!(summary.iter().any(|l| l.contains("webhook handler drops events")), "{summary:?}");
    let turns = section(&pack.text, "WORKSET_RECENT_TURNS");
    assert_eq!(turns.len(), 12, "{turns:?}");
    for plumbing in [
        "<system-reminder>",
        "<command-",
        "<task-notification>",
        "Caveat:",
        "Your task is to create",
        "bounded at 100 and drops the newest",
    ] {
        assert!(!turns.iter().any(|t| t.contains(plumbing)), "{plumbing} in {turns:#?}");
    }
    assert!(turns.last().unwrap().contains("webhook queue applies back-pressure"), "{turns:#?}");
    assert!(turns.iter().any(|t| t.contains("user: Write the fix and a test for it")), "{turns:#?}");
}

#[test]
fn a_summary_line_of_an_earlier_session_is_not_the_latest_session_s_summary() {
    // The 2.1.39 session's first line titles the 1.0.98 session (its leaf is there).
    let (_dir, mut ws) = workspace();
    let main = std::fs::read_to_string(cc2_main()).unwrap();
    let without_compaction: String =
        main.lines().filter(|l| !l.contains("isCompactSummary")).map(|l| format!("{l}\n")).collect();
    ws.ingest(&mut without_compaction.as_bytes(), "main.jsonl").unwrap();
    let pack = ws.pack(Some(4000)).unwrap();
    assert_eq!(section(&pack.text, "SUMMARY"), ["(none)"]);
    // Once the session it titles is there, and is the latest, it is that session's summary.
    let (_dir, mut ws) = workspace();
    let cc1_text = std::fs::read_to_string(cc1()).unwrap();
    let no_compaction: String =
        cc1_text.lines().filter(|l| !l.contains("isCompactSummary")).map(|l| format!("{l}\n")).collect();
    ws.ingest(&mut no_compaction.as_bytes(), "cc1.jsonl").unwrap();
    let pack = ws.pack(Some(4000)).unwrap();
    assert_eq!(section(&pack.text, "SUMMARY"), ["Payment client retries and CHANGELOG"]);
}

#[test]
fn where_a_turn_came_from_is_kept_in_its_meta() {
    let (_dir, ws) = all_ingested();
    let answer = find(&ws, "instead of dropping; test_backpressure");
    let meta = serde_json::Value::Object(answer.meta.clone());
    assert_eq!(meta["harness"], "claude-code");
    assert_eq!(meta["version"], "2.1.39");
    assert_eq!(meta["model"], "claude-opus-4-6");
    assert_eq!(meta["cwd"], "/home/dev/shop");
    assert_eq!(meta["git_branch"], "fix/webhook-drops");
    assert_eq!(meta["usage"]["output_tokens"], 142);
    assert!(meta.get("sidechain").is_none());

    let old = find(&ws, "CHANGELOG mentions the retries");
    assert_eq!(
        (old.meta["version"].as_str(), old.meta["model"].as_str()),
        (Some("1.0.98"), Some("claude-opus-4-1-20250805"))
    );

    let sub = find(&ws, "bounded at 100 and drops the newest event when full");
    let sub = if sub.record_type == "response" { sub } else { panic!("{sub:?}") };
    assert_eq!(sub.meta["sidechain"], true);
    assert_eq!(sub.meta["agent_id"], "a1b2c3d");
    assert_eq!(sub.meta["model"], "claude-haiku-4-5-20251001");
    assert!(sub.tags.contains(&"subagent".to_string()));

    let codex = find(&ws, "shop ledger export --csv");
    assert_eq!(codex.session_id.as_deref(), Some(CODEX_SESSION));
    assert_eq!(codex.meta["harness"], "codex");
    assert_eq!(codex.meta["version"], "0.46.0");
    assert_eq!(codex.meta["model"], "gpt-5-codex");
    assert_eq!(codex.meta["git_branch"], "feature/ledger-export");
    assert_eq!(codex.meta["usage"]["output_tokens"], 320, "the token count after the answer");
    let failed = find(&ws, "11 passed; 1 failed");
    assert_eq!(
        (failed.record_type.as_str(), failed.tags.as_slice()),
        ("tool_output", &["error".to_string()][..])
    );
    assert_eq!(failed.refs.len(), 1, "names its call");
    assert!(ws.record(&failed.refs[0]).unwrap().text.contains("cargo test"));
}

#[test]
fn a_timeline_keeps_a_subagent_s_turns_apart_from_the_main_thread() {
    let (_dir, ws) = all_ingested();
    let anchor = find(&ws, "Let me trace how events reach the queue");
    let ids = |t: &ctxkeep_core::Timeline| t.results.iter().map(|r| r.summary.clone()).collect::<Vec<_>>();
    let main = ws.timeline(&anchor.id, 0, 4, &TimelineSession::Anchor).unwrap();
    assert_eq!(main.thread, "main");
    // The subagent ran between the Task call and its result: not in the main thread.
    assert!(!ids(&main).iter().any(|s| s.contains("src/hooks/queue.rs:18")), "{:#?}", ids(&main));
    assert!(ids(&main).iter().any(|s| s.starts_with("Task ")), "{:#?}", ids(&main));
    let all = ws.timeline_in(&anchor.id, 0, 4, &TimelineSession::Anchor, &TimelineThread::All).unwrap();
    assert!(ids(&all).iter().any(|s| s.contains("src/hooks/queue.rs:18")), "{:#?}", ids(&all));
    // From a subagent's turn: that subagent's thread only.
    let sub = find(&ws, "src/hooks/queue.rs:18");
    let thread = ws.timeline(&sub.id, 5, 5, &TimelineSession::Anchor).unwrap();
    assert_eq!(thread.thread, "agent:a1b2c3d");
    assert_eq!(thread.results.len(), 4, "{:#?}", ids(&thread));
}

#[test]
fn search_filters_by_type_tag_and_time_inside_the_search() {
    let (_dir, ws) = all_ingested();
    let types = |options: SearchOptions| {
        search(&ws, options).into_iter().map(|r| r.record_type).collect::<std::collections::BTreeSet<_>>()
    };
    let queue = SearchOptions { query: "webhook".into(), ..Default::default() };
    assert!(types(queue.clone()).len() > 1);
    let queries = search(&ws, SearchOptions { types: vec!["query".into()], ..queue.clone() });
    assert_eq!(
        queries.iter().map(|r| r.text.as_str()).collect::<Vec<_>>(),
        ["Why does the webhook handler drop events under load?"]
    );
    let subagent = search(&ws, SearchOptions { tags: vec!["subagent".into()], ..queue.clone() });
    assert!(!subagent.is_empty() && subagent.iter().all(|r| r.tags.contains(&"subagent".to_string())));
    let main = search(&ws, SearchOptions { tags: vec!["!subagent".into()], ..queue.clone() });
    assert!(!main.is_empty() && main.iter().all(|r| !r.tags.contains(&"subagent".to_string())));
    // Times: a day, a range, and a day's end.
    let day = SearchOptions {
        query: "the".into(),
        since: Some("2025-10-05".into()),
        until: Some("2025-10-05".into()),
        ..Default::default()
    };
    let found = search(&ws, day);
    assert!(!found.is_empty() && found.iter().all(|r| r.ts.starts_with("2025-10-05")), "{found:#?}");
    let late = SearchOptions {
        query: "tests".into(),
        since: Some("2025-10-05T14:35:00Z".into()),
        until: Some("2025-10-05".into()),
        ..Default::default()
    };
    let found = search(&ws, late);
    assert!(!found.is_empty() && found.iter().all(|r| r.ts.as_str() >= "2025-10-05T14:35"), "{found:#?}");
    let bad = SearchOptions { query: "x".into(), since: Some("last tuesday".into()), ..Default::default() };
    assert_eq!(ws.search(&bad).unwrap_err().code(), "INVALID_INPUT");
    // The filter applies before the ranking is cut: a rare type among many matches is still found, k rows of it.
    let one =
        SearchOptions { query: "the".into(), k: 1, types: vec!["command".into()], ..Default::default() };
    let rows = ws.search(&one).unwrap().results;
    assert_eq!(rows.len(), 1);
    for mode in [SearchMode::Vector, SearchMode::Hybrid] {
        let options = SearchOptions {
            query: "webhook queue events".into(),
            mode,
            k: 3,
            types: vec!["query".into()],
            ..Default::default()
        };
        let rows = ws.search(&options).unwrap();
        assert_eq!(rows.retrieval.mode, mode);
        assert!(
            !rows.results.is_empty() && rows.results.iter().all(|r| r.record_type == "query"),
            "{mode:?}: {:#?}",
            rows.results
        );
    }
}
