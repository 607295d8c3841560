"""A whole new service in one file: its name, its resolver and its check (see test_add_a_service).

The "service" is a software-heritage-like archive that knows some `archive:` identifiers; the
resolver follows the cache-first template (curator.resolvers.base) and counts its requests
under its own name, which the report then carries beside CONTRACT.md's counters.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from curator.config.context import CheckContext
from curator.core.model import Entry, Finding
from curator.core.outcomes import Found, NotFound, Outcome
from curator.net.cache import CacheItem
from curator.resolvers.base import CachedResolver


class Extra(StrEnum):
    """The new service's name (a real one is a member of curator.core.model.Service)."""

    ARCHIVE = "archive"


#: What the archive holds: identifier -> metadata.
HELD = {"archive:swh-1": {"origin": "https://example.org/one"}}


class ArchiveResolver(CachedResolver):
    """Asks the archive about `archive:` subjects, one request each."""

    service = Extra.ARCHIVE
    cache_name = "archive"

    @property
    def ttl(self) -> float:
        """A day, like the web's answers."""
        return 86400.0

    def handles(self, subject: str) -> bool:
        """`archive:` subjects."""
        return subject.startswith("archive:")

    def decode(self, subject: str, item: CacheItem) -> Outcome | None:
        """A stored answer."""
        if item.value.get("missing"):
            return NotFound(subject, "the archive has no such origin")
        return Found(subject, item.value)

    def encode(self, outcome: Outcome) -> dict[str, Any] | None:
        """Found and not-found answers are kept."""
        if isinstance(outcome, Found):
            return dict(outcome.meta)
        return {"missing": True} if isinstance(outcome, NotFound) else None

    def fetch(self, subjects: list[str], stored: Mapping[str, CacheItem]) -> dict[str, Outcome]:
        """One request per subject, stored as soon as answered."""
        out: dict[str, Outcome] = {}
        for subject in subjects:
            self.counter.add("archive")
            meta = HELD.get(subject)
            out[subject] = (
                Found(subject, meta)
                if meta
                else NotFound(subject, "the archive has no such origin")
            )
        self.store(out)
        return out


def check_archive(
    entry: Entry, outcomes: Mapping[str, Outcome], ctx: CheckContext
) -> list[Finding]:
    """`link-broken` for an archive identifier the archive does not hold."""
    found = []
    for subject in entry.subjects():
        outcome = outcomes.get(subject)
        if subject.startswith("archive:") and isinstance(outcome, NotFound):
            found.append(ctx.finding("link-broken", subject, entry.source, outcome.reason))
    return found
