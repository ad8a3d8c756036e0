//! The tools: each an input type (its JSON Schema is the tool's input
//! schema, its doc comments what the model reads), a description written for
//! the model, and an output type (its schema the tool's output schema). Each
//! calls the same engine function as its `ctx` command.

use ctxkeep_core::{
    AssembledContext, Decision, Folder, FolderPath, Frame, NewDecision, NewFrame, NewRecord, Pack, Record,
    SearchMode, SearchOptions, SearchResponse, SearchScope, Timeline, TimelineSession, TimelineThread,
    Workspace,
};
use ctxkeep_map::map::{MapOptions, RepoMap};
use ctxkeep_map::rank::{RankOptions, RankedFile};
use rmcp::handler::server::tool::schema_for_output;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Needs, Server, ToolError, reply};
use crate::args;

type Answer = Result<CallToolResult, ToolError>;

/// A bad argument value: the engine's `INVALID_INPUT`.
fn invalid(message: String) -> anyhow::Error {
    ctxkeep_core::Error::InvalidInput(message).into()
}

/// A folder argument, relative to the workspace root (a file means its folder).
fn folder(ws: &Workspace, input: &str) -> anyhow::Result<FolderPath> {
    Ok(ws.resolve_folder(ws.root(), input)?)
}

/// A folder argument as a folder key (see [`folder`]).
fn folder_key(ws: &Workspace, input: &str) -> anyhow::Result<String> {
    Ok(folder(ws, input)?.key)
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextArgs {
    /// The folder, relative to the repository root (`.` for the root). Default: `.`.
    #[serde(default)]
    pub folder: Option<String>,
    /// minimal (≤500 tokens), standard (≤2,000), full (≤5,000) or deep (unlimited). Default: standard.
    #[serde(default)]
    pub tier: Option<String>,
}

/// A folder's context file.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ContextOutput {
    /// The folder key (`.` for the root).
    pub folder: String,
    /// The file the `folder` argument named, when it named one: `folder` is its folder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_file: Option<String>,
    pub tier: String,
    /// The context file's markdown.
    pub text: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapArgs {
    /// The task (an issue, a request): files and identifiers it names rank higher.
    #[serde(default)]
    pub query: Option<String>,
    /// Files or folders being worked on (relative to the root): their neighbours rank higher.
    #[serde(default)]
    pub focus: Vec<String>,
    /// The budget for the whole map, in tokens. Default: 1024.
    #[serde(default)]
    pub tokens: Option<usize>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RankArgs {
    /// The task (an issue, a commit message, a request), in words.
    pub task: String,
    /// Only the first k files (1 to 1000). Default: 20.
    #[serde(default)]
    pub k: Option<usize>,
}

/// Source files, most relevant first.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RankOutput {
    pub files: Vec<RankedFile>,
}

/// How many files `rank` lists when not told: enough to pick from, few tokens.
const RANK_K: usize = 20;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// Words, "a phrase", pre* (all must match; if no record has them all, any may).
    pub query: String,
    /// How many hits at most (1 to 1000). Default: 10.
    #[serde(default)]
    pub k: Option<usize>,
    /// all, hot (recent) or archive. Default: all.
    #[serde(default)]
    pub scope: Option<String>,
    /// Only this session's records. Default: every session.
    #[serde(default)]
    pub session: Option<String>,
    /// lexical (words), vector (meaning: hashed n-grams, no model) or hybrid (both, fused). Default: lexical.
    #[serde(default)]
    pub mode: Option<String>,
    /// Only records of these types (any of them): query (what a person typed), response, command,
    /// system, tool_call, tool_output, note, decision, ... Default: every type.
    #[serde(default)]
    pub types: Vec<String>,
    /// Only records with every one of these tags; `!tag` excludes a tag (e.g. `!subagent` keeps
    /// the main thread only). Default: no condition.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Only records at or after this time: RFC 3339 (UTC), `YYYY-MM-DD`, or a duration ago (`7d`, `12h`).
    #[serde(default)]
    pub since: Option<String>,
    /// Only records at or before this time: as `since` (a date means its end).
    #[serde(default)]
    pub until: Option<String>,
}

impl SearchArgs {
    /// The engine's options; every filter the engine gains is one more field here.
    fn options(self) -> anyhow::Result<SearchOptions> {
        let defaults = SearchOptions::default();
        let scope = match self.scope.as_deref() {
            None => defaults.scope,
            Some(text) => SearchScope::parse(text)
                .ok_or_else(|| invalid(format!("{text:?}: the scopes are all, hot, archive")))?,
        };
        let mode = match self.mode.as_deref() {
            None => defaults.mode,
            Some(text) => SearchMode::parse(text)
                .ok_or_else(|| invalid(format!("{text:?}: the modes are lexical, vector, hybrid")))?,
        };
        Ok(SearchOptions {
            query: self.query,
            k: self.k.unwrap_or(defaults.k),
            scope,
            session: self.session.filter(|s| s != "all"),
            mode,
            types: self.types,
            tags: self.tags,
            since: self.since,
            until: self.until,
            ..Default::default()
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TimelineArgs {
    /// The anchor record's id (`H-…`, from a search hit).
    pub id: String,
    /// Records before the anchor (0 to 1000). Default: 3.
    #[serde(default)]
    pub before: Option<usize>,
    /// Records after the anchor (0 to 1000). Default: 3.
    #[serde(default)]
    pub after: Option<usize>,
    /// A session id, or `all`. Default: the anchor's session.
    #[serde(default)]
    pub session: Option<String>,
    /// Whose turns: anchor (the anchor's thread: the main one, or its subagent's), main,
    /// subagents or all. Default: anchor.
    #[serde(default)]
    pub thread: Option<String>,
}

/// Records on either side of a timeline's anchor when not told.
const TIMELINE_SIDE: usize = 3;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetArgs {
    /// The ids of the records (`H-…`), 1 to 1000 of them.
    pub ids: Vec<String>,
    /// Keep each record's JSON within this many characters, 72 at least (its text is cut first).
    /// Default: no limit. A search row's `expand.get.head` returns the record.
    #[serde(default)]
    pub head: Option<usize>,
}

/// Records in full (L2), in the order asked.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GetOutput {
    /// Each as `ctx get --json` prints it: the contract's L2 envelope (`layer`, `record` with
    /// `id`, `ts`, `role`, `type`, `refs`, `text`, `tags`, `session_id`; `source`, `truncated`),
    /// or when `head` leaves no room for it, `{id, truncated, effective_head, note}`.
    pub records: Vec<serde_json::Map<String, serde_json::Value>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PackArgs {
    /// The threshold, in tokens. Default: `[pack] tokens` of the config (1000).
    #[serde(default)]
    pub tokens: Option<usize>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FramePushArgs {
    /// What the frame is to achieve.
    pub goal: String,
    /// The parent frame's id (`F…`). Default: the current frame (none: a top-level frame).
    #[serde(default)]
    pub parent: Option<String>,
    /// One line. Default: the goal's first line.
    #[serde(default)]
    pub title: Option<String>,
    /// frame (the default), epic, task, bug, feature, ...
    #[serde(default, rename = "type")]
    pub frame_type: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FramePopArgs {
    /// The frame's id. Default: the current frame.
    #[serde(default)]
    pub id: Option<String>,
    /// completed (the default), failed (recorded as an attempt, the summary its reason) or blocked.
    #[serde(default)]
    pub status: Option<String>,
    /// What was achieved (or, for a failure, why not).
    #[serde(default)]
    pub summary: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FrameContextArgs {
    /// The frame's id. Default: the current frame.
    #[serde(default)]
    pub id: Option<String>,
    /// xml (the default), md or json.
    #[serde(default)]
    pub format: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskPromptArgs {
    /// The task's id (`F…`).
    pub id: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LogDecisionArgs {
    /// What was decided, in one line.
    pub title: String,
    /// Why.
    #[serde(default)]
    pub rationale: Option<String>,
    /// Tags such as `architectural` or `breaking`.
    #[serde(default)]
    pub tags: Vec<String>,
    /// The folder the decision is about (relative to the root). Without it, the decision is the frame's.
    #[serde(default)]
    pub folder: Option<String>,
    /// The frame the decision is taken in (not with `folder`). Default: the current frame.
    #[serde(default)]
    pub frame: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DescribeFolderArgs {
    /// The folder, relative to the repository root (`.` for the root).
    pub folder: String,
    /// Its one-line description: what lives here and why.
    #[serde(default)]
    pub description: Option<String>,
    /// Long-form markdown about the folder (replaces what there was).
    #[serde(default)]
    pub content: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RememberArgs {
    /// The note: something worth finding again in a later session.
    pub text: String,
    /// Tags to find it by.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Ids or paths it refers to.
    #[serde(default)]
    pub refs: Vec<String>,
    /// The session it belongs to.
    #[serde(default)]
    pub session: Option<String>,
}

#[tool_router(vis = "pub(super)")]
impl Server {
    /// The context file of a folder: what it holds, its place in the repository (scope chain,
    /// subfolders, related folders), its files and the decisions taken about it, within the
    /// tier's token cap. Use it before working in a folder. Cheap: read from the built files.
    #[tool(
        output_schema = schema_for_output::<ContextOutput>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn context(&self, Parameters(args): Parameters<ContextArgs>) -> Answer {
        let output = self
            .with(Needs::Workspace, move |ws| {
                let tier = args.tier.as_deref().unwrap_or("standard");
                let tier = args::parse_tier(tier).map_err(invalid)?;
                let FolderPath { key, file } = folder(ws, args.folder.as_deref().unwrap_or("."))?;
                let text = ws.context_text(&key, tier)?;
                Ok(ContextOutput { folder: key, from_file: file, tier: tier.as_str().to_string(), text })
            })
            .await?;
        let text = output.text.clone();
        reply(&output, Some(text))
    }

    /// A map of the repository within a token budget: stack, commands, key files, folder tree,
    /// and its most referenced definitions (signatures with line numbers), ranked toward the
    /// task (`query`) and the files being worked on (`focus`). Use it to get oriented in code
    /// you have not read. Works without `ctx init`. Cost: the budget (default 1024 tokens);
    /// the first call on a large repository parses it (seconds), later calls are fast.
    #[tool(
        output_schema = schema_for_output::<RepoMap>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn map(&self, Parameters(args): Parameters<MapArgs>) -> Answer {
        let map = self
            .with(Needs::AnyFolder, move |ws| {
                let focus = args
                    .focus
                    .iter()
                    .map(|f| Ok(ws.resolve_path(ws.root(), f)?))
                    .collect::<anyhow::Result<Vec<_>>>()?;
                let tokens = args.tokens.unwrap_or(ctxkeep_map::map::DEFAULT_TOKENS);
                let options = MapOptions { tokens, focus, query: args.query };
                Ok(ctxkeep_map::map::map(ws, &options, None)?)
            })
            .await?;
        let text = map.text.clone();
        reply(&map, Some(text))
    }

    /// The repository's source files ranked for a task: words of the task (BM25), the reference
    /// graph and recent change. Use it to find where to start on an issue or request. Works
    /// without `ctx init`. Returns paths with scores; cheap (about 20 lines).
    #[tool(
        output_schema = schema_for_output::<RankOutput>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn rank(&self, Parameters(args): Parameters<RankArgs>) -> Answer {
        let files = self
            .with(Needs::AnyFolder, move |ws| {
                let options = RankOptions { top: Some(args.k.unwrap_or(RANK_K)), ..RankOptions::default() };
                Ok(ctxkeep_map::rank::rank_workspace(ws, &args.task, options, None)?.0)
            })
            .await?;
        reply(&RankOutput { files }, None)
    }

    /// Step 1 of 3 of memory retrieval, cheap first: search the session memory (past prompts,
    /// answers, tool outputs, notes, decisions) and get compact hits (L0: id, time, type, a
    /// one-line summary, score), best first. Then call `timeline` on a hit to see what happened
    /// around it, and `get` only for the ids you need in full. About 40 tokens per hit.
    #[tool(
        output_schema = schema_for_output::<SearchResponse>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn search(&self, Parameters(args): Parameters<SearchArgs>) -> Answer {
        let response = self
            .with(Needs::Workspace, move |ws| {
                let options = args.options()?;
                Ok(ws.search(&options)?)
            })
            .await?;
        reply(&response, None)
    }

    /// Step 2 of 3 of memory retrieval: the records just before and after one (a `search` hit),
    /// in time order, as compact rows (L0: id, time, type, summary). Use it to see the
    /// neighbourhood of a hit before fetching anything in full with `get`. About 40 tokens per row.
    #[tool(
        output_schema = schema_for_output::<Timeline>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn timeline(&self, Parameters(args): Parameters<TimelineArgs>) -> Answer {
        let timeline = self
            .with(Needs::Workspace, move |ws| {
                let session = match args.session.as_deref() {
                    None => TimelineSession::Anchor,
                    Some("all") => TimelineSession::All,
                    Some(id) => TimelineSession::Id(id.to_string()),
                };
                let thread = match args.thread.as_deref() {
                    None => TimelineThread::default(),
                    Some(text) => TimelineThread::parse(text).ok_or_else(|| {
                        invalid(format!("{text:?}: the threads are anchor, main, subagents, all"))
                    })?,
                };
                let (before, after) =
                    (args.before.unwrap_or(TIMELINE_SIDE), args.after.unwrap_or(TIMELINE_SIDE));
                Ok(ws.timeline_in(&args.id, before, after, &session, &thread)?)
            })
            .await?;
        reply(&timeline, None)
    }

    /// Step 3 of 3 of memory retrieval, the expensive one: records in full (L2: text, refs, tags,
    /// session), for the ids you picked from `search` or `timeline`. Ask only for the ids you
    /// need; `head` keeps each record's JSON within a number of characters.
    #[tool(
        output_schema = schema_for_output::<GetOutput>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn get(&self, Parameters(args): Parameters<GetArgs>) -> Answer {
        let output = self
            .with(Needs::Workspace, move |ws| {
                ctxkeep_core::limits::count("ids", args.ids.len(), ctxkeep_core::limits::MAX_K)?;
                let mut records = Vec::with_capacity(args.ids.len());
                for id in &args.ids {
                    let json = ws.record_json(id, args.head)?;
                    records.push(serde_json::from_str(&json)?);
                }
                Ok(GetOutput { records })
            })
            .await?;
        reply(&output, None)
    }

    /// The L1 pack: what matters now, within a token threshold — pins, the session summary, a
    /// manifest of the work, the last search's hits and the recent turns. Read it at the start
    /// of a session or after a context reset. Cost: the threshold (default 1000 tokens).
    #[tool(
        output_schema = schema_for_output::<Pack>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn pack(&self, Parameters(args): Parameters<PackArgs>) -> Answer {
        let pack = self.with(Needs::Workspace, move |ws| Ok(ws.pack(args.tokens)?)).await?;
        let text = pack.text.clone();
        reply(&pack, Some(text))
    }

    /// Start a frame of work (a unit of the task at hand) under the current frame and make it
    /// current; `frame_pop` ends it. Frames keep goals, decisions and results across context
    /// resets: `frame_context` gives them back. Returns the new frame.
    #[tool(
        output_schema = schema_for_output::<Frame>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn frame_push(&self, Parameters(args): Parameters<FramePushArgs>) -> Answer {
        let frame = self
            .with(Needs::Workspace, move |ws| {
                let FramePushArgs { goal, parent, title, frame_type } = args;
                Ok(ws.push_frame(&NewFrame { goal, title, parent, frame_type })?)
            })
            .await?;
        reply(&frame, None)
    }

    /// End a frame of work (default: the current one) as completed, failed or blocked, with a
    /// summary of what was achieved (or why not); its parent becomes current. Returns the frame.
    #[tool(
        output_schema = schema_for_output::<Frame>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn frame_pop(&self, Parameters(args): Parameters<FramePopArgs>) -> Answer {
        let frame = self
            .with(Needs::Workspace, move |ws| {
                let status =
                    args::parse_status(args.status.as_deref().unwrap_or("completed")).map_err(invalid)?;
                Ok(ws.pop_frame(args.id.as_deref(), status, args.summary.as_deref())?)
            })
            .await?;
        reply(&frame, None)
    }

    /// The context of a frame (default: the current one): its goal and state, its ancestors,
    /// the relevant finished sibling frames and its finished subframes, within the token budget
    /// (default 4,000). Read it when resuming work. Cached: repeated calls are cheap.
    #[tool(
        output_schema = schema_for_output::<AssembledContext>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn frame_context(&self, Parameters(args): Parameters<FrameContextArgs>) -> Answer {
        let context = self
            .with(Needs::Workspace, move |ws| {
                let format =
                    args::parse_rendering(args.format.as_deref().unwrap_or("xml")).map_err(invalid)?;
                Ok(ws.frame_context(args.id.as_deref(), format)?)
            })
            .await?;
        let text = context.text.clone();
        reply(&context, Some(text))
    }

    /// The prompt for working on a task: the task and its criteria, its epic, the epic's
    /// finished and remaining tasks, and the last failed attempt with what to avoid. Within the
    /// token budget; cached.
    #[tool(
        output_schema = schema_for_output::<AssembledContext>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn task_prompt(&self, Parameters(args): Parameters<TaskPromptArgs>) -> Answer {
        let context = self.with(Needs::Workspace, move |ws| Ok(ws.task_prompt(&args.id)?)).await?;
        let text = context.text.clone();
        reply(&context, Some(text))
    }

    /// Record a decision: on a folder (it then shows in that folder's context for everyone who
    /// works there) or on a frame of work (default: the current frame). Say what was decided in
    /// one line, and why. Returns the decision with its id.
    #[tool(
        output_schema = schema_for_output::<Decision>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn log_decision(&self, Parameters(args): Parameters<LogDecisionArgs>) -> Answer {
        let decision = self
            .with(Needs::Workspace, move |ws| {
                let new = NewDecision {
                    title: args.title,
                    rationale: args.rationale.unwrap_or_default(),
                    tags: args.tags,
                };
                match (args.folder, args.frame) {
                    (Some(_), Some(_)) => Err(invalid("give a folder or a frame, not both".into())),
                    (Some(folder), None) => Ok(ws.log_decision(&folder_key(ws, &folder)?, &new)?),
                    (None, frame) => Ok(ws.add_frame_decision(frame.as_deref(), &new)?),
                }
            })
            .await?;
        reply(&decision, None)
    }

    /// Write what a folder is for: its one-line description (shown in its context file and its
    /// neighbours') and/or long-form markdown content. Use it when you understood a folder that
    /// has no description yet. Returns the folder.
    #[tool(
        output_schema = schema_for_output::<Folder>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn describe_folder(&self, Parameters(args): Parameters<DescribeFolderArgs>) -> Answer {
        let folder = self
            .with(Needs::Workspace, move |ws| {
                let key = folder_key(ws, &args.folder)?;
                let edit =
                    ctxkeep_core::FolderEdit { description: args.description, content_md: args.content };
                Ok(ws.describe_folder(&key, &edit)?)
            })
            .await?;
        reply(&folder, None)
    }

    /// Remember something for later sessions: a note record in the session memory, found again
    /// by `search`. Use it for facts, findings and gotchas worth keeping (not for decisions:
    /// `log_decision`). Returns the record with its id.
    #[tool(
        output_schema = schema_for_output::<Record>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn remember(&self, Parameters(args): Parameters<RememberArgs>) -> Answer {
        let record = self
            .with(Needs::Workspace, move |ws| {
                let new = NewRecord {
                    record_type: "note".into(),
                    role: Some("assistant".into()),
                    text: args.text,
                    refs: args.refs,
                    tags: args.tags,
                    session_id: args.session,
                    ts: None,
                    meta: Default::default(),
                };
                Ok(ws.add_record(&new)?)
            })
            .await?;
        reply(&record, None)
    }
}
