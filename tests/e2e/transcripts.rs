//! Transcripts from the command line: `ctx ingest` of several files,
//! folders and globs, `--claude-code` and `--codex` finding a project's
//! transcripts under $HOME, and `ctx search`'s type, tag and time filters.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::Repo;

const CC2_SESSION: &str = "7d2e9b14-6a3f-4c85-b1d0-2f9e8c7a6b02";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/transcripts")
}

/// Copy the fixture `from` (a file or a folder, relative to the fixtures) to `to`.
fn copy(from: &str, to: &Path) {
    copy_path(&fixtures().join(from), to);
}

fn copy_path(from: &Path, to: &Path) {
    if from.is_file() {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from, to).unwrap();
        return;
    }
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        copy_path(&entry.path(), &to.join(entry.file_name()));
    }
}

fn repo() -> Repo {
    let repo = Repo::init_unbuilt("//- README.md\nA shop.\n");
    copy("", &repo.path("logs"));
    repo
}

fn sum(report: &Value, key: &str) -> u64 {
    report[key].as_u64().unwrap()
}

#[test]
fn ingest_takes_files_folders_and_globs_and_reports_each_and_the_total() {
    let repo = repo();
    let args =
        ["ingest", "logs/claude-code-1.0.98.jsonl", "logs/claude-code-2.1.39", "logs/codex/**/*.jsonl"];
    let report = repo.json(&args);
    let files = report["files"].as_array().unwrap();
    assert_eq!(files.len(), 5, "{report:#}");
    assert_eq!(files[1]["source"], format!("logs/claude-code-2.1.39/{CC2_SESSION}.jsonl"));
    assert!(files[2]["source"].as_str().unwrap().ends_with("subagents/agent-a1b2c3d.jsonl"));
    assert_eq!(
        (sum(&report, "claude_code_lines"), sum(&report, "codex_lines"), sum(&report, "ctx_lines")),
        (60, 24, 0)
    );
    assert!(report["errors"].as_array().unwrap().is_empty(), "Codex lines are not malformed: {report:#}");
    assert_eq!(report["types"]["query"], 4 + 3 + 2, "typed prompts only");
    assert_eq!(sum(&report, "added"), files.iter().map(|f| sum(f, "added")).sum::<u64>());
    let again = repo.ok(&args);
    assert!(again.lines().last().unwrap().starts_with("5 files: 84 lines"), "{again}");
    assert!(again.contains("0 records added"), "{again}");

    // A name that names nothing fails before anything is written.
    let repo = self::repo();
    let err = repo.fail(&["ingest", "logs/claude-code-1.0.98.jsonl", "logs/missing.jsonl"]);
    assert!(err.contains("logs/missing.jsonl: no such file or folder"), "{err}");
    let err = repo.fail(&["ingest", "logs/claude-code-1.0.98.jsonl", "logs/*.csv"]);
    assert!(err.contains("no file matches"), "{err}");
    assert_eq!(repo.json(&["search", "payment"])["hits"], 0);
}

#[test]
fn claude_code_and_codex_transcripts_of_this_project_are_found_under_home() {
    let repo = repo();
    let home = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(repo.root()).unwrap();
    let encoded: String =
        root.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    copy("claude-code-2.1.39", &home.path().join(".claude/projects").join(&encoded));
    // Another project's transcripts are not this one's.
    copy("claude-code-1.0.98.jsonl", &home.path().join(".claude/projects/-elsewhere/x.jsonl"));
    let rollout = std::fs::read_to_string(
        fixtures()
            .join("codex/2025/10/05")
            .join("rollout-2025-10-05T14-30-00-0199b2c4-5b6d-7e8f-9a0b-1c2d3e4f5a03.jsonl"),
    )
    .unwrap();
    let sessions = home.path().join(".codex/sessions/2025/10/05");
    std::fs::create_dir_all(&sessions).unwrap();
    let here = rollout.replace("\"cwd\":\"/home/dev/shop\"", &format!("\"cwd\":{}", serde_json::json!(root)));
    std::fs::write(
        sessions.join("rollout-2025-10-05T14-30-00-0199b2c4-5b6d-7e8f-9a0b-1c2d3e4f5a03.jsonl"),
        here,
    )
    .unwrap();
    std::fs::write(
        sessions.join("rollout-2025-10-05T15-00-00-0199b2c4-5b6d-7e8f-9a0b-1c2d3e4f5a04.jsonl"),
        &rollout,
    )
    .unwrap();
    let env = [("HOME", home.path().to_str().unwrap())];

    let out = repo.run_with(&["--json", "ingest", "--claude-code"], &env);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["files"].as_array().unwrap().len(), 3, "the session and its two subagents: {report:#}");
    assert_eq!(report["claude_code_lines"], 30);

    let out = repo.run_with(&["--json", "ingest", "--codex"], &env);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["files"].as_array().unwrap().len(), 1, "only the rollout started here: {report:#}");
    assert_eq!((report["codex_lines"].as_u64(), report["added"].as_u64()), (Some(24), Some(12)));

    let empty = tempfile::tempdir().unwrap();
    let out = repo.run_with(&["ingest", "--claude-code"], &[("HOME", empty.path().to_str().unwrap())]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no Claude Code transcripts of"));
}

#[test]
fn search_filters_by_type_tag_and_time_and_timeline_and_pack_keep_threads_apart() {
    let repo = repo();
    repo.ok(&["ingest", "logs"]);
    let rows = |args: &[&str]| -> Vec<Value> {
        let mut all = vec!["search"];
        all.extend_from_slice(args);
        repo.json(&all)["results"].as_array().unwrap().clone()
    };
    let queries = rows(&["webhook", "--type", "query"]);
    assert_eq!(queries.len(), 1);
    assert_eq!(queries[0]["summary"], "Why does the webhook handler drop events under load?");
    let several = rows(&["webhook", "--type", "query", "--type", "system", "-k", "50"]);
    assert!(several.len() > 1 && several.iter().all(|r| r["type"] == "query" || r["type"] == "system"));
    let ids = |rows: Vec<Value>| {
        rows.iter().map(|r| r["id"].as_str().unwrap().to_string()).collect::<std::collections::BTreeSet<_>>()
    };
    let every = ids(rows(&["webhook", "-k", "50"]));
    let subagent = ids(rows(&["webhook", "--tag", "subagent", "-k", "50"]));
    let main = ids(rows(&["webhook", "--tag", "!subagent", "-k", "50"]));
    assert_eq!(subagent.len(), 3, "the Explore agent's prompt, the compaction agent's prompt and answer");
    assert!(subagent.is_disjoint(&main) && !main.is_empty());
    assert_eq!(subagent.union(&main).cloned().collect::<std::collections::BTreeSet<_>>(), every);
    let day = rows(&["tests", "--since", "2025-10-05", "--until", "2025-10-05T14:35:00Z", "-k", "50"]);
    assert!(
        !day.is_empty() && day.iter().all(|r| r["ts"].as_str().unwrap() < "2025-10-05T14:35:01"),
        "{day:#?}"
    );
    assert!(rows(&["tests", "--since", "30d"]).is_empty(), "the fixtures are older");
    let err = repo.fail(&["search", "tests", "--since", "last tuesday"]);
    assert!(err.contains("--since \"last tuesday\""), "{err}");

    // The Task call's neighbours: the main thread's by default, the subagent's turns with --thread all.
    let task = &rows(&["\"Find the webhook queue\"", "--type", "tool_call"])[0];
    let id = task["id"].as_str().unwrap();
    let main = repo.json(&["timeline", id, "--before", "0", "--after", "3"]);
    assert_eq!(main["thread"], "main");
    let summaries = |t: &Value| {
        t["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["summary"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert!(!summaries(&main).iter().any(|s| s.contains("src/hooks/queue.rs:18")), "{main:#}");
    let all = repo.json(&["timeline", id, "--before", "0", "--after", "3", "--thread", "all"]);
    assert!(summaries(&all).iter().any(|s| s.contains("src/hooks/queue.rs:18")), "{all:#}");

    let pack = repo.ok(&["pack"]);
    let turns = pack.split("### WORKSET_RECENT_TURNS").nth(1).unwrap();
    for plumbing in [
        "<system-reminder>",
        "<command-",
        "<task-notification>",
        "Caveat:",
        "<environment_context>",
        "AGENTS.md",
    ] {
        assert!(!turns.contains(plumbing), "{plumbing} in {turns}");
    }
}
