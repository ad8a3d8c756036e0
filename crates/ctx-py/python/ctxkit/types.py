"""Typed shapes of the dicts ctxkit returns (the JSON of docs/json.md)."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict


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


class IngestError(TypedDict):
    line: int
    message: str


class IngestReport(TypedDict):
    """What `Workspace.ingest()` did (docs/json.md)."""

    source: str
    lines: int
    added: int
    duplicates: int
    empty: int
    ctx_lines: int
    claude_code_lines: int
    codex_lines: int
    types: Dict[str, int]
    errors: List[IngestError]


# What `Workspace.ingest_transcript()` did (docs/hooks.md): `from`..`to` is
# the byte range of the complete lines read (equal: none), `pending` the
# bytes of a last line not complete yet. (`from` is a keyword: hence this form.)
TranscriptIngestReport = TypedDict(
    "TranscriptIngestReport",
    {
        "path": str,
        "read": Literal["new", "appended", "rewritten", "unchanged"],
        "from": int,
        "to": int,
        "pending": int,
        "ingest": IngestReport,
    },
)


class Record(TypedDict):
    """A record (`Workspace.record()`): types and meta keys in docs/records.md."""

    id: str
    ts: str
    role: Literal["user", "assistant", "tool", "unknown"]
    type: str
    refs: List[str]
    text: str
    tags: List[str]
    session_id: Optional[str]
    meta: Dict[str, Any]
