//! Which files an ingest reads: paths, folders (every `*.jsonl` at any
//! depth), globs, and the transcripts harnesses keep of a project —
//! Claude Code's under `~/.claude/projects/<encoded path>/`, Codex CLI's
//! rollouts under `~/.codex/sessions/` whose session started in it.
//! Everything is resolved before anything is read: an input that names
//! nothing is an error, so an ingest is never silently partial.

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};

use crate::error::{Error, Result};

/// The files `inputs` name, in order, each once: a file as it is, a folder's
/// `*.jsonl` files (at any depth, sorted), a glob's matches (sorted;
/// `**` crosses folders). An input that names no file is an error.
pub fn expand_inputs(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for input in inputs {
        // Anything there but a folder is read as a file (a device, a pipe: ingest judges its content).
        let found = if input.exists() && !input.is_dir() {
            vec![input.clone()]
        } else if input.is_dir() {
            let found = jsonl_files(input)?;
            if found.is_empty() {
                return Err(Error::InvalidInput(format!(
                    "{}: no .jsonl file in this folder",
                    input.display()
                )));
            }
            found
        } else if is_glob(input) {
            let found = glob(input)?;
            if found.is_empty() {
                return Err(Error::InvalidInput(format!("{}: no file matches", input.display())));
            }
            found
        } else {
            return Err(Error::InvalidInput(format!("{}: no such file or folder", input.display())));
        };
        for file in found {
            if !files.contains(&file) {
                files.push(file);
            }
        }
    }
    Ok(files)
}

/// Every `*.jsonl` file at or below `dir`, sorted (a 2.x session's
/// subagents are in `<session>/subagents/`), but Claude Code's background
/// forks ([`is_background_fork`]).
pub fn jsonl_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|err| Error::io(&dir, err))? {
            let path = entry.map_err(|err| Error::io(&dir, err))?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|ext| ext == "jsonl") && !is_background_fork(&path) {
                files.push(path);
            }
        }
    }
    sort(&mut files);
    Ok(files)
}

/// Forks Claude Code (2.x) runs beside a session for its own upkeep, whose
/// transcripts sit among the subagents' as `agent-a<label>-<hex>.jsonl`:
/// each starts with a copy of the conversation and adds only its own
/// plumbing (suggested next prompts, speculative turns, the session-memory
/// and agent-summary notes). The compaction fork (`acompact-`) is kept: its
/// answer is the summary. So are subagents (`agent-a<hex>.jsonl`) and forks
/// this list does not know.
pub fn is_background_fork(path: &Path) -> bool {
    const UPKEEP: &[&str] = &["agent_summary", "prompt_suggestion", "session_memory", "speculation"];
    let Some(name) = path.file_name().and_then(|name| name.to_str()) else { return false };
    let Some(label) =
        name.strip_prefix("agent-a").and_then(|rest| rest.rsplit_once('-')).map(|(label, _)| label)
    else {
        return false;
    };
    UPKEEP.contains(&label)
}

/// Sort paths by their text: a session's file (`<id>.jsonl`) before its folder's (`<id>/subagents/…`).
fn sort(files: &mut [PathBuf]) {
    files.sort_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
}

/// The folder where Claude Code keeps the transcripts of sessions started
/// in `root`: `<home>/.claude/projects/` and `root` with every character
/// but ASCII letters and digits made `-` (`/home/me/my_app` → `-home-me-my-app`).
pub fn claude_code_dir(home: &Path, root: &Path) -> PathBuf {
    let encoded: String =
        root.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    home.join(".claude").join("projects").join(encoded)
}

/// The Codex CLI rollouts (`<codex_home>/sessions/**/rollout-*.jsonl`)
/// whose session started in `root` or below it (their first line, the
/// `session_meta`, says where), sorted.
pub fn codex_rollouts(codex_home: &Path, root: &Path) -> Result<Vec<PathBuf>> {
    let sessions = codex_home.join("sessions");
    if !sessions.is_dir() {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    for file in jsonl_files(&sessions)? {
        let rollout = file.file_name().is_some_and(|name| name.to_string_lossy().starts_with("rollout-"));
        if rollout && session_cwd(&file).is_some_and(|cwd| Path::new(&cwd).starts_with(root)) {
            found.push(file);
        }
    }
    Ok(found)
}

/// The `cwd` of a rollout's `session_meta` line (its first); `None` when unreadable.
fn session_cwd(file: &Path) -> Option<String> {
    let reader = std::io::BufReader::new(std::fs::File::open(file).ok()?);
    let mut line = Vec::new();
    // Its instructions can be long, but not this long.
    reader.take(crate::limits::MAX_LINE_BYTES as u64).read_until(b'\n', &mut line).ok()?;
    let value: serde_json::Value = serde_json::from_slice(&line).ok()?;
    (value.get("type")?.as_str()? == "session_meta")
        .then(|| value.get("payload")?.get("cwd")?.as_str().map(str::to_string))
        .flatten()
}

fn is_glob(path: &Path) -> bool {
    path.to_string_lossy().contains(['*', '?', '[', '{'])
}

/// The files a glob matches: the folders before its first pattern are walked.
fn glob(pattern: &Path) -> Result<Vec<PathBuf>> {
    let text = pattern.to_string_lossy();
    let matcher: GlobMatcher = GlobBuilder::new(&text)
        .literal_separator(true)
        .build()
        .map_err(|err| Error::InvalidInput(format!("{text}: {err}")))?
        .compile_matcher();
    let base: PathBuf = pattern.components().take_while(|c| !is_glob(Path::new(c.as_os_str()))).collect();
    let base = if base.as_os_str().is_empty() { PathBuf::from(".") } else { base };
    if !base.is_dir() {
        return Ok(Vec::new());
    }
    let mut files = Vec::new();
    let mut stack = vec![base];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|err| Error::io(&dir, err))? {
            let path = entry.map_err(|err| Error::io(&dir, err))?.path();
            // `./x` as the walk names it, `x` as the pattern does.
            let name = path.strip_prefix(".").unwrap_or(&path);
            if path.is_dir() {
                stack.push(path);
            } else if matcher.is_match(name) || matcher.is_match(&path) {
                files.push(path);
            }
        }
    }
    sort(&mut files);
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn background_forks_are_told_from_subagents_and_compactions() {
        for fork in ["agent-aprompt_suggestion-1a2b3c.jsonl", "agent-aspeculation-0f0f0f.jsonl"] {
            assert!(is_background_fork(Path::new(fork)), "{fork}");
        }
        for kept in [
            "agent-a1b2c3d.jsonl",
            "agent-acompact-5e6f7a.jsonl",
            "agent-aside_question-abcdef.jsonl",
            "s.jsonl",
        ] {
            assert!(!is_background_fork(Path::new(kept)), "{kept}");
        }
        let dir = tempfile::tempdir().unwrap();
        let subagents = dir.path().join("s").join("subagents");
        std::fs::create_dir_all(&subagents).unwrap();
        for name in ["agent-a1b2c3d.jsonl", "agent-asession_memory-aaaaaa.jsonl"] {
            std::fs::write(subagents.join(name), "{}\n").unwrap();
        }
        std::fs::write(dir.path().join("s.jsonl"), "{}\n").unwrap();
        let found = jsonl_files(dir.path()).unwrap();
        assert_eq!(found, [dir.path().join("s.jsonl"), subagents.join("agent-a1b2c3d.jsonl")]);
    }

    #[test]
    fn claude_code_names_a_project_s_folder_by_its_path() {
        let dir = claude_code_dir(Path::new("/home/me"), Path::new("/work/my_app.v2/ctx"));
        assert_eq!(dir, Path::new("/home/me/.claude/projects/-work-my-app-v2-ctx"));
    }

    #[test]
    fn inputs_are_files_folders_and_globs_each_once() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for name in ["a.jsonl", "notes.txt", "sub/b.jsonl", "sub/deeper/c.jsonl"] {
            let path = root.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "{}\n").unwrap();
        }
        std::fs::create_dir(root.join("empty")).unwrap();
        let files = |inputs: &[PathBuf]| {
            expand_inputs(inputs)
                .unwrap()
                .iter()
                .map(|p| p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"))
                .collect::<Vec<_>>()
        };
        assert_eq!(files(&[root.join("sub")]), ["sub/b.jsonl", "sub/deeper/c.jsonl"]);
        assert_eq!(files(&[root.join("*.jsonl")]), ["a.jsonl"]);
        assert_eq!(
            files(&[root.join("**/*.jsonl"), root.join("a.jsonl")]),
            ["a.jsonl", "sub/b.jsonl", "sub/deeper/c.jsonl"]
        );
        assert_eq!(files(&[root.join("notes.txt")]), ["notes.txt"]);
        for nothing in [root.join("missing.jsonl"), root.join("*.csv"), root.join("empty")] {
            let err = expand_inputs(&[root.join("a.jsonl"), nothing]).unwrap_err();
            assert_eq!(err.code(), "INVALID_INPUT", "{err}");
        }
    }
}
