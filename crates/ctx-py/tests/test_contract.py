"""Contract tests: real outputs of session memory validated against the JSON
Schemas in docs/schemas/ (the ContextFS L0/L1/L2 contract's shapes)."""

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

import ctxkit

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
    assert set(VALIDATORS) == {"get", "ingest", "l0-row", "pack", "record", "search", "timeline"}
    for validator in VALIDATORS.values():
        Draft202012Validator.check_schema(validator.schema)


@pytest.fixture
def ws(tmp_path):
    ws = ctxkit.Workspace(tmp_path)
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
    for head in [None, 0, 1, 10, 50, 100, 300, 500, 1000, 100_000]:
        check("get", ws.get(hit, head=head))
    ws.pin("Never log card numbers")
    for tokens in [None, 1, 20, 60, 120, 400]:
        check("pack", ws.pack(tokens))
    with pytest.raises(ctxkit.InvalidInputError, match="at least 1"):
        ws.pack(0)


def test_the_schemas_can_fail():
    row = {"layer": "L0", "id": "H-1", "ts": "n/a", "type": "note", "summary": "two\nlines", "source": "hot"}
    assert list(VALIDATORS["l0-row"].iter_errors(row))
    assert list(VALIDATORS["get"].iter_errors({"id": "H-1", "truncated": False}))
    assert list(VALIDATORS["search"].iter_errors({"layer": "L1"}))
