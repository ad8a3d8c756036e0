"""Python that feels like Python: a workspace that closes (and is a context
manager), a star import that leaves the builtins alone, errors that name
arguments, counts checked as counts, and an embedder failure that can raise."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Callable

import pytest

import ctxkeep


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("def main():\n    pass\n")
    ctxkeep.Workspace(tmp_path).init()
    return tmp_path


@pytest.fixture
def ws(repo: Path) -> ctxkeep.Workspace:
    ws = ctxkeep.Workspace(repo)
    ws.scan()
    return ws


def open_files(path: Path) -> list[str]:
    """The files of this process open under `path` (Linux: /proc/self/fd)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(path)):
            found.append(target)
    return found


# --- close() and `with` ---


def test_open_is_a_context_manager_that_closes_the_workspace(repo: Path) -> None:
    with ctxkeep.Workspace.open(repo) as ws:
        assert isinstance(ws, ctxkeep.Workspace) and not ws.closed
        assert ws.scan()["files_added"] == 1
        assert ws.root == repo.resolve()
    assert ws.closed
    assert "closed" in repr(ws)
    with pytest.raises(ctxkeep.WorkspaceClosedError, match="closed") as caught:
        ws.status()
    err = caught.value
    assert isinstance(err, ctxkeep.CtxError) and isinstance(err, ValueError)
    assert err.code == "WORKSPACE_CLOSED"
    ws.close()  # idempotent
    ws.close()
    calls: list[Callable[[], Any]] = [
        ws.init,
        ws.scan,
        lambda: ws.root,
        lambda: ws.search("main"),
        lambda: ws.update(check=True),
        lambda: ws.folder("."),
    ]
    for call in calls:
        with pytest.raises(ctxkeep.WorkspaceClosedError):
            call()
    assert ws.path == repo  # what it was made with stays readable


def test_open_finds_the_workspace_at_once(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    with ctxkeep.Workspace.open(repo / "src") as ws:
        assert ws.root == repo.resolve()
    with pytest.raises(ctxkeep.NotAWorkspaceError):
        ctxkeep.Workspace.open(tmp_path_factory.mktemp("empty"))


def test_with_closes_on_errors_too_and_any_workspace_can_be_used_so(repo: Path) -> None:
    with pytest.raises(ctxkeep.UnknownFolderError):
        with ctxkeep.Workspace(repo) as ws:
            ws.folder("no/such/folder")
    assert ws.closed
    with pytest.raises(ctxkeep.WorkspaceClosedError):
        ws.status()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_close_lets_go_of_the_database(repo: Path) -> None:
    ws = ctxkeep.Workspace(repo)
    ws.status()
    assert any("ctx.db" in f for f in open_files(repo))
    ws.close()
    assert not [f for f in open_files(repo) if "ctx.db" in f]


# --- from ctxkeep import * ---


def test_star_import_leaves_the_builtin_map_alone() -> None:
    namespace: dict[str, Any] = {}
    exec("from ctxkeep import *", namespace)
    assert "map" not in namespace
    assert namespace["repo_map"] is ctxkeep.repo_map
    assert namespace["Workspace"] is ctxkeep.Workspace
    assert ctxkeep.map is ctxkeep.repo_map  # the old name still works
    assert all(hasattr(ctxkeep, name) for name in ctxkeep.__all__)


# --- errors in Python's words ---

FLAG_OR_COMMAND = re.compile(r"(^|[\s(`'\"])--?[a-z]|`ctx |\bctx [a-z]+ [A-Z]")


def speaks_python(err: BaseException) -> str:
    message = str(err)
    assert not FLAG_OR_COMMAND.search(message), message
    return message


def test_counts_out_of_range_are_named_as_arguments(ws: ctxkeep.Workspace, repo: Path) -> None:
    record = ws.add_record("note", "the pool timeout is 30 s")["id"]
    cases: list[tuple[Callable[[], Any], str]] = [
        (lambda: ws.search("pool", k=0), "k must be at least 1"),
        (lambda: ws.search("pool", k=5000), "k must be at most 1000"),
        (lambda: ws.timeline(record, before=5000), "before must be at most 1000"),
        (lambda: ws.timeline(record, after=5000), "after must be at most 1000"),
        (lambda: ws.pack(0), "tokens must be at least 1"),
        (lambda: ctxkeep.repo_map(repo, tokens=0), "tokens must be at least 1"),
        (lambda: ctxkeep.rank("main", repo, k=0), "k must be at least 1"),
        (lambda: ws.artifact_context(tokens=0), "tokens must be at least 1"),
    ]
    for call, expected in cases:
        with pytest.raises(ctxkeep.InvalidInputError) as caught:
            call()
        assert speaks_python(caught.value).startswith(expected), str(caught.value)


def test_times_are_named_as_arguments(ws: ctxkeep.Workspace) -> None:
    with pytest.raises(ctxkeep.InvalidInputError) as caught:
        ws.search("pool", since="last tuesday")
    assert speaks_python(caught.value).startswith('since="last tuesday": a time is')
    with pytest.raises(ctxkeep.InvalidInputError) as caught:
        ws.search("pool", until="soon")
    assert speaks_python(caught.value).startswith('until="soon": a time is')


def test_errors_name_python_calls_not_commands(ws: ctxkeep.Workspace, tmp_path_factory: pytest.TempPathFactory) -> None:
    with pytest.raises(ctxkeep.NotAWorkspaceError) as not_a_workspace:
        ctxkeep.Workspace(tmp_path_factory.mktemp("bare")).status()
    assert "call `Workspace.init()`" in speaks_python(not_a_workspace.value)
    with pytest.raises(ctxkeep.UnknownFolderError) as unknown_folder:
        ws.folder("nope")
    assert "call `Workspace.scan()`" in speaks_python(unknown_folder.value)
    with pytest.raises(ctxkeep.UnknownFrameError) as unknown_frame:
        ws.frame("F99")
    assert "`Workspace.frame_tree()`" in speaks_python(unknown_frame.value)
    with pytest.raises(ctxkeep.NoCurrentFrameError) as no_frame:
        ws.frame()
    assert "`Workspace.push_frame(goal)`" in speaks_python(no_frame.value)
    with pytest.raises(ctxkeep.InvalidOperationError) as no_artifact:
        ws.artifact_context(sections=["what-is-it"])
    assert "`Workspace.use_artifact(slug)`" in speaks_python(no_artifact.value)


def test_broken_markers_say_how_to_repair_from_python(ws: ctxkeep.Workspace, repo: Path) -> None:
    ws.update()
    agents = repo / "AGENTS.md"
    agents.write_text(agents.read_text().replace("<!-- END CTX MANAGED SECTION", "<!-- gone", 1))
    with pytest.raises(ctxkeep.ManagedSectionError) as caught:
        ws.update()
    assert "`Workspace.update(repair=True)`" in speaks_python(caught.value)


# --- counts are counts ---

NEGATIVE: list[tuple[str, Callable[[ctxkeep.Workspace, str, Path], Any]]] = [
    ("k", lambda ws, record, repo: ws.search("pool", k=-1)),
    ("before", lambda ws, record, repo: ws.timeline(record, before=-1)),
    ("after", lambda ws, record, repo: ws.timeline(record, after=-3)),
    ("head", lambda ws, record, repo: ws.get(record, head=-1)),
    ("tokens", lambda ws, record, repo: ws.pack(-1)),
    ("depth", lambda ws, record, repo: ws.frame_tree(depth=-1)),
    ("tokens", lambda ws, record, repo: ws.artifact_context(tokens=-5)),
    ("tokens", lambda ws, record, repo: ctxkeep.repo_map(repo, tokens=-1)),
    ("k", lambda ws, record, repo: ctxkeep.rank("main", repo, k=-1)),
]


@pytest.mark.parametrize("name,call", NEGATIVE)
def test_a_negative_count_is_invalid_input_not_overflow(
    ws: ctxkeep.Workspace, repo: Path, name: str, call: Callable[[ctxkeep.Workspace, str, Path], Any]
) -> None:
    record = ws.add_record("note", "the pool timeout is 30 s")["id"]
    with pytest.raises(ctxkeep.InvalidInputError) as caught:
        call(ws, record, repo)
    assert not isinstance(caught.value, OverflowError)
    assert re.match(rf"{name}=-\d+: ", speaks_python(caught.value)), str(caught.value)


def test_huge_counts_are_invalid_input_too(ws: ctxkeep.Workspace) -> None:
    with pytest.raises(ctxkeep.InvalidInputError, match="^k="):
        ws.search("pool", k=2**70)
    with pytest.raises(TypeError):
        ws.search("pool", k=2.5)  # type: ignore[arg-type]


# --- an embedder that fails ---


class Broken:
    name = "test:broken"

    def embed(self, texts: list[str]) -> list[list[float]]:
        raise ConnectionError("model server unreachable")


class BreaksOnQueries:
    """Embeds the records, then fails on the query."""

    name = "test:flaky"

    def __init__(self) -> None:
        self.calls = 0

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        if self.calls > 1:
            raise TimeoutError("the model timed out")
        return [[1.0, float(len(t))] for t in texts]


class WrongSize:
    """Vectors of 2 dimensions, then of 3."""

    name = "test:wrong-size"

    def __init__(self) -> None:
        self.calls = 0

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return [[1.0] * (2 if self.calls == 1 else 3) for _ in texts]


def test_a_failing_embedder_falls_back_by_default(ws: ctxkeep.Workspace) -> None:
    ws.add_record("note", "the automobile would not start")
    embedders: list[ctxkeep.Embedder] = [Broken(), BreaksOnQueries(), WrongSize()]
    for embedder in embedders:
        retrieval = ws.search("automobile", mode="hybrid", embedder=embedder)["retrieval"]
        assert retrieval["mode"] == "lexical", retrieval
        assert retrieval.get("vector_fallback_reason"), retrieval
        again = ws.search("automobile", mode="hybrid", embedder=embedder, on_embedder_error="fallback")
        assert again["retrieval"]["mode"] == "lexical"


def test_a_failing_embedder_can_be_told_to_raise(ws: ctxkeep.Workspace) -> None:
    ws.add_record("note", "the automobile would not start")
    ws.add_record("note", "a quick fix")
    with pytest.raises(ctxkeep.EmbedderError, match="model server unreachable") as caught:
        ws.search("automobile", mode="hybrid", embedder=Broken(), on_embedder_error="raise")
    assert isinstance(caught.value.__cause__, ConnectionError)
    assert caught.value.code == "EMBEDDER_ERROR"
    with pytest.raises(ctxkeep.EmbedderError, match="timed out") as flaky:
        ws.search("automobile", mode="vector", embedder=BreaksOnQueries(), on_embedder_error="raise")
    assert isinstance(flaky.value.__cause__, TimeoutError)
    with pytest.raises(ctxkeep.EmbedderError, match="dimensions"):
        ws.search("automobile", mode="vector", embedder=WrongSize(), on_embedder_error="raise")


def test_raise_is_only_for_failures(ws: ctxkeep.Workspace) -> None:
    ws.add_record("note", "the automobile would not start")
    # Lexical never asks the embedder.
    lexical = ws.search("automobile", embedder=Broken(), on_embedder_error="raise")
    assert lexical["hits"] == 1
    # A query the built-in embedder cannot place is no failure: lexical serves it.
    quiet = ws.search("the", mode="hybrid", on_embedder_error="raise")["retrieval"]
    assert quiet["mode"] == "lexical" and quiet.get("vector_fallback_reason")
    with pytest.raises(ctxkeep.InvalidInputError, match="on_embedder_error"):
        ws.search("automobile", on_embedder_error="ignore")  # type: ignore[arg-type]
