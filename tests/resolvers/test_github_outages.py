"""Outage drills: limits, 5xx, timeouts, resets and bad bodies end Unverified, in budget.

Never NotFound, nothing cached, and limits that cannot be waited out stop GitHub for the
rest of the run at once. Sleeps are fake (recorded), timeouts are real but short.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from curator.core.outcomes import Found, Unverified
from tests.doubles.github import (
    TOKEN,
    FakeTime,
    GithubDouble,
    make,
    options_for,
    repos_for,
    subjects,
)
from tests.doubles.server import LoopbackServer

MODES = pytest.mark.parametrize("token", [TOKEN, ""], ids=["graphql", "rest"])


def _run(
    loopback: LoopbackServer, tmp_path: Path, token: str, n: int = 10, **changes: Any
) -> tuple[GithubDouble, dict[str, Any], FakeTime, list[str], Any]:
    names = subjects(n)
    double = GithubDouble(loopback, repos_for(names))
    return double, {"names": names, "changes": changes}, FakeTime(), names, tmp_path


def _resolve(
    double: GithubDouble, token: str, tmp_path: Path, names: list[str], clock: FakeTime, **kw: Any
) -> tuple[dict[str, Any], Any, Any]:
    resolver, counter, cache = make(options_for(double, token, **kw), tmp_path / "c.sqlite", clock)
    return resolver.resolve(names), counter, cache


def _all_unverified(out: dict[str, Any], names: list[str], needle: str = "") -> None:
    for name in names:
        outcome = out[name]
        assert isinstance(outcome, Unverified), outcome
        assert needle.lower() in outcome.reason.lower(), outcome.reason


def _nothing_cached(cache: Any, names: list[str]) -> None:
    assert cache.get_many("github", names) == {}


@MODES
def test_secondary_limit_retry_after_is_honoured(
    loopback: LoopbackServer, tmp_path: Path, token: str
) -> None:
    names = subjects(3)
    double = GithubDouble(loopback, repos_for(names))
    double.fail("secondary", times=1, retry_after=7)
    clock = FakeTime()
    out, _, _ = _resolve(double, token, tmp_path, names, clock)
    assert all(isinstance(out[s], Found) for s in names)
    assert clock.slept == [7.0]


@MODES
def test_secondary_limit_longer_than_allowed_gives_up_at_once(
    loopback: LoopbackServer, tmp_path: Path, token: str
) -> None:
    names = subjects(30)
    double = GithubDouble(loopback, repos_for(names))
    double.fail("secondary", retry_after=600)
    clock = FakeTime()
    out, counter, cache = _resolve(double, token, tmp_path, names, clock)
    _all_unverified(out, names, "secondary rate limit")
    assert clock.slept == []
    assert len(loopback.requests) == 1
    assert counter.get("github_graphql") + counter.get("github_rest") == 1
    _nothing_cached(cache, names)


@MODES
def test_primary_limit_with_distant_reset_is_unverified_quickly(
    loopback: LoopbackServer, tmp_path: Path, token: str
) -> None:
    names = subjects(150)
    double = GithubDouble(loopback, repos_for(names))
    double.fail("primary" if not token else "rate_limited", reset_in=3600)
    clock = FakeTime()
    started = time.monotonic()
    out, _, cache = _resolve(double, token, tmp_path, names, clock)
    assert time.monotonic() - started < 5
    _all_unverified(out, names, "rate limit")
    assert clock.slept == [] and len(loopback.requests) == 1
    _nothing_cached(cache, names)


@MODES
def test_primary_limit_with_near_reset_waits_for_it(
    loopback: LoopbackServer, tmp_path: Path, token: str
) -> None:
    names = subjects(2)
    double = GithubDouble(loopback, repos_for(names))
    double.fail("primary" if not token else "rate_limited", times=1, reset_in=10)
    clock = FakeTime()
    out, _, _ = _resolve(double, token, tmp_path, names, clock)
    assert all(isinstance(out[s], Found) for s in names)
    assert len(clock.slept) == 1 and 9 <= clock.slept[0] <= 12


@MODES
def test_wait_beyond_the_budget_gives_up(
    loopback: LoopbackServer, tmp_path: Path, token: str
) -> None:
    names = subjects(4)
    double = GithubDouble(loopback, repos_for(names))
    double.fail("secondary", retry_after=20)
    clock = FakeTime()
    out, _, _ = _resolve(double, token, tmp_path, names, clock, service_budget=10.0)
    _all_unverified(out, names, "budget")
    assert clock.slept == []


@MODES
@pytest.mark.parametrize("status", [502, 503])
def test_5xx_html_body_is_unverified_within_budget(
    loopback: LoopbackServer, tmp_path: Path, token: str, status: int
) -> None:
    names = subjects(120)
    double = GithubDouble(loopback, repos_for(names))
    double.fail("html5xx", status=status)
    clock = FakeTime()
    out, _, cache = _resolve(double, token, tmp_path, names, clock, service_budget=120.0)
    _all_unverified(out, names, str(status))
    # Three tries for each of two requests, then GitHub counts as down for the run.
    assert len(loopback.requests) == 6
    assert sum(clock.slept) < 120.0
    _nothing_cached(cache, names)


@MODES
def test_one_5xx_is_retried(loopback: LoopbackServer, tmp_path: Path, token: str) -> None:
    names = subjects(3)
    double = GithubDouble(loopback, repos_for(names))
    double.fail("html5xx", times=1)
    clock = FakeTime()
    out, _, _ = _resolve(double, token, tmp_path, names, clock)
    assert all(isinstance(out[s], Found) for s in names)
    assert len(clock.slept) == 1 and 0 <= clock.slept[0] <= 8


@pytest.mark.slow
@MODES
def test_timeouts_are_unverified_within_budget(
    loopback: LoopbackServer, tmp_path: Path, token: str
) -> None:
    names = subjects(20)
    double = GithubDouble(loopback, repos_for(names))
    double.fail("timeout", seconds=1.5)
    clock = FakeTime()
    started = time.monotonic()
    out, _, cache = _resolve(double, token, tmp_path, names, clock, timeout=0.2)
    assert time.monotonic() - started < 4
    _all_unverified(out, names, "did not answer")
    _nothing_cached(cache, names)


@MODES
def test_connection_resets_are_unverified(
    loopback: LoopbackServer, tmp_path: Path, token: str
) -> None:
    names = subjects(5)
    double = GithubDouble(loopback, repos_for(names))
    double.fail("reset")
    out, _, cache = _resolve(double, token, tmp_path, names, FakeTime())
    _all_unverified(out, names, "connection")
    _nothing_cached(cache, names)


@MODES
def test_malformed_json_is_unverified(loopback: LoopbackServer, tmp_path: Path, token: str) -> None:
    names = subjects(5)
    double = GithubDouble(loopback, repos_for(names))
    double.fail("malformed")
    out, _, cache = _resolve(double, token, tmp_path, names, FakeTime())
    _all_unverified(out, names, "malformed")
    _nothing_cached(cache, names)


def test_bad_token_is_unverified(loopback: LoopbackServer, tmp_path: Path) -> None:
    names = subjects(2)
    double = GithubDouble(loopback, repos_for(names), token=TOKEN)
    resolver, _, cache = make(options_for(double, "wrong"), tmp_path / "c.sqlite", FakeTime())
    out = resolver.resolve(names)
    _all_unverified(out, names, "401: Bad credentials")
    _nothing_cached(cache, names)


def test_blank_token_means_no_token(loopback: LoopbackServer, tmp_path: Path) -> None:
    names = subjects(2)
    double = GithubDouble(loopback, repos_for(names))
    resolver, _, _ = make(options_for(double, "  "), tmp_path / "c.sqlite", FakeTime())
    out = resolver.resolve(names)
    assert all(isinstance(out[s], Found) for s in names)
    assert double.count("graphql") == 0 and double.count("rest") == 2


def test_outage_keeps_the_stale_cache_entry(loopback: LoopbackServer, tmp_path: Path) -> None:
    double = GithubDouble(loopback, {"a/b": {"stars": 9}})
    path = tmp_path / "c.sqlite"
    make(options_for(double), path)[0].resolve(["github:a/b"])
    double.fail("html5xx")
    resolver, _, cache = make(options_for(double), path, FakeTime(), now=3 * 86400)
    out = resolver.resolve(["github:a/b"])
    assert isinstance(out["github:a/b"], Unverified)
    item = cache.get("github", "github:a/b")
    assert item is not None and item.value["meta"]["stars"] == 9
