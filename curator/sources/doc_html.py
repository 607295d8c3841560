"""Inline HTML of an awesome-list document as table rows and cells, with their lines.

Built on the stdlib `html.parser` (which tolerates the unclosed tags real lists contain);
`getpos()` gives the line of every tag, so each row knows where it stands in the document.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class HtmlLink:
    """An `<a href>` inside a cell: its target, visible text, badge alt texts and line."""

    href: str
    line: int
    text: str = ""
    alts: list[str] = field(default_factory=list)


@dataclass
class Cell:
    """One `<td>`/`<th>`: attributes, text (`<br>` as newline), bold text, images, links."""

    line: int
    attrs: dict[str, str]
    text: str = ""
    strong: str = ""
    image_alts: list[str] = field(default_factory=list)
    links: list[HtmlLink] = field(default_factory=list)

    def span(self, name: str) -> int:
        """The `rowspan`/`colspan` value, 1 when absent or unreadable."""
        raw = self.attrs.get(name, "1").strip()
        # isdigit() alone admits "²" and 5,000-digit strings, which int() refuses.
        return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else 1


@dataclass
class Row:
    """One table row; `opened` is False when its `<tr>` was missing (cells began bare)."""

    line: int
    opened: bool
    cells: list[Cell] = field(default_factory=list)


@dataclass(frozen=True)
class SectionMark:
    """A `<summary>` title (a list section) or the `</details>` that ends it, with its line."""

    line: int
    title: str | None


class RowParser(HTMLParser):
    """Collects table rows and `<details><summary>` section marks from HTML fragments."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[Row] = []
        self.marks: list[SectionMark] = []
        self._row: Row | None = None
        self._cell: Cell | None = None
        self._link: HtmlLink | None = None
        self._strong = 0
        self._summary: list[str] | None = None
        self._summary_line = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Open rows, cells, links and summaries; record images and line breaks."""
        values = {k: v or "" for k, v in attrs}
        line = self.getpos()[0]
        if tag == "tr":
            self._close_row()
            self._row = Row(line, opened=True)
        elif tag in {"td", "th"}:
            self._open_cell(line, values)
        elif tag == "summary":
            self._summary, self._summary_line = [], line
        elif self._cell is not None:
            self._cell_tag(tag, values, line)

    def _open_cell(self, line: int, attrs: dict[str, str]) -> None:
        # A cell outside any row means its `<tr>` is missing: start the row here.
        self._close_cell()
        if self._row is None:
            self._row = Row(line, opened=False)
        self._cell = Cell(line, attrs)
        self._row.cells.append(self._cell)

    def _cell_tag(self, tag: str, attrs: dict[str, str], line: int) -> None:
        assert self._cell is not None
        if tag == "a" and attrs.get("href"):
            self._link = HtmlLink(attrs["href"].strip(), line)
            self._cell.links.append(self._link)
        elif tag == "img":
            alt = " ".join(attrs.get("alt", "").split())
            if self._link is not None:
                self._link.alts.append(alt)
            elif alt:
                self._cell.image_alts.append(alt)
        elif tag == "br":
            self._cell.text += "\n"
        elif tag in {"strong", "b"}:
            self._strong += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """`<br/>` and `<img/>` behave like their open forms."""
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        """Close what the tag closes; a missing `</td>` is closed by the next cell or row."""
        if tag in {"td", "th"}:
            self._close_cell()
        elif tag in {"tr", "table"}:
            self._close_row()
        elif tag == "a":
            self._link = None
        elif tag in {"strong", "b"} and self._strong:
            self._strong -= 1
        elif tag == "summary" and self._summary is not None:
            title = " ".join("".join(self._summary).split())
            self.marks.append(SectionMark(self._summary_line, title))
            self._summary = None
        elif tag == "details":
            self.marks.append(SectionMark(self.getpos()[0], None))

    def handle_data(self, data: str) -> None:
        """Text goes to the open summary, cell, bold run and link."""
        if self._summary is not None:
            self._summary.append(data)
        if self._cell is None:
            return
        self._cell.text += data
        if self._strong:
            self._cell.strong += data
        if self._link is not None:
            self._link.text += data

    def _close_cell(self) -> None:
        self._cell = None
        self._link = None
        self._strong = 0

    def _close_row(self) -> None:
        self._close_cell()
        if self._row is not None and self._row.cells:
            self.rows.append(self._row)
        self._row = None

    def finish(self) -> None:
        """Flush what is still open at the end of the document."""
        self.close()
        self._close_row()


def parse_fragments(fragments: list[tuple[int, str]]) -> RowParser:
    """Parse HTML fragments given as (first line, text), keeping document line numbers.

    Fragments are fed in order with blank lines in between, so `getpos()` reports the line
    each tag has in the whole document and a table split by Markdown still reads as one.
    """
    parser = RowParser()
    at = 1
    for first, text in fragments:
        if first > at:
            parser.feed("\n" * (first - at))
            at = first
        parser.feed(text)
        at += text.count("\n")
    parser.finish()
    return parser
