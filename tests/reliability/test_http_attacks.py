"""Attacks on curator's one HTTP policy (net/http.py) through the whole `curator check`.

Odd answers a service or a proxy in front of it may give: each must end `unverified` within
the budget, with exit 0 and no traceback, never `not found`, never cached, and with the
report's request count equal to what the doubles received.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from curator.resolvers import github_rest
from curator.resolvers.github_rest import SENDS_PER_TRY
from tests.doubles.server import LoopbackServer, Reply
from tests.reliability.world import (
    R1,
    R2,
    SETTINGS,
    SLACK,
    Interposer,
    Run,
    Stage,
    expected_findings,
)

#: Retry-After HTTP-dates whose numbers overflow datetime (email.utils raises OverflowError).
OVERFLOWING_DATES = [
    "Mon, 01 Jan 99999999999999999999 00:00:00 GMT",
    "Fri, 31 Dec 9999 23:59:59 +99999999999999999999",
]
SECONDARY = b'{"message": "You have exceeded a secondary rate limit."}'
JSON = {"Content-Type": "application/json"}
API = pytest.mark.parametrize("graphql", [True, False], ids=["graphql", "rest"])

MakeStage = Callable[[bool], Stage]


@pytest.fixture
def make_stage(
    tmp_path: Path,
    loopback: LoopbackServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> MakeStage:
    """`make_stage(graphql)`: the small catalogue, with a token (GraphQL) or without (REST)."""

    def make(graphql: bool) -> Stage:
        stage = Stage(tmp_path, loopback, monkeypatch, capsys)
        if not graphql:
            stage.token = ""
        return stage.build()

    return make


def _gate(stage: Stage, graphql: bool) -> Interposer:
    """The interposer in front of the GitHub API asked."""
    gate = stage.graphql_gate if graphql else stage.rest_gate
    assert gate is not None
    return gate


def _assert_survived(stage: Stage, run: Run, arxiv_ok: bool = True) -> None:
    """Exit 0 without a traceback, in budget; the service attacked unverified and uncached;
    GitHub's request counts as the doubles received them."""
    assert run.status == 0, run.stderr
    assert "Traceback" not in run.stderr
    github_ok = not arxiv_ok
    assert run.findings() == expected_findings(arxiv_ok, {R1: github_ok, R2: github_ok})
    assert run.elapsed <= SETTINGS["service_budget"] + SLACK
    assert {service for service, _ in stage.cache_rows()} == {"arxiv" if arxiv_ok else "github"}
    counts, server = run.report["requests"], stage.server
    assert counts.get("github_graphql", 0) == len(server.received("/graphql"))
    assert counts.get("github_rest", 0) == len(server.received("/repos/"))


@API
@pytest.mark.parametrize("date", OVERFLOWING_DATES)
def test_secondary_limit_with_an_overflowing_retry_after_date_is_unverified(
    graphql: bool, date: str, make_stage: MakeStage
) -> None:
    stage = make_stage(graphql)
    headers = {**JSON, "Retry-After": date}
    _gate(stage, graphql).queue(Reply(403, headers, SECONDARY), times=8)
    _assert_survived(stage, stage.run())


@pytest.mark.slow
@pytest.mark.parametrize("date", OVERFLOWING_DATES)
def test_arxiv_503_with_an_overflowing_retry_after_date_is_unverified(
    date: str, make_stage: MakeStage
) -> None:
    stage = make_stage(True)
    assert stage.arxiv_gate is not None
    stage.arxiv_gate.queue(Reply(503, {"Retry-After": date}, b"busy"), times=6)
    _assert_survived(stage, stage.run(), arxiv_ok=False)


@pytest.mark.slow
def test_rest_answering_202_again_and_again_is_unverified_within_the_budget(
    make_stage: MakeStage,
) -> None:
    """202 Accepted ("still computing"): PyGithub sleeps two seconds and asks again, without
    end, inside one try; the budget must bound it."""
    stage = make_stage(False)
    _gate(stage, False).queue(Reply(202, JSON, b"{}"), times=6)
    _assert_survived(stage, stage.run())


@pytest.mark.slow
@API
def test_an_answer_that_cannot_be_decoded_is_unverified(
    graphql: bool, make_stage: MakeStage
) -> None:
    """`Content-Encoding: gzip` on a body that is not gzip: httpx raises DecodingError, which
    is no TransportError."""
    stage = make_stage(graphql)
    _gate(stage, graphql).queue(Reply(200, JSON, b'{"data": {}}', encoding="gzip"), times=8)
    _assert_survived(stage, stage.run())


@pytest.mark.slow
def test_a_connection_reset_through_the_interposer_is_a_reset(make_stage: MakeStage) -> None:
    """The queue keeps every field of a reply (it used to drop `reset`)."""
    stage = make_stage(False)
    _gate(stage, False).queue(Reply(reset=True), times=8)
    _assert_survived(stage, stage.run())


@pytest.mark.slow
@API
def test_a_refused_connection_is_no_request_sent(
    graphql: bool, make_stage: MakeStage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing listens at the GitHub endpoint: the report counts what reached a server (none),
    as the arXiv resolver does, and asks a refused connection only twice."""
    stage = make_stage(graphql)
    with LoopbackServer() as closed:
        dead = closed.url
    monkeypatch.setenv("GITHUB_GRAPHQL_URL", dead + "/graphql")
    monkeypatch.setenv("GITHUB_API_URL", dead)
    run = stage.run()
    _assert_survived(stage, run)
    assert run.report["requests"].get("github_graphql", 0) == 0
    assert run.report["requests"].get("github_rest", 0) == 0


def test_a_rest_redirect_chain_is_cut_short(make_stage: MakeStage) -> None:
    """301 after 301 on the API host: PyGithub follows each one, recursively, until Python's
    recursion limit; a rename needs one hop, so a try ends after a few requests."""
    stage = make_stage(False)
    for hop in range(60):
        location = f"{stage.server.url}/repos/hop/n{hop}"
        _gate(stage, False).queue(Reply(301, {"Location": location}, b"{}"))
    _assert_survived(stage, stage.run())
    assert len(stage.server.received("/repos/")) <= 2 * SENDS_PER_TRY


def test_a_rest_answer_past_the_size_limit_is_not_read_to_the_end(
    make_stage: MakeStage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GraphQL bodies stop at MAX_BODY; REST read any size into memory. (The limit is made
    smaller than the double's repository answers: a double cannot serve gigabytes.)"""
    monkeypatch.setattr(github_rest, "MAX_BODY", 1000)
    stage = make_stage(False)
    _assert_survived(stage, stage.run())


@pytest.mark.parametrize("location", ["http://[::1", "http://127.0.0.1:99999/repos/a/b"])
def test_a_rest_redirect_to_a_malformed_location_is_unverified(
    location: str, make_stage: MakeStage
) -> None:
    """PyGithub parses a 301's Location with urllib, which raises ValueError for these."""
    stage = make_stage(False)
    _gate(stage, False).queue(Reply(301, {"Location": location}, b"{}"), times=8)
    _assert_survived(stage, stage.run())
