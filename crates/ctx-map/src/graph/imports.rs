//! Which file an import means: `from uvicorn.server import Server`,
//! `import { H3 } from "./h3"`, `use crate::server::Server`. A name several
//! files define (uvicorn's `Server` in `server.py` and a ten-line stub in
//! `websockets_impl.py`) then sends the importing file's uses to the file
//! it imports it from, not to every look-alike alike; through re-exports too
//! (`from uvicorn.main import Server`, where `main.py` imports it in turn).

use rustc_hash::FxHashMap as HashMap;

use super::crates::Crates;
use crate::index::IndexedFile;
use crate::tags::DefaultExport;

/// How many re-exports an import is followed through.
const MAX_HOPS: usize = 4;

/// File extensions an ES import's path may leave out, in the order tried.
const SCRIPT_EXTENSIONS: &[&str] = &[".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/// The repository's files by path, and its Python modules by dotted name.
pub(crate) struct Modules<'a> {
    files: &'a [IndexedFile],
    by_path: HashMap<&'a str, u32>,
    /// Each Python module's dotted name and every tail of it at a dot
    /// (`src.uvicorn.server`, `uvicorn.server`, `server`): the files it may be.
    python: HashMap<String, Vec<u32>>,
    /// The Rust library crates of a workspace.
    crates: Crates,
}

impl<'a> Modules<'a> {
    pub(crate) fn new(files: &'a [IndexedFile]) -> Modules<'a> {
        let mut python: HashMap<String, Vec<u32>> = HashMap::default();
        for (i, file) in files.iter().enumerate().filter(|(_, f)| f.lang == "python") {
            let Some(module) = file.path.strip_suffix(".py") else { continue };
            let module = module.strip_suffix("/__init__").unwrap_or(module).replace('/', ".");
            let tails = std::iter::once(0).chain(module.match_indices('.').map(|(at, _)| at + 1));
            for at in tails {
                python.entry(module[at..].to_string()).or_default().push(i as u32);
            }
        }
        let by_path = files.iter().enumerate().map(|(i, f)| (f.path.as_str(), i as u32)).collect();
        Modules { files, by_path, python, crates: Crates::of(files) }
    }

    /// The file that defines `name` as file `from` imports it, following
    /// files that import it in turn; `None` when the import leads outside
    /// the repository or nowhere `is_definer` accepts.
    pub(super) fn definer(&self, from: usize, name: &str, is_definer: impl Fn(u32) -> bool) -> Option<u32> {
        let mut at = from;
        for _ in 0..MAX_HOPS {
            let file = &self.files[at];
            let refs = &file.tags.refs;
            let module = refs
                .binary_search_by(|r| r.name.as_str().cmp(name))
                .ok()
                .and_then(|i| refs[i].from.as_deref())?;
            let target = self.resolve(at, module)?;
            if is_definer(target) {
                return Some(target);
            }
            if target as usize == at {
                return None;
            }
            at = target as usize;
        }
        None
    }

    /// The definition a JavaScript module's default export names, as file
    /// `from` takes the module whole (`const express = require('../')`): the
    /// file and the name (`lib/express.js`, `createApplication`), following
    /// modules that export another's (`module.exports = require('./lib/express')`).
    pub(crate) fn default_export(&self, from: usize, module: &str) -> Option<(u32, &'a str)> {
        let mut at = self.resolve(from, module)?;
        for _ in 0..MAX_HOPS {
            match self.files[at as usize].tags.default_export.as_ref()? {
                DefaultExport::Name(name) => return Some((at, name)),
                DefaultExport::Module(module) => at = self.resolve(at as usize, module)?,
            }
        }
        None
    }

    /// The files whose every export file `from` passes on (`export * from
    /// './vanilla'`), and those they pass on so in turn.
    pub(crate) fn reexported_whole(&self, from: usize) -> Vec<u32> {
        let mut found: Vec<u32> = Vec::new();
        let mut next = vec![from as u32];
        for _ in 0..MAX_HOPS {
            let reached: Vec<u32> = next
                .iter()
                .flat_map(|&at| {
                    let modules = &self.files[at as usize].tags.reexports_all;
                    modules.iter().filter_map(move |m| self.resolve(at as usize, m))
                })
                .filter(|&f| f as usize != from && !found.contains(&f))
                .collect();
            found.extend(&reached);
            next = reached;
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    /// Whether `module`, as file `from` writes it, lies outside the repository
    /// for certain: a Python module no file of the repository is, or starts
    /// (`from pathlib import Path`, `from os.path import join`); Rust's
    /// standard library (`use std::path::Path`). What such an import names is
    /// none of the repository's look-alikes (httpie's `tokens.Path` took every
    /// `from pathlib import Path`). A JavaScript package name may be the
    /// repository's own (a monorepo's `@trpc/server`): never certain.
    pub(crate) fn is_external(&self, from: usize, module: &str) -> bool {
        match self.files[from].lang.as_str() {
            "python" if !module.starts_with('.') => {
                let prefixes =
                    std::iter::once(module.len()).chain(module.match_indices('.').map(|(at, _)| at));
                !prefixes.into_iter().any(|end| self.python.contains_key(&module[..end]))
            }
            "rust" => matches!(module.split("::").next(), Some("std" | "core" | "alloc")),
            _ => false,
        }
    }

    /// The file `module`, as file `from` writes it, names.
    fn resolve(&self, from: usize, module: &str) -> Option<u32> {
        let file = &self.files[from];
        let folder = file.path.rsplit_once('/').map_or("", |(folder, _)| folder);
        match file.lang.as_str() {
            "python" => self.python_module(folder, module),
            "rust" => self.rust_module(&file.path, folder, module),
            _ if module.starts_with('.') => self.script_module(folder, module),
            _ => None,
        }
    }

    fn python_module(&self, folder: &str, module: &str) -> Option<u32> {
        let dots = module.len() - module.trim_start_matches('.').len();
        let rest = &module[dots..];
        if dots == 0 {
            // The one module so named; of several (`src/a/util.py`, `tests/util.py`), the
            // one nearest the importer.
            let found = self.python.get(rest)?;
            return found.iter().copied().max_by_key(|&i| {
                let path = &self.files[i as usize].path;
                (common_folders(path, folder), std::cmp::Reverse(path.len()))
            });
        }
        // `.server` is beside the importer, `..server` a folder up.
        let mut base = folder;
        for _ in 1..dots {
            base = base.rsplit_once('/').map_or("", |(up, _)| up);
        }
        if rest.is_empty() {
            return None;
        }
        let path = join(base, &rest.replace('.', "/"));
        self.first_of([format!("{path}.py"), format!("{path}/__init__.py")])
    }

    fn script_module(&self, folder: &str, module: &str) -> Option<u32> {
        let path = normalize(&join(folder, module))?;
        // TypeScript's ES modules import `./x.js` for `x.ts`.
        let bare = SCRIPT_EXTENSIONS.iter().find_map(|e| path.strip_suffix(e)).unwrap_or(&path);
        let mut candidates = vec![path.clone()];
        candidates.extend(SCRIPT_EXTENSIONS.iter().map(|e| format!("{bare}{e}")));
        // A folder is its index (`require('../')` of the root's `index.js`).
        candidates.extend(SCRIPT_EXTENSIONS.iter().map(|e| join(&path, &format!("index{e}"))));
        self.first_of(candidates)
    }

    /// `crate::a::b` from inside `…/src/`, `super::a` and `self::a`: the
    /// module file, or the file of the longest module the path starts with
    /// (`crate::a::Type` is `a.rs`'s).
    fn rust_module(&self, path: &str, folder: &str, module: &str) -> Option<u32> {
        let mut segments: Vec<&str> = module.split("::").collect();
        let name = path.rsplit('/').next().unwrap_or(path);
        // The folder of the module the file is: `src/a/b.rs` is `a::b`, whose
        // submodules live in `src/a/b/`; `mod.rs`, `lib.rs`, `main.rs` are their folder's.
        let own = match name {
            "mod.rs" | "lib.rs" | "main.rs" => folder.to_string(),
            _ => join(folder, name.trim_end_matches(".rs")),
        };
        let mut base = match segments.first().copied() {
            Some("crate") => {
                let src = path.find("src/").filter(|&at| at == 0 || path[..at].ends_with('/'))?;
                path[..src + 3].to_string()
            }
            Some("self") => own,
            Some("super") => own.rsplit_once('/').map_or(String::new(), |(up, _)| up.to_string()),
            // Another crate of the workspace (`use regex_automata::meta::Regex`).
            Some(other) => self.crates.root_folder(other)?.to_string(),
            None => return None,
        };
        segments.remove(0);
        while segments.first() == Some(&"super") {
            base = base.rsplit_once('/').map_or(String::new(), |(up, _)| up.to_string());
            segments.remove(0);
        }
        for take in (0..=segments.len()).rev() {
            let module = join(&base, &segments[..take].join("/"));
            let found = match take {
                // The module the path starts from itself: a crate's root, or a parent module.
                0 => self
                    .first_of(["lib.rs", "main.rs", "mod.rs"].map(|root| format!("{module}/{root}")))
                    .or_else(|| self.first_of([format!("{module}.rs")])),
                _ => self.first_of([format!("{module}.rs"), format!("{module}/mod.rs")]),
            };
            if found.is_some() {
                return found;
            }
        }
        None
    }

    fn first_of(&self, candidates: impl IntoIterator<Item = String>) -> Option<u32> {
        candidates.into_iter().find_map(|c| self.by_path.get(c.as_str()).copied())
    }
}

/// `folder/rest`, or `rest` at the root.
fn join(folder: &str, rest: &str) -> String {
    match (folder.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (_, true) => folder.to_string(),
        _ => format!("{folder}/{rest}"),
    }
}

/// A path with its `.` and `..` steps taken; `None` above the root.
fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// How many leading folders `path` shares with `folder`.
fn common_folders(path: &str, folder: &str) -> usize {
    let dirs = path.rsplit_once('/').map_or("", |(d, _)| d);
    dirs.split('/').zip(folder.split('/')).take_while(|(a, b)| a == b && !a.is_empty()).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::python_file;
    use crate::lang::Lang;

    fn file(path: &str, lang: Lang, source: &str) -> IndexedFile {
        IndexedFile::parsed(path, lang, source)
    }

    /// The path of the file that defines `name` as `from` imports it.
    fn definer<'a>(files: &'a [IndexedFile], from: &str, name: &str) -> Option<&'a str> {
        let modules = Modules::new(files);
        let at = files.iter().position(|f| f.path == from).unwrap();
        let defines = |i: u32| files[i as usize].tags.defs.iter().any(|d| d.name == name);
        modules.definer(at, name, defines).map(|i| files[i as usize].path.as_str())
    }

    #[test]
    fn python_imports_absolute_relative_and_through_a_re_export() {
        let files = vec![
            python_file("src/uvicorn/__init__.py", "from uvicorn.main import Server\n"),
            python_file("src/uvicorn/main.py", "from uvicorn.server import Server\nServer()\n"),
            python_file("src/uvicorn/server.py", "class Server:\n    pass\n"),
            python_file(
                "src/uvicorn/protocols/ws.py",
                "from ..server import Server\nclass Stub:\n    pass\n",
            ),
            python_file("src/uvicorn/protocols/impl.py", "from .ws import Stub\nStub()\n"),
            python_file("tests/server.py", "class Server:\n    pass\n"),
        ];
        assert_eq!(definer(&files, "src/uvicorn/main.py", "Server"), Some("src/uvicorn/server.py"));
        assert_eq!(definer(&files, "src/uvicorn/__init__.py", "Server"), Some("src/uvicorn/server.py"));
        assert_eq!(definer(&files, "src/uvicorn/protocols/ws.py", "Server"), Some("src/uvicorn/server.py"));
        assert_eq!(
            definer(&files, "src/uvicorn/protocols/impl.py", "Stub"),
            Some("src/uvicorn/protocols/ws.py")
        );
        // A name imported from outside the repository, or not imported, is left to the graph.
        let files = vec![
            python_file("a.py", "from os.path import join\njoin()\n"),
            python_file("b.py", "def join():\n    pass\n"),
        ];
        assert_eq!(definer(&files, "a.py", "join"), None);
        let modules = Modules::new(&files);
        assert!(modules.is_external(0, "os.path") && modules.is_external(0, "pathlib"));
        // A module of the repository (`b`), or one starting so (`b.join`: a name in it), is not.
        assert!(
            !modules.is_external(0, "b")
                && !modules.is_external(0, "b.join")
                && !modules.is_external(0, ".b")
        );
    }

    #[test]
    fn script_imports_with_and_without_extensions() {
        let files = vec![
            file(
                "src/index.ts",
                Lang::TypeScript,
                "export { H3 } from \"./h3\";\nimport { H3 } from \"./h3.js\";\nnew H3();\n",
            ),
            file("src/h3.ts", Lang::TypeScript, "export class H3 {}\n"),
            file(
                "src/utils/cookie.ts",
                Lang::TypeScript,
                "import { H3 } from \"../h3\";\nimport { parse } from \"./internal\";\nnew H3(); parse();\n",
            ),
            file("src/utils/internal/index.ts", Lang::TypeScript, "export function parse() {}\n"),
            file("test/h3.ts", Lang::TypeScript, "export class H3 {}\n"),
        ];
        assert_eq!(definer(&files, "src/index.ts", "H3"), Some("src/h3.ts"));
        assert_eq!(definer(&files, "src/utils/cookie.ts", "H3"), Some("src/h3.ts"));
        assert_eq!(definer(&files, "src/utils/cookie.ts", "parse"), Some("src/utils/internal/index.ts"));
    }

    #[test]
    fn rust_uses_of_the_crate_its_parent_and_itself() {
        let files = vec![
            file("axum/src/lib.rs", Lang::Rust, "mod routing;\npub use crate::routing::Router;\n"),
            file(
                "axum/src/routing/mod.rs",
                Lang::Rust,
                "mod route;\npub use self::route::Route;\npub struct Router;\n",
            ),
            file(
                "axum/src/routing/route.rs",
                Lang::Rust,
                "use super::Router;\npub struct Route;\nfn f(r: Router) {}\n",
            ),
            file("axum-extra/src/routing.rs", Lang::Rust, "pub struct Router;\n"),
        ];
        assert_eq!(definer(&files, "axum/src/lib.rs", "Router"), Some("axum/src/routing/mod.rs"));
        assert_eq!(definer(&files, "axum/src/routing/mod.rs", "Route"), Some("axum/src/routing/route.rs"));
        assert_eq!(definer(&files, "axum/src/routing/route.rs", "Router"), Some("axum/src/routing/mod.rs"));
    }

    #[test]
    fn rust_uses_of_another_crate_of_the_workspace() {
        let files = vec![
            file("src/lib.rs", Lang::Rust, "mod regex;\npub use crate::regex::Regex;\n"),
            file("src/regex.rs", Lang::Rust, "pub struct Regex;\n"),
            file("regex-automata/src/lib.rs", Lang::Rust, "pub mod meta;\n"),
            file("regex-automata/src/meta/mod.rs", Lang::Rust, "pub struct Regex;\n"),
            file("regex-automata/tests/meta.rs", Lang::Rust, "use regex_automata::meta::Regex;\n"),
            file("regex-syntax/src/lib.rs", Lang::Rust, "pub struct Regex;\n"),
            file("tests/api.rs", Lang::Rust, "use regex::Regex;\n"),
            file("regex-cli/main.rs", Lang::Rust, "use {regex::Regex, regex_syntax::Regex as R};\n"),
        ];
        let meta = Some("regex-automata/src/meta/mod.rs");
        assert_eq!(definer(&files, "regex-automata/tests/meta.rs", "Regex"), meta);
        // The root crate, named as the others are.
        assert_eq!(definer(&files, "tests/api.rs", "Regex"), Some("src/regex.rs"));
        assert_eq!(definer(&files, "regex-cli/main.rs", "Regex"), Some("src/regex.rs"));
        // Without such a family, the root crate's name is unknown.
        let lone = [&files[..2], &files[6..7], &[file("tokio-util/src/lib.rs", Lang::Rust, "")]].concat();
        assert_eq!(definer(&lone, "tests/api.rs", "Regex"), None);
    }
}
