"""Typed shapes of the dicts ctxkeep returns (the JSON of docs/json.md)."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union


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


class _RecordFields(TypedDict):
    id: str
    ts: str
    role: Literal["user", "assistant", "tool", "unknown"]
    type: str
    refs: List[str]
    text: str
    tags: List[str]
    meta: Dict[str, Any]


class Record(_RecordFields, total=False):
    """A record (`Workspace.record()`): types and meta keys in docs/records.md."""

    session_id: str
    """The session it belongs to; absent when none."""


# --- Artifacts (docs/artifacts.md; the JSON of `ctx --json artifact ...`) ---

ArtifactStatus = Literal["draft", "finalized"]
"""An artifact is a draft or finalized (operations refused without `override_finalized`)."""

DefaultStage = Literal["discovery", "design", "build", "launch"]
"""The stages of a fresh config, in order. `[artifacts] stages` may name
others, and an artifact may have any stage, so stage fields are `str`."""

OperationKind = Literal["update_section", "mark_section_done", "create_section", "suggest_edit"]
"""The operations `Workspace.apply_artifact_operation()` takes."""

OperationName = Literal["update_section", "mark_section_done", "create_section", "suggest_edit", "restore"]
"""The operations logged in an artifact's history (a restore is one too)."""

ArtifactErrorCode = Literal[
    "ARTIFACT_NOT_FOUND",
    "SECTION_NOT_FOUND",
    "ARTIFACT_FINALIZED",
    "CONTEXT_TOO_LARGE",
    "AMBIGUOUS_TARGET",
    "INVALID_OPERATION",
    "ARTIFACT_CHANGED",
    "SNAPSHOT_NOT_FOUND",
    "SUGGESTION_NOT_FOUND",
]
"""The `code` of an `ArtifactError` (the seed's `error`)."""

MatchKind = Literal[
    "explicit", "prefix", "slug", "path", "title", "partial_title", "fuzzy", "current", "inferred"
]
"""How targeting found an artifact or section, strongest first."""


class _SectionViewBase(TypedDict):
    slug: str
    title: str
    level: int
    order: int
    line: int
    is_done: bool
    is_collapsed: bool
    preview: Optional[str]


class SectionView(_SectionViewBase, total=False):
    """A section of an artifact: `order` 0-based, `line` 1-based, `level` 1-6;
    `content` (after the heading line) only for the sections asked for."""

    content: str


class _ArtifactViewBase(TypedDict):
    id: str
    name: str
    slug: str
    path: str
    stage: str
    status: ArtifactStatus
    sections: List[SectionView]
    sections_complete: int
    sections_total: int
    pending_suggestions: int
    file_hash: str
    updated_at: str
    generated_at: str
    state_hash: str


class ArtifactView(_ArtifactViewBase, total=False):
    """An artifact as an agent sees it (`Workspace.artifact()`; the seed's
    ArtifactContext); `content`, the whole file, with `content=True`."""

    content: str


class ArtifactSummary(TypedDict):
    """An artifact in `Workspace.artifacts()`."""

    slug: str
    name: str
    path: str
    stage: str
    status: ArtifactStatus
    sections_complete: int
    sections_total: int
    pending_suggestions: int
    updated_at: str
    state_hash: str


class StageProgress(TypedDict):
    """One stage of `ProjectView.stages`; `progress_pct` has one decimal."""

    artifacts_total: int
    artifacts_finalized: int
    sections_complete: int
    sections_total: int
    progress_pct: float


class ProjectView(TypedDict):
    """`Workspace.artifact_project()` (the seed's ProjectContext)."""

    id: str
    name: str
    description: str
    current_stage: Optional[str]
    stages: Dict[str, StageProgress]
    stage_order: List[str]
    artifacts: List[ArtifactSummary]
    updated_at: Optional[str]
    generated_at: str
    state_hash: str


class _UpdateSectionBase(TypedDict):
    operation: Literal["update_section"]
    artifact_slug: str
    section_slug: str
    content: str


class UpdateSection(_UpdateSectionBase, total=False):
    """Replace a section's content (everything after its heading line)."""

    reason: Optional[str]
    override_finalized: bool


class _MarkSectionDoneBase(TypedDict):
    operation: Literal["mark_section_done"]
    artifact_slug: str
    section_slug: str


class MarkSectionDone(_MarkSectionDoneBase, total=False):
    """Mark a section done (`is_done` defaults to True)."""

    is_done: bool
    reason: Optional[str]
    override_finalized: bool


class _CreateSectionBase(TypedDict):
    operation: Literal["create_section"]
    artifact_slug: str
    title: str


class CreateSection(_CreateSectionBase, total=False):
    """Add a section after `after_section`, or before the one at `order` (0-based)."""

    after_section: Optional[str]
    order: Optional[int]
    content: str
    level: Optional[int]
    reason: Optional[str]
    override_finalized: bool


class _SuggestEditBase(TypedDict):
    operation: Literal["suggest_edit"]
    artifact_slug: str
    section_slug: str
    suggestion: str


class SuggestEdit(_SuggestEditBase, total=False):
    """Store a suggestion on a section, applied only when accepted."""

    rationale: Optional[str]
    content: Optional[str]


Operation = Union[UpdateSection, MarkSectionDone, CreateSection, SuggestEdit]
"""An operation as a dict (docs/schemas/artifact-operation.json); unknown keys are refused."""


class OperationResult(TypedDict):
    """What `apply_artifact_operation()` and `restore_artifact()` did;
    `replaced` is the old byte range `[start, end)`, None when nothing was written."""

    operation: OperationName
    artifact_slug: str
    section_slug: Optional[str]
    operation_id: Optional[str]
    snapshot_id: Optional[str]
    suggestion_id: Optional[str]
    replaced: Optional[List[int]]
    inserted: Optional[int]
    artifact: ArtifactView


class Suggestion(TypedDict):
    """A suggested edit (`E-...`): pending until accepted or rejected."""

    id: str
    artifact_slug: str
    section_slug: str
    suggestion: str
    rationale: Optional[str]
    content: Optional[str]
    status: Literal["pending", "accepted", "rejected"]
    ts: str
    decided_at: Optional[str]
    decision_reason: Optional[str]
    operation_id: Optional[str]


class SnapshotInfo(TypedDict):
    """A snapshot (`S-...`) in `ArtifactHistory`."""

    id: str
    ts: str
    file_hash: str
    bytes: int
    reason: str


class OperationEntry(TypedDict):
    """An operation (`O-...`) in `ArtifactHistory`."""

    id: str
    ts: str
    operation: OperationName
    section_slug: Optional[str]
    reason: str
    snapshot_id: Optional[str]


class ArtifactHistory(TypedDict):
    """`Workspace.artifact_history()`: snapshots and operations, newest first."""

    slug: str
    snapshots: List[SnapshotInfo]
    operations: List[OperationEntry]


class StalenessReport(TypedDict):
    """`Workspace.check_artifact()`: `fresh` when the view still `matches` and is not `too_old`."""

    slug: str
    fresh: bool
    matches: bool
    too_old: bool
    given_hash: str
    state_hash: str
    generated_at: Optional[str]
    age_seconds: Optional[int]
    max_age_seconds: int
    changes: List[str]
    checked_at: str


class _ErrorCandidateBase(TypedDict):
    artifact: str
    title: str


class ErrorCandidate(_ErrorCandidateBase, total=False):
    """One reading of an ambiguous target, in `AmbiguousTargetError.candidates`."""

    section: str


class TargetCandidate(TypedDict):
    """A place a message may mean (`section` None: the artifact as a whole); `score` in 0..1."""

    artifact: str
    section: Optional[str]
    title: str
    score: float


class ResolvedTarget(TypedDict):
    """One target: below a `confidence` of 0.6, confirm before acting."""

    outcome: Literal["resolved"]
    artifact: str
    section: Optional[str]
    rest: str
    confidence: float
    artifact_match: MatchKind
    section_match: Optional[MatchKind]


class AmbiguousTarget(TypedDict):
    """Several comparable targets, best first: ask which."""

    outcome: Literal["ambiguous"]
    candidates: List[TargetCandidate]
    rest: str


class TargetNotFound(TypedDict):
    """Nothing matched `query`; `suggestions` closest first."""

    outcome: Literal["not_found"]
    missing: Literal["artifact", "section"]
    query: str
    artifact: Optional[str]
    suggestions: List[TargetCandidate]
    rest: str


Resolution = Union[ResolvedTarget, AmbiguousTarget, TargetNotFound]
"""`Workspace.resolve_artifact_target()`, told apart by `outcome`."""


ContextLevel = Literal["minimal", "standard", "full"]
"""How much an artifact context holds (docs/artifacts.md, "Agent contexts")."""

AgentContext = TypedDict(
    "AgentContext",
    {
        "project": Dict[str, Any],
        "currentArtifact": Optional[Dict[str, Any]],
        "relatedArtifacts": List[Dict[str, Any]],
        "chatHistory": List[Dict[str, Any]],
        "systemState": Dict[str, Any],
    },
)
"""`Workspace.artifact_context()`: the seed's AgentContext (docs/schemas/artifact-context.json)."""


class ArtifactPrompt(TypedDict):
    """`Workspace.artifact_prompt()`: a rendered prompt and what it was made from."""

    kind: Literal["chat", "research"]
    text: str
    tokens: int
    artifact: Optional[str]
    section: Optional[str]
    state_hash: Optional[str]
    generated_at: str
    target: Optional[Resolution]
