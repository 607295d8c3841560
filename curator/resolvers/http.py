"""Shared HTTP helpers for resolvers: pacing, time budgets, Retry-After and tenacity retries.

Nothing here knows a particular service. A resolver wraps one request in a function that
raises `RetryableError` for a transient failure (timeout, reset, 5xx, 429, a garbled body)
and hands it to `call_with_retries`, which backs off exponentially with jitter, honours a
server's Retry-After, and never lets the whole service run past its `Budget`.
"""

from __future__ import annotations

import email.utils
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TypeVar

import httpx
import tenacity

T = TypeVar("T")

#: Statuses worth asking again: rate limited, or the server (or its gateway) failing.
RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})

#: Transport errors worth asking again: timeouts, resets, refused or dropped connections.
TRANSIENT_ERRORS: tuple[type[Exception], ...] = (
    httpx.TimeoutException,
    httpx.NetworkError,
    httpx.RemoteProtocolError,
)


class RetryableError(Exception):
    """A transient failure of one request; `retry_after` is the server's wish in seconds."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


class ConnectFailure(RetryableError):
    """Nothing reached the server (DNS failure, refused connection): asked again only
    CONNECT_ATTEMPTS times in all, so a machine without network gives up in seconds."""


#: Tries (the first included) for a request that never reached its server.
CONNECT_ATTEMPTS = 2


class Budget:
    """A deadline for everything one service does in a run, so a run never hangs."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
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


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or HTTP-date), else None."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():  # not "²", which isdigit() admits and float() refuses
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
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


def read_body(response: httpx.Response, deadline: float, limit: int = 50_000_000) -> bytes:
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


def call_with_retries(
    fn: Callable[[], T],
    budget: Budget,
    *,
    base: float = 1.0,
    cap: float = 60.0,
    attempts: int = 5,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """Call `fn` until it returns, retrying RetryableError with backoff inside `budget`.

    Waits `base * 2**n` plus up to `base` of jitter (at most `cap`), or the server's
    Retry-After when it gave one. Gives up, re-raising the last RetryableError, after
    `attempts` calls, when the budget cannot cover the next wait, or when Retry-After
    asks for more than `cap`. Any other exception propagates at once.
    """
    backoff = tenacity.wait_exponential_jitter(multiplier=base, max=cap, jitter=base)

    def wait(state: tenacity.RetryCallState) -> float:
        hint = _retry_after(state)
        return hint if hint is not None else float(backoff(state))

    def stop(state: tenacity.RetryCallState) -> bool:
        hint = _retry_after(state)
        if hint is not None and hint > cap:
            return True
        if _connect_failed(state) and state.attempt_number >= CONNECT_ATTEMPTS:
            return True
        return state.attempt_number >= attempts or state.upcoming_sleep >= budget.remaining()

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
