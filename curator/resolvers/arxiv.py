"""The arXiv resolver: every arXiv ID of a run in `id_list` batches, paced, retried and cached.

curator speaks the export API itself (arxiv_atom.py says why not through the `arxiv`
package): `Transport` is one httpx connection that waits `arxiv_delay` between calls,
bounds each call by `timeout` and the service budget, counts what it sends, and returns
only a complete feed, parsed once, so an outage ends as Unverified and never as NotFound.
"""

from __future__ import annotations

import dataclasses
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlencode

import httpx

from curator.config.options import Options
from curator.core.meta import PaperMeta, meta_json
from curator.core.model import Service
from curator.core.normalize import parse_arxiv_id
from curator.core.outcomes import Counter, Found, NotFound, Outcome, Unverified
from curator.core.subjects import is_paper, subject_id
from curator.net.cache import Cache, CacheItem, not_found_from, not_found_value
from curator.net.http import (
    TRANSIENT_ERRORS,
    USER_AGENT,
    Budget,
    ConnectFailure,
    GiveUp,
    Pacer,
    RetryableError,
    arxiv_policy,
    call_with_retries,
    read_body,
    status_error,
)
from curator.resolvers.arxiv_atom import (
    Feed,
    FeedError,
    UnreadableEntry,
    parse_feed,
    partial_ids,
    rejected_ids,
)
from curator.resolvers.arxiv_pages import EMPTY_ONLY, EmptyPages, with_control
from curator.resolvers.base import CachedResolver

SERVICE = "arxiv"


class Rejected(Exception):
    """arXiv answered 400: some ID of the batch is malformed in its eyes."""

    def __init__(self, ids: list[str], message: str) -> None:
        super().__init__(message)
        self.ids = ids
        self.message = message


class Unreadable(Exception):
    """A complete feed with a field curator cannot read: this batch is unverified, the rest
    asked (asking again would get the same feed)."""


def query_url(
    endpoint: str,
    *,
    id_list: list[str] | None = None,
    search_query: str = "",
    start: int = 0,
    max_results: int,
    sort: tuple[str, str] = ("relevance", "descending"),
) -> str:
    """The export API URL for one page: `endpoint` (which may carry a query already) plus
    the parameters in the order and encoding of the recorded requests (api-samples)."""
    args = {
        "search_query": search_query,
        "id_list": ",".join(id_list or []),
        "sortBy": sort[0],
        "sortOrder": sort[1],
        "start": str(start),
        "max_results": str(max_results),
    }
    return endpoint + ("&" if "?" in endpoint else "?") + urlencode(args)


class Transport:
    """One paced, counted, deadline-bounded httpx connection to the export API."""

    def __init__(
        self, http: httpx.Client, pacer: Pacer, counter: Counter, timeout: float, budget: Budget
    ) -> None:
        self.http = http
        self.pacer = pacer
        self.counter = counter
        self.timeout = timeout
        self.budget = budget

    def get(self, url: str) -> Feed:
        """Send one paced GET and return its feed when it is a complete 200 feed."""
        self.pacer.wait()
        timeout = min(self.timeout, self.budget.remaining())
        if timeout <= 0:
            raise RetryableError("arXiv time budget exhausted")
        sent = {"User-Agent": USER_AGENT, "Accept": "application/atom+xml"}
        try:
            status, answer_headers, body = self._send(url, sent, timeout)
        finally:
            self.pacer.finished()
        return _judge(status, answer_headers, body)

    def _send(
        self, url: str, headers: dict[str, str], timeout: float
    ) -> tuple[int, httpx.Headers, bytes]:
        """Status, headers and body of one GET; RetryableError for transport failures."""
        deadline = time.monotonic() + timeout
        counted = False
        try:
            with self.http.stream("GET", url, headers=headers, timeout=timeout) as response:
                self.counter.add(SERVICE)
                self.counter.heard(SERVICE)
                counted = True
                return response.status_code, response.headers, read_body(response, deadline)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            # Nothing reached arXiv, so nothing is counted.
            raise ConnectFailure(f"cannot connect: {exc}") from None
        except TRANSIENT_ERRORS as exc:
            # A body that fails after its headers arrived was counted already.
            if not counted:
                self.counter.add(SERVICE)
            raise RetryableError(f"{type(exc).__name__}: {exc}".rstrip(": ")) from None
        except httpx.HTTPError as exc:
            raise GiveUp(f"{type(exc).__name__}: {exc}") from None


def _judge(status: int, headers: httpx.Headers, body: bytes) -> Feed:
    """The feed of a complete 200 answer; the matching exception for anything else."""
    if status == 200:
        try:
            return parse_feed(body)
        except FeedError as exc:
            raise RetryableError(str(exc)) from None
        except UnreadableEntry as exc:
            raise Unreadable(f"curator could not read its feed ({exc})") from None
    if status == 400:
        raise Rejected(*rejected_ids(body))
    failure = status_error(status, headers)
    if failure is not None:
        raise failure
    raise GiveUp(f"HTTP {status}")


#: Cache stamp of the end of the last arXiv request of any run sharing the cache.
LAST_REQUEST = "arxiv:last-request"


class ArxivResolver(CachedResolver):
    """Resolves `arxiv:<id>` subjects to Found / NotFound / Unverified (see module doc)."""

    service = Service.ARXIV
    cache_name = SERVICE

    def __init__(
        self,
        options: Options,
        cache: Cache,
        counter: Counter,
        *,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(options, cache, counter)
        self.sleep = sleep
        self._pacer = Pacer(options.arxiv_delay, sleep=sleep)
        self._asked: dict[str, str] = {}  # base ID -> subject asked
        self._aliases: dict[str, str] = {}  # another spelling (with a version) -> subject asked

    @property
    def ttl(self) -> float:
        """arXiv metadata stays fresh for options.ttl_arxiv."""
        return self.options.ttl_arxiv

    def handles(self, subject: str) -> bool:
        """True for `arxiv:` subjects."""
        return is_paper(subject)

    def admit(self, subjects: list[str]) -> tuple[dict[str, Outcome], list[str]]:
        """One subject per paper (versions are aliases); malformed IDs are not asked."""
        out: dict[str, Outcome] = {}
        self._asked, self._aliases = {}, {}
        for subject in subjects:
            parsed = parse_arxiv_id(subject_id(subject)) if self.handles(subject) else None
            if parsed is None:
                out[subject] = Unverified(subject, "not a well-formed arXiv identifier; not asked")
            elif parsed.base in self._asked:
                self._aliases[subject] = self._asked[parsed.base]
            else:
                self._asked[parsed.base] = subject
        return out, list(self._asked.values())

    def fetch(self, subjects: list[str], stored: Mapping[str, CacheItem]) -> dict[str, Outcome]:
        """Ask arXiv in batches, one request per batch."""
        ask = set(subjects)
        return self._fetch([b for b, s in self._asked.items() if s in ask], self._asked)

    def finish(self, subjects: list[str], out: dict[str, Outcome]) -> dict[str, Outcome]:
        """Every alias gets the outcome of the spelling asked."""
        for alias, subject in self._aliases.items():
            out[alias] = dataclasses.replace(out[subject], subject=alias)
        return out

    def decode(self, subject: str, item: CacheItem) -> Outcome:
        """A cached answer: "not found", or the metadata of a paper found."""
        return not_found_from(subject, item) or Found(subject, PaperMeta.from_cache(item.value))

    def encode(self, outcome: Outcome) -> dict[str, Any] | None:
        """A paper's metadata as is; "not found" briefly; nothing else."""
        if isinstance(outcome, NotFound):
            return not_found_value(outcome)
        return meta_json(outcome.meta) if isinstance(outcome, Found) else None

    @property
    def batch_size(self) -> int:
        """IDs per request (at least one)."""
        return max(1, self.options.arxiv_batch_size)

    def _fetch(self, bases: list[str], asked: Mapping[str, str]) -> dict[str, Outcome]:
        """Ask arXiv about `bases` in batches over one paced connection."""
        size = self.batch_size
        budget = Budget(self.options.service_budget)
        with self._connection(budget) as transport:
            batches = deque(bases[i : i + size] for i in range(0, len(bases), size))
            return self._run_batches(transport, batches, budget, asked)

    @contextmanager
    def _connection(self, budget: Budget) -> Iterator[Transport]:
        """One paced connection to arXiv, spaced from the previous run; the end of its last
        request is stamped for the next run."""
        self._space_from_previous_run()
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        timeout = self.options.timeout
        try:
            with httpx.Client(limits=limits, follow_redirects=True, trust_env=False) as http:
                yield Transport(http, self._pacer, self.counter, timeout, budget)
        finally:
            self.cache.set_stamp(LAST_REQUEST)

    def _space_from_previous_run(self) -> None:
        """arXiv's spacing holds across runs too: wait out what the last run left of it."""
        last = self.cache.stamp(LAST_REQUEST)
        if last is not None:
            gap = self.options.arxiv_delay - (self.cache.clock() - last)
            if 0 < gap <= self.options.arxiv_delay:
                self.sleep(gap)

    def _get(self, transport: Transport, url: str, budget: Budget) -> Feed:
        """The feed at `url`: one request, plus retries within the budget."""
        policy = arxiv_policy(self.options)
        return call_with_retries(lambda: transport.get(url), budget, policy, sleep=self.sleep)

    def _run_batches(
        self,
        transport: Transport,
        batches: deque[list[str]],
        budget: Budget,
        asked: Mapping[str, str],
    ) -> dict[str, Outcome]:
        """Work through the batches; after an outage the rest are Unverified, not asked."""
        out: dict[str, Outcome] = {}
        failure = ""
        pages = EmptyPages()
        while batches:
            self.counter.finished(SERVICE, len(out) - self.counter.done(SERVICE))
            batch = batches.popleft()
            if not failure and pages.hopeless():
                failure = EMPTY_ONLY
                self.notes.append(f"{failure}; the papers not asked are unverified")
            if failure:
                out.update({asked[b]: Unverified(asked[b], failure) for b in batch})
                continue
            url = query_url(
                self.options.arxiv_api_url, id_list=with_control(batch), max_results=self.batch_size
            )
            try:
                feed = self._get(transport, url, budget)
            except (RetryableError, GiveUp) as exc:
                failure = f"arXiv unavailable: {exc}"
                self.notes.append(f"{failure} ({len(batch)} IDs in the failing batch)")
                out.update({asked[b]: Unverified(asked[b], failure) for b in batch})
                continue
            except Rejected as exc:
                out.update(self._split(batch, exc, batches, asked))
                continue
            except Unreadable as exc:
                reason = f"arXiv answered; {exc}"
                self.notes.append(f"{reason} ({len(batch)} IDs in the batch)")
                out.update({asked[b]: Unverified(asked[b], reason) for b in batch})
                continue
            if not feed.listed:
                out.update(pages.empty(batch, batches, asked))
                continue
            pages.proven = True
            out.update(self._answered(batch, feed, asked))
        return out

    def _answered(
        self, batch: list[str], feed: Feed, asked: Mapping[str, str]
    ) -> dict[str, Outcome]:
        """Outcomes of a batch arXiv answered with entries (a note for partial records)."""
        found = {paper.id: paper.record() for paper in feed.papers}
        partial = partial_ids(batch, found, feed.listed)
        if partial:
            self.notes.append(f"arXiv sent incomplete records for {len(partial)} IDs")
        return self._record(batch, found, partial, asked)

    def _split(
        self, batch: list[str], exc: Rejected, batches: deque[list[str]], asked: Mapping[str, str]
    ) -> dict[str, Outcome]:
        """Set aside the IDs a 400 names (or halve the batch) and queue the rest again."""
        bad = [b for b in batch if b in exc.ids or any(i.startswith(b + "v") for i in exc.ids)]
        if not bad and len(batch) == 1:
            bad = batch
        out: dict[str, Outcome] = {
            asked[b]: NotFound(asked[b], f"arXiv rejected the identifier: {exc.message}")
            for b in bad
        }
        rest = [b for b in batch if b not in bad]
        if bad:
            if rest:
                batches.appendleft(rest)
        else:
            half = len(rest) // 2
            batches.extendleft([rest[half:], rest[:half]])
        return out

    def _record(
        self,
        batch: list[str],
        found: Mapping[str, PaperMeta],
        partial: list[str],
        asked: Mapping[str, str],
    ) -> dict[str, Outcome]:
        """Outcomes of one answered batch, cached (a "not found" only briefly; a partial
        record not at all)."""
        out: dict[str, Outcome] = {}
        for base in batch:
            subject = asked[base]
            meta = found.get(base)
            if base in partial:
                out[subject] = Unverified(subject, "arXiv sent an incomplete record; not judged")
            elif meta is None:
                out[subject] = NotFound(subject, "arXiv has no paper with this identifier")
            else:
                out[subject] = Found(subject, meta)
        self.store(out)
        return out
