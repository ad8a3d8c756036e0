//! What outlines pick and how they order them.
//! Declared `#[cfg(test)] mod tests;` in `outline.rs`: compiled for tests only.

use super::*;
use crate::lang::Lang;

/// The outlines of all `files`, ranked without a focus.
fn outline_all(files: &[IndexedFile]) -> Vec<Outline> {
    let hashes = files.iter().map(|f| (f.path.clone(), [0; 32])).collect();
    outlines(files, &crate::graph::rank(files, &Focus::default()), &hashes, |_| true)
}

#[test]
fn a_stored_rank_keeps_three_significant_digits() {
    assert_eq!(significant(0.000123456), 0.000123);
    assert_eq!(significant(0.0456789), 0.0457);
    assert_eq!(significant(0.5), 0.5);
    assert_eq!(significant(0.0), 0.0);
    assert_eq!(significant(f64::NAN), 0.0);
    // A move in the fifth digit stores the same rank; one in the third does not.
    assert_eq!(significant(0.00123451), significant(0.00123449));
    assert!(significant(0.00124) > significant(0.00123));
}

fn names(outline: &Outline) -> Vec<&str> {
    outline.defs.iter().map(|d| d.name.as_str()).collect()
}

#[test]
fn a_setter_is_listed_beside_its_getter() {
    let source = "class Response {\n  get body () {\n    return this._body\n  }\n  set body (val) {\n    this._body = val\n  }\n}\nmodule.exports = Response\n";
    let files = [IndexedFile::parsed("lib/response.js", Lang::JavaScript, source)];
    let outline = &outline_all(&files)[0];
    let signatures: Vec<&str> = outline.defs.iter().map(|d| d.signature.as_str()).collect();
    assert!(signatures.contains(&"get body ()") && signatures.contains(&"set body (val)"), "{signatures:?}");
}

#[test]
fn a_member_is_in_its_type_or_its_trait_impl_as_written() {
    let source = "pub struct Url;\nimpl super::url::Url {\n    pub fn parse(s: &str) -> Url { Url }\n}\n\
                      impl IntoUrlSealed for Url {\n    fn as_str(&self) -> &str { \"\" }\n}\n\
                      impl<S> Resolve for S where S: Service<Name> {\n    fn resolve(&mut self) {}\n}\n";
    let files = [IndexedFile::parsed("src/into_url.rs", Lang::Rust, source)];
    let outline = &outline_all(&files)[0];
    let parent = |name: &str| outline.defs.iter().find(|d| d.name == name).unwrap().parent.clone();
    assert_eq!(parent("parse").as_deref(), Some("Url"));
    assert_eq!(parent("as_str").as_deref(), Some("impl IntoUrlSealed for Url"));
    assert_eq!(parent("resolve").as_deref(), Some("impl<S> Resolve for S"));
}

#[test]
fn a_name_imported_from_outside_the_repository_is_no_use_of_its_look_alike() {
    // httpie's `nested_json/tokens.py: class Path`, credited with every `from pathlib import Path`.
    let files = [
        IndexedFile::parsed("pkg/tokens.py", Lang::Python, "class Path:\n    pass\n"),
        IndexedFile::parsed("pkg/a.py", Lang::Python, "from pathlib import Path\nPath('x')\n"),
        IndexedFile::parsed("pkg/b.py", Lang::Python, "from pathlib import Path\nPath('y')\n"),
        IndexedFile::parsed("pkg/parse.py", Lang::Python, "from .tokens import Path\nPath()\n"),
    ];
    let outlines = outline_all(&files);
    let tokens = outlines.iter().find(|o| o.path == "pkg/tokens.py").unwrap();
    assert_eq!((tokens.defs[0].users, tokens.referenced_by), (1, 1), "{tokens:?}");
}

#[test]
fn an_alias_follows_what_it_names_however_used() {
    // marshmallow's fields.py: `Str = String` led the file's outline, `class Field` nowhere.
    let fields =
        "class Field:\n    pass\n\nclass String(Field):\n    pass\n\nStr = String\nMISSING = object()\n";
    let uses = "from fields import Str, MISSING\nStr()\nStr()\nx = MISSING\n";
    let files = [
        IndexedFile::parsed("pkg/fields.py", Lang::Python, fields),
        IndexedFile::parsed("pkg/a.py", Lang::Python, uses),
        IndexedFile::parsed("pkg/b.py", Lang::Python, uses),
    ];
    let outlines = outline_all(&files);
    let fields = outlines.iter().find(|o| o.path == "pkg/fields.py").unwrap();
    let names = names(fields);
    let at = |name: &str| names.iter().position(|n| *n == name).unwrap();
    assert!(at("Str") > at("String") && at("Str") > at("Field"), "{names:?}");
    // A constant of its own is no alias.
    assert!(at("MISSING") < at("Str"), "{names:?}");
}

#[test]
fn public_and_used_names_lead_and_no_tests_in_code() {
    let files = [
        IndexedFile::parsed(
            "src/pkg/core.rs",
            Lang::Rust,
            "fn helper() {}\npub fn alpha() {}\npub struct Pool;\nimpl Pool {\n    pub fn get(&self) {}\n}\n\
                 #[cfg(test)]\nmod tests {\n    #[test]\n    fn checks() {}\n}\n",
        ),
        IndexedFile::parsed(
            "src/pkg/app.py",
            Lang::Python,
            "import core\n__version__ = \"1.0\"\ndef test_x():\n    pass\ndef _hidden():\n    pass\nclass App:\n    def run(self,\n            x):\n        core.Pool()\n",
        ),
        IndexedFile::parsed("tests/test_app.py", Lang::Python, "def test_app():\n    App().run(1)\n"),
        // Not core.rs's private `helper`, which no other file can see.
        IndexedFile::parsed("src/pkg/other.rs", Lang::Rust, "pub fn other(x: X) {\n    x.helper();\n}\n"),
    ];
    let outlines = outline_all(&files);
    let by_path = |p: &str| outlines.iter().find(|o| o.path == p).unwrap();
    let core = by_path("src/pkg/core.rs");
    // Public first, Pool used elsewhere before them; private last; the test module and its function never.
    assert_eq!(names(core), ["Pool", "alpha", "get", "helper"]);
    assert_eq!(core.referenced_by, 1);
    assert_eq!(core.defs[2].parent.as_deref(), Some("Pool"));
    let app = by_path("src/pkg/app.py");
    // Its metadata (`__version__`) is no code of it.
    assert_eq!(names(app), ["App", "run", "_hidden"]);
    assert_eq!(app.defs[1].signature, "def run(self, x)");
    assert_eq!(app.defs[0].kind, "class");
    // In a test file, its tests are what it holds.
    assert_eq!(names(by_path("tests/test_app.py")), ["test_app"]);
    // A helper class the test classes each declare again is listed once.
    let repeated = "class MySchema:\n    pass\n\nclass TestDefaults:\n    class MySchema:\n        pass\n\n    \
                        def test_a(self):\n        pass\n\nclass TestLoad:\n    class MySchema:\n        pass\n";
    let files = [IndexedFile::parsed("tests/test_schema.py", Lang::Python, repeated)];
    let outline = &outline_all(&files)[0];
    assert_eq!(outline.defs.iter().filter(|d| d.name == "MySchema").count(), 1, "{:?}", names(outline));
}

#[test]
fn a_files_code_comes_before_the_constants_no_other_file_uses() {
    let errors = "STYLES = \"\"\"\np { color: red; }\n\"\"\"\nJS = \"\"\"\nfunction f() {}\n\"\"\"\n\
                      LIMIT = 10\n\nclass ServerErrorMiddleware:\n    def generate_html(self, exc):\n        \
                      return STYLES + JS\n\n    def error_response(self, request):\n        pass\n";
    let files = [
        IndexedFile::parsed("pkg/errors.py", Lang::Python, errors),
        IndexedFile::parsed(
            "pkg/app.py",
            Lang::Python,
            "from pkg.errors import ServerErrorMiddleware, LIMIT\nServerErrorMiddleware()\nLIMIT\n",
        ),
    ];
    let outlines = outline_all(&files);
    let errors = outlines.iter().find(|o| o.path == "pkg/errors.py").unwrap();
    // A constant another file uses is as good as code; those nobody else uses come last.
    assert_eq!(
        names(errors),
        ["ServerErrorMiddleware", "LIMIT", "generate_html", "error_response", "STYLES", "JS"]
    );
}

#[test]
fn a_class_comes_just_before_the_first_of_its_members_shown() {
    // uvicorn's workers.py: other files call `callback_notify`, none names `UvicornWorker`.
    let workers = "class UvicornWorker(Worker):\n    def callback_notify(self):\n        pass\n\n    \
                       def run(self):\n        pass\n\ndef helper():\n    pass\n";
    let files = [
        IndexedFile::parsed("pkg/workers.py", Lang::Python, workers),
        IndexedFile::parsed("pkg/a.py", Lang::Python, "def a(w):\n    w.callback_notify()\n    helper()\n"),
        IndexedFile::parsed("pkg/b.py", Lang::Python, "def b(w):\n    w.callback_notify()\n"),
    ];
    let outlines = outline_all(&files);
    let workers = outlines.iter().find(|o| o.path == "pkg/workers.py").unwrap();
    let names = names(workers);
    let at = |name: &str| names.iter().position(|n| *n == name).unwrap();
    assert_eq!(at("UvicornWorker") + 1, at("callback_notify"), "{names:?}");
    assert!(at("callback_notify") < at("run"), "{names:?}");
}

#[test]
fn a_deprecated_definition_follows_and_says_so() {
    let helpers = "import warnings

def get_header(name):
    warnings.warn(\"use get_request_header\", \
                       DeprecationWarning, stacklevel=2)
    return name

def get_request_header(name):
    return name
";
    let files = [
        IndexedFile::parsed("pkg/helpers.py", Lang::Python, helpers),
        IndexedFile::parsed(
            "pkg/a.py",
            Lang::Python,
            "from pkg.helpers import get_header
get_header(1)
",
        ),
        IndexedFile::parsed(
            "pkg/b.py",
            Lang::Python,
            "from pkg.helpers import get_header
get_header(2)
",
        ),
    ];
    let outlines = outline_all(&files);
    let helpers = outlines.iter().find(|o| o.path == "pkg/helpers.py").unwrap();
    // Used by two files, yet after what replaces it, which nobody uses yet.
    assert_eq!(names(helpers), ["get_request_header", "get_header"]);
    assert_eq!(helpers.defs[1].signature, "def get_header(name)  # deprecated");
    assert_eq!(helpers.defs[0].signature, "def get_request_header(name)");
}

#[test]
fn a_long_constant_no_other_file_uses_is_data_and_comes_after_private_code() {
    let svg: String = (0..12).map(|i| format!("<path d=\"M{i}\"/>\n")).collect();
    let text = format!(
        "ICON_NOTE = \"\"\"<svg>\n{svg}</svg>\"\"\"\nLIMIT = 10\n\n\
             class Admonition:\n    def render(self):\n        return _icon() + ICON_NOTE\n\n\
             def _icon():\n    return LIMIT\n"
    );
    let files = [IndexedFile::parsed("pkg/admonitions.py", Lang::Python, &text)];
    let outlines = outline_all(&files);
    // A public name, yet data: after the private helper; a one-line constant stays where it was.
    assert_eq!(names(&outlines[0]), ["Admonition", "render", "LIMIT", "_icon", "ICON_NOTE"]);
    // A file's bytes embedded in one line are data too.
    let rust = "pub static ELASTICLUNR_JS: &[u8] = include_bytes!(\"elasticlunr.min.js\");\n\
                    pub const MAX: usize = 3;\nfn build_index() -> usize { MAX }\n";
    let outlines = outline_all(&[IndexedFile::parsed("src/search.rs", Lang::Rust, rust)]);
    assert_eq!(names(&outlines[0]), ["MAX", "build_index", "ELASTICLUNR_JS"]);
}

#[test]
fn an_es_module_s_own_names_are_private_and_used_by_no_other_file() {
    let files = [
        IndexedFile::parsed(
            "src/context.ts",
            Lang::TypeScript,
            "interface Set<E> { x: E }\nexport type Data = string\n\
                 @sealed\nexport class Context<E> {\n  get(key: string) {}\n  private hidden() {}\n}\n\
                 class Helper {}\nfunction log() {}\nexport { Helper }\n",
        ),
        IndexedFile::parsed(
            "src/hono.ts",
            Lang::TypeScript,
            "import { Context } from './context'\nexport class Hono { c = new Context() }\n",
        ),
        // Builtins by the same names: none of context.ts's, which keeps them to itself.
        IndexedFile::parsed(
            "src/utils.ts",
            Lang::TypeScript,
            "export const s = new Set()\nexport function f() { console.log(s); return [1].some(Boolean) }\n",
        ),
        IndexedFile::parsed("src/combine.ts", Lang::TypeScript, "export function some() {}\n"),
        IndexedFile::parsed(
            "src/legacy.js",
            Lang::JavaScript,
            "function helper() {}\nmodule.exports = { helper }\n",
        ),
        IndexedFile::parsed("src/types.ts", Lang::TypeScript, "class Thing {}\nexport default Thing\n"),
        // Three more `Context`s: too many to say whose a use is, but for the one named for it.
        IndexedFile::parsed(
            "src/router/node.ts",
            Lang::TypeScript,
            "export interface Context { i: number }\n",
        ),
        IndexedFile::parsed("src/jsx/render.ts", Lang::TypeScript, "export type Context = string\n"),
        IndexedFile::parsed(
            "src/helper/state.ts",
            Lang::TypeScript,
            "export interface Context { s: string }\n",
        ),
    ];
    let outlines = outline_all(&files);
    let by_path = |p: &str| outlines.iter().find(|o| o.path == p).unwrap();
    let context = by_path("src/context.ts");
    // Exported first, the one another file uses leading; then what the module keeps to
    // itself (its `Set`, a builtin's name, after `log`: a use of `Set` is mostly the builtin's).
    assert_eq!(names(context), ["Context", "Data", "Helper", "get", "log", "Set", "hidden"]);
    assert_eq!(context.referenced_by, 1, "only hono.ts, not utils.ts's `Set` or `console.log`");
    assert_eq!(by_path("src/router/node.ts").referenced_by, 0);
    assert_eq!(by_path("src/combine.ts").referenced_by, 0, "`[1].some()` calls no exported `some`");
    // A CommonJS module's face is what `module.exports` names.
    assert_eq!(names(by_path("src/legacy.js")), ["helper"]);
    assert_eq!(names(by_path("src/types.ts")), ["Thing"]);
}

#[test]
fn a_file_s_own_items_come_before_what_it_implements_of_traits() {
    let files = [
        IndexedFile::parsed(
            "src/routing/not_found.rs",
            Lang::Rust,
            "pub(super) struct NotFound;\n\
                 impl<B> Service<Request<B>> for NotFound {\n    type Response = Response;\n    type Error = Infallible;\n    \
                 fn call(&mut self, req: Request<B>) -> Self::Future { todo!() }\n}\n\
                 impl fmt::Debug for NotFound {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) }\n}\n\
                 pub(super) struct Gone;\n\
                 impl fmt::Debug for Gone {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) }\n}\n\
                 impl Gone {\n    pub(super) fn at(&self) -> u64 { 0 }\n}\n",
        ),
        IndexedFile::parsed("src/response.rs", Lang::Rust, "pub struct Response;\n"),
        // Uses of the trait items' names: of the traits', not of this file's.
        IndexedFile::parsed(
            "src/app.rs",
            Lang::Rust,
            "pub fn app(r: Response) -> Response {\n    r.call();\n    r.fmt(f);\n    r\n}\n",
        ),
    ];
    let outlines = outline_all(&files);
    let outline = outlines.iter().find(|o| o.path == "src/routing/not_found.rs").unwrap();
    // The types and their own method first; a trait's method once however many types
    // implement it; associated types never.
    assert_eq!(names(outline), ["NotFound", "Gone", "at", "call", "fmt"]);
}

#[test]
fn a_type_s_members_leave_a_top_level_namesake_its_uses_and_its_entry() {
    // serde_json's shape: `enum Value` beside visitors' `type Value = …;`, and `fn
    // from_str` after `impl FromStr`'s `fn from_str`.
    let visitor = |i: usize| {
        let source = format!(
            "struct V{i};\nimpl<'de> Visitor<'de> for V{i} {{\n    type Value = u8;\n    \
                 fn visit_u8(self, v: u8) -> u8 {{ v }}\n}}\n"
        );
        IndexedFile::parsed(&format!("src/de_{i}.rs"), Lang::Rust, &source)
    };
    let mut files: Vec<IndexedFile> = (0..4).map(visitor).collect();
    files.push(IndexedFile::parsed(
        "src/types.rs",
        Lang::Rust,
        "pub enum Value { Null }\npub fn helper_one() {}\npub fn helper_two() {}\n\
             impl FromStr for Value {\n    fn from_str(s: &str) -> Value { Value::Null }\n}\n\
             pub fn from_str(s: &str) -> Value { Value::Null }\n",
    ));
    let user =
        "fn user(v: Value) -> Value {\n    helper_one();\n    helper_two();\n    from_str(\"null\")\n}\n";
    files.extend((0..2).map(|i| IndexedFile::parsed(&format!("src/user_{i}.rs"), Lang::Rust, user)));
    let outlines = outline_all(&files);
    let outline = outlines.iter().find(|o| o.path == "src/types.rs").unwrap();
    let users = |name: &str, parent: Option<&str>| {
        let def = outline.defs.iter().find(|d| d.name == name && d.parent.as_deref() == parent);
        def.map(|d| d.users)
    };
    assert_eq!(users("Value", None), Some(2), "{:?}", outline.defs);
    assert_eq!(users("from_str", None), Some(2), "{:?}", outline.defs);
}

#[test]
fn a_module_named_by_its_folder_is_where_its_namesake_is_looked_for() {
    // minijinja's `value/mod.rs`: `Value` is also a name four other crates define.
    let mut files: Vec<IndexedFile> = (0..4)
        .map(|i| IndexedFile::parsed(&format!("crate_{i}/src/lib.rs"), Lang::Rust, "pub struct Value;\n"))
        .collect();
    let module = "pub struct Value(pub(crate) u8);\nimpl Value {\n    pub fn kind_of(&self) {}\n}\n\
                      pub(crate) struct SmallStr;\nimpl SmallStr {\n    pub fn small_len(&self) {}\n}\n";
    files.push(IndexedFile::parsed("src/value/mod.rs", Lang::Rust, module));
    let user = "fn f(v: Value, s: SmallStr) { s.small_len(); }\n";
    files.push(IndexedFile::parsed("src/use.rs", Lang::Rust, user));
    files.push(IndexedFile::parsed("src/more.rs", Lang::Rust, user));
    files.push(IndexedFile::parsed("src/other.rs", Lang::Rust, "fn g(v: Value) { v.kind_of(); }\n"));
    let outlines = outline_all(&files);
    let outline = outlines.iter().find(|o| o.path == "src/value/mod.rs").unwrap();
    let value = outline.defs.iter().find(|d| d.name == "Value").unwrap();
    assert_eq!(value.users, 3, "{:?}", outline.defs);
    // A crate-private type's `pub fn` is no more public than the type: after the
    // public type's, though more files call it.
    let at = |name: &str| names(outline).iter().position(|n| *n == name).unwrap();
    assert!(at("kind_of") < at("small_len"), "{:?}", outline.defs);
}

#[test]
fn among_used_names_the_one_more_files_use_leads_however_short() {
    let user =
        |i: usize, calls: &str| IndexedFile::parsed(&format!("src/pkg/view_{i}.py"), Lang::Python, calls);
    let files = [
        IndexedFile::parsed(
            "src/pkg/helpers.py",
            Lang::Python,
            "def get_flashed_messages_for(category):\n    pass\n\ndef url_for(endpoint):\n    pass\n",
        ),
        IndexedFile::parsed("src/pkg/other.py", Lang::Python, "def render_other_template(name):\n    pass\n"),
        // Each file's rank goes mostly to the long, specific names it calls (×10).
        user(0, "get_flashed_messages_for('x')\nurl_for('a')\n"),
        user(1, "render_other_template('y')\nurl_for('b')\n"),
        user(2, "render_other_template('z')\nurl_for('c')\n"),
    ];
    let hashes = files.iter().map(|f| (f.path.clone(), [0; 32])).collect();
    let ranking = crate::graph::rank(&files, &Focus::default());
    // The graph scores the long, specific name higher ...
    assert!(ranking.def_rank[0][0] > ranking.def_rank[0][1], "{:?}", ranking.def_rank[0]);
    // ... the outline shows first what more of the code uses.
    let outlines = outlines(&files, &ranking, &hashes, |_| true);
    assert_eq!(names(&outlines[0]), ["url_for", "get_flashed_messages_for"]);
}

#[test]
fn signatures_on_one_line() {
    assert_eq!(
        one_line(
            "def add_url_rule(\n    self,\n    rule: str,\n    endpoint: str | None = None,\n) -> None:"
        ),
        "def add_url_rule(self, rule: str, endpoint: str | None = None) -> None"
    );
    assert_eq!(one_line("pub fn get<T>(\n    &self,\n) -> T {"), "pub fn get<T>(&self) -> T");
    assert_eq!(one_line("TYPES = (\"text/event-stream\",)"), "TYPES = (\"text/event-stream\",)");
    assert_eq!(one_line("pub fn sign() {}"), "pub fn sign()");
    // An empty value is what it holds, not a body (marshmallow's `_registry = {}`).
    assert_eq!(one_line("_registry = {}"), "_registry = {}");
    assert_eq!(one_line("def get(self) -> int: ..."), "def get(self) -> int");
    let long = format!("fn f({})", "a: u8, ".repeat(40));
    assert!(one_line(&long).ends_with(" …") && one_line(&long).chars().count() <= MAX_SIGNATURE_CHARS + 2);
}

#[test]
fn what_the_package_s_users_call_on_a_type_it_exports_leads_its_file() {
    // reqwest's `Response`: the tests call `text`, a name four other types define
    // (so no use here can say whose it is); the crate's own code calls
    // `extensions_mut`, the `http` types' method of that name.
    let rust = |path: &str, source: &str| IndexedFile::parsed(path, Lang::Rust, source);
    let mut files = vec![
        rust("src/lib.rs", "pub use self::response::Response;\n"),
        rust(
            "src/response.rs",
            "pub struct Response;\nimpl Response {\n    pub fn extensions_mut(&mut self) {}\n    pub fn text(&self) {}\n}\n",
        ),
        rust("src/connect.rs", "fn a(r: Response) {\n    r.extensions_mut();\n}\n"),
        rust("src/redirect.rs", "fn b(r: Response) {\n    r.extensions_mut();\n}\n"),
        rust("tests/client.rs", "fn t(r: Response) {\n    r.text();\n}\n"),
        rust("tests/blocking.rs", "fn t(r: Response) {\n    r.text();\n}\n"),
    ];
    for part in ["form", "part", "multipart", "body"] {
        files.push(rust(
            &format!("src/{part}.rs"),
            "pub struct Part;\nimpl Part {\n    pub fn text(self) {}\n}\n",
        ));
    }
    let outline = outline_all(&files).into_iter().find(|o| o.path == "src/response.rs").unwrap();
    let at = |name: &str| names(&outline).iter().position(|&n| n == name).unwrap();
    assert!(at("text") < at("extensions_mut"), "{:?}", names(&outline));
}

#[test]
fn a_method_named_as_an_everyday_type_s_counts_no_users_from_its_calls() {
    // koa's `request.js`: `get (field)` reads a header; the tests' supertest chains call
    // `.get('/')` and their maps `.get(key)`, none of them this `get`.
    let js = |path: &str, source: &str| IndexedFile::parsed(path, Lang::JavaScript, source);
    let mut files = vec![js(
        "lib/request.js",
        "module.exports = {\n  get (field) {\n    return this.header[field]\n  },\n  \
         accepts (...args) {\n    return this.accept.types(...args)\n  }\n}\n",
    )];
    for test in 0..4 {
        let source = "const request = require('supertest')\nrequest(app).get('/')\ncache.get('x')\ncache.set('x', 1)\n";
        files.push(js(&format!("test/t{test}.js"), source));
    }
    files.push(js("lib/context.js", "function delegate (ctx) {\n  return ctx.request.accepts('json')\n}\n"));
    // immer's `arrayTraps.set = function`, a property's function.
    files.push(js("lib/traps.js", "arrayTraps.set = function (state, prop) {\n  return state\n}\narrayTraps.deleteProperty = function (s) {\n  return s.x\n}\nexports.arrayTraps = arrayTraps\n"));
    files.push(js("lib/use.js", "const { arrayTraps } = require('./traps')\narrayTraps.deleteProperty(1)\n"));
    let traps = outline_all(&files).into_iter().find(|o| o.path == "lib/traps.js").unwrap();
    assert_eq!(names(&traps)[..2], ["deleteProperty", "set"]);
    let outline = outline_all(&files).into_iter().find(|o| o.path == "lib/request.js").unwrap();
    assert_eq!(names(&outline), ["accepts", "get"]);
}

#[test]
fn a_module_written_twice_under_exclusive_cfgs_lists_its_items_once() {
    // bytes' `loom.rs`: `mod sync { pub(crate) mod atomic { … } }` for std and again for loom.
    let one = "    pub(crate) mod atomic {\n        pub(crate) trait AtomicMut<T> {}\n    }\n";
    let source = format!(
        "#[cfg(not(loom))]\npub(crate) mod sync {{\n{one}}}\n#[cfg(loom)]\npub(crate) mod sync {{\n{one}}}\n"
    );
    let files = [IndexedFile::parsed("src/loom.rs", Lang::Rust, &source)];
    let outline = &outline_all(&files)[0];
    assert_eq!(names(outline), ["sync", "atomic", "AtomicMut"]);
}

#[test]
fn an_entry_file_s_own_items_more_files_use_lead_what_it_passes_on() {
    // rayon's `iter/mod.rs`: `ParallelIterator`, which every adaptor implements, beside
    // the `pub use`s of the adaptors; an entry file of re-exports alone leads with them.
    let rust = |path: &str, source: &str| IndexedFile::parsed(path, Lang::Rust, source);
    let mut files = vec![rust(
        "src/iter/mod.rs",
        "mod map;\nmod once;\npub use self::once::{once, Once};\npub use self::map::Map;\n\
         pub trait ParallelIterator: Sized {\n    fn drive(self);\n}\n",
    )];
    files.push(rust("src/iter/once.rs", "pub struct Once;\npub fn once() -> Once { Once }\n"));
    let adaptor = "pub struct A;\nimpl super::ParallelIterator for A {\n    fn drive(self) {}\n}\n";
    for name in ["map", "filter", "chain", "zip"] {
        files.push(rust(&format!("src/iter/{name}.rs"), adaptor));
    }
    files.push(rust("src/lib.rs", "pub mod iter;\nfn f() { iter::once(); }\n"));
    let outlines = outline_all(&files);
    let of = |path: &str| outlines.iter().find(|o| o.path == path).unwrap();
    let kinds: Vec<&str> = of("src/iter/mod.rs").defs.iter().map(|d| d.kind.as_str()).collect();
    assert_eq!(kinds.first(), Some(&"trait"), "{:?}", names(of("src/iter/mod.rs")));
    assert!(kinds.contains(&"reexport"), "{kinds:?}");
    // tenacity's `__init__.py`: its own `Retrying`, `retry` and `RetryError`, which no
    // other file uses, before the lines that pass on what its modules define.
    let python = |path: &str, source: &str| IndexedFile::parsed(path, Lang::Python, source);
    let mut files = vec![python(
        "tenacity/__init__.py",
        "from .stop import stop_after_attempt, stop_never\nfrom .wait import wait_fixed\n\n\
         class RetryError(Exception):\n    pass\n\nclass Retrying:\n    def __call__(self, fn):\n        return fn()\n\n\
         def retry(*args):\n    return Retrying()\n\ndef _first_set(a, b):\n    return a or b\n",
    )];
    files.push(python(
        "tenacity/stop.py",
        "def stop_after_attempt(n):\n    pass\n\ndef stop_never():\n    pass\n",
    ));
    files.push(python("tenacity/wait.py", "def wait_fixed(n):\n    pass\n"));
    for test in ["a", "b"] {
        let source =
            "from tenacity import stop_after_attempt, wait_fixed\nstop_after_attempt(3)\nwait_fixed(1)\n";
        files.push(python(&format!("tests/test_{test}.py"), source));
    }
    let outlines = outline_all(&files);
    let init: Vec<(&str, &str)> = outlines
        .iter()
        .find(|o| o.path == "tenacity/__init__.py")
        .unwrap()
        .defs
        .iter()
        .map(|d| (d.kind.as_str(), d.name.as_str()))
        .collect();
    let first_reexport = init.iter().position(|(kind, _)| *kind == "reexport").expect("its imports");
    for own in ["RetryError", "Retrying", "retry"] {
        let at = init.iter().position(|(_, name)| *name == own).unwrap_or(usize::MAX);
        assert!(at < first_reexport, "{own}: {init:?}");
    }
}

#[test]
fn a_public_class_s_constructor_is_used_wherever_the_class_is() {
    // tenacity's `BaseRetrying.__init__(sleep, stop, wait, …)`: nothing names it, and it
    // says what the class is made with; a method one file calls comes after it.
    let python = |path: &str, source: &str| IndexedFile::parsed(path, Lang::Python, source);
    let mut files = vec![python(
        "pkg/client.py",
        "class Client:\n    def __init__(self, base_url, timeout=5):\n        self.base_url = base_url\n\n    \
         def close(self):\n        pass\n\n    def reset(self):\n        pass\n",
    )];
    for user in ["a", "b", "c"] {
        files.push(python(&format!("pkg/{user}.py"), "from .client import Client\nClient('x')\n"));
    }
    files.push(python("pkg/d.py", "from .client import Client\ndef f(c):\n    c.close()\n"));
    let outlines = outline_all(&files);
    let client = outlines.iter().find(|o| o.path == "pkg/client.py").unwrap();
    assert_eq!(names(client)[..3], ["Client", "__init__", "close"], "{:?}", names(client));
}

#[test]
fn a_family_of_constants_is_one_entry_naming_the_others() {
    // arrow's formatter.py: eleven `FORMAT_*` took the outline's room from `DateTimeFormatter`.
    let mut source: String = (0..14).map(|i| format!("FORMAT_R{i}: str = \"ddd {i}\"\n")).collect();
    source.push_str("\nclass DateTimeFormatter:\n    def format(self, dt):\n        return FORMAT_R3\n");
    let users = "from formatter import FORMAT_R2, FORMAT_R5, DateTimeFormatter\n";
    let files = [
        IndexedFile::parsed("pkg/formatter.py", Lang::Python, &source),
        IndexedFile::parsed("pkg/user.py", Lang::Python, users),
    ];
    let outline = &outline_all(&files)[0];
    let family: Vec<&OutlineDef> = outline.defs.iter().filter(|d| d.name.starts_with("FORMAT_")).collect();
    assert_eq!(family.len(), 1, "{:?}", names(outline));
    // Every member but the one shown whole, in their order, then how many more.
    assert_eq!(family[0].also.len(), FAMILY_NAMES + 1);
    assert_eq!(family[0].also.last().map(String::as_str), Some("… (+1)"));
    assert!(names(outline).contains(&"DateTimeFormatter"), "{:?}", names(outline));
    // Three of a family stay three entries.
    let few = "LEVEL_A = 1\nLEVEL_B = 2\nLEVEL_C = 3\n";
    let outline = &outline_all(&[IndexedFile::parsed("pkg/levels.py", Lang::Python, few)])[0];
    assert_eq!(names(outline), ["LEVEL_A", "LEVEL_B", "LEVEL_C"]);
    assert!(outline.defs.iter().all(|d| d.also.is_empty()));
}
