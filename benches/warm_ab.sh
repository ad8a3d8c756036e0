#!/usr/bin/env bash
# Two builds of `ctx` timed by turns on one corpus of ../shared/bench/corpora.sh:
# warm `ctx map --query` (4,096 tokens) or `ctx rank`, a new query every run,
# each build with a cache of its own. On a shared, noisy machine a median of
# `benches/warm.sh` moves by 20–30 ms between two runs of one build; runs
# alternated between the builds see the same noise.
# Usage: benches/warm_ab.sh CTX_A CTX_B [CORPUS] [RUNS] [query|rank|plain]
#        (defaults: rust-crates, 31, query). Env: CORPORA (default /tmp/corpora).
set -euo pipefail
[[ $# -ge 2 ]] || { sed -n 2,8p "$0" >&2; exit 2; }
A=$1 B=$2 CORPUS=${3:-rust-crates} RUNS=${4:-31} WHAT=${5:-query}
dir=${CORPORA:-/tmp/corpora}/$CORPUS
[[ -d $dir ]] || { echo "missing $dir: run ../shared/bench/corpora.sh" >&2; exit 1; }
caches=$(mktemp -d)
trap 'rm -rf "$caches"' EXIT
mkdir "$caches/a" "$caches/b"
run() { # build cache task
  case $WHAT in
    query) CTX_CACHE_DIR=$2 "$1" --root "$dir" map --tokens 4096 --query "$3" ;;
    rank) CTX_CACHE_DIR=$2 "$1" --root "$dir" -q rank --query "$3" ;;
    plain) CTX_CACHE_DIR=$2 "$1" --root "$dir" map --tokens 4096 ;;
    *) echo "unknown: $WHAT" >&2; exit 2 ;;
  esac >/dev/null 2>&1
}
ms() { local s e; s=$(date +%s%N); run "$@"; e=$(date +%s%N); echo $(((e - s) / 1000000)); }
run "$A" "$caches/a" "fill the cache"
run "$B" "$caches/b" "fill the cache"
ta=() tb=()
for i in $(seq "$RUNS"); do
  task="parse the config file and report errors $i"
  ta+=("$(ms "$A" "$caches/a" "$task")")
  tb+=("$(ms "$B" "$caches/b" "$task")")
done
stats() { sort -n | awk '{v[NR]=$1} END {printf "median %d ms, min %d ms", v[int((NR+1)/2)], v[1]}'; }
echo "$CORPUS $WHAT, $RUNS runs each by turns"
echo "A $A: $(printf '%s\n' "${ta[@]}" | stats)"
echo "B $B: $(printf '%s\n' "${tb[@]}" | stats)"
