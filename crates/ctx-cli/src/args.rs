//! The command line, as clap derive structs. Conversion into library options
//! happens in each command's `run`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use ctxkeep_core::{FrameStatus, Rendering, Tier};

/// Context management for AI coding agents: what an agent should know about
/// this repository, kept in `.ctx/` and served as small, ranked context.
#[derive(Debug, Parser)]
#[command(name = "ctx", version, propagate_version = true, max_term_width = 100)]
pub struct Cli {
    /// The workspace root (the folder holding `.ctx/`). Default: found by
    /// walking up from the current directory, like git.
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,

    /// Print machine-readable JSON instead of text.
    #[arg(long, global = true)]
    pub json: bool,

    /// Print only what was asked for: no progress, no report of the work done, no notes
    /// (warnings and errors still go to stderr; --json output is unchanged).
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Print more where there is more to say: timings, which files, every folder of a list.
    #[arg(short, long, global = true)]
    pub verbose: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create `.ctx/` here (or in --root), write ctx's section in AGENTS.md and CLAUDE.md,
    /// scan, build the context files and write `.ctx/map.md`. Idempotent.
    Init(InitArgs),
    /// Refresh what ctx writes for agents: its section in AGENTS.md, CLAUDE.md (`[agents] files`),
    /// the prompts of `.ctx/` a person never edited, and `.ctx/map.md`.
    Update(UpdateArgs),
    /// Bring the store up to date with the files on disk and mark changed folders stale.
    Scan,
    /// Show counts, stale folders and the last scan time.
    Status,
    /// Show and edit what ctx knows about a folder.
    #[command(subcommand)]
    Folder(FolderCommand),
    /// Log a decision on a folder, or list decisions (`ctx log list`).
    Log(LogArgs),
    /// Write the context files of `.ctx/context/` whose inputs changed (all four tiers).
    Build(BuildArgs),
    /// Print a folder's context as its context file holds it, built from the database (writes nothing).
    Context(ContextArgs),
    /// Compare `.ctx/context/` with the database; exit 1 if any file is missing, stale, edited or orphaned.
    Validate,
    /// Rescan and rebuild whenever files change, until interrupted.
    Watch(WatchArgs),
    /// Print a map of the repository: stack, commands, key files, tree, and its most
    /// referenced definitions within a token budget (works without `ctx init`).
    Map(MapArgs),
    /// Print the repository's source files, most relevant to a task first (works without `ctx init`).
    Rank(RankArgs),
    /// How well `ctx rank` and `ctx map --query` find the files past commits modified, from
    /// their messages, next to plain BM25: R@1/5/10 and MRR on the repository's own git history
    /// (needs git, not `ctx init`; the work tree is never touched).
    Eval(EvalArgs),
    /// The work tree: push and pop frames of work, and the context an agent working on one reads.
    #[command(subcommand)]
    Frame(FrameCommand),
    /// Planning documents (artifacts): their sections, stages and progress, and the agent
    /// operations on them (apply, suggestions, history, restore, staleness check).
    #[command(subcommand)]
    Artifact(crate::commands::artifact::ArtifactsCommand),
    /// Tasks and epics: add, start, finish or fail them, list them, and print a task's prompt.
    #[command(subcommand)]
    Task(TaskCommand),
    /// The cache of assembled frame context.
    #[command(subcommand)]
    Cache(CacheCommand),
    /// Session memory: add a record (a query, response, tool output, note, ...).
    #[command(subcommand)]
    Record(RecordCommand),
    /// Add the records of a JSONL file (ctx records or a Claude Code transcript); `-` reads stdin.
    Ingest(IngestArgs),
    /// Find records by words, phrases ("...") and prefixes (word*): L0 rows, best first.
    Search(SearchArgs),
    /// The records around one (a search hit): L0 rows in time order.
    Timeline(TimelineArgs),
    /// One record in full (L2); `--head N` keeps its JSON within N characters.
    Get(GetArgs),
    /// Move session records older than a duration from the hot pool to the archive.
    Archive(ArchiveArgs),
    /// The L1 pack: pins, summary, manifest, last search, recent turns, within a token threshold.
    Pack(PackArgs),
    /// Pins: what every pack shows first.
    #[command(subcommand)]
    Pin(PinCommand),
    /// The secret detector: what it finds in the repository, and its rules.
    #[command(subcommand)]
    Secrets(SecretsCommand),
    /// Serve ctx's tools to an agent over MCP (stdio): context, map, rank, search, timeline, get,
    /// pack, frames, decisions, notes (see docs/mcp.md).
    Mcp,
    /// Answer a Claude Code hook from its JSON on stdin: SessionStart and UserPromptSubmit
    /// inject context, PreCompact, Stop and SessionEnd ingest the transcript's new lines.
    /// Always exits 0 (docs/hooks.md).
    Hook(HookArgs),
    /// Make an agent harness use ctx: its MCP server (`ctx mcp`) and, for Claude Code, its
    /// hooks, merged into the harness's config files, other entries kept (docs/harnesses.md).
    Install(InstallArgs),
    /// Remove what `ctx install` added to a harness's config files, and the files it created.
    Uninstall(InstallArgs),
}

#[derive(Debug, Args)]
pub struct InstallArgs {
    /// The harness whose config files are edited.
    #[arg(value_parser = ["claude-code", "codex", "cursor", "opencode"])]
    pub harness: String,
    /// The user's own config files (in the home directory) instead of the project's.
    #[arg(long)]
    pub user: bool,
    /// Show the change to each file as a diff; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// The program the entries run, e.g. an absolute path (default: `ctx`, found on PATH).
    #[arg(long, value_name = "PATH", default_value = "ctx")]
    pub command: String,
}

#[derive(Debug, Subcommand)]
pub enum SecretsCommand {
    /// Scan, then list the secrets in the repository's files (path, line, rule,
    /// fingerprint; never the value) and the files hidden whole (works without `ctx init`).
    Scan {
        /// Only the files at or below this folder.
        path: Option<String>,
    },
    /// List the rules in force: built-in, then `[secrets] rules` of .ctx/config.toml.
    Rules,
}

#[derive(Debug, Args)]
pub struct PackArgs {
    /// The threshold, in tokens (default: `[pack] tokens`, 1000).
    #[arg(long, value_name = "N")]
    pub tokens: Option<usize>,
}

#[derive(Debug, Subcommand)]
pub enum PinCommand {
    /// Pin a text; prints its id.
    Add {
        #[arg(allow_hyphen_values = true)]
        text: String,
    },
    /// Remove a pin.
    Rm { id: String },
    /// The pins, newest first.
    List,
}

#[derive(Debug, Args)]
pub struct TimelineArgs {
    /// The anchor record's id.
    pub id: String,
    /// Records before the anchor (at most 1000).
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub before: usize,
    /// Records after the anchor (at most 1000).
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub after: usize,
    /// A session id, or `all`; default: the anchor's session.
    #[arg(long)]
    pub session: Option<String>,
    /// Whose turns: anchor (the anchor's thread: main, or its subagent), main, subagents or all.
    #[arg(long, default_value = "anchor", value_parser = ["anchor", "main", "subagents", "all"])]
    pub thread: String,
}

#[derive(Debug, Args)]
pub struct GetArgs {
    /// The record's id.
    pub id: String,
    /// At most this many characters: of the JSON with --json (72 at least), else of the text.
    #[arg(long, value_name = "N")]
    pub head: Option<usize>,
}

#[derive(Debug, Args)]
pub struct ArchiveArgs {
    /// Records older than this (`30d`, `12h`, `2weeks`).
    #[arg(long, default_value = "30d", value_parser = parse_duration, value_name = "DURATION")]
    pub older_than: std::time::Duration,
}

fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    humantime::parse_duration(text).map_err(|err| format!("{text:?}: {err} (e.g. 30d, 12h, 2weeks)"))
}

#[derive(Debug, Subcommand)]
pub enum RecordCommand {
    /// Add one record and print its id (`H-…`).
    Add {
        /// query, response, artifact, tool_output or note.
        #[arg(long = "type", value_name = "TYPE")]
        record_type: String,
        /// user, assistant, tool (default: unknown).
        #[arg(long)]
        role: Option<String>,
        /// The text; `-` reads it from standard input.
        #[arg(long, allow_hyphen_values = true)]
        text: String,
        /// Ids or paths the record refers to (repeatable).
        #[arg(long = "ref", value_name = "REF")]
        refs: Vec<String>,
        /// A tag (repeatable).
        #[arg(long = "tag", value_name = "TAG")]
        tags: Vec<String>,
        /// The session it belongs to.
        #[arg(long)]
        session: Option<String>,
    },
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("inputs").required(true).multiple(true).args(["files", "claude_code", "codex"])))]
pub struct IngestArgs {
    /// JSONL files, folders (every *.jsonl at any depth), globs (quoted: 'logs/**/*.jsonl'), or `-` for standard input.
    pub files: Vec<PathBuf>,
    /// Also this project's Claude Code transcripts (~/.claude/projects/<its path, encoded>/, subagents too).
    #[arg(long)]
    pub claude_code: bool,
    /// Also the Codex CLI rollouts of sessions started in this project ($CODEX_HOME, default ~/.codex, sessions/).
    #[arg(long)]
    pub codex: bool,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Words, "a phrase", pre* (all must match; if none has them all, any may); after `--` a word may start with `-`.
    #[arg(required = true, num_args = 1..)]
    pub query: Vec<String>,
    /// How many rows at most (1 to 1000).
    #[arg(short = 'k', long = "top", default_value_t = 10, value_name = "N")]
    pub k: usize,
    /// all, hot or archive.
    #[arg(long, default_value = "all", value_parser = ["all", "hot", "archive"])]
    pub scope: String,
    /// Only this session's records (`all`: every session).
    #[arg(long, default_value = "all")]
    pub session: String,
    /// lexical (words), vector (meaning: hashed n-grams, no model) or hybrid (both, fused).
    ///
    /// lexical: the words of the query, ranked by bm25 (SQLite FTS5).
    ///
    /// vector: the meaning, by the similarity of the embedder's vectors (the built-in one: hashed
    /// character n-grams, no model).
    ///
    /// hybrid: both, fused by reciprocal rank.
    ///
    /// When the vector channel cannot serve (vectors are off with `[memory] embedder = "none"`,
    /// the embedder failed, or the query has nothing it can place), the lexical channel serves
    /// instead; when the query has no words to match, vectors alone serve a hybrid search. A
    /// warning says so; with --json, `retrieval.mode` is what served and
    /// `retrieval.fallback_reason` says why.
    #[arg(long, default_value = "lexical", value_parser = ["lexical", "vector", "hybrid"])]
    pub mode: String,
    /// Only records of this type (query, response, command, system, tool_call, tool_output, note, ...); repeat for any of several.
    #[arg(long = "type", value_name = "TYPE")]
    pub types: Vec<String>,
    /// Only records with this tag (repeat: all of them); '!tag': without it (e.g. '!subagent').
    #[arg(long = "tag", value_name = "TAG", allow_hyphen_values = true)]
    pub tags: Vec<String>,
    /// Only records at or after: 2026-02-10T14:00:00Z (UTC), 2026-02-10, or a duration ago (7d, 12h).
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only records at or before: as --since (a date includes its whole day).
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("task").required(true).args(["query", "query_file"])))]
pub struct RankArgs {
    /// The task (an issue, a commit message, a request).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub query: Option<String>,
    /// Read the task from this file (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    pub query_file: Option<PathBuf>,
    /// Only the first N files (1 to 1000; default 20, a whole list reads as noise).
    #[arg(short = 'k', long = "top", value_name = "N")]
    pub top: Option<usize>,
    /// Every source file, however many.
    #[arg(long, conflicts_with = "top")]
    pub all: bool,
    /// Also weigh the reference graph (PageRank toward the best lexical matches): for measuring.
    #[arg(long, hide = true)]
    pub graph: bool,
    /// Leave the version history (git log) out of the ranking.
    #[arg(long)]
    pub no_history: bool,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// How many of the newest eligible commits (non-merge, modifying 1 to 3 source files; at most 10000).
    #[arg(long, default_value_t = ctxkeep_map::eval::DEFAULT_COMMITS, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub commits: usize,
    /// The map's budgets, in tokens, comma-separated (e.g. 1024,4096).
    #[arg(long, value_delimiter = ',', default_values_t = [ctxkeep_map::eval::DEFAULT_TOKENS], value_name = "N,...",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub tokens: Vec<usize>,
    /// Also show each case: the commit, the files it modified, where each method ranked them.
    #[arg(long)]
    pub cases: bool,
    /// With --cases --json: each case's `ctx rank` files with their score and signals (the first 50, and the changed files wherever they rank).
    #[arg(long, requires = "cases")]
    pub signals: bool,
}

#[derive(Debug, Args)]
pub struct MapArgs {
    /// The budget for the whole map, in tokens.
    #[arg(long, default_value_t = ctxkeep_map::map::DEFAULT_TOKENS, value_name = "N")]
    pub tokens: usize,
    /// Files being worked on: their neighbours rank higher (repeatable).
    #[arg(long, value_name = "FILE")]
    pub focus: Vec<String>,
    /// The task: files and identifiers it names rank higher.
    #[arg(long, value_name = "TEXT", conflicts_with = "query_file", allow_hyphen_values = true)]
    pub query: Option<String>,
    /// Read the task from this file (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    pub query_file: Option<PathBuf>,
    /// Output format.
    #[arg(long, default_value = "md", value_parser = ["md", "json"])]
    pub format: String,
    /// Also write the map to `.ctx/map.md`.
    #[arg(long)]
    pub write: bool,
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// Only these folders (default: every folder).
    pub paths: Vec<String>,
    /// Rewrite the stale files: inputs changed (by source hash), missing or edited. The default.
    #[arg(long, conflicts_with = "force")]
    pub stale: bool,
    /// Rewrite every file, changed or not.
    #[arg(long)]
    pub force: bool,
    /// Only this tier (repeatable; default: all four).
    #[arg(long, value_parser = parse_tier)]
    pub tier: Vec<Tier>,
    /// Scan first (as `ctx scan` would), then build.
    #[arg(long)]
    pub scan: bool,
}

#[derive(Debug, Args)]
pub struct ContextArgs {
    /// The folder (relative to the current directory).
    #[arg(default_value = ".")]
    pub path: String,
    /// minimal (≤500 tokens), standard (≤2000), full (≤5000) or deep (unlimited).
    #[arg(long, value_parser = parse_tier, default_value = "standard")]
    pub tier: Tier,
    /// md: the file's text; json: its structure, text and token count (also with --json).
    #[arg(long, value_parser = ["md", "json"], default_value = "md")]
    pub format: String,
}

#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Milliseconds of quiet after a change before rebuilding.
    #[arg(long, default_value_t = 300, value_name = "MS")]
    pub debounce: u64,
    /// Only this tier (repeatable; default: all four).
    #[arg(long, value_parser = parse_tier)]
    pub tier: Vec<Tier>,
}

pub(crate) fn parse_tier(text: &str) -> Result<Tier, String> {
    Tier::parse(text).ok_or_else(|| format!("{text:?}: the tiers are minimal, standard, full, deep"))
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Only create `.ctx/`; do not scan (or build).
    #[arg(long)]
    pub no_scan: bool,
    /// Scan, but do not build the context files.
    #[arg(long)]
    pub no_build: bool,
    /// Leave AGENTS.md, CLAUDE.md (`[agents] files`) and `.ctx/map.md` alone.
    #[arg(long)]
    pub no_agents: bool,
}

#[derive(Debug, Args)]
#[command(after_help = "\
ctx owns one region of each file, from `<!-- BEGIN CTX MANAGED SECTION vN -->` to
`<!-- END CTX MANAGED SECTION -->`, and never changes a byte outside it. Broken markers (a BEGIN
without END, an END before its BEGIN, two BEGINs, a marker split across lines) are an error naming
the lines, and nothing is written. --repair fixes them by one rule: every marker, even a broken one,
is read as what it says; each BEGIN...END pair is removed with what is between them, and each
unpaired marker (its own lines only); one fresh section is written where the first marker was.
See docs/agents.md.")]
pub struct UpdateArgs {
    /// Write nothing; exit 1 if a section or prompt is missing or out of date (for CI). Needs no database.
    #[arg(long, conflicts_with = "repair")]
    pub check: bool,
    /// Fix broken markers by the rule below, and say what was done.
    #[arg(long)]
    pub repair: bool,
}

#[derive(Debug, Subcommand)]
pub enum FolderCommand {
    /// Show a folder: description, content, files, subfolders, relations, decisions.
    Show {
        /// The folder (relative to the current directory; `.` for here).
        path: String,
    },
    /// Write a folder's one-line description and/or long-form content.
    Describe {
        path: String,
        /// The one-line description.
        #[arg(long)]
        description: Option<String>,
        /// Read the long-form markdown content from this file (`-` for standard input).
        #[arg(long, value_name = "FILE")]
        content_file: Option<PathBuf>,
        #[command(flatten)]
        show: ShowArg,
    },
    /// Mark a folder as a scope (its description heads its descendants' context), or unmark it.
    Scope {
        path: String,
        #[arg(long, conflicts_with = "off", required_unless_present = "off")]
        on: bool,
        #[arg(long)]
        off: bool,
        #[command(flatten)]
        show: ShowArg,
    },
    /// Relate a folder to another one (shown as a related scope in its context).
    Relate {
        path: String,
        other: String,
        /// Why they are related (one line).
        #[arg(long, conflicts_with = "remove")]
        note: Option<String>,
        /// Remove the relation instead.
        #[arg(long)]
        remove: bool,
        #[command(flatten)]
        show: ShowArg,
    },
    /// List the folders nobody has described yet, most important first (code before docs, tests and fixtures; then how much of the repository depends on them): the work list for describing agents.
    Todo,
}

/// `--show` of the commands that edit something: they print what changed,
/// and the whole of what they edited only when asked.
#[derive(Debug, Clone, Copy, Args)]
pub struct ShowArg {
    /// Print the whole edited item afterwards, not just what changed.
    #[arg(long)]
    pub show: bool,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct LogArgs {
    #[command(subcommand)]
    pub command: Option<LogCommand>,

    /// The folder the decision is about (a folder named `list`: write `./list`).
    #[arg(required = true)]
    pub path: Option<String>,

    /// What was decided (one line).
    #[arg(long, required = true)]
    pub title: Option<String>,

    /// Why.
    #[arg(long)]
    pub rationale: Option<String>,

    /// A tag such as `architectural` or `breaking` (repeatable).
    #[arg(long = "tag", value_name = "TAG")]
    pub tags: Vec<String>,
}

#[derive(Debug, Subcommand)]
pub enum LogCommand {
    /// List decisions, newest first: of one folder, or all.
    List {
        /// Only this folder's decisions.
        path: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum FrameCommand {
    /// Start a frame of work under the current frame (or --parent) and make it current.
    Push {
        /// What the frame is to achieve.
        goal: String,
        /// The parent frame (default: the current frame; none: a top-level frame).
        #[arg(long, value_name = "ID")]
        parent: Option<String>,
        /// One line (default: the goal's first line).
        #[arg(long)]
        title: Option<String>,
        /// What it is: frame (the default), epic, task, bug, feature, ...
        #[arg(long = "type", value_name = "TYPE")]
        frame_type: Option<String>,
    },
    /// End work on the current frame (or ID); its parent is current again.
    Pop {
        /// The frame (default: the current frame).
        id: Option<String>,
        /// completed, failed (recorded as an attempt, the summary its reason) or blocked.
        #[arg(long, value_parser = parse_status, default_value = "completed")]
        status: FrameStatus,
        /// What was achieved (or, for a failure, why not).
        #[arg(long, value_name = "TEXT")]
        summary: Option<String>,
    },
    /// Print the goal of the current frame (or --frame), or replace it with TEXT.
    Goal {
        /// The new goal.
        text: Option<String>,
        /// The frame (default: the current frame).
        #[arg(long, value_name = "ID")]
        frame: Option<String>,
    },
    /// Show the current frame and the chain of frames above it.
    Status,
    /// Record files a frame made or changed.
    #[command(subcommand)]
    Artifact(ArtifactCommand),
    /// Record decisions taken in a frame.
    #[command(subcommand)]
    Decision(DecisionCommand),
    /// Show a frame: its fields, ancestors, subframes, decisions and attempts.
    Show {
        /// The frame (default: the current frame).
        id: Option<String>,
    },
    /// Show the frames under ID (default: every top-level frame) as a tree.
    Tree {
        id: Option<String>,
        /// Only this many levels below the top.
        #[arg(long, value_name = "N")]
        depth: Option<usize>,
    },
    /// Print a frame's context: its ancestors, relevant finished siblings and itself, within the token budget.
    Context {
        /// The frame (default: the current frame).
        id: Option<String>,
        /// xml, md or json (with --json: the text and its assembly report as one object).
        #[arg(long, value_parser = parse_rendering, default_value = "xml")]
        format: Rendering,
    },
    /// Print the context that would be injected now: the current frame's (nothing when there is none).
    Preview {
        /// xml, md or json.
        #[arg(long, value_parser = parse_rendering, default_value = "xml")]
        format: Rendering,
    },
    /// Report how a frame's context was assembled: budget and its sources, tokens per section,
    /// what was included, filtered or omitted, and the cache.
    Info {
        /// The frame (default: the current frame).
        id: Option<String>,
        /// xml, md, json, or prompt (the task prompt's assembly).
        #[arg(long, value_parser = parse_rendering, default_value = "xml")]
        format: Rendering,
    },
}

#[derive(Debug, Subcommand)]
pub enum ArtifactCommand {
    /// Add paths (files, folders or globs; relative to the current directory) to a frame's artifacts.
    Add {
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<String>,
        /// The frame (default: the current frame).
        #[arg(long, value_name = "ID")]
        frame: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum DecisionCommand {
    /// Log a decision on a frame (default: the current frame).
    Add {
        /// What was decided (one line).
        text: String,
        /// Why.
        #[arg(long)]
        rationale: Option<String>,
        /// A tag such as `architectural` or `breaking` (repeatable).
        #[arg(long = "tag", value_name = "TAG")]
        tags: Vec<String>,
        /// The frame (default: the current frame).
        #[arg(long, value_name = "ID")]
        frame: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum TaskCommand {
    /// Add a planned task (with --type epic, an epic) under --epic.
    Add {
        /// One line.
        title: String,
        /// The epic (any frame) it belongs to.
        #[arg(long, value_name = "ID")]
        epic: Option<String>,
        /// What is to be done (default: the title).
        #[arg(long, value_name = "TEXT")]
        description: Option<String>,
        /// An acceptance criterion (repeatable).
        #[arg(long = "criteria", visible_alias = "criterion", value_name = "TEXT")]
        criteria: Vec<String>,
        /// task (the default), epic, bug, feature, ...
        #[arg(long = "type", value_name = "TYPE")]
        task_type: Option<String>,
    },
    /// Start (or retry) a task: it is in progress and the current frame.
    Start { id: String },
    /// Mark a task completed.
    Done {
        id: String,
        /// What changed and why.
        #[arg(long, value_name = "TEXT")]
        summary: Option<String>,
    },
    /// Record a failed attempt at a task and mark it failed; its next prompt carries the attempt.
    Fail {
        id: String,
        /// Why it failed.
        #[arg(long, value_name = "TEXT")]
        reason: String,
        /// Something learned on the way (repeatable).
        #[arg(long = "observation", value_name = "TEXT")]
        observations: Vec<String>,
        /// A mistake the next attempt should not repeat (repeatable).
        #[arg(long = "avoid", value_name = "TEXT")]
        avoid: Vec<String>,
    },
    /// List tasks and epics (each under its epic), or the tasks of one epic.
    List {
        /// Only the tasks of this epic.
        #[arg(long, value_name = "ID")]
        epic: Option<String>,
        /// Only tasks with this status.
        #[arg(long, value_parser = parse_status)]
        status: Option<FrameStatus>,
    },
    /// Print the prompt for working on a task: the task, its epic, finished and remaining tasks, the last failed attempt.
    Prompt { id: String },
}

#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// Remove the cached context of one frame, or of all.
    Clear {
        /// Only this frame's.
        id: Option<String>,
    },
}

pub(crate) fn parse_status(text: &str) -> Result<FrameStatus, String> {
    FrameStatus::parse(text).ok_or_else(|| {
        let names: Vec<&str> = FrameStatus::ALL.iter().map(|s| s.as_str()).collect();
        format!("{text:?}: the statuses are {}", names.join(", "))
    })
}

pub(crate) fn parse_rendering(text: &str) -> Result<Rendering, String> {
    Rendering::parse(text).ok_or_else(|| format!("{text:?}: the formats are xml, md, json (and prompt)"))
}

#[derive(Debug, Args)]
pub struct HookArgs {
    /// The hook event: SessionStart, UserPromptSubmit, PreCompact, Stop or SessionEnd (others do
    /// nothing). Without it, the payload's `hook_event_name` says which.
    pub event: Option<String>,
}
