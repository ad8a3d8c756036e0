//! The project's structure as real manifests give it: stack, commands (as CI
//! runs them, a project's own scripts first), key files and tree.
//! Declared `#[cfg(test)] mod tests;` in `structure.rs`: compiled for tests only.

use std::path::PathBuf;

use super::*;

/// A project in a temp folder (kept while the guard lives) with `files`
/// written, and its canonical root, as `detect` takes it.
fn project(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    (dir, root)
}

/// The commands found at `root` among `paths`, as (purpose, command).
fn commands_of(root: &Path, paths: &[&str]) -> Vec<(String, String)> {
    let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
    let found = detect(root, &paths, 2, Detector::builtin());
    found.commands.into_iter().map(|c| (c.purpose, c.command)).collect()
}

/// `(purpose, command)` pairs as [`commands_of`] gives them.
fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect()
}

#[test]
fn declared_entry_points_lead_the_key_files_and_translations_are_no_readme() {
    let (_dir, root) = project(&[
        // fastify's: the package's main and types; a smoke test's server.js after them.
        ("package.json", r#"{"main": "fastify.js", "types": "./fastify.d.ts", "bin": {"f": "missing.js"}}"#),
        // black's console script, in a src layout.
        ("pyproject.toml", "[project.scripts]\nblack = \"black:patched_main\"\n"),
    ]);
    let root = &root;
    let paths = [
        "package.json",
        "pyproject.toml",
        "README.md",
        "README.中文.md",
        "fastify.js",
        "fastify.d.ts",
        "integration/server.js",
        "src/black/__init__.py",
    ]
    .map(String::from);
    let found = detect(root, &paths, 2, Detector::builtin());
    assert_eq!(
        found.key_files,
        [
            "README.md",
            "package.json",
            "pyproject.toml",
            "fastify.js",
            "fastify.d.ts",
            "src/black/__init__.py",
            "integration/server.js"
        ]
    );
}

#[test]
fn pre_commit_hooks_justfile_recipes_and_a_unit_script_are_commands() {
    let (_dir, root) = project(&[
        (".pre-commit-config.yaml", "repos:\n- repo: local\n  hooks:\n  - id: flake8\n"),
        ("package.json", r#"{"scripts": {"unit": "borp", "lint": "eslint"}}"#),
        // A justfile's recipes are commands (structure/just.rs tells which).
        ("justfile", "fmt:\n  cargo fmt --all\n"),
    ]);
    let root = &root;
    assert_eq!(commands_of(root, &["justfile"]), pairs(&[("format", "just fmt")]));
    assert_eq!(
        commands_of(root, &[".pre-commit-config.yaml", "package.json"]),
        pairs(&[("test", "npm run unit"), ("lint", "pre-commit run --all-files"), ("lint", "npm run lint")])
    );
    // rich's: black and trailing-whitespace rewrite what they find; `format-check` checks.
    let config =
        "repos:\n- repo: https://x.invalid/black\n  hooks:\n  - id: black\n  - id: trailing-whitespace\n";
    std::fs::write(root.join(".pre-commit-config.yaml"), config).unwrap();
    std::fs::write(root.join("Makefile"), "format-check:\n\tblack --check .\nformat:\n\tblack .\n").unwrap();
    assert_eq!(
        commands_of(root, &[".pre-commit-config.yaml", "Makefile"]),
        pairs(&[
            ("check", "make format-check"),
            ("format", "pre-commit run --all-files"),
            ("format", "make format")
        ])
    );
    // httpie's: a target that cleans first (itself, or through one it needs) is no test to run.
    let makefile = "clean:\n\trm -rf $(VENV)\ntest:\n\tpytest\ntest-sdist: clean venv # packaging\n\tpython -m build\n\
                    test-dist: test-sdist\ntest-cover: test\n\tcoverage\n";
    std::fs::write(root.join("Makefile"), makefile).unwrap();
    assert_eq!(
        commands_of(root, &["Makefile"]),
        pairs(&[("test", "make test"), ("test", "make test-cover")])
    );
}

#[test]
fn a_default_is_listed_as_the_workflows_run_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = &std::fs::canonicalize(dir.path()).unwrap();
    std::fs::write(root.join("Cargo.toml"), "[workspace]\n").unwrap();
    std::fs::create_dir_all(root.join(".github/workflows")).unwrap();
    let workflow = "jobs:\n  lint:\n    steps:\n      - run: cargo clippy --workspace --all-targets -- -D warnings\n\
                    \x20     - run: cargo test -p core --verbose\n";
    std::fs::write(root.join(".github/workflows/ci.yml"), workflow).unwrap();
    let paths = ["Cargo.toml", ".github/workflows/ci.yml"].map(String::from);
    let found = detect(root, &paths, 2, Detector::builtin());
    let lint = found.commands.iter().find(|c| c.purpose == "lint").unwrap();
    assert_eq!(lint.command, "cargo clippy --workspace --all-targets -- -D warnings");
    assert_eq!(lint.source, ".github/workflows/ci.yml");
    // CI tests one package: the workspace's test command stays as it was.
    let test = found.commands.iter().find(|c| c.purpose == "test").unwrap();
    assert_eq!((test.command.as_str(), test.source.as_str()), ("cargo test --workspace", "Cargo.toml"));
}

#[test]
fn ci_s_matrix_and_format_check_say_how_to_test_and_format() {
    // indicatif's: tests behind a feature CI turns on, rustfmt with no rustfmt.toml.
    let workflow = "jobs:\n  test:\n    strategy:\n      matrix:\n        features: [--all-features]\n    steps:\n      \
                    - run: cargo test ${{ matrix.features }}\n  lint:\n    steps:\n      - run: cargo fmt --all -- --check\n";
    let files = [("Cargo.toml", "[package]\nname = \"bar\"\n"), (".github/workflows/rust.yml", workflow)];
    let (_dir, root) = project(&files);
    let commands = commands_of(&root, &files.map(|(path, _)| path));
    assert!(commands.contains(&("test".into(), "cargo test --all-features".into())), "{commands:?}");
    assert!(commands.contains(&("format".into(), "cargo fmt --all".into())), "{commands:?}");
    // A formatter the project configures is its own command, as written.
    let files = [
        ("Cargo.toml", "[package]\nname = \"bar\"\n"),
        ("rustfmt.toml", ""),
        (".github/workflows/rust.yml", workflow),
    ];
    let (_dir, root) = project(&files);
    let commands = commands_of(&root, &files.map(|(path, _)| path));
    let formats: Vec<&(String, String)> =
        commands.iter().filter(|(purpose, _)| purpose == "format").collect();
    assert_eq!(formats, [&("format".to_string(), "cargo fmt".to_string())]);
}

#[test]
fn a_virtualenv_the_makefile_s_recipes_activate_is_set_up_first() {
    // arrow's: `make test` activates `venv/`, which only the default goal makes.
    let arrow = "auto: build311\n\nbuild311: PYTHON_VER = python3.11\n\nbuild310 build311: clean\n\
                 \t$(PYTHON_VER) -m venv venv\n\t. venv/bin/activate; \\\n\tpip install -e .\n\n\
                 test:\n\t. venv/bin/activate; \\\n\tpytest\n\nclean:\n\trm -rf venv\n";
    let (_dir, root) = project(&[("Makefile", arrow)]);
    let commands = commands_of(&root, &["Makefile"]);
    assert_eq!(commands[..2], pairs(&[("setup", "make"), ("test", "make test")]), "{commands:?}");
    // Not made by the default goal: the target that makes it.
    let other = "all: test\n\nvenv:\n\tvirtualenv .venv\n\ntest:\n\tsource .venv/bin/activate && pytest\n";
    let (_dir, root) = project(&[("Makefile", other)]);
    assert_eq!(commands_of(&root, &["Makefile"])[0], ("setup".to_string(), "make venv".to_string()));
    // Kept in the repository, or never activated: nothing to set up.
    let (_dir, root) = project(&[("Makefile", other)]);
    assert!(commands_of(&root, &["Makefile", ".venv/bin/activate"]).iter().all(|(p, _)| p != "setup"));
    let unused = "venv:\n\tpython -m venv env\n\ntest:\n\tpytest\n";
    let (_dir, root) = project(&[("Makefile", unused)]);
    assert!(commands_of(&root, &["Makefile"]).iter().all(|(p, _)| p != "setup"));
}

#[test]
fn poethepoet_s_tasks_lint_check_and_format_in_place_of_a_tool_s_default() {
    // tenacity's: CI runs `uv run poe lint`, whose sequence also checks the formatting.
    let pyproject = "[project]\nname = \"tenacity\"\n\n[tool.poe.tasks]\ntest = \"pytest\"\ndocs = \"sphinx-build doc b\"\n\
                     mypy = \"mypy\"\n\n[tool.poe.tasks.lint]\nsequence = [{ cmd = \"ruff check .\" }, { cmd = \"ruff format --check .\" }]\n\n\
                     [tool.poe.tasks.fmt]\nsequence = [{ cmd = \"ruff format .\" }]\n\n[tool.pytest.ini_options]\n\n[tool.ruff]\n\n[tool.mypy]\n";
    let files = [("pyproject.toml", pyproject), ("uv.lock", "")];
    let (_dir, root) = project(&files);
    let commands = commands_of(&root, &files.map(|(path, _)| path));
    let expected = pairs(&[
        ("test", "uv run pytest"),
        ("test", "uv run poe test"),
        ("check", "uv run poe mypy"),
        ("lint", "uv run poe lint"),
        ("format", "uv run poe fmt"),
    ]);
    let found: Vec<(String, String)> = commands.into_iter().filter(|(p, _)| p != "test one").collect();
    assert_eq!(found, expected);
}

#[test]
fn stack_commands_key_files_and_tree() {
    let dir = tempfile::tempdir().unwrap();
    let root = &std::fs::canonicalize(dir.path()).unwrap();
    std::fs::write(root.join("Cargo.toml"), "[workspace]\n").unwrap();
    std::fs::write(
        root.join("pyproject.toml"),
        "[project]\nname='x'\n[tool.pytest.ini_options]\n[tool.ruff]\n",
    )
    .unwrap();
    std::fs::write(
        root.join("Makefile"),
        "CC=cc\ntest: build\n\tcargo test\nrelease:\n\techo\n.PHONY: test\n",
    )
    .unwrap();
    // AGENTS.md holds the project's rules around ctx's section; CLAUDE.md only ctx's.
    let section = "<!-- BEGIN CTX MANAGED SECTION v1 -->\nctx\n<!-- END CTX MANAGED SECTION -->\n";
    std::fs::write(root.join("AGENTS.md"), format!("Run make test.\n\n{section}")).unwrap();
    std::fs::write(root.join("CLAUDE.md"), section).unwrap();
    std::fs::create_dir_all(root.join("web")).unwrap();
    std::fs::write(
        root.join("web/package.json"),
        r#"{"devDependencies": {"typescript": "5", "vite": "5"}, "scripts": {"test": "vitest"}}"#,
    )
    .unwrap();
    let paths: Vec<String> = [
        ".github/CONTRIBUTING.md",
        "AGENTS.md",
        "CLAUDE.md",
        "Cargo.toml",
        "Makefile",
        "README.md",
        "pyproject.toml",
        "src/main.rs",
        "src/db/pool.rs",
        "web/package.json",
        "web/src/index.ts",
        // A package two levels down names a language; a fixture's does not.
        "bindings/go/go.mod",
        "tests/fixtures/app/Gemfile",
    ]
    .map(String::from)
    .to_vec();
    let s = detect(root, &paths, 2, Detector::builtin());
    assert_eq!(
        s.stack,
        [
            "Rust (Cargo.toml)",
            "Python (pyproject.toml)",
            "Node.js (web/package.json)",
            "TypeScript (web/package.json)",
            "Go (bindings/go/go.mod)",
            "pytest (pyproject.toml)",
            "Ruff (pyproject.toml)",
            "Vite (web/package.json)",
            "Make (Makefile)",
        ]
    );
    let commands: Vec<String> = s.commands.iter().map(|c| format!("{}: {}", c.purpose, c.command)).collect();
    assert_eq!(
        commands,
        [
            "build: cargo build --workspace",
            "test: cargo test --workspace",
            "test: make test",
            "test: pytest",
            "test one: cargo test --workspace NAME",
            "lint: cargo clippy --workspace",
            "lint: ruff check",
            "format: ruff format",
        ]
    );
    assert_eq!(
        s.key_files,
        [
            "README.md",
            "AGENTS.md",
            // What the project asks of a change.
            ".github/CONTRIBUTING.md",
            "Cargo.toml",
            "Makefile",
            "pyproject.toml",
            "src/main.rs",
            "web/src/index.ts"
        ]
    );
    let tree: Vec<(String, usize)> = s.tree.iter().map(|t| (t.path.clone(), t.files)).collect();
    let expected = [
        (".github", 1),
        ("bindings", 1),
        ("bindings/go", 1),
        ("src", 2),
        ("src/db", 1),
        ("tests", 1),
        ("tests/fixtures", 1),
        ("tests/fixtures/app", 1),
        ("web", 2),
        ("web/src", 1),
    ];
    assert_eq!(tree, expected.map(|(p, n)| (p.to_string(), n)));
}

#[test]
fn a_project_s_own_scripts_lead_and_replace_a_tool_s_bare_default() {
    let dir = tempfile::tempdir().unwrap();
    let root = &std::fs::canonicalize(dir.path()).unwrap();
    std::fs::write(
        root.join("pyproject.toml"),
        "[project]\nname='x'\n[tool.pytest.ini_options]\n[tool.mypy]\n",
    )
    .unwrap();
    std::fs::write(
        root.join("package.json"),
        r#"{"scripts": {"test": "run-s test:*", "test:karma:server": "karma start", "test:node": "mocha", "build": "rollup -c", "test-ci": "run-s test:*", "bench": "node bench all", "bench-child": "node bench child", "bench-object": "node bench object"}}"#,
    )
    .unwrap();
    let paths: Vec<String> = [
        "pyproject.toml",
        "package.json",
        "scripts/test-cov-html.sh",
        "scripts/test.sh",
        "scripts/lint.sh",
        "scripts/build-docs.sh",
        "scripts/deploy/x.sh",
        "scripts/docs.py",
        "script/format",
        "script/bootstrap",
        "shop-core/src/lib.rs",
        "shop/src/lib.rs",
        "docs_src/app01/main.py",
        "src/shop/main.py",
    ]
    .map(String::from)
    .to_vec();
    let s = detect(root, &paths, 2, Detector::builtin());
    let commands: Vec<String> = s.commands.iter().map(|c| format!("{}: {}", c.purpose, c.command)).collect();
    // The scripts first; `pytest` and `mypy .` inferred from the manifest give way
    // to them; `test` alone of its `test:*` and `test-ci` variants, `bench` of its
    // `bench-*`, `test.sh` of its `test-*.sh`.
    assert_eq!(
        commands,
        [
            "build: bash scripts/build-docs.sh",
            "build: npm run build",
            "test: bash scripts/test.sh",
            "test: npm run test",
            "lint: bash scripts/lint.sh",
            "format: ./script/format",
            "bench: npm run bench"
        ]
    );
    // Entry points, but no example's.
    assert!(s.key_files.contains(&"src/shop/main.py".to_string()), "{:?}", s.key_files);
    assert!(!s.key_files.iter().any(|k| k.starts_with("docs_src")), "{:?}", s.key_files);
    let entries: Vec<&String> = s.key_files.iter().filter(|k| k.ends_with("lib.rs")).collect();
    assert_eq!(entries, ["shop/src/lib.rs", "shop-core/src/lib.rs"], "a crate before its namesakes");
}

#[test]
fn node_scripts_run_with_the_project_s_package_manager_and_say_what_they_do() {
    let commands = |manifest: &str, lockfile: Option<&str>| {
        let dir = tempfile::tempdir().unwrap();
        let root = &std::fs::canonicalize(dir.path()).unwrap();
        std::fs::write(root.join("package.json"), manifest).unwrap();
        let mut paths = vec!["package.json".to_string()];
        if let Some(lockfile) = lockfile {
            std::fs::write(root.join(lockfile), "").unwrap();
            paths.push(lockfile.to_string());
        }
        let s = detect(root, &paths, 2, Detector::builtin());
        s.commands.iter().map(|c| format!("{}: {}", c.purpose, c.command)).collect::<Vec<_>>()
    };
    let scripts = r#""scripts": {"test": "vitest", "format": "prettier --check .", "format:fix": "prettier --write ."}"#;
    let declared = format!(r#"{{"packageManager": "bun@1.2.20", {scripts}}}"#);
    assert_eq!(
        commands(&declared, Some("yarn.lock")),
        ["test: bun run test", "check: bun run format", "format: bun run format:fix"]
    );
    let plain = format!("{{{scripts}}}");
    assert_eq!(commands(&plain, Some("bun.lock"))[0], "test: bun run test");
    assert_eq!(commands(&plain, Some("pnpm-lock.yaml"))[0], "test: pnpm test");
    assert_eq!(commands(&plain, Some("yarn.lock"))[0], "test: yarn test");
    assert_eq!(commands(&plain, None)[0], "test: npm run test");
    // Build and test first (the script named `test` first), benchmarks last; a script that runs the tests tests,
    // and one told to watch them, or to serve Vitest's UI, says so (it never exits); a framework the
    // package only tests with is not its stack.
    let scripts = r#""scripts": {"bench:node": "node bench.mjs", "build": "unbuild", "dev": "vitest",
        "start": "jest --watch", "test": "vitest --run", "serve": "vitest --coverage --ui"},
        "devDependencies": {"react": "19", "vitest": "3"}"#;
    assert_eq!(
        commands(&format!("{{{scripts}}}"), None),
        [
            "build: npm run build",
            "test: npm run test",
            "test: npm run dev",
            "watch: npm run serve",
            "watch: npm run start",
            "bench: npm run bench:node"
        ]
    );
    // jotai's: `test` runs its variants, each of a purpose of its own; `build` runs its
    // variants too, all builds; a fixer's variant that lints is none of the checks.
    let scripts = r#""scripts": {"build": "pnpm run \"/^build:.*/\"", "build:base": "rollup -c",
        "fix": "pnpm run fix:lint && pnpm run fix:format", "fix:format": "prettier . --write",
        "fix:lint": "eslint . --fix", "test": "pnpm run \"/^test:.*/\"", "test:format": "prettier . --list-different",
        "test:types": "tsc --noEmit", "test:lint": "eslint .", "test:spec": "vitest run"}"#;
    let found = commands(&format!("{{{scripts}}}"), Some("pnpm-lock.yaml"));
    let found: Vec<&str> = found.iter().map(String::as_str).filter(|c| !c.starts_with("test one")).collect();
    assert_eq!(
        found,
        [
            "build: pnpm build",
            "test: pnpm test:spec",
            "check: pnpm test",
            "check: pnpm test:format",
            "check: pnpm test:types",
            "lint: pnpm test:lint",
            "format: pnpm fix:format"
        ]
    );
    // A `test` that does not run its variants is the tests, and they stay its variants.
    let scripts = r#""scripts": {"test": "vitest run", "test:lint": "eslint ."}"#;
    assert_eq!(commands(&format!("{{{scripts}}}"), None), ["test: npm run test"]);
}

#[test]
fn a_folder_s_subfolders_follow_it_whatever_its_siblings_are_named() {
    let paths: Vec<String> =
        ["axum-core/src/lib.rs", "axum/src/lib.rs", "axum/tests/t.rs", "axum.d/x", "axum-core/README.md"]
            .map(String::from)
            .to_vec();
    let got: Vec<(String, usize, usize)> =
        tree(&paths, 2).into_iter().map(|t| (t.path, t.depth, t.files)).collect();
    assert_eq!(
        got,
        [
            ("axum".into(), 1, 2),
            ("axum/src".into(), 2, 1),
            ("axum/tests".into(), 2, 1),
            ("axum-core".into(), 1, 2),
            ("axum-core/src".into(), 2, 1),
            ("axum.d".into(), 1, 1),
        ]
    );
}

#[test]
fn python_tools_as_the_project_configures_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = &std::fs::canonicalize(dir.path()).unwrap();
    let pyproject = "[project]\nname='x'\n[tool.pytest.ini_options]\n[tool.mypy]\nfiles = ['src']\n\
                     [tool.tox]\nenv_list = ['py3']\n";
    std::fs::write(root.join("pyproject.toml"), pyproject).unwrap();
    let commands = |paths: &[&str]| -> Vec<String> {
        let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
        let s = detect(root, &paths, 2, Detector::builtin());
        s.commands.iter().map(|c| format!("{}: {}", c.purpose, c.command)).collect()
    };
    // mypy checks the files its configuration names, not `.`; tox configured in
    // pyproject.toml runs the tests too.
    assert_eq!(
        commands(&["pyproject.toml"]),
        ["test: pytest", "test: tox", "test one: pytest -k NAME", "check: mypy"]
    );
    // In a uv project, through uv; a Rust project formats only when it says how.
    assert_eq!(
        commands(&["pyproject.toml", "uv.lock"]),
        ["test: uv run pytest", "test: uv run tox", "test one: uv run pytest -k NAME", "check: uv run mypy"]
    );
    // A sub-project's tools run in its folder: not as the root's commands, and the
    // root's manifest names the stack whatever sorts first.
    std::fs::create_dir_all(root.join("a-core")).unwrap();
    std::fs::write(root.join("a-core/pyproject.toml"), "[tool.pytest.ini_options]\n[tool.ruff]\n").unwrap();
    let paths = ["a-core/pyproject.toml", "pyproject.toml", "uv.lock"].map(String::from);
    let s = detect(root, &paths, 2, Detector::builtin());
    assert_eq!(s.stack[..2], ["Python (pyproject.toml)", "uv (uv.lock)"]);
    assert!(s.stack.contains(&"Ruff (a-core/pyproject.toml)".to_string()), "{:?}", s.stack);
    assert_eq!(s.commands.len(), 4, "{:?}", s.commands);
    std::fs::write(root.join("Cargo.toml"), "[package]\nname = 'x'\n").unwrap();
    let rust = commands(&["Cargo.toml", "rustfmt.toml"]);
    assert_eq!(
        rust,
        [
            "build: cargo build",
            "test: cargo test",
            "test one: cargo test NAME",
            "lint: cargo clippy",
            "format: cargo fmt"
        ]
    );
    assert!(!commands(&["Cargo.toml"]).contains(&"format: cargo fmt".to_string()));
}

#[test]
fn a_folder_that_only_holds_another_costs_no_depth() {
    let paths: Vec<String> = [
        "README.md",
        "src/werkzeug/__init__.py",
        "src/werkzeug/debug/tbtools.py",
        "src/werkzeug/debug/shared/style.css",
        "docs/index.rst",
        "docs/api/routing.rst",
        "docs/api/deep/x.rst",
    ]
    .map(String::from)
    .to_vec();
    let entries: Vec<(String, usize)> = tree(&paths, 2).into_iter().map(|t| (t.path, t.files)).collect();
    assert_eq!(
        entries,
        [
            ("docs".into(), 3),
            ("docs/api".into(), 2),
            ("src".into(), 3),
            ("src/werkzeug".into(), 3),
            ("src/werkzeug/debug".into(), 2),
        ]
    );
}

#[test]
fn one_test_is_the_test_command_narrowed_as_its_runner_narrows() {
    let one = |files: &[(&str, &str)], paths: &[&str]| -> Option<String> {
        let (_dir, root) = project(files);
        let all: Vec<&str> = files.iter().map(|(p, _)| *p).chain(paths.iter().copied()).collect();
        commands_of(&root, &all).into_iter().find(|(purpose, _)| purpose == "test one").map(|(_, c)| c)
    };
    let tests = ["tests/test_core.py", "tests/unit/test_deep.py", "src/app.py"];
    // pytest, as the project runs it, on one of its own test files.
    assert_eq!(
        one(&[("pyproject.toml", "[tool.pytest.ini_options]\n"), ("uv.lock", "")], &tests).as_deref(),
        Some("uv run pytest tests/test_core.py::NAME")
    );
    assert_eq!(one(&[("go.mod", "module x\n")], &[]).as_deref(), Some("go test ./... -run NAME"));
    // Cargo's filter goes before what the test binary takes (crossterm's CI runs them one at a time).
    let serial =
        "on: push\njobs:\n  test:\n    steps:\n      - run: cargo test --locked -- --test-threads 1\n";
    assert_eq!(
        one(&[("Cargo.toml", "[package]\nname = \"x\"\n"), (".github/workflows/ci.yml", serial)], &[])
            .as_deref(),
        Some("cargo test --locked NAME -- --test-threads 1")
    );
    // A package.json test script running Vitest or Jest: a file and `-t`, through npm's `--`.
    let vitest = r#"{"scripts": {"test": "vitest run", "test:watch": "vitest"}}"#;
    let js = ["src/a.ts", "examples/app/a.test.ts", "test/a.test.ts", "src/deep/b.spec.ts"];
    assert_eq!(
        one(&[("package.json", vitest)], &js).as_deref(),
        Some("npm run test -- test/a.test.ts -t NAME")
    );
    let jest = r#"{"scripts": {"test": "jest"}, "packageManager": "pnpm@9"}"#;
    assert_eq!(one(&[("package.json", jest)], &js).as_deref(), Some("pnpm test test/a.test.ts -t NAME"));
    // Runners whose narrowing is not known, scripts that do more, arguments already passed on: none.
    assert_eq!(one(&[("package.json", r#"{"scripts": {"test": "mocha"}}"#)], &js), None);
    assert_eq!(one(&[("package.json", r#"{"scripts": {"test": "tsc && vitest run"}}"#)], &js), None);
    // ofetch's: a lint first and the suite's coverage are no part of one test; its
    // `"dev": "vitest"` tests too, after the script named `test`.
    let checked = r#"{"scripts": {"dev": "vitest", "lint": "eslint . && prettier -c src",
        "test": "pnpm lint && vitest run --coverage"}, "packageManager": "pnpm@10"}"#;
    assert_eq!(
        one(&[("package.json", checked)], &js).as_deref(),
        Some("pnpm exec vitest run test/a.test.ts -t NAME")
    );
    let (_dir, root) = project(&[("package.json", checked)]);
    let runs: Vec<String> = commands_of(&root, &["package.json"])
        .into_iter()
        .filter(|(p, _)| p == "test")
        .map(|(_, c)| c)
        .collect();
    assert_eq!(runs, ["pnpm test", "pnpm dev"]);
    assert_eq!(one(&[("Makefile", "test:\n\tpytest\n")], &tests), None);
    // arrow's: `make test` cannot be narrowed, its `pytest` can; pytest-cov in pytest's
    // options (`--cov-fail-under=99`) fails a run of one test without `--no-cov`.
    let tox =
        "[tox]\nenvlist = py311\n\n[pytest]\naddopts = -v --cov-branch --cov=arrow --cov-fail-under=99\n";
    let arrow = [("Makefile", "test:\n\tpytest\n"), ("pyproject.toml", "[tool.pytest]\n"), ("tox.ini", tox)];
    assert_eq!(one(&arrow, &tests).as_deref(), Some("pytest tests/test_core.py::NAME --no-cov"));
    let continued = "[tool.pytest.ini_options]\naddopts = [\n    \"-ra\",\n    \"--cov=shop\",\n]\n";
    assert_eq!(
        one(&[("pyproject.toml", continued)], &tests).as_deref(),
        Some("pytest tests/test_core.py::NAME --no-cov")
    );
    let elsewhere =
        "[tool.pytest.ini_options]\naddopts = \"-ra\"\n\n[tool.coverage.run]\nsource = [\"--cov\"]\n";
    assert_eq!(
        one(&[("pyproject.toml", elsewhere)], &tests).as_deref(),
        Some("pytest tests/test_core.py::NAME")
    );
}

#[test]
fn a_crate_the_workspace_excludes_has_no_key_file() {
    // rayon's `ci/` crates only prove that two copies of its core cannot link.
    let (_dir, root) = project(&[(
        "Cargo.toml",
        "[package]\nname = \"rayon\"\n[workspace]\nmembers = [\"rayon-core\"]\nexclude = [\"ci\"]\n",
    )]);
    let paths = [
        "Cargo.toml",
        "src/lib.rs",
        "rayon-core/src/lib.rs",
        "ci/alt-core/src/lib.rs",
        "ci/highlander/src/main.rs",
    ];
    let paths: Vec<String> = paths.map(String::from).to_vec();
    let key_files = detect(&root, &paths, 2, Detector::builtin()).key_files;
    assert!(key_files.contains(&"rayon-core/src/lib.rs".to_string()), "{key_files:?}");
    assert!(!key_files.iter().any(|k| k.starts_with("ci/")), "{key_files:?}");
}

#[test]
fn of_more_entry_points_than_fit_the_largest_packages_stay() {
    // tracing's eleven crates: the cut by name dropped its largest, `tracing-subscriber`.
    let (_dir, root) = project(&[("Cargo.toml", "[workspace]\nmembers = [\"*\"]\n")]);
    let mut paths = vec!["Cargo.toml".to_string()];
    for name in ["a", "b", "c", "d", "e", "f", "g", "h", "i"] {
        paths.push(format!("tracing-{name}/src/lib.rs"));
    }
    paths.extend((0..30).map(|i| format!("tracing-subscriber/src/part{i}.rs")));
    paths.push("tracing-subscriber/src/lib.rs".into());
    let s = detect(&root, &paths, 2, Detector::builtin());
    let entries: Vec<&String> = s.key_files.iter().filter(|k| k.ends_with("lib.rs")).collect();
    assert_eq!(entries.first().map(|e| e.as_str()), Some("tracing-subscriber/src/lib.rs"), "{entries:?}");
}

#[test]
fn a_noxfile_s_sessions_lint_and_check_in_place_of_a_tool_s_default() {
    // urllib3: mypy sits in its own dependency group, which `nox -s mypy` installs and
    // `mypy .` would not find; `nox -s test` runs every Python, `pytest` one.
    let (_dir, root) = project(&[
        ("pyproject.toml", "[tool.pytest.ini_options]\nx = 1\n[tool.mypy]\nstrict = true\n"),
        (
            "noxfile.py",
            "import nox\n\n@nox.session(python=[\"3.12\"])\ndef test(session):\n    pass\n\n\
             @nox.session\ndef test_integration(session):\n    pass\n\n@nox.session\ndef lint(session):\n    pass\n\n\
             @nox.session\ndef mypy(session):\n    pass\n",
        ),
    ]);
    assert_eq!(
        commands_of(&root, &["pyproject.toml", "noxfile.py"]),
        pairs(&[
            ("test", "pytest"),
            ("test", "nox -s test"),
            ("test one", "pytest -k NAME"),
            ("check", "nox -s mypy"),
            ("lint", "nox -s lint")
        ])
    );
}

#[test]
fn a_workspace_s_xtask_as_ci_runs_it_stands_for_cargo_s_default() {
    // ratatui: rustfmt options only nightly knows, clippy with the project's own flags.
    let workflow = "jobs:\n  fmt:\n    steps:\n      - run: cargo xtask format --check\n  \
                    clippy:\n    steps:\n      - run: cargo xtask clippy\n  \
                    test:\n    steps:\n      - run: cargo xtask test-libs\n";
    let (_dir, root) = project(&[
        ("Cargo.toml", "[workspace]\nmembers = [\"ratatui\"]\n"),
        ("rustfmt.toml", "wrap_comments = true\n"),
        (".github/workflows/ci.yml", workflow),
    ]);
    let commands = commands_of(&root, &["Cargo.toml", "rustfmt.toml", ".github/workflows/ci.yml"]);
    let of = |purpose: &str| -> Vec<&str> {
        commands.iter().filter(|(p, _)| p == purpose).map(|(_, c)| c.as_str()).collect()
    };
    assert_eq!(of("lint"), ["cargo xtask clippy"], "{commands:?}");
    assert_eq!(of("format"), ["cargo xtask format"], "{commands:?}");
    // Tests stay cargo's: `test-libs` is one way of them.
    assert_eq!(of("test"), ["cargo test --workspace"], "{commands:?}");
}

#[test]
fn tox_s_environments_check_in_place_of_a_tool_s_default() {
    // structlog: `mypy .` fails on its docs and demo script; `tox -e typing-mypy` runs
    // `mypy src`. Its per-version and docs environments are no one command.
    let (_dir, root) = project(&[
        ("pyproject.toml", "[tool.pytest.ini_options]\nx = 1\n[tool.mypy]\nstrict = true\n[tool.ruff]\n"),
        (
            "tox.ini",
            "[tox]\nenv_list =\n    pre-commit,\n    3.1{0-5}-{tests,mypy}\n    typing-{mypy,pyright},\n    \
             docs-{build,doctests}\n\n[testenv:typing-{pyright,mypy}]\ncommands =\n    mypy: mypy src\n",
        ),
    ]);
    assert_eq!(
        commands_of(&root, &["pyproject.toml", "tox.ini"]),
        pairs(&[
            ("test", "pytest"),
            ("test", "tox"),
            ("test one", "pytest -k NAME"),
            ("check", "tox -e typing-mypy"),
            ("lint", "ruff check"),
            ("format", "ruff format")
        ])
    );
}

#[test]
fn a_tox_environment_of_the_tests_alone_runs_them_and_black_formats_where_configured() {
    // loguru's: `tox` runs lint, docs and build too; pyright is configured to check nothing;
    // Ruff lints, Black formats.
    let (_dir, root) = project(&[
        (
            "pyproject.toml",
            "[tool.black]\nline-length = 100\n[tool.ruff]\nline-length = 100\n\
             [tool.pyright]\ntypeCheckingMode = \"off\"\n[tool.pytest.ini_options]\n",
        ),
        ("tox.ini", "[tox]\nenvlist = lint, tests, docs, build\n\n[testenv:tests]\ncommands =\n    pytest\n"),
    ]);
    assert_eq!(
        commands_of(&root, &["pyproject.toml", "tox.ini"]),
        pairs(&[
            ("test", "pytest"),
            ("test", "tox -e tests"),
            ("test one", "pytest -k NAME"),
            ("lint", "tox -e lint"),
            ("format", "black .")
        ])
    );
    let stack = detect(&root, &["pyproject.toml".into(), "tox.ini".into()], 0, Detector::builtin()).stack;
    assert!(
        stack.iter().any(|s| s.starts_with("Ruff")) && stack.iter().any(|s| s.starts_with("Black")),
        "{stack:?}"
    );
}

#[test]
fn checkers_uv_does_not_install_but_pre_commit_runs_are_pre_commit_s() {
    // pluggy: ruff and mypy configured in pyproject.toml, run by pre-commit (mypy on `src/`
    // and `testing/` only), installed by neither of uv's groups; pre-commit is.
    let (_dir, root) = project(&[
        (
            "pyproject.toml",
            "[tool.ruff]\nline-length = 88\n[tool.mypy]\nstrict = true\n[tool.pytest.ini_options]\n",
        ),
        ("uv.lock", "version = 1\n\n[[package]]\nname = \"pre-commit\"\n\n[[package]]\nname = \"pytest\"\n"),
        (
            ".pre-commit-config.yaml",
            "repos:\n- repo: x\n  hooks:\n  - id: ruff\n  - id: ruff-format\n- repo: y\n  hooks:\n  - id: mypy\n    files: ^(src/|testing/)\n",
        ),
    ]);
    let commands = commands_of(&root, &["pyproject.toml", "uv.lock", ".pre-commit-config.yaml"]);
    assert_eq!(
        commands,
        pairs(&[
            ("test", "uv run pytest"),
            ("test one", "uv run pytest -k NAME"),
            ("lint", "uv run pre-commit run --all-files"),
        ])
    );
}
