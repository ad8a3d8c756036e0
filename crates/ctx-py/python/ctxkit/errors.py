"""Exceptions raised by ctxkit.

Each carries `code` (stable, e.g. "UNKNOWN_FOLDER") and `message` (the same
one-line text the `ctx` command prints), and also subclasses the closest
builtin exception, so `except KeyError` or `except ValueError` work too.
"""

from __future__ import annotations


class CtxError(Exception):
    """Base class of every ctxkit error."""

    code: str
    message: str

    def __init__(self, message: str, code: str = "ERROR") -> None:
        super().__init__(message)
        self.message = message
        self.code = code

    def __str__(self) -> str:
        return self.message


class NotAWorkspaceError(CtxError, FileNotFoundError):
    """No `.ctx/` folder in the path or any parent: call `Workspace.init()` first."""


class UnknownFolderError(CtxError, KeyError):
    """The folder is not in the store (not scanned yet, ignored, or gone)."""


class OutsideRootError(CtxError, ValueError):
    """The path points outside the workspace root."""


class InvalidInputError(CtxError, ValueError):
    """An argument is malformed (empty title, multi-line description, bad tag...)."""


class ConfigError(CtxError, ValueError):
    """`.ctx/config.toml` cannot be used (or, code INVALID_HARNESS_CONFIG, an agent harness's config file)."""


class TemplateError(CtxError, ValueError):
    """A template in `.ctx/templates/` cannot be parsed or rendered (the message names file and line)."""


class CtxIOError(CtxError, OSError):
    """A file could not be read or written."""


class DatabaseError(CtxError):
    """The database is not a ctx database, is corrupt, is newer, is read-only (and this writes), or failed."""


class UnknownFrameError(CtxError, KeyError):
    """No frame has this id (see `Workspace.frame_tree()`)."""


class NoCurrentFrameError(CtxError, LookupError):
    """No frame is in progress: push one, start a task, or name a frame."""


class FrameStateError(CtxError, ValueError):
    """The frame's status does not allow this (popping a planned frame, starting a completed task...)."""


class BudgetError(CtxError, ValueError):
    """A token budget (`CTX_TOKEN_BUDGET_*` or `[budget]` in `.ctx/config.toml`) is not usable."""


class ContextTooLargeError(CtxError, ValueError):
    """The token budget cannot hold even the shortest context of the frame."""


class UnknownRecordError(CtxError, KeyError):
    """No record has that id."""


class ManagedSectionError(CtxError, ValueError):
    """ctx's section markers in AGENTS.md/CLAUDE.md are broken (`code` MANAGED_SECTION_BROKEN; the
    message names the lines; `update(repair=True)` fixes them) or from a newer ctx
    (NEWER_MANAGED_SECTION). Nothing was written."""


class KnowledgeFileError(CtxError, ValueError):
    """A file of `.ctx/knowledge/` cannot be read: merge conflict markers,
    front matter that is not TOML, an unknown field (`code`
    INVALID_KNOWLEDGE_FILE; the message names the file and line). Nothing
    of it was loaded; fix the file, then scan."""


class EmbedderError(CtxError, RuntimeError):
    """An embedder failed, or returned vectors of the wrong number or size."""
