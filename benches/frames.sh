#!/usr/bin/env bash
# Benchmark `ctx frame context` end to end (the release binary, a fresh
# process each run) in a work tree of 100,000 frames: the fixture of
# `ctx_benches::frames_fixture` (made once, kept in target/bench-frames/),
# the focus an in-progress task at depth 3 with ~100 siblings.
#
#   miss, cache off:  `[cache] ttl_seconds = 0`: assembled, nothing read or written
#   miss, stored:     one-hour TTL, `ctx cache clear` before each run (untimed):
#                     assembled and written to the cache
#   hit:              one-hour TTL, warmed once: read from the cache
#   estimate:         the miss, cache off, tokens counted with the 4-chars estimate
#   task prompt:      `ctx task prompt <focus>`, cache off
#   baseline:         `ctx --version` (a process that starts and exits)
#
# Usage: benches/frames.sh [RUNS]     (default 20 runs each; medians reported)
# Env:   FRAMES (default 100000), CTX_BENCH_FRAMES_DIR, CTX (see benches/timing.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${1:-20}
FRAMES=${FRAMES:-100000}
source benches/timing.sh

cargo build --release --locked -p ctx-benches --example frames_fixture >&2
fixture=$(target/release/examples/frames_fixture "$FRAMES")
declare -A fx
while IFS='=' read -r key value; do fx[$key]=$value; done <<<"$fixture"
repo=$PWD
cd "${fx[root]}"
focus=${fx[focus]}

config() { printf '%s\n' "$@" > .ctx/config.toml; }
runs() { for _ in $(seq "$RUNS"); do time_ms_fine "$@"; done | median; }
miss_stored() { for _ in $(seq "$RUNS"); do "$CTX" cache clear >/dev/null; time_ms_fine "$CTX" frame context "$focus"; done | median; }

config '[cache]' 'ttl_seconds = 0'
"$CTX" frame context "$focus" >/dev/null   # warm the page cache
version=$(runs "$CTX" --version)
miss=$(runs "$CTX" frame context "$focus")
prompt=$(runs "$CTX" task prompt "$focus")
miss_kb=$(peak_rss_kb "$CTX" frame context "$focus")
info=$("$CTX" frame info "$focus")
age_min=$(( ($(date +%s) - $(stat -c %Y fixture.txt)) / 60 ))
config '[cache]' 'ttl_seconds = 0' '[build]' 'tokenizer = "estimate"'
estimate=$(runs "$CTX" frame context "$focus")
config '[cache]' 'ttl_seconds = 3600'
stored=$(miss_stored)
"$CTX" frame context "$focus" >/dev/null
hit=$(runs "$CTX" frame context "$focus")
hit_kb=$(peak_rss_kb "$CTX" frame context "$focus")
cp "$repo/crates/ctx-core/defaults/config.toml" .ctx/config.toml

cat <<OUT
work tree: ${fx[frames]} frames (${fx[epics]} epics, ${fx[features]} features, ${fx[tasks]} tasks), written in ${fx[write_secs]} s
focus: $focus (depth 3, ${fx[siblings]} siblings), fixture made $age_min min ago (sibling recency halves by the hour)
  $(grep -E '^F[0-9]+ context' <<<"$info")
  $(grep -E '^siblings:' <<<"$info")
fresh processes, median of $RUNS runs (ms):
  ctx frame context, miss (cache off)      $miss
  ctx frame context, miss (stored)         $stored
  ctx frame context, hit                   $hit
  ctx frame context, miss, estimate        $estimate
  ctx task prompt, miss (cache off)        $prompt
  ctx --version (process start)            $version
peak RSS: miss $miss_kb KB, hit $hit_kb KB
OUT
