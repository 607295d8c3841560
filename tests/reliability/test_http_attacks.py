"""Attacks on curator's one HTTP policy (resolvers/http.py) through the whole `curator check`.

Odd answers a service or a proxy in front of it may give: each must end `unverified` within
the budget, with exit 0 and no traceback, never `not found` and never cached.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.resolvers.github_rest import SENDS_PER_TRY
from tests.doubles.server import LoopbackServer, Reply
from tests.reliability.world import R1, R2, SETTINGS, SLACK, Stage, expected_findings

#: Retry-After HTTP-dates whose numbers overflow datetime (email.utils raises OverflowError).
OVERFLOWING_DATES = [
    "Mon, 01 Jan 99999999999999999999 00:00:00 GMT",
    "Fri, 31 Dec 9999 23:59:59 +99999999999999999999",
]
SECONDARY = b'{"message": "You have exceeded a secondary rate limit."}'
DOWN = {R1: False, R2: False}


def _stage(
    tmp_path: Path,
    loopback: LoopbackServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    graphql: bool,
) -> Stage:
    stage = Stage(tmp_path, loopback, monkeypatch, capsys)
    if not graphql:
        stage.token = ""
    return stage.build()


@pytest.mark.parametrize("graphql", [True, False], ids=["graphql", "rest"])
@pytest.mark.parametrize("date", OVERFLOWING_DATES)
def test_secondary_limit_with_an_overflowing_retry_after_date_is_unverified(
    graphql: bool,
    date: str,
    loopback: LoopbackServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    stage = _stage(tmp_path, loopback, monkeypatch, capsys, graphql)
    gate = stage.graphql_gate if graphql else stage.rest_gate
    assert gate is not None
    headers = {"Content-Type": "application/json", "Retry-After": date}
    gate.queue(Reply(403, headers, SECONDARY), times=8)
    run = stage.run()
    assert run.status == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert run.findings() == expected_findings(True, DOWN)
    assert run.elapsed <= SETTINGS["service_budget"] + SLACK
    assert {service for service, _ in stage.cache_rows()} == {"arxiv"}


@pytest.mark.parametrize("date", OVERFLOWING_DATES)
def test_arxiv_503_with_an_overflowing_retry_after_date_is_unverified(
    date: str,
    loopback: LoopbackServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    stage = _stage(tmp_path, loopback, monkeypatch, capsys, graphql=True)
    assert stage.arxiv_gate is not None
    stage.arxiv_gate.queue(Reply(503, {"Retry-After": date}, b"busy"), times=6)
    run = stage.run()
    assert run.status == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert run.findings() == expected_findings(False, {R1: True, R2: True})
    assert run.elapsed <= SETTINGS["service_budget"] + SLACK
    assert {service for service, _ in stage.cache_rows()} == {"github"}


def test_rest_answering_202_again_and_again_is_unverified_within_the_budget(
    loopback: LoopbackServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """202 Accepted ("still computing"): PyGithub sleeps two seconds and asks again, without
    end, inside one try; the budget must bound it, and the doubles' log match the report."""
    stage = _stage(tmp_path, loopback, monkeypatch, capsys, graphql=False)
    assert stage.rest_gate is not None
    stage.rest_gate.queue(Reply(202, {"Content-Type": "application/json"}, b"{}"), times=6)
    run = stage.run()
    assert run.status == 0, run.stderr
    assert run.findings() == expected_findings(True, DOWN)
    assert run.elapsed <= SETTINGS["service_budget"] + SLACK
    assert {service for service, _ in stage.cache_rows()} == {"arxiv"}
    assert run.report["requests"]["github_rest"] == len(loopback.received("/repos/"))


@pytest.mark.parametrize("graphql", [True, False], ids=["graphql", "rest"])
def test_an_answer_that_cannot_be_decoded_is_unverified(
    graphql: bool,
    loopback: LoopbackServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`Content-Encoding: gzip` on a body that is not gzip: httpx raises DecodingError, which
    is no TransportError."""
    stage = _stage(tmp_path, loopback, monkeypatch, capsys, graphql)
    gate = stage.graphql_gate if graphql else stage.rest_gate
    assert gate is not None
    reply = Reply(200, {"Content-Type": "application/json"}, b'{"data": {}}', encoding="gzip")
    gate.queue(reply, times=8)
    run = stage.run()
    assert run.status == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert run.findings() == expected_findings(True, DOWN)
    assert {service for service, _ in stage.cache_rows()} == {"arxiv"}
    key, path = ("github_graphql", "/graphql") if graphql else ("github_rest", "/repos/")
    assert run.report["requests"][key] == len(loopback.received(path))


def test_a_connection_reset_through_the_interposer_is_a_reset(
    loopback: LoopbackServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The queue keeps every field of a reply (it used to drop `reset`)."""
    stage = _stage(tmp_path, loopback, monkeypatch, capsys, graphql=False)
    assert stage.rest_gate is not None
    stage.rest_gate.queue(Reply(reset=True), times=8)
    run = stage.run()
    assert run.status == 0, run.stderr
    assert run.findings() == expected_findings(True, DOWN)
    assert run.report["requests"]["github_rest"] == len(loopback.received("/repos/"))


@pytest.mark.parametrize("graphql", [True, False], ids=["graphql", "rest"])
def test_a_refused_connection_is_no_request_sent(
    graphql: bool,
    loopback: LoopbackServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Nothing listens at the GitHub endpoint: the report counts what reached a server (none),
    as the arXiv resolver does, and asks a refused connection only twice."""
    stage = _stage(tmp_path, loopback, monkeypatch, capsys, graphql)
    with LoopbackServer() as closed:
        dead = closed.url
    monkeypatch.setenv("GITHUB_GRAPHQL_URL", dead + "/graphql")
    monkeypatch.setenv("GITHUB_API_URL", dead)
    run = stage.run()
    assert run.status == 0, run.stderr
    assert run.findings() == expected_findings(True, DOWN)
    assert run.report["requests"].get("github_graphql", 0) == 0
    assert run.report["requests"].get("github_rest", 0) == 0


def test_a_rest_redirect_chain_is_cut_short(
    loopback: LoopbackServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """301 after 301 on the API host: PyGithub follows each one, recursively, until Python's
    recursion limit; a rename needs one hop, so a try ends after a few requests."""
    stage = _stage(tmp_path, loopback, monkeypatch, capsys, graphql=False)
    assert stage.rest_gate is not None
    for hop in range(60):
        location = f"{loopback.url}/repos/hop/n{hop}"
        stage.rest_gate.queue(Reply(301, {"Location": location}, b"{}"))
    run = stage.run()
    assert run.status == 0, run.stderr
    assert run.findings() == expected_findings(True, DOWN)
    asked = len(loopback.received("/repos/"))
    assert run.report["requests"]["github_rest"] == asked
    assert asked <= 2 * SENDS_PER_TRY
