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
# Env:   see benches/lib.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${1:-5}
source benches/lib.sh

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

peak_kb=$(peak_rss_kb "$CTX" scan)

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
