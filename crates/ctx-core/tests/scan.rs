//! The scan through `Workspace`: after every scan the store's files and
//! folders are exactly those on disk, whatever moved, and `validate` tells
//! when they are not.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use ctxkeep_core::Workspace;
use proptest::prelude::*;

/// Every file below `root` (repository-relative, `/`-separated), `.ctx/` aside.
fn files_on_disk(root: &Path) -> BTreeSet<String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().is_some_and(|name| name == ".ctx") {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_str().unwrap().replace('\\', "/");
                out.insert(rel);
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(root, root, &mut out);
    out
}

/// The folders a scan records for `files`: the root and every folder holding one.
fn folders_of(files: &BTreeSet<String>) -> BTreeSet<String> {
    let mut folders = BTreeSet::from([".".to_string()]);
    for file in files {
        let mut path = file.as_str();
        while let Some((parent, _)) = path.rsplit_once('/') {
            folders.insert(parent.to_string());
            path = parent;
        }
    }
    folders
}

/// The store's files and folders, read straight from the database; every
/// file row must sit in the folder row of its parent.
fn stored(root: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let conn = rusqlite::Connection::open(root.join(".ctx/ctx.db")).unwrap();
    let list = |sql: &str| -> BTreeSet<String> {
        let mut stmt = conn.prepare(sql).unwrap();
        stmt.query_map([], |row| row.get(0)).unwrap().map(Result::unwrap).collect()
    };
    let files = list("SELECT path FROM files");
    let folders = list("SELECT path FROM nodes WHERE kind = 'folder'");
    let mut stmt =
        conn.prepare("SELECT f.path, n.path FROM files f JOIN nodes n ON n.id = f.folder_id").unwrap();
    let placed: Vec<(String, String)> =
        stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?))).unwrap().map(Result::unwrap).collect();
    assert_eq!(placed.len(), files.len(), "file rows without a folder row");
    for (file, folder) in placed {
        let parent = file.rsplit_once('/').map_or(".", |(parent, _)| parent);
        assert_eq!(folder, parent, "{file} is in the wrong folder row");
    }
    (files, folders)
}

fn assert_store_matches_disk(root: &Path, step: &str) {
    let on_disk = files_on_disk(root);
    let (files, folders) = stored(root);
    assert_eq!(files, on_disk, "files after {step}");
    assert_eq!(folders, folders_of(&on_disk), "folders after {step}");
}

/// `validate` lists exactly the files on disk the store lacks and those it
/// holds that are gone, and is not ok when there are any.
fn assert_validate_names_the_drift(ws: &Workspace, root: &Path, step: &str) {
    let on_disk = files_on_disk(root);
    let (stored, _) = stored(root);
    let report = ws.validate().unwrap();
    let unscanned: Vec<String> = on_disk.difference(&stored).cloned().collect();
    let vanished: Vec<String> = stored.difference(&on_disk).cloned().collect();
    assert_eq!(report.unscanned_files, unscanned, "unscanned after {step}");
    assert_eq!(report.vanished_files, vanished, "vanished after {step}");
    if !unscanned.is_empty() || !vanished.is_empty() {
        assert!(!report.ok, "validate is ok with a store that is not the disk, after {step}");
    }
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A workspace holding `files` (path, text), scanned once.
fn scanned(files: &[(&str, &str)]) -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        write(dir.path(), path, text);
    }
    let (mut ws, _) = Workspace::init(dir.path()).unwrap();
    ws.scan().unwrap();
    (dir, ws)
}

#[test]
fn a_scan_of_an_unchanged_tree_commits_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "src/a.py", "def a(): pass\n");
    // Older than the scan that records it by more than a timestamp's tick: trusted by its stat.
    let minute_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    let file = std::fs::File::options().write(true).open(dir.path().join("src/a.py")).unwrap();
    file.set_modified(minute_ago).unwrap();
    let (mut ws, _) = Workspace::init(dir.path()).unwrap();
    ws.scan().unwrap();
    // Another connection's `data_version` moves with every commit but its own.
    let other = rusqlite::Connection::open(dir.path().join(".ctx/ctx.db")).unwrap();
    let version = || other.query_row("PRAGMA data_version", [], |row| row.get::<_, i64>(0)).unwrap();
    let before = version();
    ws.scan().unwrap();
    ws.scan_files().unwrap();
    assert_eq!(version(), before, "a scan of an unchanged tree committed");
    write(dir.path(), "src/b.py", "def b(): pass\n");
    ws.scan().unwrap();
    assert_ne!(version(), before);
}

#[test]
fn a_renamed_folder_keeps_its_files() {
    let (dir, mut ws) = scanned(&[("feature/a.py", "def a(): pass\n"), ("feature/b.py", "def b(): pass\n")]);
    let root = dir.path();

    std::fs::rename(root.join("feature"), root.join("renamed")).unwrap();
    let report = ws.scan().unwrap();
    assert_eq!((report.files_added, report.files_removed), (2, 2), "{report:?}");
    assert_store_matches_disk(root, "the rename");
    assert_eq!(ws.folder("renamed").unwrap().files.len(), 2);
}

#[test]
fn a_folder_moved_into_another_keeps_its_files() {
    let (dir, mut ws) = scanned(&[
        ("lib/x.rs", "fn x() {}\n"),
        ("feature/deep/a.py", "a = 1\n"),
        ("feature/b.py", "b = 1\n"),
    ]);
    let root = dir.path();

    std::fs::rename(root.join("feature"), root.join("lib/feature")).unwrap();
    ws.scan().unwrap();
    assert_store_matches_disk(root, "the move");
}

/// One change to the tree. Indices pick among what exists when it is applied.
#[derive(Debug, Clone)]
enum Op {
    AddFile {
        dir: usize,
        name: u8,
    },
    RenameFolder {
        dir: usize,
        name: u8,
    },
    MoveFolder {
        dir: usize,
        into: usize,
    },
    DeleteFile {
        file: usize,
    },
    DeleteFolder {
        dir: usize,
    },
    /// `depth` new folders one inside the other, each holding `files` files.
    CreateNested {
        dir: usize,
        depth: u8,
        files: u8,
        name: u8,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (any::<usize>(), 0..8u8).prop_map(|(dir, name)| Op::AddFile { dir, name }),
        (any::<usize>(), 0..8u8).prop_map(|(dir, name)| Op::RenameFolder { dir, name }),
        (any::<usize>(), any::<usize>()).prop_map(|(dir, into)| Op::MoveFolder { dir, into }),
        any::<usize>().prop_map(|file| Op::DeleteFile { file }),
        any::<usize>().prop_map(|dir| Op::DeleteFolder { dir }),
        (any::<usize>(), 1..4u8, 0..6u8, 0..8u8).prop_map(|(dir, depth, files, name)| Op::CreateNested {
            dir,
            depth,
            files,
            name
        }),
    ]
}

/// Every folder below `root` (absolute), `.ctx/` aside, sorted; the root first.
fn dirs(root: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        out.push(dir.to_path_buf());
        let mut children: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir() && p.file_name().is_some_and(|n| n != ".ctx"))
            .collect();
        children.sort();
        for child in children {
            walk(&child, out);
        }
    }
    let mut out = Vec::new();
    walk(root, &mut out);
    out
}

/// Apply `op` to the tree at `root`; an op that does not fit the tree does nothing.
fn apply(root: &Path, op: &Op, counter: &mut usize) {
    let all = dirs(root);
    let below = &all[1..];
    let pick = |list: &[PathBuf], i: usize| (!list.is_empty()).then(|| list[i % list.len()].clone());
    let mut fresh = || {
        *counter += 1;
        *counter
    };
    match *op {
        Op::AddFile { dir, name } => {
            let dir = pick(&all, dir).unwrap();
            let path = dir.join(format!("f{name}_{}.py", fresh()));
            std::fs::write(path, "x = 1\n").unwrap();
        }
        Op::RenameFolder { dir, name } => {
            if let Some(dir) = pick(below, dir) {
                let to = dir.with_file_name(format!("r{name}_{}", fresh()));
                std::fs::rename(dir, to).unwrap();
            }
        }
        Op::MoveFolder { dir, into } => {
            if let (Some(dir), Some(into)) = (pick(below, dir), pick(&all, into))
                && !into.starts_with(&dir)
            {
                let to = into.join(format!("m{}", fresh()));
                std::fs::rename(dir, to).unwrap();
            }
        }
        Op::DeleteFile { file } => {
            let files: Vec<String> = files_on_disk(root).into_iter().collect();
            if !files.is_empty() {
                std::fs::remove_file(root.join(&files[file % files.len()])).unwrap();
            }
        }
        Op::DeleteFolder { dir } => {
            if let Some(dir) = pick(below, dir) {
                std::fs::remove_dir_all(dir).unwrap();
            }
        }
        Op::CreateNested { dir, depth, files, name } => {
            let mut dir = pick(&all, dir).unwrap();
            for level in 0..depth {
                dir = dir.join(format!("n{name}_{}_{level}", fresh()));
                std::fs::create_dir(&dir).unwrap();
                for f in 0..files {
                    std::fs::write(dir.join(format!("g{f}.rs")), format!("fn g{f}() {{}}\n")).unwrap();
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Whatever happens to the tree, the scan after it leaves the store
    /// holding exactly the files and folders on disk; before the last scan,
    /// `validate` names exactly the files the store lacks and still holds.
    #[test]
    fn the_store_follows_the_disk(ops in proptest::collection::vec(op(), 1..12)) {
        let (dir, mut ws) = scanned(&[
            ("src/lib.rs", "pub fn f() {}\n"),
            ("src/util/a.rs", "fn a() {}\n"),
            ("docs/index.md", "# Docs\n"),
        ]);
        let root = dir.path();
        let mut counter = 0;
        for (i, op) in ops.iter().enumerate() {
            apply(root, op, &mut counter);
            // Once a case: a validate reads the templates and hashes every folder.
            if i + 1 == ops.len() {
                assert_validate_names_the_drift(&ws, root, &format!("step {i}: {op:?}"));
            }
            ws.scan().unwrap();
            assert_store_matches_disk(root, &format!("step {i}: {op:?} (all: {ops:?})"));
        }
    }
}
