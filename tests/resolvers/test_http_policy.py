"""The one HTTP policy (curator/net/http.py): GitHub's limits read once, for the
resolver and for publishing alike, from the recorded answers; waits a policy refuses."""

from __future__ import annotations

import json

import pytest

from curator.config.options import Options
from curator.net.http import (
    Budget,
    RetryPolicy,
    arxiv_policy,
    github_limit,
    github_policy,
    publish_policy,
)
from tests.doubles.github_issues import GITHUB, recorded_headers

NOW = 1_700_000_000.0


def recorded(name: str) -> tuple[dict[str, str], bytes]:
    """Headers and body bytes of a recorded GitHub answer."""
    return recorded_headers(name), (GITHUB / f"{name}.json").read_bytes()


def test_primary_limit_without_reset_names_no_wait() -> None:
    headers, body = recorded("rest_ratelimit_403_primary_unauth_2013")
    limit = github_limit(403, headers, body, attempt=1, now=NOW)
    assert limit is not None and limit.wait is None
    assert "no reset time" in limit.reason


def test_a_limit_header_sent_twice_is_read_by_its_first_value() -> None:
    headers = {"X-RateLimit-Remaining": "0, 0", "X-RateLimit-Reset": f"{int(NOW) + 30}, 1"}
    limit = github_limit(403, headers, b"{}", attempt=1, now=NOW)
    assert limit is not None and limit.wait == 31.0


def test_primary_limit_waits_until_the_reset_and_a_second() -> None:
    headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(NOW) + 30)}
    limit = github_limit(403, headers, b"{}", attempt=1, now=NOW)
    assert limit is not None and limit.wait == 31.0
    assert "until" in limit.reason


@pytest.mark.parametrize(
    "name",
    [
        "rest_ratelimit_403_secondary_retry_after_2026",
        "rest_ratelimit_403_secondary_abuse_retry_after_2018",
    ],
)
def test_secondary_limit_waits_what_retry_after_says(name: str) -> None:
    headers, body = recorded(name)
    limit = github_limit(403, headers, body, attempt=3, now=NOW)
    assert limit is not None and limit.wait == 60.0


def test_secondary_limit_retry_after_as_a_date() -> None:
    headers = {"Retry-After": "Tue, 14 Nov 2023 22:14:00 GMT"}  # NOW + 7 s
    limit = github_limit(429, headers, b"{}", attempt=1, now=NOW)
    assert limit is not None and limit.wait is not None and 0 < limit.wait < 60


def test_secondary_limit_without_retry_after_doubles_the_advised_minute() -> None:
    body = json.dumps({"message": "You have exceeded a secondary rate limit."}).encode()
    waits = [github_limit(403, {}, body, attempt=n, now=NOW) for n in (1, 2, 3)]
    assert [w.wait for w in waits if w is not None] == [60.0, 120.0, 240.0]


def test_graphql_rate_limited_under_200_is_a_limit() -> None:
    body = json.dumps({"errors": [{"type": "RATE_LIMITED", "message": "API rate limit"}]})
    limit = github_limit(200, {}, body.encode(), attempt=1, now=NOW)
    assert limit is not None and limit.wait == 60.0


@pytest.mark.parametrize(
    ("status", "name"),
    [(404, "rest_404_modern_body_with_status_2025"), (200, "graphql_node_not_found_200_2024")],
)
def test_other_answers_are_no_limit(status: int, name: str) -> None:
    headers, body = recorded(name)
    assert github_limit(status, headers, body, attempt=1, now=NOW) is None


def test_a_plain_403_is_a_refusal_not_a_limit() -> None:
    body = json.dumps({"message": "Resource not accessible by integration"}).encode()
    assert github_limit(403, {"X-RateLimit-Remaining": "4999"}, body, attempt=1, now=NOW) is None


def test_a_wait_is_refused_beyond_max_wait_or_the_budget() -> None:
    policy = RetryPolicy(attempts=3, base=0.5, cap=8.0, max_wait=60.0)
    assert policy.refusal(60.0, Budget(100)) == ""
    assert "allowed wait" in policy.refusal(61.0, Budget(100))
    assert "time budget" in policy.refusal(30.0, Budget(20))


def test_every_service_has_its_policy_from_one_place() -> None:
    options = Options(rate_limit_wait=45.0, arxiv_delay=3.0)
    assert arxiv_policy(options) == RetryPolicy(attempts=5, base=3.0, cap=45.0, max_wait=45.0)
    assert github_policy(options).max_wait == 45.0
    assert publish_policy(3, 60.0).attempts == 4
