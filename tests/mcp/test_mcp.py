"""`ctx mcp` driven by the official MCP Python SDK over stdio."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest
from conftest import AWS_KEY, ctx, serve

pytestmark = pytest.mark.anyio

TOOLS = {
    "context",
    "map",
    "rank",
    "search",
    "timeline",
    "get",
    "pack",
    "frame_push",
    "frame_pop",
    "frame_context",
    "task_prompt",
    "log_decision",
    "describe_folder",
    "remember",
    "artifact_context",
    "artifact_apply",
    "artifact_resolve",
    "artifact_prompt",
}


async def call(session, schemas: dict, name: str, arguments: dict) -> dict:
    """Call a tool that must succeed; its structured content, checked against its output schema."""
    result = await session.call_tool(name, arguments)
    assert not result.is_error, f"{name}: {result.content}"
    jsonschema.validate(result.structured_content, schemas[name])
    assert result.content and result.content[0].text
    return result.structured_content


async def error_code(session, name: str, arguments: dict) -> str:
    """Call a tool that must fail; the stable code its error carries."""
    result = await session.call_tool(name, arguments)
    assert result.is_error, f"{name} {arguments}: expected an error, got {result.content}"
    assert result.structured_content is None
    return json.loads(result.content[0].text)["error"]["code"]


async def output_schemas(session) -> dict:
    tools = (await session.list_tools()).tools
    return {tool.name: tool.output_schema for tool in tools}


async def test_initialize_and_list_tools(repo: Path):
    async with serve(repo) as (session, init, _):
        assert init.server_info.name == "ctx"
        assert init.server_info.version
        assert "search" in init.instructions
        tools = (await session.list_tools()).tools
        assert {tool.name for tool in tools} == TOOLS
        for tool in tools:
            assert tool.description and len(tool.description) > 40, tool.name
            assert tool.input_schema["type"] == "object", tool.name
            assert tool.output_schema and tool.output_schema["type"] == "object", tool.name
            jsonschema.Draft202012Validator.check_schema(tool.output_schema)
        descriptions = {tool.name: tool.description for tool in tools}
        # The cheap-first order of memory retrieval is in the descriptions.
        assert "timeline" in descriptions["search"] and "get" in descriptions["search"]
        assert "get" in descriptions["timeline"]
        assert "search" in descriptions["get"]


async def test_every_tool_answers_what_its_schema_declares(repo: Path):
    async with serve(repo) as (session, _, _):
        schemas = await output_schemas(session)
        called = set()

        async def use(name, arguments):
            called.add(name)
            return await call(session, schemas, name, arguments)

        context = await use("context", {"folder": "src/store", "tier": "minimal"})
        assert context["folder"] == "src/store" and "Persistence of orders" in context["text"]

        repo_map = await use("map", {"query": "create an order", "tokens": 400})
        assert "routes.py" in repo_map["text"] and repo_map["tokens"] <= 400

        ranked = await use("rank", {"task": "save_order writes the order", "k": 2})
        assert ranked["files"][0]["path"] == "src/store/orders.py" and len(ranked["files"]) <= 2

        found = await use("search", {"query": "empty cart", "k": 5})
        assert found["hits"] >= 1
        hit = found["results"][0]["id"]

        timeline = await use("timeline", {"id": hit, "before": 1, "after": 1})
        assert timeline["anchor"] == hit and any(row["id"] == hit for row in timeline["results"])

        got = await use("get", {"ids": [hit]})
        record = got["records"][0]["record"]
        assert record["id"] == hit and "cart" in record["text"]

        pack = await use("pack", {"tokens": 600})
        assert pack["layer"] == "L1" and pack["tokens"] <= 600

        frame = await use("frame_push", {"goal": "Make checkout robust", "type": "feature"})
        assert frame["status"] == "in_progress"

        decision = await use("log_decision", {"title": "Guard with an early return", "rationale": "simplest"})
        assert decision["frame"] == frame["id"]
        on_folder = await use("log_decision", {"title": "Keep orders flat", "folder": "src/store"})
        assert on_folder["folder"] == "src/store"

        frame_context = await use("frame_context", {"format": "md"})
        assert frame_context["frame"] == frame["id"] and "Make checkout robust" in frame_context["text"]

        popped = await use("frame_pop", {"summary": "guarded"})
        assert popped["id"] == frame["id"] and popped["status"] == "completed"

        tasks = json.loads(ctx(repo, "--json", "task", "list"))
        task = next(t for t in tasks if t["type"] == "task")
        prompt = await use("task_prompt", {"id": task["id"]})
        assert "Guard the empty cart" in prompt["text"]

        folder = await use("describe_folder", {"folder": "src/api", "description": "The HTTP API"})
        assert folder["description"] == "The HTTP API"

        note = await use("remember", {"text": "orders carry an id from the store", "tags": ["orders"]})
        assert note["type"] == "note" and note["tags"] == ["orders"]

        add_artifacts(repo)
        artifact = await use("artifact_context", {"slug": "concept", "sections": ["what-is-it"]})
        assert artifact["currentArtifact"]["sections"][1]["content"] == "A planning layer."
        assert artifact["systemState"]["level"] == "standard"
        assert "## Current artifact: concept.md" in (await session.call_tool("artifact_context", {"slug": "concept"})).content[0].text

        target = await use("artifact_resolve", {"text": "fix the competitive analysis in research.md"})
        assert (target["artifact"], target["section"]) == ("research", "competitive-analysis")

        operation = {"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "what-is-it", "is_done": True}
        applied = await use("artifact_apply", {"operation": operation})
        assert applied["artifact"]["sections_complete"] == 1 and applied["snapshot_id"].startswith("S-")

        prompt = await use("artifact_prompt", {"kind": "research", "text": "pricing", "slug": "research", "section": "competitive-analysis"})
        assert prompt["section"] == "competitive-analysis" and '"section_slug": "competitive-analysis"' in prompt["text"]

        assert called == TOOLS


def add_artifacts(repo: Path) -> None:
    """Two planning artifacts, both with an Overview."""
    (repo / "concept.md").write_text("# Concept\n\n## What Is It?\n\nA planning layer.\n\n## Overview\n\nx\n")
    (repo / "research.md").write_text("# Research\n\n## Overview\n\ny\n\n## Competitive Analysis\n\nCursor.\n")
    ctx(repo, "artifact", "add", "concept.md")
    ctx(repo, "artifact", "add", "research.md")


async def seed_error(session, name: str, arguments: dict) -> dict:
    """Call an artifact tool that must fail; the seed's error object it carries."""
    result = await session.call_tool(name, arguments)
    assert result.is_error, f"{name} {arguments}: expected an error, got {result.content}"
    return json.loads(result.content[0].text)


async def test_artifact_tools_fail_with_the_seeds_error_objects(repo: Path):
    add_artifacts(repo)
    async with serve(repo) as (session, _, _):
        ambiguous = await seed_error(session, "artifact_resolve", {"text": "update the overview"})
        assert ambiguous["error"] == "AMBIGUOUS_TARGET"
        assert {c["artifact"] for c in ambiguous["candidates"]} == {"concept", "research"}
        missing = await seed_error(session, "artifact_context", {"slug": "concept", "sections": ["xyz"]})
        assert missing["error"] == "SECTION_NOT_FOUND" and "message" in missing
        bad = {"operation": "update_section", "artifact_slug": "concpt", "section_slug": "overview", "content": "z"}
        not_found = await seed_error(session, "artifact_apply", {"operation": bad})
        assert not_found["error"] == "ARTIFACT_NOT_FOUND" and not_found["suggestions"] == ["concept"]
        too_large = await seed_error(session, "artifact_context", {"slug": "concept", "tokens": 3})
        assert too_large["error"] == "CONTEXT_TOO_LARGE" and too_large["action"]
        assert await error_code(session, "artifact_context", {"level": "huge"}) == "INVALID_INPUT"
        assert await error_code(session, "artifact_apply", {"operation": {"operation": "delete_section"}}) == "INVALID_INPUT"


async def test_bad_arguments_are_tool_errors_with_codes(repo: Path):
    async with serve(repo) as (session, _, _):
        schemas = await output_schemas(session)
        assert await error_code(session, "context", {"folder": "no/such/folder"}) == "UNKNOWN_FOLDER"
        assert await error_code(session, "context", {"tier": "huge"}) == "INVALID_INPUT"
        assert await error_code(session, "context", {"folder": "../../etc"}) == "OUTSIDE_ROOT"
        assert await error_code(session, "context", {"colour": "red"}) == "INVALID_INPUT"
        assert await error_code(session, "search", {"query": "cart", "k": "ten"}) == "INVALID_INPUT"
        assert await error_code(session, "search", {"query": "cart", "k": 0}) == "INVALID_INPUT"
        assert await error_code(session, "search", {"query": "cart", "scope": "cold"}) == "INVALID_INPUT"
        assert await error_code(session, "search", {}) == "INVALID_INPUT"
        assert await error_code(session, "timeline", {"id": "H-000000000000"}) == "UNKNOWN_RECORD"
        assert await error_code(session, "get", {"ids": ["H-000000000000"]}) == "UNKNOWN_RECORD"
        assert await error_code(session, "get", {"ids": []}) == "INVALID_INPUT"
        assert await error_code(session, "frame_pop", {"id": "F999"}) == "UNKNOWN_FRAME"
        assert await error_code(session, "frame_pop", {}) == "NO_CURRENT_FRAME"
        assert await error_code(session, "frame_pop", {"status": "done-ish"}) == "INVALID_INPUT"
        assert await error_code(session, "frame_context", {}) == "NO_CURRENT_FRAME"
        assert await error_code(session, "task_prompt", {"id": "F999"}) == "UNKNOWN_FRAME"
        assert await error_code(session, "rank", {"task": "   "}) == "INVALID_INPUT"
        assert await error_code(session, "map", {"tokens": 0}) == "INVALID_INPUT"
        both = {"title": "x", "folder": "src", "frame": "F1"}
        assert await error_code(session, "log_decision", both) == "INVALID_INPUT"
        # Still serving.
        context = await call(session, schemas, "context", {})
        assert context["folder"] == "."


async def test_writes_of_the_cli_are_seen_by_the_next_call(repo: Path):
    async with serve(repo) as (session, _, _):
        schemas = await output_schemas(session)
        assert (await call(session, schemas, "search", {"query": "zeppelin"}))["hits"] == 0
        before = await call(session, schemas, "context", {"folder": "src/api"})
        assert "Routes of the shop" not in before["text"]

        ctx(repo, "record", "add", "--type", "note", "--text", "the zeppelin lands on Tuesdays")
        ctx(repo, "folder", "describe", "src/api", "--description", "Routes of the shop")

        assert (await call(session, schemas, "search", {"query": "zeppelin"}))["hits"] == 1
        after = await call(session, schemas, "context", {"folder": "src/api"})
        assert "Routes of the shop" in after["text"]
        # And the other way round: the server's writes are the CLI's to read.
        await call(session, schemas, "remember", {"text": "the blimp is red"})
        assert "blimp" in ctx(repo, "search", "blimp")


async def test_an_edited_config_is_read_again(repo: Path):
    async with serve(repo) as (session, _, _):
        schemas = await output_schemas(session)
        assert (await call(session, schemas, "pack", {}))["threshold"] == 1000
        config = repo / ".ctx/config.toml"
        text = config.read_text()
        assert "tokens = 1000" in text
        config.write_text(text.replace("tokens = 1000", "tokens = 700"))
        os.utime(config, (1, 1))  # a new mtime even within the clock's tick
        assert (await call(session, schemas, "pack", {}))["threshold"] == 700
        config.write_text(text.replace("tokens = 1000", "tokens = [1000"))
        os.utime(config, (2, 2))
        assert await error_code(session, "pack", {}) == "CONFIG_ERROR"
        config.write_text(text)
        os.utime(config, (3, 3))
        assert (await call(session, schemas, "pack", {}))["threshold"] == 1000


async def test_without_a_workspace_map_and_rank_work_and_the_rest_say_so(bare: Path):
    async with serve(bare) as (session, _, _):
        schemas = await output_schemas(session)
        repo_map = await call(session, schemas, "map", {})
        assert "orders.py" in repo_map["text"]
        ranked = await call(session, schemas, "rank", {"task": "save an order"})
        assert any(file["path"] == "src/store/orders.py" for file in ranked["files"])
        for name, arguments in [
            ("context", {}),
            ("search", {"query": "cart"}),
            ("pack", {}),
            ("remember", {"text": "x"}),
            ("frame_push", {"goal": "x"}),
        ]:
            assert await error_code(session, name, arguments) == "NOT_A_WORKSPACE", name
        assert not (bare / ".ctx").exists()
        # `ctx init` while the server runs: the next call finds the workspace.
        ctx(bare, "init")
        assert (await call(session, schemas, "context", {}))["folder"] == "."


async def test_root_flag_serves_another_folder(repo: Path, tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    async with serve(elsewhere, "--root", str(repo)) as (session, _, _):
        schemas = await output_schemas(session)
        context = await call(session, schemas, "context", {"folder": "src/store"})
        assert "Persistence of orders" in context["text"]


async def test_secrets_are_redacted_in_what_the_tools_store_and_return(repo: Path):
    async with serve(repo) as (session, _, _):
        schemas = await output_schemas(session)
        note = await call(session, schemas, "remember", {"text": f"the deploy key is {AWS_KEY}"})
        decision = await call(
            session, schemas, "log_decision", {"title": "Rotate keys", "rationale": AWS_KEY, "folder": "src"}
        )
        folder = await call(session, schemas, "describe_folder", {"folder": "src", "description": f"key {AWS_KEY}"})
        found = await call(session, schemas, "search", {"query": "deploy key"})
        got = await call(session, schemas, "get", {"ids": [note["id"]]})
        context = await call(session, schemas, "context", {"folder": "src", "tier": "deep"})
        for value in [note, decision, folder, found, got, context]:
            text = json.dumps(value)
            assert AWS_KEY not in text
        assert "[REDACTED:" in note["text"] and "[REDACTED:" in got["records"][0]["record"]["text"]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


async def test_a_thousand_calls_in_a_row_with_stable_memory(repo: Path):
    async with serve(repo) as (session, _, pid):
        assert pid is not None, "cannot find the server's process"
        hit = (await session.call_tool("search", {"query": "cart"})).structured_content["results"][0]["id"]
        calls = [
            ("context", {"folder": "src/store"}),
            ("search", {"query": "empty cart"}),
            ("timeline", {"id": hit}),
            ("get", {"ids": [hit]}),
            ("context", {"folder": "no/such"}),
        ]

        async def run(n: int):
            for i in range(n):
                name, arguments = calls[i % len(calls)]
                result = await session.call_tool(name, arguments)
                assert result.is_error == (arguments.get("folder") == "no/such")

        await run(100)
        warm = rss_kb(pid)
        await run(1000)
        grown = rss_kb(pid) - warm
        assert grown < 20 * 1024, f"the server grew by {grown} kB over 1,000 calls"


TRANSCRIPTS = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"


async def test_search_filters_and_timeline_threads(repo: Path):
    ctx(repo, "ingest", str(TRANSCRIPTS / "claude-code-2.1.39"))
    async with serve(repo) as (session, _, _):
        schemas = await output_schemas(session)

        async def search(**filters) -> list[dict]:
            return (await call(session, schemas, "search", {"query": "events", "k": 50, **filters}))["results"]

        everything = await search()
        assert {hit["type"] for hit in everything} > {"query"}
        queries = await search(types=["query"])
        assert queries and all(hit["type"] == "query" for hit in queries)
        assert len(queries) < len(everything)

        def tags_of(ids: list[str]) -> list[list[str]]:
            return [json.loads(ctx(repo, "--json", "get", id))["record"]["tags"] for id in ids]

        subagent = await search(tags=["subagent"])
        assert subagent and all("subagent" in tags for tags in tags_of([hit["id"] for hit in subagent]))
        main = await search(tags=["!subagent"])
        assert main and not any("subagent" in tags for tags in tags_of([hit["id"] for hit in main]))
        assert len(main) + len(subagent) == len(everything)

        assert await search(since="2100-01-01") == []
        assert len(await search(until="2100-01-01")) == len([hit for hit in everything if hit["ts"] != "n/a"])
        assert await error_code(session, "search", {"query": "events", "since": "last tuesday"}) == "INVALID_INPUT"

        anchor = queries[0]["id"]
        timeline = await call(session, schemas, "timeline", {"id": anchor, "before": 50, "after": 50, "thread": "main"})
        ids = [row["id"] for row in timeline["results"]]
        assert anchor in ids and not any("subagent" in tags for tags in tags_of(ids))
        everyone = await call(session, schemas, "timeline", {"id": anchor, "before": 50, "after": 50, "thread": "all"})
        assert len(everyone["results"]) > len(ids)
        assert await error_code(session, "timeline", {"id": anchor, "thread": "side"}) == "INVALID_INPUT"
