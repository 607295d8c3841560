"""The Markdown side of an awesome-list document: headings, units of links, HTML fragments.

Parsed with markdown-it-py (CommonMark plus GFM tables); token `.map` gives the lines. Every
link is kept with its line: Markdown links, autolinks, bare URLs (GitHub autolinks them),
plain-text `arXiv:ID`s and `<a href>` written inline. Links are grouped into units (see
`doc_units`): a list item's own paragraph, one line of another paragraph, a table row, a
code block (only its arXiv and GitHub links count). HTML blocks are handed on whole, with
their first line, for `doc_html`; HTML comments never reach either side. This module holds
the walk of the token stream; the parser and curator's rules in it are `doc_parse`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown_it.token import Token

from curator.core.normalize import as_written_url
from curator.sources.doc_parse import InlineParses, definitions, flat_lines, parse
from curator.sources.doc_units import (
    Anchor,
    Cell,
    LineBuilder,
    Unit,
    UnitKind,
    bare_links,
    clean,
    code_links,
)
from curator.sources.html_tokens import Tag, tokens


@dataclass
class MdScan:
    """What the document reader needs from the Markdown layer."""

    units: list[Unit] = field(default_factory=list)
    html: list[tuple[int, str]] = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)
    levels: list[int] = field(default_factory=list)  # each heading's level, 1 for `#`
    #: Reference definitions: (label, first line, last line); a definition hidden by an
    #: earlier one of the same label has the label "".
    definitions: list[tuple[str, int, int]] = field(default_factory=list)
    #: The first line of each block nested past `FLAT_FROM` levels, read as plain lines.
    flat: list[int] = field(default_factory=list)
    #: markdown-it's tokens, for the walk of link targets and anchors (`doc_targets`).
    tokens: list[Token] = field(default_factory=list)


def tag_of(text: str) -> tuple[str, bool, dict[str, str]] | None:
    """(name, closing, attributes) of one inline HTML tag, or None for anything else.

    Read by the same tokenizer as HTML blocks, so both agree with a browser (the first of
    two `href`s is the link)."""
    found = next(iter(tokens(text.strip())), None)
    return (found.name, found.end, found.attrs) if isinstance(found, Tag) else None


class _Inline:
    """Reads the children of one inline token into lines."""

    __slots__ = ("em", "kind", "line", "lines", "link", "run", "strong")

    def __init__(self, kind: UnitKind, line: int) -> None:
        self.kind = kind
        self.lines = [LineBuilder(kind, line)]
        self.line = line
        self.strong = 0
        self.em = 0
        # [href, text, saw_image, saw_text, line, alt, reference label]
        self.link: list[str] | None = None
        self.run = ""  # the bold or emphasis text being read

    @property
    def current(self) -> LineBuilder:
        return self.lines[-1]

    def newline(self, source_line: bool = True) -> None:
        """A line break: a new source line, or a `<br>` (a break on the page only)."""
        self.line += source_line
        if self.link is not None or self.strong or self.em:
            self.current.text("\n", bool(self.strong), bool(self.em), self.link is not None)
            # The break separates words in the link's text and the bold run too ("via\nLearning").
            self.run += " " if self.strong or self.em else ""
            if self.link is not None:
                self.link[1] += " "
            return  # a link or bold run that wraps keeps its line together
        self.lines.append(LineBuilder(self.kind, self.line))

    def text(self, text: str, code: bool = False) -> None:
        link, line = self.link, self.lines[-1]
        line.text(text, self.strong > 0, self.em > 0, link is not None)
        if self.strong or self.em:
            self.run += text
        if link is not None:
            link[1] += text
            link[3] += text
        elif not code:
            for anchor in bare_links(text, self.line):
                line.link(anchor)

    def open_link(self, href: str, label: str = "") -> None:
        self.close_link()
        self.link = [href.strip(), "", "", "", str(self.line), "", label]
        self.current.freeze()

    def close_link(self) -> None:
        if self.link is None:
            return
        href, text, image, seen, line, alt, label = self.link
        self.link = None
        if href:
            only_image = bool(image) and not seen.strip()
            # A badge link reads as its image's alt text (`[![Paper](…)](venue)`), as in HTML.
            shown = clean(alt if only_image else text)
            url = as_written_url(href)
            self.current.link(Anchor(url, shown, int(line), only_image, label=label))

    def style(self, which: str, opening: bool) -> None:
        depth = 1 if opening else -1
        if which == "strong":
            self.strong = max(0, self.strong + depth)
        else:
            self.em = max(0, self.em + depth)
        self.current.freeze()
        if opening:
            self.run = ""
        elif self.run.strip():
            runs = self.current.strong if which == "strong" else self.current.emphasis
            runs.append(clean(self.run))
            self.run = ""

    def html(self, content: str) -> None:
        tag = tag_of(content)
        if tag is None:
            return  # a comment, a declaration or stray text: nothing to read
        name, closing, attrs = tag
        if name == "a":
            self.close_link() if closing else self.open_link(attrs.get("href", ""))
        elif name == "br":
            self.newline(source_line=False)
        elif name == "img" and self.link is not None:
            self.link[2] = "image"
            self.link[5] += " " + attrs.get("alt", "")
        elif name in {"b", "strong"}:
            self.style("strong", not closing)
        elif name in {"i", "em"}:
            self.style("em", not closing)


def heading_title(unit: Unit) -> str:
    """A heading's text without its in-page navigation links (`### Topic ([To Top](#top))`)."""
    title = clean(unit.text)
    for anchor in unit.links:
        if anchor.url.startswith("#") and anchor.text:
            title = title.replace(anchor.text, "")
    shown = clean(re.sub(r"\(\s*\)|\[\s*\]", "", title)) if title != clean(unit.text) else title
    return shown or clean(unit.text)


#: Emphasis tokens: (which style, opening).
_STYLES = {
    "strong_open": ("strong", True), "strong_close": ("strong", False),
    "em_open": ("em", True), "em_close": ("em", False),
}  # fmt: skip


def read_inline(tok: Token, kind: UnitKind) -> list[LineBuilder]:
    """The lines of one inline token, each with its own line number."""
    reader = _Inline(kind, tok.map[0] + 1 if tok.map else 0)
    for child in tok.children or []:
        kind_ = child.type
        # Most frequent first: a list's inline runs are mostly text, links and bold.
        if kind_ == "text" or kind_ == "code_inline":
            reader.text(child.content, code=kind_ == "code_inline")
        elif kind_ == "link_open":
            # store_labels: markdown-it names the definition a reference link came from.
            label = child.meta.get("label", "") if child.meta else ""
            reader.open_link(str(child.attrs.get("href", "")), label)
        elif kind_ == "link_close":
            reader.close_link()
        elif kind_ in _STYLES:
            reader.style(*_STYLES[kind_])
        elif kind_ == "softbreak" or kind_ == "hardbreak":
            reader.newline()
        elif kind_ == "image":
            if reader.link is not None:
                reader.link[2] = "image"
                reader.link[5] += " " + child.content
        elif kind_ == "html_inline":
            reader.html(child.content)
    reader.close_link()
    return reader.lines


def group_lines(lines: list[LineBuilder]) -> list[Unit]:
    """Lines to units: a new unit at each line with links once the current one has some."""
    groups: list[LineBuilder] = []
    for line in lines:
        if groups and not (line.links and groups[-1].links):
            groups[-1].absorb(line)
        else:
            groups.append(line)
    return [g.build() for g in groups]


def as_cell(lines: list[LineBuilder]) -> Cell:
    """A table cell from its inline lines (a `<br>` inside a cell does not split it)."""
    first = lines[0]
    for line in lines[1:]:
        first.absorb(line)
    # What `first.build()` would give, without the unit's lead and gaps a cell has no use for.
    text, lead = "".join(first.text_parts), "".join(first.pre_parts)
    return Cell(text=text, lead=lead, strong=first.strong, links=first.links)


def one_unit(lines: list[LineBuilder]) -> Unit:
    """All lines as one unit (a list item's paragraph, a table cell)."""
    first = lines[0]
    for line in lines[1:]:
        first.absorb(line)
    return first.build()


@dataclass
class _State:
    """Where the token walk stands: list items, quotes, table rows."""

    item_head: bool = False
    quote: int = 0
    in_head: bool = False
    headers: list[str] = field(default_factory=list)
    row: Unit | None = None
    items: list[Unit | None] = field(default_factory=list)  # the open list items' own units

    def context(self) -> str:
        """The title an enclosing list item states when it holds no link itself
        (`- **Title**` with the paper's links in a nested bullet)."""
        for unit in reversed(self.items[:-1]):
            if unit is not None:
                return "" if unit.links else clean(unit.strong[0] if unit.strong else unit.text)
        return ""


#: The token types `scan_markdown` and `_table_or_inline` act on; every other only ends an
#: item's head.
_READ = {
    "html_block", "code_block", "fence", "heading_open", "list_item_open", "list_item_close",
    "blockquote_open", "blockquote_close", "thead_open", "tbody_open", "tr_open", "tr_close",
    "paragraph_open", "inline",
}  # fmt: skip


def scan_markdown(text: str, inlines: InlineParses | None = None) -> MdScan:
    """Walk the token stream once and sort what it holds into an MdScan (`inlines`: the
    run's inline parses, used and added to)."""
    tokens, env = parse(text, inlines)
    scan = MdScan(definitions=definitions(env), flat=flat_lines(env), tokens=tokens)
    state = _State()
    for i, tok in enumerate(tokens):
        kind = tok.type
        if kind not in {"list_item_open", "paragraph_open"}:
            state.item_head = False  # an item that opens with HTML or a list has no own text
        if kind not in _READ:
            continue  # closing tags of cells and paragraphs, rules, list openings
        line = tok.map[0] + 1 if tok.map else 0
        if kind == "html_block":
            scan.html.append((line, tok.content))
        elif kind in {"code_block", "fence"}:
            links = code_links(tok.content, line + (kind == "fence"))
            if links:
                scan.units.append(Unit(UnitKind.CODE, line, links=links, after=[""] * len(links)))
        elif kind == "heading_open":
            heading = group_lines(read_inline(tokens[i + 1], UnitKind.LINE))
            scan.headings.append((line, heading_title(heading[0]) if heading else ""))
            scan.levels.append(int(tok.tag[1:]) if tok.tag[1:].isdigit() else 1)
            scan.units.extend(u for u in heading if u.links)
        elif kind == "list_item_open":
            state.item_head = True
            state.items.append(None)
        elif kind == "list_item_close":
            state.items.pop()
        elif kind == "blockquote_open":
            state.quote += 1
        elif kind == "blockquote_close":
            state.quote -= 1
        else:
            _table_or_inline(tok, tokens[i - 1] if i else tok, state, scan, line)
    return scan


def _table_or_inline(tok: Token, before: Token, state: _State, scan: MdScan, line: int) -> None:
    """Table structure and the inline runs of paragraphs and cells."""
    kind = tok.type
    if kind == "thead_open":
        state.in_head, state.headers = True, []
    elif kind == "tbody_open":
        state.in_head = False
    elif kind == "tr_open" and not state.in_head:
        state.row = Unit(UnitKind.QUOTE if state.quote else UnitKind.ROW, line)
        state.row.headers = state.headers
    elif kind == "tr_close" and state.row is not None:
        scan.units.append(state.row)
        state.row = None
    elif kind == "paragraph_open":
        state.item_head, head = False, state.item_head
        tok.meta["head"] = head
    elif kind == "inline" and before.type != "heading_open":
        _inline(tok, before, state, scan)


def _inline(tok: Token, before: Token, state: _State, scan: MdScan) -> None:
    """Place one inline run: a header text, a body cell, or the units of a paragraph."""
    if before.type == "th_open" and state.in_head:
        state.headers.append(clean(as_cell(read_inline(tok, UnitKind.ROW)).text))
        return
    if before.type in {"td_open", "th_open"} and state.row is not None:
        state.row.cells.append(as_cell(read_inline(tok, UnitKind.ROW)))
        return
    head = before.type == "paragraph_open" and bool(before.meta.get("head")) and bool(state.items)
    kind = UnitKind.QUOTE if state.quote else (UnitKind.ITEM if head else UnitKind.LINE)
    lines = read_inline(tok, kind)
    if kind is UnitKind.ITEM:
        unit = one_unit(lines)
        unit.context = state.context()
        state.items[-1] = unit
        scan.units.append(unit)
    else:
        scan.units.extend(group_lines(lines))
