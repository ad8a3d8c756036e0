#!/usr/bin/env bash
# Warm `ctx map`, `ctx map --query` and `ctx rank` on the three corpora of
# ../shared/bench/corpora.sh (prepare them first): the min and median wall
# time of RUNS runs each, a new query every run (budget 4,096 tokens), after
# one run that fills the cache. The targets (issue 17): each warm ≤ 100 ms.
# No `.ctx/` is created in the corpora: the cache lives in a scratch CTX_CACHE_DIR.
# Usage: benches/warm.sh [RUNS]   (default 15). Env: CORPORA (default /tmp/corpora),
#        CTX (default: target/release/ctx, built here)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-15}
CORPORA=${CORPORA:-/tmp/corpora}
if [[ -z ${CTX:-} ]]; then
  cargo build --release --locked --bin ctx >&2
  CTX=$PWD/target/release/ctx
fi
CTX_CACHE_DIR=$(mktemp -d)
export CTX_CACHE_DIR
trap 'rm -rf "$CTX_CACHE_DIR"' EXIT
TASK='parse the config file and report errors'
ms() { local s e; s=$(date +%s%N); "$@" >/dev/null; e=$(date +%s%N); echo $(((e - s) / 1000000)); }
printf '%-14s %-6s %6s %8s\n' corpus what min median
for corpus in python-stdlib rust-crates ts-src; do
  dir=$CORPORA/$corpus
  [[ -d $dir ]] || { echo "missing $dir: run ../shared/bench/corpora.sh" >&2; exit 1; }
  "$CTX" --root "$dir" rank --query "fill the cache" >/dev/null
  for what in plain query rank; do
    times=()
    for i in $(seq "$RUNS"); do
      case $what in
        plain) times+=("$(ms "$CTX" --root "$dir" map --tokens 4096)") ;;
        query) times+=("$(ms "$CTX" --root "$dir" map --tokens 4096 --query "$TASK $i")") ;;
        rank) times+=("$(ms "$CTX" --root "$dir" -q rank --query "$TASK $i")") ;;
      esac
    done
    mapfile -t sorted < <(printf '%s\n' "${times[@]}" | sort -n)
    printf '%-14s %-6s %6s %8s\n' "$corpus" "$what" "${sorted[0]}" "${sorted[$((RUNS / 2))]}"
  done
done
