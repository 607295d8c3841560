"""The GitHub resolver: repository metadata by GraphQL batches (token) or REST with ETags.

With a token, up to 100 repositories go into one aliased GraphQL query, sent with httpx.
Without one, each repository is one REST request through PyGithub (github_rest.py),
conditional on the cached ETag so an unchanged repository costs a 304 that GitHub does not
count against the limit; PyGithub follows the 301 of a renamed repository. Both go through
one retry policy (github_http.py, tenacity). Found and Moved are cached, "not found" for
`ttl_not_found` only; errors never. The token is sent only to the configured GraphQL
endpoint and is kept out of every value.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from curator.config.options import Options
from curator.core.meta import RepoMeta, meta_json
from curator.core.model import Service
from curator.core.outcomes import Counter, Found, Moved, NotFound, Outcome, Unverified
from curator.core.subjects import is_repo
from curator.net.cache import Cache, CacheItem, not_found_from, not_found_value
from curator.resolvers.base import CachedResolver
from curator.resolvers.github_http import Answer, Failure, GithubHttp
from curator.resolvers.github_parse import (
    BATCH_SIZE,
    graphql_outcomes,
    graphql_query,
    meta_from_rest,
    outcome_from_meta,
    split_subject,
)

if TYPE_CHECKING:
    from curator.resolvers.github_rest import RestClient

CACHE_SERVICE = "github"
_REPOSITORY_ID = re.compile(r"/repositories/(\d+)/?$")
_REDIRECTS = (301, 302, 307, 308)
SLOW_NOTE = (
    "No GITHUB_TOKEN: repositories were checked one by one over unauthenticated REST "
    "(60 requests/hour). Set GITHUB_TOKEN to check up to 100 per GraphQL request, much faster."
)


class GithubResolver(CachedResolver):
    """Resolves `github:owner/repo` subjects; `notes` collects run-level remarks."""

    service = Service.GITHUB
    cache_name = CACHE_SERVICE

    def __init__(
        self,
        options: Options,
        cache: Cache,
        counter: Counter,
        *,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(options, cache, counter)
        self._token = options.github_token.strip()  # a blank token is no token
        self._sleep = sleep
        self._clock = clock

    @property
    def ttl(self) -> float:
        """Repository metadata stays fresh for options.ttl_github."""
        return self.options.ttl_github

    def handles(self, subject: str) -> bool:
        """True for `github:` subjects."""
        return is_repo(subject)

    def admit(self, subjects: list[str]) -> tuple[dict[str, Outcome], list[str]]:
        """Only `github:owner/repo` subjects are asked."""
        out: dict[str, Outcome] = {}
        for subject in subjects:
            if split_subject(subject) is None:
                out[subject] = Unverified(subject, "not a github:owner/repo subject")
        return out, [s for s in subjects if s not in out]

    def fetch(self, subjects: list[str], stored: Mapping[str, CacheItem]) -> dict[str, Outcome]:
        """Ask GitHub (GraphQL with a token, REST with ETags without)."""
        return self._ask_github(subjects, dict(stored))

    def finish(self, subjects: list[str], out: dict[str, Outcome]) -> dict[str, Outcome]:
        """Say when the slow path was taken; never let the token into a reason."""
        valid = any(split_subject(s) is not None for s in subjects)
        if valid and not self._token and not self.options.offline and SLOW_NOTE not in self.notes:
            self.notes.append(SLOW_NOTE)
        return {s: _scrub(out[s], self._token) for s in subjects}

    def decode(self, subject: str, item: CacheItem) -> Outcome | None:
        """Found, Moved or NotFound from a cache entry; None for an entry of unknown shape."""
        return _cached_outcome(subject, item)

    def encode(self, outcome: Outcome) -> dict[str, Any] | None:
        """Found and Moved with their metadata, NotFound briefly (scrubbed), never an error."""
        if isinstance(outcome, NotFound):
            # The reason quotes GitHub's message: scrub it like every reason we show.
            scrubbed = _scrub(outcome, self._token)
            assert isinstance(scrubbed, NotFound)
            return not_found_value(scrubbed)
        if isinstance(outcome, Found):
            return {"outcome": "found", "meta": meta_json(outcome.meta)}
        if isinstance(outcome, Moved):
            return {"outcome": "moved", "new_url": outcome.new_url, "meta": meta_json(outcome.meta)}
        return None

    def _ask_github(self, pending: list[str], cached: dict[str, CacheItem]) -> dict[str, Outcome]:
        """GraphQL batches with a token, REST one by one without."""
        http = GithubHttp(self.options, self.counter, self._sleep, self._clock)
        try:
            if self._token:
                return self._graphql(pending, http)
            return self._rest_all(pending, cached, http)
        finally:
            http.close()

    # -- GraphQL ----------------------------------------------------------------------------
    def _graphql(self, subjects: list[str], http: GithubHttp) -> dict[str, Outcome]:
        """One aliased query per batch of up to BATCH_SIZE repositories."""
        out: dict[str, Outcome] = {}
        for start in range(0, len(subjects), BATCH_SIZE):
            batch = subjects[start : start + BATCH_SIZE]
            out.update(self._graphql_batch(batch, http))
            self.counter.finished(CACHE_SERVICE, len(batch))
        self.store(out, etag="")
        return out

    def _graphql_batch(self, batch: list[str], http: GithubHttp) -> dict[str, Outcome]:
        """Ask one batch; a failed request leaves the whole batch Unverified."""
        pairs = [split_subject(s) for s in batch]
        body = graphql_query([p for p in pairs if p is not None])
        aliases = {f"r{i}": s for i, s in enumerate(batch)}
        headers = {"Authorization": f"bearer {self._token}"}
        answer = http.send("POST", self.options.github_graphql_url, "github_graphql", headers, body)
        if isinstance(answer, Failure):
            return {s: Unverified(s, answer.reason) for s in batch}
        if answer.status != 200:
            reason = _status_reason(answer, "GraphQL")
            return {s: Unverified(s, reason) for s in batch}
        try:
            decoded = answer.json()
        except ValueError:
            return {s: Unverified(s, "malformed JSON from GitHub GraphQL") for s in batch}
        return graphql_outcomes(aliases, decoded)

    # -- REST -------------------------------------------------------------------------------
    def _rest_all(
        self, pending: list[str], cached: dict[str, CacheItem], http: GithubHttp
    ) -> dict[str, Outcome]:
        """One REST request per repository through one PyGithub client."""
        from curator.resolvers.github_rest import RestClient  # PyGithub: only when asked

        try:
            rest = RestClient(self.options, self.counter)
        except ValueError as exc:  # a GITHUB_API_URL that is not http(s)
            return {s: Unverified(s, str(exc)) for s in pending}
        out: dict[str, Outcome] = {}
        try:
            for subject in pending:
                out[subject] = self._rest(subject, cached.get(subject), http, rest)
                self.counter.finished(CACHE_SERVICE, 1)
        finally:
            rest.close()
        return out

    def _rest(
        self, subject: str, item: CacheItem | None, http: GithubHttp, rest: RestClient
    ) -> Outcome:
        """GET /repos/{owner}/{repo}, conditional on the cached ETag; follows a rename."""
        pair = split_subject(subject)
        assert pair is not None  # resolve() only passes valid subjects
        path = f"/repos/{quote(pair[0], safe='')}/{quote(pair[1], safe='')}"
        answer = http.call(partial(rest.get, path, _conditional(item)))
        if isinstance(answer, Answer) and answer.status in _REDIRECTS:
            answer = self._follow(answer, item, http, rest)
        if isinstance(answer, Failure):
            return Unverified(subject, answer.reason)
        return self._rest_outcome(subject, answer, item)

    def _follow(
        self, answer: Answer, item: CacheItem | None, http: GithubHttp, rest: RestClient
    ) -> Answer | Failure:
        """Follow a redirect PyGithub left (not a 301) to /repositories/{id} on the API host."""
        found = _REPOSITORY_ID.search(answer.headers.get("location", ""))
        if found is None:
            return Failure(f"GitHub redirected (HTTP {answer.status}) to an unexpected place")
        return http.call(partial(rest.get, f"/repositories/{found.group(1)}", _conditional(item)))

    def _rest_outcome(self, subject: str, answer: Answer, item: CacheItem | None) -> Outcome:
        """The outcome of a final REST answer; stores Found, Moved and NotFound."""
        if answer.status == 304 and item is not None:
            outcome = _cached_outcome(subject, item)
            if outcome is not None:
                self.cache.touch(CACHE_SERVICE, subject)
                return outcome
            return Unverified(subject, "GitHub said not modified, but the cache entry is unusable")
        if answer.status in (404, 410, 451):
            missing = NotFound(subject, _status_reason(answer, "REST"))
            self.store({subject: missing}, etag="")
            return missing
        if answer.status != 200:
            return Unverified(subject, _status_reason(answer, "REST"))
        try:
            outcome = outcome_from_meta(subject, meta_from_rest(answer.json()))
        except ValueError:
            return Unverified(subject, "malformed JSON from GitHub REST")
        self.store({subject: outcome}, etag=answer.headers.get("etag", ""))
        return outcome


def _conditional(item: CacheItem | None) -> dict[str, str]:
    """If-None-Match with the cached ETag, when there is one."""
    return {"If-None-Match": item.etag} if item is not None and item.etag else {}


def _cached_outcome(subject: str, item: CacheItem) -> Outcome | None:
    """Found, Moved or NotFound from a cache entry; None for an entry of unknown shape."""
    value = item.value
    missing = not_found_from(subject, item)
    if missing is not None:
        return missing
    meta = value.get("meta")
    if not isinstance(meta, dict):
        return None
    if value.get("outcome") == "found":
        return Found(subject, RepoMeta.from_cache(meta))
    new_url = value.get("new_url")
    if value.get("outcome") == "moved" and isinstance(new_url, str):
        return Moved(subject, new_url, RepoMeta.from_cache(meta))
    return None


def _status_reason(answer: Answer, api: str) -> str:
    """`GitHub REST answered HTTP 404: Not Found` (message only when the body is JSON)."""
    reason = f"GitHub {api} answered HTTP {answer.status}"
    try:
        body = answer.json()
    except ValueError:
        return reason
    message = body.get("message") if isinstance(body, dict) else None
    return f"{reason}: {str(message)[:200]}" if isinstance(message, str) and message else reason


def _scrub(outcome: Outcome, token: str) -> Outcome:
    """Remove the token from a reason, should any text from a response have echoed it."""
    if not token or not isinstance(outcome, Unverified | NotFound) or token not in outcome.reason:
        return outcome
    reason = outcome.reason.replace(token, "***")
    if isinstance(outcome, Unverified):
        return Unverified(outcome.subject, reason)
    return NotFound(outcome.subject, reason, outcome.meta)
