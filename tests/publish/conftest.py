"""Fixtures: a loopback fake GitHub and a client pointed at it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from curator.publish.api import GitHubAPI
from tests.doubles.github_issues import FakeGitHub
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
