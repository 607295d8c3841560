"""The shared retry helpers (curator/net/http.py) and the pure Atom helpers."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
import pytest

from curator.net.http import (
    Budget,
    Pacer,
    RetryableError,
    RetryPolicy,
    call_with_retries,
    parse_retry_after,
    status_error,
)
from curator.resolvers.arxiv_atom import FeedError, is_withdrawal, parse_feed, rejected_ids
from tests.conftest import API_SAMPLES

RECORDINGS = API_SAMPLES / "arxiv"


class FakeTime:
    """A clock that only moves when something sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def failing(errors: list[Exception], result: str = "ok") -> tuple[list[int], object]:
    calls: list[int] = []

    def fn() -> str:
        calls.append(1)
        if errors:
            raise errors.pop(0)
        return result

    return calls, fn


def policy(attempts: int = 5, base: float = 1.0, cap: float = 60.0) -> RetryPolicy:
    """A policy whose longest accepted server wait is its backoff cap, as arXiv's is."""
    return RetryPolicy(attempts=attempts, base=base, cap=cap, max_wait=cap)


# -- Retry-After ------------------------------------------------------------------------------
def test_retry_after_seconds_and_http_date() -> None:
    now = datetime(2026, 4, 12, 22, 0, 0, tzinfo=UTC)
    assert parse_retry_after("120") == 120.0
    assert parse_retry_after("Sun, 12 Apr 2026 22:00:30 GMT", now) == 30.0
    assert parse_retry_after("Sun, 12 Apr 2026 21:00:00 GMT", now) == 0.0
    assert parse_retry_after(None) is None
    assert parse_retry_after("") is None
    assert parse_retry_after("soon") is None


def test_status_error_only_for_transient_statuses() -> None:
    limited = status_error(429, httpx.Headers({"Retry-After": "7"}))
    assert limited is not None and limited.retry_after == 7.0
    unavailable = status_error(503, httpx.Headers())
    assert unavailable is not None and unavailable.retry_after is None
    assert status_error(404, httpx.Headers()) is None
    assert status_error(403, httpx.Headers({"Retry-After": "7"})) is None


# -- call_with_retries ---------------------------------------------------------------------------
def test_retries_until_success_with_growing_jittered_waits() -> None:
    t = FakeTime()
    calls, fn = failing([RetryableError("503")] * 3)
    assert (
        call_with_retries(fn, Budget(100, t.clock), policy(base=1, cap=60), sleep=t.sleep) == "ok"
    )  # type: ignore[arg-type]
    assert len(calls) == 4
    assert len(t.sleeps) == 3
    for n, slept in enumerate(t.sleeps):
        assert 2**n <= slept <= 2**n + 1


def test_gives_up_after_the_attempts_with_the_last_error() -> None:
    t = FakeTime()
    calls, fn = failing([RetryableError(f"503 #{i}") for i in range(10)])
    with pytest.raises(RetryableError, match="503 #2"):
        call_with_retries(fn, Budget(1000, t.clock), policy(attempts=3), sleep=t.sleep)  # type: ignore[arg-type]
    assert len(calls) == 3


def test_never_sleeps_past_the_budget() -> None:
    t = FakeTime()
    calls, fn = failing([RetryableError("503")] * 10)
    with pytest.raises(RetryableError):
        call_with_retries(fn, Budget(5, t.clock), policy(base=1, attempts=10), sleep=t.sleep)  # type: ignore[arg-type]
    assert t.now <= 5
    assert 2 <= len(calls) <= 4


def test_retry_after_is_used_as_the_wait() -> None:
    t = FakeTime()
    _calls, fn = failing([RetryableError("429", retry_after=17)])
    call_with_retries(fn, Budget(100, t.clock), policy(base=1, cap=60), sleep=t.sleep)  # type: ignore[arg-type]
    assert t.sleeps == [17]


def test_retry_after_beyond_cap_stops_at_once() -> None:
    t = FakeTime()
    calls, fn = failing([RetryableError("429", retry_after=3600)])
    with pytest.raises(RetryableError):
        call_with_retries(fn, Budget(10_000, t.clock), policy(cap=60), sleep=t.sleep)  # type: ignore[arg-type]
    assert len(calls) == 1 and t.sleeps == []


def test_other_errors_are_not_retried() -> None:
    t = FakeTime()
    calls, fn = failing([KeyError("bug")])
    with pytest.raises(KeyError):
        call_with_retries(fn, Budget(100, t.clock), policy(), sleep=t.sleep)  # type: ignore[arg-type]
    assert len(calls) == 1


def test_pacer_spaces_calls_from_the_end_of_the_last() -> None:
    t = FakeTime()
    pacer = Pacer(3.0, clock=t.clock, sleep=t.sleep)
    pacer.wait()
    assert t.sleeps == []
    t.now += 1.0
    pacer.finished()  # request took a second
    pacer.wait()
    assert t.sleeps == [3.0]
    t.now += 10
    pacer.wait()
    assert t.sleeps == [3.0]


# -- Atom helpers ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    [
        "id_list_two_ids_one_nonexistent.xml",
        "id_list_nonexistent_0000.0000_empty_feed.xml",
        "id_list_oldstyle_astro-ph_0601001.xml",
        "id_list_single_1605.08386.xml",
        "id_list_title_zero_2104.12255v1.xml",
        "search_query_testing_max10.xml",
        "legacy_doc_search_all_electron_max1.xml",
    ],
)
def test_recorded_feeds_pass_the_gate(name: str) -> None:
    body = (RECORDINGS / name).read_bytes()
    assert len(parse_feed(body).listed) == body.count(b"</entry>")


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (b"", "blank"),
        (b"  \n", "blank"),
        (b"Rate exceeded.", "Rate exceeded"),
        (b"<html><body>Access Denied</body></html>", "not an Atom feed"),
        (b"<?xml version='1.0'?><feed xmlns='http://www.w3.org/2005/Atom'></feed>", "totalResults"),
    ],
)
def test_non_feeds_fail_the_gate(body: bytes, why: str) -> None:
    with pytest.raises(FeedError, match=why):
        parse_feed(body)


def test_truncated_recordings_fail_the_gate() -> None:
    for name in (
        "id_list_two_ids_one_nonexistent.xml",
        "id_list_nonexistent_0000.0000_empty_feed.xml",
    ):
        body = (RECORDINGS / name).read_bytes()
        for cut in range(40, len(body) - 2, max(1, len(body) // 37)):
            with pytest.raises(FeedError):
                parse_feed(body[:cut])


def test_a_feed_missing_announced_entries_fails_the_gate() -> None:
    body = (RECORDINGS / "id_list_two_ids_one_nonexistent.xml").read_text()
    start, end = body.index("  <entry>"), body.index("</entry>") + len("</entry>\n")
    with pytest.raises(FeedError, match="announces 1"):
        parse_feed((body[:start] + body[end:]).encode())


def test_rejected_ids_from_the_400_recordings() -> None:
    ids, message = rejected_ids((RECORDINGS / "id_list_malformed_abc_error_400.xml").read_bytes())
    assert ids == ["abc"]
    assert message == "incorrect id format for abc"
    legacy = (RECORDINGS / "legacy_doc_error_incorrect_id_format_1234.12345.xml").read_bytes()
    assert rejected_ids(legacy)[0] == ["1234.12345"]
    assert rejected_ids(b"garbage") == ([], "HTTP 400")


@pytest.mark.parametrize(
    ("comment", "abstract"),
    [
        ("This paper has been withdrawn by the author due to a crucial error in Lemma 2", ""),
        ("Withdrawn", ""),
        ("withdrawn.", ""),
        ("This submission has been withdrawn by arXiv administrators", ""),
        ("", "This paper has been withdrawn."),
        ("", "The authors have withdrawn this paper. This version was withdrawn due to errors."),
        ("paper withdrawn by the authors", ""),
    ],
)
def test_withdrawal_notices_are_recognised(comment: str, abstract: str) -> None:
    assert is_withdrawal(comment, abstract)


@pytest.mark.parametrize(
    ("comment", "abstract"),
    [
        ("12 pages, 3 figures", "We study memory for language models."),
        ("", "We predict which drugs were withdrawn from the market using memory networks."),
        ("Accepted at ACL 2024", "Users withdrawn from a conversation are modelled."),
    ],
)
def test_ordinary_papers_are_not_withdrawals(comment: str, abstract: str) -> None:
    assert not is_withdrawal(comment, abstract)


def test_parse_feed_names_the_base_id_of_every_entry() -> None:
    body = (RECORDINGS / "id_list_two_ids_one_nonexistent.xml").read_bytes()
    assert parse_feed(body).listed == ("1707.08567",)
    versioned = (RECORDINGS / "id_list_oldstyle_versioned_quant-ph_0201082v1.xml").read_bytes()
    assert parse_feed(versioned).listed == ("quant-ph/0201082",)
