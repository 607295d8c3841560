"""Fixtures: a loopback fake GitHub and a client pointed at it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from curator.publish.api import GitHubAPI
from tests.doubles.github_issues import FakeGitHub
from tests.doubles.github_pulls import FakeGitHubPulls
from tests.doubles.server import LoopbackServer

REPO = "acme/awesome-llm-memory"


@pytest.fixture
def fake(loopback: LoopbackServer) -> FakeGitHub:
    """The issues/comments double on the loopback server."""
    return FakeGitHub(loopback)


@pytest.fixture
def api(fake: FakeGitHub) -> Iterator[GitHubAPI]:
    """A client with a token, no real sleeping."""
    with GitHubAPI(fake.api, "ghp_secret_token_value", sleep=lambda s: None) as client:
        yield client


@pytest.fixture
def pulls(loopback: LoopbackServer) -> FakeGitHubPulls:
    """The pull requests and Git database double, answering an Actions token."""
    return FakeGitHubPulls(loopback, user_forbidden=True)


@pytest.fixture
def pulls_api(pulls: FakeGitHubPulls) -> Iterator[GitHubAPI]:
    """A client of the pulls double with an Actions token, no real sleeping."""
    with GitHubAPI(pulls.api, "ghs_actions_token", sleep=lambda s: None) as client:
        yield client
