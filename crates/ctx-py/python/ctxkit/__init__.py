"""ctxkit: the ctx context engine from Python.

>>> import ctxkit
>>> ws = ctxkit.Workspace(".")
>>> ws.init()          # creates .ctx/ (idempotent)
>>> ws.scan()["files_added"]
>>> ws.status()["stale_folders"]
>>> ws.build()["files_written"]     # .ctx/context/<folder>.<tier>.md
>>> ws.context("src", tier="minimal")["text"]
>>> ctxkit.map(".", tokens=1024)["text"]          # any folder, no init needed
>>> ctxkit.rank("fix the pool timeout", ".", k=5)  # [{"path": ..., "score": ...}, ...]

Every method returns plain dicts and lists, shaped like the JSON that the
`ctx` command prints with `--json`. Errors are subclasses of `CtxError`.
"""

from ctxkit._ctx import SCHEMA_VERSION, Workspace, __version__, map, rank
from ctxkit.errors import (
    ConfigError,
    CtxError,
    CtxIOError,
    DatabaseError,
    InvalidInputError,
    NotAWorkspaceError,
    OutsideRootError,
    TemplateError,
    UnknownFolderError,
)

__all__ = [
    "SCHEMA_VERSION",
    "ConfigError",
    "CtxError",
    "CtxIOError",
    "DatabaseError",
    "InvalidInputError",
    "NotAWorkspaceError",
    "OutsideRootError",
    "TemplateError",
    "UnknownFolderError",
    "Workspace",
    "__version__",
    "map",
    "rank",
]
