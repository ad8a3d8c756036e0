//! Defects found by trying ctx as a new user would (issue 19): each test
//! is named after what a user saw go wrong.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::util::{Repo, strings};

const TREE: &str = r#"
//- README.md
# Shop
A small web shop.
//- src/auth/jwt.rs
//! JWT signing and verification.
pub fn sign() {}
//- src/auth/hooks/use_auth.ts
/** React hook that exposes the signed-in user. */
export function useAuth() {}
//- src/db/pool.rs
//! Connection pool.
pub fn pool() {}
//- docs/api.md
# API
"#;

/// `ctx --json ARGS` that fails: its error object's code and message.
fn json_error(repo: &Repo, args: &[&str]) -> (String, String) {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = repo.run(&all);
    assert_eq!(out.status.code(), Some(1), "ctx {all:?}: {}", String::from_utf8_lossy(&out.stdout));
    let error: Value = serde_json::from_slice(&out.stderr)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let text = |key: &str| error["error"][key].as_str().unwrap_or_else(|| panic!("{error}")).to_string();
    (text("code"), text("message"))
}

#[test]
fn search_help_says_what_each_mode_does_and_when_it_falls_back() {
    let repo = Repo::new();
    let help = repo.ok(&["search", "--help"]);
    let folded = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!folded.contains("for now"), "{help}");
    for needle in [
        "lexical: the words",
        "vector: the meaning",
        "hybrid: both, fused by reciprocal rank",
        "the lexical channel serves instead",
        "embedder = \"none\"",
        "retrieval.fallback_reason",
    ] {
        assert!(folded.contains(needle), "{needle:?} not in:\n{help}");
    }
}

/// Records to search: a short one, one longer than a `get` shows by
/// default, and one with refs, tags, a session and metadata.
fn memory() -> Repo {
    let repo = Repo::init_unbuilt("//- README.md\nA shop.\n");
    repo.ok(&["record", "add", "--type", "note", "--text", "Pool timeout is 30 s"]);
    let long = format!("Pool timeout analysis: {}", "the pool waits for a free connection. ".repeat(120));
    repo.ok(&["record", "add", "--type", "tool_output", "--text", &long, "--tag", "perf"]);
    repo.write(
        "s.jsonl",
        "{\"type\":\"query\",\"role\":\"user\",\"text\":\"Why does the pool time out? \\\"quotes\\\" and ünïcödé\",\
         \"session_id\":\"7f3e2a10-5c1b-4d2e-9a0f-1b2c3d4e5f60\",\"refs\":[\"src/db/pool.rs\"],\"tags\":[\"perf\",\"db\"]}\n",
    );
    repo.ok(&["ingest", "s.jsonl"]);
    repo
}

#[test]
fn following_a_search_hint_gets_the_record() {
    let repo = memory();
    for mode in ["lexical", "hybrid"] {
        let search = repo.json(&["search", "pool", "--mode", mode]);
        let results = search["results"].as_array().unwrap();
        assert_eq!(results.len(), 3, "{search}");
        for row in results {
            let id = row["id"].as_str().unwrap();
            let head = row["expand"]["get"]["head"].as_u64().unwrap();
            let out = repo.ok(&["--json", "get", id, "--head", &head.to_string()]);
            let out = out.trim_end();
            assert!(out.chars().count() as u64 <= head, "{id}: {} chars over the hint {head}", out.len());
            let got: Value = serde_json::from_str(out).unwrap();
            assert_eq!(got["layer"], "L2", "{id}: following the hint {head} gave {got}");
            let whole = repo.json(&["get", id]);
            let (text, full) =
                (got["record"]["text"].as_str().unwrap(), whole["record"]["text"].as_str().unwrap());
            if full.chars().count() <= 2000 {
                assert_eq!(got["record"], whole["record"], "{id}: the hint {head} gets the whole record");
                assert_eq!(got["truncated"], false);
            } else {
                // A long text: its first 2,000 characters at least, never an empty cut.
                assert!(full.starts_with(text) && text.chars().count() >= 2000, "{id}: {head}");
            }
            // The hint's estimate is of what following it costs.
            let tokens = row["expand"]["get"]["tokens_est"].as_u64().unwrap();
            assert_eq!(tokens, head.div_ceil(4), "{row}");
        }
    }
}

#[test]
fn get_head_n_is_at_most_n_characters_or_a_clear_error() {
    let repo = memory();
    let id_of = |query: &str| repo.json(&["search", query])["results"][0]["id"].as_str().unwrap().to_string();
    let id = id_of("analysis");
    let (mut cut, mut tiny) = (false, false);
    for head in [0, 1, 2, 10, 50, 71, 72, 73, 80, 90, 120, 160, 200, 400, 1000, 100_000] {
        let args = ["--json", "get", id.as_str(), "--head", &head.to_string()];
        if head < 72 {
            let (code, message) = json_error(&repo, &args[1..]);
            assert_eq!(code, "INVALID_INPUT", "{head}: {message}");
            assert!(message.contains(&format!("a head of {head} characters is too small")), "{message}");
            assert!(message.contains("at least 72"), "{head}: {message}");
            continue;
        }
        let out = repo.ok(&args);
        let out = out.trim_end();
        assert!(out.chars().count() <= head, "--head {head} gave {} characters: {out}", out.chars().count());
        let value: Value = serde_json::from_str(out).unwrap();
        tiny |= value["note"] == "budget_too_small";
        cut |= value["truncated"] == true && value["layer"] == "L2";
    }
    assert!(tiny && cut, "the heads tried cover the tiny fallback and a cut text");
    // Without --json, --head counts the text's characters: any N goes.
    let text = repo.ok(&["get", &id_of("\"Pool timeout is 30 s\""), "--head", "4"]);
    assert!(text.trim_end().ends_with("Pool… [4 of 20 characters]"), "{text}");
}

#[test]
fn status_lists_every_folder_validate_finds_stale_after_the_root_is_described() {
    let repo = Repo::init(TREE);
    assert!(repo.json(&["status"])["stale_folders"].as_array().unwrap().is_empty());
    repo.ok(&["folder", "describe", ".", "--description", "A shop: catalogue, cart and checkout"]);
    // `validate` exits 1 when anything is stale; its report is on stdout all the same.
    let validate: Value = serde_json::from_slice(&repo.run(&["--json", "validate"]).stdout).unwrap();
    let from_validate: BTreeSet<String> = validate["stale"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap().to_string())
        .collect();
    let from_status: BTreeSet<String> =
        strings(&repo.json(&["status"])["stale_folders"]).into_iter().collect();
    // Every folder shows the root's description in its scope chain.
    let every: BTreeSet<String> =
        [".", "docs", "src", "src/auth", "src/auth/hooks", "src/db"].map(String::from).into();
    assert_eq!(from_validate, every, "{validate}");
    assert_eq!(from_status, from_validate);
    let text = repo.ok(&["status"]);
    assert!(text.contains("folders: 6 (6 stale)"), "{text}");

    // A missing or hand-edited file is one a build rewrites too: its folder is not current.
    repo.ok(&["build"]);
    assert!(repo.json(&["status"])["stale_folders"].as_array().unwrap().is_empty());
    repo.remove(".ctx/context/src--db.minimal.md");
    repo.write(".ctx/context/docs.full.md", "edited by hand\n");
    assert_eq!(strings(&repo.json(&["status"])["stale_folders"]), ["docs", "src/db"]);
    // The folder's own view agrees.
    assert_eq!(repo.json(&["folder", "show", "src/db"])["stale"], true);
    assert_eq!(repo.json(&["folder", "show", "src/auth"])["stale"], false);
}

#[test]
fn starting_a_task_whose_subframe_is_in_progress_is_refused() {
    let repo = Repo::init_unbuilt(TREE);
    repo.ok(&["task", "add", "Checkout", "--type", "epic"]);
    repo.ok(&["task", "add", "Card form", "--epic", "F1"]);
    repo.ok(&["task", "start", "F1"]);
    repo.ok(&["task", "start", "F2"]);
    let err = repo.fail(&["task", "start", "F1"]);
    assert!(err.contains("F1 has frames in progress (F2)"), "{err}");
    assert!(err.contains("ctx task done F2") && err.contains("ctx frame pop F2"), "{err}");
    let (code, _) = json_error(&repo, &["task", "start", "F1"]);
    assert_eq!(code, "INVALID_FRAME_STATE");
    // Nothing moved: the subframe is still the current frame.
    assert_eq!(repo.json(&["frame", "status"])["current"]["id"], "F2");
    // Once it is done, its parent is current and may be started again.
    repo.ok(&["task", "done", "F2"]);
    assert_eq!(repo.ok(&["task", "start", "F1"]), "started F1: Checkout (in_progress)\n");
}

#[test]
fn frame_push_parent_none_makes_a_top_level_frame() {
    let repo = Repo::init_unbuilt(TREE);
    repo.ok(&["frame", "push", "Ship the shop"]);
    let top = repo.json(&["frame", "push", "Fix the build", "--parent", "none"]);
    assert_eq!((&top["id"], &top["parent"]), (&Value::from("F2"), &Value::Null), "{top}");
    assert_eq!(repo.json(&["frame", "status"])["current"]["id"], "F2");
    let trees = repo.json(&["frame", "tree"]);
    let roots: Vec<&str> = trees.as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(roots, ["F1", "F2"]);
    // Any case; without --parent, the current frame is the parent.
    assert_eq!(repo.json(&["frame", "push", "Third", "--parent", "None"])["parent"], Value::Null);
    assert_eq!(repo.json(&["frame", "push", "Under the third"])["parent"], "F3");
}

#[test]
fn a_total_token_budget_alone_scales_the_default_shares() {
    let repo = Repo::init_unbuilt(TREE);
    repo.ok(&["frame", "push", "Build the API"]);
    let budget = |total: &str| -> (Value, Value) {
        let out = repo.ok_with(&["--json", "frame", "context"], &[("CTX_TOKEN_BUDGET_TOTAL", total)]);
        let context: Value = serde_json::from_str(&out).unwrap();
        (context["report"]["budget"].clone(), context["report"]["budget_sources"].clone())
    };
    let (small, sources) = budget("1000");
    assert_eq!(
        small,
        serde_json::json!({"total": 1000, "ancestors": 375, "siblings": 375, "current": 200, "overhead": 50})
    );
    assert_eq!(sources["total"], "CTX_TOKEN_BUDGET_TOTAL");
    assert_eq!(sources["siblings"], "default, scaled to the total");
    let (large, _) = budget("8000");
    assert_eq!(
        large,
        serde_json::json!({"total": 8000, "ancestors": 3000, "siblings": 3000, "current": 1600, "overhead": 400})
    );
    // A total from the config alone scales them too.
    repo.write(".ctx/config.toml", "[budget]\ntotal = 2000\n");
    assert_eq!(repo.json(&["frame", "context"])["report"]["budget"]["ancestors"], 750);
    repo.write(".ctx/config.toml", "");
    // Shares given with it are checked against it, as before.
    let err = repo.fail_with(
        &["frame", "context"],
        &[("CTX_TOKEN_BUDGET_TOTAL", "1000"), ("CTX_TOKEN_BUDGET_ANCESTORS", "300")],
    );
    assert!(err.contains("over the total 1000 from CTX_TOKEN_BUDGET_TOTAL"), "{err}");
    assert!(err.contains("siblings 1500 from default"), "{err}");
    // Too small to share at all.
    let err = repo.fail_with(&["frame", "context"], &[("CTX_TOKEN_BUDGET_TOTAL", "3")]);
    assert!(err.contains("over the total 3"), "{err}");
}

/// Every error code in the `code()` of ctx's error types (and the artifact
/// errors', and the CLI's catch-all `ERROR`), read from their sources.
fn error_codes() -> BTreeSet<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut codes = BTreeSet::from(["ERROR".to_string()]);
    for file in [
        "crates/ctx-core/src/error.rs",
        "crates/ctx-map/src/error.rs",
        "crates/ctx-core/src/artifact/error.rs",
    ] {
        let source = std::fs::read_to_string(root.join(file)).unwrap();
        for arm in source.split("=> \"").skip(1) {
            let code: String = arm.chars().take_while(|c| c.is_ascii_uppercase() || *c == '_').collect();
            if arm[code.len()..].starts_with('"') && code.len() > 2 {
                codes.insert(code);
            }
        }
    }
    codes
}

#[test]
fn every_error_code_is_documented_in_json_md() {
    let codes = error_codes();
    for expected in
        ["UNKNOWN_RECORD", "EMBEDDER_ERROR", "TAGS_ERROR", "SECTION_NOT_FOUND", "INVALID_FRAME_STATE"]
    {
        assert!(codes.contains(expected), "{expected} not read from the sources: {codes:?}");
    }
    let docs =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/json.md"))
            .unwrap();
    let missing: Vec<&String> = codes.iter().filter(|code| !docs.contains(&format!("`{code}`"))).collect();
    assert!(missing.is_empty(), "error codes docs/json.md does not name: {missing:?}");
}

#[test]
fn secret_is_a_bool_in_folder_show_and_in_context_json() {
    let repo = Repo::with_files(TREE);
    repo.write("config/keys/server.pem", concat!("-----BEGIN ", "PRIVATE KEY-----\nMIIE\n"));
    repo.write("config/settings.yml", "debug: true\n");
    repo.ok(&["init", "--no-agents"]);
    let folder = repo.json(&["folder", "show", "config/keys"]);
    let file = &folder["files"][0];
    assert_eq!(
        (&file["name"], &file["secret"], &file["secret_reason"]),
        (&"server.pem".into(), &true.into(), &"private key".into()),
        "{folder}"
    );
    let plain = &repo.json(&["folder", "show", "config"])["files"][0];
    assert_eq!((&plain["secret"], &plain["secret_reason"]), (&false.into(), &Value::Null), "{plain}");
    let context = repo.json(&["context", "config/keys", "--format", "json"]);
    assert_eq!(context["doc"]["files"][0]["secret"], true, "{context}");
}

#[test]
fn a_record_without_a_session_has_no_session_id_field() {
    let repo = Repo::init_unbuilt("//- README.md\nA shop.\n");
    let record = repo.json(&["record", "add", "--type", "note", "--text", "no session"]);
    assert!(record.get("session_id").is_none(), "{record}");
    let id = record["id"].as_str().unwrap();
    assert!(repo.json(&["get", id])["record"].get("session_id").is_none());
    let with = repo.json(&["record", "add", "--type", "note", "--text", "a session", "--session", "S1"]);
    assert_eq!(with["session_id"], "S1");
}
