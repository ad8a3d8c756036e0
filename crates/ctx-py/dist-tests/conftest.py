"""The built wheel and sdist under test: `pytest dist-tests --wheel W --sdist S`."""

from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--wheel", required=True, help="the release wheel (.whl) to check")
    parser.addoption("--sdist", required=True, help="the sdist (.tar.gz) the wheel was built from")


@pytest.fixture(scope="session")
def wheel(request: pytest.FixtureRequest) -> Path:
    path = Path(request.config.getoption("--wheel")).resolve()
    assert path.is_file(), path
    return path


@pytest.fixture(scope="session")
def sdist(request: pytest.FixtureRequest) -> Path:
    path = Path(request.config.getoption("--sdist")).resolve()
    assert path.is_file(), path
    return path
