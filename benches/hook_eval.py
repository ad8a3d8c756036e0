#!/usr/bin/env python3
"""Which files the UserPromptSubmit hook shows for real commit messages.

  benches/hook_eval.py CTX EVAL_DIR REPO [REPO ...] [--cases N]

For the first N cases (default 15) of each repository's `ctx eval --json
--cases` output in EVAL_DIR (`EVAL_DIR/<owner>+<name>.ctx.json`, as
benches/history_eval.sh writes it), check the parent out in a scratch clone
of the mirror (`$MIRRORS/<owner>+<name>/repo`, default /work/.mirror) and
ask `ctx hook UserPromptSubmit` there with the commit message as the prompt.
`ctx init` runs once per repository, at the first case's parent (the newest);
the other cases are older parents, so the store the hook finds was made from
another tree and another HEAD, as when a user ran `ctx init` once and the
repository moved on. No other ctx command runs before the hook. Prints
per case the files shown, then how often a file the commit changed was among
them (hit), first (@1), and how often nothing was shown (empty), next to
`ctx rank`'s R@5 and R@1 from the eval output for the same cases. Of the
cases whose commit changed a definition (`changed_definitions`, from an eval
output made by a ctx that records them), how often the hook named one of
them (`name (l. N)` on a changed file's line, N its first line in the
parent: def hit) and how often the first definition it named was one (def @1).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hook_ask import ask, files_shown, run  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ctx")
    ap.add_argument("eval_dir")
    ap.add_argument("repos", nargs="+")
    ap.add_argument("--cases", type=int, default=15)
    args = ap.parse_args()
    mirrors = os.environ.get("MIRRORS", "/work/.mirror")
    scratch = tempfile.mkdtemp(prefix="ctx-hook-eval-")
    env = dict(os.environ, CTX_CACHE_DIR=os.path.join(scratch, "cache"))
    shown, rank_ranks, defs_shown = [], [], []
    for repo in args.repos:
        cases = json.load(open(os.path.join(args.eval_dir, f"{repo}.ctx.json")))["cases"][: args.cases]
        work = os.path.join(scratch, repo)
        run("git", "clone", "-q", os.path.join(mirrors, repo, "repo"), work)
        for case in cases:
            run("git", "-C", work, "checkout", "-q", "-f", case["parent"])
            run("git", "-C", work, "clean", "-qfdx", "-e", ".ctx")
            if not os.path.isdir(os.path.join(work, ".ctx")):
                run(args.ctx, "--root", work, "-q", "init", env=env)
            text = ask(args.ctx, work, case["message"], env, scratch)
            files = files_shown(text)
            hit = next((i + 1 for i, f in enumerate(files) if f in case["changed"]), None)
            shown.append((files, hit))
            changed = {(d["path"], d["line"]) for d in case.get("changed_definitions", [])}
            if changed:
                # `- path: Name (l. 12), Class.method (l. 40)`: each name's file and line.
                named = [(path, int(line)) for path, rest in re.findall(r"^- ([^\s:]+): (.*)$", text, re.M)
                         for line in re.findall(r"\(l\. (\d+)\)", rest)]
                defs_shown.append(next((i + 1 for i, d in enumerate(named) if d in changed), None))
            rank_ranks.append(next(r["rank"] for r in case["results"] if r["method"] == "rank"))
            print(f"{repo:24} {str(hit):4} {case['subject'][:50]:50} {files}", file=sys.stderr)
    n = len(shown)
    hits = sum(h is not None for _, h in shown)
    first = sum(h == 1 for _, h in shown)
    empty = sum(not f for f, _ in shown)
    r5 = sum(r is not None and r <= 5 for r in rank_ranks)
    r1 = sum(r == 1 for r in rank_ranks)
    print(f"{n} cases: hook hit {hits} ({hits / n:.2f}), @1 {first} ({first / n:.2f}), "
          f"empty {empty} ({empty / n:.2f}), {sum(len(f) for f, _ in shown) / n:.1f} files shown; "
          f"ctx rank R@5 {r5 / n:.2f}, R@1 {r1 / n:.2f}")
    if defs_shown:
        d = len(defs_shown)
        d_hit = sum(h is not None for h in defs_shown)
        d_first = sum(h == 1 for h in defs_shown)
        print(f"{d} cases changed a definition: hook named one {d_hit} ({d_hit / d:.2f}), "
              f"first {d_first} ({d_first / d:.2f})")
    subprocess.run(["rm", "-rf", scratch])


if __name__ == "__main__":
    main()
