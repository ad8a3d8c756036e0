#!/usr/bin/env bash
# Session memory at scale: ingest N records of real text (CPython docstrings
# and comments, benches/memory_corpus.py) and time `ctx search` over 300
# queries (words, phrases, prefixes) as fresh processes, in each mode.
#
# Usage: benches/memory.sh [N]      (default 1000000)
# Env:   BENCH_DIR (default /tmp/ctx-bench-memory), CTX (see benches/timing.sh),
#        MODES (default "lexical hybrid"; also vector)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000000}
source benches/timing.sh
DIR=${BENCH_DIR:-/tmp/ctx-bench-memory}/$N
mkdir -p "$DIR"
if [[ ! -s $DIR/records.jsonl ]]; then
  python3 benches/memory_corpus.py "$N" --queries "$DIR/queries.txt" > "$DIR/records.jsonl"
fi
rm -rf "$DIR/ws" && mkdir -p "$DIR/ws" && cd "$DIR/ws"
"$CTX" init --no-scan >/dev/null
start=$(now_ms)
"$CTX" ingest "$DIR/records.jsonl" >/dev/null
ingest_ms=$(( $(now_ms) - start ))
db=$(stat -c %s .ctx/ctx.db)
echo "records: $N, ingest: $ingest_ms ms ($(( N * 1000 / (ingest_ms > 0 ? ingest_ms : 1) )) records/s)"
echo "database: $(( db / 1024 / 1024 )) MB, $(( db / N )) bytes a record"
set -f  # a query like `pars*` is no glob
p() { printf '%s\n' "${times[@]}" | sort -n | awk -v q="$1" '{a[NR]=$1} END {i=int(NR*q+0.5); if (i<1) i=1; print a[i]}'; }
for mode in ${MODES:-lexical hybrid}; do
  times=()
  while IFS= read -r query; do
    # shellcheck disable=SC2086 # a query is several words
    times+=("$(time_ms_fine "$CTX" search --mode "$mode" -k 10 -- $query)")
  done < "$DIR/queries.txt"
  echo "search --mode $mode (${#times[@]} queries, fresh processes): p50 $(p 0.5) ms, p99 $(p 0.99) ms"
done
