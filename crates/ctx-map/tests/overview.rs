//! The map without a task: what leads it (the package's public surface),
//! and what follows however often the code calls it (private names,
//! deprecated definitions).

use ctxkeep_map::map::{MapOptions, RepoMap};

mod common;
use common::{open, run, shown, tree};

/// A web framework in miniature: its public names are short (`url_for`,
/// `request`), its internals long and specific, and internal code calls the
/// internals far more than the public names.
/// The overview's score of `path`'s definition `name` (0 when the map does not show it).
fn score(map: &RepoMap, path: &str, name: &str) -> f64 {
    let file = map.files.iter().find(|f| f.path == path);
    file.and_then(|f| f.definitions.iter().find(|d| d.name == name)).map_or(0.0, |d| d.score)
}

const FRAMEWORK: &[(&str, &str)] = &[
    (
        "src/webkit/__init__.py",
        "from .app import App as App\nfrom .globals import _cv_app, request as request\nfrom .helpers import url_for as url_for\n",
    ),
    (
        "src/webkit/app.py",
        "from .debug import attach_enctype_error_multidict\nfrom .internal import resolve_blueprint_chain\n\nclass App:\n    def dispatch(self, req):\n        attach_enctype_error_multidict(req)\n        return resolve_blueprint_chain(self, req)\n\n    def handle(self, req):\n        attach_enctype_error_multidict(req)\n        return resolve_blueprint_chain(self, req)\n\n    def url_for(self, endpoint):\n        return endpoint\n",
    ),
    ("src/webkit/debug.py", "def attach_enctype_error_multidict(req):\n    return req\n"),
    (
        "src/webkit/internal.py",
        "from .debug import attach_enctype_error_multidict\n\ndef resolve_blueprint_chain(app, req):\n    attach_enctype_error_multidict(req)\n    return app\n",
    ),
    ("src/webkit/globals.py", "_cv_app = ContextVar(\"app\")\nrequest = LocalProxy(lambda: None)\n"),
    ("src/webkit/helpers.py", "def url_for(endpoint, **values):\n    return current_app.url_for(endpoint)\n"),
];

#[test]
fn the_overview_shows_the_packages_public_surface_first() {
    let dir = tree(FRAMEWORK);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let map = run(&mut ws, &MapOptions { tokens: 8192, ..MapOptions::default() });
    let order = in_order(&map);
    let order: Vec<&str> = order.iter().map(String::as_str).collect();
    // What `__init__.py` re-exports leads; the internals, however often called, follow.
    // The function it imports, not the method of the same name; no private name.
    let mut first: Vec<&str> = order[..3].to_vec();
    first.sort_unstable();
    let expected =
        ["src/webkit/app.py: App", "src/webkit/globals.py: request", "src/webkit/helpers.py: url_for"];
    assert_eq!(first, expected, "{order:?}\n{}", map.text);
    // The imported private name is not lifted with them: the internals they call come first.
    let after = |name: &str| order.iter().position(|n| n.ends_with(name));
    assert!(after("_cv_app") > after("resolve_blueprint_chain"), "{order:?}");
    // Only the overview: a task still decides what comes first.
    let asked = run(
        &mut ws,
        &MapOptions {
            tokens: 8192,
            query: Some("resolve_blueprint_chain loops".into()),
            ..MapOptions::default()
        },
    );
    assert_eq!(shown(&asked)[0], "src/webkit/internal.py: resolve_blueprint_chain", "{}", asked.text);
}

/// Its definitions in the overview's order, best first: `path: name`.
fn in_order(map: &RepoMap) -> Vec<String> {
    let mut by_score: Vec<(f64, String)> = map
        .files
        .iter()
        .flat_map(|f| f.definitions.iter().map(|d| (d.score, format!("{}: {}", f.path, d.name))))
        .collect();
    by_score.sort_by(|a, b| b.0.total_cmp(&a.0));
    by_score.into_iter().map(|(_, name)| name).collect()
}

#[test]
fn a_package_whose_entry_imports_nothing_shows_what_its_users_import_from_its_modules() {
    // starlette's `__init__.py` holds only its version: users write `from starlette.routing
    // import Route`, and its code calls its private helpers far more than anything else.
    let helpers =
        "def get_route_path(scope):\n    return scope\n\ndef is_async_callable(obj):\n    return obj\n";
    let routing = "from shop._utils import get_route_path, is_async_callable\n\n\
                   class BaseRoute:\n    def matches(self, scope):\n        return get_route_path(scope)\n\n\
                   class Route(BaseRoute):\n    def handle(self, scope):\n        return is_async_callable(get_route_path(scope))\n\n\
                   class Router:\n    def app(self, scope):\n        return is_async_callable(get_route_path(scope))\n";
    let app = "from shop._utils import get_route_path\nfrom shop.routing import Router\n\n\
               class Shop:\n    def __init__(self):\n        self.router = Router()\n\n\
               def build_middleware_stack(scope):\n    return get_route_path(scope)\n";
    let test = "from shop.applications import Shop\nfrom shop.routing import Route\n\n\
                def test_route():\n    Shop()\n    Route()\n\ndef test_mount():\n    Route()\n";
    let dir = tree(&[
        ("shop/__init__.py", "__version__ = \"0.47.3\"\n"),
        ("shop/_utils.py", helpers),
        ("shop/routing.py", routing),
        ("shop/applications.py", app),
        ("tests/test_routing.py", test),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let map = run(&mut open(dir.path(), cache.path()), &MapOptions { tokens: 8192, ..MapOptions::default() });
    let order = in_order(&map);
    let at = |name: &str| order.iter().position(|n| n.ends_with(name)).unwrap_or(usize::MAX);
    let first: Vec<&str> = order[..2].iter().map(String::as_str).collect();
    assert_eq!(first, ["shop/routing.py: Route", "shop/applications.py: Shop"], "{order:?}\n{}", map.text);
    assert!(at("get_route_path") > at("Router") && at("is_async_callable") > at("Router"), "{order:?}");
}

#[test]
fn the_overview_puts_a_private_method_after_the_public_ones_however_often_it_is_called() {
    let command = "export class Command {\n  _find(arg) {\n    return arg;\n  }\n  parse(a) {\n    \
                   return this._find(a) && this._find(a);\n  }\n  option(o) {\n    return this._find(o);\n  }\n  \
                   help() {\n    return this._find(1);\n  }\n}\n";
    let dir = tree(&[
        ("lib/command.js", command),
        ("index.js", "import { Command } from './lib/command.js';\nnew Command().parse([]);\n"),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let map = run(&mut ws, &MapOptions { tokens: 8192, ..MapOptions::default() });
    let file = map.files.iter().find(|f| f.path == "lib/command.js").unwrap();
    let score = |name: &str| file.definitions.iter().find(|d| d.name == name).map(|d| d.score).unwrap();
    assert!(score("_find") < score("parse"), "{:?}", file.definitions);
    assert!(score("_find") < score("help"), "{:?}", file.definitions);
}

/// A package whose old helper is marked deprecated: its code still calls it
/// more than its replacement, yet the map shows what replaces it first and
/// says which is deprecated.
const DEPRECATING: &[(&str, &str)] = &[
    ("package.json", "{\"name\": \"web\", \"main\": \"src/index.ts\"}\n"),
    (
        "src/headers.ts",
        "/** Reads a request header. */\nexport function getRequestHeader(event: Event, name: string): string {\n  return event.headers[name];\n}\n",
    ),
    (
        "src/deprecated.ts",
        "/**\n * @deprecated Please use `getRequestHeader`.\n */\nexport function getHeader(event: Event, name: string): string {\n  return event.headers[name];\n}\n",
    ),
    (
        "src/a.ts",
        "import { getHeader } from \"./deprecated\";\nexport function a(e: Event) { return getHeader(e, \"a\") + getHeader(e, \"b\"); }\n",
    ),
    (
        "src/b.ts",
        "import { getHeader } from \"./deprecated\";\nexport function b(e: Event) { return getHeader(e, \"c\"); }\n",
    ),
    (
        "src/c.ts",
        "import { getRequestHeader } from \"./headers\";\nexport function c(e: Event) { return getRequestHeader(e, \"d\"); }\n",
    ),
    (
        "src/d.ts",
        "import { getHeader } from \"./deprecated\";\nexport function d(e: Event) { return getHeader(e, \"e\"); }\n",
    ),
];

#[test]
fn a_deprecated_definition_says_so_and_follows_what_replaces_it() {
    let dir = tree(DEPRECATING);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let map = run(&mut ws, &MapOptions::default());
    let order = shown(&map);
    let at = |name: &str| {
        order.iter().position(|s| s.ends_with(name)).unwrap_or_else(|| panic!("{name}: {order:?}"))
    };
    assert!(at(": getRequestHeader") < at(": getHeader"), "{}", map.text);
    assert!(
        map.text.contains("export function getHeader(event: Event, name: string): string  // deprecated"),
        "{}",
        map.text
    );
    assert!(!map.text.contains("getRequestHeader(event: Event, name: string): string  //"), "{}", map.text);
    let json = serde_json::to_value(&map).unwrap();
    let defs: Vec<&serde_json::Value> =
        json["files"].as_array().unwrap().iter().flat_map(|f| f["definitions"].as_array().unwrap()).collect();
    let deprecated: Vec<&str> =
        defs.iter().filter(|d| d["deprecated"] == true).map(|d| d["name"].as_str().unwrap()).collect();
    assert_eq!(deprecated, ["getHeader"]);
}

#[test]
fn an_impl_in_the_entry_s_tests_does_not_hide_the_type_it_re_exports() {
    // indicatif's lib.rs: `pub use crate::progress_bar::ProgressBar`, and in its `mod tests`
    // `impl MustBeThreadSafe for ProgressBar {}`, which had kept ProgressBar off the surface.
    let lib = "mod bar;\nmod util;\npub use crate::bar::Bar;\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    \
               trait Safe {}\n    impl Safe for Bar {}\n}\n";
    let caller =
        |name: &str| format!("use crate::util::helper_fn;\npub fn {name}() {{\n    helper_fn();\n}}\n");
    let (a, b, c) = (caller("a"), caller("b"), caller("c"));
    let dir = tree(&[
        ("Cargo.toml", "[package]\nname = \"bars\"\n"),
        ("src/lib.rs", lib),
        ("src/bar.rs", "pub struct Bar;\nimpl Bar {\n    pub fn draw(&self) {}\n}\n"),
        ("src/util.rs", "pub(crate) fn helper_fn() {}\n"),
        ("src/a.rs", &a),
        ("src/b.rs", &b),
        ("src/c.rs", &c),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let map = run(&mut ws, &MapOptions { tokens: 8192, ..MapOptions::default() });
    assert_eq!(shown(&map)[0], "src/bar.rs: Bar", "{}", map.text);
}

#[test]
fn a_crate_s_exported_macros_lead_and_what_its_docs_hide_follows() {
    // tracing's `span!` and `info!` are its API, written in `macros.rs`; its
    // `#[doc(hidden)] pub mod macro_support` and a crate-local `macro_rules!` are not.
    let lib = |hidden: &str| {
        format!(
            "#[macro_use]\nmod macros;\nmod util;\npub use crate::util::Level;\n\n\
             {hidden}pub mod macro_support {{\n    pub fn callsite_helper() {{}}\n}}\n"
        )
    };
    let macros = "#[macro_export]\nmacro_rules! span {\n    () => {};\n}\n\n/// Logs.\n#[macro_export]\n\
                  macro_rules! info {\n    () => {};\n}\n\nmacro_rules! local_helper {\n    () => {};\n}\n";
    let user = |name: &str| {
        format!(
            "pub fn {name}() {{\n    crate::span!();\n    tracing::info!();\n    local_helper!();\n    \
             local_helper!();\n    crate::macro_support::callsite_helper();\n    \
             crate::macro_support::callsite_helper();\n}}\n"
        )
    };
    let (a, b) = (user("a"), user("b"));
    let overview = |lib: &str| {
        let dir = tree(&[
            ("Cargo.toml", "[package]\nname = \"tracing\"\n"),
            ("src/lib.rs", lib),
            ("src/macros.rs", macros),
            ("src/util.rs", "pub struct Level;\n"),
            ("src/a.rs", &a),
            ("src/b.rs", &b),
        ]);
        let cache = tempfile::tempdir().unwrap();
        let mut ws = open(dir.path(), cache.path());
        run(&mut ws, &MapOptions { tokens: 8192, ..MapOptions::default() })
    };
    let map = overview(&lib("#[doc(hidden)]\n"));
    for exported in ["span", "info"] {
        let exported = score(&map, "src/macros.rs", exported);
        for (path, other) in [
            ("src/macros.rs", "local_helper"),
            ("src/lib.rs", "macro_support"),
            ("src/lib.rs", "callsite_helper"),
        ] {
            assert!(exported > score(&map, path, other), "{other}: {}", map.text);
        }
    }
    assert!(map.text.contains("#[macro_export] macro_rules! span"), "{}", map.text);
    assert!(map.text.contains("#[doc(hidden)] pub mod macro_support"), "{}", map.text);
    // What a hidden module holds counts as a private name does.
    let shown = overview(&lib(""));
    let helper = |map| score(map, "src/lib.rs", "callsite_helper");
    assert!(helper(&map) < helper(&shown) / 2.0, "{} against {}", helper(&map), helper(&shown));
}

#[test]
fn a_method_every_class_of_a_file_overrides_counts_once() {
    // jinja's `nodes.py`: a dozen node classes each define `as_const`, which the
    // compiler calls everywhere; the overview learns the name once.
    let mut nodes =
        String::from("class Node:\n    def as_const(self, ctx=None):\n        raise Impossible()\n\n");
    for class in ["BinExpr", "UnaryExpr", "Const", "Tuple", "List", "Dict"] {
        nodes.push_str(&format!(
            "class {class}(Node):\n    def as_const(self, ctx=None):\n        return 1\n\n"
        ));
    }
    let compiler = "from pkg.nodes import Node, Const\n\ndef visit(node: Node):\n    node.as_const()\n    node.as_const(1)\n    \
                    return Const()\n\ndef compile_template(source):\n    return visit(source)\n";
    let dir = tree(&[
        ("pkg/nodes.py", nodes.as_str()),
        ("pkg/compiler.py", compiler),
        ("pkg/app.py", "from pkg.compiler import compile_template\ncompile_template('x')\n"),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let map = run(&mut ws, &MapOptions { tokens: 8192, ..MapOptions::default() });
    let file = map.files.iter().find(|f| f.path == "pkg/nodes.py").unwrap();
    let mut scores: Vec<f64> =
        file.definitions.iter().filter(|d| d.name == "as_const").map(|d| d.score).collect();
    scores.sort_by(|a, b| b.total_cmp(a));
    // Shown, all of them, at this budget; one at its own score, the others well after it.
    assert_eq!(scores.len(), 7, "{}", map.text);
    assert!(scores[1] < scores[0] / 4.0, "{scores:?}\n{}", map.text);
}

#[test]
fn a_setter_beside_its_getter_follows_it() {
    // koa's `response.js`: `get status` and `set status` share the name and its uses;
    // the getter's line tells a reader the name, the setter's one word more.
    let response = "module.exports = {\n  get status () {\n    return this.res.statusCode\n  },\n\n  \
                    set status (code) {\n    this.res.statusCode = code\n  }\n}\n";
    let dir = tree(&[
        ("lib/response.js", response),
        (
            "lib/application.js",
            "const response = require('./response')\nresponse.status = 404\nresponse.status\n",
        ),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let map = run(&mut ws, &MapOptions { tokens: 8192, ..MapOptions::default() });
    let file = map.files.iter().find(|f| f.path == "lib/response.js").unwrap();
    let score = |prefix: &str| {
        file.definitions.iter().find(|d| d.signature.starts_with(prefix)).map_or(0.0, |d| d.score)
    };
    assert!(score("set status") > 0.0, "{}", map.text);
    assert!(score("set status") < score("get status") / 4.0, "{}", map.text);
}

#[test]
fn an_alias_counts_as_a_second_name_not_a_second_thing() {
    // marshmallow's `Str = String`: the users' favourite spelling, the class's code.
    let uses = "from pkg.fields import Str, String\nStr()\nStr()\nStr()\nStr()\nisinstance(x, String)\n";
    let dir = tree(&[
        ("pkg/fields.py", "class String:\n    pass\n\nStr = String\n"),
        ("pkg/a.py", uses),
        ("pkg/b.py", uses),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let map = run(&mut ws, &MapOptions { tokens: 8192, ..MapOptions::default() });
    let fields = map.files.iter().find(|f| f.path == "pkg/fields.py").unwrap();
    let score = |name: &str| fields.definitions.iter().find(|d| d.name == name).map_or(0.0, |d| d.score);
    assert!(score("Str") < score("String"), "{}", map.text);
}

#[test]
fn a_rust_crate_s_own_business_follows_its_api() {
    // http's `pub(crate) struct ByteStr`, used throughout, led an overview of its API:
    // a crate-private function called thrice as often follows a public one.
    // So does a `pub fn` of a module the crate keeps private (reqwest's `mod util;` and its
    // `basic_auth`), unless the crate passes it on (`pub use`).
    let user = |name: &str| {
        format!(
            "use crate::bytes::byte_str;\nuse crate::uri::parse_uri;\nuse crate::util::{{basic_auth, exported, Hidden, Kept}};\n\
             pub fn {name}() {{\n    byte_str();\n    byte_str();\n    byte_str();\n    parse_uri();\n    \
             basic_auth();\n    basic_auth();\n    basic_auth();\n    exported();\n    exported();\n    exported();\n    \
             Kept::method();\n    Kept::method();\n    Hidden::other();\n    Hidden::other();\n}}\n"
        )
    };
    let (a, b, c) = (user("a"), user("b"), user("c"));
    let dir = tree(&[
        ("Cargo.toml", "[package]\nname = \"http\"\n"),
        (
            "src/lib.rs",
            "mod bytes;\npub mod uri;\nmod util;\nmod a;\nmod b;\nmod c;\npub use util::{exported, Kept};\n",
        ),
        ("src/bytes.rs", "pub(crate) fn byte_str() {}\n"),
        ("src/uri.rs", "pub fn parse_uri() {}\n"),
        (
            "src/util.rs",
            "pub fn basic_auth() {}\npub fn exported() {}\npub struct Kept;\nimpl Kept {\n    pub fn method() {}\n}\npub struct Hidden;\nimpl Hidden {\n    pub fn other() {}\n}\n",
        ),
        ("src/a.rs", &a),
        ("src/b.rs", &b),
        ("src/c.rs", &c),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let map = run(&mut ws, &MapOptions { tokens: 8192, ..MapOptions::default() });
    assert!(score(&map, "src/uri.rs", "parse_uri") > score(&map, "src/bytes.rs", "byte_str"), "{}", map.text);
    assert!(
        score(&map, "src/uri.rs", "parse_uri") > score(&map, "src/util.rs", "basic_auth"),
        "{}",
        map.text
    );
    assert!(
        score(&map, "src/util.rs", "exported") > score(&map, "src/util.rs", "basic_auth"),
        "{}",
        map.text
    );
    // A type it passes on brings its methods; one it keeps does not.
    assert!(score(&map, "src/util.rs", "method") > score(&map, "src/util.rs", "other"), "{}", map.text);
}

#[test]
fn what_a_javascript_module_keeps_to_itself_follows_what_it_exports() {
    // got's `const wrapQuickLruIfNeeded` (not exported) and the `set` of the object it
    // returns: every file calls some `.set(…)`, none can call the helper.
    let options = "const wrapCache = (value) => {\n  return {\n    get(key) {\n      return value.get(key)\n    },\n    \
                   set(key, cached) {\n      return value.set(key, cached)\n    },\n  }\n}\n\n\
                   export function mergeOptions(a, b) {\n  return wrapCache(Object.assign(a, b))\n}\n";
    let merge = "import { mergeOptions } from './options.js'\n\nexport const merged = mergeOptions({}, {})\n";
    let mut files: Vec<(String, String)> = (0..24)
        .map(|i| {
            (
                format!("src/user{i}.js"),
                format!("export function run{i}(store) {{\n{}}}\n", "  store.set(1)\n".repeat(6)),
            )
        })
        .collect();
    files.extend([("src/options.js".into(), options.into()), ("src/merge.js".into(), merge.into())]);
    let files: Vec<(&str, &str)> = files.iter().map(|(p, s)| (p.as_str(), s.as_str())).collect();
    let dir = tree(&files);
    let cache = tempfile::tempdir().unwrap();
    let map = run(&mut open(dir.path(), cache.path()), &MapOptions { tokens: 8192, ..MapOptions::default() });
    let merge = score(&map, "src/options.js", "mergeOptions");
    assert!(merge > 0.0, "{}", map.text);
    for hidden in ["set", "wrapCache"] {
        let hidden_score = score(&map, "src/options.js", hidden);
        assert!(hidden_score < merge, "{hidden}: {hidden_score} {merge}\n{}", map.text);
    }
}
