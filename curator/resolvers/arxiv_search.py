"""arXiv `search_query`: one query, paged in slices, under the arXiv resolver's HTTP policy.

`ArxivSearch` is the arXiv resolver applied to a search instead of an ID list: the same
paced connection (the spacing kept across runs through the cache stamp), the same strict
feed gate, tenacity retries inside the service budget, and the resolver's metadata dicts.
Paging is curator's own: one request per slice, `start` advancing by the slice size.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from curator.resolvers.arxiv import (
    SERVICE,
    ArxivResolver,
    Rejected,
    Transport,
    Unreadable,
    query_url,
)
from curator.resolvers.arxiv_atom import Feed
from curator.resolvers.http import Budget, GiveUp, RetryableError

#: arXiv's largest slice per request (its API manual: at most 2,000 results per call).
MAX_SLICE = 2000
#: The most results arXiv serves for one query (its API manual: 30,000 in all).
MAX_RESULTS = 30_000
#: Oldest submission first, so a window's slices never shift while it is paged.
ORDER = ("submittedDate", "ascending")


@dataclass(frozen=True)
class Searched:
    """Every paper the query matched (resolver metadata, one per base ID) and arXiv's total."""

    papers: tuple[Mapping[str, Any], ...]
    total: int
    incomplete: int = 0  # entries arXiv sent without <id>, <updated> or <published>


@dataclass(frozen=True)
class SearchFailed:
    """The query could not be answered (outage, refusal, too many results): nothing may be
    concluded or cached."""

    reason: str
    #: arXiv answered, but the query matches more papers than asked for: not an outage.
    vague: bool = False


class _TooMany(Exception):
    """The query matches more papers than arXiv serves for one query."""

    def __init__(self, total: int) -> None:
        super().__init__(total)
        self.total = total


@dataclass(frozen=True)
class Session:
    """One paced connection to arXiv and the one service budget its queries share."""

    transport: Transport
    budget: Budget


class ArxivSearch(ArxivResolver):
    """Runs `search_query` queries; the resolver's pacing, retries and budget apply."""

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One connection and one budget (options.service_budget) for several queries: a
        run's queries together take no longer than the service's budget."""
        budget = Budget(self.options.service_budget)
        with self._connection(budget) as transport:
            yield Session(transport, budget)

    def search(
        self, query: str, size: int = MAX_SLICE, most: int = MAX_RESULTS
    ) -> Searched | SearchFailed:
        """Every result of `query`, oldest submission first, in slices of `size` (≤ 2,000);
        SearchFailed when arXiv counts more than `most` results (at most what it serves)."""
        with self.session() as session:
            return self.search_in(session, query, size, most)

    def search_in(
        self, session: Session, query: str, size: int = MAX_SLICE, most: int = MAX_RESULTS
    ) -> Searched | SearchFailed:
        """`search`, over a session that other queries share (and its budget)."""
        size = max(1, min(size, MAX_SLICE))
        most = min(most, MAX_RESULTS)
        try:
            return self._pages(session.transport, query, size, session.budget, most)
        except (RetryableError, GiveUp, Unreadable) as exc:
            return SearchFailed(f"arXiv unavailable: {exc}")
        except Rejected as exc:
            return SearchFailed(f"arXiv refused the query: {exc.message}")
        except _TooMany as exc:
            if most < MAX_RESULTS:
                return SearchFailed(
                    f"the query matches {exc.total} papers, more than the {most:,} asked for",
                    vague=True,
                )
            return SearchFailed(
                f"the query matches {exc.total} papers, more than the {MAX_RESULTS:,} arXiv "
                "serves for one query: ask for a shorter window",
                vague=True,
            )

    def _pages(
        self, transport: Transport, query: str, size: int, budget: Budget, most: int
    ) -> Searched:
        """Ask page after page until arXiv's total is reached (or a page comes back empty)."""
        found: dict[str, Mapping[str, Any]] = {}
        start, incomplete = 0, 0
        while True:
            feed = self._page(transport, query, start, size, budget)
            if feed.total > most:
                raise _TooMany(feed.total)
            incomplete += max(0, len(feed.listed) - len(feed.papers))
            for paper in feed.papers:
                found[paper.id] = paper.metadata()
            start += size
            if not feed.listed or start >= feed.total:
                return Searched(tuple(found.values()), feed.total, incomplete)

    def _page(
        self, transport: Transport, query: str, start: int, size: int, budget: Budget
    ) -> Feed:
        """One slice of the results (one request, plus retries)."""
        url = query_url(
            self.options.arxiv_api_url,
            search_query=query,
            start=start,
            max_results=size,
            sort=ORDER,
        )
        return self._get(transport, url, budget)


__all__ = ["MAX_SLICE", "SERVICE", "ArxivSearch", "SearchFailed", "Searched", "Session"]
