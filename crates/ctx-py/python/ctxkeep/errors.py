"""Exceptions raised by ctxkeep.

Each carries `code` (stable, e.g. "UNKNOWN_FOLDER") and `message` (the same
one-line text the `ctx` command prints), and also subclasses the closest
builtin exception, so `except KeyError` or `except ValueError` work too.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence


class CtxError(Exception):
    """Base class of every ctxkeep error."""

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
    """An embedder failed, or returned vectors of the wrong number or size.
    When the embedder raised, that exception is the `__cause__`."""


class WorkspaceClosedError(CtxError, ValueError):
    """A method of a `Workspace` after `close()` (or the end of its `with` block);
    `code` WORKSPACE_CLOSED. Open it again with `Workspace.open(path)`."""


class ArtifactError(CtxError):
    """An artifact call refused, in the ACK seed's shape (docs/artifacts.md, Errors).

    `code` is the seed's `error` (SECTION_NOT_FOUND, ...), `message` its
    message; `suggestions` the closest slugs (best first, maybe empty),
    `action` what to do (or None), `candidates` an ambiguous target's
    readings (`{"artifact", "section"?, "title"}` dicts). `str(err)` says
    all of it on one line. `as_dict()` is the seed's JSON object.
    """

    suggestions: list[str]
    action: Optional[str]
    candidates: list[dict[str, str]]

    def __init__(
        self,
        message: str,
        code: str = "ERROR",
        *,
        suggestions: Sequence[str] = (),
        action: Optional[str] = None,
        candidates: Sequence[Mapping[str, str]] = (),
        text: Optional[str] = None,
    ) -> None:
        super().__init__(message, code)
        self.suggestions = list(suggestions)
        self.action = action
        self.candidates = [dict(candidate) for candidate in candidates]
        self._text = text

    def __str__(self) -> str:
        if self._text is not None:
            return self._text
        text = self.message
        if self.suggestions:
            text += f" (did you mean: {', '.join(self.suggestions)}?)"
        if self.candidates:
            readings = [
                f"@{c['artifact']}#{c['section']}" if c.get("section") else f"@{c['artifact']}"
                for c in self.candidates
            ]
            text += f" (one of: {', '.join(readings)})"
        if self.action:
            text += f"; {self.action}"
        return text

    def as_dict(self) -> dict[str, Any]:
        """The seed's error object: `error`, `message`, and `suggestions`,
        `action`, `candidates` when they say something."""
        out: dict[str, Any] = {"error": self.code, "message": self.message}
        if self.suggestions:
            out["suggestions"] = list(self.suggestions)
        if self.action is not None:
            out["action"] = self.action
        if self.candidates:
            out["candidates"] = [dict(c) for c in self.candidates]
        return out


class ArtifactNotFoundError(ArtifactError, KeyError):
    """ARTIFACT_NOT_FOUND: no artifact has that slug; `suggestions` holds the closest ones."""


class SectionNotFoundError(ArtifactError, KeyError):
    """SECTION_NOT_FOUND: the artifact has no section with that slug; `suggestions` holds the closest ones."""


class ArtifactFinalizedError(ArtifactError):
    """ARTIFACT_FINALIZED: a change to a finalized artifact. `action` says what
    to do: un-finalize it (`Workspace.unfinalize_artifact`), or repeat with
    `override_finalized=True` when the user said so."""


class ArtifactContextTooLargeError(ArtifactError, ContextTooLargeError):
    """CONTEXT_TOO_LARGE: the artifact's content is past `[artifacts] max_content_bytes`;
    ask for some sections instead (`artifact(slug, sections=[...])`)."""


class AmbiguousTargetError(ArtifactError, LookupError):
    """AMBIGUOUS_TARGET: a target reads several ways; `candidates` lists them, best first."""


class InvalidOperationError(ArtifactError, ValueError):
    """INVALID_OPERATION: not an operation (unknown kind or field, wrong type),
    content that does not fit its section, a bad title, level, slug or stage,
    or a suggestion already decided."""


class ArtifactChangedError(ArtifactError):
    """ARTIFACT_CHANGED: the file changed on disk while the operation was applied;
    nothing was written. Read the artifact again and repeat."""


class SnapshotNotFoundError(ArtifactError, KeyError):
    """SNAPSHOT_NOT_FOUND: no snapshot of the artifact has that id; `suggestions` holds recent ones."""


class SuggestionNotFoundError(ArtifactError, KeyError):
    """SUGGESTION_NOT_FOUND: no suggested edit has that id."""
