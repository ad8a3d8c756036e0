//! A build and other writers at once: the build renders outside the write
//! lock, so writers do not wait for it, and what they change while it
//! renders is not marked current by it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ctxkeep_core::{BuildMode, BuildOptions, FolderEdit, NewFrame, Workspace};

/// Longest a write may wait: a build's own writes take a fraction of this
/// even in a debug build on a loaded machine; its render takes many times it.
const MAX_WAIT: Duration = Duration::from_secs(2);

/// A tree of `a` × `b` folders below the root's `a`, two files each.
fn tree(a_count: usize, b_count: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for a in 0..a_count {
        for b in 0..b_count {
            let folder = dir.path().join(format!("pkg{a:02}/mod{b:02}"));
            std::fs::create_dir_all(&folder).unwrap();
            for c in 0..2 {
                std::fs::write(
                    folder.join(format!("f{c}.py")),
                    format!("\"\"\"Module {a}.{b}.{c}: handles part {c} of the work.\"\"\"\n\ndef run_{c}():\n    return {c}\n"),
                )
                .unwrap();
            }
        }
    }
    dir
}

#[test]
fn writers_do_not_wait_for_a_build_and_their_edits_stay_stale() {
    // Big enough that a debug build renders for several seconds.
    let dir = tree(80, 50);
    let (mut ws, _) = Workspace::init(dir.path()).unwrap();
    ws.scan().unwrap();

    let building = AtomicBool::new(true);
    let (report, waits) = std::thread::scope(|s| {
        let writer = s.spawn(|| {
            let mut ws = Workspace::open(dir.path()).unwrap();
            let mut waits = Vec::new();
            let mut round = 0;
            while building.load(Ordering::SeqCst) {
                let started = Instant::now();
                let edit = FolderEdit {
                    description: Some(format!("Described in round {round}.")),
                    content_md: None,
                };
                ws.describe_folder(&format!("pkg{:02}/mod07", round % 80), &edit).unwrap();
                ws.push_frame(&NewFrame { goal: format!("Goal {round}"), ..Default::default() }).unwrap();
                waits.push(started.elapsed());
                round += 1;
                std::thread::sleep(Duration::from_millis(50));
            }
            waits
        });
        // Let the writer start first, so that the build's whole run overlaps its loop.
        std::thread::sleep(Duration::from_millis(100));
        let report = ws.build(&BuildOptions { mode: BuildMode::Force, ..Default::default() });
        building.store(false, Ordering::SeqCst);
        (report.unwrap(), writer.join().unwrap())
    });
    assert_eq!(report.files_written, 4 * (1 + 80 + 80 * 50));
    eprintln!("build {} ms, {} writes", report.elapsed_ms, waits.len());
    let slowest = waits.iter().max().unwrap();
    assert!(waits.len() >= 3, "the build took too little time to test anything: {:?}", report.elapsed_ms);
    assert!(*slowest < MAX_WAIT, "a write waited {slowest:?} for a build of {} ms", report.elapsed_ms);

    // A folder described while the build rendered is stale, not marked current.
    let validate = ws.validate().unwrap();
    let stale_files: Vec<&str> = validate.stale.iter().map(|p| p.path.as_str()).collect();
    let flagged = ws.status().unwrap().stale_folders;
    assert!(!stale_files.is_empty(), "no edit landed while the build rendered");
    for path in &stale_files {
        assert!(flagged.iter().any(|f| f == path), "{path}'s files are stale but its flag was cleared");
    }
    assert!(
        validate.missing.is_empty() && validate.edited.is_empty() && validate.orphaned.is_empty(),
        "{validate:?}"
    );

    // The next build brings those files up to date and clears the flags.
    let report = ws.build(&BuildOptions::default()).unwrap();
    assert!(report.built.iter().any(|b| stale_files.contains(&b.path.as_str())), "{:?}", report.built);
    assert!(ws.validate().unwrap().ok);
    assert!(ws.status().unwrap().stale_folders.is_empty());
}

#[test]
fn builds_put_files_in_place_and_record_them_one_at_a_time() {
    let dir = tree(3, 3);
    let (mut ws, _) = Workspace::init(dir.path()).unwrap();
    ws.scan().unwrap();
    ws.build(&BuildOptions::default()).unwrap();
    let file = dir.path().join(".ctx/context/pkg00--mod00.standard.md");
    let before = std::fs::read_to_string(&file).unwrap();

    // Another build holds the build lock: between its renames and its
    // records, no other build may rename (its records would describe our files).
    let lock = std::fs::File::create(dir.path().join(".ctx/ctx.db-build.lock")).unwrap();
    lock.lock().unwrap();
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let build = s.spawn(|| {
            let mut ws = Workspace::open(dir.path()).unwrap();
            let report = ws.build(&BuildOptions { mode: BuildMode::Force, ..Default::default() });
            done.store(true, Ordering::SeqCst);
            report
        });
        let waited = Instant::now();
        while !done.load(Ordering::SeqCst) && waited.elapsed() < Duration::from_secs(3) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!done.load(Ordering::SeqCst), "the build finished while another held the build lock");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), before, "a file was renamed into place");
        // The database is not locked meanwhile.
        let edit = FolderEdit { description: Some("Edited while a build waits.".into()), content_md: None };
        ws.describe_folder("pkg00", &edit).unwrap();
        lock.unlock().unwrap();
        build.join().unwrap().unwrap();
    });
    assert_ne!(std::fs::read_to_string(&file).unwrap(), before);
    let validate = ws.validate().unwrap();
    assert!(validate.missing.is_empty() && validate.edited.is_empty(), "{validate:?}");
}
