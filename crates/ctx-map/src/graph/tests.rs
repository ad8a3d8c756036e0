//! How the reference graph resolves uses and ranks what the overview lifts.
//! Declared `#[cfg(test)] mod tests;` in `graph/mod.rs`: compiled for tests only.

use super::*;
use crate::index::python_file as indexed;

#[test]
fn the_surface_is_what_an_entry_file_imports_from_the_package_itself() {
    let files = [
        indexed(
            "pkg/__init__.py",
            "from .helpers import url_for\nfrom .app import App\ncurrent_app.json.dumps(1)\n",
        ),
        indexed("pkg/helpers.py", "def url_for(endpoint):\n    return App()\n"),
        indexed("pkg/app.py", "class App:\n    def run(self):\n        return dumps(url_for('x'))\n"),
        indexed("pkg/tag.py", "def dumps(value):\n    return value\n"),
        indexed("tests/test_helpers.py", "def url_for(endpoint):\n    return App()\n"),
    ];
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let score = |file: usize| ranking.def_rank[file][0];
    let lifted = score(1).min(score(2));
    // The function and the class it imports lead; not what it calls on an object
    // (`dumps`), nor a test's look-alike.
    assert!(score(3) < lifted / 2.0, "{:?}", ranking.def_rank);
    assert!(score(4) < lifted / 2.0, "{:?}", ranking.def_rank);
}

#[test]
fn a_private_package_s_entry_file_is_no_public_surface() {
    // rich's shape: `rich/_unicode_data/__init__.py` imports its tables for itself.
    let files = [
        indexed("pkg/__init__.py", "from .cells import cell_len\n"),
        indexed("pkg/cells.py", "def cell_len(text):\n    return load(text)\n"),
        indexed(
            "pkg/_data/__init__.py",
            "from ._versions import VERSIONS\ndef load(v):\n    return VERSIONS\n",
        ),
        indexed("pkg/_data/_versions.py", "VERSIONS = (1, 2)\n"),
    ];
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let (cell_len, versions) = (ranking.def_rank[1][0], ranking.def_rank[3][0]);
    assert!(versions < cell_len / 2.0, "{:?}", ranking.def_rank);
}

#[test]
fn an_entry_file_s_own_public_functions_are_the_package_s_surface() {
    // rich's shape: `rich/__init__.py` defines `print` and `inspect` next to
    // private state and imports `Console` from `rich.console`, whose module name
    // a tool script outside the package defines as a global.
    let files = [
        indexed(
            "rich/__init__.py",
            "from rich.console import Console\n_console = None\n__all__ = ['print']\n\
             def get_console():\n    return Console()\n\
             def print(*objects, console=None):\n    return console or get_console()\n\
             def _private():\n    pass\n",
        ),
        indexed("rich/console.py", "class Console:\n    def render(self):\n        return measure(self)\n"),
        indexed("rich/measure.py", "def measure(value):\n    return value\n"),
        indexed("tools/profile.py", "from rich.console import Console\nconsole = Console()\n"),
    ];
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let score = |file: usize, name: &str| {
        let d = files[file].tags.defs.iter().position(|d| d.name == name).unwrap();
        ranking.def_rank[file][d]
    };
    let measure = score(2, "measure");
    for name in ["get_console", "print"] {
        assert!(score(0, name) > measure, "{name}: {:?}", ranking.def_rank);
    }
    assert!(score(0, "_private") < measure, "{:?}", ranking.def_rank);
    assert!(score(1, "Console") > score(0, "print"), "{:?}", ranking.def_rank);
    assert!(score(3, "console") < measure, "{:?}", ranking.def_rank);
}

fn rust(path: &str, source: &str) -> IndexedFile {
    IndexedFile::parsed(path, crate::lang::Lang::Rust, source)
}

#[test]
fn what_the_standard_library_answers_makes_no_file_of_the_repository_central() {
    // casey/just's shape: every file pushes onto vectors, subtracts (indicatif's
    // `VisualLines::saturating_sub`), returns `Result`s and
    // builds a `Recipe`; the repository defines a `push` method of its own, and a
    // dev tool in another folder a `type Result` alias.
    let user = "fn run(v: &mut Vec<u8>) -> Result<Recipe, ()> {\n    v.push(1);\n    v.push(2);\n    \
                if v.is_empty() { return Err(()); }\n    let n = v.len().saturating_sub(1);\n    Ok(Recipe::new())\n}\n";
    let mut files = vec![
        rust(
            "src/value.rs",
            "pub struct Value;\nimpl Value {\n    pub fn push(&mut self, e: &str) {}\n    \
             pub fn saturating_sub(self, n: usize) -> Self { self }\n}\n",
        ),
        rust("src/recipe.rs", "pub struct Recipe;\nimpl Recipe {\n    pub fn build() {}\n}\n"),
        rust("tools/gen/src/main.rs", "type Result<T> = std::result::Result<T, ()>;\n"),
    ];
    files.extend((0..6).map(|i| rust(&format!("src/user_{i}.rs"), user)));
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let score = |file: usize, name: &str| {
        let d = files[file].tags.defs.iter().position(|d| d.name == name).unwrap();
        ranking.def_rank[file][d]
    };
    let recipe = score(1, "Recipe");
    assert!(score(0, "push") < recipe / 5.0, "{:?}", ranking.def_rank);
    assert!(score(0, "saturating_sub") < recipe, "{:?}", ranking.def_rank);
    assert!(score(2, "Result") < recipe / 5.0, "{:?}", ranking.def_rank);
    // The rank those uses would have given leaves the repository: the alias's
    // file is no more central for being the only definer of `Result`.
    assert!(ranking.file_rank[2] < ranking.file_rank[1], "{:?}", ranking.file_rank);
}

#[test]
fn a_standard_module_s_name_makes_no_variable_of_the_repository_central() {
    // httpie's `cli/definition.py`: `ssl = options.add_group('SSL')`, outranking its
    // `parser`, took every `import ssl` and `ssl.CERT_REQUIRED` of the package.
    let mut files = vec![
        indexed("pkg/definition.py", "ssl = group('SSL')\nparser = make(ssl)\n"),
        indexed("pkg/core.py", "from .definition import parser\n\ndef main():\n    parser.parse()\n"),
    ];
    let user = "import ssl\n\ndef context():\n    return ssl.create_default_context(ssl.CERT_REQUIRED)\n";
    files.extend((0..6).map(|i| indexed(&format!("pkg/ssl_{i}.py"), user)));
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let score = |name: &str| {
        let d = files[0].tags.defs.iter().position(|d| d.name == name).unwrap();
        ranking.def_rank[0][d]
    };
    assert!(score("ssl") < score("parser"), "{:?}", ranking.def_rank);
}

#[test]
fn a_call_naming_the_type_reaches_that_type_s_method_not_its_namesakes() {
    // indicatif's shape: the examples build bars by `ProgressBar::new(…)`; the
    // crate defines more `new`s than are worth linking by name alone.
    let mut files = vec![
        rust(
            "src/progress_bar.rs",
            "pub struct ProgressBar;
impl ProgressBar {
pub fn new(len: u64) -> Self { ProgressBar }
}
",
        ),
        rust(
            "src/state.rs",
            "pub struct ProgressState;
impl<T> ProgressState<T> {
pub fn new() -> Self { ProgressState }
}
",
        ),
    ];
    let example = "fn main() {
let a = ProgressBar::new(1);
let b = indicatif::ProgressBar::new(2);
}
";
    files.extend((0..3).map(|i| rust(&format!("src/bin/demo_{i}.rs"), example)));
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let new_at = |files: &[IndexedFile], file: usize| {
        files[file].tags.defs.iter().position(|d| d.name == "new").unwrap()
    };
    let (bar, state) = (new_at(&files, 0), new_at(&files, 1));
    let before = ranking.def_rank[1][state];
    assert!(ranking.def_rank[0][bar] > before * 10.0, "{:?}", ranking.def_rank);
    // The state's `new`, called as `ProgressState::new()`, takes those uses in turn.
    files.push(rust(
        "src/bin/other.rs",
        "fn main() {
ProgressState::new();
ProgressState::<u8>::new();
}
",
    ));
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    assert!(ranking.def_rank[1][state] > before * 10.0, "{:?}", ranking.def_rank);
}

#[test]
fn a_bare_name_is_never_a_type_s_member() {
    // serde_json's shape: forty visitors' `type Value = …;` beside `enum Value`.
    let visitor = |i: usize| {
        let source = format!("struct V{i};\nimpl Visitor for V{i} {{\n    type Value = u8;\n}}\n");
        rust(&format!("src/de_{i}.rs"), &source)
    };
    let mut files: Vec<IndexedFile> = (0..4).map(visitor).collect();
    files.push(rust("src/types.rs", "pub enum Value { Null }\n"));
    files.extend((0..2).map(|i| rust(&format!("src/user_{i}.rs"), "fn user(v: Value) -> Value { v }\n")));
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let member = ranking.def_rank[0][2];
    assert_eq!(files[0].tags.defs[2].name, "Value");
    assert!(ranking.def_rank[4][0] > member * 10.0, "{:?}", ranking.def_rank);
}

#[test]
fn what_a_module_with_code_of_its_own_passes_on_is_surface_too() {
    // `response/mod.rs` holds code (more than an entry file's handful of
    // definitions) and passes `IntoResponse` on; `SealedResponse` it shares only
    // within the crate, `ResponseParts` not at all; and an example's `pub use` is
    // none of the package's.
    let own: String = (0..8).map(|i| format!("pub fn helper_{i}() {{}}\n")).collect();
    let files = [
        rust(
            "src/response/mod.rs",
            &format!(
                "pub use self::into_response::IntoResponse;\n\
                 pub(crate) use self::sealed::SealedResponse;\n\
                 use self::parts::ResponseParts;\n{own}"
            ),
        ),
        rust("src/response/into_response.rs", "pub trait IntoResponse {}\n"),
        rust("src/response/sealed.rs", "pub trait SealedResponse {}\n"),
        rust("src/response/parts.rs", "pub struct ResponseParts;\n"),
        rust("examples/demo.rs", "pub use app::DemoResponse;\n"),
        rust("src/demo.rs", "pub struct DemoResponse;\n"),
    ];
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let score = |file: usize| ranking.def_rank[file][0];
    // Equal uses otherwise: the lift alone sets it apart.
    for other in [2, 3, 5] {
        assert!(score(1) > score(other) * 2.0, "{other}: {:?}", ranking.def_rank);
    }
}

fn js(path: &str, source: &str) -> IndexedFile {
    IndexedFile::parsed(path, crate::lang::Lang::JavaScript, source)
}

#[test]
fn a_package_s_default_export_is_what_its_users_call_by_their_own_name() {
    // express's shape: `index.js` exports `lib/express.js`'s default export,
    // `createApplication`, which every test requires whole and calls `express()`.
    let test = "var express = require('../');\nvar app = express();\napp.set('x', express());\n";
    let files = [
        js("index.js", "'use strict';\nmodule.exports = require('./lib/express');\n"),
        js(
            "lib/express.js",
            "var proto = require('./application');\nexports = module.exports = createApplication;\n\
             function createApplication() {\n  return mixin({}, proto)\n}\n",
        ),
        js(
            "lib/application.js",
            "var app = exports = module.exports = {};\napp.set = function set(k, v) {\n  return mixin(k, v)\n}\n",
        ),
        js("lib/utils.js", "function mixin(a, b) {\n  return a\n}\nmodule.exports = { mixin }\n"),
        js("test/app.js", test),
        js("test/app.set.js", test),
    ];
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let at = |file: usize, name: &str| files[file].tags.defs.iter().position(|d| d.name == name).unwrap();
    let create = at(1, "createApplication");
    assert!(ranking.is_surface(1, create), "{:?}", ranking.surface);
    // The tests' `express()` reach it: it ranks over the helper the package calls.
    let mixin = ranking.def_rank[3][at(3, "mixin")];
    assert!(ranking.def_rank[1][create] > mixin, "{:?}", ranking.def_rank);
}

#[test]
fn what_an_entry_file_re_exports_whole_is_the_package_s_surface() {
    // zustand's shape: `src/index.ts` is `export * from './vanilla.ts'` and
    // `export * from './react'`, which exports one `export * from` further on.
    let ts = |path: &str, source: &str| IndexedFile::parsed(path, crate::lang::Lang::TypeScript, source);
    let files = [
        ts("src/index.ts", "export * from './vanilla.ts'\nexport * from './react'\n"),
        ts(
            "src/vanilla.ts",
            "type CreateStore = { (): number }\nconst createStoreImpl = () => helper()\n\
             export const createStore = ((s) => createStoreImpl()) as CreateStore\n\
             export interface StoreApi { get: () => number }\n",
        ),
        ts("src/react.ts", "export * from './react/hooks'\n"),
        ts(
            "src/react/hooks.ts",
            "import { createStore } from '../vanilla'\nexport function useStore() { return createStore() }\n",
        ),
        ts("src/helper.ts", "export function helper() { return 1 }\n"),
    ];
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let surface = |file: usize, name: &str| {
        let d = files[file].tags.defs.iter().position(|d| d.name == name).unwrap();
        ranking.is_surface(file, d)
    };
    for (file, name) in [(1, "createStore"), (1, "StoreApi"), (3, "useStore")] {
        assert!(surface(file, name), "{name}: {:?}", ranking.surface);
    }
    // What the module keeps to itself, and what no entry passes on, are not.
    for (file, name) in [(1, "createStoreImpl"), (1, "CreateStore"), (4, "helper")] {
        assert!(!surface(file, name), "{name}: {:?}", ranking.surface);
    }
}

#[test]
fn a_file_s_use_of_a_name_it_defines_is_no_other_module_s_private_namesake() {
    // zustand's middleware each define and use a private `type Write<T, U>`.
    let ts = |path: &str, source: &str| IndexedFile::parsed(path, crate::lang::Lang::TypeScript, source);
    let middleware = |name: &str| {
        format!(
            "type Write<T, U> = Omit<T, keyof U> & U\nexport function {name}(s: Write<A, B>): Write<A, B> {{ return s }}\n"
        )
    };
    let files = [
        ts("src/persist.ts", &middleware("persist")),
        ts("src/devtools.ts", &middleware("devtools")),
        ts("src/redux.ts", &middleware("redux")),
    ];
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let ranked = |file: usize, name: &str| {
        let d = files[file].tags.defs.iter().position(|d| d.name == name).unwrap();
        ranking.def_rank[file][d]
    };
    // No file's uses reach another's `Write`: it ranks as the unused.
    for (file, name) in [(0, "persist"), (1, "devtools"), (2, "redux")] {
        assert!(ranked(file, "Write") <= ranked(file, name), "{:?}", ranking.def_rank);
    }
}

#[test]
fn what_a_module_exports_of_its_own_lifts_no_look_alike_elsewhere() {
    // fastify's shape: `lib/validation.js` defines and exports `validate`;
    // `lib/hooks.js` has a `Hooks.prototype.validate` method, which a bare
    // `validate(opts)` never calls, and `lib/schema.js` a function of that name.
    let files = [
        js(
            "lib/validation.js",
            "function validate (context, request) {\n  return check(request)\n}\nmodule.exports = { validate }\n",
        ),
        js(
            "lib/hooks.js",
            "function Hooks () {}\nHooks.prototype.validate = function (hook, fn) {\n  return hook\n}\n\
             Hooks.prototype.add = function (hook, fn) {\n  this.validate(hook, fn)\n}\nmodule.exports = { Hooks }\n",
        ),
        js(
            "lib/schema.js",
            "function validate (schema) {\n  return schema\n}\nfunction compile (s) {\n  return validate(s)\n}\n",
        ),
        js("lib/check.js", "function check (request) {\n  return request\n}\nmodule.exports = { check }\n"),
    ];
    let method = files[1].tags.defs.iter().find(|d| d.name == "validate").map(|d| d.kind);
    assert_eq!(method, Some(crate::tags::Kind::Method));
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let score = |file: usize, name: &str| {
        let d = files[file].tags.defs.iter().position(|d| d.name == name).unwrap();
        ranking.def_rank[file][d]
    };
    // Neither look-alike takes a lift from validation.js's export of its own: both
    // rank below `check`, which only validation.js uses.
    let check = score(3, "check");
    assert!(score(1, "validate") < check / 5.0, "{:?}", ranking.def_rank);
    assert!(score(2, "validate") < check, "{:?}", ranking.def_rank);
}

#[test]
fn an_unexported_constant_used_as_much_as_a_function_comes_after_it_in_the_overview() {
    // black's shape: `DEFAULT_LINE_LENGTH` and `parse_source` are used by the same files.
    let user = "from pkg.const import DEFAULT_LINE_LENGTH\nfrom pkg.parse import parse_source\n";
    let mut files = vec![
        indexed("pkg/const.py", "DEFAULT_LINE_LENGTH = 88\n"),
        indexed("pkg/parse.py", "def parse_source(text):\n    return text\n"),
    ];
    files.extend((0..4).map(|i| indexed(&format!("pkg/user_{i}.py"), user)));
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let (constant, function) = (ranking.def_rank[0][0], ranking.def_rank[1][0]);
    assert!(constant < function * 0.75, "{:?}", ranking.def_rank);
}

#[test]
fn type_declarations_take_no_lift_over_the_code_they_describe() {
    // fastify's shape: `index.d.ts` re-exports `types/instance.d.ts`, which describes
    // the JavaScript the package is made of.
    let ts = |path: &str, source: &str| IndexedFile::parsed(path, crate::lang::Lang::TypeScript, source);
    let user = "const { buildReply } = require('./reply')\nfunction route (r) {\n  return buildReply(r)\n}\nmodule.exports = { route }\n";
    let mut files = vec![
        ts("index.d.ts", "export { FastifyInstance } from './types/instance'\n"),
        ts("types/instance.d.ts", "export interface FastifyInstance { listen(): void }\n"),
        js("lib/reply.js", "function buildReply (r) {\n  return r\n}\nmodule.exports = { buildReply }\n"),
    ];
    files.extend((0..3).map(|i| js(&format!("lib/route{i}.js"), user)));
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let (declared, code) = (ranking.def_rank[1][0], ranking.def_rank[2][0]);
    assert!(declared < code, "{:?}", ranking.def_rank);
}

#[test]
fn a_crate_re_exports_only_what_is_pub() {
    // This repository's shape: `lib.rs` re-exports `records::Decision`; a private
    // `enum Decision` of another module is a look-alike, not the surface.
    let files = [
        rust("src/lib.rs", "pub use records::Decision;\n"),
        rust("src/records.rs", "pub struct Decision;\n"),
        rust("src/score/mod.rs", "pub(super) enum Decision { Clear }\n"),
        rust("src/plan.rs", "pub fn plan() -> Plan {\n    Plan\n}\npub struct Plan;\n"),
    ];
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let (exported, private) = (ranking.def_rank[1][0], ranking.def_rank[2][0]);
    assert!(private < exported / 2.0, "{:?}", ranking.def_rank);
}

#[test]
fn a_trait_impl_s_items_take_neither_the_export_nor_the_uses_of_their_names() {
    let files = [
        rust("src/lib.rs", "pub use response::Response;\npub use routing::Router;\n"),
        rust("src/response.rs", "pub struct Response;\n"),
        rust(
            "src/routing.rs",
            "pub struct Router;\nimpl Service for Router {\n    type Response = Response;\n    fn call(&self) {}\n}\n",
        ),
        rust("src/app.rs", "pub fn app(r: Router) -> Response {\n    r.call();\n    Response\n}\n"),
    ];
    let ranking = Graph::new(&files, &HashSet::default()).rank(&Focus::default());
    let routing = &ranking.def_rank[2];
    let (router, associated, call) = (routing[0], routing[2], routing[3]);
    // Without a task, the exported struct leads; the impl's `type Response`, lifted
    // with the export's name before, now comes after the file's own type.
    assert!(router > associated * 5.0, "{routing:?}");
    assert!(ranking.def_rank[1][0] > associated * 5.0, "{:?}", ranking.def_rank);
    // A task naming `call` still reaches the method, at a tenth of its name's rank.
    let mentioned: HashSet<String> = ["call".to_string()].into_iter().collect();
    let task = Graph::new(&files, &mentioned).rank(&Focus::default());
    assert!(task.def_rank[2][3] > 0.0 && call > 0.0);
}

#[test]
fn the_graphs_own_names_find_the_definers_any_names_find() {
    let files = [
        indexed("pkg/app.py", "class App:\n    def run(self):\n        helper()\n"),
        indexed("pkg/util.py", "def helper():\n    return App()\n\ndef run():\n    pass\n"),
        indexed("pkg/other.py", "def helper():\n    run()\n"),
    ];
    let names: HashSet<String> = ["helper", "App", "run", "absent"].into_iter().map(String::from).collect();
    let graph = Graph::new(&files, &names);
    let sorted = |found: HashMap<&str, Vec<u32>>| {
        let mut found: Vec<(String, Vec<u32>)> = found.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        found.sort();
        found
    };
    // Another set of names is looked up by name, the graph's own by id.
    let mut others = names.clone();
    others.insert("elsewhere".into());
    let by_id = sorted(graph.definers(&names));
    assert_eq!(by_id, sorted(graph.definers(&others)));
    assert_eq!(by_id.len(), 3, "{by_id:?}");
}

#[test]
fn a_task_writes_code_by_its_spelling_in_backticks_or_qualified() {
    let code = |query: &str| {
        let mut names: Vec<String> = code_names(query).into_iter().collect();
        names.sort();
        names
    };
    assert_eq!(code("Fix url_for and Session in the app"), ["Fix", "Session", "url_for"]);
    assert_eq!(code("Add support of `pathlib.Path` to `edit`"), ["Add", "Path", "edit", "pathlib"]);
    assert_eq!(
        code("fix validators.disabled() on nesting; click.prompt typing"),
        ["click", "disabled", "prompt", "validators"]
    );
    assert_eq!(code("clarify Key::derive_from (fixes #2646)"), ["Key", "derive_from"]);
    // A call is code; a parenthesis after a space is prose.
    assert_eq!(code("add a new overload to select() for 5 entities (or more)"), ["select"]);
    assert_eq!(code("support default_factory=...) in field(x)"), ["default_factory", "field"]);
    // File names, versions and sentences' ends are no qualified names.
    assert_eq!(code("update setup.py and src/app.py to v1.2.3. then done."), [""; 0]);
    assert_eq!(code("a lone ` backtick, and the end."), [""; 0]);
}
