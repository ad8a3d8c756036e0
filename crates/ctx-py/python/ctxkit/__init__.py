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
>>> ws.push_frame("Add token refresh")["id"]       # "F1", now the current frame
>>> ws.frame_context()["text"]                     # <ctx-context> within the token budget
>>> ws.pop_frame(summary="refresh on 401")
>>> task = ws.add_task("Rotate keys", criteria=["old tokens still verify"])
>>> ws.task_prompt(task["id"])["text"]

Every method returns plain dicts and lists, shaped like the JSON that the
`ctx` command prints with `--json`. Errors are subclasses of `CtxError`.
"""

from ctxkit._ctx import SCHEMA_VERSION, Workspace, __version__, map, rank
from ctxkit.errors import (
    BudgetError,
    ConfigError,
    ContextTooLargeError,
    CtxError,
    CtxIOError,
    DatabaseError,
    FrameStateError,
    InvalidInputError,
    NoCurrentFrameError,
    NotAWorkspaceError,
    OutsideRootError,
    TemplateError,
    UnknownFolderError,
    UnknownFrameError,
    UnknownRecordError,
)

__all__ = [
    "SCHEMA_VERSION",
    "BudgetError",
    "ConfigError",
    "ContextTooLargeError",
    "CtxError",
    "CtxIOError",
    "DatabaseError",
    "FrameStateError",
    "InvalidInputError",
    "NoCurrentFrameError",
    "NotAWorkspaceError",
    "OutsideRootError",
    "TemplateError",
    "UnknownFolderError",
    "UnknownFrameError",
    "UnknownRecordError",
    "Workspace",
    "__version__",
    "map",
    "rank",
]
