"""What the document parsers hand to the entry reader: links as written, grouped into units.

A *unit* is the smallest piece of an awesome-list that can hold one entry: a list item's own
text, one line of a paragraph, a table row, an HTML block or row. Both parsers (Markdown in
`doc_markdown`, inline HTML in `doc_html`) produce the same values, so the entry reader
(`doc_entries`) knows one shape whatever the layout.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from enum import StrEnum

# A bare URL in text, as GitHub autolinks them: with a scheme, or `www.` and a domain.
_BARE_URL = re.compile(r"(?:https?://|(?<![\w./-])www\.(?=[\w-]+\.))[^\s<>\[\]()|\"'`]+")
_TRAILING = ".,;:!?*_~"
# Plain-text arXiv identifiers: `arXiv:2305.10250v2`, `arXiv: hep-th/9901001`.
_PLAIN_ARXIV = re.compile(
    r"\barxiv\s*:\s*(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)",
    re.IGNORECASE | re.ASCII,
)


class UnitKind(StrEnum):
    """Where a unit stands; decides what it may become."""

    ITEM = "item"  # a list item's first paragraph
    LINE = "line"  # a line of any other paragraph (or an HTML block outside tables)
    ROW = "row"  # a table row (Markdown or HTML)
    QUOTE = "quote"  # anything inside a blockquote: its links are checked, never entries
    CODE = "code"  # a code block: only its arXiv and GitHub links are read


@dataclass(frozen=True, slots=True)
class Anchor:
    """A link as written: target, visible text, line; `image_only` when it wraps a badge."""

    url: str
    text: str
    line: int
    image_only: bool = False
    bare: bool = False  # a bare URL or a plain-text `arXiv:ID`, not a link in the source
    label: str = ""  # the reference definition's label (`[text][label]`), normalised


@dataclass(slots=True)
class Cell:
    """One table cell: its text, bold runs, images' alt texts and links."""

    text: str = ""
    lead: str = ""  # the text before the cell's first link
    strong: list[str] = field(default_factory=list)
    alts: list[str] = field(default_factory=list)
    links: list[Anchor] = field(default_factory=list)
    rowspan: int = 1
    colspan: int = 1
    th: bool = False


@dataclass(slots=True)
class Unit:
    """One candidate entry: its text as runs, links, and (for rows) cells and headers.

    `lead` is the text before the first link, bold or emphasis (where a date and a plain
    title stand); `after[i]` is the text between link i and the next link (a ` - description`
    or a `(Venue)` stands there).
    """

    kind: UnitKind
    line: int
    text: str = ""
    lead: str = ""
    strong: list[str] = field(default_factory=list)
    emphasis: list[str] = field(default_factory=list)
    links: list[Anchor] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)
    headers: list[str] = field(default_factory=list)
    summary: str = ""
    context: str = ""  # the text of the enclosing list item when that item has no link
    opened: bool = True  # an HTML row whose `<tr>` was missing
    html: bool = False  # read from inline HTML (the two-row paper layout lives there)

    def all_links(self) -> list[Anchor]:
        """Links of the unit, those in cells included, in document order."""
        return self.links + [lk for c in self.cells for lk in c.links]


class LineBuilder:
    """One line (or HTML block) being read into a unit: runs of text, bold, emphasis, links.

    Text is kept in lists of parts and joined once by `build`, so a line or block of any
    length, or any number of lines merged into one unit, costs linear time.
    """

    __slots__ = (
        "after_parts", "emphasis", "frozen", "kind", "lead_parts", "line", "links",
        "pre_parts", "strong", "text_parts",
    )  # fmt: skip

    def __init__(self, kind: UnitKind, line: int) -> None:
        self.kind, self.line = kind, line
        self.text_parts: list[str] = []
        self.lead_parts: list[str] = []  # before the first link, bold or emphasis
        self.pre_parts: list[str] = []  # before the first link
        self.after_parts: list[list[str]] = []  # after each link, up to the next
        self.strong: list[str] = []
        self.emphasis: list[str] = []
        self.links: list[Anchor] = []
        self.frozen = False  # the lead has ended

    def text(self, text: str, strong: bool, em: bool, in_link: bool) -> None:
        """A run of visible text, with what it stands inside."""
        self.text_parts.append(text)
        if not self.frozen and not (strong or em or in_link):
            self.lead_parts.append(text)
        if in_link:
            return
        (self.after_parts[-1] if self.links else self.pre_parts).append(text)

    def freeze(self) -> None:
        """The lead ends here (a bold run or emphasis begins)."""
        self.frozen = True

    def link(self, anchor: Anchor) -> None:
        """A link of the line, in order."""
        self.frozen = True
        self.links.append(anchor)
        self.after_parts.append([])

    def absorb(self, other: LineBuilder) -> None:
        """Read `other` (the next line) as part of this unit: a wrapped title, a description."""
        self.text_parts += ["\n", *other.text_parts]
        if not self.frozen:
            self.lead_parts += ["\n", *other.lead_parts]
            self.frozen = other.frozen
        (self.after_parts[-1] if self.links else self.pre_parts).extend(["\n", *other.pre_parts])
        self.strong += other.strong
        self.emphasis += other.emphasis
        self.links += other.links
        self.after_parts += other.after_parts

    def build(self) -> Unit:
        """The unit read."""
        return Unit(
            self.kind, self.line, text="".join(self.text_parts), lead="".join(self.lead_parts),
            strong=self.strong, emphasis=self.emphasis, links=self.links,
            after=["".join(parts) for parts in self.after_parts],
        )  # fmt: skip


def clean(text: str) -> str:
    """Collapse runs of whitespace to one space and trim."""
    return " ".join(text.split())


class LineCounter:
    """Line numbers of positions in one text, asked for in any order, in log time each
    (counting newlines from the start for every match would be quadratic)."""

    def __init__(self, text: str, first: int = 1) -> None:
        self.first = first
        self.breaks = [m.start() for m in re.finditer("\n", text)]

    def at(self, pos: int) -> int:
        """The line of position `pos`."""
        return self.first + bisect.bisect_left(self.breaks, pos)


def bare_links(text: str, line: int) -> list[Anchor]:
    """Bare http(s) URLs and plain-text `arXiv:ID`s in one text run, in order."""
    if ":" not in text and "www." not in text:
        return []  # a scheme or `www.`: most runs of a list are plain words
    urls, ids = list(_BARE_URL.finditer(text)), list(_PLAIN_ARXIV.finditer(text))
    if not urls and not ids:
        return []  # a colon in prose (`Paper:`): no need to count its lines
    lines = LineCounter(text, line)
    found: list[tuple[int, Anchor]] = []
    for m in urls:
        written = m.group(0).rstrip(_TRAILING)
        url = written if "://" in written else "https://" + written
        found.append((m.start(), Anchor(url, written, lines.at(m.start()), bare=True)))
    for m in ids:
        url = f"https://arxiv.org/abs/{m.group(1)}"
        found.append((m.start(), Anchor(url, m.group(0), lines.at(m.start()), bare=True)))
    return [anchor for _, anchor in sorted(found, key=lambda pair: pair[0])]


def code_links(text: str, line: int) -> list[Anchor]:
    """The arXiv and GitHub links of a code block (its other URLs are examples, not links)."""
    from curator.core.normalize import arxiv_id_in_url, github_repo

    return [
        a
        for a in bare_links(text, line)
        if arxiv_id_in_url(a.url) is not None or github_repo(a.url) is not None
    ]
