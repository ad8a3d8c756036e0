"""The stubs hold up under a type checker: `mypy --strict` passes on code
that uses the whole API (test_typed_api.py) and refuses exactly the lines
of typecheck_fail.py marked `# E: CODE`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ERROR = re.compile(r"^(?P<file>[\w.]+):(?P<line>\d+): error: .*\[(?P<code>[\w-]+)\]$")
MARK = re.compile(r"#\s*E:\s*(?P<code>[\w-]+)\s*$")


def mypy(tmp_path: Path, *files: str) -> list[tuple[str, int, str]]:
    """`(file, line, code)` of every error `mypy --strict` finds in `files`."""
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-color-output", "--cache-dir", str(tmp_path), *files],
        cwd=HERE,
        capture_output=True,
        text=True,
    )
    assert run.returncode in (0, 1), run.stdout + run.stderr
    errors = []
    for line in run.stdout.splitlines():
        found = ERROR.match(line)
        if found:
            errors.append((found["file"], int(found["line"]), found["code"]))
        elif ": error:" in line:
            pytest.fail(f"an error without a code: {line}")
    return errors


def test_mypy_passes_on_the_whole_api_and_refuses_the_misuses(tmp_path: Path) -> None:
    errors = mypy(tmp_path, "test_typed_api.py", "typecheck_fail.py")
    assert [e for e in errors if e[0] != "typecheck_fail.py"] == []
    expected = {
        ("typecheck_fail.py", number, mark["code"])
        for number, text in enumerate((HERE / "typecheck_fail.py").read_text().splitlines(), start=1)
        if (mark := MARK.search(text))
    }
    assert len(expected) >= 20
    assert set(errors) == expected
