"""ctxkeep: the ctx context engine from Python.

>>> import ctxkeep
>>> ws = ctxkeep.Workspace(".")
>>> ws.init()          # creates .ctx/ (idempotent)
>>> with ctxkeep.Workspace.open(".") as ws:   # or: closed at the end of the block
...     ws.status()
>>> ws.update()        # ctx's section in AGENTS.md/CLAUDE.md, .ctx/ prompts, .ctx/map.md
>>> ws.scan()["files_added"]
>>> ws.status()["stale_folders"]
>>> ws.build()["files_written"]     # .ctx/context/<folder>.<tier>.md
>>> ws.context("src", tier="minimal")["text"]
>>> ctxkeep.repo_map(".", tokens=1024)["text"]     # any folder, no init needed
>>> ctxkeep.rank("fix the pool timeout", ".", k=5)  # [{"path": ..., "score": ...}, ...]
>>> ws.push_frame("Add token refresh")["id"]       # "F1", now the current frame
>>> ws.frame_context()["text"]                     # <ctx-context> within the token budget
>>> ws.pop_frame(summary="refresh on 401")
>>> task = ws.add_task("Rotate keys", criteria=["old tokens still verify"])
>>> ws.task_prompt(task["id"])["text"]
>>> ws.ingest("session.jsonl")["added"]            # Claude Code transcripts, ctx records
>>> ws.search("rotate refresh tokens", mode="hybrid")["results"]  # L0 rows
>>> ws.search("car trouble", mode="vector", embedder=my_model)    # any `Embedder`
>>> ws.add_artifact("docs/concept.md", stage="discovery")["sections"]  # planning artifacts
>>> ws.apply_artifact_operation({"operation": "mark_section_done",
...     "artifact_slug": "concept", "section_slug": "what-is-it"})

Every method returns plain dicts and lists, shaped like the JSON that the
`ctx` command prints with `--json` and typed by the `TypedDict`s of
`ctxkeep.types`. Errors are subclasses of `CtxError`; the artifact ones, of `ArtifactError`
(with the seed's `suggestions`, `action` and `candidates`).

`ctxkeep.map` is `repo_map` by its old name; `from ctxkeep import *`
leaves it out, so the builtin `map` stays what it is.
"""

from typing import Protocol, Sequence, runtime_checkable

from ctxkeep._ctx import SCHEMA_VERSION, Workspace, __version__, rank, repo_map
from ctxkeep.errors import (
    AmbiguousTargetError,
    ArtifactChangedError,
    ArtifactContextTooLargeError,
    ArtifactError,
    ArtifactFinalizedError,
    ArtifactNotFoundError,
    BudgetError,
    ConfigError,
    ContextTooLargeError,
    CtxError,
    CtxIOError,
    DatabaseError,
    FrameStateError,
    InvalidInputError,
    KnowledgeFileError,
    ManagedSectionError,
    NoCurrentFrameError,
    NotAWorkspaceError,
    OutsideRootError,
    TemplateError,
    UnknownFolderError,
    UnknownFrameError,
    UnknownRecordError,
    EmbedderError,
    InvalidOperationError,
    SectionNotFoundError,
    SnapshotNotFoundError,
    SuggestionNotFoundError,
    WorkspaceClosedError,
)

map = repo_map
"""`repo_map` by its first name (not in `__all__`: a star import would hide the builtin)."""


@runtime_checkable
class Embedder(Protocol):
    """What `Workspace.search(embedder=...)` and `embed_records` accept:
    any object with these two (no need to subclass).

    `name` identifies the vector space: vectors of different names are
    never compared, so give a new model (or a new version) a new name.
    `embed` returns one vector per text, all of the same length. It is
    called with a workspace's lock held: it must not use that workspace.
    """

    name: str

    def embed(self, texts: list[str]) -> Sequence[Sequence[float]]: ...


__all__ = [
    "SCHEMA_VERSION",
    "Embedder",
    "AmbiguousTargetError",
    "ArtifactChangedError",
    "ArtifactContextTooLargeError",
    "ArtifactError",
    "ArtifactFinalizedError",
    "ArtifactNotFoundError",
    "BudgetError",
    "ConfigError",
    "ContextTooLargeError",
    "CtxError",
    "CtxIOError",
    "DatabaseError",
    "FrameStateError",
    "InvalidInputError",
    "KnowledgeFileError",
    "ManagedSectionError",
    "NoCurrentFrameError",
    "NotAWorkspaceError",
    "OutsideRootError",
    "TemplateError",
    "UnknownFolderError",
    "UnknownFrameError",
    "UnknownRecordError",
    "EmbedderError",
    "InvalidOperationError",
    "SectionNotFoundError",
    "SnapshotNotFoundError",
    "SuggestionNotFoundError",
    "Workspace",
    "WorkspaceClosedError",
    "__version__",
    "rank",
    "repo_map",
]
