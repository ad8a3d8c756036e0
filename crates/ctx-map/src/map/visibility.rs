//! Which Rust files sit in a module their crate keeps to itself: a `pub fn`
//! in `src/util.rs`, declared `mod util;` in `lib.rs`, is no more public than
//! `util` (reqwest's `util::basic_auth`, `pub(crate) mod gai`'s
//! `GaiResolver` led its overview as "public surface"), unless the crate
//! passes it on (`pub use util::basic_auth;`).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::index::IndexedFile;
use crate::tags::{Def, Kind};

/// Per file of `files`, whether it is a Rust module declared private
/// (`mod util;`, `pub(crate) mod gai;`) in its parent module or in one above
/// it. A module whose declaration is not found (a crate root, a `#[path]`
/// module) counts as public.
pub(super) fn in_private_module(files: &[IndexedFile]) -> Vec<bool> {
    let by_path: HashMap<&str, usize> = files.iter().enumerate().map(|(i, f)| (f.path.as_str(), i)).collect();
    let mut memo: Vec<Option<bool>> = vec![None; files.len()];
    (0..files.len()).map(|i| private(files, &by_path, &mut memo, i, 0)).collect()
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

fn private(
    files: &[IndexedFile],
    by_path: &HashMap<&str, usize>,
    memo: &mut [Option<bool>],
    i: usize,
    depth: usize,
) -> bool {
    if let Some(known) = memo[i] {
        return known;
    }
    let file = &files[i];
    let answer = match (file.lang == "rust", declaration(files, by_path, &file.path)) {
        (true, Some((parent, public))) if depth < MAX_DEPTH => {
            !public || private(files, by_path, memo, parent, depth + 1)
        }
        _ => false,
    };
    memo[i] = Some(answer);
    answer
}

/// The file declaring the module at `path` and whether it declares it `pub`
/// (as far as it says: a module it does not keep private is public):
/// `src/a.rs` and `src/a/mod.rs` in `src/lib.rs` or `src/main.rs`, `src/a/b.rs`
/// in `src/a.rs` or `src/a/mod.rs`.
fn declaration(files: &[IndexedFile], by_path: &HashMap<&str, usize>, path: &str) -> Option<(usize, bool)> {
    let (folder, name) = path.rsplit_once('/')?;
    let stem = name.strip_suffix(".rs")?;
    let (module, home) = match stem {
        "lib" | "main" => return None,
        "mod" => folder.rsplit_once('/').map(|(up, m)| (m, up))?,
        _ => (stem, folder),
    };
    // The module that holds `home`'s items: the crate root beside `src/`'s files, else `home.rs` or `home/mod.rs`.
    let candidates =
        [format!("{home}/lib.rs"), format!("{home}/main.rs"), format!("{home}.rs"), format!("{home}/mod.rs")];
    let parent = candidates.iter().find_map(|c| by_path.get(c.as_str()).copied())?;
    let private = files[parent].tags.private_modules.binary_search_by(|m| m.as_str().cmp(module)).is_ok();
    Some((parent, !private))
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
        assert!(passed_on(&files).contains("basic_auth"));
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
