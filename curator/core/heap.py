"""The cyclic garbage collector during a run: paused while large trees of plain values are
built, and kept off what was read once it is read.

A run reads its list into hundreds of thousands of small objects (YAML nodes, tokens, links,
entries) that hold no reference cycles and live until the report is written. Each pass of
the cyclic collector over them finds nothing; at 5,000 entries those passes cost a third of
the load stage and about a second of a whole run. Reference counting still frees everything
that is dropped; only the search for cycles is held back.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def bulk_build() -> Iterator[None]:
    """No cyclic collection while the block builds values (restored afterwards)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def settled() -> Iterator[None]:
    """Objects alive when `keep()` is called are not scanned again until the block ends."""
    try:
        yield
    finally:
        gc.unfreeze()


def keep() -> None:
    """Move every object alive now out of the collector's sight (inside `settled`)."""
    gc.freeze()


def before_exit() -> None:
    """The process ends now: leave what the run built out of the collector's sight, so that
    shutdown frees it without first searching it for cycles (at 5,000 entries that search
    is a tenth of a pull-request run)."""
    gc.freeze()
