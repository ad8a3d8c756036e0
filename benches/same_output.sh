#!/usr/bin/env bash
# Whether two builds of `ctx` print the same maps and rankings on the corpora
# of ../shared/bench/corpora.sh: for a change meant to make ctx faster and
# nothing else. Plain and query maps at budgets from 64 to 16,000 tokens, and
# `ctx rank --json`, for a few tasks; each build with a cache of its own.
# Prints each difference; exits 1 if there is one.
# Usage: benches/same_output.sh CTX_A CTX_B [CORPUS...]
#        (default: the three corpora). Env: CORPORA (default /tmp/corpora).
set -uo pipefail
[[ $# -ge 2 ]] || { sed -n 2,8p "$0" >&2; exit 2; }
A=$1 B=$2
shift 2
corpora=("$@")
[[ ${#corpora[@]} -gt 0 ]] || corpora=(python-stdlib rust-crates ts-src)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tasks=(
  "parse the config file and report errors"
  "fix the timeout when the connection is closed"
  "add a test for Unicode width of wide characters"
  "rename the builder's option and update its docs"
  "Session.resolve_redirects drops the cookie"
  "make the progress bar redraw less often"
)
differ=0
for corpus in "${corpora[@]}"; do
  dir=${CORPORA:-/tmp/corpora}/$corpus
  [[ -d $dir ]] || { echo "missing $dir: run ../shared/bench/corpora.sh" >&2; exit 1; }
  for build in a b; do mkdir -p "$work/cache-$build-$corpus"; done
  compare() { # label, then the arguments after --root
    local label=$1
    shift
    CTX_CACHE_DIR=$work/cache-a-$corpus "$A" --root "$dir" "$@" >"$work/a" 2>/dev/null
    CTX_CACHE_DIR=$work/cache-b-$corpus "$B" --root "$dir" "$@" >"$work/b" 2>/dev/null
    if ! cmp -s "$work/a" "$work/b"; then
      echo "DIFFERENT: $corpus $label"
      differ=1
    fi
  }
  for tokens in 64 512 1024 4096 16000; do
    compare "map --tokens $tokens" map --tokens "$tokens"
    for task in "${tasks[@]}"; do
      compare "map --tokens $tokens --query '$task'" map --tokens "$tokens" --query "$task"
    done
  done
  for task in "${tasks[@]}"; do
    compare "rank --json '$task'" --json rank --query "$task"
  done
  echo "$corpus: compared"
done
exit $differ
