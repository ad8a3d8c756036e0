#!/usr/bin/env python3
"""Helper of benches/history_eval.sh: Aider's repo map on `ctx eval`'s cases, and the report.

  aider --repo DIR --cases CTX_JSON [--tokens 1024,4096] > AIDER_JSON
      For each case of `ctx eval --json --cases` (sha, parent, message,
      changed), check out the parent in a scratch clone of DIR and build
      Aider's repo map at each budget, personalized by the message the way
      aider's chat does (Coder.get_repo_map: the identifiers the message
      mentions, the files it names, the files whose name is a mentioned
      identifier; no files in the chat). The files are taken in the order
      the map shows them. Run it with the peers venv's python
      (../shared/bench/peers/install_peers.sh); no LLM, no network.
  report [--held-out a/b,c/d] NAME=CTX_JSON[,AIDER_JSON] ...
      R@1/R@5/R@10 and MRR per repository and method, then over all
      repositories, the tuning set and the held-out set (cases pooled).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

KS = (1, 5, 10)


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout


# ---------------------------------------------------------------------------
# Aider


class StubModel:
    """aider's Model as RepoMap uses it: tokens = characters / 4 (as ../shared/bench/peers/aider_map.py)."""

    def token_count(self, text):
        return len(text) / 4


class StubIO:
    def read_text(self, filename, silent=False):
        try:
            with open(filename, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return None

    def tool_output(self, *a, **kw):
        pass

    def tool_warning(self, *a, **kw):
        pass

    def tool_error(self, *a, **kw):
        pass


class ChatStandIn:
    """What aider's Coder methods that read a message need: a chat with no files in it."""

    def __init__(self, root, rel_files):
        self.root, self.rel_files, self.abs_read_only_fnames = root, rel_files, set()

    def get_all_relative_files(self):
        return self.rel_files

    def get_addable_relative_files(self):
        return self.rel_files

    def get_inchat_relative_files(self):
        return []

    def get_rel_fname(self, fname):
        return os.path.relpath(fname, self.root)


def shown_files(text, known):
    """The files of a rendered map, in the order it shows them (headers `path:` or `path`)."""
    out = []
    for line in (text or "").splitlines():
        name = line[:-1] if line.endswith(":") else line
        if name in known and name not in out:
            out.append(name)
    return out


def aider(args):
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("AIDER_ANALYTICS", "false")
    os.environ.setdefault("TQDM_DISABLE", "1")
    from aider.coders.base_coder import Coder
    from aider.repomap import RepoMap

    budgets = [int(t) for t in args.tokens.split(",")]
    cases = json.load(open(args.cases)).get("cases", [])  # absent when there are none
    scratch = tempfile.mkdtemp(prefix="ctx-history-eval-aider-")
    try:
        clone = os.path.join(scratch, "repo")
        subprocess.run(["git", "clone", "--quiet", "--shared", "--no-checkout", args.repo, clone], check=True)

        class BenchRepoMap(RepoMap):
            TAGS_CACHE_DIR = os.path.join(scratch, "tags")  # absolute: kept out of the tree

            def get_tags(self, fname, rel_fname):
                # aider 0.86.2 raises on some grammars' queries (bat's syntax tests): no tags, as for a file it cannot read.
                try:
                    return list(super().get_tags(fname, rel_fname))
                except Exception:
                    return []

        rm = BenchRepoMap(map_tokens=budgets[0], root=clone, main_model=StubModel(), io=StubIO(),
                          verbose=False, max_context_window=None, refresh="always")
        results = []
        for i, case in enumerate(cases):
            git(clone, "-c", "advice.detachedHead=false", "checkout", "--quiet", "--force", "--detach", case["parent"])
            rel = [f for f in git(clone, "-c", "core.quotepath=off", "ls-files", "-z").split("\0") if f]
            chat = ChatStandIn(clone, rel)
            message = case["message"]
            # Coder.get_repo_map, with no files in the chat.
            fnames = Coder.get_file_mentions(chat, message)
            idents = Coder.get_ident_mentions(chat, message)
            fnames.update(Coder.get_ident_filename_matches(chat, idents))
            other = [os.path.join(clone, f) for f in rel]
            known = set(rel)
            row = {"sha": case["sha"], "aider": {}}
            for budget in budgets:
                rm.max_map_tokens = budget
                started = time.perf_counter()
                text = rm.get_repo_map(set(), other, mentioned_fnames=fnames, mentioned_idents=idents)
                if not text:  # the chat's fallback: the map without hints
                    text = rm.get_repo_map(set(), other)
                ms = (time.perf_counter() - started) * 1000
                order = shown_files(text, known)
                rank = next((j + 1 for j, f in enumerate(order) if f in case["changed"]), None)
                row["aider"][str(budget)] = {"rank": rank, "top": order[:10], "ms": round(ms, 1)}
            results.append(row)
            print(f"aider {i + 1}/{len(cases)}", file=sys.stderr, flush=True)
        json.dump({"tokens": budgets, "cases": results}, sys.stdout, indent=1)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# ---------------------------------------------------------------------------
# Report


def method_label(result):
    return result["method"] + (f" {result['tokens']}" if result.get("tokens") else "")


def load(spec):
    """NAME=CTX_JSON[,AIDER_JSON] → (name, {method: [(rank, ms) per case]})."""
    name, files = spec.split("=", 1)
    ctx_file, _, aider_file = files.partition(",")
    cases = json.load(open(ctx_file)).get("cases", [])
    ranks = {}
    for case in cases:
        for r in case["results"]:
            ranks.setdefault(method_label(r), []).append((r["rank"], r["ms"]))
    if aider_file and os.path.exists(aider_file):
        by_sha = {c["sha"]: c["aider"] for c in json.load(open(aider_file))["cases"]}
        for case in cases:
            for budget, r in sorted(by_sha.get(case["sha"], {}).items(), key=lambda kv: int(kv[0])):
                ranks.setdefault(f"aider {budget}", []).append((r["rank"], r["ms"]))
    return name, ranks


def figures(rows):
    n = len(rows)
    if not n:
        return n, [0.0] * 4, 0.0
    recall = [sum(1 for r, _ in rows if r is not None and r <= k) / n for k in KS]
    mrr = sum(1 / r for r, _ in rows if r) / n
    return n, recall + [mrr], sum(ms for _, ms in rows) / n


def report(args):
    held_out = set(filter(None, args.held_out.split(",")))
    repos = [load(spec) for spec in args.inputs]
    methods = []
    for _, ranks in repos:
        methods += [m for m in ranks if m not in methods]
    print(f"{'repository':30} {'method':10} {'n':>4} {'R@1':>5} {'R@5':>5} {'R@10':>5} {'MRR':>5} {'ms/case':>8}")

    def block(label, groups):
        for method in methods:
            rows = [row for ranks in groups for row in ranks.get(method, [])]
            if rows:
                n, f, ms = figures(rows)
                print(f"{label:30} {method:10} {n:4} " + " ".join(f"{x:5.2f}" for x in f) + f" {ms:8.0f}")

    for name, ranks in repos:
        block(name + (" (held-out)" if name in held_out else ""), [ranks])
    if len(repos) > 1:
        block("all", [r for _, r in repos])
        tuning = [r for name, r in repos if name not in held_out]
        held = [r for name, r in repos if name in held_out]
        if tuning and held:
            block("tuning set", tuning)
            block("held-out set", held)


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("aider")
    a.add_argument("--repo", required=True)
    a.add_argument("--cases", required=True)
    a.add_argument("--tokens", default="1024,4096")
    r = sub.add_parser("report")
    r.add_argument("--held-out", default="")
    r.add_argument("inputs", nargs="+")
    args = p.parse_args()
    {"aider": aider, "report": report}[args.command](args)


if __name__ == "__main__":
    main()
