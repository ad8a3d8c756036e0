#!/usr/bin/env bash
# The fault suites of tests/e2e/faults.rs at length: `ctx scan`, `ctx build
# --force` and `ctx ingest` each killed (SIGKILL) at N random points, and 8
# writers doing N writes each beside builds and scans. Prints each suite's
# summary line, then the totals; exits 1 if any trial found a problem.
#
# Usage: benches/faults.sh [N]      (default 400)
# Env:   CTX_FAULT_SEED (replay a run: each suite prints its seed),
#        CTX_FAULT_INGEST_LINES (default 3000), CARGO_FLAGS (e.g. --release)
set -uo pipefail
cd "$(dirname "$0")/.."
N=${1:-400}
LOG=${FAULTS_LOG:-/tmp/ctx-faults.log}
# shellcheck disable=SC2086 # CARGO_FLAGS is a list of flags
CTX_FAULT_TRIALS=$N CTX_FAULT_WRITES=$N cargo test --locked -p ctxkeep --test e2e ${CARGO_FLAGS:-} faults:: \
  -- --nocapture --test-threads 1 >"$LOG" 2>&1
status=$?
# A summary may follow the test's name on its line (--nocapture).
grep -oE 'faults [a-z]+: .*' "$LOG"
grep -oE 'faults (scan|build|ingest): [0-9]+ trials.*' "$LOG" | awk '
  { gsub(/[(),]/, ""); trials += $3; killed += $5; corrupt += $8; lost += $11; failed += $14 }
  END { printf "total: %d trials (%d killed mid-run), %d corrupt databases, %d lost writes, %d failed recoveries\n",
        trials, killed, corrupt, lost, failed }'
if [[ $status != 0 ]]; then
  echo "problems found: see $LOG" >&2
  exit 1
fi
