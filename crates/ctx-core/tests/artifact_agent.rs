//! Agent contexts at each level, what they never include, budgets, the
//! current artifact and targeting through a workspace, and the prompts.

use ctxkeep_core::artifact::target::{MatchKind, Resolution};
use ctxkeep_core::artifact::*;
use ctxkeep_core::memory::NewRecord;
use ctxkeep_core::*;

const CONCEPT: &str = "# Project Concept: ACK\n\n## What Is It?\n\nACK is a planning layer. <!-- private: ask Jess about naming -->\n\n## Problem Being Solved\n\nAgents lose context between sessions.\n\n## Notes\n\n<!-- private -->\nSecret salary numbers.\n\n### Sub\n\nAlso secret.\n\n## Overview\n\nThe concept at a glance.\n\n## Core Features <!-- private -->\n\n- one\n";
const RESEARCH: &str =
    "# Research\n\n## Overview\n\nThe market.\n\n## Competitive Analysis\n\nCursor and Copilot.\n";
const OTHER: &str = "# Launch plan\n\n## Channels\n\nBlog.\n";

fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [("concept.md", CONCEPT), ("research.md", RESEARCH), ("launch.md", OTHER)] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let (mut ws, _) = Workspace::init(dir.path()).unwrap();
    for (path, stage) in [("concept.md", None), ("research.md", None), ("launch.md", Some("launch"))] {
        let new = NewArtifact { path: path.into(), stage: stage.map(str::to_string), ..Default::default() };
        ws.add_artifact(&new).unwrap();
    }
    for (kind, role, text) in [
        ("query", "user", "what is ACK for?"),
        ("response", "assistant", "A planning layer for agents."),
        ("query", "user", "update the problem statement"),
    ] {
        let record = NewRecord {
            record_type: kind.into(),
            role: Some(role.into()),
            text: text.into(),
            session_id: Some("S1".into()),
            ..Default::default()
        };
        ws.add_record(&record).unwrap();
    }
    (dir, ws)
}

fn request(slug: Option<&str>, level: ContextLevel) -> ContextRequest {
    ContextRequest { slug: slug.map(str::to_string), level, ..Default::default() }
}

fn artifact_error(err: crate::Error) -> ArtifactError {
    match err {
        crate::Error::Artifact(err) => *err,
        other => panic!("not an artifact error: {other}"),
    }
}

fn section<'a>(context: &'a AgentContext, slug: &str) -> &'a SectionContext {
    let current = context.current_artifact.as_ref().unwrap();
    current.sections.iter().find(|s| s.slug == slug).unwrap()
}

#[test]
fn minimal_is_names_stage_and_the_section_list() {
    let (_dir, mut ws) = workspace();
    let context = ws.artifact_context(&request(Some("concept"), ContextLevel::Minimal)).unwrap();
    assert_eq!(context.project.current_stage.as_deref(), Some("discovery"));
    assert!(context.project.description.is_none() && context.project.stages.is_none());
    let current = context.current_artifact.as_ref().unwrap();
    assert_eq!((current.name.as_str(), current.status), ("concept.md", ArtifactStatus::Draft));
    assert_eq!(current.sections.len(), 7);
    assert!(current.content.is_none());
    assert!(current.sections.iter().all(|s| s.preview.is_none() && s.content.is_none()));
    assert!(context.related_artifacts.is_empty() && context.chat_history.is_empty());
    assert_eq!(context.system_state.level, ContextLevel::Minimal);
    assert!(context.system_state.tokens.used.total > 0);
    // The context's hash is the artifact's: `check` works on it.
    let report = ws.check_artifact("concept", &context.system_state.state_hash, None, None).unwrap();
    assert!(report.fresh, "{report:?}");
}

#[test]
fn standard_adds_summary_previews_referenced_sections_and_chat() {
    let (_dir, mut ws) = workspace();
    let mut wanted = request(Some("concept"), ContextLevel::Standard);
    wanted.sections = vec!["what-is-it".into(), "notes".into()];
    let context = ws.artifact_context(&wanted).unwrap();
    assert!(context.project.stages.as_ref().unwrap().contains_key("discovery"));
    assert_eq!(
        section(&context, "problem-being-solved").preview.as_deref(),
        Some("Agents lose context between sessions.")
    );
    let what = section(&context, "what-is-it");
    assert_eq!(what.content.as_deref().map(str::trim), Some("ACK is a planning layer."));
    assert_eq!(section(&context, "problem-being-solved").content, None, "only what is referenced");
    // Private notes: listed, never shown.
    for slug in ["notes", "sub", "core-features-private"] {
        let private = section(&context, slug);
        assert!(private.private && private.preview.is_none() && private.content.is_none(), "{private:?}");
    }
    // Marked on the heading line: its slug keeps the word, its title does not.
    let marked = section(&context, "core-features-private");
    assert!(marked.private && marked.preview.is_none());
    assert_eq!(marked.title, "Core Features");
    let json = serde_json::to_string(&context).unwrap();
    assert!(!json.contains("salary") && !json.contains("Jess"), "{json}");
    assert!(context.related_artifacts.is_empty(), "related artifacts only at full, or when referenced");
    let turns: Vec<&str> = context.chat_history.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(turns, ["what is ACK for?", "A planning layer for agents.", "update the problem statement"]);
    assert_eq!(context.system_state.chat_session.as_deref(), Some("S1"));
    let err = ws
        .artifact_context(&ContextRequest {
            sections: vec!["nope".into()],
            ..request(Some("concept"), ContextLevel::Standard)
        })
        .unwrap_err();
    assert_eq!(artifact_error(err).error, ArtifactErrorCode::SectionNotFound);
}

#[test]
fn a_message_references_a_section_here_or_elsewhere() {
    let (_dir, mut ws) = workspace();
    let mut wanted = request(Some("concept"), ContextLevel::Standard);
    wanted.message = Some("update the problem statement".into());
    let context = ws.artifact_context(&wanted).unwrap();
    assert!(section(&context, "problem-being-solved").content.as_deref().unwrap().contains("lose context"));
    assert!(matches!(context.system_state.target, Some(Resolution::Resolved(_))));

    wanted.message = Some("@research#competitive-analysis add pricing".into());
    let context = ws.artifact_context(&wanted).unwrap();
    assert_eq!(context.current_artifact.as_ref().unwrap().slug, "concept", "the SLUG given stays current");
    let research = &context.related_artifacts[0];
    assert_eq!((research.slug.as_str(), research.relation.as_deref()), ("research", Some("referenced")));
    let analysis = research.sections.iter().find(|s| s.slug == "competitive-analysis").unwrap();
    assert!(analysis.content.as_deref().unwrap().contains("Cursor"));

    // Without SLUG the message's artifact is the current one.
    wanted.slug = None;
    let context = ws.artifact_context(&wanted).unwrap();
    assert_eq!(context.current_artifact.as_ref().unwrap().slug, "research");
    // An ambiguous message references nothing, and says so.
    wanted.message = Some("update the overview".into());
    let context = ws.artifact_context(&wanted).unwrap();
    assert!(context.current_artifact.is_none());
    assert!(matches!(context.system_state.target, Some(Resolution::Ambiguous(_))));
}

#[test]
fn full_has_the_artifact_without_private_notes_and_related_ones() {
    let (_dir, mut ws) = workspace();
    let context = ws.artifact_context(&request(Some("concept"), ContextLevel::Full)).unwrap();
    let content = context.current_artifact.as_ref().unwrap().content.as_deref().unwrap();
    assert!(content.contains("ACK is a planning layer.") && content.contains("## Core Features"));
    assert!(!content.contains("salary") && !content.contains("Also secret") && !content.contains("Jess"));
    assert!(content.contains("<!-- withheld: private notes -->"));
    let related: Vec<(&str, Option<&str>)> =
        context.related_artifacts.iter().map(|a| (a.slug.as_str(), a.relation.as_deref())).collect();
    assert_eq!(related, [("research", Some("same_stage"))], "launch is another stage and not linked");
    assert!(context.related_artifacts[0].sections.iter().all(|s| s.content.is_none() && s.preview.is_none()));
    assert_eq!(context.system_state.artifact_hashes.len(), 2);
}

#[test]
fn a_linked_artifact_is_related_whatever_its_stage() {
    let (dir, mut ws) = workspace();
    std::fs::write(dir.path().join("concept.md"), format!("{CONCEPT}\nSee launch.md.\n")).unwrap();
    let context = ws.artifact_context(&request(Some("concept"), ContextLevel::Full)).unwrap();
    let related: Vec<(&str, Option<&str>)> =
        context.related_artifacts.iter().map(|a| (a.slug.as_str(), a.relation.as_deref())).collect();
    assert_eq!(related, [("launch", Some("linked")), ("research", Some("same_stage"))]);
}

#[test]
fn a_smaller_allocation_cuts_and_drops_and_the_minimum_must_fit() {
    let (_dir, mut ws) = workspace();
    let whole = ws.artifact_context(&request(Some("concept"), ContextLevel::Full)).unwrap();
    assert!(whole.system_state.truncated.is_empty(), "{:?}", whole.system_state.truncated);
    assert_eq!(whole.system_state.tokens.allocation, ContextAllocation::default());

    let small = ContextRequest { tokens: Some(1800), ..request(Some("concept"), ContextLevel::Full) };
    let context = ws.artifact_context(&small).unwrap();
    let allocation = context.system_state.tokens.allocation;
    assert_eq!(
        (
            allocation.project,
            allocation.current_artifact,
            allocation.related_artifacts,
            allocation.chat_history
        ),
        (50, 500, 250, 1000)
    );
    assert!(context.system_state.tokens.used.total <= 1800);

    let tiny = ContextRequest { tokens: Some(300), ..request(Some("concept"), ContextLevel::Full) };
    let context = ws.artifact_context(&tiny).unwrap();
    let parts: Vec<&str> = context.system_state.truncated.iter().map(|t| t.item.as_str()).collect();
    assert!(parts.contains(&"content"), "{parts:?}");
    let content = context.current_artifact.as_ref().unwrap().content.as_deref().unwrap();
    assert!(content.len() < CONCEPT.len());
    assert_eq!(context.current_artifact.as_ref().unwrap().sections.len(), 7, "the section list always stays");

    let err = ws
        .artifact_context(&ContextRequest {
            tokens: Some(20),
            ..request(Some("concept"), ContextLevel::Minimal)
        })
        .unwrap_err();
    let err = artifact_error(err);
    assert_eq!(err.error, ArtifactErrorCode::ContextTooLarge);
    assert!(err.action.is_some());
}

#[test]
fn use_sets_the_current_artifact_that_targeting_prefers() {
    let (_dir, mut ws) = workspace();
    let resolution = ws.resolve_artifact_target("update the overview", None).unwrap();
    let err = resolution_error("update the overview", &resolution).unwrap();
    assert_eq!(err.error, ArtifactErrorCode::AmbiguousTarget);
    assert_eq!(err.candidates.len(), 2);

    assert_eq!(ws.use_artifact(Some("research")).unwrap().as_deref(), Some("research"));
    assert_eq!(ws.current_artifact().unwrap().as_deref(), Some("research"));
    let Resolution::Resolved(target) =
        ws.resolve_artifact_target("#competitive-analysis add pricing", None).unwrap()
    else {
        panic!("resolves in the current artifact")
    };
    assert_eq!(
        (target.artifact.as_str(), target.section.as_deref()),
        ("research", Some("competitive-analysis"))
    );
    assert_eq!(target.artifact_match, MatchKind::Current);
    assert_eq!(target.rest, "add pricing");
    // The current artifact is where a minimal context starts.
    let context = ws.artifact_context(&request(None, ContextLevel::Minimal)).unwrap();
    assert_eq!(context.current_artifact.unwrap().slug, "research");

    let missing = ws.resolve_artifact_target("@reserch#overview", None).unwrap();
    let err = resolution_error("@reserch#overview", &missing).unwrap();
    assert_eq!(
        (err.error, err.suggestions.as_slice()),
        (ArtifactErrorCode::ArtifactNotFound, ["research".to_string()].as_slice())
    );
    let err = artifact_error(ws.use_artifact(Some("nope")).unwrap_err());
    assert_eq!(err.error, ArtifactErrorCode::ArtifactNotFound);
    assert_eq!(ws.use_artifact(None).unwrap(), None);
    assert_eq!(ws.current_artifact().unwrap(), None);
    // A removed artifact is no longer current.
    ws.use_artifact(Some("launch")).unwrap();
    ws.remove_artifact("launch").unwrap();
    assert_eq!(ws.current_artifact().unwrap(), None);
}

#[test]
fn prompts_render_the_seeds_variables() {
    let (dir, mut ws) = workspace();
    ws.apply_operation(&parse_operation(r#"{"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "what-is-it", "is_done": true}"#).unwrap()).unwrap();
    let chat = ws
        .artifact_prompt(&PromptRequest {
            kind: PromptKind::Chat,
            slug: Some("concept".into()),
            text: "tighten the problem statement".into(),
            section: None,
        })
        .unwrap();
    assert!(chat.text.contains("- [x] What Is It? (what-is-it)"), "{}", chat.text);
    assert!(chat.text.contains("- [ ] Problem Being Solved (problem-being-solved)"));
    assert!(
        chat.text.contains("1 of 7 sections done") && chat.text.contains("tighten the problem statement")
    );
    assert_eq!(chat.section.as_deref(), Some("problem-being-solved"));
    assert!(chat.tokens > 0 && chat.state_hash.is_some());

    let research = PromptRequest {
        kind: PromptKind::Research,
        slug: None,
        text: "pricing of @research#competitive-analysis".into(),
        section: None,
    };
    let prompt = ws.artifact_prompt(&research).unwrap();
    assert_eq!(
        (prompt.artifact.as_deref(), prompt.section.as_deref()),
        (Some("research"), Some("competitive-analysis"))
    );
    assert!(
        prompt.text.contains("\"section_slug\": \"competitive-analysis\"")
            && prompt.text.contains("Cursor and Copilot.")
    );
    let by_flag = PromptRequest {
        slug: Some("concept".into()),
        section: Some("notes".into()),
        text: "salaries".into(),
        ..research.clone()
    };
    let prompt = ws.artifact_prompt(&by_flag).unwrap();
    assert!(!prompt.text.contains("salary"), "a private section's text stays out");
    let nowhere =
        PromptRequest { slug: Some("concept".into()), text: "zebra migration".into(), ..research.clone() };
    assert_eq!(
        artifact_error(ws.artifact_prompt(&nowhere).unwrap_err()).error,
        ArtifactErrorCode::SectionNotFound
    );

    // An override in .ctx/templates wins.
    let templates = dir.path().join(".ctx/templates");
    std::fs::create_dir_all(&templates).unwrap();
    std::fs::write(
        templates.join("artifact-chat.md.hbs"),
        "CHAT {{project.name}} {{currentArtifact.slug}}: {{userMessage}}",
    )
    .unwrap();
    let chat = ws
        .artifact_prompt(&PromptRequest {
            kind: PromptKind::Chat,
            slug: Some("concept".into()),
            text: "hi".into(),
            section: None,
        })
        .unwrap();
    assert!(chat.text.starts_with("CHAT ") && chat.text.ends_with("concept: hi"), "{}", chat.text);
}

#[test]
fn the_markdown_rendering_and_its_override() {
    let (dir, mut ws) = workspace();
    let mut wanted = request(Some("concept"), ContextLevel::Full);
    wanted.sections = vec!["what-is-it".into()];
    let context = ws.artifact_context(&wanted).unwrap();
    let text = ws.render_artifact_context(&context).unwrap();
    assert!(text.contains("## Current artifact: concept.md (`concept`, draft, 0/7 sections done)"), "{text}");
    assert!(text.contains("### Section What Is It? (`what-is-it`)"));
    assert!(text.contains("## Related artifacts") && text.contains("## Recent chat"));
    assert!(!text.contains("salary"));
    let templates = dir.path().join(".ctx/templates");
    std::fs::create_dir_all(&templates).unwrap();
    std::fs::write(
        templates.join("artifact-context.md.hbs"),
        "{{systemState.level}} {{currentArtifact.slug}}",
    )
    .unwrap();
    assert_eq!(ws.render_artifact_context(&context).unwrap(), "full concept");
}
