#!/usr/bin/env bash
# How well `ctx rank`, plain BM25, `ctx map --query` and Aider's repo map find
# the files real commits modified, given the commit message (issue 17).
#
# Per repository: `ctx eval --json --cases` (the newest eligible commits:
# non-merge, modifying 1-3 source files; each parent checked out in a scratch
# clone), then Aider's map on the same cases (benches/history_eval.py aider),
# then R@1/R@5/R@10 and MRR per repository, over all, over the tuning set and
# over the held-out set (benches/history_eval.py report).
#
# Repositories come from the fetched mirrors ($MIRRORS/<owner>+<name>/repo).
# Aider needs the peers venv: bash ../shared/bench/peers/install_peers.sh
#
# Usage: benches/history_eval.sh [--commits N] [--repos owner/name,...] [--no-aider]
#   --commits N   cases per repository (default 40; Aider takes ~1 s a map)
#   --repos LIST  default: the 14 repositories below
# Env: MIRRORS (default /work/.mirror), OUT (default /tmp/ctx-history-eval),
#      PEERS_VENV (default /tmp/peers-venv), CTX (default: target/release/ctx, built here)
set -euo pipefail
cd "$(dirname "$0")/.."

HELD_OUT=encode/httpx,python-attrs/attrs,sharkdp/fd,rust-lang/regex,trpc/trpc,date-fns/date-fns
REPOS=pallets/click,pallets/werkzeug,tiangolo/typer,clap-rs/clap,tokio-rs/axum,sharkdp/bat,axios/axios,vitest-dev/vitest,$HELD_OUT
COMMITS=40
AIDER=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --commits) COMMITS=$2; shift 2 ;;
    --repos) REPOS=$2; shift 2 ;;
    --no-aider) AIDER=0; shift ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
MIRRORS=${MIRRORS:-/work/.mirror}
OUT=${OUT:-/tmp/ctx-history-eval}
PEERS_VENV=${PEERS_VENV:-/tmp/peers-venv}
if [[ -z ${CTX:-} ]]; then
  cargo build --release --locked --bin ctx >&2
  CTX=$PWD/target/release/ctx
fi
if [[ $AIDER == 1 && ! -x $PEERS_VENV/bin/python ]]; then
  echo "no $PEERS_VENV: run ../shared/bench/peers/install_peers.sh (or pass --no-aider)" >&2
  exit 1
fi
mkdir -p "$OUT/repos"
export CTX_CACHE_DIR=$OUT/cache

inputs=() skipped=()
IFS=, read -ra repos <<<"$REPOS"
for repo in "${repos[@]}"; do
  name=${repo/\//+}
  src=$MIRRORS/$name/repo
  # A repository not fetched here is left out of the report, which says so.
  [[ -d $src ]] || { echo "$repo: skipped, no mirror at $src (fetch github:$repo)" >&2; skipped+=("$repo"); continue; }
  # A clone without a checkout: ctx eval reads only the history.
  work=$OUT/repos/$name
  [[ -d $work ]] || git clone --quiet --shared --no-checkout "$src" "$work"
  echo "$repo: ctx eval ($COMMITS commits)" >&2
  start=$(date +%s)
  "$CTX" --root "$work" --json eval --cases --commits "$COMMITS" --tokens 1024,4096 >"$OUT/$name.ctx.json"
  echo "$repo: ctx eval took $(( $(date +%s) - start )) s" >&2
  files=$OUT/$name.ctx.json
  if [[ $AIDER == 1 ]]; then
    start=$(date +%s)
    "$PEERS_VENV/bin/python" benches/history_eval.py aider --repo "$work" --cases "$OUT/$name.ctx.json" \
      --tokens 1024,4096 >"$OUT/$name.aider.json" 2>"$OUT/$name.aider.log"
    echo "$repo: aider took $(( $(date +%s) - start )) s" >&2
    files+=,$OUT/$name.aider.json
  fi
  inputs+=("$repo=$files")
done
echo "ctx $("$CTX" --version | cut -d' ' -f2) at $(git rev-parse --short HEAD)"
[[ ${#skipped[@]} -eq 0 ]] || echo "not fetched, left out: ${skipped[*]}"
python3 benches/history_eval.py report --held-out "$HELD_OUT" "${inputs[@]}" | tee "$OUT/report.txt"
