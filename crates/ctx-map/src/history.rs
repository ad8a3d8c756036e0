//! What the repository's version history says about its files: which of them
//! changed lately.
//!
//! A task tends to touch what recent work touched. Read with `git log` from
//! the workspace root (paths relative to it); outside a git repository, or
//! without `git`, there is no history and ranking goes on without it.
//!
//! Past commit messages were tried as one more field of a file's words and
//! left out: on 371 release histories and this repository's own, they made
//! the ranking worse at every K (`benches/rank_eval.py`; docs/benchmarks.md).

use std::path::Path;
use std::process::{Command, Stdio};

use rustc_hash::FxHashMap as HashMap;

/// How many of the newest commits are read.
pub const MAX_COMMITS: usize = 500;
/// A commit that changed more files than this says little about each (a
/// reformat, a rename sweep, a vendored import): it does not count.
const MAX_FILES_PER_COMMIT: usize = 60;

/// The newest commits (merges left out) and the files each changed.
#[derive(Debug, Clone, Default)]
pub struct History {
    /// Newest first.
    pub commits: Vec<Commit>,
}

#[derive(Debug, Clone)]
pub struct Commit {
    /// Paths relative to the workspace root, with `/`.
    pub files: Vec<String>,
}

impl History {
    /// The history of the repository `root` is in (at most `max_commits`
    /// commits reachable from HEAD, touching files under `root`); `None`
    /// outside a git repository, without `git`, or when it fails.
    pub fn read(root: &Path, max_commits: usize) -> Option<History> {
        let output = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(["-c", "core.quotepath=off", "log", "--no-merges", "--relative", "--name-only"])
            .arg(format!("--max-count={max_commits}"))
            .args(["--format=%x1e", "HEAD", "--"])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        if !output.status.success() {
            return None;
        }
        Some(History::parse(&String::from_utf8_lossy(&output.stdout)))
    }

    /// Parse `git log --name-only --format=%x1e` output: a separator, then each commit's files.
    fn parse(text: &str) -> History {
        let commits = text
            .split('\x1e')
            .skip(1)
            .map(|names| Commit {
                files: names.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect(),
            })
            .collect();
        History { commits }
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_commits_files() {
        let text = "\x1e\n\nsrc/pool.rs\nsrc/lib.rs\n\x1e\n\nREADME.md\n\x1e\n";
        let history = History::parse(text);
        assert_eq!(history.commits.len(), 3);
        assert_eq!(history.commits[0].files, ["src/pool.rs", "src/lib.rs"]);
        assert_eq!(history.commits[1].files, ["README.md"]);
        assert!(history.commits[2].files.is_empty());
        let by_file = history.commits_by_file();
        assert_eq!(by_file["src/pool.rs"], [0]);
        assert!(history.is_specific(0) && !history.is_specific(9));
    }

    #[test]
    fn no_history_without_a_repository_or_a_commit() {
        let dir = tempfile::tempdir().unwrap();
        assert!(History::read(&dir.path().join("missing"), 10).is_none(), "no such folder");
        // A repository with no commit yet: HEAD names nothing.
        let status =
            Command::new("git").arg("-C").arg(dir.path()).args(["init", "--quiet"]).status().unwrap();
        assert!(status.success());
        assert!(History::read(dir.path(), 10).is_none());
    }
}
