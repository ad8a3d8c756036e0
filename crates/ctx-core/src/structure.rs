//! What the project is built with, the commands that build, test and lint it
//! (found in its manifests), its key files and a depth-limited tree. Pure
//! (paths in, manifests read, facts out): the repository map shows it above
//! its symbols, and the root's context files show the stack and commands.
//! Needs no parsing, so it is there even when no file has a grammar.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::paths::PathRole;
use crate::secrets::Detector;

mod ci;
mod entry_points;
mod just;
mod make;
mod node;
mod nox;
mod one_test;
mod tox;

/// Facts about the project. Stable JSON.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Structure {
    /// Technologies, each with where it was seen (`Rust (Cargo.toml)`), in a fixed order.
    pub stack: Vec<String>,
    /// Commands, each with what it is for (`test: cargo test`).
    pub commands: Vec<Command>,
    /// The README, agents' instructions (AGENTS.md, CLAUDE.md), manifests and build
    /// files, then entry points, in that order.
    pub key_files: Vec<String>,
    /// Folders to the tree's depth, each with how many files it holds below.
    pub tree: Vec<TreeEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Command {
    /// `build`, `test`, `test one` (one test: `cargo test NAME`), `check`, `lint`, `format`, `run`, `watch`, `bench`.
    pub purpose: String,
    pub command: String,
    /// The file it was found in.
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TreeEntry {
    pub path: String,
    pub depth: usize,
    pub files: usize,
}

/// Script and target names worth listing, and the purpose they serve, in the
/// order commands are listed by purpose (how to build and test first, what an
/// agent runs seldom, benchmarks, last).
const PURPOSES: &[(&str, &str)] = &[
    // What the others need done once first (a virtualenv their recipes activate).
    ("setup", "setup"),
    ("build", "build"),
    ("compile", "build"),
    ("test", "test"),
    ("tests", "test"),
    ("unit", "test"),
    (one_test::PURPOSE, one_test::PURPOSE),
    ("check", "check"),
    ("lint", "lint"),
    ("fmt", "format"),
    ("format", "format"),
    ("typecheck", "check"),
    // What CI runs, locally (`make ci`, `just ci`): the checks before a push.
    ("ci", "check"),
    ("dev", "run"),
    ("start", "run"),
    ("run", "run"),
    ("serve", "run"),
    ("watch", "watch"),
    ("bench", "bench"),
];

const ENTRY_POINTS: &[&str] = &[
    "main.rs",
    "lib.rs",
    "__main__.py",
    "main.py",
    "app.py",
    "manage.py",
    "cli.py",
    "index.ts",
    "index.js",
    "main.ts",
    "main.go",
    "server.ts",
    "server.js",
];

/// [`detect`] from the files near the root alone (three levels: manifests,
/// `.github/workflows/*.yml`), found by a walk with `.gitignore`'s rules, for
/// a caller that has no scan to give the paths (`ctx update`, which reads no
/// database). Its stack and commands are `detect`'s; its key files and tree
/// are those of the files near the root only.
pub fn detect_near_root(root: &Path, detector: &Detector) -> Structure {
    const DEPTH: usize = 3;
    let mut paths: Vec<String> = ignore::WalkBuilder::new(root)
        .hidden(false)
        .require_git(false)
        .max_depth(Some(DEPTH))
        .filter_entry(|entry| {
            let name = entry.file_name();
            !(entry.depth() > 0 && (name == ".git" || name == ".ctx" || name == "node_modules"))
        })
        .build()
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|entry| {
            let rel = entry.path().strip_prefix(root).ok()?;
            Some(rel.to_str()?.replace(std::path::MAIN_SEPARATOR, "/"))
        })
        .collect();
    paths.sort_unstable();
    detect(root, &paths, 0, detector)
}

/// The entry points the manifests at `root` declare, among `paths`
/// (repository-relative): package.json's `main`, `module`, `types`, `bin` and
/// `exports["."]`, pyproject.toml's `[project.scripts]`, Cargo.toml's `[lib]`
/// and `[[bin]]` paths. What the package offers starts there.
pub fn declared_entry_points(root: &Path, paths: &[String]) -> Vec<String> {
    let read = |rel: &str| crate::read_within(root, rel).ok().and_then(|b| String::from_utf8(b).ok());
    entry_points::declared(&read, paths)
}

/// Learn the structure of the project at `root` (canonical) from its files'
/// paths (repository-relative), reading only manifests, never outside `root`.
/// Commands are read from manifests as they are now, not from the store: a
/// token in a script is redacted here, by `detector`.
pub fn detect(root: &Path, paths: &[String], tree_depth: usize, detector: &Detector) -> Structure {
    let mut stack: BTreeMap<usize, String> = BTreeMap::new();
    let mut note = |order: usize, what: &str, file: &str| {
        stack.entry(order).or_insert_with(|| format!("{what} ({file})"));
    };
    let mut commands: Vec<Command> = Vec::new();
    // Read in this order: what the project is, what it asks of agents, how it
    // is built, where its code starts.
    const README: u8 = 0;
    const FOR_AGENTS: u8 = 1;
    const MANIFEST: u8 = 2;
    const ENTRY_POINT: u8 = 3;
    // (group, place in the group, path): a group's files in the order found, or by path.
    let mut key_files: BTreeSet<(u8, usize, String)> = BTreeSet::new();
    let read = |rel: &str| crate::read_within(root, rel).ok().and_then(|b| String::from_utf8(b).ok());

    // Manifests at the root, then one level down (a monorepo's packages): the
    // root's name the stack (`Python (pyproject.toml)`, not a sub-project's).
    let mut manifests: Vec<&String> = paths.iter().filter(|p| p.matches('/').count() <= 1).collect();
    manifests.sort_by_key(|p| p.contains('/'));
    for path in manifests {
        let name = path.rsplit('/').next().unwrap_or(path);
        let top = !path.contains('/');
        if let Some((order, language)) = language_of(name) {
            note(order, language, path);
        }
        match name {
            "Cargo.toml" if top => {
                key_files.insert((MANIFEST, 0, path.clone()));
                // At a workspace's root, `cargo test` alone tests the root package only
                // (clap's: not clap_builder, clap_complete, …).
                let workspace = read(path)
                    .and_then(|t| t.parse::<toml::Table>().ok())
                    .is_some_and(|t| t.contains_key("workspace"));
                let all: &[(&str, &str)] = if workspace {
                    &[
                        ("build", "cargo build --workspace"),
                        ("test", "cargo test --workspace"),
                        ("lint", "cargo clippy --workspace"),
                    ]
                } else {
                    &[("build", "cargo build"), ("test", "cargo test"), ("lint", "cargo clippy")]
                };
                push_all(&mut commands, path, all);
            }
            "pyproject.toml" | "setup.py" | "setup.cfg" => {
                if top {
                    key_files.insert((MANIFEST, 0, path.clone()));
                }
                if name == "pyproject.toml"
                    && let Some(text) = read(path)
                {
                    // A sub-project's tools run in its own folder: its stack, not the root's commands.
                    let mut elsewhere = Vec::new();
                    python_tools(&text, path, if top { &mut commands } else { &mut elsewhere }, &mut note);
                }
            }
            "package.json" => {
                if let Some(text) = read(path) {
                    node::node_facts(root, &text, path, top, paths, &mut commands, &mut note);
                }
                if top {
                    key_files.insert((MANIFEST, 0, path.clone()));
                }
            }
            "go.mod" if top => {
                key_files.insert((MANIFEST, 0, path.clone()));
                push_all(&mut commands, path, &[("build", "go build ./..."), ("test", "go test ./...")]);
            }
            "Makefile" | "makefile" | "GNUmakefile" if top => {
                note(20, "Make", path);
                key_files.insert((MANIFEST, 0, path.clone()));
                if let Some(text) = read(path) {
                    let targets = make::targets(&text);
                    if !targets.iter().any(|t| t == "setup")
                        && let Some(setup) = make::setup(&text, paths)
                    {
                        commands.push(Command {
                            purpose: "setup".into(),
                            command: setup,
                            source: path.clone(),
                        });
                    }
                    for target in targets {
                        if let Some(purpose) = purpose_of(&target) {
                            commands.push(Command {
                                purpose,
                                command: format!("make {target}"),
                                source: path.clone(),
                            });
                        }
                    }
                }
            }
            "justfile" | "Justfile" | ".justfile" if top => {
                note(21, "just", path);
                key_files.insert((MANIFEST, 0, path.clone()));
                if let Some(text) = read(path) {
                    for (recipe, purpose) in just::recipes(&text) {
                        commands.push(Command {
                            purpose,
                            command: format!("just {recipe}"),
                            source: path.clone(),
                        });
                    }
                }
            }
            // Its hooks are the project's linters and formatters, as CI runs them; with a
            // formatter or fixer among them (rich's black, isort, trailing-whitespace), running
            // it rewrites files: it formats.
            ".pre-commit-config.yaml" if top => {
                note(25, "pre-commit", path);
                let rewrites =
                    read(path).is_some_and(|text| PRE_COMMIT_FIXERS.iter().any(|id| text.contains(id)));
                let purpose = if rewrites { "format" } else { "lint" };
                push_all(&mut commands, path, &[(purpose, "pre-commit run --all-files")]);
            }
            "Dockerfile" | "Containerfile" => note(22, "Docker", path),
            "docker-compose.yml" | "docker-compose.yaml" | "compose.yaml" | "compose.yml" => {
                note(23, "Docker Compose", path)
            }
            "tox.ini" | "tox.toml" if top => push_all(&mut commands, path, &[("test", "tox")]),
            "rustfmt.toml" | ".rustfmt.toml" if top => {
                push_all(&mut commands, path, &[("format", "cargo fmt")])
            }
            "uv.lock" if top => note(9, "uv", path),
            _ => {}
        }
        if top && entry_points::is_primary_readme(name) {
            key_files.insert((README, 0, path.clone()));
        } else if top && (name == "AGENTS.md" || name == "CLAUDE.md") {
            // One that holds only ctx's own section tells an agent nothing ctx does not.
            let bytes = crate::read_within(root, path).unwrap_or_default();
            let rest = crate::agents::section::outside_section(&bytes).unwrap_or(bytes);
            if !rest.iter().all(u8::is_ascii_whitespace) {
                key_files.insert((FOR_AGENTS, 0, path.clone()));
            }
        } else if name.eq_ignore_ascii_case("CONTRIBUTING.md")
            && (top || path.starts_with(".github/") || path.starts_with("docs/"))
        {
            // What the project asks of every change (a changelog entry, full coverage, which
            // branch): an agent's change is one.
            key_files.insert((FOR_AGENTS, 1, path.clone()));
        }
    }
    // A package two levels down (`packages/core/package.json`, a binding's
    // `crates/py/pyproject.toml`) still says what the project is written in.
    for path in paths.iter().filter(|p| p.matches('/').count() == 2 && !PathRole::of(p).is_auxiliary()) {
        if let Some((order, language)) = language_of(path.rsplit('/').next().unwrap_or(path)) {
            note(order, language, path);
        }
    }
    // A uv project runs its tools in the environment uv keeps: `uv run pytest`.
    if paths.iter().any(|p| p == "uv.lock") {
        let lock = read("uv.lock").unwrap_or_default();
        let locked = |package: &str| lock.contains(&format!("\nname = \"{package}\"\n"));
        let hooks = read(".pre-commit-config.yaml").unwrap_or_default();
        // A checker configured in pyproject.toml that uv does not install but pre-commit
        // runs (pluggy's ruff and mypy, in pre-commit's own environments and on the files it
        // gives them) is pre-commit's to run: `uv run mypy .` fails there.
        let by_pre_commit = |c: &Command| {
            let tool = c.command.split_whitespace().next().unwrap_or("");
            c.source == "pyproject.toml"
                && matches!(tool, "ruff" | "mypy" | "pyright")
                && !locked(tool)
                && hooks.contains(&format!("id: {tool}"))
        };
        let checks = commands.iter().any(|c| by_pre_commit(c) && c.purpose != "format");
        commands.retain(|c| !by_pre_commit(c));
        let python =
            |c: &&mut Command| matches!(c.source.as_str(), "pyproject.toml" | "tox.ini" | "tox.toml");
        for command in commands.iter_mut().filter(python) {
            command.command = format!("uv run {}", command.command);
        }
        for command in commands.iter_mut().filter(|c| c.source == ".pre-commit-config.yaml") {
            if locked("pre-commit") {
                command.command = format!("uv run {}", command.command);
            }
            // It runs the checks the project's own commands would have.
            if checks {
                command.purpose = "lint".into();
            }
        }
    }
    // A tool's default as the workflows run it (`cargo clippy --workspace --all-targets -- -D warnings`).
    let workflows: Vec<&String> = paths
        .iter()
        .filter(|p| {
            p.strip_prefix(".github/workflows/")
                .is_some_and(|f| !f.contains('/') && (f.ends_with(".yml") || f.ends_with(".yaml")))
        })
        .collect();
    if !workflows.is_empty() {
        note(30, "GitHub Actions", ".github/workflows");
    }
    let workflow_texts: Vec<(String, &String)> =
        workflows.iter().filter_map(|path| Some((read(path)?, *path))).collect();
    let ci_lines: Vec<(String, &String)> = workflow_texts
        .iter()
        .flat_map(|(text, path)| ci::run_lines(text).into_iter().map(move |line| (line, *path)))
        .collect();
    let runs: Vec<String> = ci_lines.iter().map(|(line, _)| line.clone()).collect();
    let nightly: Vec<String> =
        workflow_texts.iter().flat_map(|(text, _)| ci::nightly_run_lines(text)).collect();
    let mut per_package: Vec<Command> = Vec::new();
    for command in commands.iter_mut().filter(|c| INFERRED_FROM.contains(&c.source.as_str())) {
        if let Some((i, theirs)) = ci::as_ci_runs(&command.purpose, &command.command, &runs) {
            command.command = theirs;
            command.source = ci_lines[i].1.clone();
        } else if command.purpose == "test" && per_package.is_empty() {
            // A workspace whose CI tests its packages one by one, some on nightly only: as CI does on stable.
            let packages = ci::per_package_runs(&command.command, &runs, &nightly);
            let mut each = packages.into_iter().map(|(i, run)| Command {
                purpose: "test".into(),
                command: run,
                source: ci_lines[i].1.clone(),
            });
            if let Some(first) = each.next() {
                *command = first;
                per_package.extend(each);
            }
        }
    }
    commands.extend(per_package);
    // A workspace's own task runner, as CI runs it (ratatui's `cargo xtask clippy`, `cargo
    // xtask format --check`, on the toolchain and options the project set): the tool's
    // default does not do what CI checks. Its tests stay beside `cargo test`, a quick run.
    let mut xtasks: Vec<Command> = Vec::new();
    for (line, path) in &ci_lines {
        let Some(task) = line.strip_prefix("cargo xtask ") else { continue };
        let purpose = match task.split_whitespace().next() {
            Some("format" | "fmt") => "format",
            Some("clippy" | "lint") => "lint",
            Some("check") => "check",
            _ => continue,
        };
        // A formatter formats; CI only checks that it has nothing to do.
        let words = line.split_whitespace().filter(|w| purpose != "format" || *w != "--check");
        let command = words.collect::<Vec<_>>().join(" ");
        if xtasks.iter().all(|x| x.purpose != purpose) {
            xtasks.push(Command { purpose: purpose.into(), command, source: (*path).clone() });
        }
    }
    let covered =
        |c: &Command| c.command.starts_with("cargo ") && xtasks.iter().any(|x| x.purpose == c.purpose);
    commands.retain(|c| !covered(c));
    commands.extend(xtasks);
    // rustfmt as CI checks with it (indicatif's `cargo fmt --all -- --check`, no
    // rustfmt.toml): what a change must pass, run as the formatter it is.
    if commands.iter().all(|c| c.purpose != "format") {
        let fmt = ci_lines.iter().find_map(|(line, path)| {
            let words: Vec<&str> = line.split_whitespace().collect();
            (words.starts_with(&["cargo", "fmt"]) && words.contains(&"--check")).then(|| {
                let words: Vec<&str> = words.into_iter().filter(|w| *w != "--check").collect();
                let words = words.strip_suffix(&["--"]).unwrap_or(&words);
                Command { purpose: "format".into(), command: words.join(" "), source: (*path).clone() }
            })
        });
        commands.extend(fmt);
    }
    // Entry points, shallowest first: at most a handful.
    // An example's or a test's `main.py` is no entry point of the project.
    // Nor is a crate the workspace leaves out (rayon's `exclude = ["ci"]`: crates that
    // only prove two copies of its core cannot link).
    let excluded = entry_points::workspace_excluded(&read);
    let mut entries: Vec<&String> = paths
        .iter()
        .filter(|p| ENTRY_POINTS.contains(&p.rsplit('/').next().unwrap_or(p)) && p.matches('/').count() <= 3)
        .filter(|p| !PathRole::of(p).is_auxiliary())
        .filter(|p| {
            !excluded.iter().any(|dir| p.strip_prefix(dir.as_str()).is_some_and(|r| r.starts_with('/')))
        })
        .collect();
    // Shallowest first; then the larger package (a workspace's crates past the first
    // eight were cut by name: tracing's 84-file `tracing-subscriber` for `tracing-flame`);
    // then by path component (`tracing/src/lib.rs` before `tracing-core/src/lib.rs`).
    let mut files_below: BTreeMap<&str, usize> = BTreeMap::new();
    for path in paths {
        if let Some((top, _)) = path.split_once('/') {
            *files_below.entry(top).or_default() += 1;
        }
    }
    let package_size =
        |p: &str| p.split_once('/').map_or(0, |(top, _)| files_below.get(top).copied().unwrap_or(0));
    entries.sort_by(|a, b| {
        (a.matches('/').count().cmp(&b.matches('/').count()))
            .then_with(|| package_size(b).cmp(&package_size(a)))
            .then_with(|| a.split('/').cmp(b.split('/')))
    });
    // What the manifests declare first (fastify's `"main": "fastify.js"`, black's
    // `[project.scripts]`), then what is named like an entry point.
    let mut declared = entry_points::declared(&read, paths);
    let named: Vec<String> = entries.into_iter().filter(|p| !declared.contains(p)).cloned().collect();
    declared.extend(named);
    key_files.extend(declared.into_iter().take(8).enumerate().map(|(i, p)| (ENTRY_POINT, i, p)));

    // The project's own scripts (`scripts/test.sh`, or GitHub's "scripts to rule
    // them all": an executable `script/test`) say how it is really built and
    // tested: they come first, and a tool's bare default for the same purpose
    // (`pytest`, `mypy .`, inferred from a manifest) goes.
    fn script(path: &str) -> Option<(&str, &'static str)> {
        let file = path.strip_prefix("scripts/").or_else(|| path.strip_prefix("script/"))?;
        let (name, runner) = match file.strip_suffix(".sh") {
            Some(name) => (name, "bash "),
            None if !file.contains('.') => (file, "./"),
            None => return None,
        };
        Some((name, runner)).filter(|_| !name.contains('/'))
    }
    let names: BTreeSet<&str> = paths.iter().filter_map(|p| script(p)).map(|(name, _)| name).collect();
    // A noxfile's sessions are the project's own scripts too (urllib3's `nox -s lint`).
    let noxfile = paths.iter().find(|p| p.as_str() == "noxfile.py");
    let sessions: Vec<Command> = noxfile
        .and_then(|path| Some((path, read(path)?)))
        .map(|(path, text)| {
            let sessions = nox::sessions(&text);
            // `test` says how to test; `test_integration` is one way of it.
            let variant = |name: &str| {
                let first = name.split(['-', '_']).next().unwrap_or(name);
                first != name && sessions.iter().any(|s| s == first)
            };
            sessions
                .iter()
                .filter(|name| !variant(name))
                .filter_map(|name| {
                    let purpose =
                        purpose_of(name).or_else(|| nox::purpose_of_checker(name).map(String::from))?;
                    Some(Command { purpose, command: format!("nox -s {name}"), source: path.clone() })
                })
                .collect()
        })
        .unwrap_or_default();
    if noxfile.is_some() {
        note(22, "nox", "noxfile.py");
    }
    // So are tox's environments that check, lint or format (structlog's `tox -e typing-mypy`
    // runs `mypy src`); `tox` alone runs the tests.
    let toxfile = paths.iter().find(|p| matches!(p.as_str(), "tox.ini" | "tox.toml"));
    let (mut tox_environments, mut tox_test): (Vec<Command>, bool) = (Vec::new(), false);
    if let Some((path, text)) = toxfile.and_then(|path| Some((path, read(path)?))) {
        note(22, "tox", path);
        for name in tox::environments(&text).iter().filter(|name| !tox::is_per_version(name)) {
            let factors = || name.split('-');
            // An environment of the tests alone (loguru's `tests`; `tox` runs its docs and build too).
            if factors().find_map(purpose_of).as_deref() == Some("test") && !tox_test {
                tox_test = true;
                let bare = commands.iter_mut().find(|c| c.purpose == "test" && c.command == "tox");
                if let Some(bare) = bare {
                    bare.command = format!("tox -e {name}");
                }
                continue;
            }
            let purpose =
                factors().find_map(purpose_of).filter(|p| matches!(p.as_str(), "check" | "lint" | "format"));
            let purpose = purpose.or_else(|| factors().find_map(nox::purpose_of_checker).map(String::from));
            let Some(purpose) = purpose.filter(|p| tox_environments.iter().all(|c| &c.purpose != p)) else {
                continue;
            };
            tox_environments.push(Command {
                purpose,
                command: format!("tox -e {name}"),
                source: path.clone(),
            });
        }
    }
    // And poethepoet's tasks (tenacity's CI runs `uv run poe lint`, `poe mypy`, `poe check`).
    let poe_tasks: Vec<Command> = read("pyproject.toml")
        .and_then(|text| text.parse::<toml::Table>().ok())
        .and_then(|doc| {
            let tasks = doc.get("tool")?.get("poe")?.get("tasks")?.as_table()?;
            let run = if paths.iter().any(|p| p == "uv.lock") { "uv run poe" } else { "poe" };
            let tasks = tasks.keys().filter_map(|name| {
                let purpose = purpose_of(name).or_else(|| nox::purpose_of_checker(name).map(String::from))?;
                let source = "pyproject.toml".to_string();
                Some(Command { purpose, command: format!("{run} {name}"), source })
            });
            Some(tasks.collect())
        })
        .unwrap_or_default();
    if !poe_tasks.is_empty() {
        note(22, "poethepoet", "pyproject.toml");
    }
    let sessions = [sessions, tox_environments, poe_tasks].concat();
    let mut scripts: Vec<Command> = paths
        .iter()
        .filter_map(|path| {
            let (name, runner) = script(path)?;
            // `test.sh` says how to test; `test-cov-html.sh` is one way of it.
            let first = name.split(['-', '_']).next().unwrap_or(name);
            let purpose = purpose_of(name).filter(|_| first == name || !names.contains(first))?;
            Some(Command { purpose, command: format!("{runner}{path}"), source: path.clone() })
        })
        .collect();
    if !sessions.is_empty() {
        // What a tool's default would lint or check with, the project's sessions do,
        // in the dependency groups they install; a quick `pytest` stays beside `nox -s test`.
        commands.retain(|c| {
            let covered = sessions.iter().any(|n| n.purpose == c.purpose);
            !(INFERRED_FROM.contains(&c.source.as_str()) && covered && c.purpose != "test")
        });
        commands.extend(sessions);
    }
    if !scripts.is_empty() {
        // A lint script runs the checkers too (`scripts/lint.sh` runs `mypy typer`).
        let family =
            |purpose: &str| if purpose == "check" { "lint".to_string() } else { purpose.to_string() };
        commands.retain(|c| {
            let covered = scripts.iter().any(|s| family(&s.purpose) == family(&c.purpose));
            !(INFERRED_FROM.contains(&c.source.as_str()) && covered)
        });
        scripts.append(&mut commands);
        commands = scripts;
    }
    // How to run one test, where the test command's runner says how.
    // pytest-cov in pytest's options (arrow's `addopts = … --cov-fail-under=99`) fails a
    // run of one test, which covers a sliver: `--no-cov` for it.
    let covers = ["pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"]
        .iter()
        .any(|config| read(config).is_some_and(|text| one_test::adds_coverage(&text)));
    if !commands.iter().any(|c| c.purpose == one_test::PURPOSE)
        && let Some(one) = one_test::from_commands(&commands, paths, covers)
    {
        commands.push(one);
    }
    commands.sort_by_key(|c| purpose_order(&c.purpose));
    // The same command found twice (a workspace's manifests) is listed once.
    let mut seen = BTreeSet::new();
    commands.retain(|c| seen.insert(c.command.clone()));
    for command in &mut commands {
        if let std::borrow::Cow::Owned(redacted) = detector.redact_in(&command.source, &command.command) {
            command.command = redacted;
        }
    }
    Structure {
        stack: stack.into_values().collect(),
        commands,
        key_files: key_files.into_iter().map(|(_, _, path)| path).collect(),
        tree: tree(paths, tree_depth),
    }
}

/// The manifests whose commands are a tool's defaults, inferred rather than written down.
const INFERRED_FROM: &[&str] = &["Cargo.toml", "pyproject.toml", "go.mod", "tox.ini", "tox.toml"];

/// The language a manifest names, and where it goes in the stack.
fn language_of(manifest: &str) -> Option<(usize, &'static str)> {
    Some(match manifest {
        "Cargo.toml" => (0, "Rust"),
        "pyproject.toml" | "setup.py" | "setup.cfg" | "requirements.txt" => (1, "Python"),
        "package.json" => (2, "Node.js"),
        "tsconfig.json" => (3, "TypeScript"),
        "go.mod" => (4, "Go"),
        "Gemfile" => (5, "Ruby"),
        "pom.xml" | "build.gradle" | "build.gradle.kts" => (6, "JVM"),
        "CMakeLists.txt" => (7, "CMake"),
        _ => return None,
    })
}

fn push_all(commands: &mut Vec<Command>, source: &str, list: &[(&str, &str)]) {
    for (purpose, command) in list {
        commands.push(Command {
            purpose: purpose.to_string(),
            command: command.to_string(),
            source: source.to_string(),
        });
    }
}

/// pre-commit hooks that rewrite the files they check (by their ids).
const PRE_COMMIT_FIXERS: &[&str] = &[
    "id: black",
    "id: isort",
    "id: ruff-format",
    "id: prettier",
    "id: end-of-file-fixer",
    "id: trailing-whitespace",
    "id: pycln",
    "id: autoflake",
    "id: pyupgrade",
    "id: rustfmt",
    "id: fmt",
    "--fix",
];

fn purpose_of(name: &str) -> Option<String> {
    // `format-check`, `fmt:check`, `lint_check` check; they change nothing.
    if name.split([':', '-', '_']).skip(1).any(|part| part == "check") {
        return Some("check".into());
    }
    let first = name.split([':', '-', '_']).next().unwrap_or(name);
    PURPOSES.iter().find(|(n, _)| *n == name || *n == first).map(|(_, p)| p.to_string())
}

fn python_tools(
    text: &str,
    path: &str,
    commands: &mut Vec<Command>,
    note: &mut impl FnMut(usize, &str, &str),
) {
    let Ok(doc) = text.parse::<toml::Table>() else { return };
    let tool = doc.get("tool").and_then(|t| t.as_table());
    let has = |name: &str| tool.is_some_and(|t| t.contains_key(name));
    if has("pytest") || text.contains("pytest") {
        note(10, "pytest", path);
        push_all(commands, path, &[("test", "pytest")]);
    }
    // A project that configures Black formats with it, whatever else Ruff does (loguru
    // lints with Ruff and formats with Black).
    if has("black") {
        note(26, "Black", path);
        push_all(commands, path, &[("format", "black .")]);
    }
    if has("ruff") {
        note(11, "Ruff", path);
        push_all(commands, path, &[("lint", "ruff check")]);
        if !has("black") {
            push_all(commands, path, &[("format", "ruff format")]);
        }
    }
    if has("mypy") {
        // Files named in its configuration are what the project checks; `mypy .` would
        // also check tests, examples and docs it never meant to.
        let configured = tool.and_then(|t| t.get("mypy")).and_then(|m| m.get("files")).is_some();
        push_all(commands, path, &[("check", if configured { "mypy" } else { "mypy ." })]);
    }
    // Configured to check nothing (loguru's `typeCheckingMode = "off"`), it is no check of the project's.
    let pyright = tool.and_then(|t| t.get("pyright"));
    let mode = pyright.and_then(|p| p.get("typeCheckingMode")).and_then(|m| m.as_str());
    if pyright.is_some() && mode != Some("off") {
        push_all(commands, path, &[("check", "pyright")]);
    }
    if has("tox") {
        push_all(commands, path, &[("test", "tox")]);
    }
    if has("poetry") {
        note(12, "Poetry", path);
    }
    if has("maturin") || text.contains("maturin") {
        note(13, "maturin", path);
    }
}

/// Where a purpose's commands go among the others: as [`PURPOSES`] first names it.
fn purpose_order(purpose: &str) -> usize {
    PURPOSES.iter().position(|(_, p)| *p == purpose).unwrap_or(PURPOSES.len())
}

/// Folders to `depth`, with the number of files below each, in path order,
/// compared by component: every folder right after its parent, even where a
/// sibling's name sorts between (`axum/src` before `axum-core`, as `-` sorts
/// before `/`).
fn tree(paths: &[String], depth: usize) -> Vec<TreeEntry> {
    // Every folder is at level 1 or deeper.
    if depth == 0 {
        return Vec::new();
    }
    // Every folder: the files below it, whether it holds one of its own, its subfolders.
    let mut counts: BTreeMap<Vec<&str>, usize> = BTreeMap::new();
    let mut holds_files: BTreeSet<Vec<&str>> = BTreeSet::new();
    let mut subfolders: BTreeMap<Vec<&str>, BTreeSet<&str>> = BTreeMap::new();
    for path in paths {
        let parts: Vec<&str> = path.split('/').collect();
        for d in 1..parts.len() {
            *counts.entry(parts[..d].to_vec()).or_default() += 1;
            if d + 1 < parts.len() {
                subfolders.entry(parts[..d].to_vec()).or_default().insert(parts[d]);
            }
        }
        if parts.len() > 1 {
            holds_files.insert(parts[..parts.len() - 1].to_vec());
        }
    }
    // A folder that only holds another (`src/` of a src layout, `src/` of `pkg/src/`)
    // costs no depth: `src/werkzeug/debug` shows where `src/werkzeug` alone would.
    let passes_through = |folder: &[&str]| {
        !holds_files.contains(folder) && subfolders.get(folder).is_some_and(|s| s.len() == 1)
    };
    let mut levels: BTreeMap<Vec<&str>, usize> = BTreeMap::new();
    for parts in counts.keys() {
        let parent = &parts[..parts.len() - 1];
        let level = match levels.get(parent) {
            Some(&above) if passes_through(parent) => above,
            Some(&above) => above + 1,
            None => 1,
        };
        levels.insert(parts.clone(), level);
    }
    counts
        .into_iter()
        .filter(|(parts, _)| levels.get(parts).is_some_and(|&level| level <= depth))
        .map(|(parts, files)| TreeEntry { depth: parts.len(), path: parts.join("/"), files })
        .collect()
}

#[cfg(test)]
mod tests;
