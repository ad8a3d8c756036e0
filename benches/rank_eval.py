#!/usr/bin/env python3
"""Does `ctx rank` put the files a commit changed at the top, given its message?

For each non-merge commit of a git repository (newest first, at most --commits),
check out its parent in a scratch worktree, rank the parent's source files with
the commit message as the task, and count a hit when a file the commit changed
(and that existed before it) is among the top K. Compares ctx's fused ranking
with its own lexical half (`--lexical-only`) and, when the `rank_bm25`
package is importable (the peers venv has it: run this with
/tmp/peers-venv/bin/python), with plain BM25 over file contents (Okapi,
lowercased word tokens), the issue's baseline.

Usage: benches/rank_eval.py [--repo DIR] [--commits N] [--k 5] [--ctx PATH]
"""
import argparse, json, os, re, subprocess, sys, tempfile

try:
    from rank_bm25 import BM25Okapi
except ImportError:
    BM25Okapi = None

SOURCE = (".rs", ".py", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".go", ".java", ".rb")

def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout

WORD = re.compile(r"\w+")


def plain_bm25(root, query, k):
    """The top k source files of `root` by BM25 over their contents."""
    paths, docs = [], []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in ("target", "node_modules")]
        for name in filenames:
            if name.endswith(SOURCE):
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    docs.append(WORD.findall(f.read().lower()))
                paths.append(os.path.relpath(path, root))
    scores = BM25Okapi(docs).get_scores(WORD.findall(query.lower()))
    order = sorted(range(len(paths)), key=lambda i: (-scores[i], paths[i]))
    return [paths[i] for i in order[:k]]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repo", default=".")
    p.add_argument("--commits", type=int, default=200)
    p.add_argument("--k", type=int, default=5)
    p.add_argument("--ctx", default=os.path.abspath("target/release/ctx"))
    a = p.parse_args()
    repo = os.path.abspath(a.repo)
    log = git(repo, "log", "--no-merges", "--format=%H%x00%P%x00%B%x1e", f"-{a.commits}")
    cache = tempfile.mkdtemp(prefix="ctx-rank-eval-cache-")
    wt = tempfile.mkdtemp(prefix="ctx-rank-eval-wt-")
    os.rmdir(wt)
    git(repo, "worktree", "add", "--detach", wt, "HEAD")
    env = dict(os.environ, CTX_CACHE_DIR=cache)
    modes = ["ctx", "lexical"] + (["bm25"] if BM25Okapi else [])
    hits = {mode: 0 for mode in modes}
    evaluated = 0
    try:
        for entry in log.split("\x1e"):
            entry = entry.strip()
            if not entry:
                continue
            sha, parents, message = entry.split("\x00", 2)
            if not parents:
                continue
            parent = parents.split()[0]
            changed = [f for f in git(repo, "diff", "--name-only", "--diff-filter=M", parent, sha).split() if f.endswith(SOURCE)]
            if not changed:
                continue
            git(wt, "checkout", "--quiet", "--detach", parent)
            evaluated += 1
            for mode, extra in (("ctx", []), ("lexical", ["--lexical-only"])):
                out = subprocess.run([a.ctx, "--root", wt, "--json", "rank", "--query", message, "-k", str(a.k), *extra],
                                     check=True, capture_output=True, text=True, env=env).stdout
                top = [f["path"] for f in json.loads(out)]
                hits[mode] += any(f in top for f in changed)
            if BM25Okapi:
                hits["bm25"] += any(f in plain_bm25(wt, message, a.k) for f in changed)
    finally:
        git(repo, "worktree", "remove", "--force", wt)
    print(f"{evaluated} commits of {repo}: a changed file in the top {a.k}:")
    for mode in modes:
        print(f"  {mode:5} {hits[mode]:4} ({100 * hits[mode] / max(evaluated, 1):.0f}%)")

if __name__ == "__main__":
    main()
