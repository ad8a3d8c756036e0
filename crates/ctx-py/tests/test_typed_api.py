"""The whole public API of ctxkeep, typed: every function and method is
called and fields of its result are read through their `TypedDict`s.

Two checks in one file:

- `mypy --strict` passes on it (scripts/test and test_typecheck.py run it),
  so the stubs let typed code use every result;
- run by pytest, every result is checked against the return annotation
  its stub declares (`_ctx.pyi`), recursively: every key the TypedDict
  requires is there, no key it does not declare, every value of its type.
  So the stubs say what the Rust code really returns.
"""

from __future__ import annotations

import ast
import datetime
import types
import typing
from pathlib import Path
from typing import Any, Callable, Literal, Optional, TypeVar, Union

import pytest

import ctxkeep
import ctxkeep.types as t

T = TypeVar("T")

TRANSCRIPT = Path(__file__).resolve().parents[2] / "ctx-core" / "tests" / "fixtures" / "claude_code_session.jsonl"
STUB = Path(ctxkeep.__file__).with_name("_ctx.pyi")

# --- the stub's return annotations, and a checker of values against them ---


def stub_returns() -> dict[str, Any]:
    """`Workspace.<method>` and `<function>` → the return type the stub declares
    (a Union of the overloads' where there are several)."""
    tree = ast.parse(STUB.read_text())
    namespace: dict[str, Any] = {**vars(typing), **vars(t), "Path": Path, "Self": ctxkeep.Workspace}
    namespace["Workspace"] = ctxkeep.Workspace
    found: dict[str, list[Any]] = {}

    def add(name: str, node: ast.FunctionDef) -> None:
        if node.returns is not None:
            found.setdefault(name, []).append(eval(ast.unparse(node.returns), namespace))

    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Workspace":
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    add(f"Workspace.{item.name}", item)
        elif isinstance(node, ast.FunctionDef):
            add(node.name, node)
    return {name: Union[tuple(returns)] if len(returns) > 1 else returns[0] for name, returns in found.items()}


RETURNS = stub_returns()
CHECKED: set[str] = set()


def problems(value: object, expected: Any, where: str) -> list[str]:
    """Why `value` is not of type `expected` (none: it is)."""
    origin = typing.get_origin(expected)
    if expected is Any:
        return []
    if expected is None or expected is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if origin in (Union, types.UnionType):
        found = [problems(value, option, where) for option in typing.get_args(expected)]
        return [] if any(not p for p in found) else [f"{where}: none of {expected}: {found}"]
    if origin is Literal:
        ok = any(value == option and type(value) is type(option) for option in typing.get_args(expected))
        return [] if ok else [f"{where}: {value!r} is not one of {typing.get_args(expected)}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__} is not a list"]
        (item,) = typing.get_args(expected)
        return [p for i, v in enumerate(value) for p in problems(v, item, f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not a dict"]
        key_type, item = typing.get_args(expected)
        return [p for k, v in value.items() for p in problems(k, key_type, where) + problems(v, item, f"{where}[{k!r}]")]
    if typing.is_typeddict(expected):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not a dict ({expected.__name__})"]
        hints = typing.get_type_hints(expected)
        out = [f"{where}: {expected.__name__} has no key {k!r}" for k in value if k not in hints]
        out += [f"{where}: {expected.__name__} needs {k!r}" for k in expected.__required_keys__ if k not in value]
        return out + [p for k, v in value.items() if k in hints for p in problems(v, hints[k], f"{where}.{k}")]
    if expected is float:
        return [] if isinstance(value, (int, float)) and not isinstance(value, bool) else [f"{where}: {value!r} is not a float"]
    if expected is int:
        return [] if isinstance(value, int) and not isinstance(value, bool) else [f"{where}: {value!r} is not an int"]
    if isinstance(expected, type):
        return [] if isinstance(value, expected) else [f"{where}: {value!r} is not a {expected.__name__}"]
    return [f"{where}: cannot check against {expected!r}"]


def checked(name: str, value: T) -> T:
    """`value`, the result of `name`, once checked against its stub."""
    found = problems(value, RETURNS[name], name)
    assert not found, "\n".join(found[:10])
    CHECKED.add(name)
    return value


def returns_none(name: str, method: Callable[..., object], *args: Any) -> None:
    """Call `method` (which the stub says returns None) and check it."""
    checked(name, method(*args))


# --- a repository that gives every result something to say ---

CONCEPT = "# Concept\n\n## What Is It?\n\nA layer.\n\n## Overview\n\nThe overview.\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    files = {
        "src/auth/jwt.py": "class Signer:\n    def sign(self) -> str:\n        return 'x'\n",
        "src/db/pool.py": "from src.auth.jwt import Signer\n\ndef pool() -> Signer:\n    return Signer()\n",
        "README.md": "# Demo\n\nA demo service.\n",
        "pyproject.toml": '[project]\nname = "demo"\ndescription = "A demo"\n',
        "concept.md": CONCEPT,
        "config.py": 'API_KEY = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"\n',
        ".env": "TOKEN=abc\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


class Concepts:
    """An `Embedder`: one dimension a concept."""

    name = "test:concepts"

    def embed(self, texts: list[str]) -> list[list[float]]:
        words = [("car", "automobile"), ("pool", "timeout"), ("token", "refresh")]
        return [[float(sum(w in text.lower() for w in ws)) + 0.1 for ws in words] for text in texts]


def test_the_whole_api_is_typed(repo: Path) -> None:
    CHECKED.clear()
    version: str = ctxkeep.__version__
    schema: int = ctxkeep.SCHEMA_VERSION
    assert version and schema > 0

    # Workspace life: init, update, scan, status.
    ws = ctxkeep.Workspace(repo)
    path: Path = ws.path
    init = checked("Workspace.init", ws.init())
    created: list[str] = init["created"]
    assert ".ctx/config.toml" in created and init["already_initialized"] is False
    root: Path = checked("Workspace.root", ws.root)
    assert root == repo.resolve() == path.resolve()
    scan = checked("Workspace.scan", ws.scan())
    assert scan["files_added"] >= 6 and scan["phases"]["walk_ms"] >= 0
    issues: list[t.ScanIssue] = scan["issues"]
    assert issues == []
    update = checked("Workspace.update", ws.update())
    assert {f["kind"] for f in update["files"]} == {"section", "prompt", "map"}
    knowledge = update["knowledge"]
    assert knowledge is None or isinstance(knowledge["written"], list)
    assert checked("Workspace.update", ws.update(check=True))["up_to_date"] is True
    status = checked("Workspace.status", ws.status())
    assert status["files"] >= scan["files_added"] and status["last_scan_at"] is not None

    # Folders and decisions.
    folder = checked("Workspace.folder", ws.folder("."))
    secret_files = [f["name"] for f in folder["files"] if f["secret"] is not None]
    assert ".env" in secret_files
    described = checked("Workspace.describe", ws.describe("src/auth", description="JWT signing"))
    assert described["description"] == "JWT signing"
    assert checked("Workspace.set_scope", ws.set_scope("src", True))["is_scope"] is True
    related = checked("Workspace.relate", ws.relate("src/auth", "src/db", note="sessions"))["related"]
    assert related == [{"path": "src/db", "note": "sessions"}]
    assert checked("Workspace.unrelate", ws.unrelate("src/auth", "src/db"))["related"] == []
    decision = checked("Workspace.log_decision", ws.log_decision("src/auth", "Use EdDSA", tags=["crypto"]))
    decision_folder: Optional[str] = decision["folder"]
    assert decision_folder == "src/auth" and decision["rationale"] == ""
    assert [d["id"] for d in checked("Workspace.decisions", ws.decisions("src/auth"))] == [decision["id"]]

    # Context files.
    build = checked("Workspace.build", ws.build())
    built: list[t.BuiltFolder] = build["built"]
    assert build["files_written"] > 0 and all(b["tiers"] for b in built)
    assert checked("Workspace.build", ws.build(["src"], mode="force", tiers=["minimal"]))["files_written"] == 1
    context = checked("Workspace.context", ws.context("src/auth", tier="full"))
    doc: t.ContextDoc = context["doc"]
    assert doc["tier"] == "full" and doc["current"]["description"] == "JWT signing"
    definitions = [d["name"] for f in doc["files"] for d in f["definitions"]]
    assert "Signer" in definitions
    assert [s["path"] for s in doc["scope_chain"]][-1] == "src"
    assert checked("Workspace.context", ws.context())["doc"]["project"] is not None
    validate = checked("Workspace.validate", ws.validate())
    assert validate["ok"] is True and validate["missing"] == []
    todo = checked("Workspace.todo", ws.todo())
    assert all(folder["role"] in ("source", "docs", "test") for folder in todo)
    secrets = checked("Workspace.secrets_scan", ws.secrets_scan())
    findings: list[t.SecretFinding] = secrets["findings"]
    assert [f["path"] for f in findings] == ["config.py"] and secrets["hidden"][0]["path"] == ".env"
    redacted: str = ws.redact('API_KEY = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"')
    CHECKED.add("Workspace.redact")
    assert "[REDACTED:" in redacted

    # The work tree.
    frame = checked("Workspace.push_frame", ws.push_frame("Add token refresh", type="feature"))
    assert frame["status"] == "in_progress" and frame["type"] == "feature"
    current = checked("Workspace.current_frame", ws.current_frame())
    assert current is not None and current["id"] == frame["id"]
    assert checked("Workspace.set_frame_goal", ws.set_frame_goal("Refresh on 401"))["goal"] == "Refresh on 401"
    assert checked("Workspace.add_artifacts", ws.add_artifacts(["src/auth/jwt.py"]))["artifacts"] == ["src/auth/jwt.py"]
    frame_decision = checked("Workspace.add_frame_decision", ws.add_frame_decision("Retry once", rationale="idempotent"))
    assert frame_decision["frame"] == frame["id"]
    assembled = checked("Workspace.frame_context", ws.frame_context(format="json"))
    assert assembled["rendering"] == "json" and assembled["report"]["budget"]["total"] > 0
    hit: bool = checked("Workspace.frame_context", ws.frame_context(format="json"))["cache"]["hit"]
    assert hit
    assert checked("Workspace.clear_cache", ws.clear_cache()) >= 1
    epic = checked("Workspace.add_task", ws.add_task("Keys", type="epic"))
    task = checked("Workspace.add_task", ws.add_task("Rotate keys", epic=epic["id"], criteria=["old tokens verify"]))
    assert task["status"] == "planned" and task["criteria"] == ["old tokens verify"]
    assert checked("Workspace.start_task", ws.start_task(task["id"]))["status"] == "in_progress"
    failed = checked("Workspace.fail_task", ws.fail_task(task["id"], reason="clock skew", avoid=["sleep"]))
    assert failed["status"] == "failed"
    detail = checked("Workspace.frame", ws.frame(task["id"]))
    attempts: list[t.Attempt] = detail["attempts"]
    assert attempts[0]["avoid"] == ["sleep"] and detail["ancestors"][0]["id"] == epic["id"]
    prompt = checked("Workspace.task_prompt", ws.task_prompt(task["id"]))
    assert "clock skew" in prompt["text"]
    ws.start_task(task["id"])
    assert checked("Workspace.finish_task", ws.finish_task(task["id"], summary="done"))["status"] == "completed"
    statuses: list[t.FrameStatus] = [f["status"] for f in checked("Workspace.tasks", ws.tasks(status="completed"))]
    assert statuses == ["completed"]
    tree = checked("Workspace.frame_tree", ws.frame_tree(depth=1))
    assert [node["id"] for node in tree] == [frame["id"], epic["id"]] and tree[1]["children"][0]["children"] == []
    popped = checked("Workspace.pop_frame", ws.pop_frame(frame["id"], summary="refresh on 401"))
    assert popped["ended_at"] is not None

    # Session memory.
    (repo / "session.jsonl").write_text(TRANSCRIPT.read_text())
    ingest = checked("Workspace.ingest", ws.ingest(repo / "session.jsonl"))
    assert ingest["claude_code_lines"] == 8 and ingest["errors"] == []
    transcript = checked("Workspace.ingest_transcript", ws.ingest_transcript(repo / "session.jsonl"))
    assert transcript["read"] == "new" and transcript["ingest"]["added"] == 0
    note = checked("Workspace.add_record", ws.add_record("note", "the pool timeout is 30 s", role="user", tags=["perf"]))
    role: t.Role = note["role"]
    assert role == "user" and checked("Workspace.record", ws.record(note["id"]))["tags"] == ["perf"]
    search = checked("Workspace.search", ws.search("pool timeout", k=5, mode="hybrid"))
    row = search["results"][0]
    expand = row.get("expand")
    assert expand is not None and expand["get"]["head"] > 0 and search["retrieval"]["mode"] == "hybrid"
    vector = checked("Workspace.search", ws.search("timeout", mode="vector", embedder=Concepts()))
    assert vector["retrieval"]["embedder"] == "test:concepts"
    assert checked("Workspace.embed_records", ws.embed_records(Concepts())) == 0
    assert checked("Workspace.embed_records", ws.embed_records()) == 0
    timeline = checked("Workspace.timeline", ws.timeline(row["id"], before=1, after=1, thread="all"))
    assert timeline["anchor"] == row["id"] and timeline["source"] == "hot"
    got = checked("Workspace.get", ws.get(row["id"]))
    assert "layer" in got and got["record"]["id"] == row["id"]
    tiny = checked("Workspace.get", ws.get(row["id"], head=72))
    assert "note" in tiny and tiny["note"] == "budget_too_small"
    pin = checked("Workspace.pin", ws.pin("Never log card numbers"))
    assert [p["id"] for p in checked("Workspace.pins", ws.pins())] == [pin["id"]]
    pack = checked("Workspace.pack", ws.pack(400))
    names: list[t.PackSectionName] = [s["name"] for s in pack["sections"]]
    assert names[0] == "PINS" and pack["layer"] == "L1"
    returns_none("Workspace.unpin", ws.unpin, pin["id"])
    assert checked("Workspace.archive", ws.archive(10 * 365 * 24 * 3600)) == 0

    # Artifacts.
    view = checked("Workspace.add_artifact", ws.add_artifact("concept.md", stage="discovery"))
    slugs = [s["slug"] for s in view["sections"]]
    assert slugs == ["concept", "what-is-it", "overview"]
    assert [a["slug"] for a in checked("Workspace.artifacts", ws.artifacts())] == ["concept"]
    full = checked("Workspace.artifact", ws.artifact("concept", content=True, sections=["overview"]))
    assert full.get("content") == CONCEPT
    project = checked("Workspace.artifact_project", ws.artifact_project())
    assert project["current_stage"] == "discovery" and project["stages"]["discovery"]["artifacts_total"] == 1
    assert checked("Workspace.set_artifact_stage", ws.set_artifact_stage("concept", "design"))["stage"] == "design"
    collapsed = checked("Workspace.collapse_section", ws.collapse_section("concept", "overview"))
    assert collapsed["sections"][2]["is_collapsed"] is True
    operation: t.UpdateSection = {
        "operation": "update_section",
        "artifact_slug": "concept",
        "section_slug": "what-is-it",
        "content": "\nA planning layer.\n\n",
    }
    result = checked("Workspace.apply_artifact_operation", ws.apply_artifact_operation(operation))
    snapshot: Optional[str] = result["snapshot_id"]
    assert snapshot is not None and result["artifact"]["sections"][1]["preview"] == "A planning layer."
    suggested = checked(
        "Workspace.apply_artifact_operation",
        ws.apply_artifact_operation(
            {"operation": "suggest_edit", "artifact_slug": "concept", "section_slug": "overview", "suggestion": "Shorter"}
        ),
    )
    suggestion_id = suggested["suggestion_id"]
    assert suggestion_id is not None
    pending = checked("Workspace.artifact_suggestions", ws.artifact_suggestions("concept"))
    assert [s["status"] for s in pending] == ["pending"]
    rejected = checked("Workspace.reject_suggestion", ws.reject_suggestion(suggestion_id, "not now"))
    assert rejected["decision_reason"] == "not now"
    again = ws.apply_artifact_operation(
        {"operation": "suggest_edit", "artifact_slug": "concept", "section_slug": "overview", "suggestion": "x", "content": "\nShort.\n"}
    )
    again_id = again["suggestion_id"]
    assert again_id is not None
    assert checked("Workspace.accept_suggestion", ws.accept_suggestion(again_id))["status"] == "accepted"
    history = checked("Workspace.artifact_history", ws.artifact_history("concept"))
    assert history["operations"][0]["operation"] == "update_section"
    restored = checked("Workspace.restore_artifact", ws.restore_artifact("concept", snapshot))
    assert restored["operation"] == "restore"
    fresh = checked("Workspace.check_artifact", ws.check_artifact("concept", restored["artifact"]["state_hash"]))
    assert fresh["fresh"] is True
    aged = checked(
        "Workspace.check_artifact",
        ws.check_artifact("concept", "0" * 16, at=datetime.datetime(2020, 1, 1), max_age=datetime.timedelta(hours=1)),
    )
    assert aged["fresh"] is False and aged["too_old"] is True
    resolution = checked("Workspace.resolve_artifact_target", ws.resolve_artifact_target("@concept#overview shorten"))
    if resolution["outcome"] == "resolved":
        assert resolution["section"] == "overview" and resolution["confidence"] > 0.6
    else:
        pytest.fail(f"not resolved: {resolution}")
    assert checked("Workspace.use_artifact", ws.use_artifact("concept")) == "concept"
    assert checked("Workspace.current_artifact", ws.current_artifact()) == "concept"
    agent = checked("Workspace.artifact_context", ws.artifact_context(level="full", message="fix #overview"))
    current_artifact = agent["currentArtifact"]
    assert current_artifact is not None and current_artifact["slug"] == "concept"
    assert agent["systemState"]["level"] == "full" and agent["systemState"]["tokens"]["used"]["total"] > 0
    markdown: str = checked("Workspace.artifact_context", ws.artifact_context("concept", format="markdown"))
    assert "Concept" in markdown
    chat = checked("Workspace.artifact_prompt", ws.artifact_prompt("chat", "what is left?"))
    assert chat["kind"] == "chat" and chat["tokens"] > 0
    assert checked("Workspace.finalize_artifact", ws.finalize_artifact("concept"))["status"] == "finalized"
    try:
        ws.apply_artifact_operation({"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "overview"})
    except ctxkeep.ArtifactFinalizedError as err:
        action: Optional[str] = err.action
        seed: dict[str, Any] = err.as_dict()
        assert action is not None and "override_finalized=True" in action and seed["error"] == err.code
    assert checked("Workspace.unfinalize_artifact", ws.unfinalize_artifact("concept"))["status"] == "draft"
    assert checked("Workspace.use_artifact", ws.use_artifact(None)) is None
    returns_none("Workspace.remove_artifact", ws.remove_artifact, "concept")

    # The map and the ranking, of the workspace or of any folder.
    repo_map = checked("repo_map", ctxkeep.repo_map(repo, tokens=512, focus=["src/db/pool.py"]))
    # A map for a task keeps the stack and commands; the tree is the overview's.
    assert repo_map["tokens"] <= repo_map["budget"] == 512 and repo_map["structure"]["tree"] == []
    assert checked("repo_map", ctxkeep.repo_map(repo, tokens=512))["structure"]["tree"]
    kinds: list[t.DefinitionKind] = [d["kind"] for f in repo_map["files"] for d in f["definitions"]]
    assert "class" in kinds
    ranked = checked("rank", ctxkeep.rank("pool signer", str(repo), k=2, history=False))
    assert len(ranked) == 2 and ranked[0]["score"] >= ranked[1]["score"]
    assert ctxkeep.map is ctxkeep.repo_map

    # Errors carry their fields.
    try:
        ws.folder("nope")
    except ctxkeep.UnknownFolderError as err:
        code: str = err.code
        message: str = err.message
        assert code == "UNKNOWN_FOLDER" and message.startswith("nope")

    # Closing: `open`, `with`, `close`, `closed`.
    with ctxkeep.Workspace.open(repo) as opened:
        assert checked("Workspace.open", opened) is not ws
        assert not checked("Workspace.closed", opened.closed)
    assert opened.closed
    ws.close()
    returns_none("Workspace.close", ws.close)
    CHECKED.update({"Workspace.__new__", "Workspace.__enter__", "Workspace.__exit__", "Workspace.path"})

    assert CHECKED == set(RETURNS), f"not called: {sorted(set(RETURNS) - CHECKED)}"


def test_the_checker_finds_what_is_wrong() -> None:
    assert problems({"path": "x", "note": "y"}, t.Relation, "r") == []
    assert problems({"path": "x"}, t.Relation, "r") == ["r: Relation needs 'note'"]
    assert problems({"path": "x", "note": "y", "extra": 1}, t.Relation, "r") == ["r: Relation has no key 'extra'"]
    assert problems({"path": 1, "note": "y"}, t.Relation, "r") == ["r.path: 1 is not a str"]
    assert problems(True, int, "n") == ["n: True is not an int"]
    assert problems("huge", t.Tier, "tier") == ["tier: 'huge' is not one of ('minimal', 'standard', 'full', 'deep')"]
    assert problems([1, "x"], list[int], "l") == ["l[1]: 'x' is not an int"]
    assert problems(None, Optional[int], "o") == []
