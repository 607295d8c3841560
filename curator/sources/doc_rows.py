"""Table rows with more cells than their header: what GitHub hides is still checked.

GitHub (GFM, as markdown-it) drops a row's cells beyond its header's count: their links are
never shown, and the reader's parse never sees them. Here the row's own line is split as GFM
splits it (at every `|` not escaped by a backslash, inside code too); each hidden cell is
read as Markdown on its own, as a cell is, and its links become entries on the row's line,
so each is resolved and checked like any other; a `document-unread` finding names the row,
the cells GitHub hides and the links in them ("row has 8 cells under a 6-column header:
GitHub hides cells 7–8").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from curator.core.model import Entry
from curator.sources.doc_entries import Place, make_entries
from curator.sources.doc_units import Unit, UnitKind

# A GFM cell boundary: a pipe that no backslash escapes.
_PIPE = re.compile(r"(?<!\\)\|")
_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]?)*")
_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class HiddenRow:
    """One row GitHub shows in part: its line, its cells and its header's count, the
    entries its hidden cells make."""

    line: int
    cells: int
    columns: int
    entries: tuple[Entry, ...] = ()
    links: tuple[str, ...] = ()  # the hidden cells' link targets, as written

    def message(self) -> str:
        first = self.columns + 1
        hidden = f"cell {first}" if first == self.cells else f"cells {first}–{self.cells}"
        return (
            f"row has {self.cells} cells under a {self.columns}-column header: GitHub hides "
            f"{hidden}, and the links in them (checked all the same)"
        )


@dataclass
class _Lines:
    """The document's lines, split once and only when a row asks."""

    text: str
    lines: list[str] = field(default_factory=list)

    def at(self, line: int) -> str:
        if not self.lines:
            self.lines = _BREAK.split(self.text)
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""


def cells_of(line: str) -> list[str]:
    """A table row's cells as GFM splits its line (blockquote markers and outer pipes off)."""
    body = _QUOTE.sub("", line, count=1).strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return _PIPE.split(body)


def hidden_rows(
    text: str,
    units: list[Unit],
    place: Callable[[int], Place],
    read: Callable[[str], list[Unit]],
    held: Callable[[int], set[str]],
) -> list[HiddenRow]:
    """Every Markdown table row with more cells than its header, with the entries its hidden
    cells make (`read`: units of a Markdown text; `held`: the subjects entries already hold
    on a line, which are not made twice)."""
    lines = _Lines(text)
    rows: list[HiddenRow] = []
    for unit in units:
        if unit.html or unit.kind not in {UnitKind.ROW, UnitKind.QUOTE} or not unit.headers:
            continue
        columns = len(unit.headers)
        cells = cells_of(lines.at(unit.line))
        if len(cells) <= columns:
            continue
        # One parse for the row: each hidden cell its own paragraph (a blank line apart),
        # so a cell's links stay its own and a row of thousands of cells costs one parse.
        texts = [c.strip() for c in cells[columns:] if c.strip()]
        hidden = read("\n\n".join(texts)) if texts else []
        links = tuple(a.url for u in hidden for a in u.all_links())
        if links:
            made = _entries(hidden, unit, place(unit.line), held(unit.line))
            rows.append(HiddenRow(unit.line, len(cells), columns, tuple(made), links))
    return rows


def _entries(hidden: list[Unit], row: Unit, place: Place, held: set[str]) -> list[Entry]:
    """The entries of the hidden cells' links, on the row's line (a subject an entry already
    has on that line is not made twice: the row's visible entry checks it)."""
    kind = UnitKind.QUOTE if row.kind is UnitKind.QUOTE else UnitKind.LINE
    out: list[Entry] = []
    for unit in hidden:
        if not unit.all_links():
            continue
        moved = replace(unit, kind=kind, line=row.line,
                        links=[replace(a, line=row.line) for a in unit.links])  # fmt: skip
        for entry in make_entries(moved, place).entries:
            if entry.subject not in held:
                out.append(entry)
                held.update(entry.subjects())
    return out
