"""The shapes of the work tree's results: frames, tasks and their assembled
context. Import them from `ctxkeep.types`."""

from __future__ import annotations

from typing import List, Literal, Optional, TypedDict

from ctxkeep._workspace_types import Decision

FrameStatus = Literal["planned", "in_progress", "completed", "failed", "blocked"]
"""Where a frame or task is."""

EndStatus = Literal["completed", "failed", "blocked"]
"""How `Workspace.pop_frame()` ends a frame."""

Rendering = Literal["xml", "md", "markdown", "json", "prompt"]
"""The formats of `Workspace.frame_context()` (`markdown` is `md`)."""


class Frame(TypedDict):
    """A frame (`F...`): a piece of work, a task or an epic (`type`)."""

    id: str
    parent: Optional[str]
    type: str
    title: str
    goal: str
    status: FrameStatus
    summary: str
    criteria: List[str]
    artifacts: List[str]
    children: int
    created_at: str
    updated_at: str
    activated_at: Optional[str]
    ended_at: Optional[str]


class FrameLine(TypedDict):
    """A frame in a list: its id, type, title and status."""

    id: str
    type: str
    title: str
    status: FrameStatus


class Attempt(TypedDict):
    """A failed try of a task (`A-...`): why, what was seen, what to avoid."""

    id: str
    number: int
    reason: str
    observations: List[str]
    avoid: List[str]
    ts: str


class FrameDetail(Frame):
    """`Workspace.frame()`: a frame with its ancestors (root first), subframes,
    decisions and attempts."""

    is_current: bool
    ancestors: List[FrameLine]
    subframes: List[FrameLine]
    decisions: List[Decision]
    attempts: List[Attempt]


class FrameTree(FrameLine):
    """A node of `Workspace.frame_tree()`; `children_not_shown` below the depth asked."""

    is_current: bool
    children: List[FrameTree]
    children_not_shown: int


class Budget(TypedDict):
    """Token budget of assembled context, by part."""

    total: int
    ancestors: int
    siblings: int
    current: int
    overhead: int


class BudgetSources(TypedDict):
    """Where each number of the budget came from (default, config, environment)."""

    total: str
    ancestors: str
    siblings: str
    current: str
    overhead: str


class SectionTokens(TypedDict):
    total: int
    ancestors: int
    siblings: int
    current: int
    structure: int


class AncestorCounts(TypedDict):
    total: int
    included: int
    omitted: int


class SiblingCounts(TypedDict):
    candidates: int
    included: int
    filtered: int
    omitted: int
    remaining_included: int
    remaining_omitted: int


class SubframeCounts(TypedDict):
    total: int
    included: int
    omitted: int


class AssemblyReport(TypedDict):
    """What went into assembled context and what was left out."""

    budget: Budget
    budget_sources: BudgetSources
    tokenizer: str
    tokens: SectionTokens
    ancestors: AncestorCounts
    siblings: SiblingCounts
    subframes: SubframeCounts
    fields_truncated: int


class CacheReport(TypedDict):
    """Whether assembled context came from the cache."""

    hit: bool
    age_ms: Optional[int]
    stored: bool
    entries: int
    ttl_seconds: int
    max_entries: int


class AssembledContext(TypedDict):
    """`Workspace.frame_context()` and `task_prompt()`."""

    frame: str
    rendering: Literal["xml", "md", "json", "prompt"]
    text: str
    report: AssemblyReport
    cache: CacheReport
