"""The arXiv resolver: every arXiv ID of a run in `id_list` batches, paced, retried and cached.

Requests go through the arxiv package (`arxiv.Client`, `arxiv.Search`), whose HTTP session
is replaced by `_Transport`: one httpx connection that waits `arxiv_delay` between calls,
bounds each call by `timeout` and the service budget, counts what it sends, and refuses any
answer that is not a complete feed, so an outage ends as Unverified and never as NotFound.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

import httpx

from curator import __version__
from curator.model import Service
from curator.normalize import parse_arxiv_id
from curator.options import Options
from curator.resolvers.arxiv_atom import (
    FeedError,
    metadata,
    partial_ids,
    read_feed,
    rejected_ids,
)
from curator.resolvers.arxiv_pages import EMPTY_ONLY, EmptyPages, with_control
from curator.resolvers.base import CachedResolver
from curator.resolvers.cache import Cache, CacheItem, not_found_from, not_found_value
from curator.resolvers.http import (
    TRANSIENT_ERRORS,
    Budget,
    ConnectFailure,
    Pacer,
    RetryableError,
    arxiv_policy,
    call_with_retries,
    read_body,
    status_error,
)
from curator.resolvers.interface import Counter, Found, NotFound, Outcome, Unverified

SERVICE = "arxiv"
PREFIX = "arxiv:"


class _Rejected(Exception):
    """arXiv answered 400: some ID of the batch is malformed in its eyes."""

    def __init__(self, ids: list[str], message: str) -> None:
        super().__init__(message)
        self.ids = ids
        self.message = message


class _Unusable(Exception):
    """An answer no retry will fix (403, 406, a bad endpoint): give up on arXiv for this run."""


class _Unreadable(Exception):
    """A complete feed the arxiv package failed on: this batch is unverified, the rest asked."""


class _Reply:
    """The two fields of a requests.Response that `arxiv.Client` reads."""

    def __init__(self, status_code: int, content: bytes, listed: list[str | None]) -> None:
        self.status_code = status_code
        self.content = content
        #: The base IDs of the feed's entries (None: unreadable), as arXiv sent them.
        self.listed = listed


class _Transport:
    """Stands in for the requests.Session of `arxiv.Client` (it only calls `get`)."""

    def __init__(self, http: httpx.Client, pacer: Pacer, counter: Counter, timeout: float) -> None:
        self.http = http
        self.pacer = pacer
        self.counter = counter
        self.timeout = timeout
        self.budget = Budget(0.0)
        self.listed: list[str | None] = []

    def get(self, url: str, headers: Mapping[str, str] | None = None, **_: Any) -> _Reply:
        """Send one paced GET and return it only when it is a complete 200 feed."""
        self.pacer.wait()
        timeout = min(self.timeout, self.budget.remaining())
        if timeout <= 0:
            raise RetryableError("arXiv time budget exhausted")
        agent = f"curator/{__version__} ({(headers or {}).get('user-agent', 'arxiv.py')})"
        sent = {"User-Agent": agent, "Accept": "application/atom+xml"}
        try:
            status, answer_headers, body = self._send(url, sent, timeout)
        finally:
            self.pacer.finished()
        reply = _judge(status, answer_headers, body)
        self.listed = reply.listed
        return reply

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
            raise _Unusable(f"{type(exc).__name__}: {exc}") from None


def _judge(status: int, headers: httpx.Headers, body: bytes) -> _Reply:
    """The reply for a complete 200 feed; the matching exception for anything else."""
    if status == 200:
        try:
            listed = read_feed(body)
        except FeedError as exc:
            raise RetryableError(str(exc)) from None
        return _Reply(status, body, listed)
    if status == 400:
        raise _Rejected(*rejected_ids(body))
    failure = status_error(status, headers)
    if failure is not None:
        raise failure
    raise _Unusable(f"HTTP {status}")


#: A transport class: `_Transport` or one extending it.
T = TypeVar("T", bound=_Transport)


# The arxiv package logs each partial entry it skips as a warning, which would reach stderr
# through logging's last-resort handler; curator reports those IDs as unverified instead.
_PACKAGE_LOG = logging.getLogger("arxiv")
if _PACKAGE_LOG.level == logging.NOTSET:
    _PACKAGE_LOG.setLevel(logging.ERROR)

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
        return subject.startswith(PREFIX)

    def admit(self, subjects: list[str]) -> tuple[dict[str, Outcome], list[str]]:
        """One subject per paper (versions are aliases); malformed IDs are not asked."""
        out: dict[str, Outcome] = {}
        self._asked, self._aliases = {}, {}
        for subject in subjects:
            parsed = parse_arxiv_id(subject[len(PREFIX) :]) if self.handles(subject) else None
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
        return not_found_from(subject, item) or Found(subject, item.value)

    def encode(self, outcome: Outcome) -> dict[str, Any] | None:
        """A paper's metadata as is; "not found" briefly; nothing else."""
        if isinstance(outcome, NotFound):
            return not_found_value(outcome)
        return dict(outcome.meta) if isinstance(outcome, Found) else None

    def _fetch(self, bases: list[str], asked: Mapping[str, str]) -> dict[str, Outcome]:
        """Ask arXiv about `bases` in batches over one paced connection."""
        size = max(1, self.options.arxiv_batch_size)
        budget = Budget(self.options.service_budget)
        with self._connection(size, budget, _Transport) as (client, transport):
            batches = deque(bases[i : i + size] for i in range(0, len(bases), size))
            return self._run_batches(client, transport, batches, budget, asked)

    @contextmanager
    def _connection(self, size: int, budget: Budget, kind: type[T]) -> Iterator[tuple[Any, T]]:
        """An arxiv.Client over one paced connection (a `kind` transport), spaced from the
        previous run; the end of its last request is stamped for the next run."""
        self._space_from_previous_run()
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        try:
            with httpx.Client(limits=limits, follow_redirects=True, trust_env=False) as http:
                transport = kind(http, self._pacer, self.counter, self.options.timeout)
                transport.budget = budget
                yield self._client(transport, size), transport
        finally:
            self.cache.set_stamp(LAST_REQUEST)

    def _space_from_previous_run(self) -> None:
        """arXiv's spacing holds across runs too: wait out what the last run left of it."""
        last = self.cache.stamp(LAST_REQUEST)
        if last is not None:
            gap = self.options.arxiv_delay - (self.cache.clock() - last)
            if 0 < gap <= self.options.arxiv_delay:
                self.sleep(gap)

    def _client(self, transport: _Transport, size: int) -> Any:
        """An arxiv.Client aimed at the configured endpoint, sending through `transport`."""
        import arxiv  # imported here: a run answered from the cache never needs it

        # The client's own retries and delay stay off: tenacity and the pacer do both.
        client = arxiv.Client(page_size=size, delay_seconds=0, num_retries=0)
        url = self.options.arxiv_api_url.replace("{", "{{").replace("}", "}}")
        client.query_url_format = url + ("&{}" if "?" in url else "?{}")
        client._session.close()
        client._session = transport
        return client

    def _run_batches(
        self,
        client: Any,
        transport: _Transport,
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
            try:
                found, partial = self._ask(client, transport, batch, budget)
            except (RetryableError, _Unusable) as exc:
                failure = f"arXiv unavailable: {exc}"
                self.notes.append(f"{failure} ({len(batch)} IDs in the failing batch)")
                out.update({asked[b]: Unverified(asked[b], failure) for b in batch})
                continue
            except _Rejected as exc:
                out.update(self._split(batch, exc, batches, asked))
                continue
            except _Unreadable as exc:
                reason = f"arXiv answered; {exc}"
                self.notes.append(f"{reason} ({len(batch)} IDs in the batch)")
                out.update({asked[b]: Unverified(asked[b], reason) for b in batch})
                continue
            if not transport.listed:
                out.update(pages.empty(batch, batches, asked))
                continue
            pages.proven = True
            if partial:
                self.notes.append(f"arXiv sent incomplete records for {len(partial)} IDs")
            out.update(self._record(batch, found, partial, asked))
        return out

    def _ask(
        self, client: Any, transport: _Transport, batch: list[str], budget: Budget
    ) -> tuple[dict[str, dict[str, Any]], list[str]]:
        """Metadata by base ID for one batch (one request, plus retries), and the IDs whose
        record arXiv sent but the arxiv package skipped as partial."""

        import arxiv

        def once() -> tuple[dict[str, dict[str, Any]], list[str]]:
            query = with_control(batch)
            search = arxiv.Search(id_list=query, max_results=len(query))
            try:
                results = list(client.results(search))
            except (ValueError, arxiv.ArxivError) as exc:
                raise RetryableError(f"unreadable answer: {exc}") from None
            except (TypeError, KeyError, AttributeError, IndexError) as exc:
                # The feed passed read_feed, so asking again would fail the same way.
                raise _Unreadable(f"the arxiv package could not read it ({exc!r})") from None
            metas = (metadata(r) for r in results)
            found = {m["id"]: m for m in metas if m is not None}
            return found, partial_ids(batch, found, transport.listed)

        return call_with_retries(once, budget, arxiv_policy(self.options), sleep=self.sleep)

    def _split(
        self, batch: list[str], exc: _Rejected, batches: deque[list[str]], asked: Mapping[str, str]
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
        found: Mapping[str, dict[str, Any]],
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
