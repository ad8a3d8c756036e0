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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    fn hidden(path: &str, lang: Lang, source: &str) -> Vec<String> {
        let file = IndexedFile::parsed(path, lang, source);
        let Some(module) = JsModule::of(&file) else { return Vec::new() };
        file.tags.defs.iter().filter(|d| module.hides(d)).map(|d| d.name.clone()).collect()
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
        // A script with no module syntax, and a declaration file, hide nothing.
        assert!(hidden("public/app.js", Lang::JavaScript, "function init () {}\ninit()\n").is_empty());
        assert!(hidden("types/index.d.ts", Lang::TypeScript, "declare function one(): void\n").is_empty());
    }
}
