//! Artifacts (the ACK seed): planning documents — a concept, a spec, a
//! research note — kept as Markdown files in the repository and read as
//! ordered sections (from their headings), with the state ACK adds: a
//! stage, draft or finalized, and per section the done and collapsed flags.
//! docs/artifacts.md is the user's description.
//!
//! Where things live:
//! - the **content** is the Markdown file: people edit it with their own
//!   tools; every read parses it again (cheap), and a read that finds a new
//!   hash re-indexes it (the artifact's revision moves, cached context misses);
//! - the **state** is committed knowledge, `.ctx/knowledge/artifacts/<slug>.md`
//!   (see knowledge/), which the database is rebuilt from;
//! - **snapshots**, the **operations** applied (records of type
//!   `operation`) and **suggestions** (records of type `suggestion`) are
//!   local history in the database.
//!
//! Agent operations ([`Operation`]: `update_section`, `mark_section_done`,
//! `create_section`, `suggest_edit`) are validated, snapshotted, applied to
//! the bytes of one section only (the rest of the file is kept byte for
//! byte, its line endings too), written atomically after checking that the
//! file did not change since it was read, and logged. They run in one
//! write transaction of the store, so two processes applying operations to
//! one artifact take turns: each reads the file under the lock, and none
//! loses the other's update. A failure is an [`ArtifactError`] in the
//! seed's shape.
//!
//! Main entry points, all on [`crate::Workspace`]: `add_artifact`,
//! `artifacts`, `artifact`, `artifact_project`, `apply_operation`,
//! `artifact_history`, `restore_artifact`, `artifact_suggestions`,
//! `accept_suggestion`, `reject_suggestion`, `check_artifact`; for agents
//! `use_artifact`, `resolve_artifact_target`, `artifact_context` (the
//! seed's context levels, see `context`), `artifact_prompt`.

mod agent;
mod api;
mod context;
pub(crate) mod edit;
mod error;
mod history;
pub(crate) mod markdown;
mod ops;
mod private;
mod prompt;
#[cfg(test)]
mod proptests;
pub(crate) mod state;
// Targeting: `@artifact#section`, `/artifact section`, `#section` and titles
// (its own `//!` docs say more; an outer doc here would move their links).
pub mod target;
mod view;

use std::collections::BTreeMap;

use serde::Serialize;

pub use agent::{ArtifactPrompt, PromptKind, PromptRequest, resolution_error};
pub use context::{
    AgentContext, ArtifactContext, ContextLevel, ContextRequest, MessageContext, ProjectContext,
    SectionContext, SystemState, TokenReport, TokenUse, Truncation,
};
pub use error::{ArtifactError, ArtifactErrorCode, TargetCandidate, closest};
pub use ops::{Operation, parse_operation};

/// How many characters of a section's own text its preview holds.
pub const PREVIEW_CHARS: usize = 200;

/// Draft or finalized.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ArtifactStatus {
    Draft,
    Finalized,
}

/// One section of an artifact: its metadata, and its content when asked for. Stable JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SectionView {
    /// Unique in the artifact: the heading slugified (`What Is It?` → `what-is-it`),
    /// `-2`, `-3`, … for a repeated title, in document order.
    pub slug: String,
    pub title: String,
    /// The heading's level, 1 (`#`) to 6.
    pub level: u8,
    /// 0-based position in the document.
    pub order: usize,
    /// 1-based line of the heading in the file.
    pub line: usize,
    pub is_done: bool,
    pub is_collapsed: bool,
    /// The first 200 characters of the section's own text (whitespace
    /// folded, HTML comments left out); `null` when it has none.
    pub preview: Option<String>,
    /// The section's Markdown after its heading line (subsections
    /// included), when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

/// An artifact as an agent sees it (the seed's `ArtifactContext`). Stable JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ArtifactView {
    /// The slug (an artifact's identity).
    pub id: String,
    /// The file's name (`concept.md`).
    pub name: String,
    pub slug: String,
    /// The Markdown file, relative to the repository root.
    pub path: String,
    pub stage: String,
    pub status: ArtifactStatus,
    pub sections: Vec<SectionView>,
    /// The whole file, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    pub sections_complete: usize,
    pub sections_total: usize,
    /// Suggestions waiting to be accepted or rejected.
    pub pending_suggestions: usize,
    /// blake3 of the file's bytes (hex).
    pub file_hash: String,
    /// When the artifact's state or file last changed through ctx (or was re-indexed).
    pub updated_at: String,
    /// When this view was made (ISO-8601 UTC).
    pub generated_at: String,
    /// A hash of what this view shows (status, stage, file, sections and
    /// their flags): `ctx artifact check SLUG --hash H` says whether it still holds.
    pub state_hash: String,
}

/// An artifact in a list. Stable JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ArtifactSummary {
    pub slug: String,
    pub name: String,
    pub path: String,
    pub stage: String,
    pub status: ArtifactStatus,
    pub sections_complete: usize,
    pub sections_total: usize,
    pub pending_suggestions: usize,
    pub updated_at: String,
    pub state_hash: String,
}

/// The progress of one stage. Stable JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StageProgress {
    pub artifacts_total: usize,
    pub artifacts_finalized: usize,
    pub sections_complete: usize,
    pub sections_total: usize,
    /// sections_complete / sections_total × 100, one decimal; 0 without sections.
    pub progress_pct: f64,
}

/// The project (the seed's `ProjectContext`). Stable JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ProjectView {
    /// The root folder's name.
    pub id: String,
    pub name: String,
    pub description: String,
    /// The first stage (in `stage_order`) with an artifact not finalized;
    /// when all are, the last stage with artifacts; `null` without artifacts.
    pub current_stage: Option<String>,
    pub stages: BTreeMap<String, StageProgress>,
    /// The stages in order: the configured ones, then the others by name.
    pub stage_order: Vec<String>,
    pub artifacts: Vec<ArtifactSummary>,
    /// The latest `updated_at` of an artifact; `null` without artifacts.
    pub updated_at: Option<String>,
    pub generated_at: String,
    pub state_hash: String,
}

/// What `apply_operation` (and accepting a suggestion, and a restore) did. Stable JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OperationResult {
    /// `update_section`, `mark_section_done`, `create_section`, `suggest_edit`, `restore`.
    pub operation: String,
    pub artifact_slug: String,
    /// The section changed, created or suggested on.
    pub section_slug: Option<String>,
    /// The `operation` record logged (`O-…`); `null` for a suggestion.
    pub operation_id: Option<String>,
    /// The snapshot taken before (`S-…`); `null` for a suggestion.
    pub snapshot_id: Option<String>,
    /// The suggestion stored (`E-…`), for `suggest_edit`.
    pub suggestion_id: Option<String>,
    /// The byte range of the old file that was replaced, `[start, end)`; `null` when the file was not written.
    pub replaced: Option<[usize; 2]>,
    /// How many bytes replaced it.
    pub inserted: Option<usize>,
    /// The artifact after the operation.
    pub artifact: ArtifactView,
}

/// A suggested edit, waiting or decided. Stable JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Suggestion {
    /// `E-` and 12 hex digits.
    pub id: String,
    pub artifact_slug: String,
    pub section_slug: String,
    pub suggestion: String,
    pub rationale: Option<String>,
    /// Replacement content for the section: accepting the suggestion applies it (`update_section`).
    pub content: Option<String>,
    /// `pending`, `accepted` or `rejected`.
    pub status: String,
    pub ts: String,
    pub decided_at: Option<String>,
    /// Why it was rejected, when somebody said.
    pub decision_reason: Option<String>,
    /// The operation accepting it applied.
    pub operation_id: Option<String>,
}

/// A snapshot in an artifact's history. Stable JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SnapshotInfo {
    /// `S-` and 12 hex digits.
    pub id: String,
    pub ts: String,
    pub file_hash: String,
    pub bytes: usize,
    /// Why it was taken (the operation that followed).
    pub reason: String,
}

/// An operation in an artifact's history. Stable JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OperationEntry {
    /// `O-` and 12 hex digits.
    pub id: String,
    pub ts: String,
    pub operation: String,
    pub section_slug: Option<String>,
    pub reason: String,
    pub snapshot_id: Option<String>,
}

/// An artifact's local history, newest first. Stable JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ArtifactHistory {
    pub slug: String,
    pub snapshots: Vec<SnapshotInfo>,
    pub operations: Vec<OperationEntry>,
}

/// How an agent's view of an artifact compares with the artifact now. Stable JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StalenessReport {
    pub slug: String,
    /// Neither too old nor changed.
    pub fresh: bool,
    /// The hash the agent holds still is the artifact's.
    pub matches: bool,
    /// Older than `max_age_seconds` (unknown age: false).
    pub too_old: bool,
    pub given_hash: String,
    pub state_hash: String,
    /// When the view the agent holds was made (`--at`, else as recorded for its hash).
    pub generated_at: Option<String>,
    pub age_seconds: Option<u64>,
    pub max_age_seconds: u64,
    /// What changed since, when ctx knows the view the agent holds
    /// ("sections_total 5 -> 6", "section what-is-it is done now", …).
    pub changes: Vec<String>,
    pub checked_at: String,
}

/// What to add: a Markdown file of the repository.
#[derive(Debug, Clone, Default)]
pub struct NewArtifact {
    /// Relative to the repository root (or absolute inside it).
    pub path: String,
    /// Default: the file's name without `.md`, slugified.
    pub slug: Option<String>,
    /// Default: `[artifacts] default_stage`.
    pub stage: Option<String>,
}

/// What an artifact view holds besides the metadata.
#[derive(Debug, Clone, Default)]
pub struct ViewOptions {
    /// The whole file (refused past `[artifacts] max_content_bytes`: CONTEXT_TOO_LARGE).
    pub content: bool,
    /// The content of these sections (slugs).
    pub sections: Vec<String>,
}
