#!/usr/bin/env python3
"""Does `ctx rank` put the files a commit changed at the top, given its message?

For each non-merge commit of a git repository (newest first, at most --commits),
check out its parent in a scratch worktree, rank the parent's source files with
the commit message as the task, and count a hit when a file the commit changed
(and that existed before it) is among the top K. Compares ctx's fused ranking
with its BM25-only baseline (`--lexical-only`).

Usage: benches/rank_eval.py [--repo DIR] [--commits N] [--k 5] [--ctx PATH]
"""
import argparse, json, os, subprocess, sys, tempfile

SOURCE = (".rs", ".py", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".go", ".java", ".rb")

def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout

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
    hits = {"ctx": 0, "bm25": 0}
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
            for mode, extra in (("ctx", []), ("bm25", ["--lexical-only"])):
                out = subprocess.run([a.ctx, "--root", wt, "--json", "rank", "--query", message, "-k", str(a.k), *extra],
                                     check=True, capture_output=True, text=True, env=env).stdout
                top = [f["path"] for f in json.loads(out)]
                hits[mode] += any(f in top for f in changed)
    finally:
        git(repo, "worktree", "remove", "--force", wt)
    print(f"{evaluated} commits of {repo}: a changed file in the top {a.k}:")
    for mode in ("ctx", "bm25"):
        print(f"  {mode:5} {hits[mode]:4} ({100 * hits[mode] / max(evaluated, 1):.0f}%)")

if __name__ == "__main__":
    main()
