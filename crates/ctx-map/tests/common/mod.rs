//! What the map's test files share: fixture trees, a workspace whose cache
//! is elsewhere, a map run, and the definitions a map shows.

#![allow(dead_code)] // each test file uses its own share of these

use std::path::Path;

use ctxkeep_core::Workspace;
use ctxkeep_map::map::{MapOptions, RepoMap, map};

pub mod client;

/// Write `files` (path, text) under a new temp folder.
pub fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// A workspace for `root` whose cache is in `cache` (nothing written to `root`).
pub fn open(root: &Path, cache: &Path) -> Workspace {
    Workspace::open_in_cache(root, cache).unwrap()
}

pub fn run(ws: &mut Workspace, options: &MapOptions) -> RepoMap {
    map(ws, options, None).unwrap()
}

/// The definitions a map shows, as `path: name` lines, in the map's order.
pub fn shown(map: &RepoMap) -> Vec<String> {
    map.files
        .iter()
        .flat_map(|f| f.definitions.iter().map(move |d| format!("{}: {}", f.path, d.name)))
        .collect()
}
