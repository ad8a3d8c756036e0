"""Knowledge files from Python: what a Workspace authors is written to
.ctx/knowledge/, and a new database gets it back from there."""

from __future__ import annotations

from pathlib import Path

import pytest

import ctxkeep


def test_authored_knowledge_survives_a_deleted_database(tmp_path: Path) -> None:
    (tmp_path / "src" / "auth").mkdir(parents=True)
    (tmp_path / "src" / "auth" / "jwt.py").write_text("def sign():\n    pass\n")
    ws = ctxkeep.Workspace(tmp_path)
    ws.init()
    ws.scan()
    ws.describe("src/auth", description="Signs and checks tokens")
    decision = ws.log_decision("src/auth", "HS256 for now", rationale="one service", tags=["architectural"])
    task = ws.add_task("Rotate keys", criteria=["monthly"])
    pin = ws.pin("Tokens live 15 minutes")

    knowledge = tmp_path / ".ctx" / "knowledge"
    assert (knowledge / "folders" / "src--auth.md").read_text().startswith('+++\npath = "src/auth"\n')
    assert (knowledge / "decisions" / f"{decision['id']}.md").is_file()
    assert (knowledge / "pins" / f"{pin['id']}.md").is_file()
    assert len(list((knowledge / "frames").glob(f"{task['id']}-*.md"))) == 1

    del ws
    for name in ("ctx.db", "ctx.db-wal", "ctx.db-shm"):
        (tmp_path / ".ctx" / name).unlink(missing_ok=True)
    fresh = ctxkeep.Workspace(tmp_path)
    report = fresh.scan()
    assert len(report["knowledge"]["loaded"]) == 4
    assert fresh.folder("src/auth")["description"] == "Signs and checks tokens"
    assert [d["title"] for d in fresh.decisions()] == ["HS256 for now"]
    assert [(t["id"], t["criteria"]) for t in fresh.tasks()] == [(task["id"], ["monthly"])]
    assert [p["text"] for p in fresh.pins()] == ["Tokens live 15 minutes"]


def test_a_conflicted_knowledge_file_raises_and_loads_nothing(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("x = 1\n")
    ws = ctxkeep.Workspace(tmp_path)
    ws.init()
    ws.scan()
    ws.describe("src", description="Sources")
    path = tmp_path / ".ctx" / "knowledge" / "folders" / "src.md"
    path.write_text('+++\npath = "src"\n<<<<<<< HEAD\ndescription = "A"\n=======\ndescription = "B"\n>>>>>>> x\n+++\n')
    with pytest.raises(ctxkeep.KnowledgeFileError) as info:
        ws.scan()
    assert info.value.code == "INVALID_KNOWLEDGE_FILE"
    assert "src.md:3" in info.value.message
    assert ws.folder("src")["description"] == "Sources"
