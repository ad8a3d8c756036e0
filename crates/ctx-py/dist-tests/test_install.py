"""The release wheel as a user gets it: `pip install` into a fresh venv (not
the development one, no network, no source tree on the path), then import it,
read its metadata, use it, and run the README's example."""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

PY_DIR = Path(__file__).resolve().parents[1]
README = PY_DIR / "README.md"
ROOT = PY_DIR.parents[1]


def workspace_version() -> str:
    text = (ROOT / "Cargo.toml").read_text()
    package = text.split("[workspace.package]", 1)[1]
    match = re.search(r'^version = "([^"]+)"', package, re.M)
    assert match, "no version in [workspace.package]"
    return match.group(1)


def runs(python: str) -> bool:
    try:
        return subprocess.run([python, "-c", "pass"], capture_output=True, timeout=30).returncode == 0
    except OSError:
        return False


def oldest_python() -> str | None:
    """The oldest Python the wheel supports (3.9), if this machine has one."""
    given = os.environ.get("CTXKEEP_OLDEST_PYTHON")
    if given:
        return given
    found = [shutil.which("python3.9")] + sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.9*/bin/python3.9")))
    return next((p for p in found if p and runs(p)), None)


def interpreters() -> list[object]:
    params: list[object] = [pytest.param(sys.executable, id="this-python")]
    oldest = oldest_python()
    if oldest:
        params.append(pytest.param(oldest, id="python3.9"))
    else:
        params.append(
            pytest.param(None, id="python3.9", marks=pytest.mark.skip(reason="no Python 3.9 (set CTXKEEP_OLDEST_PYTHON)"))
        )
    return params


@pytest.fixture(scope="module", params=interpreters())
def venv(request: pytest.FixtureRequest, wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = request.param
    home = tmp_path_factory.mktemp("venv")
    subprocess.run([base, "-m", "venv", str(home)], check=True)
    python = home / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-index", str(wheel)],
        check=True,
    )
    return python


def run(python: Path, code: str, cwd: Path) -> str:
    """Runs code in isolated mode (no PYTHON* variables, no user site, not the
    current folder on sys.path) from a folder outside the source tree."""
    done = subprocess.run([python, "-I", "-c", code], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def report(python: Path, code: str, cwd: Path) -> Any:
    """What `code` (which imports ctxkeep and sets `found`) found, through JSON."""
    program = "import json\nimport ctxkeep\n" + textwrap.dedent(code) + "\nprint(json.dumps(found))\n"
    return json.loads(run(python, program, cwd))


def test_it_imports_from_the_venv_with_its_version(venv: Path, tmp_path: Path) -> None:
    code = """
        import sys
        from importlib import metadata, resources
        package = resources.files("ctxkeep")
        found = {
            "file": ctxkeep.__file__,
            "version": ctxkeep.__version__,
            "distribution": metadata.version("ctxkeep"),
            "typed": package.joinpath("py.typed").is_file(),
            "stubs": package.joinpath("_ctx.pyi").is_file(),
            "prefix": sys.prefix,
        }
    """
    found = report(venv, code, tmp_path)
    assert Path(found["file"]).is_relative_to(venv.parent.parent)
    assert Path(found["prefix"]) == venv.parent.parent
    assert found["version"] == found["distribution"] == workspace_version()
    assert found["typed"] and found["stubs"]


def test_a_workspace_scans_and_searches(venv: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "pool.py").write_text('"""Connection pool with a timeout."""\n\ndef acquire():\n    pass\n')
    code = f"""
        ws = ctxkeep.Workspace({str(repo)!r})
        ws.init()
        scan = ws.scan()
        ws.add_record("note", "The pool timeout is 30 seconds")
        hits = ws.search("pool timeout", k=3)
        found = {{"added": scan["files_added"], "hits": hits["hits"], "first": hits["results"][0]["summary"],
                 "context": ws.context("src")["text"]}}
    """
    result = report(venv, code, tmp_path)
    assert result["added"] == 1
    assert result["hits"] == 1
    assert result["first"] == "The pool timeout is 30 seconds"
    assert "`pool.py`: Connection pool with a timeout." in result["context"]
    assert (repo / ".ctx" / "ctx.db").is_file()


def test_the_readme_is_the_description_with_honest_links(venv: Path, tmp_path: Path) -> None:
    code = """
        from importlib import metadata
        meta = metadata.metadata("ctxkeep")
        found = {
            "description": meta.get_payload(),
            "content_type": meta["Description-Content-Type"],
            "summary": meta["Summary"],
            "license": meta["License-Expression"],
            "requires_python": meta["Requires-Python"],
            "urls": meta.get_all("Project-URL"),
            "keywords": meta["Keywords"],
        }
    """
    meta = report(venv, code, tmp_path)
    # The metadata's body is the README (plus the newline that ends a message).
    assert meta["description"].rstrip("\n") == README.read_text().rstrip("\n")
    assert meta["content_type"].startswith("text/markdown")
    assert meta["summary"].startswith("Context management for AI coding agents")
    assert meta["license"] == "MIT OR Apache-2.0"
    assert meta["requires_python"] == ">=3.9"
    assert "context" in meta["keywords"].split(",")
    # No public repository yet: the links go to the registry pages of ctx's
    # other packages, nowhere made up.
    hosts = {urlparse(url.split(", ", 1)[1]).hostname for url in meta["urls"]}
    assert hosts == {"crates.io", "docs.rs"}


def readme_example() -> str:
    blocks = re.findall(r"^```python\n(.*?)^```", README.read_text(), re.M | re.S)
    assert len(blocks) == 1, "the README has one Python example"
    return blocks[0]


def test_the_readme_example_runs_as_written(venv: Path, tmp_path: Path) -> None:
    lines = run(venv, readme_example(), tmp_path).splitlines()
    assert lines[0] == "2"  # files_added
    assert "- **/**: A small web shop." in lines  # the scope chain, from the README
    assert "- `tokens.py`: Signs and refreshes access tokens." in lines
    assert any("Rotate refresh tokens on every use" in line for line in lines)
    assert "['src/auth/tokens.py']" in lines  # rank
    assert lines[-1] == "True Token refresh failed when the clock was skewed"
