#!/usr/bin/env bash
# Instructions a warm `ctx` command runs, counted by callgrind: unlike its
# time, nearly the same on every run of one build, so two builds compare on
# a busy machine where a median of `benches/warm.sh` moves by 20–30 ms
# between runs. One pool thread (RAYON_NUM_THREADS=1), the cache filled by a
# run first. What moves is how far the thread that frees the index gets
# before the process ends (up to ~50M on rust-crates): the fewest of RUNS
# runs is the figure. Prints each run's total, the fewest, and the ctx
# functions that cost the most in that run, inclusive.
# Usage: benches/instructions.sh CTX [CORPUS] [query|rank|plain] [TOP] [RUNS]
#        (defaults: rust-crates, query, 25, 3). Env: CORPORA (default /tmp/corpora).
set -euo pipefail
[[ $# -ge 1 ]] || { sed -n 2,9p "$0" >&2; exit 2; }
CTX=$1 CORPUS=${2:-rust-crates} WHAT=${3:-query} TOP=${4:-25} RUNS=${5:-3}
command -v valgrind >/dev/null || { echo "needs valgrind (apt install valgrind)" >&2; exit 1; }
dir=${CORPORA:-/tmp/corpora}/$CORPUS
[[ -d $dir ]] || { echo "missing $dir: run ../shared/bench/corpora.sh" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { # task, then the command's prefix
  local task=$1
  shift
  case $WHAT in
    query) "$@" --root "$dir" map --tokens 4096 --query "$task" ;;
    rank) "$@" --root "$dir" -q rank --query "$task" ;;
    plain) "$@" --root "$dir" map --tokens 4096 ;;
    *) echo "unknown: $WHAT" >&2; exit 2 ;;
  esac >/dev/null 2>&1
}
export CTX_CACHE_DIR=$work/cache RAYON_NUM_THREADS=1
run "fill the cache" "$CTX"
echo "$CORPUS $WHAT, $CTX"
best=
for i in $(seq "$RUNS"); do
  run "parse the config file and report errors" \
    valgrind --tool=callgrind --callgrind-out-file="$work/out$i" "$CTX"
  callgrind_annotate "$work/out$i" >"$work/self" 2>/dev/null
  total=$(awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}' "$work/self")
  echo "run $i: $total instructions"
  if [[ -z $best || $total -lt $best ]]; then best=$total best_run=$i; fi
done
echo "fewest: $best"
callgrind_annotate --inclusive=yes "$work/out$best_run" 2>/dev/null >"$work/inclusive"
grep -E "(ctxkeep|ctx::).*\]$" "$work/inclusive" | grep -vE "rayon|join_context" | head -n "$TOP" || true
