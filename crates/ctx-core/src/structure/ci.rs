//! Commands as the project's CI runs them. A command inferred from a
//! manifest is the tool's bare default (`cargo clippy --workspace`); the
//! workflow that gates a merge often runs it with what makes it pass or fail
//! (`cargo clippy --workspace --all-targets -- -D warnings`). An agent that
//! runs the bare default sees a clean lint that CI then fails.

/// The shell commands the `run:` steps of a GitHub Actions workflow run, in
/// order: a block scalar (`run: |`) split into lines, a line continued with
/// `\` joined, `&&` chains split, the workflow's own `env:` values put in
/// (chrono's `${{ env.ALL_NON_EXCLUSIVE_FEATURES }}`) and the first value of
/// a matrix's (indicatif's `cargo test ${{ matrix.features }}` over
/// `features: [--all-features]`: most of its runs); none that holds another
/// workflow expression (`${{ github.ref }}`), which means nothing outside CI.
pub(super) fn run_lines(workflow: &str) -> Vec<String> {
    steps(workflow).into_iter().filter(|(nightly, _)| !nightly).map(|(_, line)| line).collect()
}

/// The commands of `workflow`'s steps that run on a nightly toolchain only
/// (rayon's `if: matrix.rust == 'nightly'`), which a stable one may fail.
pub(super) fn nightly_run_lines(workflow: &str) -> Vec<String> {
    steps(workflow).into_iter().filter(|(nightly, _)| *nightly).map(|(_, line)| line).collect()
}

/// [`run_lines`], each with whether its step runs on a nightly toolchain only.
fn steps(workflow: &str) -> Vec<(bool, String)> {
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut env: Vec<(String, String)> =
        workflow_env(workflow).into_iter().map(|(name, value)| (format!("env.{name}"), value)).collect();
    env.extend(workflow_matrix(workflow).into_iter().map(|(name, value)| (format!("matrix.{name}"), value)));
    let nightly = nightly_steps(workflow);
    let mut out = Vec::new();
    let mut lines = workflow.lines().enumerate().map(|(i, line)| (nightly[i], line)).peekable();
    while let Some((on_nightly, line)) = lines.next() {
        let step = line.trim_start().trim_start_matches("- ");
        let Some(value) = step.strip_prefix("run:") else { continue };
        let value = value.trim();
        let mut shell: Vec<String> = Vec::new();
        if value.starts_with('|') || value.starts_with('>') {
            let key = indent(line);
            while let Some((_, next)) = lines.next_if(|(_, l)| l.trim().is_empty() || indent(l) > key) {
                shell.push(next.trim().to_string());
            }
            // A folded block (`>-`) is one line.
            if value.starts_with('>') {
                let folded: Vec<String> = shell.drain(..).filter(|l| !l.is_empty()).collect();
                shell.push(folded.join(" "));
            }
        } else {
            shell.push(value.trim_matches(|c| c == '"' || c == '\'').to_string());
        }
        let mut joined = String::new();
        for part in shell {
            let (part, goes_on) = match part.strip_suffix('\\') {
                Some(head) => (head.trim_end(), true),
                None => (part.as_str(), false),
            };
            joined.push_str(part);
            if goes_on {
                joined.push(' ');
                continue;
            }
            for (name, value) in &env {
                for written in [format!("${{{{ {name} }}}}"), format!("${{{{{name}}}}}")] {
                    joined = joined.replace(&written, value);
                }
            }
            out.extend(
                joined
                    .split("&&")
                    .map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
                    .filter(|c| !c.is_empty() && !c.starts_with('#') && !c.contains("${{"))
                    .map(|c| (on_nightly, c)),
            );
            joined.clear();
        }
    }
    out
}

/// Per line of `workflow`, whether it is in a step that runs on a nightly
/// toolchain only (rayon's `if: matrix.rust == 'nightly'` on the demo's
/// tests, which use `#![feature]`).
fn nightly_steps(workflow: &str) -> Vec<bool> {
    let lines: Vec<&str> = workflow.lines().collect();
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut nightly = vec![false; lines.len()];
    for (start, line) in lines.iter().enumerate().filter(|(_, l)| l.trim_start().starts_with("- ")) {
        let end = (start + 1..lines.len())
            .find(|&i| !lines[i].trim().is_empty() && indent(lines[i]) <= indent(line))
            .unwrap_or(lines.len());
        // `== 'nightly'`, not `!= 'nightly'` (a step every stable run takes).
        let condition = |l: &&str| {
            let key = l.trim_start().trim_start_matches("- ");
            key.starts_with("if:") && key.contains("nightly") && !key.contains('!')
        };
        if lines[start..end].iter().any(condition) {
            nightly[start..end].iter_mut().for_each(|n| *n = true);
        }
    }
    nightly
}

/// The variables a workflow's top-level `env:` block sets, with their values
/// (unquoted).
fn workflow_env(workflow: &str) -> Vec<(String, String)> {
    let mut lines = workflow.lines().skip_while(|l| l.trim_end() != "env:").skip(1);
    let mut env = Vec::new();
    while let Some(line) = lines.next().filter(|l| l.trim().is_empty() || l.starts_with([' ', '\t'])) {
        let Some((name, value)) = line.trim().split_once(':') else { continue };
        let quoted = |q: char| value.trim().strip_prefix(q).and_then(|v| v.strip_suffix(q));
        let value = quoted('"').or_else(|| quoted('\'')).unwrap_or(value.trim());
        if !name.starts_with('#') && !value.is_empty() {
            env.push((name.trim().to_string(), value.to_string()));
        }
    }
    env
}

/// Each variable of the workflow's job matrices (`features: [--all-features]`,
/// or a list under `features:`) with its first value, the one the matrix is
/// about (its `include:`s add the odd runs); the first job's where two set one.
fn workflow_matrix(workflow: &str) -> Vec<(String, String)> {
    let indent = |line: &str| line.len() - line.trim_start().len();
    let unquoted = |value: &str| value.trim().trim_matches(|c| c == '"' || c == '\'').to_string();
    let lines: Vec<&str> =
        workflow.lines().filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#')).collect();
    let mut out: Vec<(String, String)> = Vec::new();
    for (at, line) in lines.iter().enumerate().filter(|(_, l)| l.trim() == "matrix:") {
        let block: Vec<&str> =
            lines[at + 1..].iter().copied().take_while(|l| indent(l) > indent(line)).collect();
        let Some(key_indent) = block.first().map(|l| indent(l)) else { continue };
        for (k, key_line) in block.iter().enumerate().filter(|(_, l)| indent(l) == key_indent) {
            let Some((name, value)) = key_line.trim().split_once(':') else { continue };
            if matches!(name, "include" | "exclude") || out.iter().any(|(known, _)| known == name) {
                continue;
            }
            let first = match value.trim() {
                // `[--all-features, ""]`: a flow list's first item.
                list if list.starts_with('[') => {
                    list.trim_start_matches('[').trim_end_matches(']').split(',').next().map(unquoted)
                }
                "" => block.get(k + 1).and_then(|l| l.trim().strip_prefix("- ")).map(unquoted),
                _ => None,
            };
            // A value that is a mapping (`- { os: ubuntu-latest }`) is no word of a command.
            if let Some(first) = first.filter(|f| !f.contains([':', '{'])) {
                out.push((name.to_string(), first));
            }
        }
    }
    out
}

/// The words of a shell command, a quoted one whole and as written (`--features
/// "serde rkyv"` is two).
fn shell_words(line: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let (mut start, mut quote) = (None, None);
    for (at, c) in line.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => {
                quote = Some(c);
                start = start.or(Some(at));
            }
            (None, c) if c.is_whitespace() => {
                if let Some(from) = start.take() {
                    words.push(&line[from..at]);
                }
            }
            (None, _) => start = start.or(Some(at)),
        }
    }
    words.extend(start.map(|from| &line[from..]));
    words
}

/// rustc's and clippy's options that set a lint's level, each followed by the lint.
const LINT_LEVELS: &[&str] = &["--allow", "-A", "--warn", "-W", "--deny", "-D", "--forbid"];

/// How loud a run is, which CI logs want and an agent does not.
const VERBOSITY: &[&str] = &["--verbose", "-v", "-vv", "--color=always"];

/// The words CI may add to a default (and the features a `--features` turns
/// on): each makes the run cover more or fail on more, or is what the tests
/// need to pass (crossterm's `-- --test-threads
/// 1`: its tests share one terminal). Anything else (`--doc`, `-p regex-syntax`, `--cov`) makes it a
/// narrower or a different run, not the same one done as CI does.
const STRICTER: &[&str] = &[
    "--workspace",
    "--all",
    "--all-targets",
    "--all-features",
    "--no-deps",
    "--locked",
    "--",
    "-D",
    "--deny",
    "warnings",
    "-Dwarnings",
    "clippy::all",
    "--strict",
    "--test-threads",
    "--test-threads=1",
    "1",
];

/// `ours` (a `purpose` command inferred from a manifest) as CI runs it: the
/// shortest of the workflows' `lines` that runs the same program and
/// subcommand with every word of `ours` and [`STRICTER`] ones, and which of
/// `lines` it is; `None` when CI runs it as is, or not at all. A check-only
/// run is not what a formatter does.
pub(super) fn as_ci_runs(purpose: &str, ours: &str, lines: &[String]) -> Option<(usize, String)> {
    let words: Vec<&str> = ours.split_whitespace().collect();
    // `cargo clippy`, `uv run pytest`: the program and what it is asked to do.
    let head = &words[..words.len().min(if words.first() == Some(&"uv") { 3 } else { 2 })];
    let quiet = |line: &str| -> Vec<String> {
        let mut words: Vec<String> =
            shell_words(line).into_iter().filter(|w| !VERBOSITY.contains(w)).map(str::to_string).collect();
        // What a quieted option leaves at the end (`-- --color=always`) passes nothing on.
        if words.last().is_some_and(|w| w == "--") {
            words.pop();
        }
        words
    };
    let runs: Vec<Vec<String>> = lines.iter().map(|line| quiet(line)).collect();
    if runs.iter().any(|theirs| theirs.iter().map(String::as_str).eq(words.iter().copied())) {
        return None;
    }
    // Every word of theirs is ours, a stricter one, the features a `--features` turns
    // on, or, past a `--`, a lint's level (mio's `cargo clippy --all-targets
    // --all-features -- --allow clippy::needless-lifetimes -D warnings`): what
    // the project decided its lints are, which a run that passes CI keeps.
    let stricter = |theirs: &[String]| {
        let passed_on = theirs.iter().position(|t| t == "--").unwrap_or(theirs.len());
        theirs.iter().enumerate().all(|(i, t)| {
            let after = |flags: &[&str]| i > 0 && flags.contains(&theirs[i - 1].as_str());
            let lint_level = i > passed_on && (LINT_LEVELS.contains(&t.as_str()) || after(LINT_LEVELS));
            words.contains(&t.as_str())
                || STRICTER.contains(&t.as_str())
                || matches!(t.as_str(), "--features" | "-F")
                || t.starts_with("--features=")
                || after(&["--features", "-F"])
                || lint_level
        })
    };
    runs.into_iter()
        .enumerate()
        .filter(|(_, theirs)| {
            theirs.iter().map(String::as_str).take(head.len()).eq(head.iter().copied())
                && theirs.len() > words.len()
                && words.iter().all(|w| theirs.iter().any(|t| t == w))
                && stricter(theirs)
                && !(purpose == "format" && theirs.iter().any(|t| t == "--check"))
        })
        .map(|(i, theirs)| (i, theirs.join(" ")))
        .min_by_key(|(_, run)| run.len())
}

/// `ours` (a manifest's default that CI never runs, `cargo test --workspace`)
/// as CI runs it package by package instead (rayon's `cargo test --package
/// rayon` and `--package rayon-core`), when CI tests some package on a
/// nightly toolchain only (rayon's demo, which a stable one fails to build):
/// each of `lines` that runs the same program and subcommand on named
/// packages, with nothing else but [`STRICTER`] words; with which of `lines`
/// it is. None when CI runs `ours` as is, or the whole of it on stable.
pub(super) fn per_package_runs(ours: &str, lines: &[String], nightly: &[String]) -> Vec<(usize, String)> {
    let words: Vec<&str> = ours.split_whitespace().collect();
    let head = &words[..words.len().min(2)];
    if !nightly.iter().any(|line| shell_words(line).starts_with(head)) {
        return Vec::new();
    }
    let runs: Vec<Vec<&str>> = lines
        .iter()
        .map(|line| shell_words(line).into_iter().filter(|w| !VERBOSITY.contains(w)).collect())
        .collect();
    if runs.contains(&words) {
        return Vec::new();
    }
    let mut found: Vec<(usize, String)> = Vec::new();
    for (i, theirs) in runs.iter().enumerate() {
        let package = |at: usize| at > 0 && matches!(theirs[at - 1], "--package" | "-p");
        let allowed = theirs.iter().enumerate().skip(head.len()).all(|(at, w)| {
            matches!(*w, "--package" | "-p") || package(at) || STRICTER.contains(w) || words.contains(w)
        });
        let named = theirs.iter().any(|w| matches!(*w, "--package" | "-p"));
        let run = theirs.join(" ");
        if theirs.starts_with(head) && named && allowed && found.iter().all(|(_, r)| *r != run) {
            found.push((i, run));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// mdBook's and regex's workflows, cut down.
    const WORKFLOW: &str = r#"name: CI
on: [push]
jobs:
  lint:
    steps:
      - uses: actions/checkout@v4
      - run: cargo clippy --workspace --all-targets --no-deps -- -D warnings
      - name: Check formatting
        run: cargo fmt --all -- --check
  test:
    steps:
      - name: Build
        run: |
          # the whole workspace
          cargo build --verbose &&
            cargo test --workspace --verbose
          cross test --target ${{ matrix.target }}
      - run: >-
          cargo test
          --doc
      - run: |
          cargo clippy --workspace \
            --all-features
      - run: "npm run lint"
"#;

    #[test]
    fn a_workflows_run_steps_are_its_commands() {
        assert_eq!(
            run_lines(WORKFLOW),
            [
                "cargo clippy --workspace --all-targets --no-deps -- -D warnings",
                "cargo fmt --all -- --check",
                "cargo build --verbose",
                "cargo test --workspace --verbose",
                "cargo test --doc",
                "cargo clippy --workspace --all-features",
                "npm run lint",
            ]
        );
    }

    #[test]
    fn a_matrix_variable_is_its_first_value() {
        // indicatif's: `cargo test` alone skips the tests behind `#![cfg(feature = "in_memory")]`.
        let workflow = "jobs:\n  test:\n    strategy:\n      matrix:\n        os: [ubuntu-latest, macos-latest]\n        \
                        features: [--all-features]\n        include:\n          - os: ubuntu-latest\n            \
                        features: \"\"\n    steps:\n      - run: cargo test ${{ matrix.features }}\n      \
                        - run: cross build --target ${{ matrix.target }}\n  msrv:\n    strategy:\n      matrix:\n        \
                        rust:\n          - \"1.85\"\n          - stable\n    steps:\n      - run: cargo +${{matrix.rust}} check\n";
        assert_eq!(run_lines(workflow), ["cargo test --all-features", "cargo +1.85 check"]);
    }

    #[test]
    fn a_default_becomes_what_ci_runs_when_ci_runs_more() {
        let lines = run_lines(WORKFLOW);
        let ci = |purpose: &str, ours: &str| as_ci_runs(purpose, ours, &lines).map(|(_, run)| run);
        // The shortest that holds every word of ours, without the words that make a log loud.
        assert_eq!(
            ci("lint", "cargo clippy --workspace").as_deref(),
            Some("cargo clippy --workspace --all-features")
        );
        assert_eq!(ci("lint", "cargo clippy").as_deref(), Some("cargo clippy --workspace --all-features"));
        // What CI runs as is, or never, stays; so does a formatter CI only checks with.
        assert_eq!(ci("test", "cargo test --workspace"), None);
        assert_eq!(ci("build", "cargo build"), None);
        // `cargo test --doc` is a narrower run, not `cargo test` as CI runs it; `--workspace` a wider one.
        assert_eq!(ci("test", "cargo test").as_deref(), Some("cargo test --workspace"));
        let narrower = run_lines("steps:\n  - run: cargo test --doc\n  - run: uv run pytest --cov\n");
        assert_eq!(as_ci_runs("test", "cargo test", &narrower), None);
        assert_eq!(as_ci_runs("test", "uv run pytest", &narrower), None);
        assert_eq!(ci("format", "cargo fmt"), None);
        assert_eq!(ci("test", "uv run pytest"), None);
        assert_eq!(ci("lint", "cargo clippy --workspace --all-features"), None);
        let strict = run_lines("steps:\n  - run: cargo clippy --all-targets -- -D warnings\n");
        let run = as_ci_runs("lint", "cargo clippy", &strict).map(|(_, run)| run);
        assert_eq!(run.as_deref(), Some("cargo clippy --all-targets -- -D warnings"));
        // mio's: the lints the project allows are part of the run that passes.
        let allowing = "cargo clippy --all-targets --all-features -- --allow clippy::mixed-attributes-style \
                        --allow clippy::needless-lifetimes -D warnings";
        let run = as_ci_runs("lint", "cargo clippy", &[allowing.to_string()]).map(|(_, run)| run);
        assert_eq!(run.as_deref(), Some(allowing));
        // Before the `--`, `-A` is no lint's level: not the same run.
        let other = ["cargo clippy -A something".to_string()];
        assert_eq!(as_ci_runs("lint", "cargo clippy", &other), None);
        // rayon's: its packages one by one, the demo's (nightly only) aside.
        let rayon = "jobs:\n  test:\n    steps:\n      - run: cargo test --verbose --package rayon\n\
                     \x20     - run: cargo test --verbose --package rayon-core\n\
                     \x20     - run: cargo test --verbose --target i686-unknown-linux-gnu --package rayon\n\
                     \x20     - run: cargo test --verbose --package rayon-demo\n\
                     \x20       if: matrix.rust == 'nightly'\n      - run: cargo fmt --all --check\n";
        let (lines, nightly) = (run_lines(rayon), nightly_run_lines(rayon));
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert_eq!(nightly, ["cargo test --verbose --package rayon-demo"]);
        let skipped_on_nightly = "steps:\n  - run: cargo test\n    if: matrix.rust != 'nightly'\n";
        assert_eq!(run_lines(skipped_on_nightly), ["cargo test"]);
        assert!(nightly_run_lines(skipped_on_nightly).is_empty());
        let per_package = |lines: &[String], nightly: &[String]| -> Vec<String> {
            per_package_runs("cargo test --workspace", lines, nightly).into_iter().map(|(_, r)| r).collect()
        };
        assert_eq!(
            per_package(&lines, &nightly),
            ["cargo test --package rayon", "cargo test --package rayon-core"]
        );
        // What CI runs whole, or tests all on stable, stays the workspace's.
        assert!(per_package(&["cargo test --workspace".into()], &nightly).is_empty());
        assert!(per_package(&lines, &[]).is_empty());
        // What the tests need to pass (crossterm's share one terminal).
        let serial = run_lines("steps:\n  - run: cargo test --locked --all-targets -- --test-threads 1\n");
        let run = as_ci_runs("test", "cargo test", &serial).map(|(_, run)| run);
        assert_eq!(run.as_deref(), Some("cargo test --locked --all-targets -- --test-threads 1"));
        // chrono's: the features CI tests with, from the workflow's own `env:`.
        let chrono = "env:\n  # really --all-features\n  ALL: --features \"default serde\"\n\non:\n  push:\n\
                      jobs:\n  test:\n    steps:\n      - run: cargo test ${{ env.ALL }} --color=always -- --color=always\n\
                      \x20     - run: |\n          cargo clippy ${{ env.ALL }} --all-targets --color=always \\\n\
                      \x20           -- -D warnings\n      - run: cargo build --target ${{ matrix.target }}\n";
        let lines = run_lines(chrono);
        assert_eq!(lines.len(), 2, "{lines:?}");
        let run = |purpose: &str, ours: &str| as_ci_runs(purpose, ours, &lines).map(|(_, run)| run);
        assert_eq!(run("test", "cargo test").as_deref(), Some("cargo test --features \"default serde\""));
        assert_eq!(
            run("lint", "cargo clippy").as_deref(),
            Some("cargo clippy --features \"default serde\" --all-targets -- -D warnings")
        );
    }
}
