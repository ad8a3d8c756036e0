"""The shapes of the workspace's results: init, update, scan, status,
folders and decisions, context files, secrets, the map and the ranking.
Import them from `ctxkeep.types`."""

from __future__ import annotations

from typing import List, Literal, Optional, TypedDict

Tier = Literal["minimal", "standard", "full", "deep"]
"""The tiers of a context file (`Workspace.context(tier=...)`, `build(tiers=[...])`)."""

FileKind = Literal["text", "binary", "oversized"]
"""What a scan made of a file: its text is read, or it is binary or too large."""

PathRole = Literal["source", "test", "fixture", "example", "bench", "docs", "vendored"]
"""What a folder is for, judged by its path."""

DefinitionKind = Literal[
    "function",
    "method",
    "class",
    "struct",
    "enum",
    "trait",
    "interface",
    "type",
    "constant",
    "module",
    "macro",
    "impl",
]
"""The kinds of definitions the map lists (`impl`: a Rust impl block)."""


class InitReport(TypedDict):
    """`Workspace.init()`: the files created (none when `.ctx/` was there)."""

    root: str
    created: List[str]
    already_initialized: bool


class KnowledgeReport(TypedDict):
    """What a sync of `.ctx/knowledge/` did (docs/knowledge.md); paths from the root."""

    loaded: List[str]
    removed: List[str]
    written: List[str]
    deleted: List[str]
    waiting: List[str]
    redacted: List[str]
    warnings: List[str]


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


class UpdateReport(TypedDict):
    """What `Workspace.update()` did (or, with `check=True`, would do)."""

    check: bool
    files: List[FileUpdate]
    up_to_date: bool
    knowledge: Optional[KnowledgeReport]


class ScanIssue(TypedDict):
    """A file or folder a scan could not read (the scan went on)."""

    path: str
    message: str


class ScanPhases(TypedDict):
    load_ms: int
    walk_ms: int
    apply_ms: int


class EarlierScans(TypedDict):
    """The changes scans nobody saw a report of (run by a map, a rank, a
    tool) made since the last reported scan, summed."""

    scans: int
    first_at: str
    last_at: str
    files_added: int
    files_changed: int
    files_removed: int
    folders_added: int
    folders_removed: int
    added: List[str]
    changed: List[str]
    removed: List[str]


class _ScanReportBase(TypedDict):
    files_added: int
    files_changed: int
    files_removed: int
    files_unchanged: int
    folders_added: int
    folders_removed: int
    stale_folders: List[str]
    secret_files: List[str]
    issues: List[ScanIssue]
    elapsed_ms: int
    phases: ScanPhases
    knowledge: KnowledgeReport
    added: List[str]
    changed: List[str]
    removed: List[str]


class ScanReport(_ScanReportBase, total=False):
    """`Workspace.scan()`: what changed since the last scan (which files:
    up to 50 paths of each kind); `earlier` when silent scans changed
    something since the last reported one."""

    earlier: EarlierScans


class Status(TypedDict):
    """`Workspace.status()`: counts, stale folders and the last scan."""

    root: str
    schema_version: int
    folders: int
    files: int
    text_files: int
    binary_files: int
    oversized_files: int
    secret_files: int
    decisions: int
    records: int
    stale_folders: List[str]
    last_scan_at: Optional[str]
    last_scan_ms: Optional[int]
    db_bytes: int


class FileEntry(TypedDict):
    """A file of a folder; `secret` whether it is hidden whole, `secret_reason` why (or None)."""

    name: str
    size: int
    kind: FileKind
    lang: Optional[str]
    secret: bool
    secret_reason: Optional[str]


class Relation(TypedDict):
    """A folder related to another, with a note."""

    path: str
    note: str


class Decision(TypedDict):
    """A decision (`D-...`) on a folder or a frame."""

    id: str
    folder: Optional[str]
    frame: Optional[str]
    title: str
    rationale: str
    tags: List[str]
    ts: str


class Folder(TypedDict):
    """`Workspace.folder()` (and what `describe`, `set_scope`, `relate`, `unrelate` return)."""

    path: str
    description: str
    content_md: str
    is_scope: bool
    stale: bool
    described_at: Optional[str]
    updated_at: str
    parent: Optional[str]
    children: List[str]
    files: List[FileEntry]
    related: List[Relation]
    decisions: List[Decision]


class BuiltFolder(TypedDict):
    """A folder whose context files a build wrote, and why."""

    path: str
    tiers: List[Tier]
    reason: str


class BuildReport(TypedDict):
    """`Workspace.build()`."""

    built: List[BuiltFolder]
    files_written: int
    files_unchanged: int
    files_removed: List[str]
    boot_written: bool
    tokenizer: str
    elapsed_ms: int


class Boot(TypedDict):
    content: str


class ScopeEntry(TypedDict):
    """A folder of the scope chain, from the root down."""

    path: str
    title: str
    description: str
    is_scope: bool
    content: str


class Current(TypedDict):
    """The folder a context file is about."""

    description: str
    description_source: str
    content: str
    is_scope: bool
    files_below: int


class Command(TypedDict):
    """A build, test or lint command, and the file it was read from."""

    purpose: str
    command: str
    source: str


class Project(TypedDict):
    stack: List[str]
    commands: List[Command]


class _OutlineDefBase(TypedDict):
    kind: str
    name: str
    signature: str
    line: int
    users: int


class OutlineDef(_OutlineDefBase, total=False):
    """A definition in a file's outline; `parent` its enclosing type, when it has one."""

    parent: str


class FileLine(TypedDict):
    """A file in a context file."""

    name: str
    summary: str
    lang: Optional[str]
    kind: str
    size: int
    detailed: bool
    secret: bool
    definitions: List[OutlineDef]
    referenced_by: int


class CodeBelow(TypedDict):
    """A definition below a subfolder that other files use; `path` is relative to the subfolder."""

    name: str
    kind: str
    path: str


class SubfolderLine(TypedDict):
    name: str
    path: str
    description: str
    is_summary: bool
    files_below: int
    code: List[CodeBelow]


class DecisionLine(TypedDict):
    id: str
    date: str
    folder: str
    title: str
    rationale: str
    tags: List[str]


class DecisionGroup(TypedDict):
    label: str
    is_current: bool
    is_pinned: bool
    entries: List[DecisionLine]


class NavLink(TypedDict):
    path: str
    title: str
    description: str
    note: str


class Navigation(TypedDict):
    parent: Optional[NavLink]
    siblings: List[str]
    siblings_unlisted: int
    children: List[str]
    related: List[NavLink]


class ContextDoc(TypedDict):
    """What a context file is rendered from (docs/templates.md)."""

    path: str
    title: str
    tier: Tier
    generated_at: str
    source_hash: str
    tree_digest: str
    cap: Optional[int]
    tokenizer: str
    boot: Optional[Boot]
    scope_chain: List[ScopeEntry]
    current: Current
    project: Optional[Project]
    files: List[FileLine]
    subfolders: List[SubfolderLine]
    decisions: List[DecisionGroup]
    navigation: Navigation
    omitted: List[str]


class _RenderedContextBase(TypedDict):
    path: str
    tier: Tier
    file: str
    tokens: int
    text: str
    doc: ContextDoc


class RenderedContext(_RenderedContextBase, total=False):
    """`Workspace.context()`: a context file as the build would write it;
    `from_file` when the path given named a file (the folder is its)."""

    from_file: str


class FileProblem(TypedDict):
    path: str
    tier: Tier
    file: str


class ValidateReport(TypedDict):
    """`Workspace.validate()`: `.ctx/context/` compared with the database."""

    ok: bool
    expected: int
    current: int
    missing: List[FileProblem]
    stale: List[FileProblem]
    edited: List[FileProblem]
    orphaned: List[str]
    unscanned_files: List[str]
    vanished_files: List[str]
    temp_files: List[str]


class TodoFolder(TypedDict):
    """A folder nobody has described yet (`Workspace.todo()`)."""

    path: str
    derived_description: str
    derived_from: str
    files: int
    subfolders: List[str]
    importance: float
    role: PathRole


class SecretFinding(TypedDict):
    """A secret in a file: where, which rule, its fingerprint (never the value)."""

    path: str
    line: int
    column: int
    rule: str
    fingerprint: str


class HiddenFile(TypedDict):
    """A file hidden whole (a secret by its name or content)."""

    path: str
    reason: str


class SecretsReport(TypedDict):
    """`Workspace.secrets_scan()`."""

    files_scanned: int
    files_allowed: int
    findings: List[SecretFinding]
    hidden: List[HiddenFile]


class TreeEntry(TypedDict):
    path: str
    depth: int
    files: int


class Structure(TypedDict):
    """The project's stack, commands, key files and folder tree (a map for a
    task, by ``query`` or ``focus``, leaves the key files and tree empty and
    keeps one command of each purpose)."""

    stack: List[str]
    commands: List[Command]
    key_files: List[str]
    tree: List[TreeEntry]


class _MapDefinitionBase(TypedDict):
    name: str
    kind: DefinitionKind
    line: int
    signature: str
    score: float


class MapDefinition(_MapDefinitionBase, total=False):
    """A definition the map shows; `deprecated` (only ever true) when its language marks it so."""

    deprecated: bool


class _MapFileBase(TypedDict):
    path: str
    rank: float
    definitions: List[MapDefinition]


class MapFile(_MapFileBase, total=False):
    """A file the map shows; `generated` (only ever true) when its top says a tool wrote it."""

    generated: bool


class IndexStats(TypedDict):
    """What indexing the source files for the map or the ranking did."""

    files: int
    parsed: int
    cached: int
    line_scanned: int
    syntax_errors: int
    unreadable: int
    scan_ms: int
    parse_ms: int


class RepoMap(TypedDict):
    """`ctxkeep.repo_map()`: the map's `text` within `budget` tokens, and what it shows."""

    text: str
    tokens: int
    budget: int
    tokenizer: str
    structure: Structure
    files: List[MapFile]
    left_out: int
    index: IndexStats


class RankedFile(TypedDict):
    """A file of `ctxkeep.rank()`: its `score` and the signals that made it."""

    path: str
    score: float
    lexical: float
    graph: float
    recency: float
    similar: float
    authored: float
    latest: float
    named: float
    area: float
    mentioned: float
    defines: float
