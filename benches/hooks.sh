#!/usr/bin/env bash
# `ctx hook` end to end (process start to exit, payload on stdin) on the
# CPython standard library (python-stdlib of ../shared/bench/corpora.sh,
# copied to a scratch folder) with a built `.ctx/` (`ctx init`) and a
# session memory of 25 MB of transcript:
#
# - SessionStart: boot, the folder's context and the pack (target ≤ 50 ms);
# - UserPromptSubmit with a prompt about the code (target ≤ 100 ms), and
#   with one about nothing in it (injects nothing);
# - Stop on the unchanged 25 MB transcript: the incremental ingest finds
#   nothing to read (target ≤ 20 ms); then with one line appended.
#
# Prints medians and the slowest of RUNS runs, in ms, wall clock and (with
# perf) CPU time, which a busy machine inflates less; and what each injected.
# Usage: benches/hooks.sh [RUNS]   (default 20)
# Env:   CORPORA (default /tmp/corpora), CTX (default: target/release/ctx, built)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-20}
CORPORA=${CORPORA:-/tmp/corpora}
source benches/timing.sh
src=$CORPORA/python-stdlib
[[ -d $src ]] || { echo "missing $src: run bash ../shared/bench/corpora.sh" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp -a "$src" "$WORK/stdlib"
cd "$WORK/stdlib"
"$CTX" init >/dev/null

# A 25 MB Claude Code transcript: prompts and answers about the library.
python3 - "$WORK/session.jsonl" <<'PY'
import json, random, sys
random.seed(16)
words = ("json decoder encoder asyncio event loop task cancel socket http client server email parser "
         "multipart logging handler record thread lock queue pathlib glob regex pattern compile import "
         "module package unittest mock datetime timezone decimal fraction random sample csv reader writer "
         "sqlite cursor commit argparse option subprocess pipe signal timeout retry buffer stream").split()
out, i = open(sys.argv[1], "w"), 0
while out.tell() < 25 * 1024 * 1024:
    i += 1
    role = "user" if i % 2 else "assistant"
    text = " ".join(random.choice(words) for _ in range(random.randint(20, 300)))
    content = text if role == "user" else [{"type": "text", "text": text}]
    out.write(json.dumps({"type": role, "message": {"role": role, "content": content},
        "uuid": f"00000000-0000-4000-8000-{i:012d}", "sessionId": "bench-session",
        "timestamp": f"2026-03-01T10:{i // 60 % 60:02d}:{i % 60:02d}.000Z", "cwd": "/repo"}) + "\n")
PY
transcript=$WORK/session.jsonl
payload() { # EVENT [PROMPT]
  python3 -c 'import json,sys; e,p,cwd,t=sys.argv[1:5]; print(json.dumps({"session_id":"bench-session","transcript_path":t,"cwd":cwd,"permission_mode":"default","hook_event_name":e,"source":"startup","prompt":p,"stop_hook_active":False}))' \
    "$1" "${2:-}" "$PWD/${3:-.}" "$transcript"
}
# hook_ms EVENT PAYLOAD_FILE: one run, in ms to a tenth
hook_ms() {
  local t0=${EPOCHREALTIME/[.,]/} t1
  "$CTX" hook "$1" <"$2" >/dev/null 2>&1
  t1=${EPOCHREALTIME/[.,]/}
  local us=$((t1 - t0))
  printf '%d.%d\n' $((us / 1000)) $((us % 1000 / 100))
}
# hook_cpu_ms EVENT PAYLOAD_FILE: one run's CPU time (user + system, all threads), in ms
hook_cpu_ms() {
  perf stat -x, -e task-clock "$CTX" hook "$1" <"$2" 2>&1 >/dev/null | awk -F, '/task-clock/ {printf "%.1f\n", $1}'
}
stats() { sort -n | awk '{a[NR]=$1} END {printf "median %6s  max %6s", (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2), a[NR]}'; }
tokens_of() { "$CTX" hook "$1" <"$2" | python3 -c 'import json,sys; t=sys.stdin.read(); print(len(json.loads(t)["hookSpecificOutput"]["additionalContext"]) // 4 if t else 0, "tokens (chars/4)")'; }

payload Stop >"$WORK/stop.json"
records() { "$CTX" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["records"])'; }
# The first read of a long transcript takes several Stops (each stops
# starting slices at half the time cap): until nothing more comes.
t0=$(now_ms) stops=0 before=-1
while [[ $(records) != "$before" ]]; do before=$(records); "$CTX" hook Stop <"$WORK/stop.json"; stops=$((stops + 1)); done
echo "corpus: $(find . -name '*.py' | wc -l) .py files; transcript: $(du -m "$transcript" | cut -f1) MB, $(wc -l <"$transcript") lines -> $(records) records (first read: $stops Stops, $(( $(now_ms) - t0 )) ms)"

payload SessionStart "" json >"$WORK/start.json"
payload UserPromptSubmit "the json decoder rejects trailing commas in objects; make it accept them behind a strict=False flag" >"$WORK/prompt.json"
payload UserPromptSubmit "write me a haiku about autumn leaves" >"$WORK/unrelated.json"
for name in start prompt unrelated stop; do
  case $name in start) event=SessionStart ;; prompt | unrelated) event=UserPromptSubmit ;; stop) event=Stop ;; esac
  "$CTX" hook "$event" <"$WORK/$name.json" >/dev/null 2>&1 # warm the page cache
  line=$(for _ in $(seq "$RUNS"); do hook_ms "$event" "$WORK/$name.json"; done | stats)
  if command -v perf >/dev/null; then
    line="$line   cpu $(for _ in $(seq "$RUNS"); do hook_cpu_ms "$event" "$WORK/$name.json"; done | stats)"
  fi
  case $name in start | prompt | unrelated) what=$(tokens_of "$event" "$WORK/$name.json") ;; *) what="unchanged 25 MB transcript" ;; esac
  printf '%-30s %s   %s\n' "$event ($name)" "$line" "$what"
done
line=$(for i in $(seq "$RUNS"); do
  python3 -c 'import json,sys; print(json.dumps({"type":"user","message":{"role":"user","content":"one more prompt %s" % sys.argv[1]},"uuid":"appended-%s" % sys.argv[1],"sessionId":"bench-session","timestamp":"2026-03-02T00:00:00.000Z"}))' "$i" >>"$transcript"
  hook_ms Stop "$WORK/stop.json"
done | stats)
printf '%-30s %s   %s\n' "Stop (one line appended)" "$line" "25 MB transcript"
