"""What a resolver is, and the per-subject outcomes it returns as values.

A resolver never raises for one item: a subject it could not check is `Unverified` with a
reason, never `NotFound`. Only a broken configuration is fatal.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from curator.core.meta import Meta, meta_json
from curator.core.model import RequestCounts, Service


@dataclass(frozen=True)
class Found:
    """The service knows the subject; `meta` is what it says (typed for arXiv and GitHub)."""

    subject: str
    meta: Meta = field(default_factory=dict)


@dataclass(frozen=True)
class NotFound:
    """The service answered, and the subject does not exist (or is gone: 404/410/451)."""

    subject: str
    reason: str = ""
    meta: Meta = field(default_factory=dict)
    #: True when no server answered (DNS "no such host", a TLS failure): the subject is
    #: missing only if the network demonstrably works in the same run (see resolvers/reach.py).
    transport: bool = False


@dataclass(frozen=True)
class Moved:
    """The subject resolves elsewhere: renamed repo, permanent redirect. `new_url` is canonical."""

    subject: str
    new_url: str
    meta: Meta = field(default_factory=dict)


@dataclass(frozen=True)
class Unverified:
    """The service could not be asked or did not answer usably (outage, limit, timeout)."""

    subject: str
    reason: str


@dataclass(frozen=True)
class Blocked:
    """Not asked on purpose: the target is refused by the SSRF guard or a scheme rule."""

    subject: str
    reason: str


Outcome = Found | NotFound | Moved | Unverified | Blocked


def describe(outcome: Outcome) -> dict[str, Any]:
    """An outcome as report metadata: status plus what the service said."""
    if isinstance(outcome, Found):
        return {"status": "found", **meta_json(outcome.meta)}
    if isinstance(outcome, Moved):
        return {"status": "moved", "new_url": outcome.new_url, **meta_json(outcome.meta)}
    if isinstance(outcome, NotFound):
        return {"status": "not_found", "reason": outcome.reason}
    if isinstance(outcome, Unverified):
        return {"status": "unverified", "reason": outcome.reason}
    return {"status": "blocked", "reason": outcome.reason}


class Counter:
    """Thread-safe tally of requests really sent, per service, and cache hits; also which
    services (and web hosts) gave any HTTP answer in this run, and subjects finished."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self._heard: set[str] = set()
        self._done: dict[str, int] = {}

    def heard(self, who: str) -> None:
        """Note that `who` (a service, or `web:<host>`) sent an HTTP answer, whatever its status."""
        with self._lock:
            self._heard.add(who)

    def heard_from(self) -> frozenset[str]:
        """Everyone who answered in this run: proof that the network works."""
        with self._lock:
            return frozenset(self._heard)

    def finished(self, service: str, n: int = 1) -> None:
        """Count `n` subjects of `service` as settled (for the progress display)."""
        with self._lock:
            self._done[service] = self._done.get(service, 0) + n

    def done(self, service: str) -> int:
        """Subjects of `service` settled so far."""
        with self._lock:
            return self._done.get(service, 0)

    def add(self, name: str, n: int = 1) -> None:
        """Count `n` requests for `name` (a RequestCounts counter)."""
        with self._lock:
            self._counts[name] = self._counts.get(name, 0) + n

    def get(self, name: str) -> int:
        """The tally for `name`."""
        with self._lock:
            return self._counts.get(name, 0)

    def snapshot(self) -> RequestCounts:
        """The tallies as a frozen RequestCounts."""
        with self._lock:
            return RequestCounts(self._counts)


class Resolver(Protocol):
    """One service. `resolve` takes every subject of a run at once so it can batch."""

    service: Service

    def handles(self, subject: str) -> bool:
        """True for subjects this resolver verifies."""
        ...

    def resolve(self, subjects: Sequence[str]) -> dict[str, Outcome]:
        """An outcome for every subject given (no subject left out)."""
        ...
