"""The select stage: all entries, or in pull-request mode those added or changed since the
ref, with the lines changed per file (its git call is the stage's edge)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from curator.config.options import Options
from curator.core import heap
from curator.core.errors import InputError
from curator.core.model import Entry, Finding
from curator.sources.interface import Loaded
from curator.sources.select import Comparison


@dataclass(frozen=True)
class Selection:
    """The entries to check and, in PR mode, the lines changed per file (None: whole file)."""

    entries: list[Entry]
    changed: dict[str, set[int] | None] | None = None

    @cached_property
    def places(self) -> set[tuple[str, int]]:
        """(file, line) of every chosen entry."""
        return {(e.source.file, e.source.line) for e in self.entries}

    def keeps(self, finding: Finding) -> bool:
        """True for a finding at a chosen entry or on a changed line (always outside PR mode)."""
        if self.changed is None:
            return True
        if (finding.source.file, finding.source.line) in self.places:
            return True
        if finding.source.file not in self.changed:
            return False
        lines = self.changed[finding.source.file]
        return lines is None or finding.source.line in lines


def select(loaded: Loaded, options: Options, comparison: Comparison | None = None) -> Selection:
    """All entries, or in PR mode only those added or changed since the ref (`comparison`:
    the run's, when its load stage compared files already)."""
    if not options.changed_since:
        return Selection(list(loaded.entries))
    from curator.sources.select import Comparison, follow_references, select_changed

    comparison = comparison or Comparison(options.changed_since, Path.cwd())
    files = sorted({e.source.file for e in loaded.entries} | set(loaded.files))
    found = comparison.changes(files)
    lines = follow_references(found.lines, loaded.references)
    # An entry the base did not have counts as changed where it stands, whichever lines the
    # pull request touched to make it one.
    for entry in _revealed(loaded.entries, found.base, comparison):
        held = lines[entry.source.file]
        if held is not None:
            held.add(entry.source.line)
    # Findings on a definition's line and on the links it redirects are the pull request's.
    kept = {f: None if n is None else n | (lines[f] or set()) for f, n in found.lines.items()}
    return Selection(select_changed(loaded.entries, lines), kept)


def _revealed(
    entries: Sequence[Entry], base: Mapping[str, bytes], comparison: Comparison
) -> list[Entry]:
    """The entries of the files changed in part that their base version did not have (a
    document's base reading takes over the inline parses of its head's: `comparison`)."""
    from curator.sources.reading import entries_of, is_catalog
    from curator.sources.select import new_entries
    from curator.textio.text import decode_text

    before: dict[str, Sequence[Entry] | None] = {}
    with heap.bulk_build():  # plain values, no cycles: see curator.core.heap
        for file, data in base.items():
            inlines = None if is_catalog(file) else comparison.inlines
            try:
                before[file] = entries_of(file, decode_text(data, file), inlines)
            except InputError:
                before[file] = None
    return new_entries(entries, before)
