//! Transcripts captured faithfully: Claude Code 1.0.98 and 2.1.39 and Codex
//! CLI fixtures (tests/fixtures/transcripts, written in their line shapes)
//! ingested into records told apart by who wrote them, with their metadata.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ctx_core::{IngestReport, Workspace};

const CC1_SESSION: &str = "3f6c1a52-8d0e-4b7a-9c21-5e4f7a1b2c01";
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
    assert_eq!((report.lines, report.codex_lines, report.ctx_lines, report.empty), (24, 24, 0, 10));
    // The instructions and environment Codex injects are not prompts; each
    // message is recorded once (from its response item, not its event).
    assert_eq!(
        report.types,
        types(&[
            ("note", 1),
            ("query", 2),
            ("response", 2),
            ("system", 3),
            ("tool_call", 3),
            ("tool_output", 3)
        ])
    );
    let again = ingest(&mut ws, &codex());
    assert_eq!((again.added, again.duplicates), (0, 14));
}
