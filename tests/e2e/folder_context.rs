//! Folder context that shows the code (issue 17, item 2): each file's most
//! important definitions, the root's stack and commands, tiers that differ
//! in substance, and `ctx folder todo` by importance.

use serde_json::Value;

use crate::util::Repo;

/// A package whose modules have no docstrings, in three languages, and tests
/// that use it. (Written file by file: fixture strings lose their indentation.)
const SHOP: &[(&str, &str)] = &[
    (
        "pyproject.toml",
        r#"[project]
name = "shop"
[tool.pytest.ini_options]
testpaths = ["tests"]
[tool.ruff]
line-length = 100
"#,
    ),
    (
        "package.json",
        r#"{"name": "shop-web", "devDependencies": {"typescript": "5"}, "scripts": {"test": "vitest", "lint": "eslint ."}}
"#,
    ),
    // A facade: what the package passes on of its modules.
    (
        "src/shop/__init__.py",
        "from shop.app import Shop\nfrom shop.globals import current_session, request_context\n",
    ),
    (
        "src/shop/app.py",
        r#"from shop.globals import request_context


class Shop(Base):
    def __init__(self, name: str) -> None:
        self.name = name

    def add_route(self, rule: str,
                  endpoint: str | None = None) -> None:
        request_context().routes.append(rule)


def _private_helper():
    return 1


def test_looks_like_a_test():
    assert True
"#,
    ),
    (
        "src/shop/globals.py",
        r#"def request_context():
    return _stack[-1]


def current_session():
    return request_context().session
"#,
    ),
    (
        "src/shop/pool.rs",
        r#"pub struct ConnectionPool {
    size: usize,
}

impl ConnectionPool {
    pub fn checkout(&self) -> Connection {
        Connection
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn checkout_works() {}
}
"#,
    ),
    (
        "src/shop/client.ts",
        r#"export interface RequestOptions {
  timeout?: number;
}

export function createClient(options: RequestOptions): Client {
  return new Client(options);
}
"#,
    ),
    (
        "tests/test_app.py",
        r#"from shop.app import Shop
from shop.globals import current_session


def test_shop():
    Shop("x").add_route("/")
    current_session()
"#,
    ),
];

/// A repository holding [`SHOP`].
fn shop() -> Repo {
    let repo = Repo::new();
    for (path, text) in SHOP {
        repo.write(path, text);
    }
    repo
}

/// The `--json` context of `folder` at `tier`.
fn context(repo: &Repo, folder: &str, tier: &str) -> Value {
    repo.json(&["context", folder, "--tier", tier])
}

/// The names of the definitions each file of a context lists, by file name.
fn definitions(doc: &Value) -> Vec<(String, Vec<String>)> {
    doc["doc"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let names = f["definitions"].as_array().unwrap().iter();
            (
                f["name"].as_str().unwrap().to_string(),
                names.map(|d| d["name"].as_str().unwrap().to_string()).collect(),
            )
        })
        .collect()
}

#[test]
fn undocumented_modules_list_their_definitions_in_the_standard_context() {
    let repo = shop();
    // Scanned, never indexed: today's listing, names alone.
    repo.ok(&["init", "--no-agents", "--no-build"]);
    let before = repo.ok(&["context", "src/shop"]);
    assert!(
        before.contains("- `__init__.py`, `app.py`, `client.ts`, `globals.py`, `pool.rs`\n")
            && !before.contains("class Shop"),
        "{before}"
    );

    repo.ok(&["build"]);
    let text = std::fs::read_to_string(repo.path(".ctx/context/src--shop.standard.md")).unwrap();
    for shown in [
        "- `app.py`\n  - `class Shop(Base)`\n",
        "  - `def add_route(self, rule: str, endpoint: str | None = None) -> None` in `Shop`\n",
        "- `globals.py`\n  - `def request_context()`\n  - `def current_session()`\n",
        // A data type shows its fields.
        "- `pool.rs`\n  - `pub struct ConnectionPool { … }`\n  - `pub fn checkout(&self) -> Connection` in `ConnectionPool`\n",
        // (`export` or not, as the map's signatures have it)
        "function createClient(options: RequestOptions): Client`\n",
        "interface RequestOptions { timeout?: number }`\n",
        // What a package's `__init__.py` passes on, as it is written, the most used first.
        "- `__init__.py`\n  - `from shop.globals import request_context, current_session`\n  - `from shop.app import Shop`\n",
    ] {
        assert!(text.contains(shown), "missing {shown:?} in:\n{text}");
    }
    // Test functions and test modules are not what the code holds; private helpers come last.
    for hidden in ["test_looks_like_a_test", "checkout_works", "mod tests"] {
        assert!(!text.contains(hidden), "{hidden} shown in:\n{text}");
    }
    let at = |name: &str| text.find(name).unwrap_or_else(|| panic!("{name} not in:\n{text}"));
    assert!(at("_private_helper") > at("def add_route"), "{text}");
    // The tests' own folder lists its tests.
    assert!(repo.ok(&["context", "tests"]).contains("`def test_shop()`"));

    // A file changed since it was indexed shows no outline it no longer has, until the next build.
    repo.write("src/shop/globals.py", "def renamed_context():\n    return 1\n");
    repo.ok(&["scan"]);
    let changed = definitions(&context(&repo, "src/shop", "standard"));
    assert_eq!(changed.iter().find(|(f, _)| f == "globals.py").unwrap().1, Vec::<String>::new());
    repo.ok(&["build"]);
    let rebuilt = definitions(&context(&repo, "src/shop", "standard"));
    assert_eq!(rebuilt.iter().find(|(f, _)| f == "globals.py").unwrap().1, ["renamed_context"]);
}

#[test]
fn a_generated_file_says_so_and_lists_no_definitions() {
    let repo = Repo::new();
    repo.write(
        "lib/config_validator.js",
        "// This file is autogenerated by build/build-validation.js, do not edit\n\"use strict\";\n\
         function validate10 (data) {\n  return schema11.type === data\n}\n\
         const schema11 = {\"type\": \"object\"}\nmodule.exports = validate10\n",
    );
    repo.write("lib/route.js", "const validate = require('./config_validator')\nfunction route (opts) {\n  return validate(opts)\n}\nmodule.exports = { route }\n");
    // regex's Unicode tables: a plain `//` notice under a licence, the command after its first sentence.
    repo.write(
        "tables/age.rs",
        "// Copyright The Authors. Licensed under MIT.\n\n\
         // DO NOT EDIT THIS FILE. IT WAS AUTOMATICALLY GENERATED BY:\n//\n//   ucd-generate age ucd-16.0.0 --chars\n\
         //\n// Unicode version: 16.0.0.\n\npub const BY_NAME: &[(&str, &[(char, char)])] = &[];\n",
    );
    repo.write("tables/lib.rs", "pub fn ages() -> usize { crate::age::BY_NAME.len() }\n");
    repo.ok(&["init", "--no-agents"]);
    let tables = std::fs::read_to_string(repo.path(".ctx/context/tables.standard.md")).unwrap();
    assert!(
        tables.contains(
            "- `age.rs`: DO NOT EDIT THIS FILE. IT WAS AUTOMATICALLY GENERATED BY: ucd-generate age ucd-16.0.0 --chars\n"
        ) && !tables.contains("BY_NAME"),
        "{tables}"
    );
    let lib = std::fs::read_to_string(repo.path(".ctx/context/lib.standard.md")).unwrap();
    assert!(lib.contains("- `route.js`\n  - `function route (opts)`"), "{lib}");
    assert!(
        lib.contains(
            "- `config_validator.js`: This file is autogenerated by build/build-validation.js, do not edit\n"
        ) && !lib.contains("validate10")
            && !lib.contains("schema11"),
        "{lib}"
    );
}

#[test]
fn a_test_beside_the_code_comes_after_it_and_lists_its_definitions_only_from_the_full_tier() {
    // Hono's layout: `request.test.ts` beside `request.ts` in `src/`.
    let repo = Repo::new();
    repo.write("src/request.ts", "export class HonoRequest {\n  json() { return 1 }\n}\n");
    repo.write(
        "src/a-request.test.ts",
        "import { HonoRequest } from './request'\nconst text = '{\"foo\":\"bar\"}'\nconst json = { foo: 'bar' }\n\
         describe('json', () => { new HonoRequest().json() })\n",
    );
    repo.write("tests/request.test.ts", "const fixture = { foo: 'bar' }\n");
    // Named as tests, used as code: jinja's `tests.py`, what templates' `is` tests run.
    repo.write("src/tests.py", "def test_odd(value):\n    return value % 2 == 1\n");
    repo.write("src/defaults.py", "from .tests import test_odd\nDEFAULT_TESTS = {'odd': test_odd}\n");
    repo.ok(&["init", "--no-agents"]);
    let standard = definitions(&context(&repo, "src", "standard"));
    let at = |name: &str| standard.iter().position(|(n, _)| n == name).unwrap();
    assert_eq!(standard[at("a-request.test.ts")].1, Vec::<String>::new(), "{standard:?}");
    assert!(at("a-request.test.ts") > at("request.ts").max(at("tests.py")), "{standard:?}");
    assert_eq!(standard[at("tests.py")].1, ["test_odd"], "{standard:?}");
    let full = definitions(&context(&repo, "src", "full"));
    assert!(full.iter().any(|(name, defs)| name == "a-request.test.ts" && !defs.is_empty()), "{full:?}");
    // In a folder of tests, the tests are its code.
    let tests = definitions(&context(&repo, "tests", "standard"));
    assert_eq!(tests, [("request.test.ts".to_string(), vec!["fixture".to_string()])]);
}

#[test]
fn the_root_context_shows_the_stack_and_commands() {
    let repo = shop();
    repo.ok(&["init"]);
    let root = std::fs::read_to_string(repo.path(".ctx/context/_root.standard.md")).unwrap();
    assert!(
        root.contains("Stack: Python (pyproject.toml), Node.js (package.json), TypeScript (package.json), pytest (pyproject.toml), Ruff (pyproject.toml)"),
        "{root}"
    );
    for command in
        ["- test: `pytest`", "- lint: `ruff check`", "- test: `npm run test`", "- lint: `npm run lint`"]
    {
        assert!(root.contains(command), "missing {command} in:\n{root}");
    }
    // Even the smallest tier has them; other folders do not.
    assert!(repo.ok(&["context", ".", "--tier", "minimal"]).contains("- test: `pytest`"));
    let shop = repo.ok(&["context", "src/shop"]);
    assert!(!shop.contains("Commands:") && !shop.contains("Stack:"), "{shop}");
}

#[test]
fn a_folder_lists_its_code_first_and_the_files_that_say_nothing_on_one_line() {
    let repo = Repo::new();
    repo.write(".editorconfig", "root = true\n");
    repo.write("LICENSE", "MIT License\n");
    repo.write("README.md", "# Tool\n\nA tool that turns logs into reports.\n");
    repo.write("main.py", "def main():\n    return 0\n");
    repo.ok(&["init", "--no-agents"]);
    let root = std::fs::read_to_string(repo.path(".ctx/context/_root.standard.md")).unwrap();
    let files = &root[root.find("### Files").unwrap()..];
    let at = |text: &str| files.find(text).unwrap_or_else(|| panic!("{text:?} not in:\n{root}"));
    assert!(
        at("- `main.py`\n  - `def main()`") < at("- `README.md`: A tool that turns logs into reports."),
        "{root}"
    );
    assert!(at("- `README.md`") < at("- Also: `.editorconfig`, `LICENSE`\n"), "{root}");
    // The JSON still has every file, each marked by what its line says.
    let doc = context(&repo, ".", "standard");
    let names: Vec<&str> =
        doc["doc"]["files"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["main.py", ".editorconfig", "LICENSE", "README.md"]);
}

#[test]
fn tiers_differ_in_definitions_and_decisions() {
    let mut api = String::new();
    for i in 0..30 {
        api.push_str(&format!("def endpoint_{i:02}(request):\n    return {i}\n\n\n"));
    }
    let repo = Repo::new();
    repo.write("src/big/api.py", &api);
    repo.ok(&["init"]);
    for i in 0..14 {
        repo.ok(&["log", "src/big", "--title", &format!("Decision {i:02}")]);
    }
    repo.ok(&["build"]);
    let shown: Vec<(usize, usize)> = ["minimal", "standard", "full", "deep"]
        .iter()
        .map(|tier| {
            let doc = context(&repo, "src/big", tier);
            let defs = definitions(&doc).iter().map(|(_, d)| d.len()).sum();
            let decisions = doc["doc"]["decisions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["entries"].as_array().unwrap().len())
                .sum();
            (defs, decisions)
        })
        .collect();
    // A folder of one file has room for more of it than six definitions, not all.
    assert_eq!(shown, [(1, 0), (12, 5), (20, 12), (24, 14)]);
    // And the files say so.
    let count = |tier: &str| {
        let text = std::fs::read_to_string(repo.path(&format!(".ctx/context/src--big.{tier}.md"))).unwrap();
        text.matches("`def endpoint_").count()
    };
    assert!(
        count("minimal") < count("standard")
            && count("standard") < count("full")
            && count("full") < count("deep")
    );
}

#[test]
fn folder_todo_puts_the_code_others_depend_on_first_and_fixtures_and_tests_last() {
    let repo = Repo::new();
    for (path, text) in [
        (
            "src/pkg/json/provider.py",
            "def dumps(value):\n    return str(value)\n\n\ndef loads(text):\n    return text\n",
        ),
        (
            "src/pkg/app.py",
            "from pkg.json.provider import dumps, loads\nfrom pkg.fp.curried import curried_dumps\n\n\n\
             def respond(value):\n    return curried_dumps(dumps(loads(value)))\n",
        ),
        ("src/pkg/util/deep/er/helpers.py", "def rarely_used_helper():\n    return 1\n"),
        // Written by a script (date-fns' `src/fp/`): used, but nobody's to describe or edit.
        (
            "src/pkg/fp/curried.py",
            "# Code generated by scripts/gen_fp.py. DO NOT EDIT.\nfrom pkg.json.provider import dumps\n\n\n\
             def curried_dumps(value):\n    return dumps(value)\n",
        ),
        ("tests/fixtures/x/sample.py", "def fixture_app():\n    return respond(dumps(1))\n"),
        ("tests/fixtures/x/nested/more.py", "def more_fixture():\n    return loads(\"x\")\n"),
        ("tests/test_app.py", "def test_respond():\n    respond(loads(\"1\"))\n"),
        ("examples/demo.py", "def demo():\n    return respond(1)\n"),
        ("screenshots/shot.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n"),
        (".github/workflows/ci.yml", "on: push\njobs: {}\n"),
    ] {
        repo.write(path, text);
    }
    repo.ok(&["init"]);
    let todo = repo.json(&["folder", "todo"]);
    let paths: Vec<&str> = todo.as_array().unwrap().iter().map(|t| t["path"].as_str().unwrap()).collect();
    let at =
        |path: &str| paths.iter().position(|p| *p == path).unwrap_or_else(|| panic!("{path} in {paths:?}"));
    // What most of the repository uses comes first, over deeper folders of code.
    assert_eq!(paths[0], "src/pkg/json", "{paths:?}");
    assert!(at("src/pkg/json") < at("src/pkg/util/deep/er"), "{paths:?}");
    // Generated code after all code written by hand, before tests.
    assert!(at("src/pkg/util/deep/er") < at("src/pkg/fp") && at("src/pkg/fp") < at("tests"), "{paths:?}");
    // Folders of no code (CI's configuration, images) after the examples; tests, then
    // fixtures, last, however deep.
    assert!(at("examples") < at("screenshots") && at("examples") < at(".github/workflows"), "{paths:?}");
    assert!(at("screenshots") < at("tests") && at("src/pkg/util/deep/er") < at("tests"), "{paths:?}");
    assert!(at("tests") < at("tests/fixtures/x") && at("tests") < at("tests/fixtures/x/nested"), "{paths:?}");
    let json = &todo.as_array().unwrap()[0];
    assert_eq!(json["role"], "source");
    assert!(json["importance"].as_f64().unwrap() > 0.0, "{json}");
    let fixture = todo.as_array().unwrap().iter().find(|t| t["path"] == "tests/fixtures/x").unwrap();
    assert_eq!(fixture["role"], "fixture");
}

/// The names a context's subfolder lines name below each subfolder, by subfolder.
fn code_below(doc: &Value) -> Vec<(String, Vec<String>)> {
    let subfolders = doc["doc"]["subfolders"].as_array().unwrap();
    let names = |s: &Value| -> Vec<String> {
        s["code"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap().to_string()).collect()
    };
    subfolders.iter().map(|s| (s["name"].as_str().unwrap().to_string(), names(s))).collect()
}

#[test]
fn a_subfolder_line_names_the_code_below_it_that_others_use() {
    let repo = shop();
    // The root's own files: mostly names an agent does not need, more than the minimal tier holds.
    for i in 0..60 {
        repo.write(&format!(".config-{i:02}.yaml"), "x: 1\n");
    }
    repo.ok(&["init", "--no-agents"]);
    let root = context(&repo, ".", "standard");
    let below = code_below(&root);
    let src = &below.iter().find(|(name, _)| name == "src").unwrap().1;
    // What other files use, however deep; a method, a private helper, a test or unused code is not.
    for name in ["Shop", "request_context", "current_session"] {
        assert!(src.contains(&name.to_string()), "{name} not in {src:?}");
    }
    for name in ["add_route", "_private_helper", "test_looks_like_a_test", "createClient"] {
        assert!(!src.contains(&name.to_string()), "{name} in {src:?}");
    }
    // Nor the module a facade passes names on from (`shop.globals`): that module's code is named.
    assert!(!src.iter().any(|name| name.starts_with("shop.")), "{src:?}");
    // A tests folder's code is what the tests hold, not what the repository is for.
    assert_eq!(below.iter().find(|(name, _)| name == "tests").unwrap().1, Vec::<String>::new());
    let text = std::fs::read_to_string(repo.path(".ctx/context/_root.standard.md")).unwrap();
    assert!(text.contains("- `src/`: "), "{text}");
    assert!(text.contains("  - code: `"), "{text}");
    assert!(text.contains("(shop/app.py)"), "{text}");

    // Where room is short, dotfiles' names go before the code's line does.
    let minimal = context(&repo, ".", "minimal");
    assert!(!code_below(&minimal).iter().all(|(_, code)| code.is_empty()), "{minimal}");
    let files: Vec<&str> =
        minimal["doc"]["files"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert!(files.contains(&"pyproject.toml") && files.len() < 62, "{files:?}");
    let omitted = minimal["doc"]["omitted"].as_array().unwrap();
    assert!(omitted.iter().any(|o| o.as_str().unwrap().contains("of 62 files without code")), "{omitted:?}");
    // And before what a subfolder is for: `.config-07.yaml` says less than `src/`'s line.
    let subfolders = minimal["doc"]["subfolders"].as_array().unwrap();
    let src = subfolders.iter().find(|s| s["name"] == "src").unwrap();
    assert!(!src["description"].as_str().unwrap().is_empty(), "{minimal}");
}

#[test]
fn the_smallest_tier_keeps_a_root_entry_point_others_use_and_drops_an_unused_root_script() {
    // fastify's shape: `fastify.js` at the root, which the code below requires; a
    // root script nothing uses; many subfolders whose code competes for 500 tokens.
    let repo = Repo::new();
    repo.write("package.json", r#"{"name": "web", "scripts": {"test": "node --test"}}"#);
    repo.write("fastify.js", "function fastify (serverOptions) {\n  return buildRouting(serverOptions)\n}\nmodule.exports = fastify\n");
    repo.write("release.js", "function publishRelease (version) {\n  return version\n}\n");
    for i in 0..14 {
        repo.write(
            &format!("part{i:02}/handler_with_a_long_name_{i:02}.js"),
            &format!(
                "const fastify = require('../fastify')\nfunction handleRequestsForPartNumber{i:02} (req) {{\n  return fastify(req)\n}}\n\
                 module.exports = {{ handleRequestsForPartNumber{i:02} }}\n"
            ),
        );
        repo.write(
            &format!("part{i:02}/user.js"),
            &format!("const {{ handleRequestsForPartNumber{i:02} }} = require('./handler_with_a_long_name_{i:02}')\nhandleRequestsForPartNumber{i:02}(1)\n"),
        );
    }
    repo.ok(&["init", "--no-agents"]);
    let minimal = context(&repo, ".", "minimal");
    let omitted: Vec<&str> =
        minimal["doc"]["omitted"].as_array().unwrap().iter().map(|o| o.as_str().unwrap()).collect();
    assert!(
        omitted.iter().any(|o| o.contains("code named below")),
        "the test needs a full tier: {omitted:?}"
    );
    let shown = definitions(&minimal);
    assert_eq!(
        shown.iter().find(|(f, _)| f == "fastify.js").map(|(_, d)| d.clone()),
        Some(vec!["fastify".to_string()]),
        "{minimal}"
    );
    assert!(shown.iter().all(|(f, _)| f != "release.js"), "{minimal}");
}

#[test]
fn a_crate_s_result_alias_is_not_the_code_it_is_known_by() {
    let repo = Repo::new();
    repo.write("Cargo.toml", "[workspace]\nmembers = [\"crates/engine\"]\n");
    repo.write("crates/engine/Cargo.toml", "[package]\nname = \"engine\"\nversion = \"0.1.0\"\n");
    repo.write(
        "crates/engine/src/error.rs",
        "pub enum Error { Bad }\n\npub type Result<T> = std::result::Result<T, Error>;\n",
    );
    repo.write(
        "crates/engine/src/engine.rs",
        "use crate::error::Result;\n\npub struct Engine;\n\npub fn start() -> Result<Engine> { Ok(Engine) }\n\n\
         pub mod env {\n    pub fn theme() -> u8 { 0 }\n}\n",
    );
    for name in ["a", "b", "c"] {
        repo.write(
            &format!("crates/engine/src/{name}.rs"),
            "use crate::error::{Error, Result};\nuse crate::engine::Engine;\nuse std::env;\n\n\
             pub fn run(e: Engine) -> Result<Engine> { let _ = env::var(\"X\"); if false { return Err(Error::Bad) } Ok(e) }\n",
        );
    }
    repo.ok(&["init", "--no-agents"]);
    let below = code_below(&context(&repo, ".", "deep"));
    let crates = &below.iter().find(|(name, _)| name == "crates").unwrap().1;
    // Every file uses the alias; it says nothing of what the crate is.
    assert!(crates.contains(&"Engine".to_string()) && crates.contains(&"Error".to_string()), "{crates:?}");
    assert!(!crates.contains(&"Result".to_string()), "{crates:?}");
    // Nor is a module whose name every `use std::env` seems to use.
    assert!(!crates.contains(&"env".to_string()), "{crates:?}");
}

#[test]
fn a_subfolder_line_names_the_code_before_the_type_aliases_every_signature_uses() {
    let repo = Repo::new();
    repo.write("pyproject.toml", "[project]\nname = \"asgi\"\n");
    repo.write(
        "asgi/types.py",
        "from typing import Any, Callable, MutableMapping\n\nScope = MutableMapping[str, Any]\n\
         Send = Callable[[Scope], None]\n",
    );
    repo.write("asgi/app.py", "from asgi.types import Scope, Send\n\nclass App:\n    def __call__(self, scope: Scope, send: Send):\n        pass\n");
    for name in ["routing", "requests", "responses"] {
        repo.write(
            &format!("asgi/{name}.py"),
            &format!("from asgi.types import Scope, Send\nfrom asgi.app import App\n\ndef {name}(app: App, scope: Scope, send: Send):\n    pass\n"),
        );
    }
    repo.ok(&["init", "--no-agents"]);
    let below = code_below(&context(&repo, ".", "deep"));
    let asgi = &below.iter().find(|(name, _)| name == "asgi").unwrap().1;
    // `Scope` has more users, yet `App` is where the code is; the aliases still follow.
    assert_eq!(asgi.first().map(String::as_str), Some("App"), "{asgi:?}");
    assert!(asgi.contains(&"Scope".to_string()), "{asgi:?}");
}

#[test]
fn a_line_written_alike_in_several_files_of_a_folder_is_left_out() {
    // pino's tests: `const hostname = os.hostname()` opened seven files' entries.
    let repo = Repo::new();
    for name in ["http", "error", "levels"] {
        repo.write(
            &format!("test/{name}.test.js"),
            &format!(
                "const os = require('node:os')\nconst hostname = os.hostname()\n\nfunction check_{name} (t) {{\n  \
                 return hostname\n}}\nclass Probe_{name} {{\n  start () {{}}\n}}\nclass Logger extends Base {{}}\n\
                 module.exports = {{ check_{name}, Probe_{name}, Logger }}\n"
            ),
        );
    }
    repo.ok(&["init", "--no-agents"]);
    let text = std::fs::read_to_string(repo.path(".ctx/context/test.standard.md")).unwrap();
    assert!(!text.contains("const hostname"), "{text}");
    for name in ["http", "error", "levels"] {
        assert!(text.contains(&format!("function check_{name} (t)")), "{name} in:\n{text}");
        // A method written alike in three classes is each class's own.
        assert!(text.contains(&format!("`start ()` in `Probe_{name}`")), "{name} in:\n{text}");
    }
    // And a class written alike in three modules is three classes (structlog's `class
    // BoundLogger(BoundLoggerBase):`).
    assert_eq!(text.matches("class Logger extends Base").count(), 3, "{text}");
    // Koa's shape: a line three files repeat, early in two files' lists (exported) and last
    // in the third's (kept to itself, after what other files use): only the deep tier held
    // all three, and dropped it there alone. A larger tier shows all a smaller one does.
    let repo = Repo::new();
    let to_json = "function toJSON () {\n  return {}\n}\n";
    for name in ["request", "response"] {
        repo.write(
            &format!("lib/{name}.js"),
            &format!("{to_json}function {name} () {{}}\nmodule.exports = {{ toJSON, {name} }}\n"),
        );
    }
    let used: Vec<String> = (0..9).map(|i| format!("used_{i}")).collect();
    let mut context_js: String = used.iter().map(|f| format!("function {f} () {{}}\n")).collect();
    context_js.push_str(&format!("{to_json}module.exports = {{ {} }}\n", used.join(", ")));
    repo.write("lib/context.js", &context_js);
    let calls: String = used.iter().map(|f| format!("{f}()\n")).collect();
    repo.write("app.js", &format!("const {{ {} }} = require('./lib/context')\n{calls}", used.join(", ")));
    repo.ok(&["init", "--no-agents"]);
    let names = |tier: &str| -> Vec<(String, Vec<String>)> { definitions(&context(&repo, "lib", tier)) };
    let tiers = ["minimal", "standard", "full", "deep"].map(names);
    for pair in tiers.windows(2) {
        for ((file, smaller), (_, larger)) in pair[0].iter().zip(&pair[1]) {
            assert!(smaller.iter().all(|d| larger.contains(d)), "{file}: {smaller:?} not in {larger:?}");
        }
    }
    assert!(tiers[3].iter().all(|(_, defs)| !defs.contains(&"toJSON".to_string())), "{:?}", tiers[3]);
}

#[test]
fn an_undescribed_folder_is_what_its_most_depended_on_file_says() {
    // reqwest's `src/async_impl/`: no `mod.rs` docs; `body.rs` comes first by name, but
    // the folder is its client.
    let repo = Repo::new();
    repo.write("src/net/body.rs", "//! An asynchronous request body.\n\npub struct Body;\n");
    repo.write(
        "src/net/client.rs",
        "//! An asynchronous client to make requests with.\n\nuse super::body::Body;\n\npub struct Client;\n\n\
         impl Client {\n    pub fn send(&self, b: Body) {}\n}\n",
    );
    for name in ["a", "b", "c"] {
        repo.write(&format!("src/{name}.rs"), "use crate::net::client::Client;\n\npub fn go(c: Client) {}\n");
    }
    repo.ok(&["init", "--no-agents"]);
    let net = context(&repo, "src/net", "standard");
    assert_eq!(net["doc"]["current"]["description_source"], "client.rs", "{net}");
    assert_eq!(
        net["doc"]["current"]["description"], "An asynchronous client to make requests with.",
        "{net}"
    );
}

#[test]
fn a_tests_folder_is_no_one_test_s_summary() {
    // bytes' `tests/`: one of twelve files has a module doc, which said nothing of the others.
    let repo = Repo::new();
    repo.write("src/lib.rs", "pub struct Bytes;\n");
    repo.write(
        "tests/test_odd_alloc.rs",
        "//! Test using Bytes with an allocator that hands out odd pointers.\n\nfn t() {}\n",
    );
    repo.write("tests/test_buf.rs", "fn t() {}\n");
    repo.ok(&["init", "--no-agents"]);
    let tests = context(&repo, "tests", "standard");
    assert_eq!(tests["doc"]["current"]["description_source"], "summary", "{tests}");
}

#[test]
fn a_second_package_beside_the_project_s_is_not_what_its_manifest_describes() {
    // urllib3: `src/urllib3/` is the project's package; `dummyserver/`, a test server at
    // the root, had been given the project's description.
    let repo = Repo::new();
    repo.write("pyproject.toml", "[project]\nname = \"pkg\"\ndescription = \"An HTTP client.\"\n");
    repo.write("src/pkg/__init__.py", "from .pool import Pool\n");
    repo.write("src/pkg/pool.py", "class Pool:\n    pass\n");
    repo.write("dummyserver/__init__.py", "");
    repo.write("dummyserver/app.py", "def serve():\n    pass\n");
    repo.ok(&["init", "--no-agents"]);
    let package = context(&repo, "src/pkg", "standard");
    assert_eq!(package["doc"]["current"]["description_source"], "../../pyproject.toml", "{package}");
    let server = context(&repo, "dummyserver", "standard");
    assert_eq!(server["doc"]["current"]["description_source"], "summary", "{server}");
}
