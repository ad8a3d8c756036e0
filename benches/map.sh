#!/usr/bin/env bash
# Benchmark `ctx map` on the three corpora of ../shared/bench/corpora.sh
# (prepare them first: bash ../shared/bench/corpora.sh), budgets 1024 and 4096:
#
#   cold:   empty cache (every file parsed)
#   warm:   unchanged tree, a new query
#   change: one file edited, then a map
#
# No `.ctx/` is created in the corpora: the cache lives in a scratch CTX_CACHE_DIR.
# Usage: benches/map.sh [RUNS]   (default 3; medians). Env: CORPORA (default /tmp/corpora)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
CORPORA=${CORPORA:-/tmp/corpora}
cargo build --release --locked --bin ctx >&2
CTX=$PWD/target/release/ctx
CACHE=$(mktemp -d)
trap 'rm -rf "$CACHE"' EXIT
export CTX_CACHE_DIR=$CACHE

now_ms() { date +%s%3N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
time_ms() { local t0; t0=$(now_ms); "$@" >/dev/null 2>&1; echo $(( $(now_ms) - t0 )); }
peak_kb() { { /usr/bin/time -f "%M" "$@" >/dev/null; } 2>&1 | tail -1; }

printf '%-14s %6s %8s %8s %8s %10s %10s\n' corpus budget cold_ms warm_ms change_ms cold_rss_kb warm_rss_kb
for corpus in python-stdlib rust-crates ts-src; do
  dir=$CORPORA/$corpus
  [[ -d $dir ]] || { echo "missing $dir: run ../shared/bench/corpora.sh" >&2; exit 1; }
  victim=$(cd "$dir" && find . -type f | sort | sed -n 1p)
  case $victim in *.py) comment='#' ;; *) comment='//' ;; esac
  for budget in 1024 4096; do
    cold=$(for _ in $(seq "$RUNS"); do rm -rf "${CACHE:?}"/*; time_ms "$CTX" --root "$dir" map --tokens "$budget"; done | median)
    rm -rf "${CACHE:?}"/*; cold_rss=$(peak_kb "$CTX" --root "$dir" map --tokens "$budget")
    warm=$(for i in $(seq "$RUNS"); do time_ms "$CTX" --root "$dir" map --tokens "$budget" --query "query $i"; done | median)
    warm_rss=$(peak_kb "$CTX" --root "$dir" map --tokens "$budget" --query "another")
    change=$(for i in $(seq "$RUNS"); do echo "$comment bench $i $budget" >> "$dir/$victim"; time_ms "$CTX" --root "$dir" map --tokens "$budget"; done | median)
    printf '%-14s %6s %8s %8s %8s %10s %10s\n' "$corpus" "$budget" "$cold" "$warm" "$change" "$cold_rss" "$warm_rss"
  done
done
