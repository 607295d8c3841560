"""Fixtures: a loopback fake GitHub and a client pointed at it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from curator.publish.api import GitHubAPI
from tests.doubles.github_issues import FakeGitHub
from tests.doubles.github_pulls import FakeGitHubPulls
from tests.doubles.server import LoopbackServer
from tests.doubles.world import World

REPO = "acme/awesome-llm-memory"


@pytest.fixture
def fake(loopback: LoopbackServer, tmp_path: Path) -> FakeGitHub:
    """The issues/comments double on the loopback server."""
    built = World.start(loopback, tmp_path, issues=True)
    assert built.issues is not None
    return built.issues


@pytest.fixture
def api(fake: FakeGitHub) -> Iterator[GitHubAPI]:
    """A client with a token, no real sleeping."""
    with GitHubAPI(fake.api, "ghp_secret_token_value", sleep=lambda s: None) as client:
        yield client


@pytest.fixture
def pulls(loopback: LoopbackServer, tmp_path: Path) -> FakeGitHubPulls:
    """The pull requests and Git database double, answering an Actions token."""
    built = World.start(loopback, tmp_path, pulls={"user_forbidden": True})
    assert built.pulls is not None
    return built.pulls


@pytest.fixture
def pulls_api(pulls: FakeGitHubPulls) -> Iterator[GitHubAPI]:
    """A client of the pulls double with an Actions token, no real sleeping."""
    with GitHubAPI(pulls.api, "ghs_actions_token", sleep=lambda s: None) as client:
        yield client
