"""Fixtures for driving `ctx mcp` with the official MCP Python SDK.

The binary is `$CTX_BIN` (scripts/test passes target/debug/ctx). Every test
gets its own fixture repository, made with the binary itself.
"""

from __future__ import annotations

import json
import os
import subprocess
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

CTX_BIN = os.environ.get("CTX_BIN") or str(Path(__file__).resolve().parents[2] / "target/debug/ctx")

# An AWS key id in two halves, so that this file holds no secret.
AWS_KEY = "AKIA" + "Q7RZ3MT2VX4PLK9D"


@pytest.fixture
def anyio_backend():
    return "asyncio"


def ctx(cwd: Path, *args: str, env: dict | None = None) -> str:
    """Run the ctx binary; its stdout."""
    done = subprocess.run(
        [CTX_BIN, *args], cwd=cwd, capture_output=True, text=True, env=env or server_env(cwd), check=False
    )
    assert done.returncode == 0, f"ctx {' '.join(args)}: {done.stderr}"
    return done.stdout


def server_env(home: Path) -> dict:
    """A HOME and cache of the test's own: a folder without `.ctx/` caches its map there."""
    return {**os.environ, "HOME": str(home), "CTX_CACHE_DIR": str(home / ".cache-ctx")}


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


SOURCES = {
    "README.md": "# shop\n\nA small shop: an HTTP API over an order store.\n",
    "src/api/routes.py": (
        "from src.store.orders import save_order\n\n\n"
        "def create_order(request):\n    return save_order(request.json)\n"
    ),
    "src/store/orders.py": "def save_order(order):\n    return {'id': 1, **order}\n",
    "src/store/__init__.py": "",
}


@pytest.fixture
def bare(tmp_path: Path) -> Path:
    """A repository without `.ctx/`."""
    root = tmp_path / "repo"
    write(root, SOURCES)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    return root


@pytest.fixture
def repo(bare: Path) -> Path:
    """A repository after `ctx init`, with a described folder, records, a decision and a task."""
    root = bare
    ctx(root, "init")
    ctx(root, "folder", "describe", "src/store", "--description", "Persistence of orders")
    ctx(root, "log", "src/store", "--title", "Orders are stored as JSON documents")
    for kind, text in [
        ("query", "why does checkout fail on an empty cart"),
        ("response", "the cart total divides by the item count; guard the empty cart"),
        ("note", "checkout tests live in tests/test_checkout.py"),
    ]:
        ctx(root, "record", "add", "--type", kind, "--text", text, "--session", "S1")
    epic = json.loads(ctx(root, "--json", "task", "add", "Checkout", "--type", "epic"))["id"]
    ctx(root, "task", "add", "Guard the empty cart", "--epic", epic, "--criteria", "no division by zero")
    return root


def server_pids() -> set[int]:
    """The pids of this process's `ctx mcp` children."""
    me = str(os.getpid())
    pids = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        ppid = stat.rsplit(")", 1)[1].split()[1]
        if ppid == me and cmdline[1:2] == [b"mcp"]:
            pids.add(int(entry.name))
    return pids


@asynccontextmanager
async def serve(cwd: Path, *args: str):
    """An initialized client session with `ctx mcp` running in `cwd`; yields (session, initialize result, pid)."""
    before = server_pids()
    params = StdioServerParameters(command=CTX_BIN, args=["mcp", *args], cwd=str(cwd), env=server_env(cwd))
    async with stdio_client(params) as (read, write_stream):
        async with ClientSession(read, write_stream) as session:
            init = await session.initialize()
            started = server_pids() - before
            yield session, init, (started.pop() if len(started) == 1 else None)
