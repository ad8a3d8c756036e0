//! Agent contexts (the seed's `AgentContext`): what an agent is shown of the
//! project at one of three levels, filled part by part within a token
//! allocation (`[artifacts.context]`, the seed's table by default).
//!
//! What goes in, by the seed's rules:
//! - **always** (every level, the minimum): the project's name and current
//!   stage, the current artifact's name and status, and its section list
//!   (titles, slugs, done states). When even that does not fit the whole
//!   allocation: `CONTEXT_TOO_LARGE`.
//! - **if referenced** (standard and full): the content of the sections
//!   named by `--section` or by the message's target; the artifact the
//!   message targets when it is not the current one (as a related artifact).
//! - by level: standard adds the project summary (description, stage
//!   progress), section previews and the chat history; full adds the whole
//!   current artifact and summaries of related artifacts (linked from the
//!   current one — its path, file name or `@slug` appears in it — then the
//!   others of its stage).
//! - **never**: deleted content (snapshots, rejected suggestions: they are
//!   not read), private notes (a section whose heading line or first line is
//!   `<!-- private -->` is listed without preview or content, with its
//!   subsections; a comment starting `<!-- private` is cut from any content),
//!   and system internals (database ids, file hashes).
//!
//! Every piece is counted, with the workspace's tokenizer, as the Markdown
//! line it renders to; a piece that does not fit its part's share is cut
//! (content) or dropped (previews, related artifacts, older turns), and
//! `systemState.truncated` says which.

use std::collections::BTreeMap;

use serde::Serialize;

use super::markdown::SectionSpan;
use super::target::Resolution;
use super::view::Loaded;
use super::{ArtifactError, ArtifactStatus, ArtifactView, ProjectView, StageProgress};
use crate::config::ContextAllocation;
use crate::error::Result;
use crate::tokens::Tokenizer;

/// How much an agent context shows (the seed's three levels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ContextLevel {
    /// Free chat: the always-included minimum, no content.
    Minimal,
    /// Section targeting: + project summary, previews, referenced sections, chat history.
    #[default]
    Standard,
    /// Deep analysis: + the whole current artifact, related artifacts.
    Full,
}

impl ContextLevel {
    /// `minimal`, `standard` or `full`.
    pub fn parse(text: &str) -> Option<ContextLevel> {
        match text {
            "minimal" => Some(ContextLevel::Minimal),
            "standard" => Some(ContextLevel::Standard),
            "full" => Some(ContextLevel::Full),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ContextLevel::Minimal => "minimal",
            ContextLevel::Standard => "standard",
            ContextLevel::Full => "full",
        }
    }
}

/// What context to make.
#[derive(Debug, Clone, Default)]
pub struct ContextRequest {
    /// The current artifact; default: the message's target, else `ctx artifact use`'s.
    pub slug: Option<String>,
    pub level: ContextLevel,
    /// Sections of the current artifact whose content to include.
    pub sections: Vec<String>,
    /// A chat message: its target (see `resolve_artifact_target`) is a referenced section.
    pub message: Option<String>,
    /// The whole allocation in tokens (the shares scaled); default `[artifacts.context]`.
    pub tokens: Option<usize>,
    /// The session whose turns are the chat history; default the latest one.
    pub session: Option<String>,
}

/// An agent context (the seed's `AgentContext`). Stable JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AgentContext {
    pub project: ProjectContext,
    /// `null` when no artifact is current (none given, none `use`d, the message targets none).
    #[serde(rename = "currentArtifact")]
    pub current_artifact: Option<ArtifactContext>,
    #[serde(rename = "relatedArtifacts")]
    pub related_artifacts: Vec<ArtifactContext>,
    /// Recent turns, oldest first.
    #[serde(rename = "chatHistory")]
    pub chat_history: Vec<MessageContext>,
    #[serde(rename = "systemState")]
    pub system_state: SystemState,
}

/// The project (the seed's `ProjectContext`; description and stages from the standard level on).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ProjectContext {
    pub id: String,
    pub name: String,
    pub current_stage: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stages: Option<BTreeMap<String, StageProgress>>,
    /// The stages in order (with `stages`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage_order: Option<Vec<String>>,
    pub updated_at: Option<String>,
}

/// An artifact in a context (the seed's `ArtifactContext`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ArtifactContext {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub path: String,
    pub stage: String,
    pub status: ArtifactStatus,
    pub sections: Vec<SectionContext>,
    /// The whole Markdown, private notes withheld (the current artifact, full level).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    pub sections_complete: usize,
    pub sections_total: usize,
    pub updated_at: String,
    /// The artifact's state hash: `ctx artifact check SLUG --hash H`.
    pub state_hash: String,
    /// Why a related artifact is there: `referenced`, `linked` or `same_stage`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relation: Option<String>,
}

/// A section in a context.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SectionContext {
    pub slug: String,
    /// HTML comments left out.
    pub title: String,
    pub level: u8,
    pub order: usize,
    pub is_done: bool,
    pub is_collapsed: bool,
    /// The first 200 characters of its text (standard and full; `null` without text or at minimal).
    pub preview: Option<String>,
    /// Its Markdown after the heading, when referenced (private notes withheld).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Marked `<!-- private -->`: no preview, no content.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub private: bool,
}

/// A chat turn from the session records.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MessageContext {
    /// The record's id.
    pub id: String,
    /// `query` (what a person asked) or `response`.
    #[serde(rename = "type")]
    pub record_type: String,
    pub role: Option<String>,
    pub content: String,
    pub ts: String,
    pub session_id: Option<String>,
    /// Cut to fit the chat history's share.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub truncated: bool,
}

/// How and when the context was made.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SystemState {
    pub generated_at: String,
    /// The current artifact's state hash (`ctx artifact check SLUG --hash H`);
    /// the project's when no artifact is current.
    pub state_hash: String,
    pub level: ContextLevel,
    /// Every artifact shown, by slug: its state hash.
    pub artifact_hashes: BTreeMap<String, String>,
    /// The tokenizer that counted (`o200k_base`, `estimate`).
    pub tokenizer: String,
    pub tokens: TokenReport,
    /// What did not fit whole.
    pub truncated: Vec<Truncation>,
    /// What the message targets, when one was given.
    pub target: Option<Resolution>,
    /// The session the chat history is from.
    pub chat_session: Option<String>,
}

/// The allocation, and what each part used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TokenReport {
    pub allocation: ContextAllocation,
    pub used: TokenUse,
}

/// Tokens used per part.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TokenUse {
    pub project: usize,
    pub current_artifact: usize,
    pub related_artifacts: usize,
    pub chat_history: usize,
    pub total: usize,
}

/// A piece that was cut or left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Truncation {
    /// `project`, `current_artifact`, `related_artifacts` or `chat_history`.
    pub part: String,
    /// What: `content`, `section what-is-it`, `previews`, `artifact research`, `older turns`.
    pub item: String,
    /// `cut` (kept in part) or `dropped`.
    pub action: String,
    /// Tokens it would have taken whole.
    pub tokens: usize,
    /// Tokens of it kept.
    pub kept: usize,
}

/// An artifact with what the context may show of it.
pub(crate) struct Source<'a> {
    pub loaded: &'a Loaded,
    pub view: &'a ArtifactView,
}

/// Everything a context is made from, already selected.
pub(crate) struct Inputs<'a> {
    pub project: &'a ProjectView,
    pub current: Option<Source<'a>>,
    /// Slugs of the current artifact's sections whose content to include.
    pub referenced: Vec<String>,
    /// (artifact, relation, referenced section), in the order they should be kept.
    pub related: Vec<(Source<'a>, &'static str, Option<String>)>,
    /// Newest first.
    pub chat: Vec<MessageContext>,
    pub chat_session: Option<String>,
    pub target: Option<Resolution>,
}

/// A running share: what a part may still take.
struct Share {
    left: usize,
    used: usize,
}

impl Share {
    fn new(tokens: usize) -> Share {
        Share { left: tokens, used: 0 }
    }

    /// Take `tokens` if they fit.
    fn take(&mut self, tokens: usize) -> bool {
        if tokens > self.left {
            return false;
        }
        self.left -= tokens;
        self.used += tokens;
        true
    }

    /// Take `tokens` even past the share (the minimum always goes in).
    fn force(&mut self, tokens: usize) {
        self.left = self.left.saturating_sub(tokens);
        self.used += tokens;
    }
}

/// Build the context from `inputs` at `level` within `allocation`.
pub(crate) fn build(
    inputs: Inputs<'_>,
    level: ContextLevel,
    allocation: ContextAllocation,
    tok: &dyn Tokenizer,
) -> Result<AgentContext> {
    let mut truncated = Vec::new();
    let mut project_share = Share::new(allocation.project);
    let mut current_share = Share::new(allocation.current_artifact);
    let project = inputs.project;

    // The minimum: project name and stage, the current artifact's name, status and section list.
    let stage = project.current_stage.clone().unwrap_or_default();
    project_share.force(tok.count(&format!("Project: {} (stage {stage})\n", project.name)));
    let mut current = inputs.current.as_ref().map(|source| artifact_context(source, None));
    if let Some(artifact) = &current {
        current_share.force(outline_tokens(artifact, tok));
    }
    let minimum = project_share.used + current_share.used;
    if minimum > allocation.total() {
        return Err(ArtifactError::context_too_large(
            format!(
                "The context's minimum (project, artifact name and section list: {minimum} tokens) exceeds the allocation ({} tokens)",
                allocation.total()
            ),
            "Summarizing content or requesting specific sections: raise --tokens or [artifacts.context], or split the artifact",
        )
        .into());
    }

    let mut project_context = ProjectContext {
        id: project.id.clone(),
        name: project.name.clone(),
        current_stage: project.current_stage.clone(),
        description: None,
        stages: None,
        stage_order: None,
        updated_at: project.updated_at.clone(),
    };
    if level >= ContextLevel::Standard {
        project_summary(project, &mut project_context, &mut project_share, &mut truncated, tok);
    }

    if let (Some(artifact), Some(source)) = (current.as_mut(), inputs.current.as_ref()) {
        if level >= ContextLevel::Standard {
            for slug in &inputs.referenced {
                section_content(source, artifact, slug, &mut current_share, &mut truncated, tok);
            }
            previews(source, artifact, &mut current_share, &mut truncated, tok);
        }
        if level == ContextLevel::Full {
            let whole = super::private::withheld(&source.loaded.text, &source.loaded.doc);
            let kept = cut_to(&whole, &mut current_share, "current_artifact", "content", &mut truncated, tok);
            artifact.content = Some(kept);
        }
    }

    let mut related_share = Share::new(allocation.related_artifacts);
    let mut related = Vec::new();
    for (source, relation, section) in &inputs.related {
        let include = match *relation {
            "referenced" => level >= ContextLevel::Standard,
            _ => level == ContextLevel::Full,
        };
        if !include {
            continue;
        }
        let mut summary = artifact_context(source, Some(relation));
        let outline = outline_tokens(&summary, tok);
        if !related_share.take(outline) {
            truncated.push(dropped("related_artifacts", format!("artifact {}", summary.slug), outline));
            continue;
        }
        if let Some(slug) = section {
            section_content(source, &mut summary, slug, &mut related_share, &mut truncated, tok);
        }
        related.push(summary);
    }

    let mut chat_share = Share::new(allocation.chat_history);
    let mut chat = Vec::new();
    if level >= ContextLevel::Standard {
        chat = chat_history(&inputs.chat, &mut chat_share, &mut truncated, tok);
    }

    let mut artifact_hashes = BTreeMap::new();
    for artifact in current.iter().chain(&related) {
        artifact_hashes.insert(artifact.slug.clone(), artifact.state_hash.clone());
    }
    let used = TokenUse {
        project: project_share.used,
        current_artifact: current_share.used,
        related_artifacts: related_share.used,
        chat_history: chat_share.used,
        total: project_share.used + current_share.used + related_share.used + chat_share.used,
    };
    let state_hash = current.as_ref().map_or_else(|| project.state_hash.clone(), |a| a.state_hash.clone());
    Ok(AgentContext {
        project: project_context,
        current_artifact: current,
        related_artifacts: related,
        chat_history: chat,
        system_state: SystemState {
            generated_at: crate::time::now_iso(),
            state_hash,
            level,
            artifact_hashes,
            tokenizer: tok.name().to_string(),
            tokens: TokenReport { allocation, used },
            truncated,
            target: inputs.target,
            chat_session: inputs.chat_session,
        },
    })
}

/// The metadata of an artifact: no previews, no content.
fn artifact_context(source: &Source<'_>, relation: Option<&str>) -> ArtifactContext {
    let view = source.view;
    let private = super::private::sections(&source.loaded.text, &source.loaded.doc);
    let sections = view
        .sections
        .iter()
        .zip(&private)
        .map(|(section, private)| SectionContext {
            slug: section.slug.clone(),
            title: super::private::without_comments(&section.title),
            level: section.level,
            order: section.order,
            is_done: section.is_done,
            is_collapsed: section.is_collapsed,
            preview: None,
            content: None,
            private: *private,
        })
        .collect();
    ArtifactContext {
        id: view.id.clone(),
        name: view.name.clone(),
        slug: view.slug.clone(),
        path: view.path.clone(),
        stage: view.stage.clone(),
        status: view.status,
        sections,
        content: None,
        sections_complete: view.sections_complete,
        sections_total: view.sections_total,
        updated_at: view.updated_at.clone(),
        state_hash: view.state_hash.clone(),
        relation: relation.map(str::to_string),
    }
}

/// The tokens of an artifact's header line and section list.
fn outline_tokens(artifact: &ArtifactContext, tok: &dyn Tokenizer) -> usize {
    let status = if artifact.status == ArtifactStatus::Finalized { "finalized" } else { "draft" };
    let mut text = format!(
        "Artifact: {} ({}, {status}, {}/{} sections done)\n",
        artifact.name, artifact.slug, artifact.sections_complete, artifact.sections_total
    );
    for section in &artifact.sections {
        let mark = if section.is_done { "x" } else { " " };
        text.push_str(&format!("- [{mark}] {} ({})\n", section.title, section.slug));
    }
    tok.count(&text)
}

fn project_summary(
    project: &ProjectView,
    context: &mut ProjectContext,
    share: &mut Share,
    truncated: &mut Vec<Truncation>,
    tok: &dyn Tokenizer,
) {
    let tokens = tok.count(&project.description);
    if share.take(tokens) {
        context.description = Some(project.description.clone());
    } else {
        truncated.push(dropped("project", "description".into(), tokens));
    }
    let lines: String = project
        .stages
        .iter()
        .map(|(stage, p)| {
            format!(
                "- {stage}: {}/{} finalized, {}/{} sections ({}%)\n",
                p.artifacts_finalized,
                p.artifacts_total,
                p.sections_complete,
                p.sections_total,
                p.progress_pct
            )
        })
        .collect();
    let tokens = tok.count(&lines);
    if share.take(tokens) {
        context.stages = Some(project.stages.clone());
        context.stage_order = Some(project.stage_order.clone());
    } else {
        truncated.push(dropped("project", "stages".into(), tokens));
    }
}

/// The previews of the sections, in order, while they fit; private ones have none.
fn previews(
    source: &Source<'_>,
    artifact: &mut ArtifactContext,
    share: &mut Share,
    truncated: &mut Vec<Truncation>,
    tok: &dyn Tokenizer,
) {
    let mut left_out = (0, 0);
    for (section, view) in artifact.sections.iter_mut().zip(&source.view.sections) {
        let Some(preview) = view.preview.as_ref().filter(|_| !section.private) else { continue };
        let tokens = tok.count(preview);
        if left_out.0 == 0 && share.take(tokens) {
            section.preview = Some(super::private::without_private_comments(preview));
        } else {
            left_out = (left_out.0 + 1, left_out.1 + tokens);
        }
    }
    if left_out.0 > 0 {
        truncated.push(dropped(
            "current_artifact",
            format!("previews of {} sections", left_out.0),
            left_out.1,
        ));
    }
}

/// Section `slug`'s content into `artifact`, cut to the share.
fn section_content(
    source: &Source<'_>,
    artifact: &mut ArtifactContext,
    slug: &str,
    share: &mut Share,
    truncated: &mut Vec<Truncation>,
    tok: &dyn Tokenizer,
) {
    let doc = &source.loaded.doc;
    let Some(index) = doc.sections.iter().position(|s| s.slug == slug) else { return };
    let Some(section) = artifact.sections.get_mut(index) else { return };
    if section.private || section.content.is_some() {
        return;
    }
    let span: &SectionSpan = &doc.sections[index];
    let whole = super::private::body_withheld(&source.loaded.text, doc, index);
    // The blank lines around a section's text say nothing.
    let body = whole.trim_start_matches(['\r', '\n']).trim_end();
    let part = if artifact.relation.is_some() { "related_artifacts" } else { "current_artifact" };
    let item = format!("section {}", span.slug);
    section.content = Some(cut_to(body, share, part, &item, truncated, tok));
}

/// `text` whole if it fits `share`, else its longest prefix that does (noted).
fn cut_to(
    text: &str,
    share: &mut Share,
    part: &str,
    item: &str,
    truncated: &mut Vec<Truncation>,
    tok: &dyn Tokenizer,
) -> String {
    let tokens = tok.count(text);
    if share.take(tokens) {
        return text.to_string();
    }
    let kept = tok.truncate(text, share.left);
    let kept_tokens = tok.count(kept);
    share.force(kept_tokens);
    truncated.push(Truncation {
        part: part.into(),
        item: item.into(),
        action: "cut".into(),
        tokens,
        kept: kept_tokens,
    });
    kept.to_string()
}

/// The newest turns that fit, oldest first; the newest is cut rather than left out.
fn chat_history(
    newest_first: &[MessageContext],
    share: &mut Share,
    truncated: &mut Vec<Truncation>,
    tok: &dyn Tokenizer,
) -> Vec<MessageContext> {
    let mut kept = Vec::new();
    let mut left_out = (0, 0);
    for message in newest_first {
        let line =
            format!("{}: {}\n", message.role.as_deref().unwrap_or(&message.record_type), message.content);
        let tokens = tok.count(&line);
        if left_out.0 > 0 {
            left_out = (left_out.0 + 1, left_out.1 + tokens);
        } else if share.take(tokens) {
            kept.push(message.clone());
        } else if kept.is_empty() && share.left > 0 {
            let content = tok.truncate(&message.content, share.left).to_string();
            share.force(tok.count(&content));
            kept.push(MessageContext { content, truncated: true, ..message.clone() });
            truncated.push(Truncation {
                part: "chat_history".into(),
                item: format!("turn {}", message.id),
                action: "cut".into(),
                tokens,
                kept: share.used,
            });
        } else {
            left_out = (1, tokens);
        }
    }
    if left_out.0 > 0 {
        truncated.push(dropped("chat_history", format!("{} older turns", left_out.0), left_out.1));
    }
    kept.reverse();
    kept
}

fn dropped(part: &str, item: String, tokens: usize) -> Truncation {
    Truncation { part: part.into(), item, action: "dropped".into(), tokens, kept: 0 }
}
