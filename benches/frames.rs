//! Assembling a frame's context in a work tree of 100,000 frames
//! (`ctx_benches::frames_fixture`, kept in `target/bench-frames/`): the
//! current frame, a task at depth 3 with ~100 siblings.
//!
//! - `context_miss_100k`: `frame_context` in XML with `[cache] ttl_seconds = 0`,
//!   which neither reads nor writes the cache: every iteration assembles,
//!   nothing is written;
//! - `context_miss_100k_estimate`: the same, tokens counted with the
//!   4-chars estimate instead of o200k;
//! - `task_prompt_miss_100k`: `task_prompt` of the same task, cache off;
//! - `context_hit_100k`: `frame_context` in XML with a one-hour TTL, warmed
//!   once: every iteration is a hit (which marks the entry used: one write).
//!
//! `CTX_BENCH_FRAMES=N` measures a tree of N frames instead. The end-to-end
//! figures (a fresh `ctx` process) are `benches/frames.sh`'s.

use criterion::{Criterion, criterion_group, criterion_main};
use ctxkeep_core::{DEFAULT_CONFIG_TOML, Rendering};

fn frames(c: &mut Criterion) {
    let n: usize = std::env::var("CTX_BENCH_FRAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let label = if n.is_multiple_of(1000) { format!("{}k", n / 1000) } else { n.to_string() };
    let fx = ctx_benches::frames_fixture(n).expect("fixture");
    let root = &fx.root;
    let focus = Some(fx.focus.as_str());

    let open = |toml: &str| ctx_benches::open_with_config(root, toml).expect("open");
    let miss = open("[cache]\nttl_seconds = 0\n");
    let miss_estimate = open("[cache]\nttl_seconds = 0\n[build]\ntokenizer = \"estimate\"\n");
    let hit = open("[cache]\nttl_seconds = 3600\n");
    // The workspaces keep the configuration they were opened with.
    ctxkeep_core::write_atomic(&root.join(".ctx/config.toml"), DEFAULT_CONFIG_TOML.as_bytes())
        .expect("config");

    let first = miss.frame_context(focus, Rendering::Xml).expect("context");
    let r = &first.report;
    eprintln!(
        "{} ({} frames, {} siblings): {} of {} tokens; ancestors {}/{}; siblings: {} candidates, {} filtered, {} included, {} omitted",
        fx.focus,
        fx.frames,
        fx.siblings,
        r.tokens.total,
        r.budget.total,
        r.ancestors.included,
        r.ancestors.total,
        r.siblings.candidates,
        r.siblings.filtered,
        r.siblings.included,
        r.siblings.omitted,
    );

    // The fixture's frames were all made within a minute or so: now every
    // sibling is recent, which counts for its score. What a day later selects:
    let later = miss.frame_context_at(focus, Rendering::Xml, now_ms() + 86_400_000).expect("context");
    let r = &later.report.siblings;
    eprintln!(
        "a day later: {} of {} tokens; siblings: {} candidates, {} filtered, {} included, {} omitted",
        later.report.tokens.total, later.report.budget.total, r.candidates, r.filtered, r.included, r.omitted
    );

    let mut group = c.benchmark_group("frames");
    group.bench_function(format!("context_miss_{label}"), |b| {
        b.iter(|| {
            let context = miss.frame_context(focus, Rendering::Xml).expect("context");
            assert!(!context.cache.hit && !context.cache.stored);
            context
        })
    });
    group.bench_function(format!("context_miss_{label}_estimate"), |b| {
        b.iter(|| {
            let context = miss_estimate.frame_context(focus, Rendering::Xml).expect("context");
            assert!(!context.cache.hit && !context.cache.stored);
            context
        })
    });
    group.bench_function(format!("task_prompt_miss_{label}"), |b| {
        b.iter(|| {
            let prompt = miss.task_prompt(&fx.focus).expect("prompt");
            assert!(!prompt.cache.hit && !prompt.cache.stored);
            prompt
        })
    });
    let warm = hit.frame_context(focus, Rendering::Xml).expect("context");
    assert!(warm.cache.hit || warm.cache.stored);
    group.bench_function(format!("context_hit_{label}"), |b| {
        b.iter(|| {
            let context = hit.frame_context(focus, Rendering::Xml).expect("context");
            assert!(context.cache.hit);
            context
        })
    });
    group.finish();
}

fn now_ms() -> i64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("clock");
    since.as_millis() as i64
}

criterion_group!(benches, frames);
criterion_main!(benches);
