#!/usr/bin/env bash
# `ctx map` on a synthetic tree of 100,000 source files (Python and Rust,
# 1,000 folders of 100, each file defining and calling names of others):
# does a cold run complete, how long, how much memory; then a warm run.
# Run it in a terminal to see the progress bar (stderr).
#
# Usage: benches/map_100k.sh [FILES]   (default 100000). Env: BENCH_DIR (default /tmp/ctx-bench-100k)
set -euo pipefail
cd "$(dirname "$0")/.."
FILES=${1:-100000}
DIR=${BENCH_DIR:-/tmp/ctx-bench-100k}/tree-$FILES
cargo build --release --locked --bin ctx >&2
CTX=$PWD/target/release/ctx
if [[ ! -d $DIR ]]; then
  echo "writing $FILES files to $DIR ..." >&2
  python3 - "$DIR" "$FILES" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    folder = os.path.join(root, f"pkg{i // 10000}", f"mod{(i // 100) % 100}")
    os.makedirs(folder, exist_ok=True)
    j, k = (i * 7919 + 1) % n, (i * 104729 + 3) % n
    if i % 2:
        text = (f"class Widget{i}:\n    def render_{i}(self, value):\n        return helper_{j}(value) + helper_{k}(value)\n\n"
                f"def helper_{i}(value):\n    return Widget{j}().render_{j}(value)\n")
        name = f"w{i}.py"
    else:
        text = (f"pub struct Widget{i};\n\nimpl Widget{i} {{\n    pub fn render_{i}(&self, value: u32) -> u32 {{\n"
                f"        helper_{j}(value) + helper_{k}(value)\n    }}\n}}\n\npub fn helper_{i}(value: u32) -> u32 {{\n    value\n}}\n")
        name = f"w{i}.rs"
    with open(os.path.join(folder, name), "w") as f:
        f.write(text)
PY
fi
export CTX_CACHE_DIR=$(mktemp -d)
trap 'rm -rf "$CTX_CACHE_DIR"' EXIT
echo "cold:" >&2
/usr/bin/time -f "cold: %e s wall, %M KB peak" "$CTX" --root "$DIR" map --tokens 2048 > /dev/null
/usr/bin/time -f "warm: %e s wall, %M KB peak" "$CTX" --root "$DIR" map --tokens 2048 --query "render widget" > /dev/null
