"""arXiv `search_query`: one query, paged in slices, under the arXiv resolver's HTTP policy.

`ArxivSearch` is the arXiv resolver applied to a search instead of an ID list: the same
paced connection (the spacing kept across runs through the cache stamp), the same strict
feed gate, tenacity retries inside the service budget, and the resolver's metadata dicts.
Paging goes through `arxiv.Client.results(search, offset=…)`, one page per request.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from curator.resolvers.arxiv import (
    SERVICE,
    ArxivResolver,
    _Rejected,
    _Transport,
    _Unreadable,
    _Unusable,
)
from curator.resolvers.arxiv_atom import feed_total, metadata
from curator.resolvers.http import Budget, RetryableError, arxiv_policy, call_with_retries

#: arXiv's largest slice per request (its API manual: at most 2,000 results per call).
MAX_SLICE = 2000
#: The most results arXiv serves for one query (its API manual: 30,000 in all).
MAX_RESULTS = 30_000


@dataclass(frozen=True)
class Searched:
    """Every paper the query matched (resolver metadata, one per base ID) and arXiv's total."""

    papers: tuple[Mapping[str, Any], ...]
    total: int
    incomplete: int = 0  # entries arXiv sent that the arxiv package skipped as partial


@dataclass(frozen=True)
class SearchFailed:
    """The query could not be answered (outage, refusal): nothing may be concluded or cached."""

    reason: str


class _TooMany(Exception):
    """The query matches more papers than arXiv serves for one query."""

    def __init__(self, total: int) -> None:
        super().__init__(total)
        self.total = total


class _PageEnd(Exception):
    """The arxiv package asked for a second page inside one slice: the slice is complete."""


class _TotalTransport(_Transport):
    """The resolver's transport, sending one request per slice and keeping arXiv's total."""

    total: int | None = None
    allowance = 0

    def get(self, url: str, headers: Mapping[str, str] | None = None, **kw: Any) -> Any:
        """One paced GET (see `_Transport.get`), remembering arXiv's total."""
        # arxiv.Client pages on by itself when a page is short (a partial entry it skipped);
        # paging is ours, so a slice is exactly one request.
        if self.allowance <= 0:
            raise _PageEnd
        self.allowance -= 1
        reply = super().get(url, headers, **kw)
        self.total = feed_total(reply.content)
        return reply


class ArxivSearch(ArxivResolver):
    """Runs `search_query` queries; the resolver's pacing, retries and budget apply."""

    def search(self, query: str, size: int = MAX_SLICE) -> Searched | SearchFailed:
        """Every result of `query`, oldest submission first, in slices of `size` (≤ 2,000)."""
        size = max(1, min(size, MAX_SLICE))
        budget = Budget(self.options.service_budget)
        try:
            with self._connection(size, budget, _TotalTransport) as (client, transport):
                return self._pages(client, transport, query, size, budget)
        except (RetryableError, _Unusable, _Unreadable) as exc:
            return SearchFailed(f"arXiv unavailable: {exc}")
        except _Rejected as exc:
            return SearchFailed(f"arXiv refused the query: {exc.message}")
        except _TooMany as exc:
            return SearchFailed(
                f"the query matches {exc.total} papers, more than the {MAX_RESULTS:,} arXiv "
                "serves for one query: ask for a shorter window"
            )

    def _pages(
        self, client: Any, transport: _TotalTransport, query: str, size: int, budget: Budget
    ) -> Searched:
        """Ask page after page until arXiv's total is reached (or a page comes back empty)."""
        found: dict[str, Mapping[str, Any]] = {}
        start, total, incomplete = 0, 0, 0
        while True:
            page, listed = self._page(client, transport, query, start, size, budget)
            total = transport.total or 0
            if total > MAX_RESULTS:
                raise _TooMany(total)
            incomplete += max(0, listed - len(page))
            for meta in page:
                found[meta["id"]] = meta
            start += size
            if not listed or start >= total:
                return Searched(tuple(found.values()), total, incomplete)

    def _page(
        self,
        client: Any,
        transport: _TotalTransport,
        query: str,
        start: int,
        size: int,
        budget: Budget,
    ) -> tuple[list[dict[str, Any]], int]:
        """The metadata of one slice (one request, plus retries) and how many entries it had."""
        import arxiv

        def once() -> tuple[list[dict[str, Any]], int]:
            search = arxiv.Search(
                query=query,
                max_results=start + size,
                sort_by=arxiv.SortCriterion.SubmittedDate,
                sort_order=arxiv.SortOrder.Ascending,
            )
            results: list[Any] = []
            transport.allowance = 1
            try:
                for result in itertools.islice(client.results(search, offset=start), size):
                    results.append(result)
            except _PageEnd:
                pass
            except (ValueError, arxiv.ArxivError) as exc:
                raise RetryableError(f"unreadable answer: {exc}") from None
            except (TypeError, KeyError, AttributeError, IndexError) as exc:
                raise _Unreadable(f"the arxiv package could not read it ({exc!r})") from None
            metas = [m for m in (metadata(r) for r in results) if m is not None]
            return metas, len(transport.listed)

        return call_with_retries(once, budget, arxiv_policy(self.options), sleep=self.sleep)


__all__ = ["MAX_SLICE", "SERVICE", "ArxivSearch", "SearchFailed", "Searched"]
