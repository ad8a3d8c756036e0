//! What the repository's version history says about its files: which of
//! them changed lately, which change together, and which past changes were
//! described like the task at hand.
//!
//! A task tends to touch what recent work touched, and what earlier work
//! described in the same words touched. Read with `git log` from the
//! workspace root (paths relative to it); outside a git repository, or
//! without `git`, there is no history and ranking goes on without it.
//! [`History::cached`] keeps the log in the store under its HEAD, so `git
//! log` runs once per HEAD, not on every call.

use std::path::Path;
use std::process::{Command, Stdio};

use rustc_hash::FxHashMap as HashMap;

/// How many of the newest commits are read.
pub const MAX_COMMITS: usize = 500;
/// A commit that changed more files than this says little about each (a
/// reformat, a rename sweep, a vendored import): it does not count.
const MAX_FILES_PER_COMMIT: usize = 60;
/// Longest commit message kept, in bytes (the subject and what explains it).
const MAX_MESSAGE: usize = 2000;

/// The newest commits (merges left out) and the files each changed.
#[derive(Debug, Clone, Default)]
pub struct History {
    /// Newest first.
    pub commits: Vec<Commit>,
    /// Who asks: git's `user.email` where the history was read, lowercased
    /// (`None` when unset). Their own recent commits say where they work.
    pub me: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Commit {
    /// The author's email, lowercased.
    pub author: String,
    /// The commit message (cut to 2,000 bytes).
    pub message: String,
    /// Paths relative to the workspace root, with `/`.
    pub files: Vec<String>,
}

impl History {
    /// The history of the repository `root` is in (at most `max_commits`
    /// commits reachable from HEAD, touching files under `root`); `None`
    /// outside a git repository, without `git`, or when it fails.
    pub fn read(root: &Path, max_commits: usize) -> Option<History> {
        let mut history = History::parse(&log(root, max_commits)?);
        history.me = identity(root);
        Some(history)
    }

    /// [`History::read`] for the workspace `ws`, from the store when HEAD is
    /// where it was when the log was last read, with secrets redacted. A
    /// store that cannot be written only costs the next call another `git log`.
    pub fn cached(ws: &mut ctxkeep_core::Workspace, max_commits: usize) -> Option<History> {
        let root = ws.root().to_path_buf();
        let stamp = stamp(&root, max_commits)?;
        let mut history = match ws.derived(STORE_KEY) {
            Ok(Some(stored)) if stored.starts_with(&stamp) => History::parse(&stored[stamp.len()..]),
            _ => {
                // Messages and paths may hold a token: never one in the store.
                let text = ws.detector().redact(&log(&root, max_commits)?).into_owned();
                // Caching is an optimisation: a read-only store must not cost the answer.
                let _ = ws.save_derived(STORE_KEY, &format!("{stamp}{text}"));
                History::parse(&text)
            }
        };
        // Not cached with the log: who asks can change while HEAD stays.
        history.me = identity(&root);
        Some(history)
    }

    /// Parse `git log --name-only --format=%x1e%ae%x1f%B%x1f` output: a
    /// separator, each commit's author, another separator, its message, a
    /// third, then its files.
    fn parse(text: &str) -> History {
        let commits = text
            .split('\x1e')
            .skip(1)
            .map(|entry| {
                let (author, rest) = entry.split_once('\x1f').unwrap_or(("", entry));
                let (message, names) = rest.split_once('\x1f').unwrap_or(("", rest));
                let mut message = message.trim().to_string();
                if message.len() > MAX_MESSAGE {
                    let cut = (0..=MAX_MESSAGE).rev().find(|&i| message.is_char_boundary(i)).unwrap_or(0);
                    message.truncate(cut);
                }
                Commit {
                    author: author.trim().to_lowercase(),
                    message,
                    files: names
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .map(str::to_string)
                        .collect(),
                }
            })
            .collect();
        History { commits, me: None }
    }

    /// For each path: the indices (newest first) of the commits that changed it.
    pub fn commits_by_file(&self) -> HashMap<&str, Vec<usize>> {
        let mut by_file: HashMap<&str, Vec<usize>> = HashMap::default();
        for (i, commit) in self.commits.iter().enumerate() {
            for file in &commit.files {
                by_file.entry(file.as_str()).or_default().push(i);
            }
        }
        by_file
    }

    /// Whether commit `i` counts for the files it changed (it is no sweep).
    pub fn is_specific(&self, i: usize) -> bool {
        self.commits.get(i).is_some_and(|c| c.files.len() <= MAX_FILES_PER_COMMIT)
    }

    /// Whether commit `i` says where the work on a task goes on: it is
    /// specific, and no release (whose files are only where the version is
    /// written: starlette's `__init__.py`, changed by every `Version 0.47.3`)
    /// unless the task is `releasing` itself.
    pub fn is_work(&self, i: usize, releasing: bool) -> bool {
        self.is_specific(i) && (releasing || self.commits.get(i).is_some_and(|c| !is_release(&c.message)))
    }
}

/// Whether a commit message says only that it releases a version: `Version
/// 0.47.3 (#2985)`, `Release v2.1.0`, `chore(release): 1.4.0`, `Bump version
/// to 3.0.0`, `v1.2.3`. Its subject names a version and, but for words of
/// releasing, nothing else.
pub fn is_release(message: &str) -> bool {
    const WORDS: &[&str] = &[
        "version",
        "release",
        "released",
        "releasing",
        "bump",
        "bumped",
        "prepare",
        "to",
        "for",
        "chore",
        "new",
    ];
    let subject = message.lines().next().unwrap_or_default().to_lowercase();
    let words: Vec<&str> = subject
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | ':' | '[' | ']'))
        .filter(|w| !w.is_empty() && !w.starts_with('#'))
        .collect();
    let is_version = |word: &str| {
        let number = word.trim_start_matches('v');
        number.split('.').count() >= 2
            && number.split(['.', '-', '+']).next().is_some_and(|major| major.parse::<u32>().is_ok())
    };
    words.iter().any(|w| is_version(w)) && words.iter().all(|w| is_version(w) || WORDS.contains(w))
}

/// The version of [`log`]'s format, part of the stored log's stamp: a log
/// stored in another format is read again.
const LOG_FORMAT: u32 = 2;
/// Where the log is kept ([`ctxkeep_core::Workspace::derived`]).
const STORE_KEY: &str = "history";

/// What the stored log starts with: its format, HEAD and length.
fn stamp(root: &Path, max_commits: usize) -> Option<String> {
    let head = git(root, &["rev-parse", "HEAD"])?;
    Some(format!("{LOG_FORMAT}:{}:{max_commits}\n", head.trim()))
}

/// The raw log [`History::parse`] reads.
fn log(root: &Path, max_commits: usize) -> Option<String> {
    let count = format!("--max-count={max_commits}");
    git(
        root,
        &[
            "-c",
            "core.quotepath=off",
            "log",
            "--no-merges",
            "--relative",
            "--name-only",
            &count,
            "--format=%x1e%ae%x1f%B%x1f",
            "HEAD",
            "--",
        ],
    )
}

/// git's `user.email` for the repository at `root`, lowercased; `None` when unset.
fn identity(root: &Path) -> Option<String> {
    let email = git(root, &["config", "user.email"])?.trim().to_lowercase();
    (!email.is_empty()).then_some(email)
}

/// What `git -C root ARGS` prints, if it succeeds.
fn git(root: &Path, args: &[&str]) -> Option<String> {
    // Where git would only say "not a git repository", a warm ranking need not start it.
    if !may_be_in_a_repository(root) {
        return None;
    }
    // `-C root` names the repository: a `GIT_DIR` from the caller (a git hook, `ctx eval`'s
    // parent process) must not point git at another one.
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Whether git could find a repository from `root` (the environment's
/// `GIT_DIR` is not passed on): a `.git` in it or a folder above, or a folder
/// that is a bare repository (`HEAD` and `objects`).
fn may_be_in_a_repository(root: &Path) -> bool {
    root.ancestors()
        .any(|dir| dir.join(".git").exists() || (dir.join("HEAD").is_file() && dir.join("objects").is_dir()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_commits_files() {
        let text = "\x1eAda@Example.org\x1fFix the pool\n\nIt leaked.\n\x1f\n\nsrc/pool.rs\nsrc/lib.rs\n\
                    \x1eb@example.org\x1fDocs\x1f\n\nREADME.md\n\x1e\x1f\x1f\n";
        let history = History::parse(text);
        assert_eq!(history.commits.len(), 3);
        assert_eq!(history.commits[0].author, "ada@example.org");
        assert_eq!(history.commits[0].files, ["src/pool.rs", "src/lib.rs"]);
        assert_eq!(history.commits[0].message, "Fix the pool\n\nIt leaked.");
        assert_eq!(history.commits[1].files, ["README.md"]);
        assert!(history.commits[2].files.is_empty());
        let by_file = history.commits_by_file();
        assert_eq!(by_file["src/pool.rs"], [0]);
        assert!(history.is_specific(0) && !history.is_specific(9));
    }

    #[test]
    fn a_release_commit_says_nothing_of_its_files() {
        for release in [
            "Version 0.47.3 (#2985)",
            "Release v2.1.0",
            "chore(release): 1.4.0",
            "Bump version to 3.0.0-rc.1\n\nSigned-off-by: a",
            "v1.2.3",
            "1.2.3",
            "Prepare release 0.9.0",
        ] {
            assert!(is_release(release), "{release}");
        }
        for work in [
            "Fix parsing of version 1.2 headers",
            "Release the lock before 1.5s timeout",
            "Bump minimum Python version",
            "Update to Python 3.12",
            "version: read it from pyproject",
        ] {
            assert!(!is_release(work), "{work}");
        }
        let history = History::parse(
            "\x1ea@x\x1fVersion 0.47.3 (#2985)\x1fpkg/__init__.py\n\x1ea@x\x1fFix a\x1fpkg/a.py\n",
        );
        assert!(history.is_specific(0) && !history.is_work(0, false) && history.is_work(1, false));
        // But where the work on a release goes on.
        assert!(history.is_work(0, true));
    }

    #[test]
    fn no_history_without_a_repository_or_a_commit() {
        let dir = tempfile::tempdir().unwrap();
        assert!(History::read(&dir.path().join("missing"), 10).is_none(), "no such folder");
        let inner = dir.path().join("a/b");
        std::fs::create_dir_all(&inner).unwrap();
        assert!(!may_be_in_a_repository(&inner) || may_be_in_a_repository(dir.path()), "no repository here");
        // A repository with no commit yet: HEAD names nothing.
        let status =
            Command::new("git").arg("-C").arg(dir.path()).args(["init", "--quiet"]).status().unwrap();
        assert!(status.success());
        assert!(History::read(dir.path(), 10).is_none());
        assert!(may_be_in_a_repository(&inner));
        let bare = dir.path().join("bare.git");
        let status = Command::new("git").args(["init", "--quiet", "--bare"]).arg(&bare).status().unwrap();
        assert!(status.success() && may_be_in_a_repository(&bare));
    }
}
