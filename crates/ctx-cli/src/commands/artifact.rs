//! `ctx artifact …`: planning documents (ACK artifacts) and the agent
//! operations on them. The arguments live here with the command; the work
//! is ctxkeep-core's (`Workspace::add_artifact`, `apply_operation`, …).

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Subcommand;
use ctxkeep_core::artifact::target::{CONFIRM_BELOW, Resolution};
use ctxkeep_core::wording::count;
use ctxkeep_core::{
    ArtifactHistory, ArtifactStatus, ArtifactSummary, ArtifactView, ContextLevel, ContextRequest,
    NewArtifact, OperationResult, ProjectView, PromptKind, PromptRequest, StalenessReport, Suggestion,
    ViewOptions, parse_operation, resolution_error,
};

use super::Env;
use crate::args::ShowArg;
use crate::output;

#[derive(Debug, Subcommand)]
pub enum ArtifactsCommand {
    /// Track a Markdown file of the repository as an artifact (its sections come from its headings).
    Add {
        path: String,
        /// Default: the file's name without `.md`, slugified (`docs/Concept.md` → `concept`).
        #[arg(long)]
        slug: Option<String>,
        /// Default: `[artifacts] default_stage` (the first configured stage).
        #[arg(long)]
        stage: Option<String>,
    },
    /// List the artifacts: stage, status and sections done.
    List,
    /// The project: name, description, current stage and each stage's progress.
    Project,
    /// Show an artifact's sections (slug, title, done, preview); --content adds the whole file.
    Show {
        slug: String,
        /// The whole Markdown (refused past `[artifacts] max_content_bytes`: CONTEXT_TOO_LARGE).
        #[arg(long)]
        content: bool,
        /// The content of this section too (repeatable).
        #[arg(long = "section", value_name = "SECTION")]
        sections: Vec<String>,
        /// Show it as an agent is shown it at this level instead (minimal, standard, full):
        /// `ctx artifact context SLUG --level L`.
        #[arg(long, value_parser = parse_level)]
        level: Option<ContextLevel>,
    },
    /// Mark an artifact finalized: operations on it are refused unless they override it.
    Finalize {
        slug: String,
        #[command(flatten)]
        show: ShowArg,
    },
    /// Make a finalized artifact a draft again.
    Unfinalize {
        slug: String,
        #[command(flatten)]
        show: ShowArg,
    },
    /// Move an artifact to another stage.
    Stage {
        slug: String,
        stage: String,
        #[command(flatten)]
        show: ShowArg,
    },
    /// Collapse a section in views (or --expand it again); the file is not changed.
    Collapse {
        slug: String,
        section: String,
        #[arg(long)]
        expand: bool,
        #[command(flatten)]
        show: ShowArg,
    },
    /// Stop tracking an artifact (its state, snapshots and suggestions go; the file stays).
    Remove { slug: String },
    /// Apply an agent operation given as JSON (a file, or `-` for stdin): update_section,
    /// mark_section_done, create_section, suggest_edit (docs/artifacts.md).
    Apply {
        file: String,
        /// Apply to a finalized artifact all the same (as `"override_finalized": true`).
        #[arg(long)]
        override_finalized: bool,
    },
    /// List the suggestions on an artifact (pending, accepted, rejected).
    Suggestions { slug: String },
    /// Accept a suggestion: its content, if any, is applied as an update_section.
    Accept {
        id: String,
        #[arg(long)]
        override_finalized: bool,
    },
    /// Reject a suggestion: nothing is applied.
    Reject {
        id: String,
        #[arg(long)]
        reason: Option<String>,
    },
    /// An artifact's snapshots and the operations applied to it, newest first.
    History { slug: String },
    /// Put an artifact back as a snapshot left it (a snapshot of the present is taken first).
    Restore {
        slug: String,
        snapshot: String,
        #[arg(long)]
        override_finalized: bool,
    },
    /// Whether a view of an artifact (its state_hash) is still current and young enough;
    /// exit 1 when it is stale.
    Check {
        slug: String,
        /// The state_hash of the view held.
        #[arg(long, value_name = "HASH")]
        hash: String,
        /// When that view was made (ISO-8601; default: when ctx first showed that state).
        #[arg(long, value_name = "TIME", value_parser = humantime::parse_rfc3339_weak)]
        at: Option<std::time::SystemTime>,
        /// How old it may be (5m, 90s, ...; default: `[artifacts] max_age_seconds`, 5 minutes).
        #[arg(long, value_name = "AGE", value_parser = humantime::parse_duration)]
        max_age: Option<std::time::Duration>,
    },
    /// What an agent is shown: the seed's context levels (minimal, standard, full), in Markdown
    /// or (--json) as an AgentContext, within the token allocation of `[artifacts.context]`.
    Context {
        /// Default: the message's target, else the current artifact (`ctx artifact use`).
        slug: Option<String>,
        #[arg(long, value_parser = parse_level, default_value = "standard")]
        level: ContextLevel,
        /// Include this section's content (repeatable).
        #[arg(long = "section", value_name = "SECTION")]
        sections: Vec<String>,
        /// A chat message: the section it targets is included.
        #[arg(long)]
        message: Option<String>,
        /// The whole allocation in tokens (every share scaled; default `[artifacts.context]`, 36000).
        #[arg(long)]
        tokens: Option<usize>,
        /// The session whose turns are the chat history (default: the latest).
        #[arg(long)]
        session: Option<String>,
    },
    /// Make an artifact the current one (`#section` and plain phrasings look there first);
    /// without SLUG, print the current one.
    Use {
        slug: Option<String>,
        /// No current artifact.
        #[arg(long, conflicts_with = "slug")]
        clear: bool,
    },
    /// What a message targets: artifact, section, the rest of the message, confidence; exit 1
    /// with AMBIGUOUS_TARGET (and candidates) or *_NOT_FOUND (and suggestions) otherwise.
    Resolve { text: String },
    /// A prompt with the artifact's context: `chat --message TEXT` or `research --query TEXT`.
    #[command(subcommand)]
    Prompt(PromptCommand),
}

#[derive(Debug, Subcommand)]
pub enum PromptCommand {
    /// The chat prompt: project, stage, the artifact's sections and the message.
    Chat {
        /// Default: the message's target, else the current artifact.
        slug: Option<String>,
        #[arg(long)]
        message: String,
    },
    /// The research prompt: the query, the section to update and the operation to answer with.
    Research {
        /// Default: the query's target, else the current artifact.
        slug: Option<String>,
        #[arg(long)]
        query: String,
        /// The section to update (default: the query's target).
        #[arg(long)]
        section: Option<String>,
    },
}

/// The agent context `request` asks for: JSON, or its Markdown.
fn print_context(
    env: &Env,
    ws: &mut ctxkeep_core::Workspace,
    request: &ContextRequest,
) -> anyhow::Result<()> {
    let context = ws.artifact_context(request)?;
    if env.json {
        output::json(&context)?;
    } else {
        write!(std::io::stdout().lock(), "{}", ws.render_artifact_context(&context)?)?;
    }
    Ok(())
}

fn parse_level(text: &str) -> Result<ContextLevel, String> {
    ContextLevel::parse(text).ok_or_else(|| format!("{text:?}: the levels are minimal, standard, full"))
}

pub fn run(env: &Env, command: ArtifactsCommand) -> anyhow::Result<ExitCode> {
    let mut ws = env.workspace()?;
    match command {
        ArtifactsCommand::Add { path, slug, stage } => {
            let path = env.path_key(&ws, &path)?;
            let view = ws.add_artifact(&NewArtifact { path, slug, stage })?;
            if env.json {
                output::json(&view)?;
            } else {
                env.report(format_args!(
                    "added artifact {} ({}, {})",
                    view.slug,
                    view.path,
                    count(view.sections_total, "section")
                ))?;
            }
        }
        ArtifactsCommand::List => {
            let list = ws.artifacts()?;
            if env.json {
                output::json(&list)?;
            } else {
                print_list(&list)?;
            }
        }
        ArtifactsCommand::Project => {
            let project = ws.artifact_project()?;
            if env.json {
                output::json(&project)?;
            } else {
                print_project(&project)?;
            }
        }
        ArtifactsCommand::Show { slug, sections, level: Some(level), .. } => {
            let request = ContextRequest { slug: Some(slug), level, sections, ..ContextRequest::default() };
            print_context(env, &mut ws, &request)?;
        }
        ArtifactsCommand::Show { slug, content, sections, level: None } => {
            let view = ws.artifact(&slug, &ViewOptions { content, sections })?;
            if env.json {
                output::json(&view)?;
            } else {
                print_view(&view)?;
            }
        }
        ArtifactsCommand::Finalize { slug, show } => {
            let view = ws.finalize_artifact(&slug, true)?;
            changed(env, &view, show, &format!("{} is finalized now", view.slug))?
        }
        ArtifactsCommand::Unfinalize { slug, show } => {
            let view = ws.finalize_artifact(&slug, false)?;
            changed(env, &view, show, &format!("{} is a draft now", view.slug))?
        }
        ArtifactsCommand::Stage { slug, stage, show } => {
            let view = ws.set_artifact_stage(&slug, &stage)?;
            changed(env, &view, show, &format!("{} is in stage {} now", view.slug, view.stage))?
        }
        ArtifactsCommand::Collapse { slug, section, expand, show } => {
            let view = ws.set_section_collapsed(&slug, &section, !expand)?;
            let now = if expand { "expanded" } else { "collapsed" };
            changed(env, &view, show, &format!("{section} of {} is {now} in views now", view.slug))?
        }
        ArtifactsCommand::Remove { slug } => {
            ws.remove_artifact(&slug)?;
            if env.json {
                output::json(&serde_json::json!({ "removed": slug }))?;
            } else {
                env.report(format_args!("removed artifact {slug} (its file is left as it is)"))?;
            }
        }
        ArtifactsCommand::Apply { file, override_finalized } => {
            let json = read_input(&file)?;
            let mut op = parse_operation(&json)?;
            if override_finalized {
                op.set_override_finalized(true);
            }
            let result = ws.apply_operation(&op)?;
            applied(env, &result)?;
        }
        ArtifactsCommand::Suggestions { slug } => {
            let list = ws.artifact_suggestions(&slug)?;
            if env.json {
                output::json(&list)?;
            } else {
                print_suggestions(&list)?;
            }
        }
        ArtifactsCommand::Accept { id, override_finalized } => {
            decided(env, &ws.accept_suggestion(&id, override_finalized)?)?
        }
        ArtifactsCommand::Reject { id, reason } => {
            decided(env, &ws.reject_suggestion(&id, reason.as_deref())?)?
        }
        ArtifactsCommand::History { slug } => {
            let history = ws.artifact_history(&slug)?;
            if env.json {
                output::json(&history)?;
            } else {
                print_history(&history)?;
            }
        }
        ArtifactsCommand::Restore { slug, snapshot, override_finalized } => {
            let result = ws.restore_artifact(&slug, &snapshot, override_finalized)?;
            applied(env, &result)?;
        }
        ArtifactsCommand::Check { slug, hash, at, max_age } => {
            let report = ws.check_artifact(&slug, &hash, at, max_age)?;
            if env.json {
                output::json(&report)?;
            } else {
                print_check(&report)?;
            }
            return Ok(if report.fresh { ExitCode::SUCCESS } else { ExitCode::from(1) });
        }
        ArtifactsCommand::Context { slug, level, sections, message, tokens, session } => {
            let request = ContextRequest { slug, level, sections, message, tokens, session };
            print_context(env, &mut ws, &request)?;
        }
        ArtifactsCommand::Use { slug, clear } => {
            let current = if clear || slug.is_some() {
                ws.use_artifact(slug.as_deref())?
            } else {
                ws.current_artifact()?
            };
            if env.json {
                output::json(&serde_json::json!({ "current": current }))?;
            } else {
                let text = current.map_or_else(
                    || "no current artifact".to_string(),
                    |slug| format!("current artifact: {slug}"),
                );
                writeln!(std::io::stdout().lock(), "{text}")?;
            }
        }
        ArtifactsCommand::Resolve { text } => {
            let resolution = ws.resolve_artifact_target(&text, None)?;
            if let Some(err) = resolution_error(&text, &resolution) {
                return Err(ctxkeep_core::Error::from(err).into());
            }
            if env.json {
                output::json(&resolution)?;
            } else {
                print_resolution(&resolution)?;
            }
        }
        ArtifactsCommand::Prompt(command) => {
            let request = match command {
                PromptCommand::Chat { slug, message } => {
                    PromptRequest { kind: PromptKind::Chat, slug, text: message, section: None }
                }
                PromptCommand::Research { slug, query, section } => {
                    PromptRequest { kind: PromptKind::Research, slug, text: query, section }
                }
            };
            let prompt = ws.artifact_prompt(&request)?;
            if env.json {
                output::json(&prompt)?;
            } else {
                write!(std::io::stdout().lock(), "{}", prompt.text)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The operation's JSON: from a file, or stdin for `-`.
fn read_input(file: &str) -> anyhow::Result<String> {
    if file == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).context("cannot read the operation from stdin")?;
        return Ok(text);
    }
    std::fs::read_to_string(file).with_context(|| format!("cannot read the operation from {file}"))
}

fn status(status: ArtifactStatus) -> &'static str {
    match status {
        ArtifactStatus::Draft => "draft",
        ArtifactStatus::Finalized => "finalized",
    }
}

/// After an edit: the whole view with --json or --show, else what changed.
fn changed(env: &Env, view: &ArtifactView, show: ShowArg, said: &str) -> anyhow::Result<()> {
    if env.json {
        return output::json(view);
    }
    if show.show {
        return print_view(view);
    }
    Ok(env.report(format_args!("{said}"))?)
}

/// An operation applied (or a snapshot restored): the result, unless `--quiet`.
fn applied(env: &Env, result: &OperationResult) -> anyhow::Result<()> {
    if env.json {
        return output::json(result);
    }
    if env.quiet { Ok(()) } else { print_result(result) }
}

fn decided(env: &Env, suggestion: &Suggestion) -> anyhow::Result<()> {
    if env.json {
        return output::json(suggestion);
    }
    if env.quiet {
        return Ok(());
    }
    let applied =
        suggestion.operation_id.as_deref().map(|op| format!(" (applied as {op})")).unwrap_or_default();
    writeln!(std::io::stdout().lock(), "{} {}{applied}", suggestion.status, suggestion.id)?;
    Ok(())
}

fn print_list(list: &[ArtifactSummary]) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if list.is_empty() {
        writeln!(out, "no artifacts (add one with `ctx artifact add PATH`)")?;
    }
    for artifact in list {
        writeln!(
            out,
            "{:<24} {:<10} {:<9} {}/{} done  {}",
            artifact.slug,
            artifact.stage,
            status(artifact.status),
            artifact.sections_complete,
            artifact.sections_total,
            artifact.path
        )?;
    }
    Ok(())
}

fn print_project(project: &ProjectView) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", project.name)?;
    if !project.description.is_empty() {
        writeln!(out, "{}", project.description)?;
    }
    writeln!(out, "current stage: {}", project.current_stage.as_deref().unwrap_or("none"))?;
    for stage in &project.stage_order {
        let Some(progress) = project.stages.get(stage) else { continue };
        writeln!(
            out,
            "  {stage:<12} {}/{} artifacts finalized, {}/{} sections done ({:.1}%)",
            progress.artifacts_finalized,
            progress.artifacts_total,
            progress.sections_complete,
            progress.sections_total,
            progress.progress_pct
        )?;
    }
    Ok(())
}

fn print_view(view: &ArtifactView) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} ({}): {}, stage {}, {}/{} sections done, state {}",
        view.slug,
        view.path,
        status(view.status),
        view.stage,
        view.sections_complete,
        view.sections_total,
        view.state_hash
    )?;
    for section in &view.sections {
        let mark = if section.is_done { "✓" } else { " " };
        let indent = "  ".repeat(section.level.saturating_sub(1) as usize);
        let collapsed = if section.is_collapsed { " (collapsed)" } else { "" };
        writeln!(out, "[{mark}] {indent}{} ({}){collapsed}", section.title, section.slug)?;
        if let Some(content) = &section.content {
            writeln!(out, "{}", content.trim_end())?;
        }
    }
    if view.pending_suggestions > 0 {
        writeln!(
            out,
            "{}: `ctx artifact suggestions {}`",
            count(view.pending_suggestions, "pending suggestion"),
            view.slug
        )?;
    }
    if let Some(content) = &view.content {
        writeln!(out, "\n{}", content.trim_end())?;
    }
    Ok(())
}

fn print_result(result: &OperationResult) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let section = result.section_slug.as_deref().map(|s| format!("#{s}")).unwrap_or_default();
    let what = match (&result.suggestion_id, &result.operation_id) {
        (Some(id), _) => format!("stored suggestion {id}"),
        (None, Some(id)) => format!("logged {id}"),
        (None, None) => String::new(),
    };
    writeln!(out, "{} @{}{section}: {what}", result.operation, result.artifact_slug)?;
    if let Some(snapshot) = &result.snapshot_id {
        writeln!(
            out,
            "snapshot before: {snapshot} (`ctx artifact restore {} {snapshot}`)",
            result.artifact_slug
        )?;
    }
    writeln!(
        out,
        "{}/{} sections done, state {}",
        result.artifact.sections_complete, result.artifact.sections_total, result.artifact.state_hash
    )?;
    Ok(())
}

fn print_suggestions(list: &[Suggestion]) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if list.is_empty() {
        writeln!(out, "no suggestions")?;
    }
    for suggestion in list {
        let content = if suggestion.content.is_some() { " [with content]" } else { "" };
        writeln!(
            out,
            "{} {:<8} #{}: {}{content}",
            suggestion.id,
            suggestion.status,
            suggestion.section_slug,
            suggestion.suggestion.lines().next().unwrap_or_default()
        )?;
        if let Some(rationale) = &suggestion.rationale {
            writeln!(out, "    why: {rationale}")?;
        }
    }
    Ok(())
}

fn print_history(history: &ArtifactHistory) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "operations of {}:", history.slug)?;
    for op in &history.operations {
        let section = op.section_slug.as_deref().map(|s| format!(" #{s}")).unwrap_or_default();
        let reason = if op.reason.is_empty() { String::new() } else { format!(": {}", op.reason) };
        writeln!(out, "  {} {} {}{section}{reason}", op.id, op.ts, op.operation)?;
    }
    writeln!(out, "snapshots:")?;
    for snapshot in &history.snapshots {
        let bytes = count(snapshot.bytes, "byte");
        writeln!(out, "  {} {} {bytes} ({})", snapshot.id, snapshot.ts, snapshot.reason)?;
    }
    Ok(())
}

fn print_resolution(resolution: &Resolution) -> anyhow::Result<()> {
    let Resolution::Resolved(target) = resolution else { return Ok(()) };
    let mut out = std::io::stdout().lock();
    writeln!(out, "artifact: {}", target.artifact)?;
    writeln!(out, "section: {}", target.section.as_deref().unwrap_or("(the whole artifact)"))?;
    writeln!(out, "rest: {}", target.rest)?;
    let name = |value: serde_json::Value| value.as_str().unwrap_or_default().to_string();
    let artifact_match = name(serde_json::to_value(target.artifact_match)?);
    let how = match target.section_match {
        Some(section) => {
            format!("artifact {artifact_match}, section {}", name(serde_json::to_value(section)?))
        }
        None => format!("artifact {artifact_match}"),
    };
    writeln!(out, "confidence: {:.2} ({how})", target.confidence)?;
    if target.confidence < CONFIRM_BELOW {
        let place = target
            .section
            .as_deref()
            .map_or_else(|| target.artifact.clone(), |s| format!("{s} in {}", target.artifact));
        writeln!(out, "did you mean {place}? confirm before acting")?;
    }
    Ok(())
}

fn print_check(report: &StalenessReport) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let verdict = if report.fresh { "fresh" } else { "stale" };
    let age = report.age_seconds.map(|age| format!(", {age} s old (max {} s)", report.max_age_seconds));
    writeln!(out, "{verdict}: {}{}", report.slug, age.unwrap_or_default())?;
    if !report.matches {
        writeln!(out, "  the artifact changed (state {} now, not {})", report.state_hash, report.given_hash)?;
    }
    for change in &report.changes {
        writeln!(out, "  {change}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    //! The JSON Schemas of docs/schemas/ for the operations and the errors
    //! are generated from the engine's types: a test fails when they drift
    //! (`CTX_UPDATE_SCHEMAS=1 cargo test -p ctxkeep schemas` writes them again).

    use std::path::PathBuf;

    fn check(name: &str, title: &str, mut schema: serde_json::Value) {
        let object = schema.as_object_mut().expect("a schema object");
        object.insert("$id".into(), format!("https://example.invalid/ctx/schemas/{name}.json").into());
        object.insert("title".into(), title.into());
        let text = format!("{}\n", serde_json::to_string_pretty(&schema).expect("JSON"));
        let path =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/schemas").join(format!("{name}.json"));
        if std::env::var_os("CTX_UPDATE_SCHEMAS").is_some() {
            std::fs::write(&path, &text).expect("write the schema");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            committed, text,
            "{name}.json is out of date: CTX_UPDATE_SCHEMAS=1 cargo test -p ctxkeep schemas"
        );
    }

    #[test]
    fn schemas_of_operations_and_errors_are_current() {
        check(
            "artifact-operation",
            "Artifact operation (ctx artifact apply)",
            serde_json::to_value(schemars::schema_for!(ctxkeep_core::Operation)).unwrap(),
        );
        check(
            "artifact-error",
            "Artifact error (ctx --json artifact ..., on stderr)",
            serde_json::to_value(schemars::schema_for!(ctxkeep_core::ArtifactError)).unwrap(),
        );
        check(
            "artifact-operation-result",
            "Applied operation (ctx --json artifact apply)",
            serde_json::to_value(schemars::schema_for!(ctxkeep_core::OperationResult)).unwrap(),
        );
        check(
            "artifact-context",
            "Agent context (ctx --json artifact context)",
            serde_json::to_value(schemars::schema_for!(ctxkeep_core::AgentContext)).unwrap(),
        );
        check(
            "artifact-resolution",
            "Resolved target (ctx --json artifact resolve)",
            serde_json::to_value(schemars::schema_for!(ctxkeep_core::artifact::target::Resolution)).unwrap(),
        );
        check(
            "artifact-prompt",
            "Rendered prompt (ctx --json artifact prompt)",
            serde_json::to_value(schemars::schema_for!(ctxkeep_core::ArtifactPrompt)).unwrap(),
        );
    }

    #[test]
    fn the_seeds_examples_are_operations() {
        for op in [
            r#"{"operation": "update_section", "artifact_slug": "concept", "section_slug": "what-is-it", "content": "Updated content here...", "reason": "Clarified definition based on research"}"#,
            r#"{"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "problem-being-solved", "is_done": true}"#,
            r#"{"operation": "create_section", "artifact_slug": "concept", "after_section": "core-features", "title": "Technical Requirements", "content": "...", "order": 4}"#,
            r#"{"operation": "suggest_edit", "artifact_slug": "research", "section_slug": "competitive-analysis", "suggestion": "Add comparison of pricing models", "rationale": "User asked about pricing validation"}"#,
        ] {
            ctxkeep_core::parse_operation(op).unwrap();
        }
    }
}
