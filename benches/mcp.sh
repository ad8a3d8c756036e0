#!/usr/bin/env bash
# `ctx mcp` on a warm server: the round trip of the `context` and `search`
# tools, measured by a minimal JSON-RPC client (benches/mcp_client.py) on the
# CPython standard library (CORPUS=stdlib of benches/lib.sh) with a built
# `.ctx/` and RECORDS session records of real text (benches/memory_corpus.py).
# `context` cycles through every folder (standard tier), `search` through
# the memory benchmark's queries.
#
# Usage: benches/mcp.sh [CALLS]   (default 1000 per tool, after 200 warm-up calls)
# Env:   RECORDS (default 10000); see benches/lib.sh
set -euo pipefail
cd "$(dirname "$0")/.."
HERE=$PWD
CALLS=${1:-1000}
RECORDS=${RECORDS:-10000}
CORPUS=stdlib
source benches/lib.sh

echo "corpus: $TREE ($files files, $(( bytes / 1024 / 1024 )) MB)"
if [[ ! -f .ctx/ctx.db ]]; then
  "$CTX" init --no-agents >/dev/null
fi
"$CTX" build --scan >/dev/null
records=$BENCH_DIR/mcp-records-$RECORDS.jsonl
queries=$BENCH_DIR/mcp-queries.txt
if [[ ! -s $records ]]; then
  python3 "$HERE/benches/memory_corpus.py" "$RECORDS" --queries "$queries" > "$records"
fi
"$CTX" ingest "$records" >/dev/null
folders=$BENCH_DIR/mcp-folders.txt
python3 - > "$folders" <<'EOF'
import sqlite3
for (path,) in sqlite3.connect(".ctx/ctx.db").execute("SELECT path FROM nodes WHERE kind = 'folder' ORDER BY path"):
    print(path)
EOF
echo "folders: $(wc -l < "$folders"), records: $RECORDS, queries: $(wc -l < "$queries")"
python3 "$HERE/benches/mcp_client.py" "$CTX" "$queries" "$folders" --calls "$CALLS"
