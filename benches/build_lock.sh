#!/usr/bin/env bash
# How long other writers wait while `ctx build --force` runs on the CPython
# library: a build renders outside the database's write lock and takes it
# only to record what it wrote, so a write should wait at most about a second.
#
# While each forced build runs, writes go on back to back, alternating
# `ctx folder describe asyncio` and `ctx frame push`; each is timed from
# process start to exit (so a write's time includes starting `ctx`, the
# "idle" line: the same writes with no build running). A failed write
# ("database is locked") is counted and fails the script.
#
# Usage: benches/build_lock.sh [RUNS]   (default 3 forced builds)
# Env:   see benches/lib.sh (CORPUS=pylib, the default, is the whole lib
#        directory with site-packages; CORPUS=stdlib the standard library alone)
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${1:-3}
source benches/lib.sh

rm -rf .ctx
"$CTX" init --no-scan >/dev/null
"$CTX" scan >/dev/null
"$CTX" build >/dev/null
"$CTX" frame push "Benchmark writes" >/dev/null # F1: the frames pushed below go under it

failed=0
# write N: one timed write (ms to a tenth on stdout); counts failures.
write() {
  local t0=${EPOCHREALTIME/[.,]/} t1 ok=1
  if (( $1 % 2 )); then
    "$CTX" frame push --parent F1 "Benchmark goal $1" >/dev/null 2>>"$errors" || ok=0
  else
    "$CTX" folder describe asyncio --description "Described by write $1." >/dev/null 2>>"$errors" || ok=0
  fi
  t1=${EPOCHREALTIME/[.,]/}
  (( ok )) || failed=$((failed + 1))
  local us=$((t1 - t0))
  printf '%d.%d\n' $((us / 1000)) $((us % 1000 / 100)) >>"$waits"
}
errors=$(mktemp)
waits=$(mktemp)
trap 'rm -f "$errors" "$waits"' EXIT

n=0
for _ in $(seq 20); do write $((n++)); done
idle=$(median <"$waits")
: >"$waits"

builds=()
for _ in $(seq "$RUNS"); do
  t0=$(now_ms)
  "$CTX" build --force >/dev/null &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do write $((n++)); done
  wait "$pid"
  builds+=($(( $(now_ms) - t0 )))
  "$CTX" build >/dev/null # what the writes changed, so every forced build starts alike
done

count=$(wc -l <"$waits")
sorted=$(sort -n "$waits")
p50=$(median <"$waits")
p99=$(awk -v n="$count" 'NR == int((n * 99 + 99) / 100) {print}' <<<"$sorted")
max=$(tail -1 <<<"$sorted")
folders=$("$CTX" --json status | python3 -c 'import json,sys; print(json.load(sys.stdin)["folders"])')
rm -rf .ctx

cat <<OUT
tree: $TREE ($files files, $folders folders)
ctx build --force, $RUNS runs (ms): ${builds[*]}
writes during the builds: $count, failed: $failed
  write time (ms): median $p50, p99 $p99, max $max
  idle write time (ms, no build running): median $idle
OUT
if (( failed )); then
  sort -u "$errors" >&2
  exit 1
fi
