"""Artifacts from Python: every Workspace method of docs/artifacts.md, and
every artifact error raised as its class with the seed's attributes."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

import ctxkeep

SCHEMAS = Path(__file__).resolve().parent.parent.parent.parent / "docs" / "schemas"

CONCEPT = (
    "---\ntitle: ACK\n---\n"
    "# Project Concept: ACK\n\nIntro.\n\n"
    "## What Is It?\n\nA planning layer.\n\n"
    "```md\n# not a heading\n```\n\n"
    "## Problem Being Solved\n\nContext rot.\n\n"
    "## Overview\n\nConcept overview.\n"
)
RESEARCH = "# Market Research\r\n\r\n## Competitive Analysis\r\n\r\nCursor.\r\n\r\n## Overview\r\n\r\nResearch overview.\r\n"


def validator(name: str) -> Draft202012Validator:
    schemas = [json.loads(p.read_text()) for p in SCHEMAS.glob("artifact-*.json")]
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas)
    return Draft202012Validator(json.loads((SCHEMAS / f"{name}.json").read_text()), registry=registry)


def check(name: str, value: object) -> None:
    errors = list(validator(name).iter_errors(value))
    assert not errors, f"{name}: " + "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "concept.md").write_text(CONCEPT)
    (tmp_path / "docs" / "research.md").write_bytes(RESEARCH.encode())
    return tmp_path


@pytest.fixture
def ws(repo: Path) -> ctxkeep.Workspace:
    ws = ctxkeep.Workspace(repo)
    ws.init()
    ws.add_artifact("concept.md", stage="discovery")
    ws.add_artifact(repo / "docs" / "research.md", slug="research", stage="design")
    return ws


def slugs(view: dict) -> list[str]:
    return [section["slug"] for section in view["sections"]]


def test_add_list_show_and_project(ws: ctxkeep.Workspace, repo: Path) -> None:
    view = ws.artifact("concept")
    assert (view["slug"], view["id"], view["name"], view["path"]) == ("concept", "concept", "concept.md", "concept.md")
    assert (view["stage"], view["status"]) == ("discovery", "draft")
    assert slugs(view) == ["project-concept-ack", "what-is-it", "problem-being-solved", "overview"]
    what = view["sections"][1]
    assert what == {
        "slug": "what-is-it",
        "title": "What Is It?",
        "level": 2,
        "order": 1,
        "line": 8,
        "is_done": False,
        "is_collapsed": False,
        "preview": "A planning layer. ```md # not a heading ```",
    }
    assert "content" not in view and all("content" not in s for s in view["sections"])
    assert (view["sections_complete"], view["sections_total"], view["pending_suggestions"]) == (0, 4, 0)

    full = ws.artifact("concept", content=True, sections=["overview"])
    assert full["content"] == CONCEPT
    assert [s.get("content") for s in full["sections"]][-1] == "\nConcept overview.\n"

    listed = ws.artifacts()
    assert [a["slug"] for a in listed] == ["concept", "research"]
    assert listed[1]["path"] == "docs/research.md" and listed[1]["stage"] == "design"

    project = ws.artifact_project()
    assert project["id"] == repo.name and project["current_stage"] == "discovery"
    assert project["stage_order"][:2] == ["discovery", "design"]
    assert project["stages"]["design"] == {
        "artifacts_total": 1,
        "artifacts_finalized": 0,
        "sections_complete": 0,
        "sections_total": 3,
        "progress_pct": 0.0,
    }
    assert [a["slug"] for a in project["artifacts"]] == ["concept", "research"]


def test_stage_collapse_finalize_and_remove(ws: ctxkeep.Workspace, repo: Path) -> None:
    assert ws.set_artifact_stage("concept", "build")["stage"] == "build"
    collapsed = ws.collapse_section("concept", "overview")
    assert [s["is_collapsed"] for s in collapsed["sections"]] == [False, False, False, True]
    assert not ws.collapse_section("concept", "overview", collapsed=False)["sections"][3]["is_collapsed"]
    assert ws.finalize_artifact("concept")["status"] == "finalized"
    assert ws.unfinalize_artifact("concept")["status"] == "draft"
    assert ws.remove_artifact("research") is None
    assert [a["slug"] for a in ws.artifacts()] == ["concept"]
    assert (repo / "docs" / "research.md").read_bytes() == RESEARCH.encode()
    with pytest.raises(ctxkeep.InvalidOperationError, match="a stage is one short line"):
        ws.set_artifact_stage("concept", "two\nlines")


def test_operations_as_dicts_and_as_json_strings(ws: ctxkeep.Workspace, repo: Path) -> None:
    op = {
        "operation": "update_section",
        "artifact_slug": "research",
        "section_slug": "competitive-analysis",
        "content": "\nCursor, Windsurf.\n\n",
        "reason": "added Windsurf",
    }
    check("artifact-operation", op)
    result = ws.apply_artifact_operation(op)
    check("artifact-operation-result", result)
    assert result["operation"] == "update_section" and result["section_slug"] == "competitive-analysis"
    assert result["operation_id"].startswith("O-") and result["snapshot_id"].startswith("S-")
    assert result["suggestion_id"] is None and result["inserted"] == len("\r\nCursor, Windsurf.\r\n\r\n")
    # Only the section's bytes changed, in the file's CRLF.
    assert (repo / "docs" / "research.md").read_bytes() == RESEARCH.replace("\r\nCursor.\r\n\r\n", "\r\nCursor, Windsurf.\r\n\r\n").encode()

    done = ws.apply_artifact_operation(
        json.dumps({"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "what-is-it"})
    )
    check("artifact-operation-result", done)
    assert done["replaced"] is None and done["artifact"]["sections"][1]["is_done"] is True
    assert done["artifact"]["sections_complete"] == 1

    created = ws.apply_artifact_operation(
        {
            "operation": "create_section",
            "artifact_slug": "concept",
            "after_section": "what-is-it",
            "title": "Core Features",
            "content": "Sections and operations.",
        }
    )
    assert created["section_slug"] == "core-features"
    assert slugs(created["artifact"])[1:4] == ["what-is-it", "core-features", "problem-being-solved"]
    at_order = ws.apply_artifact_operation(
        '{"operation": "create_section", "artifact_slug": "concept", "order": 99, "title": "Risks", "level": 2}'
    )
    assert slugs(at_order["artifact"])[-1] == "risks"
    assert "## Core Features\n\nSections and operations.\n" in (repo / "concept.md").read_text()


def test_suggestions_are_stored_then_accepted_or_rejected(ws: ctxkeep.Workspace, repo: Path) -> None:
    before = (repo / "concept.md").read_text()
    suggested = ws.apply_artifact_operation(
        {
            "operation": "suggest_edit",
            "artifact_slug": "concept",
            "section_slug": "overview",
            "suggestion": "Say who it is for",
            "rationale": "the user asked",
            "content": "\nFor agents and their people.\n",
        }
    )
    assert suggested["suggestion_id"].startswith("E-") and suggested["operation_id"] is None
    assert (repo / "concept.md").read_text() == before
    other = ws.apply_artifact_operation(
        {"operation": "suggest_edit", "artifact_slug": "concept", "section_slug": "overview", "suggestion": "Shorter"}
    )
    pending = ws.artifact_suggestions("concept")
    assert [s["status"] for s in pending] == ["pending", "pending"]
    assert pending[0]["rationale"] == "the user asked" and ws.artifact("concept")["pending_suggestions"] == 2

    accepted = ws.accept_suggestion(suggested["suggestion_id"])
    assert accepted["status"] == "accepted" and accepted["operation_id"].startswith("O-")
    assert (repo / "concept.md").read_text().endswith("## Overview\n\nFor agents and their people.\n")
    rejected = ws.reject_suggestion(other["suggestion_id"], "too terse")
    assert (rejected["status"], rejected["decision_reason"]) == ("rejected", "too terse")
    assert ws.artifact("concept")["pending_suggestions"] == 0

    with pytest.raises(ctxkeep.InvalidOperationError, match="already"):
        ws.accept_suggestion(other["suggestion_id"])
    with pytest.raises(ctxkeep.SuggestionNotFoundError) as missing:
        ws.reject_suggestion("E-000000000000")
    assert missing.value.code == "SUGGESTION_NOT_FOUND"
    assert missing.value.action == "see `Workspace.artifact_suggestions(slug)`"
    assert isinstance(missing.value, KeyError)


def test_a_finalized_artifact_refuses_changes_unless_overridden(ws: ctxkeep.Workspace, repo: Path) -> None:
    ws.finalize_artifact("concept")
    op = {"operation": "update_section", "artifact_slug": "concept", "section_slug": "overview", "content": "New.\n"}
    before = (repo / "concept.md").read_bytes()
    with pytest.raises(ctxkeep.ArtifactFinalizedError) as refused:
        ws.apply_artifact_operation(op)
    err = refused.value
    assert err.code == "ARTIFACT_FINALIZED" and err.message == "Cannot modify finalized artifact 'concept'"
    assert err.action == (
        'Ask user to un-finalize (`Workspace.unfinalize_artifact("concept")`) or repeat with override_finalized=True'
    )
    assert err.suggestions == [] and err.candidates == []
    assert err.as_dict() == {"error": "ARTIFACT_FINALIZED", "message": err.message, "action": err.action}
    check("artifact-error", err.as_dict())
    assert str(err) == f"{err.message}; {err.action}"
    assert (repo / "concept.md").read_bytes() == before

    # The override: as the keyword, or in the operation itself.
    assert ws.apply_artifact_operation(op, override_finalized=True)["artifact"]["status"] == "finalized"
    again = dict(op, content="Newer.\n", override_finalized=True)
    assert ws.apply_artifact_operation(json.dumps(again))["operation"] == "update_section"
    assert (repo / "concept.md").read_text().endswith("## Overview\n\nNewer.\n")

    # A suggestion needs no override, but accepting one does.
    suggested = ws.apply_artifact_operation(
        {"operation": "suggest_edit", "artifact_slug": "concept", "section_slug": "overview",
         "suggestion": "s", "content": "Suggested.\n"}
    )
    with pytest.raises(ctxkeep.ArtifactFinalizedError):
        ws.accept_suggestion(suggested["suggestion_id"])
    assert ws.accept_suggestion(suggested["suggestion_id"], override_finalized=True)["status"] == "accepted"


def test_history_and_snapshot_restore(ws: ctxkeep.Workspace, repo: Path) -> None:
    original = (repo / "concept.md").read_bytes()
    first = ws.apply_artifact_operation(
        {"operation": "update_section", "artifact_slug": "concept", "section_slug": "what-is-it",
         "content": "Changed.\n", "reason": "try"}
    )
    ws.apply_artifact_operation(
        {"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "overview"}
    )
    history = ws.artifact_history("concept")
    assert history["slug"] == "concept"
    assert [o["operation"] for o in history["operations"]] == ["mark_section_done", "update_section"]
    assert history["operations"][1]["reason"] == "try"
    assert [s["id"] for s in history["snapshots"]][-1] == first["snapshot_id"]
    assert history["snapshots"][-1]["bytes"] == len(original)

    restored = ws.restore_artifact("concept", first["snapshot_id"])
    check("artifact-operation-result", restored)
    assert restored["operation"] == "restore" and restored["replaced"] is not None
    assert (repo / "concept.md").read_bytes() == original
    assert not any(s["is_done"] for s in restored["artifact"]["sections"])
    assert ws.artifact_history("concept")["operations"][0]["operation"] == "restore"

    # Restoring is a change: refused on a finalized artifact unless overridden.
    ws.finalize_artifact("concept")
    with pytest.raises(ctxkeep.ArtifactFinalizedError):
        ws.restore_artifact("concept", restored["snapshot_id"])
    undone = ws.restore_artifact("concept", restored["snapshot_id"], override_finalized=True)
    assert undone["artifact"]["sections"][3]["is_done"] is True

    with pytest.raises(ctxkeep.SnapshotNotFoundError) as missing:
        ws.restore_artifact("concept", "S-000000000000", override_finalized=True)
    err = missing.value
    assert err.code == "SNAPSHOT_NOT_FOUND" and first["snapshot_id"] in err.suggestions
    assert err.action == 'see `Workspace.artifact_history("concept")`'
    check("artifact-error", err.as_dict())


def test_not_found_errors_carry_the_closest_slugs(ws: ctxkeep.Workspace) -> None:
    with pytest.raises(ctxkeep.SectionNotFoundError) as section:
        ws.apply_artifact_operation(
            {"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "problem"}
        )
    err = section.value
    assert err.code == "SECTION_NOT_FOUND"
    assert err.message == "Section 'problem' not found in artifact 'concept'"
    assert err.suggestions == ["problem-being-solved"]
    assert str(err) == "Section 'problem' not found in artifact 'concept' (did you mean: problem-being-solved?)"
    assert err.as_dict() == {"error": "SECTION_NOT_FOUND", "message": err.message, "suggestions": ["problem-being-solved"]}
    check("artifact-error", err.as_dict())
    assert isinstance(err, KeyError) and isinstance(err, ctxkeep.ArtifactError) and isinstance(err, ctxkeep.CtxError)
    with pytest.raises(ctxkeep.SectionNotFoundError, match="what-is-it"):
        ws.artifact("concept", sections=["what-is"])
    with pytest.raises(ctxkeep.SectionNotFoundError):
        ws.collapse_section("concept", "nope")

    with pytest.raises(ctxkeep.ArtifactNotFoundError) as artifact:
        ws.artifact("concpt")
    err = artifact.value
    assert (err.code, err.suggestions) == ("ARTIFACT_NOT_FOUND", ["concept"])
    assert err.action == "add it with `Workspace.add_artifact(path)`, or see `Workspace.artifacts()`"
    check("artifact-error", err.as_dict())
    for call in (
        lambda: ws.finalize_artifact("nope"),
        lambda: ws.artifact_history("nope"),
        lambda: ws.artifact_suggestions("nope"),
        lambda: ws.remove_artifact("nope"),
        lambda: ws.check_artifact("nope", "0"),
    ):
        with pytest.raises(ctxkeep.ArtifactNotFoundError):
            call()


def test_invalid_operations(ws: ctxkeep.Workspace, repo: Path) -> None:
    before = (repo / "concept.md").read_bytes()
    bad = [
        {"operation": "delete_section", "artifact_slug": "concept", "section_slug": "overview"},
        {"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "overview", "typo": 1},
        {"operation": "update_section", "artifact_slug": "concept", "section_slug": "overview", "content": "## Split\n"},
        {"operation": "create_section", "artifact_slug": "concept", "title": "X", "level": 9},
        "not json",
        "[1, 2]",
    ]
    for op in bad:
        with pytest.raises(ctxkeep.InvalidOperationError) as refused:
            ws.apply_artifact_operation(op)
        assert refused.value.code == "INVALID_OPERATION" and isinstance(refused.value, ValueError)
        check("artifact-error", refused.value.as_dict())
    assert (repo / "concept.md").read_bytes() == before
    with pytest.raises(TypeError, match="a dict or a JSON string"):
        ws.apply_artifact_operation(42)  # type: ignore[arg-type]
    with pytest.raises(ctxkeep.InvalidOperationError, match=r"slug=") as slug:
        ws.add_artifact("concept.md", slug="Not A Slug")
    assert "--" not in str(slug.value)
    with pytest.raises(ctxkeep.InvalidOperationError, match="already artifact 'concept'"):
        ws.add_artifact("concept.md", slug="again")
    with pytest.raises(ctxkeep.InvalidOperationError, match="not a file"):
        ws.add_artifact("missing.md")


def test_content_past_the_limit_is_context_too_large(repo: Path) -> None:
    ws = ctxkeep.Workspace(repo)
    ws.init()
    config = repo / ".ctx" / "config.toml"
    config.write_text(config.read_text().replace("max_content_bytes = 200000", "max_content_bytes = 50"))
    ws = ctxkeep.Workspace(repo)
    ws.add_artifact("concept.md")
    with pytest.raises(ctxkeep.ArtifactContextTooLargeError) as too_large:
        ws.artifact("concept", content=True)
    err = too_large.value
    assert err.code == "CONTEXT_TOO_LARGE" and "max_content_bytes" in err.message
    assert err.action is not None and "sections=[" in err.action and "--section" not in err.action
    assert isinstance(err, ctxkeep.ContextTooLargeError) and isinstance(err, ctxkeep.ArtifactError)
    check("artifact-error", err.as_dict())
    # Sections' content is still there to ask for.
    assert ws.artifact("concept", sections=["overview"])["sections"][3]["content"] == "\nConcept overview.\n"


def test_check_artifact_says_when_a_view_is_stale(ws: ctxkeep.Workspace) -> None:
    view = ws.artifact("concept")
    fresh = ws.check_artifact("concept", view["state_hash"])
    assert (fresh["fresh"], fresh["matches"], fresh["too_old"]) == (True, True, False)
    assert fresh["max_age_seconds"] == 300 and fresh["slug"] == "concept"

    ws.apply_artifact_operation(
        {"operation": "mark_section_done", "artifact_slug": "concept", "section_slug": "what-is-it"}
    )
    changed = ws.check_artifact("concept", view["state_hash"], max_age=datetime.timedelta(minutes=1))
    assert (changed["fresh"], changed["matches"]) == (False, False)
    assert changed["max_age_seconds"] == 60
    assert "section what-is-it is done now" in changed["changes"]

    now = ws.artifact("concept")["state_hash"]
    long_ago = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)
    for at in (long_ago, long_ago.replace(tzinfo=None), "2020-01-01T00:00:00Z", long_ago.timestamp()):
        old = ws.check_artifact("concept", now, at=at, max_age=600)
        assert (old["matches"], old["too_old"], old["fresh"]) == (True, True, False)
        assert old["generated_at"] == "2020-01-01T00:00:00.000Z"
    with pytest.raises(ctxkeep.InvalidInputError):
        ws.check_artifact("concept", now, max_age=-1)
    with pytest.raises(ctxkeep.InvalidInputError, match="ISO-8601"):
        ws.check_artifact("concept", now, at="yesterday")
    with pytest.raises(TypeError):
        ws.check_artifact("concept", now, at=[2020])  # type: ignore[arg-type]


def test_resolve_artifact_target(ws: ctxkeep.Workspace) -> None:
    explicit = ws.resolve_artifact_target("@concept#what-is-it update the definition")
    assert explicit == {
        "outcome": "resolved",
        "artifact": "concept",
        "section": "what-is-it",
        "rest": "update the definition",
        "confidence": 1.0,
        "artifact_match": "explicit",
        "section_match": "explicit",
    }
    slash = ws.resolve_artifact_target("/research competitive-analysis add Cursor pricing")
    assert (slash["artifact"], slash["section"], slash["rest"]) == ("research", "competitive-analysis", "add Cursor pricing")
    current = ws.resolve_artifact_target("#problem-being-solved sharpen it", current="concept")
    assert (current["outcome"], current["artifact"], current["section"]) == ("resolved", "concept", "problem-being-solved")
    plain = ws.resolve_artifact_target("fix the competitive analysis in research.md")
    assert (plain["artifact"], plain["section"]) == ("research", "competitive-analysis")
    # The first `#` heading is the artifact's title.
    titled = ws.resolve_artifact_target("update the overview in the market research doc")
    assert (titled["outcome"], titled["artifact"], titled["section"]) == ("resolved", "research", "overview")

    ambiguous = ws.resolve_artifact_target("update the overview")
    assert ambiguous["outcome"] == "ambiguous"
    assert {(c["artifact"], c["section"]) for c in ambiguous["candidates"]} == {
        ("concept", "overview"),
        ("research", "overview"),
    }
    missing = ws.resolve_artifact_target("@concept#what-si-it")
    assert missing["outcome"] == "not_found" and missing["missing"] == "section"
    assert [s["section"] for s in missing["suggestions"]] == ["what-is-it"]

    # strict=True raises what is not one target.
    assert ws.resolve_artifact_target("@concept", strict=True)["section"] is None
    with pytest.raises(ctxkeep.AmbiguousTargetError) as ambiguous_err:
        ws.resolve_artifact_target("update the overview", strict=True)
    err = ambiguous_err.value
    assert err.code == "AMBIGUOUS_TARGET" and err.message == "'update the overview' matches 2 targets: say which"
    assert sorted(err.candidates, key=lambda c: c["artifact"]) == [
        {"artifact": "concept", "section": "overview", "title": "Overview"},
        {"artifact": "research", "section": "overview", "title": "Overview"},
    ]
    assert isinstance(err, LookupError) and "(one of: @" in str(err)
    check("artifact-error", err.as_dict())
    with pytest.raises(ctxkeep.SectionNotFoundError) as section_err:
        ws.resolve_artifact_target("@concept#what-si-it", strict=True)
    assert section_err.value.suggestions == ["what-is-it"]
    assert section_err.value.message == "Section 'what-si-it' not found in artifact 'concept'"
    with pytest.raises(ctxkeep.ArtifactNotFoundError) as artifact_err:
        ws.resolve_artifact_target("@reserch#overview", strict=True)
    assert artifact_err.value.suggestions == ["research"]


def test_the_current_artifact_its_contexts_and_prompts(ws: ctxkeep.Workspace) -> None:
    assert ws.current_artifact() is None
    assert ws.use_artifact("concept") == "concept" and ws.current_artifact() == "concept"
    # `#section` alone means the current artifact's.
    resolved = ws.resolve_artifact_target("#overview tighten it")
    assert (resolved["artifact"], resolved["section"]) == ("concept", "overview")
    with pytest.raises(ctxkeep.ArtifactNotFoundError):
        ws.use_artifact("nope")

    minimal = ws.artifact_context(level="minimal")
    check("artifact-context", minimal)
    assert minimal["currentArtifact"]["slug"] == "concept"
    assert minimal["systemState"]["level"] == "minimal"
    assert all(s.get("preview") is None for s in minimal["currentArtifact"]["sections"])
    standard = ws.artifact_context("concept", sections=["problem-being-solved"])
    problem = next(s for s in standard["currentArtifact"]["sections"] if s["slug"] == "problem-being-solved")
    assert "Context rot." in problem["content"]
    full = ws.artifact_context(level="full")
    assert "A planning layer." in full["currentArtifact"]["content"]
    markdown = ws.artifact_context(level="standard", format="markdown")
    assert isinstance(markdown, str) and "Problem Being Solved" in markdown
    with pytest.raises(ctxkeep.InvalidInputError, match="level="):
        ws.artifact_context(level="deep")  # type: ignore[call-overload]
    with pytest.raises(ctxkeep.InvalidInputError, match="format="):
        ws.artifact_context(format="xml")  # type: ignore[call-overload]

    chat = ws.artifact_prompt("chat", "what is left to do?")
    check("artifact-prompt", chat)
    assert chat["kind"] == "chat" and chat["artifact"] == "concept"
    assert "what is left to do?" in chat["text"] and "Problem Being Solved" in chat["text"]
    research = ws.artifact_prompt("research", "pricing of Cursor", slug="research", section="competitive-analysis")
    assert (research["artifact"], research["section"]) == ("research", "competitive-analysis")
    assert "pricing of Cursor" in research["text"]
    with pytest.raises(ctxkeep.InvalidInputError, match="kind="):
        ws.artifact_prompt("summary", "x")  # type: ignore[arg-type]
    assert ws.use_artifact(None) is None and ws.current_artifact() is None


def test_every_artifact_error_class_is_importable_and_constructible() -> None:
    classes = {
        "ARTIFACT_NOT_FOUND": ctxkeep.ArtifactNotFoundError,
        "SECTION_NOT_FOUND": ctxkeep.SectionNotFoundError,
        "ARTIFACT_FINALIZED": ctxkeep.ArtifactFinalizedError,
        "CONTEXT_TOO_LARGE": ctxkeep.ArtifactContextTooLargeError,
        "AMBIGUOUS_TARGET": ctxkeep.AmbiguousTargetError,
        "INVALID_OPERATION": ctxkeep.InvalidOperationError,
        "ARTIFACT_CHANGED": ctxkeep.ArtifactChangedError,
        "SNAPSHOT_NOT_FOUND": ctxkeep.SnapshotNotFoundError,
        "SUGGESTION_NOT_FOUND": ctxkeep.SuggestionNotFoundError,
    }
    for code, cls in classes.items():
        assert issubclass(cls, ctxkeep.ArtifactError) and issubclass(cls, ctxkeep.CtxError)
        err = cls("m", code, suggestions=["a"], action="do", candidates=[{"artifact": "x", "title": "X"}])
        assert (err.code, err.message, err.suggestions, err.action) == (code, "m", ["a"], "do")
        assert str(err) == "m (did you mean: a?) (one of: @x); do"
        check("artifact-error", err.as_dict())
