//! The artifact tools (the ACK seed): an agent context at a level, an
//! operation applied, a message's target, a prompt. Their errors are the
//! seed's object (`{"error": "SECTION_NOT_FOUND", "message", "suggestions"}`).

use ctxkeep_core::artifact::target::{Resolution, Target};
use ctxkeep_core::{
    AgentContext, ArtifactPrompt, ContextLevel, ContextRequest, Operation, OperationResult, PromptKind,
    PromptRequest, resolution_error,
};
use rmcp::handler::server::tool::schema_for_output;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{Needs, Server, ToolError, reply};

type Answer = Result<CallToolResult, ToolError>;

fn invalid(message: String) -> anyhow::Error {
    ctxkeep_core::Error::InvalidInput(message).into()
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactContextArgs {
    /// The artifact. Default: the message's target, else the current artifact (`ctx artifact use`).
    #[serde(default)]
    pub slug: Option<String>,
    /// minimal (names, stage, section list), standard (+ project summary, previews, referenced
    /// sections, chat history) or full (+ the whole artifact, related artifacts). Default: standard.
    #[serde(default)]
    pub level: Option<String>,
    /// Sections of the artifact whose content to include (slugs).
    #[serde(default)]
    pub sections: Vec<String>,
    /// The user's message: the section it targets is included.
    #[serde(default)]
    pub message: Option<String>,
    /// The whole token allocation (every share scaled). Default: `[artifacts.context]`, 36000.
    #[serde(default)]
    pub tokens: Option<usize>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactApplyArgs {
    /// One operation object: update_section, mark_section_done, create_section or suggest_edit
    /// (docs/artifacts.md).
    pub operation: Operation,
    /// Apply to a finalized artifact all the same. Default: false.
    #[serde(default)]
    pub override_finalized: bool,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactResolveArgs {
    /// A chat message: `@artifact#section …`, `/artifact section …`, `#section …` or plain words.
    pub text: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactPromptArgs {
    /// chat (the user's message with the artifact's sections) or research (a query and the
    /// section its findings should update).
    pub kind: String,
    /// The chat message, or the research query.
    pub text: String,
    /// The artifact. Default: the text's target, else the current artifact.
    #[serde(default)]
    pub slug: Option<String>,
    /// research: the section to update. Default: the query's target.
    #[serde(default)]
    pub section: Option<String>,
}

#[tool_router(router = artifact_tool_router, vis = "pub(super)")]
impl Server {
    /// What an agent should know of the planning artifacts (ACK): the project and its stage,
    /// the current artifact's sections with done states, at `standard` their previews, the
    /// sections referenced (`sections`, or the one `message` targets) and the recent chat, at
    /// `full` the whole artifact and related ones; within a token allocation. Private notes are
    /// never included. `systemState.state_hash` tells whether it went stale. Returns Markdown.
    #[tool(
        output_schema = schema_for_output::<AgentContext>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn artifact_context(&self, Parameters(args): Parameters<ArtifactContextArgs>) -> Answer {
        let (context, text) = self
            .with(Needs::Workspace, move |ws| {
                let level = match args.level.as_deref() {
                    None => ContextLevel::Standard,
                    Some(text) => ContextLevel::parse(text).ok_or_else(|| {
                        invalid(format!("{text:?}: the levels are minimal, standard, full"))
                    })?,
                };
                let request = ContextRequest {
                    slug: args.slug,
                    level,
                    sections: args.sections,
                    message: args.message,
                    tokens: args.tokens,
                    session: None,
                };
                let context = ws.artifact_context(&request)?;
                let text = ws.render_artifact_context(&context)?;
                Ok((context, text))
            })
            .await?;
        reply(&context, Some(text))
    }

    /// Change a planning artifact with one operation: update_section (replace a section's
    /// text), mark_section_done, create_section, or suggest_edit (stored for a person to accept).
    /// Checked first (artifact and section exist, not finalized, content fits), snapshotted,
    /// applied to that section's bytes only, logged. Returns what was done and the artifact after.
    #[tool(
        output_schema = schema_for_output::<OperationResult>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn artifact_apply(&self, Parameters(args): Parameters<ArtifactApplyArgs>) -> Answer {
        let result = self
            .with(Needs::Workspace, move |ws| {
                let mut operation = args.operation;
                if args.override_finalized {
                    operation.set_override_finalized(true);
                }
                Ok(ws.apply_operation(&operation)?)
            })
            .await?;
        reply(&result, None)
    }

    /// Which artifact and section a user's message is about (`@concept#what-is-it`,
    /// `/research competitive-analysis`, `#section` in the current artifact, or titles in plain
    /// words), with the rest of the message and a confidence (below 0.6: confirm first). A
    /// message that fits several sections fails with AMBIGUOUS_TARGET and the candidates: ask.
    #[tool(
        output_schema = schema_for_output::<Target>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn artifact_resolve(&self, Parameters(args): Parameters<ArtifactResolveArgs>) -> Answer {
        let target = self
            .with(Needs::Workspace, move |ws| {
                let resolution = ws.resolve_artifact_target(&args.text, None)?;
                match resolution {
                    Resolution::Resolved(target) => Ok(target),
                    other => {
                        let err = resolution_error(&args.text, &other)
                            .unwrap_or_else(|| ctxkeep_core::ArtifactError::invalid("unresolved target"));
                        Err(ctxkeep_core::Error::from(err).into())
                    }
                }
            })
            .await?;
        reply(&target, None)
    }

    /// A ready prompt for working on a planning artifact: `chat` (the project, stage, the
    /// artifact's sections with done marks, the user's message) or `research` (a query, the
    /// section to update, and the JSON answer expected, with an update_section operation).
    #[tool(
        output_schema = schema_for_output::<ArtifactPrompt>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn artifact_prompt(&self, Parameters(args): Parameters<ArtifactPromptArgs>) -> Answer {
        let prompt = self
            .with(Needs::Workspace, move |ws| {
                let kind = match args.kind.as_str() {
                    "chat" => PromptKind::Chat,
                    "research" => PromptKind::Research,
                    other => return Err(invalid(format!("{other:?}: the kinds are chat, research"))),
                };
                let request = PromptRequest { kind, slug: args.slug, text: args.text, section: args.section };
                Ok(ws.artifact_prompt(&request)?)
            })
            .await?;
        let text = prompt.text.clone();
        reply(&prompt, Some(text))
    }
}
