"""Odd values in service answers and documents: numbers that look like numbers but are not.

`str.isdigit()` admits "²" and other digits `int()`/`float()` refuse; headers may say `nan`
or `-5`; a host name may hold a label the idna codec refuses. Each is a value, not a crash.
"""

from __future__ import annotations

import math
import socket

import httpx
import pytest

from curator.config.links import LinkRules
from curator.config.options import Options
from curator.core.outcomes import Counter, NotFound
from curator.net.cache import Cache
from curator.net.http import parse_retry_after
from curator.resolvers.arxiv_atom import FeedError, parse_feed
from curator.resolvers.github_http import Answer, Failure, GithubHttp
from curator.resolvers.web import WebResolver
from curator.sources.doc_html import span_value
from tests.doubles.github import FakeTime

FEED = (
    '<feed xmlns="http://www.w3.org/2005/Atom" '
    'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">'
    "<opensearch:totalResults>{total}</opensearch:totalResults></feed>"
)


@pytest.mark.parametrize("value", ["²", "١٢", "1" * 5000])
def test_span_that_int_refuses_counts_as_one(value: str) -> None:
    assert span_value({"rowspan": value}, "rowspan") == 1
    assert span_value({"rowspan": "2"}, "rowspan") == 2


def test_retry_after_with_a_unicode_digit_is_ignored() -> None:
    assert parse_retry_after("²") is None
    assert parse_retry_after("7") == 7.0


def test_feed_counter_with_a_unicode_digit_is_no_counter() -> None:
    with pytest.raises(FeedError, match="totalResults"):
        parse_feed(FEED.format(total="²").encode())
    assert parse_feed(FEED.format(total="0").encode()).listed == ()


@pytest.mark.parametrize(
    "headers",
    [
        {"retry-after": "nan"},
        {"retry-after": "-5"},
        {"retry-after": "inf"},
        {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1e300"},
        {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "nan"},
    ],
)
def test_github_limit_headers_out_of_range_never_make_sleep_raise(
    headers: dict[str, str],
) -> None:
    clock = FakeTime()
    http = GithubHttp(Options(rate_limit_wait=60), Counter(), clock.sleep, clock)
    result = http.call(lambda timeout: Answer(403, httpx.Headers(headers), b"{}"))
    assert isinstance(result, Failure)
    assert all(math.isfinite(s) and s >= 0 for s in clock.slept), clock.slept


@pytest.mark.parametrize("host", ["a" * 64 + ".example.org", "www..example.org"])
def test_host_the_idna_codec_refuses_is_a_broken_link(host: str) -> None:
    def lookup(name: str, port: int) -> list[str]:
        # What socket.getaddrinfo does with such a name, before any query is sent.
        name.encode("idna")
        raise socket.gaierror(socket.EAI_NONAME, "unexpected: the name encoded")

    resolver = WebResolver(Options(), Cache(None), Counter(), LinkRules(), lookup=lookup)
    url = f"https://{host}/page"
    outcome = resolver.resolve([url])[url]
    assert isinstance(outcome, NotFound)
    assert "not a valid host name" in outcome.reason


@pytest.mark.parametrize(
    "value",
    [
        "Mon, 01 Jan 99999999999999999999 00:00:00 GMT",
        "Mon, 01 Jan 2027 99999999999999999999:00:00 GMT",
        "Fri, 31 Dec 9999 23:59:59 +99999999999999999999",
    ],
)
def test_retry_after_date_beyond_the_calendar_is_no_wait(value: str) -> None:
    assert parse_retry_after(value) is None
