"""ctxkeep end to end: a real workspace in a temp dir, driven from Python."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import ctxkeep


def make_repo(root: Path) -> Path:
    files = {
        "src/auth/jwt.py": "def sign():\n    pass\n",
        "src/db/pool.py": "class Pool:\n    pass\n",
        "README.md": "# Demo\n",
        ".gitignore": "build/\n",
        "build/out.py": "generated = True\n",
        ".env": "TOKEN=abc\n",
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


@pytest.fixture
def ws(repo: Path) -> ctxkeep.Workspace:
    ws = ctxkeep.Workspace(repo)
    ws.init()
    ws.scan()
    return ws


def test_init_creates_the_workspace_and_is_idempotent(repo: Path) -> None:
    ws = ctxkeep.Workspace(repo)
    first = ws.init()
    assert first["created"] == [
        ".ctx/config.toml",
        ".ctx/.gitignore",
        ".ctx/boot.md",
        ".ctx/constitution.md",
        ".ctx/runloop.md",
        ".ctx/ctx.db",
    ]
    assert first["already_initialized"] is False
    assert (repo / ".ctx" / "config.toml").is_file()
    second = ctxkeep.Workspace(str(repo)).init()
    assert second["created"] == []
    assert second["already_initialized"] is True


def test_update_writes_the_agent_files_and_check_reports_them(repo: Path) -> None:
    (repo / "AGENTS.md").write_bytes(b"# Ours\r\nKeep this.")
    ws = ctxkeep.Workspace(repo)
    ws.init()
    before = ws.update(check=True)
    assert before["up_to_date"] is False
    assert {f["path"]: f["status"] for f in before["files"] if f["kind"] == "section"} == {
        "AGENTS.md": "missing",
        "CLAUDE.md": "missing",
    }
    assert not (repo / "CLAUDE.md").exists()
    report = ws.update()
    statuses = {f["path"]: f["status"] for f in report["files"]}
    assert statuses == {
        "AGENTS.md": "appended",
        "CLAUDE.md": "created",
        ".ctx/boot.md": "unchanged",
        ".ctx/constitution.md": "unchanged",
        ".ctx/runloop.md": "unchanged",
        ".ctx/map.md": "created",
    }
    agents = (repo / "AGENTS.md").read_bytes()
    assert agents.startswith(b"# Ours\r\nKeep this.\r\n\r\n<!-- BEGIN CTX MANAGED SECTION v1 -->\r\n")
    assert b"@.ctx/map.md" in (repo / "CLAUDE.md").read_bytes()
    assert ws.update(check=True)["up_to_date"] is True

    (repo / "AGENTS.md").write_bytes(agents.replace(b"<!-- END CTX MANAGED SECTION -->", b""))
    with pytest.raises(ctxkeep.ManagedSectionError) as info:
        ws.update()
    assert info.value.code == "MANAGED_SECTION_BROKEN" and "AGENTS.md: line 4" in info.value.message
    repaired = ws.update(repair=True)["files"][0]
    assert repaired["status"] == "repaired" and repaired["repairs"]


def test_scan_reports_changes_and_respects_gitignore(repo: Path) -> None:
    ws = ctxkeep.Workspace(repo)
    ws.init()
    report = ws.scan()
    assert report["files_added"] == 5  # build/ is ignored
    assert report["secret_files"] == [".env"]
    assert sorted(report["stale_folders"]) == [".", "src", "src/auth", "src/db"]
    assert isinstance(report["elapsed_ms"], int)

    (repo / "src" / "db" / "pool.py").write_text("class Pool:\n    size = 8\n")
    again = ws.scan()
    assert again["files_changed"] == 1
    assert again["stale_folders"] == [".", "src", "src/db"]


def test_status_is_a_plain_dict(ws: ctxkeep.Workspace) -> None:
    status = ws.status()
    assert isinstance(status, dict)
    assert status["files"] == 5
    assert status["folders"] == 4
    assert status["secret_files"] == 1
    assert status["schema_version"] == ctxkeep.SCHEMA_VERSION
    assert status["last_scan_at"].endswith("Z")
    assert Path(status["root"]) == ws.root


def test_folders_and_decisions(ws: ctxkeep.Workspace) -> None:
    folder = ws.describe("src/auth", description="JWT signing", content="## Notes\nRotate keys.\n")
    assert folder["description"] == "JWT signing"
    assert folder["content_md"] == "## Notes\nRotate keys."  # kept trimmed, as its knowledge file holds it
    assert [f["name"] for f in folder["files"]] == ["jwt.py"]
    decision = ws.log_decision("src/auth", "Use EdDSA", rationale="Short keys", tags=["Architectural"])
    assert decision["id"].startswith("D-")
    assert decision["tags"] == ["architectural"]
    assert [d["title"] for d in ws.decisions("src/auth")] == ["Use EdDSA"]
    assert len(ws.decisions()) == 1
    assert ws.folder(".")["children"] == ["src"]


def test_scope_and_relations(ws: ctxkeep.Workspace) -> None:
    assert ws.set_scope("src", True)["is_scope"] is True
    assert ws.set_scope("src", False)["is_scope"] is False
    related = ws.relate("src/auth", "src/db", note="sessions live in the db")["related"]
    assert related == [{"path": "src/db", "note": "sessions live in the db"}]
    assert ws.unrelate("src/auth", "src/db")["related"] == []
    with pytest.raises(ctxkeep.InvalidInputError):
        ws.unrelate("src/auth", "src/db")


def test_errors_are_typed_and_carry_the_message_in_python_terms(
    tmp_path_factory: pytest.TempPathFactory, ws: ctxkeep.Workspace
) -> None:
    with pytest.raises(ctxkeep.NotAWorkspaceError) as info:
        ctxkeep.Workspace(tmp_path_factory.mktemp("empty")).status()
    assert info.value.code == "NOT_A_WORKSPACE"
    assert "call `Workspace.init()`" in str(info.value)
    assert isinstance(info.value, FileNotFoundError)

    with pytest.raises(ctxkeep.UnknownFolderError) as info:
        ws.folder("nope")
    assert str(info.value) == "nope: unknown folder (not in the last scan; call `Workspace.scan()`?)"
    assert isinstance(info.value, KeyError)

    with pytest.raises(ctxkeep.OutsideRootError):
        ws.folder("../elsewhere")
    with pytest.raises(ctxkeep.InvalidInputError) as info:
        ws.log_decision("src", "  ")
    assert isinstance(info.value, ValueError)
    with pytest.raises(ctxkeep.InvalidInputError):
        ws.describe("src", description="two\nlines")
    # Nothing was written by the failed calls.
    assert ws.decisions() == []


def test_a_broken_database_raises_instead_of_crashing(repo: Path) -> None:
    (repo / ".ctx").mkdir()
    (repo / ".ctx" / "ctx.db").write_text("definitely not sqlite\n")
    with pytest.raises(ctxkeep.DatabaseError) as info:
        ctxkeep.Workspace(repo).scan()
    assert info.value.code == "NOT_A_CTX_DATABASE"
    assert (repo / ".ctx" / "ctx.db").read_text() == "definitely not sqlite\n"


def test_a_broken_config_raises_config_error(repo: Path) -> None:
    ws = ctxkeep.Workspace(repo)
    ws.init()
    (repo / ".ctx" / "config.toml").write_text("[scan]\nbogus = 1\n")
    with pytest.raises(ctxkeep.ConfigError) as info:
        ctxkeep.Workspace(repo).scan()
    assert "bogus" in str(info.value)


def test_workspace_is_found_from_a_subfolder(ws: ctxkeep.Workspace, repo: Path) -> None:
    sub = ctxkeep.Workspace(repo / "src" / "auth")
    assert sub.root == ws.root
    assert sub.status()["files"] == 5


def test_stubs_match_the_runtime() -> None:
    """Every public name in _ctx.pyi exists at runtime, and vice versa."""
    stub_path = Path(ctxkeep.__file__).with_name("_ctx.pyi")
    tree = ast.parse(stub_path.read_text())
    stub_names = set()
    stub_methods: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            stub_names.add(node.name)
            stub_methods[node.name] = {
                item.name for item in node.body if isinstance(item, ast.FunctionDef) and not item.name.startswith("__")
            }
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            stub_names.add(node.target.id)
        elif isinstance(node, ast.FunctionDef):
            stub_names.add(node.name)
    runtime = {name for name in dir(ctxkeep._ctx) if not name.startswith("_") or name == "__version__"}
    assert stub_names == runtime
    for cls, methods in stub_methods.items():
        runtime_methods = {
            name for name, _ in inspect.getmembers(getattr(ctxkeep._ctx, cls)) if not name.startswith("__")
        }
        assert methods == runtime_methods, cls
    assert (Path(ctxkeep.__file__).parent / "py.typed").exists()


def test_released_gil_allows_threads(ws: ctxkeep.Workspace, repo: Path) -> None:
    """Two threads, each with its own Workspace, scan at once without deadlock."""
    import threading

    for i in range(50):
        (repo / "src" / f"m{i}.py").write_text(f"x = {i}\n")
    results: list[dict] = []
    errors: list[BaseException] = []

    def scan() -> None:
        try:
            results.append(ctxkeep.Workspace(repo).scan())
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=scan) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    assert sum(r["files_added"] for r in results) == 50
    assert ws.status()["files"] == 55


def test_build_context_validate_and_todo(ws: ctxkeep.Workspace, repo: Path) -> None:
    report = ws.build()
    assert report["files_written"] == 16  # 4 folders x 4 tiers
    assert ws.validate()["ok"] is True
    assert (repo / ".ctx" / "context" / "src--auth.standard.md").is_file()

    ws.describe("src/auth", description="JWT signing")
    assert {p["path"] for p in ws.validate()["stale"]} == {"src", "src/auth"}
    rebuilt = ws.build(mode="stale")
    assert [f["path"] for f in rebuilt["built"]] == ["src", "src/auth"]

    ctx = ws.context("src/auth", tier="minimal")
    assert ctx["text"].startswith("# Context: /src/auth\n")
    assert ctx["tokens"] <= 500 and ctx["doc"]["current"]["description"] == "JWT signing"
    # The same text as the built file, but for the time it was generated.
    def undated(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith("> Generated:")]

    built = (repo / ".ctx" / "context" / "src--auth.minimal.md").read_text()
    assert undated(ctx["text"]) == undated(built)

    todo = [t["path"] for t in ws.todo()]
    assert "src/auth" not in todo and todo[0] == "src/db"

    with pytest.raises(ctxkeep.InvalidInputError, match="the tiers are"):
        ws.context("src", tier="huge")
    with pytest.raises(ctxkeep.InvalidInputError, match="the modes are"):
        ws.build(mode="sometimes")
    (repo / ".ctx" / "templates").mkdir()
    (repo / ".ctx" / "templates" / "header.md.hbs").write_text("{{#if title}}\n")
    with pytest.raises(ctxkeep.TemplateError, match="header.md.hbs"):
        ws.build(mode="force")


def test_map_and_rank_work_in_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CTX_CACHE_DIR", str(tmp_path / "cache"))
    repo = make_repo(tmp_path / "repo")
    (repo / "src/db/pool.py").write_text("class Pool:\n    def acquire_connection(self):\n        pass\n")
    (repo / "src/auth/jwt.py").write_text("from src.db.pool import Pool\n\ndef sign():\n    Pool().acquire_connection()\n")
    first = ctxkeep.map(repo, tokens=512)
    assert first["tokens"] <= 512 and "class Pool:" in first["text"]
    assert first["index"]["parsed"] == 2
    assert ctxkeep.map(repo, tokens=512)["index"]["parsed"] == 0
    assert not (repo / ".ctx").exists()
    ranked = ctxkeep.rank("acquire_connection hangs", repo, k=1)
    assert [r["path"] for r in ranked] == ["src/db/pool.py"]
    assert set(ranked[0]) == {
        "path",
        "score",
        "lexical",
        "graph",
        "recency",
        "similar",
        "authored",
        "latest",
        "named",
        "area",
        "mentioned",
        "defines",
    }
    # `acquire_connection` is written as code: the file defining it holds it.
    assert ranked[0]["defines"] == 1.0
    assert ctxkeep.rank("acquire_connection hangs", repo, history=False)[0]["recency"] == 0.0
    with pytest.raises(ctxkeep.InvalidInputError):
        ctxkeep.rank("   ", repo)
    with pytest.raises(ctxkeep.InvalidInputError):
        ctxkeep.map(repo, focus=["nope.py"])


def _token(seed: int) -> str:
    """A random-looking value made at run time, so this file holds none."""
    import random

    rng = random.Random(seed)
    return "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") for _ in range(36))


def test_secrets_are_redacted_on_the_way_in_and_listed_by_scan(ws: ctxkeep.Workspace, tmp_path: Path) -> None:
    token = "gh" + "p_" + _token(1)
    (tmp_path / "src" / "auth" / "keys.py").write_text(f'GITHUB_TOKEN = "{token}"\n')
    report = ws.secrets_scan()
    finding = next(f for f in report["findings"] if f["path"] == "src/auth/keys.py")
    assert (finding["line"], finding["column"], finding["rule"]) == (1, 17, "github-token")
    assert token not in str(report)
    assert {"path": ".env", "reason": "environment file"} in report["hidden"]

    note = ws.add_record("note", f"rotated {token} today")
    assert note["text"] == "rotated [REDACTED:github-token] today"
    assert ws.redact(f"use {token}") == "use [REDACTED:github-token]"
    assert ws.redact("nothing secret here") == "nothing secret here"


def test_context_takes_a_folder_as_context_files_title_it_and_a_file_for_its_folder(ws: ctxkeep.Workspace) -> None:
    titled = ws.context("/src/auth")
    assert titled["path"] == "src/auth" and "from_file" not in titled
    from_file = ws.context("src/auth/jwt.py")
    assert from_file["path"] == "src/auth" and from_file["from_file"] == "src/auth/jwt.py"
