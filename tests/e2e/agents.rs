//! ctx's managed section in AGENTS.md and CLAUDE.md, the prompts of `.ctx/`
//! and `.ctx/map.md`: `ctx init`, `ctx update [--check] [--repair]`.

use serde_json::Value;

use crate::util::Repo;

const TREE: &str = "
//- src/lib.rs
pub fn sign() {}
";

const BEGIN: &str = "<!-- BEGIN CTX MANAGED SECTION v1 -->";
const END: &str = "<!-- END CTX MANAGED SECTION -->";

/// `path -> status` of an update report.
fn statuses(report: &Value) -> Vec<(String, String)> {
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["path"].as_str().unwrap().to_string(), f["status"].as_str().unwrap().to_string()))
        .collect()
}

fn status_of(report: &Value, path: &str) -> String {
    statuses(report).into_iter().find(|(p, _)| p == path).map(|(_, s)| s).unwrap_or_default()
}

fn bytes(repo: &Repo, rel: &str) -> Vec<u8> {
    std::fs::read(repo.path(rel)).unwrap()
}

#[test]
fn init_writes_the_sections_prompts_and_map_and_update_then_changes_nothing() {
    let repo = Repo::with_files(TREE);
    let out = repo.json(&["init"]);
    let agents = &out["agents"];
    assert_eq!(status_of(agents, "AGENTS.md"), "created");
    assert_eq!(status_of(agents, "CLAUDE.md"), "created");
    assert_eq!(status_of(agents, ".ctx/map.md"), "created");
    for prompt in ["boot.md", "constitution.md", "runloop.md"] {
        assert!(repo.path(&format!(".ctx/{prompt}")).is_file(), "{prompt}");
    }
    // The first scan already has the agent files.
    assert_eq!(out["scan"]["files_added"], 3);

    let agents_md = String::from_utf8(bytes(&repo, "AGENTS.md")).unwrap();
    assert!(agents_md.starts_with(&format!("{BEGIN}\n<!-- Do not edit")), "{agents_md}");
    assert!(agents_md.ends_with(&format!("{END}\n")));
    for says in [".ctx/boot.md", ".ctx/map.md", ".ctx/constitution.md", "ctx rank", "ctx search", "ctx pack"]
    {
        assert!(agents_md.contains(says), "AGENTS.md does not say {says}");
    }
    assert!(!agents_md.contains("@.ctx/map.md"), "Claude's imports are for CLAUDE.md only");
    let claude_md = String::from_utf8(bytes(&repo, "CLAUDE.md")).unwrap();
    assert!(claude_md.contains("\n@.ctx/map.md\n@.ctx/constitution.md\n"), "{claude_md}");
    let boot = String::from_utf8(bytes(&repo, ".ctx/boot.md")).unwrap();
    for says in [".ctx/map.md", "ctx rank", "ctx search", "ctx pack", "ctx frame push", "ctx task prompt"] {
        assert!(boot.contains(says), "boot.md does not say {says}");
    }
    let map = bytes(&repo, ".ctx/map.md");
    assert!(String::from_utf8_lossy(&map).contains("src/lib.rs"));

    let before: Vec<Vec<u8>> =
        ["AGENTS.md", "CLAUDE.md", ".ctx/map.md"].iter().map(|f| bytes(&repo, f)).collect();
    let again = repo.json(&["update"]);
    assert!(statuses(&again).iter().all(|(_, s)| s == "unchanged"), "{again}");
    let after: Vec<Vec<u8>> =
        ["AGENTS.md", "CLAUDE.md", ".ctx/map.md"].iter().map(|f| bytes(&repo, f)).collect();
    assert_eq!(before, after);
    assert_eq!(repo.ok(&["update"]).lines().next(), Some("AGENTS.md: unchanged"));
}

#[test]
fn the_users_files_keep_every_byte_outside_the_section() {
    let repo = Repo::with_files(TREE);
    // CRLF, a BOM, no final newline; marker look-alikes in a code fence.
    let agents =
        "\u{FEFF}# Our rules\r\n\r\n```md\r\n<!-- BEGIN CTX MANAGED SECTION v1 -->\r\n```\r\nNo tabs.";
    let claude = "# Claude\n\nSee <!-- END CTX MANAGED SECTION --> in prose.\n";
    repo.write("AGENTS.md", agents);
    repo.write("CLAUDE.md", claude);
    let out = repo.json(&["init", "--no-build"]);
    assert_eq!(status_of(&out["agents"], "AGENTS.md"), "appended");
    assert_eq!(status_of(&out["agents"], "CLAUDE.md"), "appended");
    let text = String::from_utf8(bytes(&repo, "AGENTS.md")).unwrap();
    let (head, section) = text.split_at(text.find(&format!("{BEGIN}\r\n<!--")).unwrap());
    assert_eq!(head, format!("{agents}\r\n\r\n"), "only the line end and the blank line are added");
    assert!(section.ends_with(&format!("{END}\r\n")) && !section.replace("\r\n", "").contains('\n'));
    let text = String::from_utf8(bytes(&repo, "CLAUDE.md")).unwrap();
    assert!(text.starts_with(&format!("{claude}\n{BEGIN}\n")));

    // The user edits above and below; the section in between is refreshed alone.
    let edited = format!("{}\r\nBelow, mine too.", text.replace("# Claude", "# Claude, edited"));
    repo.write("CLAUDE.md", &edited.replace("Claude Code reads", "Someone changed"));
    let out = repo.json(&["update"]);
    assert_eq!(status_of(&out, "CLAUDE.md"), "replaced");
    assert_eq!(String::from_utf8(bytes(&repo, "CLAUDE.md")).unwrap(), edited);
}

#[test]
fn broken_markers_are_errors_with_their_lines_and_repair_fixes_them() {
    let lone_begin = format!("a\n{BEGIN}\nb\n");
    let end_first = format!("a\n{END}\nb\n{BEGIN}\nc\n{END}\n");
    let two_begins = format!("{BEGIN}\nx\n{BEGIN}\ny\n{END}\n");
    let split = "top\n<!-- BEGIN CTX MANAGED\nSECTION v1 -->\nold\n<!-- END CTX MANAGED SECTION -->\nmine\n"
        .to_string();
    let cases = [
        (lone_begin, "AGENTS.md: line 2: a BEGIN marker without an END"),
        (end_first, "AGENTS.md: line 2: an END marker without a BEGIN"),
        (two_begins, "AGENTS.md: lines 1, 3: two BEGIN markers"),
        (split, "AGENTS.md: lines 2, 3: a broken BEGIN marker (split across lines"),
    ];
    for (text, says) in cases {
        let repo = Repo::with_files(TREE);
        repo.ok(&["init", "--no-agents", "--no-build"]);
        repo.write("AGENTS.md", &text);
        let err = repo.fail(&["update"]);
        assert!(err.contains(says), "{says:?} not in {err}");
        assert!(err.contains("nothing was written"), "{err}");
        assert_eq!(bytes(&repo, "AGENTS.md"), text.as_bytes(), "the file is untouched");
        assert!(!repo.path("CLAUDE.md").exists(), "no file is written when one is broken");
        let out = repo.run(&["--json", "update", "--check"]);
        assert_eq!(out.status.code(), Some(1));
        let error: Value = serde_json::from_slice(&out.stderr).unwrap();
        assert_eq!(error["error"]["code"], "MANAGED_SECTION_BROKEN");

        let repaired = repo.json(&["update", "--repair"]);
        let file = &repaired["files"][0];
        assert_eq!(file["status"], "repaired", "{repaired}");
        assert!(!file["repairs"].as_array().unwrap().is_empty());
        let after = String::from_utf8(bytes(&repo, "AGENTS.md")).unwrap();
        assert_eq!(after.matches(BEGIN).count(), 1, "{after}");
        assert_eq!(after.matches(END).count(), 1, "{after}");
        // Every line of user text outside the pairs is still there.
        for line in text.lines().filter(|l| ["a", "b", "top", "mine"].contains(l)) {
            assert!(after.lines().any(|l| l == line), "{line} lost: {after}");
        }
        assert!(repo.ok(&["update"]).starts_with("AGENTS.md: unchanged"));
    }
}

#[test]
fn a_section_of_an_older_version_is_upgraded_and_a_newer_one_refused() {
    let repo = Repo::with_files(TREE);
    repo.ok(&["init", "--no-agents", "--no-build"]);
    let old = "# Mine\n\n<!-- BEGIN CTX MANAGED SECTION v0 -->\nctx v0 said this\n<!-- END CTX MANAGED SECTION -->\n\nAfter.\n";
    repo.write("AGENTS.md", old);
    let check = repo.run(&["--json", "update", "--check"]);
    assert_eq!(check.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(status_of(&report, "AGENTS.md"), "out_of_date");
    assert_eq!(report["files"][0]["from_version"], 0);
    assert_eq!(bytes(&repo, "AGENTS.md"), old.as_bytes());

    let out = repo.ok(&["update"]);
    assert!(out.lines().any(|l| l == "AGENTS.md: v0 -> v1"), "{out}");
    let text = String::from_utf8(bytes(&repo, "AGENTS.md")).unwrap();
    assert!(
        text.starts_with(&format!("# Mine\n\n{BEGIN}\n")) && text.ends_with(&format!("{END}\n\nAfter.\n"))
    );
    assert!(!text.contains("ctx v0 said this"));

    let newer = text.replace("SECTION v1 -->", "SECTION v9 -->");
    repo.write("AGENTS.md", &newer);
    let err = repo.fail(&["update"]);
    assert!(err.contains("AGENTS.md: line 3: its ctx section is v9, written by a newer ctx"), "{err}");
    assert_eq!(bytes(&repo, "AGENTS.md"), newer.as_bytes());
}

#[test]
fn check_exits_1_when_anything_is_missing_or_old_and_writes_nothing_not_even_a_database() {
    let repo = Repo::with_files(TREE);
    repo.ok(&["init"]);
    assert_eq!(repo.run(&["update", "--check"]).status.code(), Some(0));
    // A fresh clone: no database, no map.
    repo.remove(".ctx/ctx.db");
    repo.remove(".ctx/map.md");
    let out = repo.run(&["update", "--check"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!repo.path(".ctx/ctx.db").exists(), "a check made a database");

    repo.remove("CLAUDE.md");
    repo.write(
        ".ctx/runloop.md",
        &include_str!("../../crates/ctx-core/defaults/runloop.md").replace('\n', "\r\n"),
    );
    let out = repo.run(&["update", "--check"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().any(|l| l == "CLAUDE.md: missing"), "{text}");
    assert!(text.lines().any(|l| l == ".ctx/runloop.md: unchanged"), "CRLF is the same text: {text}");
    assert!(!repo.path("CLAUDE.md").exists() && !repo.path(".ctx/ctx.db").exists());

    // Outside a workspace: told to run `ctx init`.
    let bare = Repo::with_files(TREE);
    assert!(bare.fail(&["update", "--check"]).contains("run `ctx init`"));
    assert!(bare.fail(&["update"]).contains("run `ctx init`"));
}

#[test]
fn a_claude_md_that_imports_agents_md_is_not_told_the_guide_twice() {
    // yarl's CLAUDE.md: `@AGENTS.md` among its imports.
    let repo = Repo::with_files(
        "//- CLAUDE.md\n@~/.claude/context.md\n@AGENTS.md\n//- AGENTS.md\n# Notes\n//- src/lib.py\ndef f():\n    pass\n",
    );
    repo.ok(&["init", "--no-build"]);
    let claude_md = String::from_utf8(bytes(&repo, "CLAUDE.md")).unwrap();
    let agents_md = String::from_utf8(bytes(&repo, "AGENTS.md")).unwrap();
    assert!(agents_md.contains("ctx rank --query"), "{agents_md}");
    assert!(!claude_md.contains("ctx rank --query"), "the guide comes from AGENTS.md:\n{claude_md}");
    assert!(claude_md.contains("\n@.ctx/map.md\n@.ctx/constitution.md\n"), "{claude_md}");
    assert_eq!(repo.run(&["update", "--check"]).status.code(), Some(0));
    // Without the import, the whole guide again.
    repo.write("CLAUDE.md", "@~/.claude/context.md\n");
    repo.ok(&["update"]);
    assert!(String::from_utf8(bytes(&repo, "CLAUDE.md")).unwrap().contains("ctx rank --query"));
}

#[test]
fn agents_md_says_how_to_build_and_test_and_a_changed_script_makes_it_stale() {
    let repo = Repo::with_files(
        r#"
//- package.json
{"name": "shop", "scripts": {"test": "vitest run", "lint": "eslint ."}, "devDependencies": {"vitest": "1"}}
//- src/index.js
export function sign() {}
"#,
    );
    repo.ok(&["init", "--no-build"]);
    let agents_md = String::from_utf8(bytes(&repo, "AGENTS.md")).unwrap();
    for says in ["- test: `npm run test`\n", "- lint: `npm run lint`\n", "Stack: Node.js (package.json)"] {
        assert!(agents_md.contains(says), "AGENTS.md does not say {says:?}:\n{agents_md}");
    }
    // CLAUDE.md imports `.ctx/map.md`, which has them.
    let claude_md = String::from_utf8(bytes(&repo, "CLAUDE.md")).unwrap();
    assert!(!claude_md.contains("npm run test") && claude_md.contains("@.ctx/map.md"), "{claude_md}");
    assert_eq!(repo.run(&["update", "--check"]).status.code(), Some(0));

    repo.write(
        "package.json",
        r#"{"name": "shop", "scripts": {"test": "vitest run", "build": "tsc -p ."}, "devDependencies": {"vitest": "1"}}"#,
    );
    let check = repo.run(&["update", "--check"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&check.stdout).contains("AGENTS.md: out of date"), "{check:?}");
    repo.ok(&["update"]);
    let agents_md = String::from_utf8(bytes(&repo, "AGENTS.md")).unwrap();
    assert!(
        agents_md.contains("- build: `npm run build`\n") && !agents_md.contains("npm run lint"),
        "{agents_md}"
    );
}

#[test]
fn an_edited_prompt_is_left_alone_and_an_old_shipped_one_upgraded() {
    let repo = Repo::with_files(TREE);
    repo.ok(&["init", "--no-build"]);
    let mine = "# Our constitution\n\nShip small.\n";
    repo.write(".ctx/constitution.md", mine);
    // boot.md as ctx shipped it before (commit 46f56b7), never edited.
    let old_boot = include_str!("../../crates/ctx-core/src/agents/testdata/boot-46f56b7.md");
    repo.write(".ctx/boot.md", old_boot);
    let check = repo.run(&["update", "--check"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&check.stdout).contains(".ctx/boot.md: out of date"));

    let out = repo.ok(&["update"]);
    assert!(out.lines().any(|l| l == ".ctx/constitution.md: edited, left alone"), "{out}");
    assert!(out.lines().any(|l| l == ".ctx/boot.md: upgraded to the current shipped version"), "{out}");
    assert_eq!(std::fs::read_to_string(repo.path(".ctx/constitution.md")).unwrap(), mine);
    let boot = std::fs::read_to_string(repo.path(".ctx/boot.md")).unwrap();
    assert!(boot.contains("ctx rank") && !boot.contains("ctx never rewrites it"));
    assert_eq!(repo.run(&["update", "--check"]).status.code(), Some(0));
}

#[test]
fn the_managed_files_are_configurable_and_stay_inside_the_root() {
    let repo = Repo::with_files(TREE);
    repo.ok(&["init", "--no-agents", "--no-build"]);
    repo.write(
        ".ctx/config.toml",
        "[agents]\nfiles = [\"AGENTS.md\", \".github/copilot-instructions.md\"]\n",
    );
    let out = repo.json(&["update"]);
    assert_eq!(status_of(&out, ".github/copilot-instructions.md"), "created");
    assert!(!repo.path("CLAUDE.md").exists());
    let copilot = std::fs::read_to_string(repo.path(".github/copilot-instructions.md")).unwrap();
    assert!(copilot.contains("ctx rank") && !copilot.contains("@.ctx/map.md"));

    repo.write(".ctx/config.toml", "[agents]\nfiles = [\"../outside.md\"]\n");
    assert!(repo.fail(&["update"]).contains("[agents] files: \"../outside.md\" must be a relative path"));

    // A template override changes the section; a second run keeps it.
    repo.write(".ctx/config.toml", "[agents]\nfiles = [\"AGENTS.md\"]\n");
    repo.write(".ctx/templates/section-agents.md.hbs", "Our own words for {{file}}.\n");
    assert_eq!(status_of(&repo.json(&["update"]), "AGENTS.md"), "replaced");
    assert!(
        std::fs::read_to_string(repo.path("AGENTS.md")).unwrap().contains("\nOur own words for AGENTS.md.\n")
    );
    repo.write(".ctx/templates/section-agents.md.hbs", "<!-- END CTX MANAGED SECTION -->\n");
    assert!(repo.fail(&["update"]).contains("would be read as a ctx section marker"));
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_root_is_not_written_and_a_link_between_the_files_is_kept() {
    let repo = Repo::with_files(TREE);
    repo.ok(&["init", "--no-agents", "--no-build"]);
    std::os::unix::fs::symlink("AGENTS.md", repo.path("CLAUDE.md")).unwrap();
    repo.write("AGENTS.md", "# Shared\n");
    let out = repo.json(&["update"]);
    assert_eq!(status_of(&out, "CLAUDE.md"), "linked");
    assert!(std::fs::symlink_metadata(repo.path("CLAUDE.md")).unwrap().file_type().is_symlink());

    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("x.md"), "theirs\n").unwrap();
    std::fs::remove_file(repo.path("CLAUDE.md")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("x.md"), repo.path("CLAUDE.md")).unwrap();
    assert!(repo.fail(&["update"]).contains("outside the workspace root"));
    assert_eq!(std::fs::read_to_string(outside.path().join("x.md")).unwrap(), "theirs\n");
}

#[test]
fn init_warns_when_git_ignores_what_agents_find_ctx_through() {
    let repo = Repo::with_files(TREE);
    repo.git(&["init", "--quiet"]);
    repo.write(".gitignore", "CLAUDE.md\n.ctx/\n");
    let out = repo.run(&["init"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warning = stderr.lines().find(|l| l.starts_with("ctx: warning: git ignores")).unwrap_or_default();
    assert!(warning.contains("CLAUDE.md, .ctx/:"), "{stderr}");
    assert!(!warning.contains("AGENTS.md"), "{stderr}");
    // Nothing ignored, or no repository at all: no warning.
    for setup in [Some(""), None] {
        let repo = Repo::with_files(TREE);
        if let Some(ignore) = setup {
            repo.git(&["init", "--quiet"]);
            repo.write(".gitignore", ignore);
        }
        let out = repo.run(&["init"]);
        assert!(out.status.success());
        assert!(!String::from_utf8_lossy(&out.stderr).contains("git ignores"), "{setup:?}");
    }
}

/// `agent` (holding ctx's section) with `own` written above the section, the
/// tree scanned and built: the context file `context` then.
fn with_own_text(repo: &Repo, agent: &str, own: &str, context: &str) -> String {
    let section = String::from_utf8(bytes(repo, agent)).unwrap();
    assert!(section.contains(BEGIN), "{section}");
    repo.write(agent, &format!("{own}\n\n{section}"));
    repo.ok(&["scan"]);
    repo.ok(&["build"]);
    std::fs::read_to_string(repo.path(&format!(".ctx/context/{context}"))).unwrap()
}

#[test]
fn the_root_context_lists_an_agent_file_only_for_what_is_outside_ctx_s_section() {
    let repo = Repo::with_files(TREE);
    repo.ok(&["init"]);
    let made = std::fs::read_to_string(repo.path(".ctx/context/_root.standard.md")).unwrap();
    assert!(!made.contains("AGENTS.md") && !made.contains("CLAUDE.md"), "ctx's own files listed:\n{made}");
    // The project's own words in it make it one of the project's files again.
    let theirs = with_own_text(&repo, "AGENTS.md", "Run the linter before each commit.", "_root.standard.md");
    assert!(theirs.contains("`AGENTS.md`: Run the linter before each commit."), "{theirs}");
    assert!(!theirs.contains("CLAUDE.md"), "{theirs}");
    // A list of rules is the project's own words too, though it makes no summary.
    let theirs = with_own_text(&repo, "CLAUDE.md", "- Never push to main.", "_root.standard.md");
    assert!(theirs.contains("`CLAUDE.md`"), "{theirs}");
}

#[test]
fn an_agent_file_of_the_config_is_listed_only_for_what_is_outside_ctx_s_section() {
    let repo = Repo::with_files(TREE);
    repo.write("docs/usage.md", "# Usage\n\nCall `sign()` before sending.\n");
    repo.ok(&["init"]);
    repo.write(".ctx/config.toml", "[agents]\nfiles = [\"AGENTS.md\", \"docs/AGENT-NOTES.md\"]\n");
    repo.ok(&["update"]);
    repo.ok(&["build"]);
    let made = std::fs::read_to_string(repo.path(".ctx/context/docs.standard.md")).unwrap();
    assert!(made.contains("usage.md") && !made.contains("AGENT-NOTES.md"), "ctx's own file listed:\n{made}");
    let theirs =
        with_own_text(&repo, "docs/AGENT-NOTES.md", "Sign every release by hand.", "docs.standard.md");
    assert!(theirs.contains("`AGENT-NOTES.md`: Sign every release by hand."), "{theirs}");
}
