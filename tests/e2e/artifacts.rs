//! `ctx artifact`: planning documents, agent operations, their errors in the
//! seed's JSON shape, history and restore, staleness, and two processes
//! applying operations to one artifact at once.

use serde_json::Value;

use crate::util::Repo;

const CONCEPT: &str = "---\nstatus: \"Draft\"\nstage: \"design\"\n---\n\n# Project Concept: ACK\n\n## What Is It?\n\nACK (Agent Context Kit) is a planning layer.\n\n```sh\n# a comment, not a heading\n```\n\n## Problem Being Solved\n\n## Core Features\n\n- sections\n";

fn repo() -> Repo {
    let repo = Repo::init_without_agents("//- src/lib.rs\npub fn f() {}\n");
    repo.write("docs/concept.md", CONCEPT);
    repo.ok(&["artifact", "add", "docs/concept.md"]);
    repo
}

/// `ctx [--json] artifact apply -` with `op` on stdin.
fn apply(repo: &Repo, json: bool, op: &str, extra: &[&str]) -> std::process::Output {
    let mut args = if json { vec!["--json"] } else { vec![] };
    args.extend(["artifact", "apply", "-"]);
    args.extend_from_slice(extra);
    let op = op.to_string();
    repo.run_fed(&args, move |stdin| stdin.write_all(op.as_bytes()))
}

fn applied(repo: &Repo, op: &str) -> Value {
    let out = apply(repo, true, op, &[]);
    assert!(out.status.success(), "{op}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The error object `--json` printed (one line on stderr, exit 1).
fn refused(repo: &Repo, op: &str, extra: &[&str]) -> Value {
    let out = apply(repo, true, op, extra);
    assert_eq!(out.status.code(), Some(1), "{op}: {}", String::from_utf8_lossy(&out.stdout));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    serde_json::from_str(&stderr).unwrap()
}

#[test]
fn add_list_show_and_project() {
    let repo = repo();
    let list = repo.json(&["artifact", "list"]);
    assert_eq!(list[0]["slug"], "concept");
    assert_eq!(list[0]["sections_total"], 4);
    let view = repo.json(&["artifact", "show", "concept"]);
    for key in [
        "id",
        "name",
        "slug",
        "stage",
        "status",
        "sections",
        "sections_complete",
        "sections_total",
        "updated_at",
        "generated_at",
        "state_hash",
    ] {
        assert!(view.get(key).is_some(), "{key}: {view}");
    }
    assert_eq!(view["status"], "draft");
    assert_eq!(view["sections"][1]["slug"], "what-is-it");
    assert_eq!(view["sections"][1]["title"], "What Is It?");
    assert_eq!(
        view["sections"][1]["preview"],
        "ACK (Agent Context Kit) is a planning layer. ```sh # a comment, not a heading ```"
    );
    assert_eq!(view["sections"][2]["preview"], Value::Null);
    assert!(view.get("content").is_none());
    let full = repo.json(&["artifact", "show", "concept", "--content", "--section", "core-features"]);
    assert_eq!(full["content"], CONCEPT);
    assert_eq!(full["sections"][3]["content"], "\n- sections\n");
    let text = repo.ok(&["artifact", "show", "concept"]);
    assert!(text.contains("[ ]   What Is It? (what-is-it)"), "{text}");

    repo.write("docs/research.md", "# Research\n\n## Competitive Analysis\n");
    repo.ok(&["artifact", "add", "docs/research.md", "--stage", "design"]);
    applied(
        &repo,
        r#"{"operation": "mark_section_done", "artifact_slug": "research", "section_slug": "competitive-analysis"}"#,
    );
    repo.ok(&["artifact", "finalize", "research"]);
    let project = repo.json(&["artifact", "project"]);
    assert_eq!(project["current_stage"], "discovery");
    assert_eq!(project["stages"]["design"]["artifacts_finalized"], 1);
    assert_eq!(project["stages"]["design"]["progress_pct"], 50.0);
    assert_eq!(project["stages"]["discovery"]["sections_total"], 4);
    let text = repo.ok(&["artifact", "project"]);
    assert!(text.contains("current stage: discovery"), "{text}");
}

#[test]
fn operations_change_only_their_section() {
    let repo = repo();
    let result = applied(
        &repo,
        r#"{"operation": "update_section", "artifact_slug": "concept", "section_slug": "problem-being-solved",
            "content": "Agents lose context between sessions.", "reason": "Clarified"}"#,
    );
    assert_eq!(result["operation"], "update_section");
    assert!(result["operation_id"].as_str().unwrap().starts_with("O-"));
    let text = std::fs::read_to_string(repo.path("docs/concept.md")).unwrap();
    assert_eq!(
        text,
        CONCEPT.replace(
            "## Problem Being Solved\n\n",
            "## Problem Being Solved\n\nAgents lose context between sessions.\n\n"
        )
    );
    // From a file, in text mode.
    repo.write(
        "op.json",
        r#"{"operation": "create_section", "artifact_slug": "concept", "after_section": "core-features", "title": "Technical Requirements", "content": "Rust.", "order": 4}"#,
    );
    let out = repo.ok(&["artifact", "apply", "op.json"]);
    assert!(out.contains("create_section @concept#technical-requirements"), "{out}");
    assert!(
        std::fs::read_to_string(repo.path("docs/concept.md"))
            .unwrap()
            .ends_with("- sections\n\n## Technical Requirements\n\nRust.\n")
    );
    let done = applied(
        &repo,
        r#"{"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "what-is-it", "is_done": true}"#,
    );
    assert_eq!(done["artifact"]["sections_complete"], 1);
    assert_eq!(done["artifact"]["sections"][1]["is_done"], true);
    let committed = std::fs::read_to_string(repo.path(".ctx/knowledge/artifacts/concept.md")).unwrap();
    assert!(committed.contains("done = true"), "{committed}");
    repo.ok(&["artifact", "collapse", "concept", "core-features"]);
    assert_eq!(repo.json(&["artifact", "show", "concept"])["sections"][3]["is_collapsed"], true);
}

#[test]
fn errors_are_the_seeds_objects() {
    let repo = repo();
    let err = refused(
        &repo,
        r#"{"operation": "update_section", "artifact_slug": "concept", "section_slug": "xyz-problem", "content": "x"}"#,
        &[],
    );
    assert_eq!(err["error"], "SECTION_NOT_FOUND");
    assert_eq!(err["message"], "Section 'xyz-problem' not found in artifact 'concept'");
    assert_eq!(err["suggestions"], serde_json::json!(["problem-being-solved"]));
    let err = refused(
        &repo,
        r#"{"operation": "mark_section_done", "artifact_slug": "concpt", "section_slug": "x"}"#,
        &[],
    );
    assert_eq!(err["error"], "ARTIFACT_NOT_FOUND");
    assert_eq!(err["suggestions"][0], "concept");
    let err = refused(&repo, r#"{"operation": "rename_section", "artifact_slug": "concept"}"#, &[]);
    assert_eq!(err["error"], "INVALID_OPERATION");
    let err = refused(
        &repo,
        r###"{"operation": "update_section", "artifact_slug": "concept", "section_slug": "what-is-it", "content": "## Split\n"}"###,
        &[],
    );
    assert_eq!(err["error"], "INVALID_OPERATION");
    assert!(err["message"].as_str().unwrap().contains("split"), "{err}");
    let err = repo.fail(&["--json", "artifact", "show", "concept", "--section", "nope"]);
    assert_eq!(serde_json::from_str::<Value>(&err).unwrap()["error"], "SECTION_NOT_FOUND");
    repo.write(".ctx/config.toml", "[artifacts]\nmax_content_bytes = 20\n");
    let err = repo.fail(&["--json", "artifact", "show", "concept", "--content"]);
    let err: Value = serde_json::from_str(&err).unwrap();
    assert_eq!(err["error"], "CONTEXT_TOO_LARGE");
    assert!(err["action"].is_string());
    // Text mode: one line, with the closest slugs.
    let out = apply(
        &repo,
        false,
        r#"{"operation": "update_section", "artifact_slug": "concept", "section_slug": "what-is", "content": "x"}"#,
        &[],
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(
            "ctx: error: Section 'what-is' not found in artifact 'concept' (did you mean: what-is-it?)"
        ),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(repo.path("docs/concept.md")).unwrap(),
        CONCEPT,
        "nothing was written"
    );
}

#[test]
fn a_finalized_artifact_needs_the_override() {
    let repo = repo();
    repo.ok(&["artifact", "finalize", "concept"]);
    let op = r#"{"operation": "update_section", "artifact_slug": "concept", "section_slug": "what-is-it", "content": "Final words."}"#;
    let err = refused(&repo, op, &[]);
    assert_eq!(err["error"], "ARTIFACT_FINALIZED");
    assert_eq!(err["message"], "Cannot modify finalized artifact 'concept'");
    assert!(err["action"].as_str().unwrap().contains("un-finalize"));
    let out = apply(&repo, true, op, &["--override-finalized"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read_to_string(repo.path("docs/concept.md")).unwrap().contains("Final words."));
    repo.ok(&["artifact", "unfinalize", "concept"]);
    applied(&repo, &op.replace("Final words.", "Draft words."));
}

#[test]
fn suggestions_history_and_restore() {
    let repo = repo();
    let suggested = applied(
        &repo,
        r#"{"operation": "suggest_edit", "artifact_slug": "concept", "section_slug": "core-features",
            "suggestion": "Add comparison of pricing models", "rationale": "User asked about pricing validation",
            "content": "- sections\n- pricing"}"#,
    );
    let id = suggested["suggestion_id"].as_str().unwrap().to_string();
    assert_eq!(std::fs::read_to_string(repo.path("docs/concept.md")).unwrap(), CONCEPT);
    let list = repo.json(&["artifact", "suggestions", "concept"]);
    assert_eq!(list[0]["status"], "pending");
    let accepted = repo.json(&["artifact", "accept", &id]);
    assert_eq!(accepted["status"], "accepted");
    assert!(std::fs::read_to_string(repo.path("docs/concept.md")).unwrap().contains("- pricing"));
    let other = applied(
        &repo,
        r#"{"operation": "suggest_edit", "artifact_slug": "concept", "section_slug": "what-is-it", "suggestion": "Shorter"}"#,
    );
    let rejected =
        repo.json(&["artifact", "reject", other["suggestion_id"].as_str().unwrap(), "--reason", "no"]);
    assert_eq!(rejected["status"], "rejected");

    let history = repo.json(&["artifact", "history", "concept"]);
    assert_eq!(history["operations"][0]["operation"], "update_section");
    let snapshot = history["snapshots"][0]["id"].as_str().unwrap().to_string();
    let restored = repo.json(&["artifact", "restore", "concept", &snapshot]);
    assert_eq!(restored["operation"], "restore");
    assert_eq!(std::fs::read_to_string(repo.path("docs/concept.md")).unwrap(), CONCEPT);
    let text = repo.ok(&["artifact", "history", "concept"]);
    assert!(text.contains("restore"), "{text}");
    let err = repo.fail(&["--json", "artifact", "restore", "concept", "S-000000000000"]);
    assert_eq!(serde_json::from_str::<Value>(&err).unwrap()["error"], "SNAPSHOT_NOT_FOUND");
}

#[test]
fn a_view_goes_stale_when_the_artifact_changes_or_ages() {
    let repo = repo();
    let view = repo.json(&["artifact", "show", "concept"]);
    let hash = view["state_hash"].as_str().unwrap().to_string();
    let fresh = repo.json(&["artifact", "check", "concept", "--hash", &hash]);
    assert_eq!(fresh["fresh"], true);
    assert_eq!(fresh["max_age_seconds"], 300);
    // Older than the limit: exit 1, and why.
    let out = repo.run(&[
        "--json",
        "artifact",
        "check",
        "concept",
        "--hash",
        &hash,
        "--at",
        "2020-01-01T00:00:00Z",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let old: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((old["too_old"].as_bool(), old["matches"].as_bool()), (Some(true), Some(true)));
    let out = repo.run(&[
        "--json",
        "artifact",
        "check",
        "concept",
        "--hash",
        &hash,
        "--at",
        "2020-01-01T00:00:00Z",
        "--max-age",
        "100000d",
    ]);
    assert!(out.status.success());
    // A person adds a section with their editor: the view no longer matches, and ctx says how.
    repo.write("docs/concept.md", &format!("{CONCEPT}\n## Open Questions\n"));
    let out = repo.run(&["artifact", "check", "concept", "--hash", &hash]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("sections_total 4 -> 5") && text.contains("open-questions was added"), "{text}");
}

#[test]
fn two_processes_applying_at_once_lose_no_update() {
    let repo = repo();
    let sections = ["what-is-it", "problem-being-solved", "core-features"];
    for round in 0..3 {
        for section in sections {
            repo.write(
                &format!("ops/{section}-{round}.json"),
                &format!(
                    r#"{{"operation": "update_section", "artifact_slug": "concept", "section_slug": "{section}", "content": "{section} by process, round {round}"}}"#
                ),
            );
        }
    }
    for round in 0..3 {
        let children: Vec<_> = sections
            .iter()
            .map(|section| {
                repo.spawn(&["--json", "artifact", "apply", &format!("ops/{section}-{round}.json")])
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            // Each is applied (in some order), or refused with a clear error; never half.
            if !out.status.success() {
                let err: Value = serde_json::from_slice(&out.stderr).unwrap();
                assert_eq!(err["error"], "ARTIFACT_CHANGED", "{err}");
            }
        }
    }
    let text = std::fs::read_to_string(repo.path("docs/concept.md")).unwrap();
    for section in sections {
        assert!(text.contains(&format!("{section} by process, round 2")), "{section} lost:\n{text}");
    }
    let view = repo.json(&["artifact", "show", "concept"]);
    assert_eq!(view["sections_total"], 4, "no section was split or lost");
    assert!(text.starts_with("---\nstatus: \"Draft\"\nstage: \"design\"\n---\n\n# Project Concept: ACK\n"));
    assert_eq!(repo.json(&["artifact", "history", "concept"])["operations"].as_array().unwrap().len(), 9);
    // No temp file was left beside it.
    let left: Vec<String> = std::fs::read_dir(repo.path("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["concept.md"]);
}

#[test]
fn a_fresh_clone_gets_the_state_back_from_the_knowledge_files() {
    let repo = repo();
    applied(
        &repo,
        r#"{"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "core-features"}"#,
    );
    repo.ok(&["artifact", "stage", "concept", "design"]);
    let before = repo.json(&["artifact", "show", "concept"]);
    for name in ["ctx.db", "ctx.db-wal", "ctx.db-shm"] {
        let _ = std::fs::remove_file(repo.path(".ctx").join(name));
    }
    repo.ok(&["scan"]);
    let after = repo.json(&["artifact", "show", "concept"]);
    assert_eq!(after["state_hash"], before["state_hash"]);
    assert_eq!(after["stage"], "design");
    repo.ok(&["artifact", "remove", "concept"]);
    assert_eq!(repo.json(&["artifact", "list"]), serde_json::json!([]));
    assert!(repo.path("docs/concept.md").exists());
}

/// The concept, a research note with an Overview of its own, and `ctx record add` turns.
fn agent_repo() -> Repo {
    let repo = repo();
    repo.write(
        "docs/research.md",
        "# Research\n\n## Overview\n\nThe market.\n\n## Competitive Analysis\n\nCursor. <!-- private: check with legal -->\n",
    );
    repo.write("docs/concept.md", &format!("{CONCEPT}\n## Overview\n\nIn short.\n"));
    repo.ok(&["artifact", "add", "docs/research.md"]);
    repo.ok(&[
        "record",
        "add",
        "--type",
        "query",
        "--text",
        "what is ACK for?",
        "--session",
        "S1",
        "--role",
        "user",
    ]);
    repo
}

#[test]
fn context_levels_in_json_and_markdown() {
    let repo = agent_repo();
    let minimal = repo.json(&["artifact", "context", "concept", "--level", "minimal"]);
    for key in ["project", "currentArtifact", "relatedArtifacts", "chatHistory", "systemState"] {
        assert!(minimal.get(key).is_some(), "{key}: {minimal}");
    }
    // `show --level` is the same context.
    let shown = repo.json(&["artifact", "show", "concept", "--level", "minimal"]);
    assert_eq!(shown["currentArtifact"], minimal["currentArtifact"]);
    assert_eq!(shown["systemState"]["level"], "minimal");
    assert_eq!(minimal["project"]["current_stage"], "discovery");
    assert_eq!(minimal["currentArtifact"]["sections"][1]["slug"], "what-is-it");
    assert_eq!(minimal["currentArtifact"]["sections"][1]["preview"], Value::Null);
    assert_eq!(minimal["chatHistory"], serde_json::json!([]));
    let state = &minimal["systemState"];
    assert_eq!(state["level"], "minimal");
    assert_eq!(state["tokens"]["allocation"]["current_artifact"], 10000);
    // The context's state hash is the artifact's: `check` takes it.
    let hash = state["state_hash"].as_str().unwrap();
    repo.ok(&["artifact", "check", "concept", "--hash", hash]);

    let standard = repo.json(&[
        "artifact",
        "context",
        "concept",
        "--message",
        "fix the competitive analysis in research.md",
    ]);
    assert_eq!(standard["systemState"]["target"]["outcome"], "resolved");
    let research = &standard["relatedArtifacts"][0];
    assert_eq!(
        (research["slug"].as_str(), research["relation"].as_str()),
        (Some("research"), Some("referenced"))
    );
    assert_eq!(research["sections"][2]["content"], "Cursor.");
    assert_eq!(standard["chatHistory"][0]["content"], "what is ACK for?");

    let full = repo.json(&["artifact", "context", "concept", "--level", "full", "--tokens", "400"]);
    let content = full["currentArtifact"]["content"].as_str().unwrap();
    assert!(content.starts_with("---"), "{content}");
    assert!(full["systemState"]["tokens"]["used"]["total"].as_u64().unwrap() <= 400);
    let text = repo.ok(&["artifact", "context", "concept", "--section", "what-is-it"]);
    assert!(text.contains("## Current artifact: concept.md (`concept`, draft, 0/5 sections done)"), "{text}");
    assert!(text.contains("ACK (Agent Context Kit) is a planning layer."));

    let err: Value =
        serde_json::from_str(&repo.fail(&["--json", "artifact", "context", "concept", "--tokens", "5"]))
            .unwrap();
    assert_eq!(err["error"], "CONTEXT_TOO_LARGE");
    assert!(err["action"].is_string());
    let err: Value =
        serde_json::from_str(&repo.fail(&["--json", "artifact", "context", "concept", "--section", "xyz"]))
            .unwrap();
    assert_eq!(err["error"], "SECTION_NOT_FOUND");
}

#[test]
fn use_and_resolve() {
    let repo = agent_repo();
    assert_eq!(repo.ok(&["artifact", "use"]).trim(), "no current artifact");
    let resolved = repo.json(&["artifact", "resolve", "@concept#what-is-it update the definition"]);
    assert_eq!(resolved["outcome"], "resolved");
    assert_eq!(
        (resolved["artifact"].as_str(), resolved["section"].as_str()),
        (Some("concept"), Some("what-is-it"))
    );
    assert_eq!(resolved["rest"], "update the definition");
    assert_eq!(resolved["confidence"], 1.0);
    assert_eq!(resolved["artifact_match"], "explicit");

    let err: Value =
        serde_json::from_str(&repo.fail(&["--json", "artifact", "resolve", "update the overview"])).unwrap();
    assert_eq!(err["error"], "AMBIGUOUS_TARGET");
    assert_eq!(err["candidates"].as_array().unwrap().len(), 2);
    let err: Value =
        serde_json::from_str(&repo.fail(&["--json", "artifact", "resolve", "@reserch fix it"])).unwrap();
    assert_eq!(err["error"], "ARTIFACT_NOT_FOUND");
    assert_eq!(err["suggestions"][0], "research");
    let err: Value =
        serde_json::from_str(&repo.fail(&["--json", "artifact", "resolve", "@concept#xyz"])).unwrap();
    assert_eq!(err["error"], "SECTION_NOT_FOUND");
    assert!(repo.fail(&["artifact", "resolve", "update the overview"]).contains("@concept#overview"));

    repo.ok(&["artifact", "use", "research"]);
    assert_eq!(repo.json(&["artifact", "use"])["current"], "research");
    let resolved = repo.json(&["artifact", "resolve", "#overview add numbers"]);
    assert_eq!(
        (resolved["artifact"].as_str(), resolved["artifact_match"].as_str()),
        (Some("research"), Some("current"))
    );
    let text = repo.ok(&["artifact", "resolve", "update the problem section"]);
    assert!(text.contains("did you mean problem-being-solved in concept?"), "{text}");
    let context = repo.json(&["artifact", "context", "--level", "minimal"]);
    assert_eq!(context["currentArtifact"]["slug"], "research");
    repo.ok(&["artifact", "use", "--clear"]);
    assert_eq!(repo.json(&["artifact", "use"])["current"], Value::Null);
    let err: Value = serde_json::from_str(&repo.fail(&["--json", "artifact", "use", "nope"])).unwrap();
    assert_eq!(err["error"], "ARTIFACT_NOT_FOUND");
}

#[test]
fn chat_and_research_prompts() {
    let repo = agent_repo();
    let chat = repo.ok(&["artifact", "prompt", "chat", "concept", "--message", "sharpen the problem"]);
    assert!(chat.contains("Project: "), "{chat}");
    assert!(chat.contains("- [ ] Problem Being Solved (problem-being-solved)"), "{chat}");
    assert!(chat.trim_end().ends_with("sharpen the problem"));
    let research = repo.json(&[
        "artifact",
        "prompt",
        "research",
        "--query",
        "pricing for @research#competitive-analysis",
    ]);
    assert_eq!(
        (research["artifact"].as_str(), research["section"].as_str()),
        (Some("research"), Some("competitive-analysis"))
    );
    let text = research["text"].as_str().unwrap();
    assert!(text.contains("\"section_slug\": \"competitive-analysis\"") && !text.contains("legal"), "{text}");
    let err: Value = serde_json::from_str(&repo.fail(&[
        "--json",
        "artifact",
        "prompt",
        "research",
        "concept",
        "--query",
        "pricing",
        "--section",
        "nope",
    ]))
    .unwrap();
    assert_eq!(err["error"], "SECTION_NOT_FOUND");

    repo.write(
        ".ctx/templates/artifact-research.md.hbs",
        "RESEARCH {{researchQuery}} -> {{currentArtifact.slug}}#{{targetSection}}\n",
    );
    let text = repo.ok(&[
        "artifact",
        "prompt",
        "research",
        "research",
        "--query",
        "pricing",
        "--section",
        "overview",
    ]);
    assert_eq!(text, "RESEARCH pricing -> research#overview\n");
}
