"""The cache-first template every service's resolver follows, written once.

`resolve` admits the subjects (one the service cannot be asked about gets its outcome at
once), takes fresh answers from the cache (any age offline; a miss offline is `unverified`),
asks the service about the rest with `fetch`, then lets the resolver `finish`. A resolver
gives its service, cache name and time-to-live, and three hooks: `decode` (a cache entry to an
outcome), `encode` (an outcome to a cache value; None for one never kept: an outage is never
cached) and `fetch`, which calls `store` as soon as it knows an answer (a batch, a page), so a
later failure loses nothing already learned.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from curator.config.links import LinkRules
from curator.config.options import Options
from curator.core.model import Service
from curator.core.outcomes import Counter, NotFound, Outcome
from curator.net.cache import OFFLINE_MISS, Cache, CacheItem


class CachedResolver(ABC):
    """One service's resolver: cache first, then the service (see the module docstring)."""

    service: ClassVar[Service]
    #: The cache's name for this service's answers.
    cache_name: ClassVar[str]
    #: What an offline run says of a subject the cache does not hold.
    offline_reason: ClassVar[str] = OFFLINE_MISS

    def __init__(self, options: Options, cache: Cache, counter: Counter) -> None:
        self.options = options
        self.cache = cache
        self.counter = counter
        #: Run-level remarks for the report (a missing token, a slow path).
        self.notes: list[str] = []
        #: The service's time budget ran out before every subject was asked.
        self.spent = False

    @classmethod
    def build(
        cls, options: Options, cache: Cache, counter: Counter, links: LinkRules | None
    ) -> CachedResolver:
        """The resolver of one run; `links` are the run's link rules (None when the web is
        skipped), the only rules a resolver reads."""
        return cls(options, cache, counter)

    @property
    @abstractmethod
    def ttl(self) -> float:
        """Seconds a stored answer stays fresh (a stored "not found": options.ttl_not_found)."""

    @abstractmethod
    def handles(self, subject: str) -> bool:
        """True for subjects this resolver verifies."""

    @abstractmethod
    def decode(self, subject: str, item: CacheItem) -> Outcome | None:
        """The outcome a cache entry holds; None for an entry to ask again."""

    @abstractmethod
    def encode(self, outcome: Outcome) -> dict[str, Any] | None:
        """The cache value of an outcome; None for one never kept."""

    @abstractmethod
    def fetch(self, subjects: list[str], stored: Mapping[str, CacheItem]) -> dict[str, Outcome]:
        """Ask the service about `subjects` (stale cache entries in `stored`); store answers."""

    def admit(self, subjects: list[str]) -> tuple[dict[str, Outcome], list[str]]:
        """Outcomes decided without asking, and the subjects to look up (default: all)."""
        return {}, subjects

    def finish(self, subjects: list[str], out: dict[str, Outcome]) -> dict[str, Outcome]:
        """The run's outcomes as returned (default: unchanged)."""
        return out

    def resolve(self, subjects: Sequence[str]) -> dict[str, Outcome]:
        """An outcome for every subject: admitted, cached, or asked."""
        wanted = list(dict.fromkeys(subjects))
        out, ask = self.admit(wanted)
        split = self.cache.split(
            self.cache_name,
            ask,
            ttl=self.ttl,
            offline=self.options.offline,
            decode=self.decode,
            counter=self.counter,
            offline_reason=self.offline_reason,
            ttl_not_found=self.options.ttl_not_found,
        )
        out.update(split.hits)
        out.update(split.offline)
        if split.ask:
            out.update(self.fetch(split.ask, split.stored))
        return self.finish(wanted, out)

    def store(self, outcomes: Mapping[str, Outcome], etag: str = "") -> None:
        """Keep the real answers among `outcomes` (see `encode`); `etag` goes with what was
        found, never with a "not found", which is asked again in full."""
        rows = [
            (subject, value, "" if isinstance(outcome, NotFound) else etag)
            for subject, outcome in outcomes.items()
            if (value := self.encode(outcome)) is not None
        ]
        self.cache.put_many(self.cache_name, rows)
