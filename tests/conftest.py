"""Shared fixtures. Every test is offline: doubles listen on loopback only."""

from __future__ import annotations

import os
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.doubles.server import LoopbackServer

ROOT = Path(__file__).resolve().parent.parent
#: Copies of the project's shared/ material the tests read (recordings, sample lists, a seed,
#: screening records), so a clean clone tests alone; test_fixtures.py keeps them in step.
SHARED = ROOT / "tests" / "fixtures" / "shared"
SAMPLES = SHARED / "samples"
API_SAMPLES = SHARED / "api-samples"
SCOPE = SHARED / "scope"


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test inherits tokens or endpoints from the machine; caches live in tmp_path."""
    for var in (
        "GITHUB_TOKEN",
        "GITHUB_API_URL",
        "GITHUB_GRAPHQL_URL",
        "CURATOR_ARXIV_API_URL",
        "CURATOR_ARXIV_DELAY",
        "CURATOR_CACHE",
        "CURATOR_ALLOW_PRIVATE_HOSTS",
        "GITHUB_STEP_SUMMARY",
        "GITHUB_OUTPUT",
        "GITHUB_ACTIONS",
        # The text report's colour and width (tests that need them set them).
        "NO_COLOR",
        "FORCE_COLOR",
        "COLUMNS",
    ):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("CURATOR_CACHE", str(tmp_path / "cache.sqlite"))
    # Real endpoints point at a closed loopback port: a test that forgets its double fails
    # fast instead of reaching the internet.
    dead = f"http://127.0.0.1:{_closed_port()}"
    monkeypatch.setenv("CURATOR_ARXIV_API_URL", dead + "/api/query")
    monkeypatch.setenv("GITHUB_API_URL", dead)
    monkeypatch.setenv("GITHUB_GRAPHQL_URL", dead + "/graphql")
    monkeypatch.setenv("CURATOR_ARXIV_DELAY", "0")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def loopback() -> Iterator[LoopbackServer]:
    """A started loopback server with no routes; service doubles add theirs."""
    with LoopbackServer() as server:
        yield server


def pytest_report_header() -> str:
    return f"shared material: {SHARED} ({'present' if SHARED.is_dir() else 'MISSING'})"


os.environ.setdefault("NO_COLOR", "1")
# No example database, and hypothesis's other files (its Unicode tables) outside the tree: a run
# writes nothing into the checkout (a failing example is printed; a regression is kept with
# @example), so parallel runs and workers share no files there.
os.environ.setdefault(
    "HYPOTHESIS_STORAGE_DIRECTORY", str(Path(tempfile.gettempdir()) / "curator-tests-hypothesis")
)
settings.register_profile("curator", database=None)
settings.load_profile("curator")
