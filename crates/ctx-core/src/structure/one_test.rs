//! How to run one test: the project's own test command narrowed to one file
//! or one name, for the runners whose way of narrowing is known. An agent
//! that changed one function runs its test, not the whole suite; the form
//! (`pytest tests/test_x.py::NAME`, `cargo test NAME`, `vitest run FILE -t
//! NAME`) is the runner's, the rest (`uv run`, `--workspace`, `pnpm test`)
//! the project's, as its test command says it.

use super::Command;
use crate::paths::PathRole;

/// The purpose of a command that runs one test.
pub(super) const PURPOSE: &str = "test one";

/// What narrows a run to one test (the placeholder the command shows).
const NAME: &str = "NAME";

/// The first `test` command of `commands` whose runner's way of narrowing
/// is known, narrowed to one test; `paths` give it a real test file
/// to show. `covers`: pytest's options measure coverage ([`adds_coverage`]),
/// which one test's run does without.
pub(super) fn from_commands(commands: &[Command], paths: &[String], covers: bool) -> Option<Command> {
    // The first that can be: arrow's `make test` cannot, its `pytest` can.
    commands.iter().filter(|c| c.purpose == "test").find_map(|test| narrowed(test, paths, covers))
}

/// `test` narrowed to one test, as [`from_commands`] says.
fn narrowed(test: &Command, paths: &[String], covers: bool) -> Option<Command> {
    let command = &test.command;
    let cargo = command.starts_with("cargo test") || command.starts_with("cargo nextest run");
    // Arguments after `--` go to the test binary, or to a script: a name appended
    // to them means something else. Cargo's filter goes before them (`cargo test NAME
    // -- --test-threads 1`).
    if let Some((cargo_args, binary_args)) = command.split_once(" -- ").filter(|_| cargo) {
        let narrowed = format!("{cargo_args} {NAME} -- {binary_args}");
        return Some(Command { purpose: PURPOSE.into(), command: narrowed, source: test.source.clone() });
    }
    if command.contains(" -- ") || command.ends_with(" --") {
        return None;
    }
    let words: Vec<&str> = command.split_whitespace().collect();
    let narrowed = if let Some(at) = words.iter().position(|w| *w == "pytest") {
        // `uv run pytest -x` → `uv run pytest tests/test_x.py::NAME`: its own arguments
        // may name the folder to collect from, so only the runner and what runs it stay.
        let runner = words[..=at].join(" ");
        let no_cov = if covers { " --no-cov" } else { "" };
        match first_test(paths, |name| name.starts_with("test_") && name.ends_with(".py")) {
            Some(file) => format!("{runner} {file}::{NAME}{no_cov}"),
            None => format!("{runner} -k {NAME}{no_cov}"),
        }
    } else if cargo {
        format!("{command} {NAME}")
    } else if command.starts_with("go test") {
        format!("{command} -run {NAME}")
    } else {
        return None;
    };
    Some(Command { purpose: PURPOSE.into(), command: narrowed, source: test.source.clone() })
}

/// Whether a pytest configuration's `addopts` (of `pytest.ini`, `tox.ini`,
/// `setup.cfg` or `pyproject.toml`) turn pytest-cov on: `--cov`, on its line
/// or the lines that continue it.
pub(super) fn adds_coverage(config: &str) -> bool {
    let mut lines = config.lines();
    while let Some(line) = lines.next() {
        let Some(value) = line.trim_start().strip_prefix("addopts") else { continue };
        if !value.trim_start().starts_with('=') {
            continue;
        }
        // Continued on indented lines (INI), or a TOML array or string over lines.
        let more = lines
            .clone()
            .take_while(|l| l.starts_with([' ', '\t']) || l.trim_start().starts_with(['"', '\'', ']']));
        if std::iter::once(value).chain(more).any(|l| l.contains("--cov")) {
            return true;
        }
    }
    false
}

/// `script` (a package.json script) run by `run` (`npm run test`, `pnpm test`)
/// narrowed to one test, if it runs Vitest or Jest, which take a file and
/// `-t NAME`; npm passes them to the script after `--`. A script that checks
/// first (`pnpm lint && vitest run --coverage`: `only_checks` says which steps
/// do) runs its runner through `exec` (`pnpm exec vitest run FILE -t NAME`):
/// one test needs neither the lint nor the whole suite's coverage.
pub(super) fn from_script(
    run: &str,
    exec: &str,
    script: &str,
    paths: &[String],
    only_checks: impl Fn(&str) -> bool,
) -> Option<String> {
    let steps: Vec<&str> = script.split("&&").map(str::trim).collect();
    let (tests, checks) = steps.split_last()?;
    let runner = tests.split_whitespace().next()?;
    if !matches!(runner, "vitest" | "jest") || script.contains(';') || !checks.iter().all(|s| only_checks(s))
    {
        return None;
    }
    let file = first_test(paths, |name| {
        [".test.", ".spec."].iter().any(|infix| name.contains(infix))
            && [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"]
                .iter()
                .any(|ext| name.ends_with(ext))
    })?;
    if !checks.is_empty() {
        let words: Vec<&str> = tests.split_whitespace().filter(|w| !w.starts_with("--coverage")).collect();
        return Some(format!("{exec} {} {file} -t {NAME}", words.join(" ")));
    }
    let separator = if run.starts_with("npm ") { " --" } else { "" };
    Some(format!("{run}{separator} {file} -t {NAME}"))
}

/// The test file to show: the first, by path, of the shallowest test files
/// named as `is_test_file` says, the project's own (an example's smoke test
/// under `examples/` is not how the project tests itself).
fn first_test(paths: &[String], is_test_file: impl Fn(&str) -> bool) -> Option<&str> {
    let own = |path: &str| {
        let top = path.split('/').next().unwrap_or(path);
        !path.contains('/') || matches!(PathRole::of(top), PathRole::Test | PathRole::Source)
    };
    paths
        .iter()
        .filter(|p| {
            PathRole::of(p) == PathRole::Test && own(p) && is_test_file(p.rsplit('/').next().unwrap_or(p))
        })
        .min_by(|a, b| a.matches('/').count().cmp(&b.matches('/').count()).then_with(|| a.cmp(b)))
        .map(String::as_str)
}
