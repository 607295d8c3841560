"""Inline HTML of an awesome-list document as units: table rows with cells, and blocks of links.

Read from the tags and text of `html_tokens` (a linear-time tokenizer that gives every tag
its line). On top of it this module applies the few HTML5 tree-construction rules that
decide which row and cell a link belongs to, as a browser would: a `<td>` with no open `<tr>`
opens one (the row is marked `opened=False`), a cell ends at the next cell, row or table, and
a `<p>` or `<li>` ends at the next one. Comments never reach this module.

Why not a full HTML5 parser: html5lib took 7.3 s on the 4.5 MB of HTML of a 5,000-paper
list, and html5-parser needs an lxml built against its own libxml2; the rules above are all
that links and rows need. Text is gathered in lists of parts and joined once, so a cell or
block of any size costs linear time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from curator.core.normalize import as_written_url
from curator.sources.doc_units import Anchor, Cell, LineBuilder, Unit, UnitKind, bare_links, clean
from curator.sources.html_tokens import Tag, Text, tokens

#: Elements that hold one block of text outside tables: their links form one unit.
_BLOCKS = {
    "p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "center", "dd", "dt",
    "blockquote", "section", "article", "figure", "figcaption", "header", "footer", "ul", "ol",
}  # fmt: skip
#: A new one of these closes an open one of the same name (HTML's implied end tags).
_SELF_CLOSING_SIBLINGS = {"p", "li", "dd", "dt"}


@dataclass(frozen=True)
class SectionMark:
    """A `<summary>` title (a list section) or the `</details>` that ends it, with its line."""

    line: int
    title: str | None


@dataclass
class HtmlScan:
    """Units found in the HTML fragments, in document order, and the section marks."""

    units: list[Unit] = field(default_factory=list)
    marks: list[SectionMark] = field(default_factory=list)


def span_value(attrs: dict[str, str], name: str) -> int:
    """The `rowspan`/`colspan` value, 1 when absent or unreadable."""
    raw = attrs.get(name)
    if raw is None:
        return 1
    raw = raw.strip()
    # isdigit() alone admits "²" and 5,000-digit strings, which int() refuses.
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else 1


@dataclass
class _Link:
    """An `<a href>` being read: target, line, text parts, alt texts of its images."""

    href: str
    line: int
    parts: list[str] = field(default_factory=list)
    alts: list[str] = field(default_factory=list)

    def anchor(self) -> Anchor:
        text = clean("".join(self.parts))
        if text:
            return Anchor(self.href, text, self.line)
        return Anchor(self.href, clean(" ".join(self.alts)), self.line, image_only=bool(self.alts))


@dataclass
class _OpenCell:
    """A cell being read; its text is joined when it closes."""

    cell: Cell
    parts: list[str] = field(default_factory=list)
    lead: list[str] = field(default_factory=list)  # before the first link


class RowReader:
    """Collects table rows, blocks of links and `<details><summary>` marks from tokens."""

    def __init__(self) -> None:
        self.scan = HtmlScan()
        self._row: Unit | None = None
        self._cell: _OpenCell | None = None
        self._link: _Link | None = None
        self._strong = 0
        self._run: list[str] = []
        self._headers: list[str] = []
        self._boxes: list[tuple[str, LineBuilder]] = []
        self._summary: list[str] | None = None
        self._summary_line = 0

    def feed(self, text: str) -> HtmlScan:
        """Read all of `text` and return what it holds."""
        for token in tokens(text):
            if isinstance(token, Text):
                self.data(token)
            elif token.end:
                self.end(token)
            else:
                self.start(token)
        return self.finish()

    # -- tags ---------------------------------------------------------------------------
    def start(self, tag: Tag) -> None:
        """Open rows, cells, links, blocks and summaries; record images and line breaks."""
        name, line = tag.name, tag.line
        if name == "table":
            self._close_row()
            self._headers = []
        elif name == "tr":
            self._close_row()
            self._row = Unit(UnitKind.ROW, line, html=True, headers=self._headers)
        elif name in {"td", "th"}:
            self._open_cell(line, tag.attrs, name == "th")
        elif name == "summary":
            self._summary, self._summary_line = [], line
        elif name == "a":
            self._close_link()
            self._link = _Link(as_written_url(tag.attrs.get("href", "")), line)
        elif name == "img":
            self._image(tag.attrs)
        elif name == "br":
            self._text("\n", line)
        elif name in {"strong", "b"}:
            self._strong += 1
            self._run = []
        elif name in _BLOCKS and self._cell is None:
            self._open_box(name, line)

    def end(self, tag: Tag) -> None:
        """Close what the tag closes; a missing `</td>` is closed by the next cell or row."""
        name = tag.name
        if name in {"td", "th"}:
            self._close_cell()
        elif name in {"tr", "table"}:
            self._close_row()
        elif name == "a":
            self._close_link()
        elif name in {"strong", "b"} and self._strong:
            self._strong -= 1
            self._end_run()
        elif name == "summary" and self._summary is not None:
            title = clean("".join(self._summary))
            self.scan.marks.append(SectionMark(self._summary_line, title))
            self._summary = None
        elif name == "details":
            self.scan.marks.append(SectionMark(tag.line, None))
        elif name in _BLOCKS and self._cell is None:
            self._close_box(name)

    def data(self, token: Text) -> None:
        """Text goes to the open summary, cell or block, bold run and link."""
        if self._summary is not None:
            self._summary.append(token.text)
        self._text(token.text, token.line)

    # -- text ---------------------------------------------------------------------------
    def _text(self, data: str, line: int) -> None:
        if self._strong:
            self._run.append(data)
        if self._link is not None:
            self._link.parts.append(data)
        if self._cell is not None:
            self._cell.parts.append(data)
            if self._link is None and not self._cell.cell.links:
                self._cell.lead.append(data)
            if self._link is None:
                self._cell.cell.links.extend(bare_links(data, line))
        elif self._boxes:
            box = self._boxes[-1][1]
            box.text(data, bool(self._strong), False, self._link is not None)
            if self._link is None:
                for anchor in bare_links(data, line):
                    box.link(anchor)

    def _end_run(self) -> None:
        run, self._run = clean("".join(self._run)), []
        if not run:
            return
        if self._cell is not None:
            self._cell.cell.strong.append(run)
        elif self._boxes:
            self._boxes[-1][1].strong.append(run)

    def _image(self, attrs: dict[str, str]) -> None:
        alt = clean(attrs.get("alt", ""))
        if self._link is not None:
            self._link.alts.append(alt)
        elif alt and self._cell is not None:
            self._cell.cell.alts.append(alt)

    # -- links, cells, rows, blocks -----------------------------------------------------
    def _close_link(self) -> None:
        link, self._link = self._link, None
        if link is None or not link.href:
            return
        anchor = link.anchor()
        if self._cell is not None:
            self._cell.cell.links.append(anchor)
        elif self._boxes:
            self._boxes[-1][1].link(anchor)
        else:  # a link standing alone in an HTML block: a unit of its own
            builder = LineBuilder(UnitKind.LINE, link.line)
            builder.link(anchor)
            self._emit(builder.build())

    def _open_cell(self, line: int, attrs: dict[str, str], th: bool) -> None:
        # A cell outside any row means its `<tr>` is missing: start the row here.
        self._close_cell()
        if self._row is None:
            self._row = Unit(UnitKind.ROW, line, html=True, opened=False, headers=self._headers)
        cell = Cell(rowspan=span_value(attrs, "rowspan"), colspan=span_value(attrs, "colspan"))
        cell.th = th
        self._cell = _OpenCell(cell)
        self._row.cells.append(cell)

    def _close_cell(self) -> None:
        self._close_link()
        if self._strong:
            self._end_run()
        if self._cell is not None:
            self._cell.cell.text = "".join(self._cell.parts)
            self._cell.cell.lead = "".join(self._cell.lead)
        self._cell = None
        self._strong = 0

    def _close_row(self) -> None:
        self._close_cell()
        row, self._row = self._row, None
        if row is None or not row.cells:
            return
        if not self._headers and is_header_row(row):
            self._headers[:] = [clean(c.text) for c in row.cells]
            return
        self._emit(row)

    def _open_box(self, tag: str, line: int) -> None:
        if tag in _SELF_CLOSING_SIBLINGS and self._boxes and self._boxes[-1][0] == tag:
            self._close_box(tag)
        self._boxes.append((tag, LineBuilder(UnitKind.LINE, line)))

    def _close_box(self, tag: str) -> None:
        if not any(name == tag for name, _ in self._boxes):
            return  # a stray end tag: browsers ignore it too
        self._close_link()
        while self._boxes:
            name, builder = self._boxes.pop()
            self._emit(builder.build())
            if name == tag:
                return

    def _emit(self, unit: Unit) -> None:
        if unit.cells or unit.links:
            unit.html = True
            self.scan.units.append(unit)

    def finish(self) -> HtmlScan:
        """Flush what is still open at the end of the document."""
        self._close_row()
        while self._boxes:
            self._close_box(self._boxes[-1][0])
        self.scan.units.sort(key=lambda u: u.line)
        return self.scan


def is_header_row(row: Unit) -> bool:
    """A row of column names: no links, and every non-empty cell bold or a `<th>`."""
    if any(c.links for c in row.cells):
        return False
    cells = [c for c in row.cells if clean(c.text)]
    if not cells:
        return False
    if all(c.th for c in row.cells):
        return True
    return all(c.strong and clean(" ".join(c.strong)) == clean(c.text) for c in cells)


def parse_fragments(fragments: list[tuple[int, str]]) -> HtmlScan:
    """Parse HTML fragments given as (first line, text), keeping document line numbers.

    The fragments are joined with the blank lines between them, so every tag keeps the line
    it has in the whole document and a table split by Markdown still reads as one.
    """
    parts: list[str] = []
    at = 1
    for first, text in fragments:
        if first > at:
            parts.append("\n" * (first - at))
            at = first
        parts.append(text)
        at += text.count("\n")
    return RowReader().feed("".join(parts))
