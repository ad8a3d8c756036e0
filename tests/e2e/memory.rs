//! Session memory from the command line: `ctx record add`, `ctx ingest`
//! (a file, standard input, a Claude Code transcript), `ctx search`.

use crate::util::Repo;

const TRANSCRIPT: &str = include_str!("../../crates/ctx-core/tests/fixtures/claude_code_session.jsonl");

fn repo() -> Repo {
    Repo::init_unbuilt("//- README.md\nA shop.\n")
}

#[test]
fn records_added_and_ingested_are_found_by_search() {
    let repo = repo();
    let id = repo.ok(&[
        "record",
        "add",
        "--type",
        "note",
        "--text",
        "Pool timeout defaults to 30 s",
        "--tag",
        "perf",
    ]);
    let id = id.trim();
    assert!(id.starts_with("H-") && id.len() == 14, "{id}");

    repo.write("session.jsonl", TRANSCRIPT);
    let report = repo.json(&["ingest", "session.jsonl"]);
    assert_eq!((report["added"].as_u64(), report["claude_code_lines"].as_u64()), (Some(8), Some(8)));
    let again = repo.ok(&["ingest", "session.jsonl"]);
    assert!(again.contains("0 records added, 8 already there"), "{again}");

    let search = repo.json(&["search", "pool", "timeout", "-k", "3"]);
    assert_eq!((search["layer"].as_str(), search["k"].as_u64()), (Some("L0"), Some(3)));
    assert_eq!(search["results"].as_array().unwrap().len(), 3);
    let text = repo.ok(&["search", "\"old_string not found\""]);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains("tool_output") && text.contains("error: old_string not found"), "{text}");
    // A hostile query is no error, and a query may start with '-' after `--`.
    repo.ok(&["search", "--", "-pool", "AND", "(", "\"", "*"]);

    let session = repo.json(&["search", "pool", "--session", "7f3e2a10-5c1b-4d2e-9a0f-1b2c3d4e5f60"]);
    assert!(session["results"].as_array().unwrap().iter().all(|r| r["id"] != id));
    assert_eq!(session["session"], "7f3e2a10-5c1b-4d2e-9a0f-1b2c3d4e5f60");
}

#[test]
fn ingest_reads_standard_input_and_reports_bad_lines_by_number() {
    let repo = repo();
    let input =
        "{\"type\":\"note\",\"text\":\"kept\"}\nnot json\n{\"type\":\"query\",\"text\":\"kept too\"}\n";
    let output = repo.run_fed(&["ingest", "-"], |stdin| stdin.write_all(input.as_bytes()));
    assert!(output.status.success());
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("2 records added") && stdout.contains("1 malformed"), "{stdout}");
    assert!(stderr.contains("-:2: not JSON"), "{stderr}");
}

#[test]
fn bad_input_is_a_clear_error() {
    let repo = repo();
    let err = repo.fail(&["record", "add", "--type", "note", "--text", " "]);
    assert!(err.contains("a record needs text"), "{err}");
    let err = repo.fail(&["record", "add", "--type", "note", "--text", "x", "--role", "robot"]);
    assert!(err.contains("the roles are user, assistant, tool, unknown"), "{err}");
    let err = repo.fail(&["ingest", "missing.jsonl"]);
    assert!(err.contains("missing.jsonl: no such file or folder"), "{err}");
    let err = repo.fail(&["search", "pool", "-k", "0"]);
    assert!(err.contains("-k must be at least 1"), "{err}");
    assert_eq!(repo.run(&["search", "pool", "--scope", "cold"]).status.code(), Some(2));
}

#[test]
fn timeline_get_and_archive() {
    let repo = repo();
    repo.write("session.jsonl", TRANSCRIPT);
    repo.ok(&["ingest", "session.jsonl"]);
    let hit = repo.json(&["search", "\"old_string not found\""]);
    let id = hit["results"][0]["id"].as_str().unwrap().to_string();

    let timeline = repo.json(&["timeline", &id, "--before", "1", "--after", "1"]);
    assert_eq!((timeline["layer"].as_str(), timeline["anchor"].as_str()), (Some("L0"), Some(id.as_str())));
    let types: Vec<&str> =
        timeline["results"].as_array().unwrap().iter().map(|r| r["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["tool_call", "tool_output", "response"]);
    let text = repo.ok(&["timeline", &id, "--before", "1", "--after", "0"]);
    assert!(text.lines().nth(1).unwrap().starts_with(&format!("> {id}")), "{text}");

    // get --json is compact JSON within --head characters, for any head it can keep.
    for head in [72, 200, 400, 500, 10_000] {
        let out = repo.ok(&["--json", "get", &id, "--head", &head.to_string()]);
        let value: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert!(out.trim().chars().count() <= head, "{head}: {out}");
        // Below the envelope (with this transcript's long session id and its meta), the tiny fallback.
        let expected = if head >= 500 { "L2" } else { "budget_too_small" };
        assert!(value["layer"] == expected || value["note"] == expected, "{head}: {out}");
    }
    let whole = repo.json(&["get", &id]);
    assert_eq!(whole["record"]["text"], "error: old_string not found in src/db/pool.rs");
    assert!(repo.ok(&["get", &id]).contains("tags: error"));
    assert!(repo.fail(&["get", "H-000000000000"]).contains("unknown record"));

    // The transcript is from 2026-11-20: older than a day (but its summary, which has no time).
    assert_eq!(repo.json(&["archive", "--older-than", "1d"])["archived"], 7);
    let archived = repo.json(&["search", "pool", "--scope", "archive"]);
    assert!(archived["results"].as_array().unwrap().iter().all(|r| r["source"] == "archive"));
    assert_eq!(repo.run(&["archive", "--older-than", "soon"]).status.code(), Some(2));
}

#[test]
fn pack_and_pins() {
    let repo = repo();
    repo.write("session.jsonl", TRANSCRIPT);
    repo.ok(&["ingest", "session.jsonl"]);
    let pin = repo.ok(&["pin", "add", "Never log card numbers"]);
    let pin = pin.trim();
    assert!(repo.ok(&["pin", "list"]).contains("Never log card numbers"));
    repo.ok(&["search", "pool", "timeout"]);
    let text = repo.ok(&["pack"]);
    assert!(text.starts_with("<<<CONTEXTFS:BEGIN>>>\n### PINS\n"), "{text}");
    assert!(text.ends_with("<<<CONTEXTFS:END>>>\n"), "{text}");
    assert!(text.contains("### RETRIEVAL_INDEX\n- H-"), "{text}");
    assert_eq!(std::fs::read_to_string(repo.path(".ctx/packs/last.md")).unwrap(), text);
    // The audit folder ignores itself: `git status` stays clean.
    assert_eq!(
        std::fs::read_to_string(repo.path(".ctx/packs/.gitignore")).unwrap().lines().last(),
        Some("*")
    );
    let tight = repo.json(&["pack", "--tokens", "60"]);
    assert!(tight["tokens"].as_u64().unwrap() <= 60 || tight["mode"] == "emergency", "{tight}");
    repo.ok(&["pin", "rm", pin]);
    assert!(repo.fail(&["pin", "rm", pin]).contains("unknown record"));
}
