//! `ctx eval`: how well ctx finds the files a change touched, measured on
//! the repository's own git history.
//!
//! Each case is a past commit: its message (trailers and a `(#123)` pull
//! request suffix dropped) is the task, the source files it modified are the
//! answer, and the tree at its parent, with the history up to the parent, is
//! the repository. Parents are checked out in a scratch clone (`git clone
//! --shared --no-checkout`) in the temp folder, so the user's work tree,
//! index and refs are never touched; one workspace there keeps the tags
//! cache from case to case, so each case parses only what changed; the
//! clone's `user.email` is set to each case's author, who asked for the
//! change as far as ranking can tell. Methods:
//! `ctx rank`, plain BM25 over file contents (the baseline), and `ctx map
//! --query` at each budget (the files the map shows, in order, and the
//! definitions it shows, best first, against those the commit changed:
//! [`ChangedDef`]).

mod defs;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use ctxkeep_core::Workspace;
use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::map::MapOptions;
use crate::rank::{RankOptions, RankedFile};
pub use defs::ChangedDef;

/// How many cases by default, and at most.
pub const DEFAULT_COMMITS: usize = 100;
pub const MAX_COMMITS: usize = 10_000;
/// The map's budget by default, and how many budgets one run may compare.
pub const DEFAULT_TOKENS: usize = 4096;
pub const MAX_BUDGETS: usize = 16;
/// A commit that modified more source files than this is no single task.
pub const MAX_CHANGED: usize = 3;
/// The cut-offs of the recall figures.
pub const KS: [usize; 3] = [1, 5, 10];
/// How many of each method's files a case keeps.
const TOP: usize = 10;
/// How many of `ctx rank`'s first files a case keeps with their signals
/// ([`EvalOptions::signals`]), besides the changed files wherever they rank.
pub const SIGNALS_TOP: usize = 50;
/// Scratch folders in the temp folder are `ctx-eval-<pid>-<n>`.
const SCRATCH_PREFIX: &str = "ctx-eval-";

/// Okapi BM25 as the baseline (Python's `rank_bm25.BM25Okapi`):
/// its parameters, and the share of the mean IDF that replaces a negative one.
const BM25_K1: f64 = 1.5;
const BM25_B: f64 = 0.75;
const BM25_EPSILON: f64 = 0.25;

/// What to evaluate.
#[derive(Debug, Clone)]
pub struct EvalOptions {
    /// How many of the newest eligible commits (1 to [`MAX_COMMITS`]).
    pub commits: usize,
    /// The map's budgets, in tokens (1 to [`MAX_BUDGETS`] of them).
    pub tokens: Vec<usize>,
    /// Keep `ctx rank`'s files with their signals in each case
    /// ([`CaseResult::signals`]): why the changed file ranked where it did.
    pub signals: bool,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions { commits: DEFAULT_COMMITS, tokens: vec![DEFAULT_TOKENS], signals: false }
    }
}

/// Called with (cases done, cases in all) as the evaluation goes.
pub type Progress<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// The methods compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MethodName {
    /// `ctx rank` with the message as the task.
    Rank,
    /// Plain Okapi BM25 over the same files' contents.
    Bm25,
    /// `ctx map --query` with the message, the files in the order it shows them.
    Map,
}

/// A method and, for the map, its budget. Stable JSON: `{"method", "tokens"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Method {
    pub method: MethodName,
    /// The map's budget; `null` for the others.
    pub tokens: Option<usize>,
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.method, self.tokens) {
            (MethodName::Rank, _) => f.write_str("rank"),
            (MethodName::Bm25, _) => f.write_str("bm25"),
            (MethodName::Map, Some(tokens)) => write!(f, "map {tokens}"),
            (MethodName::Map, None) => f.write_str("map"),
        }
    }
}

/// What `ctx eval` found. Stable JSON (docs/json.md).
#[derive(Debug, Clone, Serialize)]
pub struct EvalReport {
    /// The folder evaluated (the workspace root).
    pub root: String,
    /// The commit the history was read from.
    pub head: String,
    /// Non-merge commits read to find the cases.
    pub commits_read: usize,
    /// Eligible commits whose parent could not be checked out (not cases).
    pub skipped: Vec<SkippedCommit>,
    /// One row per method: rank, bm25, then the map at each budget.
    pub methods: Vec<MethodSummary>,
    /// Every case, newest first (the CLI shows them with `--cases`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<Case>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SkippedCommit {
    pub sha: String,
    /// git's error.
    pub reason: String,
}

/// A method's figures over all cases.
#[derive(Debug, Clone, Serialize)]
pub struct MethodSummary {
    #[serde(flatten)]
    pub method: Method,
    /// Cases.
    pub n: usize,
    /// Share of cases with a changed file among the method's first 1, 5, 10 files.
    pub r_at_1: f64,
    pub r_at_5: f64,
    pub r_at_10: f64,
    /// Mean of 1 / the rank of the first changed file (0 when it is absent).
    pub mrr: f64,
    /// Mean time per case, in milliseconds.
    pub mean_ms: f64,
    /// For the map: the same figures for the definitions it shows, over the
    /// cases that changed a definition ([`Case::changed_definitions`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub definitions: Option<Figures>,
}

/// How soon a method shows what a commit changed, over cases: for the map's
/// definitions, over the cases that changed a definition, a changed one among
/// its first 1, 5, 10 definitions (best scored first).
#[derive(Debug, Clone, Serialize)]
pub struct Figures {
    /// Cases.
    pub n: usize,
    /// Share of cases with a hit among the first 1, 5, 10.
    pub r_at_1: f64,
    pub r_at_5: f64,
    pub r_at_10: f64,
    /// Mean of 1 / the place of the first hit (0 when absent).
    pub mrr: f64,
}

/// One commit and how each method did on it.
#[derive(Debug, Clone, Serialize)]
pub struct Case {
    pub sha: String,
    pub parent: String,
    /// The task's first line.
    pub subject: String,
    /// The task: the commit message without trailers.
    pub message: String,
    /// The source files the commit modified (relative to the root).
    pub changed: Vec<String>,
    /// The definitions of those files it changed, in the parent ([`ChangedDef`]).
    pub changed_definitions: Vec<ChangedDef>,
    pub results: Vec<CaseResult>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CaseResult {
    #[serde(flatten)]
    pub method: Method,
    /// The 1-based rank of the first changed file; `null` when the method never shows one.
    pub rank: Option<usize>,
    /// The method's first files.
    pub top: Vec<String>,
    pub ms: f64,
    /// With [`EvalOptions::signals`], for `ctx rank`: its first [`SIGNALS_TOP`]
    /// files and the changed files wherever they rank, in its order, each with
    /// its score and signals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signals: Option<Vec<RankedFile>>,
    /// For the map: the 1-based place of the first changed definition among
    /// the definitions it shows, best scored first; `null` when it shows none
    /// (or the commit changed none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub definition_rank: Option<usize>,
    /// For the map: its first definitions, best scored first, as `path:line name`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub top_definitions: Vec<String>,
}

/// Evaluate the methods on the newest eligible commits of the git repository
/// `root` is in (paths relative to `root`; its `.ctx/config.toml`, if any,
/// configures the scratch workspace).
pub fn eval(root: &Path, options: &EvalOptions, progress: Option<Progress>) -> Result<EvalReport> {
    ctxkeep_core::limits::count("--commits", options.commits, MAX_COMMITS)?;
    ctxkeep_core::limits::count("--tokens (budgets)", options.tokens.len(), MAX_BUDGETS)?;
    for &tokens in &options.tokens {
        ctxkeep_core::limits::positive("--tokens", tokens)?;
    }
    let repo = Repository::of(root)?;
    let (pending, commits_read) = eligible_commits(root, options.commits)?;
    let methods = methods(&options.tokens);

    // Declared first, dropped last: the workspace's database closes before its folder goes.
    let scratch = Scratch::create()?;
    let clone = scratch.dir.join("repo");
    let top = repo.top.to_string_lossy();
    git(&scratch.dir, &["clone", "--shared", "--no-checkout", "--quiet", &top, "repo"])?;
    let mut ws: Option<Workspace> = None;
    let total = pending.len();
    let mut cases = Vec::with_capacity(total);
    let mut skipped = Vec::new();
    for (done, commit) in pending.into_iter().enumerate() {
        if let Some(progress) = progress {
            progress(done, total);
        }
        // A parent whose files the object store lacks (a partial clone's
        // blobs never fetched) cannot be a case; the others still can.
        if let Err(err) = git(&clone, &["checkout", "--detach", "--force", "--quiet", &commit.parent]) {
            skipped.push(SkippedCommit { sha: commit.sha, reason: err.to_string() });
            continue;
        }
        let ws = match &mut ws {
            Some(ws) => ws,
            None => ws.insert(scratch_workspace(root, &clone.join(&repo.prefix))?),
        };
        // The commit's author asked for it: ranking reads who asks from git's config.
        git(&clone, &["config", "user.email", &commit.author])?;
        let dir = clone.join(&repo.prefix);
        cases.push(run_case(ws, &dir, commit, &methods, options.signals)?);
    }
    if let Some(progress) = progress {
        progress(total, total);
    }
    drop(ws);
    drop(scratch);
    Ok(EvalReport {
        root: root.display().to_string(),
        head: repo.head,
        commits_read,
        skipped,
        methods: summarize(&cases, &methods),
        cases,
    })
}

/// rank, bm25, then the map at each budget.
fn methods(budgets: &[usize]) -> Vec<Method> {
    let mut methods = vec![
        Method { method: MethodName::Rank, tokens: None },
        Method { method: MethodName::Bm25, tokens: None },
    ];
    methods.extend(budgets.iter().map(|&t| Method { method: MethodName::Map, tokens: Some(t) }));
    methods
}

/// The workspace of the scratch clone at `dir`, configured as the user's at
/// `root`, indexed.
fn scratch_workspace(root: &Path, dir: &Path) -> Result<Workspace> {
    let ctx_dir = dir.join(ctxkeep_core::CTX_DIR);
    std::fs::create_dir_all(&ctx_dir)
        .map_err(|err| ctxkeep_core::Error::Io { path: ctx_dir.clone(), source: err })?;
    let config = Path::new(ctxkeep_core::CTX_DIR).join(ctxkeep_core::CONFIG_FILE);
    if let Ok(text) = ctxkeep_core::read_within(root, &config) {
        ctxkeep_core::write_atomic(&dir.join(&config), &text)?;
    }
    let mut ws = Workspace::open(dir)?;
    // Parse the whole tree once, untimed: each case's times are then those
    // of a warm run after a change, as a user sees them.
    crate::index::index(&mut ws, None)?;
    Ok(ws)
}

/// Run every method on the checked-out parent of `commit`, in the clone's
/// folder `dir` (the workspace's root).
fn run_case(
    ws: &mut Workspace,
    dir: &Path,
    commit: Eligible,
    methods: &[Method],
    signals: bool,
) -> Result<Case> {
    let task = commit.task;
    // What the commit changed of the parent's definitions: the tags the methods index anyway.
    let touched = defs::touched_lines(dir, &commit.parent, &commit.sha, &commit.changed)?;
    let changed_definitions = defs::changed_defs(&crate::index::index(ws, None)?.0, &touched);
    let mut results = Vec::with_capacity(methods.len());
    for &method in methods {
        let started = Instant::now();
        let mut kept_signals = None;
        let mut definitions = (None, Vec::new());
        let order: Vec<String> = match method.method {
            MethodName::Rank => {
                let ranked = crate::rank::rank_workspace(ws, &task, RankOptions::default(), None)?.0;
                if signals {
                    let wanted =
                        |(i, f): &(usize, &RankedFile)| *i < SIGNALS_TOP || commit.changed.contains(&f.path);
                    kept_signals =
                        Some(ranked.iter().enumerate().filter(wanted).map(|(_, f)| f.clone()).collect());
                }
                ranked.into_iter().map(|f| f.path).collect()
            }
            MethodName::Bm25 => bm25_order(ws, &task)?,
            MethodName::Map => {
                let tokens = method.tokens.unwrap_or(DEFAULT_TOKENS);
                let options = MapOptions { tokens, focus: Vec::new(), query: Some(task.clone()) };
                let map = crate::map::map(ws, &options, None)?;
                definitions = defs::first_changed(&map, &changed_definitions);
                map.files.into_iter().map(|f| f.path).collect()
            }
        };
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let rank = order.iter().position(|p| commit.changed.contains(p)).map(|i| i + 1);
        let top = order.into_iter().take(TOP).collect();
        let (definition_rank, top_definitions) = definitions;
        results.push(CaseResult {
            method,
            rank,
            top,
            ms,
            signals: kept_signals,
            definition_rank,
            top_definitions,
        });
    }
    Ok(Case {
        sha: commit.sha,
        parent: commit.parent,
        subject: task.lines().next().unwrap_or_default().to_string(),
        message: task,
        changed: commit.changed,
        changed_definitions,
        results,
    })
}

/// Each method's figures over `cases`.
fn summarize(cases: &[Case], methods: &[Method]) -> Vec<MethodSummary> {
    methods
        .iter()
        .map(|&method| {
            let results: Vec<&CaseResult> =
                cases.iter().filter_map(|c| c.results.iter().find(|r| r.method == method)).collect();
            let files = Figures::of(&results.iter().map(|r| r.rank).collect::<Vec<_>>());
            let mean_ms = results.iter().map(|r| r.ms).sum::<f64>() / results.len().max(1) as f64;
            let definitions = (method.method == MethodName::Map).then(|| {
                let changing = cases.iter().filter(|c| !c.changed_definitions.is_empty());
                let results = changing.filter_map(|c| c.results.iter().find(|r| r.method == method));
                Figures::of(&results.map(|r| r.definition_rank).collect::<Vec<_>>())
            });
            MethodSummary {
                method,
                n: files.n,
                r_at_1: files.r_at_1,
                r_at_5: files.r_at_5,
                r_at_10: files.r_at_10,
                mrr: files.mrr,
                mean_ms,
                definitions,
            }
        })
        .collect()
}

impl Figures {
    /// The figures of cases whose first hits came at `ranks` (1-based; `None`: none).
    fn of(ranks: &[Option<usize>]) -> Figures {
        let n = ranks.len();
        let mean = |value: &dyn Fn(Option<usize>) -> f64| {
            if n == 0 { 0.0 } else { ranks.iter().map(|&r| value(r)).sum::<f64>() / n as f64 }
        };
        let recall = |k: usize| mean(&|r| f64::from(u8::from(r.is_some_and(|rank| rank <= k))));
        Figures {
            n,
            r_at_1: recall(KS[0]),
            r_at_5: recall(KS[1]),
            r_at_10: recall(KS[2]),
            mrr: mean(&|r| r.map_or(0.0, |rank| 1.0 / rank as f64)),
        }
    }
}

// ---------------------------------------------------------------------------
// Cases from the history

/// A commit that became a case, before it is run.
#[derive(Debug, Clone, PartialEq)]
struct Eligible {
    sha: String,
    parent: String,
    /// The author's email: who asked, as far as ranking goes.
    author: String,
    task: String,
    changed: Vec<String>,
}

/// A commit as `git log -z --name-status` shows it.
#[derive(Debug, Default)]
struct LogCommit {
    sha: String,
    parents: Vec<String>,
    author: String,
    message: String,
    /// (status letter, path)
    files: Vec<(String, String)>,
}

/// The newest `wanted` eligible commits reachable from HEAD, and how many
/// non-merge commits were read to find them. `git log` is read as it
/// writes and stopped once there are enough.
fn eligible_commits(root: &Path, wanted: usize) -> Result<(Vec<Eligible>, usize)> {
    const ARGS: &[&str] = &[
        "log",
        "-z",
        "--no-merges",
        "--relative",
        "--name-status",
        "--no-renames",
        "--format=%x1e%H %P%n%ae%n%B",
        "HEAD",
        "--",
    ];
    let failed = |message: String| Error::Git { command: "log".into(), message };
    let mut child = git_command(root)
        .args(ARGS)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|err| failed(err.to_string()))?;
    let mut found = Vec::new();
    let mut read = 0;
    let parsed = match child.stdout.take() {
        Some(stdout) => parse_log(BufReader::new(stdout), |commit| {
            read += 1;
            found.extend(eligible(commit));
            found.len() < wanted
        }),
        None => Ok(()),
    };
    // Stopped early, git is still writing: it is not needed any more.
    let _ = child.kill();
    let _ = child.wait();
    parsed.map_err(|err| failed(err.to_string()))?;
    Ok((found, read))
}

/// Read `git log -z --name-status --format=%x1e%H %P%n%ae%n%B` output, calling
/// `each` with every commit until it returns false.
fn parse_log(mut reader: impl BufRead, mut each: impl FnMut(LogCommit) -> bool) -> std::io::Result<()> {
    let mut current: Option<LogCommit> = None;
    let mut status: Option<String> = None;
    let mut token = Vec::new();
    loop {
        token.clear();
        if reader.read_until(0, &mut token)? == 0 {
            break;
        }
        if token.last() == Some(&0) {
            token.pop();
        }
        let text = String::from_utf8_lossy(&token);
        if let Some(header) = text.strip_prefix('\x1e') {
            if let Some(commit) = current.take()
                && !each(commit)
            {
                return Ok(());
            }
            let (ids, rest) = header.split_once('\n').unwrap_or((header, ""));
            let (author, message) = rest.split_once('\n').unwrap_or((rest, ""));
            let mut ids = ids.split_whitespace().map(str::to_string);
            current = Some(LogCommit {
                sha: ids.next().unwrap_or_default(),
                parents: ids.collect(),
                author: author.trim().to_string(),
                message: message.to_string(),
                files: Vec::new(),
            });
            status = None;
        } else if let Some(commit) = &mut current {
            match status.take() {
                Some(status) => commit.files.push((status, text.into_owned())),
                None => status = Some(text.trim().to_string()),
            }
        }
    }
    if let Some(commit) = current {
        each(commit);
    }
    Ok(())
}

/// `commit` as a case: one parent, 1 to [`MAX_CHANGED`] source files the
/// map reads modified (added, deleted and other files neither count nor
/// disqualify), and a message that says something once its trailers go.
fn eligible(commit: LogCommit) -> Option<Eligible> {
    let [parent] = <[String; 1]>::try_from(commit.parents).ok()?;
    let changed: Vec<String> = commit
        .files
        .into_iter()
        .filter(|(status, path)| status == "M" && is_source(path))
        .map(|f| f.1)
        .collect();
    let task = task_of(&commit.message);
    if changed.is_empty() || changed.len() > MAX_CHANGED || task.is_empty() {
        return None;
    }
    Some(Eligible { sha: commit.sha, parent, author: commit.author, task, changed })
}

/// Whether the map reads the file at `path` (a grammar or a line scan).
fn is_source(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    ctxkeep_core::language(name).is_some_and(crate::index::is_mapped)
}

/// A commit message as a task: without its trailer block (`Signed-off-by:`,
/// `Co-authored-by:`, ... as git reads trailers: a last paragraph, not the
/// subject, of `Key: value` lines) and without a ` (#1234)` pull request
/// suffix on the subject (GitHub's squash merges add it; a number names
/// nothing in the code, and a person giving the task would not say it).
pub fn task_of(message: &str) -> String {
    let lines: Vec<&str> = message.lines().map(str::trim_end).collect();
    let mut end = lines.iter().rposition(|l| !l.is_empty()).map_or(0, |i| i + 1);
    let start = lines[..end].iter().rposition(|l| l.is_empty()).map_or(0, |i| i + 1);
    let block = &lines[start..end];
    let continued = |l: &&str| l.starts_with([' ', '\t']);
    if start > 0
        && block.first().is_some_and(|l| is_trailer(l))
        && block.iter().all(|l| is_trailer(l) || continued(l))
    {
        end = lines[..start].iter().rposition(|l| !l.is_empty()).map_or(0, |i| i + 1);
    }
    let mut kept: Vec<&str> = lines[..end].to_vec();
    if let Some(subject) = kept.first_mut() {
        *subject = without_pr_suffix(subject);
    }
    kept.join("\n").trim().to_string()
}

/// `Signed-off-by: A <a@b>`, `Fixes: #12`, git's `(cherry picked from commit ...)`.
fn is_trailer(line: &str) -> bool {
    if line.starts_with("(cherry picked from commit ") {
        return true;
    }
    let Some((key, value)) = line.split_once(':') else { return false };
    key.starts_with(|c: char| c.is_ascii_alphanumeric())
        && key.len() <= 64
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && (value.is_empty() || value.starts_with(' '))
}

/// `Fix the parser (#1234)` → `Fix the parser`.
fn without_pr_suffix(subject: &str) -> &str {
    let Some(open) = subject.strip_suffix(')').and_then(|s| s.rfind(" (#")) else { return subject };
    let number = &subject[open + 3..subject.len() - 1];
    if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) {
        subject[..open].trim_end()
    } else {
        subject
    }
}

// ---------------------------------------------------------------------------
// The baseline

/// The files the map reads, best first by [`bm25_scores`] over their
/// contents (ties by path).
fn bm25_order(ws: &Workspace, query: &str) -> Result<Vec<String>> {
    let root = ws.root();
    let paths: Vec<String> = crate::index::mapped_sources(ws)?.into_iter().map(|f| f.path).collect();
    let docs: Vec<String> = paths
        .par_iter()
        .map(|p| {
            ctxkeep_core::read_within(root, p)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default()
        })
        .collect();
    let scores = bm25_scores(&docs, query);
    let mut order: Vec<usize> = (0..paths.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then_with(|| paths[a].cmp(&paths[b])));
    Ok(order.into_iter().map(|i| paths[i].clone()).collect())
}

/// Lowercase `\w+` words, as the baseline tokenizes.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).map(str::to_lowercase)
}

/// Okapi BM25 of `query` against each of `docs` (`rank_bm25.BM25Okapi`:
/// k1 1.5, b 0.75, IDF `ln((N - n + 0.5) / (n + 0.5))`, a negative IDF
/// replaced by a quarter of the mean IDF of all words, repeated query words
/// counted each time).
pub fn bm25_scores(docs: &[String], query: &str) -> Vec<f64> {
    let counted: Vec<(HashMap<String, u32>, usize)> = docs
        .par_iter()
        .map(|doc| {
            let mut tf: HashMap<String, u32> = HashMap::default();
            let mut length = 0;
            for word in words(doc) {
                *tf.entry(word).or_default() += 1;
                length += 1;
            }
            (tf, length)
        })
        .collect();
    let n = docs.len() as f64;
    let average_length = counted.iter().map(|c| c.1).sum::<usize>() as f64 / n;
    let mut df: HashMap<&str, u32> = HashMap::default();
    for word in counted.iter().flat_map(|c| c.0.keys()) {
        *df.entry(word).or_default() += 1;
    }
    if df.is_empty() {
        return vec![0.0; docs.len()];
    }
    let raw_idf = |f: u32| ((n - f64::from(f) + 0.5) / (f64::from(f) + 0.5)).ln();
    let floor = BM25_EPSILON * df.values().map(|&f| raw_idf(f)).sum::<f64>() / df.len() as f64;
    let query: Vec<(f64, String)> = words(query)
        .map(|w| {
            let idf = df.get(w.as_str()).map_or(0.0, |&f| raw_idf(f));
            (if idf < 0.0 { floor } else { idf }, w)
        })
        .collect();
    counted
        .iter()
        .map(|(tf, length)| {
            let norm = BM25_K1 * (1.0 - BM25_B + BM25_B * *length as f64 / average_length);
            query
                .iter()
                .map(|(idf, w)| {
                    let f = f64::from(tf.get(w).copied().unwrap_or(0));
                    idf * f * (BM25_K1 + 1.0) / (f + norm)
                })
                .sum()
        })
        .collect()
}

// ---------------------------------------------------------------------------
// git and the scratch folder

/// The git repository around the evaluated folder.
struct Repository {
    /// The work tree's top folder (what is cloned).
    top: PathBuf,
    /// The folder's path inside it (`sub/dir/` or empty).
    prefix: String,
    head: String,
}

impl Repository {
    /// Refuses a folder outside git, a repository without commits, a shallow clone.
    fn of(root: &Path) -> Result<Repository> {
        let shallow = git(root, &["rev-parse", "--is-shallow-repository"])
            .map_err(|_| Error::NotGit { path: root.to_path_buf() })?;
        if shallow == "true" {
            return Err(Error::Shallow { path: root.to_path_buf() });
        }
        let head = git(root, &["rev-parse", "--verify", "--quiet", "HEAD^{commit}"])
            .map_err(|_| Error::NoCommits { path: root.to_path_buf() })?;
        let places = git(root, &["rev-parse", "--show-toplevel", "--show-prefix"])?;
        let mut places = places.lines();
        let top = PathBuf::from(places.next().unwrap_or_default());
        let prefix = places.next().unwrap_or_default().to_string();
        Ok(Repository { top, prefix, head })
    }
}

/// `git -C dir`, on that folder whatever the environment points git at
/// (`GIT_DIR` in a hook would aim a checkout at the user's repository), with
/// no hooks and no LFS downloads.
fn git_command(dir: &Path) -> Command {
    let mut command = Command::new("git");
    command.arg("-C").arg(dir).args(["-c", "core.hooksPath=/dev/null", "-c", "core.quotepath=off"]);
    for var in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR"] {
        command.env_remove(var);
    }
    command.env("GIT_LFS_SKIP_SMUDGE", "1").stdin(Stdio::null());
    command
}

/// Run git in `dir`; its output, trimmed, or its error's first line.
fn git(dir: &Path, args: &[&str]) -> Result<String> {
    let command = args.first().copied().unwrap_or_default().to_string();
    let output = git_command(dir)
        .args(args)
        .output()
        .map_err(|err| Error::Git { command: command.clone(), message: format!("cannot run git: {err}") })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let message = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("failed").trim().to_string();
        return Err(Error::Git { command, message });
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim_end().to_string())
}

/// The scratch folder, removed when dropped: on success, on an error and on
/// a panic. One a killed run left (its process gone) is removed by the next.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn create() -> Result<Scratch> {
        let temp = std::env::temp_dir();
        remove_leftovers(&temp);
        let pid = std::process::id();
        let mut n = 0u32;
        loop {
            let dir = temp.join(format!("{SCRATCH_PREFIX}{pid}-{n}"));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(Scratch { dir }),
                Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
                Err(err) => return Err(ctxkeep_core::Error::Io { path: dir, source: err }.into()),
            }
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Remove the scratch folders of `ctx eval` runs that were killed.
fn remove_leftovers(temp: &Path) {
    let Ok(entries) = std::fs::read_dir(temp) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix(SCRATCH_PREFIX))
            .and_then(|rest| rest.split('-').next());
        if pid.and_then(|p| p.parse::<u32>().ok()).is_some_and(ctxkeep_core::process_is_gone) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests;
