"""Web links: HEAD (GET when refused) every other URL, following redirects hop by hop.

Each hop passes the SSRF guard twice: the URL text (`guard.check_url`), then every address
its host resolves to. The host is resolved once and the request goes to that checked
address (pinned), with the real Host header and TLS server name, so DNS rebinding cannot
swap the target in between. Requests share a global limit, a per-host limit and per-host
spacing; each request has one deadline for the whole exchange, and the whole service a time
budget. Found and Moved answers are cached, a failure of DNS or TLS never. What the answers
mean is decided in web_outcome.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from typing import Any
from urllib.parse import urldefrag, urljoin

import httpx

from curator.config.links import LinkRules
from curator.config.options import Options
from curator.core.meta import WebMeta, meta_json
from curator.core.model import Service
from curator.core.outcomes import (
    Blocked,
    Counter,
    Found,
    Moved,
    NotFound,
    Outcome,
    Unverified,
)
from curator.net.cache import Cache, CacheItem, not_found_from, not_found_value
from curator.net.guard import address_reason, check_url, parse_host_address
from curator.net.http import Budget, parse_retry_after
from curator.resolvers.base import CachedResolver
from curator.resolvers.web_outcome import Answer, Failure, Hop, final_outcome, tls_failure

#: (host, port) -> addresses, as socket.getaddrinfo would give; tests pass their own.
Lookup = Callable[[str, int], list[str]]

MAX_HOPS = 10
REDIRECTS = frozenset({301, 302, 303, 307, 308})
#: Answers to HEAD that often mean "this server does not do HEAD": ask again with GET.
HEAD_REFUSED = frozenset({400, 403, 405, 406, 501})
ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
# getaddrinfo errors that mean the name does not exist (others are temporary).
_NO_SUCH_NAME = {socket.EAI_NONAME, getattr(socket, "EAI_NODATA", socket.EAI_NONAME)}


def user_agent() -> str:
    """The honest User-Agent: curator/<version> (+link checker)."""
    try:
        version = metadata.version("curator")
    except metadata.PackageNotFoundError:
        version = "0"
    return f"curator/{version} (+link checker)"


def system_lookup(host: str, port: int) -> list[str]:
    """The addresses of `host` from the system resolver, IPv4 first (CI often lacks IPv6)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addresses = dict.fromkeys(str(info[4][0]).split("%", 1)[0] for info in infos)
    return sorted(addresses, key=lambda a: ":" in a)


class WebResolver(CachedResolver):
    """Checks every http(s) link subject; an outcome for each, Blocked for refused ones."""

    service = Service.WEB
    cache_name = Service.WEB.value
    offline_reason = "offline, and not in the cache"

    def __init__(
        self,
        options: Options,
        cache: Cache,
        counter: Counter,
        rules: LinkRules,
        *,
        lookup: Lookup = system_lookup,
    ) -> None:
        super().__init__(options, cache, counter)
        self.rules = rules
        self.lookup = lookup

    @classmethod
    def build(
        cls, options: Options, cache: Cache, counter: Counter, rules: Mapping[str, Any]
    ) -> CachedResolver:
        """The web resolver reads rules/links.yaml (bot walls, ignores, protected domains)."""
        return cls(options, cache, counter, rules["links"])

    @property
    def ttl(self) -> float:
        """A link's answer stays fresh for options.ttl_web."""
        return self.options.ttl_web

    def handles(self, subject: str) -> bool:
        """True for URL subjects that are not ignored (not arxiv: or github: ones)."""
        if subject.startswith(("arxiv:", "github:")):
            return False
        return not self.rules.ignores(subject)

    def guard(self, url: str) -> str | None:
        """Why the URL's text alone forbids fetching it, under these options and rules."""
        return check_url(
            url,
            self.options.allow_private_hosts,
            allowed_hosts=self.rules.allowed_hosts,
            allowed_addresses=self.rules.allowed_addresses,
            protected=self.rules.protected,
        )

    def admit(self, subjects: list[str]) -> tuple[dict[str, Outcome], list[str]]:
        """Ignored links are found as they are; links the guard refuses are Blocked."""
        out: dict[str, Outcome] = {}
        allowed: list[str] = []
        for subject in subjects:
            reason = self.guard(subject)
            if self.rules.ignores(subject):
                out[subject] = Found(subject, {"ignored": True})
            elif reason:
                out[subject] = Blocked(subject, reason)
            else:
                allowed.append(subject)
        return out, allowed

    def fetch(self, subjects: list[str], stored: Mapping[str, CacheItem]) -> dict[str, Outcome]:
        """Check the links over the network, then keep what they answered."""
        fetched = self._run(subjects)
        self.store(fetched)
        return fetched

    # -- cache ----------------------------------------------------------------------------
    def decode(self, subject: str, item: CacheItem) -> Outcome | None:
        """The stored outcome, unless it was stored while private hosts were allowed."""
        value = item.value
        if value.get("private") and not self.options.allow_private_hosts:
            return None
        missing = not_found_from(subject, item)
        if missing is not None:
            return missing
        stored = value.get("meta")
        meta = WebMeta.from_cache(stored if isinstance(stored, dict) else {})
        if value.get("outcome") == "moved" and value.get("new_url"):
            return Moved(subject, str(value["new_url"]), meta)
        if value.get("outcome") == "found":
            return Found(subject, meta)
        return None

    def encode(self, outcome: Outcome) -> dict[str, Any] | None:
        """Found and Moved answers, a server's NotFound (briefly), and never a failure of the
        transport (DNS, TLS): errors must not outlive an outage."""
        private = self.options.allow_private_hosts
        if isinstance(outcome, Found):
            return {"outcome": "found", "meta": meta_json(outcome.meta), "private": private}
        if isinstance(outcome, Moved):
            return {"outcome": "moved", "new_url": outcome.new_url,
                    "meta": meta_json(outcome.meta), "private": private}  # fmt: skip
        if isinstance(outcome, NotFound) and not outcome.transport:
            return {**not_found_value(outcome), "private": private}
        return None

    # -- network --------------------------------------------------------------------------
    def _run(self, subjects: list[str]) -> dict[str, Outcome]:
        """Run the async checks to completion, in a worker thread if a loop is running."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self._check_all(subjects))
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(lambda: asyncio.run(self._check_all(subjects))).result()

    async def _check_all(self, subjects: list[str]) -> dict[str, Outcome]:
        """Check every subject concurrently within the service budget."""
        budget = Budget(self.options.service_budget)
        # The transport, not a client: no proxy from the environment, no cookies, and no
        # redirect handling of its own (a client parses Location before the guard sees it).
        # No keep-alive: connections go to pinned addresses, and a pooled TLS connection
        # to one IP must never carry a request for another host name.
        limits = httpx.Limits(max_keepalive_connections=0)
        async with httpx.AsyncHTTPTransport(limits=limits, retries=0) as transport:
            run = _Run(self, transport, budget)
            tasks = {asyncio.create_task(run.counted(s)): s for s in subjects}
            done, pending = await asyncio.wait(tasks, timeout=max(0.0, run.remaining()))
            self.spent = bool(pending)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        spent = f"time budget of {self.options.service_budget:g}s exhausted"
        return {
            subject: task.result() if task in done else Unverified(subject, spent)
            for task, subject in tasks.items()
        }


class _Run:
    """The state of one batch of checks: transport, limits, resolved hosts, budget."""

    def __init__(
        self, owner: WebResolver, transport: httpx.AsyncHTTPTransport, budget: Budget
    ) -> None:
        self.owner = owner
        self.options = owner.options
        self.transport = transport
        self.budget = budget
        self.all_hosts = asyncio.Semaphore(max(1, self.options.web_concurrency))
        self.per_host: dict[str, asyncio.Semaphore] = {}
        self.next_start: dict[str, float] = {}
        self.resolved: dict[tuple[str, int], list[str] | Failure] = {}
        self.lookup_locks: dict[tuple[str, int], asyncio.Lock] = {}

    def remaining(self) -> float:
        """Seconds left in the service budget."""
        return self.budget.remaining()

    async def counted(self, subject: str) -> Outcome:
        """`check`, ticking the subject off the progress display when it is settled."""
        try:
            return await self.check(subject)
        finally:
            self.owner.counter.finished(Service.WEB.value)

    async def check(self, subject: str) -> Outcome:
        """Follow `subject` hop by hop to its outcome, guarding every hop."""
        chain: list[Hop] = []
        url, seen = subject, {subject}
        while True:
            reason = self.owner.guard(url)
            if reason:
                return Failure("blocked", reason).outcome(subject, chain, url)
            answer = await self.fetch(url)
            if isinstance(answer, Failure):
                return answer.outcome(subject, chain, url)
            chain.append(Hop(answer.status, url))
            if answer.status not in REDIRECTS:
                return final_outcome(subject, chain, self.owner.rules, answer.retry_after)
            if not answer.location:
                return Unverified(subject, f"HTTP {answer.status} redirect without a Location")
            if len(chain) > MAX_HOPS:
                return Unverified(subject, f"more than {MAX_HOPS} redirects")
            try:
                url = urldefrag(urljoin(url, answer.location)).url
            except ValueError:
                return NotFound(subject, f"HTTP {answer.status} to a malformed Location")
            if url in seen:
                return Unverified(subject, f"redirect loop at {url}")
            seen.add(url)

    async def fetch(self, url: str) -> Answer | Failure:
        """One hop: resolve and check the host, then HEAD (or GET) a checked address."""
        try:
            target = httpx.URL(url)
            host = target.raw_host.decode("ascii").lower()
        except (httpx.InvalidURL, UnicodeError) as exc:
            return Failure("broken", f"invalid URL: {exc}")
        port = target.port or (443 if target.scheme == "https" else 80)
        addresses = await self.addresses(host, port)
        if isinstance(addresses, Failure):
            return addresses
        last = ""
        for address in addresses:
            try:
                return await self.head_then_get(target, host, address)
            except httpx.ConnectError as exc:
                if tls_failure(exc):
                    return Failure("unreachable", f"TLS failure: {exc}")
                last = str(exc) or type(exc).__name__
            except (httpx.TimeoutException, TimeoutError):
                return Failure(
                    "unverified", f"timeout: no whole answer within {self.options.timeout:g}s"
                )
            except httpx.HTTPError as exc:
                return Failure("unverified", f"network error: {exc or type(exc).__name__}")
        return Failure("unverified", f"connection failed: {last}")

    async def addresses(self, host: str, port: int) -> list[str] | Failure:
        """The host's addresses, resolved once per run and all checked by the guard."""
        key = (host, port)
        async with self.lookup_locks.setdefault(key, asyncio.Lock()):
            if key not in self.resolved:
                self.resolved[key] = await self._lookup_checked(host, port)
        return self.resolved[key]

    async def _lookup_checked(self, host: str, port: int) -> list[str] | Failure:
        """Resolve `host` and refuse it when any address is not allowed."""
        spelled = parse_host_address(host)
        if spelled is not None and not isinstance(spelled, str):
            addresses = [str(spelled)]
        else:
            found = await self._lookup(host, port)
            if isinstance(found, Failure):
                return found
            addresses = found
        rules = self.owner.rules
        # An allowed host may resolve to private addresses, never to a metadata service.
        open_host = (
            host.removesuffix(".") in rules.allowed_hosts or self.options.allow_private_hosts
        )
        for address in addresses:
            why = address_reason(address, open_host, rules.allowed_addresses)
            if why:
                return Failure("blocked", f"{host} resolves to a refused address: {why}")
        return addresses

    async def _lookup(self, host: str, port: int) -> list[str] | Failure:
        """Ask the resolver function in a thread, within the timeout."""
        try:
            async with asyncio.timeout(self.options.timeout):
                found = await asyncio.to_thread(self.owner.lookup, host, port)
        except socket.gaierror as exc:
            if exc.errno in _NO_SUCH_NAME:
                return Failure("unreachable", f"DNS: no such host {host}")
            return Failure("unverified", f"DNS lookup of {host} failed: {exc.strerror or exc}")
        except TimeoutError:
            return Failure("unverified", f"DNS lookup of {host} timed out")
        except UnicodeError:
            # The idna codec refuses an empty label or one over 63 characters before any query.
            return Failure("broken", f"DNS: {host} is not a valid host name")
        except OSError as exc:
            return Failure("unverified", f"DNS lookup of {host} failed: {exc}")
        if not found:
            return Failure("unreachable", f"DNS: no address for {host}")
        return list(found)

    async def head_then_get(self, target: httpx.URL, host: str, address: str) -> Answer:
        """HEAD; when the server refuses HEAD, GET (headers only, body never read)."""
        answer = await self.send("HEAD", target, host, address)
        if answer.status in HEAD_REFUSED:
            answer = await self.send("GET", target, host, address)
        return answer

    async def send(self, method: str, target: httpx.URL, host: str, address: str) -> Answer:
        """One request to the pinned address with the real Host header and TLS name.

        httpx's timeout bounds each read; `asyncio.timeout` bounds the whole exchange
        (connect, headers, closing), so a server dripping a byte a second cannot hold a
        slot for longer than `timeout` and starve the other links.
        """
        async with self.slot(host):
            seconds = max(0.001, min(self.options.timeout, self.remaining()))
            request = pinned_request(method, target, address, seconds)
            reached = True
            try:
                async with asyncio.timeout(seconds):
                    response = await self.transport.handle_async_request(request)
                    self.owner.counter.heard(f"web:{host}")
                    await response.aclose()
            except (httpx.ConnectError, httpx.ConnectTimeout):
                reached = False  # nothing reached the host: no request to count
                raise
            finally:
                if reached:
                    self.owner.counter.add("web")
        return Answer(
            response.status_code,
            response.headers.get("location", ""),
            parse_retry_after(response.headers.get("retry-after")),
        )

    @contextlib.asynccontextmanager
    async def slot(self, host: str) -> AsyncIterator[None]:
        """Hold a per-host and a global slot, starting no sooner than the host's spacing."""
        limit = max(1, self.options.web_per_host)
        async with self.per_host.setdefault(host, asyncio.Semaphore(limit)):
            now = time.monotonic()
            start = max(now, self.next_start.get(host, now))
            self.next_start[host] = start + self.options.web_host_spacing
            if start > now:
                await asyncio.sleep(start - now)
            async with self.all_hosts:
                yield


def pinned_request(
    method: str, target: httpx.URL, address: str, timeout: float = 20.0
) -> httpx.Request:
    """A request for `target` sent to `address`, with Host and TLS SNI of the real host."""
    host = target.raw_host.decode("ascii")
    shown = f"[{host}]" if ":" in host else host
    host_header = shown if target.port is None else f"{shown}:{target.port}"
    extensions: dict[str, Any] = {"timeout": httpx.Timeout(timeout).as_dict()}
    if target.scheme == "https":
        extensions["sni_hostname"] = host
    return httpx.Request(
        method,
        target.copy_with(host=address),
        headers={
            "Host": host_header,
            "User-Agent": user_agent(),
            "Accept": ACCEPT,
            "Accept-Language": "en;q=0.9, *;q=0.5",
        },
        extensions=extensions,
    )
