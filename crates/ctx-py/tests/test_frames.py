"""The work tree from Python: frames, tasks, attempts and assembled context."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import ctxkeep
import ctxkeep.errors


@pytest.fixture(autouse=True)
def default_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """No budget from the environment running the tests."""
    for part in ("TOTAL", "ANCESTORS", "SIBLINGS", "CURRENT", "OVERHEAD"):
        monkeypatch.delenv(f"CTX_TOKEN_BUDGET_{part}", raising=False)


@pytest.fixture
def ws(tmp_path: Path) -> ctxkeep.Workspace:
    ws = ctxkeep.Workspace(tmp_path)
    ws.init()
    return ws


def test_push_pop_and_current(ws: ctxkeep.Workspace) -> None:
    assert ws.current_frame() is None
    outer = ws.push_frame("Build the auth service", title="Auth")
    assert outer["id"] == "F1" and outer["title"] == "Auth" and outer["goal"] == "Build the auth service"
    assert outer["status"] == "in_progress" and outer["parent"] is None and outer["type"] == "frame"
    inner = ws.push_frame("Add token refresh", type="feature")
    assert inner["parent"] == "F1" and inner["type"] == "feature"
    assert ws.current_frame()["id"] == inner["id"]

    ws.set_frame_goal("Refresh tokens on 401")
    assert ws.add_artifacts(["src/auth/refresh.py"])["artifacts"] == ["src/auth/refresh.py"]
    decision = ws.add_frame_decision("Refresh in the client", rationale="one retry", tags=["Design"])
    assert decision["id"].startswith("D-") and decision["tags"] == ["design"]

    detail = ws.frame()
    assert detail["id"] == "F2" and detail["is_current"] is True
    assert detail["goal"] == "Refresh tokens on 401"
    assert [a["id"] for a in detail["ancestors"]] == ["F1"]
    assert [d["title"] for d in detail["decisions"]] == ["Refresh in the client"]
    assert [s["id"] for s in ws.frame("F1")["subframes"]] == ["F2"]

    popped = ws.pop_frame(summary="refresh on 401, once")
    assert popped["status"] == "completed" and popped["summary"] == "refresh on 401, once"
    assert popped["ended_at"].endswith("Z")
    assert ws.current_frame()["id"] == "F1"
    assert ws.pop_frame("F1", status="blocked")["status"] == "blocked"
    assert ws.current_frame() is None

    tree = ws.frame_tree()
    assert [(t["id"], t["status"]) for t in tree] == [("F1", "blocked")]
    assert [(c["id"], c["status"]) for c in tree[0]["children"]] == [("F2", "completed")]
    shallow = ws.frame_tree("F1", depth=0)
    assert shallow[0]["children"] == [] and shallow[0]["children_not_shown"] == 1


def test_the_frame_started_last_is_current_even_in_quick_succession(ws: ctxkeep.Workspace) -> None:
    """Calls from one process often land in the same millisecond."""
    for i in range(20):
        task = ws.add_task(f"Older task {i}")
        frame = ws.push_frame(f"Newer frame {i}")
        ws.start_task(task["id"])
        assert ws.current_frame()["id"] == task["id"]
        ws.finish_task(task["id"])
        assert ws.current_frame()["id"] == frame["id"]
        ws.pop_frame()


def test_nested_ancestors_appear_root_first_in_the_xml(ws: ctxkeep.Workspace) -> None:
    ws.push_frame("Ship the billing service", title="Billing")
    ws.push_frame("Invoice generation")
    current = ws.push_frame("Render invoice PDFs")
    context = ws.frame_context()
    assert context["frame"] == current["id"] and context["rendering"] == "xml"
    root = ET.fromstring(context["text"])
    assert root.tag == "ctx-context" and root.get("frame") == "F3"
    ancestors = root.find("ancestors")
    assert ancestors is not None and ancestors.get("count") == "2"
    assert [f.get("id") for f in ancestors.findall("frame")] == ["F1", "F2"]
    assert ancestors.find("frame/title").text == "Billing"
    assert root.find("current-frame/goal").text == "Render invoice PDFs"
    assert context["report"]["ancestors"] == {"total": 2, "included": 2, "omitted": 0}
    assert context["report"]["tokens"]["total"] <= context["report"]["budget"]["total"]


def test_task_flow_with_a_failed_attempt(ws: ctxkeep.Workspace) -> None:
    epic = ws.add_task("Token auth", type="epic", description="Token auth for the API")
    sign = ws.add_task("Sign tokens", epic=epic["id"], criteria=["EdDSA keys"])
    verify = ws.add_task("Verify tokens", epic=epic["id"], description="Check signature and expiry")
    assert sign["status"] == "planned" and sign["criteria"] == ["EdDSA keys"] and sign["parent"] == epic["id"]
    assert verify["goal"] == "Check signature and expiry" and verify["type"] == "task"

    assert ws.start_task(sign["id"])["status"] == "in_progress"
    assert ws.current_frame()["id"] == sign["id"]
    done = ws.finish_task(sign["id"], summary="signing with ed25519")
    assert done["status"] == "completed" and done["summary"] == "signing with ed25519"

    ws.start_task(verify["id"])
    failed = ws.fail_task(
        verify["id"],
        reason="clock skew broke the expiry check",
        observations=["the CI clock is two minutes off"],
        avoid=["comparing naive datetimes"],
    )
    assert failed["status"] == "failed"
    assert ws.current_frame() is None
    (attempt,) = ws.frame(verify["id"])["attempts"]
    assert attempt["number"] == 1 and attempt["reason"] == "clock skew broke the expiry check"
    assert attempt["observations"] == ["the CI clock is two minutes off"]

    assert [t["id"] for t in ws.tasks()] == [epic["id"], sign["id"], verify["id"]]
    assert [t["id"] for t in ws.tasks(epic=epic["id"])] == [sign["id"], verify["id"]]
    assert [t["id"] for t in ws.tasks(status="failed")] == [verify["id"]]
    assert [t["id"] for t in ws.tasks(epic=epic["id"], status="completed")] == [sign["id"]]

    # The retry's prompt carries what the failed attempt learned.
    ws.start_task(verify["id"])
    prompt = ws.task_prompt(verify["id"])
    assert prompt["rendering"] == "prompt" and prompt["frame"] == verify["id"]
    text = prompt["text"]
    assert "Verify tokens" in text and "Check signature and expiry" in text
    assert "PREVIOUS ATTEMPT" in text
    assert "clock skew broke the expiry check" in text
    assert "the CI clock is two minutes off" in text
    assert "comparing naive datetimes" in text
    assert "Sign tokens" in text  # a completed task of the epic
    assert prompt["report"]["siblings"]["included"] == 1


def test_json_and_markdown_renderings(ws: ctxkeep.Workspace) -> None:
    ws.push_frame("Build the auth service", title="Auth")
    ws.push_frame("Add token refresh")
    document = json.loads(ws.frame_context(format="json")["text"])
    assert document["frame"] == "F2"
    assert [f["id"] for f in document["ancestors"]["frames"]] == ["F1"]
    assert document["current_frame"]["goal"] == "Add token refresh"
    assert document["metadata"]["budget"]["total"] == 4000

    markdown = ws.frame_context("F2", format="markdown")
    assert markdown["rendering"] == "md" and "Add token refresh" in markdown["text"]
    with pytest.raises(ctxkeep.InvalidInputError, match="the formats are xml, md, json, prompt"):
        ws.frame_context(format="html")


def test_context_cache_hits_until_the_frame_changes(ws: ctxkeep.Workspace) -> None:
    frame = ws.push_frame("Add token refresh")
    first = ws.frame_context()
    assert first["cache"]["hit"] is False and first["cache"]["stored"] is True
    second = ws.frame_context()
    assert second["cache"]["hit"] is True and second["cache"]["age_ms"] >= 0
    assert second["text"] == first["text"] and second["report"] == first["report"]

    ws.add_frame_decision("Retry once on 401")
    third = ws.frame_context()
    assert third["cache"]["hit"] is False
    assert "Retry once on 401" in third["text"]
    assert ws.frame_context()["cache"]["hit"] is True

    # Another process (here, another Workspace) shares the cache in the store.
    assert ctxkeep.Workspace(ws.root).frame_context(frame["id"])["cache"]["hit"] is True


def test_clear_cache(ws: ctxkeep.Workspace) -> None:
    first = ws.push_frame("Build the auth service")
    second = ws.push_frame("Add token refresh")
    ws.frame_context(first["id"])
    ws.frame_context(second["id"])
    ws.frame_context(second["id"], format="md")
    assert ws.clear_cache(second["id"]) == 2
    assert ws.frame_context(second["id"])["cache"]["hit"] is False
    assert ws.frame_context(first["id"])["cache"]["hit"] is True
    assert ws.clear_cache() == 2
    assert ws.clear_cache() == 0
    assert ws.frame_context(first["id"])["cache"]["hit"] is False


def test_budget_from_the_environment(ws: ctxkeep.Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    ws.push_frame("Add token refresh")
    assert ws.frame_context()["report"]["budget"]["total"] == 4000
    monkeypatch.setenv("CTX_TOKEN_BUDGET_TOTAL", "8000")
    context = ws.frame_context()
    assert context["cache"]["hit"] is False  # a new budget is a new context
    assert context["report"]["budget"]["total"] == 8000
    assert context["report"]["budget_sources"]["total"] == "CTX_TOKEN_BUDGET_TOTAL"

    monkeypatch.setenv("CTX_TOKEN_BUDGET_TOTAL", "abc")
    with pytest.raises(ctxkeep.BudgetError) as info:
        ws.frame_context()
    assert isinstance(info.value, ValueError)
    assert info.value.code == "INVALID_BUDGET"
    assert "CTX_TOKEN_BUDGET_TOTAL" in str(info.value)

    for part in ("TOTAL", "ANCESTORS", "SIBLINGS", "CURRENT", "OVERHEAD"):
        monkeypatch.setenv(f"CTX_TOKEN_BUDGET_{part}", "10")
    monkeypatch.setenv("CTX_TOKEN_BUDGET_TOTAL", "40")
    with pytest.raises(ctxkeep.ContextTooLargeError) as too_large:
        ws.frame_context()
    assert isinstance(too_large.value, ValueError) and too_large.value.code == "CONTEXT_TOO_LARGE"


def test_frame_errors(ws: ctxkeep.Workspace) -> None:
    with pytest.raises(ctxkeep.NoCurrentFrameError) as no_current:
        ws.pop_frame()
    assert isinstance(no_current.value, LookupError)
    assert no_current.value.code == "NO_CURRENT_FRAME"
    with pytest.raises(ctxkeep.NoCurrentFrameError):
        ws.frame_context()
    with pytest.raises(ctxkeep.NoCurrentFrameError):
        ws.add_frame_decision("Nowhere to go")

    with pytest.raises(ctxkeep.UnknownFrameError) as unknown:
        ws.frame("F99")
    assert isinstance(unknown.value, KeyError)
    assert unknown.value.code == "UNKNOWN_FRAME"
    assert str(unknown.value).startswith("F99: unknown frame")
    with pytest.raises(KeyError):
        ws.start_task("F99")
    with pytest.raises(ctxkeep.UnknownFrameError):
        ws.clear_cache("F99")
    with pytest.raises(ctxkeep.InvalidInputError, match="a frame id is F and a number"):
        ws.frame("bogus")

    task = ws.add_task("Rotate keys")
    with pytest.raises(ctxkeep.FrameStateError) as state:
        ws.pop_frame(task["id"])
    assert isinstance(state.value, ValueError) and state.value.code == "INVALID_FRAME_STATE"
    ws.start_task(task["id"])
    ws.finish_task(task["id"])
    with pytest.raises(ctxkeep.FrameStateError):
        ws.start_task(task["id"])

    with pytest.raises(ctxkeep.InvalidInputError, match="the statuses are planned, in_progress, completed"):
        ws.pop_frame(status="done")
    with pytest.raises(ctxkeep.InvalidInputError, match="the statuses are"):
        ws.tasks(status="open")
    with pytest.raises(ctxkeep.InvalidInputError):
        ws.fail_task(task["id"], reason="  ")
    with pytest.raises(ctxkeep.InvalidInputError):
        ws.push_frame("   ")
    with pytest.raises(TypeError):
        ws.add_artifacts("src/one.py")  # type: ignore[arg-type]
    with pytest.raises(ctxkeep.OutsideRootError):
        ws.add_artifacts(["../elsewhere.py"], frame=task["id"])
    # Nothing was written by the failed calls.
    assert [t["id"] for t in ws.tasks()] == [task["id"]]
    assert ws.frame(task["id"])["artifacts"] == []


def test_every_error_class_is_exported() -> None:
    classes = {
        name
        for name, value in vars(ctxkeep.errors).items()
        if isinstance(value, type) and issubclass(value, ctxkeep.CtxError)
    }
    assert classes <= set(ctxkeep.__all__)
    assert all(getattr(ctxkeep, name) is getattr(ctxkeep.errors, name) for name in classes)
