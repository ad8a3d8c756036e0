# The timing helpers of the benchmark scripts, and the release `ctx`.
# Source it after `cd` to the repository root (benches/lib.sh does, before
# it copies its corpus; scripts without a corpus source this alone).
#
# Env: CTX (default: target/release/ctx, built here)

if [[ -z "${CTX:-}" ]]; then
  cargo build --release --locked --bin ctx >&2
  CTX=$PWD/target/release/ctx
fi

# now_ms: wall-clock milliseconds.
now_ms() { date +%s%3N; }
# median of the numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# time_ms CMD...: run once, print elapsed ms
time_ms() { local t0; t0=$(now_ms); "$@" >/dev/null 2>&1; echo $(( $(now_ms) - t0 )); }
# peak_rss_kb CMD...: the peak resident set of one run
peak_rss_kb() {
  if [[ -x /usr/bin/time ]]; then { /usr/bin/time -f "%M" "$@" >/dev/null; } 2>&1 | tail -1; else echo n/a; fi
}
# time_ms_fine CMD...: run once, print elapsed ms to a tenth (bash's
# EPOCHREALTIME, read without forking: for commands of a few milliseconds)
time_ms_fine() {
  local t0=${EPOCHREALTIME/[.,]/} t1
  "$@" >/dev/null 2>&1
  t1=${EPOCHREALTIME/[.,]/}
  local us=$((t1 - t0))
  printf '%d.%d\n' $((us / 1000)) $((us % 1000 / 100))
}
