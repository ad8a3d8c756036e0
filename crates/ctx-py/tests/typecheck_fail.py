"""Lines a type checker must refuse: each line marked `# E: CODE` is an
error of mypy's code CODE, and no other line is one. test_typecheck.py runs
`mypy --strict` on this file and compares. (Not a test module: nothing here
runs.)"""

from __future__ import annotations

import ctxkeep
from ctxkeep.types import SearchMode


def misuses(ws: ctxkeep.Workspace) -> None:
    # Choices are Literals: a wrong one fails the type check, not only at run time.
    ws.search("pool", mode="semantic")  # E: arg-type
    ws.search("pool", scope="cold")  # E: arg-type
    ws.search("pool", on_embedder_error="ignore")  # E: arg-type
    ws.context(".", tier="huge")  # E: arg-type
    ws.build(mode="all")  # E: arg-type
    ws.build(tiers=["minimal", "tiny"])  # E: list-item
    ws.frame_context(format="html")  # E: arg-type
    ws.pop_frame(status="planned")  # E: arg-type
    ws.tasks(status="done")  # E: arg-type
    ws.timeline("H-1", thread="others")  # E: arg-type
    ws.add_record("note", "text", role="admin")  # E: arg-type
    ws.artifact_context(level="deep")  # E: call-overload
    ws.artifact_prompt("summary", "text")  # E: arg-type
    mode: SearchMode = "semantic"  # E: assignment

    # Arguments of the wrong type.
    ws.search("pool", k="ten")  # E: arg-type
    ws.search("pool", embedder=object())  # E: arg-type
    ctxkeep.repo_map(".", tokens="many")  # E: arg-type

    # Results are TypedDicts: keys they do not have, values of another type.
    ws.status()["stale"]  # E: typeddict-item
    files: str = ws.scan()["files_added"]  # E: assignment
    ws.search("pool")["results"][0]["text"]  # E: typeddict-item
    ws.get("H-1")["record"]  # E: typeddict-item
    ws.current_frame()["id"]  # E: index
    ws.artifact_context("concept", format="markdown")["project"]  # E: index
    ws.frame_tree()[0]["goal"]  # E: typeddict-item
