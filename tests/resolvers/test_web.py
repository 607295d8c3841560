"""WebResolver against the loopback web double: statuses, redirects, HEAD fallback, limits.

Host names like `a.test` are mapped to 127.0.0.1 by a fake resolver, and the rules allow
exactly 127.0.0.1, so every request stays on loopback.
"""

from __future__ import annotations

import itertools
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from curator.config.links import LinkRules
from curator.config.options import Options
from curator.core.meta import WebMeta
from curator.core.outcomes import (
    Blocked,
    Counter,
    Found,
    Moved,
    NotFound,
    Outcome,
    Unverified,
)
from curator.net.cache import Cache
from curator.resolvers.web import WebResolver
from curator.resolvers.web_fetch import MAX_HOPS
from tests.doubles.server import LoopbackServer
from tests.doubles.web import WebDouble

ALLOW_ONE = LinkRules(allow=("127.0.0.1",))


class FakeDNS:
    """A resolver function: names -> addresses, every call recorded."""

    def __init__(self, table: dict[str, list[str]] | None = None) -> None:
        self.table = table or {}
        self.calls: list[str] = []

    def __call__(self, host: str, port: int) -> list[str]:
        self.calls.append(host)
        if host in self.table:
            return list(self.table[host])
        if host.endswith(".test") or host in {"doi.org", "dl.acm.org"}:
            return ["127.0.0.1"]
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")


@pytest.fixture(scope="module")
def _shared_double() -> Iterator[WebDouble]:
    """One server for the module: starting and stopping one per test costs ~0.5 s each."""
    with LoopbackServer() as server:
        yield WebDouble(server)


@pytest.fixture
def web(_shared_double: WebDouble) -> WebDouble:
    _shared_double.reset()
    return _shared_double


def make(
    tmp_path: Path,
    rules: LinkRules = ALLOW_ONE,
    dns: FakeDNS | None = None,
    **settings: Any,
) -> WebResolver:
    """A resolver with fast test settings and its own cache file."""
    values: dict[str, Any] = {"timeout": 3.0, "web_host_spacing": 0.0, "service_budget": 30.0}
    values.update(settings)
    cache = Cache(tmp_path / "web.sqlite")
    return WebResolver(Options(**values), cache, Counter(), rules, lookup=dns or FakeDNS())


def one(resolver: WebResolver, url: str) -> Outcome:
    """The outcome of a single URL."""
    return resolver.resolve([url])[url]


# -- statuses ----------------------------------------------------------------------------
def test_ok_page_is_found_with_one_head_request(tmp_path: Path, web: WebDouble) -> None:
    resolver = make(tmp_path)
    url = web.url(web.page("/ok"))
    outcome = one(resolver, url)
    assert outcome == Found(url, WebMeta(200, url, ((200, url),)))
    [req] = web.hits("/ok")
    assert req.method == "HEAD"
    assert req.headers["user-agent"].startswith("curator/")
    assert req.headers["user-agent"].endswith("(+link checker)")
    assert "text/html" in req.headers["accept"]
    assert resolver.counter.get("web") == 1


@pytest.mark.parametrize(
    ("status", "kind", "reason"),
    [
        (404, NotFound, "HTTP 404"),
        (410, NotFound, "HTTP 410"),
        (401, NotFound, "HTTP 401"),
        (451, NotFound, "HTTP 451"),
        (500, Unverified, "HTTP 500"),
        (502, Unverified, "HTTP 502"),
        (504, Unverified, "HTTP 504"),
        (408, Unverified, "HTTP 408"),
        (425, Unverified, "HTTP 425"),
        (204, Found, ""),
    ],
)
def test_status_maps_to_outcome(
    tmp_path: Path, web: WebDouble, status: int, kind: type, reason: str
) -> None:
    url = web.url(web.page("/p", status))
    outcome = one(make(tmp_path), url)
    assert isinstance(outcome, kind)
    assert reason in getattr(outcome, "reason", "")


def test_recorded_503_page_is_unverified(tmp_path: Path, web: WebDouble) -> None:
    url = web.url(web.server_error("/down"))
    assert one(make(tmp_path), url) == Unverified(url, "HTTP 503")


@pytest.mark.parametrize(
    ("retry_after", "reason"), [("30", "HTTP 429, Retry-After: 30"), ("", "HTTP 429)")]
)
def test_rate_limit_is_unverified_with_retry_after(
    tmp_path: Path, web: WebDouble, retry_after: str, reason: str
) -> None:
    url = web.url(web.rate_limited("/busy", retry_after))
    outcome = one(make(tmp_path), url)
    assert isinstance(outcome, Unverified)
    assert reason in outcome.reason


def test_forbidden_from_ordinary_host_is_broken(tmp_path: Path, web: WebDouble) -> None:
    url = web.url(web.page("/secret", 403), "plain.test")
    outcome = one(make(tmp_path), url)
    assert isinstance(outcome, NotFound)
    assert outcome.reason == "HTTP 403"


def test_forbidden_from_bot_walled_host_is_unverified(tmp_path: Path, web: WebDouble) -> None:
    url = web.url(web.page("/10.1145/1", 403), "doi.org")
    outcome = one(make(tmp_path, rules=LinkRules(allow=("127.0.0.1",))), url)
    assert isinstance(outcome, Unverified)
    assert "bot wall of doi.org" in outcome.reason
    # HEAD refused with 403, so GET was tried too; both reached the pinned address with
    # the real host name in the Host header.
    hits = web.hits("/10.1145/1")
    assert [r.method for r in hits] == ["HEAD", "GET"]
    assert {r.headers["host"].split(":")[0] for r in hits} == {"doi.org"}


def test_bot_walled_host_reached_by_redirect_counts(tmp_path: Path, web: WebDouble) -> None:
    web.page("/citation", 403)
    url = web.url(web.redirect("/10.1/x", web.url("/citation", "dl.acm.org"), 302), "doi.org")
    outcome = one(make(tmp_path), url)
    assert isinstance(outcome, Unverified)
    assert "dl.acm.org" in outcome.reason


def test_not_found_on_bot_walled_host_is_still_broken(tmp_path: Path, web: WebDouble) -> None:
    url = web.url("/gone", "doi.org")
    assert isinstance(one(make(tmp_path), url), NotFound)


# -- HEAD -> GET -------------------------------------------------------------------------
@pytest.mark.parametrize("head_status", [405, 501, 403, 400])
def test_head_refused_falls_back_to_get(tmp_path: Path, web: WebDouble, head_status: int) -> None:
    resolver = make(tmp_path)
    url = web.url(web.refuse_head("/nohead", head_status))
    outcome = one(resolver, url)
    assert isinstance(outcome, Found)
    assert [r.method for r in web.hits("/nohead")] == ["HEAD", "GET"]
    assert resolver.counter.get("web") == 2


def test_get_after_refused_head_can_still_be_missing(tmp_path: Path, web: WebDouble) -> None:
    url = web.url(web.refuse_head("/nohead", 405, status=404))
    assert isinstance(one(make(tmp_path), url), NotFound)


# -- redirects ---------------------------------------------------------------------------
@pytest.mark.parametrize("status", [301, 308])
def test_permanent_redirect_is_moved_with_target(
    tmp_path: Path, web: WebDouble, status: int
) -> None:
    web.page("/new")
    url = web.url(web.redirect("/old", "/new", status))
    outcome = one(make(tmp_path), url)
    assert isinstance(outcome, Moved)
    assert outcome.new_url == web.url("/new")
    assert outcome.meta.chain == ((status, url), (200, web.url("/new")))


@pytest.mark.parametrize("status", [302, 303, 307])
def test_temporary_redirect_is_followed_silently(
    tmp_path: Path, web: WebDouble, status: int
) -> None:
    web.page("/here")
    url = web.url(web.redirect("/tmp", "/here", status))
    outcome = one(make(tmp_path), url)
    assert isinstance(outcome, Found)
    assert outcome.meta.final_url == web.url("/here")
    assert outcome.meta.chain == ((status, url), (200, web.url("/here")))


def test_moved_target_is_where_permanent_hops_end(tmp_path: Path, web: WebDouble) -> None:
    web.page("/login-wall")
    web.redirect("/b", "/login-wall", 302)
    web.redirect("/a2", "/b", 308)
    url = web.url(web.redirect("/a", "/a2", 301))
    outcome = one(make(tmp_path), url)
    assert isinstance(outcome, Moved)
    assert outcome.new_url == web.url("/b")
    assert [hop[0] for hop in outcome.meta.chain] == [301, 308, 302, 200]


def test_redirect_to_missing_page_is_broken_with_chain(tmp_path: Path, web: WebDouble) -> None:
    url = web.url(web.redirect("/moved", "/nowhere"))
    outcome = one(make(tmp_path), url)
    assert isinstance(outcome, NotFound)
    assert outcome.meta.chain == ((301, url), (404, web.url("/nowhere")))


def test_redirect_across_hosts_is_resolved_and_pinned(tmp_path: Path, web: WebDouble) -> None:
    web.page("/dest")
    url = web.url(web.redirect("/src", web.url("/dest", "b.test")), "a.test")
    dns = FakeDNS()
    outcome = one(make(tmp_path, dns=dns), url)
    assert isinstance(outcome, Moved)
    assert outcome.new_url == web.url("/dest", "b.test")
    assert dns.calls == ["a.test", "b.test"]
    assert web.hits("/dest")[0].headers["host"].startswith("b.test:")


def test_redirect_loop_is_unverified(tmp_path: Path, web: WebDouble) -> None:
    web.redirect("/x", "/y", 302)
    url = web.url(web.redirect("/y", "/x", 302))
    outcome = one(make(tmp_path), url)
    assert isinstance(outcome, Unverified)
    assert "loop" in outcome.reason


def test_too_many_redirects_stop(tmp_path: Path, web: WebDouble) -> None:
    for i in range(MAX_HOPS + 5):
        web.redirect(f"/hop{i}", f"/hop{i + 1}", 302)
    resolver = make(tmp_path)
    outcome = one(resolver, web.url("/hop0"))
    assert isinstance(outcome, Unverified)
    assert "redirects" in outcome.reason
    assert resolver.counter.get("web") == MAX_HOPS + 1


def test_redirect_to_malformed_location_is_broken(tmp_path: Path, web: WebDouble) -> None:
    url = web.url(web.redirect("/bad", "http://[fe80::1/x"))
    outcome = one(make(tmp_path), url)
    assert isinstance(outcome, NotFound)
    assert "malformed Location" in outcome.reason


def test_redirect_without_location_is_unverified(tmp_path: Path, web: WebDouble) -> None:
    url = web.url(web.page("/odd", 301, body=b""))
    assert isinstance(one(make(tmp_path), url), Unverified)


# -- SSRF guard on every hop -------------------------------------------------------------
@pytest.fixture
def second() -> Iterator[LoopbackServer]:
    """Another loopback server, on 127.0.0.2, that only counts what reaches it."""
    with LoopbackServer("127.0.0.2") as server:
        yield server


def test_redirect_to_other_loopback_address_is_blocked(
    tmp_path: Path, web: WebDouble, second: LoopbackServer
) -> None:
    url = web.url(web.redirect("/jump", f"{second.url}/internal"))
    outcome = one(make(tmp_path), url)
    assert isinstance(outcome, Blocked)
    assert "127.0.0.2" in outcome.reason
    assert second.requests == []
    assert len(web.hits("/jump")) == 1


@pytest.mark.parametrize(
    "target",
    [
        "http://localhost:{port}/ok",
        "http://localhost.:{port}/ok",
        "http://127.1:{port}/ok",
        "http://0x7f000001:{port}/ok",
        "http://2130706433:{port}/ok",
        "http://0177.0.0.1:{port}/ok",
        "http://[::1]:{port}/ok",
        "http://[::ffff:127.0.0.1]:{port}/ok",
        "file:///etc/passwd",
        "http://user:pw@127.0.0.1:{port}/ok",
    ],
)
def test_redirect_to_any_refused_spelling_is_blocked(
    tmp_path: Path, web: WebDouble, target: str
) -> None:
    port = web.url("/").rsplit(":", 1)[1].split("/")[0]
    web.page("/ok")
    url = web.url(web.redirect("/jump", target.format(port=port), 302))
    outcome = one(make(tmp_path), url)
    assert isinstance(outcome, Blocked)
    assert web.hits("/ok") == []


def test_redirect_to_a_homograph_is_blocked_before_lookup(tmp_path: Path, web: WebDouble) -> None:
    dns = FakeDNS()
    url = web.url(web.redirect("/repo", "https://xn--gthub-n2e.com/owner/repo", 302))
    outcome = one(make(tmp_path, dns=dns), url)
    assert isinstance(outcome, Blocked)
    assert "imitates github.com" in outcome.reason
    assert "after redirect to https://xn--gthub-n2e.com/owner/repo" in outcome.reason
    assert dns.calls == []


def test_name_resolving_to_a_refused_address_is_never_contacted(
    tmp_path: Path, web: WebDouble, second: LoopbackServer
) -> None:
    port = second.url.rsplit(":", 1)[1]
    # One allowed and one refused address: the whole host is refused, nothing is sent.
    dns = FakeDNS({"rebind.test": ["127.0.0.1", "127.0.0.2"], "inner.test": ["127.0.0.2"]})
    resolver = make(tmp_path, dns=dns)
    urls = [f"http://rebind.test:{port}/a", f"http://inner.test:{port}/b"]
    outcomes = resolver.resolve(urls)
    assert all(isinstance(outcomes[u], Blocked) for u in urls)
    assert "refused address" in outcomes[urls[0]].reason  # type: ignore[union-attr]
    assert second.requests == []
    assert web.server.requests == []
    assert resolver.counter.get("web") == 0


def test_host_is_resolved_once_per_run(tmp_path: Path, web: WebDouble) -> None:
    dns = FakeDNS()
    for i in range(5):
        web.page(f"/p{i}")
    resolver = make(tmp_path, dns=dns)
    resolver.resolve([web.url(f"/p{i}", "once.test") for i in range(5)])
    assert dns.calls == ["once.test"]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:{port}/ok",
        "http://127.1:{port}/ok",
        "http://0x7f000001:{port}/ok",
        "http://2130706433:{port}/ok",
        "http://0177.0.0.1:{port}/ok",
        "http://[::1]:{port}/ok",
        "http://localhost:{port}/ok",
        "http://localhost.:{port}/ok",
        "http://[::ffff:127.0.0.1]:{port}/ok",
    ],
)
def test_loopback_spellings_are_blocked_without_allowance(
    tmp_path: Path, web: WebDouble, url: str
) -> None:
    port = web.url("/").rsplit(":", 1)[1].split("/")[0]
    web.page("/ok")
    resolver = make(tmp_path, rules=LinkRules())
    subject = url.format(port=port)
    assert isinstance(one(resolver, subject), Blocked)
    assert web.server.requests == []
    assert resolver.counter.get("web") == 0


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "data:text/html,hello",
        "file:///etc/passwd",
        "ftp://ftp.example.org/pub",
        "https://user:pass@example.org/",
        "https://xn--gthub-n2e.com/owner/repo",
    ],
)
def test_refused_urls_are_blocked_before_any_lookup(tmp_path: Path, url: str) -> None:
    dns = FakeDNS()
    resolver = make(tmp_path, dns=dns)
    assert isinstance(one(resolver, url), Blocked)
    assert dns.calls == []
    assert resolver.counter.get("web") == 0


def test_allow_private_hosts_reaches_loopback(tmp_path: Path, web: WebDouble) -> None:
    url = web.url(web.page("/ok"), "localhost")
    resolver = make(tmp_path, rules=LinkRules(), allow_private_hosts=True,
                    dns=FakeDNS({"localhost": ["127.0.0.1"]}))  # fmt: skip
    assert isinstance(one(resolver, url), Found)


# -- failures of the network -------------------------------------------------------------
def test_unknown_host_is_broken(tmp_path: Path) -> None:
    url = "https://no-such-host.invalid/page"
    outcome = one(make(tmp_path), url)
    assert isinstance(outcome, NotFound)
    assert "DNS" in outcome.reason


def test_temporary_dns_failure_is_unverified(tmp_path: Path) -> None:
    def flaky(host: str, port: int) -> list[str]:
        raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")

    resolver = WebResolver(Options(), Cache(None), Counter(), ALLOW_ONE, lookup=flaky)
    assert isinstance(one(resolver, "https://example.org/"), Unverified)


def test_tls_failure_is_broken(tmp_path: Path, web: WebDouble) -> None:
    # TLS spoken to a plain-HTTP server fails the handshake.
    url = web.url(web.page("/ok")).replace("http://", "https://")
    outcome = one(make(tmp_path), url)
    assert isinstance(outcome, NotFound)
    assert outcome.reason.startswith("TLS failure")


def test_closed_port_is_unverified(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    outcome = one(make(tmp_path), f"http://127.0.0.1:{port}/")
    assert isinstance(outcome, Unverified)
    assert "connection failed" in outcome.reason


def test_timeout_is_unverified_quickly(tmp_path: Path, web: WebDouble) -> None:
    url = web.url(web.slow("/slow", 3.0))
    started = time.monotonic()
    outcome = one(make(tmp_path, timeout=0.3), url)
    assert isinstance(outcome, Unverified)
    assert "timeout" in outcome.reason
    assert time.monotonic() - started < 2.0


@pytest.mark.slow
def test_budget_bounds_the_whole_run(tmp_path: Path, web: WebDouble) -> None:
    urls = [web.url(web.slow(f"/s{i}", 2.0)) for i in range(6)]
    resolver = make(tmp_path, timeout=10.0, service_budget=0.6, web_per_host=1)
    started = time.monotonic()
    outcomes = resolver.resolve(urls)
    assert time.monotonic() - started < 1.5
    assert all(isinstance(outcomes[u], Unverified) for u in urls)
    assert any("budget" in outcomes[u].reason for u in urls)  # type: ignore[union-attr]


# -- limits ------------------------------------------------------------------------------
@pytest.mark.slow
def test_per_host_concurrency_is_honoured(tmp_path: Path, web: WebDouble) -> None:
    urls = [web.url(web.slow(f"/c{i}", 0.25), "busy.test") for i in range(6)]
    resolver = make(tmp_path, web_per_host=2, web_concurrency=8)
    outcomes = resolver.resolve(urls)
    assert all(isinstance(o, Found) for o in outcomes.values())
    assert web.max_busy["busy.test"] == 2


@pytest.mark.slow
def test_global_concurrency_is_honoured(tmp_path: Path, web: WebDouble) -> None:
    urls = [web.url(web.slow(f"/{h}{i}", 0.25), f"{h}.test") for h in "abc" for i in range(3)]
    resolver = make(tmp_path, web_per_host=3, web_concurrency=4)
    resolver.resolve(urls)
    assert web.max_busy_all == 4
    assert max(web.max_busy.values()) <= 3


@pytest.mark.slow
def test_requests_to_one_host_are_spaced(tmp_path: Path, web: WebDouble) -> None:
    urls = [web.url(web.page(f"/q{i}"), "spaced.test") for i in range(4)]
    resolver = make(tmp_path, web_per_host=4, web_host_spacing=0.15)
    resolver.resolve(urls)
    times = sorted(r.at for r in web.server.requests)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert len(times) == 4
    assert min(gaps) >= 0.12


# -- cache, offline, ignore --------------------------------------------------------------
def test_found_and_moved_are_cached(tmp_path: Path, web: WebDouble) -> None:
    web.page("/new")
    urls = [web.url(web.page("/ok")), web.url(web.redirect("/old", "/new"))]
    first = make(tmp_path).resolve(urls)
    again = make(tmp_path)
    second = again.resolve(urls)
    assert second == first
    assert again.counter.get("web") == 0
    assert again.counter.get("cache_hits") == 2


def test_errors_unverified_and_blocked_are_never_cached(tmp_path: Path, web: WebDouble) -> None:
    """Only the 404 is stored (as "not found", fresh for ttl_not_found); nothing else."""
    urls = [
        web.url(web.page("/missing", 404)),
        web.url(web.server_error("/down")),
        web.url(web.rate_limited("/busy", "5")),
        "http://localhost/",
        "javascript:alert(1)",
    ]
    resolver = make(tmp_path)
    outcomes = resolver.resolve(urls)
    assert [type(outcomes[u]) for u in urls] == [NotFound, Unverified, Unverified, Blocked, Blocked]
    stored = resolver.cache.get_many("web", urls)
    assert list(stored) == [urls[0]] and stored[urls[0]].value["outcome"] == "not_found"
    again = make(tmp_path)
    again.resolve(urls[:3])
    assert again.counter.get("web") == 2
    assert again.counter.get("cache_hits") == 1


def test_stale_cache_is_refreshed(tmp_path: Path, web: WebDouble) -> None:
    url = web.url(web.page("/ok"))
    make(tmp_path).resolve([url])
    again = make(tmp_path, ttl_web=0.0)
    again.resolve([url])
    assert again.counter.get("web") == 1


def test_offline_uses_cache_only(tmp_path: Path, web: WebDouble) -> None:
    known = web.url(web.page("/ok"))
    make(tmp_path).resolve([known])
    resolver = make(tmp_path, offline=True, ttl_web=0.0)
    unknown = web.url("/other")
    outcomes = resolver.resolve([known, unknown])
    assert isinstance(outcomes[known], Found)
    assert outcomes[unknown] == Unverified(unknown, "offline, and not in the cache")
    assert resolver.counter.get("web") == 0


def test_answers_cached_under_allow_private_are_not_reused_without_it(
    tmp_path: Path, web: WebDouble
) -> None:
    url = web.url(web.page("/ok"), "intranet.test")
    make(tmp_path, rules=LinkRules(), allow_private_hosts=True).resolve([url])
    strict = make(tmp_path, rules=LinkRules())
    assert isinstance(one(strict, url), Blocked)
    assert strict.counter.get("cache_hits") == 0


def test_ignored_links_are_not_requested(tmp_path: Path, web: WebDouble) -> None:
    url = web.url(web.page("/ok"))
    rules = LinkRules(allow=("127.0.0.1",), ignore_prefixes=(web.url("/"),))
    resolver = make(tmp_path, rules=rules)
    assert not resolver.handles(url)
    assert one(resolver, url) == Found(url, {"ignored": True})
    assert web.server.requests == []


def test_handles_urls_but_not_arxiv_or_github(tmp_path: Path) -> None:
    resolver = make(tmp_path)
    assert resolver.handles("https://example.org/")
    assert resolver.handles("javascript:alert(1)")
    assert not resolver.handles("arxiv:2305.10250")
    assert not resolver.handles("github:owner/repo")


def test_every_subject_gets_an_outcome(tmp_path: Path, web: WebDouble) -> None:
    urls = [web.url(web.page("/ok")), web.url("/ok"), "mailto:a@b.c", web.url("/404")]
    outcomes = make(tmp_path).resolve(urls)
    assert set(outcomes) == set(urls)


def test_resolve_works_inside_a_running_event_loop(tmp_path: Path, web: WebDouble) -> None:
    import asyncio

    url = web.url(web.page("/ok"))
    resolver = make(tmp_path)

    async def inside() -> Outcome:
        return one(resolver, url)

    assert isinstance(asyncio.run(inside()), Found)


# -- pinning (pure) ----------------------------------------------------------------------
def test_pinned_https_request_keeps_host_and_sni() -> None:
    import httpx

    from curator.resolvers.web_fetch import pinned_request

    request = pinned_request("HEAD", httpx.URL("https://bücher.example/a?b=1"), "93.184.216.34")
    assert request.url == httpx.URL("https://93.184.216.34/a?b=1")
    assert request.headers["host"] == "xn--bcher-kva.example"
    assert request.extensions["sni_hostname"] == "xn--bcher-kva.example"


def test_pinned_http_request_to_ipv6_keeps_port() -> None:
    import httpx

    from curator.resolvers.web_fetch import pinned_request

    request = pinned_request("GET", httpx.URL("http://a.test:8080/x"), "2606:4700::1111")
    assert request.url.host == "2606:4700::1111"
    assert request.url.port == 8080
    assert request.headers["host"] == "a.test:8080"
    assert "sni_hostname" not in request.extensions


def test_a_refused_connection_is_no_request_sent(tmp_path: Path) -> None:
    """Nothing listens: the link is unverified and the report counts what reached a host."""
    with LoopbackServer() as closed:
        url = closed.url + "/page"
    resolver = make(tmp_path)
    assert isinstance(one(resolver, url), Unverified)
    assert resolver.counter.get("web") == 0
