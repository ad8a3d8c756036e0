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
/// it. A module whose declaration is not found counts as public if it is a
/// crate root, and as private as the module whose folder holds it if it is
/// a `#[path]` module.
pub(super) fn in_private_module(files: &[IndexedFile]) -> Vec<bool> {
    let mut private = up_the_modules(files, |parent, module| {
        let private = parent.tags.private_modules.binary_search_by(|m| m.as_str().cmp(module)).is_ok();
        private.then_some(true)
    });
    // A `#[path]` module (mio's `#[path = "selector/epoll.rs"] mod selector;`) is as
    // private as the nearest module whose folder holds it.
    let by_path: HashMap<&str, usize> = files.iter().enumerate().map(|(i, f)| (f.path.as_str(), i)).collect();
    for (i, file) in files.iter().enumerate() {
        if file.lang != "rust" || private[i] || module_name(&file.path).is_none() {
            continue;
        }
        if declaration(&by_path, &file.path).is_none() {
            let folders = std::iter::successors(file.path.rsplit_once('/').map(|(f, _)| f), |f| {
                f.rsplit_once('/').map(|(up, _)| up)
            });
            let enclosing = folders.skip(1).find_map(|folder| {
                [format!("{folder}.rs"), format!("{folder}/mod.rs")]
                    .iter()
                    .find_map(|m| by_path.get(m.as_str()).copied())
            });
            private[i] = enclosing.is_some_and(|m| private[m]);
        }
    }
    private
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

/// What Rust files outside private modules pass on with `pub use`: per name,
/// where from, resolved once (a crate has far more items than `pub use`s).
pub(super) struct PassedOn<'f> {
    by_name: HashMap<&'f str, Vec<Origin<'f>>>,
}

/// Where a `pub use` takes a name from.
enum Origin<'f> {
    /// Anywhere: a bare `pub use x;`, or another crate (a workspace's `pub use other::Thing`).
    Anywhere,
    /// The module in `folder` (`src/event` of `pub use event::Events;` in `src/lib.rs`),
    /// or an inline module of `file`, the one that says it.
    Module { folder: String, file: &'f str },
}

/// `private`: per file, whether it is in a private module ([`in_private_module`]):
/// what such a file passes on stays in the crate (mio's `sys/windows/mod.rs`).
pub(super) fn passed_on<'f>(files: &'f [IndexedFile], private: &[bool]) -> PassedOn<'f> {
    let paths: HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let mut by_name: HashMap<&str, Vec<Origin>> = HashMap::default();
    for (i, file) in files.iter().enumerate().filter(|(i, f)| f.lang == "rust" && !private[*i]) {
        for r in file.tags.refs.iter().filter(|r| r.exported > 0) {
            let from = match r.from.as_deref().and_then(|from| module_folder(&paths, from, &file.path)) {
                Some(folder) => Origin::Module { folder, file: files[i].path.as_str() },
                None => Origin::Anywhere,
            };
            by_name.entry(r.name.as_str()).or_default().push(from);
        }
    }
    PassedOn { by_name }
}

impl PassedOn<'_> {
    /// Whether `name`, defined at `path`, is passed on under that name from
    /// where it is: mio's `pub use event::Events;` in `src/lib.rs` passes on
    /// `src/event/…`'s `Events`, not each backend's in `src/sys/`.
    pub(super) fn passes_on(&self, name: &str, path: &str) -> bool {
        let Some(froms) = self.by_name.get(name) else { return false };
        froms.iter().any(|from| match from {
            Origin::Anywhere => true,
            Origin::Module { folder, file } => {
                *file == path
                    || path
                        .strip_prefix(folder.as_str())
                        .is_some_and(|rest| rest == ".rs" || rest.starts_with('/'))
            }
        })
    }

    #[cfg(test)]
    fn contains(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }
}

/// The folder of the module `from` names, written in the file `passer`;
/// `None` when its first module is none of the crate's files (another crate).
fn module_folder(paths: &HashSet<&str>, from: &str, passer: &str) -> Option<String> {
    let (folder, file) = passer.rsplit_once('/').unwrap_or(("", passer));
    let join = |folder: &str, name: &str| {
        if folder.is_empty() { name.to_string() } else { format!("{folder}/{name}") }
    };
    let mut at = match file {
        "lib.rs" | "main.rs" | "mod.rs" => folder.to_string(),
        other => join(folder, other.trim_end_matches(".rs")),
    };
    let mut first = true;
    for segment in from.split("::").filter(|s| !s.is_empty()) {
        match segment {
            "self" => {}
            "super" => at = at.rsplit_once('/').map_or(String::new(), |(up, _)| up.to_string()),
            "crate" => at = crate_root(paths, &at),
            module => {
                at = join(&at, module);
                if first && !paths.iter().any(|p| p.starts_with(&at) && p[at.len()..].starts_with(['.', '/']))
                {
                    return None;
                }
            }
        }
        first &= matches!(segment, "self" | "super" | "crate");
    }
    Some(at)
}

/// The folder of the crate root above the module folder `at`.
fn crate_root(paths: &HashSet<&str>, at: &str) -> String {
    let mut folder = at;
    loop {
        let root = ["lib.rs", "main.rs"].iter().any(|r| paths.contains(format!("{folder}/{r}").as_str()));
        match folder.rsplit_once('/') {
            _ if root => return folder.to_string(),
            Some((up, _)) => folder = up,
            None => return at.to_string(),
        }
    }
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
        // A `#[path]` module in a private one's folder (mio's `sys/unix/selector/epoll.rs`,
        // `#[path = "selector/epoll.rs"] mod selector;` in the private `sys/unix/mod.rs`).
        let mio = [
            IndexedFile::parsed("src/lib.rs", Lang::Rust, "mod sys;\npub mod event;\n"),
            IndexedFile::parsed("src/sys/mod.rs", Lang::Rust, "mod unix;\n"),
            IndexedFile::parsed(
                "src/sys/unix/mod.rs",
                Lang::Rust,
                "#[path = \"selector/epoll.rs\"]\nmod selector;\n",
            ),
            IndexedFile::parsed("src/sys/unix/selector/epoll.rs", Lang::Rust, "pub struct Events;\n"),
            IndexedFile::parsed("src/event/events/inner/x.rs", Lang::Rust, "pub struct X;\n"),
        ];
        assert_eq!(in_private_module(&mio), [false, true, true, true, false]);
        // What the root passes on is the one where it says, and what a private module
        // passes on stays inside (mio's `sys/windows/mod.rs`: `pub use event::Events;`).
        let mio = [
            IndexedFile::parsed(
                "src/lib.rs",
                Lang::Rust,
                "mod sys;\npub mod event;\npub use event::Events;\npub use crate::sys::SourceFd;\npub use http::Method;\n",
            ),
            IndexedFile::parsed("src/event/events.rs", Lang::Rust, "pub struct Events;\n"),
            IndexedFile::parsed("src/sys/mod.rs", Lang::Rust, "mod windows;\nmod unix;\n"),
            IndexedFile::parsed("src/sys/windows/mod.rs", Lang::Rust, "mod event;\npub use event::Events;\n"),
            IndexedFile::parsed("src/sys/windows/event.rs", Lang::Rust, "pub struct Events;\n"),
            IndexedFile::parsed("src/sys/unix/sourcefd.rs", Lang::Rust, "pub struct SourceFd;\n"),
            IndexedFile::parsed("crates/http/src/method.rs", Lang::Rust, "pub struct Method;\n"),
        ];
        let passed = passed_on(&mio, &in_private_module(&mio));
        let passes: Vec<bool> = [
            ("Events", "src/event/events.rs"),
            ("Events", "src/sys/windows/event.rs"),
            ("SourceFd", "src/sys/unix/sourcefd.rs"),
            ("Method", "crates/http/src/method.rs"),
        ]
        .iter()
        .map(|(name, path)| passed.passes_on(name, path))
        .collect();
        assert_eq!(passes, [true, false, true, true]);
        // Declared `pub` up to the library's root: its API (not `inner.rs`, which no module declares).
        assert_eq!(in_public_module(&files), [false, false, true, false, true, false]);
        assert!(passed_on(&files, &in_private_module(&files)).contains("basic_auth"));
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
