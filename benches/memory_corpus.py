#!/usr/bin/env python3
"""Write N session records of real text as ctx record JSONL: the docstrings
(one record a paragraph) and comment blocks of the CPython standard library
this python3 ships, cycled with new ids and sessions until there are N.

    python3 benches/memory_corpus.py 1000000 > /tmp/ctx-memory-1m.jsonl

Also writes the queries of the search benchmark to the file named by
--queries: words, phrases and prefixes drawn from the same text.
"""

import argparse
import ast
import json
import random
import sys
import sysconfig
from pathlib import Path


def texts(root):
    for path in sorted(Path(root).rglob("*.py")):
        if "site-packages" in path.parts:
            continue
        try:
            source = path.read_text(encoding="utf-8")
            tree = ast.parse(source)
        except (SyntaxError, UnicodeDecodeError, ValueError, RecursionError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    for paragraph in doc.split("\n\n"):
                        paragraph = " ".join(paragraph.split())
                        if len(paragraph) >= 20:
                            yield paragraph
        block = []
        for line in source.splitlines():
            stripped = line.strip()
            if stripped.startswith("#") and not stripped.startswith("#!"):
                block.append(stripped.lstrip("#").strip())
            elif block:
                text = " ".join(block)
                if len(text) >= 20:
                    yield text
                block = []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("n", type=int)
    parser.add_argument("--queries", help="write search queries here")
    args = parser.parse_args()
    corpus = list(texts(sysconfig.get_paths()["stdlib"]))
    print(f"{len(corpus)} distinct texts", file=sys.stderr)
    random.seed(7)
    types = ["query", "response", "tool_output", "note"]
    out = sys.stdout
    for i in range(args.n):
        text = corpus[i % len(corpus)]
        record = {
            "type": types[i % 4],
            "role": ["user", "assistant", "tool", "unknown"][i % 4],
            "text": text,
            "session_id": f"s{i // 200}",
            "ts": f"2026-{1 + (i // 2_000_000) % 12:02d}-{1 + (i // 80_000) % 28:02d}T{(i // 3600) % 24:02d}:{(i // 60) % 60:02d}:{i % 60:02d}Z",
            "id": f"bench-{i}",
        }
        out.write(json.dumps(record) + "\n")
    if args.queries:
        words = [w.strip(".,:;()[]'\"`").lower() for t in random.sample(corpus, 2000) for w in t.split()]
        words = [w for w in words if w.isalpha() and len(w) >= 4]
        queries = []
        for _ in range(100):
            queries.append(" ".join(random.sample(words, 2)))          # two words
            phrase = random.choice(corpus).split()
            start = random.randrange(max(1, len(phrase) - 2))
            queries.append('"' + " ".join(phrase[start:start + 2]) + '"')  # a phrase
            queries.append(random.choice(words)[:4] + "*")              # a prefix
        Path(args.queries).write_text("\n".join(queries) + "\n")


if __name__ == "__main__":
    main()
