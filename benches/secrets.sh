#!/usr/bin/env bash
# What the secret detector costs: `ctx map` (cold and warm) and `ctx build`
# (scan, then a cold build) on the three corpora of ../shared/bench/corpora.sh,
# with this tree's `ctx` against a `ctx` built from a commit before the
# detector (BASE_CTX), runs alternated so both see the same machine. Also
# times `ctx secrets scan` (every text file read and searched).
#
# Usage: BASE_CTX=/path/to/old/ctx benches/secrets.sh [RUNS]   (default 5; medians)
# Env: CORPORA (default /tmp/corpora), CTX (default: target/release/ctx, built here)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
CORPORA=${CORPORA:-/tmp/corpora}
: "${BASE_CTX:?set BASE_CTX to a ctx built before the detector (e.g. git worktree add /tmp/base a837577 && cargo build --release there)}"
source benches/timing.sh
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT

# map_cold BIN DIR: a map with an empty cache (every file parsed, every signature checked)
map_cold() { rm -rf "$SCRATCH/cache"; CTX_CACHE_DIR=$SCRATCH/cache "$1" --root "$2" map --tokens 4096; }
map_warm() { CTX_CACHE_DIR=$SCRATCH/cache "$1" --root "$2" map --tokens 4096 --query "warm $RANDOM"; }
# build_cold BIN DIR: init (the scan reads and summarizes every file) and a cold build
build_cold() { rm -rf "$2/.ctx"; "$1" --root "$2" init --no-build && "$1" --root "$2" build --force; }

printf '%-14s %-10s %9s %9s %7s\n' corpus measure base_ms new_ms ratio
for corpus in python-stdlib rust-crates ts-src; do
  [[ -d $CORPORA/$corpus ]] || { echo "missing $CORPORA/$corpus: run ../shared/bench/corpora.sh" >&2; exit 1; }
  dir=$SCRATCH/$corpus
  rm -rf "$dir"; cp -r "$CORPORA/$corpus" "$dir"
  for measure in map_cold map_warm build_cold; do
    base=(); new=()
    [[ $measure == map_warm ]] && { map_cold "$BASE_CTX" "$dir" >/dev/null; }
    for _ in $(seq "$RUNS"); do
      [[ $measure == map_warm ]] && map_cold "$BASE_CTX" "$dir" >/dev/null 2>&1
      base+=("$(time_ms $measure "$BASE_CTX" "$dir")")
      [[ $measure == map_warm ]] && map_cold "$CTX" "$dir" >/dev/null 2>&1
      new+=("$(time_ms $measure "$CTX" "$dir")")
    done
    b=$(printf '%s\n' "${base[@]}" | median); n=$(printf '%s\n' "${new[@]}" | median)
    printf '%-14s %-10s %9s %9s %7.3f\n' "$corpus" "$measure" "$b" "$n" "$(echo "$n / $b" | bc -l)"
  done
  "$CTX" --root "$dir" init --no-build >/dev/null
  scan_ms=$(for _ in $(seq "$RUNS"); do time_ms "$CTX" --root "$dir" secrets scan; done | median)
  findings=$("$CTX" --root "$dir" --json secrets scan | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["findings"]))')
  printf '%-14s %-10s %9s %9s %7s  (%s findings)\n' "$corpus" secrets_scan - "$scan_ms" - "$findings"
done
