"""Session memory from Python: records, ingest of a Claude Code transcript, search."""

import json
from pathlib import Path

import pytest

import ctxkeep

HERE = Path(__file__).resolve().parent
TRANSCRIPT = HERE.parent.parent / "ctx-core" / "tests" / "fixtures" / "claude_code_session.jsonl"


@pytest.fixture
def ws(tmp_path):
    ws = ctxkeep.Workspace(tmp_path)
    ws.init()
    return ws


def test_records_are_added_and_found(ws):
    record = ws.add_record("note", "Refresh tokens rotate on every use", role="assistant", tags=["auth"], session="s1")
    assert record["id"].startswith("H-") and record["type"] == "note" and record["tags"] == ["auth"]
    response = ws.search("refresh tokens", k=5)
    assert response["layer"] == "L0" and response["hits"] == 1
    row = response["results"][0]
    assert row["id"] == record["id"] and "\n" not in row["summary"] and row["source"] == "hot"
    assert ws.record(record["id"])["text"] == "Refresh tokens rotate on every use"
    assert ws.search("refresh", session="other")["hits"] == 0
    json.dumps(response)  # plain data


def test_a_transcript_is_ingested_once(ws, tmp_path):
    path = tmp_path / "session.jsonl"
    path.write_text(TRANSCRIPT.read_text())
    first = ws.ingest(path)
    assert (first["added"], first["claude_code_lines"], first["errors"]) == (8, 8, [])
    again = ws.ingest(str(path))
    assert (again["added"], again["duplicates"]) == (0, 8)
    hit = ws.search('"old_string not found"')["results"][0]
    output = ws.record(hit["id"])
    assert output["type"] == "tool_output" and output["role"] == "tool"
    assert ws.record(output["refs"][0])["type"] == "tool_call"


def test_a_folder_of_transcripts_is_ingested_as_ctx_ingest_reads_it(ws, tmp_path):
    folder = tmp_path / "sessions"
    (folder / "nested").mkdir(parents=True)
    (folder / "one.jsonl").write_text(TRANSCRIPT.read_text())
    (folder / "nested" / "two.jsonl").write_text(TRANSCRIPT.read_text().replace("old_string", "other_string"))
    (folder / "notes.txt").write_text("not a transcript")
    report = ws.ingest(folder)
    assert report["source"] == str(folder) and report["errors"] == []
    # The second copy is the same session (the same line ids): its records are there already.
    assert (report["lines"], report["added"], report["duplicates"]) == (16, 8, 8)
    empty = folder / "empty"
    empty.mkdir()
    with pytest.raises(ctxkeep.InvalidInputError, match="no .jsonl file"):
        ws.ingest(empty)


def test_errors(ws, tmp_path):
    with pytest.raises(ctxkeep.UnknownRecordError) as caught:
        ws.record("H-000000000000")
    assert isinstance(caught.value, KeyError) and caught.value.code == "UNKNOWN_RECORD"
    with pytest.raises(ctxkeep.InvalidInputError):
        ws.add_record("note", "   ")
    with pytest.raises(ctxkeep.InvalidInputError, match="the scopes are all, hot, archive"):
        ws.search("x", scope="cold")
    with pytest.raises(ctxkeep.CtxIOError):
        ws.ingest(tmp_path / "missing.jsonl")
    # A query with nothing the built-in embedder weighs falls back to lexical and says why.
    retrieval = ws.search("the", mode="hybrid")["retrieval"]
    assert retrieval["mode"] == "lexical" and retrieval["vector_fallback_reason"]


def test_timeline_get_and_archive(ws, tmp_path):
    path = tmp_path / "session.jsonl"
    path.write_text(TRANSCRIPT.read_text())
    ws.ingest(path)
    hit = ws.search('"old_string not found"')["results"][0]["id"]
    timeline = ws.timeline(hit, before=1, after=1)
    assert timeline["anchor"] == hit and [r["type"] for r in timeline["results"]] == ["tool_call", "tool_output", "response"]
    whole = ws.get(hit)
    assert whole["layer"] == "L2" and whole["record"]["text"].startswith("error: old_string")
    for head in range(72, 700, 7):
        got = ws.get(hit, head=head)
        assert got.get("layer") == "L2" or got.get("note") == "budget_too_small"
    # Below 72 characters not even the tiny fallback fits: an error, never more than asked for.
    with pytest.raises(ctxkeep.InvalidInputError, match="at least 72"):
        ws.get(hit, head=71)
    assert ws.archive(24 * 3600) == 7
    assert all(r["source"] == "archive" for r in ws.search("pool", scope="archive")["results"])
    with pytest.raises(ctxkeep.InvalidInputError):
        ws.archive(-1)


def test_pack_and_pins(ws, tmp_path):
    path = tmp_path / "session.jsonl"
    path.write_text(TRANSCRIPT.read_text())
    ws.ingest(path)
    pin = ws.pin("Never log card numbers")
    assert [p["id"] for p in ws.pins()] == [pin["id"]]
    ws.search("pool timeout")
    pack = ws.pack()
    assert pack["layer"] == "L1" and pack["tokens"] <= pack["threshold"] == 1000
    text = pack["text"]
    assert text.startswith("<<<CONTEXTFS:BEGIN>>>\n### PINS\n") and text.rstrip().endswith("<<<CONTEXTFS:END>>>")
    order = [text.index(f"### {name}") for name in ("PINS", "SUMMARY", "MANIFEST", "RETRIEVAL_INDEX", "WORKSET_RECENT_TURNS")]
    assert order == sorted(order)
    assert "Never log card numbers" in text
    tight = ws.pack(40)
    assert tight["mode"] in ("minimal", "emergency", "trimmed") and "(trimmed)" in tight["text"]
    ws.unpin(pin["id"])
    with pytest.raises(ctxkeep.UnknownRecordError):
        ws.unpin(pin["id"])


class Concepts:
    """A toy embedder: one dimension a concept, synonyms no letters share."""

    name = "test:concepts"
    CONCEPTS = [("car", "automobile", "vehicle"), ("fast", "quick", "speedy"), ("bug", "defect")]

    def __init__(self):
        self.texts = 0

    def embed(self, texts):
        self.texts += len(texts)
        return [[float(sum(w in t.lower() for w in words)) for words in self.CONCEPTS] for t in texts]


def test_hybrid_search_with_the_builtin_embedder(ws):
    wanted = ws.add_record("note", "Refactored so refreshToken rotation happens before expiry")["id"]
    ws.add_record("note", "Docker images are built in two stages")
    response = ws.search("refresh tokn", mode="hybrid")
    retrieval = response["retrieval"]
    assert retrieval["mode"] == "hybrid", retrieval
    assert retrieval["lexical_hits"] == 0 and retrieval["embedder"] == "builtin:hashed-ngrams-v1"
    assert response["results"][0]["id"] == wanted and response["results"][0]["score_vec"] > 0.2


def test_a_python_embedder_serves_the_vector_channel(ws):
    car = ws.add_record("note", "the automobile would not start")["id"]
    ws.add_record("note", "a speedy fix for the defect")
    concepts = Concepts()
    assert ws.embed_records(concepts) == 2
    assert ws.embed_records(concepts) == 0
    response = ws.search("vehicle", mode="vector", embedder=concepts)
    assert response["retrieval"]["embedder"] == "test:concepts"
    assert response["results"][0]["id"] == car
    assert concepts.texts == 3  # two records once, and the query


def test_a_failing_python_embedder_falls_back_or_raises(ws):
    ws.add_record("note", "the automobile would not start")

    class Broken:
        name = "test:broken"

        def embed(self, texts):
            raise ConnectionError("model server unreachable")

    retrieval = ws.search("automobile", mode="hybrid", embedder=Broken())["retrieval"]
    assert retrieval["mode"] == "lexical" and "model server unreachable" in retrieval["vector_fallback_reason"]
    with pytest.raises(ctxkeep.EmbedderError, match="model server unreachable"):
        ws.embed_records(Broken())

    class NotVectors:
        name = "test:strings"

        def embed(self, texts):
            return ["not a vector" for _ in texts]

    with pytest.raises(ctxkeep.EmbedderError):
        ws.embed_records(NotVectors())
    with pytest.raises(TypeError, match="embed"):
        ws.search("x", mode="vector", embedder=object())
    with pytest.raises(ValueError, match="builtin:"):
        ws.search("x", mode="vector", embedder=type("E", (), {"name": "builtin:mine", "embed": lambda s, t: []})())


FIXTURES = HERE.parent.parent.parent / "tests" / "fixtures" / "transcripts"


def test_search_filters_by_type_tag_and_time(ws):
    for path in sorted(FIXTURES.rglob("*.jsonl")):
        assert ws.ingest(path)["errors"] == []
    queries = ws.search("webhook", types=["query"])["results"]
    assert [r["summary"] for r in queries] == ["Why does the webhook handler drop events under load?"]
    subagent = {r["id"] for r in ws.search("webhook", k=50, tags=["subagent"])["results"]}
    main = {r["id"] for r in ws.search("webhook", k=50, tags=["!subagent"])["results"]}
    assert subagent and main and not subagent & main
    day = ws.search("tests", k=50, since="2025-10-05", until="2025-10-05")["results"]
    assert day and all(r["ts"].startswith("2025-10-05") for r in day)
    assert ws.search("tests", since="1d")["hits"] == 0
    with pytest.raises(ctxkeep.InvalidInputError):
        ws.search("tests", since="last tuesday")
    answer = ws.record(ws.search('"shop ledger export"', types=["response"])["results"][0]["id"])
    assert answer["meta"]["harness"] == "codex" and answer["meta"]["model"] == "gpt-5-codex"
    task = ws.search('"Find the webhook queue"', types=["tool_call"])["results"][0]["id"]
    main_thread = ws.timeline(task, before=0, after=3)
    assert main_thread["thread"] == "main"
    everything = ws.timeline(task, before=0, after=3, thread="all")
    assert any("src/hooks/queue.rs:18" in r["summary"] for r in everything["results"])


def test_a_transcript_is_ingested_incrementally(ws, tmp_path):
    path = tmp_path / "session.jsonl"
    lines = TRANSCRIPT.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:3]))
    first = ws.ingest_transcript(path)
    assert (first["read"], first["from"], first["pending"]) == ("new", 0, 0)
    assert first["to"] == path.stat().st_size and first["ingest"]["claude_code_lines"] == 3
    assert ws.ingest_transcript(str(path))["read"] == "unchanged"
    # Appended, the last line half-written: the complete lines only, the rest waits.
    rest = "".join(lines[3:])
    with path.open("a") as f:
        f.write(rest[:-20])
    second = ws.ingest_transcript(path)
    assert (second["read"], second["from"]) == ("appended", first["to"])
    assert second["pending"] > 0 and second["ingest"]["lines"] == len(lines) - 4
    with path.open("a") as f:
        f.write(rest[-20:])
    third = ws.ingest_transcript(path)
    assert (third["ingest"]["lines"], third["pending"]) == (1, 0)
    # Everything is there once: a whole ingest finds nothing new.
    assert ws.ingest(path)["added"] == 0
    with pytest.raises(ctxkeep.CtxIOError):
        ws.ingest_transcript(tmp_path / "missing.jsonl")
