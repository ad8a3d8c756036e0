#!/usr/bin/env bash
# A/B of `ctx scan && ctx build` after a one-file edit, two binaries taking
# turns, so that a busy host slows both alike. Each has its own copy of the
# corpus (CORPUS=stdlib, see benches/lib.sh) and its own store, and both get
# the same edits: each round, a comment appended to asyncio/base_events.py,
# then a new function appended (its tags change, so the graph and the ranks
# are made again), each timed as `ctx scan && ctx build`.
#
# Usage: benches/build_ab.sh OLD_CTX NEW_CTX [ROUNDS]   (default 9; medians)
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 2 ]] || { echo "usage: benches/build_ab.sh OLD_CTX NEW_CTX [ROUNDS]" >&2; exit 2; }
OLD=$(realpath "$1") NEW=$(realpath "$2") ROUNDS=${3:-9}
CTX=$NEW CORPUS=${CORPUS:-stdlib}
source benches/lib.sh

for name in old new; do
  rm -rf "$TREE-ab-$name" && mkdir -p "$TREE-ab-$name"
  tar --exclude=./.ctx -cf - . | tar -xf - -C "$TREE-ab-$name"
done
sleep 2 # past the racy-clean window of the copies' mtimes
for name in old new; do
  bin=$OLD; [[ $name == new ]] && bin=$NEW
  (cd "$TREE-ab-$name" && "$bin" init >/dev/null && "$bin" build >/dev/null)
done
scan_and_build() { "$1" scan && "$1" build; }
for round in $(seq "$ROUNDS"); do
  for name in old new; do
    bin=$OLD; [[ $name == new ]] && bin=$NEW
    cd "$TREE-ab-$name"
    echo "# ab $round" >> asyncio/base_events.py
    echo "$name comment $(time_ms scan_and_build "$bin")"
    printf '\n\ndef ab_helper_%s(loop):\n    return loop.run_until_complete(sleep(0))\n' "$round" \
      >> asyncio/base_events.py
    echo "$name function $(time_ms scan_and_build "$bin")"
  done
done | awk '{ t[$1" "$2] = t[$1" "$2] " " $3 } END { for (k in t) print k, t[k] }' | sort |
  while read -r name edit times; do
    printf '%-4s %-9s median %4s ms  (%s)\n' "$name" "$edit" "$(tr ' ' '\n' <<<"$times" | median)" "$times"
  done
