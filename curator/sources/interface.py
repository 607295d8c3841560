"""What a source is: something that turns a path into entries (and offline findings)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from curator.core.model import Entry, Finding


@dataclass(frozen=True)
class Reference:
    """A Markdown link reference definition (`[label]: url`): its lines, and the lines of
    the links that use it. Editing it changes those links, wherever they stand."""

    file: str
    first: int
    last: int
    used_at: tuple[int, ...] = ()


@dataclass(frozen=True)
class Loaded:
    """Entries read from a path, plus findings that need no network (schema, bad IDs)."""

    entries: tuple[Entry, ...] = ()
    findings: tuple[Finding, ...] = ()
    files: tuple[str, ...] = field(default_factory=tuple)
    notes: tuple[str, ...] = ()  # what the reader wants the report to say (reading gaps)
    references: tuple[Reference, ...] = ()


class ListSource(Protocol):
    """A format of input, built with the run's CheckContext (so that findings made while
    reading take the configured severities). Raises InputError for unreadable input only."""

    name: str

    def accepts(self, path: Path) -> bool:
        """True when this source reads `path`."""
        ...

    def load(self, path: Path) -> Loaded:
        """Read every entry of `path` with file and line."""
        ...
