//! `Workspace::scan` on a synthetic tree: cold (empty database) and unchanged.
//! The real-corpus benchmark is `benches/scan.sh` (the whole python3 lib dir).

use criterion::{Criterion, criterion_group, criterion_main};
use ctxkeep_core::Workspace;

const N_FILES: usize = 5_000;

fn scan(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    ctx_benches::write_tree(dir.path(), N_FILES, 25).expect("write tree");
    // Let mtimes age past the racy-clean window, as they would in a real repository.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let mut group = c.benchmark_group("scan");
    group.sample_size(10);

    group.bench_function(format!("cold_{N_FILES}_files"), |b| {
        b.iter(|| {
            let _ = std::fs::remove_dir_all(dir.path().join(".ctx"));
            let (mut ws, _) = Workspace::init(dir.path()).expect("init");
            let report = ws.scan().expect("scan");
            assert_eq!(report.files_added, N_FILES);
        })
    });

    let (mut ws, _) = Workspace::init(dir.path()).expect("init");
    ws.scan().expect("scan");
    ws.scan().expect("settle");
    group.bench_function(format!("unchanged_{N_FILES}_files"), |b| {
        b.iter(|| {
            let report = ws.scan().expect("scan");
            assert_eq!(report.files_unchanged, N_FILES);
        })
    });
    group.finish();
}

criterion_group!(benches, scan);
criterion_main!(benches);
