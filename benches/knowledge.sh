#!/usr/bin/env bash
# The cost of keeping authored knowledge in committed files (.ctx/knowledge/,
# docs/knowledge.md), on the CPython library with a large body of knowledge:
# every folder described, DECISIONS decisions and TASKS tasks (with criteria
# and attempts), written as files the way a clone receives them.
#
# Prints, in ms (median of RUNS where it says so):
# - load: `ctx scan` of a fresh clone's database, every knowledge file read in;
# - rescan: `ctx scan` when nothing changed (the sync's listing and stats);
# - one write: `ctx log` and `ctx task add` (each syncs both ways: lists the
#   files, renders every item, writes one);
# - no knowledge: the same writes in the same repository without knowledge files.
#
# Usage: benches/knowledge.sh [RUNS]   (default 5)
# Env:   DECISIONS (default 5000), TASKS (default 1000); see benches/lib.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${1:-5}
DECISIONS=${DECISIONS:-5000}
TASKS=${TASKS:-1000}
source benches/lib.sh

rm -rf .ctx
"$CTX" init --no-scan >/dev/null
"$CTX" scan >/dev/null

# Writes one knowledge file an item, as a clone checks them out.
python3 - "$DECISIONS" "$TASKS" <<'EOF'
import os, sqlite3, sys
decisions, tasks = int(sys.argv[1]), int(sys.argv[2])
db = sqlite3.connect(".ctx/ctx.db")
folders = [row[0] for row in db.execute("SELECT path FROM nodes WHERE kind = 'folder' ORDER BY path")]
db.close()
def encode(key):
    return "_root" if key == "." else key.replace("-", "%2D").replace("/", "--").lstrip(".")
for kind in ("folders", "decisions", "frames"):
    os.makedirs(f".ctx/knowledge/{kind}", exist_ok=True)
def q(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
for path in folders:
    name = encode(path)
    if len(name) > 200 or "%" in path or name != name.strip():
        continue
    with open(f".ctx/knowledge/folders/{name}.md", "w") as f:
        f.write(f"+++\npath = {q(path)}\ndescription = {q('What ' + path + ' holds, in one line')}\n+++\n\n"
                f"Long-form notes on {path}: conventions, pitfalls, owners.\n")
for i in range(decisions):
    folder = folders[i % len(folders)]
    with open(f".ctx/knowledge/decisions/D-{i:012x}.md", "w") as f:
        f.write(f"+++\nid = \"D-{i:012x}\"\ntitle = \"Decision {i} on {folder}\"\nfolder = {q(folder)}\n"
                f"tags = [\"architectural\"]\ndate = \"2026-01-01T00:00:{i % 60:02d}.000Z\"\n+++\n\n"
                f"Because of reason {i}, weighed against the alternatives.\n")
for i in range(1, tasks + 1):
    uid = f"{i:012x}"
    epic = "" if i % 20 == 1 else f"parent = \"{(i - (i - 1) % 20):012x}\"\n"
    kind = "epic" if i % 20 == 1 else "task"
    with open(f".ctx/knowledge/frames/F{i}-{uid}.md", "w") as f:
        f.write(f"+++\nuid = \"{uid}\"\nnumber = {i}\ntype = \"{kind}\"\ntitle = \"Task {i}\"\nstatus = \"planned\"\n{epic}"
                f"criteria = [\"criterion one\", \"criterion two\"]\ncreated = \"2026-01-01T00:00:00.000Z\"\n\n"
                f"[[attempts]]\nid = \"A-{i:012x}\"\ndate = \"2026-01-02T00:00:00.000Z\"\nreason = \"flaky test\"\n"
                f"observations = [\"the pool ran dry\"]\n+++\n\nDo task {i} well.\n")
EOF
files=$(find .ctx/knowledge -type f | wc -l)
echo "corpus: $CORPUS, $files knowledge files ($DECISIONS decisions, $TASKS frames, the rest folders)"

fresh_load() { rm -f .ctx/ctx.db*; "$CTX" init --no-scan >/dev/null; time_ms "$CTX" scan; }
echo "load (fresh database, every file read): $(for _ in $(seq "$RUNS"); do fresh_load; done | median) ms"
echo "rescan, nothing changed: $(for _ in $(seq "$RUNS"); do time_ms "$CTX" scan; done | median) ms"
echo "ctx log: $(for i in $(seq "$RUNS"); do time_ms_fine "$CTX" log . --title "Bench decision $i"; done | median) ms"
echo "ctx task add: $(for i in $(seq "$RUNS"); do time_ms_fine "$CTX" task add "Bench task $i"; done | median) ms"

rm -rf .ctx/knowledge .ctx/ctx.db*
"$CTX" init --no-scan >/dev/null
"$CTX" scan >/dev/null
echo "no knowledge, ctx log: $(for i in $(seq "$RUNS"); do time_ms_fine "$CTX" log . --title "Bench decision $i"; done | median) ms"
echo "no knowledge, ctx task add: $(for i in $(seq "$RUNS"); do time_ms_fine "$CTX" task add "Bench task $i"; done | median) ms"
