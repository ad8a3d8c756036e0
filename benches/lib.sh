# Shared by the benchmark scripts: the corpus and the timing helpers.
# Source it after `cd` to the repository root; it leaves you in the corpus.
#
# Env: BENCH_DIR (default /tmp/ctx-bench-scan), CTX (default: target/release/ctx, built here)

BENCH_DIR=${BENCH_DIR:-/tmp/ctx-bench-scan}
SRC=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')

if [[ -z "${CTX:-}" ]]; then
  cargo build --release --locked --bin ctx >&2
  CTX=$PWD/target/release/ctx
fi

# The corpus, copied once into a scratch folder: CORPUS=pylib (the default)
# is the python3 install's whole lib directory, the stdlib with
# site-packages; CORPUS=stdlib is the CPython standard library alone (with
# its tests, without site-packages).
CORPUS=${CORPUS:-pylib}
TREE=$BENCH_DIR/$CORPUS
if [[ ! -d $TREE ]]; then
  echo "copying $SRC to $TREE ..." >&2
  mkdir -p "$BENCH_DIR"
  case $CORPUS in
    pylib) cp -a "$SRC" "$TREE" ;;
    stdlib) mkdir -p "$TREE" && (cd "$SRC" && tar --exclude=./site-packages --exclude=__pycache__ -cf - .) | tar -xf - -C "$TREE" ;;
    *) echo "CORPUS must be pylib or stdlib" >&2; exit 2 ;;
  esac
  # Let the copy's mtimes age past the racy-clean window before the first scan.
  sleep 2
fi
cd "$TREE"
files=$(find . -path ./.git -prune -o -path ./.ctx -prune -o -type f -print | wc -l)
bytes=$(du -sb --exclude=.git --exclude=.ctx . | cut -f1)

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
