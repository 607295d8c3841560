"""A live progress display per service on a terminal; silent in CI logs, pipes and JSON runs.

It reads the request Counter the resolvers already keep, so resolvers need no callbacks:
each service shows its subjects, the requests sent so far and cache hits, then a tick.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TextIO

from curator.model import Service
from curator.resolvers.interface import Counter, Outcome, Unverified

#: Which Counter names belong to which service (a service not listed counts under its name).
FIELDS: dict[Service, tuple[str, ...]] = {
    Service.ARXIV: ("arxiv",),
    Service.GITHUB: ("github_graphql", "github_rest"),
    Service.WEB: ("web",),
}


def wanted(stream: TextIO | None = None) -> bool:
    """True on an interactive terminal outside CI."""
    out = stream or sys.stderr
    return out.isatty() and not os.environ.get("CI") and not os.environ.get("GITHUB_ACTIONS")


class ServiceProgress:
    """Tracks which services are done; renders one line per service."""

    def __init__(self, totals: Mapping[Service, int], counter: Counter) -> None:
        self.totals = dict(totals)
        self.counter = counter
        self.done: set[Service] = set()
        self.failed: set[Service] = set()
        self._lock = threading.Lock()

    def finish(
        self,
        service: Service,
        outcomes: Mapping[str, Outcome] | None = None,
        *,
        crashed: bool = False,
    ) -> None:
        """Mark a service as finished; failed (✗) when it crashed or verified no subject."""
        failed = crashed or (
            bool(outcomes) and all(isinstance(o, Unverified) for o in (outcomes or {}).values())
        )
        with self._lock:
            self.done.add(service)
            if failed:
                self.failed.add(service)

    def lines(self) -> list[str]:
        """The current state, one plain line per service: done/total, requests, ✓ or ✗."""
        with self._lock:
            finished, failed = set(self.done), set(self.failed)
        out = []
        for service, total in self.totals.items():
            sent = sum(self.counter.get(name) for name in FIELDS.get(service, (service.value,)))
            done = total if service in finished else min(total, self.counter.done(service.value))
            mark = "…" if service not in finished else "✗" if service in failed else "✓"
            tail = " · could not be asked" if service in failed else ""
            out.append(
                f"{mark} {service.value:<6} {done:>5}/{total} subjects · {sent} requests sent{tail}"
            )
        hits = self.counter.get("cache_hits")
        out.append(f"  cache hits: {hits}")
        return out


@contextmanager
def show(totals: Mapping[Service, int], counter: Counter) -> Iterator[ServiceProgress]:
    """Yield a ServiceProgress; draw it live on stderr only when `wanted()`."""
    state = ServiceProgress(totals, counter)
    if not wanted():
        yield state
        return
    from rich.console import Console
    from rich.live import Live
    from rich.text import Text

    console = Console(file=sys.stderr)

    class _View:
        def __rich__(self) -> Text:
            return Text("\n".join(state.lines()))

    with Live(_View(), console=console, refresh_per_second=4, transient=True):
        yield state
