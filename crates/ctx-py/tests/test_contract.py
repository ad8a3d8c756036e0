"""Contract tests: real outputs of session memory validated against the JSON
Schemas in docs/schemas/ (the ContextFS L0/L1/L2 contract's shapes)."""

import json
import os
import subprocess
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

import ctxkeep

HERE = Path(__file__).resolve().parent
SCHEMAS = HERE.parent.parent.parent / "docs" / "schemas"
TRANSCRIPT = HERE.parent.parent / "ctx-core" / "tests" / "fixtures" / "claude_code_session.jsonl"


def load():
    schemas = {p.stem: json.loads(p.read_text()) for p in SCHEMAS.glob("*.json")}
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    return {name: Draft202012Validator(s, registry=registry) for name, s in schemas.items()}


VALIDATORS = load()


def check(name, value):
    errors = sorted(VALIDATORS[name].iter_errors(value), key=lambda e: list(e.path))
    assert not errors, f"{name}: " + "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


def test_every_schema_is_valid_draft_2020_12():
    assert set(VALIDATORS) == {
        "artifact-context",
        "artifact-error",
        "artifact-operation",
        "artifact-operation-result",
        "artifact-prompt",
        "artifact-resolution",
        "get",
        "ingest",
        "l0-row",
        "pack",
        "record",
        "search",
        "timeline",
    }
    for validator in VALIDATORS.values():
        Draft202012Validator.check_schema(validator.schema)


@pytest.fixture
def ws(tmp_path):
    ws = ctxkeep.Workspace(tmp_path)
    ws.init()
    path = tmp_path / "session.jsonl"
    path.write_text(TRANSCRIPT.read_text())
    check("ingest", ws.ingest(path))
    return ws


def test_memory_outputs_match_the_contract(ws):
    check("record", ws.add_record("note", "Pool timeout defaults to 30 s", tags=["perf"]))
    for query, mode in [("pool timeout", "lexical"), ('"old_string not found"', "hybrid"), ("nothing-matches-this", "vector")]:
        response = ws.search(query, k=5, mode=mode)
        check("search", response)
        for row in response["results"]:
            check("l0-row", row)
    hit = ws.search("pool")["results"][0]["id"]
    check("timeline", ws.timeline(hit, before=2, after=2))
    check("timeline", ws.timeline(hit, session="all"))
    check("record", ws.record(hit))
    for head in [None, 72, 100, 300, 500, 1000, 100_000]:
        check("get", ws.get(hit, head=head))
    ws.pin("Never log card numbers")
    for tokens in [None, 1, 20, 60, 120, 400]:
        check("pack", ws.pack(tokens))
    with pytest.raises(ctxkeep.InvalidInputError, match="at least 1"):
        ws.pack(0)


def test_the_schemas_can_fail():
    row = {"layer": "L0", "id": "H-1", "ts": "n/a", "type": "note", "summary": "two\nlines", "source": "hot"}
    assert list(VALIDATORS["l0-row"].iter_errors(row))
    assert list(VALIDATORS["get"].iter_errors({"id": "H-1", "truncated": False}))
    assert list(VALIDATORS["search"].iter_errors({"layer": "L1"}))


# The ACK seed's examples: operations and errors (docs/artifacts.md).
SEED_OPERATIONS = [
    {"operation": "update_section", "artifact_slug": "concept", "section_slug": "what-is-it",
     "content": "Updated content here...", "reason": "Clarified definition based on research"},
    {"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "problem-being-solved", "is_done": True},
    {"operation": "create_section", "artifact_slug": "concept", "after_section": "core-features",
     "title": "Technical Requirements", "content": "...", "order": 4},
    {"operation": "suggest_edit", "artifact_slug": "research", "section_slug": "competitive-analysis",
     "suggestion": "Add comparison of pricing models", "rationale": "User asked about pricing validation"},
]
SEED_ERRORS = [
    {"error": "SECTION_NOT_FOUND", "message": "Section 'xyz' not found in artifact 'concept'",
     "suggestions": ["what-is-it", "problem-being-solved"]},
    {"error": "ARTIFACT_FINALIZED", "message": "Cannot modify finalized artifact 'concept'",
     "action": "Ask user to un-finalize or create snapshot"},
    {"error": "CONTEXT_TOO_LARGE", "message": "Artifact content exceeds token limit",
     "action": "Summarizing content or requesting specific sections"},
    {"error": "AMBIGUOUS_TARGET", "message": "'overview' matches 2 targets: say which",
     "candidates": [{"artifact": "concept", "section": "overview", "title": "Overview"},
                    {"artifact": "research", "section": "overview", "title": "Overview"}]},
]


def test_the_seeds_operations_and_errors_match_the_artifact_schemas():
    for op in SEED_OPERATIONS:
        check("artifact-operation", op)
    for err in SEED_ERRORS:
        check("artifact-error", err)
    assert list(VALIDATORS["artifact-operation"].iter_errors({"operation": "delete_section", "artifact_slug": "x"}))
    assert list(VALIDATORS["artifact-operation"].iter_errors({**SEED_OPERATIONS[0], "typo": 1}))
    assert list(VALIDATORS["artifact-error"].iter_errors({"error": "NOPE", "message": "x"}))


CTX_BIN = os.environ.get("CTX_BIN") or str(HERE.parents[2] / "target" / "debug" / "ctx")


@pytest.mark.skipif(not Path(CTX_BIN).exists(), reason="no ctx binary (set CTX_BIN)")
def test_real_artifact_outputs_match_the_contract(tmp_path):
    def ctx(*args, stdin=None):
        return subprocess.run([CTX_BIN, "--json", *args], cwd=tmp_path, input=stdin, capture_output=True, text=True)

    (tmp_path / "concept.md").write_text("# Concept\n\n## What Is It?\n\nA layer.\n\n## Problem Being Solved\n\n## Core Features\n")
    assert ctx("init", "--no-agents", "--no-build").returncode == 0
    assert ctx("artifact", "add", "concept.md").returncode == 0
    for op in SEED_OPERATIONS[:3]:
        out = ctx("artifact", "apply", "-", stdin=json.dumps(op))
        assert out.returncode == 0, out.stderr
        check("artifact-operation-result", json.loads(out.stdout))
    bad = dict(SEED_OPERATIONS[0], section_slug="xyz")
    out = ctx("artifact", "apply", "-", stdin=json.dumps(bad))
    assert out.returncode == 1
    check("artifact-error", json.loads(out.stderr))
    assert ctx("artifact", "finalize", "concept").returncode == 0
    out = ctx("artifact", "apply", "-", stdin=json.dumps(SEED_OPERATIONS[0]))
    check("artifact-error", json.loads(out.stderr))
    assert json.loads(out.stderr)["error"] == "ARTIFACT_FINALIZED"


@pytest.mark.skipif(not Path(CTX_BIN).exists(), reason="no ctx binary (set CTX_BIN)")
def test_real_contexts_resolutions_and_prompts_match_the_contract(tmp_path):
    def ctx(*args):
        return subprocess.run([CTX_BIN, "--json", *args], cwd=tmp_path, capture_output=True, text=True)

    (tmp_path / "concept.md").write_text(
        "# Concept\n\n## What Is It?\n\nA layer.\n\n## Notes\n\n<!-- private -->\nhidden\n\n## Overview\n\nx\n"
    )
    (tmp_path / "research.md").write_text("# Research\n\n## Overview\n\ny\n\n## Competitive Analysis\n")
    assert ctx("init", "--no-agents", "--no-build").returncode == 0
    for path in ["concept.md", "research.md"]:
        assert ctx("artifact", "add", path).returncode == 0
    assert ctx("record", "add", "--type", "query", "--text", "what is it?", "--session", "S1").returncode == 0
    for args in [
        ["--level", "minimal"],
        ["--section", "what-is-it"],
        ["--level", "full", "--message", "fix @research#overview"],
        ["--level", "full", "--tokens", "200"],
    ]:
        out = ctx("artifact", "context", "concept", *args)
        assert out.returncode == 0, out.stderr
        check("artifact-context", json.loads(out.stdout))
    for text in ["@concept#what-is-it define it", "#competitive-analysis in research.md", "update the problem"]:
        out = ctx("artifact", "resolve", text)
        if out.returncode == 0:
            check("artifact-resolution", json.loads(out.stdout))
        else:
            check("artifact-error", json.loads(out.stderr))
    out = ctx("artifact", "resolve", "update the overview")
    assert json.loads(out.stderr)["error"] == "AMBIGUOUS_TARGET"
    check("artifact-error", json.loads(out.stderr))
    out = ctx("artifact", "context", "concept", "--tokens", "3")
    assert json.loads(out.stderr)["error"] == "CONTEXT_TOO_LARGE"
    check("artifact-error", json.loads(out.stderr))
    for args in [["chat", "concept", "--message", "hi"], ["research", "--query", "pricing in @research#overview"]]:
        out = ctx("artifact", "prompt", *args)
        assert out.returncode == 0, out.stderr
        check("artifact-prompt", json.loads(out.stdout))
    assert list(VALIDATORS["artifact-context"].iter_errors({"project": {}}))
