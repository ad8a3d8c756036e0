//! What code a folder holds below it, for the line that names it in its
//! parent's context: `src/`: "subfolders: flask" says little; "`Flask`
//! (`flask/app.py`), `request` (`flask/globals.py`), …" tells an agent where
//! the code it will read lives.
//!
//! From the outlines the map stored: the top-level definitions below the
//! folder that the most other files use (at most two a file; then the file's
//! PageRank), type aliases after the rest: starlette's `Scope` and `Send` are
//! in every signature, yet `Starlette` and `Request` say where the code is. Only the repository's own code counts: a test's, an example's
//! or a fixture's definitions say nothing of what the folder is for (tests
//! still count among the users: what they call is the code's public face).

use serde::Serialize;

use super::model::FolderData;
use crate::paths::{self, PathRole};
use crate::sources::OutlineDef;

/// Most definitions kept per folder (the deep tier's share).
pub(crate) const MAX_CODE_BELOW: usize = 8;
/// Most definitions of one file among them.
const PER_FILE: usize = 2;

/// A definition somewhere below a folder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CodeBelow {
    /// Its name (a class, function, constant, …).
    pub name: String,
    /// `class`, `function`, `struct`, … (the map's kinds).
    pub kind: String,
    /// Its file, relative to the folder (`flask/app.py`).
    pub path: String,
    /// Not a type alias, how many other files use it, then its file's
    /// PageRank: what orders them.
    #[serde(skip)]
    rank: (bool, u32, f64),
}

/// Per folder (as indexed), the definitions below it worth naming, the most
/// used first. Folders are visited deepest first, so a folder's children
/// have theirs when it merges them.
pub(crate) fn code_below(folders: &[FolderData]) -> Vec<Vec<CodeBelow>> {
    let mut below: Vec<Vec<CodeBelow>> = vec![Vec::new(); folders.len()];
    let mut order: Vec<usize> = (0..folders.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(paths::depth(&folders[i].path)));
    for i in order {
        let folder = &folders[i];
        let mut found: Vec<CodeBelow> = Vec::new();
        for file in &folder.files {
            let Some(outline) = &file.outline else { continue };
            if PathRole::of(&outline.path) != PathRole::Source {
                continue;
            }
            // A file's top-level definitions others use, at most two: the folder
            // has more to show than one file's.
            // A module is where code is, not code: and its name's "users" are mostly
            // another's (`env` of `std::env`, `io`, `error`).
            // (What a file passes on of another module is that module's code.)
            let used = outline.defs.iter().filter(|d| {
                d.parent.is_none()
                    && d.users > 0
                    && !is_shorthand(d)
                    && !matches!(d.kind.as_str(), "module" | "reexport")
            });
            let mut used: Vec<&OutlineDef> = used.collect();
            used.sort_by_key(|d| std::cmp::Reverse((d.kind != "type", d.users)));
            found.extend(used.into_iter().take(PER_FILE).map(|def| CodeBelow {
                name: def.name.clone(),
                kind: def.kind.clone(),
                path: file.name.clone(),
                rank: (def.kind != "type", def.users, outline.rank),
            }));
        }
        for &child in &folder.children {
            // A test or example folder's code is not what its parent holds.
            if PathRole::of(&folders[child].path) != PathRole::Source {
                continue;
            }
            let name = paths::name(&folders[child].path);
            found.extend(
                below[child]
                    .iter()
                    .map(|code| CodeBelow { path: format!("{name}/{}", code.path), ..code.clone() }),
            );
        }
        found.sort_by(|a, b| {
            ((b.rank.0, b.rank.1).cmp(&(a.rank.0, a.rank.1)))
                .then(b.rank.2.total_cmp(&a.rank.2))
                .then_with(|| a.path.cmp(&b.path))
        });
        // A name once (flask's two `Blueprint`s, each crate's `Error`): the likelier first.
        let mut names = std::collections::HashSet::new();
        found.retain(|code| names.insert(code.name.clone()));
        found.truncate(MAX_CODE_BELOW);
        below[i] = found;
    }
    below
}

/// A type alias named like the standard type it stands for (Rust's
/// `type Result<T> = std::result::Result<T, Error>`): every file uses it, and
/// it says nothing of what the code does.
fn is_shorthand(def: &OutlineDef) -> bool {
    const STANDARD: &[&str] =
        &["Result", "Option", "Error", "Box", "Vec", "HashMap", "HashSet", "Promise", "Record"];
    def.kind == "type" && STANDARD.contains(&def.name.as_str())
}
