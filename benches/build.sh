#!/usr/bin/env bash
# Benchmark `ctx build` and `ctx context` on the CPython standard library
# (CORPUS=stdlib, see benches/lib.sh: 174 folders, so 696 context files
# in four tiers); CORPUS=pylib measures the whole lib dir with site-packages
# (~8,000 folders).
#
#   cold:       no context files yet (database scanned), every file written
#   unchanged:  nothing changed since the last build
#   one change: one file edited (a comment appended), `ctx scan` then `ctx build`
#               (timed together)
#   one new def: the same, but the edit adds a function that calls others:
#               its tags change, so the graph and the ranks are made again
#   context:    `ctx context asyncio` (standard tier, markdown), files current
#
# Usage: benches/build.sh [RUNS]     (default 3 runs each; medians reported)
# Env:   see benches/lib.sh; TOKENIZER=estimate measures the 4-chars estimate
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${1:-3}
CORPUS=${CORPUS:-stdlib}
source benches/lib.sh

"$CTX" init --no-scan >/dev/null
printf '[build]\ntokenizer = "%s"\n' "${TOKENIZER:-o200k}" > .ctx/config.toml
"$CTX" scan >/dev/null
cold=$(for _ in $(seq "$RUNS"); do rm -rf .ctx/context; time_ms "$CTX" build --force; done | median)
"$CTX" build >/dev/null
unchanged=$(for _ in $(seq "$RUNS"); do time_ms "$CTX" build; done | median)
scan_and_build() { "$CTX" scan && "$CTX" build; }
one=$(for i in $(seq "$RUNS"); do echo "# bench $i" >> asyncio/base_events.py; time_ms scan_and_build; done | median)
new_def=$(for i in $(seq "$RUNS"); do
  printf '\n\ndef bench_helper_%s(loop):\n    return loop.run_until_complete(sleep(0))\n' "$i" >> asyncio/base_events.py
  time_ms scan_and_build
done | median)
context=$(for _ in $(seq "$RUNS"); do time_ms "$CTX" context asyncio; done | median)
context_json=$(for _ in $(seq "$RUNS"); do time_ms "$CTX" context asyncio --format json; done | median)
peak_kb=$(rm -rf .ctx/context; peak_rss_kb "$CTX" build --force)
folders=$("$CTX" --json status | python3 -c 'import json,sys; print(json.load(sys.stdin)["folders"])')
context_files=$(find .ctx/context -name '*.md' | wc -l)
rm .ctx/config.toml

cat <<OUT
tree: $TREE ($files files, $folders folders, $((bytes / 1000000)) MB), tokenizer ${TOKENIZER:-o200k}
ctx build, median of $RUNS runs (ms):
  cold (all $context_files context files)   $cold
  unchanged (nothing to write)        $unchanged
  scan + build after one-file change  $one
  scan + build after one new function  $new_def
ctx context asyncio (md, file current)  $context
ctx context asyncio --format json       $context_json
peak RSS of a cold build              $peak_kb KB
OUT
