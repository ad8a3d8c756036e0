//! What a JavaScript or TypeScript module lets other files use.
//!
//! A module (a file that requires, imports or exports anything)
//! keeps its top-level declarations to itself unless it exports them: ES
//! `export function f`, `export { g }`, `export default h`, and CommonJS
//! `module.exports = f`, `module.exports = { a, b: c }`, `exports.a = a`,
//! `exports.a = function`. Another file's use of such a name is of some
//! other definition (fastify's `integration/server.js` declares its own
//! `const fastify = Fastify()`, which no file can use). A script that
//! requires and exports nothing shares its top-level names with every
//! other script, and declaration files (`index.d.ts`) declare for everyone:
//! neither is a module here. What a module hangs on an object
//! (`Reply.prototype.send = function`, `app.render = function`) is reached
//! through that object, never hidden.

use rustc_hash::FxHashSet as HashSet;

use crate::index::IndexedFile;
use crate::tags::Def;

/// How a top-level declaration that a module may keep to itself starts.
const DECLARATIONS: &[&str] = &[
    "function ",
    "function* ",
    "async function ",
    "const ",
    "let ",
    "var ",
    "class ",
    "abstract class ",
    "interface ",
    "type ",
    "enum ",
    "namespace ",
    "declare ",
    // A decorated class (`@Injectable() class C`).
    "@",
];

/// A JavaScript or TypeScript module's exported names.
pub(crate) struct JsModule<'f> {
    exported: HashSet<&'f str>,
}

impl<'f> JsModule<'f> {
    /// `file`'s exports, when it is a module (see the module's docs); `None`
    /// for a script, a declaration file or another language's file.
    pub(crate) fn of(file: &'f IndexedFile) -> Option<JsModule<'f>> {
        let javascript = matches!(file.lang.as_str(), "javascript" | "typescript" | "tsx" | "jsx");
        if !javascript || is_declaration_file(&file.path) {
            return None;
        }
        let tags = &file.tags;
        let exported: HashSet<&str> = tags
            .refs
            .iter()
            .filter(|r| r.exported > 0)
            .map(|r| r.name.as_str())
            .chain(
                tags.defs
                    .iter()
                    .filter(|d| d.parent.is_none() && exported_where_declared(d))
                    .map(|d| d.name.as_str()),
            )
            .collect();
        // `require(…)`, `import … from`: the query tags both as uses of those names.
        let imports = tags.refs.iter().any(|r| (r.name == "require" || r.name == "import") && r.bare > 0);
        (imports || !exported.is_empty()).then_some(JsModule { exported })
    }

    /// Whether `def` is a top-level declaration (`function route()`, `const
    /// fastify = Fastify()`, `class Cache`) this module does not export.
    pub(crate) fn hides(&self, def: &Def) -> bool {
        def.parent.is_none() && is_declaration(def) && !self.exported.contains(def.name.as_str())
    }
}

/// A TypeScript declaration file: `index.d.ts`, `types.d.mts`, `index.d.cts`.
pub(crate) fn is_declaration_file(path: &str) -> bool {
    [".d.ts", ".d.mts", ".d.cts"].iter().any(|ext| path.ends_with(ext))
}

/// Whether the file at `path` of `files` (sorted by path) declares types of
/// code beside it: a TypeScript declaration file, or a Python stub of a module
/// of `files` (loguru's `__init__.pyi`, which repeats `_logger.py`'s `Logger`
/// with types). A stub of a compiled module (`_speedups.pyi` beside its `.c`)
/// is all Python says of that code.
pub(crate) fn declares_types_of_code(files: &[IndexedFile], path: &str) -> bool {
    let stub_of = |module: &str| files.binary_search_by(|f| f.path.as_str().cmp(module)).is_ok();
    is_declaration_file(path) || path.strip_suffix(".pyi").is_some_and(|stem| stub_of(&format!("{stem}.py")))
}

/// Whether a task's words say it is about type declarations ("fix(types):
/// export CJS types"): then they rank and show with the code they declare.
pub(crate) fn about_types<'w>(mut words: impl Iterator<Item = &'w str>) -> bool {
    const WORDS: [&str; 9] =
        ["types", "typings", "typescript", "declaration", "declarations", "dts", "stub", "stubs", "pyi"];
    words.any(|word| WORDS.iter().any(|w| word.eq_ignore_ascii_case(w)))
}

/// The `.d.ts` a CommonJS or ES module declaration file twins (`index.d.cts`
/// → `index.d.ts`): packages ship both with the same declarations, and the
/// twin, if the `.d.ts` is there, says nothing the other does not.
pub(crate) fn declaration_twin_of(path: &str) -> Option<String> {
    let stem = path.strip_suffix(".d.cts").or_else(|| path.strip_suffix(".d.mts"))?;
    Some(format!("{stem}.d.ts"))
}

/// Whether `def` is declared as a name of its own (`function f`, `export
/// const c`), not hung on an object (`app.render = function`): only such a
/// name is used bare (`f()`, `import { f }`, `m.f()` on the module).
pub(crate) fn is_declaration(def: &Def) -> bool {
    let signature = def.signature.trim_start();
    exported_where_declared(def) || DECLARATIONS.iter().any(|d| signature.starts_with(d))
}

/// `export function f`, `@Injectable() export class C`, `exports.f = function`,
/// `module.exports = function f`.
fn exported_where_declared(def: &Def) -> bool {
    let s = def.signature.trim_start();
    s.starts_with("export ")
        || (s.starts_with('@') && s.contains(" export "))
        || s.starts_with("exports.")
        || s.starts_with("module.exports")
}

/// One line by which a file passes on names another module defines: Python's
/// `from .schema import Schema, SchemaOpts` in a package's `__init__.py`,
/// Rust's `pub use self::routing::Router`, `export { get } from './get'`.
#[derive(Debug, PartialEq)]
pub(crate) struct Reexport<'f> {
    /// The module, as written (`None`: a Rust crate passed on whole, `pub use
    /// serde_json;`, or a JavaScript name exported where it was imported).
    pub from: Option<&'f str>,
    /// The names, sorted.
    pub names: Vec<&'f str>,
    /// Of those, the ones passed on under another name, with it (`ssrSafe`,
    /// `unstable_ssrSafe`).
    pub renamed: Vec<(&'f str, &'f str)>,
    /// JavaScript: the module's default export passed on as the file's own
    /// (swr's `import useSWR from './use-swr'; export default useSWR`), its one name
    /// the one the file binds it to.
    pub default: bool,
}

/// What `file` passes on of other modules, by module (sorted): the public
/// surface its readers reach through it. A Python package's `__init__.py`
/// passes on what it imports from the package itself (not `typing`, nor
/// `_private` names); other languages say so (`pub use`, `export … from`).
/// A name the file defines is its own, not passed on.
pub(crate) fn reexports(file: &IndexedFile) -> Vec<Reexport<'_>> {
    // The module's default export, bound whole and exported as the file's default.
    let default_name = match &file.tags.default_export {
        Some(crate::tags::DefaultExport::Name(name)) => Some(name.as_str()),
        _ => None,
    };
    let is_default = |r: &crate::tags::Ref| r.default_import && default_name == Some(r.name.as_str());
    let own: HashSet<&str> =
        file.tags.defs.iter().filter(|d| d.parent.is_none()).map(|d| d.name.as_str()).collect();
    let (folders, name) = file.path.rsplit_once('/').unwrap_or(("", &file.path));
    let python_package = file.lang == "python" && name == "__init__.py";
    // `from . import fields`, `from .schema import …`, `from marshmallow.schema import …`.
    let in_package = |module: &str| {
        module.starts_with('.') || folders.split('/').any(|folder| module.split('.').next() == Some(folder))
    };
    let mut by_module: Vec<(Option<&str>, bool, &str, Option<&str>)> = file
        .tags
        .refs
        .iter()
        .filter(|r| !own.contains(r.name.as_str()) && r.name != "default")
        .filter(|r| match python_package {
            true => !r.name.starts_with('_') && r.from.as_deref().is_some_and(in_package),
            false => {
                r.exported > 0 && file.lang != "python" && !r.from.as_deref().is_some_and(is_rust_standard)
            }
        })
        .map(|r| (r.from.as_deref(), is_default(r), r.name.as_str(), r.alias.as_deref()))
        .collect();
    by_module.sort_unstable();
    let mut out: Vec<Reexport> = Vec::new();
    for (from, default, name, alias) in by_module {
        if out.last().is_none_or(|last| last.from != from || last.default != default) {
            out.push(Reexport { from, names: Vec::new(), renamed: Vec::new(), default });
        }
        if let Some(last) = out.last_mut() {
            last.names.push(name);
            last.renamed.extend(alias.map(|alias| (name, alias)));
        }
    }
    out
}

/// A path into Rust's standard library (`core::option`): what a macro's
/// support module passes on (tracing's `pub use core::option::Option;`) is
/// no surface of the crate.
fn is_rust_standard(from: &str) -> bool {
    matches!(from.split("::").next(), Some("core" | "std" | "alloc"))
}

impl Reexport<'_> {
    /// The line in `lang`'s syntax, with `names` (some of [`Reexport::names`],
    /// in the order to show) and `more` left unnamed.
    pub(crate) fn line(&self, lang: &str, names: &[&str], more: usize) -> String {
        let shown = |name: &&str| match self.renamed.iter().find(|(n, _)| n == name) {
            Some((_, alias)) => format!("{name} as {alias}"),
            None => name.to_string(),
        };
        let mut list = names.iter().map(shown).collect::<Vec<_>>().join(", ");
        if more > 0 {
            list.push_str(&format!(", … (+{more})"));
        }
        let many = names.len() + more > 1;
        match (lang, self.from) {
            (_, Some(from)) if self.default => format!("export {{ default }} from '{from}'  // {list}"),
            ("python", from) => format!("from {} import {list}", from.unwrap_or(".")),
            ("rust", Some(from)) if many => format!("pub use {from}::{{{list}}};"),
            ("rust", Some(from)) => format!("pub use {from}::{list};"),
            ("rust", None) => format!("pub use {list};"),
            (_, Some(from)) => format!("export {{ {list} }} from '{from}'"),
            (_, None) => format!("export {{ {list} }}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    fn hidden(path: &str, lang: Lang, source: &str) -> Vec<String> {
        let file = IndexedFile::parsed(path, lang, source);
        let Some(module) = JsModule::of(&file) else { return Vec::new() };
        file.tags.defs.iter().filter(|d| module.hides(d)).map(|d| d.name.to_string()).collect()
    }

    #[test]
    fn a_module_hides_the_top_level_names_it_does_not_export() {
        // CommonJS: what `module.exports` and `exports.x` name is used elsewhere.
        let cjs = "const Fastify = require('./fastify')\nfunction build () {}\nfunction helper () {}\n\
                   const kept = () => 1\nexports.extra = function extra () {}\nmodule.exports = { build, alias: kept }\n\
                   Reply.prototype.send = function (payload) {}\n";
        assert_eq!(hidden("lib/route.js", Lang::JavaScript, cjs), ["helper"]);
        // A script that requires something is a module too: its names are its own.
        let script = "const Fastify = require('..')\nconst fastify = Fastify()\nfastify.listen()\n";
        assert_eq!(hidden("integration/server.js", Lang::JavaScript, script), ["fastify"]);
        let script = "import _axios from '../index.js'\nconst axios = _axios.create({})\naxios.get('/')\n";
        assert_eq!(hidden("bin/sponsors.js", Lang::JavaScript, script), ["axios"]);
        // ES: `export` where declared, or in a list.
        let es = "export function one () {}\nfunction two () {}\nfunction three () {}\nexport { two }\n\
                  export default class Four {}\ninterface Five { x: number }\n";
        assert_eq!(hidden("src/index.ts", Lang::TypeScript, es), ["three", "Five"]);
        // A class or function expression assigned to `module.exports` is exported (koa's
        // `module.exports = class Application extends Emitter`).
        let koa = "const Emitter = require('events')\nfunction helper () {}\n\
                   module.exports = class Application extends Emitter {\n  listen () {}\n}\n";
        assert_eq!(hidden("lib/application.js", Lang::JavaScript, koa), ["helper"]);
        // A script with no module syntax, and a declaration file, hide nothing.
        assert!(hidden("public/app.js", Lang::JavaScript, "function init () {}\ninit()\n").is_empty());
        assert!(hidden("types/index.d.ts", Lang::TypeScript, "declare function one(): void\n").is_empty());
    }

    fn reexported(path: &str, lang: Lang, source: &str) -> Vec<String> {
        let file = IndexedFile::parsed(path, lang, source);
        reexports(&file).iter().map(|r| r.line(&file.lang, &r.names, 0)).collect()
    }

    #[test]
    fn a_package_entry_passes_on_what_it_imports_from_the_package() {
        // marshmallow's `__init__.py`: the package's names, not `typing`'s nor its own.
        let init = "from __future__ import annotations\nimport typing\nfrom packaging.version import Version\n\
                    from marshmallow.schema import Schema, SchemaOpts\nfrom marshmallow.exceptions import ValidationError\n\
                    from . import fields\nfrom ._compat import _helper\nfrom .utils import missing\n\
                    def __getattr__(name): pass\n";
        assert_eq!(
            reexported("src/marshmallow/__init__.py", Lang::Python, init),
            [
                "from . import fields",
                "from .utils import missing",
                "from marshmallow.exceptions import ValidationError",
                "from marshmallow.schema import Schema, SchemaOpts",
            ]
        );
        // Another module's imports are its own business.
        assert!(reexported("src/marshmallow/fields.py", Lang::Python, init).is_empty());
        let lib = "pub use self::routing::{Router, get};\nuse std::fmt;\npub use serde_json;\n\
                   pub(crate) use self::sealed::Sealed;\npub struct Own;\npub use self::own::Own;\n\
                   pub use core::option::Option;\n";
        assert_eq!(
            reexported("src/lib.rs", Lang::Rust, lib),
            ["pub use serde_json;", "pub use self::routing::{Router, get};"]
        );
        let index = "import { a } from './a'\nexport { a }\nexport { b, c } from './b'\n\
                     export { default as axios } from './axios'\nconst d = 1\nexport { d }\n";
        assert_eq!(
            reexported("src/index.ts", Lang::TypeScript, index),
            ["export { a } from './a'", "export { b, c } from './b'"]
        );
        // A name passed on under another is shown so (zustand's `middleware.ts`); one also
        // imported as itself is that one (tqdm's `__init__.py`: `tqdm` is `.std`'s).
        let middleware = "export { ssrSafe as unstable_ssrSafe } from './ssrSafe.ts'\nexport { redux } from './redux.ts'\n";
        assert_eq!(
            reexported("src/middleware.ts", Lang::TypeScript, middleware),
            [
                "export { redux } from './redux.ts'",
                "export { ssrSafe as unstable_ssrSafe } from './ssrSafe.ts'"
            ]
        );
        let tqdm = "from .gui import tqdm as tqdm_gui\nfrom .gui import trange as tgrange\nfrom .std import tqdm, trange\n";
        assert_eq!(reexported("tqdm/__init__.py", Lang::Python, tqdm), ["from .std import tqdm, trange"]);
        let rust = "pub use self::client::{Client as HttpClient, Builder};\n";
        assert_eq!(
            reexported("src/lib.rs", Lang::Rust, rust),
            ["pub use self::client::{Builder, Client as HttpClient};"]
        );
        // A module's default export passed on as the file's (swr's `index.ts`): not a named one.
        let swr =
            "import useSWR from './use-swr'\nexport default useSWR\nexport { SWRConfig } from './use-swr'\n";
        assert_eq!(
            reexported("src/index/index.ts", Lang::TypeScript, swr),
            ["export { SWRConfig } from './use-swr'", "export { default } from './use-swr'  // useSWR"]
        );
        // A module that passes nothing on.
        assert!(
            reexported("src/util.ts", Lang::TypeScript, "import { a } from './a'\nexport const b = a\n")
                .is_empty()
        );
    }
}
