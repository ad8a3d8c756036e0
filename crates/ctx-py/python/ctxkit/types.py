"""Typed shapes of the dicts ctxkit returns (the JSON of docs/json.md)."""

from __future__ import annotations

from typing import List, Literal, Optional, TypedDict


class FileUpdate(TypedDict):
    """One file of `Workspace.update()`."""

    path: str
    kind: Literal["section", "prompt", "map"]
    status: Literal[
        "created",
        "appended",
        "replaced",
        "upgraded",
        "repaired",
        "unchanged",
        "edited",
        "missing",
        "out_of_date",
        "linked",
    ]
    from_version: Optional[int]
    to_version: Optional[int]
    repairs: List[str]
    same_as: Optional[str]


class KnowledgeReport(TypedDict):
    """What a sync of `.ctx/knowledge/` did (docs/knowledge.md); paths from the root."""

    loaded: List[str]
    removed: List[str]
    written: List[str]
    deleted: List[str]
    waiting: List[str]
    redacted: List[str]
    warnings: List[str]


class UpdateReport(TypedDict):
    """What `Workspace.update()` did (or, with `check=True`, would do)."""

    check: bool
    files: List[FileUpdate]
    up_to_date: bool
    knowledge: Optional[KnowledgeReport]
