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

from curator.net.http import Budget, GiveUp, RetryableError, arxiv_policy, call_with_retries
from curator.resolvers.arxiv import (
    SERVICE,
    ArxivResolver,
    Rejected,
    Transport,
    Unreadable,
    query_url,
)
from curator.resolvers.arxiv_atom import Feed

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

    @property
    def empty(self) -> bool:
        """arXiv listed nothing at all. It cannot tell "no paper matches" from its known
        transient glitch (a well-formed feed, totalResults 0, no entry): the caller decides
        whether nothing is plausible for what it asked."""
        return not self.papers and not self.incomplete


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
        """Ask page after page until the total of arXiv's first answer is reached."""
        found: dict[str, Mapping[str, Any]] = {}
        start, incomplete, total = 0, 0, 0
        while True:
            feed = self._page(transport, query, start, size, budget, total)
            if start == 0:
                total = feed.total
            if feed.total > most:
                raise _TooMany(feed.total)
            incomplete += max(0, len(feed.listed) - len(feed.papers))
            for paper in feed.papers:
                found[paper.id] = paper.metadata()
            start += size
            if not feed.listed or start >= total:
                return Searched(tuple(found.values()), total, incomplete)

    def _page(
        self, transport: Transport, query: str, start: int, size: int, budget: Budget, total: int
    ) -> Feed:
        """One slice of the results (one request, plus retries). A slice arXiv sends empty
        although its first answer counted `total` results past `start` is its transient
        glitch, not the end of the results: asked again like an outage, never taken as the
        end (that would keep a window's first slices as all of it)."""
        url = query_url(
            self.options.arxiv_api_url,
            search_query=query,
            start=start,
            max_results=size,
            sort=ORDER,
        )

        def ask() -> Feed:
            feed = transport.get(url)
            if start and not feed.listed and start < total:
                raise RetryableError(f"arXiv sent no result from {start} of the {total} it counted")
            return feed

        return call_with_retries(ask, budget, arxiv_policy(self.options), sleep=self.sleep)


__all__ = ["MAX_SLICE", "SERVICE", "ArxivSearch", "SearchFailed", "Searched", "Session"]
