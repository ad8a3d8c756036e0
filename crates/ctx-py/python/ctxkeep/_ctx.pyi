"""Type stubs of the native module `ctxkeep._ctx`."""

from datetime import datetime, timedelta
from os import PathLike
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Mapping, Optional, Union, final, overload

from typing_extensions import Self

from ctxkeep import Embedder
from ctxkeep.types import (
    AgentContext,
    ArtifactHistory,
    ArtifactPrompt,
    ArtifactSummary,
    ArtifactView,
    AssembledContext,
    BuildReport,
    ContextLevel,
    Decision,
    EndStatus,
    Folder,
    Frame,
    FrameDetail,
    FrameStatus,
    FrameTree,
    Get,
    IngestReport,
    InitReport,
    OnEmbedderError,
    Operation,
    OperationResult,
    Pack,
    ProjectView,
    RankedFile,
    Record,
    Rendering,
    RenderedContext,
    RepoMap,
    Resolution,
    Role,
    ScanReport,
    SearchMode,
    SearchResponse,
    SearchScope,
    SecretsReport,
    StalenessReport,
    Status,
    Suggestion,
    Thread,
    Tier,
    Timeline,
    TodoFolder,
    TranscriptIngestReport,
    UpdateReport,
    ValidateReport,
)

__all__ = ["SCHEMA_VERSION", "Workspace", "__version__", "rank", "repo_map"]

__version__: str
SCHEMA_VERSION: int

_StrPath = Union[str, PathLike[str]]

@final
class Workspace:
    """A ctx workspace: a repository root with a `.ctx/` folder."""

    def __new__(cls, path: _StrPath) -> Self: ...
    @classmethod
    def open(cls, path: _StrPath = ".") -> Workspace: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
    def __enter__(self) -> Self: ...
    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc_value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None: ...
    @property
    def path(self) -> Path: ...
    @property
    def root(self) -> Path: ...
    def init(self) -> InitReport: ...
    def update(self, *, check: bool = False, repair: bool = False) -> UpdateReport: ...
    def scan(self) -> ScanReport: ...
    def status(self) -> Status: ...
    def folder(self, path: str) -> Folder: ...
    def describe(
        self, path: str, *, description: Optional[str] = None, content: Optional[str] = None
    ) -> Folder: ...
    def set_scope(self, path: str, is_scope: bool) -> Folder: ...
    def relate(self, path: str, other: str, *, note: Optional[str] = None) -> Folder: ...
    def unrelate(self, path: str, other: str) -> Folder: ...
    def log_decision(
        self, path: str, title: str, *, rationale: str = "", tags: Optional[list[str]] = None
    ) -> Decision: ...
    def decisions(self, path: Optional[str] = None) -> list[Decision]: ...
    def build(
        self,
        paths: Optional[list[str]] = None,
        *,
        mode: Literal["stale", "force"] = "stale",
        tiers: Optional[list[Tier]] = None,
    ) -> BuildReport: ...
    def context(self, path: str = ".", tier: Tier = "standard") -> RenderedContext: ...
    def validate(self) -> ValidateReport: ...
    def secrets_scan(self, path: Optional[str] = None) -> SecretsReport: ...
    def redact(self, text: str) -> str: ...
    def todo(self) -> list[TodoFolder]: ...
    def push_frame(
        self,
        goal: str,
        *,
        title: Optional[str] = None,
        parent: Optional[str] = None,
        type: Optional[str] = None,
    ) -> Frame: ...
    def pop_frame(
        self, id: Optional[str] = None, *, status: EndStatus = "completed", summary: Optional[str] = None
    ) -> Frame: ...
    def set_frame_goal(self, goal: str, *, frame: Optional[str] = None) -> Frame: ...
    def add_artifacts(self, paths: list[str], *, frame: Optional[str] = None) -> Frame: ...
    def add_frame_decision(
        self, title: str, *, frame: Optional[str] = None, rationale: str = "", tags: Optional[list[str]] = None
    ) -> Decision: ...
    def frame(self, id: Optional[str] = None) -> FrameDetail: ...
    def current_frame(self) -> Optional[Frame]: ...
    def frame_tree(self, root: Optional[str] = None, *, depth: Optional[int] = None) -> list[FrameTree]: ...
    def add_task(
        self,
        title: str,
        *,
        epic: Optional[str] = None,
        description: Optional[str] = None,
        criteria: Optional[list[str]] = None,
        type: Optional[str] = None,
    ) -> Frame: ...
    def start_task(self, id: str) -> Frame: ...
    def finish_task(self, id: str, *, summary: Optional[str] = None) -> Frame: ...
    def fail_task(
        self,
        id: str,
        *,
        reason: str,
        observations: Optional[list[str]] = None,
        avoid: Optional[list[str]] = None,
    ) -> Frame: ...
    def tasks(self, *, epic: Optional[str] = None, status: Optional[FrameStatus] = None) -> list[Frame]: ...
    def frame_context(self, id: Optional[str] = None, *, format: Rendering = "xml") -> AssembledContext: ...
    def task_prompt(self, id: str) -> AssembledContext: ...
    def clear_cache(self, id: Optional[str] = None) -> int: ...
    def add_record(
        self,
        type: str,
        text: str,
        *,
        role: Optional[Role] = None,
        refs: Optional[list[str]] = None,
        tags: Optional[list[str]] = None,
        session: Optional[str] = None,
    ) -> Record: ...
    def ingest(self, path: _StrPath) -> IngestReport: ...
    def ingest_transcript(self, path: _StrPath) -> TranscriptIngestReport: ...
    def record(self, id: str) -> Record: ...
    def timeline(
        self,
        id: str,
        *,
        before: int = 3,
        after: int = 3,
        session: Optional[str] = None,
        thread: Thread = "anchor",
    ) -> Timeline: ...
    def get(self, id: str, *, head: Optional[int] = None) -> Get: ...
    def archive(self, older_than_seconds: float) -> int: ...
    def pack(self, tokens: Optional[int] = None) -> Pack: ...
    def pin(self, text: str) -> Record: ...
    def unpin(self, id: str) -> None: ...
    def pins(self) -> list[Record]: ...
    def search(
        self,
        query: str,
        *,
        k: int = 10,
        scope: SearchScope = "all",
        session: Optional[str] = None,
        mode: SearchMode = "lexical",
        embedder: Optional[Embedder] = None,
        types: Optional[list[str]] = None,
        tags: Optional[list[str]] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        on_embedder_error: OnEmbedderError = "fallback",
    ) -> SearchResponse: ...
    def embed_records(self, embedder: Optional[Embedder] = None) -> int: ...
    def add_artifact(
        self, path: _StrPath, *, stage: Optional[str] = None, slug: Optional[str] = None
    ) -> ArtifactView: ...
    def artifacts(self) -> list[ArtifactSummary]: ...
    def artifact(
        self, slug: str, *, content: bool = False, sections: Optional[list[str]] = None
    ) -> ArtifactView: ...
    def artifact_project(self) -> ProjectView: ...
    def finalize_artifact(self, slug: str) -> ArtifactView: ...
    def unfinalize_artifact(self, slug: str) -> ArtifactView: ...
    def set_artifact_stage(self, slug: str, stage: str) -> ArtifactView: ...
    def collapse_section(self, slug: str, section: str, *, collapsed: bool = True) -> ArtifactView: ...
    def remove_artifact(self, slug: str) -> None: ...
    def apply_artifact_operation(
        self, op: Union[Operation, Mapping[str, Any], str], *, override_finalized: bool = False
    ) -> OperationResult: ...
    def artifact_suggestions(self, slug: str) -> list[Suggestion]: ...
    def accept_suggestion(self, id: str, *, override_finalized: bool = False) -> Suggestion: ...
    def reject_suggestion(self, id: str, reason: Optional[str] = None) -> Suggestion: ...
    def artifact_history(self, slug: str) -> ArtifactHistory: ...
    def restore_artifact(
        self, slug: str, snapshot: str, *, override_finalized: bool = False
    ) -> OperationResult: ...
    def check_artifact(
        self,
        slug: str,
        state_hash: str,
        *,
        at: Union[datetime, str, float, None] = None,
        max_age: Union[timedelta, float, None] = None,
    ) -> StalenessReport: ...
    def resolve_artifact_target(
        self, text: str, *, current: Optional[str] = None, strict: bool = False
    ) -> Resolution: ...
    def use_artifact(self, slug: Optional[str]) -> Optional[str]: ...
    def current_artifact(self) -> Optional[str]: ...
    @overload
    def artifact_context(
        self,
        slug: Optional[str] = None,
        *,
        level: ContextLevel = "standard",
        sections: Optional[list[str]] = None,
        message: Optional[str] = None,
        tokens: Optional[int] = None,
        session: Optional[str] = None,
        format: Literal["json"] = "json",
    ) -> AgentContext: ...
    @overload
    def artifact_context(
        self,
        slug: Optional[str] = None,
        *,
        level: ContextLevel = "standard",
        sections: Optional[list[str]] = None,
        message: Optional[str] = None,
        tokens: Optional[int] = None,
        session: Optional[str] = None,
        format: Literal["markdown"],
    ) -> str: ...
    def artifact_prompt(
        self,
        kind: Literal["chat", "research"],
        text: str,
        *,
        slug: Optional[str] = None,
        section: Optional[str] = None,
    ) -> ArtifactPrompt: ...

def repo_map(
    path: _StrPath = ".",
    *,
    tokens: int = 1500,
    focus: Optional[list[str]] = None,
    query: Optional[str] = None,
) -> RepoMap: ...
def rank(query: str, path: _StrPath = ".", *, k: Optional[int] = None, history: bool = True) -> list[RankedFile]: ...
