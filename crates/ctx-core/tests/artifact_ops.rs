//! The artifact operations through a [`Workspace`]: every operation, every
//! error, finalized artifacts with and without the override, snapshots and
//! restore, the committed state rebuilding the database, and two
//! workspaces applying at once.

use ctxkeep_core::artifact::*;
use ctxkeep_core::*;

const CONCEPT: &str = "---\r\nstatus: \"Draft\"\r\n---\r\n\r\n# Project Concept: ACK\r\n\r\n## What Is It?\r\n\r\nACK is a planning layer.\r\n\r\n```md\r\n## not a section\r\n```\r\n\r\n## Problem Being Solved\r\n\r\n## Core Features\r\n\r\n- one\r\n";

fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("docs")).unwrap();
    std::fs::write(dir.path().join("docs/concept.md"), CONCEPT).unwrap();
    let (mut ws, _) = Workspace::init(dir.path()).unwrap();
    ws.add_artifact(&NewArtifact { path: "docs/concept.md".into(), ..Default::default() }).unwrap();
    (dir, ws)
}

fn apply(ws: &mut Workspace, json: &str) -> ctxkeep_core::Result<OperationResult> {
    ws.apply_operation(&parse_operation(json)?)
}

fn artifact_error(err: ctxkeep_core::Error) -> ArtifactError {
    match err {
        ctxkeep_core::Error::Artifact(err) => *err,
        other => panic!("not an artifact error: {other}"),
    }
}

fn file(dir: &tempfile::TempDir) -> String {
    std::fs::read_to_string(dir.path().join("docs/concept.md")).unwrap()
}

#[test]
fn added_artifact_has_the_seeds_sections() {
    let (_dir, mut ws) = workspace();
    let view = ws.artifact("concept", &ViewOptions::default()).unwrap();
    let slugs: Vec<&str> = view.sections.iter().map(|s| s.slug.as_str()).collect();
    assert_eq!(slugs, ["project-concept-ack", "what-is-it", "problem-being-solved", "core-features"]);
    assert_eq!(
        (view.name.as_str(), view.stage.as_str(), view.status),
        ("concept.md", "discovery", ArtifactStatus::Draft)
    );
    assert_eq!(
        view.sections[1].preview.as_deref(),
        Some("ACK is a planning layer. ```md ## not a section ```")
    );
    assert_eq!(view.sections[2].preview, None);
    assert_eq!(view.state_hash.len(), 16);
    assert!(view.content.is_none());
    let full =
        ws.artifact("concept", &ViewOptions { content: true, sections: vec!["what-is-it".into()] }).unwrap();
    assert_eq!(full.content.as_deref(), Some(CONCEPT));
    assert!(full.sections[1].content.as_deref().unwrap().contains("planning layer"));
    assert_eq!(full.state_hash, view.state_hash, "what is shown, not how much of it");
}

#[test]
fn update_section_rewrites_only_its_bytes() {
    let (dir, mut ws) = workspace();
    let result = apply(
        &mut ws,
        r#"{"operation": "update_section", "artifact_slug": "concept", "section_slug": "problem-being-solved",
            "content": "Agents lose context.\n### Evidence\nsessions", "reason": "from research"}"#,
    )
    .unwrap();
    let expected = CONCEPT.replace(
        "## Problem Being Solved\r\n\r\n",
        "## Problem Being Solved\r\n\r\nAgents lose context.\r\n### Evidence\r\nsessions\r\n\r\n",
    );
    assert_eq!(file(&dir), expected);
    assert_eq!(result.artifact.sections_total, 5, "the subsection is a section now");
    assert!(result.operation_id.unwrap().starts_with("O-"));
    assert!(result.snapshot_id.unwrap().starts_with("S-"));
    let history = ws.artifact_history("concept").unwrap();
    assert_eq!(history.operations[0].reason, "from research");
    assert_eq!(history.operations[0].operation, "update_section");
}

#[test]
fn content_that_would_split_the_section_is_refused() {
    let (dir, mut ws) = workspace();
    let err = apply(
        &mut ws,
        r#"{"operation": "update_section", "artifact_slug": "concept", "section_slug": "what-is-it",
            "content": "text\n## Another level 2\n"}"#,
    )
    .unwrap_err();
    let err = artifact_error(err);
    assert_eq!(err.error, ArtifactErrorCode::InvalidOperation);
    assert!(err.message.contains("split"), "{err}");
    assert_eq!(file(&dir), CONCEPT, "nothing written");
    // A heading inside a fence is content like any other.
    apply(
        &mut ws,
        r#"{"operation": "update_section", "artifact_slug": "concept", "section_slug": "what-is-it",
            "content": "```\n# fenced\n```"}"#,
    )
    .unwrap();
}

#[test]
fn mark_section_done_is_state_not_bytes() {
    let (dir, mut ws) = workspace();
    let result = apply(
        &mut ws,
        r#"{"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "what-is-it", "is_done": true}"#,
    )
    .unwrap();
    assert_eq!(result.artifact.sections_complete, 1);
    assert!(result.replaced.is_none());
    assert_eq!(file(&dir), CONCEPT);
    let knowledge = std::fs::read_to_string(dir.path().join(".ctx/knowledge/artifacts/concept.md")).unwrap();
    assert!(knowledge.contains("slug = \"what-is-it\"\ndone = true"), "{knowledge}");
    let result = apply(
        &mut ws,
        r#"{"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "what-is-it", "is_done": false}"#,
    )
    .unwrap();
    assert_eq!(result.artifact.sections_complete, 0);
}

#[test]
fn create_section_after_a_section_or_at_an_order() {
    let (dir, mut ws) = workspace();
    let result = apply(
        &mut ws,
        r#"{"operation": "create_section", "artifact_slug": "concept", "after_section": "what-is-it",
            "title": "Technical Requirements", "content": "Rust", "order": 1}"#,
    )
    .unwrap();
    assert_eq!(result.section_slug.as_deref(), Some("technical-requirements"));
    let slugs: Vec<String> = result.artifact.sections.iter().map(|s| s.slug.clone()).collect();
    assert_eq!(slugs[2], "technical-requirements");
    assert!(file(&dir).contains("```\r\n\r\n## Technical Requirements\r\n\r\nRust\r\n\r\n## Problem"));
    // At an order: before the section there; past the end: last. A repeated title gets -2.
    let result = apply(
        &mut ws,
        r#"{"operation": "create_section", "artifact_slug": "concept", "order": 1, "title": "What Is It?"}"#,
    )
    .unwrap();
    assert_eq!(
        (result.artifact.sections[1].slug.as_str(), result.artifact.sections[1].level),
        ("what-is-it", 2)
    );
    assert_eq!(result.artifact.sections[2].slug, "what-is-it-2", "slugs follow document order");
    let result = apply(
        &mut ws,
        r#"{"operation": "create_section", "artifact_slug": "concept", "order": 99, "title": "End"}"#,
    )
    .unwrap();
    let last = result.artifact.sections.last().unwrap();
    assert_eq!((last.slug.as_str(), last.level), ("end", 2));
    assert!(file(&dir).ends_with("- one\r\n\r\n## End\r\n"));
    let err = apply(
        &mut ws,
        r#"{"operation": "create_section", "artifact_slug": "concept", "after_section": "nope", "title": "X"}"#,
    )
    .unwrap_err();
    assert_eq!(artifact_error(err).error, ArtifactErrorCode::SectionNotFound);
}

#[test]
fn suggestions_wait_for_a_decision() {
    let (dir, mut ws) = workspace();
    let result = apply(
        &mut ws,
        r#"{"operation": "suggest_edit", "artifact_slug": "concept", "section_slug": "core-features",
            "suggestion": "Add comparison of pricing models", "rationale": "User asked about pricing",
            "content": "- one\n- pricing"}"#,
    )
    .unwrap();
    assert_eq!(file(&dir), CONCEPT, "never applied silently");
    assert_eq!(result.artifact.pending_suggestions, 1);
    let id = result.suggestion_id.unwrap();
    let plain = apply(
        &mut ws,
        r#"{"operation": "suggest_edit", "artifact_slug": "concept", "section_slug": "what-is-it", "suggestion": "Shorter"}"#,
    )
    .unwrap()
    .suggestion_id
    .unwrap();
    let list = ws.artifact_suggestions("concept").unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0].rationale.as_deref(), Some("User asked about pricing"));
    let accepted = ws.accept_suggestion(&id, false).unwrap();
    assert_eq!(accepted.status, "accepted");
    assert!(accepted.operation_id.is_some());
    assert!(file(&dir).contains("- one\r\n- pricing\r\n"));
    let rejected = ws.reject_suggestion(&plain, Some("too terse")).unwrap();
    assert_eq!(
        (rejected.status.as_str(), rejected.decision_reason.as_deref()),
        ("rejected", Some("too terse"))
    );
    let again = artifact_error(ws.accept_suggestion(&plain, false).unwrap_err());
    assert_eq!(again.error, ArtifactErrorCode::InvalidOperation);
    let missing = artifact_error(ws.reject_suggestion("E-000000000000", None).unwrap_err());
    assert_eq!(missing.error, ArtifactErrorCode::SuggestionNotFound);
    assert_eq!(ws.artifact("concept", &ViewOptions::default()).unwrap().pending_suggestions, 0);
}

#[test]
fn a_finalized_artifact_refuses_operations_unless_overridden() {
    let (dir, mut ws) = workspace();
    ws.finalize_artifact("concept", true).unwrap();
    let update = r#"{"operation": "update_section", "artifact_slug": "concept", "section_slug": "what-is-it", "content": "New"}"#;
    let err = artifact_error(apply(&mut ws, update).unwrap_err());
    assert_eq!(err.error, ArtifactErrorCode::ArtifactFinalized);
    assert!(err.action.as_deref().unwrap().contains("un-finalize"));
    assert_eq!(file(&dir), CONCEPT);
    let done =
        r#"{"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "what-is-it"}"#;
    assert_eq!(artifact_error(apply(&mut ws, done).unwrap_err()).error, ArtifactErrorCode::ArtifactFinalized);
    // With the override (the field, or set as the CLI flag does).
    let forced = update.replace("\"New\"", "\"New\", \"override_finalized\": true");
    apply(&mut ws, &forced).unwrap();
    assert!(file(&dir).contains("## What Is It?\r\n\r\nNew\r\n\r\n## Problem"));
    let mut op = parse_operation(done).unwrap();
    op.set_override_finalized(true);
    assert_eq!(ws.apply_operation(&op).unwrap().artifact.status, ArtifactStatus::Finalized);
    // A suggestion changes nothing, so it is taken.
    apply(&mut ws, r#"{"operation": "suggest_edit", "artifact_slug": "concept", "section_slug": "what-is-it", "suggestion": "x"}"#)
        .unwrap();
    ws.finalize_artifact("concept", false).unwrap();
    apply(&mut ws, update).unwrap();
}

#[test]
fn every_error_names_what_is_wrong() {
    let (_dir, mut ws) = workspace();
    let err = artifact_error(
        apply(&mut ws, r#"{"operation": "update_section", "artifact_slug": "concpet", "section_slug": "x", "content": ""}"#)
            .unwrap_err(),
    );
    assert_eq!(
        (err.error, err.suggestions.clone()),
        (ArtifactErrorCode::ArtifactNotFound, vec!["concept".to_string()])
    );
    let err = artifact_error(
        apply(&mut ws, r#"{"operation": "update_section", "artifact_slug": "concept", "section_slug": "problem", "content": ""}"#)
            .unwrap_err(),
    );
    assert_eq!(err.error, ArtifactErrorCode::SectionNotFound);
    assert_eq!(err.message, "Section 'problem' not found in artifact 'concept'");
    assert_eq!(err.suggestions, ["problem-being-solved"]);
    for bad in [
        "not json",
        r#"{"operation": "delete_everything", "artifact_slug": "concept"}"#,
        r#"{"operation": "update_section", "artifact_slug": "concept", "section_slug": "what-is-it"}"#,
        r#"{"operation": "update_section", "artifact_slug": "concept", "section_slug": "what-is-it", "content": "", "typo": 1}"#,
    ] {
        let err = artifact_error(parse_operation(bad).unwrap_err());
        assert_eq!(err.error, ArtifactErrorCode::InvalidOperation, "{bad}");
    }
    let err = artifact_error(
        apply(
            &mut ws,
            r#"{"operation": "create_section", "artifact_slug": "concept", "title": "two\nlines"}"#,
        )
        .unwrap_err(),
    );
    assert_eq!(err.error, ArtifactErrorCode::InvalidOperation);
    let err = artifact_error(
        apply(
            &mut ws,
            r#"{"operation": "create_section", "artifact_slug": "concept", "title": "T", "level": 7}"#,
        )
        .unwrap_err(),
    );
    assert_eq!(err.error, ArtifactErrorCode::InvalidOperation);
    let err = artifact_error(ws.restore_artifact("concept", "S-nope", false).unwrap_err());
    assert_eq!(err.error, ArtifactErrorCode::SnapshotNotFound);
    // Too large for the whole content; its sections one by one are fine.
    std::fs::write(_dir.path().join(".ctx/config.toml"), "[artifacts]\nmax_content_bytes = 10\n").unwrap();
    ws.reload_config().unwrap();
    ws.artifact("concept", &ViewOptions { content: false, sections: vec!["what-is-it".into()] }).unwrap();
    let err = ws.artifact("concept", &ViewOptions { content: true, sections: vec![] }).unwrap_err();
    let err = artifact_error(err);
    assert_eq!(err.error, ArtifactErrorCode::ContextTooLarge);
    assert!(err.action.is_some());
    // The variants targeting produces exist, in the same shape.
    let ambiguous = ArtifactError::ambiguous(
        "overview",
        vec![
            TargetCandidate {
                artifact: "concept".into(),
                section: Some("overview".into()),
                title: "Overview".into(),
            },
            TargetCandidate {
                artifact: "research".into(),
                section: Some("overview".into()),
                title: "Overview".into(),
            },
        ],
    );
    let json = serde_json::to_value(&ambiguous).unwrap();
    assert_eq!(json["error"], "AMBIGUOUS_TARGET");
    assert_eq!(json["candidates"][1]["artifact"], "research");
    assert_eq!(ctxkeep_core::Error::from(ambiguous).code(), "AMBIGUOUS_TARGET");
}

#[test]
fn a_snapshot_restores_bytes_and_flags() {
    let (dir, mut ws) = workspace();
    let first = apply(
        &mut ws,
        r#"{"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "what-is-it"}"#,
    )
    .unwrap();
    apply(
        &mut ws,
        r#"{"operation": "update_section", "artifact_slug": "concept", "section_slug": "core-features", "content": "- two"}"#,
    )
    .unwrap();
    assert_ne!(file(&dir), CONCEPT);
    // The snapshot before the first operation: the file as added, nothing done.
    let restored = ws.restore_artifact("concept", first.snapshot_id.as_deref().unwrap(), false).unwrap();
    assert_eq!(file(&dir), CONCEPT);
    assert_eq!(restored.artifact.sections_complete, 0);
    assert_eq!(restored.operation, "restore");
    let history = ws.artifact_history("concept").unwrap();
    assert_eq!(history.operations[0].operation, "restore");
    assert_eq!(history.snapshots.len(), 3, "a restore snapshots the present first");
    // Finalized: refused, unless overridden.
    ws.finalize_artifact("concept", true).unwrap();
    let undo = restored.snapshot_id.unwrap();
    let err = artifact_error(ws.restore_artifact("concept", &undo, false).unwrap_err());
    assert_eq!(err.error, ArtifactErrorCode::ArtifactFinalized);
    ws.restore_artifact("concept", &undo, true).unwrap();
    assert!(file(&dir).contains("- two"));
}

#[test]
fn a_hand_edit_is_reindexed_and_never_overwritten() {
    let (dir, mut ws) = workspace();
    let before = ws.artifact("concept", &ViewOptions::default()).unwrap();
    let edited = format!("{CONCEPT}\r\n## Added By Hand\r\n");
    std::fs::write(dir.path().join("docs/concept.md"), &edited).unwrap();
    let after = ws.artifact("concept", &ViewOptions::default()).unwrap();
    assert_eq!(after.sections_total, before.sections_total + 1);
    let check = ws.check_artifact("concept", &before.state_hash, None, None).unwrap();
    assert!(!check.fresh && !check.matches);
    assert!(check.changes.contains(&"sections_total 4 -> 5".to_string()), "{:?}", check.changes);
    assert!(check.changes.contains(&"section added-by-hand was added".to_string()));
    let now = ws.check_artifact("concept", &after.state_hash, None, None).unwrap();
    assert!(now.fresh && now.age_seconds.is_some());
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(600);
    let aged = ws.check_artifact("concept", &after.state_hash, Some(old), None).unwrap();
    assert!(aged.too_old && !aged.fresh && aged.matches);
    let lenient = ws
        .check_artifact("concept", &after.state_hash, Some(old), Some(std::time::Duration::from_secs(3600)))
        .unwrap();
    assert!(lenient.fresh);
    let unknown = ws.check_artifact("concept", "0000000000000000", None, None).unwrap();
    assert!(!unknown.fresh && unknown.age_seconds.is_none());
}

#[test]
fn the_committed_state_rebuilds_the_database() {
    let (dir, mut ws) = workspace();
    apply(
        &mut ws,
        r#"{"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "what-is-it"}"#,
    )
    .unwrap();
    ws.set_artifact_stage("concept", "design").unwrap();
    ws.set_section_collapsed("concept", "core-features", true).unwrap();
    ws.finalize_artifact("concept", true).unwrap();
    let before = ws.artifact("concept", &ViewOptions::default()).unwrap();
    drop(ws);
    for name in ["ctx.db", "ctx.db-wal", "ctx.db-shm"] {
        let _ = std::fs::remove_file(dir.path().join(".ctx").join(name));
    }
    let mut ws = Workspace::open(dir.path()).unwrap();
    ws.scan().unwrap();
    let after = ws.artifact("concept", &ViewOptions::default()).unwrap();
    assert_eq!(after.state_hash, before.state_hash);
    assert_eq!((after.stage.as_str(), after.status), ("design", ArtifactStatus::Finalized));
    assert!(after.sections[3].is_collapsed && after.sections[1].is_done);
    let project = ws.artifact_project().unwrap();
    assert_eq!(project.current_stage.as_deref(), Some("design"));
    let design = &project.stages["design"];
    assert_eq!((design.artifacts_total, design.artifacts_finalized, design.sections_complete), (1, 1, 1));
    assert_eq!(design.progress_pct, 25.0);
    // Removing the knowledge file removes the artifact; the Markdown stays.
    std::fs::remove_file(dir.path().join(".ctx/knowledge/artifacts/concept.md")).unwrap();
    ws.scan().unwrap();
    assert!(ws.artifacts().unwrap().is_empty());
    assert_eq!(file(&dir), CONCEPT);
}

#[test]
fn two_workspaces_applying_at_once_lose_nothing() {
    let (dir, ws) = workspace();
    drop(ws);
    let sections = ["what-is-it", "problem-being-solved", "core-features"];
    let threads: Vec<_> = sections
        .iter()
        .map(|section| {
            let root = dir.path().to_path_buf();
            let section = section.to_string();
            std::thread::spawn(move || {
                let mut ws = Workspace::open(&root).unwrap();
                for round in 0..4 {
                    let op = Operation::UpdateSection {
                        artifact_slug: "concept".into(),
                        section_slug: section.clone(),
                        content: format!("{section} round {round}"),
                        reason: None,
                        override_finalized: false,
                    };
                    ws.apply_operation(&op).unwrap();
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    let text = file(&dir);
    for section in sections {
        assert!(text.contains(&format!("{section} round 3")), "{section} lost: {text}");
    }
    let mut ws = Workspace::open(dir.path()).unwrap();
    assert_eq!(ws.artifact_history("concept").unwrap().operations.len(), 12);
}

#[test]
fn list_add_and_remove() {
    let (dir, mut ws) = workspace();
    std::fs::write(dir.path().join("docs/Research Notes.md"), "# R\n\n## Overview\n").unwrap();
    let view = ws
        .add_artifact(&NewArtifact {
            path: "docs/Research Notes.md".into(),
            stage: Some("design".into()),
            slug: None,
        })
        .unwrap();
    assert_eq!(view.slug, "research-notes");
    let again = artifact_error(
        ws.add_artifact(&NewArtifact {
            path: "docs/concept.md".into(),
            slug: Some("other".into()),
            stage: None,
        })
        .unwrap_err(),
    );
    assert_eq!(again.error, ArtifactErrorCode::InvalidOperation);
    let missing =
        ws.add_artifact(&NewArtifact { path: "docs/none.md".into(), ..Default::default() }).unwrap_err();
    assert_eq!(missing.code(), "INVALID_OPERATION");
    assert_eq!(ws.artifacts().unwrap().len(), 2);
    ws.remove_artifact("research-notes").unwrap();
    assert_eq!(ws.artifacts().unwrap().len(), 1);
    assert!(dir.path().join("docs/Research Notes.md").exists());
    assert!(!dir.path().join(".ctx/knowledge/artifacts/research-notes.md").exists());
}

/// Regression: a section created after text that leaves a code fence (or
/// an HTML comment) open was written inside it, where it is no section,
/// and reported created.
#[test]
fn no_section_is_created_inside_a_block_left_open() {
    for open in ["```\ncode\n", "<!--\nnote\n"] {
        let dir = tempfile::tempdir().unwrap();
        let text = format!("# Notes\n\n{open}");
        std::fs::write(dir.path().join("open.md"), &text).unwrap();
        let (mut ws, _) = Workspace::init(dir.path()).unwrap();
        ws.add_artifact(&NewArtifact { path: "open.md".into(), ..Default::default() }).unwrap();
        let err = apply(
            &mut ws,
            r#"{"operation": "create_section", "artifact_slug": "open", "order": 99, "title": "Later"}"#,
        )
        .unwrap_err();
        let err = artifact_error(err);
        assert_eq!(err.error, ArtifactErrorCode::InvalidOperation, "{open:?}");
        assert!(err.message.contains("never closes"), "{}", err.message);
        assert_eq!(std::fs::read_to_string(dir.path().join("open.md")).unwrap(), text, "nothing written");
    }
}
