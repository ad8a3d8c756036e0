//! What extraction yields for each language's shapes.
//! Declared `#[cfg(test)] mod tests;` in `tags.rs`: compiled for tests only.

use super::*;
use crate::lang::Lang;

fn defs(lang: Lang, source: &str) -> Vec<(String, Kind, u32, Option<u32>)> {
    extract(lang, source)
        .unwrap()
        .defs
        .into_iter()
        .map(|d| (d.name.into(), d.kind, d.line, d.parent))
        .collect()
}

#[test]
fn an_imported_name_remembers_the_module_it_comes_from() {
    let from = |lang: Lang, source: &str| -> Vec<(String, Option<String>)> {
        extract(lang, source).unwrap().refs.into_iter().map(|r| (r.name.into(), r.from)).collect()
    };
    let some = |name: &str, from: &str| (name.to_string(), Some(from.to_string()));
    let python =
        "from uvicorn.server import Server\nfrom .config import Config as C\nimport os\nServer(C())\n";
    let found = from(Lang::Python, python);
    assert!(
        found.contains(&some("Server", "uvicorn.server")) && found.contains(&some("Config", ".config")),
        "{found:?}"
    );
    assert!(found.iter().any(|(n, f)| n == "os" && f.is_none()), "{found:?}");
    let ts = "import { H3, serve } from \"./h3\";\nimport Router from '../router';\nnew H3(); serve(); Router();\n";
    let found = from(Lang::TypeScript, ts);
    assert!(found.contains(&some("H3", "./h3")) && found.contains(&some("Router", "../router")), "{found:?}");
    let rust = "use crate::server::{Server, state::State};\nuse super::config::Config;\nuse serde;\n\
                fn f(s: Server, t: State, c: Config) {}\n";
    let found = from(Lang::Rust, rust);
    assert!(found.contains(&some("Server", "crate::server")), "{found:?}");
    assert!(found.contains(&some("State", "crate::server::state")), "{found:?}");
    assert!(found.contains(&some("Config", "super::config")), "{found:?}");
}

#[test]
fn a_class_field_holding_a_function_is_a_method() {
    let ts = "export class Context {\n  #status = 200\n  json: JSONRespond = (object: unknown, init?: number) => {\n    \
              return this.#newResponse(object)\n  }\n  text = (text: string): Response => this.#newResponse(text)\n  \
              #newResponse = (data: Data) => {\n    return new Response(data)\n  }\n}\n";
    let js = "class Context {\n  json = (object, init) => {\n    return object\n  }\n  #status = 200\n}\n";
    for (lang, source, methods) in
        [(Lang::TypeScript, ts, &["json", "text", "#newResponse"][..]), (Lang::JavaScript, js, &["json"][..])]
    {
        let tags = extract(lang, source).unwrap();
        let found: Vec<(&str, Kind, Option<u32>)> =
            tags.defs.iter().map(|d| (d.name.as_str(), d.kind, d.parent)).collect();
        let expected: Vec<(&str, Kind, Option<u32>)> = std::iter::once(("Context", Kind::Class, None))
            .chain(methods.iter().map(|&m| (m, Kind::Method, Some(0))))
            .collect();
        assert_eq!(found, expected, "{lang:?}");
        if lang == Lang::TypeScript {
            let signature = |d: usize| tags.defs[d].signature.as_str();
            assert_eq!(signature(1), "json: JSONRespond = (object: unknown, init?: number) =>");
            assert_eq!(signature(2), "text = (text: string): Response =>");
        }
    }
}

#[test]
fn a_method_use_naming_its_type_remembers_the_type() {
    let owners = |lang: Lang, source: &str, name: &str| -> Vec<(String, u32)> {
        let tags = extract(lang, source).unwrap();
        tags.refs
            .into_iter()
            .find(|r| r.name == name)
            .map(|r| r.owners.into_iter().map(|(o, n)| (o.into(), n)).collect())
            .unwrap_or_default()
    };
    let rust = "fn f() {
ProgressBar::new(1);
crate::bar::ProgressBar::new(2);
Bar::<u8>::new();
                    Self::new();
x.new();
<T as Default>::new();
std::mem::new();
}
";
    assert_eq!(owners(Lang::Rust, rust, "new"), [("Bar".to_string(), 1), ("ProgressBar".to_string(), 2)]);
    let python = "def f():
Path.home()
path.home()
os.path.home()
";
    assert_eq!(owners(Lang::Python, python, "home"), [("Path".to_string(), 1)]);
    // JavaScript's may be an object's (`React.f()`): the graph links it to a class's
    // method only where the repository has that class.
    let js = "import AxiosError from './AxiosError.js';\nAxiosHeaders.from(x);\nheaders.from(y);\n\
              AxiosError.from(e);\nJSON.parse(z);\n";
    assert_eq!(
        owners(Lang::JavaScript, js, "from"),
        [("AxiosError".to_string(), 1), ("AxiosHeaders".to_string(), 1)]
    );
    assert_eq!(owners(Lang::JavaScript, js, "parse"), []);
}

#[test]
fn a_named_function_expression_is_defined_and_holds_its_inner_functions() {
    let js = "export default isSupported && function httpAdapter(config) {\n  function done() {}\n}\n";
    let found = defs(Lang::JavaScript, js);
    assert_eq!(
        found,
        [("httpAdapter".into(), Kind::Function, 1, None), ("done".into(), Kind::Function, 2, Some(0))]
    );
}

#[test]
fn what_an_anonymous_callback_defines_is_its_own_but_a_module_wrapper_s_is_the_file_s() {
    let source = "utils.reduce(proto, ({value}, key) => {\n  return { get: () => value, set(v) { this[key] = v; } };\n});\n\
                  describe('x', () => {\n  const setup = () => 1;\n  function helper() {}\n});\n\
                  utils.inherits(E, Error, { toJSON: function toJSON() { return {}; } });\n\
                  (function () {\n  function wrapped() {}\n})();\n\
                  export default { getAdapter: (names) => names };\n\
                  const outer = () => { const inner = () => 2; };\n\
                  const predicates = utils.toFlatObject(utils, {}, null, function filter(prop) {\n  return prop;\n});\n";
    let mut got: Vec<String> = defs(Lang::JavaScript, source).into_iter().map(|d| d.0).collect();
    got.dedup(); // `toJSON: function toJSON()` defines it as a key and as the function's name
    // A named function passed as an argument (`filter`) is the call's: nothing calls it by name.
    assert_eq!(got, ["toJSON", "wrapped", "getAdapter", "outer", "inner", "predicates"]);
    let typescript = "app.get('/', async (c: Context) => { const body = () => 1; return body(); });\nexport const f = (n: number) => n;\n";
    let got: Vec<String> = defs(Lang::TypeScript, typescript).into_iter().map(|d| d.0).collect();
    assert_eq!(got, ["f"]);
}

#[test]
fn python_multi_line_signatures_and_methods() {
    let source = "class Loop(Base):\n    def run(self,\n            until=None):\n        return helper()\n\nLIMIT = 10\n";
    let tags = extract(Lang::Python, source).unwrap();
    assert_eq!(
        defs(Lang::Python, source),
        [
            ("Loop".into(), Kind::Class, 1, None),
            ("run".into(), Kind::Method, 2, Some(0)),
            ("LIMIT".into(), Kind::Constant, 6, None),
        ]
    );
    assert_eq!(tags.defs[1].signature, "def run(self, until=None):");
    assert!(tags.refs.iter().any(|r| r.name == "Base"));
    assert!(tags.refs.iter().any(|r| r.name == "helper"));
}

#[test]
fn python_type_aliases_are_types_and_data_stays_constant() {
    let source = "Scope = MutableMapping[str, Any]\nHandler = t.Callable[[Request], Awaitable[None]]\n\
                  Pair = tuple[int, int]\nPath: TypeAlias = \"str | bytes\"\ntype Json = dict[str, Json]\n\
                  FIRST = ITEMS[0]\ntimeout = config[\"timeout\"]\nLIMIT: int = 10\n";
    let got: Vec<(String, Kind)> = defs(Lang::Python, source).into_iter().map(|d| (d.0, d.1)).collect();
    let want = [
        ("Scope", Kind::Type),
        ("Handler", Kind::Type),
        ("Pair", Kind::Type),
        ("Path", Kind::Type),
        ("Json", Kind::Type),
        ("FIRST", Kind::Constant),
        ("timeout", Kind::Constant),
        ("LIMIT", Kind::Constant),
    ];
    assert_eq!(got, want.map(|(name, kind)| (name.to_string(), kind)));
    let tags = extract(Lang::Python, source).unwrap();
    assert_eq!(tags.defs[0].signature, "Scope = MutableMapping[str, Any]");
    assert_eq!(tags.defs[4].signature, "type Json = dict[str, Json]");
}

#[test]
fn rust_methods_sit_in_their_impl() {
    let source = "pub struct Pool;\nimpl Pool {\n    pub fn get(&self) -> Conn {\n        make()\n    }\n}\nfn make() -> Conn { Conn }\n";
    let tags = extract(Lang::Rust, source).unwrap();
    let got: Vec<_> = tags.defs.iter().map(|d| (d.name.as_str(), d.kind, d.parent)).collect();
    assert_eq!(
        got,
        [
            ("Pool", Kind::Struct, None),
            ("Pool", Kind::Impl, None),
            ("get", Kind::Method, Some(1)),
            ("make", Kind::Function, None)
        ]
    );
    assert_eq!(tags.defs[2].signature, "pub fn get(&self) -> Conn");
    assert!(tags.refs.iter().any(|r| r.name == "make" && r.count == 1), "{:?}", tags.refs);
    assert!(tags.refs.iter().any(|r| r.name == "Conn"));
    // The struct's own name is not a use of it; the impl's type is.
    assert_eq!(tags.refs.iter().find(|r| r.name == "Pool").map(|r| r.count), Some(1));
}

/// Per name: (uses, bare, on a value).
fn uses(lang: Lang, source: &str) -> Vec<(String, u32, u32, u32)> {
    extract(lang, source)
        .unwrap()
        .refs
        .into_iter()
        .map(|r| (r.name.into(), r.count, r.bare, r.method))
        .collect()
}

#[test]
fn what_a_call_is_made_on_says_whether_it_can_mean_a_method() {
    let python = "import os.path\nimport numpy as np\nimport flask\nfrom flask import json\n\n\
                  class A(flask.Flask):\n    def f(self):\n        os.path.join('a')\n        np.norm(1)\n\
                  \x20       flask.url_for('x')\n        json.dumps(1)\n        Path.home()\n\
                  \x20       Outer.Inner()\n        app.run()\n        self.go()\n";
    let got = uses(Lang::Python, python);
    let of = |name: &str| got.iter().find(|u| u.0 == name).map(|u| (u.1, u.2, u.3));
    // On a module: bare. `json` may be an object `from flask import` gives: either.
    for name in ["join", "norm", "url_for", "Flask"] {
        assert_eq!(of(name), Some((1, 1, 0)), "{name}: {got:?}");
    }
    assert_eq!(of("home"), Some((1, 0, 1)), "a class's function is a method");
    for name in ["dumps", "Inner", "run"] {
        assert_eq!(of(name), Some((1, 0, 0)), "{name}: {got:?}");
    }
    // What is imported is a use; the module it comes from names a file, no definition.
    let got = uses(Lang::Python, "from rich.console import Console\n");
    assert_eq!(got.iter().map(|u| u.0.as_str()).collect::<Vec<_>>(), ["Console"], "{got:?}");

    let rust = "fn f() {\n    crate::util::make();\n    Self::new();\n    Vec::<u8>::with_capacity(1);\n\
                \x20   <T as Default>::default();\n    Kind::Variant(1);\n    it.next();\n    io::<u8>::read();\n}\n";
    let got = uses(Lang::Rust, rust);
    let of = |name: &str| got.iter().find(|u| u.0 == name).map(|u| (u.1, u.2, u.3));
    assert_eq!(of("make"), Some((1, 1, 0)), "{got:?}");
    assert_eq!(of("read"), Some((1, 1, 0)), "{got:?}");
    for name in ["new", "with_capacity", "default", "next"] {
        assert_eq!(of(name), Some((1, 0, 1)), "{name}: {got:?}");
    }
    assert_eq!(of("Variant"), Some((1, 0, 0)), "{got:?}");

    let js = "import * as path from 'path';\nconst fs = require('fs');\nimport React from 'react';\n\
              path.join('a');\nfs.readFileSync('b');\nReact.createElement('c');\nthis.go();\nnew path.Sep();\n";
    let got = uses(Lang::TypeScript, js);
    let of = |name: &str| got.iter().find(|u| u.0 == name).map(|u| (u.1, u.2, u.3));
    for name in ["join", "readFileSync", "Sep"] {
        assert_eq!(of(name), Some((1, 1, 0)), "{name}: {got:?}");
    }
    assert_eq!(of("createElement"), Some((1, 0, 0)), "a default import may be an object: {got:?}");
    assert_eq!(of("go"), Some((1, 0, 1)), "{got:?}");
}

#[test]
fn what_a_file_requires_from_another_module_it_does_not_define() {
    let js = "const FindMyWay = require('find-my-way');\nconst { kA } = require('./symbols');\n\
              const toString = require('util').toString;\nconst LIMIT = computeLimit(3);\n\
              const load = (m) => require(m);\nfunction route() { const Inner = require('x'); }\n\
              const hasOwn = Object.prototype.hasOwnProperty;\nconst kHooks = symbols.kHooks;\n\
              const first = list[0].name;\n";
    for lang in [Lang::JavaScript, Lang::TypeScript] {
        let defs = extract(lang, js).unwrap().defs;
        let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["LIMIT", "load", "route", "first"], "{lang:?}");
    }
    // What it requires it still uses: `FindMyWay()` is a use of the module's export.
    let tags =
        extract(Lang::JavaScript, "const FindMyWay = require('find-my-way');\nFindMyWay();\n").unwrap();
    assert!(tags.refs.iter().any(|r| r.name == "FindMyWay"), "{:?}", tags.refs);
}

#[test]
fn a_property_descriptor_s_accessors_are_named_for_their_property() {
    let js = "Object.defineProperties(Reply.prototype, {\n  server: {\n    get () {\n      return this.s\n    }\n  },\n\
              \x20 [kRouteContext]: {\n    get () { return 2 }\n  },\n\
              \x20 'statusCode': {\n    get () { return 1 },\n    set (value) { this.code(value) }\n  }\n})\n\
              class Cache {\n  get size () { return 0 }\n}\n\
              for (const prop of props) {\n  Object.defineProperty(URL.prototype, prop, {\n    get() { return 1 },\n    \
              set(value) {},\n  })\n}\n";
    let defs = extract(Lang::JavaScript, js).unwrap().defs;
    let shown: Vec<(&str, &str)> = defs.iter().map(|d| (d.name.as_str(), d.signature.as_str())).collect();
    assert_eq!(
        shown,
        [
            ("server", "get server ()"),
            ("kRouteContext", "get [kRouteContext] ()"),
            ("statusCode", "get statusCode ()"),
            ("statusCode", "set statusCode (value)"),
            ("Cache", "class Cache"),
            ("size", "get size ()"),
            // A property named at run time: its accessors define nothing to look up.
        ]
    );
}

#[test]
fn a_python_module_s_demo_under_its_main_guard_defines_nothing() {
    let py = "class RichRenderable:\n    pass\n\nif __name__ == \"__main__\":\n    class Foo:\n        pass\n\n\
              \x20   def divide():\n        pass\n\nif __name__ == '__main__' and DEBUG:\n    def kept():\n        pass\n";
    let names: Vec<String> =
        extract(Lang::Python, py).unwrap().defs.into_iter().map(|d| d.name.into()).collect();
    assert_eq!(names, ["RichRenderable", "kept"]);
}

#[test]
fn syntax_errors_still_yield_what_parses() {
    let tags = extract(Lang::Python, "def good():\n    pass\n\ndef broken(:\n").unwrap();
    assert!(tags.syntax_errors);
    assert!(tags.defs.iter().any(|d| d.name == "good"));
}

#[test]
fn a_use_passed_on_is_counted_as_exported() {
    let exported = |lang: Lang, source: &str| -> Vec<(String, u32)> {
        let refs = extract(lang, source).unwrap().refs.into_iter();
        refs.filter(|r| r.exported > 0).map(|r| (r.name.into(), r.exported)).collect()
    };
    let rust = "pub use self::into_response::IntoResponse;\npub(crate) use self::sealed::Sealed;\n\
                use a::{B, C};\npub use x::{Y, z::W};\nfn f(r: IntoResponse) {}\n";
    let names = [("IntoResponse".to_string(), 1), ("W".into(), 1), ("Y".into(), 1)];
    assert_eq!(exported(Lang::Rust, rust), names);
    let ts = "import { a } from './a';\nexport { b } from './b';\nconst c = 1;\nexport { c };\n";
    assert_eq!(exported(Lang::TypeScript, ts), [("b".to_string(), 1), ("c".into(), 1)]);
    // A re-export says where from, as an import does; a local name's export does not.
    let from =
        |name: &str| extract(Lang::TypeScript, ts).unwrap().refs.into_iter().find(|r| r.name == name)?.from;
    assert_eq!(from("b").as_deref(), Some("./b"));
    assert_eq!(from("c"), None);
}

#[test]
fn a_generic_s_type_parameter_is_no_use_of_a_type_of_that_name() {
    // pino.d.ts names a parameter `CustomLevels` thirty times; a test's `type
    // CustomLevels` took those uses and ranked second of the repository.
    let uses = |lang: Lang, source: &str, name: &str| {
        extract(lang, source).unwrap().refs.iter().find(|r| r.name == name).map_or(0, |r| r.count)
    };
    let ts = "export interface Logger<CustomLevels extends string = never> {\n  \
              child<ChildCustomLevels extends string>(o: ChildOptions<ChildCustomLevels>): Logger<CustomLevels | ChildCustomLevels>\n  \
              level: CustomLevels\n}\nexport type Levels = CustomLevels\n\
              function pick<const K extends Key>(k: K): K { return k }\n";
    // Only the use outside the interface that takes it.
    assert_eq!(uses(Lang::TypeScript, ts, "CustomLevels"), 1);
    assert_eq!(uses(Lang::TypeScript, ts, "ChildCustomLevels"), 0);
    assert_eq!(uses(Lang::TypeScript, ts, "K"), 0);
    assert_eq!(uses(Lang::TypeScript, ts, "ChildOptions"), 1);
    assert_eq!(uses(Lang::TypeScript, ts, "Logger"), 1);
    let rust = "pub struct Wrapper<Inner: Clone> { inner: Inner }\n\
                impl<Inner: Clone> Wrapper<Inner> {\n    fn get(&self) -> Inner { self.inner.clone() }\n}\n\
                fn f<T, const N: usize>(x: T) -> Option<T> { None }\nfn g(i: Inner) {}\n";
    assert_eq!(uses(Lang::Rust, rust, "Inner"), 1);
    assert_eq!(uses(Lang::Rust, rust, "T"), 0);
    assert_eq!(uses(Lang::Rust, rust, "Wrapper"), 1);
}

#[test]
fn rust_says_who_sees_an_item_on_its_line_and_a_path_s_macro_is_a_use() {
    let source = "/// Makes a span.\n#[macro_export]\nmacro_rules! span {\n    () => {};\n}\n\
                  macro_rules! local {\n    () => {};\n}\n#[doc(hidden)]\npub mod __private {}\n\
                  #[doc(hidden)]\n#[macro_export]\nmacro_rules! callsite {\n    () => {};\n}\n\
                  #[test]\nfn checks() { tracing::info!(); span!(); }\n";
    let tags = extract(Lang::Rust, source).unwrap();
    let def = |name: &str| tags.defs.iter().find(|d| d.name == name).unwrap();
    assert_eq!(def("span").signature, "#[macro_export] macro_rules! span");
    assert!(def("span").is_rust_public() && !def("span").is_test_by_attribute());
    assert!(!def("local").is_rust_public());
    assert_eq!(def("__private").signature, "#[doc(hidden)] pub mod __private");
    assert!(def("__private").is_doc_hidden() && !def("__private").is_rust_public());
    assert_eq!(def("callsite").signature, "#[macro_export] #[doc(hidden)] macro_rules! callsite");
    assert!(def("callsite").is_doc_hidden() && !def("callsite").is_rust_public());
    assert!(def("checks").is_test_by_attribute());
    let uses = |name: &str| tags.refs.iter().find(|r| r.name == name).map_or(0, |r| r.count);
    assert_eq!((uses("info"), uses("span")), (1, 1));
}

#[test]
fn a_factory_s_functions_it_hands_out_are_methods_of_what_it_makes() {
    // pino's `multistream()`: `add`, `remove` and `clone` are its API; `inner` its own business.
    let js = "function multistream (streams, opts) {\n  const res = { write, add, remove: remove }\n  \
              function write (data) { inner() }\n  function add (dest) { return res }\n  \
              function remove (id) { return res }\n  function inner () {}\n  return res\n}\n\
              module.exports = multistream\n";
    let defs = extract(Lang::JavaScript, js).unwrap().defs;
    let def = |name: &str| defs.iter().find(|d| d.name == name).unwrap();
    for handed_out in ["write", "add", "remove"] {
        assert_eq!(def(handed_out).kind, Kind::Method, "{handed_out}");
        assert!(!def(handed_out).is_local(&defs), "{handed_out}");
    }
    assert_eq!(def("inner").kind, Kind::Function);
    assert!(def("inner").is_local(&defs));
}

#[test]
fn an_exported_alias_is_the_module_s_own_name_and_an_unexported_one_is_not() {
    // immer's `produce`, what its users import; fastify's `const toString =
    // Object.prototype.toString`, whose uses are `Object`'s; a name another module exports.
    let source = "const immer = new Immer()\nexport const produce: IProduce = /* @__PURE__ */ immer.produce\n\
                  const toString = Object.prototype.toString\nexport const f = require('m').f\n";
    let names: Vec<String> = defs(Lang::TypeScript, source).into_iter().map(|d| d.0).collect();
    assert_eq!(names, ["immer", "produce"]);
}

#[test]
fn a_module_s_default_export_and_the_modules_names_are_required_from() {
    use crate::tags::DefaultExport::{Module, Name};
    let cases: [(&str, Option<crate::tags::DefaultExport>); 8] = [
        (
            "function createApplication() {}\nexports = module.exports = createApplication;\n",
            Some(Name("createApplication".into())),
        ),
        ("module.exports = class Application extends Emitter {}\n", Some(Name("Application".into()))),
        ("'use strict'\nmodule.exports = require('./lib/express');\n", Some(Module("./lib/express".into()))),
        ("export default function handler() {}\n", Some(Name("handler".into()))),
        ("class Hono {}\nexport default Hono\n", Some(Name("Hono".into()))),
        ("export { default } from './client'\n", Some(Module("./client".into()))),
        ("module.exports = { a, b }\nexport const c = 1\n", None),
        ("module.exports.a = a\nexports.b = b\n", None),
    ];
    for (source, expected) in cases {
        for lang in [Lang::JavaScript, Lang::TypeScript] {
            assert_eq!(extract(lang, source).unwrap().default_export, expected, "{lang:?}: {source}");
        }
    }
    assert_eq!(extract(Lang::Python, "x = 1\n").unwrap().default_export, None);
    let tags = extract(Lang::JavaScript, "var express = require('../');\nvar app = express();\n").unwrap();
    let r = tags.refs.iter().find(|r| r.name == "express").unwrap();
    assert_eq!(r.from.as_deref(), Some("../"));
    assert!(r.default_import);
    // A default import is the module's default export; a named one is not.
    let tags = extract(Lang::TypeScript, "import Koa from '..'\nimport { get } from './get'\nnew Koa(get)\n")
        .unwrap();
    let whole: Vec<(&str, bool)> =
        tags.refs.iter().filter(|r| r.from.is_some()).map(|r| (r.name.as_str(), r.default_import)).collect();
    assert_eq!(whole, [("Koa", true), ("get", false)]);
    // What it passes on whole; not a namespace, one name.
    let ts = "export * from './vanilla.ts'\nexport * as utils from './utils'\nexport { a } from './a'\n\
              export * from \"./react\"\n";
    assert_eq!(extract(Lang::TypeScript, ts).unwrap().reexports_all, ["./vanilla.ts", "./react"]);
}

#[test]
fn a_function_or_constant_cast_to_its_type_is_a_definition() {
    let ts = "export const createStore = ((createState) =>\n  createState ? impl(createState) : impl) as CreateStore\n\
              const create = (<T>(s: T) => s) satisfies Create\n\
              const got: Got = ((url: string): GotReturn => request(url)) as Got\n\
              export const DEFAULTS = { a: 1 } as const\nconst names = ['a'] as const\n\
              function f() { const local = (() => 1) as F }\n";
    let tags = extract(Lang::TypeScript, ts).unwrap();
    let shown: Vec<(&str, Kind)> = tags.defs.iter().map(|d| (d.name.as_str(), d.kind)).collect();
    assert_eq!(
        shown,
        [
            ("createStore", Kind::Function),
            ("create", Kind::Function),
            ("got", Kind::Function),
            ("DEFAULTS", Kind::Constant),
            ("names", Kind::Constant),
            ("f", Kind::Function),
            ("local", Kind::Function),
        ]
    );
    // As the typed constants they are, without their bodies.
    let signatures: Vec<&str> = tags.defs.iter().map(|d| d.signature.as_str()).collect();
    assert_eq!(
        signatures[..3],
        [
            "export const createStore: CreateStore = (createState) =>",
            "const create: Create = <T>(s: T) =>",
            // Its type said once where the constant says it.
            "const got: Got = (url: string): GotReturn =>"
        ]
    );
    assert_eq!(signatures[3], "export const DEFAULTS = { a: 1 } as const");
    // Cast twice (swr's middleware and the hook made of it).
    let swr = "const mutation = (<Data>() => (key: Key) => key) as unknown as Middleware
               const useSWRMutation = withMiddleware(useSWR, mutation) as unknown as SWRMutationHook
";
    let tags = extract(Lang::TypeScript, swr).unwrap();
    let shown: Vec<(&str, Kind, &str)> =
        tags.defs.iter().map(|d| (d.name.as_str(), d.kind, d.signature.as_str())).collect();
    assert_eq!(shown[0], ("mutation", Kind::Function, "const mutation: Middleware = <Data>() =>"));
    assert_eq!(shown[1].0, "useSWRMutation");
    assert_eq!(shown[1].1, Kind::Constant);
}

#[test]
fn an_object_type_written_in_an_annotation_defines_no_members() {
    let ts = "const hasEntries = (value: { entries(): Iterable<T> }): value is { keys(): K } => true\n\
              function f(o: { g(): void }): { h(): void } { return o }\n\
              interface Api { subscribe(listener: (s: { inner(): void }) => void): void }\n\
              type Shape = { area(): number }\nclass C { m(): void {} }\n";
    let defs = extract(Lang::TypeScript, ts).unwrap().defs;
    let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["hasEntries", "f", "Api", "subscribe", "Shape", "area", "C", "m"]);
}

#[test]
fn a_rust_glob_reexport_is_a_whole_module_passed_on() {
    let source = "pub use crate::{builders::string::*, regex::string::*};\npub use self::types::*;\n\
                  use super::private::*;\npub(crate) use crate::inner::*;\npub use Color::*;\n";
    let tags = extract(Lang::Rust, source).unwrap();
    assert_eq!(
        tags.reexports_all,
        ["crate::builders::string", "crate::regex::string", "self::types", "Color"]
    );
}

#[test]
fn what_a_deprecated_type_holds_is_deprecated_with_it() {
    // chrono's `Date`, its methods in an impl of their own.
    let source = "#[deprecated(since = \"0.4.23\")]\n#[derive(Clone)]\npub struct Date<Tz> {\n    d: u8,\n}\n\n\
                  #[allow(deprecated)]\nimpl<Tz: TimeZone> Date<Tz> {\n    pub fn naive_utc(&self) {}\n}\n\n\
                  pub struct DateTime;\nimpl DateTime {\n    pub fn date(&self) {}\n}\n";
    let tags = extract(Lang::Rust, source).unwrap();
    let deprecated = |name: &str| tags.defs.iter().find(|d| d.name == name).unwrap().deprecated;
    assert!(deprecated("Date") && deprecated("naive_utc"));
    assert!(!deprecated("DateTime") && !deprecated("date"));
    let python = "@deprecated(\"Use New\")\nclass Old:\n    def run(self):\n        pass\n\n\
                  class New:\n    def run(self):\n        pass\n";
    let tags = extract(Lang::Python, python).unwrap();
    let runs: Vec<bool> = tags.defs.iter().filter(|d| d.name == "run").map(|d| d.deprecated).collect();
    assert_eq!(runs, [true, false]);
}

#[test]
fn a_pub_use_inside_a_private_or_hidden_module_passes_nothing_on() {
    // rand's `distr/mod.rs`: `IntoFloat` is the hidden module's, not `distr`'s.
    let source = "pub use self::uniform::Uniform;\n#[doc(hidden)]\npub mod hidden_export {\n    \
                  pub use super::float::IntoFloat;\n}\nmod private {\n    pub use super::x::Inner;\n}\n\
                  pub mod prelude {\n    pub use crate::Shown;\n}\n";
    let tags = extract(Lang::Rust, source).unwrap();
    let exported = |name: &str| tags.refs.iter().find(|r| r.name == name).map_or(0, |r| r.exported);
    assert_eq!(
        [exported("Uniform"), exported("IntoFloat"), exported("Inner"), exported("Shown")],
        [1, 0, 0, 1]
    );
}
