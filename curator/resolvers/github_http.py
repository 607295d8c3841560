"""HTTP for the GitHub resolver: retries with jitter, rate limits, one time budget.

`GithubHttp.call` runs one request (an `Exchange`: one try, given its time limit) under the
run's policy and returns a value, never raises: an `Answer` (any HTTP status the caller
interprets) or a `Failure` (GitHub could not be asked). tenacity is the one retry policy for
both transports: REST tries go through PyGithub (github_rest.py), GraphQL tries through httpx
here (`GithubHttp.send`), since PyGithub's GraphQL helpers raise on errors and cannot carry
100 aliased repositories with per-alias errors. Once a limit cannot be waited out within
`Options.rate_limit_wait` and the budget, the service is given up for the rest of the run,
so the remaining subjects turn Unverified at once instead of each waiting in turn.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import httpx
from tenacity import RetryCallState, Retrying, retry_if_result, stop_after_attempt, stop_any
from tenacity.stop import stop_base
from tenacity.wait import wait_random_exponential

from curator import __version__
from curator.options import Options
from curator.resolvers.github_parse import is_rate_limited
from curator.resolvers.http import RetryableError, read_body
from curator.resolvers.interface import Counter

#: Tries per request (the first included) for timeouts, resets and 5xx.
ATTEMPTS = 3
#: Requests in a row that may fail outright before GitHub is taken to be down for this run.
FAILURES_BEFORE_DOWN = 2
#: Wait after a secondary limit without retry-after (GitHub's advice: at least a minute).
SECONDARY_DEFAULT_WAIT = 60.0
_BACKOFF = wait_random_exponential(multiplier=0.5, max=8)
USER_AGENT = f"curator/{__version__}"


@dataclass(frozen=True)
class Answer:
    """A response GitHub gave: status, headers and body."""

    status: int
    headers: httpx.Headers
    body: bytes

    def json(self) -> Any:
        """The decoded JSON body; ValueError when it is not JSON."""
        return json.loads(self.body)


@dataclass(frozen=True)
class Failure:
    """GitHub could not be asked usably; `reason` is safe to show (no secrets)."""

    reason: str


@dataclass(frozen=True)
class TryAgain:
    """One try failed in a way worth another try; `wait` fixed by GitHub, or None (backoff)."""

    reason: str
    wait: float | None = None


#: One try of a request, given the seconds it may take.
Exchange = Callable[[float], Answer | Failure | TryAgain]


class GithubHttp:
    """The retry policy, limit state and time budget of one resolve run (and its httpx client)."""

    def __init__(
        self,
        options: Options,
        counter: Counter,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.options = options
        self.counter = counter
        self.sleep = sleep
        self.clock = clock
        self.deadline = clock() + options.service_budget
        self.down = ""  # why GitHub was given up for this run; empty while it is still asked
        self._failures = 0
        self._client: httpx.Client | None = None  # made on first GraphQL use

    def close(self) -> None:
        """Release the connections."""
        if self._client is not None:
            self._client.close()

    def send(
        self,
        method: str,
        url: str,
        count_as: str,
        headers: Mapping[str, str] | None = None,
        body: Any = None,
    ) -> Answer | Failure:
        """Send one httpx request with retries; count every try under `count_as`."""
        return self.call(partial(self._httpx_try, method, url, count_as, dict(headers or {}), body))

    def call(self, exchange: Exchange) -> Answer | Failure:
        """Run one request through `exchange` with retries, limits and the budget."""
        if self.down:
            return Failure(self.down)
        retrying = Retrying(
            stop=stop_any(stop_after_attempt(ATTEMPTS), _BudgetStop(self)),
            wait=self._wait,
            retry=retry_if_result(lambda r: isinstance(r, TryAgain)),
            sleep=self.sleep,
            retry_error_callback=self._gave_up,
        )
        result = retrying(self._try, exchange)
        if isinstance(result, Answer):
            self._failures = 0
            return result
        if isinstance(result, Failure):
            self._failures += 1
            if self._failures >= FAILURES_BEFORE_DOWN and not self.down:
                self.down = f"{result.reason} (GitHub given up for this run)"
            return result
        raise TypeError(f"unexpected retry result {result!r}")  # pragma: no cover - a bug

    def _try(self, exchange: Exchange) -> Answer | Failure | TryAgain:
        """One try within what is left of the budget, its answer classified."""
        if self.down:
            return Failure(self.down)
        left = self.deadline - self.clock()
        if left <= 0:
            return self._give_up(f"GitHub time budget of {self.options.service_budget:g}s used")
        result = exchange(min(self.options.timeout, left))
        if not isinstance(result, Answer):
            return result
        self.counter.heard("github")
        return self._classify(result)

    def _httpx_try(
        self,
        method: str,
        url: str,
        count_as: str,
        headers: dict[str, str],
        body: Any,
        timeout: float,
    ) -> Answer | TryAgain:
        """One httpx request (GraphQL), counted before it is sent."""
        self.counter.add(count_as)
        # httpx bounds each read, not the body: a server dripping bytes must not outlast it.
        deadline = time.monotonic() + timeout
        try:
            with self._http().stream(
                method, url, headers=headers, json=body, timeout=timeout
            ) as response:
                content = read_body(response, deadline)
        except httpx.TimeoutException:
            return TryAgain(f"GitHub did not answer within {self.options.timeout:g}s")
        except httpx.TransportError as exc:
            return TryAgain(f"connection to GitHub failed ({type(exc).__name__})")
        except RetryableError:
            return TryAgain(f"GitHub did not finish its answer within {timeout:g}s")
        return Answer(response.status_code, response.headers, content)

    def _http(self) -> httpx.Client:
        """The run's httpx client, made on first use."""
        if self._client is None:
            self._client = httpx.Client(
                follow_redirects=False,  # redirects are read, never followed blindly
                headers={"User-Agent": USER_AGENT, "Accept": "application/vnd.github+json"},
            )
        return self._client

    def _classify(self, answer: Answer) -> Answer | Failure | TryAgain:
        """Limits and 5xx become retries or failures; any other response is the answer."""
        status, headers = answer.status, answer.headers
        if headers.get("x-ratelimit-remaining") == "0" and (
            status in (403, 429) or _graphql_rate_limited(answer)
        ):
            return self._primary_limit(headers)
        if status in (403, 429) and _secondary_limit(answer):
            wait = _seconds(headers.get("retry-after"))
            return self._limit_wait(
                "GitHub secondary rate limit", SECONDARY_DEFAULT_WAIT if wait is None else wait
            )
        if _graphql_rate_limited(answer):
            return self._limit_wait("GitHub GraphQL RATE_LIMITED", SECONDARY_DEFAULT_WAIT)
        if status >= 500:
            return TryAgain(f"GitHub answered HTTP {status}")
        return answer

    def _primary_limit(self, headers: httpx.Headers) -> Failure | TryAgain:
        """Wait for x-ratelimit-reset when it is near enough; else give GitHub up."""
        reset = _seconds(headers.get("x-ratelimit-reset"))
        if reset is None:
            return self._give_up("GitHub rate limit exhausted (no reset time given)")
        reason = "GitHub rate limit exhausted until " + _utc_time(reset)
        # +1: the reset is a whole epoch second; asking in that same second may fail again.
        return self._limit_wait(reason, max(0.0, reset - self.clock()) + 1.0)

    def _limit_wait(self, reason: str, wait: float) -> Failure | TryAgain:
        """A retry after `wait` seconds if allowed and affordable, else give GitHub up."""
        if wait > self.options.rate_limit_wait:
            return self._give_up(f"{reason}; waiting {wait:.0f}s exceeds the allowed wait")
        if self.clock() + wait >= self.deadline:
            return self._give_up(f"{reason}; waiting {wait:.0f}s exceeds the time budget")
        return TryAgain(reason, wait)

    def _give_up(self, reason: str) -> Failure:
        """Mark GitHub down for the rest of the run."""
        self.down = reason
        return Failure(reason)

    def _wait(self, state: RetryCallState) -> float:
        """GitHub's own wait when it gave one, else exponential backoff with jitter."""
        outcome = state.outcome
        result = outcome.result() if outcome is not None and not outcome.failed else None
        if isinstance(result, TryAgain) and result.wait is not None:
            return result.wait
        return float(_BACKOFF(state))

    @staticmethod
    def _gave_up(state: RetryCallState) -> Failure:
        """The last retryable result as a Failure."""
        outcome = state.outcome
        result = outcome.result() if outcome is not None and not outcome.failed else None
        reason = result.reason if isinstance(result, TryAgain) else "GitHub could not be asked"
        return Failure(reason)


class _BudgetStop(stop_base):
    """Stop retrying when the next wait would end past the run's deadline."""

    def __init__(self, http: GithubHttp) -> None:
        self.http = http

    def __call__(self, state: RetryCallState) -> bool:
        return self.http.clock() + state.upcoming_sleep >= self.http.deadline


def _seconds(value: str | None) -> float | None:
    """A header holding whole seconds (retry-after) or an epoch (x-ratelimit-reset).

    None unless finite and not negative: a wait of `nan` or `-5` would make sleep() raise.
    """
    try:
        seconds = float(value) if value is not None else None
    except ValueError:
        return None
    return seconds if seconds is not None and 0 <= seconds < math.inf else None


def _utc_time(epoch: float) -> str:
    """`HH:MM:SS UTC` of an epoch, or a plain phrase when it is beyond the calendar."""
    try:
        return time.strftime("%H:%M:%S UTC", time.gmtime(epoch))
    except (OverflowError, OSError, ValueError):
        return "an unreadable time"


def _secondary_limit(answer: Answer) -> bool:
    """403/429 that is a secondary ("abuse") limit rather than a real refusal."""
    if "retry-after" in answer.headers or answer.status == 429:
        return True
    text = answer.body[:2000].decode("utf-8", "replace").lower()
    return "secondary rate limit" in text or "abuse" in text


def _graphql_rate_limited(answer: Answer) -> bool:
    """True for a GraphQL answer with a RATE_LIMITED error (GitHub sends those under 200)."""
    if b"RATE_LIMITED" not in answer.body:
        return False
    try:
        return is_rate_limited(answer.json())
    except ValueError:
        return False
