//! What `ctx hook SessionStart` and `ctx hook UserPromptSubmit` inject into
//! an agent's session (docs/hooks.md), assembled here so every front-end
//! (the CLI, Python, a server) injects the same thing. Nothing here reads
//! stdin or knows Claude Code's JSON: that is the CLI's.
//!
//! - **Session start**: `.ctx/boot.md`, the context of the folder the
//!   session runs in (minimal tier), the L1 pack, in the configured order,
//!   within `[hooks.session_start] tokens`. Over the cap, the boot text is
//!   replaced by a short version and then dropped, then the folder's
//!   context is cut (to half, a quarter, nothing), then the pack goes.
//! - **Prompt**: the files `ctx rank` puts first for the prompt, and the
//!   session records `ctx search` finds for it, within `[hooks.
//!   user_prompt_submit] tokens`; only when the prompt is about the code
//!   (see `relevant`) and only what scores near the best, so most prompts
//!   inject nothing. Short replies ("yes", "continue"), prompts of only the
//!   workflow's words ("run the tests and push") and
//!   slash commands inject nothing. `pack` injects the L1 pack every turn.
//!
//! Every text is redacted (the store's texts already are; `.ctx/boot.md`
//! is a file anyone may edit).

use std::path::Path;

use ctxkeep_core::paths::PathRole;
use ctxkeep_core::tokens::Tokenizer;
use ctxkeep_core::{Inject, SearchOptions, Tier, Workspace};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::Serialize;

use crate::index::IndexedFile;
use crate::rank::{self, RankOptions};
use crate::tags::Kind;
use crate::terms::{TaskTerms, task_terms};

/// What a hook injects. Stable JSON.
#[derive(Debug, Clone, Serialize)]
pub struct Injection {
    /// The text to inject; empty: inject nothing.
    pub text: String,
    /// Tokens of `text` (the workspace's tokenizer); never over `cap`.
    pub tokens: usize,
    pub cap: usize,
    /// The parts injected, in order.
    pub parts: Vec<InjectedPart>,
}

/// Stable JSON.
#[derive(Debug, Clone, Serialize)]
pub struct InjectedPart {
    /// `boot`, `folder`, `pack`, `rank`, `memory`.
    pub name: Inject,
    pub tokens: usize,
    /// Shortened to fit the cap.
    pub shortened: bool,
}

/// What `.ctx/boot.md` says, in five lines: injected instead of it when the cap is tight.
const SHORT_BOOT: &str = "## ctx: how to get context here\n\
This repository keeps its context with ctx (`.ctx/boot.md` says it all).\n\
- Before working in a folder, read `.ctx/context/<folder>.standard.md` (`src/auth` → `src--auth`, the root `_root`).\n\
- `ctx rank --query \"<task>\"`: the files for a task, best first; `.ctx/map.md`: the stack, commands and key definitions.\n\
- `ctx search <words>` → `ctx timeline <id>` → `ctx get <id>`: what past sessions did, cheapest first.\n";

/// Words that say nothing about which code a prompt is about: replies
/// ("yes", "continue") and the vocabulary of every task ("fix the bug in
/// this function"). A prompt of only these (and stop words) injects nothing.
const CHATTER: &[&str] = &[
    "yes",
    "yeah",
    "yep",
    "ok",
    "okay",
    "sure",
    "thanks",
    "thank",
    "please",
    "continue",
    "go",
    "ahead",
    "proceed",
    "next",
    "done",
    "good",
    "great",
    "fine",
    "right",
    "nope",
    "agreed",
    "lgtm",
    "you",
    "again",
    "keep",
    "going",
    "let",
    "lets",
    "me",
    "what",
    "about",
    "how",
    "why",
    "nice",
    "perfect",
    "cool",
    "hi",
    "hello",
    "hey",
    "retry",
    "try",
    "stop",
    "wait",
    "hmm",
    "sounds",
    "looks",
    "code",
    "file",
    "function",
    "method",
    "bug",
    "issue",
    "problem",
    "thing",
    "stuff",
    "work",
    "implement",
    "improve",
    "better",
    "clean",
    "cleaner",
    "cleanup",
    "help",
    "want",
    "need",
    "look",
    "check",
    "see",
    "something",
    "anything",
    "there",
    "here",
    "does",
    "doesn",
    "don",
    "did",
    "would",
    "could",
    "my",
    "our",
    "your",
];

/// Words of the workflow around the code, not of the code: running,
/// building and checking it, version control, packaging ("run the tests",
/// "commit this and push", "run clippy and fix the warnings", "npm
/// install"). A prompt of only these (and chatter) injects nothing; any
/// other word ("run the tests for the parser") and they count as words.
const WORKFLOW: &str = "\
run rerun rerunning running commit commits push pull fetch rebase merge squash amend stash \
undo redo revert reset last previous change changes history one two three before after into \
stage staged unstaged checkout branch main master origin upstream remote pr install \
reinstall uninstall upgrade update bump version release publish deploy build rebuild \
compile format formatter fmt rustfmt prettier lint linter linting clippy eslint ruff \
mypy pytest tox nox cargo npm npx pnpm yarn bun pip uv poetry git gh make test tests \
testing suite ci changelog conflict conflicts warning warnings error errors fail \
failing fails failed failure failures pass passing green red all everything locally \
dependency dependencies deps lockfile lock now then first it them that this these \
those up any some remaining";

/// Words of programming in general, and of a question about it ("what's the
/// difference between a list and a tuple in Python?", "explain what a
/// decorator is"): a prompt of only these (with chatter and workflow words)
/// asks what any programmer might, not about this code, and injects nothing;
/// any other word ("the route decorator drops my methods") and they count.
const GENERAL: &str = "\
difference differences between versus vs explain explanation mean means meaning simple \
simply terms concept concepts example examples tutorial learn understand Python Rust \
JavaScript TypeScript Java Golang Ruby language languages programming syntax keyword \
keywords list lists tuple tuples dict dicts dictionary dictionaries array arrays string \
strings integer integers float boolean object objects class classes instance instances \
inheritance interface interfaces trait traits struct structs enum enums generic generics \
closure closures lambda lambdas decorator decorators iterator iterators generator \
generators loop loops recursion pointer pointers variable variables scope async await \
promise promises thread threads process processes mutex memory stack heap best practice \
practices idiomatic";

/// [`WORKFLOW`] and [`GENERAL`] as rank's terms (stemmed), to compare with a prompt's.
fn general_terms() -> HashSet<String> {
    rank::terms(&format!("{WORKFLOW} {GENERAL}")).into_iter().collect()
}

/// A prompt's words must be this unlikely to meet in one file's path and
/// names by chance: the expected number of files holding them all, were
/// words spread independently (see [`relevant`]).
const MAX_CHANCE: f64 = 0.5;

/// The injection of a session starting in `cwd` (inside the workspace).
pub fn session_start(ws: &Workspace, cwd: &Path) -> crate::Result<Injection> {
    let config = &ws.config().hooks.session_start;
    let tok = ws.config().build.tokenizer.get();
    let mut parts = Vec::new();
    for &inject in &config.inject {
        let variants = match inject {
            Inject::Boot => boot(ws)?,
            Inject::Folder => folder(ws, cwd, tok)?,
            // The pack never takes more than half the cap: the rest is the folder's.
            Inject::Pack => {
                let tokens = ws.config().pack.tokens.min(config.tokens / 2).max(1);
                match pack(ws, tokens)? {
                    Some(text) => vec![text],
                    None => continue,
                }
            }
            Inject::Rank | Inject::Memory => continue,
        };
        parts.push(Candidate { name: inject, variants });
    }
    Ok(fit(ws, tok, config.tokens, parts, &[Inject::Boot, Inject::Folder, Inject::Pack]))
}

/// The L1 pack within `tokens`; `None` when every section is empty (a
/// fresh memory): a block of "(none)" tells the agent nothing.
fn pack(ws: &Workspace, tokens: usize) -> crate::Result<Option<String>> {
    let pack = ws.pack(Some(tokens))?;
    Ok(pack.sections.iter().any(|section| section.items > 0).then_some(pack.text))
}

/// The injection for the prompt `prompt`: empty unless something is relevant to it.
pub fn user_prompt(ws: &mut Workspace, prompt: &str) -> crate::Result<Injection> {
    let config = ws.config().hooks.user_prompt_submit.clone();
    let tok = ws.config().build.tokenizer.get();
    let words = prompt_terms(prompt);
    let mut parts = Vec::new();
    for &inject in &config.inject {
        let lines = match inject {
            Inject::Pack => {
                if let Some(text) = pack(ws, config.tokens)? {
                    parts.push(Candidate { name: inject, variants: vec![text] });
                }
                continue;
            }
            _ if words.is_empty() => continue,
            Inject::Rank => file_lines(ws, prompt, &words)?,
            Inject::Memory => record_lines(ws, &words)?,
            Inject::Boot | Inject::Folder => continue,
        };
        if lines.is_empty() {
            continue;
        }
        let heading = match inject {
            Inject::Rank => "## ctx: files for this prompt (ctx rank)\n",
            _ => "## ctx: past sessions (ctx search; `ctx get <id>` for more)\n",
        };
        // Fewer and fewer lines, best first.
        let variants = (1..=lines.len()).rev().map(|n| format!("{heading}{}", lines[..n].concat())).collect();
        parts.push(Candidate { name: inject, variants });
    }
    Ok(fit(ws, tok, config.tokens, parts, &[Inject::Pack, Inject::Memory, Inject::Rank]))
}

/// A part and its texts, longest first; dropping it is the last step.
struct Candidate {
    name: Inject,
    variants: Vec<String>,
}

/// The parts within `cap` tokens: while over, the first part in `order`
/// with a shorter variant takes it (or is dropped after its last).
fn fit(
    ws: &Workspace,
    tok: &dyn Tokenizer,
    cap: usize,
    parts: Vec<Candidate>,
    order: &[Inject],
) -> Injection {
    let parts: Vec<Candidate> = parts
        .into_iter()
        .map(|p| Candidate {
            name: p.name,
            variants: p
                .variants
                .into_iter()
                .map(|v| ws.detector().redact_in(".ctx/hook", &v).into_owned())
                .filter(|v| !v.trim().is_empty())
                .collect(),
        })
        .filter(|p| !p.variants.is_empty())
        .collect();
    let mut chosen = vec![0usize; parts.len()];
    let render = |chosen: &[usize]| -> Vec<(usize, &str)> {
        parts
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.variants.get(chosen[i]).map(|v| (i, v.as_str())))
            .collect()
    };
    loop {
        let text = render(&chosen).iter().map(|(_, v)| *v).collect::<Vec<_>>().join("\n");
        let tokens = tok.count(&text);
        let shorter = order.iter().find_map(|name| {
            parts.iter().position(|p| p.name == *name).filter(|&i| chosen[i] < parts[i].variants.len())
        });
        match shorter {
            Some(i) if tokens > cap => chosen[i] += 1,
            // Within the cap, or nothing left to shorten (then nothing at all).
            _ => {
                let (text, tokens) = if tokens > cap { (String::new(), 0) } else { (text, tokens) };
                let parts = if text.is_empty() {
                    Vec::new()
                } else {
                    render(&chosen)
                        .into_iter()
                        .map(|(i, v)| InjectedPart {
                            name: parts[i].name,
                            tokens: tok.count(v),
                            shortened: chosen[i] > 0,
                        })
                        .collect()
                };
                return Injection { text, tokens, cap, parts };
            }
        }
    }
}

/// `.ctx/boot.md` (when there is one), then the short version.
fn boot(ws: &Workspace) -> crate::Result<Vec<String>> {
    // Claude Code has read ctx's section of CLAUDE.md, which says what
    // boot.md says: its five-line reminder is enough.
    let claude_md = std::fs::read(ws.root().join("CLAUDE.md")).unwrap_or_default();
    if ctxkeep_core::agents::section::has_section(&claude_md) {
        return Ok(vec![SHORT_BOOT.to_string()]);
    }
    let path = ws.ctx_dir().join("boot.md");
    let mut variants = Vec::new();
    match std::fs::read_to_string(&path) {
        Ok(text) => variants.push(text),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => {
            return Err(ctxkeep_core::Error::InvalidInput(format!("{}: {err}", path.display())).into());
        }
    }
    variants.push(SHORT_BOOT.to_string());
    Ok(variants)
}

/// The minimal-tier context of the folder `cwd` is in (the nearest one the
/// store knows), then cut to half and a quarter of its tokens.
fn folder(ws: &Workspace, cwd: &Path, tok: &dyn Tokenizer) -> crate::Result<Vec<String>> {
    let key = ws.resolve_path(cwd, ".").unwrap_or_else(|_| ".".into());
    let mut text = None;
    for key in std::iter::once(key.as_str()).chain(ctxkeep_core::paths::ancestors(&key)) {
        match ws.context_text(key, Tier::Minimal) {
            Ok(found) => {
                text = Some(found);
                break;
            }
            Err(ctxkeep_core::Error::UnknownFolder { .. }) => continue,
            Err(err) => return Err(err.into()),
        }
    }
    let Some(text) = text else { return Ok(Vec::new()) };
    let text = without_file_metadata(&text);
    let tokens = tok.count(&text);
    let cut =
        |n: usize| format!("{}\n(cut: `ctx context` prints it all)\n", tok.truncate(&text, n).trim_end());
    Ok(vec![text.clone(), cut(tokens / 2), cut(tokens / 4)])
}

/// A context file's text without what only the file needs: when it was
/// generated, its source hash, the footer on how to change it. An agent's
/// turn pays for every token injected.
fn without_file_metadata(text: &str) -> String {
    let body = match text.rfind("\n---\n") {
        Some(at) if text[at + 5..].trim_start().starts_with("*Generated by ctx") => &text[..at + 1],
        _ => text,
    };
    body.lines()
        .filter(|l| !l.starts_with("> Generated: ") && !l.starts_with("> Source hash: "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The prompt's words that say something: rank's terms without chatter;
/// none for a slash command.
fn prompt_terms(prompt: &str) -> Vec<String> {
    let prompt = prompt.trim();
    if prompt.starts_with('/') {
        return Vec::new();
    }
    // As rank's terms (stemmed), to compare with the prompt's.
    let chatter: HashSet<String> = rank::terms(&CHATTER.join(" ")).into_iter().collect();
    let general = general_terms();
    // What the prompt names as a place is never chatter: a conventional commit's scope
    // (`feat(method): …`, http's `method.rs`) and a file it writes (`method.rs`, `src/code/`).
    let scope = prompt.split_once(':').map(|(head, _)| head).and_then(|head| {
        let (kind, scope) = head.strip_suffix(')')?.split_once('(')?;
        kind.chars().all(|c| c.is_ascii_alphabetic() || c == '!').then_some(scope)
    });
    let places = prompt.split_whitespace().filter(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        w.contains('/')
            || w.rsplit_once('.')
                .is_some_and(|(stem, _)| !stem.is_empty() && ctxkeep_core::language(w).is_some())
    });
    let named: HashSet<String> = scope.into_iter().chain(places).flat_map(rank::terms).collect();
    let mut seen = HashSet::default();
    let words: Vec<String> = rank::terms(prompt)
        .into_iter()
        .filter(|t| (named.contains(t) || !chatter.contains(t)) && seen.insert(t.clone()))
        .collect();
    if words.iter().all(|w| general.contains(w) && !named.contains(w)) { Vec::new() } else { words }
}

/// Most new contents a prompt's hook parses, and reads for their words, when
/// the store has none of them yet (a branch switched, a large pull since the
/// last `ctx` command): past that, the others wait for its next prompt, or
/// for `ctx map`, `ctx build`, `ctx rank`. The agent's own edits of a turn
/// are far fewer; parsing 256 files takes about 100 ms on one core.
const MAX_PARSES: usize = 256;
const MAX_READS: usize = 256;

/// Lines of the files relevant to the prompt, in `ctx rank`'s order.
fn file_lines(ws: &mut Workspace, prompt: &str, words: &[String]) -> crate::Result<Vec<String>> {
    let config = ws.config().hooks.user_prompt_submit.clone();
    // The tree as it is now (the agent's own edits, commits since `ctx init`),
    // parsing no more new contents than a hook has time for.
    let files = crate::index::refreshed(ws, MAX_PARSES)?;
    let names: Vec<FileNames> = files.iter().map(|f| FileNames::of(f, words)).collect();
    // Whether the prompt is about this code at all ("thanks", "a recipe for
    // banana bread" are not) is for the words its files' paths and names share
    // with it. Which files, and in what order, is `ctx rank`'s to say: a
    // file that shares few of them (`networks.py` for "URL equality") may still
    // lead on its contents and history, and a test that names them all may not.
    let identifiers = identifiers(prompt);
    // A commit-style prompt's area (`fix(server):`) that names a folder says where, too.
    let named = !relevant(&names, words, &identifiers, config.min_terms).is_empty()
        || writes_defined_code(&files, prompt)
        || rank::in_task_area(&files, prompt).contains(&1.0);
    // In the order `ctx rank` gives them: the words of their contents (the store's
    // postings), what they are for (tests after code), the history kept for this HEAD.
    let counts = crate::inverted::task_counts_reading(ws, &files, task_terms(prompt), MAX_READS)?;
    // An identifier the prompt writes that only a file or two use (`trimRight()`)
    // says which code it is about, though no file defines it.
    let used = || identifiers.iter().any(|id| (1..=MAX_USERS).contains(&users(&counts, files.len(), id)));
    if !named && !used() && !said_in_contents(&counts, &names, words) {
        return Ok(Vec::new());
    }
    // `git log` once per HEAD, then from the store.
    let history = crate::history::History::cached(ws, crate::history::MAX_COMMITS);
    let ranked = rank::rank_counted(&files, &counts, prompt, history.as_ref(), RankOptions::default());
    let code = crate::graph::code_names(prompt);
    let by_path: HashMap<&str, usize> = files.iter().enumerate().map(|(i, f)| (f.path.as_str(), i)).collect();
    // Examples, docs, fixtures and the like well after the code, tests a little
    // less (where its regression test goes), as the task map weighs them, unless
    // the prompt points there: a user's report is about what the code does.
    let focus = crate::map::focus(ws, &files, &[], Some(prompt))?;
    let mut weight = crate::map::demotion(&files, &focus, crate::map::TASK_AUXILIARY);
    for (w, file) in weight.iter_mut().zip(files.iter()) {
        if *w < 1.0 && PathRole::of(&file.path) == PathRole::Test {
            *w = TEST_WEIGHT;
        }
    }
    let ranked: Vec<(f64, f64, usize)> = (ranked.iter())
        .filter_map(|r| {
            let &i = by_path.get(r.path.as_str())?;
            Some((r.score * weight[i], r.score_besides_outright() * weight[i], i))
        })
        .collect();
    Ok(shown(ranked, config.min_score, config.files)
        .into_iter()
        .map(|i| file_line(ws.root(), &files[i], words, &code, || outline_names(ws, &files[i].path)))
        .collect())
}

/// Of `ranked`'s (score, score besides what the prompt names outright, file),
/// the files the hook shows, best first: the first [`FEWEST_FILES`] down to
/// [`FEWEST_FILES_BAR`] of the best, the others down to `min_score` of it, at
/// most `most`; none that scores nothing, even when only a named file scores.
/// The bar is set by the best file besides what the prompt names outright: a
/// file it gives by path, or that defines what it writes as code, comes first
/// without pushing out the others its words point to.
fn shown(mut ranked: Vec<(f64, f64, usize)>, min_score: f64, most: usize) -> Vec<usize> {
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.2.cmp(&b.2)));
    let best = ranked.iter().map(|r| r.1).fold(0.0, f64::max);
    (ranked.iter().enumerate())
        .filter(|&(k, &(score, _, _))| {
            let bar = if k < FEWEST_FILES { FEWEST_FILES_BAR } else { min_score };
            score > 0.0 && score >= bar * best
        })
        .take(most)
        .map(|(_, &(_, _, i))| i)
        .collect()
}

/// The names the folder context shows first for the file at `path` (its
/// stored outline's, most important first), for a file none of whose
/// definitions the prompt's words name; none when the map made no outline.
fn outline_names(ws: &Workspace, path: &str) -> Vec<String> {
    let outline = ws.outline(path).ok().flatten();
    outline
        .map(|o| o.defs.into_iter().filter(|d| d.parent.is_none()).map(|d| d.name).collect())
        .unwrap_or_default()
}

/// The prompt hook's first files are shown down to [`FEWEST_FILES_BAR`] of
/// the best file's score, not `min_score`'s half: a user's report says
/// everyday words that the largest file says most (loguru's `_logger.py`
/// documents every option), so one leading by far is often not the one to
/// edit (`benches/hook_plain.py`: a file to edit shown for 82 of 96 reports
/// with the half bar alone, 86 with this; 0.15 and 0.35 gave the same).
const FEWEST_FILES: usize = 3;
const FEWEST_FILES_BAR: f64 = 0.25;

/// A test's weight against the code's in the prompt hook's files, unless the
/// prompt points at tests (`benches/hook_plain.py`: at 0.4, as the task map
/// weighs them, commits that changed only a test lost their hit; at 1.0 tests
/// pushed the code out of users' reports).
const TEST_WEIGHT: f64 = 0.6;

/// Most files that may use an identifier the prompt writes for it to say
/// which code the prompt is about.
const MAX_USERS: usize = 2;

/// How many of the `n` files hold `term` in their text or names.
fn users(counts: &TaskTerms, n: usize, term: &str) -> usize {
    (0..n).filter(|&i| counts.count(i, term) != Default::default()).count()
}

/// Whether one of the files (`names`: what each one's path and names share
/// with the prompt) holds in its text or names at least [`CONTENT_WORDS`] of
/// the prompt's telling `words` (neither workflow nor general ones), each of
/// them rare here (in at most [`RARE_SHARE`] of the files), and its path or
/// names one telling word of the prompt. A user's report says what the code
/// does in words its names need not use ("compare one level deep" for
/// `shallow`, whose `compareEntries` says one of them), so its paths and
/// names may share too few of them for [`relevant`]. A short prompt about
/// something else ("a limerick about a cat who hates Mondays") shares at
/// most two such words with any file; a long one ("explain the CAP theorem
/// with concrete examples of databases…") may share more with some file's
/// text, but seldom with one whose names say one of its words too
/// (`benches/hook_plain.py`).
fn said_in_contents(counts: &TaskTerms, names: &[FileNames], words: &[String]) -> bool {
    let n = names.len();
    let general = general_terms();
    let rare: Vec<&String> = (words.iter())
        .filter(|w| !general.contains(*w))
        .filter(|w| (1..=(n as f64 * RARE_SHARE) as usize).contains(&users(counts, n, w)))
        .collect();
    rare.len() >= CONTENT_WORDS
        && (0..n).any(|i| {
            names[i].all.iter().any(|w| !general.contains(w))
                && rare.iter().filter(|w| counts.count(i, w) != Default::default()).count() >= CONTENT_WORDS
        })
}

/// How many rare words of a prompt one file's contents must hold ([`said_in_contents`]).
const CONTENT_WORDS: usize = 3;

/// The largest share of the files a word may be in and still be rare ([`said_in_contents`]).
const RARE_SHARE: f64 = 0.25;

/// `- path: Name (l. 12), Class.method (l. 40)`: the definitions the prompt's
/// words name, or whose code says them ([`crate::said::code_says`], each word
/// weighing 1: the function that calls the `getRandomValues` the prompt
/// names), each once (of a method's namesakes, the one whose class the
/// prompt names too); not a function's inner ones, nor tests in code. When
/// neither says any, the file's most important ones (`otherwise`: the
/// names of its stored outline), as many as [`OTHERWISE_SHOWN`], where the
/// file defines them still. `root`: the workspace's, which the file's path is under.
fn file_line(
    root: &Path,
    file: &IndexedFile,
    words: &[String],
    code: &HashSet<String>,
    otherwise: impl FnOnce() -> Vec<String>,
) -> String {
    let all = &file.tags.defs;
    let in_code = PathRole::of(&file.path) == PathRole::Source;
    // A word many of the file's names say tells them apart less (`headers` in reqwest's
    // forty `ClientBuilder::http1_*_headers` options): each weighs ln(1 + n / df) over
    // the file's n names, df of which say it.
    let name_terms: Vec<Vec<String>> = all.iter().map(|d| rank::terms(&d.name)).collect();
    let telling: HashMap<&str, f64> = words
        .iter()
        .map(|w| {
            let df = name_terms.iter().filter(|terms| terms.contains(w)).count().max(1);
            (w.as_str(), (1.0 + all.len() as f64 / df as f64).ln())
        })
        .collect();
    let said = |name: &str| rank::terms(name).iter().filter_map(|t| telling.get(t.as_str())).sum::<f64>();
    let code_says = match ctxkeep_core::read_within(root, &file.path) {
        Ok(bytes) => {
            let terms: Vec<(&str, f64)> = words.iter().map(|w| (w.as_str(), 1.0)).collect();
            crate::said::code_says(&String::from_utf8_lossy(&bytes), all, &terms)
        }
        Err(_) => vec![0.0; all.len()],
    };
    // A method is told by its class too: "StringMerger.do_transform" means
    // `StringMerger`'s, not the abstract `StringTransformer.do_transform` above it.
    let owner = |d: &crate::tags::Def| {
        let parent = all.get(d.parent? as usize)?;
        // `impl<'a> Command<'a>` owns `Command::get_name`: the type's name, not its parameters.
        let name = parent.name.split('<').next().unwrap_or(&parent.name).trim();
        (d.kind == Kind::Method).then_some(name)
    };
    // What the prompt writes as code first (`Environment.overlay(enable_async)`: `overlay`
    // before `_get_default_module_async`, which says two of its words).
    let mut defs: Vec<((bool, f64, f64), &crate::tags::Def)> = all
        .iter()
        .zip(&code_says)
        // A trait impl's `type Error = crate::Error;` defines no `Error` of its own.
        .filter(|(d, _)| !(matches!(d.kind, Kind::Type | Kind::Constant) && d.implements_trait(all)))
        .filter(|(d, _)| d.kind.defines_name() && !d.is_local(all) && !(in_code && d.is_test(all)))
        .map(|(d, body)| {
            ((code.contains(d.name.as_str()), said(&d.name) + body, owner(d).map_or(0.0, said)), d)
        })
        .filter(|((_, n, _), _)| *n > 0.0)
        .collect();
    defs.sort_by(|(a, da), (b, db)| {
        (b.0.cmp(&a.0)).then(b.1.total_cmp(&a.1)).then(b.2.total_cmp(&a.2)).then(da.line.cmp(&db.line))
    });
    let mut seen = HashSet::default();
    defs.retain(|(_, d)| seen.insert((d.name.as_str(), d.is_setter())));
    let path = ctxkeep_core::paths::display_name(&file.path);
    if defs.is_empty() {
        let top_level = |name: &str| all.iter().find(|d| d.name == name && d.parent.is_none());
        let names: Vec<String> = otherwise()
            .iter()
            .filter_map(|name| top_level(name))
            .take(OTHERWISE_SHOWN)
            .map(|d| format!("{} (l. {})", ctxkeep_core::paths::display_name(&d.name), d.line))
            .collect();
        return match names.is_empty() {
            true => format!("- {path}\n"),
            false => format!("- {path}: {}\n", names.join(", ")),
        };
    }
    let separator = if file.lang == "rust" { "::" } else { "." };
    let names: Vec<String> = defs
        .iter()
        .take(3)
        .map(|(_, d)| {
            let trait_impl = d.parent(all).and_then(trait_and_type);
            let name = match (trait_impl, owner(d)) {
                (Some((tr, ty)), _) => format!("<{ty} as {tr}>::{}", d.name),
                (None, Some(owner)) => format!("{owner}{separator}{}", d.name),
                (None, None) => assigned_to(d).unwrap_or_else(|| d.name.to_string()),
            };
            // A setter beside its getter says which it is: `set body (l. 135)`.
            let setter = if d.is_setter() { "set " } else { "" };
            format!("{setter}{} (l. {})", ctxkeep_core::paths::display_name(&name), d.line)
        })
        .collect();
    format!("- {path}: {}\n", names.join(", "))
}

/// How many of a file's most important definitions its line shows when the
/// prompt's words name none of them.
const OTHERWISE_SHOWN: usize = 2;

/// What a function assigned to an object's property is called by: `res.send`
/// for `res.send = function send(body)`, `Reply.send` for `Reply.prototype.send
/// = function (payload)` (express's and fastify's methods, defined that way).
/// The trait and the type of a Rust trait impl, as written (`impl<T> Buf for
/// VecDeque<u8>`: `Buf`, `VecDeque<u8>`): its method is `<VecDeque<u8> as
/// Buf>::chunk`, which `VecDeque::chunk` would pass off as the type's own.
fn trait_and_type(parent: &crate::tags::Def) -> Option<(&str, &str)> {
    if parent.kind != Kind::Impl {
        return None;
    }
    let line = parent.signature.lines().next()?.trim();
    let rest = line.strip_prefix("unsafe ").unwrap_or(line).strip_prefix("impl")?;
    // The impl's own generics (`impl<'a, T: Buf>`), brackets balanced.
    let rest = match rest.strip_prefix('<') {
        Some(inner) => {
            let mut depth = 1;
            let end = inner.char_indices().find_map(|(i, c)| {
                depth += match c {
                    '<' => 1,
                    '>' => -1,
                    _ => 0,
                };
                (depth == 0).then_some(i + 1)
            })?;
            &inner[end..]
        }
        None => rest,
    };
    let (tr, ty) = rest.split_once(" for ")?;
    let ty = ty.split(" where").next().unwrap_or(ty).trim_end_matches(['{', ' ']);
    Some((tr.trim(), ty.trim()))
}

fn assigned_to(def: &crate::tags::Def) -> Option<String> {
    def.assigned_owner().map(|owner| format!("{owner}.{}", def.name))
}

/// The prompt's words a file holds: in its path, and in its path or the
/// names it defines.
struct FileNames {
    path: HashSet<String>,
    all: HashSet<String>,
    /// The file's name without extension, as rank's terms.
    stem: Option<String>,
    /// A test or its data: named for the code it tests (`test/validation.test.js`).
    test: bool,
}

impl FileNames {
    fn of(file: &IndexedFile, words: &[String]) -> FileNames {
        let path: HashSet<String> =
            rank::terms(&file.path).into_iter().filter(|t| words.contains(t)).collect();
        let mut all = path.clone();
        // A term is a (stemmed, lowercased) piece of the name: a name that does
        // not hold a word as it is holds no term equal to it (most names).
        for def in file.tags.defs.iter().filter(|d| d.kind.defines_name()) {
            let lower = def.name.to_lowercase();
            if words.iter().any(|w| lower.contains(w.as_str())) {
                all.extend(rank::terms(&def.name).into_iter().filter(|t| words.contains(t)));
            }
        }
        let name = file.path.rsplit('/').next().unwrap_or(&file.path);
        let stem = rank::terms(name.split('.').next().unwrap_or(name)).into_iter().next();
        let test = matches!(PathRole::of(&file.path), PathRole::Test | PathRole::Fixture);
        FileNames { path, all, stem, test }
    }
}

/// The files the prompt's `words` are about: the words a file shares with
/// the prompt, in its path or the names it defines, must be unlikely to meet
/// there by chance. With `df(w)` the number of files holding `w` (in their
/// path, for a word of this file's path: the stronger evidence), a file is
/// relevant when
///
/// 1. it shares at least `min_terms` words with the prompt (fewer if the
///    prompt has fewer) and `N · Π df(w)/N ≤` [`MAX_CHANCE`]: common words
///    together (`write a test`) are no match, rare ones or several are;
/// 2. or the prompt names it: its file name (`argparse` → `argparse.py`;
///    at most two code files' paths hold it, tests aside), or an identifier
///    it defines (`HTTPConnection`, `scan_string`), held by at most two files.
fn relevant(
    files: &[FileNames],
    words: &[String],
    identifiers: &[String],
    min_terms: usize,
) -> HashSet<usize> {
    let n = files.len() as f64;
    let count = |w: &str, f: fn(&FileNames) -> &HashSet<String>| {
        files.iter().filter(|x| f(x).contains(w)).count() as f64
    };
    let df: HashMap<&str, (f64, f64)> =
        words.iter().map(|w| (w.as_str(), (count(w, |f| &f.path), count(w, |f| &f.all)))).collect();
    // The code files whose path holds a word: the tests named after a module
    // (`validation.test.js`) leave `validation.js` the one file the word names.
    let code_paths: HashMap<&str, usize> = words
        .iter()
        .map(|w| (w.as_str(), files.iter().filter(|f| !f.test && f.path.contains(w)).count()))
        .collect();
    // The code files named the word itself: `validation.js` is the one file "fix(validation)"
    // names, though `initial-config-validation.js` holds the word too (not `utils`, `main`).
    let code_stems: HashMap<&str, usize> = words
        .iter()
        .filter(|w| !rank::GENERIC_STEMS.contains(&w.as_str()))
        .map(|w| (w.as_str(), files.iter().filter(|f| !f.test && f.stem.as_ref() == Some(w)).count()))
        .collect();
    let need = min_terms.min(words.len()).max(1);
    files
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            let shared: Vec<&String> = words.iter().filter(|w| f.all.contains(*w)).collect();
            let chance = shared.iter().fold(n, |c, w| {
                let (in_paths, anywhere) = df[w.as_str()];
                c * if f.path.contains(*w) { in_paths } else { anywhere } / n
            });
            let rare = |w: &String| f.all.contains(w) && df.get(w.as_str()).is_some_and(|d| d.1 <= 2.0);
            let named = f.stem.as_ref().is_some_and(|s| {
                f.path.contains(s)
                    && (code_paths.get(s.as_str()).is_some_and(|&n| n <= 2)
                        || code_stems.get(s.as_str()) == Some(&1))
            });
            (shared.len() >= need && chance <= MAX_CHANCE) || named || identifiers.iter().any(rare)
        })
        .map(|(i, _)| i)
        .collect()
}

/// Whether the prompt writes as code (`click.prompt`, `` `len()` ``,
/// `HTTPConnection`) a name that at most [`MAX_USERS`] code files define:
/// it says which code it is about.
fn writes_defined_code(files: &[IndexedFile], prompt: &str) -> bool {
    let code = crate::graph::code_names(prompt);
    if code.is_empty() {
        return false;
    }
    let mut definers: HashMap<&str, usize> = HashMap::default();
    for file in files.iter().filter(|f| !PathRole::of(&f.path).is_auxiliary()) {
        let mut seen = HashSet::default();
        for def in file.tags.defs.iter().filter(|d| d.kind.defines_name() && code.contains(d.name.as_str())) {
            if seen.insert(def.name.as_str()) {
                *definers.entry(def.name.as_str()).or_default() += 1;
            }
        }
    }
    definers.values().any(|&n| n <= MAX_USERS)
}

/// The prompt's words that look like identifiers (`HTTPConnection`,
/// `scan_string`), as rank's terms hold them whole.
fn identifiers(prompt: &str) -> Vec<String> {
    prompt
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 6)
        .filter(|w| {
            let inner = w.trim_matches('_');
            inner.contains('_')
                || inner.chars().zip(inner.chars().skip(1)).any(|(a, b)| a.is_lowercase() && b.is_uppercase())
                || inner.chars().filter(|c| c.is_uppercase()).count() > 1
        })
        // Whole, as rank's terms hold a compound word first (lowercased, stemmed).
        .filter_map(|w| rank::terms(w).into_iter().next())
        .collect()
}

/// Lines of the session records relevant to the prompt: lexical search
/// hits whose summary shares at least `min_terms` words with it.
fn record_lines(ws: &Workspace, words: &[String]) -> crate::Result<Vec<String>> {
    let config = &ws.config().hooks.user_prompt_submit;
    let options = SearchOptions { query: words.join(" "), k: config.records * 4, ..Default::default() };
    let need = config.min_terms.min(words.len()).max(1);
    // Not the agent's search: the pack's "last search" stays the agent's.
    let rows = ws.search_unrecorded(&options)?.results;
    let best = rows.iter().filter_map(|r| r.score).fold(0.0, f64::max);
    Ok(rows
        .into_iter()
        .filter(|r| r.score.is_none_or(|s| s >= config.min_score * best))
        .filter(|r| {
            let terms: HashSet<String> = rank::terms(&r.summary).into_iter().collect();
            words.iter().filter(|w| terms.contains(*w)).count() >= need
        })
        .take(config.records)
        .map(|r| format!("- {} [{}] {}\n", r.id, r.record_type, r.summary))
        .collect())
}

#[cfg(test)]
mod tests;
