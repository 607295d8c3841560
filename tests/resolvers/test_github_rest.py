"""REST through PyGithub: counts match what the double logged, redirects, netrc, slow bodies."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from github.Requester import Requester

from curator.config.options import Options
from curator.core.outcomes import Counter, Found, Moved, Unverified
from tests.doubles.github import (
    FakeTime,
    GithubDouble,
    make,
    options_for,
    repos_for,
    subjects,
)
from tests.doubles.server import LoopbackServer, Reply

DAY = 86400.0


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def options_for_dead(url: str) -> Options:
    """Options whose GitHub endpoints are `url` (no double behind it)."""
    return Options(github_api_url=url, github_graphql_url=url + "/graphql", timeout=1.0)


def test_rest_requests_are_sent_by_pygithub(
    loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real = Requester.requestJson

    def spy(self: Requester, verb: str, url: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(f"{verb} {url}")
        return real(self, verb, url, *args, **kwargs)

    monkeypatch.setattr(Requester, "requestJson", spy)
    double = GithubDouble(loopback, {"a/b": {}, "old/name": {"renamed_to": "new/name"}})
    resolver, _, _ = make(options_for(double), tmp_path / "c.sqlite")
    out = resolver.resolve(["github:a/b", "github:old/name"])
    assert isinstance(out["github:a/b"], Found) and isinstance(out["github:old/name"], Moved)
    # PyGithub followed the rename itself: two calls, three requests on the wire.
    assert calls == ["GET /repos/a/b", "GET /repos/old/name"]
    assert len(loopback.requests) == 3
    assert {r.headers["user-agent"][:8] for r in loopback.requests} == {"curator/"}


def test_counts_cold_warm_and_within_ttl(loopback: LoopbackServer, tmp_path: Path) -> None:
    names = subjects(7)
    double = GithubDouble(loopback, repos_for(names))
    path = tmp_path / "c.sqlite"
    counts = []
    for now in (0.0, 2 * DAY, 2 * DAY + 60):
        before = double.count("rest")
        resolver, counter, _ = make(options_for(double), path, now=now)
        resolver.resolve(names)
        assert counter.get("github_rest") == double.count("rest") - before
        counts.append(counter.get("github_rest"))
    assert counts == [7, 7, 0]
    statuses = [r.headers.get("if-none-match", "")[:2] for r in loopback.received("/repos/")]
    assert statuses == [""] * 7 + ["W/"] * 7


@pytest.mark.slow
@pytest.mark.parametrize(
    ("kind", "params"),
    [("timeout", {"seconds": 1.0}), ("reset", {}), ("html5xx", {}), ("secondary", {})],
)
def test_count_matches_the_double_under_faults(
    loopback: LoopbackServer, tmp_path: Path, kind: str, params: dict[str, Any]
) -> None:
    names = subjects(4)
    double = GithubDouble(loopback, repos_for(names))
    double.fail(kind, on="rest", times=2, **params)
    resolver, counter, _ = make(options_for(double, timeout=0.3), tmp_path / "c.sqlite")
    resolver.resolve(names)
    assert counter.get("github_rest") == double.count("rest") > 0


def test_refused_connection_is_not_counted(tmp_path: Path) -> None:
    dead = f"http://127.0.0.1:{_closed_port()}"
    resolver, counter, _ = make(options_for_dead(dead), tmp_path / "c.sqlite", FakeTime())
    out = resolver.resolve(["github:a/b", "github:c/d", "github:e/f"])
    assert all(isinstance(o, Unverified) and "connection" in o.reason for o in out.values())
    assert counter.get("github_rest") == 0


def test_rename_by_307_is_followed_by_curator(loopback: LoopbackServer, tmp_path: Path) -> None:
    double = GithubDouble(
        loopback, {"old/name": {"renamed_to": "new/name", "redirect_status": 307}}
    )
    resolver, counter, _ = make(options_for(double), tmp_path / "c.sqlite")
    moved = resolver.resolve(["github:old/name"])["github:old/name"]
    assert isinstance(moved, Moved) and moved.new_url == "https://github.com/new/name"
    assert counter.get("github_rest") == double.count("rest") == 2


def test_rename_to_another_host_is_not_followed(loopback: LoopbackServer, tmp_path: Path) -> None:
    port = loopback.url.rsplit(":", 1)[1]
    spec = {"renamed_to": "new/name", "redirect_base": f"http://localhost:{port}"}
    double = GithubDouble(loopback, {"old/name": spec})
    resolver, counter, cache = make(options_for(double), tmp_path / "c.sqlite")
    out = resolver.resolve(["github:old/name"])
    assert out["github:old/name"] == Unverified(
        "github:old/name", "GitHub REST redirected to an unexpected place"
    )
    assert counter.get("github_rest") == double.count("rest") == 1
    assert cache.get_many("github", ["github:old/name"]) == {}


def test_netrc_credentials_are_never_sent(
    loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1 login someone password s3cret\n", encoding="utf-8")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))
    double = GithubDouble(loopback, {"a/b": {}, "old/name": {"renamed_to": "new/name"}})
    make(options_for(double), tmp_path / "c.sqlite")[0].resolve(["github:a/b", "github:old/name"])
    assert len(loopback.requests) == 3
    assert all("authorization" not in r.headers for r in loopback.requests)


@pytest.mark.slow
def test_a_dripping_body_is_cut_at_the_timeout(loopback: LoopbackServer, tmp_path: Path) -> None:
    drip = Reply(200, {"Content-Type": "application/json"}, b'{"full_name": "a/b"}' * 20, drip=0.05)
    loopback._routes.insert(0, ("GET", "/repos/", lambda _req: drip))
    double = GithubDouble(loopback, repos_for(subjects(5)))
    resolver, counter, _ = make(options_for(double, timeout=0.3), tmp_path / "c.sqlite")
    started = time.monotonic()
    out = resolver.resolve(subjects(5))
    assert time.monotonic() - started < 5
    assert all(isinstance(o, Unverified) and "did not answer" in o.reason for o in out.values())
    assert counter.get("github_rest") == double.count("rest") == 6  # 3 tries, 2 requests


def test_bad_api_url_is_unverified_not_fatal(tmp_path: Path) -> None:
    resolver, counter, _ = make(options_for_dead("ftp://example.invalid"), tmp_path / "c.sqlite")
    out = resolver.resolve(["github:a/b"])
    outcome = out["github:a/b"]
    assert isinstance(outcome, Unverified) and "http(s)" in outcome.reason
    assert counter.get("github_rest") == 0


def test_counts_stay_per_run_across_threads(loopback: LoopbackServer, tmp_path: Path) -> None:
    left, right = subjects(6, "left"), subjects(9, "right")
    double = GithubDouble(loopback, repos_for(left + right))
    counters: dict[str, Counter] = {}

    def run(name: str, names: list[str]) -> None:
        resolver, counter, _ = make(options_for(double), tmp_path / f"{name}.sqlite")
        resolver.resolve(names)
        counters[name] = counter

    threads = [threading.Thread(target=run, args=a) for a in (("l", left), ("r", right))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counters["l"].get("github_rest") == 6 and counters["r"].get("github_rest") == 9
    assert double.count("rest") == 15


def test_a_rename_prints_nothing(
    loopback: LoopbackServer, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    double = GithubDouble(loopback, {"old/name": {"renamed_to": "new/name"}})
    out = make(options_for(double), tmp_path / "c.sqlite")[0].resolve(["github:old/name"])
    assert isinstance(out["github:old/name"], Moved)
    captured = capfd.readouterr()
    assert "redirection" not in captured.err + captured.out
