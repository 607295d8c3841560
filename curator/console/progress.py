"""A live progress display per service on a terminal; silent in CI logs, pipes and JSON runs.

It reads the request Counter the resolvers already keep, so resolvers need no callbacks:
each service shows its subjects, the requests sent so far and cache hits, then a tick.
It appears only once the network has been asked for longer than `DELAY` seconds, so a run
answered from the cache (or offline) never draws it, and it is erased when the run ends.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

from curator.core.model import Service
from curator.core.outcomes import Counter, Outcome, Unverified

if TYPE_CHECKING:
    from rich.console import Group
    from rich.live import Live

#: Seconds a run asks the network before the display appears.
DELAY = 1.0

#: Which Counter names belong to which service (a service not listed counts under its name).
FIELDS: dict[Service, tuple[str, ...]] = {
    Service.ARXIV: ("arxiv",),
    Service.GITHUB: ("github_graphql", "github_rest"),
    Service.WEB: ("web",),
}


def wanted(stream: TextIO | None = None) -> bool:
    """True on an interactive terminal (not `dumb`) outside CI."""
    from curator.console.terminal import is_terminal

    env = os.environ
    if env.get("CI") or env.get("GITHUB_ACTIONS") or env.get("TERM") == "dumb":
        return False
    return is_terminal(stream or sys.stderr)


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
            sent_text = f"{sent} request{'' if sent == 1 else 's'} sent"
            out.append(f"{mark} {service.value:<6} {done:>5}/{total} subjects · {sent_text}{tail}")
        hits = self.counter.get("cache_hits")
        out.append(f"  cache hits: {hits}")
        return out


@contextmanager
def show(
    totals: Mapping[Service, int],
    counter: Counter,
    *,
    offline: bool = False,
    delay: float = DELAY,
    stream: TextIO | None = None,
) -> Iterator[ServiceProgress]:
    """Yield a ServiceProgress; draw it on stderr (or `stream`) when `wanted()`, the run asks
    the network (not `offline`) and is still going after `delay` seconds."""
    state = ServiceProgress(totals, counter)
    out = stream or sys.stderr
    if offline or not wanted(out):
        yield state
        return
    view = _Delayed(state, out)
    view.start(delay)
    try:
        yield state
    finally:
        view.stop()


class _Delayed:
    """A transient rich Live view of `state`, started by a timer unless stopped first."""

    def __init__(self, state: ServiceProgress, stream: TextIO) -> None:
        self.state = state
        self.stream = stream
        self._lock = threading.Lock()
        self._stopped = False
        self._live: Live | None = None
        self._timer: threading.Timer | None = None

    def start(self, delay: float) -> None:
        """Draw after `delay` seconds."""
        self._timer = threading.Timer(delay, self._draw)
        self._timer.daemon = True
        self._timer.start()

    def _draw(self) -> None:
        from rich.console import Console
        from rich.live import Live

        with self._lock:
            if self._stopped:
                return
            console = Console(file=self.stream, highlight=False, emoji=False, markup=False)
            # stdout is left alone: the report is written there, after the display is gone.
            self._live = Live(
                self,
                console=console,
                refresh_per_second=4,
                transient=True,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self._live.start()

    def __rich__(self) -> Group:
        from rich.console import Group
        from rich.text import Text

        # One line per service, cut (never wrapped) to the terminal's width.
        return Group(*(Text(s, no_wrap=True, overflow="ellipsis") for s in self.state.lines()))

    def stop(self) -> None:
        """Stop the timer, or erase the display if it was drawn."""
        with self._lock:
            self._stopped = True
            if self._timer is not None:
                self._timer.cancel()
            if self._live is not None:
                self._live.stop()
