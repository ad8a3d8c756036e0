#!/usr/bin/env python3
"""Which files the UserPromptSubmit hook shows for plain-English prompts.

  benches/hook_plain.py CTX CASES.jsonl [CASES.jsonl ...] [--keep DIR]

A case is a JSON line `{"repo": "owner/name", "prompt": "...", "files": [...]}`:
a bug report or small request in a user's words (no identifiers, no paths)
and the 1–3 source files a maintainer would edit, or `"files": []` for a
prompt that is not about the repository at all ("thanks, that works"). For
each repository, a scratch clone of its mirror (`$MIRRORS/<owner>+<name>/repo`,
default /work/.mirror) at HEAD gets `ctx init`, then `ctx hook
UserPromptSubmit` runs once per prompt, and `ctx rank` (top 5) for the same
prompt. Prints per case the files shown, then, over the prompts about the
code: how often a file to edit was shown (hit), first (@1), nothing was shown
(silent), and `ctx rank`'s R@5 and R@1 beside them (what the hook could show);
over the others: how often the hook injected anything (it should not).
Commit messages are a developer's words (benches/hook_eval.py replays them);
these are a user's. benches/hook_prompts/ holds the cases: tuning.jsonl
(arrow, tenacity, structlog, jotai, starlette, indicatif, loguru, tqdm, koa,
got, rand, crossterm, rich, just, axios, click, bat, fastify), second.jsonl
(a second tuning set: zustand, typer, mio, yarl, commander.js, swr, chrono,
pluggy, ofetch, ratatui, hyperfine, rayon) and held-out.jsonl (gunicorn,
valtio, dialoguer: never tuned on), written by reading each repository's
code, before any ctx output was seen; off-topic-long.jsonl, ten long
questions about something else ("explain the CAP theorem with concrete
examples…") asked in six repositories.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hook_ask import ask, files_shown, run  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ctx")
    ap.add_argument("cases", nargs="+")
    ap.add_argument("--keep", help="write each case's injection here")
    args = ap.parse_args()
    cases = [json.loads(line) for path in args.cases for line in open(path) if line.strip()]
    mirrors = os.environ.get("MIRRORS", "/work/.mirror")
    scratch = tempfile.mkdtemp(prefix="ctx-hook-plain-")
    env = dict(os.environ, CTX_CACHE_DIR=os.path.join(scratch, "cache"))
    about, off = [], []
    works = {}
    for k, case in enumerate(cases):
        repo = case["repo"]
        if repo not in works:
            work = os.path.join(scratch, repo.replace("/", "+"))
            run("git", "clone", "-q", os.path.join(mirrors, repo.replace("/", "+"), "repo"), work)
            run(args.ctx, "--root", work, "-q", "init", env=env)
            works[repo] = work
        work = works[repo]
        text = ask(args.ctx, work, case["prompt"], env, scratch)
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            with open(os.path.join(args.keep, f"{k:03}.md"), "w") as f:
                f.write(f"{repo}: {case['prompt']}\nexpected: {case['files']}\n\n{text}")
        files = files_shown(text)
        if not case["files"]:
            off.append(bool(text.strip()))
            print(f"{repo:22} {'INJECTED' if text.strip() else 'quiet':8} {case['prompt'][:60]}", file=sys.stderr)
            continue
        ranked = json.loads(run(args.ctx, "--root", work, "--json", "-q", "rank", "--top", "5",
                                "--query", case["prompt"], env=env).stdout)
        ranked = [r["path"] for r in (ranked["files"] if isinstance(ranked, dict) else ranked)]
        hit = next((i + 1 for i, f in enumerate(files) if f in case["files"]), None)
        rank_hit = next((i + 1 for i, f in enumerate(ranked) if f in case["files"]), None)
        about.append((files, hit, rank_hit))
        print(f"{repo:22} {str(hit):4} {str(rank_hit):4} {case['prompt'][:60]:60} {files}", file=sys.stderr)
    n = len(about)
    if n:
        hits = sum(h is not None for _, h, _ in about)
        first = sum(h == 1 for _, h, _ in about)
        silent = sum(not f for f, _, _ in about)
        r5 = sum(r is not None for _, _, r in about)
        r1 = sum(r == 1 for _, _, r in about)
        print(f"{n} prompts about the code: hook hit {hits} ({hits / n:.2f}), @1 {first} ({first / n:.2f}), "
              f"silent {silent} ({silent / n:.2f}), {sum(len(f) for f, _, _ in about) / n:.1f} files shown; "
              f"ctx rank R@5 {r5 / n:.2f}, R@1 {r1 / n:.2f}")
    if off:
        print(f"{len(off)} prompts about something else: hook injected {sum(off)} ({sum(off) / len(off):.2f})")
    subprocess.run(["rm", "-rf", scratch])


if __name__ == "__main__":
    main()
