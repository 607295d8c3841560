"""curator's one HTTP policy: time budgets, pacing, Retry-After, GitHub's rate limits and
tenacity retries, for every resolver and for publishing.

Nothing here sends a request or knows a transport. A caller wraps one try in a function
that raises `RetryableError` for a transient failure (timeout, reset, 5xx, 429, a garbled
body; with `retry_after` when the server named its wait) and hands it to
`call_with_retries` with its service's `RetryPolicy` and `Budget`. The policy decides how
long to wait and when to stop: exponential backoff with jitter, or the server's own wait;
never past the budget, never longer than `max_wait`, and only twice for a request that
never reached its server. What a service does once the retries are over is its own
business: arXiv marks the rest of the run unverified, the GitHub resolver gives GitHub up
after two failures in a row or a limit it cannot wait out, publishing raises.

The policies side by side (`arxiv_policy`, `github_policy`, `publish_policy`):

| who           | tries | backoff            | longest wait a server may ask      |
|---------------|-------|--------------------|------------------------------------|
| arXiv         | 5     | 3 s × 2ⁿ (+ ≤ 3 s) | `rate_limit_wait` (60 s)            |
| GitHub checks | 3     | ½ s × 2ⁿ (+ ≤ ½ s) | `rate_limit_wait` (60 s)            |
| publishing    | 4     | 1 s × 2ⁿ (+ ≤ 1 s) | `max_wait` (60 s)                   |

Web links are asked once each (HEAD, then GET where HEAD is refused): a run holds hundreds
of links to many hosts under per-host spacing and one budget, so a host that fails or rate
limits now is reported `unverified` (a warning, never `broken`, never cached) and asked again
by the next run rather than waited for in this one. They share the budget defined here.
"""

from __future__ import annotations

import email.utils
import math
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import httpx
import tenacity

from curator import __version__
from curator.config.options import Options
from curator.textio import json_text

T = TypeVar("T")

#: How curator names itself to every service.
USER_AGENT = f"curator/{__version__}"

#: Statuses worth asking again: rate limited, or the server (or its gateway) failing.
RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})

#: Transport errors worth asking again: timeouts, resets, refused or dropped connections.
TRANSIENT_ERRORS: tuple[type[Exception], ...] = (
    httpx.TimeoutException,
    httpx.NetworkError,
    httpx.RemoteProtocolError,
)

#: Tries (the first included) for a request that never reached its server.
CONNECT_ATTEMPTS = 2

#: The largest answer read into memory (an arXiv feed of 2,000 entries is about 10 MB).
MAX_BODY = 50_000_000

#: GitHub's advice after a secondary limit that names no wait: at least a minute, then
#: exponentially longer for each further limit.
SECONDARY_WAIT = 60.0


class RetryableError(Exception):
    """A transient failure of one try; `retry_after` is the server's wish in seconds."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


class ConnectFailure(RetryableError):
    """Nothing reached the server (DNS failure, refused connection): asked again only
    CONNECT_ATTEMPTS times in all, so a machine without network gives up in seconds."""


class GiveUp(Exception):
    """Asking this service again in this run is pointless (its limit names no reset time,
    its budget is spent): never retried."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class RetryPolicy:
    """How one service is asked again: tries, backoff, and the longest wait it may ask."""

    attempts: int
    base: float  # backoff: base * 2**n plus up to `base` of jitter ...
    cap: float  # ... and never more than `cap`
    max_wait: float  # a Retry-After or limit reset further away is not waited for

    def refusal(self, wait: float, budget: Budget) -> str:
        """Why a server-asked wait of `wait` seconds is not taken, or "" when it is."""
        if wait > self.max_wait:
            return f"waiting {wait:.0f}s exceeds the allowed wait"
        if wait >= budget.remaining():
            return f"waiting {wait:.0f}s exceeds the time budget"
        return ""


def arxiv_policy(options: Options) -> RetryPolicy:
    """arXiv: five tries, backing off from its own 3-second spacing."""
    wait = options.rate_limit_wait
    return RetryPolicy(attempts=5, base=max(options.arxiv_delay, 0.1), cap=wait, max_wait=wait)


def github_policy(options: Options) -> RetryPolicy:
    """GitHub checks: three tries, short backoff (a run has many repositories to ask)."""
    return RetryPolicy(attempts=3, base=0.5, cap=8.0, max_wait=options.rate_limit_wait)


def publish_policy(retries: int, max_wait: float) -> RetryPolicy:
    """Publishing: `retries` more tries after the first, a second's backoff."""
    return RetryPolicy(attempts=retries + 1, base=1.0, cap=16.0, max_wait=max_wait)


class Budget:
    """A deadline for everything one service does in a run, so a run never hangs."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.seconds = seconds
        self.deadline = clock() + seconds

    def remaining(self) -> float:
        """Seconds left, never negative."""
        return max(0.0, self.deadline - self.clock())

    @property
    def spent(self) -> bool:
        """True once the deadline has passed."""
        return self.remaining() <= 0.0


class Pacer:
    """Keeps requests at least `interval` seconds apart (thread-safe).

    The gap runs from the later of the last start and the last `finished()` call, so the
    service sees the spacing even when connection set-up delays one request and not the
    next. The lock is held while sleeping so concurrent callers queue instead of bursting.
    """

    def __init__(
        self,
        interval: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.interval = interval
        self.clock = clock
        self.sleep = sleep
        self._last: float | None = None
        self._lock = threading.Lock()

    def wait(self) -> None:
        """Sleep until the next request may start, then mark it as started."""
        with self._lock:
            if self._last is not None:
                gap = self.interval - (self.clock() - self._last)
                if gap > 0:
                    self.sleep(gap)
            self._last = self.clock()

    def finished(self) -> None:
        """Mark the end of a request: the next one waits `interval` from now."""
        with self._lock:
            self._last = self.clock()


def call_with_retries(
    fn: Callable[[], T],
    budget: Budget,
    policy: RetryPolicy,
    *,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """Call `fn` until it returns, retrying RetryableError as `policy` says, inside `budget`.

    Gives up, re-raising the last RetryableError, after `policy.attempts` calls (two for a
    request that never reached its server), when the budget cannot cover the next wait, or
    when the server asks for a wait the policy refuses. Any other exception propagates at once.
    """
    backoff = tenacity.wait_exponential_jitter(
        multiplier=policy.base, max=policy.cap, jitter=policy.base
    )

    def wait(state: tenacity.RetryCallState) -> float:
        hint = _retry_after(state)
        return hint if hint is not None else float(backoff(state))

    def stop(state: tenacity.RetryCallState) -> bool:
        hint = _retry_after(state)
        if hint is not None and policy.refusal(hint, budget):
            return True
        if _connect_failed(state) and state.attempt_number >= CONNECT_ATTEMPTS:
            return True
        return state.attempt_number >= policy.attempts or state.upcoming_sleep >= budget.remaining()

    retrying = tenacity.Retrying(
        retry=tenacity.retry_if_exception_type(RetryableError),
        wait=wait,
        stop=stop,
        sleep=sleep,
        reraise=True,
    )
    return retrying(fn)


def _connect_failed(state: tenacity.RetryCallState) -> bool:
    """True when the last try never reached the server."""
    return state.outcome is not None and isinstance(state.outcome.exception(), ConnectFailure)


def _retry_after(state: tenacity.RetryCallState) -> float | None:
    """The Retry-After carried by the last failure, if any."""
    if state.outcome is None:
        return None
    exc = state.outcome.exception()
    return exc.retry_after if isinstance(exc, RetryableError) else None


# -- reading answers ------------------------------------------------------------------------


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or HTTP-date), else None."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():  # not "²", which isdigit() admits and float() refuses
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, OverflowError):  # a year or offset beyond datetime's range
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def status_error(status: int, headers: httpx.Headers) -> RetryableError | None:
    """A RetryableError for a retryable status (with its Retry-After), else None."""
    if status not in RETRY_STATUSES:
        return None
    reason = "rate limited (HTTP 429)" if status == 429 else f"HTTP {status}"
    return RetryableError(reason, parse_retry_after(headers.get("retry-after")))


def read_body(response: httpx.Response, deadline: float, limit: int = MAX_BODY) -> bytes:
    """Read a streamed body, failing (retryably) when it outlasts `deadline` (monotonic).

    httpx timeouts bound each read, not the whole body; a server that drips bytes would
    otherwise hold the request open far past its timeout.
    """
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if time.monotonic() > deadline:
            raise RetryableError("timed out reading the answer")
        if size > limit:
            raise RetryableError(f"answer larger than {limit} bytes")
    return b"".join(chunks)


# -- GitHub's rate limits (REST, GraphQL and publishing alike) -------------------------------


@dataclass(frozen=True)
class Limit:
    """GitHub is rate limiting: `wait` seconds until it may be asked again (None: unknown)."""

    reason: str
    wait: float | None


def github_limit(
    status: int, headers: Mapping[str, str], body: bytes, *, attempt: int, now: float
) -> Limit | None:
    """The rate limit an answer of GitHub reports, or None when it reports none.

    Primary: `x-ratelimit-remaining: 0` on a 403/429 (or a GraphQL RATE_LIMITED error),
    until `x-ratelimit-reset`. Secondary: a 403/429 with Retry-After or GitHub's words for
    it, for Retry-After seconds or GitHub's advised minute, doubling with each `attempt`.
    `now` is the epoch time, to compare with the reset.
    """
    lower = {key.lower(): value for key, value in headers.items()}
    for name in ("x-ratelimit-remaining", "x-ratelimit-reset"):
        # A number sent twice reaches httpx joined ("0, 0"): its first value counts.
        lower[name] = lower.get(name, "").split(",")[0].strip()
    refused = status in (403, 429)
    graphql = _graphql_rate_limited(body)
    if lower["x-ratelimit-remaining"] == "0" and (refused or graphql):
        reset = _epoch(lower["x-ratelimit-reset"] or None)
        if reset is None:
            return Limit("GitHub rate limit exhausted (no reset time given)", None)
        # +1: the reset is a whole epoch second; asking in that same second may fail again.
        return Limit(
            f"GitHub rate limit exhausted until {_utc_time(reset)}", max(0.0, reset - now) + 1.0
        )
    advised = SECONDARY_WAIT * 2.0 ** max(0, attempt - 1)
    if refused and _secondary(status, lower, body):
        wait = parse_retry_after(lower.get("retry-after"), _moment(now))
        return Limit("GitHub secondary rate limit", advised if wait is None else wait)
    if graphql:
        return Limit("GitHub GraphQL RATE_LIMITED", advised)
    return None


def _secondary(status: int, headers: Mapping[str, str], body: bytes) -> bool:
    """403/429 that is a secondary ("abuse") limit rather than a real refusal."""
    if "retry-after" in headers or status == 429:
        return True
    text = body[:2000].decode("utf-8", "replace").lower()
    return "secondary rate limit" in text or "abuse" in text


def _graphql_rate_limited(body: bytes) -> bool:
    """True for a GraphQL body with a RATE_LIMITED error (GitHub sends those under 200)."""
    if b"RATE_LIMITED" not in body:
        return False
    try:
        return is_rate_limited(json_text.loads(body))
    except ValueError:
        return False


def _epoch(value: str | None) -> float | None:
    """An epoch-seconds header (x-ratelimit-reset), or None unless finite and not negative:
    a wait of `nan` or `-5` would make sleep() raise."""
    try:
        seconds = float(value) if value is not None else None
    except ValueError:
        return None
    return seconds if seconds is not None and 0 <= seconds < math.inf else None


def _moment(epoch: float) -> datetime | None:
    """The UTC moment of an epoch, or None (the present) when beyond the calendar."""
    try:
        return datetime.fromtimestamp(epoch, UTC)
    except (OverflowError, OSError, ValueError):
        return None


def _utc_time(epoch: float) -> str:
    """`HH:MM:SS UTC` of an epoch, or a plain phrase when it is beyond the calendar."""
    try:
        return time.strftime("%H:%M:%S UTC", time.gmtime(epoch))
    except (OverflowError, OSError, ValueError):
        return "an unreadable time"


def is_rate_limited(body: Any) -> bool:
    """True when a GraphQL body carries a RATE_LIMITED error (GitHub sends it under 200)."""
    if not isinstance(body, Mapping) or not isinstance(body.get("errors"), list):
        return False
    return any(isinstance(e, Mapping) and e.get("type") == "RATE_LIMITED" for e in body["errors"])
