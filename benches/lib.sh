# Shared by the benchmark scripts: the corpus and the timing helpers (those
# are benches/timing.sh's). Source it after `cd` to the repository root; it
# leaves you in the corpus.
#
# Env: BENCH_DIR (default /tmp/ctx-bench-scan), CTX (default: target/release/ctx, built here)

BENCH_DIR=${BENCH_DIR:-/tmp/ctx-bench-scan}
SRC=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')

source benches/timing.sh

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
