"""Web links: HEAD (GET when refused) every other URL, following redirects hop by hop.

Each hop passes the SSRF guard twice: the URL text (`guard.check_url`), then every address
its host resolves to. The host is resolved once and the request goes to that checked
address (pinned), with the real Host header and TLS server name, so DNS rebinding cannot
swap the target in between. Requests share a global limit, a per-host limit and per-host
spacing; each request has one deadline for the whole exchange, and the whole service a time
budget. Found and Moved answers are cached, a failure of DNS or TLS never. This module holds
the resolver and its cache; the hop-by-hop fetching is in web_fetch.py, and what the answers
mean is decided in web_outcome.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from curator.config.links import LinkRules
from curator.config.options import Options
from curator.core.meta import WebMeta, meta_json
from curator.core.model import Service
from curator.core.outcomes import Blocked, Counter, Found, Moved, NotFound, Outcome, Unverified
from curator.net.cache import Cache, CacheItem, not_found_from, not_found_value
from curator.net.guard import check_url
from curator.net.http import Budget
from curator.resolvers.base import CachedResolver
from curator.resolvers.web_fetch import Lookup, WebRun, system_lookup


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
        cls, options: Options, cache: Cache, counter: Counter, links: LinkRules | None
    ) -> CachedResolver:
        """The web resolver reads rules/links.yaml (bot walls, ignores, protected domains);
        it is built only when the web is checked, so the rules were read."""
        assert links is not None, "the web resolver is built only when links.yaml was read"
        return cls(options, cache, counter, links)

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
            run = WebRun(self, transport, budget)
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
