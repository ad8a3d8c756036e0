//! `Workspace::build` on a synthetic tree (this file is not named build.rs:
//! Cargo would take it for a build script): every context file written (forced),
//! and a build with nothing to do. The real-corpus benchmark is
//! `benches/build.sh` (the whole python3 lib dir).

use criterion::{Criterion, criterion_group, criterion_main};
use ctxkeep_core::{BuildMode, BuildOptions, Workspace};

const N_FILES: usize = 5_000;

fn build(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    ctx_benches::write_tree(dir.path(), N_FILES, 25).expect("write tree");
    let (mut ws, _) = Workspace::init(dir.path()).expect("init");
    ws.scan().expect("scan");
    let folders = ws.status().expect("status").folders;
    let mut group = c.benchmark_group("build");
    group.sample_size(10);

    let force = BuildOptions { mode: BuildMode::Force, ..BuildOptions::default() };
    group.bench_function(format!("all_tiers_{folders}_folders"), |b| {
        b.iter(|| {
            let report = ws.build(&force).expect("build");
            assert_eq!(report.files_written, folders * 4);
        })
    });
    group.bench_function(format!("nothing_to_do_{folders}_folders"), |b| {
        b.iter(|| {
            let report = ws.build(&BuildOptions::default()).expect("build");
            assert_eq!(report.files_written, 0);
        })
    });
    group.finish();
}

criterion_group!(benches, build);
criterion_main!(benches);
