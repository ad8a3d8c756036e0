//! Which Rust files sit in a module their crate keeps to itself: a `pub fn`
//! in `src/util.rs`, declared `mod util;` in `lib.rs`, is no more public than
//! `util` (reqwest's `util::basic_auth`, `pub(crate) mod gai`'s
//! `GaiResolver` led its overview as "public surface"), unless the crate
//! passes it on (`pub use util::basic_auth;`). And which sit in modules
//! the library declares `pub` all the way up: their public items are its API
//! (crossterm's `pub mod event;` and `event::read`).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::index::IndexedFile;
use crate::tags::{Def, Kind};

/// Per file of `files`, whether it is a Rust module declared private
/// (`mod util;`, `pub(crate) mod gai;`) in its parent module or in one above
/// it. A module whose declaration is not found (a crate root, a `#[path]`
/// module) counts as public.
pub(super) fn in_private_module(files: &[IndexedFile]) -> Vec<bool> {
    up_the_modules(files, |parent, module| {
        let private = parent.tags.private_modules.binary_search_by(|m| m.as_str().cmp(module)).is_ok();
        private.then_some(true)
    })
}

/// Per file of `files`, whether it is a Rust module its library makes public:
/// declared `pub mod` in a crate root `lib.rs` (not a binary's `main.rs`), or
/// in a module itself so declared (`src/event.rs`, `src/event/mod.rs` for `pub
/// mod event;`). A module whose declaration is not found counts as none: this
/// says what a library shows its users, and only on its word.
pub(crate) fn in_public_module(files: &[IndexedFile]) -> Vec<bool> {
    if !files.iter().any(|f| f.lang == "rust" && f.path.ends_with("lib.rs")) {
        return vec![false; files.len()];
    }
    up_the_modules(files, |parent, module| {
        let public = parent.tags.public_modules.binary_search_by(|m| m.as_str().cmp(module)).is_ok();
        match public {
            false => Some(false),
            true => parent.path.ends_with("lib.rs").then_some(true),
        }
    })
}

/// Names some Rust file passes on with `pub use`: public wherever they are defined.
pub(super) fn passed_on(files: &[IndexedFile]) -> HashSet<&str> {
    let rust = files.iter().filter(|f| f.lang == "rust");
    rust.flat_map(|f| f.tags.refs.iter().filter(|r| r.exported > 0).map(|r| r.name.as_str())).collect()
}

/// Whether `def` sits in an inline module its file keeps private (`pub(crate) mod
/// sealed { pub struct Unnameable … }`).
pub(super) fn in_private_inline_module(def: &Def, defs: &[Def]) -> bool {
    std::iter::successors(def.parent(defs), |d| d.parent(defs))
        .any(|m| m.kind == Kind::Module && !m.signature.trim_start().starts_with("pub "))
}

/// How deep module declarations are followed up.
const MAX_DEPTH: usize = 16;

/// Per Rust file of `files`, what `says(parent, module)` answers of the file
/// declaring its module, or, when it says nothing, of that file's own module, up
/// to a crate root; false where no declaration is found.
fn up_the_modules(files: &[IndexedFile], says: impl Fn(&IndexedFile, &str) -> Option<bool>) -> Vec<bool> {
    let by_path: HashMap<&str, usize> = files.iter().enumerate().map(|(i, f)| (f.path.as_str(), i)).collect();
    let mut memo: Vec<Option<bool>> = vec![None; files.len()];
    (0..files.len()).map(|i| answer(files, &by_path, &says, &mut memo, i, 0)).collect()
}

fn answer(
    files: &[IndexedFile],
    by_path: &HashMap<&str, usize>,
    says: &impl Fn(&IndexedFile, &str) -> Option<bool>,
    memo: &mut [Option<bool>],
    i: usize,
    depth: usize,
) -> bool {
    if let Some(known) = memo[i] {
        return known;
    }
    let file = &files[i];
    let answer = match (file.lang == "rust", declaration(by_path, &file.path)) {
        (true, Some((parent, module))) if depth < MAX_DEPTH => match says(&files[parent], module) {
            Some(answer) => answer,
            None => answer(files, by_path, says, memo, parent, depth + 1),
        },
        _ => false,
    };
    memo[i] = Some(answer);
    answer
}

/// The name of the module at `path` and the folder its parent module holds its
/// items for (`event` and `src` of `src/event.rs` and of `src/event/mod.rs`);
/// none for a crate root.
fn module_name(path: &str) -> Option<(&str, &str)> {
    let (folder, name) = path.rsplit_once('/')?;
    match name.strip_suffix(".rs")? {
        "lib" | "main" => None,
        "mod" => folder.rsplit_once('/').map(|(up, m)| (m, up)),
        stem => Some((stem, folder)),
    }
}

/// The file declaring the module at `path`, and the module's name: `src/a.rs`
/// and `src/a/mod.rs` in `src/lib.rs` or `src/main.rs`, `src/a/b.rs` in
/// `src/a.rs` or `src/a/mod.rs`.
fn declaration<'p>(by_path: &HashMap<&str, usize>, path: &'p str) -> Option<(usize, &'p str)> {
    let (module, home) = module_name(path)?;
    // The module that holds `home`'s items: the crate root beside `src/`'s files, else `home.rs` or `home/mod.rs`.
    let candidates =
        [format!("{home}/lib.rs"), format!("{home}/main.rs"), format!("{home}.rs"), format!("{home}/mod.rs")];
    let parent = candidates.iter().find_map(|c| by_path.get(c.as_str()).copied())?;
    Some((parent, module))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    #[test]
    fn a_module_declared_without_pub_is_private_and_so_is_all_below_it() {
        let files = [
            IndexedFile::parsed(
                "src/lib.rs",
                Lang::Rust,
                "mod util;\npub mod dns;\npub use util::basic_auth;\n",
            ),
            IndexedFile::parsed("src/util.rs", Lang::Rust, "pub fn basic_auth() {}\npub fn other() {}\n"),
            IndexedFile::parsed("src/dns/mod.rs", Lang::Rust, "pub(crate) mod gai;\npub mod resolve;\n"),
            IndexedFile::parsed("src/dns/gai.rs", Lang::Rust, "pub struct GaiResolver;\n"),
            IndexedFile::parsed("src/dns/resolve.rs", Lang::Rust, "pub trait Resolve {}\n"),
            IndexedFile::parsed("src/dns/resolve/inner.rs", Lang::Rust, "pub struct Inner;\n"),
        ];
        assert_eq!(in_private_module(&files), [false, true, false, true, false, false]);
        // Declared `pub` up to the library's root: its API (not `inner.rs`, which no module declares).
        assert_eq!(in_public_module(&files), [false, false, true, false, true, false]);
        assert!(passed_on(&files).contains("basic_auth"));
        // A binary's modules are no one's API, `pub` or not.
        let binary = [
            IndexedFile::parsed("src/main.rs", Lang::Rust, "pub mod cli;\n"),
            IndexedFile::parsed("src/cli.rs", Lang::Rust, "pub fn run() {}\n"),
        ];
        assert_eq!(in_public_module(&binary), [false, false]);
        let inline = IndexedFile::parsed(
            "src/connect.rs",
            Lang::Rust,
            "pub(crate) mod sealed {\n    pub struct Unnameable;\n}\npub mod open {\n    pub struct Shown;\n}\n",
        );
        let defs = &inline.tags.defs;
        let at = |name: &str| defs.iter().find(|d| d.name == name).unwrap();
        assert!(in_private_inline_module(at("Unnameable"), defs));
        assert!(!in_private_inline_module(at("Shown"), defs));
    }
}
