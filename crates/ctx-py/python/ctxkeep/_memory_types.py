"""The shapes of session memory's results: records, ingest, and the
contract's L0 (search, timeline), L1 (pack) and L2 (get) layers
(docs/json.md, docs/schemas/). Import them from `ctxkeep.types`."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union, final

Role = Literal["user", "assistant", "tool", "unknown"]
"""Who wrote a record."""

SearchMode = Literal["lexical", "vector", "hybrid"]
"""The channels a search asks for (`vector` and `hybrid` fall back to `lexical` when they cannot serve)."""

SearchScope = Literal["all", "hot", "archive"]
"""The pools a search looks in."""

Pool = Literal["hot", "archive"]
"""Where a record is: hot, or archived (`Workspace.archive()`)."""

Thread = Literal["anchor", "main", "subagents", "all"]
"""The threads of a timeline: the anchor's, the main one, its subagents', every one."""

OnEmbedderError = Literal["fallback", "raise"]
"""What a search does when its embedder fails."""


class _RecordBase(TypedDict):
    id: str
    ts: str
    role: Role
    type: str
    refs: List[str]
    text: str
    tags: List[str]
    meta: Dict[str, Any]


class Record(_RecordBase, total=False):
    """A record (`Workspace.record()`): types and meta keys in docs/records.md;
    `session_id` only when it belongs to a session."""

    session_id: str


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

Size = Literal["small", "medium", "large"]


class ExpandTimeline(TypedDict):
    """How to expand a row with `Workspace.timeline()`, and what it costs."""

    before: int
    after: int
    window: int
    tokens_est: int
    size: Size


class ExpandGet(TypedDict):
    """How to expand a row with `Workspace.get()`, and what it costs."""

    head: int
    tokens_est: int
    size: Size
    confidence: Literal["low", "medium", "high"]


class Expand(TypedDict):
    timeline: ExpandTimeline
    get: ExpandGet


class _L0RowBase(TypedDict):
    layer: Literal["L0"]
    id: str
    ts: str
    type: str
    summary: str
    source: Pool


class L0Row(_L0RowBase, total=False):
    """A record's L0 row: one line of `summary`. A search's rows also carry
    their scores and `expand` hints; a timeline's do not."""

    score: float
    score_lex: float
    score_vec: float
    score_final: float
    expand: Expand


class Latency(TypedDict):
    """Milliseconds each part of a search took."""

    lexical: float
    vector: float
    fusion: float
    total: float


class _RetrievalBase(TypedDict):
    requested_mode: SearchMode
    mode: SearchMode
    lexical_engine: str
    vector_engine: Optional[str]
    embedder: Optional[str]
    lexical_hits: int
    vector_hits: int
    fused_hits: int
    all_terms: bool
    query_terms: int
    terms_dropped: int
    lexical_ranked: int
    lexical_windowed: bool
    latency_ms: Latency


class Retrieval(_RetrievalBase, total=False):
    """How a search was served: the `mode` that served (it differs from
    `requested_mode` when a channel could not), and why, when one could not."""

    fallback_reason: str
    vector_fallback_reason: str
    lexical_fallback_reason: str


class SearchResponse(TypedDict):
    """`Workspace.search()`: the L0 rows, best first (docs/schemas/search.json)."""

    layer: Literal["L0"]
    query: str
    k: int
    scope: SearchScope
    session: str
    hits: int
    results: List[L0Row]
    retrieval: Retrieval


class Timeline(TypedDict):
    """`Workspace.timeline()`: the rows around `anchor` in time order
    (`session` "all" or an id; `thread` as asked, or `agent:<id>`)."""

    layer: Literal["L0"]
    anchor: str
    before: int
    after: int
    source: Pool
    session: str
    thread: str
    results: List[L0Row]


class OriginalSizes(TypedDict):
    text: int
    refs: int
    tags: int


class _GetRecordBase(TypedDict):
    layer: Literal["L2"]
    record: Record
    source: Pool
    head: int
    original_text_len: int
    truncated: bool


@final
class GetRecord(_GetRecordBase, total=False):
    """`Workspace.get()`: the L2 envelope; when `truncated`, which fields
    were cut and their sizes before."""

    truncated_fields: List[str]
    original_sizes: OriginalSizes


@final
class GetTooSmall(TypedDict):
    """`Workspace.get()` when `head` cannot hold even the envelope."""

    id: str
    truncated: Literal[True]
    effective_head: int
    note: Literal["budget_too_small"]


Get = Union[GetRecord, GetTooSmall]
"""`Workspace.get()`: told apart by `"layer" in result` (both are `@final`,
so a type checker narrows the union by it)."""

PackSectionName = Literal["PINS", "SUMMARY", "MANIFEST", "RETRIEVAL_INDEX", "WORKSET_RECENT_TURNS"]


class PackSection(TypedDict):
    name: PackSectionName
    items: int
    trimmed: int


class Pack(TypedDict):
    """`Workspace.pack()`: the L1 block within `threshold` tokens (docs/schemas/pack.json)."""

    layer: Literal["L1"]
    text: str
    tokens: int
    threshold: int
    mode: Literal["full", "trimmed", "minimal", "emergency"]
    sections: List[PackSection]
    stored: Optional[str]
