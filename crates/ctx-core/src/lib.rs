//! ctxkeep-core: the engine of ctx, a context management system for AI coding agents.
//!
//! ctx keeps what an agent should know about a repository in one SQLite store
//! (`.ctx/ctx.db`): a tree of **nodes** (folders and work frames now;
//! artifacts later) and a stream of **records** (decisions and attempts now;
//! session turns later).
//! This crate owns that store and everything that reads or writes it.
//!
//! Main types:
//! - [`Workspace`]: a repository root with its `.ctx/` folder; every operation
//!   starts here ([`Workspace::init`], [`Workspace::discover`]).
//! - [`ScanReport`], [`Status`], [`Folder`], [`Decision`], [`Frame`],
//!   [`AssembledContext`]: plain, serializable results that every front-end
//!   (CLI, Python, MCP) hands out unchanged.
//! - [`Budget`]: the token budget of assembled work context
//!   ([`Workspace::frame_context`], [`Workspace::task_prompt`]).
//! - [`Error`]: the one error type, with a stable [`Error::code`].
//!
//! ```
//! # fn main() -> Result<(), ctxkeep_core::Error> {
//! # let dir = tempfile::tempdir().unwrap();
//! # std::fs::create_dir(dir.path().join("src")).unwrap();
//! # std::fs::write(dir.path().join("src/lib.rs"), "pub fn f() {}\n").unwrap();
//! use ctxkeep_core::{NewDecision, Workspace};
//!
//! let (mut ws, _) = Workspace::init(dir.path())?;
//! let report = ws.scan()?;
//! assert_eq!(report.files_added, 1);
//! ws.log_decision("src", &NewDecision { title: "Keep the API small".into(), ..Default::default() })?;
//! assert_eq!(ws.folder("src")?.decisions.len(), 1);
//!
//! // The work tree: push a frame, and get its context within the token budget.
//! use ctxkeep_core::{NewFrame, Rendering};
//! ws.push_frame(&NewFrame { goal: "Build the API routes".into(), ..Default::default() })?;
//! let context = ws.frame_context(None, Rendering::Xml)?;
//! assert!(context.text.starts_with("<ctx-context frame=\"F1\">"));
//! assert!(context.report.tokens.total <= context.report.budget.total);
//! # Ok(()) }
//! ```
//!
//! This crate never prints, exits or panics on bad input: every failure is an
//! [`Error`] for the front-end to report.

pub mod agents;
pub mod artifact;
pub mod assemble;
mod budget;
pub mod build;
mod config;
mod error;
mod folders;
mod frames;
mod fsutil;
pub mod install;
pub mod knowledge;
pub mod limits;
pub mod memory;
pub mod paths;
mod records;
mod scan;
pub mod secrets;
mod sources;
mod store;
pub mod structure;
mod templates;
mod term_index;
pub mod time;
pub mod tokens;
mod watch;
pub mod wording;
mod workspace;

pub use agents::{FileRole, FileUpdate, UpdateOptions, UpdateReport, UpdateStatus};
pub use artifact::{
    AgentContext, ArtifactContext, ArtifactPrompt, ContextLevel, ContextRequest, MessageContext,
    ProjectContext, PromptKind, PromptRequest, SectionContext, SystemState, TokenReport, TokenUse,
    Truncation, resolution_error,
};
pub use artifact::{
    ArtifactError, ArtifactErrorCode, ArtifactHistory, ArtifactStatus, ArtifactSummary, ArtifactView,
    NewArtifact, Operation, OperationEntry, OperationResult, ProjectView, SectionView, SnapshotInfo,
    StageProgress, StalenessReport, Suggestion, TargetCandidate, ViewOptions, parse_operation,
};
pub use assemble::{
    AncestorCounts, AssembledContext, AssemblyReport, CacheReport, Rendering, SectionTokens, SiblingCounts,
    SubframeCounts,
};
pub use budget::{Budget, BudgetSources};
pub use build::{BuildMode, BuildOptions, BuildReport, RenderedContext, Tier, TodoFolder, ValidateReport};
pub use config::{
    AgentsConfig, ArtifactsConfig, BudgetConfig, BuildConfig, CacheConfig, Config, ContextAllocation,
    DEFAULT_CONFIG_TOML, ScanConfig, SelectionConfig,
};
pub use config::{HooksConfig, IngestHooks, Inject, SessionStartHook, UserPromptHook};
pub use error::{Error, Result};
pub use folders::{FileEntry, Folder, FolderEdit, Relation};
pub use frames::{
    Attempt, Frame, FrameDetail, FrameLine, FrameStatus, FrameTree, NewAttempt, NewFrame, NewTask, TaskFilter,
};
pub use fsutil::{open_within, process_is_gone, read_within, write_atomic};
pub use knowledge::KnowledgeReport;
pub use memory::{
    EmbedError, Embedder, EmbedderFailure, HashedNgrams, IngestError, IngestReport, L0Row, LEXICAL_WINDOW,
    NewRecord, Pack, PackSection, Record, SearchMode, SearchOptions, SearchResponse, SearchScope, Timeline,
    TimelineSession, TimelineThread, VECTOR_ENGINE,
};
pub use memory::{TranscriptIngestReport, TranscriptRead};
pub use records::{Decision, NewDecision};
pub use scan::{
    ChangedFiles, EarlierScans, FileKind, ScanIssue, ScanPhases, ScanReport, generated_notice, language,
    secret_by_content, secret_by_name,
};
pub use secrets::{Detector, Finding, HiddenFile, SecretFinding, SecretsConfig, SecretsReport};
pub use sources::{Outline, OutlineDef, SourceFile, default_cache_dir};
pub use store::{SCHEMA_VERSION, Store};
pub use term_index::{DocTerms, TermDoc, TermIndex, TermSegment};
pub use watch::{WatchCycle, WatchOptions};
pub use workspace::{CONFIG_FILE, CTX_DIR, FolderPath, InitReport, Status, Workspace};

// The README's example is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
