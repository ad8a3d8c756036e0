#!/usr/bin/env bash
# Benchmark `ctx scan` on the python3 install's whole lib directory (the
# stdlib with site-packages: ~50,000 files, ~700 MB), copied into a scratch
# folder, against `git status --porcelain` on the same tree (git's index
# refresh is the anchor for an unchanged tree).
#
#   cold:       empty database (page cache warm), every file read and hashed
#   unchanged:  rescan with nothing changed
#   one change: rescan after editing one file
#
# Usage: benches/scan.sh [RUNS]     (default 5 runs each; medians reported)
# Env:   BENCH_DIR (default /tmp/ctx-bench-scan), CTX (default: target/release/ctx, built here)
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${1:-5}
BENCH_DIR=${BENCH_DIR:-/tmp/ctx-bench-scan}
SRC=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')

if [[ -z "${CTX:-}" ]]; then
  cargo build --release --locked --bin ctx >&2
  CTX=$PWD/target/release/ctx
fi

TREE=$BENCH_DIR/pylib
if [[ ! -d $TREE ]]; then
  echo "copying $SRC to $TREE ..." >&2
  mkdir -p "$BENCH_DIR"
  cp -a "$SRC" "$TREE"
  # Let the copy's mtimes age past the racy-clean window before the first scan.
  sleep 2
fi
cd "$TREE"
files=$(find . -path ./.git -prune -o -path ./.ctx -prune -o -type f -print | wc -l)
bytes=$(du -sb --exclude=.git --exclude=.ctx . | cut -f1)

# now_ms: wall-clock milliseconds.
now_ms() { date +%s%3N; }
# median of the numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# time_ms CMD...: run once, print elapsed ms
time_ms() { local t0; t0=$(now_ms); "$@" >/dev/null 2>&1; echo $(( $(now_ms) - t0 )); }

"$CTX" init --no-scan >/dev/null

cold=$(for _ in $(seq "$RUNS"); do rm -f .ctx/ctx.db*; time_ms "$CTX" scan; done | median)
"$CTX" scan >/dev/null   # settle: anything racy from the last cold run is re-verified once
unchanged=$(for _ in $(seq "$RUNS"); do time_ms "$CTX" scan; done | median)
one=$(for i in $(seq "$RUNS"); do echo "# bench $i" >> os.py; time_ms "$CTX" scan; done | median)

if [[ ! -d .git ]]; then
  git init -q . && git add -A >/dev/null 2>&1
fi
git status --porcelain >/dev/null 2>&1   # refresh the index once
git_status=$(for _ in $(seq "$RUNS"); do time_ms git status --porcelain; done | median)

if [[ -x /usr/bin/time ]]; then peak_kb=$( { /usr/bin/time -f "%M" "$CTX" scan >/dev/null; } 2>&1 | tail -1); else peak_kb=n/a; fi

cat <<OUT
tree: $TREE ($files files, $((bytes / 1000000)) MB)
ctx scan, median of $RUNS runs (ms):
  cold (empty database)         $cold
  unchanged rescan              $unchanged
  rescan after one-file change  $one
git status --porcelain (ms)     $git_status
unchanged rescan / git status   $(awk -v a="$unchanged" -v b="$git_status" 'BEGIN { printf "%.2f", a / b }')
peak RSS of an unchanged rescan $peak_kb KB
OUT
