#!/usr/bin/env python3
"""Does `ctx rank` put the files a commit changed at the top, given its message?

For each non-merge commit of a git repository (newest first, at most --commits),
check out its parent in a scratch worktree, rank the parent's source files with
the commit message as the task, and count a hit at K when a file the commit
changed (and that existed before it) is among the top K. Compares:

  ctx         `ctx rank` as shipped (words, reference graph, and the history
              before the commit: the worktree's `git log` ends at the parent)
  no-history  `ctx rank --no-history` (what ranking does outside git)
  lexical     `ctx rank --no-history --lexical-only`, ctx's words alone
  bm25        plain Okapi BM25 over file contents (lowercased word tokens),
              the issue's baseline, when the `rank_bm25` package is importable

With --examples FILE (JSON lines of {repo, sha, parent, message, changed},
repo a folder under --repo), those commits are evaluated instead, per
repository: benches/release_history.py makes such histories from package
releases.

Usage: benches/rank_eval.py [--repo DIR] [--commits N] [--k 1,3,5,10]
                            [--max-changed N] [--ctx PATH] [--modes ctx,bm25]
                            [--examples FILE] [--dump FILE]
"""
import argparse, json, os, re, shutil, subprocess, tempfile

try:
    from rank_bm25 import BM25Okapi
except ImportError:
    BM25Okapi = None

SOURCE = (".rs", ".py", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".go", ".java", ".rb")
CTX_MODES = {
    "ctx": [],
    "no-history": ["--no-history"],
    "lexical": ["--no-history", "--lexical-only"],
}
WORD = re.compile(r"\w+")


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout


def plain_bm25(root, query, k):
    """The top k source files of `root` by BM25 over their contents."""
    paths, docs = [], []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in ("target", "node_modules"))
        for name in sorted(filenames):
            if name.endswith(SOURCE):
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    docs.append(WORD.findall(f.read().lower()))
                paths.append(os.path.relpath(path, root))
    if not docs:
        return []
    scores = BM25Okapi(docs).get_scores(WORD.findall(query.lower()))
    order = sorted(range(len(paths)), key=lambda i: (-scores[i], paths[i]))
    return [paths[i] for i in order[:k]]


def ctx_top(ctx, root, query, k, extra, env):
    out = subprocess.run([ctx, "--root", root, "--json", "rank", "--query", query, "-k", str(k), *extra],
                         check=True, capture_output=True, text=True, env=env).stdout
    return [f["path"] for f in json.loads(out)]


def commits(repo, n, max_changed):
    """(sha, parent, message, changed source files) of `repo`'s newest non-merge commits."""
    log = git(repo, "log", "--no-merges", "--format=%H%x00%P%x00%B%x1e", f"-{n}")
    for entry in log.split("\x1e"):
        entry = entry.strip()
        if not entry:
            continue
        sha, parents, message = entry.split("\x00", 2)
        if not parents:
            continue
        parent = parents.split()[0]
        changed = [f for f in git(repo, "diff", "--name-only", "--diff-filter=M", parent, sha).split()
                   if f.endswith(SOURCE)]
        if changed and not (max_changed and len(changed) > max_changed):
            yield sha, parent, message, changed


def evaluate(repo, items, modes, ks, ctx, hits, dump, label):
    """Rank each item's parent tree in a scratch worktree of `repo`; count hits per mode and K."""
    cache = tempfile.mkdtemp(prefix="ctx-rank-eval-cache-")
    wt = tempfile.mkdtemp(prefix="ctx-rank-eval-wt-")
    os.rmdir(wt)
    git(repo, "worktree", "add", "--detach", wt, "HEAD")
    env = dict(os.environ, CTX_CACHE_DIR=cache)
    n = 0
    try:
        for sha, parent, message, changed in items:
            git(wt, "checkout", "--quiet", "--detach", parent)
            n += 1
            tops = {}
            for mode in modes:
                if mode == "bm25":
                    tops[mode] = plain_bm25(wt, message, ks[-1])
                else:
                    tops[mode] = ctx_top(ctx, wt, message, ks[-1], CTX_MODES[mode], env)
                for k in ks:
                    hits[label][mode][k] += any(f in tops[mode][:k] for f in changed)
            if dump:
                dump.write(json.dumps({"repo": label, "sha": sha, "message": message, "changed": changed,
                                       "top": tops}) + "\n")
    finally:
        git(repo, "worktree", "remove", "--force", wt)
        shutil.rmtree(cache, ignore_errors=True)
    return n


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repo", default=".")
    p.add_argument("--examples", help="JSONL of {repo, sha, parent, message, changed}; repo is relative to --repo")
    p.add_argument("--commits", type=int, default=300)
    p.add_argument("--k", default="1,3,5,10")
    p.add_argument("--max-changed", type=int, default=0, help="skip commits that changed more source files (0: none)")
    p.add_argument("--ctx", default=os.path.abspath("target/release/ctx"))
    p.add_argument("--modes", default="ctx,no-history,lexical,bm25")
    p.add_argument("--dump", help="write one JSON line per commit: message, changed files, each mode's top")
    a = p.parse_args()
    ks = sorted(int(k) for k in a.k.split(","))
    modes = [m for m in a.modes.split(",") if m in CTX_MODES or (m == "bm25" and BM25Okapi)]
    base = os.path.abspath(a.repo)
    if a.examples:
        groups = {}
        for line in open(a.examples):
            e = json.loads(line)
            groups.setdefault(e["repo"], []).append((e["sha"], e["parent"], e["message"], e["changed"]))
    else:
        groups = {os.path.basename(base): None}
    hits = {label: {mode: {k: 0 for k in ks} for mode in modes} for label in groups}
    counts = {}
    dump = open(a.dump, "w") if a.dump else None
    try:
        for label, items in groups.items():
            repo = os.path.join(base, label) if a.examples else base
            items = items if items is not None else commits(repo, a.commits, a.max_changed)
            counts[label] = evaluate(repo, items, modes, ks, a.ctx, hits, dump, label)
    finally:
        if dump:
            dump.close()

    def row(name, n, table):
        return f"  {name:20} {n:5} " + " ".join(
            " ".join(f"{100 * table[mode][k] / max(n, 1):5.0f}%" for k in ks) + " |" for mode in modes)

    header = " ".join(" ".join(f"{'@' + str(k):>6}" for k in ks) + " |" for _ in modes)
    print("a changed file in the top K, per mode: " + ", ".join(modes))
    print(f"  {'repository':20} {'n':>5} {header}")
    total = {mode: {k: sum(hits[l][mode][k] for l in groups) for k in ks} for mode in modes}
    if len(groups) > 1:
        for label in groups:
            print(row(label, counts[label], hits[label]))
    print(row("all", sum(counts.values()), total))


if __name__ == "__main__":
    main()
