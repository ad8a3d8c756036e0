//! Make (or find) the work tree of `benches/frames.sh` and print what it is,
//! as `key=value` lines: `cargo run --release -p ctx-benches --example
//! frames_fixture -- [N]` (default 100,000 frames; kept in
//! `target/bench-frames/<N>`, or `$CTX_BENCH_FRAMES_DIR/<N>`).

fn main() -> ctx_benches::BoxResult<()> {
    let n = match std::env::args().nth(1) {
        Some(n) => n.parse()?,
        None => 100_000,
    };
    let fixture = ctx_benches::frames_fixture(n)?;
    print!("{}", fixture.to_lines());
    Ok(())
}
