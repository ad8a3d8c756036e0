"""The shapes of the artifact results (docs/artifacts.md; the JSON of
`ctx --json artifact ...`). Import them from `ctxkeep.types`."""

from __future__ import annotations

from typing import Dict, List, Literal, Optional, TypedDict, Union

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


class _ArtifactHead(TypedDict):
    """What every full shape of an artifact opens with."""

    id: str
    name: str
    slug: str
    path: str
    stage: str
    status: ArtifactStatus


class _ArtifactViewBase(_ArtifactHead):
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

class _ProjectContextBase(TypedDict):
    id: str
    name: str
    current_stage: Optional[str]
    updated_at: Optional[str]


class ProjectContext(_ProjectContextBase, total=False):
    """The project in an `AgentContext` (the seed's ProjectContext);
    `description`, `stages` and `stage_order` from the standard level on."""

    description: str
    stages: Dict[str, StageProgress]
    stage_order: List[str]


class _SectionContextBase(TypedDict):
    slug: str
    title: str
    level: int
    order: int
    is_done: bool
    is_collapsed: bool
    preview: Optional[str]


class SectionContext(_SectionContextBase, total=False):
    """A section in an `AgentContext`: `preview` (its first 200 characters)
    from the standard level on, `content` when referenced; `private` (marked
    `<!-- private -->`: no preview, no content) only when true."""

    content: str
    private: bool


class _ArtifactContextBase(_ArtifactHead):
    sections: List[SectionContext]
    sections_complete: int
    sections_total: int
    updated_at: str
    state_hash: str


class ArtifactContext(_ArtifactContextBase, total=False):
    """An artifact in an `AgentContext` (the seed's ArtifactContext): `content`
    the whole Markdown (the current artifact, full level), `relation` why a
    related artifact is there."""

    content: str
    relation: Literal["referenced", "linked", "same_stage"]


class _MessageContextBase(TypedDict):
    id: str
    type: str
    role: Optional[str]
    content: str
    ts: str
    session_id: Optional[str]


class MessageContext(_MessageContextBase, total=False):
    """A chat turn from the session records (`type` query or response);
    `truncated` only when it was cut to fit."""

    truncated: bool


class ContextAllocation(TypedDict):
    """Tokens allotted to each part of an `AgentContext`."""

    project: int
    current_artifact: int
    related_artifacts: int
    chat_history: int


class TokenUse(TypedDict):
    """Tokens each part of an `AgentContext` used."""

    project: int
    current_artifact: int
    related_artifacts: int
    chat_history: int
    total: int


class TokenReport(TypedDict):
    allocation: ContextAllocation
    used: TokenUse


class Truncation(TypedDict):
    """A piece that was `cut` (kept in part) or `dropped`."""

    part: Literal["project", "current_artifact", "related_artifacts", "chat_history"]
    item: str
    action: Literal["cut", "dropped"]
    tokens: int
    kept: int


class SystemState(TypedDict):
    """How and when an `AgentContext` was made."""

    generated_at: str
    state_hash: str
    level: ContextLevel
    artifact_hashes: Dict[str, str]
    tokenizer: str
    tokens: TokenReport
    truncated: List[Truncation]
    target: Optional[Resolution]
    chat_session: Optional[str]


# `Workspace.artifact_context()`: the seed's AgentContext
# (docs/schemas/artifact-context.json); its keys are camelCase.
AgentContext = TypedDict(
    "AgentContext",
    {
        "project": ProjectContext,
        "currentArtifact": Optional[ArtifactContext],
        "relatedArtifacts": List[ArtifactContext],
        "chatHistory": List[MessageContext],
        "systemState": SystemState,
    },
)


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
